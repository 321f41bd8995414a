/* rdx_summary.c -- the rdx suite's tables, from this run's medians (rank
 * 0 prints), per key count n:
 *
 *   the sequential sort's time (p = 1, rdx_seq.c), then per backend of
 *   the run the time of a sort in each version (put, put_opt, send) and
 *   its speedup over the sequential sort, as seed 003's Figs. 2 and 3;
 *
 *   the one-sided / two-sided ratio: each one-sided backend's put and
 *   put_opt over the send version of mpi-p2p on the same host MPI (orma
 *   and BSPlib's bsp and bsp-buffered, on no MPI, over each host's),
 *   below 1 when one-sided is faster -- the seed saw one-sided at least
 *   50% better under LAM MPI.
 *
 * The sequential sort is measured first, here: rank 0 alone, after the
 * parallel backends (rdx_seq.c).  Backends are taken from the rows in the order they were reported, so
 * whatever ran (orma alone, some MPI variants) is shown. */
#include <stdio.h>
#include <string.h>

#include "li_suite.h"
#include "rdx.h"
#include "rdx_def.h"
#include "report.h"

#define MAX_BACKENDS 16

static const bench_result *find(const char *backend, rdx_version v,
                                size_t n)
{
    return bench_report_find(backend, rdx_op_names[v], rdx_sync_name(v),
                             rdx_window_name(v), n);
}

/* The parallel backends with a row at n, in the order of the rows. */
static int backends_at(size_t n, const char **b)
{
    int nb = 0;
    for (size_t i = 0; bench_report_at(i) != NULL; i++) {
        const bench_result *r = bench_report_at(i);
        if (r->bytes != n || strcmp(r->backend, "seq") == 0)
            continue;
        int seen = 0;
        for (int k = 0; k < nb; k++)
            seen |= strcmp(b[k], r->backend) == 0;
        if (!seen && nb < MAX_BACKENDS)
            b[nb++] = r->backend;
    }
    return nb;
}

/* "mpi-rma/openmpi" -> "openmpi"; orma, bsp -> NULL. */
static const char *variant_of(const char *backend)
{
    const char *s = strchr(backend, '/');
    return s != NULL ? s + 1 : NULL;
}

static int is_p2p(const char *backend)
{
    return strncmp(backend, "mpi-p2p", 7) == 0;
}

static void times(size_t n, int p, const char *const *b, int nb)
{
    const bench_result *seq = bench_report_find("seq", "sort", "none",
                                                "none", n);
    char sz[24];
    bench_format_size(n, sz, sizeof sz);
    printf("\n  rdx, n = %s keys, p = %d: median ms per sort (speedup over "
           "the sequential sort)\n", sz, p);
    if (seq != NULL)
        printf("    %-18s %9.3f\n", "seq (p = 1)", seq->median_us * 1e-3);
    printf("    %-18s", "backend");
    for (int v = 0; v < RDX_NVERSIONS; v++)
        printf(" %17s", rdx_op_names[v]);
    putchar('\n');
    for (int k = 0; k < nb; k++) {
        printf("    %-18s", b[k]);
        for (int v = 0; v < RDX_NVERSIONS; v++) {
            const bench_result *r = find(b[k], (rdx_version)v, n);
            if (r == NULL)
                printf(" %17s", "-");
            else if (seq != NULL && r->median_us > 0.0)
                printf(" %9.3f (%5.2f)", r->median_us * 1e-3,
                       seq->median_us / r->median_us);
            else
                printf(" %9.3f %7s", r->median_us * 1e-3, "");
        }
        putchar('\n');
    }
}

static void ratios(size_t n, const char *const *b, int nb)
{
    int head = 0;
    for (int i = 0; i < nb; i++) {
        const bench_result *send = find(b[i], RDX_SEND, n);
        if (!is_p2p(b[i]) || send == NULL || !(send->median_us > 0.0))
            continue;
        const char *v = variant_of(b[i]);
        for (int k = 0; k < nb; k++) {
            const char *w = variant_of(b[k]);
            if (is_p2p(b[k]) ||
                (w != NULL && (v == NULL || strcmp(v, w) != 0)))
                continue;
            const bench_result *put = find(b[k], RDX_PUT, n);
            const bench_result *opt = find(b[k], RDX_PUT_OPT, n);
            if (put == NULL && opt == NULL)
                continue;
            if (!head)
                printf("  one-sided / two-sided: put and put_opt over "
                       "mpi-p2p's send (below 1: one-sided is faster)\n");
            head = 1;
            char name[64];
            snprintf(name, sizeof name, "%s / %s", b[k], b[i]);
            printf("    %-36s", name);
            if (put != NULL)
                printf(" put %5.2f", put->median_us / send->median_us);
            if (opt != NULL)
                printf("  put_opt %5.2f", opt->median_us / send->median_us);
            putchar('\n');
        }
    }
}

int rdx_summary(const bench_ctx *ctx)
{
    int st = rdx_seq_run(ctx);
    if (ctx->rank != 0)
        return st;
    const size_t *sizes = ctx->opts->sizes;
    int ns = ctx->opts->nsizes;
    for (int i = 0; i < ns; i++) {
        const char *b[MAX_BACKENDS];
        int nb = backends_at(sizes[i], b);
        if (nb == 0)
            continue;
        times(sizes[i], ctx->size, b, nb);
        ratios(sizes[i], b, nb);
    }
    fflush(stdout);
    return st;
}
