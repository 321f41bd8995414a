/* rma_table.c -- window handles: index in the low half, a generation in the
 * high half, so that a freed handle (or a made-up value) is recognised.
 * Registering takes a lock (threads may create windows at once); looking up
 * takes none (rma_win_lookup): a grown table is a new array, published
 * after its entries, and the old ones are kept -- a thread may still be
 * reading one -- at most as much again as the table in all. */
#include "rma_box.h"
#include "util_status.h"

#include <pthread.h>
#include <stdlib.h>

_Atomic(struct rma_win *) *_Atomic rma_table;
_Atomic uint32_t rma_table_cap;
static uint32_t rma_next_gen = 1;
static pthread_mutex_t rma_table_mu = PTHREAD_MUTEX_INITIALIZER;
static void *rma_table_old[32]; /* the arrays grown out of (reachable, not leaked) */
_Atomic uint32_t rma_box_windows;

static int rma_table_grow(uint32_t cap)
{
    uint32_t old = atomic_load_explicit(&rma_table_cap, memory_order_relaxed);
    _Atomic(struct rma_win *) *from = atomic_load_explicit(&rma_table, memory_order_relaxed);
    _Atomic(struct rma_win *) *t = calloc(cap, sizeof *t);
    if (!t)
        return util_error(ORMA_ERR_NOMEM, "cannot grow the window table to %u entries", cap);
    for (uint32_t j = 0; j < old; j++)
        atomic_init(&t[j], atomic_load_explicit(&from[j], memory_order_relaxed));
    if (from) {
        int k = __builtin_ctz(old / 16); /* 16, 32, 64, ... */
        rma_table_old[k] = (void *)from;
    }
    atomic_store_explicit(&rma_table, t, memory_order_release);
    atomic_store_explicit(&rma_table_cap, cap, memory_order_release);
    return ORMA_SUCCESS;
}

int rma_win_register(struct rma_win *win, orma_win *handle_p)
{
    pthread_mutex_lock(&rma_table_mu);
    uint32_t i, cap = atomic_load_explicit(&rma_table_cap, memory_order_relaxed);
    _Atomic(struct rma_win *) *t = atomic_load_explicit(&rma_table, memory_order_relaxed);
    for (i = 0; i < cap && atomic_load_explicit(&t[i], memory_order_relaxed); i++)
        ;
    int status = ORMA_SUCCESS;
    if (i == cap && (cap >= UINT32_C(1) << 31 || (status = rma_table_grow(cap ? 2 * cap : 16)))) {
        pthread_mutex_unlock(&rma_table_mu);
        return status ? status : util_error(ORMA_ERR_NOMEM, "the window table is full");
    }
    t = atomic_load_explicit(&rma_table, memory_order_relaxed);
    win->index = i;
    win->gen = rma_next_gen++;
    if (!rma_next_gen)
        rma_next_gen = 1;
    atomic_store_explicit(&t[i], win, memory_order_release);
    rma_box_windows += win->box_in;
    *handle_p = ((uint64_t)win->gen << 32) | (uint64_t)(i + 1);
    pthread_mutex_unlock(&rma_table_mu);
    return ORMA_SUCCESS;
}

void rma_win_unregister(struct rma_win *win)
{
    pthread_mutex_lock(&rma_table_mu);
    _Atomic(struct rma_win *) *t = atomic_load_explicit(&rma_table, memory_order_relaxed);
    if (win->index < atomic_load_explicit(&rma_table_cap, memory_order_relaxed) &&
        atomic_load_explicit(&t[win->index], memory_order_relaxed) == win) {
        atomic_store_explicit(&t[win->index], NULL, memory_order_release);
        rma_box_windows -= win->box_in;
    }
    pthread_mutex_unlock(&rma_table_mu);
}

void rma_win_foreach(void (*fn)(struct rma_win *))
{
    uint32_t cap = atomic_load_explicit(&rma_table_cap, memory_order_acquire);
    _Atomic(struct rma_win *) *t = atomic_load_explicit(&rma_table, memory_order_acquire);
    for (uint32_t i = 0; i < cap; i++) {
        struct rma_win *win = atomic_load_explicit(&t[i], memory_order_acquire);
        if (win)
            fn(win);
    }
}
