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

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL) {
        fprintf(stderr, "orma-bench: out of memory\n");
        exit(BENCH_FAIL);
    }
    return p;
}

void lat_point_measure(const bench_opts *o, const lat_hooks *h, int k,
                       int first, size_t n, int ops_per_iter,
                       lat_samples *out)
{
    long skip = lat_skip(n), iters[LAT_POINT_MAX], most = 0;
    /* order[j]: the backend of the j-th batch of every round. */
    int order[LAT_POINT_MAX];
    for (int j = 0; j < k; j++)
        order[j] = (first + j) % k;
    for (int j = 0; j < k; j++)
        batch(&h[order[j]], skip);
    for (int j = 0; j < k; j++) {
        const lat_hooks *b = &h[order[j]];
        double w0 = now();
        double t = batch(b, skip);
        double wall = now() - w0;
        /* Rank 0 decides; the others take its numbers. */
        double iter_s = t / (double)skip;
        long it = b->bcast(b->arg, lat_iters_for(n, iter_s));
        double untimed = wall > t ? wall - t : 0.0;
        long nb = b->bcast(b->arg,
                           bench_reps_for(o, untimed + (double)it * iter_s));
        iters[order[j]] = it;
        out[order[j]].n = nb;
        out[order[j]].us = xmalloc((size_t)nb * sizeof(double));
        if (nb > most)
            most = nb;
    }
    for (long i = 0; i < most; i++)
        for (int j = 0; j < k; j++) {
            int b = order[j];
            if (i < out[b].n)
                out[b].us[i] = batch(&h[b], iters[b]) * 1e6 /
                               ((double)iters[b] * ops_per_iter);
        }
}
