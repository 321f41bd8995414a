/* pp_mpi_summary.c -- the MPI backends' summary, from this run's medians:
 *
 * per variant
 *   - the 8-byte round trips of every (window, sync): orma-mpi, mpi-rma
 *     and their ratio, per op;
 *   - bar "never slower": every (op, window, sync, size) where orma-mpi's
 *     median is above mpi-rma's;
 *   - bar "5x": at 8 B, wherever the host takes more than 1 us, orma-mpi
 *     is at least 5x faster;
 * and once
 *   - bar "contend" (--contend only): every 8-byte round trip of orma
 *     at most each host's own, mpi-rma of the same (op, window, sync),
 *     in this run;
 *   - bar "cma": the put round trip on windows over memory orma cannot map
 *     (create and dynamic on malloc'd memory, and when --window names them
 *     create_fit and stack, fit.h; sync flush, the epoch that adds least)
 *     within 1.2x of raw process_vm_writev: of cma_rt, the same
 *     round trip with raw calls and flags, and of 2 x cma, the two calls
 *     alone -- for orma and for orma-mpi of every variant.
 * As for the other bars, a FAIL is reported, the exit status is not
 * affected.  The 8-byte table and the first two bars walk the axes they
 * are given (pp_mpi.h): the latency suite prints them too. */
#include <stdio.h>
#include <string.h>

#include "pp_def.h"
#include "pp_mpi.h"
#include "report.h"

#define BAR_5X_HOST_US 1.0
#define BAR_5X 5.0
#define BAR_CMA 1.2

/* 1 when the pair exists; *om_p, *rma_p are set then. */
static int pair(const char *v, const char *op, const char *sync,
                const char *window, size_t n, const bench_result **om_p,
                const bench_result **rma_p)
{
    *om_p = pp_mpi_find("orma-mpi", v, op, sync, window, n);
    *rma_p = pp_mpi_find("mpi-rma", v, op, sync, window, n);
    return *om_p != NULL && *rma_p != NULL && (*rma_p)->median_us > 0.0;
}

static int op_has_8(const char *v, const char *op, const pp_mpi_axes *ax)
{
    const bench_result *om, *rma;
    for (int k = 0; ax->windows[k] != NULL; k++)
        for (int m = 0; ax->syncs[m] != NULL; m++)
            if (pair(v, op, ax->syncs[m], ax->windows[k], 8, &om, &rma))
                return 1;
    return 0;
}

#define MAX_OPS 16

void pp_mpi_table_8(const char *v, const pp_mpi_axes *ax)
{
    const char *ops[MAX_OPS];
    int nops = 0;
    for (int op = 0; ax->ops[op] != NULL && nops < MAX_OPS; op++)
        if (op_has_8(v, ax->ops[op], ax))
            ops[nops++] = ax->ops[op];
    if (nops == 0)
        return;
    printf("  %s, 8 B: orma-mpi / mpi-rma median us (ratio)\n"
           "    %-16s %-11s", v, "window", "sync");
    for (int i = 0; i < nops; i++)
        printf(" %-24s", ops[i]);
    putchar('\n');
    for (int k = 0; ax->windows[k] != NULL; k++) {
        for (int m = 0; ax->syncs[m] != NULL; m++) {
            const char *w = ax->windows[k], *sync = ax->syncs[m];
            const bench_result *om, *rma;
            int any = 0;
            for (int i = 0; i < nops; i++)
                any |= pair(v, ops[i], sync, w, 8, &om, &rma);
            if (!any)
                continue;
            printf("    %-16s %-11s", w, sync);
            for (int i = 0; i < nops; i++) {
                char c[48] = "-";
                if (pair(v, ops[i], sync, w, 8, &om, &rma))
                    snprintf(c, sizeof c, "%.3f / %.3f (%.2f)", om->median_us,
                             rma->median_us, om->median_us / rma->median_us);
                printf(" %-24s", c);
            }
            putchar('\n');
        }
    }
}

/* Beside the strict count, the points slower by more than this fraction:
 * between two runs of the whole suite here, half of Open MPI's own points
 * (fence and pscw aside) moved by more than 4% (MPICH's by 9%). */
#define BAR_NOISE 0.04

/* Every orma-mpi point slower than the host's: counted (list 0), then
 * listed (list 1); *beyond_p counts those slower by more than BAR_NOISE.
 * Returns the number of points compared. */
