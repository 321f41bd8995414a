/* caf_suite.c -- coarray Fortran, side by side (seed 002).  Rank 0 of this
 * run starts each measurement as a job of P images or ranks (P the ranks
 * of this run; the other ranks wait asleep), one job after the other, on
 * the backends caf_launch.h finds:
 *
 *   orma-caf                the coarray program caf_bench.f90 on
 *                           liborma-caf, under orma-run
 *   opencoarrays/<mpi>      the same program on OpenCoarrays from Debian
 *                           (caf.<mpi>), under mpirun.<mpi>
 *   oc-orma-mpi/<mpi>       that binary with liborma-mpi preloaded
 *   mpi/<mpi>               the MPI counterparts (caf_mpi.h), under
 *                           mpirun.<mpi>
 *   mpi-orma/<mpi>          those with liborma-mpi preloaded
 *   orma                    orma_put / orma_get + flush in this run
 *                           (caf_native.h)
 *
 * Measurements (--op): caf_put (the put ping-pong with SYNC IMAGES; MPI:
 * put + flush + a message, and send/recv), caf_put1 (one put + SYNC MEMORY;
 * MPI and orma: put + flush), caf_get, caf_strided (a strided section put
 * against packing by hand), himeno (XS and S; coarrays: narrow and wide
 * halos; MPI: send/recv and one-sided), prk (the Parallel Research Kernels
 * stencil, transpose, nstream and p2p).  The jobs of a measurement take
 * turns round by round (--reps rounds, 3 by default, 1 with --quick), so
 * that each round sees them in the same state of the machine; a row's
 * min/median/max are over the rounds of each round's median.  A job that
 * fails, does not verify, outlives its time, or (Himeno) ends with another
 * residual than orma-caf's is said in a note and its rows are left out;
 * orma-caf's or orma's failing fails the suite. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caf_launch.h"
#include "caf_native.h"
#include "caf_suite.h"
#include "ctl.h"
#include "opts.h"
#include "progress.h"
#include "report.h"

#define CAF_MAX_ROUNDS 64
#define CAF_OUT 65536
#define CAF_MAX_KEYS 16
#define CAF_MAX_JOBS (CAF_MAX_BACKENDS * 2)

enum { CAF_PP, CAF_HIMENO, CAF_PRK };

/* One way to run a measurement: the backends' kinds it is for, the
 * program's argument, and its row. */
typedef struct caf_mode {
    int kinds;
    const char *arg;
    const char *op, *sync, *window;
} caf_mode;

/* A measurement: its --op name, what the program runs, and its modes. */
typedef struct caf_group {
    const char *filter;
    int what;
    const char *size; /* himeno: the size; prk: the kernel */
    double flop;      /* himeno: per iteration */
    caf_mode modes[4];
} caf_group;

/* A job: one backend in one mode; per line key (pp: bytes), a median per
 * round; for Himeno the residual. */
typedef struct caf_job {
    const caf_backend *b;
    const caf_mode *m;
    int skip;
    size_t keys[CAF_MAX_KEYS];
    int nkeys;
    double v[CAF_MAX_KEYS][CAF_MAX_ROUNDS];
    int n[CAF_MAX_KEYS];
    double gosa;
} caf_job;

static void caf_put_sample(caf_job *j, size_t key, double v, int r)
{
    int k = 0;
    while (k < j->nkeys && j->keys[k] != key)
        k++;
    if (k == j->nkeys) {
        if (k == CAF_MAX_KEYS)
            return;
        j->keys[j->nkeys++] = key;
    }
    j->v[k][r] = v;
    if (j->n[k] < r + 1)
        j->n[k] = r + 1;
}

/* Reads a program's lines into j (round r); 0, or -1 when a transfer did
 * not verify or no line came. */
