/* rma_box_typed.c -- a typed put of many short runs to memory the origin
 * cannot map, unpacked by the target.
 *
 * Through the transport such a put is one remote iovec per run, and the
 * kernel takes 0.3-0.8 us for each: a 1 MB put of 4-byte runs 25 ms where
 * packing, one put of the packed bytes and unpacking take 2.  As runs in
 * the target's box (rma_box_run) it is a 16-byte header per run.  So the
 * origin packs the data straight into its box at the target, a box's
 * worth at a time, each part an entry naming the target layout, and the
 * target unpacks each part as it empties the box: pack + put + unpack, as
 * a program would do by hand, in one call and without a staging area.
 * In passive epochs a put longer than a box stays whole in the origin's
 * memory, packed, and one entry (PULL) names it: the target reads it a
 * chunk at a time and unpacks each chunk while it is in its cache -- one
 * hand-over instead of one per box, for the flush or unlock waits until
 * the box is emptied anyway (a fence's or a wait's target may empty it
 * after the origin's call returned: there the parts go in the boxes).
 * orma-bench ddt on such memory, typed put against pack + put + unpack in
 * the same run: 4 KB 0.11-1.40x its speed -> 0.84-2.59x, 1 MB 0.09-1.61x
 * -> 0.72-4.48x (1 MB of scattered 4-byte runs: 25 ms -> 2.0).
 *
 * The layout.  The target learns it once: the origin serializes it
 * (dtype_serial.h) the first time it sends it to anybody in this window,
 * keeps the bytes, and names them in each entry (address, length, its
 * number); a target that does not know the number yet reads the bytes from
 * the origin (process_vm_readv, shm_cma.h) and keeps the layout rebuilt.
 * Both sides keep theirs until the window is freed, after the barrier that
 * says nobody empties a box any more.  A layout built again with the same
 * bytes (a program that makes a type per exchange) keeps its number; past
 * RMA_BOX_LAYOUTS layouts a window's puts go as runs.
 *
 * Parts.  The target unpacks a put's parts in order along one walk of the
 * layout (dtype_stream), resumed where the last part ended; parts the
 * origin carried out itself (a box it took back: rma_box.h) are skipped
 * over.  Where the walk stands depends only on the layout, its count and
 * the byte, so a walk left by one put serves the next to the same place. */
#include "rma_box.h"
#include "rma_comm.h"
#include "dtype_derived.h"
#include "dtype_iter.h"
#include "dtype_serial.h"
#include "shm_cma.h"
#include "util_status.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#define RMA_BOX_TYPED_MIN 1024 /* a part begins a box of its own rather than be shorter */
#define RMA_BOX_SERIAL_MAX ((uint64_t)1 << 30) /* a layout's bytes a target reads at most */
#define RMA_BOX_LAYOUTS 256 /* layouts a window sends so: the others' puts go as runs */
#define RMA_BOX_PULL_CHUNK ((size_t)64 << 10) /* a PULL entry's bytes read and unpacked at a time */

/* Where a layout's packed data stands: the stream of tcount elements
 * placed at the offset torigin + offset of the window. */
struct rma_box_walk {
    int open;
    uint32_t key;
    uint64_t offset, tcount;
    int64_t torigin;
    orma_type type;
    struct dtype_stream s;
};

/* A layout an origin named: ours (sent), or one of origin o's (known). */
struct rma_box_layout {
    orma_type type;
    void *serial;
    size_t slen;
};

struct rma_box_peer {
    struct rma_box_layout *known; /* origin o's layouts, by number - 1 */
    size_t nknown;
    struct rma_box_walk in;    /* as origin o's parts arrive */
    struct rma_box_walk carry; /* as we carry out our own parts at o */
    void **pulled;             /* packed data our PULL entries at o name */
    size_t npulled, cappulled;
    void *spare;               /* the last such buffer, kept for the next */
    size_t spare_len;
};

struct rma_box_types {
    struct rma_box_layout *sent; /* ours, by number - 1 */
    size_t nsent;
    struct rma_box_peer *peer; /* nranks */
    char *scratch;             /* PULL entries' bytes read here */
};

static struct rma_box_types *rma_box_types_of(struct rma_win *win)
{
    if (win->box_types)
        return win->box_types;
    struct rma_box_types *bt = calloc(1, sizeof *bt);
    if (bt && !(bt->peer = calloc((size_t)win->nranks, sizeof *bt->peer))) {
        free(bt);
        bt = NULL;
    }
    if (!bt)
        util_error(ORMA_ERR_NOMEM, "window %u: out of memory for typed puts' layouts", win->id);
    return win->box_types = bt;
}

