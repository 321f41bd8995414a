/* mt_summary.c -- the mt suite's summary (mt_suite.h): message rates in
 * Mops/s, the ratios and the bars, from every backend's samples.
 * Every ratio is the median (and range) of the rounds' own ratios: the
 * batches of a slot -- every backend's, every thread count's of an (op,
 * window) -- run next to each other.  Notes only: a bar that fails is
 * printed as FAIL and leaves the exit status alone (the status says
 * whether the data verified). */
#include "mt_suite.h"

#include <stdio.h>
#include <string.h>

#include "pp_mpi.h"
#include "report.h"

/* The sep and shared bars: rate(2) / rate(1) at least this. */
static const double mt_bar_scale[MT_NMODES] = {1.7, 1.3};
/* orma's rate at 2 threads against each host's: at least 1x, and 3x
 * where the host's 1-thread put+flush takes more than this (us). */
#define MT_BAR_HOST_SLOW_US 0.1
#define MT_BAR_HOST_SLOW_X 3.0

static int mt_ti(const mt_plan *p, int threads)
{
    for (int i = 0; i < p->nthreads; i++)
        if (p->threads[i] == threads)
            return i;
    return -1;
}

/* The samples of s at (op, mode, T), or NULL when not measured. */
static const double *mt_at_of(const mt_plan *p, const mt_series *s, int op, int mode, int threads)
{
    int ti = mt_ti(p, threads);
    if (!s || ti < 0 || !p->ops[op] || !p->modes[mode])
        return NULL;
    const double *v = &s->us[mt_at(p, op, mode, ti, 0)];
    return v[0] > 0 ? v : NULL;
}

static const mt_series *mt_named(const mt_series *s, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(s[i].name, name))
            return &s[i];
    return NULL;
}

/* The rates (Mops/s) of a point, "12.3 (11.0-13.1)": 1 / the times. */
static int mt_rate_cell(const mt_plan *p, const double *v, char *buf, size_t len)
{
    double mn, med, mx;
    if (!v)
        return snprintf(buf, len, "-"), 0;
    mt_stats(v, NULL, p->rounds, &mn, &med, &mx);
    snprintf(buf, len, "%.3g (%.3g-%.3g)", 1.0 / med, 1.0 / mx, 1.0 / mn);
    return 1;
}

/* rate(num) / rate(den), the rounds' own: median, min, max; 0 when a side
 * was not measured. */
static int mt_paired(const mt_plan *p, const double *num, const double *den, double *mn, double *med, double *mx)
{
    if (!num || !den)
        return 0;
    mt_stats(den, num, p->rounds, mn, med, mx); /* time(den) / time(num) */
    return 1;
}

/* A ratio in three digits, whole from 1000 on (MPICH's 70000x). */
static void mt_ratio_text(double v, char *buf, size_t len)
{
    snprintf(buf, len, v >= 1000 ? "%.0f" : "%.3g", v);
}

static int mt_ratio_cell(const mt_plan *p, const double *num, const double *den, char *buf, size_t len)
{
    double mn, med, mx;
    if (!mt_paired(p, num, den, &mn, &med, &mx))
        return snprintf(buf, len, "-"), 0;
    char a[3][16];
    mt_ratio_text(med, a[0], sizeof a[0]);
    mt_ratio_text(mn, a[1], sizeof a[1]);
    mt_ratio_text(mx, a[2], sizeof a[2]);
    snprintf(buf, len, "%sx (%s-%s)", a[0], a[1], a[2]);
    return 1;
}

/* A table, a line per backend, op and window, a column per T (ratios:
 * not T = 1): the rates (over NULL), rate(T) / rate(1) (over_one), or
 * rate(T) / the rate of over at T. */
static void mt_table(const mt_plan *p, const mt_series *s, int n, int over_one, const mt_series *over)
{
    char head[160] = "", cell[64];
    size_t k = 0;
    int ratio = over_one || over;
    for (int i = 0; i < p->nthreads; i++)
        if (!over_one || p->threads[i] != 1)
            k += (size_t)snprintf(head + k, sizeof head - k, "  T=%-22d", p->threads[i]);
    bench_note("%-18s %-4s %-6s%s", "backend", "op", "window", head);
    for (int b = 0; b < n; b++)
        for (int op = 0; op < MT_NOPS; op++)
            for (int m = 0; m < MT_NMODES; m++) {
                char line[256] = "";
                size_t at = 0;
                int any = 0;
                if (over && !strncmp(s[b].name, "mpi-rma/", 8))
                    continue; /* orma's and liborma-mpi's over a host's */
                for (int i = 0; i < p->nthreads; i++) {
                    int t = p->threads[i];
                    const double *v = mt_at_of(p, &s[b], op, m, t);
                    if (over_one && t == 1)
                        continue;
                    if (!ratio)
                        any |= mt_rate_cell(p, v, cell, sizeof cell);
                    else
                        any |= mt_ratio_cell(p, v, over_one ? mt_at_of(p, &s[b], op, m, 1) : mt_at_of(p, over, op, m, t),
                                             cell, sizeof cell);
                    at += (size_t)snprintf(line + at, sizeof line - at, "  %-24s", cell);
                }
                if (any)
                    bench_note("%-18s %-4s %-6s%s", s[b].name, mt_op_names[op], mt_mode_names[m], line);
            }
}

