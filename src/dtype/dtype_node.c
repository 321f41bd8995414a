/* dtype_node.c -- building normalised layouts (see dtype_node.h). */
#include "dtype_node.h"
#include "dtype_type.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct dtype_node *dtype_node_ref(struct dtype_node *n)
{
    if (n->refs)
        n->refs++;
    return n;
}

void dtype_node_unref(struct dtype_node *n)
{
    if (!n || !n->refs || --n->refs)
        return;
    if (n->kind == DN_LOOP) {
        dtype_node_unref(n->u.loop.child);
    } else if (n->kind == DN_SEQ) {
        for (size_t i = 0; i < n->u.seq.n; i++)
            dtype_node_unref(n->u.seq.e[i].child);
        free(n->u.seq.e);
    }
    free(n);
}

static struct dtype_node *dtype_node_new(int kind)
{
    struct dtype_node *n = calloc(1, sizeof *n);
    if (n) {
        n->refs = 1;
        n->kind = (uint16_t)kind;
        n->depth = 1;
    }
    return n;
}

struct dtype_node *dtype_node_leaf(size_t len)
{
    struct dtype_node *n = dtype_node_new(DN_LEAF);
    if (n) {
        n->u.leaf.len = len;
        n->size = len;
        n->true_ub = (ptrdiff_t)len;
    }
    return n;
}

struct dtype_node *dtype_node_repeat(size_t count, ptrdiff_t stride, struct dtype_node *child, int *too_deep_p)
{
    if (count == 0 || child->size == 0)
        return dtype_node_leaf(0);
    if (count == 1)
        return dtype_node_ref(child);
    size_t len, size;
    ptrdiff_t whole;
    if (child->kind == DN_LEAF && stride == (ptrdiff_t)child->u.leaf.len) {
        /* one run: its end must be a ptrdiff_t like every other offset */
        if (__builtin_mul_overflow(count, child->u.leaf.len, &len) || len > PTRDIFF_MAX) {
            *too_deep_p = DTYPE_REFUSED_RANGE;
            return NULL;
        }
        return dtype_node_leaf(len);
    }
    if (child->kind == DN_SEQ && child->u.seq.n == 1) { /* the offset goes outside the loop */
        struct dtype_node *inner = dtype_node_repeat(count, stride, child->u.seq.e[0].child, too_deep_p);
        if (!inner)
            return NULL;
        struct dtype_node *placed = dtype_node_seq(1, &child->u.seq.e[0].disp, &inner, too_deep_p);
        dtype_node_unref(inner);
        return placed;
    }
    if (child->kind == DN_LOOP &&
        !__builtin_mul_overflow((ptrdiff_t)child->u.loop.count, child->u.loop.stride, &whole) && stride == whole) {
        if (__builtin_mul_overflow(count, child->u.loop.count, &len)) {
            *too_deep_p = DTYPE_REFUSED_RANGE;
            return NULL;
        }
        return dtype_node_repeat(len, child->u.loop.stride, child->u.loop.child, too_deep_p);
    }
    if (child->depth + 1 > DTYPE_MAX_DEPTH) {
        *too_deep_p = DTYPE_REFUSED_DEPTH;
        return NULL;
    }
    ptrdiff_t span, lo, hi;
    if (count > PTRDIFF_MAX || __builtin_mul_overflow(count, child->size, &size) ||
        __builtin_mul_overflow((ptrdiff_t)(count - 1), stride, &span) ||
        __builtin_add_overflow(child->true_lb, span < 0 ? span : 0, &lo) ||
        __builtin_add_overflow(child->true_ub, span > 0 ? span : 0, &hi)) {
        *too_deep_p = DTYPE_REFUSED_RANGE;
        return NULL;
    }
    struct dtype_node *n = dtype_node_new(DN_LOOP);
    if (!n)
        return NULL;
    n->depth = (uint16_t)(child->depth + 1);
    n->u.loop.count = count;
    n->u.loop.stride = stride;
    n->u.loop.child = dtype_node_ref(child);
    n->size = size;
    n->true_lb = lo;
    n->true_ub = hi;
    return n;
}

/* Append (disp, child) to e[*k], flattening a sequence child and merging a
 * leaf that starts where the previous leaf ends.  Returns 0, or
 * DTYPE_REFUSED_RANGE when a flattened offset overflows. */
static int dtype_seq_push(struct dtype_entry *e, size_t *k, ptrdiff_t disp, struct dtype_node *child)
{
    if (child->size == 0)
        return 0;
    if (child->kind == DN_SEQ) {
        for (size_t j = 0; j < child->u.seq.n; j++) {
            ptrdiff_t d;
            if (__builtin_add_overflow(disp, child->u.seq.e[j].disp, &d) ||
                dtype_seq_push(e, k, d, child->u.seq.e[j].child))
                return DTYPE_REFUSED_RANGE;
        }
        return 0;
    }
    const struct dtype_node *prev = *k ? e[*k - 1].child : NULL;
    ptrdiff_t end;
    size_t len;
    if (prev && child->kind == DN_LEAF && prev->kind == DN_LEAF &&
        !__builtin_add_overflow(e[*k - 1].disp, (ptrdiff_t)prev->u.leaf.len, &end) && end == disp &&
        !__builtin_add_overflow(prev->u.leaf.len, child->u.leaf.len, &len) && len <= PTRDIFF_MAX) {
        /* merging needs a leaf of our own: the previous one may be shared */
        struct dtype_node *m = dtype_node_leaf(len);
        if (m) {
            dtype_node_unref(e[*k - 1].child);
            e[*k - 1].child = m;
            return 0;
        }
    }
    e[(*k)++] = (struct dtype_entry){disp, dtype_node_ref(child)};
    return 0;
}

