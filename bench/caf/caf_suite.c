/* caf_suite.c -- coarray Fortran, side by side (seed 002): the program
 * caf_bench.f90 built three ways and run by rank 0 of this job, one job
 * after the other, P images each (P the ranks of this run; the other ranks
 * wait asleep):
 *
 *   orma-caf                 on liborma-caf (orma-bench-caf, under orma-run)
 *   opencoarrays/<mpi>       on OpenCoarrays from Debian (caf.<mpi>), under
 *                            mpirun.<mpi> (orma-bench-caf-opencoarrays-<mpi>)
 *   oc-orma-mpi/<mpi>        the same binary with liborma-mpi preloaded
 *
 * Measurements: pp put and get (coarray ping-pong, images 1 and 2, sizes
 * 8 B - 1 MB) and Himeno XS and S with both halo exchanges (narrow: the
 * strided sections assigned directly; wide: contiguous buffers).  The
 * backends take turns round by round (--reps rounds, 3 by default, 1 with
 * --quick), so that each round sees them in the same state of the machine;
 * a row's min/median/max are over the rounds of each round's median.  A
 * transfer of orma-caf's that does not verify fails the suite; a peer's
 * that does not, or whose Himeno residual differs from orma-caf's, is said
 * in a note and its rows left out. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "caf_suite.h"
#include "ctl.h"
#include "opts.h"
#include "pp_mpi.h"
#include "progress.h"
#include "report.h"

#define CAF_MAX_BACKENDS 5
#define CAF_MAX_ROUNDS 64
#define CAF_OUT 65536

typedef struct caf_backend {
    char name[40];
    const char *argv[16]; /* the launcher part, up to the program */
    int argc;
    char prog[PATH_MAX], launcher[PATH_MAX], lib[PATH_MAX], np[16], preload[PATH_MAX + 16];
} caf_backend;

/* Runs argv (launcher + program + args) with stdout into out; its exit
 * status, or -1. */
static int caf_launch(const char *const *argv, char *out, size_t outlen)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    char **env = pp_child_env();
    if (!env) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t self = getpid(), pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != self)
            _exit(127);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        if (close_range(3, ~0u, 0) != 0)
            for (int fd = 3; fd < 1024; fd++)
                close(fd);
        execve(argv[0], (char **)argv, env);
        dprintf(STDERR_FILENO, "orma-bench: cannot execute %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    free(env);
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return -1;
    }
    size_t used = 0;
    for (;;) {
        ssize_t n = read(fds[0], out + used, outlen - 1 - used);
        if (n > 0 && used + (size_t)n < outlen - 1)
            used += (size_t)n;
        else if (n == 0 || (n < 0 && errno != EINTR))
            break;
        else if (n > 0)
            used = outlen - 1;
        bench_progress_tick();
    }
    out[used] = '\0';
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

