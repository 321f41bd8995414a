/* pp_mpi_launch.c -- starting one MPI job of the MPI backends from rank 0
 * of orma-bench and waiting for it (pp_mpi.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pp_mpi.h"
#include "progress.h"

extern char **environ;

#define MAX_ARGS 64

/* The environment less orma-run's ORMA_BOOT_*: with them, liborma-mpi's
 * orma would take the MPI job for a rank of this orma-run job.  Other
 * ORMA_* settings stay, so that they tune orma-mpi as they tune orma. */
char **pp_child_env(void)
{
    size_t n = 0;
    for (char **e = environ; *e != NULL; e++)
        n++;
    char **env = malloc((n + 1) * sizeof *env);
    if (env == NULL)
        return NULL;
    size_t k = 0;
    for (char **e = environ; *e != NULL; e++)
        if (strncmp(*e, "ORMA_BOOT_", 10) != 0)
            env[k++] = *e;
    env[k] = NULL;
    return env;
}

/* In the child, before exec: die with orma-bench, keep only stdin and
 * stderr (orma-run's finalize pipe and the job's descriptors stay here),
 * send stdout to /dev/null. */
static _Noreturn void exec_job(const char *mpirun, char **argv, char **env,
                               pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(127);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0 && null != STDOUT_FILENO) {
        dup2(null, STDOUT_FILENO);
        close(null);
    }
    if (close_range(3, ~0u, 0) != 0) {
        long max = sysconf(_SC_OPEN_MAX);
        for (long fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
            close((int)fd);
    }
    execve(mpirun, argv, env);
    dprintf(STDERR_FILENO, "orma-bench: cannot execute %s: %s\n", mpirun,
            strerror(errno));
    _exit(127);
}

int pp_mpi_launch(const pp_mpi_variant *v, const char *mpirun, int nranks,
                  const char *lib, const char *prog,
                  const char *const *args, int net)
{
    const char *argv[MAX_ARGS];
    char preload[4096], np[16];
    int k = 0;
    argv[k++] = mpirun;
    for (int i = 0; v->flags[i] != NULL; i++)
        argv[k++] = v->flags[i];
    for (int i = 0; net && v->net_flags[i] != NULL; i++)
        argv[k++] = v->net_flags[i];
    snprintf(np, sizeof np, "%d", nranks);
    argv[k++] = "-n";
    argv[k++] = np;
    if (lib != NULL) {
        if (v->env == PP_ENV_X) {
            snprintf(preload, sizeof preload, "LD_PRELOAD=%s", lib);
            argv[k++] = "-x";
            argv[k++] = preload;
        } else {
            argv[k++] = "-genv";
            argv[k++] = "LD_PRELOAD";
            argv[k++] = lib;
        }
    }
    argv[k++] = prog;
    for (int i = 0; args[i] != NULL; i++) {
        if (k == MAX_ARGS - 1) {
            fprintf(stderr, "orma-bench: too many arguments for %s\n", prog);
            return -1;
        }
        argv[k++] = args[i];
    }
    argv[k] = NULL;

    char **env = pp_child_env();
    if (env == NULL) {
        fprintf(stderr, "orma-bench: out of memory\n");
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t self = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "orma-bench: fork: %s\n", strerror(errno));
        free(env);
        return -1;
    }
    if (pid == 0)
        exec_job(mpirun, (char **)argv, env, self);
    free(env);
    /* With a progress line, wake now and then to move its clock: the job
     * measures meanwhile, so rarely (the MPI programs cannot draw a line
     * of their own: mpirun passes their stderr through a pipe). */
    int status, flags = bench_progress_on() ? WNOHANG : 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, flags);
        if (w == pid)
            break;
        if (w == 0) {
            struct timespec ts = {0, 500 * 1000 * 1000};
            nanosleep(&ts, NULL);
            bench_progress_tick();
        } else if (errno != EINTR) {
            fprintf(stderr, "orma-bench: waitpid: %s\n", strerror(errno));
            return -1;
        }
    }
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
