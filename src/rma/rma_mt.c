/* rma_mt.c -- the parts of rma_mt.h out of line. */
#include "rma_mt.h"
#include "util_status.h"

#include <pthread.h>
#include <stdint.h>

int rma_threads;

int rma_mt_sync_take(orma_win handle, const char *call, struct rma_win **win_p)
{
    *win_p = NULL;
    struct rma_win *win = rma_win_lookup(handle);
    if (!win) /* the checks that follow say so */
        return ORMA_SUCCESS;
    const void *none = NULL;
    if (atomic_compare_exchange_strong_explicit(&win->mt_sync, &none, util_rlock_self, memory_order_acq_rel,
                                                memory_order_acquire)) {
        *win_p = win;
        return ORMA_SUCCESS;
    }
    if (none == util_rlock_self) /* a call of its own inside one */
        return ORMA_SUCCESS;
    return util_error(ORMA_ERR_RMA_SYNC, "%s: another thread of this rank is inside a fence or PSCW call on this "
                      "window; a window's active-target synchronization is made by one thread at a time", call);
}

void rma_mt_sync_done(struct rma_win **win_p)
{
    if (*win_p)
        atomic_store_explicit(&(*win_p)->mt_sync, NULL, memory_order_release);
}

void rma_mt_forget(struct rma_win *win) { util_rlock_destroy(&win->mt_lock); }

/* The slots of RMA_HW_THREADS threads: bit k set while a thread holds
 * slot k; a thread gives its slot back when it exits (the key's
 * destructor), so programs that start threads again and again keep finding
 * one. */
static _Atomic uint32_t rma_mt_hw_held;
static pthread_key_t rma_mt_hw_key;
static pthread_once_t rma_mt_hw_once = PTHREAD_ONCE_INIT;
_Thread_local int rma_mt_hw_mine;

static void rma_mt_hw_give(void *slot)
{
    uint32_t bit = UINT32_C(1) << ((uintptr_t)slot - 1);
    atomic_fetch_and_explicit(&rma_mt_hw_held, ~bit, memory_order_release);
}

static void rma_mt_hw_key_make(void) { (void)pthread_key_create(&rma_mt_hw_key, rma_mt_hw_give); }

int rma_mt_hw_take(void)
{
    const uint32_t all = (UINT32_C(1) << RMA_HW_THREADS) - 1;
    pthread_once(&rma_mt_hw_once, rma_mt_hw_key_make);
    uint32_t held = atomic_load_explicit(&rma_mt_hw_held, memory_order_acquire);
    int k;
    do {
        if ((held & all) == all)
            return -1;
        k = __builtin_ctz(~held);
    } while (!atomic_compare_exchange_weak_explicit(&rma_mt_hw_held, &held, held | UINT32_C(1) << k,
                                                    memory_order_acq_rel, memory_order_acquire));
    /* the slot's last holder finished its counter's updates before giving
     * it back (release above, acquire here) */
    if (pthread_setspecific(rma_mt_hw_key, (void *)(uintptr_t)(k + 1))) {
        rma_mt_hw_give((void *)(uintptr_t)(k + 1));
        return -1;
    }
    rma_mt_hw_mine = k + 1;
    return k;
}
