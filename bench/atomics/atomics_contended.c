/* atomics_contended.c -- the row fop_cont of the atomics suite: every rank
 * adds 1 to one int64 counter of rank 0 (rank 0 to its own window too)
 * with orma_fetch_and_op, ORMA_SUM, flush(0) after each, inside one
 * lock_all epoch.  Every rank runs the same batch after a common barrier
 * and a sample is the slowest rank's batch time over its length
 * (bench_time_collective).  Each rank checks that the values it gets back
 * only grow; at the end the counter must hold the start value plus every
 * rank's calls, and no value returned may reach that sum. */
#include <stdio.h>
#include <stdlib.h>

#include <orma.h>

#include "atomics.h"
#include "check.h"
#include "ctl.h"
#include "plan_coll.h"
#include "report.h"

typedef struct cont_arg {
    orma_win win;
    orma_aint disp;  /* of the counter at rank 0 */
    int64_t last;    /* the last value returned (start - 1 before any) */
    long ops;        /* calls made, warm-up included */
    long bad;        /* calls that returned no more than the one before */
    int64_t bad_got, bad_last; /* the first of them */
} cont_arg;

static void cont_kernel(void *arg, long iters)
{
    static const int64_t one = 1;
    cont_arg *a = arg;
    for (long i = 0; i < iters; i++) {
        int64_t old;
        BENCH_CHECK(orma_fetch_and_op(&one, &old, ORMA_INT64, 0, a->disp,
                                      ORMA_SUM, a->win));
        BENCH_CHECK(orma_win_flush(0, a->win));
        if (old <= a->last && a->bad++ == 0) {
            a->bad_got = old;
            a->bad_last = a->last;
        }
        a->last = old;
    }
    a->ops += iters;
}

int at_contended_point(at_run *r)
{
    const bench_ctx *ctx = r->ctx;
    orma_win win = r->w.win;
    int64_t start = at_counter_reset(r, 0);
    cont_arg a = {win, r->w.disp[0], start - 1, 0, 0, 0, 0};
    double *us;
    long n;
    BENCH_CHECK(orma_win_lock_all(0, win));
    bench_time_collective(ctx, AT_SAMPLE_S, cont_kernel, &a, &us, &n);
    BENCH_CHECK(orma_win_unlock_all(win));
    int64_t total = 0;
    for (int q = 0; q < ctx->size; q++)
        total += (int64_t)bench_ctl_exchange(ctx->ctl, (uint64_t)a.ops, q);
    int ok = 1;
    if (a.bad != 0 || a.last >= start + total) {
        fprintf(stderr, "orma-bench: rank %d: atomics fop_cont+flush on %s "
                "window: %ld of %ld calls returned no more than the call "
                "before (first: %lld after %lld); last returned %lld of "
                "%lld + %lld\n", ctx->rank, r->w.kind, a.bad, a.ops,
                (long long)a.bad_got, (long long)a.bad_last,
                (long long)a.last, (long long)start, (long long)total);
        ok = 0;
    }
    ok = at_counter_check(r, 0, start + total, "fop_cont+flush", ok);
    if (ok)
        bench_emit(ctx, "orma", "fop_cont", at_sync_names[AT_FLUSH],
                   r->w.kind, 8, 8.0, us, n);
    else if (ctx->rank == 0)
        fprintf(stderr, "orma-bench: atomics fop_cont+flush on %s window: "
                "data did not verify\n", r->w.kind);
    free(us);
    return ok ? 0 : -1;
}
