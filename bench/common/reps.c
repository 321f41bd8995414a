/* reps.c -- see reps.h. */
#include "reps.h"

double bench_target_seconds(const bench_opts *o)
{
    /* 0.1 s per point keeps the default pingpong run (about 140 points)
     * around 20-30 s; --quick is meant for a smoke run of a few seconds. */
    return o->quick ? 0.02 : 0.1;
}

long bench_reps_for(const bench_opts *o, double seconds_per_rep)
{
    if (o->reps > 0)
        return o->reps;
    if (!(seconds_per_rep > 0.0))
        return BENCH_MAX_REPS;
    double r = bench_target_seconds(o) / seconds_per_rep;
    if (r < BENCH_MIN_REPS)
        return BENCH_MIN_REPS;
    if (r > BENCH_MAX_REPS)
        return BENCH_MAX_REPS;
    return (long)r;
}
