/* orma-run.c -- start the ranks of a job on this machine and watch them.
 *
 *   orma-run [-v] [-u U] -n N [--] program [args...]
 *
 * What the launcher and the library (src/boot) agree on:
 *  - each rank's environment holds ORMA_BOOT_RANK, ORMA_BOOT_SIZE,
 *    ORMA_BOOT_JOB (32 random hex digits naming the job) and ORMA_BOOT_FD,
 *    the write end of a pipe whose read end only the launcher holds;
 *  - in orma_finalize a rank writes its rank number there as one native int32;
 *  - every shared-memory object of the job is /dev/shm/orma-<uid>-<token>-*,
 *    and the launcher removes whatever is left once all ranks are gone;
 *  - ORMA_BOOT_SERVICE names a socket on which ranks ask for more ranks
 *    (orma_spawn, run_spawn.c): each request starts a job of its own, with
 *    a token of its own, watched as the first ranks are.  ORMA_BOOT_SLOT is
 *    the number a rank reports its finalize with, unique across them.
 *
 * A rank that dies by a signal, or exits non-zero before finalizing, may
 * leave the others waiting for it forever, so the job is ended: SIGTERM to the
 * rest, SIGKILL after a grace period.  Exit status: 0 when every rank exited
 * 0; otherwise that of the first rank to fail (its code, or 128+signal), or
 * 128+signal when the launcher was interrupted first; 2 for bad usage; 125
 * when the launcher itself fails (fork, pipe). */
#include "run.h"
#include "boot_job.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: orma-run [-v] [-u U] -n N [--] program [args...]\n");
}

static void help(void)
{
    usage(stdout);
    printf("\nStart N ranks (1..%d) of an orma job on this machine and wait for them.\n\n"
           "  -n N, -nN, -np N, --np N  number of ranks\n"
           "  -u U, --universe U        at most U ranks alive at once, counting those\n"
           "                            started by orma_spawn (default %d)\n"
           "  -v, --verbose             report each rank's start, finalize and exit\n"
           "  -h, --help                this text\n\n"
           "When a rank dies by a signal or exits non-zero before orma_finalize, the\n"
           "other ranks are sent SIGTERM, then SIGKILL %d ms later.  SIGINT, SIGTERM\n"
           "and SIGHUP are forwarded to the ranks the same way.\n\n"
           "Exit status: 0 when every rank exited 0; else that of the first rank to\n"
           "fail (its code, or 128+signal), or 128+signal when orma-run itself was\n"
           "interrupted first; 2 for bad usage; 125 when orma-run itself failed.\n",
           RUN_MAX_RANKS, RUN_MAX_RANKS, RUN_GRACE_MS);
}

__attribute__((format(printf, 1, 2))) static int bad_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("orma-run: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    usage(stderr);
    return RUN_EXIT_USAGE;
}

static int parse_count(const char *text, int *n_p)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > RUN_MAX_RANKS)
        return -1;
    *n_p = (int)v;
    return 0;
}

/* 0 when path names an executable regular file, else why not (an errno). */
int run_check_executable(const char *path)
{
    struct stat st;
    if (stat(path, &st))
        return errno;
    if (S_ISDIR(st.st_mode))
        return EISDIR;
    if (!S_ISREG(st.st_mode) || access(path, X_OK))
        return EACCES;
    return 0;
}

/* Looks the program up as execvp would, so that a typo is reported once with
 * status 2 instead of by every rank. */
int run_resolve_program(const char *name, char *path, size_t len)
{
    if (strchr(name, '/')) {
        snprintf(path, len, "%s", name);
        return run_check_executable(path);
    }
    const char *dirs = getenv("PATH");
    if (!dirs)
        dirs = "/bin:/usr/bin";
    int err = ENOENT;
    for (const char *p = dirs;;) {
        const char *end = strchrnul(p, ':');
        int dlen = (int)(end - p);
        /* An empty entry means the current directory. */
        if (snprintf(path, len, "%.*s/%s", dlen ? dlen : 1, dlen ? p : ".", name) < (int)len) {
            int e = run_check_executable(path);
            if (!e)
                return 0;
            if (e == EACCES)
                err = EACCES; /* as execvp: found, but not runnable */
        }
        if (!*end)
            return err;
        p = end + 1;
    }
}

