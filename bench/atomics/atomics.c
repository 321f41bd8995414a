/* atomics.c -- the suite "atomics" (atomics.h): checks, filters, and the
 * order of the rows.  Per window flavour (default allocate): fop in its
 * three syncs, cas, fop_cont, then acc size by size, exclusive then
 * shared; then the memcpy floor at the same sizes, and the summary. */
#include <stdio.h>

#include "atomics.h"
#include "floor.h"
#include "progress.h"
#include "report.h"

const char *const at_sync_names[] = {"flush",   "lk_flush", "fence",
                                     "lock_ex", "lock_sh",  NULL};
static const char *const at_ops[] = {"fop", "cas", "fop_cont", "acc",
                                     "memcpy", NULL};

static int check_filters(const bench_ctx *ctx)
{
    return bench_filters_check("atomics", ctx->rank, ctx->opts->windows, bench_window_kinds, ctx->opts->ops, at_ops,
                               ctx->opts->syncs, at_sync_names);
}

static int wanted(const bench_ctx *ctx, const char *op, int sync)
{
    return bench_list_has(ctx->opts->ops, op) &&
           bench_list_has(ctx->opts->syncs, at_sync_names[sync]);
}

static void progress(const at_run *r, const char *op, int sync, size_t n)
{
    char what[64];
    snprintf(what, sizeof what, "%s+%s %s", op, at_sync_names[sync],
             r->w.kind);
    bench_progress(what, n);
}

/* The points on_window measures on one window, for the progress line. */
static long window_points(const bench_ctx *ctx)
{
    long n = wanted(ctx, "fop", AT_FLUSH) + wanted(ctx, "fop", AT_LK_FLUSH) +
             wanted(ctx, "fop", AT_FENCE) + wanted(ctx, "cas", AT_FLUSH) +
             wanted(ctx, "fop_cont", AT_FLUSH);
    for (int i = 0; i < ctx->opts->nsizes; i++)
        if (ctx->opts->sizes[i] % 8 == 0)
            n += wanted(ctx, "acc", AT_LOCK_EX) + wanted(ctx, "acc", AT_LOCK_SH);
    return n;
}

/* Every row on one window; 0 when all verified (the same on all ranks). */
static int on_window(const bench_ctx *ctx, const char *kind, long *points)
{
    at_run r = {ctx, {0}, *points};
    size_t size = bench_opts_max_size(ctx->opts);
    if (bench_window_open(ctx->ctl, kind, size < 64 ? 64 : size, &r.w) != 0)
        return -1; /* unknown kind: filtered before, not reached */
    int bad = 0;
    static const int fop_syncs[] = {AT_FLUSH, AT_LK_FLUSH, AT_FENCE};
    for (int i = 0; i < 3; i++) {
        if (!wanted(ctx, "fop", fop_syncs[i]))
            continue;
        progress(&r, "fop", fop_syncs[i], 8);
        bad |= at_fop_point(&r, fop_syncs[i]) != 0;
    }
    if (wanted(ctx, "cas", AT_FLUSH)) {
        progress(&r, "cas", AT_FLUSH, 8);
        bad |= at_cas_point(&r) != 0;
    }
    if (wanted(ctx, "fop_cont", AT_FLUSH)) {
        progress(&r, "fop_cont", AT_FLUSH, 8);
        bad |= at_contended_point(&r) != 0;
    }
    for (int i = 0; i < ctx->opts->nsizes; i++) {
        size_t n = ctx->opts->sizes[i];
        for (int m = AT_LOCK_EX; m <= AT_LOCK_SH && n % 8 == 0; m++) {
            if (!wanted(ctx, "acc", m))
                continue;
            progress(&r, "acc", m, n);
            bad |= at_acc_point(&r, n, m) != 0;
        }
    }
    bench_window_close(&r.w);
    *points = r.points;
    return bad ? -1 : 0;
}

int bench_atomics_run(const bench_ctx *ctx)
{
    if (ctx->size < 2) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: atomics needs 2 ranks or more (run "
                    "it as: orma-run -n 2 orma-bench atomics)\n");
        return BENCH_USAGE;
    }
    if (check_filters(ctx) != 0)
        return BENCH_USAGE;
    if (bench_list_has(ctx->opts->ops, "acc"))
        for (int i = 0; i < ctx->opts->nsizes; i++)
            if (ctx->opts->sizes[i] % 8 != 0) {
                bench_note("acc adds doubles: sizes that are not a multiple "
                           "of 8 skipped");
                break;
            }
    bench_note("atomics: P = %d; fop, cas, acc: rank 0 to rank 1, the other "
               "ranks wait; fop_cont: every rank to rank 0", ctx->size);
    /* allocate, the flavour the bar is judged on; the others when asked. */
    const char *windows = ctx->opts->windows ? ctx->opts->windows : "allocate";
    for (int k = 0; bench_window_kinds[k] != NULL; k++)
        if (bench_list_has(windows, bench_window_kinds[k]))
            bench_progress_expect(window_points(ctx));
    if (bench_list_has(ctx->opts->ops, "memcpy"))
        bench_progress_expect(ctx->opts->nsizes);
    int st = BENCH_OK;
    long points = 0;
    for (int k = 0; bench_window_kinds[k] != NULL; k++)
        if (bench_list_has(windows, bench_window_kinds[k]) &&
            on_window(ctx, bench_window_kinds[k], &points) != 0)
            st = BENCH_FAIL;
    if (bench_list_has(ctx->opts->ops, "memcpy") &&
        bench_floor_memcpy(ctx) != BENCH_OK)
        st = BENCH_FAIL;
    at_summary(ctx);
    return st;
}
