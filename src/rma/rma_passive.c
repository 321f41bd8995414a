/* rma_passive.c -- lock, unlock, lock_all, unlock_all, flush.
 *
 * The lock word is in the target's control block and taken with atomics by
 * the origin (rma_lock.h): the target is never involved, whatever it does.
 * orma_win_lock takes the lock at once (a local load/store epoch on our own
 * window, or on a shared window, needs it held); lock_all takes each shared
 * lock lazily, at the first operation to that target (rma_comm.c).
 * Operations complete when issued -- stores into mapped memory, synchronous
 * single-copy syscalls -- so flush is a memory fence and unlock a release;
 * except small ones to memory not mapped here, which wait for them in the
 * target's box (rma_box.h) or our gather (rma_gather.h).  A flush also
 * empties the boxes our own origins offer us: a target polling with flush
 * serves them. */
#include "rma_comm.h"
#include "rma_watch.h"
#include "rma_gather.h"
#include "rma_lock.h"
#include "xport_net.h"

void rma_lock_wait(struct rma_win *win, struct rma_ctl_rank *c, int type, uint64_t ticket, int let_go)
{
    /* Threads (rma_mt.h): the window let go while the lock is not granted.
     * The rank holding it may wait for this rank's other threads -- their
     * unlock of another target of this window, say -- which must not wait
     * for this one. */
    unsigned held = rma_threads && let_go ? util_rlock_drop(&win->mt_lock) : 0;
    atomic_fetch_add_explicit(&c->lock_waiters, 1, memory_order_seq_cst);
    for (;;) {
        uint32_t seen = atomic_load_explicit(&c->lock_released.value, memory_order_seq_cst);
        if (rma_lock_granted(c, type, ticket))
            break;
        if (rma_wait_geq(win, &c->lock_released, seen + 1))
            break; /* a rank of another job is gone, maybe the holder: never granted (win->peer_lost) */
    }
    atomic_fetch_sub_explicit(&c->lock_waiters, 1, memory_order_release);
    util_rlock_retake(&win->mt_lock, held);
}

/* Target r's lock over the net transport, taken now: asked for holding the
 * window -- another thread's unlock of r cannot come between -- and waited
 * for with the window let go, as rma_lock_wait waits for a lock word. */
static int rma_net_acquire(struct rma_win *win, int r)
{
    int status = xport_net_ask(win->net, r, win->targets[r].lock_type);
    if (status) /* not sent: no grant will come */
        return status;
    unsigned held = rma_threads ? util_rlock_drop(&win->mt_lock) : 0;
    status = xport_net_granted(win->net, r);
    util_rlock_retake(&win->mt_lock, held);
    return status;
}

/* The net transport's locks a lock of target waits for.  Several at once:
 * in the caller's order, each taken before the next (xport_net.h) -- so the
 * ones left untaken until now first (others: locks held before this one).
 * Alone, a lock is taken lazily, at unlock or flush ([004] 4.3) -- but not
 * under ORMA_THREAD_MULTIPLE: those wait for the grant holding the window,
 * and the holder of the lock may wait for this rank's other threads (their
 * lock of another target, say), which would wait for the window. */
static int rma_lock_net(struct rma_win *win, int target, int others)
{
    int status = ORMA_SUCCESS;
    for (int r = 0; others && r < win->nranks && !status; r++)
        if (r != target && win->targets[r].net && win->targets[r].lock_held)
            status = rma_net_acquire(win, r);
    const struct rma_target *t = &win->targets[target];
    if (!status && t->net && t->lock_held && (others || rma_threads))
        status = rma_net_acquire(win, target);
    return status;
}

int rma_lock(struct rma_win *win, int type, int target, int assert)
{
    struct rma_target *t = &win->targets[target];
    if (win->nlocked == 0)
        rma_access_reset(win);
    int taken = !(assert & ORMA_MODE_NOCHECK), others = win->nlocked;
    /* The target counts as locked before its lock is granted: a wait for
     * it lets other threads at the window (rma_lock_wait, rma_net_acquire),
     * whose unlock of another target must not end the epoch, nor their lock
     * of this one take it twice. */
    rma_target_locked(t, type, taken);
    win->nlocked++;
    int status = win->net ? rma_lock_net(win, target, others) : ORMA_SUCCESS;
    if (status) { /* not locked after all */
        rma_target_unlocked(t);
        win->nlocked--;
        return status;
    }
    if (!t->net && taken)
        rma_lock_acquire(win, t->ctl, type, 1);
    rma_box_settle(win, t);
    RMA_ST(t->ready, RMA_LD(win->access_gen));
    return ORMA_SUCCESS;
}

static void rma_target_unlock(struct rma_target *t)
{
    if (t->lock_held)
        rma_lock_release(t->ctl, t->lock_type);
    else
        atomic_thread_fence(memory_order_seq_cst); /* NOCHECK: still publish our stores */
    rma_target_unlocked(t);
    RMA_ST(t->ready, 0);
}

