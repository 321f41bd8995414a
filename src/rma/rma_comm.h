/* rma_comm.h -- performing put and get.
 *
 * The fast path is inline: a target whose memory is mapped here and that has
 * opened the current epoch gets a plain memcpy, nothing else.  Everything
 * else -- a target not yet known to be open (its operation is queued until
 * the closing synchronization), single-copy syscalls, dynamic windows --
 * goes through rma_comm_slow, out of line.  Arguments are checked before
 * (src/api); offsets are in bytes past the target's base, or the address at
 * the target for dynamic windows. */
#ifndef ORMA_RMA_COMM_H
#define ORMA_RMA_COMM_H

#include "rma_box.h"
#include "rma_gather.h"
#include "rma_legal.h"
#include "rma_lock.h"
#include "rma_mt.h"
#include "rma_race.h"
#include "rma_win.h"
#include "util_config.h"
#include "xport.h"
#include "xport_copy.h"

#include <string.h>

/* Where the bytes of one access are, resolved once. */
struct rma_where {
    struct xport_at at; /* the transport and the address of the first byte */
    int shared;      /* the memory is a segment every rank maps: this access
                        may use hardware atomics */
    int hw;          /* other accesses to this memory may use hardware
                        atomics: a plain update must drain them (rma_acc.c) */
    int outside;     /* dynamic windows: the bytes lie in no attached
                        region (erroneous: carried out by system calls,
                        rma_dynamic.c) */
};

struct rma_region_copy {
    uint64_t base, size, seg_seq, seg_off, map_lo, map_hi;
};

/* n pieces at target (offsets past its base, not mapped here) in one go
 * through its transport: written (put) or read.  Its boxes and gathers
 * (rma_box.h, rma_gather.h) carry out their operations this way. */
int rma_far_pieces(struct rma_win *win, int target, int put, const struct xport_piece *p, size_t n);

/* Where the bytes [offset, offset + len) of target are (offset: the
 * address, in dynamic windows), or why not. */
int rma_where_resolve(struct rma_win *win, int target, size_t len, size_t offset, struct rma_where *w);

/* Perform op now if its target can be accessed, else queue it. */
int rma_comm_slow(struct rma_win *win, const struct xport_op *op);

/* Complete every queued operation of the closing epoch of kind acc
 * (RMA_ACC_FENCE or RMA_ACC_START), waiting for each target to open it.
 * Returns the first failure, after trying all. */
int rma_comm_drain(struct rma_win *win, int acc);

/* A typed put or get at w (rma_typed.c). */
int rma_typed_execute(struct rma_win *win, const struct xport_op *op, const struct rma_where *w);

/* Dynamic windows: locate [addr, addr+len) at target. */
int rma_dyn_resolve(struct rma_win *win, int target, uint64_t addr, size_t len, struct rma_where *where);

/* Whether [off, off + len) of t is mapped here, at t->base + off: all of a
 * direct target, or inside the pages of a cma target mapped here as well
 * (lo == hi when there are none). */
static inline int rma_target_maps(const struct rma_target *t, size_t off, size_t len)
{
    return t->direct || (off >= t->lo && off <= t->hi && len <= t->hi - off && t->lo < t->hi);
}

/* Byte offset of target t as a place of its own transport (not mapped
 * here: cma's address in its process, or none's reason). */
static inline struct xport_at rma_target_far(const struct rma_target *t, int target, size_t offset)
{
    return (struct xport_at){.ops = t->xp, .addr = t->raddr + offset, .pid = t->pid, .rank = target,
                             .why = "exposes no memory in this window"};
}

static inline int rma_target_ready(const struct rma_win *win, const struct rma_target *t)
{
    return RMA_LD(t->ready) == RMA_LD(win->access_gen) && !RMA_LD(t->queued);
}

/* lock_all: the first access to a target takes its shared lock (none with
 * NOCHECK) and makes it ready for the rest of the epoch. */
