/* plan.c -- see plan.h. */
#include <stdlib.h>

#include <orma.h>

#include "check.h"
#include "plan.h"

int bench_time_kernel(const bench_opts *o, bench_kernel_fn fn, void *arg,
                      double **samples_p, long *n_p)
{
    /* Two untimed calls fault the pages in and warm the caches. */
    if (fn(arg, 1) != 0 || fn(arg, 1) != 0)
        return -1;
    long iters = 1;
    double t;
    for (;;) {
        double t0 = orma_wtime();
        if (fn(arg, iters) != 0)
            return -1;
        t = orma_wtime() - t0;
        if (t >= BENCH_MIN_SAMPLE_S || iters >= (1L << 24))
            break;
        /* Jump close to the goal instead of doubling from 1 each time. */
        double scale = t > 0.0 ? 1.5 * BENCH_MIN_SAMPLE_S / t : 16.0;
        iters = (long)(iters * (scale < 2.0 ? 2.0 : scale > 1024.0 ? 1024.0 : scale));
    }
    long n = bench_reps_for(o, t);
    double *v = bench_xmalloc((size_t)n * sizeof *v);
    for (long i = 0; i < n; i++) {
        double t0 = orma_wtime();
        if (fn(arg, iters) != 0) {
            free(v);
            return -1;
        }
        v[i] = (orma_wtime() - t0) * 1e6 / (double)iters;
    }
    *samples_p = v;
    *n_p = n;
    return 0;
}
