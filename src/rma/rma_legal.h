/* rma_legal.h -- whether an access to a target is legal now: the one place
 * that decides it for every communication call (rank, epoch, the target's
 * place in the epoch, displacement and range at the target).
 *
 * Two modes of the same function.  Quiet (call == NULL): the fast paths
 * (rma_try_target) ask "yes or no" and take the checked path on any no;
 * inlined with a constant NULL, the messages vanish from their code.
 * Reporting (call names the public call): the checked path (src/api) gets
 * the error with a message naming the rank and the rule. */
#ifndef ORMA_RMA_LEGAL_H
#define ORMA_RMA_LEGAL_H

#include "rma_epoch.h"
#include "rma_win.h"
#include "util_status.h"

#include <stddef.h>
#include <stdint.h>

/* An access the open epoch allows and that has nothing to do: to
 * ORMA_PROC_NULL.  Positive, never an orma status. */
#define RMA_LEGAL_NOTHING 1
/* Quiet mode's "no": not an orma status either. */
#define RMA_LEGAL_NO (-1)

/* The window's epoch state is written here only: an event applied through
 * the table (ORMA_ERR_RMA_SYNC with a message when illegal), or the state
 * an operation leads to once issued (next, from rma_access_legal). */
static inline int rma_epoch_event(struct rma_win *win, int event)
{
    return rma_epoch_apply(&win->epoch_state, event);
}

/* Not written unchanged: threads issuing operations in one epoch (rma_mt.h)
 * then share its line without moving it. */
static inline void rma_epoch_set(struct rma_win *win, int next)
{
    if (__builtin_expect(RMA_LD(win->epoch_state) != next, 0))
        RMA_ST(win->epoch_state, next);
}

/* A target's place in the open epochs -- what rma_access_legal reads -- is
 * written here only, by the synchronizations (rma_pscw.c, rma_passive.c,
 * rma_comm.h). */

/* PSCW: the target is in the group of the access epoch start opens, or
 * leaves it when complete closes it. */
static inline void rma_target_access(struct rma_target *t, int in) { t->in_access = (uint8_t)in; }

/* PSCW: the origin is in the group of the exposure epoch post opens; one
 * more complete expected from it. */
static inline void rma_origin_expose(struct rma_target *o)
{
    o->in_exposure = 1;
    o->complete_expected++;
}

/* The exposure epoch is over (wait, or a test that found it done). */
static inline void rma_exposure_end(struct rma_win *win)
{
    for (int r = 0; r < win->nranks; r++)
        win->targets[r].in_exposure = 0;
}

/* lock (or lock_all, at the first access): type held on the target;
 * taken: its lock word taken (not with NOCHECK; the net transport takes it
 * at unlock or flush). */
static inline void rma_target_locked(struct rma_target *t, int type, int taken)
{
    t->lock_type = (uint8_t)type;
    t->lock_held = (uint8_t)taken;
}

static inline void rma_target_unlocked(struct rma_target *t)
{
    t->lock_type = 0;
    t->lock_held = 0;
}

/* target is a rank of the window or ORMA_PROC_NULL: the first thing a
 * communication call checks, after the window itself. */
static inline __attribute__((always_inline)) int rma_rank_legal(const struct rma_win *win, int target,
                                                                const char *call)
{
    if (__builtin_expect((unsigned)target >= (unsigned)win->nranks, 0) && target != ORMA_PROC_NULL)
        return call ? util_error(ORMA_ERR_RANK, "%s to rank %d: the window has ranks 0..%d", call, target,
                                 win->nranks - 1)
                    : RMA_LEGAL_NO;
    return ORMA_SUCCESS;
}

/* len bytes from lo bytes past displacement disp (in the target's
 * disp_unit; typed transfers reach below their displacement) of target;
 * passive_only: the call is request-based (lock and lock_all epochs only).
 * ORMA_SUCCESS with *off_p the byte offset of disp at the target (dynamic
 * windows: the address) and *next_p the epoch state once the operation is
 * issued; RMA_LEGAL_NOTHING (ORMA_PROC_NULL, once the epoch allows an
 * operation); else an error (reporting) or RMA_LEGAL_NO (quiet). */
static inline __attribute__((always_inline)) int rma_access_legal(struct rma_win *win, int target, int64_t disp,
                                                                  ptrdiff_t lo, size_t len, int passive_only,
                                                                  const char *call, size_t *off_p, int *next_p)
{
    int status = rma_rank_legal(win, target, call);
    if (status)
        return status;
    int state = RMA_LD(win->epoch_state), next = rma_epoch_peek(state, RMA_EV_OP), acc = RMA_EPOCH_ACCESS(state);
    if (__builtin_expect(next < 0, 0))
        return call ? rma_epoch_event(win, RMA_EV_OP) : RMA_LEGAL_NO;
    if (passive_only && acc != RMA_ACC_LOCK && acc != RMA_ACC_LOCK_ALL)
        return call ? util_error(ORMA_ERR_RMA_SYNC, "%s to rank %d: request-based operations need a lock or "
                                 "lock_all epoch", call, target)
                    : RMA_LEGAL_NO;
    if (target == ORMA_PROC_NULL) {
        *off_p = 0;
        *next_p = next;
        return RMA_LEGAL_NOTHING;
    }
    const struct rma_target *t = &win->targets[target];
    if (acc == RMA_ACC_START && !t->in_access)
        return call ? util_error(ORMA_ERR_RMA_SYNC, "%s to rank %d: the rank is not in the group of the open "
                                 "PSCW access epoch", call, target)
                    : RMA_LEGAL_NO;
    if (acc == RMA_ACC_LOCK && !t->lock_type)
        return call ? util_error(ORMA_ERR_RMA_SYNC, "%s to rank %d: the rank is not locked", call, target)
                    : RMA_LEGAL_NO;
    if (__builtin_expect(disp < 0 && len, 0))
        return call ? util_error(ORMA_ERR_DISP, "%s to rank %d: negative displacement %ld", call, target, (long)disp)
                    : RMA_LEGAL_NO;
    size_t off = (size_t)disp, start = 0;
    if (win->flavor != ORMA_WIN_FLAVOR_DYNAMIC && len &&
        (__builtin_mul_overflow((uint64_t)disp, (uint64_t)t->disp_unit, &off) || (lo < 0 && off < (size_t)-lo) ||
         (start = off + (size_t)lo) > t->size || len > t->size - start))
        return call ? util_error(ORMA_ERR_RANGE, "%s of %zu bytes at displacement %ld (unit %d)%s exceeds rank %d's "
                                 "window of %zu bytes (MPI-4.1 12.3: the target buffer must lie in the target "
                                 "window)", call, len, (long)disp, t->disp_unit, lo ? " and the type's bounds" : "",
                                 target, t->size)
                    : RMA_LEGAL_NO;
    *off_p = off;
    *next_p = next;
    return ORMA_SUCCESS;
}

#endif
