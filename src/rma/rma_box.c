/* rma_box.c -- small puts and gets through the target's boxes (rma_box.h);
 * accumulates in rma_box_acc.c. */
#include "rma_box.h"
#include "rma_comm.h"
#include "util_status.h"
#include "util_time.h"
#include "util_wait.h"

#include <stdlib.h>
#include <string.h>

#define RMA_BOX_CARRY_BATCH 256 /* pieces per call of the transport */

/* The bytes of a put's or get's entry of len bytes. */
static size_t rma_box_entry_bytes(size_t len)
{
    struct rma_box_entry e = {.len = (uint32_t)len, .kind = RMA_BOX_E_PUT};
    return rma_box_entry_size(&e);
}

uint32_t rma_box_add_entry(struct rma_box *b, const struct rma_box_entry *e)
{
    uint32_t pos = b->used + (uint32_t)sizeof *e;
    memcpy(b->data + b->used, e, sizeof *e);
    b->used += (uint32_t)rma_box_entry_size(e);
    return pos;
}

/* Append an entry for len bytes at offset (it fits): a put of origin's
 * bytes, or (origin NULL) room for a get's.  Where its bytes are. */
static uint32_t rma_box_add(struct rma_box *b, size_t offset, const void *origin, size_t len)
{
    struct rma_box_entry e = {.offset = offset, .len = (uint32_t)len, .kind = origin ? RMA_BOX_E_PUT : RMA_BOX_E_GET};
    uint32_t pos = rma_box_add_entry(b, &e);
    if (origin)
        memcpy(b->data + pos, origin, len);
    return pos;
}

/* The entries of our box at target, its first used bytes, carried out by
 * us: one system call for each run of puts or of gets, accumulates one
 * by one, in order. */
static int rma_box_carry(struct rma_win *win, int target, size_t used)
{
    struct rma_box *b = win->targets[target].box;
    struct xport_piece p[RMA_BOX_CARRY_BATCH];
    size_t n = 0;
    int put = 1;
    int status = ORMA_SUCCESS;
    for (size_t pos = 0; pos < used && !status;) {
        struct rma_box_entry e;
        memcpy(&e, b->data + pos, sizeof e);
        int copy = e.kind == RMA_BOX_E_PUT || e.kind == RMA_BOX_E_GET;
        if (n && (!copy || put != (e.kind == RMA_BOX_E_PUT) || n == RMA_BOX_CARRY_BATCH)) {
            status = rma_far_pieces(win, target, put, p, n);
            n = 0;
        }
        if (copy) {
            put = e.kind == RMA_BOX_E_PUT;
            p[n++] = (struct xport_piece){b->data + pos + sizeof e, (size_t)e.offset, e.len};
        } else if (!status) {
            unsigned char *parts = b->data + pos + sizeof e;
            status = e.kind == RMA_BOX_E_TYPED || e.kind == RMA_BOX_E_PULL ? rma_box_carry_typed(win, target, &e, parts)
                                                                          : rma_box_carry_acc(win, target, &e, parts);
        }
        pos += rma_box_entry_size(&e);
    }
    return n && !status ? rma_far_pieces(win, target, put, p, n) : status;
}

/* Wait up to ns for the target to empty b: 1 when it has.  A wait longer
 * than RMA_BOX_WAIT_NS backs off as other waits do (yields where the
 * target may need this core). */
static int rma_box_served(struct rma_box *b, uint64_t ns)
{
    uint64_t end = util_time_ns() + ns;
    struct util_backoff bo = {0};
    for (unsigned i = 1;; i++) {
        if (!atomic_load_explicit(&b->tail, memory_order_acquire))
            return 1;
        if (ns > RMA_BOX_WAIT_NS)
            (void)util_backoff_relax(&bo);
        else
            util_cpu_relax();
        if (!(i & 15) && util_time_ns() > end)
            return 0;
    }
}

/* The target emptied our offered box: whether it applied every entry. */
static int rma_box_applied(struct rma_win *win, int target, struct rma_box *b)
{
    win->targets[target].box_misses = 0;
    if (!atomic_load_explicit(&b->fault, memory_order_relaxed))
        return ORMA_SUCCESS;
    atomic_store_explicit(&b->fault, 0, memory_order_relaxed);
    return util_error(ORMA_ERR_PEER, "window %u: rank %d could not apply the operations rank %d left in its box",
                      win->id, target, win->rank);
}

