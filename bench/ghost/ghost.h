/* ghost.h -- the ghost suite: seed 004's nearest-neighbour ghost-area
 * exchange on a periodic 2-D grid of P ranks, in point-to-point
 * (isend/irecv, the MPI backends only) and one-sided versions (put with
 * fence, PSCW or lock), at the sizes of seed 004's Table 1, and the table
 * of one-sided / point-to-point time ratios.  What a step is, its data and
 * how it is timed: ghost_def.h. */
#ifndef BENCH_GHOST_H
#define BENCH_GHOST_H

#include "bench.h"
#include "ghost_def.h"

int bench_ghost_run(const bench_ctx *ctx);

/* The orma backend's points (ghost_orma.c): every size and selected
 * one-sided mode.  Collective; a BENCH_* status, the same on every rank. */
int ghost_orma_run(const bench_ctx *ctx);

/* The times and ratio tables of this run, and the bar (ghost_summary.c);
 * rank 0 prints. */
void ghost_summary(const bench_ctx *ctx);

#endif
