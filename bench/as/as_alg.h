/* as_alg.h -- the as suite's insides, shared by its frame (as_alg.c:
 * areas, samples, points, the run) and its tests (as_tests.c).  Written
 * against li.h alone; the data and its check are as_def.h's.
 *
 * A test is a superstep repeated: its one-sided version communicates with
 * put and ends with sync on the area, its two-sided one posts its irecvs,
 * sends, waits for them all and ends with barrier.  A repetition's seq
 * (s->seq, then s->seq + 1, ...) is the same on every rank and makes its
 * words fresh (as_def.h). */
#ifndef BENCH_AS_ALG_H
#define BENCH_AS_ALG_H

#include <stddef.h>
#include <stdint.h>

#include "li.h"

typedef struct as_state as_state;

/* One test: its op name (the rows'); its timed repetitions, reps of them,
 * seq advancing by one each, on a one-sided and on a two-sided backend;
 * prepare, if not NULL, runs before each sample, untimed (fills what the
 * sample sends); expect, if not NULL, writes into s->want what the sample
 * changed in this rank's area; sent[] the words a rank sends per
 * repetition, sent[0] + sent[1] x P + sent[2] x h x P (its MB/s); xchg is
 * 1 for the total exchange (a point per size), 0 for the fixed tests (one
 * point each, the layout of h = 1). */
typedef struct as_test {
    const char *op;
    void (*one_sided)(as_state *s, long reps);
    void (*two_sided)(as_state *s, long reps);
    void (*prepare)(as_state *s);
    void (*expect)(as_state *s);
    int sent[3];
    int xchg;
} as_test;

struct as_state {
    li_lib *l;
    int me, p;
    li_area area;        /* one-sided */
    uint32_t *mem;       /* the area: area.base, or the two-sided buffer */
    uint32_t *want;      /* what mem must hold */
    size_t words;        /* of mem and want */
    uint32_t *send;      /* p x hmax words: segment d goes to rank d */
    size_t h;            /* words per pair of the current point */
    const as_test *test; /* of the current point */
    long reps;           /* repetitions per sample */
    uint64_t seq;        /* repetitions made, the same on every rank */
    uint64_t first;      /* seq of the current sample's first repetition */
    volatile uint32_t comp; /* the comp test's value */
    int ok;              /* every sample of the point verified here */
};

/* The tests, in the order they run (as_tests.c). */
extern const as_test as_tests[];
extern const size_t as_ntests;

#endif
