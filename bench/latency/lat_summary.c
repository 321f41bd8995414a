/* lat_summary.c -- the latency suite's summary, from this run's medians
 * (one-way latency per operation, us):
 *
 *   floors: per size memcpy and one process_vm_writev call (cma), beside
 *     orma's put+flush on allocate and on create;
 * per MPI variant
 *   - the 8-byte medians of every (window, sync): orma-mpi / mpi-rma and
 *     their ratio, per op, and mpi-p2p's one-way send/recv;
 *   - bar 1: orma-mpi never slower than mpi-rma, at any op, window, sync
 *     and size (the points where it is are listed with their ratio);
 *   - bar 2: at 8 B on the windows orma reaches directly (lat_def.h:
 *     allocate, create_allocmem, dynamic_allocmem, shared), wherever
 *     mpi-rma takes more than 1 us, orma-mpi at least 5x lower;
 * and once
 *   - bar 3: put+flush on the windows orma reaches through
 *     process_vm_writev (create and dynamic on malloc'd memory with
 *     ORMA_ADOPT=0; create_fit and stack when --window names them) within
 *     1.2x of one raw process_vm_writev of the same size, for orma-mpi of
 *     every variant (orma's own shown beside it, and judged alike).
 * A FAIL is reported; the exit status is not affected. */
#include <stdio.h>
#include <string.h>

#include "fit.h"
#include "lat_def.h"
#include "latency.h"
#include "pp_mpi.h"
#include "report.h"

#define BAR_CMA 1.2
#define MAX_VARIANTS 8

#define MAX_WINDOWS 16

/* lat_window_kinds split by lat_window_direct, NULL-terminated; the
 * flavours made per point only when --window names them (fit.h). */
static const char *direct_windows[MAX_WINDOWS], *cma_windows[MAX_WINDOWS];

static void split_windows(const bench_opts *o)
{
    int nd = 0, nc = 0;
    for (int k = 0; lat_window_kinds[k] != NULL && k < MAX_WINDOWS - 1; k++) {
        if (bench_window_per_point(lat_window_kinds[k]) &&
            !bench_window_selected(o->windows, lat_window_kinds[k]))
            continue;
        if (lat_window_direct(lat_window_kinds[k]))
            direct_windows[nd++] = lat_window_kinds[k];
        else
            cma_windows[nc++] = lat_window_kinds[k];
    }
    direct_windows[nd] = cma_windows[nc] = NULL;
}

static void list(const char *const *names, const char *sep)
{
    for (int k = 0; names[k] != NULL; k++)
        printf("%s%s", k ? sep : "", names[k]);
}

static void cell(const bench_result *r)
{
    if (r != NULL)
        printf(" %10.3f", r->median_us);
    else
        printf(" %10s", "-");
}

static void floors(const bench_opts *o)
{
    int head = 0;
    for (int i = 0; i < o->nsizes; i++) {
        size_t n = o->sizes[i];
        const bench_result *mc, *cma;
        mc = bench_report_find("floor", "memcpy", NULL, "none", n);
        cma = bench_report_find("floor", "cma", NULL, "none", n);
        if (mc == NULL && cma == NULL)
            continue;
        if (!head++)
            printf("  floors and orma's put+flush, median us per call\n"
                   "    %7s %10s %10s %10s %10s\n", "bytes", "memcpy", "cma",
                   "allocate", "create");
        char sz[24];
        bench_format_size(n, sz, sizeof sz);
        printf("    %7s", sz);
        cell(mc);
        cell(cma);
        cell(bench_report_find("orma", "put", "flush", "allocate", n));
        cell(bench_report_find("orma", "put", "flush", "create", n));
        putchar('\n');
    }
}

static void p2p_8(const char *v)
{
    const bench_result *r = pp_mpi_find("mpi-p2p", v, "sendrecv", "none",
                                        "none", 8);
    if (r != NULL)
        printf("    mpi-p2p/%s, 8 B one-way (half a send/recv round trip): "
               "%.3f us\n", v, r->median_us);
}

/* One cell of bar 3: value (ratio); counts it. */
static void cma_cell(const bench_result *r, double cma, int *n_p,
                     int *pass_p)
{
    char c[40] = "-";
    if (r != NULL) {
        double x = r->median_us / cma;
        snprintf(c, sizeof c, "%.3f (%.2f)", r->median_us, x);
        ++*n_p;
        *pass_p += x <= BAR_CMA;
    }
    printf(" %-20s", c);
}

