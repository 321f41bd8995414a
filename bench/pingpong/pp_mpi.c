/* pp_mpi.c -- the MPI backends of pingpong, latency, multiput and ghost
 * (pp_mpi.h): which variants are there, the MPI jobs that measure them,
 * and their results read back.
 *
 * Per variant, rank 0 runs at most two jobs, one after the other: the
 * host's (mpi-rma and mpi-p2p, whichever --backends names) and the
 * preloaded one (orma-mpi), of as many ranks as this run; latency and
 * multiput (pp_mpi_run_paired) move mpi-rma into the preloaded job, which
 * measures it paired with orma-mpi, unless --unpaired.  Each gets this
 * run's suite and options -- sizes, reps, quick, window, sync, and the
 * ops of --op it makes for the suite -- and a temporary --json file, which
 * is read back once the job has ended; a job that fails still contributes
 * the rows it verified.  The programs are found beside orma-bench
 * (bin/orma-bench-mpi-<variant>, lib/liborma-mpi-<variant>.so of the same
 * build), mpirun.<variant> on PATH. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "pp_mpi.h"
#include "progress.h"
#include "report.h"

/* Open MPI binds 2 ranks to a core each by default; orma-run and MPICH's
 * mpirun bind nothing, and neither does this: every backend's ranks go
 * where the scheduler puts them. */
static const char *const openmpi_flags[] = {"--allow-run-as-root",
                                            "--oversubscribe", "--bind-to",
                                            "none", NULL};
static const char *const no_flags[] = {NULL};

/* --net: each host MPI over TCP alone, as between nodes -- its
 * point-to-point and its own one-sided calls (Open MPI's osc pt2pt, which
 * is what it uses without an RDMA network; MPICH's over UCX's TCP
 * transport, its shared memory off) -- and liborma-mpi's windows over the
 * net transport, on the same point-to-point. */
static const char *const openmpi_net[] = {"--mca", "pml", "ob1", "--mca", "btl", "tcp,self", "--mca", "osc",
                                          "pt2pt", "-x", "ORMA_TRANSPORT=net", NULL};
static const char *const mpich_net[] = {"-genv", "UCX_TLS", "tcp,self", "-genv", "MPIR_CVAR_NOLOCAL", "1",
                                        "-genv", "ORMA_TRANSPORT", "net", NULL};

const pp_mpi_variant pp_mpi_variants[] = {
    {"openmpi", "ompi", openmpi_flags, openmpi_net, PP_ENV_X},
    {"mpich", "mpich", no_flags, mpich_net, PP_ENV_GENV},
    {NULL, NULL, NULL, NULL, PP_ENV_X},
};

const char *const pp_backend_names[] = {"orma", "mpi-rma", "mpi-p2p",
                                        "orma-mpi", NULL};

int pp_backend_on(const bench_opts *o, const char *backend)
{
    if (o->backends == NULL)
        return strcmp(backend, "orma") == 0;
    return bench_list_has(o->backends, backend);
}

int pp_mpi_wanted(const bench_opts *o)
{
    return pp_backend_on(o, "mpi-rma") || pp_backend_on(o, "mpi-p2p") ||
           pp_backend_on(o, "orma-mpi");
}

const bench_result *pp_mpi_find(const char *backend, const char *variant,
                                const char *op, const char *sync,
                                const char *window, size_t bytes)
{
    char b[64];
    if (variant != NULL) {
        snprintf(b, sizeof b, "%s/%s", backend, variant);
        backend = b;
    }
    return bench_report_find(backend, op, sync, window, bytes);
}

int pp_mpi_seen(const pp_mpi_variant *v)
{
    for (size_t i = 0; bench_report_at(i) != NULL; i++) {
        const char *slash = strchr(bench_report_at(i)->backend, '/');
        if (slash != NULL && strcmp(slash + 1, v->name) == 0)
            return 1;
    }
    return 0;
}

int pp_exe_dir(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0 || (size_t)n >= len - 1)
        return -1;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (slash == NULL)
        return -1;
    *slash = '\0';
    return 0;
}

int pp_find_on_path(const char *name, char *path, size_t len)
{
    const char *dirs = getenv("PATH");
    if (dirs == NULL)
        return -1;
    for (const char *p = dirs;;) {
        size_t dlen = strcspn(p, ":");
        int w = snprintf(path, len, "%.*s/%s", dlen ? (int)dlen : 1,
                         dlen ? p : ".", name);
        if (w > 0 && (size_t)w < len && access(path, X_OK) == 0)
            return 0;
        if (p[dlen] == '\0')
            return -1;
        p += dlen + 1;
    }
}

