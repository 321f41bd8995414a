/* rma_box.h -- small puts and gets to memory this process cannot map,
 * carried out by the target itself.
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
 * iovecs, and begins again.  A small get goes in the box as room for its
 * bytes, which the target fills when it empties the box; at a fence the
 * origin waits, after the barrier, until each target it got from has
 * (box_drained), and copies them out.  [004] names the same trade for small
 * messages; MPICH's shared-memory queues and liborma-bsp's put box are
 * the same idea.
 *
 * Order.  A target copies the boxes after the barrier of a closing fence,
 * so the others may leave the fence before it has: every access to such a
 * target in a later epoch waits until the target says (box_drained, in its
 * control block) it has done so for every fence that closed.  PSCW needs
 * nothing more: the target copies before wait returns, and an origin
 * reaches it again only after its next post, or by a synchronization that
 * follows its wait.  But a PSCW origin's gets must be done when complete
 * returns, which cannot wait for the target's wait (the target may wait
 * only after an access epoch of its own that needs our next post): a box
 * holding gets is offered at complete, as in passive epochs below, and a
 * target in wait or test empties it.
 *
 * Passive epochs.  The target takes no part in them, but it is often
 * inside orma meanwhile -- polling with MPI_Win_sync, MPI_Iprobe or
 * MPI_Test for the data to arrive, or waiting in a barrier.  So a small put
 * or get of a lock or lock_all epoch goes in the box too (a get as room
 * for its bytes, which whoever empties the box fills, and the origin
 * copies out), and the flush or unlock that must complete it
 * offers the box to the target (tail: the bytes offered, and pbox_dirty in
 * its control block): a target serving it (rma_box_serve, in those calls)
 * copies the entries into its memory and clears tail.  An origin not
 * served within RMA_BOX_WAIT_NS takes the box back and writes it out
 * itself, in one system call.  Whoever empties a box first takes its claim
 * word, so each entry is applied exactly once (an accumulate could not be
 * applied twice; a put applied late would overwrite a later one); the
 * origin's completion never depends on the target.  An origin the target
 * left waiting offers the next 2, 4, ... 256 boxes to nobody, then tries
 * again.  MPICH's shared-memory queues complete such puts by the target's
 * progress too, but wait for it without bound.
 *
 * Typed puts.  The runs of a typed put to such memory go in as entries of
 * their own when they are few and short; a layout of many runs goes in
 * packed, a box's worth at a time (passive epochs: left in the origin's
 * memory whole, one entry naming it), and the target unpacks it along the
 * layout, which it reads from the origin once (rma_box_typed.c).  An
 * origin waits for a box of packed data longer before it takes it back:
 * carrying it out itself costs it a system call per few runs.
 *
 * The boxes of a window: nranks * nranks of RMA_BOX_BYTES, after the rank
 * blocks and the barrier (rma_ctl.h), in create windows of up to
 * RMA_BOX_MAX_RANKS ranks; pages nobody writes cost nothing. */
#ifndef ORMA_RMA_BOX_H
#define ORMA_RMA_BOX_H

#include "rma_ctl.h"
#include "rma_win.h"
#include "xport.h"
#include "util_config.h"

#include <stddef.h>
#include <stdint.h>


#define RMA_BOX_BYTES 16384
#define RMA_BOX_MAX_RANKS 64
#define RMA_BOX_LEN_MAX 6144 /* ORMA_BOX_MAX at most: an entry of two parts fits */
#define RMA_BOX_RUN_MAX 256  /* a typed put's runs at most this long on average go in the box */
#define RMA_BOX_WAIT_NS 3000 /* an offered box: then the origin empties it */
#define RMA_BOX_TYPED_WAIT_NS 50000 /* ... one holding a typed put's packed data */
#define RMA_BOX_SKIP_MAX 256 /* boxes an origin left waiting offers to nobody */
#define RMA_BOX_SCAN_MAX 8   /* windows of more ranks: pbox_dirty says which
                                target to look at; else it scans the boxes */
enum { RMA_BOX_FREE, RMA_BOX_TARGET, RMA_BOX_ORIGIN };

/* One box: writer the origin while its epoch is open, then the target,
 * which empties it when it closes its own. */
struct rma_box {
    uint32_t used;          /* bytes of entries */
    _Atomic uint32_t tail;  /* passive epochs: the bytes offered to the
                               target, 0 once they are in its memory */
    _Atomic uint32_t claim; /* passive epochs: RMA_BOX_* emptying it now */
    _Atomic uint32_t fault; /* passive epochs: set by a target that could not
                               apply the box (a bad entry), read by the origin */
    /* from here: the first entries share the header's cache line, so an
     * offered box of one small put is one line for the target to fetch */
    unsigned char data[RMA_BOX_BYTES - 16];
};
_Static_assert(sizeof(struct rma_box) == RMA_BOX_BYTES, "a box is RMA_BOX_BYTES");