static int caf_parse(const caf_group *g, const char *out, caf_job *j, int r)
{
    int lines = 0;
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        size_t key = 0;
        double med = 0, lo, hi;
        int bad = 0, np, iters;
        char a[16], b[16];
        long nb;
        if (g->what == CAF_HIMENO) {
            if (sscanf(l, "himeno %15s %15s %d %d %lf %lf %lf %lf", a, b, &np, &iters, &med, &lo, &hi, &j->gosa) !=
                8)
                continue;
            med = med > 0 ? g->flop / med : 0; /* MFLOPS -> microseconds per iteration */
        } else if (g->what == CAF_PRK) {
            if (sscanf(l, "prk %15s %d %d %lf %lf %lf %d", a, &np, &iters, &lo, &med, &hi, &bad) != 7)
                continue;
        } else if (sscanf(l, "pp %15s %zu %ld %lf %lf %lf %d", a, &key, &nb, &lo, &med, &hi, &bad) != 7) {
            continue;
        }
        if (bad)
            return -1;
        caf_put_sample(j, key, med, r);
        lines++;
    }
    return lines ? 0 : -1;
}

static double caf_median(const double *v, int n)
{
    double t[CAF_MAX_ROUNDS];
    memcpy(t, v, (size_t)n * sizeof *t);
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && t[k - 1] > t[k]; k--) {
            double x = t[k];
            t[k] = t[k - 1];
            t[k - 1] = x;
        }
    return n ? (n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2) : 0;
}

/* A job failed: orma-caf's or orma's fails the suite; a peer's is said in
 * a note and its rows are left out. */
static int caf_bad(caf_job *j, const char *why)
{
    j->skip = 1;
    if (!strcmp(j->b->name, "orma-caf") || !strcmp(j->b->name, "orma")) {
        fprintf(stderr, "orma-bench: caf: %s: %s\n", j->b->name, why);
        return BENCH_FAIL;
    }
    bench_note("%s: %s; its rows are left out", j->b->name, why);
    return BENCH_OK;
}

/* The seconds a job may take before it is stopped: generous, for a peer
 * that goes element by element on a loaded machine. */
static double caf_limit(double secs)
{
    return 90 + 30 * secs;
}

/* Runs job j once (round r). */
static int caf_run_job(const caf_group *g, caf_job *j, caf_native *nat, const char *secs, int r)
{
    char why[200] = "";
    if (j->b->kind == CAF_KIND_ORMA) {
        size_t bytes[CAF_NATIVE_SIZES];
        double us[CAF_NATIVE_SIZES];
        bench_progress_status("orma native");
        if (caf_native_run(nat, j->m->arg, atof(secs), bytes, us) != 0)
            return caf_bad(j, "a call failed or a transfer did not verify");
        for (int k = 0; k < CAF_NATIVE_SIZES; k++)
            caf_put_sample(j, bytes[k], us[k], r);
        return BENCH_OK;
    }
    static char out[CAF_OUT];
    const char *argv[24];
    int k = 0;
    for (int a = 0; a < j->b->argc; a++)
        argv[k++] = j->b->argv[a];
    argv[k++] = g->what == CAF_PP ? "pp" : g->what == CAF_HIMENO ? "himeno" : "prk";
    if (g->what != CAF_PP)
        argv[k++] = g->size;
    if (g->what != CAF_PRK)
        argv[k++] = j->m->arg;
    argv[k++] = secs;
    argv[k] = NULL;
    char what[160];
    if (caf_fmt(what, sizeof what, "%s %s %s on %s", argv[j->b->argc], argv[j->b->argc + 1],
                g->what == CAF_HIMENO ? j->m->arg : "", j->b->name) == 0)
        bench_progress_status(what);
    double limit = caf_limit(atof(secs));
    int rc = caf_launch(argv, out, sizeof out, limit);
    if (rc == CAF_TIMED_OUT)
        caf_fmt(why, sizeof why, "%s %s %s took over %.0f s and was stopped", argv[j->b->argc],
                argv[j->b->argc + 1], argv[j->b->argc + 2], limit);
    else if (rc != 0)
        caf_fmt(why, sizeof why, "%s %s %s failed (exit status %d)", argv[j->b->argc], argv[j->b->argc + 1],
                argv[j->b->argc + 2], rc);
    else if (caf_parse(g, out, j, r) != 0)
        caf_fmt(why, sizeof why, "%s %s %s: a transfer did not verify, or no result", argv[j->b->argc],
                argv[j->b->argc + 1], argv[j->b->argc + 2]);
    return why[0] ? caf_bad(j, why) : BENCH_OK;
}

/* A note per key: each job's median against the first job's (orma-caf's
 * when it ran), Himeno in MFLOPS. */