/* Returns -1 when the job is to be run, or the exit status. */
static int parse_args(int argc, char **argv, struct run_job *job)
{
    const char *count = NULL, *universe = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            help();
            return 0;
        }
        if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            job->verbose = 1;
        } else if (!strcmp(a, "-u") || !strcmp(a, "--universe")) {
            if (i + 1 >= argc)
                return bad_usage("option %s needs the number of ranks", a);
            universe = argv[++i];
        } else if (!strncmp(a, "--universe=", 11)) {
            universe = a + 11;
        } else if (!strcmp(a, "-n") || !strcmp(a, "-np") || !strcmp(a, "--np")) {
            if (i + 1 >= argc)
                return bad_usage("option %s needs the number of ranks", a);
            count = argv[++i];
        } else if (!strncmp(a, "--np=", 5)) {
            count = a + 5;
        } else if (!strncmp(a, "-np", 3)) {
            count = a + 3;
        } else if (!strncmp(a, "-n", 2)) {
            count = a + 2;
        } else {
            return bad_usage("unknown option %s", a);
        }
    }
    if (!count)
        return bad_usage("the number of ranks is missing (-n N)");
    if (parse_count(count, &job->n))
        return bad_usage("invalid number of ranks \"%s\" (expected 1..%d)", count, RUN_MAX_RANKS);
    job->universe = RUN_MAX_RANKS;
    if (universe && parse_count(universe, &job->universe))
        return bad_usage("invalid universe size \"%s\" (expected 1..%d)", universe, RUN_MAX_RANKS);
    if (job->n > job->universe)
        return bad_usage("%d ranks do not fit a universe of %d", job->n, job->universe);
    if (i >= argc)
        return bad_usage("the program to run is missing");
    job->argv = argv + i;
    int err = run_resolve_program(job->argv[0], job->path, sizeof job->path);
    if (err == ENOENT && !strchr(job->argv[0], '/'))
        return bad_usage("%s: command not found", job->argv[0]);
    if (err)
        return bad_usage("cannot execute %s: %s", job->argv[0], strerror(err));
    return -1;
}

int run_make_token(char *out)
{
    unsigned char raw[16];
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t k = getrandom(raw + got, sizeof raw - got, 0);
        if (k < 0 && errno != EINTR)
            return -1;
        if (k > 0)
            got += (size_t)k;
    }
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < sizeof raw; i++) {
        out[2 * i] = hex[raw[i] >> 4];
        out[2 * i + 1] = hex[raw[i] & 15];
    }
    out[2 * sizeof raw] = '\0';
    return 0;
}

/* The ranks' environment: the launcher's without the ORMA_BOOT_* of an
 * enclosing job, plus this job's, RUN_ENV_OWN strings that differ between
 * ranks and jobs, rewritten before each fork. */
static int build_env(struct run_job *job)
{
    size_t count = 0;
    for (char **e = environ; *e; e++)
        count++;
    job->envp = malloc((count + RUN_ENV_OWN + 1) * sizeof *job->envp);
    if (!job->envp)
        return -1;
    size_t k = 0;
    for (char **e = environ; *e; e++)
        if (strncmp(*e, "ORMA_BOOT_", 10))
            job->envp[k++] = *e;
    job->nenv = k;
    return 0;
}

/* probe: the write end of a close-on-exec pipe, told errno when exec
 * fails (-1: none). */
static _Noreturn void exec_rank(const struct run_job *job, const char *path, char *const argv[], const char *cwd,
                                pid_t launcher, int probe)
{
    /* A launcher killed by SIGKILL cannot end the job: the kernel does.  If
     * it died before prctl took effect, nobody would. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != launcher)
        _exit(RUN_EXIT_INTERNAL);
    /* The launcher installs no handlers (its signals come from a signalfd)
     * and SIGCHLD is already back to default; only the mask is its own. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* The pipe is close-on-exec so that only the ranks inherit it. */
    fcntl(job->wfd, F_SETFD, 0);
    if (cwd && chdir(cwd)) {
        dprintf(STDERR_FILENO, "orma-run: cannot enter %s: %s\n", cwd, strerror(errno));
        _exit(RUN_EXIT_NOEXEC);
    }
    execve(path, argv, job->envp);
    if (probe >= 0) {
        int e = errno;
        if (write(probe, &e, sizeof e) != (ssize_t)sizeof e)
            _exit(RUN_EXIT_NOEXEC);
        _exit(RUN_EXIT_NOEXEC); /* the spawner is told; the launcher reaps this one quietly */
    }
    dprintf(STDERR_FILENO, "orma-run: cannot execute %s: %s\n", argv[0], strerror(errno));
    _exit(RUN_EXIT_NOEXEC);
}

