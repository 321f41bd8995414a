/* flag.h -- flags between ranks 0 and 1 through cache lines of a shared
 * window, for the floors that synchronize without orma.
 *
 * A flag only grows: a rank stores 1, 2, 3, ... into its own line and the
 * other waits until the value reaches the one it expects, so a waiter that
 * looks late and finds a later value still passes.  The wait and raise are
 * inline (flagwait.h): the cache-line floor times ~100 ns round trips of
 * exactly these. */
#ifndef BENCH_FLAG_H
#define BENCH_FLAG_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <orma.h>

#include "flagwait.h"

/* Waits (acquire) until *peer >= v; mine: the waiter's own flag, or NULL
 * (flagwait.h). */
static inline void bench_flag_wait(_Atomic uint64_t *mine, _Atomic uint64_t *peer, uint64_t v)
{
    bench_flag_waiter w = {.mine = mine};
    while (atomic_load_explicit(peer, memory_order_acquire) < v)
        bench_flag_pause(&w, peer, v, 1000);
}

/* bench_flag_wait with orma_win_sync(win) between polls, as a target
 * polling for the data of a passive epoch calls MPI_Win_sync: it empties
 * the boxes its origins offer it (operations to memory they cannot map).
 * A sleep lasts 50 us at most, so the polls go on. */
static inline int bench_flag_wait_synced(_Atomic uint64_t *mine, _Atomic uint64_t *peer, uint64_t v, orma_win win)
{
    bench_flag_waiter w = {.mine = mine};
    while (atomic_load_explicit(peer, memory_order_acquire) < v) {
        int rc = orma_win_sync(win);
        if (rc != ORMA_SUCCESS)
            return rc;
        bench_flag_pause(&w, peer, v, 50);
    }
    return ORMA_SUCCESS;
}

/* One orma_win_allocate_shared window holding, for ranks 0 and 1, a flag
 * (alone on its cache line, set to 0) and a page-aligned buffer of bytes
 * bytes (NULL when bytes is 0) that its owner has touched. */
typedef struct bench_flag_win {
    orma_win win;
    _Atomic uint64_t *flag[2];
    unsigned char *buf[2];
} bench_flag_win;

/* Collective (every rank); ranks above 1 get NULL pointers. */
void bench_flag_win_open(size_t bytes, bench_flag_win *fw);
void bench_flag_win_close(bench_flag_win *fw); /* collective */

#endif
