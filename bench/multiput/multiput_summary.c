/* multiput_summary.c -- the multiput suite's summary, from this run's
 * medians (us per epoch):
 *
 *   per (mode, window): for every backend of the run (orma, and per MPI
 *     variant mpi-rma and orma-mpi) a line of time(1) per size and a line
 *     of time(k) / time(1) per size for every other k -- the seed's
 *     question: does the library merge k puts of adjacent bytes into one?
 *     (a ratio near 1: the k puts cost one; near k at small sizes: each
 *     put costs its own overhead) -- then per variant orma's time over
 *     mpi-rma's at k = 1 and at the largest k (below 1: orma faster);
 *   mpi-p2p's one-way send/recv of S bytes per variant, the reference;
 *   per backend, time(largest k) / time(1) over every mode and window at
 *     the smallest and the largest size, as min-max.
 * No bar: the suite reports what it sees. */
#include <stdio.h>
#include <string.h>

#include "lat_def.h"
#include "multiput.h"
#include "multiput_def.h"
#include "pp_mpi.h"
#include "report.h"

#define MAX_BACKENDS 8
#define COL 8

typedef struct mp_sum {
    const bench_opts *o;
    char backends[MAX_BACKENDS][48];    /* with rows in this run */
    int nb;
    int kmax;                           /* index of the largest k run */
} mp_sum;

static int has_rows(const char *backend)
{
    for (size_t i = 0; bench_report_at(i) != NULL; i++)
        if (strcmp(bench_report_at(i)->backend, backend) == 0)
            return 1;
    return 0;
}

static void add_backend(mp_sum *m, const char *name)
{
    if (m->nb == MAX_BACKENDS || !has_rows(name))
        return;
    snprintf(m->backends[m->nb], sizeof m->backends[m->nb], "%s", name);
    m->nb++;
}

static const bench_result *find(const char *backend, int j, const char *sync,
                                const char *window, size_t n)
{
    return bench_report_find(backend, multiput_op_names[j], sync, window, n);
}

static double median(const bench_result *r)
{
    return r != NULL ? r->median_us : 0.0;
}

static void size_head(const mp_sum *m, const char *title)
{
    printf("\n  %-28s", title);
    for (int i = 0; i < m->o->nsizes; i++) {
        char sz[24];
        bench_format_size(m->o->sizes[i], sz, sizeof sz);
        printf(" %*s", COL, sz);
    }
    putchar('\n');
}

/* a / b, or "-" when either is missing. */
static void ratio_cell(double a, double b)
{
    if (a > 0.0 && b > 0.0)
        printf(" %*.2f", COL, a / b);
    else
        printf(" %*s", COL, "-");
}

static void us_cell(double a)
{
    if (a > 0.0)
        printf(" %*.3f", COL, a);
    else
        printf(" %*s", COL, "-");
}

/* The lines of one backend in the block of (sync, window). */
static void backend_lines(const mp_sum *m, const char *b, const char *sync,
                          const char *window)
{
    const bench_opts *o = m->o;
    for (int j = 0; multiput_op_names[j] != NULL; j++) {
        if (j > 0 && !bench_list_has(o->ops, multiput_op_names[j]))
            continue;
        char k[16];
        snprintf(k, sizeof k, j ? "x%d" : "us", multiput_pieces[j]);
        printf("    %-21s %4s", j ? "" : b, k);
        for (int i = 0; i < o->nsizes; i++) {
            size_t n = o->sizes[i];
            double t1 = median(find(b, 0, sync, window, n));
            if (j == 0)
                us_cell(t1);
            else
                ratio_cell(median(find(b, j, sync, window, n)), t1);
        }
        putchar('\n');
    }
}

/* orma over mpi-rma of variant v at k = 1 and the largest k. */
static void versus_lines(const mp_sum *m, const char *v, const char *sync,
                         const char *window)
{
    char rma[48], label[48];
    snprintf(rma, sizeof rma, "mpi-rma/%s", v);
    snprintf(label, sizeof label, "orma/mpi-rma/%s", v);
    int ks[2] = {0, m->kmax};
    for (int x = 0; x < 2 && !(x == 1 && m->kmax == 0); x++) {
        char k[16];
        snprintf(k, sizeof k, "k%d", multiput_pieces[ks[x]]);
        printf("    %-21s %4s", x ? "" : label, k);
        for (int i = 0; i < m->o->nsizes; i++) {
            size_t n = m->o->sizes[i];
            ratio_cell(median(find("orma", ks[x], sync, window, n)),
                       median(find(rma, ks[x], sync, window, n)));
        }
        putchar('\n');
    }
}

static int block_has_rows(const mp_sum *m, const char *sync,
                          const char *window)
{
    for (int b = 0; b < m->nb; b++)
        for (int j = 0; multiput_op_names[j] != NULL; j++)
            for (int i = 0; i < m->o->nsizes; i++)
                if (find(m->backends[b], j, sync, window, m->o->sizes[i]))
                    return 1;
    return 0;
}

