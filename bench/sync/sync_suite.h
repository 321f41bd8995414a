/* sync_suite.h -- the suite "sync": the cost of an empty epoch of each
 * synchronization mode (fence, pscw, lock, lock_all, flush) and of
 * orma_barrier, at 1 to 4 ranks (sync_suite.c). */
#ifndef BENCH_SYNC_SUITE_H
#define BENCH_SYNC_SUITE_H

#include "bench.h"

int bench_sync_run(const bench_ctx *ctx);

#endif
