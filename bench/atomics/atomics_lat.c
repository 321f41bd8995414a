/* atomics_lat.c -- the 8-byte latency rows of the atomics suite, rank 0
 * issuing to one int64 counter of rank 1 (atomics.h), and the counter
 * they share with atomics_contended.c.
 *
 * One operation is ~0.1 us, a few clock reads, so a sample times a batch
 * and divides, as the small-put rows do: flush and lk_flush through
 * bench_time_kernel (rank 0 alone; rank 1 waits in the barrier of the
 * next agreement), fence through bench_time_collective (every rank calls
 * fence).  Each call's returned value is checked as it comes back (fop:
 * one more than the last; cas: the compare value, i.e. the swap
 * succeeded), inside the timed loop, and at the end of the point the
 * counter must hold the start value plus the number of calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>

#include "atomics.h"
#include "check.h"
#include "ctl.h"
#include "plan.h"
#include "plan_coll.h"
#include "report.h"

/* Beside the counter; no row writes it. */
#define AT_GUARD INT64_C(0x5a5a5a5a12345678)

int64_t at_counter_reset(at_run *r, int owner)
{
    /* Just below a multiple of 2^32, so the first thousand additions
     * carry into the upper half: a 32-bit add would show. */
    int64_t start = ((int64_t)++r->points << 33) + (INT64_C(1) << 32) - 1000;
    if (r->ctx->rank == owner) {
        int64_t v[2] = {start, AT_GUARD};
        memcpy(r->w.base, v, sizeof v);
        BENCH_CHECK(orma_win_sync(r->w.win));
    }
    BENCH_CHECK(orma_barrier());
    return start;
}

int at_counter_check(at_run *r, int owner, int64_t want, const char *what,
                     int ok)
{
    if (r->ctx->rank == owner) {
        int64_t v[2];
        BENCH_CHECK(orma_win_sync(r->w.win));
        memcpy(v, r->w.base, sizeof v);
        if (v[0] != want || v[1] != AT_GUARD) {
            fprintf(stderr, "orma-bench: rank %d: atomics %s on %s window: "
                    "counter holds %lld, expected %lld; guard word %s\n",
                    owner, what, r->w.kind, (long long)v[0], (long long)want,
                    v[1] == AT_GUARD ? "intact" : "overwritten");
            ok = 0;
        }
    }
    return bench_ctl_all_ok(r->ctx->ctl, ok);
}

typedef struct lat_arg {
    orma_win win;
    int me;
    orma_aint disp;   /* of the counter at rank 1 */
    int64_t start;    /* the counter's value at the start of the point */
    int64_t expect;   /* what the next call must return */
    long ops;         /* calls made, warm-up included */
    long bad;         /* calls that returned something else */
    int64_t bad_got, bad_want; /* the first of them */
} lat_arg;

static void returned(lat_arg *a, int64_t got)
{
    if (got != a->expect && a->bad++ == 0) {
        a->bad_got = got;
        a->bad_want = a->expect;
    }
}

static const int64_t one = 1;

/* Inside a lock_all or lock(SHARED, 1) epoch opened by the caller. */
static int fop_flush_kernel(void *arg, long iters)
{
    lat_arg *a = arg;
    for (long i = 0; i < iters; i++) {
        int64_t old;
        BENCH_CHECK(orma_fetch_and_op(&one, &old, ORMA_INT64, 1, a->disp,
                                      ORMA_SUM, a->win));
        BENCH_CHECK(orma_win_flush(1, a->win));
        returned(a, old);
        a->expect = old + 1;
    }
    a->ops += iters;
    return 0;
}

/* Every rank; rank 0 issues one fop per epoch. */
static void fop_fence_kernel(void *arg, long iters)
{
    lat_arg *a = arg;
    for (long i = 0; i < iters; i++) {
        int64_t old = 0;
        if (a->me == 0)
            BENCH_CHECK(orma_fetch_and_op(&one, &old, ORMA_INT64, 1, a->disp,
                                          ORMA_SUM, a->win));
        BENCH_CHECK(orma_win_fence(0, a->win));
        if (a->me == 0) {
            returned(a, old);
            a->expect = old + 1;
        }
    }
    if (a->me == 0)
        a->ops += iters;
}

