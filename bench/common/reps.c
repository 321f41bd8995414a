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

long bench_reps_calibrate(double (*sample)(void *arg), void *arg, long *reps,
                          double target, long max)
{
    *reps = 1;
    for (;;) {
        double t = sample(arg);
        double t2 = t < 0.0 ? t : sample(arg);
        if (t < 0.0 || t2 < 0.0)
            return -1;
        if (t2 < t)
            t = t2;
        if (t >= target || *reps >= max)
            return *reps;
        double grow = t > 0.0 ? 1.5 * target / t : 2.0;
        long next = grow < 2.0 ? 2 * *reps : (long)((double)*reps * grow);
        *reps = next < max ? next : max;
    }
}

long bench_iters_calibrate(double (*fn)(void *arg, long iters, uint64_t batch), void *arg, uint64_t *batch_p,
                           long warm, long first, long max, double target, double *last_s)
{
    fn(arg, warm, (*batch_p)++);
    long iters = first;
    double t;
    for (;;) {
        t = fn(arg, iters, (*batch_p)++);
        if (t >= target || iters >= max)
            break;
        double scale = t > 0.0 ? 1.5 * target / t : 16.0;
        iters = (long)((double)iters * (scale < 2.0 ? 2.0 : scale > 1024.0 ? 1024.0 : scale));
        if (iters > max)
            iters = max;
    }
    *last_s = t;
    return iters;
}
