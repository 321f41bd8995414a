/* mt_suite.h -- orma-bench's mt suite (mt.h): its entry, and what its
 * files share inside orma-bench. */
#ifndef BENCH_MT_SUITE_H
#define BENCH_MT_SUITE_H

#include <limits.h>
#include <signal.h>
#include <sys/types.h>

#include "bench.h"
#include "mt.h"
#include "turns.h"

int bench_mt_run(const bench_ctx *ctx);

/* orma's own calls (mt_orma.c), collective over the 2 ranks: the samples
 * at rank 0 (mt_at); turn and turn_arg as mt_calls' (rank 0).  0, or -1
 * when a call failed or data did not verify on either rank (the same on
 * both). */
int mt_orma_run(const bench_ctx *ctx, const mt_plan *p, int max_threads, double *samples,
                int (*turn)(void *, int, int), void *turn_arg);

/* The MPI backends' jobs (mt_jobs.c), on rank 0: started together before
 * orma's run, given their turns through mt_jobs_turn (an mt_calls turn,
 * arg the mt_jobs), ended and read after it. */
#define MT_MAX_JOBS 4
typedef struct mt_jobs {
    bench_turn_job job[MT_MAX_JOBS]; /* name "mpi-rma/openmpi", us mt_at's */
    int n;
    double batch_s;
} mt_jobs;
void mt_jobs_start(const bench_ctx *ctx, const mt_plan *p, mt_jobs *jobs);
int mt_jobs_turn(void *arg, int round, int after);
/* 0, or -1 when a job failed, did not verify or did not get
 * MPI_THREAD_MULTIPLE (noted).  The samples stay until mt_jobs_free. */
int mt_jobs_finish(const mt_plan *p, mt_jobs *jobs);
void mt_jobs_free(mt_jobs *jobs);

/* A backend's samples, as the summary reads them. */
typedef struct mt_series {
    const char *name;
    const double *us; /* mt_at; 0: not measured */
} mt_series;

/* The pattern column of a row: "t<T>" (static strings). */
const char *mt_threads_name(int threads);

/* Rank 0: the rates and ratios of every backend of this run, and the
 * issue's bars, as notes (mt_summary.c); s[0] is orma's when orma ran.
 * The bars do not change the exit status. */
void mt_summary(const mt_plan *p, const mt_series *s, int n);

#endif
