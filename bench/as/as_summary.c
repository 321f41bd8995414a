/* as_summary.c -- the as suite's summary (li_suite.h), after every backend
 * ran, from this run's medians:
 *
 *   the memcpy floor: rank 0 copies AS_MEMCPY_BYTES, private to private,
 *   warm (floor.h's memcpy, a row "floor memcpy"), and g_memcpy, its time
 *   per 32-bit word -- what moving a word costs a core with no
 *   communication at all;
 *   per host MPI of the run (orma and BSPlib's backends alone without
 *   one): seed 003's Fig. 5 as a table, the fixed tests per backend side
 *   by side, and its Fig. 6, the total exchange's cost per 32-bit word
 *   t / (h x P) per h;
 *   the BSP parameters per backend: L, the empty superstep's time and
 *   the intercept of a least-squares line t = L + g x H through the
 *   total exchange's medians t against H = h x P (the words a rank sends
 *   and receives: an H-relation) over the larger half of the h measured,
 *   where the exchange is bandwidth-bound; g, its slope, in us and ns per
 *   word, and g / g_memcpy;
 *   with the bsp backend (li_bsp.h), two bars: its empty superstep
 *   (bsp_sync with nothing to communicate) within 2x of orma's (an empty
 *   orma_win_fence epoch), and its g within 1.2x of g_memcpy.  As
 *   elsewhere a FAIL is printed; the exit status is not affected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "as_def.h"
#include "ctl.h"
#include "floor.h"
#include "li_suite.h"
#include "pp_mpi.h"
#include "report.h"

#define AS_MEMCPY_BYTES ((size_t)16 << 20)
#define COL 10
#define NCOLS 6
#define BAR_EMPTY 2.0 /* bsp's empty superstep / orma's */
#define BAR_G 1.2     /* bsp's g / g_memcpy */

static const char *const fixed_ops[] = {"empty", "barrier", "comp", "full",
                                        "simple", "scatter", NULL};

static int two_sided(const char *backend)
{
    return strncmp(backend, "mpi-p2p", 7) == 0;
}

static const bench_result *find(const char *backend, const char *op,
                                size_t bytes)
{
    int p2p = two_sided(backend);
    return bench_report_find(backend, op, p2p ? "p2p" : "fence",
                             p2p ? "none" : "allocate", bytes);
}

/* 1 when this run has an as row of backend. */
static int seen(const char *backend)
{
    for (size_t i = 0; bench_report_at(i) != NULL; i++)
        if (strcmp(bench_report_at(i)->backend, backend) == 0)
            return 1;
    return 0;
}

typedef struct column {
    char backend[48]; /* "mpi-rma/openmpi" */
    const char *head; /* "mpi-rma" */
} column;

/* The backends of every table: orma-bench's own, then those of a host
 * MPI (their rows' backend "<name>/<variant>"). */
enum { OWN_COLS = 3 };
static const char *const col_names[NCOLS] = {"orma", "bsp", "bsp-buffered",
                                             "mpi-rma", "orma-mpi",
                                             "mpi-p2p"};
static const char *const col_heads[NCOLS] = {"orma", "bsp", "bsp-buf",
                                             "mpi-rma", "orma-mpi",
                                             "mpi-p2p"};

/* The columns of variant v (NULL: orma-bench's own alone) that have
 * results. */
static int columns(const pp_mpi_variant *v, column *c)
{
    int n = 0;
    for (int k = 0; k < NCOLS; k++) {
        if (k < OWN_COLS)
            snprintf(c[n].backend, sizeof c[n].backend, "%s", col_names[k]);
        else if (v != NULL)
            snprintf(c[n].backend, sizeof c[n].backend, "%s/%s",
                     col_names[k], v->name);
        else
            continue;
        c[n].head = col_heads[k];
        n += seen(c[n].backend);
    }
    return n;
}

static void head(const char *first, int width, const column *c, int n)
{
    printf("  %-*s", width, first);
    for (int k = 0; k < n; k++)
        printf(" %*s", COL, c[k].head);
    putchar('\n');
}

/* r's median over div, or "-": with 3 decimals, or (per word: from
 * thousands of us on a crowded MPICH to hundredths of a ns) 4 significant
 * digits. */
