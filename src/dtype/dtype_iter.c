/* dtype_iter.c -- the segment iterator, the flat walks, pack and unpack. */
#include "dtype_iter.h"
#include "dtype_derived.h"
#include "util_copy.h"

#include <string.h>

void dtype_iter_init(struct dtype_iter *it, orma_type type, size_t count)
{
    it->root = dtype_walk_layout(type);
    it->extent = dtype_extent(type);
    it->count = it->root->size ? count : 0;
    it->next_elem = 0;
    it->leaf_done = 0;
    it->depth = 0;
}

int dtype_iter_next(struct dtype_iter *it, size_t max, ptrdiff_t *off_p, size_t *len_p)
{
    for (;;) {
        if (it->depth == 0) {
            if (it->next_elem == it->count)
                return 0;
            it->f[0] = (struct dtype_frame){it->root, 0, (ptrdiff_t)it->next_elem * it->extent};
            it->next_elem++;
            it->depth = 1;
        }
        struct dtype_frame *top = &it->f[it->depth - 1];
        const struct dtype_node *n = top->n;
        switch (n->kind) {
        case DN_LEAF: {
            size_t left = n->u.leaf.len - it->leaf_done;
            size_t take = left < max ? left : max;
            *off_p = top->base + (ptrdiff_t)it->leaf_done;
            *len_p = take;
            it->leaf_done += take;
            if (it->leaf_done == n->u.leaf.len) {
                it->leaf_done = 0;
                it->depth--;
            }
            if (take)
                return 1;
            break;
        }
        case DN_LOOP: {
            if (top->i == n->u.loop.count) {
                it->depth--;
                break;
            }
            const struct dtype_node *c = n->u.loop.child;
            ptrdiff_t base = dtype_off_step(top->base, top->i, n->u.loop.stride);
            top->i++;
            if (c->kind == DN_LEAF && c->u.leaf.len <= max) { /* a whole run: no frame */
                *off_p = base;
                *len_p = c->u.leaf.len;
                return 1;
            }
            it->f[it->depth++] = (struct dtype_frame){c, 0, base};
            break;
        }
        default: { /* DN_SEQ */
            if (top->i == n->u.seq.n) {
                it->depth--;
                break;
            }
            const struct dtype_entry *e = &n->u.seq.e[top->i++];
            if (e->child->kind == DN_LEAF && e->child->u.leaf.len <= max) {
                *off_p = dtype_off_add(top->base, e->disp);
                *len_p = e->child->u.leaf.len;
                return 1;
            }
            it->f[it->depth++] = (struct dtype_frame){e->child, 0, dtype_off_add(top->base, e->disp)};
            break;
        }
        }
    }
}

void dtype_iter_skip(struct dtype_iter *it, size_t n)
{
    /* Whole elements first, then run by run. */
    size_t elem = it->root->size;
    if (elem && it->depth == 0 && it->leaf_done == 0) {
        size_t whole = n / elem;
        if (whole > it->count - it->next_elem)
            whole = it->count - it->next_elem;
        it->next_elem += whole;
        n -= whole * elem;
    }
    ptrdiff_t off;
    size_t len;
    while (n && dtype_iter_next(it, n, &off, &len))
        n -= len;
}

/* Pack (unpack: 0) or unpack n bytes from the start of a flat walk. */
static void dtype_flat_pack(char *buf, struct dtype_flat_walk w, size_t n, char *packed, int unpack);

void dtype_pack(const void *buf, size_t count, orma_type type, size_t from, size_t n, void *packed)
{
    struct dtype_iter it;
    struct dtype_flat_walk w;
    if (from == 0 && dtype_flat_init(&w, type, count)) {
        dtype_flat_pack((char *)buf, w, n, packed, 0);
        return;
    }
    dtype_iter_init(&it, type, count);
    dtype_iter_skip(&it, from);
    char *out = packed;
    ptrdiff_t off;
    size_t len;
    while (n && dtype_iter_next(&it, n, &off, &len)) {
        util_copy_run(out, (const char *)buf + off, len);
        out += len;
        n -= len;
    }
}

void dtype_unpack(void *buf, size_t count, orma_type type, size_t from, size_t n, const void *packed)
{
    struct dtype_iter it;
    struct dtype_flat_walk w;
    if (from == 0 && dtype_flat_init(&w, type, count)) {
        dtype_flat_pack(buf, w, n, (char *)packed, 1);
        return;
    }
    dtype_iter_init(&it, type, count);
    dtype_iter_skip(&it, from);
    const char *in = packed;
    ptrdiff_t off;
    size_t len;
    while (n && dtype_iter_next(&it, n, &off, &len)) {
        util_copy_run((char *)buf + off, in, len);
        in += len;
        n -= len;
    }
}

/* Set w up over count elements of t if t's walk layout is flat: 0 if not. */
int dtype_flat_init(struct dtype_flat_walk *w, orma_type t, size_t count)
{
    const struct dtype_node *n = dtype_walk_layout(t);
    if (n->depth > 2)
        return 0;
    w->e = NULL;
    w->stride = 0;
    w->runs = 1;
    if (n->kind == DN_LEAF) {
        w->len = n->u.leaf.len;
    } else if (n->kind == DN_LOOP) {
        w->len = n->u.loop.child->u.leaf.len;
        w->stride = n->u.loop.stride;
        w->runs = n->u.loop.count;
    } else {
        w->e = n->u.seq.e;
        w->len = n->u.seq.run_len;
        w->runs = n->u.seq.n;
    }
    w->i = w->elem = 0;
    w->base = 0;
    w->count = n->size ? count : 0;
    w->ext = dtype_extent(t);
    return 1;
}

static void dtype_flat_pack(char *buf, struct dtype_flat_walk w, size_t n, char *packed, int unpack)
{
    ptrdiff_t off;
    size_t len;
    while (n && dtype_flat_next(&w, &off, &len)) {
        if (len > n)
            len = n;
        if (unpack)
            util_copy_run(buf + off, packed, len);
        else
            util_copy_run(packed, buf + off, len);
        packed += len;
        n -= len;
    }
}

size_t dtype_runs_at_least(orma_type t, size_t count)
{
    struct dtype_flat_walk w;
    size_t per = dtype_flat_init(&w, t, count) ? w.runs : DTYPE_WALK_RUNS, runs;
    return __builtin_mul_overflow(per, count, &runs) ? SIZE_MAX : runs;
}
