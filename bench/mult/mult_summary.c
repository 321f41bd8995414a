/* mult_summary.c -- the mult suite's tables (mult.h), from this run's
 * medians, in seed 003's Table 1 layout:
 *
 *   per host MPI (variant) of the run, per n: the serial time in seconds,
 *   then the speedup serial / parallel of orma's put and get, of BSPlib's
 *   (bsp, bsp-buffered: li_bsp.h), of mpi-rma/<v>'s and orma-mpi/<v>'s put
 *   and get, of mpi-p2p/<v>'s send; then the one-sided / point-to-point
 *   time ratios: each put and get against mpi-p2p/<v>'s send (orma and
 *   BSPlib have no send of their own: their ratios are against each
 *   host's);
 *
 * and the bar: orma's put at or below its send ratio 1.0 at every n and
 * variant (seed 003 found one-sided mostly faster than two-sided).  As
 * elsewhere a FAIL is reported and does not change the exit status.
 * Without an MPI variant, the speedups of orma and BSPlib alone. */
#include <stdio.h>
#include <string.h>

#include "li_suite.h"
#include "mult.h"
#include "mult_def.h"
#include "pp_mpi.h"
#include "report.h"

#define COL 6
#define BAR 1.0
#define MAX_FAMILIES 6

typedef struct family {
    const char *backend; /* "orma", "bsp", "bsp-buffered", "mpi-rma",
                            "orma-mpi", "mpi-p2p" */
    const char *variant; /* NULL for orma-bench's own */
    const char *ops[2];  /* its columns */
    int nops;
} family;

static const bench_result *find(const family *f, const char *op, size_t n)
{
    int send = strcmp(op, "send") == 0;
    return pp_mpi_find(f->backend, f->variant, op, send ? "p2p" : "fence",
                       send ? "none" : "allocate", n);
}

/* The family of backend on variant with the ops it has results of at the
 * orders of ns; 0 when none. */
static int family_make(const char *backend, const char *variant,
                       const size_t *ns, int nn, family *f)
{
    static const char *const one_sided[] = {"put", "get"};
    static const char *const two_sided[] = {"send"};
    int p2p = strcmp(backend, "mpi-p2p") == 0;
    const char *const *ops = p2p ? two_sided : one_sided;
    f->backend = backend;
    f->variant = variant;
    f->nops = 0;
    for (int k = 0; k < (p2p ? 1 : 2); k++)
        for (int i = 0; i < nn; i++)
            if (find(f, ops[k], ns[i]) != NULL) {
                f->ops[f->nops++] = ops[k];
                break;
            }
    return f->nops > 0;
}

/* Two heading lines: the backends (without the variant, named in the
 * table's title), then the ops. */
static void head(const char *first, const family *fs, int nf)
{
    printf("  %5s %9s", "", first);
    for (int k = 0; k < nf; k++)
        printf(" | %-*s", k + 1 < nf ? fs[k].nops * (COL + 1) - 1 : 0,
               fs[k].backend);
    printf("\n  %5s %9s", "n", "");
    for (int k = 0; k < nf; k++) {
        printf(" |");
        for (int s = 0; s < fs[k].nops; s++)
            printf(" %*s", COL, fs[k].ops[s]);
    }
    putchar('\n');
}

static void cell(double num, const bench_result *den)
{
    if (num > 0.0 && den != NULL && den->median_us > 0.0)
        printf(" %*.2f", COL, num / den->median_us);
    else
        printf(" %*s", COL, "-");
}

/* Speedups: the serial median over each family's median. */
static void speedup_table(const size_t *ns, int nn, const family *fs,
                          int nf)
{
    head("serial_ms", fs, nf);
    for (int i = 0; i < nn; i++) {
        const bench_result *s = bench_report_find("serial", "serial", "none",
                                                  "none", ns[i]);
        double serial_us = s != NULL ? s->median_us : 0.0;
        if (s != NULL)
            printf("  %5zu %9.3f", ns[i], serial_us * 1e-3);
        else
            printf("  %5zu %9s", ns[i], "-");
        for (int k = 0; k < nf; k++) {
            printf(" |");
            for (int o = 0; o < fs[k].nops; o++)
                cell(serial_us, find(&fs[k], fs[k].ops[o], ns[i]));
        }
        putchar('\n');
    }
}

/* The ratios one-sided / mpi-p2p's send; counts orma's put ratios and
 * those above BAR into *total_p, *above_p. */