/* The ops of --op among known (the MPI program's), as a list; "" when
 * there are none, NULL when --op was not given (the program's default is
 * ours). */
static const char *mpi_ops(const bench_opts *o, const char *const *known,
                           char *buf, size_t len)
{
    if (o->ops == NULL)
        return NULL;
    buf[0] = '\0';
    for (int op = 0; known != NULL && known[op] != NULL; op++) {
        if (!bench_list_has(o->ops, known[op]))
            continue;
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", used ? "," : "", known[op]);
    }
    return buf;
}

/* A job's arguments after the program: this run's suite and options. */
typedef struct job_args {
    const char *argv[25];
    char sizes[BENCH_MAX_SIZES * 12];
    char reps[24];
} job_args;

static void make_args(const bench_ctx *ctx, const char *backends,
                      const char *ops, const char *json, job_args *a)
{
    const bench_opts *o = ctx->opts;
    int k = 0;
    a->argv[k++] = ctx->suite;
    a->argv[k++] = "--backends";
    a->argv[k++] = backends;
    a->sizes[0] = '\0';
    for (int i = 0; i < o->nsizes; i++) {
        size_t used = strlen(a->sizes);
        snprintf(a->sizes + used, sizeof a->sizes - used, "%s%zu",
                 i ? "," : "", o->sizes[i]);
    }
    a->argv[k++] = "--sizes";
    a->argv[k++] = a->sizes;
    if (o->reps > 0) {
        snprintf(a->reps, sizeof a->reps, "%ld", o->reps);
        a->argv[k++] = "--reps";
        a->argv[k++] = a->reps;
    }
    if (o->quick)
        a->argv[k++] = "--quick";
    if (o->quiet)
        a->argv[k++] = "--quiet";
    /* --net: no shared windows (osc pt2pt has none; orma's stay on shared
     * memory) in the suites that have them; ghost, as, mult and rdx use
     * allocate windows only */
    int flavours = !strcmp(ctx->suite, "pingpong") || !strcmp(ctx->suite, "latency") ||
                   !strcmp(ctx->suite, "multiput");
    const char *windows = o->windows != NULL || !o->net || !flavours ? o->windows
                                                                     : "allocate,create,create_allocmem,dynamic";
    const char *filters[3][2] = {{"--window", windows},
                                 {"--sync", o->syncs},
                                 {"--op", ops}};
    for (int i = 0; i < 3; i++) {
        if (filters[i][1] == NULL)
            continue;
        a->argv[k++] = filters[i][0];
        a->argv[k++] = filters[i][1];
    }
    a->argv[k++] = "--json";
    a->argv[k++] = json;
    a->argv[k] = NULL;
}

/* One job: its results are added to this run's.  BENCH_OK or BENCH_FAIL. */
static int run_job(const bench_ctx *ctx, const pp_mpi_variant *v,
                   const char *mpirun, const char *lib, const char *prog,
                   const char *backends, const char *ops)
{
    const char *tmp = getenv("TMPDIR");
    char json[PATH_MAX];
    snprintf(json, sizeof json, "%s/orma-bench-mpi-XXXXXX",
             tmp != NULL && *tmp != '\0' ? tmp : P_tmpdir);
    int fd = mkstemp(json);
    if (fd < 0) {
        fprintf(stderr, "orma-bench: temporary file %s: %s\n", json,
                strerror(errno));
        return BENCH_FAIL;
    }
    close(fd);
    job_args a;
    make_args(ctx, backends, ops, json, &a);
    char what[96];
    snprintf(what, sizeof what, "%s on %s, an MPI job", backends, v->name);
    bench_progress_status(what);
    bench_note("%s on %s: mpirun.%s -n %d orma-bench-mpi-%s %s%s%s%s",
               backends, v->name, v->name, ctx->size, v->name, ctx->suite,
               lib != NULL ? ", liborma-mpi-" : "", lib != NULL ? v->name : "",
               lib != NULL ? ".so preloaded" : "");
    int rc = pp_mpi_launch(v, mpirun, ctx->size, lib, prog, a.argv, ctx->opts->net);
    long got = bench_report_load(ctx, json);
    unlink(json);
    if (rc != 0)
        fprintf(stderr, "orma-bench: %s on %s: the MPI job failed (exit "
                "status %d)\n", backends, v->name, rc);
    else if (got < 0)
        fprintf(stderr, "orma-bench: %s on %s: its results could not be "
                "read\n", backends, v->name);
    return rc == 0 && got >= 0 ? BENCH_OK : BENCH_FAIL;
}