static void blocks(const mp_sum *m)
{
    for (int s = 0; multiput_sync_names[s] != NULL; s++)
        for (int w = 0; lat_window_kinds[w] != NULL; w++) {
            const char *sync = multiput_sync_names[s];
            const char *window = lat_window_kinds[w];
            if (!block_has_rows(m, sync, window))
                continue;
            char title[48];
            snprintf(title, sizeof title, "%s / %s", sync, window);
            size_head(m, title);
            for (int b = 0; b < m->nb; b++)
                backend_lines(m, m->backends[b], sync, window);
            if (!has_rows("orma"))
                continue;
            for (int v = 0; pp_mpi_variants[v].name != NULL; v++) {
                char rma[48];
                snprintf(rma, sizeof rma, "mpi-rma/%s",
                         pp_mpi_variants[v].name);
                if (has_rows(rma))
                    versus_lines(m, pp_mpi_variants[v].name, sync, window);
            }
        }
}

static void p2p_lines(const mp_sum *m)
{
    int head = 0;
    for (int v = 0; pp_mpi_variants[v].name != NULL; v++) {
        char b[48];
        snprintf(b, sizeof b, "mpi-p2p/%s", pp_mpi_variants[v].name);
        if (!has_rows(b))
            continue;
        if (!head++)
            size_head(m, "one send/recv of S, us");
        printf("    %-26s", b);
        for (int i = 0; i < m->o->nsizes; i++)
            us_cell(median(bench_report_find(b, "sendrecv", "none", "none",
                                             m->o->sizes[i])));
        putchar('\n');
    }
}

/* min-max of time(kmax) / time(1) of backend b at size n, every block. */
static void range_cell(const mp_sum *m, const char *b, size_t n)
{
    double lo = 0.0, hi = 0.0;
    for (int s = 0; multiput_sync_names[s] != NULL; s++)
        for (int w = 0; lat_window_kinds[w] != NULL; w++) {
            const char *sync = multiput_sync_names[s];
            const char *window = lat_window_kinds[w];
            double t1 = median(find(b, 0, sync, window, n));
            double tk = median(find(b, m->kmax, sync, window, n));
            if (!(t1 > 0.0 && tk > 0.0))
                continue;
            double x = tk / t1;
            if (lo == 0.0 || x < lo)
                lo = x;
            if (x > hi)
                hi = x;
        }
    char c[32] = "-";
    if (lo > 0.0)
        snprintf(c, sizeof c, "%.2f-%.2f", lo, hi);
    printf(" %13s", c);
}

static void ranges(const mp_sum *m)
{
    const bench_opts *o = m->o;
    size_t lo = o->sizes[0], hi = o->sizes[0];
    for (int i = 1; i < o->nsizes; i++) {
        if (o->sizes[i] < lo)
            lo = o->sizes[i];
        if (o->sizes[i] > hi)
            hi = o->sizes[i];
    }
    char a[24], b[24], at_lo[32], at_hi[32];
    bench_format_size(lo, a, sizeof a);
    bench_format_size(hi, b, sizeof b);
    snprintf(at_lo, sizeof at_lo, "at %s", a);
    snprintf(at_hi, sizeof at_hi, "at %s", b);
    printf("\n  time(%s) / time(put1), min-max over the modes and windows\n"
           "    %-26s %13s %13s\n", multiput_op_names[m->kmax], "", at_lo,
           at_hi);
    for (int k = 0; k < m->nb; k++) {
        printf("    %-26s", m->backends[k]);
        range_cell(m, m->backends[k], lo);
        range_cell(m, m->backends[k], hi);
        putchar('\n');
    }
}

void multiput_summary(const bench_ctx *ctx)
{
    if (ctx->rank != 0)
        return;
    mp_sum m;
    memset(&m, 0, sizeof m);
    m.o = ctx->opts;
    add_backend(&m, "orma");
    for (int v = 0; pp_mpi_variants[v].name != NULL; v++) {
        char b[48];
        snprintf(b, sizeof b, "mpi-rma/%s", pp_mpi_variants[v].name);
        add_backend(&m, b);
        snprintf(b, sizeof b, "orma-mpi/%s", pp_mpi_variants[v].name);
        add_backend(&m, b);
    }
    for (int j = 0; multiput_op_names[j] != NULL; j++)
        if (bench_list_has(m.o->ops, multiput_op_names[j]))
            m.kmax = j;
    printf("\nsummary of the multiput suite (medians of this run): us per "
           "epoch of one put of S\n(put1, line \"us\"), and time(put<k>) / "
           "time(put1) (lines \"x<k>\"); orma/mpi-rma:\norma's time over "
           "mpi-rma's at the same k (below 1: orma faster)\n");
    if (m.nb == 0) {
        printf("  (no one-sided results)\n");
        fflush(stdout);
        return;
    }
    blocks(&m);
    p2p_lines(&m);
    if (m.kmax > 0 && bench_list_has(m.o->ops, "put1"))
        ranges(&m);
    fflush(stdout);
}