/* A passive epoch's box at target, offered to it, taken back and written
 * out by us unless it empties it meanwhile (rma_box.h). */
static int rma_box_offer(struct rma_win *win, int target)
{
    struct rma_target *t = &win->targets[target];
    struct rma_box *b = t->box;
    /* A box of packed typed data costs us a system call per run or so to
     * carry out (rma_box_typed.c), more than waiting: waited for longer,
     * and one left waiting makes us carry out only the next. */
    int typed = t->box_typed;
    if (t->box_skip) { /* it left the last offers waiting */
        t->box_skip--;
        return rma_box_carry(win, target, b->used);
    }
    atomic_store_explicit(&b->tail, b->used, memory_order_seq_cst);
    /* pairs with rma_box_serve's exchange: it sees tail, or we see it clear */
    if (win->nranks > RMA_BOX_SCAN_MAX && !atomic_load_explicit(&t->ctl->pbox_dirty, memory_order_seq_cst))
        atomic_store_explicit(&t->ctl->pbox_dirty, 1, memory_order_seq_cst);
    if (rma_box_served(b, typed ? RMA_BOX_TYPED_WAIT_NS : RMA_BOX_WAIT_NS))
        return rma_box_applied(win, target, b);
    struct util_backoff bo = {0};
    for (;;) {
        uint32_t free_ = RMA_BOX_FREE;
        if (atomic_compare_exchange_strong_explicit(&b->claim, &free_, RMA_BOX_ORIGIN, memory_order_acquire,
                                                    memory_order_relaxed))
            break;
        /* the target took it and is emptying it (a full box of scattered
         * runs takes it longer than RMA_BOX_WAIT_NS): served, not missed */
        if (!atomic_load_explicit(&b->tail, memory_order_acquire))
            return rma_box_applied(win, target, b);
        util_backoff_pause(&bo);
    }
    uint32_t used = atomic_load_explicit(&b->tail, memory_order_relaxed);
    if (used && typed) { /* the next one carried out, then offered again */
        t->box_skip = 1;
    } else if (used) { /* taken back: the target left it waiting */
        if (t->box_misses < 8)
            t->box_misses++;
        t->box_skip = (uint16_t)(1u << t->box_misses);
        if (t->box_skip > RMA_BOX_SKIP_MAX)
            t->box_skip = RMA_BOX_SKIP_MAX;
    }
    int status = used ? rma_box_carry(win, target, used) : ORMA_SUCCESS;
    atomic_store_explicit(&b->tail, 0, memory_order_release);
    atomic_store_explicit(&b->claim, RMA_BOX_FREE, memory_order_release);
    return status;
}

/* The gets of our box at t, once it has been emptied (status 0): their
 * bytes where they go. */
static void rma_box_replies(struct rma_win *win, struct rma_target *t, int status)
{
    struct rma_box_gets *gs = t->box_gets;
    if (!gs || !gs->n)
        return;
    for (uint32_t i = 0; i < gs->n && !status; i++)
        memcpy(gs->g[i].dst, t->box->data + gs->g[i].pos, gs->g[i].len);
    gs->n = 0;
    if (!t->box_offered)
        win->nboxgets--;
}

int rma_box_flush(struct rma_win *win, int target)
{
    struct rma_target *t = &win->targets[target];
    if (!t->box_offered) { /* fence or PSCW, and nothing offered: at once */
        size_t used = t->box->used;
        t->box->used = 0;
        int status = rma_box_carry(win, target, used);
        rma_box_replies(win, t, status);
        if (t->box_typed)
            rma_box_typed_emptied(win, target);
        return status;
    }
    int status = rma_box_offer(win, target);
    rma_box_replies(win, t, status);
    if (t->box_typed)
        rma_box_typed_emptied(win, target);
    t->box->used = 0;
    t->box_offered = 0;
    RMA_ADD(win->nboxed, -1);
    return status;
}

void rma_box_fence_gets(struct rma_win *win)
{
    for (int r = 0; r < win->nranks && win->nboxgets; r++) {
        struct rma_target *t = &win->targets[r];
        if (!rma_box_getting(t) || t->box_offered)
            continue;
        rma_box_settle(win, t);
        rma_box_replies(win, t, ORMA_SUCCESS);
    }
}

