/* plan.h -- how many repetitions a data point gets (reps.h), and timing of
 * a local kernel (one rank alone, e.g. memcpy) in samples long enough for
 * the timer. */
#ifndef BENCH_PLAN_H
#define BENCH_PLAN_H

#include "opts.h"
#include "reps.h"

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