static int slower_points(const char *v, int list, int *slower_p, int *beyond_p)
{
    char om_name[64];
    snprintf(om_name, sizeof om_name, "orma-mpi/%s", v);
    int n = 0;
    *slower_p = *beyond_p = 0;
    for (size_t i = 0; bench_report_at(i) != NULL; i++) {
        const bench_result *r = bench_report_at(i), *om, *rma;
        if (strcmp(r->backend, om_name) != 0 ||
            !pair(v, r->op, r->sync, r->window, r->bytes, &om, &rma))
            continue;
        n++;
        if (om->median_us <= rma->median_us)
            continue;
        ++*slower_p;
        if (om->median_us > rma->median_us * (1.0 + BAR_NOISE))
            ++*beyond_p;
        if (!list)
            continue;
        char sz[24];
        bench_format_size(om->bytes, sz, sizeof sz);
        printf("      %-4s %-11s %-16s %5s  orma-mpi %9.3f > mpi-rma %9.3f "
               "us  (%.2fx)\n", om->op, om->sync, om->window, sz,
               om->median_us, rma->median_us, om->median_us / rma->median_us);
    }
    return n;
}

void pp_mpi_bar_never_slower(const char *v)
{
    int slower, beyond;
    int n = slower_points(v, 0, &slower, &beyond);
    if (n == 0)
        return;
    printf("  bar %s: orma-mpi never slower than mpi-rma: %d of %d points "
           "slower  %s\n", v, slower, n, slower ? "FAIL" : "PASS");
    if (!slower)
        return;
    printf("    of which %d slower by more than %.0f%% (the median move of one "
           "point between runs here)\n", beyond, BAR_NOISE * 100);
    slower_points(v, 1, &slower, &beyond);
}

/* At 8 B, where the host takes more than BAR_5X_HOST_US: counted, or the
 * points below BAR_5X listed.  Returns the number of points. */
static int five_x_points(const char *v, const pp_mpi_axes *ax, int list,
                         int *pass_p)
{
    int n = 0;
    *pass_p = 0;
    for (int op = 0; ax->ops[op] != NULL; op++)
        for (int k = 0; ax->windows[k] != NULL; k++)
            for (int m = 0; ax->syncs[m] != NULL; m++) {
                const char *w = ax->windows[k];
                const bench_result *om, *rma;
                if (!pair(v, ax->ops[op], ax->syncs[m], w, 8, &om, &rma) ||
                    rma->median_us <= BAR_5X_HOST_US)
                    continue;
                double x = rma->median_us / om->median_us;
                n++;
                if (x >= BAR_5X) {
                    ++*pass_p;
                } else if (list) {
                    printf("      %-4s %-11s %-16s  mpi-rma %8.3f us, "
                           "orma-mpi %8.3f us: %5.2fx lower\n",
                           ax->ops[op], ax->syncs[m], w, rma->median_us,
                           om->median_us, x);
                }
            }
    return n;
}

void pp_mpi_bar_five_x(const char *v, const pp_mpi_axes *ax)
{
    int pass;
    int n = five_x_points(v, ax, 0, &pass);
    if (n == 0) {
        printf("  bar %s: no 8 B point where mpi-rma takes more than %.0f "
               "us\n", v, BAR_5X_HOST_US);
        return;
    }
    printf("  bar %s: at 8 B where mpi-rma > %.0f us, orma-mpi >= %.0fx "
           "lower: %d of %d  %s\n", v, BAR_5X_HOST_US, BAR_5X, pass, n,
           pass == n ? "PASS" : "FAIL");
    if (pass < n)
        five_x_points(v, ax, 1, &pass);
}

/* The sync the cma bar uses: flush if measured, else the first there is. */
static const char *cma_sync(const bench_opts *o)
{
    if (bench_list_has(o->syncs, "flush"))
        return "flush";
    for (int m = 0; m < PP_NSYNC; m++)
        if (bench_list_has(o->syncs, pp_sync_names[m]))
            return pp_sync_names[m];
    return "flush";
}