/* snprintf that says whether everything fit: 0, or -1. */
static int caf_fmt(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int caf_fmt(char *out, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(out, len, fmt, ap);
    va_end(ap);
    return w >= 0 && (size_t)w < len ? 0 : -1;
}

/* Appends to the string in out (what does not fit is dropped). */
static void caf_cat(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void caf_cat(char *out, size_t len, const char *fmt, ...)
{
    size_t used = strlen(out);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + used, len - used, fmt, ap);
    va_end(ap);
}

/* The backends found beside this executable and on PATH. */
static int caf_backends(const bench_ctx *ctx, caf_backend *b)
{
    char dir[PATH_MAX];
    int n = 0;
    if (pp_exe_dir(dir, sizeof dir) != 0)
        return 0;
    caf_backend *o = &b[n];
    memset(o, 0, sizeof *o);
    if (caf_fmt(o->prog, sizeof o->prog, "%s/orma-bench-caf", dir) == 0 &&
        caf_fmt(o->launcher, sizeof o->launcher, "%s/orma-run", dir) == 0 && access(o->prog, X_OK) == 0 &&
        access(o->launcher, X_OK) == 0) {
        snprintf(o->name, sizeof o->name, "orma-caf");
        snprintf(o->np, sizeof o->np, "%d", ctx->size);
        const char *a[] = {o->launcher, "-n", o->np, "--", o->prog};
        for (int i = 0; i < 5; i++)
            o->argv[o->argc++] = a[i];
        n++;
    } else {
        bench_note("orma-caf skipped: orma-bench-caf was not built (no gfortran 12)");
    }
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name; v++) {
        for (int pre = 0; pre < 2 && n < CAF_MAX_BACKENDS; pre++) {
            o = &b[n];
            memset(o, 0, sizeof *o);
            char name[64];
            if (caf_fmt(o->prog, sizeof o->prog, "%s/orma-bench-caf-opencoarrays-%s", dir, v->name) != 0 ||
                caf_fmt(name, sizeof name, "mpirun.%s", v->name) != 0 ||
                caf_fmt(o->lib, sizeof o->lib, "%s/../lib/liborma-mpi-%s.so", dir, v->name) != 0 ||
                access(o->prog, X_OK) != 0 || pp_find_on_path(name, o->launcher, sizeof o->launcher) != 0) {
                if (!pre)
                    bench_note("opencoarrays/%s skipped: no caf.%s or mpirun.%s at build time", v->name, v->name,
                               v->name);
                break;
            }
            if (pre && access(o->lib, R_OK) != 0)
                break;
            snprintf(o->name, sizeof o->name, "%s/%s", pre ? "oc-orma-mpi" : "opencoarrays", v->name);
            snprintf(o->np, sizeof o->np, "%d", ctx->size);
            o->argv[o->argc++] = o->launcher;
            for (int i = 0; v->flags[i]; i++)
                o->argv[o->argc++] = v->flags[i];
            o->argv[o->argc++] = "-n";
            o->argv[o->argc++] = o->np;
            if (pre && v->env == PP_ENV_X) {
                if (caf_fmt(o->preload, sizeof o->preload, "LD_PRELOAD=%s", o->lib) != 0)
                    break;
                o->argv[o->argc++] = "-x";
                o->argv[o->argc++] = o->preload;
            } else if (pre) {
                o->argv[o->argc++] = "-genv";
                o->argv[o->argc++] = "LD_PRELOAD";
                o->argv[o->argc++] = o->lib;
            }
            o->argv[o->argc++] = o->prog;
            n++;
        }
    }
    return n;
}

/* One measurement: the program's arguments, and how its lines read. */
typedef struct caf_case {
    const char *args[5];
    int himeno;      /* else pp */
    const char *op;  /* row op */
    const char *sync;
    const char *window;
    double flop;     /* himeno: per iteration */
} caf_case;

/* What a case gave per backend and round: per line key (pp: bytes), the
 * median; for Himeno the residual. */
#define CAF_MAX_KEYS 16
typedef struct caf_samples {
    size_t keys[CAF_MAX_KEYS];
    int nkeys;
    double v[CAF_MAX_KEYS][CAF_MAX_ROUNDS];
    int n[CAF_MAX_KEYS];
    double gosa;
} caf_samples;

/* Reads the program's lines into s (round r); 0, or -1 when a transfer did
 * not verify or no line came. */
