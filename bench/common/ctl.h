/* ctl.h -- the control channel: small agreements between the ranks outside
 * the windows being measured (the repetition count rank 0 chose, whether
 * every rank verified its data, addresses for dynamic windows and CMA).
 *
 * It is a tiny orma_win_allocate_shared window read and written with C11
 * atomics, each call costing one orma_barrier.  Every call is collective:
 * all ranks make the same calls in the same order. */
#ifndef BENCH_CTL_H
#define BENCH_CTL_H

#include <stdint.h>

#include "bench.h"

int bench_ctl_open(bench_ctl **ctl_p);   /* collective; 0 or -1 */
void bench_ctl_close(bench_ctl **ctl_p); /* collective */

/* Every rank contributes mine; returns the value of rank from. */
uint64_t bench_ctl_exchange(bench_ctl *ctl, uint64_t mine, int from);

/* Rank 0's v, on every rank. */
uint64_t bench_ctl_bcast(bench_ctl *ctl, uint64_t v);

/* The largest v of all ranks, on every rank. */
uint64_t bench_ctl_max(bench_ctl *ctl, uint64_t v);

/* 1 on every rank when ok is non-zero on every rank, else 0. */
int bench_ctl_all_ok(bench_ctl *ctl, int ok);

#endif
