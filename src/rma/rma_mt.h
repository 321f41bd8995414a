/* rma_mt.h -- keeping a process's threads apart (ORMA_THREAD_MULTIPLE).
 *
 * A window has a lock of its own, mt_lock: a thread takes it for the whole
 * of every call on the window that goes past the fast paths -- the checked
 * paths of src/api, every synchronization, window creation's and freeing's
 * local part.  Nothing is global: calls on different windows never wait for
 * each other.  The fast paths (rma_copy_try, rma_acc_try, rma_flush_try)
 * take no lock: under ORMA_THREAD_MULTIPLE they go on only where they write
 * nothing of the window's but what every thread would write alike -- a
 * target already open to this epoch and mapped here (rma_target_open_fast,
 * rma_try_mapped; put and get may still move a fence epoch from "maybe" to
 * "open", the same store from every thread), or for accumulates also an
 * epoch state the operation leaves as it is (rma_mt_quiet) -- and read
 * what the locked paths write through RMA_LD (rma_win.h).  Threads
 * issuing operations in one lock_all epoch to targets it has opened so share
 * the window's lines read-only: they contend only where their targets'
 * memory does.  Accumulates take hardware atomics with a busy counter of
 * the thread's own, or the target's stripes, never plain loops under an
 * exclusive lock (rma_acc.h, rma_stripe.h): that assumes one updater per
 * rank.
 *
 * Fence, post, start, complete, wait and test are one thread's per window
 * at a time, as MPI has a window's active-target synchronization ordered
 * within the process: a second thread calling one while another is inside
 * gets ORMA_ERR_RMA_SYNC (rma_mt_sync_take).  A thread waiting inside a
 * call holds its window's lock -- other threads' calls on that window wait
 * for it -- except a wait for a target's lock: its lock word
 * (rma_lock_wait), or over the net transport its grant (rma_net_acquire).
 *
 * A single-threaded program pays one predictable branch per call. */
#ifndef ORMA_RMA_MT_H
#define ORMA_RMA_MT_H

#include "rma_win.h"


/* The program asked for ORMA_THREAD_MULTIPLE (orma_init_thread).  Hidden:
 * read at every call, without the shared library's indirection (liborma-mpi
 * has the core of its own). */
extern int rma_threads __attribute__((visibility("hidden")));

static inline void rma_mt_lock(struct rma_win *win) { util_rlock_take(&win->mt_lock); }
static inline void rma_mt_unlock(struct rma_win *win) { util_rlock_give(&win->mt_lock); }

/* The window behind handle locked for this thread, or NULL: not
 * ORMA_THREAD_MULTIPLE, or no window (the checks that follow say so). */
static inline struct rma_win *rma_mt_enter(orma_win handle)
{
    if (__builtin_expect(!rma_threads, 1))
        return NULL;
    struct rma_win *win = rma_win_lookup(handle);
    if (win)
        rma_mt_lock(win);
    return win;
}

/* The scope's end of rma_mt_enter (a cleanup attribute's). */
static inline void rma_mt_leave(struct rma_win **win_p)
{
    if (*win_p) /* perhaps freed by this very call (rma_mt_forget) */
        util_rlock_leave(&(*win_p)->mt_lock);
}

/* Hold the window behind handle until the end of the enclosing scope. */
#define RMA_MT_GUARD(handle)                                                                                  \
    __attribute__((cleanup(rma_mt_leave))) struct rma_win *rma_mt_held_ = rma_mt_enter(handle);              \
    (void)rma_mt_held_

/* Fence, PSCW: this thread becomes the synchronizing one of the window
 * behind handle (*win_p: the window, or NULL when it was already, or there
 * is none), or ORMA_ERR_RMA_SYNC naming call when another thread is. */
int rma_mt_sync_take(orma_win handle, const char *call, struct rma_win **win_p);
void rma_mt_sync_done(struct rma_win **win_p);

/* A fence or PSCW call's guard: the window's synchronizing thread, then its
 * lock, until the enclosing scope ends; returns the error when another
 * thread is inside such a call on the window. */
#define RMA_MT_SYNC_GUARD(handle, call)                                                                           struct rma_win *rma_mt_taken_ = NULL;                                                                         if (__builtin_expect(rma_threads, 0)) {                                                                           int rma_mt_status_ = rma_mt_sync_take(handle, call, &rma_mt_taken_);                                         if (rma_mt_status_)                                                                                               return rma_mt_status_;                                                                                }                                                                                                             __attribute__((cleanup(rma_mt_sync_done))) struct rma_win *rma_mt_sync_ = rma_mt_taken_;                     (void)rma_mt_sync_;                                                                                           RMA_MT_GUARD(handle)

/* A window being released by the thread that holds it (rma_win_release):
 * its lock given up and destroyed, and the guard told. */
void rma_mt_forget(struct rma_win *win);

/* 1 + this thread's slot among RMA_HW_THREADS (rma_stripe.h), or 0: none
 * yet; rma_mt_hw_take gives one, or -1 when other threads hold them all.
 * A thread's slot goes back to the process when it exits. */
extern _Thread_local int rma_mt_hw_mine __attribute__((visibility("hidden")));
int rma_mt_hw_take(void);

/* This thread's hardware-atomic busy counter in win (rma_stripe.h), the
 * window's count of used slots raised to cover it first; NULL: take the
 * stripes. */
static inline _Atomic uint32_t *rma_mt_hw_busy(struct rma_win *win)
{
    int k = rma_mt_hw_mine ? rma_mt_hw_mine - 1 : rma_mt_hw_take();
    if (k < 0)
        return NULL;
    _Atomic uint32_t *used = win->my_hw_threads;
    uint32_t n = atomic_load_explicit(used, memory_order_seq_cst);
    while (n <= (uint32_t)k && !atomic_compare_exchange_weak_explicit(used, &n, (uint32_t)k + 1, memory_order_seq_cst,
                                                                      memory_order_seq_cst))
        ;
    return rma_ctl_hw_thread(used, k);
}

/* The fast paths' question under ORMA_THREAD_MULTIPLE: may an operation to
 * t go on without the window's lock -- t open to this epoch already, its
 * memory mapped here whole, and the epoch state unchanged by it (next)? */
static inline int rma_mt_quiet(const struct rma_win *win, const struct rma_target *t, int next)
{
    return t->direct && RMA_LD(t->ready) == RMA_LD(win->access_gen) && !RMA_LD(t->queued) &&
           RMA_LD(win->epoch_state) == next;
}

#endif