static inline void rma_lock_all_ready(struct rma_win *win, struct rma_target *t)
{
    if (!win->nocheck && !t->lock_held) {
        rma_lock_acquire(win, t->ctl, ORMA_LOCK_SHARED, 0);
        rma_target_locked(t, ORMA_LOCK_SHARED, 1);
    }
    RMA_ST(t->ready, RMA_LD(win->access_gen));
}

/* Can target be accessed directly now?  Marks it ready when it can.  Fence:
 * the target has opened the epoch; PSCW: its post for this epoch is
 * visible (or NOCHECK); lock_all: take its shared lock now (lazily, at the
 * first access); lock: the lock was taken by orma_win_lock.  Inline, since
 * the first operation of every PSCW epoch asks it: through the checked
 * path it cost a put through liborma-mpi 800 instructions instead of 170. */
static inline int rma_target_open(struct rma_win *win, int target)
{
    struct rma_target *t = &win->targets[target];
    if (RMA_LD(t->ready) == RMA_LD(win->access_gen))
        return 1;
    if (__builtin_expect(!rma_box_settled(win, t), 0)) {
        /* Active epochs queue until it has (rma_comm_drain waits); passive
         * ones have no queue: they wait now. */
        int acc = RMA_EPOCH_ACCESS(win->epoch_state);
        if (acc != RMA_ACC_LOCK && acc != RMA_ACC_LOCK_ALL)
            return 0;
        rma_box_settle(win, t);
    }
    switch (RMA_EPOCH_ACCESS(win->epoch_state)) {
    case RMA_ACC_FENCE_MAYBE:
    case RMA_ACC_FENCE:
        if (!util_config.eager ||
            !util_seq_geq(atomic_load_explicit(&t->ctl->fence_seq.value, memory_order_acquire), win->fence_epoch))
            return 0;
        break;
    case RMA_ACC_START:
        if (!util_config.eager)
            return 0;
        if (!win->nocheck &&
            !util_seq_geq(atomic_load_explicit(&rma_ctl_post_from(win->ctl, win->my_ctl)[target].value,
                                               memory_order_acquire),
                          t->post_expected))
            return 0;
        break;
    case RMA_ACC_LOCK_ALL:
        rma_lock_all_ready(win, t);
        return 1;
    default: /* lock: ready since orma_win_lock */
        break;
    }
    RMA_ST(t->ready, RMA_LD(win->access_gen));
    return 1;
}

static inline int rma_put(struct rma_win *win, int target, const void *origin, size_t len, size_t offset)
{
    struct rma_target *t = &win->targets[target];
    if (__builtin_expect(t->direct && rma_target_ready(win, t), 1)) {
        xport_copy(t->base + offset, origin, len);
        return ORMA_SUCCESS;
    }
    struct xport_op op = {.kind = XPORT_OP_PUT, .target = target, .origin = (void *)origin, .len = len, .offset = offset};
    return rma_comm_slow(win, &op);
}

static inline int rma_get(struct rma_win *win, int target, void *origin, size_t len, size_t offset)
{
    struct rma_target *t = &win->targets[target];
    if (__builtin_expect(t->direct && rma_target_ready(win, t), 1)) {
        xport_copy(origin, t->base + offset, len);
        return ORMA_SUCCESS;
    }
    struct xport_op op = {.kind = XPORT_OP_GET, .target = target, .origin = origin, .len = len, .offset = offset};
    return rma_comm_slow(win, &op);
}

/* rma_target_open for the fast paths, which take no lock: under
 * ORMA_THREAD_MULTIPLE only a target open already, since opening one
 * writes the window (rma_mt.h).  A single-threaded program asks nothing
 * more of a target that is open. */
static inline int rma_target_open_fast(struct rma_win *win, int target)
{
    const struct rma_target *t = &win->targets[target];
    if (RMA_LD(t->ready) == RMA_LD(win->access_gen))
        return 1;
    return !rma_threads && rma_target_open(win, target);
}

