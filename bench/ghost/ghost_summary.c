/* ghost_summary.c -- the ghost suite's tables, from this run's medians:
 *
 *   per host MPI (variant) of the run: the time per step of orma (fence,
 *   pscw, lock), of the variant's mpi-p2p (p2p), mpi-rma and orma-mpi;
 *   then, as seed 004's Table 1, the ratio one-sided / point-to-point of
 *   orma, mpi-rma/<v> and orma-mpi/<v>, each against mpi-p2p/<v> (orma
 *   has no point-to-point of its own: its ratios are against each host's);
 *
 * then every (backend, sync, size) whose ratio is above 1.0, and the bar:
 * orma's one-sided never slower than point-to-point.  Without an MPI
 * variant, orma's times alone.  As elsewhere a FAIL is reported and does
 * not change the exit status. */
#include <stdio.h>
#include <string.h>

#include "ghost.h"
#include "pp_mpi.h"
#include "report.h"

#define COL 8
#define MAX_FAMILIES 4
#define BAR 1.0

typedef struct family {
    const char *backend; /* "orma", "mpi-p2p", "mpi-rma", "orma-mpi" */
    const char *variant; /* NULL for orma */
    int syncs[GHOST_NSYNC];
    int nsyncs;
} family;

static const bench_result *find(const family *f, int m, size_t n)
{
    return pp_mpi_find(f->backend, f->variant, ghost_op_name((ghost_sync)m),
                       ghost_sync_names[m],
                       ghost_window_name((ghost_sync)m), n);
}

/* The family of backend on variant, with the modes of --sync it has a
 * result of; 0 when it has none. */
static int family_make(const bench_opts *o, const char *backend,
                       const char *variant, family *f)
{
    f->backend = backend;
    f->variant = variant;
    f->nsyncs = 0;
    int p2p = strcmp(backend, "mpi-p2p") == 0;
    for (int m = 0; m < GHOST_NSYNC; m++) {
        if ((m == GHOST_P2P) != p2p ||
            !bench_list_has(o->syncs, ghost_sync_names[m]))
            continue;
        for (int i = 0; i < o->nsizes; i++)
            if (find(f, m, o->sizes[i]) != NULL) {
                f->syncs[f->nsyncs++] = m;
                break;
            }
    }
    return f->nsyncs > 0;
}

static void family_name(const family *f, char *buf, size_t len)
{
    if (f->variant != NULL)
        snprintf(buf, len, "%s/%s", f->backend, f->variant);
    else
        snprintf(buf, len, "%s", f->backend);
}

/* The tables are per variant, named in their title: a column group is
 * headed by its backend alone. */
static void head(const family *fs, int nf)
{
    printf("  %7s", "");
    for (int k = 0; k < nf; k++)
        printf(" | %-*s", k + 1 < nf ? fs[k].nsyncs * (COL + 1) - 1 : 0,
               fs[k].backend);
    printf("\n  %7s", "bytes");
    for (int k = 0; k < nf; k++) {
        printf(" |");
        for (int s = 0; s < fs[k].nsyncs; s++)
            printf(" %*s", COL, ghost_sync_names[fs[k].syncs[s]]);
    }
    putchar('\n');
}

static void times_table(const bench_opts *o, const family *fs, int nf)
{
    head(fs, nf);
    for (int i = 0; i < o->nsizes; i++) {
        char sz[24];
        bench_format_size(o->sizes[i], sz, sizeof sz);
        printf("  %7s", sz);
        for (int k = 0; k < nf; k++) {
            printf(" |");
            for (int s = 0; s < fs[k].nsyncs; s++) {
                const bench_result *r = find(&fs[k], fs[k].syncs[s],
                                             o->sizes[i]);
                if (r != NULL)
                    printf(" %*.2f", COL, r->median_us);
                else
                    printf(" %*s", COL, "-");
            }
        }
        putchar('\n');
    }
}

/* What the ratios above BAR are, for the list after the tables. */
typedef struct above {
    int total, count;           /* ratios, and those above BAR */
    int orma_total, orma_count; /* the same, orma's alone */
    int col; /* of the line being written */
} above;

static void above_add(above *a, const family *f, const char *p2p_variant,
                      int m, size_t n, double ratio)
{
    char name[64], sz[24];
    family_name(f, name, sizeof name);
    bench_format_size(n, sz, sizeof sz);
    char item[128];
    if (f->variant == NULL)
        snprintf(item, sizeof item, "%s/mpi-p2p/%s %s %s %.2f", name,
                 p2p_variant, ghost_sync_names[m], sz, ratio);
    else
        snprintf(item, sizeof item, "%s %s %s %.2f", name,
                 ghost_sync_names[m], sz, ratio);
    int len = (int)strlen(item);
    if (a->count == 0) {
        printf("\n  one-sided slower than point-to-point (ratio > %.1f):\n    ",
               BAR);
        a->col = 4;
    } else if (a->col + len + 2 > 100) {
        printf(",\n    ");
        a->col = 4;
    } else {
        printf(", ");
        a->col += 2;
    }
    printf("%s", item);
    a->col += len;
    a->count++;
}

