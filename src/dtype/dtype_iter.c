/* dtype_iter.c -- the segment iterator and what it drives. */
#include "dtype_iter.h"
#include "dtype_derived.h"

#include <string.h>

void dtype_iter_init(struct dtype_iter *it, orma_type type, size_t count)
{
    it->root = dtype_layout(type);
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
        case DN_LOOP:
            if (top->i == n->u.loop.count) {
                it->depth--;
            } else {
                ptrdiff_t base = top->base + (ptrdiff_t)top->i * n->u.loop.stride;
                top->i++;
                it->f[it->depth++] = (struct dtype_frame){n->u.loop.child, 0, base};
            }
            break;
        default: /* DN_SEQ */
            if (top->i == n->u.seq.n) {
                it->depth--;
            } else {
                const struct dtype_entry *e = &n->u.seq.e[top->i++];
                it->f[it->depth++] = (struct dtype_frame){e->child, 0, top->base + e->disp};
            }
            break;
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

void dtype_pack(const void *buf, size_t count, orma_type type, size_t from, size_t n, void *packed)
{
    struct dtype_iter it;
    dtype_iter_init(&it, type, count);
    dtype_iter_skip(&it, from);
    char *out = packed;
    ptrdiff_t off;
    size_t len;
    while (n && dtype_iter_next(&it, n, &off, &len)) {
        memcpy(out, (const char *)buf + off, len);
        out += len;
        n -= len;
    }
}

void dtype_unpack(void *buf, size_t count, orma_type type, size_t from, size_t n, const void *packed)
{
    struct dtype_iter it;
    dtype_iter_init(&it, type, count);
    dtype_iter_skip(&it, from);
    const char *in = packed;
    ptrdiff_t off;
    size_t len;
    while (n && dtype_iter_next(&it, n, &off, &len)) {
        memcpy((char *)buf + off, in, len);
        in += len;
        n -= len;
    }
}

void dtype_copy(void *dst, size_t dcount, orma_type dtype, const void *src, size_t scount, orma_type stype)
{
    struct dtype_iter si, di;
    dtype_iter_init(&si, stype, scount);
    dtype_iter_init(&di, dtype, dcount);
    ptrdiff_t soff = 0, doff = 0;
    size_t slen = 0, dlen = 0;
    for (;;) {
        if (!slen && !dtype_iter_next(&si, SIZE_MAX, &soff, &slen))
            return;
        if (!dlen && !dtype_iter_next(&di, SIZE_MAX, &doff, &dlen))
            return;
        size_t len = slen < dlen ? slen : dlen;
        memcpy((char *)dst + doff, (const char *)src + soff, len);
        soff += (ptrdiff_t)len;
        doff += (ptrdiff_t)len;
        slen -= len;
        dlen -= len;
    }
}