static void ratio_table(const size_t *ns, int nn, const family *fs, int nf,
                        const family *p2p, int *total_p, int *above_p)
{
    printf("\n  one-sided / point-to-point (mpi-p2p/%s send; below 1: "
           "one-sided is faster)\n", p2p->variant);
    head("", fs, nf);
    for (int i = 0; i < nn; i++) {
        const bench_result *d = find(p2p, "send", ns[i]);
        printf("  %5zu %9s", ns[i], "");
        for (int k = 0; k < nf; k++) {
            printf(" |");
            for (int o = 0; o < fs[k].nops; o++) {
                const bench_result *r = find(&fs[k], fs[k].ops[o], ns[i]);
                if (r == NULL || d == NULL) {
                    printf(" %*s", COL, "-");
                    continue;
                }
                /* time / time: the send's median over this one's. */
                cell(r->median_us, d);
                if (strcmp(fs[k].backend, "orma") == 0 &&
                    strcmp(fs[k].ops[o], "put") == 0 && d->median_us > 0.0) {
                    (*total_p)++;
                    *above_p += r->median_us / d->median_us > BAR;
                }
            }
        }
        putchar('\n');
    }
}

static void tables(const bench_ctx *ctx, int P)
{
    const bench_opts *o = ctx->opts;
    size_t ns[BENCH_MAX_SIZES];
    int nn = 0;
    for (int i = 0; i < o->nsizes; i++)
        if (mult_size_ok(o->sizes[i], P))
            ns[nn++] = o->sizes[i];
    printf("\nmult: p=%d, Cannon's method on a %dx%d block grid; seed 003 "
           "Table 1: serial time (ms) and speedup serial / parallel "
           "(medians)\n", ctx->size, P, P);
    /* orma-bench's own backends: in every host's table, or alone. */
    static const char *const own_names[] = {"orma", "bsp", "bsp-buffered"};
    family own[3], fs[MAX_FAMILIES], p2p;
    int nown = 0;
    for (int k = 0; k < 3; k++)
        nown += family_make(own_names[k], NULL, ns, nn, &own[nown]);
    int ntables = 0, total = 0, above = 0;
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name != NULL; v++) {
        if (!pp_mpi_seen(v))
            continue;
        int nf = nown;
        memcpy(fs, own, (size_t)nown * sizeof *own);
        nf += family_make("mpi-rma", v->name, ns, nn, &fs[nf]);
        nf += family_make("orma-mpi", v->name, ns, nn, &fs[nf]);
        int have_p2p = family_make("mpi-p2p", v->name, ns, nn, &p2p);
        family t[MAX_FAMILIES + 1];
        memcpy(t, fs, (size_t)nf * sizeof *fs);
        if (have_p2p)
            t[nf] = p2p;
        printf("\n  %s: speedup\n", v->name);
        speedup_table(ns, nn, t, nf + have_p2p);
        if (have_p2p && nf > 0)
            ratio_table(ns, nn, fs, nf, &p2p, &total, &above);
        ntables++;
    }
    if (ntables == 0) {
        if (nown == 0) {
            printf("  (no results)\n");
            fflush(stdout);
            return;
        }
        putchar('\n');
        speedup_table(ns, nn, own, nown);
    }
    if (total == 0)
        printf("\n  no ratios: they need orma and the mpi-p2p backend "
               "(--backends orma,mpi-rma,mpi-p2p,orma-mpi)\n");
    else
        printf("\n  bar: orma put / point-to-point send <= %.1f at every n "
               "and host MPI, p=%d: %d of %d above  %s\n", BAR, ctx->size,
               above, total, above ? "FAIL" : "PASS");
    fflush(stdout);
}

int mult_summary(const bench_ctx *ctx)
{
    int P = mult_isqrt(ctx->size);
    if (P == 0) {
        /* orma's or BSPlib's run of the algorithm said so; the MPI
         * jobs' notes are not shown. */
        if (!pp_backend_on(ctx->opts, "orma") &&
            !pp_backend_on(ctx->opts, "bsp") &&
            !pp_backend_on(ctx->opts, "bsp-buffered"))
            bench_note("mult: needs a square number of ranks (1, 4, 9, "
                       "16, ...), not p = %d: nothing measured", ctx->size);
        return BENCH_OK;
    }
    int st = mult_serial_run(ctx);
    if (ctx->rank == 0)
        tables(ctx, P);
    return st;
}
