/* caf_launch.c -- the caf suite's backends and how they are started
 * (caf_launch.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "caf_launch.h"
#include "opts.h"
#include "pp_mpi.h"
#include "progress.h"
#include "report.h"

int caf_fmt(char *out, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(out, len, fmt, ap);
    va_end(ap);
    return w >= 0 && (size_t)w < len ? 0 : -1;
}

void caf_cat(char *out, size_t len, const char *fmt, ...)
{
    size_t used = strlen(out);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + used, len - used, fmt, ap);
    va_end(ap);
}

static double caf_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The child's side of caf_launch and caf_start: a process group of its
 * own (so that a job past its time is stopped whole), stdout into out. */
static void caf_child(const char *const *argv, char **env, int out, pid_t parent)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(127);
    dup2(out, STDOUT_FILENO);
    if (close_range(3, ~0u, 0) != 0)
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
    execve(argv[0], (char **)argv, env);
    dprintf(STDERR_FILENO, "orma-bench: cannot execute %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Stops the job's process group: SIGTERM, and SIGKILL when it is still
 * there 3 s later. */
void caf_stop(pid_t pid)
{
    kill(-pid, SIGTERM);
    for (int i = 0; i < 30; i++) {
        if (waitpid(pid, NULL, WNOHANG) == pid) {
            kill(-pid, SIGKILL); /* what the launcher left behind */
            return;
        }
        usleep(100000);
    }
    kill(-pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

int caf_launch(const char *const *argv, char *out, size_t outlen, double limit)
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
    if (pid == 0)
        caf_child(argv, env, fds[1], self);
    free(env);
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return -1;
    }
    setpgid(pid, pid); /* either side may get there first */
    size_t used = 0;
    double end = caf_now() + limit;
    int timed_out = 0;
    for (;;) {
        double left = end - caf_now();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        int k = poll(&p, 1, left > 1 ? 1000 : (int)(left * 1000) + 1);
        bench_progress_tick();
        if (k < 0 && errno != EINTR)
            break;
        if (k <= 0)
            continue;
        ssize_t n = read(fds[0], out + used, outlen - 1 - used);
        if (n > 0 && used + (size_t)n < outlen - 1)
            used += (size_t)n;
        else if (n == 0 || (n < 0 && errno != EINTR))
            break;
        else if (n > 0)
            used = outlen - 1;
    }
    out[used] = '\0';
    close(fds[0]);
    if (timed_out) {
        caf_stop(pid);
        return CAF_TIMED_OUT;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

pid_t caf_start(const char *const *argv, int out)
{
    char **env = pp_child_env();
    if (!env)
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t self = getpid(), pid = fork();
    if (pid == 0)
        caf_child(argv, env, out, self);
    free(env);
    if (pid > 0)
        setpgid(pid, pid); /* either side may get there first */
    return pid;
}

/* orma-caf (the coarray program on liborma-caf, under orma-run) and orma
 * (this process's own calls), when built. */
static int caf_backends_orma(const bench_ctx *ctx, const char *dir, caf_backend *b)
{
    int n = 0;
    caf_backend *o = &b[n];
    memset(o, 0, sizeof *o);
    if (caf_fmt(o->prog, sizeof o->prog, "%s/orma-bench-caf", dir) == 0 &&
        caf_fmt(o->launcher, sizeof o->launcher, "%s/orma-run", dir) == 0 && access(o->prog, X_OK) == 0 &&
        access(o->launcher, X_OK) == 0) {
        snprintf(o->name, sizeof o->name, "orma-caf");
        o->kind = CAF_KIND_CAF;
        snprintf(o->np, sizeof o->np, "%d", ctx->size);
        const char *a[] = {o->launcher, "-n", o->np, "--", o->prog};
        for (int i = 0; i < 5; i++)
            o->argv[o->argc++] = a[i];
        n++;
    } else {
        bench_note("orma-caf skipped: orma-bench-caf was not built (no gfortran 12)");
    }
    o = &b[n++];
    memset(o, 0, sizeof *o);
    snprintf(o->name, sizeof o->name, "orma");
    o->kind = CAF_KIND_ORMA;
    return n;
}

int caf_backend_mpi(const bench_ctx *ctx, const char *dir, const pp_mpi_variant *v, const char *prog,
                           int pre, caf_backend *o)
{
    char name[64];
    memset(o, 0, sizeof *o);
    if (caf_fmt(o->prog, sizeof o->prog, "%s/%s-%s", dir, prog, v->name) != 0 ||
        caf_fmt(name, sizeof name, "mpirun.%s", v->name) != 0 ||
        caf_fmt(o->lib, sizeof o->lib, "%s/../lib/liborma-mpi-%s.so", dir, v->name) != 0 ||
        access(o->prog, X_OK) != 0 || pp_find_on_path(name, o->launcher, sizeof o->launcher) != 0 ||
        (pre && access(o->lib, R_OK) != 0))
        return -1;
    snprintf(o->np, sizeof o->np, "%d", ctx->size);
    o->argv[o->argc++] = o->launcher;
    for (int i = 0; v->flags[i]; i++)
        o->argv[o->argc++] = v->flags[i];
    o->argv[o->argc++] = "-n";
    o->argv[o->argc++] = o->np;
    if (pre && v->env == PP_ENV_X) {
        if (caf_fmt(o->preload, sizeof o->preload, "LD_PRELOAD=%s", o->lib) != 0)
            return -1;
        o->argv[o->argc++] = "-x";
        o->argv[o->argc++] = o->preload;
    } else if (pre) {
        o->argv[o->argc++] = "-genv";
        o->argv[o->argc++] = "LD_PRELOAD";
        o->argv[o->argc++] = o->lib;
    }
    o->argv[o->argc++] = o->prog;
    return 0;
}

const char *const caf_backend_families[] = {"orma-caf", "orma", "opencoarrays", "oc-orma-mpi", "mpi", "mpi-orma", NULL};

/* Keeps the backends of b[0..n) whose family (the name before '/') --backends
 * names; their number. */
static int caf_backends_chosen(const bench_ctx *ctx, caf_backend *b, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        char family[40];
        snprintf(family, sizeof family, "%.*s", (int)strcspn(b[i].name, "/"), b[i].name);
        if (bench_list_has(ctx->opts->backends, family)) {
            if (k != i)
                b[k] = b[i];
            k++;
        }
    }
    return k;
}

int caf_backends(const bench_ctx *ctx, caf_backend *b)
{
    char dir[PATH_MAX];
    if (pp_exe_dir(dir, sizeof dir) != 0)
        return 0;
    int n = caf_backends_orma(ctx, dir, b);
    /* Per host MPI: OpenCoarrays on it and on liborma-mpi, then the MPI
     * program on it and on liborma-mpi. */
    static const struct {
        const char *prog, *name;
        int kind;
    } peers[] = {{"orma-bench-caf-opencoarrays", "opencoarrays", CAF_KIND_CAF},
                 {"orma-bench-caf-mpi", "mpi", CAF_KIND_MPI}};
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name; v++)
        for (size_t p = 0; p < sizeof peers / sizeof peers[0]; p++)
            for (int pre = 0; pre < 2 && n < CAF_MAX_BACKENDS; pre++) {
                if (caf_backend_mpi(ctx, dir, v, peers[p].prog, pre, &b[n]) != 0) {
                    if (!pre)
                        bench_note("%s/%s skipped: %s-%s or mpirun.%s not found", peers[p].name, v->name,
                                   peers[p].prog, v->name, v->name);
                    break;
                }
                b[n].kind = peers[p].kind;
                snprintf(b[n].name, sizeof b[n].name, "%s/%s",
                         pre ? (p == 0 ? "oc-orma-mpi" : "mpi-orma") : peers[p].name, v->name);
                n++;
            }
    return caf_backends_chosen(ctx, b, n);
}