static int grow_ranks(struct run_job *job, int more)
{
    if (job->nranks + more <= job->cap)
        return 0;
    int cap = job->cap ? job->cap : 16;
    while (cap < job->nranks + more)
        cap *= 2;
    struct run_rank *grown = realloc(job->ranks, (size_t)cap * sizeof *grown);
    char (*tokens)[33] = realloc(job->tokens, (size_t)cap * sizeof *tokens);
    if (grown)
        job->ranks = grown;
    if (tokens)
        job->tokens = tokens;
    if (!grown || !tokens)
        return -1;
    memset(job->ranks + job->cap, 0, (size_t)(cap - job->cap) * sizeof *grown);
    job->cap = cap;
    return 0;
}

/* Whether the first rank of a spawn could exec: its errno when not (the
 * rank is gone and reaped), else 0.  fds: the probe pipe, close-on-exec. */
static int exec_failed(pid_t pid, int fds[2])
{
    close(fds[1]);
    int e = 0;
    ssize_t k;
    do
        k = read(fds[0], &e, sizeof e);
    while (k < 0 && errno == EINTR);
    close(fds[0]);
    if (k != (ssize_t)sizeof e)
        return 0; /* EOF: exec closed the pipe */
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return e ? e : ENOEXEC;
}

int run_start(struct run_job *job, const char *path, char *const argv[], const char *cwd, int n, const char *token,
              const char *parent, pid_t *pids)
{
    if (grow_ranks(job, n)) {
        fprintf(stderr, "orma-run: out of memory for %d more ranks\n", n);
        return -1;
    }
    int id = job->njobs++;
    snprintf(job->tokens[id], sizeof job->tokens[id], "%s", token);
    char env_rank[32], env_size[32], env_job[64], env_fd[32], env_slot[32], env_service[96], env_parent[160];
    snprintf(env_size, sizeof env_size, "ORMA_BOOT_SIZE=%d", n);
    snprintf(env_job, sizeof env_job, "ORMA_BOOT_JOB=%s", token);
    snprintf(env_fd, sizeof env_fd, "ORMA_BOOT_FD=%d", job->wfd);
    snprintf(env_service, sizeof env_service, "ORMA_BOOT_SERVICE=%s", job->service);
    snprintf(env_parent, sizeof env_parent, "ORMA_BOOT_PARENT=%s", parent ? parent : "");
    size_t k = job->nenv;
    job->envp[k++] = env_rank;
    job->envp[k++] = env_size;
    job->envp[k++] = env_job;
    job->envp[k++] = env_fd;
    job->envp[k++] = env_slot;
    if (job->service[0])
        job->envp[k++] = env_service;
    if (parent)
        job->envp[k++] = env_parent;
    job->envp[k] = NULL;
    pid_t self = getpid();
    for (int r = 0; r < n; r++) {
        int slot = job->nranks;
        snprintf(env_rank, sizeof env_rank, "ORMA_BOOT_RANK=%d", r);
        snprintf(env_slot, sizeof env_slot, "ORMA_BOOT_SLOT=%d", slot);
        /* A spawn's first rank tells whether the program runs at all, so
         * that the spawner gets an error instead of the job ending. */
        int probe[2] = {-1, -1};
        if (parent && r == 0 && pipe2(probe, O_CLOEXEC))
            probe[0] = probe[1] = -1;
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "orma-run: cannot start rank %d: %s\n", r, strerror(errno));
            return -1;
        }
        if (pid == 0)
            exec_rank(job, path, argv, cwd, self, probe[1]);
        if (probe[0] >= 0) {
            int e = exec_failed(pid, probe);
            if (e) {
                job->njobs--;
                errno = e;
                return -2;
            }
        }
        job->ranks[slot] = (struct run_rank){.pid = pid, .job = id, .rank = r};
        job->nranks++;
        job->live++;
        if (pids)
            pids[r] = pid;
        if (job->verbose) {
            char label[48];
            fprintf(stderr, "orma-run: %s is pid %ld\n", run_label(job, slot, label, sizeof label), (long)pid);
        }
    }
    return 0;
}

