/* rma_acc.h -- performing accumulate-family operations.
 *
 * Three ways to update the target, chosen per operation:
 *   - a hardware atomic (rma_atomic.h), on memory every rank maps, for an
 *     update of one element the machine can swap whole;
 *   - plain loops under an exclusive lock, when nothing else can touch the
 *     target: the reduction kernels in place (mapped memory), or read,
 *     combine and write back in chunks (single-copy syscalls);
 *   - the same loops under the target's striped locks, for everything else
 *     -- large updates, because a vectorised loop under one lock beats an
 *     atomic instruction per element as soon as there are a few dozen, and
 *     small ones while no other origin meets them there (rma_acc_try).
 * rma_stripe.h says how the first and the third exclude each other, so
 * that the choice can be made per operation.
 * rma_acc_try does all three inline for a target already open and mapped;
 * rma_acc, for the faces' other calls, the first; the rest goes through
 * rma_comm_slow like put and get, so accumulates are queued, ordered and
 * drained with them. */
#ifndef ORMA_RMA_ACC_H
#define ORMA_RMA_ACC_H

#include "rma_atomic.h"
#include "rma_comm.h"
#include "rma_mt.h"
#include "rma_stripe.h"

#include <string.h>

/* An update of several elements is atomic as a whole, under the stripes,
 * never element by element: MPI promises atomicity per basic element only,
 * but every MPI library gives it per operation, and programs rely on it --
 * a list append or a chase of a 16-byte {rank, displacement} link as
 * MPI_BYTEs (MPICH's linked-list tests read torn links from orma when it
 * used one hardware atomic per byte).  It costs nothing alone: 1 to 32
 * elements under a stripe took 29-31 ns with liborma-mpi (accumulate +
 * flush, shared window), 2 uint64 with hardware atomics 35 ns. */

/* Perform an ACC or CAS operation at w, its target being open. */
int rma_acc_execute(struct rma_win *win, const struct xport_op *op, const struct rma_where *w);
/* The same under the stripes, never with hardware atomics: for a rank
 * updating its own memory for another (the net transport's target side,
 * perhaps on a thread of its own), which must not write the hw_busy slots
 * its own rank's accumulates write (rma_stripe.h: one writer each). */
int rma_acc_execute_plain(struct rma_win *win, const struct xport_op *op, const struct rma_where *w);
/* Set while this thread updates its rank's memory for another rank:
 * rma_acc_execute then takes rma_acc_execute_plain's way. */
extern _Thread_local int rma_acc_for_peer;
/* An accumulate (typed or not) another rank asked of our own memory -- the
 * net transport's target side, an origin's box (rma_box_acc.c) -- applied
 * so (rma_net_host.c); ORMA_ERR_RANGE outside our window. */
int rma_acc_host(struct rma_win *win, const struct xport_op *op);

/* body(op) with everybody else's accumulates kept away from the bytes
 * [op->offset, op->offset + op->len) of the target: nothing to do under an
 * exclusive lock, else the stripes, and no hardware-atomic update of the
 * target in flight. */
struct rma_acc_plan;
typedef int (*rma_acc_body)(struct rma_win *win, const struct xport_op *op, const struct rma_where *w,
                            const struct rma_acc_plan *plan);
int rma_acc_locked(struct rma_win *win, const struct xport_op *op, const struct rma_where *w, rma_acc_body body);

/* The plan of an ACC or CAS operation (CAS: its type's width). */
static inline const struct rma_acc_plan *rma_acc_plan_of(const struct xport_op *op)
{
    return rma_acc_plan(op->kind == XPORT_OP_CAS ? ORMA_REPLACE : op->op, op->typeid_);
}

/* The plan of an accumulate or compare-and-swap another rank asks us to
 * carry out (through its box, or over the net transport), or NULL when it
 * cannot be: a kind, op or type out of range, an op the type lacks, bytes
 * that are not whole elements (untyped; a compare-and-swap: one element),
 * no origin or compare value where the op reads them. */
const struct rma_acc_plan *rma_acc_plan_peer(const struct xport_op *op);

/* Perform op at p (mapped memory every rank maps, no exclusive lock) with
 * hardware atomics: 1 when done, 0 when it must take the stripes -- too
 * long, elements the machine cannot swap whole, or a plain loop holds one
 * of its stripes (rma_stripe.h). */