int rma_box_sync(struct rma_win *win, int target, int local)
{
    int status = ORMA_SUCCESS;
    int lo = target < 0 ? 0 : target, hi = target < 0 ? win->nranks : target + 1;
    for (int r = lo; r < hi && win->nboxed; r++) {
        struct rma_target *t = &win->targets[r];
        if (!t->box_offered || !rma_box_pending(t) || (local && !rma_box_getting(t)))
            continue; /* a box not offered waits for its target's wait or fence */
        int rc = rma_box_flush(win, r);
        if (!status)
            status = rc;
    }
    return status;
}

/* Room in target's box for an entry of bytes: the box emptied first when
 * it is full; a box begun in a passive epoch is offered when emptied. */
int rma_box_room(struct rma_win *win, int target, size_t bytes)
{
    struct rma_target *t = &win->targets[target];
    struct rma_box *b = t->box;
    if (b->used + bytes > sizeof b->data) {
        int status = rma_box_flush(win, target);
        if (status)
            return status;
    }
    if (!b->used) {
        t->box_run = 0;
        t->box_typed = 0;
        if ((t->box_offered = (uint8_t)rma_box_passive(win)))
            RMA_ADD(win->nboxed, 1); /* offered at flush or unlock */
        else
            atomic_store_explicit(&t->ctl->box_dirty, 1, memory_order_relaxed);
    }
    return ORMA_SUCCESS;
}

int rma_box_put(struct rma_win *win, int target, size_t offset, const void *origin, size_t len)
{
    int status = rma_box_room(win, target, rma_box_entry_bytes(len));
    if (!status)
        rma_box_add(win->targets[target].box, offset, origin, len);
    win->targets[target].box_run = 0;
    return status;
}

int rma_box_run(struct rma_win *win, int target, size_t offset, const void *origin, size_t len)
{
    struct rma_target *t = &win->targets[target];
    struct rma_box *b = t->box;
    /* box_run_end == used: nothing was added and nobody emptied the box
     * since (emptied, it begins again in rma_box_room, which forgets) */
    if (t->box_run && b->used == t->box_run_end) {
        size_t at = t->box_run - 1;
        struct rma_box_entry e;
        memcpy(&e, b->data + at, sizeof e);
        size_t grown = at + rma_box_entry_bytes((size_t)e.len + len);
        if (e.kind == RMA_BOX_E_PUT && e.offset + e.len == offset && grown <= sizeof b->data) {
            memcpy(b->data + at + sizeof e + e.len, origin, len);
            e.len += (uint32_t)len;
            memcpy(b->data + at, &e, sizeof e);
            b->used = t->box_run_end = (uint32_t)grown;
            return ORMA_SUCCESS;
        }
    }
    int status = rma_box_room(win, target, rma_box_entry_bytes(len));
    if (status)
        return status;
    t->box_run = b->used + 1;
    rma_box_add(b, offset, origin, len);
    t->box_run_end = b->used;
    return ORMA_SUCCESS;
}

void rma_box_note_get(struct rma_win *win, int target, uint32_t pos, size_t len, void *dst)
{
    struct rma_target *t = &win->targets[target];
    /* PSCW: the target may not empty its boxes before our complete, which
     * cannot wait for its wait -- offered then, as in passive epochs */
    if (!t->box_offered && rma_box_access(win) == RMA_ACC_START) {
        t->box_offered = 1;
        RMA_ADD(win->nboxed, 1);
    }
    struct rma_box_gets *gs = t->box_gets;
    if (!gs->n && !t->box_offered)
        win->nboxgets++; /* fence: filled when the target empties its boxes */
    gs->g[gs->n].pos = pos;
    gs->g[gs->n].len = (uint32_t)len;
    gs->g[gs->n].dst = dst;
    gs->n++;
    t->box_run = 0;
}

int rma_box_get(struct rma_win *win, int target, size_t offset, void *dst, size_t len)
{
    struct rma_target *t = &win->targets[target];
    if (!t->box_gets && !(t->box_gets = calloc(1, sizeof *t->box_gets))) { /* no room to note it: now */
        int status = rma_box_pending(t) ? rma_box_flush(win, target) : ORMA_SUCCESS;
        struct xport_piece now = {dst, offset, len};
        return status ? status : rma_far_pieces(win, target, 0, &now, 1);
    }
    int status = rma_box_room(win, target, rma_box_entry_bytes(len));
    if (status)
        return status;
    rma_box_note_get(win, target, rma_box_add(t->box, offset, NULL, len), len, dst);
    return ORMA_SUCCESS;
}