int rma_unlock(struct rma_win *win, int target)
{
    struct rma_target *t = &win->targets[target];
    if (__builtin_expect(win->race != NULL, 0)) /* before the lock is let go */
        rma_race_unlocking(win, target, "orma_win_unlock");
    int status = rma_box_pending(t) ? rma_box_flush(win, target) : ORMA_SUCCESS;
    int rc = rma_gathered(t) ? rma_gather_complete(win, target) : ORMA_SUCCESS;
    if (!status)
        status = rc;
    if (t->net) {
        status = xport_net_unlock(win->net, target, t->lock_held ? t->lock_type : 0, win->hints.unlock_local);
        rma_target_unlocked(t);
    } else {
        rma_target_unlock(t);
    }
    if (--win->nlocked == 0)
        rma_access_reset(win);
    return status;
}

/* Lock and unlock whole, for a face's call tried before its checked layers
 * (liborma-mpi's MPI_Win_lock and MPI_Win_unlock: the layers cost 80
 * instructions of a lock's 160).  1 when done; 0 when anything is off -- a
 * bad rank or lock type, an assert other than NOCHECK, a window without
 * locks, an epoch that forbids it -- and nothing changed: the checked path
 * (orma_win_lock) then finds and reports it. */
static int rma_lock_try_(struct rma_win *win, int type, int target, int assert)
{
    if ((unsigned)target >= (unsigned)win->nranks || (type != ORMA_LOCK_EXCLUSIVE && type != ORMA_LOCK_SHARED) ||
        (assert & ~ORMA_MODE_NOCHECK) || win->hints.no_locks)
        return 0;
    int state = RMA_LD(win->epoch_state), next = rma_epoch_peek(state, RMA_EV_LOCK);
    if (next < 0 || (RMA_EPOCH_ACCESS(state) == RMA_ACC_LOCK && win->targets[target].lock_type))
        return 0;
    rma_epoch_set(win, next);
    return rma_lock(win, type, target, assert) == ORMA_SUCCESS;
}

static int rma_unlock_try_(struct rma_win *win, int target)
{
    int state = RMA_LD(win->epoch_state);
    if ((unsigned)target >= (unsigned)win->nranks || RMA_EPOCH_ACCESS(state) != RMA_ACC_LOCK || win->race ||
        !win->targets[target].lock_type || win->targets[target].net || rma_gathered(&win->targets[target]) ||
        rma_box_pending(&win->targets[target]))
        return 0; /* the net transport's unlock, or gathered or boxed puts, may fail: the checked path reports it */
    int next = rma_epoch_peek(state, rma_unlock_event(win));
    if (next < 0)
        return 0;
    rma_epoch_set(win, next);
    return rma_unlock(win, target) == ORMA_SUCCESS;
}

/* Under ORMA_THREAD_MULTIPLE, both hold the window (rma_mt.h). */
int rma_lock_try(struct rma_win *win, int type, int target, int assert)
{
    if (__builtin_expect(!rma_threads, 1))
        return rma_lock_try_(win, type, target, assert);
    rma_mt_lock(win);
    int done = rma_lock_try_(win, type, target, assert);
    rma_mt_unlock(win);
    return done;
}

int rma_unlock_try(struct rma_win *win, int target)
{
    if (__builtin_expect(!rma_threads, 1))
        return rma_unlock_try_(win, target);
    rma_mt_lock(win);
    int done = rma_unlock_try_(win, target);
    rma_mt_unlock(win);
    return done;
}

int rma_lock_all(struct rma_win *win, int assert)
{
    rma_access_reset(win);
    win->nocheck = (assert & ORMA_MODE_NOCHECK) != 0;
    return ORMA_SUCCESS;
}

int rma_unlock_all(struct rma_win *win)
{
    if (__builtin_expect(win->race != NULL, 0))
        rma_race_unlocking(win, -1, "orma_win_unlock_all");
    int status = win->nboxed ? rma_box_sync(win, -1, 0) : ORMA_SUCCESS;
    int rc = win->ngathered ? rma_gather_sync(win, -1, 0) : ORMA_SUCCESS;
    if (!status)
        status = rc;
    rc = win->net ? xport_net_unlock(win->net, -1, win->nocheck ? 0 : ORMA_LOCK_SHARED, win->hints.unlock_local) : ORMA_SUCCESS;
    if (!status)
        status = rc;
    for (int r = 0; r < win->nranks; r++)
        if (!win->targets[r].net && (win->targets[r].lock_type || win->targets[r].lock_held))
            rma_target_unlock(&win->targets[r]);
    if (win->nocheck) /* no lock taken: the releases above published nothing */
        atomic_thread_fence(memory_order_seq_cst);
    rma_access_reset(win);
    win->nocheck = 0;
    return status;
}

int rma_flush(struct rma_win *win, int target, int local)
{
    int status = rma_flush_ops(win, target, local);
    if (__builtin_expect(win->race != NULL, 0))
        rma_race_flushed(win, target, local,
                         local ? (target < 0 ? "orma_win_flush_local_all" : "orma_win_flush_local")
                               : (target < 0 ? "orma_win_flush_all" : "orma_win_flush"));
    return status;
}

int rma_flush_ops(struct rma_win *win, int target, int local)
{
    int status = win->nboxed ? rma_box_sync(win, target, local) : ORMA_SUCCESS;
    int rc = win->ngathered ? rma_gather_sync(win, target, local) : ORMA_SUCCESS;
    if (!status)
        status = rc;
    atomic_thread_fence(memory_order_seq_cst);
    rc = win->net ? xport_net_flush(win->net, target, local) : ORMA_SUCCESS;
    rma_box_serve(win);
    return status ? status : rc;
}
