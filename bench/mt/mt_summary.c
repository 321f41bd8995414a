/* mt_summary.c -- the mt suite's summary (mt_suite.h): message rates in
 * Mops/s, the scaling ratios and the bars, from the rows of this
 * run (orma's and those the MPI jobs printed).  Notes only: a bar that
 * fails is printed as FAIL and leaves the exit status alone (the status
 * says whether the data verified). */
#include "mt_suite.h"

#include <stdio.h>
#include <string.h>

#include "pp_mpi.h"
#include "report.h"

#define MT_MAX_BACKENDS 8

/* The sep and shared bars: rate(2) / rate(1) at least this. */
static const double mt_bar_scale[MT_NMODES] = {1.7, 1.3};
/* orma's rate at 2 threads against each host's: at least 1x, and 3x
 * where the host's 1-thread put+flush takes more than this (us). */
#define MT_BAR_HOST_SLOW_US 0.1
#define MT_BAR_HOST_SLOW_X 3.0

static const bench_result *mt_row(const char *backend, int op, int mode, int threads)
{
    return bench_report_find_pattern(mt_threads_name(threads), backend, mt_op_names[op], "flush",
                                     mt_mode_names[mode], 8);
}

static const mt_scale *mt_find_scale(const char *backend, int op, int mode, int threads)
{
    for (int i = 0; i < mt_nscales; i++) {
        const mt_scale *s = &mt_scales[i];
        if (s->op == op && s->mode == mode && s->threads == threads && !strcmp(s->backend, backend))
            return s;
    }
    return NULL;
}

/* The backends of this run's rows, in the order met. */
static int mt_backends(const char *names[MT_MAX_BACKENDS])
{
    int n = 0;
    for (size_t i = 0; bench_report_at(i); i++) {
        const char *b = bench_report_at(i)->backend;
        int seen = 0;
        for (int k = 0; k < n; k++)
            seen |= !strcmp(names[k], b);
        if (!seen && n < MT_MAX_BACKENDS)
            names[n++] = b;
    }
    return n;
}

/* Cell of a table: the rates of a row in Mops/s, "12.3 (11.0-13.1)",
 * the fastest batch from the shortest time (scales 0); or rate(T) /
 * rate(1), "1.85x (1.70-1.95)" (scales 1).  0 when there is none. */
static int mt_cell(const char *backend, int op, int mode, int threads, int scales, char *buf, size_t len)
{
    const bench_result *r = scales ? NULL : mt_row(backend, op, mode, threads);
    const mt_scale *s = scales ? mt_find_scale(backend, op, mode, threads) : NULL;
    if (r && r->median_us > 0)
        snprintf(buf, len, "%.3g (%.3g-%.3g)", 1.0 / r->median_us, 1.0 / r->max_us, 1.0 / r->min_us);
    else if (s)
        snprintf(buf, len, "%.2fx (%.2f-%.2f)", s->median, s->min, s->max);
    else
        snprintf(buf, len, "-");
    return r || s;
}

/* One table: a line per backend, op and window, a column per T. */
static void mt_table(const mt_plan *p, const char *names[], int nb, int scales)
{
    char head[160] = "", cell[48];
    size_t n = 0;
    for (int i = 0; i < p->nthreads; i++)
        if (!scales || p->threads[i] != 1)
            n += (size_t)snprintf(head + n, sizeof head - n, "  T=%-20d", p->threads[i]);
    bench_note("%-18s %-4s %-6s%s", "backend", "op", "window", head);
    for (int b = 0; b < nb; b++)
        for (int op = 0; op < MT_NOPS; op++)
            for (int m = 0; m < MT_NMODES; m++) {
                char line[256] = "";
                size_t k = 0;
                int any = 0;
                for (int i = 0; i < p->nthreads; i++) {
                    if (scales && p->threads[i] == 1)
                        continue;
                    any |= mt_cell(names[b], op, m, p->threads[i], scales, cell, sizeof cell);
                    k += (size_t)snprintf(line + k, sizeof line - k, "  %-22s", cell);
                }
                if (any)
                    bench_note("%-18s %-4s %-6s%s", names[b], mt_op_names[op], mt_mode_names[m], line);
            }
}

