/* dyn_suite.c -- orma-bench dynamic (dyn.h): seed 000's Table 1 (time to
 * spawn 1-4 processes), the time to connect and accept, and its Figure 1
 * for one-sided communication: put and get latency and bandwidth between
 * two ranks of a static, a spawned and a connected team, taking turns.
 *
 * Run as 2 ranks of orma-run: rank 0 spawns, accepts and measures; rank 1
 * is the static partner. */
#include "dyn.h"
#include "dyn_suite.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "caf_launch.h"
#include "ctl.h"
#include "pp_mpi.h"
#include "report.h"
#include "stats.h"

#define DYN_SPAWN_MAX 4

static const size_t dyn_default_sizes[] = {8, 64, 1024, 16384, 262144, 1048576, 4194304};
static const size_t dyn_quick_sizes[] = {8, 1024, 65536, 1048576};

struct dyn_paths {
    char run[4096], peer[4096];
};

/* Start another job, of its own launcher, as a user would. */
static pid_t dyn_start(char *const argv[])
{
    pid_t pid = fork();
    if (pid == 0) {
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static int dyn_reap(pid_t pid)
{
    int st;
    if (pid <= 0 || waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int dyn_fail(const char *what)
{
    fprintf(stderr, "orma-bench: dynamic: %s: %s\n", what, orma_error_message());
    return -1;
}

/* Table 1: orma_spawn of k = 1..4 ranks from rank 0 alone, reps each. */
static int dyn_spawn_times(const bench_ctx *ctx, const struct dyn_paths *dp, orma_team self, int reps)
{
    char *args[] = {"spawned", NULL};
    double *us = calloc((size_t)reps, sizeof *us);
    if (!us)
        return -1;
    int st = 0;
    for (int k = 1; k <= DYN_SPAWN_MAX && !st; k++) {
        for (int i = 0; i <= reps && !st; i++) { /* the first: warm-up (the program's pages) */
            orma_team merged;
            double t0 = dyn_now_us();
            if (orma_spawn(self, 0, dp->peer, args, k, ORMA_INFO_NULL, &merged))
                st = dyn_fail("orma_spawn");
            double t = dyn_now_us() - t0;
            if (!st && (orma_team_barrier(merged) || orma_team_free(&merged)))
                st = dyn_fail("the spawned team");
            if (i > 0)
                us[i - 1] = t;
        }
        if (!st)
            bench_emit(ctx, "orma", "spawn", "-", "-", (size_t)k, 0, us, reps);
    }
    free(us);
    return st;
}

/* The time to connect and accept, at the accepting side: a job of one
 * rank connects again as soon as the previous team is gone. */
static int dyn_connect_times(const bench_ctx *ctx, const struct dyn_paths *dp, orma_team self, int reps)
{
    char port[ORMA_PORT_NAME_MAX], count[16];
    if (orma_port_open(port))
        return dyn_fail("orma_port_open");
    snprintf(count, sizeof count, "%d", reps + 1);
    char *argv[] = {(char *)dp->run, "-n", "1", (char *)dp->peer, "cycle", port, count, NULL};
    pid_t pid = dyn_start(argv);
    double *us = calloc((size_t)reps, sizeof *us);
    int st = pid > 0 && us ? 0 : -1;
    for (int i = 0; i <= reps && !st; i++) { /* the first also waits for the job to start */
        orma_team merged;
        double t0 = dyn_now_us();
        if (orma_team_accept(port, self, 0, &merged))
            st = dyn_fail("orma_team_accept");
        double t = dyn_now_us() - t0;
        if (!st && (orma_team_barrier(merged) || orma_team_free(&merged)))
            st = dyn_fail("the connected team");
        if (i > 0)
            us[i - 1] = t;
    }
    if (st && pid > 0)
        kill(pid, SIGTERM);
    if (dyn_reap(pid) && !st)
        st = dyn_fail("the connecting job failed");
    if (!st)
        bench_emit(ctx, "orma", "connect_accept", "-", "-", 1, 0, us, reps);
    orma_port_close(port);
    free(us);
    return st;
}

/* The median of v[0..n) (over[i] = NULL), or of v[i] / over[i]: the
 * rounds' own ratios, each of batches next to each other in time, which
 * the machine's slow and fast spells (seconds long) leave alone where
 * they move the medians of whole series. */
static double dyn_median(const double *v, const double *over, int n)
{
    double copy[256];
    long m = n < 256 ? n : 256;
    for (long i = 0; i < m; i++)
        copy[i] = over ? v[i] / over[i] : v[i];
    bench_stats s;
    bench_stats_compute(copy, m, &s);
    return s.median;
}

/* The latency pairs: a spawned and a connected partner beside rank 1. */
static int dyn_pairs(const bench_ctx *ctx, const struct dyn_paths *dp, const dyn_plan *plan)
{
    char sizes[256], rounds[16], port[ORMA_PORT_NAME_MAX] = "";
    dyn_plan_format(plan, sizes, sizeof sizes);
    snprintf(rounds, sizeof rounds, "%d", plan->rounds);
    orma_team spawned = ORMA_TEAM_NULL, connected = ORMA_TEAM_NULL, pair[DYN_KINDS] = {ORMA_TEAM_WORLD};
    char *args[] = {"partner", "spawned", sizes, rounds, NULL};
    if (orma_spawn(ORMA_TEAM_WORLD, 0, dp->peer, args, 1, ORMA_INFO_NULL, &spawned))
        return dyn_fail("spawning the partner");
    pid_t pid = -1;
    if (ctx->rank == 0) {
        orma_port_open(port);
        char *argv[] = {(char *)dp->run, "-n", "1", (char *)dp->peer, "partner", "connected", port, sizes, rounds,
                        NULL};
        pid = dyn_start(argv);
    }
    if (orma_team_accept(port, ORMA_TEAM_WORLD, 0, &connected))
        return dyn_fail("accepting the partner");
    int st = dyn_pair_split(spawned, 2, &pair[1]) | dyn_pair_split(connected, 2, &pair[2]);
    size_t n = (size_t)DYN_NOPS * (size_t)plan->nsizes * DYN_KINDS * (size_t)plan->rounds;
    double *samples = calloc(n, sizeof *samples);
    if (!st && ctx->rank == 0)
        st = samples ? dyn_pairs_origin(plan, pair, samples) : -1;
    else if (!st)
        st = dyn_pairs_partner(plan, ORMA_TEAM_WORLD, 0);
    for (int k = 1; k < DYN_KINDS; k++)
        if (pair[k] != ORMA_TEAM_NULL)
            orma_team_free(&pair[k]);
    if (orma_team_barrier(spawned) || orma_team_barrier(connected))
        st = dyn_fail("the last barrier");
    orma_team_free(&spawned);
    orma_team_free(&connected);
    if (ctx->rank == 0) {
        orma_port_close(port);
        if (dyn_reap(pid) && !st)
            st = dyn_fail("the connected partner's job failed");
    }
    for (int op = 0; op < DYN_NOPS && !st && ctx->rank == 0; op++)
        for (int z = 0; z < plan->nsizes; z++) {
            double med[DYN_KINDS], paired[DYN_KINDS];
            const double *base = &samples[dyn_sample_at(plan, op, z, 0, 0)];
            for (int k = 0; k < DYN_KINDS; k++) {
                double *v = &samples[dyn_sample_at(plan, op, z, k, 0)];
                med[k] = dyn_median(v, NULL, plan->rounds);
                paired[k] = dyn_median(v, base, plan->rounds);
                bench_emit(ctx, "orma", dyn_op_names[op], dyn_op_syncs[op], dyn_kind_names[k], plan->sizes[z],
                           (double)plan->sizes[z], v, plan->rounds);
            }
            bench_note("dynamic: %s (%s) %zu B: spawned/static %.3f, connected/static %.3f (medians of %d paired "
                       "batches; medians of the rounds' own ratios: %.3f, %.3f)",
                       dyn_op_names[op], dyn_op_syncs[op], plan->sizes[z], med[1] / med[0], med[2] / med[0],
                       plan->rounds, paired[1], paired[2]);
        }
    free(samples);
    return st;
}

/* The MPI program's output, line by line: the line after line, or NULL. */
static const char *dyn_next_line(const char *line)
{
    const char *nl = strchr(line, '\n');
    return nl && nl[1] ? nl + 1 : NULL;
}

/* 1 when line is the MPI program's "skip WHY" (noted), else 0. */
static int dyn_skip_line(const char *backend, const char *line)
{
    if (strncmp(line, "skip ", 5))
        return 0;
    bench_note("%s: %.*s", backend, (int)strcspn(line + 5, "\n"), line + 5);
    return 1;
}

/* The rows an MPI program printed (dyn_mpi.c), as this run's own. */
static int dyn_mpi_read(const bench_ctx *ctx, const char *backend, const char *out)
{
    int rows = 0;
    for (const char *line = *out ? out : NULL; line; line = dyn_next_line(line)) {
        char op[32], sync[32], window[32];
        size_t bytes;
        long reps;
        double mn, med, mx;
        if (sscanf(line, "row %31s %31s %31s %zu %ld %lf %lf %lf", op, sync, window, &bytes, &reps, &mn, &med,
                   &mx) == 8) {
            bench_result r = {NULL, backend, op, sync, window, ctx->size, bytes, reps, mn, med, mx,
                              strcmp(op, "spawn") && med > 0 ? (double)bytes / med : 0, NULL};
            bench_report_add(ctx, &r);
            rows++;
        } else if (sscanf(line, "paired %31s %31s %zu %lf %lf", op, sync, &bytes, &mn, &mx) == 5) {
            char spawned[32] = "-", connected[32] = "-";
            if (mn > 0)
                snprintf(spawned, sizeof spawned, "%.3f", mn);
            if (mx > 0)
                snprintf(connected, sizeof connected, "%.3f", mx);
            bench_note("%s: %s (%s) %zu B: spawned/static %s, connected/static %s (medians of the rounds' own ratios)",
                       backend, op, sync, bytes, spawned, connected);
        } else {
            dyn_skip_line(backend, line);
        }
    }
    return rows;
}

/* Open MPI's name server, which two mpiruns need to connect: started
 * here, its URI written to uri_file; its pid, or -1. */
static pid_t dyn_ompi_server(const char *uri_file)
{
    char path[PATH_MAX];
    if (pp_find_on_path("ompi-server", path, sizeof path) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 1);
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1); /* it takes no --allow-run-as-root */
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
        execl(path, path, "--no-daemonize", "-r", uri_file, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; pid > 0 && i < 200; i++) { /* until the URI is written */
        struct stat st;
        if (stat(uri_file, &st) == 0 && st.st_size > 0)
            return pid;
        usleep(25000);
    }
    if (pid > 0) {
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
    }
    return -1;
}

/* The pairs job of backend b with the connected pair too: the name
 * server, the connecting job (one rank, started beside), then the pairs
 * job, whose output goes to out.  Its status (caf_launch's). */
static int dyn_mpi_connected(const caf_backend *b, const char *sizes, const char *rounds, char *out, size_t outlen)
{
    char dir[] = "/tmp/orma-dyn-XXXXXX", uri[64], file[64], server[80];
    if (!mkdtemp(dir))
        return -1;
    snprintf(uri, sizeof uri, "%s/uri", dir);
    snprintf(file, sizeof file, "%s/port", dir);
    snprintf(server, sizeof server, "file:%s", uri);
    pid_t ns = dyn_ompi_server(uri), partner = -1;
    int rc = -1;
    if (ns > 0) {
        const char *main_argv[32], *part_argv[32];
        int m = 0, q = 0;
        for (int i = 0; i < b->argc; i++) {
            main_argv[m++] = part_argv[q++] = b->argv[i];
            if (i == 0) {
                main_argv[m++] = part_argv[q++] = "--ompi-server";
                main_argv[m++] = part_argv[q++] = server;
            }
            if (i > 0 && !strcmp(b->argv[i - 1], "-n"))
                part_argv[q - 1] = "1";
        }
        const char *main_tail[] = {"pairs", sizes, rounds, file, NULL}, *part_tail[] = {"connect", sizes, rounds,
                                                                                        file, NULL};
        for (int i = 0; main_tail[i]; i++)
            main_argv[m++] = main_tail[i];
        for (int i = 0; part_tail[i]; i++)
            part_argv[q++] = part_tail[i];
        main_argv[m] = part_argv[q] = NULL;
        partner = fork();
        if (partner == 0) {
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0)
                dup2(null, 1);
            execv(part_argv[0], (char *const *)part_argv);
            _exit(127);
        }
        rc = caf_launch(main_argv, out, outlen, 300);
        if (partner > 0) {
            if (rc)
                kill(partner, SIGKILL);
            int st = 0;
            waitpid(partner, &st, 0);
            if (!rc && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
                rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        }
        kill(ns, SIGTERM);
        waitpid(ns, NULL, 0);
    }
    unlink(uri);
    unlink(file);
    rmdir(dir);
    return rc;
}

/* argv (24): b's launcher and program, then mode, x and y. */
static void dyn_mpi_argv(const caf_backend *b, const char **argv, const char *mode, const char *x, const char *y)
{
    int n = 0;
    for (int i = 0; i < b->argc; i++)
        argv[n++] = b->argv[i];
    argv[n++] = mode;
    argv[n++] = x;
    argv[n++] = y;
    argv[n] = NULL;
}

/* The host MPI's MPI_Comm_spawn of k = 1..DYN_SPAWN_MAX processes, reps
 * calls each, the MPI program (b) started once per k -- and again, for
 * the calls still missing, when a spawn hangs (dyn_mpi.c says where);
 * the rows as this run's own.  0, or -1 when the MPI job failed. */
static int dyn_mpi_spawns(const bench_ctx *ctx, caf_backend *b, const char *name, int reps)
{
    static char out[1 << 16];
    double v[256];
    int hung = 0, st = 0;
    if (reps > 256)
        reps = 256;
    snprintf(b->np, sizeof b->np, "1");
    for (int k = 1; k <= DYN_SPAWN_MAX && !st; k++) {
        int got = 0;
        for (int tries = 0; got < reps && tries < 3 && !st; tries++) {
            char kk[16], left[16];
            snprintf(kk, sizeof kk, "%d", k);
            snprintf(left, sizeof left, "%d", reps - got);
            const char *argv[24];
            dyn_mpi_argv(b, argv, "spawn", kk, left);
            out[0] = '\0';
            /* a call takes well under a second; a job a few seconds to start */
            int rc = caf_launch(argv, out, sizeof out, 20.0 + 2.0 * (reps - got));
            for (const char *line = *out ? out : NULL; line; line = dyn_next_line(line)) {
                int at;
                double us;
                if (sscanf(line, "spawned %d %lf", &at, &us) == 2 && at == k && got < reps)
                    v[got++] = us;
                else if (dyn_skip_line(name, line))
                    return 0;
            }
            if (rc == CAF_TIMED_OUT)
                hung++;
            else if (rc) {
                bench_note("%s spawn %d: the MPI job ended with status %d; its rows are left out", name, k, rc);
                st = -1;
            }
        }
        if (got == reps)
            bench_emit(ctx, name, "spawn", "-", "-", (size_t)k, 0, v, reps);
        else if (!st) {
            bench_note("%s spawn %d: %d of %d calls after 3 starts of the MPI job; its rows are left out", name, k,
                       got, reps);
            st = -1;
        }
    }
    if (hung)
        bench_note("%s: %d MPI_Comm_spawn call%s hung (a spawned process stuck in its MPI_Init); the job was started "
                   "again for the calls missing", name, hung, hung > 1 ? "s" : "");
    return st;
}

/* The MPI program's pairs (b, 2 ranks): under Open MPI with liborma-mpi
 * preloaded, with the connected pair through Open MPI's name server; else
 * without it (the note says why under Open MPI; MPICH here connects
 * nothing).  0, or -1 when the MPI job failed. */
static int dyn_mpi_pairs(const bench_ctx *ctx, caf_backend *b, const char *name, int openmpi, int preloaded,
                         const char *sizes, const char *rounds)
{
    int connected = openmpi && preloaded;
    static char out[1 << 16];
    snprintf(b->np, sizeof b->np, "2");
    const char *argv[24];
    dyn_mpi_argv(b, argv, "pairs", sizes, rounds);
    out[0] = '\0';
    int rc = -1;
    if (connected) {
        b->argv[b->argc] = NULL;
        rc = dyn_mpi_connected(b, sizes, rounds, out, sizeof out);
        if (rc == -1)
            bench_note("%s: no ompi-server: the connected pair is not measured", name);
    } else if (openmpi) {
        bench_note("%s: the connected pair is not measured (the host's one-sided components reach no rank of "
                   "another mpirun unless osc rdma is switched off)", name);
    }
    if (rc == -1)
        rc = caf_launch(argv, out, sizeof out, 300);
    if (rc) {
        bench_note("%s pairs: the MPI job ended with %s %d; its rows are left out", name,
                   rc == CAF_TIMED_OUT ? "a timeout," : "status", rc == CAF_TIMED_OUT ? 300 : rc);
        return -1;
    }
    if (!dyn_mpi_read(ctx, name, out) && !strstr(out, "skip "))
        bench_note("%s pairs: no rows", name);
    return 0;
}

/* Rank 0: the MPI program, on each host MPI alone (mpi-rma) and on
 * liborma-mpi (orma-mpi): spawn times, then the pairs -- with the
 * connected pair on liborma-mpi over Open MPI, whose name server lets two
 * mpiruns connect (its own one-sided components reach no rank of another
 * mpirun without another component, so mpi-rma has no connected pair). */
static int dyn_mpi(const bench_ctx *ctx, const dyn_plan *plan, int reps)
{
    char dir[PATH_MAX], sizes[256], rounds[16];
    if (pp_exe_dir(dir, sizeof dir) != 0)
        return 0;
    dyn_plan_format(plan, sizes, sizeof sizes);
    snprintf(rounds, sizeof rounds, "%d", plan->rounds);
    int st = 0;
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name; v++)
        for (int pre = 0; pre < 2; pre++) {
            char name[48];
            snprintf(name, sizeof name, "%s/%s", pre ? "orma-mpi" : "mpi-rma", v->name);
            if (!bench_list_has(ctx->opts->backends, pre ? "orma-mpi" : "mpi-rma"))
                continue;
            caf_backend b;
            if (caf_backend_mpi(ctx, dir, v, "orma-bench-dynamic-mpi", pre, &b) != 0) {
                bench_note("%s skipped: orma-bench-dynamic-mpi-%s, liborma-mpi or mpirun.%s not found", name,
                           v->name, v->name);
                continue;
            }
            if (bench_list_has(ctx->opts->ops, "spawn") && dyn_mpi_spawns(ctx, &b, name, reps))
                st = -1;
            if ((bench_list_has(ctx->opts->ops, "put") || bench_list_has(ctx->opts->ops, "get")) &&
                dyn_mpi_pairs(ctx, &b, name, !strcmp(v->name, "openmpi"), pre, sizes, rounds))
                st = -1;
        }
    return st;
}

int bench_dynamic_run(const bench_ctx *ctx)
{
    static const char *const ops[] = {"spawn", "connect", "put", "get", NULL};
    if (bench_filters_check("dynamic", ctx->rank, NULL, NULL, ctx->opts->ops, ops, NULL, NULL) != 0)
        return BENCH_USAGE;
    if (ctx->size != 2) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: dynamic: run it as 2 ranks (orma-run -n 2)\n");
        return BENCH_USAGE;
    }
    const bench_opts *o = ctx->opts;
    static const char *const families[] = {"orma", "mpi-rma", "orma-mpi", NULL};
    char bad[64];
    if (o->backends && bench_list_check(o->backends, families, bad, sizeof bad) != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: dynamic: --backends: no backend %s (orma, mpi-rma, orma-mpi)\n", bad);
        return BENCH_USAGE;
    }
    struct dyn_paths dp;
    if (dyn_beside("orma-run", dp.run, sizeof dp.run) || dyn_beside("orma-bench-dynamic-peer", dp.peer,
                                                                      sizeof dp.peer)) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: dynamic: orma-run and orma-bench-dynamic-peer must be beside orma-bench\n");
        return BENCH_FAIL;
    }
    dyn_plan plan = {.rounds = o->reps > 0 ? (int)(o->reps < 200 ? o->reps : 200) : (o->quick ? 5 : 15)};
    if (o->sizes_given) {
        for (int i = 0; i < o->nsizes && plan.nsizes < DYN_MAX_SIZES; i++)
            if (o->sizes[i] > 0 && o->sizes[i] <= DYN_MAX_BYTES)
                plan.sizes[plan.nsizes++] = o->sizes[i];
    } else {
        const size_t *d = o->quick ? dyn_quick_sizes : dyn_default_sizes;
        size_t nd = o->quick ? sizeof dyn_quick_sizes / sizeof *d : sizeof dyn_default_sizes / sizeof *d;
        for (size_t i = 0; i < nd; i++)
            plan.sizes[plan.nsizes++] = d[i];
    }
    int reps = o->quick ? 5 : 10, st = 0;
    bench_note("dynamic: spawn and connect_accept rows: time per call (the bytes column holds the ranks spawned), "
               "%d calls after one uncounted; put/get rows: time per operation, window = the team's kind, %d "
               "batches each, the kinds in turn", reps, plan.rounds);
    /* rank 0 alone spawns and accepts; rank 1 waits */
    orma_team self;
    if (orma_team_split(ORMA_TEAM_WORLD, ctx->rank == 0 ? 0 : ORMA_UNDEFINED, 0, &self))
        return BENCH_FAIL;
    if (ctx->rank == 0 && bench_list_has(o->ops, "spawn"))
        st |= dyn_spawn_times(ctx, &dp, self, reps);
    if (ctx->rank == 0 && bench_list_has(o->ops, "connect"))
        st |= dyn_connect_times(ctx, &dp, self, reps);
    if (self != ORMA_TEAM_NULL)
        orma_team_free(&self);
    st = (int)bench_ctl_max(ctx->ctl, (uint64_t)(st ? 1 : 0)) ? -1 : 0;
    if (!st && (bench_list_has(o->ops, "put") || bench_list_has(o->ops, "get")))
        st = dyn_pairs(ctx, &dp, &plan);
    st = (int)bench_ctl_max(ctx->ctl, (uint64_t)(st ? 1 : 0)) ? -1 : 0;
    /* The host MPIs' own calls, and theirs on liborma-mpi: rank 1 waits. */
    if (!st && ctx->rank == 0 && o->backends)
        st = dyn_mpi(ctx, &plan, reps);
    st = (int)bench_ctl_max(ctx->ctl, (uint64_t)(st ? 1 : 0)) ? -1 : 0;
    return st ? BENCH_FAIL : BENCH_OK;
}