static int caf_parse(const caf_case *c, const char *out, caf_samples *s, int r)
{
    int lines = 0;
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        size_t key = 0;
        double med = 0, gosa = 0;
        int bad = 0;
        if (c->himeno) {
            char sz[8], mode[8];
            int np, iters;
            double lo, hi;
            if (sscanf(l, "himeno %7s %7s %d %d %lf %lf %lf %lf", sz, mode, &np, &iters, &med, &lo, &hi, &gosa) !=
                8)
                continue;
            med = c->flop / med; /* MFLOPS -> microseconds per iteration */
            s->gosa = gosa;
        } else {
            char op[8];
            long nb;
            double lo, hi;
            if (sscanf(l, "pp %7s %zu %ld %lf %lf %lf %d", op, &key, &nb, &lo, &med, &hi, &bad) != 7)
                continue;
            if (bad)
                return -1;
        }
        int k = 0;
        while (k < s->nkeys && s->keys[k] != key)
            k++;
        if (k == s->nkeys) {
            if (k == CAF_MAX_KEYS)
                continue;
            s->keys[s->nkeys++] = key;
        }
        s->v[k][r] = med;
        if (s->n[k] < r + 1)
            s->n[k] = r + 1;
        lines++;
    }
    return lines ? 0 : -1;
}

static double caf_median(double *v, int n)
{
    double t[CAF_MAX_ROUNDS];
    memcpy(t, v, (size_t)n * sizeof *t);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && t[j - 1] > t[j]; j--) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    return n ? (n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2) : 0;
}

/* A backend's data did not verify: orma-caf's fails the suite; a peer's
 * (OpenCoarrays' on a host MPI that loses one-sided data) is said in a
 * note and its rows are left out. */
static int caf_bad(caf_backend *b, int i, int *skip, const char *why)
{
    skip[i] = 1;
    if (i == 0 && !strcmp(b[0].name, "orma-caf")) {
        fprintf(stderr, "orma-bench: caf: %s: %s\n", b[0].name, why);
        return BENCH_FAIL;
    }
    bench_note("%s: %s; its rows are left out", b[i].name, why);
    return BENCH_OK;
}

static int caf_run_case(const bench_ctx *ctx, const caf_case *c, caf_backend *b, int nb, int rounds)
{
    static caf_samples s[CAF_MAX_BACKENDS];
    static char out[CAF_OUT];
    int skip[CAF_MAX_BACKENDS] = {0};
    memset(s, 0, sizeof s);
    int st = BENCH_OK;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < nb; i++) {
            if (skip[i])
                continue;
            const char *argv[24];
            int k = 0;
            for (int a = 0; a < b[i].argc; a++)
                argv[k++] = b[i].argv[a];
            for (int a = 0; c->args[a]; a++)
                argv[k++] = c->args[a];
            argv[k] = NULL;
            char what[160];
            if (caf_fmt(what, sizeof what, "%s %s %s on %s", c->args[0], c->args[1], c->args[2] ? c->args[2] : "",
                        b[i].name) != 0)
                what[0] = '\0';
            bench_progress_status(what);
            int rc = caf_launch(argv, out, sizeof out);
            if (rc != 0 || caf_parse(c, out, &s[i], r) != 0) {
                char why[200];
                if (caf_fmt(why, sizeof why, "%s %s failed (exit status %d)%s", c->args[0], c->args[1], rc,
                            rc == 0 ? ": a transfer did not verify, or no result" : "") != 0)
                    why[0] = '\0';
                if (caf_bad(b, i, skip, why) != BENCH_OK)
                    st = BENCH_FAIL;
            }
        }
    if (c->himeno)
        for (int i = 1; i < nb; i++)
            if (!skip[i] && !skip[0] && fabs(s[i].gosa - s[0].gosa) > 1e-4 * fabs(s[0].gosa)) {
                char why[200];
                if (caf_fmt(why, sizeof why, "Himeno %s %s: its residual %.7g differs from %s's %.7g", c->window,
                            c->sync, s[i].gosa, b[0].name, s[0].gosa) != 0)
                    why[0] = '\0';
                caf_bad(b, i, skip, why);
            }
    for (int i = 0; i < nb; i++)
        for (int k = 0; !skip[i] && k < s[i].nkeys; k++)
            bench_emit(ctx, b[i].name, c->op, c->sync, c->window, c->himeno ? 0 : s[i].keys[k],
                       c->himeno ? 0 : (double)s[i].keys[k], s[i].v[k], s[i].n[k]);
    /* Ratios against orma-caf (the first backend). */
    if (nb > 1 && !skip[0] && !strcmp(b[0].name, "orma-caf"))
        for (int k = 0; k < s[0].nkeys; k++) {
            char line[512] = "";
            caf_cat(line, sizeof line, "%s %s %s", c->op, c->sync, c->window);
            if (!c->himeno)
                caf_cat(line, sizeof line, " %zu B", s[0].keys[k]);
            caf_cat(line, sizeof line, ": other/orma-caf median time");
            double mine = caf_median(s[0].v[k], s[0].n[k]);
            for (int i = 1; i < nb; i++)
                if (!skip[i] && k < s[i].nkeys)
                    caf_cat(line, sizeof line, " %s %.2fx", b[i].name,
                            mine > 0 ? caf_median(s[i].v[k], s[i].n[k]) / mine : 0);
            if (c->himeno)
                caf_cat(line, sizeof line, "; orma-caf %.0f MFLOPS", mine > 0 ? c->flop / mine : 0);
            bench_note("%s", line);
        }
    return st;
}

