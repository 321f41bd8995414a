/* atomics.h -- the suite "atomics": the accumulate family and atomics, 2
 * ranks (works with more), on one window flavour at a time (default
 * allocate, --window as pingpong):
 *
 *   fop       orma_fetch_and_op, ORMA_SUM of 1 on one int64 of rank 1,
 *             issued by rank 0 while rank 1 waits in a barrier:
 *             sync flush     inside one lock_all epoch, flush(1) after each
 *             sync lk_flush  inside one lock(SHARED, 1) epoch, the same
 *             sync fence     one fop per fence epoch (every rank fences)
 *   cas       orma_compare_and_swap on one int64 of rank 1, sync flush;
 *             the compare value is what the previous swap stored, so
 *             every swap succeeds
 *   fop_cont  every rank adds 1 to one int64 of rank 0, sync flush
 *   acc       orma_accumulate, ORMA_SUM on doubles, rank 0 to rank 1, each
 *             call in its own lock(EXCLUSIVE, 1) (sync lock_ex) or
 *             lock(SHARED, 1) (sync lock_sh) epoch; every size of --sizes
 *             that is a multiple of 8
 *   memcpy    the floor (floor.h), at every size of --sizes
 *
 * fop, cas and fop_cont are 8-byte rows; a sample is the time of a batch
 * of operations divided by its length (atomics_lat.c).  Every row checks
 * the values the calls returned and, at the end of the point, what the
 * target holds; a row that does not verify is not reported, the others
 * still run, and the exit status is 1.  The summary compares acc with
 * memcpy and the fop latency with its bar (atomics_summary.c). */
#ifndef BENCH_ATOMICS_H
#define BENCH_ATOMICS_H

#include <stdint.h>

#include "bench.h"
#include "windows.h"

int bench_atomics_run(const bench_ctx *ctx);

/* The collective rows' sample length (fence, fop_cont), as the sync
 * suite's. */
#define AT_SAMPLE_S 200e-6

/* The rows' sync names, NULL-terminated, and the index of each. */
enum { AT_FLUSH, AT_LK_FLUSH, AT_FENCE, AT_LOCK_EX, AT_LOCK_SH, AT_NSYNC };
extern const char *const at_sync_names[];

/* One window of the run, and what the rows on it share. */
typedef struct at_run {
    const bench_ctx *ctx;
    bench_window w;  /* at least 64 bytes at every rank */
    long points;     /* data points so far: every point starts afresh */
} at_run;

/* Each returns 0 when the point verified on every rank, else -1 (the
 * ranks agree); collective. */
int at_fop_point(at_run *r, int sync);      /* atomics_lat.c */
int at_cas_point(at_run *r);                /* atomics_lat.c */
int at_contended_point(at_run *r);          /* atomics_contended.c */
int at_acc_point(at_run *r, size_t n, int sync); /* atomics_acc.c */

/* The counter the 8-byte rows work on: word 0 of owner's window, with a
 * guard word after it that no row may change.  reset (collective) writes
 * a start value that differs per point into owner's counter and returns
 * it.  check (collective, after the point's last operation completed and
 * a barrier) returns 1 on every rank when ok is non-zero on every rank,
 * the counter holds want and the guard is intact; else 0, and the owner
 * reports what it found (atomics_lat.c). */
int64_t at_counter_reset(at_run *r, int owner);
int at_counter_check(at_run *r, int owner, int64_t want, const char *what,
                     int ok);

/* The ratios of this run's medians (atomics_summary.c); rank 0 prints. */
void at_summary(const bench_ctx *ctx);

#endif
