/* pingpong.h -- the pingpong suite: round trips between 2 ranks.
 *
 * Ops (--op): put, get (orma, on every window of windows.h, in every
 * synchronization mode of --sync: fence, pscw, lock, lock_all, flush), the
 * accumulate family acc, gacc, fop, cas (the same, only when --op names
 * them; pp_loop.h) and the floors cacheline, memcpy, cma, xcopy, cma_rt
 * (floor.h) that the orma numbers are judged against; the summary prints the ratios of the
 * project's bar and, beside them, those against the same-pattern floors. */
#ifndef BENCH_PINGPONG_H
#define BENCH_PINGPONG_H

#include "bench.h"

int bench_pingpong_run(const bench_ctx *ctx);

/* Round trips of op (a pp_op name) on one window kind, every size that
 * suits op and selected synchronization mode (pp_orma.c, pp_loop.h).  Returns a BENCH_* status,
 * the same on both ranks. */
int pp_orma_series(const bench_ctx *ctx, const char *op, const char *kind);

/* The bar's ratios from this run's results (pp_summary.c); rank 0 prints. */
void pp_summary(const bench_ctx *ctx);

/* The 8-byte round trips per synchronization mode against the cache-line
 * floor, and their bars (pp_sync_summary.c); rank 0 prints.  Returns the
 * number of lines printed. */
int pp_sync_summary(const bench_ctx *ctx);

#endif
