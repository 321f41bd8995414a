/* atomics_acc.c -- the row acc of the atomics suite: orma_accumulate,
 * ORMA_SUM on n/8 doubles, from rank 0's private buffer into rank 1's
 * window, each call in its own epoch: lock(EXCLUSIVE or SHARED, 1);
 * accumulate; unlock(1).  Rank 0 times alone (bench_time_kernel: small
 * sizes in batches of calls, a sample is the mean), rank 1 waits in the
 * barrier of the next agreement.
 *
 * The sums are exact: rank 1's elements start as small integers, rank 0
 * adds small integers, and every partial sum stays far below 2^53.  So at
 * the end of the point element i must hold exactly init(i) + calls *
 * add(i), and the element after the last one (when the window has room)
 * its start value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>

#include "atomics.h"
#include "check.h"
#include "ctl.h"
#include "plan.h"
#include "report.h"

static double init_of(size_t i)
{
    return (double)(i % 11);
}

static double add_of(size_t i)
{
    return (double)(1 + i % 8);
}

typedef struct acc_arg {
    orma_win win;
    orma_aint disp;     /* of rank 1's first element */
    const double *src;  /* rank 0's operand */
    size_t count;       /* elements */
    int lock_type;
    long ops;           /* calls made, warm-up included */
} acc_arg;

static int acc_kernel(void *arg, long iters)
{
    acc_arg *a = arg;
    for (long i = 0; i < iters; i++) {
        BENCH_CHECK(orma_win_lock(a->lock_type, 1, 0, a->win));
        BENCH_CHECK(orma_accumulate(a->src, a->count, ORMA_DOUBLE, 1, a->disp,
                                    a->count, ORMA_DOUBLE, ORMA_SUM, a->win));
        BENCH_CHECK(orma_win_unlock(1, a->win));
    }
    a->ops += iters;
    return 0;
}

/* Rank 1: 1 when its elements hold what ops calls must have left. */
static int check_target(const at_run *r, size_t count, size_t guard,
                        long ops, const char *what)
{
    BENCH_CHECK(orma_win_sync(r->w.win));
    for (size_t i = 0; i < count + guard; i++) {
        double got;
        memcpy(&got, r->w.base + 8 * i, 8);
        double want = init_of(i) + (i < count ? (double)ops * add_of(i) : 0.0);
        if (got != want) {
            fprintf(stderr, "orma-bench: rank 1: atomics %s on %s window, "
                    "%zu bytes, after %ld calls: element %zu%s is %.17g, "
                    "expected %.17g\n", what, r->w.kind, 8 * count, ops, i,
                    i < count ? "" : " (past the end)", got, want);
            return 0;
        }
    }
    return 1;
}

int at_acc_point(at_run *r, size_t n, int sync)
{
    const bench_ctx *ctx = r->ctx;
    size_t count = n / 8;
    size_t guard = (count + 1) * 8 <= r->w.size ? 1 : 0;
    char what[32];
    snprintf(what, sizeof what, "acc+%s", at_sync_names[sync]);
    r->points++;
    if (ctx->rank == 1) {
        for (size_t i = 0; i < count + guard; i++) {
            double v = init_of(i);
            memcpy(r->w.base + 8 * i, &v, 8);
        }
        BENCH_CHECK(orma_win_sync(r->w.win));
    }
    BENCH_CHECK(orma_barrier());
    acc_arg a = {r->w.win, r->w.disp[1], NULL, count,
                 sync == AT_LOCK_EX ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED,
                 0};
    double *us = NULL;
    long k = 0;
    int ok = 1;
    if (ctx->rank == 0) {
        double *src = bench_xmalloc(n);
        for (size_t i = 0; i < count; i++)
            src[i] = add_of(i);
        a.src = src;
        if (bench_time_kernel(ctx->opts, acc_kernel, &a, &us, &k) != 0)
            ok = 0; /* not reached: the kernel does not fail */
        free(src);
    }
    long ops = (long)bench_ctl_bcast(ctx->ctl, (uint64_t)a.ops);
    if (ctx->rank == 1)
        ok = check_target(r, count, guard, ops, what);
    ok = bench_ctl_all_ok(ctx->ctl, ok);
    if (ok)
        bench_emit(ctx, "orma", "acc", at_sync_names[sync], r->w.kind, n,
                   (double)n, us, k);
    else if (ctx->rank == 0)
        fprintf(stderr, "orma-bench: atomics %s on %s window, %zu bytes: "
                "data did not verify\n", what, r->w.kind, n);
    free(us);
    return ok ? 0 : -1;
}