static size_t dtype_seq_entries(const struct dtype_node *child)
{
    if (child->size == 0)
        return 0;
    if (child->kind != DN_SEQ)
        return 1;
    size_t k = 0;
    for (size_t j = 0; j < child->u.seq.n; j++)
        k += dtype_seq_entries(child->u.seq.e[j].child);
    return k;
}

static size_t dtype_seq_run_len(const struct dtype_node *s)
{
    const struct dtype_entry *e = s->u.seq.e;
    for (size_t i = 0; i < s->u.seq.n; i++)
        if (e[i].child->kind != DN_LEAF || e[i].child->u.leaf.len != e[0].child->u.leaf.len)
            return 0;
    return e[0].child->u.leaf.len;
}

struct dtype_node *dtype_node_seq(size_t n, const ptrdiff_t *disps, struct dtype_node *const *children,
                                  int *too_deep_p)
{
    size_t cap = 0;
    for (size_t i = 0; i < n; i++)
        cap += dtype_seq_entries(children[i]);
    if (cap == 0)
        return dtype_node_leaf(0);
    struct dtype_entry *e = malloc(cap * sizeof *e);
    if (!e)
        return NULL;
    size_t k = 0;
    int refused = 0;
    for (size_t i = 0; i < n && !refused; i++)
        refused = dtype_seq_push(e, &k, disps[i], children[i]);
    if (refused) {
        for (size_t i = 0; i < k; i++)
            dtype_node_unref(e[i].child);
        free(e);
        *too_deep_p = refused;
        return NULL;
    }
    if (k == 1 && e[0].disp == 0) {
        struct dtype_node *only = e[0].child;
        free(e);
        return only;
    }
    struct dtype_node *s = dtype_node_new(DN_SEQ);
    if (!s) {
        for (size_t i = 0; i < k; i++)
            dtype_node_unref(e[i].child);
        free(e);
        return NULL;
    }
    s->u.seq.n = k;
    s->u.seq.e = k < cap ? realloc(e, k * sizeof *e) : e;
    if (!s->u.seq.e)
        s->u.seq.e = e;
    uint16_t depth = 0;
    for (size_t i = 0; i < k; i++) {
        const struct dtype_node *c = s->u.seq.e[i].child;
        ptrdiff_t d = s->u.seq.e[i].disp, lo, hi;
        if (__builtin_add_overflow(d, c->true_lb, &lo) || __builtin_add_overflow(d, c->true_ub, &hi) ||
            __builtin_add_overflow(s->size, c->size, &s->size)) {
            *too_deep_p = DTYPE_REFUSED_RANGE;
            dtype_node_unref(s);
            return NULL;
        }
        if (i == 0 || lo < s->true_lb)
            s->true_lb = lo;
        if (i == 0 || hi > s->true_ub)
            s->true_ub = hi;
        if (c->depth > depth)
            depth = c->depth;
    }
    s->depth = (uint16_t)(depth + 1);
    s->u.seq.run_len = dtype_seq_run_len(s);
    if (s->depth > DTYPE_MAX_DEPTH) {
        *too_deep_p = DTYPE_REFUSED_DEPTH;
        dtype_node_unref(s);
        return NULL;
    }
    return s;
}

static int dtype_dense_walk(const struct dtype_node *n, ptrdiff_t base, ptrdiff_t *pos)
{
    switch (n->kind) {
    case DN_LEAF:
        if (n->u.leaf.len && base != *pos)
            return 0;
        *pos += (ptrdiff_t)n->u.leaf.len;
        return 1;
    case DN_LOOP:
        for (size_t i = 0; i < n->u.loop.count; i++)
            if (!dtype_dense_walk(n->u.loop.child, dtype_off_step(base, i, n->u.loop.stride), pos))
                return 0;
        return 1;
    default:
        for (size_t i = 0; i < n->u.seq.n; i++)
            if (!dtype_dense_walk(n->u.seq.e[i].child, dtype_off_add(base, n->u.seq.e[i].disp), pos))
                return 0;
        return 1;
    }
}

int dtype_node_dense(const struct dtype_node *n)
{
    ptrdiff_t pos = 0;
    if (n->true_lb != 0 || n->true_ub != (ptrdiff_t)n->size)
        return 0; /* a gap or an overlap somewhere: no need to walk */
    return dtype_dense_walk(n, 0, &pos) && pos == (ptrdiff_t)n->size;
}

/* Predefined layouts: one leaf of the data bytes, except the pairs whose
 * index does not follow the value directly (short-int). */
