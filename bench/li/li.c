/* li.c -- li_measure (li.h): the repetitions of one point, the same on
 * every backend.  No orma or MPI here: it runs in both programs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "li.h"

#define LI_MIN_SAMPLES 5

/* Every rank starts after a barrier, and the sample is the slowest rank's
 * time.  A rank whose data did not verify (fn returned -1) contributes
 * infinity, which the maximum carries to every rank: one collective call
 * decides both. */
double li_sample(li_lib *l, double (*fn)(void *arg), void *arg)
{
    l->barrier(l);
    double t = fn(arg);
    double slowest = l->max(l, t < 0.0 ? INFINITY : t);
    return isinf(slowest) ? -1.0 : slowest;
}

long li_measure(li_lib *l, double (*fn)(void *arg), void *arg, double *us)
{
    const bench_opts *o = l->opts;
    double target = o->quick ? 0.05 : 0.2;
    long want = LI_MAX_SAMPLES;
    if (o->reps > 0 && o->reps < want)
        want = o->reps;
    /* The warm-up sample: first touches, first connections. */
    if (li_sample(l, fn, arg) < 0.0)
        return -1;
    /* Every rank sees the same slowest times, so every rank stops after
     * the same sample without another agreement. */
    double spent = 0.0;
    long n = 0;
    while (n < want) {
        double s = li_sample(l, fn, arg);
        if (s < 0.0)
            return -1;
        us[n++] = s * 1e6;
        spent += s;
        if (o->reps <= 0 && n >= LI_MIN_SAMPLES && spent >= target)
            break;
    }
    return n;
}

void *li_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "orma-bench: out of memory (%zu bytes)\n", n);
        exit(BENCH_FAIL);
    }
    return p;
}
