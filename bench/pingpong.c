/* pingpong.c -- the pingpong suite: checks, filters, order of the series. */
#include <stdio.h>

#include "floor.h"
#include "pingpong.h"
#include "pp.h"
#include "report.h"
#include "windows.h"

static const char *const pp_ops[] = {"put",    "get",   "cacheline",
                                     "memcpy", "cma",   "xcopy",
                                     "cma_rt", NULL};

static int check_filters(const bench_ctx *ctx)
{
    char bad[64];
    if (bench_list_check(ctx->opts->windows, bench_window_kinds, bad,
                         sizeof bad) != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: pingpong: unknown window '%s' "
                    "(allocate, create, create_allocmem, dynamic, shared)\n",
                    bad);
        return -1;
    }
    if (bench_list_check(ctx->opts->ops, pp_ops, bad, sizeof bad) != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: pingpong: unknown op '%s' (put, "
                    "get, cacheline, memcpy, cma, xcopy, cma_rt)\n", bad);
        return -1;
    }
    if (bench_list_check(ctx->opts->syncs, pp_sync_names, bad,
                         sizeof bad) != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: pingpong: unknown sync '%s' "
                    "(fence, pscw, lock, lock_all, flush)\n", bad);
        return -1;
    }
    return 0;
}

int bench_pingpong_run(const bench_ctx *ctx)
{
    if (ctx->size != 2) {
        if (ctx->rank == 0) {
            if (ctx->size < 2)
                fprintf(stderr, "orma-bench: pingpong needs 2 ranks "
                        "(run it as: orma-run -n 2 orma-bench pingpong)\n");
            else
                fprintf(stderr, "orma-bench: pingpong needs exactly 2 ranks, "
                        "not %d\n", ctx->size);
        }
        return BENCH_USAGE;
    }
    if (check_filters(ctx) != 0)
        return BENCH_USAGE;

    const char *ops = ctx->opts->ops;
    /* The floors ignore --window: they are the reference points of the
     * windows, so `--window allocate` still gets its summary lines.
     * The cache-line floor runs first, right before the 8-byte put on
     * allocate it is compared with: on a virtual machine the round trip
     * between two vCPUs changes by 4x within seconds as the host moves
     * them, so a floor measured at the end of the run compares poorly. */
    int st = BENCH_OK;
    if (bench_list_has(ops, "cacheline"))
        st = bench_floor_cacheline(ctx);
    static const char *const orma_ops[] = {"put", "get"};
    for (int o = 0; o < 2 && st == BENCH_OK; o++) {
        if (!bench_list_has(ops, orma_ops[o]))
            continue;
        for (int k = 0; bench_window_kinds[k] != NULL && st == BENCH_OK; k++)
            if (bench_list_has(ctx->opts->windows, bench_window_kinds[k]))
                st = pp_orma_series(ctx, orma_ops[o], bench_window_kinds[k]);
    }
    if (st == BENCH_OK && bench_list_has(ops, "memcpy"))
        st = bench_floor_memcpy(ctx);
    if (st == BENCH_OK && bench_list_has(ops, "cma"))
        st = bench_floor_cma(ctx);
    if (st == BENCH_OK && bench_list_has(ops, "xcopy"))
        st = bench_floor_xcopy(ctx);
    if (st == BENCH_OK && bench_list_has(ops, "cma_rt"))
        st = bench_floor_cma_rt(ctx);
    if (st == BENCH_OK)
        pp_summary(ctx);
    return st;
}