static void bar_cma(const bench_opts *o, const int *vs, int nv)
{
    static const char *const wins[] = {"create", "dynamic", "create_fit",
                                       "stack"};
    const char *sync = cma_sync(o);
    int n = 0, pass_rt = 0, pass_2x = 0, head = 0;
    char names[64] = ""; /* the windows of the bar's points, "a/b" */
    for (int w = 0; w < 4; w++) {
        int shown = 0;
        for (int i = 0; i < o->nsizes; i++) {
            size_t sz = o->sizes[i];
            const bench_result *cma = bench_report_find("floor", "cma", NULL,
                                                        "none", sz);
            const bench_result *rt = bench_report_find("floor", "cma_rt", NULL,
                                                       "none", sz);
            if (cma == NULL || rt == NULL || !(rt->median_us > 0.0))
                continue;
            const bench_result *r[9];
            int nr = 0, any = 0;
            r[nr] = bench_report_find("orma", "put", sync, wins[w], sz);
            any |= r[nr++] != NULL;
            for (int k = 0; k < nv && nr < 9; k++) {
                r[nr] = pp_mpi_find("orma-mpi", pp_mpi_variants[vs[k]].name,
                                    "put", sync, wins[w], sz);
                any |= r[nr++] != NULL;
            }
            if (!any)
                continue;
            if (!head++) {
                printf("  put+%s round trip on memory orma cannot map vs raw "
                       "process_vm_writev: median us (x cma_rt)\n"
                       "    %-10s %6s %9s %9s  %-18s", sync, "window", "bytes",
                       "2 x cma", "cma_rt", "orma");
                for (int k = 0; k < nv; k++)
                    printf(" orma-mpi/%-9s", pp_mpi_variants[vs[k]].name);
                putchar('\n');
            }
            if (!shown++) {
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s",
                         used ? "/" : "", wins[w]);
            }
            char s[24];
            bench_format_size(sz, s, sizeof s);
            double two = 2.0 * cma->median_us;
            printf("    %-10s %6s %9.3f %9.3f ", wins[w], s, two,
                   rt->median_us);
            for (int k = 0; k < nr; k++) {
                char c[32] = "-";
                if (r[k] != NULL) {
                    double x = r[k]->median_us / rt->median_us;
                    snprintf(c, sizeof c, "%.3f (%.2f)", r[k]->median_us, x);
                    n++;
                    pass_rt += x <= BAR_CMA;
                    pass_2x += r[k]->median_us <= BAR_CMA * two;
                }
                printf(" %-18s", c);
            }
            putchar('\n');
        }
    }
    if (n == 0)
        return;
    printf("  bar cma: put+%s on %s <= %.1f x cma_rt: %d of %d  %s\n", sync,
           names, BAR_CMA, pass_rt, n, pass_rt == n ? "PASS" : "FAIL");
    printf("  bar cma: put+%s on %s <= %.1f x (2 x cma), the calls without "
           "notification: %d of %d  %s\n", sync, names, BAR_CMA, pass_2x, n,
           pass_2x == n ? "PASS" : "FAIL");
}

/* Under --contend: orma's 8-byte round trips against each host's own in
 * this run, counted (list 0) or those above it listed (list 1); returns
 * the number of points compared. */
static int contend_points(const pp_mpi_axes *ax, const int *vs, int nv, int list, int *pass_p)
{
    int n = 0;
    *pass_p = 0;
    for (int k = 0; k < nv; k++) {
        const char *v = pp_mpi_variants[vs[k]].name;
        for (int op = 0; ax->ops[op] != NULL; op++)
            for (int w = 0; ax->windows[w] != NULL; w++)
                for (int m = 0; ax->syncs[m] != NULL; m++) {
                    const char *o = ax->ops[op], *win = ax->windows[w], *sync = ax->syncs[m];
                    const bench_result *mine = bench_report_find("orma", o, sync, win, 8);
                    const bench_result *host = pp_mpi_find("mpi-rma", v, o, sync, win, 8);
                    if (mine == NULL || host == NULL)
                        continue;
                    n++;
                    if (mine->median_us <= host->median_us)
                        ++*pass_p;
                    else if (list)
                        printf("      %-4s %-9s %-16s orma %9.3f > mpi-rma/%s %9.3f us (%.2fx)\n", o,
                               sync, win, mine->median_us, v, host->median_us,
                               mine->median_us / host->median_us);
                }
    }
    return n;
}

static void bar_contend(const pp_mpi_axes *ax, const int *vs, int nv)
{
    int pass;
    int n = contend_points(ax, vs, nv, 0, &pass);
    if (n == 0)
        return;
    printf("  bar contend: 8 B round trips with busy loops on every core, orma <= each host's "
           "mpi-rma: %d of %d  %s\n", pass, n, pass == n ? "PASS" : "FAIL");
    if (pass < n)
        contend_points(ax, vs, nv, 1, &pass);
}

void pp_mpi_summary(const bench_ctx *ctx)
{
    if (ctx->rank != 0)
        return;
    const pp_mpi_axes ax = {pp_op_names, pp_window_kinds, pp_sync_names};
    int vs[8], nv = 0;
    printf("\nsummary of the MPI backends (medians of this run)\n");
    for (int v = 0; pp_mpi_variants[v].name != NULL && nv < 8; v++) {
        const char *name = pp_mpi_variants[v].name;
        if (!pp_mpi_seen(&pp_mpi_variants[v]))
            continue;
        vs[nv++] = v;
        pp_mpi_table_8(name, &ax);
        if (pp_backend_on(ctx->opts, "orma-mpi") &&
            pp_backend_on(ctx->opts, "mpi-rma")) {
            pp_mpi_bar_never_slower(name);
            pp_mpi_bar_five_x(name, &ax);
        }
    }
    if (nv == 0)
        printf("  (no MPI results)\n");
    if (ctx->opts->contend)
        bar_contend(&ax, vs, nv);
    bar_cma(ctx->opts, vs, nv);
    fflush(stdout);
}