static inline int rma_acc_hw_on(const struct rma_win *win, const struct xport_op *op, char *p,
                                _Atomic uint32_t *busy)
{
    const struct rma_acc_plan *plan = rma_acc_plan_of(op);
    if (op->len != plan->extent || !rma_atomic_fits(plan, p) ||
        !rma_hw_enter(busy, win->targets[op->target].stripes, (uint64_t)op->offset, op->len))
        return 0;
    if (op->kind == XPORT_OP_CAS)
        rma_atomic_cas(plan->width, p, op->origin, op->compare, op->result);
    else
        rma_atomic_acc(plan, p, op->origin, op->result, op->len / plan->extent);
    rma_hw_leave(busy);
    return 1;
}

/* ... as this rank's one updater (hw_busy: not ORMA_THREAD_MULTIPLE). */
static inline int rma_acc_hw(struct rma_win *win, const struct xport_op *op, char *p)
{
    return rma_acc_hw_on(win, op, p, &win->my_hw_busy[op->target]);
}

/* The same under ORMA_THREAD_MULTIPLE, on memory every rank maps (shared)
 * at p: with this thread's slot (rma_stripe.h), always when it fits --
 * the threads of a rank meet each other on its targets, and hardware
 * atomics only share the element's line where the stripe would be a lock
 * they all wait for (fetch-and-ops of 2 threads to one window under
 * lock_all, orma-bench mt: 1.08x the rate of 1 thread under the stripe). */
static inline int rma_acc_hw_mt(struct rma_win *win, const struct xport_op *op, char *p, int shared)
{
    _Atomic uint32_t *busy;
    return shared && (busy = rma_mt_hw_busy(win)) && rma_acc_hw_on(win, op, p, busy);
}

/* An ACC or CAS operation; op->len > 0.  Hardware atomics whether or not
 * the target was found contended: this inline path has no stripe of its
 * own, and the other way is the whole slow path (rma_acc_execute). */
static inline int rma_acc(struct rma_win *win, const struct xport_op *op)
{
    struct rma_target *t = &win->targets[op->target];
    if (__builtin_expect(t->direct && t->shared && rma_target_ready(win, t) &&
                             t->lock_type != ORMA_LOCK_EXCLUSIVE && !rma_threads, 1) &&
        rma_acc_hw(win, op, t->base + op->offset))
        return ORMA_SUCCESS;
    return rma_comm_slow(win, op);
}

/* Whether p is aligned for the kernels of elements of extent bytes. */
static inline int rma_acc_aligned(const void *p, size_t extent)
{
    size_t a = extent < 16 ? extent : 16;
    return ((uintptr_t)p & (a - 1)) == 0;
}

/* The ACC operation op as plain loads and stores at p, mapped here and
 * aligned for the kernel as the origin is (rma_acc_aligned), the caller
 * keeping everybody else away. */
static inline void rma_acc_in_place(const struct xport_op *op, char *p, const struct rma_acc_plan *plan)
{
    if (op->result)
        util_copy(op->result, p, op->len);
    if (plan->writes)
        plan->kernel(p, op->origin, op->len / plan->extent);
}

/* Holding the stripes of a mapped target: wait until no other origin is in
 * the middle of a hardware-atomic update of it (rma_stripe.h); whether one
 * was. */
static inline int rma_hw_drain(struct rma_win *win, int target)
{
    int busy_seen = 0;
    for (int o = 0; o < win->nranks; o++) {
        const struct rma_target *t = &win->targets[o];
        /* ours too: even when this thread is its one updater, but maybe
         * not when this thread serves a peer beside the program's */
        busy_seen |= rma_hw_wait(&t->hw_busy[target]);
        if (t->threads)
            busy_seen |= rma_hw_wait_threads(t->hw_threads);
    }
    return busy_seen;
}

/* Keep everybody else's accumulates away from the stripes of mask of
 * target (and, when hw, its hardware-atomic updates in flight): whether
 * another origin was met there.  Release with rma_stripe_unlock. */
static inline int rma_acc_exclude(struct rma_win *win, int target, uint64_t mask, int hw)
{
    int met = rma_stripe_lock(win->targets[target].stripes, mask);
    if (hw)
        met |= rma_hw_drain(win, target);
    return met;
}

/* How many small accumulates to a target go by hardware atomics after one
 * found it contended (rma_acc_try, rma_acc_locked): about for good.  Fetch-and-ops of every
 * rank to one target (orma-bench atomics fop_cont, 4 ranks on 2 cores)
 * took 0.044 us with hardware atomics only, 0.044 with this and 0.125 with
 * 256, where every 257th went back to the stripe and met a stripe holder
 * that had lost its core. */
#define RMA_ACC_CONTENDED UINT16_MAX

