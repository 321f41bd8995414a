/* plan_coll.h -- timing of a kernel that every rank runs at once: the
 * collective calls (fence) and contention (every rank on one counter),
 * where rank 0 cannot time alone as bench_time_kernel (plan.h) does.
 *
 * Every rank runs the same iteration count of fn; a sample starts after a
 * barrier and is the slowest rank's time (agreed through the control
 * window, so every rank takes the same decisions), divided by the count.
 * The count grows from 1 until a sample lasts sample_s; bench_reps_for()
 * samples follow, after BENCH_COLL_WARMUP untimed iterations. */
#ifndef BENCH_PLAN_COLL_H
#define BENCH_PLAN_COLL_H

#include "bench.h"

#define BENCH_COLL_WARMUP 16
#define BENCH_COLL_MAX_ITERS (1L << 24)

/* Runs iters iterations.  It cannot fail: a rank that stopped would leave
 * the others waiting, so it records what went wrong for its caller. */
typedef void (*bench_coll_fn)(void *arg, long iters);

/* Collective.  *samples_p (malloc'd, caller frees) receives microseconds
 * per iteration, *n_p their count. */
void bench_time_collective(const bench_ctx *ctx, double sample_s,
                           bench_coll_fn fn, void *arg, double **samples_p,
                           long *n_p);

#endif