const char *run_label(const struct run_job *job, int slot, char *buf, size_t len)
{
    const struct run_rank *r = &job->ranks[slot];
    if (r->job)
        snprintf(buf, len, "rank %d of spawned job %d", r->rank, r->job);
    else
        snprintf(buf, len, "rank %d", r->rank);
    return buf;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void set_status(struct run_job *job, int status)
{
    if (job->status < 0)
        job->status = status;
}

/* Unreaped ranks only: their pids cannot have been reused. */
static void signal_ranks(const struct run_job *job, int sig)
{
    for (int r = 0; r < job->nranks; r++)
        if (job->ranks[r].pid > 0)
            kill(job->ranks[r].pid, sig);
}

static void end_job(struct run_job *job, int sig)
{
    signal_ranks(job, sig);
    if (!job->ending) {
        job->ending = 1;
        job->kill_at = now_ms() + RUN_GRACE_MS;
    }
}

static void drain_finalize(struct run_job *job)
{
    int32_t rec[64];
    while (job->rfd >= 0) {
        ssize_t k = read(job->rfd, rec, sizeof rec);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return; /* EAGAIN: nothing more for now */
        if (k == 0) {
            /* Every rank has closed its end; POLLHUP would now spin. */
            close(job->rfd);
            job->rfd = -1;
            return;
        }
        for (ssize_t i = 0; i < k / (ssize_t)sizeof rec[0]; i++) {
            int r = rec[i];
            if (r < 0 || r >= job->nranks) {
                fprintf(stderr, "orma-run: ignoring finalize record for rank %d\n", r);
                continue;
            }
            job->ranks[r].finalized = 1;
            char label[48];
            if (job->verbose)
                fprintf(stderr, "orma-run: %s finalized\n", run_label(job, r, label, sizeof label));
        }
    }
}

static void rank_exited(struct run_job *job, int r, int st)
{
    struct run_rank *rank = &job->ranks[r];
    long pid = (long)rank->pid;
    rank->pid = 0;
    job->live--;
    char who[48];
    run_label(job, r, who, sizeof who);

    char what[96];
    int code;
    if (WIFSIGNALED(st)) {
        code = 128 + WTERMSIG(st);
        snprintf(what, sizeof what, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    } else {
        code = WEXITSTATUS(st);
        snprintf(what, sizeof what, "exited with code %d", code);
    }
    if (code)
        set_status(job, code);
    /* Once the job is ending, the ranks' deaths are its consequence. */
    if (code == 0 || job->ending) {
        if (job->verbose)
            fprintf(stderr, "orma-run: %s (pid %ld) %s\n", who, pid, what);
        return;
    }
    if (rank->finalized) {
        fprintf(stderr, "orma-run: %s (pid %ld) %s after finalizing\n", who, pid, what);
        return;
    }
    const char *when = WIFSIGNALED(st) ? "" : " before finalizing";
    if (job->live)
        fprintf(stderr, "orma-run: %s (pid %ld) %s%s; terminating %d other rank%s\n", who, pid, what,
                when, job->live, job->live == 1 ? "" : "s");
    else
        fprintf(stderr, "orma-run: %s (pid %ld) %s%s\n", who, pid, what, when);
    end_job(job, SIGTERM);
}

static void reap_ranks(struct run_job *job)
{
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        /* A rank writes its record before it exits: read it first, or a rank
         * that finalized and then failed would count as not finalized. */
        drain_finalize(job);
        for (int r = 0; r < job->nranks; r++) {
            if (job->ranks[r].pid == pid) {
                rank_exited(job, r, st);
                break;
            }
        }
    }
}

static void read_signals(struct run_job *job)
{
    struct signalfd_siginfo si;
    while (read(job->sfd, &si, sizeof si) == (ssize_t)sizeof si) {
        int sig = (int)si.ssi_signo;
        if (sig == SIGCHLD)
            continue;
        if (!job->ending)
            fprintf(stderr, "orma-run: got signal %d (%s); terminating %d rank%s\n", sig, strsignal(sig),
                    job->live, job->live == 1 ? "" : "s");
        set_status(job, 128 + sig);
        end_job(job, sig);
    }
    /* SIGCHLDs merge: always look for every exited rank. */
    reap_ranks(job);
}

/* The last resort when waiting itself fails. */
static void kill_and_reap(struct run_job *job)
{
    signal_ranks(job, SIGKILL);
    int st;
    while (job->live > 0 && waitpid(-1, &st, 0) > 0)
        job->live--;
    job->live = 0;
}

static void watch(struct run_job *job)
{
    while (job->live > 0) {
        struct pollfd pfd[3] = {{.fd = job->sfd, .events = POLLIN},
                                {.fd = job->rfd, .events = POLLIN},
                                {.fd = job->ending ? -1 : job->lfd, .events = POLLIN}};
        int timeout = -1;
        if (job->ending && !job->killed) {
            int64_t left = job->kill_at - now_ms();
            timeout = left < 0 ? 0 : (int)left;
        }
        if (poll(pfd, 3, timeout) < 0 && errno != EINTR) {
            fprintf(stderr, "orma-run: poll: %s; killing the job\n", strerror(errno));
            set_status(job, RUN_EXIT_INTERNAL);
            kill_and_reap(job);
            return;
        }
        drain_finalize(job);
        read_signals(job);
        if (pfd[2].revents & POLLIN)
            run_serve(job);
        if (job->live > 0 && job->ending && !job->killed && now_ms() >= job->kill_at) {
            if (job->verbose)
                fprintf(stderr, "orma-run: %d rank%s still alive after %d ms; sending SIGKILL\n", job->live,
                        job->live == 1 ? "" : "s", RUN_GRACE_MS);
            signal_ranks(job, SIGKILL);
            job->killed = 1;
        }
    }
}

/* Ranks killed before they could unlink their objects leave them behind. */
static void sweep_shm(const struct run_job *job)
{
    int removed = 0;
    for (int j = 0; j < job->njobs; j++)
        removed += boot_sweep_token(job->tokens[j]);
    if (job->verbose && removed)
        fprintf(stderr, "orma-run: removed %d shared-memory object%s left by the job\n", removed,
                removed == 1 ? "" : "s");
}

int main(int argc, char **argv)
{
    struct run_job job = {.status = -1, .sfd = -1, .rfd = -1, .wfd = -1, .lfd = -1};
    int rc = parse_args(argc, argv, &job);
    if (rc >= 0)
        return rc;

    int result = RUN_EXIT_INTERNAL, fds[2];
    const char *what;
    if (run_make_token(job.token)) {
        what = "getrandom";
        goto fail;
    }
    /* An inherited SIG_IGN would let the kernel reap the ranks unseen. */
    signal(SIGCHLD, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, NULL);
    job.sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (job.sfd < 0) {
        what = "signalfd";
        goto fail;
    }
    if (pipe2(fds, O_CLOEXEC)) {
        what = "pipe";
        goto fail;
    }
    job.rfd = fds[0];
    job.wfd = fds[1];
    if (fcntl(job.rfd, F_SETFL, O_NONBLOCK)) {
        what = "fcntl";
        goto fail;
    }
    if (build_env(&job)) {
        what = "malloc";
        goto fail;
    }
    /* Without the service the job runs, but cannot spawn. */
    if (run_serve_open(&job))
        fprintf(stderr, "orma-run: orma_spawn will not work: cannot listen: %s\n", strerror(errno));
    if (job.verbose)
        fprintf(stderr, "orma-run: job %s: %d rank%s of %s\n", job.token, job.n, job.n == 1 ? "" : "s",
                job.path);

    if (run_start(&job, job.path, job.argv, NULL, job.n, job.token, NULL, NULL)) {
        set_status(&job, RUN_EXIT_INTERNAL);
        end_job(&job, SIGTERM);
    }
    /* The launcher keeps the write end for the ranks it may spawn. */
    watch(&job);
    sweep_shm(&job);
    result = job.status < 0 ? 0 : job.status;
    goto out;

fail:
    fprintf(stderr, "orma-run: %s: %s\n", what, strerror(errno));
out:
    if (job.wfd >= 0)
        close(job.wfd);
    if (job.rfd >= 0)
        close(job.rfd);
    if (job.sfd >= 0)
        close(job.sfd);
    if (job.lfd >= 0)
        close(job.lfd);
    free(job.envp);
    free(job.ranks);
    free(job.tokens);
    return result;
}