static void bar_cma(const bench_opts *o, const char *const *vs, int nv)
{
    int head = 0, n = 0, pass = 0, n_orma = 0, pass_orma = 0;
    if (cma_windows[0] == NULL) {
        printf("  bar 3: no window on memory orma cannot map in this run "
               "(create and dynamic windows' pages are adopted; run with "
               "ORMA_ADOPT=0 for the system-call path)\n");
        return;
    }
    for (int w = 0; cma_windows[w] != NULL; w++)
        for (int i = 0; i < o->nsizes; i++) {
            size_t sz = o->sizes[i];
            const bench_result *cma = bench_report_find("floor", "cma", NULL,
                                                        "none", sz);
            if (cma == NULL || !(cma->median_us > 0.0))
                continue;
            const bench_result *orma;
            orma = bench_report_find("orma", "put", "flush", cma_windows[w],
                                     sz);
            int any = orma != NULL;
            for (int k = 0; k < nv; k++)
                any |= pp_mpi_find("orma-mpi", vs[k], "put", "flush",
                                   cma_windows[w], sz) != NULL;
            if (!any)
                continue;
            if (!head++) {
                printf("  bar 3: put+flush on memory orma cannot map vs one "
                       "raw process_vm_writev: median us (x cma)\n"
                       "    %-10s %6s %9s  %-20s", "window", "bytes", "cma",
                       "orma");
                for (int k = 0; k < nv; k++)
                    printf(" orma-mpi/%-11s", vs[k]);
                putchar('\n');
            }
            char s[24];
            bench_format_size(sz, s, sizeof s);
            printf("    %-10s %6s %9.3f ", cma_windows[w], s, cma->median_us);
            cma_cell(orma, cma->median_us, &n_orma, &pass_orma);
            for (int k = 0; k < nv; k++)
                cma_cell(pp_mpi_find("orma-mpi", vs[k], "put", "flush",
                                     cma_windows[w], sz),
                         cma->median_us, &n, &pass);
            putchar('\n');
        }
    if (n > 0) {
        printf("  bar 3: orma-mpi put+flush on ");
        list(cma_windows, "/");
        printf(" <= %.1f x cma: %d of %d  %s\n", BAR_CMA, pass, n,
               pass == n ? "PASS" : "FAIL");
    }
    if (n_orma > 0) {
        printf("  bar 3 (orma's own calls): put+flush on ");
        list(cma_windows, "/");
        printf(" <= %.1f x cma: %d of %d  %s\n", BAR_CMA, pass_orma, n_orma,
               pass_orma == n_orma ? "PASS" : "FAIL");
    }
}

void lat_summary(const bench_ctx *ctx)
{
    if (ctx->rank != 0)
        return;
    const bench_opts *o = ctx->opts;
    const pp_mpi_axes all = {lat_op_names, lat_window_kinds, lat_sync_names};
    split_windows(o);
    const pp_mpi_axes direct = {lat_op_names, direct_windows, lat_sync_names};
    printf("\nsummary of the latency suite (one-way, medians of this run)\n");
    floors(o);
    const char *vs[MAX_VARIANTS];
    int nv = 0;
    int both = pp_backend_on(o, "orma-mpi") && pp_backend_on(o, "mpi-rma");
    for (int v = 0; pp_mpi_variants[v].name != NULL && nv < MAX_VARIANTS;
         v++) {
        const char *name = pp_mpi_variants[v].name;
        if (!pp_mpi_seen(&pp_mpi_variants[v]))
            continue;
        vs[nv++] = name;
        pp_mpi_table_8(name, &all);
        p2p_8(name);
        if (!both)
            continue;
        printf("  bar 1 (%s):\n", name);
        pp_mpi_bar_never_slower(name);
        printf("  bar 2 (%s) on the windows orma maps (", name);
        list(direct_windows, ", ");
        if (cma_windows[0] != NULL) {
            printf("; not ");
            list(cma_windows, ", ");
            printf(": malloc'd%s, reached by process_vm_writev",
                   bench_window_selected(o->windows, "stack") ? " or stack"
                                                              : "");
        }
        printf("):\n");
        pp_mpi_bar_five_x(name, &direct);
    }
    bar_cma(o, vs, nv);
    fflush(stdout);
}