/* The compare value is the last one returned plus one: what the previous
 * swap stored, so each swap succeeds and stores one more. */
static int cas_kernel(void *arg, long iters)
{
    lat_arg *a = arg;
    for (long i = 0; i < iters; i++) {
        int64_t old, nv = a->expect + 1;
        BENCH_CHECK(orma_compare_and_swap(&nv, &a->expect, &old, ORMA_INT64,
                                          1, a->disp, a->win));
        BENCH_CHECK(orma_win_flush(1, a->win));
        returned(a, old);
        a->expect = old == a->expect ? nv : old;
    }
    a->ops += iters;
    return 0;
}

/* Agreement, verification and the row; frees us. */
static int finish(at_run *r, const lat_arg *a, const char *op, int sync,
                  double *us, long n)
{
    const bench_ctx *ctx = r->ctx;
    char what[32];
    snprintf(what, sizeof what, "%s+%s", op, at_sync_names[sync]);
    long ops = (long)bench_ctl_bcast(ctx->ctl, (uint64_t)a->ops);
    int ok = a->bad == 0;
    if (!ok)
        fprintf(stderr, "orma-bench: rank 0: atomics %s on %s window: %ld of "
                "%ld calls returned an unexpected value (first: %lld, "
                "expected %lld)\n", what, r->w.kind, a->bad, ops,
                (long long)a->bad_got, (long long)a->bad_want);
    ok = at_counter_check(r, 1, a->start + ops, what, ok);
    if (ok)
        bench_emit(ctx, "orma", op, at_sync_names[sync], r->w.kind, 8, 8.0,
                   us, n);
    else if (ctx->rank == 0)
        fprintf(stderr, "orma-bench: atomics %s on %s window: data did not "
                "verify\n", what, r->w.kind);
    free(us);
    return ok ? 0 : -1;
}

/* A point's kernel argument, on a counter reset for it. */
static lat_arg point_arg(at_run *r)
{
    int64_t start = at_counter_reset(r, 1);
    return (lat_arg){r->w.win, r->ctx->rank, r->w.disp[1], start, start,
                     0, 0, 0, 0};
}

/* A point timed by rank 0 alone, inside a passive epoch on rank 1's
 * counter: lock_all (sync AT_FLUSH) or lock(SHARED, 1). */
static int passive_point(at_run *r, const char *op, int sync,
                         bench_kernel_fn kernel)
{
    lat_arg a = point_arg(r);
    double *us = NULL;
    long n = 0;
    if (r->ctx->rank == 0) {
        orma_win win = r->w.win;
        if (sync == AT_FLUSH)
            BENCH_CHECK(orma_win_lock_all(0, win));
        else
            BENCH_CHECK(orma_win_lock(ORMA_LOCK_SHARED, 1, 0, win));
        if (bench_time_kernel(r->ctx->opts, kernel, &a, &us, &n) != 0)
            a.bad++; /* not reached: the kernels do not fail */
        if (sync == AT_FLUSH)
            BENCH_CHECK(orma_win_unlock_all(win));
        else
            BENCH_CHECK(orma_win_unlock(1, win));
    }
    return finish(r, &a, op, sync, us, n);
}

int at_fop_point(at_run *r, int sync)
{
    if (sync != AT_FENCE)
        return passive_point(r, "fop", sync, fop_flush_kernel);
    orma_win win = r->w.win;
    lat_arg a = point_arg(r);
    double *us = NULL;
    long n = 0;
    BENCH_CHECK(orma_win_fence(0, win));
    bench_time_collective(r->ctx, AT_SAMPLE_S, fop_fence_kernel, &a, &us, &n);
    BENCH_CHECK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    return finish(r, &a, "fop", sync, us, n);
}

int at_cas_point(at_run *r)
{
    return passive_point(r, "cas", AT_FLUSH, cas_kernel);
}
