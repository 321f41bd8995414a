/* bspbench_summary.c -- the bspbench suite's summary (bspbench.h), from
 * this run's medians, on rank 0:
 *
 *   the time of an h-relation per h, bsp_put and bsp_hpput side by side;
 *   the BSP parameters of each: L and g, the intercept and slope of a
 *   least-squares line t = L + g h through the medians, over bspbench's
 *   two ranges, h = 0..p (where an h-relation is a few words per
 *   destination) and h = p..hmax (the one it reports); g in us and ns per
 *   8-byte word and against g_memcpy, the memcpy floor per 8-byte word;
 *   L_empty, the empty bsp_sync;
 *   the bar: bsp_sync with nothing to communicate within 2x of an empty
 *   orma_win_fence epoch, both measured in this run, samples alternating.
 *   As elsewhere a FAIL is printed; the exit status is not affected. */
#include <stdio.h>

#include "bspbench.h"
#include "bspbench_def.h"
#include "report.h"

#define BAR_EMPTY 2.0

static const bench_result *find(const char *op, size_t h)
{
    return bench_report_find("bsp", op, "bsp_sync", "registered", h);
}

static void cell(const bench_result *r)
{
    if (r != NULL)
        printf(" %10.3f", r->median_us);
    else
        printf(" %10s", "-");
}

static void times(const size_t *hs, int n)
{
    printf("\n  median us per h-relation (h 8-byte words sent and received "
           "per process)\n  %6s %10s %10s\n", "h", "put", "hpput");
    for (int i = 0; i < n; i++) {
        if (find("put", hs[i]) == NULL && find("hpput", hs[i]) == NULL)
            continue;
        printf("  %6zu", hs[i]);
        cell(find("put", hs[i]));
        cell(find("hpput", hs[i]));
        putchar('\n');
    }
}

static void fit_row(const char *op, const size_t *hs, int n, size_t lo,
                    size_t hi, double g_memcpy)
{
    size_t h[BB_MAX_POINTS];
    double t[BB_MAX_POINTS];
    int m = 0;
    for (int i = 0; i < n; i++)
        if (find(op, hs[i]) != NULL) {
            h[m] = hs[i];
            t[m++] = find(op, hs[i])->median_us;
        }
    double l, g;
    int used;
    char range[32];
    snprintf(range, sizeof range, "%zu..%zu", lo, hi);
    printf("  %-6s %-11s", op, range);
    if (!bb_fit(h, t, m, lo, hi, &l, &g, &used)) {
        printf(" %6s %9s %11s %9s %10s\n", "-", "-", "-", "-", "-");
        return;
    }
    printf(" %6d %9.3f %11.6f %9.3f", used, l, g, g * 1e3);
    if (g_memcpy > 0.0)
        printf(" %10.1f\n", g / g_memcpy);
    else
        printf(" %10s\n", "-");
}

static void parameters(int p, const size_t *hs, int n)
{
    const bench_result *m = bench_report_find("floor", "memcpy", "none",
                                              "none", BB_MEMCPY_BYTES);
    double g_memcpy = m != NULL ? m->median_us / (BB_MEMCPY_BYTES / 8) : 0.0;
    size_t hmax = hs[n - 1], mid = (size_t)p < hmax ? (size_t)p : hmax;
    printf("\n  BSP parameters, p=%d: L and g the intercept and slope of a "
           "least-squares line\n  t = L + g h through the medians, over "
           "bspbench's ranges h = 0..p and p..hmax\n", p);
    printf("  %-6s %-11s %6s %9s %11s %9s %10s\n", "op", "h", "points",
           "L_us", "g_us/word", "g_ns/word", "g/g_memcpy");
    static const char *const ops[] = {"put", "hpput"};
    for (int k = 0; k < 2; k++) {
        fit_row(ops[k], hs, n, 0, mid, g_memcpy);
        fit_row(ops[k], hs, n, mid, hmax, g_memcpy);
    }
    const bench_result *e = bench_report_find("bsp", "empty", "bsp_sync",
                                              "registered", 0);
    if (e != NULL)
        printf("  L_empty, an empty bsp_sync: %.3f us\n", e->median_us);
    if (m != NULL)
        printf("  memcpy of %zu MB: %.1f us, g_memcpy = %.6f us (%.3f ns) "
               "per 8-byte word\n", BB_MEMCPY_BYTES >> 20, m->median_us,
               g_memcpy, g_memcpy * 1e3);
    else
        printf("  no memcpy floor (--op without memcpy): no g_memcpy\n");
}

static void bar(int p)
{
    const bench_result *b = bench_report_find("bsp", "empty", "bsp_sync",
                                              "registered", 0);
    const bench_result *f = bench_report_find("orma", "empty", "fence",
                                              "allocate", 0);
    if (b == NULL || f == NULL || !(f->median_us > 0.0)) {
        printf("\n  bar: bsp_sync vs orma_win_fence, empty: needs both "
               "empty rows (--op empty)\n");
        return;
    }
    double r = b->median_us / f->median_us;
    printf("\n  bar: bsp_sync with nothing to communicate within %.0fx of "
           "orma_win_fence's empty epoch, p=%d (medians, samples "
           "alternating): bsp_sync %.3f us, orma_win_fence %.3f us, ratio "
           "%.2f  %s\n", BAR_EMPTY, p, b->median_us, f->median_us, r,
           r <= BAR_EMPTY ? "PASS" : "FAIL");
}

void bspbench_summary(const bench_ctx *ctx, const size_t *hs, int n)
{
    if (ctx->rank != 0)
        return;
    printf("\nbspbench: p=%d, BSPlib on orma\n", ctx->size);
    times(hs, n);
    parameters(ctx->size, hs, n);
    bar(ctx->size);
    fflush(stdout);
}
