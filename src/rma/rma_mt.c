/* rma_mt.c -- the parts of rma_mt.h out of line. */
#include "rma_mt.h"
#include "util_status.h"

int rma_threads;
_Thread_local struct rma_win *rma_mt_gone;

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

void rma_mt_forget(struct rma_win *win)
{
    if (util_rlock_destroy(&win->mt_lock))
        rma_mt_gone = win;
}