/* An entry: its header, then its parts of len bytes, each padded to 8. */
enum { RMA_BOX_E_PUT, RMA_BOX_E_GET, RMA_BOX_E_ACC, RMA_BOX_E_GACC, RMA_BOX_E_CAS, RMA_BOX_E_TYPED, RMA_BOX_E_PULL };
struct rma_box_entry {
    uint64_t offset;  /* in the target's window */
    uint32_t len;
    uint8_t kind;     /* PUT: its bytes; GET: room for them, which whoever
                         empties the box fills; ACC: an accumulate of op on
                         elements of typeid_, the origin's bytes (none for
                         ORMA_NO_OP); GACC: the same, then room for the old
                         contents; CAS: origin, compare, room for the old
                         element (rma_box_acc.c); TYPED: a part of a
                         typed put's packed data, after its description
                         (struct rma_box_typed; offset: the first byte the
                         put reaches, len: the part's bytes); PULL: the
                         same with all its packed bytes left in the
                         origin's memory, for the target to read */
    uint8_t op;       /* ACC, GACC: enum orma_op */
    uint16_t typeid_; /* ACC, GACC, CAS */
};
_Static_assert(sizeof(struct rma_box_entry) == 16, "an entry header is 16 bytes");

static inline size_t rma_box_part(size_t len)
{
    return (len + 7) & ~(size_t)7;
}

/* The parts that follow e's header. */
static inline size_t rma_box_parts(const struct rma_box_entry *e)
{
    switch (e->kind) {
    case RMA_BOX_E_ACC:
        return e->op != ORMA_NO_OP;
    case RMA_BOX_E_GACC:
        return (size_t)(e->op != ORMA_NO_OP) + 1;
    case RMA_BOX_E_CAS:
        return 3;
    default:
        return 1;
    }
}

/* What a TYPED entry's bytes are part of (rma_box_typed.c). */
struct rma_box_typed {
    uint64_t serial;  /* the origin's address of the target layout serialized */
    uint64_t slen;    /* its bytes */
    uint64_t tcount;  /* elements of the layout */
    uint64_t from;    /* where the part's bytes begin in the packed data */
    int64_t torigin;  /* the layout's origin, from the entry's offset */
    uint64_t reach;   /* the bytes the put reaches from the entry's offset */
    uint64_t data;    /* PULL: the origin's address of the packed bytes */
    uint32_t key;     /* the layout's number among the origin's in this window */
    uint32_t zero;
};
_Static_assert(sizeof(struct rma_box_typed) == 64, "a typed entry's description is 64 bytes");

/* e's bytes in a box, header and parts. */
static inline size_t rma_box_entry_size(const struct rma_box_entry *e)
{
    if (e->kind == RMA_BOX_E_TYPED || e->kind == RMA_BOX_E_PULL)
        return sizeof *e + sizeof(struct rma_box_typed) + (e->kind == RMA_BOX_E_TYPED ? rma_box_part(e->len) : 0);
    return sizeof *e + rma_box_parts(e) * rma_box_part(e->len);
}

/* The gets in our box at a target, in order: where each one's bytes are in
 * the box, and where they go once it has been emptied. */
struct rma_box_gets {
    uint32_t n;
    struct {
        uint32_t pos, len;
        void *dst;
    } g[sizeof(((struct rma_box *)0)->data) / (sizeof(struct rma_box_entry) + 8)];
};

/* The box of origin o at target t. */
static inline struct rma_box *rma_ctl_box(struct rma_ctl_header *h, int t, int o)
{
    return (struct rma_box *)((char *)h + h->box_off) + (size_t)t * h->nranks + (size_t)o;
}

/* The access epoch an operation being carried out belongs to: the open
 * one, or the one whose closing call carries out its queue (the closing
 * call has already left it: rma_comm_drain). */
static inline int rma_box_access(const struct rma_win *win)
{
    return win->drain_acc ? win->drain_acc : RMA_EPOCH_ACCESS(win->epoch_state);
}

/* Whether that epoch is passive: its boxes are offered at flush and
 * unlock. */
static inline int rma_box_passive(const struct rma_win *win)
{
    int acc = rma_box_access(win);
    return acc == RMA_ACC_LOCK || acc == RMA_ACC_LOCK_ALL;
}