/* Our number for layout t, serialized the first time. */
static int rma_box_sent(struct rma_win *win, orma_type t, uint32_t *key_p)
{
    struct rma_box_types *bt = rma_box_types_of(win);
    if (!bt)
        return ORMA_ERR_NOMEM;
    for (size_t i = 0; i < bt->nsent; i++)
        if (bt->sent[i].type == t) {
            *key_p = (uint32_t)i + 1;
            return ORMA_SUCCESS;
        }
    size_t len = 0;
    dtype_serialize_held(t, NULL, 0, &len);
    void *buf = malloc(len ? len : 1);
    int status = buf ? dtype_serialize_held(t, buf, len, &len)
                     : util_error(ORMA_ERR_NOMEM, "window %u: out of memory for a layout of %zu bytes", win->id, len);
    if (status) {
        free(buf);
        return status;
    }
    /* a layout built again as before (programs that make a type for each
     * exchange and free it): the number it had */
    for (size_t i = 0; i < bt->nsent; i++)
        if (bt->sent[i].slen == len && !memcmp(bt->sent[i].serial, buf, len)) {
            free(buf);
            *key_p = (uint32_t)i + 1;
            return ORMA_SUCCESS;
        }
    struct rma_box_layout *grown = NULL;
    if (bt->nsent == RMA_BOX_LAYOUTS)
        status = ORMA_ERR_COUNT; /* not an error: the caller sends the runs */
    else if (!(grown = realloc(bt->sent, (bt->nsent + 1) * sizeof *grown)))
        status = util_error(ORMA_ERR_NOMEM, "window %u: out of memory for a layout", win->id);
    if (status) {
        free(buf);
        return status;
    }
    bt->sent = grown;
    dtype_hold(t);
    bt->sent[bt->nsent++] = (struct rma_box_layout){t, buf, len};
    *key_p = (uint32_t)bt->nsent;
    return ORMA_SUCCESS;
}

/* w at byte from of (type, tcount) placed as d says: resumed, or begun
 * again, and walked forward over the bytes in between. */
static void rma_box_walk_to(struct rma_box_walk *w, orma_type type, uint64_t offset, const struct rma_box_typed *d)
{
    if (!w->open || w->key != d->key || w->type != type || w->offset != offset || w->tcount != d->tcount ||
        w->torigin != d->torigin || w->s.at > d->from) {
        *w = (struct rma_box_walk){.open = 1, .key = d->key, .offset = offset, .tcount = d->tcount,
                                   .torigin = d->torigin, .type = type};
        dtype_stream_init(&w->s, type, (size_t)d->tcount);
    }
    if (w->s.at < d->from)
        dtype_stream_skip(&w->s, (size_t)(d->from - w->s.at));
}

static _Thread_local _Alignas(64) char rma_box_typed_stage[RMA_BOX_BYTES];

/* A buffer of len bytes for packed data a PULL entry at target names, held
 * until our box there is emptied. */
static void *rma_box_pull_buffer(struct rma_win *win, int target, size_t len)
{
    struct rma_box_peer *p = &win->box_types->peer[target];
    if (p->npulled == p->cappulled) {
        size_t cap = p->cappulled ? 2 * p->cappulled : 4;
        void **grown = realloc(p->pulled, cap * sizeof *grown);
        if (!grown)
            return NULL;
        p->pulled = grown;
        p->cappulled = cap;
    }
    void *buf = NULL;
    if (p->spare && p->spare_len >= len) {
        buf = p->spare;
        p->spare = NULL;
    } else if (!(buf = malloc(len))) {
        return NULL;
    }
    p->pulled[p->npulled++] = buf;
    return buf;
}

void rma_box_typed_emptied(struct rma_win *win, int target)
{
    struct rma_box_types *bt = win->box_types;
    struct rma_box_peer *p = bt ? &bt->peer[target] : NULL;
    if (!p || !p->npulled)
        return;
    /* the last one kept for the next put (usually as long): free the rest */
    free(p->spare);
    p->spare = p->pulled[--p->npulled];
    p->spare_len = malloc_usable_size(p->spare);
    while (p->npulled)
        free(p->pulled[--p->npulled]);
}

/* The whole put packed here, for the target to read at once: a PULL
 * entry.  Passive epochs only, whose flush and unlock wait until the box
 * is emptied (a fence's or wait's target may empty it after our call
 * returned).  1 when it went so. */
