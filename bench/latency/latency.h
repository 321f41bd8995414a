/* latency.h -- the latency suite: OSU-style one-way latency of put, get
 * and accumulate (lat_def.h) between 2 ranks, per window flavour and
 * synchronization mode, on orma and -- through pingpong's MPI backends
 * machinery (pp_mpi.h) -- on the host MPIs' one-sided calls, on
 * liborma-mpi and as the send/recv reference; floors memcpy and cma; the
 * side-by-side tables and the summary with the bars (lat_summary.c). */
#ifndef BENCH_LATENCY_H
#define BENCH_LATENCY_H

#include <sched.h>

#include "bench.h"
#include "lat_rma.h"
#include "pp_def.h"
#include "pp_mpi.h"

int bench_latency_run(const bench_ctx *ctx);

/* Shared with the multiput suite, which runs the same loops:
 *   lat_check_job: 2 ranks, and --backends, --window, --op, --sync among
 *     the names of ax (pp_backend_names, ax); 0, or -1 after rank 0 said
 *     what is wrong;
 *   lat_pin_ranks: pin ranks 0 and 1 to a CPU each (bind.h) and note it;
 *     *saved for bench_bind_restore before the MPI jobs start. */
int lat_check_job(const bench_ctx *ctx, const pp_mpi_axes *ax);
void lat_pin_ranks(const bench_ctx *ctx, cpu_set_t *saved);

/* orma's points of op (PP_PUT, PP_GET, PP_ACC) on one window flavour, in
 * the order of series: lat_rma_series (every size and selected mode), or
 * the multiput suite's (lat_orma.c).  A BENCH_* status, the same on both
 * ranks. */
int lat_orma_series(const bench_ctx *ctx, pp_op op, const char *kind,
                    lat_rma_series_fn series);

/* The summary (lat_summary.c); rank 0 prints. */
void lat_summary(const bench_ctx *ctx);

#endif