/* Whether a put (put != 0) or get of len bytes to t may go in its box now:
 * puts in every epoch, gets too (fence: filled when the target empties
 * its boxes; PSCW, passive: offered). */
static inline int rma_box_takes(const struct rma_win *win, const struct rma_target *t, size_t len, int put)
{
    int acc = rma_box_access(win);
    return t->box && !win->notify_issuing && len <= util_config.box_max && len <= RMA_BOX_LEN_MAX &&
           (acc == RMA_ACC_LOCK || acc == RMA_ACC_LOCK_ALL ? util_config.passive_box
            : acc == RMA_ACC_START                          ? put || util_config.passive_box
                                                           : acc == RMA_ACC_FENCE || acc == RMA_ACC_FENCE_MAYBE);
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
/* Whether our box at t holds operations; gets among them. */
static inline int rma_box_pending(const struct rma_target *t)
{
    return t->box && t->box->used;
}
static inline int rma_box_getting(const struct rma_target *t)
{
    return t->box_gets && t->box_gets->n;
}

/* Our box at target emptied now (it is full, an operation that cannot go
 * in it must follow its puts, or a passive epoch's flush or unlock
 * completes them): fence and PSCW epochs write it out at once, in one
 * system call; passive ones offer it to the target first. */
int rma_box_flush(struct rma_win *win, int target);
/* A closing fence, after its barrier and our own boxes: the gets in our
 * boxes filled, once each target has emptied its boxes. */
void rma_box_fence_gets(struct rma_win *win);
/* Our offered boxes (passive epochs; PSCW ones holding gets) at target
 * (-1: every target) emptied -- only those holding gets when local
 * (flush_local: boxed puts were copied). */
int rma_box_sync(struct rma_win *win, int target, int local);
/* The target's part in passive epochs: the boxes offered to us emptied
 * into our memory -- those of win, or of every window of this process
 * (callers look at rma_box_windows first). */
void rma_box_serve(struct rma_win *win);
void rma_box_serve_all(void);
extern _Atomic uint32_t rma_box_windows; /* windows of ours with boxes (rma_table.c) */
/* The put, or the get (passive epochs), into target's box. */
int rma_box_put(struct rma_win *win, int target, size_t offset, const void *origin, size_t len);
/* A run of a typed put (len <= RMA_BOX_RUN_MAX) into target's box: the
 * last entry made longer when it is this walk's and ends where the run
 * begins, so runs that follow each other at the target are one entry
 * however scattered the origin's are. */
int rma_box_run(struct rma_win *win, int target, size_t offset, const void *origin, size_t len);
int rma_box_get(struct rma_win *win, int target, size_t offset, void *dst, size_t len);
/* The target's part at a closing synchronization: every box emptied into
 * our memory (fence: then box_drained says so). */
void rma_box_drain(struct rma_win *win);
/* An accumulate (ACC without type layouts, CAS) into target's box -- its
 * result, if any, copied out as a get's bytes are (rma_box_acc.c). */
int rma_box_acc(struct rma_win *win, const struct xport_op *op);

/* A typed put of many short runs to target, mapped nowhere here, into its
 * box packed, a box's worth at a time, for the target to unpack
 * (rma_box_typed.c). */
int rma_box_typed_put(struct rma_win *win, const struct xport_op *op);
/* A TYPED entry applied to our memory (for origin o), or carried out by
 * us, its origin; what the window keeps for them freed. */
int rma_box_apply_typed(struct rma_win *win, int o, const struct rma_box_entry *e, unsigned char *parts);
int rma_box_carry_typed(struct rma_win *win, int target, const struct rma_box_entry *e, unsigned char *parts);
void rma_box_typed_free(struct rma_win *win);
/* Our box at target emptied: the packed data its PULL entries named freed. */
void rma_box_typed_emptied(struct rma_win *win, int target);

/* Within rma_box*.c: room for an entry of bytes (header included) in
 * target's box; an entry appended (it fits), where its parts begin; the
 * len bytes at pos of our box at target to be copied to dst once the box
 * is emptied; an accumulate entry applied to our memory (for origin o),
 * or carried out by us, its origin. */
int rma_box_room(struct rma_win *win, int target, size_t bytes);
uint32_t rma_box_add_entry(struct rma_box *b, const struct rma_box_entry *e);
void rma_box_note_get(struct rma_win *win, int target, uint32_t pos, size_t len, void *dst);
int rma_box_apply_acc(struct rma_win *win, int o, const struct rma_box_entry *e, unsigned char *parts);
int rma_box_carry_acc(struct rma_win *win, int target, const struct rma_box_entry *e, unsigned char *parts);

#endif
