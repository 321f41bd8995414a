/* mt_jobs.c -- the mt suite's MPI backends as jobs that run beside orma's
 * measurement and take turns with it, slot by slot (mt_suite.h, turns.h):
 * rank 0 starts every job at once (the MPI program under each host MPI's
 * mpirun, alone and with liborma-mpi preloaded), then, in every slot of
 * the schedule, hands each job the turn and waits until its batch is
 * done.  A job waiting for its turn sleeps in read(), its target in a
 * sleeping barrier, so a batch has the cores to itself but for a
 * millisecond tick per sleeping target. */
#include "mt_suite.h"

#include <stdio.h>
#include <string.h>

#include "caf_launch.h"
#include "pp_mpi.h"
#include "progress.h"
#include "report.h"

/* How long a job may take to answer a turn beyond its batch's cap. */
#define MT_JOB_TURN_S 20.0

/* One job of backend family pre (0: mpi-rma, 1: orma-mpi) on variant v. */
static void mt_job_start(const bench_ctx *ctx, const mt_plan *p, const char *dir, const pp_mpi_variant *v, int pre,
                         mt_jobs *jobs)
{
    char name[48];
    snprintf(name, sizeof name, "%s/%s", pre ? "orma-mpi" : "mpi-rma", v->name);
    caf_backend b;
    if (caf_backend_mpi(ctx, dir, v, "orma-bench-mt-mpi", pre, &b) != 0) {
        bench_note("%s skipped: orma-bench-mt-mpi-%s, liborma-mpi or mpirun.%s not found", name, v->name, v->name);
        return;
    }
    char args[6][64];
    mt_plan_format(p, args);
    const char *argv[32];
    int n = 0;
    for (int i = 0; i < b.argc; i++)
        argv[n++] = b.argv[i];
    for (int i = 0; i < 6; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    bench_turn_job_start(&jobs->job[jobs->n++], name, argv, 1, mt_nsamples(p));
}

void mt_jobs_start(const bench_ctx *ctx, const mt_plan *p, mt_jobs *jobs)
{
    memset(jobs, 0, sizeof *jobs);
    jobs->batch_s = p->batch_s;
    char dir[PATH_MAX];
    if (!ctx->opts->backends || pp_exe_dir(dir, sizeof dir) != 0)
        return;
    bench_turn_jobs_begin();
    bench_progress_status("mt: starting the MPI jobs");
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name; v++)
        for (int pre = 0; pre < 2 && jobs->n < MT_MAX_JOBS; pre++)
            if (bench_list_has(ctx->opts->backends, pre ? "orma-mpi" : "mpi-rma"))
                mt_job_start(ctx, p, dir, v, pre, jobs);
}

int mt_jobs_turn(void *arg, int round, int after)
{
    mt_jobs *jobs = arg;
    bench_turn_jobs_give(jobs->job, jobs->n, round, after, MT_JOB_TURN_S + 4 * jobs->batch_s);
    return 0;
}

static int mt_job_sample(const void *plan, const char *line, double *us)
{
    return mt_read_sample(plan, line, us);
}

int mt_jobs_finish(const mt_plan *p, mt_jobs *jobs)
{
    return bench_turn_jobs_finish(jobs->job, jobs->n, mt_job_sample, p);
}

void mt_jobs_free(mt_jobs *jobs)
{
    bench_turn_jobs_free(jobs->job, jobs->n);
    jobs->n = 0;
}
