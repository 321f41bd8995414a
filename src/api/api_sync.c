/* api_sync.c -- synchronization entry points: fence, post-start-complete-
 * wait, lock/unlock, lock_all, flush.  Each checks its arguments, moves the
 * epoch state (rma_epoch.c decides what is legal), then calls the core. */
#include "api_check.h"
#include "api_group.h"
#include "rma_comm.h"

static int api_sync_begin(const char *call, orma_win handle, int assert, int allowed, struct rma_win **win_p)
{
    int status = api_check_win(call, handle, win_p);
    if (status)
        return status;
    if (assert & ~allowed)
        return util_error(ORMA_ERR_ASSERT, "%s: assert bits 0x%x are not valid here", call,
                          (unsigned)(assert & ~allowed));
    return ORMA_SUCCESS;
}

/* ORMA_PROC_NULL is a rank of lock, unlock and flush as of every operation
 * (MPI_PROC_NULL): only the epoch is real.  Its "lock" opens a lock epoch
 * (win->null_locked), in which operations to ORMA_PROC_NULL are legal. */
static int api_null_lock(struct rma_win *win)
{
    if (RMA_EPOCH_ACCESS(win->epoch_state) == RMA_ACC_LOCK && win->null_locked)
        return util_error(ORMA_ERR_RMA_SYNC, "orma_win_lock: ORMA_PROC_NULL is already locked by this rank");
    int status = rma_epoch_event(win, RMA_EV_LOCK);
    if (!status)
        win->null_locked = 1;
    return status;
}

static int api_null_unlock(struct rma_win *win)
{
    if (RMA_EPOCH_ACCESS(win->epoch_state) == RMA_ACC_LOCK && !win->null_locked)
        return util_error(ORMA_ERR_RMA_SYNC, "orma_win_unlock: ORMA_PROC_NULL is not locked");
    int status = rma_epoch_event(win, rma_unlock_event(win));
    if (!status)
        win->null_locked = 0;
    return status;
}

static int api_check_rank(const char *call, struct rma_win *win, int rank)
{
    if ((unsigned)rank >= (unsigned)win->nranks)
        return util_error(ORMA_ERR_RANK, "%s: rank %d is not in 0..%d", call, rank, win->nranks - 1);
    return ORMA_SUCCESS;
}

#define API_FENCE_ASSERTS                                                                          \
    (ORMA_MODE_NOCHECK | ORMA_MODE_NOSTORE | ORMA_MODE_NOPUT | ORMA_MODE_NOPRECEDE | ORMA_MODE_NOSUCCEED)

static int api_win_fence(int assert, orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_sync_begin("orma_win_fence", handle, assert, API_FENCE_ASSERTS, &win);
    if (status)
        return status;
    int event = RMA_EV_FENCE;
    if (assert & ORMA_MODE_NOPRECEDE)
        event = (assert & ORMA_MODE_NOSUCCEED) ? RMA_EV_FENCE_NOPRECEDE_NOSUCCEED : RMA_EV_FENCE_NOPRECEDE;
    else if (assert & ORMA_MODE_NOSUCCEED)
        event = RMA_EV_FENCE_NOSUCCEED;
    status = rma_epoch_event(win, event);
    if (status)
        return status;
    return rma_fence(win, assert);
}

API_MT_SYNC_CALL(orma_win_fence, api_win_fence, (int assert, orma_win handle), (assert, handle))

/* post and start: the window, the assert bits allowed, the group, then the
 * epoch's event. */
static inline int api_pscw_begin(const char *call, orma_group group, int assert, int allowed, int event,
                                 orma_win handle, struct rma_win **win_p)
{
    int status = api_sync_begin(call, handle, assert, allowed, win_p);
    if (!status)
        status = api_group_check(call, group, (*win_p)->nranks);
    if (!status)
        status = rma_epoch_event(*win_p, event);
    return status;
}

static int api_win_post(orma_group group, int assert, orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_pscw_begin("orma_win_post", group, assert, ORMA_MODE_NOCHECK | ORMA_MODE_NOSTORE | ORMA_MODE_NOPUT,
                                RMA_EV_POST, handle, &win);
    return status ? status : rma_post(win, group->ranks, group->n, assert);
}

