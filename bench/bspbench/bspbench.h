/* bspbench.h -- the suite "bspbench": the BSP parameters g and L of
 * BSPlib on orma (orma/bsp.h), measured as Bisseling's bspbench
 * (BSPedupack) measures them, written directly against BSPlib:
 *
 *   put, hpput  for each h of the run (0, then --sizes, words per
 *               process), every process sends h 8-byte words, one
 *               bsp_put (or bsp_hpput) per word, to the other processes
 *               cyclically (bspbench_def.h), then bsp_sync: one
 *               h-relation; rows per h, and least-squares lines t = L + g h
 *               in the summary;
 *   empty       bsp_sync with nothing to communicate, and beside it, in
 *               alternating samples, orma_win_fence(0) on a 64-byte
 *               orma_win_allocate window: an empty orma epoch, the
 *               reference of BSPlib's superstep;
 *   memcpy      the memcpy floor (floor.h), for g / g_memcpy.
 *
 * Every h-relation's data is checked word by word after every sample. */
#ifndef BENCH_BSPBENCH_H
#define BENCH_BSPBENCH_H

#include "bench.h"

int bench_bspbench_run(const bench_ctx *ctx);

/* Its summary (bspbench_summary.c), from this run's rows: rank 0 prints;
 * hs the h measured, n of them. */
void bspbench_summary(const bench_ctx *ctx, const size_t *hs, int n);

/* Its memcpy floor: 16 MB, as the as suite's. */
#define BB_MEMCPY_BYTES ((size_t)16 << 20)

#endif
