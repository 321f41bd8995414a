/* plan_coll.c -- see plan_coll.h. */
#include <orma.h>

#include "check.h"
#include "ctl.h"
#include "plan.h"
#include "plan_coll.h"

/* Seconds of the slowest rank for iters iterations, started together. */
static double sample(const bench_ctx *ctx, bench_coll_fn fn, void *arg,
                     long iters)
{
    BENCH_CHECK(orma_barrier());
    double t0 = orma_wtime();
    fn(arg, iters);
    double t = orma_wtime() - t0;
    /* Picoseconds: an integer every rank agrees on, hence the same
     * decisions below on every rank. */
    uint64_t ps = bench_ctl_max(ctx->ctl, (uint64_t)(t * 1e12));
    return (double)ps * 1e-12;
}

void bench_time_collective(const bench_ctx *ctx, double sample_s,
                           bench_coll_fn fn, void *arg, double **samples_p,
                           long *n_p)
{
    fn(arg, BENCH_COLL_WARMUP); /* lazy set-up, caches */
    long iters = 1;
    double t;
    for (;;) {
        t = sample(ctx, fn, arg, iters);
        if (t >= sample_s || iters >= BENCH_COLL_MAX_ITERS)
            break;
        double scale = t > 0.0 ? 1.5 * sample_s / t : 16.0;
        iters = (long)((double)iters *
                       (scale < 2.0 ? 2.0 : scale > 1024.0 ? 1024.0 : scale));
    }
    long n = bench_reps_for(ctx->opts, t);
    double *us = bench_xmalloc((size_t)n * sizeof *us);
    for (long i = 0; i < n; i++)
        us[i] = sample(ctx, fn, arg, iters) * 1e6 / (double)iters;
    *samples_p = us;
    *n_p = n;
}