/* The scaling bars: orma's rate(2) / rate(1) per op, in each mode. */
static void mt_bar_scaling(const mt_plan *p)
{
    for (int m = 0; m < MT_NMODES; m++) {
        if (!p->modes[m])
            continue;
        char line[256] = "";
        size_t k = 0;
        int pass = 1, any = 0;
        for (int op = 0; op < MT_NOPS; op++) {
            if (!p->ops[op])
                continue;
            const mt_scale *s = mt_find_scale("orma", op, m, 2);
            int ok = s && s->median >= mt_bar_scale[m];
            pass &= ok;
            if (s)
                k += (size_t)snprintf(line + k, sizeof line - k, "%s %s %.2fx%s", any ? "," : "", mt_op_names[op],
                                      s->median, ok ? "" : " (below)");
            else
                k += (size_t)snprintf(line + k, sizeof line - k, "%s %s not measured", any ? "," : "",
                                      mt_op_names[op]);
            any = 1;
        }
        if (any)
            bench_note("bar %s: orma rate(2 threads) / rate(1) >= %.1fx, median of the rounds' ratios:%s: %s",
                       mt_mode_names[m], mt_bar_scale[m], line, pass ? "PASS" : "FAIL");
    }
}

/* orma's rate at 2 threads beside each host MPI's own (mpi-rma/<v>), and
 * liborma-mpi's on that host (orma-mpi/<v>) beside it for information. */
static void mt_bar_hosts(const mt_plan *p)
{
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name; v++) {
        char host[48], ormampi[48];
        snprintf(host, sizeof host, "mpi-rma/%s", v->name);
        snprintf(ormampi, sizeof ormampi, "orma-mpi/%s", v->name);
        int pass = 1, any = 0;
        for (int m = 0; m < MT_NMODES; m++) {
            const bench_result *put1 = mt_row(host, MT_PUT, m, 1);
            double want = put1 && put1->median_us > MT_BAR_HOST_SLOW_US ? MT_BAR_HOST_SLOW_X : 1.0;
            for (int op = 0; op < MT_NOPS; op++) {
                const bench_result *h = mt_row(host, op, m, 2), *o = mt_row("orma", op, m, 2),
                                   *om = mt_row(ormampi, op, m, 2);
                if (!h || !p->ops[op] || !p->modes[m])
                    continue;
                any = 1;
                int ok = o && h->median_us / o->median_us >= want;
                pass &= ok;
                char put1s[32] = "not measured", os[64] = "not measured", oms[64] = "not measured";
                if (put1)
                    snprintf(put1s, sizeof put1s, "%.4g us", put1->median_us);
                if (o)
                    snprintf(os, sizeof os, "%.3g = %.3gx", 1.0 / o->median_us, h->median_us / o->median_us);
                if (om)
                    snprintf(oms, sizeof oms, "%.3g = %.3gx", 1.0 / om->median_us, h->median_us / om->median_us);
                bench_note("vs %s: %s %s, 2 threads: host %.3g Mops/s (its 1-thread put+flush %s); orma %s (want "
                           ">= %.0fx)%s; orma-mpi %s",
                           host, mt_op_names[op], mt_mode_names[m], 1.0 / h->median_us, put1s, os, want,
                           ok ? "" : ": below", oms);
            }
        }
        if (any)
            bench_note("bar %s: orma's 2-thread rate >= the host's (>= %.0fx where its 1-thread put+flush takes "
                       "over %.1f us), ratio of medians of separate jobs: %s",
                       host, MT_BAR_HOST_SLOW_X, MT_BAR_HOST_SLOW_US, pass ? "PASS" : "FAIL");
    }
}

void mt_summary(const mt_plan *p)
{
    const char *names[MT_MAX_BACKENDS];
    int nb = mt_backends(names);
    if (nb == 0)
        return;
    bench_note("mt: message rate, Mops/s: median (min-max) over the rounds");
    mt_table(p, names, nb, 0);
    bench_note("mt: rate(T) / rate(1): median (min-max) of the rounds' own ratios (a round's batches run next to "
               "each other)");
    mt_table(p, names, nb, 1);
    mt_bar_scaling(p);
    mt_bar_hosts(p);
}
