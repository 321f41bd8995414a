/* pp_compare.c -- the backends side by side: one table per (op, window,
 * sync) of a suite's axes with the median of every backend of the run at
 * every size (pingpong: round trips; latency: one-way), and per MPI
 * variant the ratio orma-mpi / mpi-rma (below 1: orma is faster than the
 * host's own one-sided).  The mpi-p2p column is the same send/recv row in
 * every table (sync and window do not apply to it). */
#include <stdio.h>
#include <string.h>

#include "pp_def.h"
#include "pp_mpi.h"
#include "report.h"

#define COL 9

static void cell(const bench_result *r)
{
    if (r != NULL)
        printf(" %*.3f", COL, r->median_us);
    else
        printf(" %*s", COL, "-");
}

static void ratio(const bench_result *num, const bench_result *den)
{
    if (num != NULL && den != NULL && den->median_us > 0.0)
        printf(" %6.2f", num->median_us / den->median_us);
    else
        printf(" %6s", "-");
}

/* The one-sided backends this table has a result of, at any size. */
static int any(const bench_opts *o, const int *vs, int nv, const char *op,
               const char *sync, const char *window)
{
    for (int i = 0; i < o->nsizes; i++) {
        size_t n = o->sizes[i];
        if (pp_mpi_find("orma", NULL, op, sync, window, n) != NULL)
            return 1;
        for (int k = 0; k < nv; k++) {
            const char *v = pp_mpi_variants[vs[k]].name;
            if (pp_mpi_find("mpi-rma", v, op, sync, window, n) != NULL ||
                pp_mpi_find("orma-mpi", v, op, sync, window, n) != NULL)
                return 1;
        }
    }
    return 0;
}

static void header(const bench_opts *o, const int *vs, int nv,
                   const char *op, const char *sync, const char *window)
{
    int orma = pp_backend_on(o, "orma");
    printf("\n  %s / %s / %s: median us; x = orma-mpi / mpi-rma\n", op, sync,
           window);
    printf("  %7s%*s", "", orma ? COL + 1 : 0, "");
    for (int k = 0; k < nv; k++)
        printf(" | %-*s", 3 * (COL + 1) + 6, pp_mpi_variants[vs[k]].name);
    printf("\n  %7s", "bytes");
    if (orma)
        printf(" %*s", COL, "orma");
    for (int k = 0; k < nv; k++)
        printf(" | %*s %*s %*s %6s", COL, "mpi-rma", COL, "orma-mpi",
               COL, "mpi-p2p", "x");
    putchar('\n');
}

static void table(const bench_opts *o, const int *vs, int nv,
                  const char *op, const char *sync, const char *window)
{
    header(o, vs, nv, op, sync, window);
    for (int i = 0; i < o->nsizes; i++) {
        size_t n = o->sizes[i];
        if (!pp_op_size_ok(pp_op_by_name(op), n))
            continue;
        char sz[24];
        bench_format_size(n, sz, sizeof sz);
        printf("  %7s", sz);
        if (pp_backend_on(o, "orma"))
            cell(pp_mpi_find("orma", NULL, op, sync, window, n));
        for (int k = 0; k < nv; k++) {
            const char *v = pp_mpi_variants[vs[k]].name;
            const bench_result *rma, *om;
            rma = pp_mpi_find("mpi-rma", v, op, sync, window, n);
            om = pp_mpi_find("orma-mpi", v, op, sync, window, n);
            printf(" |");
            cell(rma);
            cell(om);
            cell(pp_mpi_find("mpi-p2p", v, "sendrecv", "none", "none",
                             n));
            ratio(om, rma);
        }
        putchar('\n');
    }
}

void pp_compare_tables(const bench_ctx *ctx, const pp_mpi_axes *ax)
{
    if (ctx->rank != 0)
        return;
    const bench_opts *o = ctx->opts;
    int vs[8], nv = 0;
    for (int v = 0; pp_mpi_variants[v].name != NULL && nv < 8; v++)
        if (pp_mpi_seen(&pp_mpi_variants[v]))
            vs[nv++] = v;
    printf("\nbackends side by side (medians of this run)\n");
    int shown = 0;
    for (int op = 0; ax->ops[op] != NULL; op++)
        for (int k = 0; ax->windows[k] != NULL; k++)
            for (int m = 0; ax->syncs[m] != NULL; m++) {
                const char *opn = ax->ops[op], *w = ax->windows[k];
                const char *sync = ax->syncs[m];
                if (!any(o, vs, nv, opn, sync, w))
                    continue;
                table(o, vs, nv, opn, sync, w);
                shown++;
            }
    if (!shown)
        printf("  (none: no one-sided results)\n");
    fflush(stdout);
}
