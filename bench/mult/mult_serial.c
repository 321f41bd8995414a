/* mult_serial.c -- the serial reference time of the mult suite (mult.h):
 * C = A x B for the whole n x n matrices on rank 0, with the kernel every
 * rank of the parallel versions runs on its blocks (mult_def.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "ctl.h"
#include "mult.h"
#include "mult_def.h"
#include "report.h"
#include "stats.h"

/* The samples' policy is li_measure's: one to warm up, then --reps, or as
 * many as fill about 0.2 s (0.05 s with --quick), at least 5. */
#define MIN_SAMPLES 5
#define MAX_SAMPLES 1000

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct serial {
    size_t n;
    double *A, *B, *at, *C, *ref;
} serial;

static void serial_free(serial *s)
{
    free(s->A);
    free(s->B);
    free(s->at);
    free(s->C);
    free(s->ref);
}

/* The whole matrices, and the reference product from mult_def.h's
 * formulas (a 1 x 1 grid's one block). */
static void serial_open(serial *s, size_t n)
{
    size_t bytes = n * n * sizeof(double);
    mult_grid g;
    mult_grid_init(1, 0, &g);
    s->n = n;
    s->A = bench_xmalloc(bytes);
    s->B = bench_xmalloc(bytes);
    s->at = bench_xmalloc(bytes);
    s->C = bench_xmalloc(bytes);
    s->ref = bench_xmalloc(bytes);
    if (mult_reference(&g, n, s->ref) != 0) {
        fprintf(stderr, "orma-bench: out of memory (the serial reference of "
                "n = %zu)\n", n);
        exit(BENCH_FAIL);
    }
    mult_block_fill(s->A, 0, n, 0, 0);
    mult_block_fill(s->B, 1, n, 0, 0);
}

/* One product, timed as a parallel sample is (C zeroed, transpose, the
 * column loop); its result checked untimed.  Seconds, or -1 when wrong. */
static double serial_sample(serial *s)
{
    double t0 = now();
    memset(s->C, 0, s->n * s->n * sizeof *s->C);
    mult_transpose(s->A, s->at, s->n);
    mult_acc(s->C, s->at, s->B, s->n);
    double t = now() - t0;
    mult_grid g;
    mult_grid_init(1, 0, &g);
    char msg[200];
    if (!mult_check(&g, s->n, s->C, s->ref, msg, sizeof msg)) {
        fprintf(stderr, "orma-bench: mult serial: rank 0: n=%zu: %s\n",
                s->n, msg);
        return -1.0;
    }
    return t;
}

/* Rank 0: the row of order n.  A BENCH_* status. */
static int serial_point(const bench_ctx *ctx, size_t n, double *us)
{
    const bench_opts *o = ctx->opts;
    serial s;
    serial_open(&s, n);
    bench_progress("serial", n);
    double warm = serial_sample(&s);
    long count = o->reps;
    if (count <= 0) {
        double target = o->quick ? 0.05 : 0.2;
        count = warm > 0.0 ? (long)(target / warm) : MAX_SAMPLES;
        count = count < MIN_SAMPLES ? MIN_SAMPLES : count;
    }
    count = count > MAX_SAMPLES ? MAX_SAMPLES : count;
    int st = warm < 0.0 ? BENCH_FAIL : BENCH_OK;
    for (long i = 0; i < count && st == BENCH_OK; i++) {
        double t = serial_sample(&s);
        if (t < 0.0)
            st = BENCH_FAIL;
        us[i] = t * 1e6;
    }
    if (st == BENCH_OK) {
        bench_stats sm;
        bench_stats_compute(us, count, &sm);
        /* p = 1: one process computed it, whatever the job's size. */
        bench_result r = {ctx->suite, "serial", "serial", "none", "none", 1,
                          n, count, sm.min, sm.median, sm.max, 0.0, NULL};
        bench_report_add(ctx, &r);
    }
    serial_free(&s);
    return st;
}

int mult_serial_run(const bench_ctx *ctx)
{
    int st = BENCH_OK;
    int P = mult_isqrt(ctx->size);
    if (ctx->rank == 0 && P > 0) {
        const bench_opts *o = ctx->opts;
        double *us = bench_xmalloc(MAX_SAMPLES * sizeof *us);
        for (int i = 0; i < o->nsizes; i++)
            if (mult_size_ok(o->sizes[i], P) &&
                serial_point(ctx, o->sizes[i], us) != BENCH_OK)
                st = BENCH_FAIL;
        free(us);
    }
    /* The other ranks wait here, asleep once the barrier's spinning is
     * over, leaving the cores to rank 0. */
    return (int)bench_ctl_bcast(ctx->ctl, (uint64_t)st);
}
