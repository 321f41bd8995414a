/* mt_jobs.c -- the mt suite's MPI backends as jobs that run beside orma's
 * measurement and take turns with it, slot by slot (mt_suite.h): rank 0
 * starts every job at once (the MPI program under each host MPI's mpirun,
 * alone and with liborma-mpi preloaded), then, in every slot of the
 * schedule, hands each job the turn through a FIFO ("g") and waits until
 * its batch is done ("d").  A job waiting for its turn sleeps in read(),
 * its target in a sleeping barrier, so a batch has the cores to itself
 * but for a millisecond tick per sleeping target; and every backend's
 * batch of a slot runs within a few tens of milliseconds of the others',
 * so that the ratios between backends are paired as the scaling ratios
 * are, rather than taken between jobs minutes apart on a machine whose
 * speed changes by the minute. */
#include "mt_suite.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "caf_launch.h"
#include "pp_mpi.h"
#include "progress.h"
#include "report.h"

/* How long a job may take to start (mpirun, MPI_Init, the windows), and
 * to answer a turn beyond its batch's cap. */
#define MT_JOB_START_S 120.0
#define MT_JOB_TURN_S 20.0

static void mt_job_end(mt_job *j, const char *why)
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
static int mt_job_connect(mt_job *j)
{
    j->done = open(j->done_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    double end = mt_now_s() + MT_JOB_START_S;
    while (j->done >= 0 && mt_now_s() < end) {
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

/* One job of backend family pre (0: mpi-rma, 1: orma-mpi) on variant v. */
static void mt_job_start(const bench_ctx *ctx, const mt_plan *p, const char *dir, const pp_mpi_variant *v, int pre,
                         mt_jobs *jobs)
{
    mt_job *j = &jobs->job[jobs->n];
    memset(j, 0, sizeof *j);
    j->go = j->done = -1;
    snprintf(j->name, sizeof j->name, "%s/%s", pre ? "orma-mpi" : "mpi-rma", v->name);
    caf_backend b;
    if (caf_backend_mpi(ctx, dir, v, "orma-bench-mt-mpi", pre, &b) != 0) {
        bench_note("%s skipped: orma-bench-mt-mpi-%s, liborma-mpi or mpirun.%s not found", j->name, v->name,
                   v->name);
        return;
    }
    snprintf(j->dir, sizeof j->dir, "/tmp/orma-mt-XXXXXX");
    if (!mkdtemp(j->dir))
        return;
    char d[sizeof j->dir]; /* a copy: the compiler cannot tell the fields apart */
    memcpy(d, j->dir, sizeof d);
    snprintf(j->go_path, sizeof j->go_path, "%s/go", d);
    snprintf(j->done_path, sizeof j->done_path, "%s/done", d);
    snprintf(j->out_path, sizeof j->out_path, "%s/out", d);
    int out = open(j->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    j->us = calloc(mt_nsamples(p), sizeof *j->us);
    char args[6][64];
    mt_plan_format(p, args);
    const char *argv[40];
    int n = 0;
    for (int i = 0; i < b.argc; i++)
        argv[n++] = b.argv[i];
    for (int i = 0; i < 6; i++)
        argv[n++] = args[i];
    argv[n++] = j->go_path;
    argv[n++] = j->done_path;
    argv[n] = NULL;
    if (out < 0 || !j->us || mkfifo(j->go_path, 0600) || mkfifo(j->done_path, 0600) ||
        (j->pid = caf_start(argv, out)) <= 0) {
        bench_note("%s: FAIL: the job could not be started: %s", j->name, strerror(errno));
        j->failed = 1;
    }
    if (out >= 0)
        close(out);
    jobs->n++;
    if (!j->failed && mt_job_connect(j))
        mt_job_end(j, "the job ended or did not start within 120 s");
}

void mt_jobs_start(const bench_ctx *ctx, const mt_plan *p, mt_jobs *jobs)
{
    memset(jobs, 0, sizeof *jobs);
    jobs->batch_s = p->batch_s;
    char dir[PATH_MAX];
    if (!ctx->opts->backends || pp_exe_dir(dir, sizeof dir) != 0)
        return;
    /* a job that dies leaves its FIFO without a reader: a write then
     * fails with EPIPE, which is handled, not a signal that ends us */
    jobs->old_pipe = signal(SIGPIPE, SIG_IGN);
    bench_progress_status("mt: starting the MPI jobs");
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name; v++)
        for (int pre = 0; pre < 2 && jobs->n < MT_MAX_JOBS; pre++)
            if (bench_list_has(ctx->opts->backends, pre ? "orma-mpi" : "mpi-rma"))
                mt_job_start(ctx, p, dir, v, pre, jobs);
}

/* Job j's batch of this slot: "g", then its "d". */
static void mt_job_turn(mt_job *j, double limit)
{
    char c = 'g';
    if (write(j->go, &c, 1) != 1) {
        mt_job_end(j, "the job stopped taking its turns (it ended: see above)");
        return;
    }
    struct pollfd pf = {.fd = j->done, .events = POLLIN};
    int k;
    while ((k = poll(&pf, 1, (int)(limit * 1000))) < 0 && errno == EINTR)
        ;
    if (k <= 0) {
        mt_job_end(j, "a batch did not end within its time (a call hangs?)");
        return;
    }
    if (read(j->done, &c, 1) != 1 || c != 'd')
        mt_job_end(j, "the job stopped taking its turns (it ended: see above)");
}

int mt_jobs_turn(void *arg, int round, int after)
{
    mt_jobs *jobs = arg;
    /* orma's place among the backends rotates from round to round: jobs
     * before it take their turn before its batch, the others after */
    int place = (round < 0 ? 0 : round) % (jobs->n + 1);
    for (int i = 0; i < jobs->n; i++) {
        mt_job *j = &jobs->job[i];
        if (j->go >= 0 && (i < place) == !after)
            mt_job_turn(j, MT_JOB_TURN_S + 4 * jobs->batch_s);
    }
    return 0;
}

/* The job's lines: samples into j->us, notes and failures as notes. */
static void mt_job_read(const mt_plan *p, mt_job *j)
{
    FILE *f = fopen(j->out_path, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        if (mt_read_sample(p, line, j->us))
            continue;
        if (!strncmp(line, "fail ", 5) || !strncmp(line, "note ", 5)) {
            j->failed |= line[0] == 'f';
            bench_note("%s: %s%.*s", j->name, line[0] == 'f' ? "FAIL: " : "", (int)strcspn(line + 5, "\n"),
                       line + 5);
        }
    }
    if (f)
        fclose(f);
}

int mt_jobs_finish(const mt_plan *p, mt_jobs *jobs)
{
    int st = 0;
    for (int i = 0; i < jobs->n; i++) {
        mt_job *j = &jobs->job[i];
        int live = j->go >= 0;
        mt_job_end(j, NULL); /* its go FIFO closed: the job checks and ends */
        int status = 0, reaped = 0;
        double end = mt_now_s() + MT_JOB_START_S;
        while (live && j->pid > 0 && !reaped && mt_now_s() < end) {
            reaped = waitpid(j->pid, &status, WNOHANG) == j->pid;
            bench_progress_tick();
            if (!reaped)
                usleep(20000);
        }
        if (live && j->pid > 0 && !reaped)
            caf_stop(j->pid);
        if (live && j->pid > 0 && !(reaped && WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
            bench_note("%s: FAIL: the MPI job %s (a call failed or data did not verify: see above); its rows are "
                       "left out",
                       j->name, !reaped ? "did not end within 120 s" : WIFEXITED(status) ? "ended with an error status"
                                                                                   : "was killed by a signal");
            j->failed = 1;
        } else if (live) {
            mt_job_read(p, j);
        }
        st |= j->failed ? -1 : 0;
        unlink(j->go_path);
        unlink(j->done_path);
        unlink(j->out_path);
        rmdir(j->dir);
    }
    if (jobs->old_pipe != NULL && jobs->old_pipe != SIG_ERR)
        signal(SIGPIPE, jobs->old_pipe);
    return st;
}

void mt_jobs_free(mt_jobs *jobs)
{
    for (int i = 0; i < jobs->n; i++)
        free(jobs->job[i].us);
    jobs->n = 0;
}