API_MT_SYNC_CALL(orma_win_post, api_win_post, (orma_group group, int assert, orma_win handle), (group, assert, handle))

static int api_win_start(orma_group group, int assert, orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_pscw_begin("orma_win_start", group, assert, ORMA_MODE_NOCHECK, RMA_EV_START, handle, &win);
    return status ? status : rma_start(win, group->ranks, group->n, assert);
}

API_MT_SYNC_CALL(orma_win_start, api_win_start, (orma_group group, int assert, orma_win handle), (group, assert, handle))

static int api_win_complete(orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_check_win_event("orma_win_complete", handle, RMA_EV_COMPLETE, &win);
    return status ? status : rma_complete(win);
}

API_MT_SYNC_CALL(orma_win_complete, api_win_complete, (orma_win handle), (handle))

static int api_win_wait(orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_check_win_event("orma_win_wait", handle, RMA_EV_WAIT, &win);
    if (status)
        return status;
    rma_wait(win);
    return api_lost_after(win, "orma_win_wait", ORMA_SUCCESS);
}

API_MT_SYNC_CALL(orma_win_wait, api_win_wait, (orma_win handle), (handle))

static int api_win_test(orma_win handle, int *flag_p)
{
    struct rma_win *win = NULL;
    int status = api_check_win_out("orma_win_test", handle, flag_p, "flag_p", &win);
    if (status)
        return status;
    if (rma_epoch_peek(RMA_LD(win->epoch_state), RMA_EV_TEST) < 0)
        return rma_epoch_event(win, RMA_EV_TEST);
    rma_box_serve(win); /* boxes an origin's complete offers us (rma_box.h) */
    if (!rma_exposure_done(win)) {
        *flag_p = 0;
        return ORMA_SUCCESS;
    }
    status = rma_epoch_event(win, RMA_EV_WAIT);
    if (status)
        return status;
    rma_exposure_close(win);
    *flag_p = 1;
    return ORMA_SUCCESS;
}

API_MT_SYNC_CALL(orma_win_test, api_win_test, (orma_win handle, int *flag_p), (handle, flag_p))

static int api_win_lock(int lock_type, int rank, int assert, orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_sync_begin("orma_win_lock", handle, assert, ORMA_MODE_NOCHECK, &win);
    if (!status && rank != ORMA_PROC_NULL)
        status = api_check_rank("orma_win_lock", win, rank);
    if (status)
        return status;
    if (win->hints.no_locks)
        return util_error(ORMA_ERR_RMA_SYNC, "orma_win_lock: the window was created with info no_locks=true");
    if (lock_type != ORMA_LOCK_EXCLUSIVE && lock_type != ORMA_LOCK_SHARED)
        return util_error(ORMA_ERR_ARG, "orma_win_lock: lock type %d is neither ORMA_LOCK_EXCLUSIVE nor "
                          "ORMA_LOCK_SHARED", lock_type);
    if (rank == ORMA_PROC_NULL)
        return api_null_lock(win);
    if (RMA_EPOCH_ACCESS(win->epoch_state) == RMA_ACC_LOCK && win->targets[rank].lock_type)
        return util_error(ORMA_ERR_RMA_SYNC, "orma_win_lock: rank %d is already locked by this rank", rank);
    status = rma_epoch_event(win, RMA_EV_LOCK);
    if (status)
        return status;
    return api_lost_after(win, "orma_win_lock", rma_lock(win, lock_type, rank, assert));
}

API_MT_CALL(orma_win_lock, api_win_lock, (int lock_type, int rank, int assert, orma_win handle), (lock_type, rank, assert, handle))

