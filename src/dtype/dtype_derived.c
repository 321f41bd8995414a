/* dtype_derived.c -- derived type objects and their registry. */
#include "dtype_derived.h"
#include "util_status.h"

#include <complex.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>

/* Open addressing over the addresses of live derived types.  Threads
 * create, free and look types up at once: the registry has a lock (types
 * are made and checked on their own calls' paths, never on a predefined
 * type's). */
static struct dtype_derived **dtype_live;
static size_t dtype_live_cap, dtype_live_n;
static pthread_rwlock_t dtype_live_mu = PTHREAD_RWLOCK_INITIALIZER;

static size_t dtype_slot(const void *p, size_t cap) { return ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull & (cap - 1); }

static int dtype_live_grow(void)
{
    size_t cap = dtype_live_cap ? 2 * dtype_live_cap : 64;
    struct dtype_derived **t = calloc(cap, sizeof *t);
    if (!t)
        return ORMA_ERR_NOMEM;
    for (size_t i = 0; i < dtype_live_cap; i++) {
        if (!dtype_live[i])
            continue;
        size_t s = dtype_slot(dtype_live[i], cap);
        while (t[s])
            s = (s + 1) & (cap - 1);
        t[s] = dtype_live[i];
    }
    free(dtype_live);
    dtype_live = t;
    dtype_live_cap = cap;
    return ORMA_SUCCESS;
}

static size_t dtype_live_find(const void *p)
{
    size_t s = dtype_slot(p, dtype_live_cap);
    while (dtype_live[s] && (const void *)dtype_live[s] != p)
        s = (s + 1) & (dtype_live_cap - 1);
    return s;
}

int dtype_is_type(orma_type t)
{
    if (dtype_is_valid(t))
        return 1;
    if (!t)
        return 0;
    pthread_rwlock_rdlock(&dtype_live_mu);
    int live = dtype_live_cap && dtype_live[dtype_live_find(t)] != NULL;
    pthread_rwlock_unlock(&dtype_live_mu);
    return live;
}

#define DTYPE_ALIGN_ENTRY(name, ctype) [ORMA_TYPEID_##name] = alignof(ctype),
#define DTYPE_PAIR_ALIGN_ENTRY(name, pair, vtype) [ORMA_TYPEID_##name] = alignof(pair),
static const unsigned char dtype_predef_align[ORMA_TYPEID_COUNT] = {
    ORMA_PREDEFINED_TYPE_LIST(DTYPE_ALIGN_ENTRY) ORMA_PAIR_TYPE_LIST(DTYPE_PAIR_ALIGN_ENTRY)};

ptrdiff_t dtype_lb(orma_type t) { return t->predefined ? 0 : dtype_derived_of(t)->lb; }

ptrdiff_t dtype_extent(orma_type t)
{
    return t->predefined ? (ptrdiff_t)t->extent : dtype_derived_of(t)->ub - dtype_derived_of(t)->lb;
}

size_t dtype_align(orma_type t) { return t->predefined ? dtype_predef_align[t->id] : dtype_derived_of(t)->align; }

struct dtype_node *dtype_layout(orma_type t)
{
    return t->predefined ? dtype_node_predefined((int)t->id) : dtype_derived_of(t)->node;
}

int dtype_reach(orma_type t, size_t count, ptrdiff_t *lo_p, ptrdiff_t *hi_p)
{
    const struct dtype_node *n = dtype_layout(t);
    ptrdiff_t span;
    if (!count || count > PTRDIFF_MAX || __builtin_mul_overflow((ptrdiff_t)count - 1, dtype_extent(t), &span) ||
        __builtin_add_overflow(n->true_lb, span < 0 ? span : 0, lo_p) ||
        __builtin_add_overflow(n->true_ub, span > 0 ? span : 0, hi_p))
        return 0;
    return 1;
}

int dtype_derived_create(struct dtype_node *node, ptrdiff_t lb, ptrdiff_t ub, size_t align, orma_type *type_p)
{
    /* Blocks far apart can have bounds that each fit while the distance
     * between them does not: every extent must be a ptrdiff_t. */
    ptrdiff_t ext, true_ext;
    if (__builtin_sub_overflow(ub, lb, &ext) || __builtin_sub_overflow(node->true_ub, node->true_lb, &true_ext)) {
        dtype_node_unref(node);
        return util_error(ORMA_ERR_COUNT, "the datatype's extent overflows the address space (lb %td, ub %td)", lb,
                          ub);
    }
    pthread_rwlock_wrlock(&dtype_live_mu);
    if (2 * (dtype_live_n + 1) > dtype_live_cap && dtype_live_grow()) {
        pthread_rwlock_unlock(&dtype_live_mu);
        dtype_node_unref(node);
        return util_error(ORMA_ERR_NOMEM, "out of memory creating a datatype");
    }
    struct dtype_derived *d = calloc(1, sizeof *d);
    if (!d) {
        pthread_rwlock_unlock(&dtype_live_mu);
        dtype_node_unref(node);
        return util_error(ORMA_ERR_NOMEM, "out of memory creating a datatype");
    }
    d->hdr.magic = DTYPE_MAGIC;
    d->hdr.id = DTYPE_DERIVED;
    d->hdr.size = node->size;
    d->hdr.extent = ub > lb ? (size_t)(ub - lb) : 0;
    d->hdr.contiguous = lb == 0 && ub == (ptrdiff_t)node->size && dtype_node_dense(node);
    d->hdr.predefined = 0;
    d->hdr.name = "derived datatype";
    d->lb = lb;
    d->ub = ub;
    d->align = align ? align : 1;
    d->refs = 1;
    d->basic = DTYPE_MIXED; /* the constructor says better */
    d->node = node;
    dtype_live[dtype_live_find(d)] = d;
    dtype_live_n++;
    pthread_rwlock_unlock(&dtype_live_mu);
    *type_p = &d->hdr;
    return ORMA_SUCCESS;
}

void dtype_derived_commit(orma_type t)
{
    struct dtype_derived *d = dtype_derived_of(t);
    if (!d || d->committed)
        return;
    d->committed = 1;
    d->walk = dtype_node_flatten(d->node, DTYPE_WALK_RUNS); /* NULL: walk the tree */
}

void dtype_derived_free(orma_type t)
{
    struct dtype_derived *d = dtype_derived_of(t);
    pthread_rwlock_wrlock(&dtype_live_mu);
    size_t s = dtype_live_cap ? dtype_live_find(d) : 0;
    if (!dtype_live_cap || !dtype_live[s]) {
        pthread_rwlock_unlock(&dtype_live_mu);
        return;
    }
    /* remove, then re-insert the rest of the cluster (linear probing) */
    dtype_live[s] = NULL;
    dtype_live_n--;
    for (size_t i = (s + 1) & (dtype_live_cap - 1); dtype_live[i]; i = (i + 1) & (dtype_live_cap - 1)) {
        struct dtype_derived *m = dtype_live[i];
        dtype_live[i] = NULL;
        dtype_live[dtype_live_find(m)] = m;
    }
    pthread_rwlock_unlock(&dtype_live_mu);
    dtype_release(t);
}

void dtype_hold(orma_type t)
{
    if (!t->predefined)
        dtype_derived_of(t)->refs++;
}

void dtype_release(orma_type t)
{
    struct dtype_derived *d = dtype_derived_of(t);
    if (!d || --d->refs)
        return;
    dtype_node_unref(d->node);
    dtype_node_unref(d->walk);
    dtype_sig_unref(d->sig);
    d->hdr.magic = 0;
    free(d);
}
