/* reps.h -- how many repetitions a data point gets, whoever measures it
 * (orma's suites, plan.h; the MPI backends' program, mpi/).
 *
 * Without --reps a point aims at bench_target_seconds() of wall time: small
 * sizes get many repetitions, large ones few, never fewer than
 * BENCH_MIN_REPS.  Warm-up repetitions are run first and not counted. */
#ifndef BENCH_REPS_H
#define BENCH_REPS_H

#include "opts.h"

#define BENCH_MIN_REPS 10
#define BENCH_MAX_REPS 20000

double bench_target_seconds(const bench_opts *o);

/* --reps when given, else the target time over seconds_per_rep, clamped to
 * [BENCH_MIN_REPS, BENCH_MAX_REPS]. */
long bench_reps_for(const bench_opts *o, double seconds_per_rep);

#endif
