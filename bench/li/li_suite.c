/* li_suite.c -- orma-bench's driver of the li.h suites (li_suite.h). */
#include <stdio.h>
#include <string.h>

#include "bind.h"
#include "ctl.h"
#include "li_bsp.h"
#include "li_orma.h"
#include "li_suite.h"
#include "li_suites.h"
#include "pp_mpi.h"
#include "report.h"

typedef struct li_bench {
    const li_suite *suite;
    int (*summary)(const bench_ctx *ctx); /* NULL: none */
} li_bench;

/* One row per suite written with li.h (and one in suites.c). */
static const li_bench li_benches[] = {
    {&li_as, as_summary},
    {&li_mult, mult_summary},
    {&li_rdx, rdx_summary},
};

static const li_bench *find(const char *name)
{
    for (size_t i = 0; i < sizeof li_benches / sizeof li_benches[0]; i++)
        if (strcmp(li_benches[i].suite->name, name) == 0)
            return &li_benches[i];
    return NULL;
}

/* pp_mpi.h's backends, and BSPlib's (li_bsp.h), which only the li.h
 * suites have. */
static const char *const li_backend_names[] = {
    "orma", "mpi-rma", "mpi-p2p", "orma-mpi", "bsp", "bsp-buffered", NULL};

static int check_options(const bench_ctx *ctx, const li_suite *s)
{
    static const char *const windows[] = {"allocate", NULL};
    const bench_opts *o = ctx->opts;
    char bad[64];
    if (bench_list_check(o->backends, li_backend_names, bad,
                         sizeof bad) != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: %s: unknown backend '%s' (orma, "
                    "bsp, bsp-buffered, mpi-rma, mpi-p2p, orma-mpi)\n",
                    s->name, bad);
        return -1;
    }
    return bench_filters_check(s->name, ctx->rank, o->windows, windows,
                               o->ops, s->ops, o->syncs, s->syncs);
}

/* As the latency suite's (bind.h), and the MPI program's ranks alike:
 * unpinned on a busy machine, ranks were seen sharing a core for whole
 * runs, every superstep then costing context switches (a fence at p=2:
 * 3.7 instead of 0.07 us).  The note once per run; returns what to give
 * back to the rank. */
static cpu_set_t pin(const bench_ctx *ctx)
{
    static int noted;
    cpu_set_t saved;
    int cpu = bench_bind_rank(ctx->rank, &saved);
    int unpinned = bench_ctl_max(ctx->ctl, cpu < 0) != 0;
    if (noted++)
        return saved;
    if (unpinned)
        bench_note("ranks not pinned: fewer than 2 CPUs allowed");
    else
        bench_note("ranks pinned: rank r to the (r mod n)-th of the n "
                   "CPUs allowed (the MPI backends' ranks alike)");
    return saved;
}

static int run_orma(const bench_ctx *ctx, const li_suite *s)
{
    cpu_set_t saved = pin(ctx);
    li_orma lo;
    li_orma_init(&lo, ctx, s->name);
    int st = s->run(&lo.lib);
    /* mpirun and the MPI ranks would inherit this rank's CPU. */
    bench_bind_restore(&saved);
    return st;
}

/* bsp and bsp-buffered in one BSPlib run (li_bsp.h): bsp_begin once. */
static int run_bsp(const bench_ctx *ctx, const li_suite *s)
{
    const bench_opts *o = ctx->opts;
    cpu_set_t saved = pin(ctx);
    li_bsp lb;
    li_bsp_begin(&lb, ctx, s->name);
    int st = BENCH_OK;
    for (int buffered = 0; buffered < 2; buffered++) {
        if (!pp_backend_on(o, buffered ? "bsp-buffered" : "bsp"))
            continue;
        li_bsp_select(&lb, buffered);
        int bst = s->run(&lb.lib);
        if (st == BENCH_OK)
            st = bst;
    }
    li_bsp_end(&lb);
    bench_bind_restore(&saved);
    return st;
}

int bench_li_run(const bench_ctx *ctx_in)
{
    const li_bench *b = find(ctx_in->suite);
    if (b == NULL) {
        if (ctx_in->rank == 0)
            fprintf(stderr, "orma-bench: %s is not a suite of li_suite.c\n",
                    ctx_in->suite);
        return BENCH_FAIL;
    }
    const li_suite *s = b->suite;
    /* The suite's default sizes, here, so that the MPI jobs get them as
     * --sizes too. */
    bench_opts o = *ctx_in->opts;
    if (!o.sizes_given && s->sizes != NULL)
        s->sizes(&o, ctx_in->size);
    bench_ctx c = *ctx_in;
    c.opts = &o;
    const bench_ctx *ctx = &c;
    if (check_options(ctx, s) != 0)
        return BENCH_USAGE;

    int st = BENCH_OK;
    if (pp_backend_on(&o, "orma"))
        st = run_orma(ctx, s);
    if (pp_backend_on(&o, "bsp") || pp_backend_on(&o, "bsp-buffered")) {
        int bst = run_bsp(ctx, s);
        if (st == BENCH_OK)
            st = bst;
    }
    if (pp_mpi_wanted(&o)) {
        int mst = pp_mpi_run(ctx, s->ops);
        if (st == BENCH_OK)
            st = mst;
    }
    if (b->summary != NULL) {
        int sst = b->summary(ctx);
        if (st == BENCH_OK)
            st = sst;
    }
    return st;
}
