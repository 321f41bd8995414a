/* plan.h -- how many repetitions a data point gets, and timing of a local
 * kernel (one rank alone, e.g. memcpy) in samples long enough for the timer.
 *
 * Without --reps a point aims at bench_target_seconds() of wall time: small
 * sizes get many repetitions, large ones few, never fewer than
 * BENCH_MIN_REPS.  Warm-up repetitions are run first and not counted. */
#ifndef BENCH_PLAN_H
#define BENCH_PLAN_H

#include "opts.h"

#define BENCH_MIN_REPS 10
#define BENCH_MAX_REPS 20000

double bench_target_seconds(const bench_opts *o);

/* --reps when given, else the target time over seconds_per_rep, clamped to
 * [BENCH_MIN_REPS, BENCH_MAX_REPS]. */
long bench_reps_for(const bench_opts *o, double seconds_per_rep);

/* Runs iters iterations of something; returns 0, or -1 after printing why. */
typedef int (*bench_kernel_fn)(void *arg, long iters);

/* Warm fn up, find an iteration count per sample that lasts at least
 * BENCH_MIN_SAMPLE_S, then take bench_reps_for() samples.  *samples_p
 * (malloc'd, caller frees) receives microseconds per iteration.  Returns 0,
 * or -1 when fn failed (nothing allocated). */
#define BENCH_MIN_SAMPLE_S 50e-6
int bench_time_kernel(const bench_opts *o, bench_kernel_fn fn, void *arg,
                      double **samples_p, long *n_p);

#endif
