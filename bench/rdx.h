/* rdx.h -- the rdx suite: seed 003's parallel radix sort with put-based
 * routing (section 5, Figs. 9 and 10) and its send version, written once
 * against li.h (rdx_alg.c, the li suite li_rdx) and run on every backend;
 * its arithmetic and check: rdx_def.h. */
#ifndef BENCH_RDX_H
#define BENCH_RDX_H

#include "bench.h"
#include "li.h"

/* The algorithm, on any backend (both programs). */
extern const li_suite li_rdx;

/* orma-bench only.  The sequential reference (rdx_seq.c): rank 0 sorts
 * each n keys alone with the same count sorts, rows of backend "seq", op
 * "sort", sync and window "none", p = 1.  Collective; a BENCH_* status,
 * the same on every rank. */
int rdx_seq_run(const bench_ctx *ctx);

/* The times, speedups and one-sided / two-sided ratios of this run
 * (rdx_summary.c); rank 0 prints. */
void rdx_summary(const bench_ctx *ctx);

#endif
