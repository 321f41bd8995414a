/* latency.h -- the latency suite: OSU-style one-way latency of put, get
 * and accumulate (lat_def.h) between 2 ranks, per window flavour and
 * synchronization mode, on orma and -- through pingpong's MPI backends
 * machinery (pp_mpi.h) -- on the host MPIs' one-sided calls, on
 * liborma-mpi and as the send/recv reference; floors memcpy and cma; the
 * side-by-side tables and the summary with the bars (lat_summary.c). */
#ifndef BENCH_LATENCY_H
#define BENCH_LATENCY_H

#include "bench.h"
#include "pp_def.h"

int bench_latency_run(const bench_ctx *ctx);

/* orma's points of op (PP_PUT, PP_GET, PP_ACC) on one window flavour,
 * every size and selected mode (lat_orma.c).  A BENCH_* status, the same
 * on both ranks. */
int lat_orma_series(const bench_ctx *ctx, pp_op op, const char *kind);

/* The summary (lat_summary.c); rank 0 prints. */
void lat_summary(const bench_ctx *ctx);

#endif
