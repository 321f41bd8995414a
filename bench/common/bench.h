/* bench.h -- what the driver hands to a suite, and what a suite is.
 *
 * A suite is a row of the table in suites.c: a name, a one-line help and a
 * run function.  The driver has already joined the job, parsed the shared
 * options and opened the control window (ctl.h) and the result emitter
 * (report.h) when run is called; run returns a BENCH_* status that becomes
 * the exit status, and must return the same status on every rank. */
#ifndef BENCH_H
#define BENCH_H

#include "opts.h"

typedef struct bench_ctl bench_ctl;

typedef struct bench_ctx {
    const char *suite;      /* the suite's name, for the results */
    const bench_opts *opts;
    bench_ctl *ctl;
    int rank;
    int size;
} bench_ctx;

typedef struct bench_suite {
    const char *name;
    const char *help;
    int (*run)(const bench_ctx *ctx);
    int mpi_backends; /* takes --backends beyond orma (pp_mpi.h) */
} bench_suite;

/* The suite table (suites.c). */
const bench_suite *bench_suite_find(const char *name);
const bench_suite *bench_suite_at(int i); /* NULL past the end */

/* 1 when the suite name calls orma from several threads at once: the
 * driver joins the job with orma_init_thread(ORMA_THREAD_MULTIPLE) for it,
 * and with orma_init for every other suite, whose single-threaded numbers
 * must not pay for thread safety they do not use. */
int bench_suite_threads(const char *name);

#endif
