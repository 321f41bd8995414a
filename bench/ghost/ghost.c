/* ghost.c -- the ghost suite (ghost.h): its options, the backends one
 * after the other, the summary. */
#include <stdio.h>

#include "ghost.h"
#include "pp_mpi.h"
#include "report.h"

static int check_options(const bench_ctx *ctx)
{
    static const char *const windows[] = {"allocate", NULL};
    static const char *const no_ops[] = {NULL};
    const bench_opts *o = ctx->opts;
    char bad[64];
    if (o->ops != NULL) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: ghost: --op does not apply (the "
                    "one-sided versions put, the point-to-point one "
                    "isends; --sync chooses)\n");
        return -1;
    }
    if (bench_list_check(o->backends, pp_backend_names, bad,
                         sizeof bad) != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: ghost: unknown backend '%s' "
                    "(orma, mpi-rma, mpi-p2p, orma-mpi)\n", bad);
        return -1;
    }
    return bench_filters_check("ghost", ctx->rank, o->windows, windows, NULL,
                               no_ops, o->syncs, ghost_sync_names);
}

static int one_sided_selected(const bench_opts *o)
{
    for (int m = GHOST_FENCE; m < GHOST_NSYNC; m++)
        if (bench_list_has(o->syncs, ghost_sync_names[m]))
            return 1;
    return 0;
}

int bench_ghost_run(const bench_ctx *ctx_in)
{
    /* Seed 004's sizes unless --sizes says otherwise; the MPI backends
     * get them from these options too. */
    bench_opts o = *ctx_in->opts;
    ghost_default_sizes(&o);
    bench_ctx c = *ctx_in;
    c.opts = &o;
    const bench_ctx *ctx = &c;
    if (check_options(ctx) != 0)
        return BENCH_USAGE;

    ghost_grid g;
    ghost_grid_init(ctx->size, 0, &g);
    bench_note("ghost: p = %d on a periodic %dx%d grid; rank 0's "
               "neighbours: left %d, right %d, down %d, up %d; time per "
               "step (each rank sends n bytes to each of its 4 neighbours), "
               "the slowest rank's, averaged over a batch of steps",
               ctx->size, g.dims[0], g.dims[1], g.nbr[GHOST_LEFT],
               g.nbr[GHOST_RIGHT], g.nbr[GHOST_DOWN], g.nbr[GHOST_UP]);
    int st = BENCH_OK;
    if (pp_backend_on(&o, "orma")) {
        if (bench_list_has(o.syncs, "p2p"))
            bench_note("orma has no point-to-point calls: its p2p version "
                       "is the MPI backends' mpi-p2p");
        if (one_sided_selected(&o))
            st = ghost_orma_run(ctx);
    }
    if (pp_mpi_wanted(&o)) {
        int mst = pp_mpi_run(ctx, NULL);
        if (st == BENCH_OK)
            st = mst;
    }
    ghost_summary(ctx);
    return st;
}