static void cell(const bench_result *r, double div, int digits)
{
    if (r == NULL)
        printf(" %*s", COL, "-");
    else if (digits)
        printf(" %*.4g", COL, r->median_us / div);
    else
        printf(" %*.3f", COL, r->median_us / div);
}

/* 1 when a column has a result of op at bytes. */
static int any(const column *c, int n, const char *op, size_t bytes)
{
    for (int k = 0; k < n; k++)
        if (find(c[k].backend, op, bytes) != NULL)
            return 1;
    return 0;
}

static void fixed_table(const char *name, int p, const column *c, int n)
{
    int rows = 0;
    for (int i = 0; fixed_ops[i] != NULL; i++)
        rows += any(c, n, fixed_ops[i], 4);
    if (rows == 0)
        return;
    printf("\n  %s: seed 003 Fig. 5, median us per superstep, p=%d\n", name,
           p);
    head("test", 8, c, n);
    for (int i = 0; fixed_ops[i] != NULL; i++) {
        if (!any(c, n, fixed_ops[i], 4))
            continue;
        printf("  %-8s", fixed_ops[i]);
        for (int k = 0; k < n; k++)
            cell(find(c[k].backend, fixed_ops[i], 4), 1.0, 0);
        putchar('\n');
    }
}

static void word_table(const bench_opts *o, const char *name, int p,
                       const column *c, int n)
{
    int rows = 0;
    for (int i = 0; i < o->nsizes; i++)
        rows += any(c, n, "xchg", as_words_of(o->sizes[i]) * 4);
    if (rows == 0)
        return;
    printf("\n  %s: seed 003 Fig. 6, us per 32-bit word, t / (h x p), of a "
           "total exchange\n  of h words per pair, p=%d\n", name, p);
    head("      h", 7, c, n);
    for (int i = 0; i < o->nsizes; i++) {
        size_t h = as_words_of(o->sizes[i]);
        if (h == 0 || !any(c, n, "xchg", h * 4))
            continue;
        printf("  %7zu", h);
        for (int k = 0; k < n; k++)
            cell(find(c[k].backend, "xchg", h * 4), (double)h * p, 1);
        putchar('\n');
    }
}

/* The least-squares line t = l + g x H through the larger half of the
 * sizes measured on backend; 0 when there are fewer than 2 points. */
static int fit(const bench_opts *o, const char *backend, int p, double *l_p,
               double *g_p, size_t *h0_p, size_t *h1_p)
{
    size_t hs[BENCH_MAX_SIZES];
    int n = 0;
    for (int i = 0; i < o->nsizes; i++) {
        size_t h = as_words_of(o->sizes[i]);
        if (h != 0 && find(backend, "xchg", h * 4) != NULL)
            hs[n++] = h;
    }
    for (int i = 1; i < n; i++) /* ascending; a handful of sizes */
        for (int j = i; j > 0 && hs[j - 1] > hs[j]; j--) {
            size_t t = hs[j];
            hs[j] = hs[j - 1];
            hs[j - 1] = t;
        }
    int from = n / 2;
    if (n - from < 2)
        return 0;
    double sx = 0, sy = 0, sxx = 0, sxy = 0, m = n - from;
    for (int i = from; i < n; i++) {
        double x = (double)hs[i] * p;
        double y = find(backend, "xchg", hs[i] * 4)->median_us;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    double d = m * sxx - sx * sx;
    if (!(d > 0.0))
        return 0;
    *g_p = (m * sxy - sx * sy) / d;
    *l_p = (sy - *g_p * sx) / m;
    *h0_p = hs[from];
    *h1_p = hs[n - 1];
    return 1;
}

static void bsp_row(const bench_opts *o, const char *backend, int p,
                    double g_memcpy)
{
    const bench_result *e = find(backend, "empty", 4);
    double l, g;
    size_t h0, h1;
    printf("  %-17s", backend);
    if (e != NULL)
        printf(" %9.3f", e->median_us);
    else
        printf(" %9s", "-");
    if (!fit(o, backend, p, &l, &g, &h0, &h1)) {
        printf(" %9s %11s %9s %10s\n", "-", "-", "-", "-");
        return;
    }
    printf(" %9.3f %11.6f %9.3f", l, g, g * 1e3);
    if (g_memcpy > 0.0)
        printf(" %10.2f", g / g_memcpy);
    else
        printf(" %10s", "-");
    printf("  h %zu..%zu\n", h0, h1);
}

static double bsp_table(const bench_opts *o, int p)
{
    const bench_result *m = bench_report_find("floor", "memcpy", "none",
                                              "none", AS_MEMCPY_BYTES);
    double g_memcpy = m != NULL ? m->median_us / (AS_MEMCPY_BYTES / 4) : 0.0;
    printf("\n  BSP parameters, p=%d: L_empty the empty superstep; L_fit "
           "and g the intercept\n  and slope of a least-squares line t = L + "
           "g x H through the total exchange's\n  medians on the larger half "
           "of the h measured (H = h x p words per rank)\n", p);
    printf("  %-17s %9s %9s %11s %9s %10s\n", "backend", "L_empty", "L_fit",
           "g_us/word", "g_ns/word", "g/g_memcpy");
    for (int k = 0; k < OWN_COLS; k++)
        if (seen(col_names[k]))
            bsp_row(o, col_names[k], p, g_memcpy);
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name != NULL; v++) {
        column c[NCOLS];
        int n = columns(v, c);
        for (int k = 0; k < n; k++)
            if (strchr(c[k].backend, '/') != NULL)
                bsp_row(o, c[k].backend, p, g_memcpy);
    }
    if (m != NULL)
        printf("  memcpy of %zu MB: %.1f us, g_memcpy = %.6f us (%.3f ns) "
               "per 32-bit word\n", AS_MEMCPY_BYTES >> 20, m->median_us,
               g_memcpy, g_memcpy * 1e3);
    else
        printf("  no memcpy floor (--op without memcpy): no g_memcpy\n");
    return g_memcpy;
}

