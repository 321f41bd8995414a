/* lat_point.c -- see lat_point.h. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lat_def.h"
#include "lat_point.h"
#include "reps.h"

/* CLOCK_MONOTONIC, the clock of orma_wtime and of the MPI program's
 * mpib_now, for the wall time of a whole batch. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double batch(const lat_hooks *h, long iters)
{
    h->prepare(h->arg);
    double t = h->loop(h->arg, iters);
    h->check(h->arg, iters);
    return t;
}

long lat_point_measure(const bench_opts *o, const lat_hooks *h, size_t n,
                       int ops_per_iter, double **us_p)
{
    long skip = lat_skip(n);
    batch(h, skip);
    double w0 = now();
    double t = batch(h, skip);
    double wall = now() - w0;
    /* Rank 0 decides; the others take its numbers. */
    double iter_s = t / (double)skip;
    long iters = h->bcast(h->arg, lat_iters_for(n, iter_s));
    double untimed = wall > t ? wall - t : 0.0;
    long nb = h->bcast(h->arg,
                       bench_reps_for(o, untimed + (double)iters * iter_s));
    double *us = malloc((size_t)nb * sizeof *us);
    if (us == NULL) {
        fprintf(stderr, "orma-bench: out of memory\n");
        exit(BENCH_FAIL);
    }
    for (long i = 0; i < nb; i++)
        us[i] = batch(h, iters) * 1e6 / ((double)iters * ops_per_iter);
    *us_p = us;
    return nb;
}
