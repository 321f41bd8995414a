/* nt_suite.h -- orma-bench notify (nt_def.h): its entry, and what its
 * files share inside orma-bench. */
#ifndef BENCH_NT_SUITE_H
#define BENCH_NT_SUITE_H

#include "bench.h"
#include "nt_run.h"
#include "turns.h"

int bench_notify_run(const bench_ctx *ctx);

/* The MPI backends' jobs (nt_jobs.c), on rank 0: per host MPI whose
 * program, library and mpirun are found, one job with mpi-rma (kind flag)
 * and mpi-p2p (kind p2p) of --backends, and one with liborma-mpi
 * preloaded for orma-mpi (kind notify), started before orma's schedule
 * and given their turns in it (nt_jobs_turn); ended and read after it. */
#define NT_MAX_JOBS 4
typedef struct nt_jobs {
    bench_turn_job job[NT_MAX_JOBS]; /* us nt_at's */
    const char *variant[NT_MAX_JOBS];
    int preloaded[NT_MAX_JOBS];      /* 1: orma-mpi's job */
    int n;
} nt_jobs;
void nt_jobs_start(const bench_ctx *ctx, const nt_plan *p, nt_jobs *jobs);
void nt_jobs_turn(nt_jobs *jobs, int round, int after);
/* 0, or -1 when a job failed or its data did not verify (noted). */
int nt_jobs_finish(const nt_plan *p, nt_jobs *jobs);
void nt_jobs_free(nt_jobs *jobs);

/* orma's side (nt_orma.c), collective: the schedule on orma's kinds --
 * floor, notify, flag in pingpong and pipeline, fence, pscw, lock, notify
 * in ghost, those of --sync when orma is in --backends -- taking turns
 * with jobs (rank 0's; NULL or none: no turns).  samples (nt_at) at rank
 * 0.  0, or -1 when data did not verify (the same on every rank). */
int nt_orma_run(const bench_ctx *ctx, const nt_plan *p, int orma_on, nt_jobs *jobs, double *samples);

/* A series of this run's samples: a program's kind, under the name of
 * the backend that measured it. */
typedef struct nt_series {
    const char *backend;  /* "orma", "floor", "mpi-rma/openmpi", ... */
    const char *variant;  /* the host MPI, NULL for orma-bench's own */
    int kind;
    const double *us;     /* nt_at */
} nt_series;

/* Rank 0: the rows of every series, then the tables, ratios and the
 * issue's bars (nt_summary.c).  The bars do not change the exit
 * status. */
void nt_rows(const bench_ctx *ctx, const nt_plan *p, const nt_series *s, int n);
void nt_summary(const bench_ctx *ctx, const nt_plan *p, const nt_series *s, int n);

/* The rows' op, sync and window of a series at part. */
const char *nt_row_sync(int kind);
const char *nt_row_window(int kind);

#endif