static const char *verdict(int pass)
{
    return pass ? "PASS" : "FAIL";
}

/* The bars of the bsp backend, when this run has its rows. */
static void bsp_bars(const bench_opts *o, int p, double g_memcpy)
{
    if (!seen("bsp"))
        return;
    const bench_result *b = find("bsp", "empty", 4);
    const bench_result *f = find("orma", "empty", 4);
    if (b != NULL && f != NULL && f->median_us > 0.0) {
        double r = b->median_us / f->median_us;
        printf("\n  bar: bsp_sync with nothing to communicate within %.0fx "
               "of orma_win_fence's empty epoch, p=%d (as empty, medians, "
               "measured one backend after the other): bsp %.3f us, orma "
               "%.3f us, ratio %.2f  %s\n", BAR_EMPTY, p, b->median_us,
               f->median_us, r, verdict(r <= BAR_EMPTY));
    } else {
        printf("\n  bar: bsp_sync vs orma_win_fence, empty: needs the "
               "empty test on orma and bsp (--backends orma,bsp)\n");
    }
    double l, g;
    size_t h0, h1;
    if (fit(o, "bsp", p, &l, &g, &h0, &h1) && g_memcpy > 0.0)
        printf("  bar: bsp's g for large h (h %zu..%zu) within %.1fx of "
               "g_memcpy, p=%d: g %.3f ns, g_memcpy %.3f ns per word, "
               "g/g_memcpy %.2f  %s\n", h0, h1, BAR_G, p, g * 1e3,
               g_memcpy * 1e3, g / g_memcpy, verdict(g / g_memcpy <= BAR_G));
    else
        printf("  bar: bsp's g / g_memcpy: needs xchg at 2 or more of the "
               "larger sizes and the memcpy floor\n");
}

int as_summary(const bench_ctx *ctx)
{
    int st = bench_floor_memcpy_at(ctx, AS_MEMCPY_BYTES);
    if (ctx->rank != 0)
        return st;
    const bench_opts *o = ctx->opts;
    int p = ctx->size;
    printf("\nas: p=%d\n", p);
    column c[NCOLS];
    int tables = 0;
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name != NULL; v++) {
        if (!pp_mpi_seen(v))
            continue;
        int n = columns(v, c);
        fixed_table(v->name, p, c, n);
        word_table(o, v->name, p, c, n);
        tables++;
    }
    int n = columns(NULL, c);
    if (tables == 0 && n > 0) {
        const char *name = n > 1 ? "orma and BSPlib" : c[0].head;
        fixed_table(name, p, c, n);
        word_table(o, name, p, c, n);
    }
    double g_memcpy = bsp_table(o, p);
    bsp_bars(o, p, g_memcpy);
    fflush(stdout);
    return st;
}
