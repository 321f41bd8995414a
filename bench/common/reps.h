/* reps.h -- how many repetitions a data point gets, whoever measures it
 * (orma's suites, plan.h; the MPI backends' program, mpi/).
 *
 * Without --reps a point aims at bench_target_seconds() of wall time: small
 * sizes get many repetitions, large ones few, never fewer than
 * BENCH_MIN_REPS.  Warm-up repetitions are run first and not counted. */
#ifndef BENCH_REPS_H
#define BENCH_REPS_H

#include <stdint.h>

#include "opts.h"

#define BENCH_MIN_REPS 10
#define BENCH_MAX_REPS 20000

double bench_target_seconds(const bench_opts *o);

/* --reps when given, else the target time over seconds_per_rep, clamped to
 * [BENCH_MIN_REPS, BENCH_MAX_REPS]. */
long bench_reps_for(const bench_opts *o, double seconds_per_rep);

/* The repetitions per sample of a suite whose sample times *reps
 * repetitions on every rank (as, bspbench): sample(arg) returns the
 * slowest rank's seconds, the same on every rank, or -1 when the data did
 * not verify.  *reps, from 1, is doubled (at least) until a sample lasts
 * target seconds, or reaches max; every rank takes the same count.  Each
 * count is timed twice and the shorter taken: on a busy machine one
 * preempted sample would otherwise stop the growth at a count far too
 * small.  The first samples warm up too.  Returns *reps, or -1 (data). */
long bench_reps_calibrate(double (*sample)(void *arg), void *arg, long *reps,
                          double target, long max);

/* The iterations per batch of a suite whose batch fn(arg, iters, batch)
 * runs iters iterations and returns its seconds, the same on every rank
 * (ghost, notify): a warm-up batch of warm iterations, then batches of
 * first iterations and more -- times 1.5 x target / time, at least 2x and
 * at most 1024x each time -- until one lasts target seconds or reaches
 * max.  *batch_p numbers the batches (their data's seeds) and is advanced
 * past those run.  Returns the count; *last_s gets the last batch's
 * seconds. */
long bench_iters_calibrate(double (*fn)(void *arg, long iters, uint64_t batch), void *arg, uint64_t *batch_p,
                           long warm, long first, long max, double target, double *last_s);

#endif
