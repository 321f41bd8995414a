/* rdx.h -- the rdx suite on orma-bench's side: seed 003's parallel radix
 * sort (section 5, Figs. 9 and 10) is written once against li.h
 * (rdx_alg.c: li_rdx of li_suites.h, its arithmetic rdx_def.h); orma-bench
 * adds the sequential reference and the summary (rdx_summary, li_suite.h). */
#ifndef BENCH_RDX_H
#define BENCH_RDX_H

#include "bench.h"

/* The sequential reference (rdx_seq.c): rank 0 sorts each n keys alone
 * with the same count sorts; rows of backend "seq", op "sort", sync and
 * window "none", p = 1.  Collective (the other ranks wait); a BENCH_*
 * status, the same on every rank. */
int rdx_seq_run(const bench_ctx *ctx);

#endif
