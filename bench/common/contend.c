/* contend.c -- see contend.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "contend.h"

#define MAX_CONTENDERS 1024

static pid_t pids[MAX_CONTENDERS];
static volatile sig_atomic_t npids;
static int hooked;

static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NFATAL (int)(sizeof fatal_signals / sizeof fatal_signals[0])

/* The child: holds none of the job's descriptors (orma-run watches their
 * ends, a shell waits for the output pipe to close), then spins. */
static _Noreturn void spin(pid_t parent, const sigset_t *mask)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(0);
    npids = 0; /* the parent's list: not this process's to kill */
    for (int i = 0; i < NFATAL; i++)
        signal(fatal_signals[i], SIG_DFL);
    sigprocmask(SIG_SETMASK, mask, NULL);
    int null = open("/dev/null", O_RDWR);
    for (int fd = 0; fd <= 2 && null >= 0; fd++)
        if (fd != null)
            dup2(null, fd);
    if (close_range(3, ~0u, 0) != 0) {
        long max = sysconf(_SC_OPEN_MAX);
        for (long fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
            close((int)fd);
    }
    /* Plain arithmetic that the compiler cannot fold away. */
    volatile unsigned long x = (unsigned long)getpid();
    for (;;)
        x = x * 6364136223846793005ul + 1442695040888963407ul;
}

/* Async-signal-safe: kill and reap what runs. */
static void kill_all(void)
{
    int n = npids;
    npids = 0;
    for (int i = 0; i < n; i++)
        kill(pids[i], SIGKILL);
    for (int i = 0; i < n; i++)
        while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
            ;
}

static void on_signal(int sig)
{
    int saved = errno;
    kill_all();
    signal(sig, SIG_DFL);
    raise(sig);
    errno = saved;
}

static void on_exit_hook(void)
{
    kill_all();
}

static void hook(void)
{
    if (hooked)
        return;
    hooked = 1;
    atexit(on_exit_hook);
    for (int i = 0; i < NFATAL; i++) {
        struct sigaction sa, old;
        if (sigaction(fatal_signals[i], NULL, &old) == 0 &&
            old.sa_handler == SIG_IGN)
            continue; /* ignored by whoever started us: stays ignored */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(fatal_signals[i], &sa, NULL);
    }
}

int bench_contend_start(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1)
        cpus = 1;
    long want = cpus * BENCH_CONTEND_PER_CPU;
    if (want > MAX_CONTENDERS)
        want = MAX_CONTENDERS;
    hook();
    fflush(stdout);
    fflush(stderr);
    pid_t self = getpid();
    sigset_t all, old;
    sigfillset(&all);
    for (long i = 0; i < want; i++) {
        /* No signal between fork and the record of the pid: a handler
         * would miss the child. */
        sigprocmask(SIG_BLOCK, &all, &old);
        pid_t pid = fork();
        if (pid == 0)
            spin(self, &old);
        if (pid > 0)
            pids[npids++] = pid;
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (pid < 0) {
            fprintf(stderr, "orma-bench: --contend: fork of busy loop %ld "
                    "of %ld: %s\n", i + 1, want, strerror(errno));
            kill_all();
            return -1;
        }
    }
    return (int)want;
}

void bench_contend_stop(void)
{
    kill_all();
}

int bench_contend_count(void)
{
    return npids;
}
