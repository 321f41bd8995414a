/* caf_native.h -- the caf suite's orma backend: the coarray program's one-
 * way put and its get (caf_bench.f90's pp put1 and get) as orma's own
 * calls, orma_put + orma_win_flush and orma_get + orma_win_flush, made by
 * rank 0 of this run towards rank 1, the anchor the coarray runtime is
 * measured against. */
#ifndef BENCH_CAF_NATIVE_H
#define BENCH_CAF_NATIVE_H

#include <stddef.h>

#include "bench.h"

#define CAF_NATIVE_SIZES 8

typedef struct caf_native caf_native;

/* Collective: the window (orma_win_allocate) the measurements use; 0, or -1
 * after a message. */
int caf_native_open(const bench_ctx *ctx, caf_native **n_p);

/* Rank 0, with rank 1 in the run: op "put1" or "get" at the sizes of the
 * coarray program's pp (bytes[i]), the median microseconds per operation
 * over batches (us[i]), for about seconds in all.  0, or -1 after a
 * message when a transfer did not verify or a call failed. */
int caf_native_run(caf_native *n, const char *op, double seconds, size_t bytes[CAF_NATIVE_SIZES],
                   double us[CAF_NATIVE_SIZES]);

void caf_native_close(caf_native **n_p); /* collective */

#endif