/* The target of an access of len bytes at displacement disp (in the
 * target's disp_unit) when it is the common case: an epoch open to a target
 * whose memory is mapped here or reached by single-copy syscalls, a range
 * inside it, nothing queued.  NULL for anything else, without a word; else
 * *off_p is the byte offset and *next_p the epoch state once the operation
 * is issued.  For the faces' calls that would otherwise spend more time on
 * their layers than on the copy (liborma-mpi: a put of 8 bytes and a flush
 * took 29 ns against Open MPI's 14; and after a system call the layers run
 * cold, 130 ns of a 1.25 us put on private memory): they try rma_copy_try
 * or rma_acc_try first and take their checked path (src/api), which also
 * finds every error, when it says no. */
static inline struct rma_target *rma_try_target_any(struct rma_win *win, int target, int64_t disp, size_t len,
                                                    size_t *off_p, int *next_p)
{
    if (__builtin_expect(!len, 0) || rma_access_legal(win, target, disp, 0, len, 0, NULL, off_p, next_p))
        return NULL;
    struct rma_target *t = &win->targets[target];
    if ((!t->direct && (t->net || t->xp == &xport_none)) || RMA_LD(t->queued) || !rma_target_open_fast(win, target))
        return NULL;
    return t;
}

static inline struct rma_target *rma_try_target(struct rma_win *win, int target, int64_t disp, size_t len,
                                                size_t *off_p, int *next_p)
{
    if (__builtin_expect(win->race != NULL, 0)) /* race: every access checked (rma_race.h) */
        return NULL;
    return rma_try_target_any(win, target, disp, len, off_p, next_p);
}

/* Where those bytes are mapped here, or NULL: reached by system calls, a
 * dynamic window's, or operations of ours wait for t (in its box or our
 * gather), which the slow path carries out first. */
static inline char *rma_try_mapped(const struct rma_target *t, size_t off, size_t len)
{
    if (__builtin_expect(!t->direct, 0) && (rma_threads || rma_gathered(t) || rma_box_pending(t)))
        return NULL; /* threads: the locked path's (rma_mt.h) */
    return rma_target_maps(t, off, len) ? t->base + off : NULL;
}

/* rma_copy_try's part for memory not mapped here: single-copy syscalls,
 * or a dynamic window's region looked up first -- the slow path's own
 * resolution and execution (rma_comm.c), without its queue. */
int rma_copy_far(struct rma_win *win, int put, int target, size_t off, void *origin, size_t len, int next,
                 int *status_p);

/* The copy of rma_copy_try, at p mapped here: 1, *status_p success. */
static inline int rma_copy_here(char *p, int put, void *origin, size_t len, int *status_p)
{
    if (put)
        xport_copy(p, origin, len);
    else
        xport_copy(origin, p, len);
    *status_p = ORMA_SUCCESS;
    return 1;
}

/* A put (put != 0) or get whole, as rma_try_target says: 1 when issued,
 * its status in *status_p (the epoch records it), 0 for the checked path.
 * The mapped case inline, the rest out of line: a system call dwarfs the
 * call, and the inline part stays small enough to inline everywhere. */
static inline int rma_copy_try(struct rma_win *win, int put, int target, int64_t disp, void *origin, size_t len,
                               int *status_p)
{
    size_t off;
    int next;
    struct rma_target *t = origin ? rma_try_target(win, target, disp, len, &off, &next) : NULL;
    if (!t)
        return 0;
    char *p = rma_try_mapped(t, off, len);
    if (__builtin_expect(!p, 0))
        return rma_copy_far(win, put, target, off, origin, len, next, status_p);
    rma_copy_here(p, put, origin, len, status_p);
    rma_epoch_set(win, next);
    return 1;
}

