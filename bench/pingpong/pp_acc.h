/* pp_acc.h -- the data of the accumulate-family pingpong ops and its
 * checks, for every backend.  The round trip is put's: rank 0 applies its
 * operand (a fresh pattern in its private send buffer) to the first n
 * bytes of rank 1's window; rank 1 applies the n bytes it received (its
 * window) to rank 0's window:
 *
 *   acc   accumulate, SUM on n/8 uint64:   W1 += D;  W0 += W1
 *   gacc  get_accumulate, the same, and each call returns the old target
 *         elements: rank 0 old W1, rank 1 old W0
 *   fop   fetch_and_op, SUM on one uint64, as gacc
 *   cas   compare_and_swap on one uint64, compare = the element the target
 *         is known to hold, so every swap succeeds: W1 = D; W0 = W1; each
 *         call returns the old element
 *
 * Word i (uint64, native order) of a linear pattern is c + d * i, modulo
 * 2^64.  uint64 SUM wraps exactly and the element-wise sum of two linear
 * patterns is linear, so both ranks know what each window holds after
 * every round trip without reading it: no reset between repetitions (the
 * windows are written afresh only when a point begins), and a wrong sum
 * anywhere in a point stays wrong at every later check. */
#ifndef BENCH_PP_ACC_H
#define BENCH_PP_ACC_H

#include <stddef.h>
#include <stdint.h>

#include "pp_def.h"

typedef struct pp_lin {
    uint64_t c, d;
} pp_lin;

/* A point's plan, the same on both ranks. */
typedef struct pp_acc {
    pp_op op;
    int me, peer;
    size_t n;        /* bytes of the point */
    pp_lin cur[2];   /* what rank r's window holds before the round trip */
    pp_lin next[2];  /* ... and after it */
    pp_lin add;      /* rank 0's operand (send) of this round trip */
    uint64_t cmp;    /* cas: this rank's compare value, read by the call */
} pp_acc;

/* Elements one call moves: 1 for fop and cas, n/8 for acc and gacc. */
size_t pp_acc_words(const pp_acc *a);

/* At the start of a point (a->op, me, peer, n set): this rank writes a
 * fresh pattern into its window's first words, then the first round trip
 * (repetition rep) is planned -- rank 0's operand written into send. */
void pp_acc_begin(pp_acc *a, uint64_t rep, void *window, void *send);

/* After each round trip on both ranks: plan repetition rep. */
void pp_acc_next(pp_acc *a, uint64_t rep, void *send);

/* Check this rank's window (unless NULL) against the plan, then the
 * elements its call returned into result (gacc, fop, cas).  1 when right;
 * else 0 with the first wrong element: "window" or "returned", its index,
 * the expected and the found value. */
int pp_acc_check(const pp_acc *a, const void *window, const void *result,
                 const char **what_p, size_t *i_p, uint64_t *want_p,
                 uint64_t *got_p);

#endif