static int rma_box_pull(struct rma_win *win, const struct xport_op *op, struct rma_box_typed *d, size_t total,
                        int *status_p)
{
    size_t head = sizeof(struct rma_box_entry) + sizeof *d;
    if (!rma_box_passive(win) || total <= sizeof(((struct rma_box *)0)->data) - head || total > UINT32_MAX)
        return 0;
    /* room first: making it may empty the box, and free what it named */
    if ((*status_p = rma_box_room(win, op->target, head)))
        return 1;
    void *buf = rma_box_pull_buffer(win, op->target, total);
    if (!buf)
        return 0; /* the parts go in the box instead */
    dtype_pack(op->origin, op->ocount, op->otype, 0, total, buf);
    struct rma_target *t = &win->targets[op->target];
    d->data = (uintptr_t)buf;
    struct rma_box_entry e = {.offset = op->offset, .len = (uint32_t)total, .kind = RMA_BOX_E_PULL};
    memcpy(t->box->data + rma_box_add_entry(t->box, &e), d, sizeof *d);
    t->box_typed = 1;
    t->box_run = 0;
    return 1;
}

int rma_box_typed_put(struct rma_win *win, const struct xport_op *op)
{
    uint32_t key = 0;
    int status = rma_box_sent(win, op->ttype, &key);
    if (status)
        return status;
    const struct rma_box_layout *l = &win->box_types->sent[key - 1];
    struct rma_target *t = &win->targets[op->target];
    size_t total = op->tcount * op->ttype->size, head = sizeof(struct rma_box_entry) + sizeof(struct rma_box_typed);
    struct rma_box_typed d = {.serial = (uintptr_t)l->serial, .slen = l->slen, .tcount = op->tcount,
                              .torigin = op->torigin, .reach = op->len, .key = key};
    if (rma_box_pull(win, op, &d, total, &status))
        return status;
    struct dtype_stream os;
    dtype_stream_init(&os, op->otype, op->ocount);
    while (d.from < total) {
        size_t left = total - (size_t)d.from;
        if ((status = rma_box_room(win, op->target, head + rma_box_part(left < RMA_BOX_TYPED_MIN ? left
                                                                                      : RMA_BOX_TYPED_MIN))))
            return status;
        struct rma_box *b = t->box;
        size_t space = (sizeof b->data - b->used - head) & ~(size_t)7, n = left < space ? left : space;
        struct rma_box_entry e = {.offset = op->offset, .len = (uint32_t)n, .kind = RMA_BOX_E_TYPED};
        uint32_t pos = rma_box_add_entry(b, &e);
        memcpy(b->data + pos, &d, sizeof d);
        /* packed here first: the box's lines are the target's, and a
         * store of a few bytes to each would wait for it one by one */
        dtype_stream_move(&os, op->origin, rma_box_typed_stage, n, 0);
        memcpy(b->data + pos + sizeof d, rma_box_typed_stage, n);
        t->box_typed = 1;
        d.from += n;
    }
    t->box_run = 0;
    return ORMA_SUCCESS;
}

/* Origin o's layout named in d, read from its memory the first time. */
static orma_type rma_box_known(struct rma_win *win, int o, struct rma_box_peer *p, const struct rma_box_typed *d)
{
    if (d->key >= 1 && d->key <= p->nknown && p->known[d->key - 1].type)
        return p->known[d->key - 1].type;
    if (d->key == 0 || d->key > RMA_BOX_LAYOUTS || d->slen > RMA_BOX_SERIAL_MAX) {
        util_error(ORMA_ERR_PEER, "window %u: rank %d's typed put names layout %u of %llu bytes, which rank %d "
                   "cannot take", win->id, o, d->key, (unsigned long long)d->slen, win->rank);
        return NULL;
    }
    if (d->key > p->nknown) {
        struct rma_box_layout *grown = realloc(p->known, d->key * sizeof *grown);
        if (!grown) {
            util_error(ORMA_ERR_NOMEM, "window %u: out of memory for rank %d's layouts", win->id, o);
            return NULL;
        }
        memset(grown + p->nknown, 0, (d->key - p->nknown) * sizeof *grown);
        p->known = grown;
        p->nknown = d->key;
    }
    void *buf = malloc(d->slen ? (size_t)d->slen : 1);
    orma_type t = NULL;
    if (!buf)
        util_error(ORMA_ERR_NOMEM, "window %u: out of memory for a layout of %llu bytes", win->id,
                   (unsigned long long)d->slen);
    else if (shm_cma_read(win->targets[o].pid, (uintptr_t)d->serial, buf, (size_t)d->slen) == ORMA_SUCCESS)
        (void)dtype_deserialize(buf, (size_t)d->slen, &t);
    free(buf);
    return p->known[d->key - 1].type = t;
}

/* Whether (t, d->tcount) placed at d->torigin stays inside d->reach bytes
 * from offset, and those inside the window. */
static int rma_box_typed_inside(const struct rma_win *win, orma_type t, uint64_t offset,
                                const struct rma_box_typed *d)
{
    if (offset > win->size || d->reach > win->size - offset || !d->tcount || d->tcount > PTRDIFF_MAX)
        return 0;
    const struct dtype_node *n = dtype_layout(t);
    ptrdiff_t span = 0, lo, hi;
    if (__builtin_mul_overflow((ptrdiff_t)d->tcount - 1, dtype_extent(t), &span))
        return 0;
    lo = n->true_lb + (span < 0 ? span : 0);
    hi = n->true_ub + (span > 0 ? span : 0);
    return d->torigin + lo >= 0 && d->torigin + hi <= (int64_t)d->reach;
}

