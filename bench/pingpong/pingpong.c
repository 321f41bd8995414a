/* pingpong.c -- the pingpong suite: checks, filters, order of the series. */
#include <stdio.h>
#include <string.h>

#include "fit.h"
#include "floor.h"
#include "pingpong.h"
#include "pp_def.h"
#include "pp_mpi.h"
#include "progress.h"
#include "report.h"

static const char *const pp_ops[] = {"put",    "get",   "cacheline",
                                     "memcpy", "cma",   "xcopy",
                                     "cma_rt", "acc",   "gacc",
                                     "fop",    "cas",   NULL};

/* The names of pingpong's one-sided rows, for the side-by-side tables. */
static const pp_mpi_axes pp_axes = {pp_op_names, pp_window_kinds,
                                    pp_sync_names};

/* The ops a run without --op makes; the accumulate family runs only when
 * --op names it, so a default run measures what it always did. */
static int selected(const char *ops, const char *op)
{
    if (ops == NULL)
        return strcmp(op, "put") == 0 || strcmp(op, "get") == 0;
    return bench_list_has(ops, op);
}

/* 1 when some size of the run suits op; notes the sizes it skips. */
static int sizes_for(const bench_ctx *ctx, pp_op op)
{
    int skipped;
    int some = pp_op_sizes(op, ctx->opts, &skipped);
    if (skipped && (op == PP_FOP || op == PP_CAS))
        bench_note("%s moves one 8-byte element: other sizes skipped%s",
                   pp_op_names[op], some ? "" : " (--sizes has no 8)");
    else if (skipped)
        bench_note("%s moves uint64 elements: sizes that are not a multiple "
                   "of 8 skipped", pp_op_names[op]);
    return some;
}

/* The points this run measures in this process, as orma_backend and
 * mpi_backends make them, for the progress line's estimate (the MPI jobs
 * keep their own line). */
static long points(const bench_opts *o)
{
    long windows = 0, syncs = 0, n = 0;
    for (int k = 0; pp_window_kinds[k] != NULL; k++)
        windows += bench_window_selected(o->windows, pp_window_kinds[k]);
    for (int m = 0; m < PP_NSYNC; m++)
        syncs += bench_list_has(o->syncs, pp_sync_names[m]);
    int orma = pp_backend_on(o, "orma");
    static const char *const floors[] = {"memcpy", "cma", "xcopy", "cma_rt"};
    if (orma) {
        for (int op = 0; op < PP_NOP; op++) {
            if (!selected(o->ops, pp_op_names[op]))
                continue;
            for (int i = 0; i < o->nsizes; i++)
                n += pp_op_size_ok((pp_op)op, o->sizes[i]) * windows * syncs;
        }
        n += bench_list_has(o->ops, "cacheline");
        for (int i = 0; i < 4; i++)
            n += bench_list_has(o->ops, floors[i]) * o->nsizes;
    }
    if (pp_mpi_wanted(o))
        for (int i = 1; i < 4; i += 2) /* cma, cma_rt */
            n += (!orma || !bench_list_has(o->ops, floors[i])) * o->nsizes;
    return n;
}

static int check_filters(const bench_ctx *ctx)
{
    char bad[64];
    if (bench_list_check(ctx->opts->backends, pp_backend_names, bad,
                         sizeof bad) != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: pingpong: unknown backend '%s' "
                    "(orma, mpi-rma, mpi-p2p, orma-mpi)\n", bad);
        return -1;
    }
    return bench_filters_check("pingpong", ctx->rank, ctx->opts->windows, pp_window_kinds, ctx->opts->ops, pp_ops,
                               ctx->opts->syncs, pp_sync_names);
}

/* The orma backend: the series of every selected op and window, and the
 * floors. */
static int orma_backend(const bench_ctx *ctx)
{
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
    for (int o = 0; o < PP_NOP && st == BENCH_OK; o++) {
        if (!selected(ops, pp_op_names[o]) || !sizes_for(ctx, (pp_op)o))
            continue;
        for (int k = 0; pp_window_kinds[k] != NULL && st == BENCH_OK; k++)
            if (bench_window_selected(ctx->opts->windows, pp_window_kinds[k]))
                st = pp_orma_series(ctx, pp_op_names[o], pp_window_kinds[k]);
    }
    if (st == BENCH_OK && bench_list_has(ops, "memcpy"))
        st = bench_floor_memcpy(ctx);
    if (st == BENCH_OK && bench_list_has(ops, "cma"))
        st = bench_floor_cma(ctx);
    if (st == BENCH_OK && bench_list_has(ops, "xcopy"))
        st = bench_floor_xcopy(ctx);
    if (st == BENCH_OK && bench_list_has(ops, "cma_rt"))
        st = bench_floor_cma_rt(ctx);
    return st;
}

/* The MPI backends, and the process_vm_writev floors their create windows
 * are judged by (pp_mpi_summary.c) when the orma backend did not measure
 * them.  Every rank decides alike, from the options. */
static int mpi_backends(const bench_ctx *ctx)
{
    const char *ops = ctx->opts->ops;
    int orma = pp_backend_on(ctx->opts, "orma");
    int st = BENCH_OK;
    if (!orma || !bench_list_has(ops, "cma"))
        st = bench_floor_cma(ctx);
    if (st == BENCH_OK && (!orma || !bench_list_has(ops, "cma_rt")))
        st = bench_floor_cma_rt(ctx);
    int mst = pp_mpi_run(ctx, pp_op_names);
    return st == BENCH_OK ? mst : st;
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

    bench_progress_expect(points(ctx->opts));
    bench_stack_note(ctx->opts);
    int orma = pp_backend_on(ctx->opts, "orma");
    int mpi = pp_mpi_wanted(ctx->opts);
    int orma_st = orma ? orma_backend(ctx) : BENCH_OK;
    int st = orma_st;
    /* A point that did not verify ends orma's series collectively: the
     * ranks still agree, and the MPI backends run all the same. */
    if (mpi) {
        int mst = mpi_backends(ctx);
        if (st == BENCH_OK)
            st = mst;
        pp_compare_tables(ctx, &pp_axes);
    }
    if (orma && orma_st == BENCH_OK)
        pp_summary(ctx);
    if (mpi)
        pp_mpi_summary(ctx);
    return st;
}