static struct dtype_node dtype_predef_leaves[ORMA_TYPEID_COUNT];
static struct dtype_node dtype_short_int_parts[2];
static struct dtype_entry dtype_short_int_entries[2];
static pthread_once_t dtype_predef_once = PTHREAD_ONCE_INIT;

static void dtype_static_leaf(struct dtype_node *n, size_t len)
{
    *n = (struct dtype_node){.refs = 0, .kind = DN_LEAF, .depth = 1, .size = len, .true_ub = (ptrdiff_t)len};
    n->u.leaf.len = len;
}

static void dtype_predef_init(void)
{
    {
        for (int id = 0; id < ORMA_TYPEID_COUNT; id++)
            dtype_static_leaf(&dtype_predef_leaves[id], orma_predefined_types.types[id].size);
        struct dtype_node *si = &dtype_predef_leaves[ORMA_TYPEID_SHORT_INT];
        dtype_static_leaf(&dtype_short_int_parts[0], sizeof(short));
        dtype_static_leaf(&dtype_short_int_parts[1], sizeof(int));
        dtype_short_int_entries[0] = (struct dtype_entry){0, &dtype_short_int_parts[0]};
        dtype_short_int_entries[1] =
            (struct dtype_entry){(ptrdiff_t)offsetof(struct orma_short_int, index), &dtype_short_int_parts[1]};
        *si = (struct dtype_node){.refs = 0, .kind = DN_SEQ, .depth = 2, .size = sizeof(short) + sizeof(int),
                                  .true_ub = (ptrdiff_t)sizeof(struct orma_short_int)};
        si->u.seq.n = 2;
        si->u.seq.e = dtype_short_int_entries;
    }
}

struct dtype_node *dtype_node_predefined(int typeid_)
{
    pthread_once(&dtype_predef_once, dtype_predef_init); /* the first caller may be any thread */
    return &dtype_predef_leaves[typeid_];
}

/* Flattening: the runs of one instance in typemap order, touching runs
 * merged, gathered as (disp, len) before they become leaves. */
struct dtype_flat {
    ptrdiff_t *disp;
    size_t *len;
    size_t k, cap;
};

static int dtype_flat_emit(struct dtype_flat *f, const struct dtype_node *n, ptrdiff_t base)
{
    switch (n->kind) {
    case DN_LEAF:
        if (f->k && dtype_off_add(f->disp[f->k - 1], (ptrdiff_t)f->len[f->k - 1]) == base) {
            f->len[f->k - 1] += n->u.leaf.len;
            return 1;
        }
        if (f->k == f->cap)
            return 0;
        f->disp[f->k] = base;
        f->len[f->k++] = n->u.leaf.len;
        return 1;
    case DN_LOOP:
        for (size_t i = 0; i < n->u.loop.count; i++)
            if (!dtype_flat_emit(f, n->u.loop.child, dtype_off_step(base, i, n->u.loop.stride)))
                return 0;
        return 1;
    default:
        for (size_t i = 0; i < n->u.seq.n; i++)
            if (!dtype_flat_emit(f, n->u.seq.e[i].child, dtype_off_add(base, n->u.seq.e[i].disp)))
                return 0;
        return 1;
    }
}

/* A leaf of len bytes, shared among the entries: the few lengths seen
 * first are kept. */
static struct dtype_node *dtype_flat_leaf(struct dtype_node **kept, int *nkept, int max, size_t len)
{
    for (int i = 0; i < *nkept; i++)
        if (kept[i]->u.leaf.len == len)
            return dtype_node_ref(kept[i]);
    struct dtype_node *l = dtype_node_leaf(len);
    if (l && *nkept < max)
        kept[(*nkept)++] = dtype_node_ref(l);
    return l;
}

struct dtype_node *dtype_node_flatten(const struct dtype_node *n, size_t max_runs)
{
    if (n->depth <= 2 || n->size == 0)
        return NULL;
    struct dtype_flat f = {malloc(max_runs * sizeof *f.disp), malloc(max_runs * sizeof *f.len), 0, max_runs};
    struct dtype_node *s = NULL, *kept[8];
    int nkept = 0;
    if (!f.disp || !f.len || !dtype_flat_emit(&f, n, 0) || !(s = dtype_node_new(DN_SEQ)))
        goto out;
    s->u.seq.e = malloc(f.k * sizeof *s->u.seq.e);
    if (!s->u.seq.e)
        goto fail;
    for (size_t i = 0; i < f.k; i++) {
        struct dtype_node *l = dtype_flat_leaf(kept, &nkept, 8, f.len[i]);
        if (!l)
            goto fail;
        s->u.seq.e[s->u.seq.n++] = (struct dtype_entry){f.disp[i], l};
    }
    s->u.seq.run_len = dtype_seq_run_len(s);
    s->size = n->size;
    s->true_lb = n->true_lb;
    s->true_ub = n->true_ub;
    s->depth = 2;
    goto out;
fail:
    dtype_node_unref(s);
    s = NULL;
out:
    for (int i = 0; i < nkept; i++)
        dtype_node_unref(kept[i]);
    free(f.disp);
    free(f.len);
    return s;
}
