/* nt_jobs.c -- the notify suite's MPI backends as jobs beside orma's
 * ranks, taking turns with them round by round (nt_suite.h, turns.h):
 * per host MPI one job of the MPI program (orma-bench-mpi-<variant>
 * notify, mpi/mpib_notify.c) with the mpi-rma and mpi-p2p of --backends,
 * and one with liborma-mpi preloaded for orma-mpi, started by rank 0
 * before orma's schedule.  Every rank of a job reads
 * the turns (a byte each), so that none polls while another program's
 * batch runs. */
#include "nt_suite.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "caf_launch.h"
#include "pp_mpi.h"
#include "progress.h"
#include "report.h"

/* How long a job may take to answer a turn: its batches of a round
 * (milliseconds) and what its ranks' wake-up costs on a busy machine. */
#define NT_JOB_TURN_S 20.0

static void nt_job_start(const bench_ctx *ctx, const nt_plan *p, const char *dir, const pp_mpi_variant *v,
                         const char *backends, nt_jobs *jobs)
{
    char name[48];
    int pre = !strcmp(backends, "orma-mpi");
    snprintf(name, sizeof name, "%s/%s", strchr(backends, ',') ? "mpi-rma+mpi-p2p" : backends, v->name);
    caf_backend b;
    if (caf_backend_mpi(ctx, dir, v, "orma-bench-mpi", pre, &b) != 0) {
        bench_note("%s skipped: orma-bench-mpi-%s, mpirun.%s%s not found", name, v->name, v->name,
                   pre ? " or liborma-mpi" : "");
        return;
    }
    char args[NT_PLAN_ARGS][256];
    nt_plan_format(p, args);
    const char *argv[32];
    int n = 0;
    for (int i = 0; i < b.argc; i++)
        argv[n++] = b.argv[i];
    argv[n++] = "notify";
    for (int i = 0; i < NT_PLAN_ARGS; i++)
        argv[n++] = args[i];
    argv[n++] = backends;
    argv[n] = NULL;
    jobs->variant[jobs->n] = v->name;
    jobs->preloaded[jobs->n] = pre;
    bench_turn_job_start(&jobs->job[jobs->n++], name, argv, ctx->size, nt_nsamples(p));
}

void nt_jobs_start(const bench_ctx *ctx, const nt_plan *p, nt_jobs *jobs)
{
    memset(jobs, 0, sizeof *jobs);
    const char *o = ctx->opts->backends ? ctx->opts->backends : "orma";
    int two = p->parts[NT_PINGPONG] || p->parts[NT_PIPELINE];
    int rma = bench_list_has(o, "mpi-rma") && p->kinds[NT_FLAG] && two;
    int p2p = bench_list_has(o, "mpi-p2p") && p->kinds[NT_P2P];
    int xn = bench_list_has(o, "orma-mpi") && p->kinds[NT_NOTIFY] && two;
    if (bench_list_has(o, "orma-mpi") && p->parts[NT_GHOST])
        bench_note("orma-mpi: pingpong and pipeline only (the ghost exchange's MPI version has no notified puts)");
    char dir[PATH_MAX];
    if (!(rma || p2p || xn) || pp_exe_dir(dir, sizeof dir) != 0)
        return;
    bench_turn_jobs_begin();
    bench_progress_status("notify: starting the MPI jobs");
    const char *backends = rma && p2p ? "mpi-rma,mpi-p2p" : rma ? "mpi-rma" : "mpi-p2p";
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name && jobs->n + 2 <= NT_MAX_JOBS; v++) {
        if (rma || p2p)
            nt_job_start(ctx, p, dir, v, backends, jobs);
        if (xn)
            nt_job_start(ctx, p, dir, v, "orma-mpi", jobs);
    }
}

void nt_jobs_turn(nt_jobs *jobs, int round, int after)
{
    bench_turn_jobs_give(jobs->job, jobs->n, round, after, NT_JOB_TURN_S);
}

static int nt_job_sample(const void *plan, const char *line, double *us)
{
    return nt_read_sample(plan, line, us);
}

int nt_jobs_finish(const nt_plan *p, nt_jobs *jobs)
{
    return bench_turn_jobs_finish(jobs->job, jobs->n, nt_job_sample, p);
}

void nt_jobs_free(nt_jobs *jobs)
{
    bench_turn_jobs_free(jobs->job, jobs->n);
    jobs->n = 0;
}
