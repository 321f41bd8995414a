/* ghost.h -- the ghost suite: seed 004's nearest-neighbour ghost-area
 * exchange on a periodic 2-D grid of P ranks, in point-to-point
 * (isend/irecv, the MPI backends only) and one-sided versions (put with
 * fence, PSCW or lock; orma's notified put), at the sizes of seed 004's
 * Table 1, and the table of one-sided / point-to-point time ratios.  What a step is, its data and
 * how it is timed: ghost_def.h. */
#ifndef BENCH_GHOST_H
#define BENCH_GHOST_H

#include "bench.h"
#include "ghost_def.h"

int bench_ghost_run(const bench_ctx *ctx);

/* The orma backend's points (ghost_orma.c): every size and selected
 * one-sided mode.  Collective; a BENCH_* status, the same on every rank. */
int ghost_orma_run(const bench_ctx *ctx);

/* orma's versions a batch at a time, for a suite whose backends take
 * turns (notify): the windows (collective, every call too), a point of n
 * bytes begun (areas reset, checks armed), a batch of iters steps of mode
 * m (ghost_batch_fn's: data, barrier, timed steps, check; the slowest
 * rank's seconds), and whether every batch of m since the point began
 * verified on every rank (rank 0 says which did not). */
typedef struct ghost_orma ghost_orma;
ghost_orma *ghost_orma_open(const bench_ctx *ctx, size_t max);
/* ghost_orma_open with both windows checked for races when race is
 * non-zero (info orma_check_race=true at their creation: the race
 * suite). */
ghost_orma *ghost_orma_open_race(const bench_ctx *ctx, size_t max, int race);
void ghost_orma_close(ghost_orma *s);
void ghost_orma_begin(ghost_orma *s, size_t n);
double ghost_orma_batch(ghost_orma *s, ghost_sync m, long iters, uint64_t batch);
int ghost_orma_ok(ghost_orma *s, ghost_sync m);
/* ghost_orma_batch as a ghost_batch_fn, arg a ghost_orma_mode. */
typedef struct ghost_orma_mode {
    ghost_orma *s;
    ghost_sync m;
} ghost_orma_mode;
double ghost_orma_batch_fn(void *arg, long iters, uint64_t batch);

/* The times and ratio tables of this run, and the bar (ghost_summary.c);
 * rank 0 prints. */
void ghost_summary(const bench_ctx *ctx);

#endif