/* The entries of origin o's box, its first used bytes, into our memory;
 * ORMA_ERR_PEER, and the rest left, at an entry that cannot be applied. */
static int rma_box_apply(struct rma_win *win, int o, struct rma_box *b, size_t used)
{
    if (used > sizeof b->data)
        return util_error(ORMA_ERR_PEER, "window %u: rank %d's box at rank %d says it holds %zu bytes, more than a box",
                          win->id, o, win->rank, used);
    for (size_t pos = 0; pos + sizeof(struct rma_box_entry) <= used;) {
        struct rma_box_entry e;
        memcpy(&e, b->data + pos, sizeof e);
        size_t step = rma_box_entry_size(&e);
        /* a typed entry's len counts packed bytes: it checks its reach */
        if (step > used - pos || e.offset > win->size ||
            (e.kind != RMA_BOX_E_TYPED && e.kind != RMA_BOX_E_PULL && e.len > win->size - e.offset)) {
            return util_error(ORMA_ERR_PEER,
                              "window %u: rank %d's box at rank %d holds an access of %u bytes at %llu, outside "
                              "the window", win->id, o, win->rank, e.len, (unsigned long long)e.offset);
        }
        if (e.kind == RMA_BOX_E_GET)
            memcpy(b->data + pos + sizeof e, (char *)win->base + e.offset, e.len);
        else if (e.kind == RMA_BOX_E_PUT)
            memcpy((char *)win->base + e.offset, b->data + pos + sizeof e, e.len);
        else if (e.kind == RMA_BOX_E_TYPED || e.kind == RMA_BOX_E_PULL
                     ? rma_box_apply_typed(win, o, &e, b->data + pos + sizeof e)
                     : rma_box_apply_acc(win, o, &e, b->data + pos + sizeof e))
            return ORMA_ERR_PEER;
        pos += step;
    }
    return ORMA_SUCCESS;
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
        if (b->used) /* a bad entry is reported here: the origin has moved on */
            (void)rma_box_apply(win, o, b, b->used);
        b->used = 0;
    }
}

void rma_box_serve(struct rma_win *win)
{
    struct rma_ctl_rank *c = win->my_ctl;
    if (!win->box_in)
        return;
    if (win->nranks > RMA_BOX_SCAN_MAX) { /* else a look at each box costs what one at pbox_dirty would */
        if (!atomic_load_explicit(&c->pbox_dirty, memory_order_relaxed))
            return;
        atomic_exchange_explicit(&c->pbox_dirty, 0, memory_order_seq_cst);
    }
    for (int o = 0; o < win->nranks; o++) {
        struct rma_box *b = rma_ctl_box(win->ctl, win->rank, o);
        if (!atomic_load_explicit(&b->tail, memory_order_seq_cst))
            continue;
        uint32_t free_ = RMA_BOX_FREE;
        if (!atomic_compare_exchange_strong_explicit(&b->claim, &free_, RMA_BOX_TARGET, memory_order_acquire,
                                                     memory_order_relaxed))
            continue; /* its origin took it back */
        /* Its origin may have taken it back and emptied it since: then it
         * may offer it again at any moment, and tail is its own. */
        uint32_t used = atomic_load_explicit(&b->tail, memory_order_acquire);
        if (used) {
            if (rma_box_apply(win, o, b, used)) /* its origin learns it when it sees tail clear */
                atomic_store_explicit(&b->fault, 1, memory_order_relaxed);
            atomic_store_explicit(&b->tail, 0, memory_order_release);
        }
        atomic_store_explicit(&b->claim, RMA_BOX_FREE, memory_order_release);
    }
}

/* Threads (rma_mt.h): a window another thread holds is passed over --
 * it serves its boxes itself, and may be freeing it. */
static void rma_box_serve_free(struct rma_win *win)
{
    if (!rma_threads) {
        rma_box_serve(win);
    } else if (util_rlock_try(&win->mt_lock)) {
        rma_box_serve(win);
        util_rlock_give(&win->mt_lock);
    }
}

void rma_box_serve_all(void)
{
    rma_win_foreach(rma_box_serve_free);
}
