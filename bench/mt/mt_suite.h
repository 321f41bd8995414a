/* mt_suite.h -- orma-bench's mt suite (mt.h): its entry, and what its
 * files share inside orma-bench. */
#ifndef BENCH_MT_SUITE_H
#define BENCH_MT_SUITE_H

#include "bench.h"
#include "mt.h"

int bench_mt_run(const bench_ctx *ctx);

/* orma's own calls (mt_orma.c), collective over the 2 ranks: the samples
 * at rank 0 (mt_at).  0, or -1 when a call failed or data did not verify
 * on either rank (the same on both). */
int mt_orma_run(const bench_ctx *ctx, const mt_plan *p, int max_threads, double *samples);

/* A backend's rate(T) / rate(1), the rounds' own ratios (mt_suite.c keeps
 * them; mt_summary.c prints them). */
typedef struct mt_scale {
    char backend[48];
    int op, mode, threads;
    double min, median, max;
} mt_scale;

#define MT_MAX_SCALES 256
extern mt_scale mt_scales[MT_MAX_SCALES];
extern int mt_nscales;

/* The pattern column of a row: "t<T>" (static strings). */
const char *mt_threads_name(int threads);

/* Rank 0: the rates and ratios of every backend of this run, and the
 * issue's bars, as notes (mt_summary.c).  The bars do not change the exit
 * status. */
void mt_summary(const mt_plan *p);

#endif