/* rma_acc_try under ORMA_THREAD_MULTIPLE, without the window's lock
 * (rma_mt.h): a target open to this epoch and mapped here, the update
 * inside one stripe, which it takes -- the stripes keep this rank's threads
 * apart as they keep ranks apart; anything else takes the checked path.
 * Out of line (rma_acc.c), as rma_copy_try_mt. */
int rma_acc_try_mt(struct rma_win *win, int target, int64_t disp, const void *origin, void *result, size_t len,
                   int op, int typeid_, const struct rma_acc_plan *plan, int *status_p);

/* An accumulate (result NULL) or get_accumulate of count elements of
 * predefined type typeid_ with op (not NO_OP) whole, as rma_copy_try: 1
 * when done, its status in *status_p (the epoch records it), 0 for the
 * checked path.  Inline to the end in the common cases -- hardware
 * atomics, or the kernel in place under an exclusive lock or one stripe --
 * as Open MPI's osc/sm does its one lock, loop and unlock inline: the
 * layers of rma_acc_execute cost 3 ns of a 28 ns accumulate+flush.
 *
 * Small accumulates choose between the two ways by contention.  Alone, one
 * stripe is one atomic instruction where hardware atomics are two (the
 * origin's busy counter, then the element): an 8-byte accumulate+flush
 * 23 ns against 28.  Contended, the stripe is a lock that every origin
 * waits for, and hardware atomics only share the element's line: 8-byte
 * fetch-and-ops of every rank to one target took 0.11-0.23 us under the
 * stripe against 0.042 with hardware atomics.  So a small accumulate takes
 * the stripe until the stripe or the drain finds another origin there,
 * then hardware atomics for the next RMA_ACC_CONTENDED to that target
 * (an origin whose accumulates once met another's keeps paying the second
 * atomic, 5 ns, rather than risk waiting for a preempted stripe holder).
 * Both ways are correct against each other (rma_stripe.h); only the cost
 * depends on the choice. */
static inline int rma_acc_try(struct rma_win *win, int target, int64_t disp, const void *origin, void *result,
                              size_t count, int typeid_, int op, int *status_p)
{
    if ((unsigned)op >= ORMA_OP_COUNT || op == ORMA_NO_OP || (unsigned)typeid_ >= ORMA_TYPEID_COUNT || !origin ||
        __builtin_expect(win->race != NULL, 0)) /* every access through the checked path (rma_race.h) */
        return 0;
    const struct rma_acc_plan *plan = rma_acc_plan(op, typeid_);
    size_t len, off;
    int next;
    struct rma_target *t;
    char *p;
    if (!plan->kernel || __builtin_mul_overflow(count, (size_t)plan->extent, &len))
        return 0;
    if (__builtin_expect(rma_threads, 0))
        return rma_acc_try_mt(win, target, disp, origin, result, len, op, typeid_, plan, status_p);
    if (!(t = rma_try_target(win, target, disp, len, &off, &next)) || !(p = rma_try_mapped(t, off, len)))
        return 0;
    struct xport_op rop = {.kind = XPORT_OP_ACC, .op = (uint8_t)op, .typeid_ = (uint16_t)typeid_, .target = target,
                         .origin = (void *)origin, .result = result, .len = len, .offset = off};
    int direct = t->direct, exclusive = t->lock_type == ORMA_LOCK_EXCLUSIVE;
    int shared = direct ? t->shared : 1, hw = direct ? t->hw : 1;
    uint64_t stripe = (uint64_t)off >> RMA_STRIPE_SHIFT;
    int aligned = rma_acc_aligned(p, plan->extent) && rma_acc_aligned(origin, plan->extent);
    *status_p = ORMA_SUCCESS;
    if (!exclusive && shared && t->acc_contended && rma_acc_hw(win, &rop, p)) {
        t->acc_contended--;
    } else if (aligned && exclusive) {
        rma_acc_in_place(&rop, p, plan);
    } else if (aligned && stripe == ((uint64_t)off + len - 1) >> RMA_STRIPE_SHIFT) {
        uint64_t mask = UINT64_C(1) << (stripe % RMA_STRIPES);
        int met = rma_acc_exclude(win, target, mask, hw);
        rma_acc_in_place(&rop, p, plan);
        rma_stripe_unlock(t->stripes, mask);
        if (met)
            t->acc_contended = RMA_ACC_CONTENDED;
    } else {
        struct rma_where w = {.shared = shared, .hw = hw};
        xport_set_here(&w.at, p);
        *status_p = rma_acc_execute(win, &rop, &w);
    }
    rma_epoch_set(win, next);
    return 1;
}

#endif