static int api_win_unlock(int rank, orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_check_win("orma_win_unlock", handle, &win);
    if (!status && rank != ORMA_PROC_NULL)
        status = api_check_rank("orma_win_unlock", win, rank);
    if (status)
        return status;
    if (rank == ORMA_PROC_NULL)
        return api_null_unlock(win);
    int locked = RMA_EPOCH_ACCESS(win->epoch_state) == RMA_ACC_LOCK;
    if (locked && !win->targets[rank].lock_type)
        return util_error(ORMA_ERR_RMA_SYNC, "orma_win_unlock: rank %d is not locked", rank);
    status = rma_epoch_event(win, locked ? rma_unlock_event(win) : RMA_EV_UNLOCK);
    if (status)
        return status;
    return api_lost_after(win, "orma_win_unlock", rma_unlock(win, rank));
}

API_MT_CALL(orma_win_unlock, api_win_unlock, (int rank, orma_win handle), (rank, handle))

static int api_win_lock_all(int assert, orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_sync_begin("orma_win_lock_all", handle, assert, ORMA_MODE_NOCHECK, &win);
    if (!status && win->hints.no_locks)
        status = util_error(ORMA_ERR_RMA_SYNC, "orma_win_lock_all: the window was created with info "
                            "no_locks=true");
    if (!status)
        status = rma_epoch_event(win, RMA_EV_LOCK_ALL);
    if (status)
        return status;
    return api_lost_after(win, "orma_win_lock_all", rma_lock_all(win, assert));
}

API_MT_CALL(orma_win_lock_all, api_win_lock_all, (int assert, orma_win handle), (assert, handle))

static int api_win_unlock_all(orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_check_win_event("orma_win_unlock_all", handle, RMA_EV_UNLOCK_ALL, &win);
    return status ? status : rma_unlock_all(win);
}

API_MT_CALL(orma_win_unlock_all, api_win_unlock_all, (orma_win handle), (handle))

static int api_flush_checked(const char *call, int rank, int all, int local, orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_check_win(call, handle, &win);
    if (!status && !all && rank != ORMA_PROC_NULL)
        status = api_check_rank(call, win, rank);
    if (!status)
        status = rma_epoch_event(win, RMA_EV_FLUSH);
    if (status || (!all && rank == ORMA_PROC_NULL)) /* nothing was issued to no rank */
        return status;
    if (!all && RMA_EPOCH_ACCESS(win->epoch_state) == RMA_ACC_LOCK && !win->targets[rank].lock_type)
        return util_error(ORMA_ERR_RMA_SYNC, "%s: rank %d is not locked", call, rank);
    return rma_flush(win, all ? -1 : rank, local);
}

static __attribute__((noinline, cold)) int api_flush_checked_mt(const char *call, int rank, int all, int local,
                                                                orma_win handle)
{
    RMA_MT_GUARD(handle);
    return api_flush_checked(call, rank, all, local, handle);
}

static int api_flush(const char *call, int rank, int all, int local, orma_win handle)
{
    struct rma_win *win = api_state == 1 ? rma_win_lookup(handle) : NULL;
    if (win && (all || rank >= 0) && rma_flush_try(win, all ? -1 : rank))
        return ORMA_SUCCESS;
    return __builtin_expect(!rma_threads, 1) ? api_flush_checked(call, rank, all, local, handle)
                                             : api_flush_checked_mt(call, rank, all, local, handle);
}

int orma_win_flush(int rank, orma_win win)
{
    API_RACE_ENTER();
    return api_flush("orma_win_flush", rank, 0, 0, win);
}

int orma_win_flush_local(int rank, orma_win win)
{
    API_RACE_ENTER();
    return api_flush("orma_win_flush_local", rank, 0, 1, win);
}

int orma_win_flush_all(orma_win win)
{
    API_RACE_ENTER();
    return api_flush("orma_win_flush_all", -1, 1, 0, win);
}

int orma_win_flush_local_all(orma_win win)
{
    API_RACE_ENTER();
    return api_flush("orma_win_flush_local_all", -1, 1, 1, win);
}

static int api_win_sync(orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_check_win("orma_win_sync", handle, &win);
    if (status)
        return status;
    atomic_thread_fence(memory_order_seq_cst);
    rma_box_serve(win); /* puts of passive epochs offered to us (rma_box.h) */
    return ORMA_SUCCESS;
}

API_MT_CALL(orma_win_sync, api_win_sync, (orma_win handle), (handle))
