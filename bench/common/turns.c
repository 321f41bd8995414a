/* turns.c -- orma-bench's side of the jobs that take turns (turns.h). */
#include "turns.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "caf_launch.h"
#include "progress.h"
#include "report.h"

static double turn_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void turn_job_end(bench_turn_job *j, const char *why)
{
    if (why)
        bench_note("%s: FAIL: %s; its rows are left out", j->name, why);
    j->failed |= why != NULL;
    if (j->go >= 0)
        close(j->go);
    if (j->done >= 0)
        close(j->done);
    j->go = j->done = -1;
    if (j->pid > 0 && why)
        caf_stop(j->pid);
    if (why)
        j->pid = -1;
}

/* The FIFOs, opened as the program opens them (go, then done): done first
 * here, without waiting, then go as soon as the job has opened it. */
static int turn_job_connect(bench_turn_job *j)
{
    j->done = open(j->done_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    double end = turn_now() + BENCH_TURN_START_S;
    while (j->done >= 0 && turn_now() < end) {
        j->go = open(j->go_path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (j->go >= 0)
            return fcntl(j->go, F_SETFL, 0) == 0 ? 0 : -1; /* blocking writes */
        if (errno != ENXIO || waitpid(j->pid, NULL, WNOHANG) == j->pid) {
            j->pid = -1;
            return -1;
        }
        bench_progress_tick();
        usleep(10000);
    }
    return -1;
}

int bench_turn_job_start(bench_turn_job *j, const char *name, const char *const *argv, int readers,
                         size_t nsamples)
{
    memset(j, 0, sizeof *j);
    j->go = j->done = -1;
    j->pid = -1;
    j->readers = readers;
    snprintf(j->name, sizeof j->name, "%s", name);
    if (!(j->us = calloc(nsamples ? nsamples : 1, sizeof *j->us))) {
        bench_note("%s: FAIL: no memory for its samples", j->name);
        j->failed = 1;
        return -1;
    }
    snprintf(j->dir, sizeof j->dir, "/tmp/orma-turns-XXXXXX");
    if (!mkdtemp(j->dir)) {
        bench_note("%s: FAIL: no directory for its FIFOs: %s", j->name, strerror(errno));
        j->failed = 1;
        return -1;
    }
    char d[sizeof j->dir]; /* a copy: the compiler cannot tell the fields apart */
    memcpy(d, j->dir, sizeof d);
    snprintf(j->go_path, sizeof j->go_path, "%s/go", d);
    snprintf(j->done_path, sizeof j->done_path, "%s/done", d);
    snprintf(j->out_path, sizeof j->out_path, "%s/out", d);
    const char *args[36];
    int n = 0;
    while (argv[n] && n < 32) {
        args[n] = argv[n];
        n++;
    }
    args[n++] = j->go_path;
    args[n++] = j->done_path;
    args[n] = NULL;
    int out = open(j->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out < 0 || mkfifo(j->go_path, 0600) || mkfifo(j->done_path, 0600) || (j->pid = caf_start(args, out)) <= 0) {
        bench_note("%s: FAIL: the job could not be started: %s", j->name, strerror(errno));
        j->failed = 1;
    }
    if (out >= 0)
        close(out);
    if (!j->failed && turn_job_connect(j))
        turn_job_end(j, "the job ended or did not start within 120 s");
    return j->failed ? -1 : 0;
}

static int turn_job_give(bench_turn_job *j, double limit_s)
{
    if (j->go < 0)
        return -1;
    char g[64];
    int n = j->readers < (int)sizeof g ? j->readers : (int)sizeof g;
    memset(g, 'g', (size_t)n);
    if (write(j->go, g, (size_t)n) != n) {
        turn_job_end(j, "the job stopped taking its turns (it ended: see above)");
        return -1;
    }
    struct pollfd pf = {.fd = j->done, .events = POLLIN};
    int k;
    while ((k = poll(&pf, 1, (int)(limit_s * 1000))) < 0 && errno == EINTR)
        ;
    char c = 0;
    if (k <= 0) {
        turn_job_end(j, "a batch did not end within its time (a call hangs?)");
        return -1;
    }
    if (read(j->done, &c, 1) != 1 || c != 'd') {
        turn_job_end(j, "the job stopped taking its turns (it ended: see above)");
        return -1;
    }
    return 0;
}

void bench_turn_jobs_give(bench_turn_job *jobs, int n, int round, int after, double limit_s)
{
    int place = (round < 0 ? 0 : round) % (n + 1);
    for (int i = 0; i < n; i++)
        if (jobs[i].go >= 0 && (i < place) == !after)
            turn_job_give(&jobs[i], limit_s);
}

/* A note or a failure a job's line says; 1 when it was one. */
static int turn_job_note(bench_turn_job *j, const char *line)
{
    if (strncmp(line, "fail ", 5) && strncmp(line, "note ", 5))
        return 0;
    j->failed |= line[0] == 'f';
    bench_note("%s: %s%.*s", j->name, line[0] == 'f' ? "FAIL: " : "", (int)strcspn(line + 5, "\n"), line + 5);
    return 1;
}

struct turn_reading {
    bench_turn_job *j;
    bench_turn_read_fn read;
    const void *plan;
};

static void turn_job_read(struct turn_reading *r)
{
    FILE *f = fopen(r->j->out_path, "r");
    char text[512];
    while (f && fgets(text, sizeof text, f))
        if (!r->read(r->plan, text, r->j->us))
            turn_job_note(r->j, text);
    if (f)
        fclose(f);
}

static int turn_job_finish(struct turn_reading *r)
{
    bench_turn_job *j = r->j;
    int live = j->go >= 0;
    turn_job_end(j, NULL); /* its go FIFO closed: the job checks and ends */
    int status = 0, reaped = 0;
    double end = turn_now() + BENCH_TURN_START_S;
    while (live && j->pid > 0 && !reaped && turn_now() < end) {
        reaped = waitpid(j->pid, &status, WNOHANG) == j->pid;
        bench_progress_tick();
        if (!reaped)
            usleep(20000);
    }
    if (live && j->pid > 0 && !reaped)
        caf_stop(j->pid);
    if (live && j->pid > 0 && !(reaped && WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        bench_note("%s: FAIL: the MPI job %s (a call failed or data did not verify: see above); its rows are left "
                   "out",
                   j->name, !reaped ? "did not end within 120 s" : WIFEXITED(status) ? "ended with an error status"
                                                                               : "was killed by a signal");
        j->failed = 1;
        j->pid = -1;
    } else if (live) {
        turn_job_read(r);
    }
    if (!live)
        j->failed = 1;
    unlink(j->go_path);
    unlink(j->done_path);
    unlink(j->out_path);
    rmdir(j->dir);
    return j->failed ? -1 : 0;
}

static void (*turn_old_pipe)(int);

void bench_turn_jobs_begin(void)
{
    turn_old_pipe = signal(SIGPIPE, SIG_IGN);
}

int bench_turn_jobs_finish(bench_turn_job *jobs, int n, bench_turn_read_fn read, const void *plan)
{
    int st = 0;
    for (int i = 0; i < n; i++) {
        struct turn_reading r = {&jobs[i], read, plan};
        st |= turn_job_finish(&r);
    }
    if (turn_old_pipe != NULL && turn_old_pipe != SIG_ERR)
        signal(SIGPIPE, turn_old_pipe);
    turn_old_pipe = NULL;
    return st;
}

void bench_turn_jobs_free(bench_turn_job *jobs, int n)
{
    for (int i = 0; i < n; i++) {
        free(jobs[i].us);
        jobs[i].us = NULL;
    }
}
