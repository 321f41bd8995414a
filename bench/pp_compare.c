/* pp_compare.c -- the backends side by side: one table per (op, window,
 * sync) with the median round trip of every backend of the run at every
 * size, and per MPI variant the ratio orma-mpi / mpi-rma (below 1: orma
 * is faster than the host's own one-sided).  The mpi-p2p column is the
 * same ping-pong in every table (sync and window do not apply to it). */
#include <stdio.h>
#include <string.h>

#include "pp_def.h"
#include "pp_mpi.h"
#include "report.h"
#include "windows.h"

#define COL 9

/* Variants with a result in this run, by index into pp_mpi_variants. */
static int seen(int v)
{
    const char *name = pp_mpi_variants[v].name;
    for (size_t i = 0; bench_report_at(i) != NULL; i++) {
        const char *slash = strchr(bench_report_at(i)->backend, '/');
        if (slash != NULL && strcmp(slash + 1, name) == 0)
            return 1;
    }
    return 0;
}

static const bench_result *find(const char *backend, const char *variant,
                                const char *op, const char *sync,
                                const char *window, size_t bytes)
{
    char b[64];
    if (variant != NULL) {
        snprintf(b, sizeof b, "%s/%s", backend, variant);
        backend = b;
    }
    return bench_report_find(backend, op, sync, window, bytes);
}

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
        if (find("orma", NULL, op, sync, window, n) != NULL)
            return 1;
        for (int k = 0; k < nv; k++) {
            const char *v = pp_mpi_variants[vs[k]].name;
            if (find("mpi-rma", v, op, sync, window, n) != NULL ||
                find("orma-mpi", v, op, sync, window, n) != NULL)
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
            cell(find("orma", NULL, op, sync, window, n));
        for (int k = 0; k < nv; k++) {
            const char *v = pp_mpi_variants[vs[k]].name;
            const bench_result *rma = find("mpi-rma", v, op, sync, window, n);
            const bench_result *om = find("orma-mpi", v, op, sync, window, n);
            printf(" |");
            cell(rma);
            cell(om);
            cell(find("mpi-p2p", v, "sendrecv", "none", "none", n));
            ratio(om, rma);
        }
        putchar('\n');
    }
}

void pp_compare_tables(const bench_ctx *ctx)
{
    if (ctx->rank != 0)
        return;
    const bench_opts *o = ctx->opts;
    int vs[8], nv = 0;
    for (int v = 0; pp_mpi_variants[v].name != NULL && nv < 8; v++)
        if (seen(v))
            vs[nv++] = v;
    printf("\nbackends side by side (medians of this run)\n");
    int shown = 0;
    for (int op = 0; op < PP_NOP; op++)
        for (int k = 0; bench_window_kinds[k] != NULL; k++)
            for (int m = 0; m < PP_NSYNC; m++) {
                const char *opn = pp_op_names[op], *w = bench_window_kinds[k];
                const char *sync = pp_sync_names[m];
                if (!any(o, vs, nv, opn, sync, w))
                    continue;
                table(o, vs, nv, opn, sync, w);
                shown++;
            }
    if (!shown)
        printf("  (none: no one-sided results)\n");
    fflush(stdout);
}