static void caf_notes(const caf_group *g, caf_job *jobs, int nj)
{
    const caf_job *ref = &jobs[0];
    if (ref->skip)
        return;
    for (int k = 0; k < ref->nkeys; k++) {
        char line[1024] = "";
        caf_cat(line, sizeof line, "%s %s", g->filter, g->size ? g->size : "");
        if (g->what == CAF_PP)
            caf_cat(line, sizeof line, "%zu B", ref->keys[k]);
        caf_cat(line, sizeof line, g->what == CAF_HIMENO ? ": MFLOPS (other/%s %s time)" : ": us (other/%s %s time)",
                ref->b->name, ref->m->arg);
        double mine = caf_median(ref->v[k], ref->n[k]);
        for (int i = 0; i < nj; i++) {
            const caf_job *j = &jobs[i];
            int kk = 0;
            while (kk < j->nkeys && j->keys[kk] != ref->keys[k])
                kk++;
            if (j->skip || kk == j->nkeys)
                continue;
            double t = caf_median(j->v[kk], j->n[kk]);
            caf_cat(line, sizeof line, " %s", j->b->name);
            if (g->modes[1].arg)
                caf_cat(line, sizeof line, " %s", j->m->arg);
            if (g->what == CAF_HIMENO)
                caf_cat(line, sizeof line, " %.0f", t > 0 ? g->flop / t : 0);
            else
                caf_cat(line, sizeof line, " %.3g", t);
            if (i > 0)
                caf_cat(line, sizeof line, " (%.2fx)", mine > 0 ? t / mine : 0);
            caf_cat(line, sizeof line, i + 1 < nj ? ";" : "");
        }
        bench_note("%s", line);
    }
}

static int caf_run_group(const bench_ctx *ctx, const caf_group *g, const caf_backend *b, int nb, caf_native *nat,
                         int rounds, const char *secs)
{
    static caf_job jobs[CAF_MAX_JOBS];
    int nj = 0;
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < nb; i++)
        for (int m = 0; m < 4 && g->modes[m].arg && nj < CAF_MAX_JOBS; m++)
            if (g->modes[m].kinds & b[i].kind) {
                jobs[nj].b = &b[i];
                jobs[nj++].m = &g->modes[m];
            }
    int st = BENCH_OK;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < nj; i++)
            if (!jobs[i].skip && caf_run_job(g, &jobs[i], nat, secs, r) != BENCH_OK)
                st = BENCH_FAIL;
    if (g->what == CAF_HIMENO)
        for (int i = 1; i < nj; i++)
            if (!jobs[i].skip && !jobs[0].skip &&
                fabs(jobs[i].gosa - jobs[0].gosa) > 1e-4 * fabs(jobs[0].gosa)) {
                char why[200];
                if (caf_fmt(why, sizeof why, "Himeno %s %s: its residual %.7g differs from %s's %.7g", g->size,
                            jobs[i].m->arg, jobs[i].gosa, jobs[0].b->name, jobs[0].gosa) != 0)
                    why[0] = '\0';
                if (caf_bad(&jobs[i], why) != BENCH_OK)
                    st = BENCH_FAIL;
            }
    for (int i = 0; i < nj; i++)
        for (int k = 0; !jobs[i].skip && k < jobs[i].nkeys; k++) {
            size_t key = g->what == CAF_PP ? jobs[i].keys[k] : 0;
            bench_emit(ctx, jobs[i].b->name, jobs[i].m->op, jobs[i].m->sync, jobs[i].m->window, key, (double)key,
                       jobs[i].v[k], jobs[i].n[k]);
        }
    caf_notes(g, jobs, nj);
    return st;
}

#define CAF_C CAF_KIND_CAF
#define CAF_M CAF_KIND_MPI
#define CAF_O CAF_KIND_ORMA
#define HIMENO_FLOP(i, j, k) (34.0 * ((i)-2) * ((j)-2) * ((k)-2))
#define HIMENO(sz, fl)                                                                                          \
    {"himeno", CAF_HIMENO, sz, fl,                                                                              \
     {{CAF_C, "narrow", "himeno", "narrow", sz}, {CAF_C, "wide", "himeno", "wide", sz},                         \
      {CAF_M, "sendrecv", "himeno", "sendrecv", sz}, {CAF_M, "rma", "himeno", "rma", sz}}}
