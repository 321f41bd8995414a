/* rma_box.c -- small puts through the target's boxes (rma_box.h). */
#include "rma_box.h"
#include "rma_comm.h"
#include "util_status.h"
#include "util_wait.h"

#include <string.h>

#define RMA_BOX_MAX_ENTRIES (sizeof(((struct rma_box *)0)->data) / sizeof(struct rma_box_entry))

static size_t rma_box_entry_bytes(size_t len)
{
    return sizeof(struct rma_box_entry) + ((len + 7) & ~(size_t)7);
}

/* Append a put of len bytes at offset (it fits). */
static void rma_box_add(struct rma_box *b, size_t offset, const void *origin, size_t len)
{
    struct rma_box_entry e = {.offset = offset, .len = (uint32_t)len};
    memcpy(b->data + b->used, &e, sizeof e);
    memcpy(b->data + b->used + sizeof e, origin, len);
    b->used += (uint32_t)rma_box_entry_bytes(len);
}

/* b's entries as pieces, in order: how many. */
static size_t rma_box_pieces(struct rma_box *b, struct xport_piece *p)
{
    size_t n = 0;
    for (size_t pos = 0; pos < b->used; n++) {
        struct rma_box_entry e;
        memcpy(&e, b->data + pos, sizeof e);
        p[n] = (struct xport_piece){b->data + pos + sizeof e, (size_t)e.offset, e.len};
        pos += rma_box_entry_bytes(e.len);
    }
    return n;
}

int rma_box_flush(struct rma_win *win, int target)
{
    struct rma_target *t = &win->targets[target];
    struct xport_piece p[RMA_BOX_MAX_ENTRIES];
    size_t n = rma_box_pieces(t->box, p);
    t->box->used = 0;
    return rma_far_pieces(win, target, 1, p, n);
}

int rma_box_put(struct rma_win *win, int target, size_t offset, const void *origin, size_t len)
{
    struct rma_target *t = &win->targets[target];
    struct rma_box *b = t->box;
    if (b->used + rma_box_entry_bytes(len) > sizeof b->data) {
        int status = rma_box_flush(win, target);
        if (status)
            return status;
    }
    if (!b->used)
        atomic_store_explicit(&t->ctl->box_dirty, 1, memory_order_relaxed);
    rma_box_add(b, offset, origin, len);
    return ORMA_SUCCESS;
}

/* Origin o's entries into our memory. */
static void rma_box_apply(struct rma_win *win, int o, struct rma_box *b)
{
    for (size_t pos = 0; pos + sizeof(struct rma_box_entry) <= b->used;) {
        struct rma_box_entry e;
        memcpy(&e, b->data + pos, sizeof e);
        size_t step = rma_box_entry_bytes(e.len);
        if (step > b->used - pos || e.offset > win->size || e.len > win->size - e.offset) {
            util_error(ORMA_ERR_PEER, "window %u: rank %d's box at rank %d holds a put of %u bytes at %llu, outside "
                       "the window", win->id, o, win->rank, e.len, (unsigned long long)e.offset);
            break;
        }
        memcpy((char *)win->base + e.offset, b->data + pos + sizeof e, e.len);
        pos += step;
    }
    b->used = 0;
}

void rma_box_drain(struct rma_win *win)
{
    if (!win->box_in)
        return;
    struct rma_ctl_rank *c = win->my_ctl;
    if (!atomic_load_explicit(&c->box_dirty, memory_order_acquire))
        return;
    /* No origin puts into a box again before our fence says we are done
     * (box_drained) or we post again: the boxes are ours until then.  (An
     * origin may not take an empty box_dirty for "nothing to wait for":
     * it could be the old epoch's, read before this drain, and its next
     * puts would race with it.) */
    atomic_store_explicit(&c->box_dirty, 0, memory_order_relaxed);
    for (int o = 0; o < win->nranks; o++) {
        struct rma_box *b = rma_ctl_box(win->ctl, win->rank, o);
        if (b->used)
            rma_box_apply(win, o, b);
    }
}
