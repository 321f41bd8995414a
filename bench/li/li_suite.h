/* li_suite.h -- orma-bench's driver of the suites written with li.h
 * (li_suites.h): the suites.c row of such a suite runs bench_li_run, which
 * finds it by name in the table of li_suite.c and
 *
 *   checks its options (--window allocate, --op and --sync against the
 *   suite's names, --backends orma, bsp, bsp-buffered, mpi-rma, mpi-p2p,
 *   orma-mpi) and sets its default --sizes;
 *   runs it on orma (li_orma.h) when --backends names orma (the default),
 *   each rank pinned to a CPU (bind.h; the MPI program pins its ranks
 *   alike);
 *   runs it on BSPlib (li_bsp.h) when --backends names bsp or
 *   bsp-buffered, both in one bsp_begin .. bsp_end, pinned alike;
 *   runs the MPI backends of --backends (pp_mpi.h: the MPI program runs the
 *   same suite on the host MPIs' one-sided calls, mpi-rma and, preloaded,
 *   orma-mpi, and on their two-sided calls, mpi-p2p);
 *   then the suite's summary, if it has one.
 *
 * A summary is collective (it may measure: rank 0 measures, the others
 * wait) and prints on rank 0; it returns a BENCH_* status, the same on
 * every rank. */
#ifndef BENCH_LI_SUITE_H
#define BENCH_LI_SUITE_H

#include "bench.h"
#include "li.h"

int bench_li_run(const bench_ctx *ctx);

/* The summaries (orma-bench only: they read this run's results). */
int as_summary(const bench_ctx *ctx);   /* as_summary.c */
int mult_summary(const bench_ctx *ctx); /* mult_summary.c */
int rdx_summary(const bench_ctx *ctx);  /* rdx_summary.c */

#endif