#define PRK(k)                                                                                                  \
    {                                                                                                          \
        "prk", CAF_PRK, k, 0, { {CAF_C | CAF_M, k, "prk_" k, "none", "kernel"} }                               \
    }

static const caf_group caf_groups[] = {
    {"caf_put", CAF_PP, NULL, 0,
     {{CAF_C, "put", "caf_put", "sync_images", "coarray"}, {CAF_M, "put", "caf_put", "flush+send", "mpi_win"},
      {CAF_M, "sendrecv", "send_recv", "none", "p2p"}}},
    {"caf_put1", CAF_PP, NULL, 0,
     {{CAF_C, "put1", "caf_put1", "sync_memory", "coarray"}, {CAF_M | CAF_O, "put1", "caf_put1", "flush", "window"}}},
    {"caf_get", CAF_PP, NULL, 0,
     {{CAF_C, "get", "caf_get", "none", "coarray"}, {CAF_M | CAF_O, "get", "caf_get", "flush", "window"}}},
    {"caf_strided", CAF_PP, NULL, 0,
     {{CAF_C, "strided", "caf_strided", "sync_images", "section"},
      {CAF_C, "packed", "caf_strided", "sync_images", "packed"}}},
    HIMENO("XS", HIMENO_FLOP(33, 33, 65)),
    HIMENO("S", HIMENO_FLOP(65, 65, 129)),
    PRK("stencil"),
    PRK("transpose"),
    PRK("nstream"),
    PRK("p2p"),
};

static int caf_rank0(const bench_ctx *ctx, caf_native *nat)
{
    static caf_backend b[CAF_MAX_BACKENDS];
    int nb = caf_backends(ctx, b);
    const bench_opts *o = ctx->opts;
    int rounds = o->reps > 0 ? (int)(o->reps < CAF_MAX_ROUNDS ? o->reps : CAF_MAX_ROUNDS) : (o->quick ? 1 : 3);
    const char *secs = o->quick ? "0.3" : "1";
    bench_note("caf: %d round%s, the jobs in turn within each; time per operation (pp: half a ping-pong round "
               "trip, or one put or read), per Himeno iteration or per kernel iteration",
               rounds, rounds == 1 ? "" : "s");
    int st = BENCH_OK;
    for (size_t i = 0; i < sizeof caf_groups / sizeof caf_groups[0]; i++) {
        const caf_group *g = &caf_groups[i];
        if (!bench_list_has(o->ops, g->filter))
            continue;
        if (g->what == CAF_PP && ctx->size < 2)
            continue;
        if (o->quick && g->what == CAF_HIMENO && !strcmp(g->size, "S"))
            continue;
        if (caf_run_group(ctx, g, b, nb, nat, rounds, secs) != BENCH_OK)
            st = BENCH_FAIL;
    }
    return st;
}

int bench_caf_run(const bench_ctx *ctx)
{
    static const char *const ops[] = {"caf_put", "caf_put1", "caf_get", "caf_strided", "himeno", "prk", NULL};
    if (bench_filters_check("caf", ctx->rank, NULL, NULL, ctx->opts->ops, ops, NULL, NULL) != 0)
        return BENCH_USAGE;
    char bad[64];
    if (ctx->opts->backends && bench_list_check(ctx->opts->backends, caf_backend_families, bad, sizeof bad) != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: caf: --backends: no backend %s (orma-caf, orma, opencoarrays, oc-orma-mpi, "
                            "mpi, mpi-orma)\n", bad);
        return BENCH_USAGE;
    }
    caf_native *nat = NULL;
    if (caf_native_open(ctx, &nat) != 0)
        return BENCH_FAIL;
    int st = ctx->rank == 0 ? caf_rank0(ctx, nat) : BENCH_OK;
    /* The other ranks wait here, asleep once the barrier's spinning is
     * over, leaving the cores to the jobs (rank 1's window is the target
     * of orma's own puts and gets meanwhile). */
    st = (int)bench_ctl_bcast(ctx->ctl, (uint64_t)st);
    caf_native_close(&nat);
    return st;
}