/* Rank 0: every variant; pairs: mpi-rma and orma-mpi in one job when both
 * are named (pp_mpi_run_paired). */
static int run_variants(const bench_ctx *ctx, const char *const *known,
                        int pairs)
{
    const bench_opts *o = ctx->opts;
    char dir[PATH_MAX], prog[PATH_MAX], lib[PATH_MAX], mpirun[PATH_MAX];
    char opbuf[128];
    const char *ops = mpi_ops(o, known, opbuf, sizeof opbuf);
    if (ops != NULL && *ops == '\0') {
        char names[128] = "";
        for (int op = 0; known != NULL && known[op] != NULL; op++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s",
                     used ? ", " : "", known[op]);
        }
        bench_note("MPI backends skipped: they make %s, and --op names none",
                   names);
        return BENCH_OK;
    }
    if (pp_exe_dir(dir, sizeof dir) != 0) {
        fprintf(stderr, "orma-bench: cannot find its own directory\n");
        return BENCH_FAIL;
    }
    pairs = pairs && !o->unpaired && pp_backend_on(o, "mpi-rma") &&
            pp_backend_on(o, "orma-mpi");
    int st = BENCH_OK, noted = 0;
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name != NULL; v++) {
        char name[64];
        snprintf(name, sizeof name, "mpirun.%s", v->name);
        int wp = snprintf(prog, sizeof prog, "%s/orma-bench-mpi-%s", dir,
                          v->name);
        int wl = snprintf(lib, sizeof lib, "%s/../lib/liborma-mpi-%s.so",
                          dir, v->name);
        if (wp < 0 || (size_t)wp >= sizeof prog || wl < 0 ||
            (size_t)wl >= sizeof lib) {
            bench_note("%s skipped: the build's path is too long", v->name);
            continue;
        }
        if (pp_find_on_path(name, mpirun, sizeof mpirun) != 0) {
            bench_note("%s skipped: no %s on PATH", v->name, name);
            continue;
        }
        if (access(prog, X_OK) != 0) {
            bench_note("%s skipped: orma-bench-mpi-%s was not built beside "
                       "orma-bench", v->name, v->name);
            continue;
        }
        /* Without the library, mpi-rma goes back to the host's job. */
        int pair = pairs && access(lib, R_OK) == 0;
        char host[32] = "";
        if (pp_backend_on(o, "mpi-rma") && !pair)
            strcat(host, "mpi-rma");
        if (pp_backend_on(o, "mpi-p2p"))
            strcat(host, host[0] ? ",mpi-p2p" : "mpi-p2p");
        if (host[0] != '\0' &&
            run_job(ctx, v, mpirun, NULL, prog, host, ops) != BENCH_OK)
            st = BENCH_FAIL;
        if (!pp_backend_on(o, "orma-mpi"))
            continue;
        if (access(lib, R_OK) != 0) {
            bench_note("orma-mpi on %s skipped: no liborma-mpi-%s.so in the "
                       "build", v->name, v->name);
            continue;
        }
        if (pair && !noted++)
            bench_note("mpi-rma and orma-mpi measured paired: one MPI job "
                       "per host MPI, liborma-mpi preloaded, their batches "
                       "alternating within every point, so that both see "
                       "the machine alike (--unpaired: separate jobs); "
                       "mpi-rma calls the host MPI's own functions, PMPI_* "
                       "found by dlsym in the library that defines "
                       "MPI_Send, checked by dladdr to be none of "
                       "liborma-mpi's");
        if (run_job(ctx, v, mpirun, lib, prog,
                    pair ? "mpi-rma,orma-mpi" : "orma-mpi", ops) != BENCH_OK)
            st = BENCH_FAIL;
    }
    return st;
}

static int run_all(const bench_ctx *ctx, const char *const *ops, int pairs)
{
    int st = ctx->rank == 0 ? run_variants(ctx, ops, pairs) : BENCH_OK;
    /* The other ranks wait here, asleep once the barrier's spinning and
     * yielding is over, leaving the cores to the MPI jobs. */
    return (int)bench_ctl_bcast(ctx->ctl, (uint64_t)st);
}

int pp_mpi_run(const bench_ctx *ctx, const char *const *ops)
{
    return run_all(ctx, ops, 0);
}

int pp_mpi_run_paired(const bench_ctx *ctx, const char *const *ops)
{
    return run_all(ctx, ops, 1);
}
