/* race.h -- orma-bench race: what the race checker (ORMA_CHECK=race, or
 * the window info key orma_check_race) costs the ghost and pingpong
 * suites' orma versions, measured paired in one job.
 *
 * Every series runs twice over, on two sets of windows made side by side:
 * one with info orma_check_race=true at its creation (checked, backend
 * "orma-race"), one without (unchecked, backend "orma").  A point (part,
 * size, mode) has a calibration -- each side finds the batch length that
 * lasts ghost_batch_seconds() -- then rounds: in a round each side runs
 * one batch of its length, unchecked first in even rounds and checked
 * first in odd ones.  The ratio checked / unchecked is taken per round, of two
 * batches milliseconds apart, and the summary gives the median (min-max)
 * of the rounds' ratios.
 *
 * Parts (--op): ghost (the ghost suite's exchange, P ranks: fence, pscw,
 * lock, notify), put and get (the pingpong suite's round trips, 2 ranks:
 * fence, pscw, lock, lock_all, flush), on allocate windows; every batch
 * verifies its data as those suites do. */
#ifndef BENCH_RACE_H
#define BENCH_RACE_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

int bench_race_run(const bench_ctx *ctx);

enum { RACE_GHOST, RACE_PUT, RACE_GET, RACE_NPARTS };
extern const char *const race_part_names[]; /* --op, the rows' op */

/* The two sides of a point. */
enum { RACE_OFF, RACE_ON, RACE_NSIDES };
extern const char *const race_side_backends[]; /* "orma", "orma-race" */

/* A pingpong series of op (RACE_PUT, RACE_GET) on an allocate window of
 * max bytes, checked for races or not (race_pp.c).  Collective calls. */
typedef struct race_pp race_pp;
race_pp *race_pp_open(const bench_ctx *ctx, int part, size_t max, int checked, const char *syncs);
void race_pp_close(race_pp *r);
/* A point of n bytes in mode (pp_sync) begins: its data, its epochs. */
void race_pp_begin(race_pp *r, size_t n, int mode);
/* A batch of iters repetitions: its wall seconds (rank 0's, the same on
 * both ranks); *us gets the mean timed round trip in microseconds. */
double race_pp_batch(race_pp *r, long iters, double *us);
/* The point ends: 1 when every repetition since begin verified on both
 * ranks (rank 0 says which did not). */
int race_pp_end(race_pp *r);

#endif
