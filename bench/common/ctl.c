/* ctl.c -- see ctl.h.
 *
 * Each rank owns two slots and call k writes slot k % 2.  A rank writes
 * slot k % 2 again only in call k + 2, after the barrier of call k + 1,
 * which every rank enters only once done reading call k: so one barrier
 * per call is enough.  Release stores and acquire loads order the slot
 * against the barrier. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include <orma.h>

#include "check.h"
#include "ctl.h"

struct bench_ctl {
    orma_win win;
    int size;
    int rank;
    unsigned long calls;
    _Atomic uint64_t **slots; /* slots[r][0..1]: rank r's two slots */
    uint64_t *all;            /* the last call's values, by rank */
};

int bench_ctl_open(bench_ctl **ctl_p)
{
    bench_ctl *c = bench_xmalloc(sizeof *c);
    c->size = orma_size();
    c->rank = orma_rank();
    c->calls = 0;
    void *base;
    /* 64 bytes: one cache line per rank, so the slots of different ranks
     * never share a line. */
    int rc = orma_win_allocate_shared(64, 1, ORMA_INFO_NULL, &base, &c->win);
    if (rc != ORMA_SUCCESS) {
        fprintf(stderr, "orma-bench: rank %d: control window: %s: %s\n",
                c->rank, orma_strerror(rc), orma_error_message());
        free(c);
        return -1;
    }
    c->slots = bench_xmalloc((size_t)c->size * sizeof *c->slots);
    c->all = bench_xmalloc((size_t)c->size * sizeof *c->all);
    for (int r = 0; r < c->size; r++) {
        size_t sz;
        int unit;
        void *b;
        BENCH_CHECK(orma_win_shared_query(c->win, r, &sz, &unit, &b));
        c->slots[r] = b;
    }
    atomic_store_explicit(&c->slots[c->rank][0], 0, memory_order_relaxed);
    atomic_store_explicit(&c->slots[c->rank][1], 0, memory_order_relaxed);
    BENCH_CHECK(orma_barrier());
    *ctl_p = c;
    return 0;
}

void bench_ctl_close(bench_ctl **ctl_p)
{
    bench_ctl *c = *ctl_p;
    if (c == NULL)
        return;
    BENCH_CHECK(orma_win_free(&c->win));
    free(c->slots);
    free(c->all);
    free(c);
    *ctl_p = NULL;
}

static void gather(bench_ctl *c, uint64_t mine)
{
    unsigned k = (unsigned)(c->calls++ & 1);
    atomic_store_explicit(&c->slots[c->rank][k], mine, memory_order_release);
    BENCH_CHECK(orma_barrier());
    for (int r = 0; r < c->size; r++)
        c->all[r] = atomic_load_explicit(&c->slots[r][k], memory_order_acquire);
}

uint64_t bench_ctl_exchange(bench_ctl *c, uint64_t mine, int from)
{
    gather(c, mine);
    return c->all[from];
}

uint64_t bench_ctl_bcast(bench_ctl *c, uint64_t v)
{
    return bench_ctl_exchange(c, v, 0);
}

uint64_t bench_ctl_max(bench_ctl *c, uint64_t v)
{
    gather(c, v);
    uint64_t m = 0;
    for (int r = 0; r < c->size; r++)
        if (c->all[r] > m)
            m = c->all[r];
    return m;
}

int bench_ctl_all_ok(bench_ctl *c, int ok)
{
    gather(c, ok != 0);
    for (int r = 0; r < c->size; r++)
        if (c->all[r] == 0)
            return 0;
    return 1;
}