int rma_box_apply_typed(struct rma_win *win, int o, const struct rma_box_entry *e, unsigned char *parts)
{
    struct rma_box_types *bt = rma_box_types_of(win);
    if (!bt)
        return ORMA_ERR_NOMEM;
    struct rma_box_typed d;
    memcpy(&d, parts, sizeof d);
    struct rma_box_peer *p = &bt->peer[o];
    orma_type t = rma_box_known(win, o, p, &d);
    if (!t)
        return ORMA_ERR_PEER;
    uint64_t total = 0;
    if (!rma_box_typed_inside(win, t, e->offset, &d) || __builtin_mul_overflow(d.tcount, t->size, &total) ||
        d.from > total || e->len > total - d.from)
        return util_error(ORMA_ERR_PEER, "window %u: rank %d's typed put of %llu elements of its layout %u at "
                          "offset %llu does not fit rank %d's window", win->id, o, (unsigned long long)d.tcount,
                          d.key, (unsigned long long)e->offset, win->rank);
    rma_box_walk_to(&p->in, t, e->offset, &d);
    char *at = (char *)win->base + e->offset + d.torigin;
    if (e->kind == RMA_BOX_E_TYPED) {
        dtype_stream_move(&p->in.s, at, (char *)parts + sizeof d, e->len, 1);
    } else {
        /* read a chunk at a time, unpacked while it is in the cache */
        if (!bt->scratch && !(bt->scratch = malloc(RMA_BOX_PULL_CHUNK)))
            return util_error(ORMA_ERR_NOMEM, "window %u: out of memory for rank %d's typed put", win->id, o);
        for (size_t done = 0; done < e->len;) {
            size_t n = e->len - done < RMA_BOX_PULL_CHUNK ? e->len - done : RMA_BOX_PULL_CHUNK;
            int status = shm_cma_read(win->targets[o].pid, (uintptr_t)d.data + done, bt->scratch, n);
            if (status)
                return status;
            dtype_stream_move(&p->in.s, at, bt->scratch, n, 1);
            done += n;
        }
    }
    p->in.open = p->in.s.at < total;
    return ORMA_SUCCESS;
}

int rma_box_carry_typed(struct rma_win *win, int target, const struct rma_box_entry *e, unsigned char *parts)
{
    struct rma_box_typed d;
    memcpy(&d, parts, sizeof d);
    struct rma_box_types *bt = win->box_types;
    orma_type t = bt->sent[d.key - 1].type;
    struct rma_box_walk *w = &bt->peer[target].carry;
    rma_box_walk_to(w, t, e->offset, &d);
    struct xport_piece p[256];
    size_t n = 0, left = e->len;
    const char *data = e->kind == RMA_BOX_E_PULL ? (const char *)(uintptr_t)d.data : (const char *)parts + sizeof d;
    ptrdiff_t off;
    size_t len;
    int status = ORMA_SUCCESS;
    while (!status && left && dtype_stream_next(&w->s, left, &off, &len)) {
        size_t at = (size_t)((int64_t)e->offset + d.torigin + off);
        if (n && p[n - 1].off + p[n - 1].len == at && (const char *)p[n - 1].buf + p[n - 1].len == data) {
            p[n - 1].len += len;
        } else {
            if (n == sizeof p / sizeof *p) {
                status = rma_far_pieces(win, target, 1, p, n);
                n = 0;
            }
            p[n++] = (struct xport_piece){(void *)data, at, len};
        }
        data += len;
        left -= len;
    }
    if (!status && n)
        status = rma_far_pieces(win, target, 1, p, n);
    return status;
}

void rma_box_typed_free(struct rma_win *win)
{
    struct rma_box_types *bt = win->box_types;
    if (!bt)
        return;
    for (size_t i = 0; i < bt->nsent; i++) {
        dtype_release(bt->sent[i].type);
        free(bt->sent[i].serial);
    }
    for (int r = 0; r < win->nranks; r++) {
        struct rma_box_peer *p = &bt->peer[r];
        for (size_t i = 0; i < p->nknown; i++)
            if (p->known[i].type && !p->known[i].type->predefined)
                dtype_derived_free(p->known[i].type);
        free(p->known);
        while (p->npulled)
            free(p->pulled[--p->npulled]);
        free(p->pulled);
        free(p->spare);
    }
    free(bt->scratch);
    free(bt->sent);
    free(bt->peer);
    free(bt);
    win->box_types = NULL;
}
