/* multiput.h -- the multiput suite: one buffer as k = 1, 2, 4, 8, 16 puts
 * in one epoch (multiput_def.h), between 2 ranks, per synchronization mode
 * and window flavour, on orma and -- through the MPI backends machinery
 * (pp_mpi.h) -- on the host MPIs' one-sided calls, on liborma-mpi and with
 * one send/recv of the same bytes as the reference; then per backend, mode
 * and window the ratios time(k) / time(1) per size (multiput_summary.c). */
#ifndef BENCH_MULTIPUT_H
#define BENCH_MULTIPUT_H

#include "bench.h"

int bench_multiput_run(const bench_ctx *ctx);

/* The summary; rank 0 prints. */
void multiput_summary(const bench_ctx *ctx);

#endif
