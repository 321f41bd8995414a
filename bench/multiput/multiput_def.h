/* multiput_def.h -- what a multiput point is, whoever measures it: seed
 * 000's test of "multiple put operations between the same pair of
 * processes" (its Fig. 11, with start/post).  orma-bench (multiput.c, on
 * lat_orma.c) and the MPI program of the MPI backends (mpi/mpib_lat.c)
 * both use these; nothing here depends on orma or MPI.
 *
 * One point: a buffer of S bytes goes from the origin's buffer to the
 * target's window as k puts of adjacent bytes in one epoch -- S / k bytes
 * each, the last one taking the rest when k does not divide S -- piece j
 * from byte j x (S / k) of the buffer to the same byte of the target
 * region (lat_rma.h).  The same data as one put of S bytes (k = 1), which
 * a library could notice and merge; orma does not.
 *
 * The epochs and the timing are the latency suite's (lat_def.h,
 * lat_point.h): fence and pscw are OSU's loops in which both ranks act in
 * turn (one iteration: rank 0's epoch of k puts to rank 1, then rank 1's
 * to rank 0; its time over 2), lock is lock(SHARED, 1); k puts; unlock(1)
 * on rank 0, flush is k puts; flush(1) inside one lock(SHARED, 1) per
 * point; rank 1 waits in a barrier in those two.  A row's time is one
 * epoch's: us per epoch of k puts, on rank 0's clock.
 *
 * Rows: op put<k> (put1, put2, put4, put8, put16), sync, window, bytes S;
 * the order of the points puts the k of one (size, mode) one after the
 * other, so that time(k) / time(1) compares times measured seconds apart. */
#ifndef BENCH_MULTIPUT_DEF_H
#define BENCH_MULTIPUT_DEF_H

#include "lat_rma.h"
#include "opts.h"

/* The --op names and rows' ops, NULL-terminated, and k of each. */
extern const char *const multiput_op_names[];
extern const int multiput_pieces[];

/* The --sync names, NULL-terminated: fence, pscw, lock, flush (a subset
 * of lat_sync_names). */
extern const char *const multiput_sync_names[];

/* The --window names are the latency suite's (lat_window_kinds); without
 * --window, MULTIPUT_WINDOWS: a window orma reaches with loads and stores
 * and one on malloc'd memory, which it reaches through process_vm_writev
 * (a system call per put). */
#define MULTIPUT_WINDOWS "allocate,create"

/* The suite's defaults where the options leave them open: the windows
 * above; sizes 64 B to 4 MB in powers of 4 (--quick: 64, 1K, 16K, 256K,
 * 1M).  64 B: 16 puts of 4 B. */
void multiput_default_options(bench_opts *o);

/* 1 when --sync selects lat_sync m and the suite has it. */
int multiput_sync_on(const bench_opts *o, int m);

/* The series of the suite on one window (lat_rma_series_fn; the op is
 * PP_PUT): per size, per selected mode, every selected k, one point each;
 * a size smaller than k is skipped (the suite notes it).  Collective; a
 * BENCH_* status, the same on both ranks. */
int multiput_series(lat_rma_set *set);

#endif