/* The ratios of fs[0..nf-1] to the variant's mpi-p2p. */
static void ratio_table(const bench_opts *o, const family *fs, int nf,
                        const family *p2p)
{
    printf("\n  one-sided / point-to-point (mpi-p2p/%s), as seed 004 Table "
           "1 (below 1: one-sided is faster)\n", p2p->variant);
    head(fs, nf);
    for (int i = 0; i < o->nsizes; i++) {
        size_t n = o->sizes[i];
        const bench_result *d = find(p2p, GHOST_P2P, n);
        char sz[24];
        bench_format_size(n, sz, sizeof sz);
        printf("  %7s", sz);
        for (int k = 0; k < nf; k++) {
            printf(" |");
            for (int s = 0; s < fs[k].nsyncs; s++) {
                const bench_result *r = find(&fs[k], fs[k].syncs[s], n);
                if (r != NULL && d != NULL && d->median_us > 0.0)
                    printf(" %*.2f", COL, r->median_us / d->median_us);
                else
                    printf(" %*s", COL, "-");
            }
        }
        putchar('\n');
    }
}

/* Those of ratio_table's ratios that are above BAR, listed. */
static void ratios_list(const bench_opts *o, const family *fs, int nf,
                        const family *p2p, above *a)
{
    for (int k = 0; k < nf; k++)
        for (int s = 0; s < fs[k].nsyncs; s++)
            for (int i = 0; i < o->nsizes; i++) {
                size_t n = o->sizes[i];
                int m = fs[k].syncs[s];
                const bench_result *r = find(&fs[k], m, n);
                const bench_result *d = find(p2p, GHOST_P2P, n);
                if (r == NULL || d == NULL || !(d->median_us > 0.0))
                    continue;
                double ratio = r->median_us / d->median_us;
                int orma = fs[k].variant == NULL;
                a->total++;
                a->orma_total += orma;
                if (ratio <= BAR)
                    continue;
                a->orma_count += orma;
                above_add(a, &fs[k], p2p->variant, m, n, ratio);
            }
}

/* The families of variant v (orma first when it has results): *p2p_p
 * gets the variant's point-to-point one, fs the others.  Returns how many
 * are in fs; *have_p2p_p says whether *p2p_p has results. */
static int families(const bench_opts *o, const family *orma, int have_orma,
                    const pp_mpi_variant *v, family *fs, family *p2p_p,
                    int *have_p2p_p)
{
    int nf = 0;
    if (have_orma)
        fs[nf++] = *orma;
    *have_p2p_p = family_make(o, "mpi-p2p", v->name, p2p_p);
    nf += family_make(o, "mpi-rma", v->name, &fs[nf]);
    nf += family_make(o, "orma-mpi", v->name, &fs[nf]);
    return nf;
}

void ghost_summary(const bench_ctx *ctx)
{
    if (ctx->rank != 0)
        return;
    const bench_opts *o = ctx->opts;
    ghost_grid g;
    ghost_grid_init(ctx->size, 0, &g);
    family orma, fs[MAX_FAMILIES], p2p;
    int have_orma = family_make(o, "orma", NULL, &orma), have_p2p;
    printf("\nghost: p=%d, a periodic %dx%d grid\n",
           ctx->size, g.dims[0], g.dims[1]);
    int tables = 0;
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name != NULL; v++) {
        if (!pp_mpi_seen(v))
            continue;
        int nf = families(o, &orma, have_orma, v, fs, &p2p, &have_p2p);
        /* The times: the point-to-point group after orma's. */
        printf("\n  %s: time per step, median us\n", v->name);
        family t[MAX_FAMILIES + 1];
        int nt = 0, k = 0;
        if (have_orma)
            t[nt++] = fs[k++];
        if (have_p2p)
            t[nt++] = p2p;
        while (k < nf)
            t[nt++] = fs[k++];
        times_table(o, t, nt);
        tables++;
        if (have_p2p && nf > 0)
            ratio_table(o, fs, nf, &p2p);
    }
    if (tables == 0 && have_orma) {
        putchar('\n');
        times_table(o, &orma, 1);
    }
    if (tables == 0 && !have_orma) {
        printf("  (no results)\n");
        return;
    }
    above a = {0};
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name != NULL; v++) {
        if (!pp_mpi_seen(v))
            continue;
        int nf = families(o, &orma, have_orma, v, fs, &p2p, &have_p2p);
        if (have_p2p)
            ratios_list(o, fs, nf, &p2p, &a);
    }
    if (a.total == 0) {
        printf("\n  no ratios: they need the mpi-p2p backend "
               "(--backends orma,mpi-rma,mpi-p2p,orma-mpi)\n");
        fflush(stdout);
        return;
    }
    if (a.count == 0)
        printf("\n  one-sided slower than point-to-point (ratio > %.1f): "
               "none", BAR);
    putchar('\n');
    if (a.orma_total > 0)
        printf("  bar: orma one-sided / point-to-point <= %.1f at every size "
               "and mode, p=%d: %d of %d above  %s\n", BAR, ctx->size,
               a.orma_count, a.orma_total, a.orma_count ? "FAIL" : "PASS");
    fflush(stdout);
}
