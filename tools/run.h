/* run.h -- orma-run's job: every rank it started, the first ones and those
 * spawned later (run_spawn.c), and what it watches them with. */
#ifndef ORMA_RUN_H
#define ORMA_RUN_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RUN_MAX_RANKS 4096
#define RUN_GRACE_MS 250
#define RUN_EXIT_USAGE 2
#define RUN_EXIT_INTERNAL 125
#define RUN_EXIT_NOEXEC 127
#define RUN_ENV_OWN 7 /* ORMA_BOOT_* strings a rank's environment adds */

struct run_rank {
    pid_t pid;     /* 0 once reaped, or never started */
    int finalized; /* its finalize record arrived */
    int job;       /* 0: the first ranks; k: the k-th spawn */
    int rank;      /* in its job */
};

struct run_job {
    int n;               /* the first ranks */
    int universe;        /* at most this many alive at once */
    int verbose;
    char **argv;         /* the program and its arguments */
    char path[PATH_MAX]; /* the program, resolved against PATH */
    char token[33];
    struct run_rank *ranks; /* nranks of cap, indexed by ORMA_BOOT_SLOT */
    int nranks, cap;
    char (*tokens)[33];  /* each job's token, njobs of them */
    int njobs;
    int live;            /* ranks started and not reaped */
    int status;          /* exit status, -1 until something decides it */
    int ending;          /* the remaining ranks were told to stop */
    int killed;          /* ... and SIGKILL has been sent */
    int64_t kill_at;     /* ms, when the grace ends */
    int sfd;             /* signalfd: SIGCHLD, SIGINT, SIGTERM, SIGHUP */
    int rfd, wfd;        /* finalize pipe; the launcher keeps wfd for spawns */
    int lfd;             /* the spawn service's listening socket, or -1 */
    char service[64];    /* its abstract name, or "" */
    char **envp;         /* nenv inherited strings, then RUN_ENV_OWN */
    size_t nenv;
};

/* 0 when path names an executable regular file, else why not (an errno). */
int run_check_executable(const char *path);

/* Looks name up as execvp would: 0 and its path, or an errno. */
int run_resolve_program(const char *name, char *path, size_t len);

/* 32 random hex digits. */
int run_make_token(char *out);

/* Start n ranks of path as a new job with token (in cwd, or the launcher's
 * when NULL), spawned by a job when parent names their bridge; their pids
 * into pids when not NULL.  -1 when a fork failed (said on stderr); -2 and
 * errno when a spawn's program cannot be executed (nothing started). */
int run_start(struct run_job *job, const char *path, char *const argv[], const char *cwd, int n, const char *token,
              const char *parent, pid_t *pids);

/* "rank R" or "rank R of spawned job J", for messages. */
const char *run_label(const struct run_job *job, int slot, char *buf, size_t len);

/* run_spawn.c: listen for spawn requests (sets lfd and service; -1 and
 * errno on failure), and answer one waiting on lfd. */
int run_serve_open(struct run_job *job);
void run_serve(struct run_job *job);

#endif
