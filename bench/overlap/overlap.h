/* overlap.h -- the suite "overlap": does a target that computes, never
 * calling orma, delay passive-target puts and gets?  2 ranks
 * (overlap.c, overlap_phase.c). */
#ifndef BENCH_OVERLAP_H
#define BENCH_OVERLAP_H

#include "bench.h"

int bench_overlap_run(const bench_ctx *ctx);

#endif