/* The scaling bars: orma's rate(2) / rate(1) per op, in each mode. */
static void mt_bar_scaling(const mt_plan *p, const mt_series *orma)
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
            double mn, med, mx;
            int got = mt_paired(p, mt_at_of(p, orma, op, m, 2), mt_at_of(p, orma, op, m, 1), &mn, &med, &mx);
            int ok = got && med >= mt_bar_scale[m];
            pass &= ok;
            if (got)
                k += (size_t)snprintf(line + k, sizeof line - k, "%s %s %.2fx%s", any ? "," : "", mt_op_names[op],
                                      med, ok ? "" : " (below)");
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

/* orma's rate at 2 threads over each host MPI's own (mpi-rma/<v>). */
static void mt_bar_hosts(const mt_plan *p, const mt_series *s, int n, const mt_series *orma)
{
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name; v++) {
        char name[48];
        snprintf(name, sizeof name, "mpi-rma/%s", v->name);
        const mt_series *host = mt_named(s, n, name);
        if (!host)
            continue;
        char line[512] = "";
        size_t k = 0;
        int pass = 1;
        for (int m = 0; m < MT_NMODES; m++) {
            const double *put1 = mt_at_of(p, host, MT_PUT, m, 1);
            double mn, med, mx, put1_us = 0;
            if (put1)
                mt_stats(put1, NULL, p->rounds, &mn, &put1_us, &mx);
            double want = put1_us > MT_BAR_HOST_SLOW_US ? MT_BAR_HOST_SLOW_X : 1.0;
            for (int op = 0; op < MT_NOPS; op++) {
                if (!mt_at_of(p, host, op, m, 2))
                    continue;
                int got = mt_paired(p, mt_at_of(p, orma, op, m, 2), mt_at_of(p, host, op, m, 2), &mn, &med, &mx);
                int ok = got && med >= want;
                pass &= ok;
                char x[16];
                mt_ratio_text(med, x, sizeof x);
                if (got)
                    k += (size_t)snprintf(line + k, sizeof line - k, "%s %s %s %sx%s (want %.0fx)", k ? "," : "",
                                          mt_op_names[op], mt_mode_names[m], x, ok ? "" : " below", want);
                else
                    k += (size_t)snprintf(line + k, sizeof line - k, "%s %s %s: orma not measured", k ? "," : "",
                                          mt_op_names[op], mt_mode_names[m]);
            }
            if (put1)
                bench_note("%s: its 1-thread put+flush, window %s: %.4g us per operation", name, mt_mode_names[m],
                           put1_us);
        }
        if (k)
            bench_note("bar %s: orma's 2-thread rate >= the host's, >= %.0fx where its 1-thread put+flush takes over "
                       "%.1f us (medians of the rounds' ratios):%s: %s",
                       name, MT_BAR_HOST_SLOW_X, MT_BAR_HOST_SLOW_US, line, pass ? "PASS" : "FAIL");
    }
}

void mt_summary(const mt_plan *p, const mt_series *s, int n)
{
    if (n == 0)
        return;
    const mt_series *orma = mt_named(s, n, "orma");
    bench_note("mt: message rate, Mops/s: median (min-max) over the rounds");
    mt_table(p, s, n, 0, NULL);
    if (mt_ti(p, 1) >= 0) {
        bench_note("mt: rate(T) / rate(1): median (min-max) of the rounds' own ratios");
        mt_table(p, s, n, 1, NULL);
    }
    int others = 0; /* orma, orma-mpi: what the hosts' rates are the measure of */
    for (int i = 0; i < n; i++)
        others |= strncmp(s[i].name, "mpi-rma/", 8) != 0;
    for (int i = 0; i < n && others; i++)
        if (strncmp(s[i].name, "mpi-rma/", 8) == 0) {
            bench_note("mt: rate / the rate of %s at the same T: median (min-max) of the rounds' own ratios",
                       s[i].name);
            mt_table(p, s, n, 0, &s[i]);
        }
    if (orma) {
        mt_bar_scaling(p, orma);
        mt_bar_hosts(p, s, n, orma);
    }
}
