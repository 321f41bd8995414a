/* bsp_coll.h -- the few agreements orma-bench's BSPlib code needs (the
 * li.h backend "bsp", li_bsp.h, and the bspbench suite), made with
 * BSPlib calls alone: a registered array of one 64-bit slot per process,
 * filled with buffered bsp_put and read after a bsp_sync.  Each call is
 * one superstep, collective: every process makes the same calls in the
 * same order, between bsp_begin and bsp_end. */
#ifndef BENCH_BSP_COLL_H
#define BENCH_BSP_COLL_H

#include <stdint.h>

typedef struct bench_bsp_coll {
    uint64_t *slot; /* nprocs slots, registered */
    int pid, nprocs;
} bench_bsp_coll;

/* Registers the slots (bsp_push_reg, bsp_sync); after bsp_begin. */
void bench_bsp_coll_open(bench_bsp_coll *c);
/* Unregisters them (bsp_pop_reg, bsp_sync); before bsp_end. */
void bench_bsp_coll_close(bench_bsp_coll *c);

/* The largest v of all processes, on every process (infinities
 * included; no NaN). */
double bench_bsp_max(bench_bsp_coll *c, double v);

/* Process 0's v, on every process. */
long bench_bsp_bcast(bench_bsp_coll *c, long v);

/* 1 on every process when ok is non-zero on every process, else 0. */
int bench_bsp_all_ok(bench_bsp_coll *c, int ok);

#endif
