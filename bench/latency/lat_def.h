/* lat_def.h -- what a latency point is, whoever measures it: the
 * synchronization modes, operations and window flavours of the latency
 * suite, and its repetition policy.  orma-bench (latency.c, lat_orma.c)
 * and the MPI program of the MPI backends (mpi/mpib_lat.c) both use these,
 * so that their numbers measure the same thing; nothing here depends on
 * orma or MPI.
 *
 * The loops are OSU micro-benchmarks' osu_put_latency, osu_get_latency
 * and osu_acc_latency (rank 0 the origin, rank 1 the target), one
 * iteration being:
 *
 *   fence        rank 0: fence; op; fence; fence
 *                rank 1: fence; fence; op; fence      (per iteration: 2 ops)
 *   pscw         rank 0: start({1}); op; complete; post({1}); wait
 *                rank 1: post({0}); wait; start({0}); op; complete  (2 ops)
 *   lock         rank 0: lock(SHARED, 1); op; unlock(1)
 *   lock_all     rank 0: lock_all; op; unlock_all
 *   flush        rank 0: op; flush(1)        inside one lock(SHARED, 1)
 *   flush_local  rank 0: op; flush_local(1)  epoch per point
 *
 * In the passive modes rank 1 does nothing but wait in a barrier, as in
 * OSU.  The latency is the loop's elapsed time on rank 0 over the number
 * of operations it made: iterations, or 2 x iterations for fence and pscw
 * (OSU divides those by 2: both ranks act in turn). */
#ifndef BENCH_LAT_DEF_H
#define BENCH_LAT_DEF_H

#include <stddef.h>

#include "opts.h"
#include "pp_def.h"

typedef enum lat_sync {
    LAT_FENCE,
    LAT_PSCW,
    LAT_LOCK,
    LAT_LOCK_ALL,
    LAT_FLUSH,
    LAT_FLUSH_LOCAL,
    LAT_NSYNC
} lat_sync;

/* Names by lat_sync, NULL-terminated: the --sync names and the rows' sync. */
extern const char *const lat_sync_names[];

/* The operations, a subset of pingpong's (pp_def.h: PP_PUT, PP_GET,
 * PP_ACC; acc is SUM on uint64 elements, so its sizes are multiples of 8),
 * NULL-terminated: the --op names and the rows' op. */
extern const char *const lat_op_names[];

/* The window flavours (windows.h, mpi/mpib_win.h), NULL-terminated.  The
 * pingpong suite's five and dynamic_allocmem: a dynamic window whose
 * attached memory comes from orma_alloc_mem (MPI_Alloc_mem), which orma
 * maps, where dynamic attaches malloc'd memory, which it cannot; then
 * create_fit and stack, made per point and only when --window names them
 * (fit.h). */
extern const char *const lat_window_kinds[];

/* 1 when orma reaches the target memory of a window of this flavour with
 * loads and stores, 0 when it must use process_vm_writev/readv (CMA): by
 * how the bench obtains the memory -- orma_win_allocate(_shared) and
 * orma_alloc_mem (MPI_Win_allocate(_shared), MPI_Alloc_mem under
 * liborma-mpi) are mapped; malloc'd memory (create, dynamic) is too, its
 * whole pages adopted into shared segments (the bench's target regions
 * lie inside them), unless the run sets ORMA_ADOPT=0.  Never the stack
 * (orma adopts none of it), nor create_fit: its small points are blocks
 * inside a page, which orma cannot adopt (at a few pages and more it does
 * adopt their whole pages, and a block in a mapping of its own whole). */
int lat_window_direct(const char *kind);

/* The bytes before and after the target region in a window of this
 * flavour: LAT_GUARD, or 0 for create_fit, whose window is exactly the
 * point's bytes. */
size_t lat_window_guard(const char *kind);

/* Operations one loop iteration makes on rank 0's clock: 2 for fence and
 * pscw, 1 for the others. */
int lat_ops_per_iter(lat_sync sync);

/* The target region of a window starts LAT_GUARD bytes into it and is
 * followed by LAT_GUARD more: a window (and get's result buffer) is
 * max + 2 x LAT_GUARD bytes, and a stray byte on either side shows.  The
 * flavours made per point (fit.h) are sized to the point instead: a stack
 * window n + 2 x LAT_GUARD bytes, a create_fit window n (no guard,
 * lat_window_guard). */
#define LAT_GUARD 4096

/* OSU's warm-up (skip) and iteration counts: 100 and 10000 up to 8 KB,
 * 10 and 1000 above.  Here the iterations are split in batches (below),
 * and OSU's count only caps a batch. */
#define LAT_LARGE 8192
long lat_skip(size_t n);
long lat_iters_max(size_t n);

/* A batch lasts about LAT_BATCH_S: long enough for the clock, short
 * enough that a point has many batches, whose min/median/max are
 * reported, and that on a busy machine most batches run without being
 * preempted (then the median ignores the others): the floors' samples
 * last at least 50 us (plan.h), the scheduler's slices milliseconds.  And
 * it has at least LAT_MIN_ITERS iterations: the target's check between
 * batches pulls the region into its core's cache, which the first
 * iteration of the next batch pays for -- at 4 MB, one more pass over the
 * memory -- and which OSU's unbroken loop and the floors never see. */
#define LAT_BATCH_S 100e-6
#define LAT_MIN_ITERS 16

/* Iterations per batch for an iteration of iter_s seconds, in
 * [LAT_MIN_ITERS, lat_iters_max(n)]. */
long lat_iters_for(size_t n, double iter_s);

#endif
