/* rma_box.h -- small puts to memory this process cannot map, carried by
 * the target itself.
 *
 * A target exposing private memory (a create window on malloc'd memory,
 * the partial pages at its ends) is reached by process_vm_writev, about
 * 1.3 us a call however small the put.  In fence and PSCW epochs the
 * target is inside orma when the epoch closes, so a small put travels
 * instead as an entry in a box in the window's control segment -- one box
 * per origin and target -- and the target copies the entries into its
 * memory when it closes the epoch: at the fence, after the barrier that
 * says every origin has written its boxes; at wait (or a test that finds
 * the epoch complete), once every origin has completed.  An origin whose
 * box fills up writes its entries itself, in one system call of many
 * iovecs, and begins again.  [004] names the same trade for small
 * messages; MPICH's shared-memory queues and liborma-bsp's put box are
 * the same idea.
 *
 * Order.  A target copies the boxes after the barrier of a closing fence,
 * so the others may leave the fence before it has: every access to such a
 * target in a later epoch waits until the target says (box_drained, in its
 * control block) it has done so for every fence that closed.  PSCW needs
 * nothing more: the target copies before wait returns, and an origin
 * reaches it again only after its next post, or by a synchronization that
 * follows its wait.  Puts in passive epochs do not use boxes: the target
 * takes no part in them.
 *
 * The boxes of a window: nranks * nranks of RMA_BOX_BYTES, after the rank
 * blocks and the barrier (rma_ctl.h), in create windows of up to
 * RMA_BOX_MAX_RANKS ranks; pages nobody writes cost nothing. */
#ifndef ORMA_RMA_BOX_H
#define ORMA_RMA_BOX_H

#include "rma_ctl.h"
#include "rma_win.h"

#include <stddef.h>
#include <stdint.h>


#define RMA_BOX_BYTES 4096
#define RMA_BOX_MAX_RANKS 64
#define RMA_BOX_PUT_MAX 256 /* larger puts: one system call is worth it */

/* One box: writer the origin while its epoch is open, then the target,
 * which empties it when it closes its own. */
struct rma_box {
    uint32_t used; /* bytes of entries */
    uint32_t pad[15];
    unsigned char data[RMA_BOX_BYTES - RMA_LINE];
};
_Static_assert(sizeof(struct rma_box) == RMA_BOX_BYTES, "a box is RMA_BOX_BYTES");

/* An entry: its header, then len bytes, padded to 8. */
struct rma_box_entry {
    uint64_t offset; /* in the target's window */
    uint32_t len;
    uint32_t pad;
};

/* The box of origin o at target t. */
static inline struct rma_box *rma_ctl_box(struct rma_ctl_header *h, int t, int o)
{
    return (struct rma_box *)((char *)h + h->box_off) + (size_t)t * h->nranks + (size_t)o;
}

/* Whether a put of len bytes to t may go in its box now (fence and PSCW
 * epochs). */
static inline int rma_box_takes(const struct rma_win *win, const struct rma_target *t, size_t len)
{
    int acc = RMA_EPOCH_ACCESS(win->epoch_state);
    return t->box && len <= RMA_BOX_PUT_MAX &&
           (acc == RMA_ACC_FENCE || acc == RMA_ACC_FENCE_MAYBE || acc == RMA_ACC_START);
}

/* Whether t has emptied its boxes after every fence that closed: a later
 * epoch may reach its memory. */
static inline int rma_box_settled(const struct rma_win *win, const struct rma_target *t)
{
    return !t->box ||
           util_seq_geq(atomic_load_explicit(&t->ctl->box_drained.value, memory_order_acquire), win->fence_closes);
}

/* Wait until it has (it is inside its fence, past the barrier). */
static inline void rma_box_settle(const struct rma_win *win, const struct rma_target *t)
{
    if (!rma_box_settled(win, t))
        util_wait_geq(&t->ctl->box_drained, win->fence_closes);
}
/* Whether our box at t holds puts. */
static inline int rma_box_pending(const struct rma_target *t)
{
    return t->box && t->box->used;
}

/* The origin writes its box at target itself, all at once, and empties it
 * (it is full, or an operation that cannot go in it must follow its puts). */
int rma_box_flush(struct rma_win *win, int target);
/* The put, into target's box (1 when written; else the put fails with
 * *status_p). */
int rma_box_put(struct rma_win *win, int target, size_t offset, const void *origin, size_t len);
/* The target's part at a closing synchronization: every box emptied into
 * our memory (fence: then box_drained says so). */
void rma_box_drain(struct rma_win *win);

#endif
