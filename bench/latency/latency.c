/* latency.c -- the latency suite: checks, filters, order of the series.
 *
 * orma's series come first (every selected op, then window, then size and
 * mode), then the floors (memcpy, and the process_vm_writev per-call
 * latency the create windows are judged by: measured whatever --op says),
 * then the MPI backends' jobs (pp_mpi.h: mpi-rma and orma-mpi paired in
 * one job per host MPI unless --unpaired) with the same options, then the
 * tables and the summary. */
#include <stdio.h>

#include "bind.h"
#include "ctl.h"
#include "fit.h"
#include "floor.h"
#include "lat_def.h"
#include "latency.h"
#include "pp_mpi.h"
#include "report.h"

static const pp_mpi_axes lat_axes = {lat_op_names, lat_window_kinds,
                                     lat_sync_names};

int lat_check_job(const bench_ctx *ctx, const pp_mpi_axes *ax)
{
    if (ctx->size != 2) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: %s needs exactly 2 ranks, not %d "
                    "(run it as: orma-run -n 2 orma-bench %s)\n", ctx->suite,
                    ctx->size, ctx->suite);
        return -1;
    }
    char bad[64];
    if (bench_list_check(ctx->opts->backends, pp_backend_names, bad,
                         sizeof bad) != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: %s: unknown backend '%s' (orma, "
                    "mpi-rma, mpi-p2p, orma-mpi)\n", ctx->suite, bad);
        return -1;
    }
    return bench_filters_check(ctx->suite, ctx->rank, ctx->opts->windows,
                               ax->windows, ctx->opts->ops, ax->ops,
                               ctx->opts->syncs, ax->syncs);
}

void lat_pin_ranks(const bench_ctx *ctx, cpu_set_t *saved)
{
    int cpu = bench_bind_rank(ctx->rank, saved);
    int cpu1 = (int)bench_ctl_exchange(ctx->ctl, (uint64_t)(int64_t)cpu, 1);
    if (cpu >= 0 && cpu1 >= 0)
        bench_note("ranks pinned: rank 0 to CPU %d, rank 1 to CPU %d "
                   "(the MPI backends' ranks alike)", cpu, cpu1);
    else
        bench_note("ranks not pinned: fewer than 2 CPUs allowed");
}

/* 1 when some size of the run suits op; notes the sizes it skips. */
static int sizes_for(const bench_ctx *ctx, pp_op op)
{
    int skipped;
    int some = pp_op_sizes(op, ctx->opts, &skipped);
    if (skipped)
        bench_note("%s moves uint64 elements: sizes that are not a multiple "
                   "of 8 skipped", pp_op_names[op]);
    return some;
}

static int orma_backend(const bench_ctx *ctx)
{
    int st = BENCH_OK;
    for (int o = 0; lat_op_names[o] != NULL && st == BENCH_OK; o++) {
        pp_op op = pp_op_by_name(lat_op_names[o]);
        if (!bench_list_has(ctx->opts->ops, lat_op_names[o]) ||
            !sizes_for(ctx, op))
            continue;
        for (int k = 0; lat_window_kinds[k] != NULL && st == BENCH_OK; k++)
            if (bench_window_selected(ctx->opts->windows, lat_window_kinds[k]))
                st = lat_orma_series(ctx, op, lat_window_kinds[k],
                                     lat_rma_series);
    }
    return st;
}

int bench_latency_run(const bench_ctx *ctx)
{
    if (lat_check_job(ctx, &lat_axes) != 0)
        return BENCH_USAGE;
    int orma = pp_backend_on(ctx->opts, "orma");
    int mpi = pp_mpi_wanted(ctx->opts);
    cpu_set_t saved;
    lat_pin_ranks(ctx, &saved);
    bench_stack_note(ctx->opts);
    /* A point that did not verify ends orma's series collectively; the
     * floors and the MPI backends run all the same. */
    int st = orma ? orma_backend(ctx) : BENCH_OK;
    int fst = bench_floor_memcpy(ctx);
    if (fst == BENCH_OK)
        fst = bench_floor_cma(ctx);
    if (st == BENCH_OK)
        st = fst;
    /* mpirun and the MPI ranks would inherit rank 0's single CPU. */
    bench_bind_restore(&saved);
    if (mpi) {
        int mst = pp_mpi_run_paired(ctx, lat_op_names);
        if (st == BENCH_OK)
            st = mst;
        pp_compare_tables(ctx, &lat_axes);
    }
    lat_summary(ctx);
    return st;
}