/* rma_copy_try in a window ORMA_CHECK=race checks, for the api's calls,
 * which describe the access in a: recorded (a->offset set) before the
 * copy, when the access is the common case, mapped here, and the program
 * single-threaded (the record's state is the window's, which threads take
 * turns at on the checked path).  The api's checked path records every
 * other access the same way, after checks that this one's common case
 * does not need. */
static inline int rma_copy_try_race(struct rma_win *win, int put, int target, int64_t disp, void *origin, size_t len,
                                    struct rma_race_access *a, int *status_p)
{
    size_t off;
    int next;
    struct rma_target *t = origin && !rma_threads ? rma_try_target_any(win, target, disp, len, &off, &next) : NULL;
    char *p = t ? rma_try_mapped(t, off, len) : NULL;
    if (!p)
        return 0;
    a->offset = off;
    rma_race_record(win, target, a);
    rma_copy_here(p, put, origin, len, status_p);
    rma_epoch_set(win, next);
    return 1;
}

/* A flush (target >= 0) or flush_all (target < 0) in a passive epoch that
 * allows it: a memory fence (rma_passive.c).  1 when done, 0 for the
 * checked path, as rma_copy_try. */
static inline int rma_flush_try(struct rma_win *win, int target)
{
    int state = RMA_LD(win->epoch_state), acc = RMA_EPOCH_ACCESS(state);
    if (rma_epoch_peek(state, RMA_EV_FLUSH) != state || target >= win->nranks || win->net || win->ngathered ||
        win->nboxed || win->race || (acc == RMA_ACC_LOCK && target >= 0 && !win->targets[target].lock_type))
        return 0;
    atomic_thread_fence(memory_order_seq_cst);
    rma_box_serve(win); /* a target polling with flush empties its offered boxes (rma_box.h) */
    return 1;
}

/* The epoch event of an unlock in a lock epoch: the last lock held (counting
 * one of ORMA_PROC_NULL) ends the epoch. */
static inline int rma_unlock_event(const struct rma_win *win)
{
    return win->nlocked + win->null_locked == 1 ? RMA_EV_UNLOCK_LAST : RMA_EV_UNLOCK;
}

/* A new access epoch begins or ends: no target is ready any more. */
static inline void rma_access_reset(struct rma_win *win)
{
    uint32_t gen = RMA_LD(win->access_gen) + 1;
    RMA_ST(win->access_gen, gen ? gen : 1); /* 0 means "never ready" */
}

/* Synchronization: rma_fence.c, rma_pscw.c, rma_passive.c */
int rma_fence(struct rma_win *win, int assert);
int rma_post(struct rma_win *win, const int *ranks, int n, int assert);
int rma_start(struct rma_win *win, const int *ranks, int n, int assert);
int rma_complete(struct rma_win *win);
/* Nonzero when every origin of the open exposure epoch has completed. */
int rma_exposure_done(struct rma_win *win);
/* The exposure epoch ends (wait, or a test that found it done): our boxes
 * into our memory (rma_box.h), then no origin is in it any more. */
void rma_exposure_close(struct rma_win *win);
void rma_wait(struct rma_win *win);
int rma_lock(struct rma_win *win, int type, int target, int assert);
int rma_unlock(struct rma_win *win, int target);
/* Both whole before a face's checks: 1 when done, 0 for the checked path. */
int rma_lock_try(struct rma_win *win, int type, int target, int assert);
int rma_unlock_try(struct rma_win *win, int target);
int rma_lock_all(struct rma_win *win, int assert);
int rma_unlock_all(struct rma_win *win);
/* target < 0: every target; local: flush_local (complete at the origin
 * only) */
int rma_flush(struct rma_win *win, int target, int local);
/* The same, not the program's call: the race checker does not count it
 * as one (a request-based operation completed as it is issued, the
 * program's wait of it is its completion, api_req.c). */
int rma_flush_ops(struct rma_win *win, int target, int local);

#endif
