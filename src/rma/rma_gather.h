/* rma_gather.h -- puts and gets to memory this process cannot map,
 * gathered at the origin and carried out together.
 *
 * A target exposing private memory (a create window on malloc'd memory,
 * the partial pages at a window's ends, the stack) is reached by
 * process_vm_writev and _readv, about 1.3 us a call however small the
 * transfer -- and most of it is the call, not the bytes.  An operation
 * completes only at the synchronization that ends its epoch (fence,
 * complete, unlock), at a flush of its target, or, for the origin's side,
 * at flush_local; the origin's buffer is not to be touched until then.  So
 * the origin holds them: a put of up to RMA_GATHER_COPY bytes is copied
 * into the target's gather (its buffer free again at once), a longer put
 * or any get is noted with the caller's buffer, and the first
 * synchronization that must complete them carries them all out in one
 * system call of many iovecs -- in which operations adjacent at the
 * target, and copies adjacent here, are one iovec each (xport_cma.c).  An
 * epoch of k small puts then costs one call instead of k, and k adjacent
 * ones about what one does.  (Short puts and gets go in the target's box
 * instead where it has boxes, rma_box.h: in fence and PSCW epochs the
 * target empties it, in passive ones it may, and no system call is made
 * when it does.)
 *
 * Order.  A gather holds puts or gets, never both: an operation of the
 * other direction, or any other operation to that target (accumulates,
 * typed transfers, an access to its pages mapped here), first carries out
 * what is pending, so everything reaches the target in the order it was
 * issued -- more than MPI asks (conflicting accesses in one epoch are
 * erroneous), and what programs that break that rule still expect.  The
 * pieces of one system call are applied in order, so of two puts to the
 * same bytes the later wins.  A box that holds puts is emptied before
 * anything goes in the gather (its puts land only when the target closes,
 * or serves it), and a gather that holds operations is carried out before
 * a put goes in the box: the two are never pending at once.
 *
 * What completes: fence and complete, flush and unlock (and their _all
 * forms) everything pending at their targets, before they say so to
 * anybody; flush_local (and a request's wait) the gets, whose buffers they
 * fill.  The puts that borrowed the caller's buffer it copies into the
 * gather's keep (RMA_GATHER_KEEP bytes, allocated at its first use), which
 * frees the caller's buffers as MPI asks and leaves the system call to the
 * flush or unlock (a 4 KB put+flush_local: one copy, where the call took
 * 2.4 us); it carries them out when they do not fit.  Targets with
 * pages mapped here gather only short operations: a long one is split
 * over the mapped pages (memcpy) and the rest.  ORMA_GATHER=0: every such
 * operation is a system call of its own. */
#ifndef ORMA_RMA_GATHER_H
#define ORMA_RMA_GATHER_H

#include "rma_box.h"
#include "rma_win.h"
#include "util_config.h"
#include "xport.h"

#define RMA_GATHER_COPY 256 /* longer puts: borrow the caller's buffer */
#define RMA_GATHER_PIECES 256
#define RMA_GATHER_BYTES 4096
#define RMA_GATHER_KEEP 16384 /* borrowed puts copied at flush_local */

/* A target's pending operations (allocated at its first). */
struct rma_gather {
    size_t n;        /* pieces pending */
    int put;         /* their direction, when n */
    size_t borrowed; /* puts of them from the caller's buffer */
    size_t used;     /* bytes of data */
    unsigned char *keep; /* RMA_GATHER_KEEP bytes, or NULL */
    size_t kept;         /* of them in use */
    struct xport_piece p[RMA_GATHER_PIECES]; /* in issue order */
    unsigned char data[RMA_GATHER_BYTES]; /* the copied puts' bytes */
};

/* Whether a contiguous put or get of len bytes to t, not mapped here, may
 * wait in t's gather (in any access epoch). */
static inline int rma_gather_takes(const struct rma_win *win, const struct rma_target *t, size_t len)
{
    /* every access epoch: each completes them when it closes or flushes;
     * a notified operation's data goes now (rma_notify.h), and every
     * operation of a window the race checker checks, so that its data is
     * in place before the target's own stores of the epoch, as on memory
     * mapped here (rma_race.h: the check of put data at the close) */
    return util_config.gather && !win->notify_issuing && !win->race && t->xp && t->xp->get_pieces &&
           (len <= RMA_GATHER_COPY || t->lo == t->hi);
}

/* Whether t has operations pending. */
static inline int rma_gathered(const struct rma_target *t)
{
    return t->gather && t->gather->n;
}

/* Hold op (XPORT_OP_PUT or _GET, contiguous, rma_gather_takes) in its
 * target's gather; what was pending first when the gather is full or holds
 * the other direction. */
int rma_gather_add(struct rma_win *win, const struct xport_op *op);

/* Free a gather (NULL: nothing), nothing pending. */
void rma_gather_free(struct rma_gather *g);

/* Carry out what target has pending (rma_gathered). */
int rma_gather_complete(struct rma_win *win, int target);

/* flush, flush_all (target < 0), unlock, unlock_all: what is pending at
 * those targets; local (flush_local): where it holds the caller's buffers.
 * The first failure, after trying all. */
int rma_gather_sync(struct rma_win *win, int target, int local);

#endif