static int caf_rank0(const bench_ctx *ctx)
{
    static caf_backend b[CAF_MAX_BACKENDS];
    int nb = caf_backends(ctx, b);
    if (nb == 0) {
        bench_note("caf: no backend was built");
        return BENCH_OK;
    }
    const bench_opts *o = ctx->opts;
    int rounds = o->reps > 0 ? (int)(o->reps < CAF_MAX_ROUNDS ? o->reps : CAF_MAX_ROUNDS) : (o->quick ? 1 : 3);
    const char *secs = o->quick ? "0.3" : "1";
    bench_note("caf: %d round%s, the backends in turn within each; time per operation (pp: half a ping-pong "
               "round trip with SYNC IMAGES, or one read) or per Himeno iteration",
               rounds, rounds == 1 ? "" : "s");
    caf_case cases[] = {
        {{"pp", "put", secs, NULL}, 0, "caf_put", "sync_images", "coarray", 0},
        {{"pp", "get", secs, NULL}, 0, "caf_get", "none", "coarray", 0},
        {{"himeno", "XS", "narrow", secs, NULL}, 1, "himeno", "narrow", "XS", 34.0 * 31 * 31 * 63},
        {{"himeno", "XS", "wide", secs, NULL}, 1, "himeno", "wide", "XS", 34.0 * 31 * 31 * 63},
        {{"himeno", "S", "narrow", secs, NULL}, 1, "himeno", "narrow", "S", 34.0 * 63 * 63 * 127},
        {{"himeno", "S", "wide", secs, NULL}, 1, "himeno", "wide", "S", 34.0 * 63 * 63 * 127},
    };
    int st = BENCH_OK;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const caf_case *c = &cases[i];
        if (!bench_list_has(o->ops, c->himeno ? "himeno" : c->op))
            continue;
        if (!c->himeno && ctx->size < 2)
            continue;
        if (c->himeno && o->quick && !strcmp(c->window, "S"))
            continue;
        if (caf_run_case(ctx, c, b, nb, rounds) != BENCH_OK)
            st = BENCH_FAIL;
    }
    return st;
}

int bench_caf_run(const bench_ctx *ctx)
{
    static const char *const ops[] = {"caf_put", "caf_get", "himeno", NULL};
    if (bench_filters_check("caf", ctx->rank, NULL, NULL, ctx->opts->ops, ops, NULL, NULL) != 0)
        return BENCH_USAGE;
    int st = ctx->rank == 0 ? caf_rank0(ctx) : BENCH_OK;
    /* The other ranks wait here, asleep once the barrier's spinning is
     * over, leaving the cores to the coarray jobs. */
    return (int)bench_ctl_bcast(ctx->ctl, (uint64_t)st);
}
