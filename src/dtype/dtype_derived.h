/* dtype_derived.h -- derived datatype objects: an orma_type_s header (so
 * that size and extent read alike for every type), MPI's bounds, the
 * compact layout (dtype_node.h) and signature (dtype_sig.h).  Every live derived type is in a registry,
 * so that a freed or made-up handle is refused rather than followed. */
#ifndef ORMA_DTYPE_DERIVED_H
#define ORMA_DTYPE_DERIVED_H

#include "dtype_node.h"
#include "dtype_sig.h"
#include "dtype_type.h"

#include <orma.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

#define DTYPE_DERIVED ORMA_TYPEID_COUNT /* the id of every derived type */
#define DTYPE_MIXED (-1)                /* data of several predefined types */

struct dtype_derived {
    struct orma_type_s hdr;
    ptrdiff_t lb, ub;   /* MPI's bounds: extent = ub - lb */
    size_t align;       /* largest alignment of the basic types */
    int committed;
    _Atomic uint32_t refs; /* the handle, and every queued operation using it (threads: atomic) */
    int basic;          /* the one predefined type all data is made of, or DTYPE_MIXED */
    struct dtype_node *node;
    struct dtype_node *walk; /* committed: node as one sequence of leaves (dtype_node_flatten), or NULL */
    struct dtype_sig *sig; /* NULL: not known (dtype_sig.h says what that means) */
};

/* Nested layouts of at most this many runs per element are flattened at
 * commit: a walk of a sequence of leaves costs a few loads per run, a walk
 * of a tree a frame per level (16 bytes a run: 256 KiB at most). */
#define DTYPE_WALK_RUNS 16384

/* A predefined type, or a live derived one. */
int dtype_is_type(orma_type t);

static inline struct dtype_derived *dtype_derived_of(orma_type t)
{
    return t->predefined ? NULL : (struct dtype_derived *)(void *)t;
}

/* The predefined type all of t's data is made of, or DTYPE_MIXED. */
static inline int dtype_basic(orma_type t)
{
    return t->predefined ? (int)t->id : ((const struct dtype_derived *)(const void *)t)->basic;
}

/* Bounds, alignment and layout of any valid type. */
ptrdiff_t dtype_lb(orma_type t);
ptrdiff_t dtype_extent(orma_type t);
size_t dtype_align(orma_type t);
struct dtype_node *dtype_layout(orma_type t);
/* The bytes [*lo_p, *hi_p) that count (> 0) elements of t reach, from the
 * first element's origin; 0 when they are beyond a ptrdiff_t. */
int dtype_reach(orma_type t, size_t count, ptrdiff_t *lo_p, ptrdiff_t *hi_p);

/* What iterators walk: the flattened layout when there is one. */
static inline const struct dtype_node *dtype_walk_layout(orma_type t)
{
    const struct dtype_derived *d = t->predefined ? NULL : (const struct dtype_derived *)(const void *)t;
    return d && d->walk ? d->walk : dtype_layout(t);
}

/* A new derived type owning node (the reference is taken over), with no
 * signature yet: the constructor sets sig (the type owns that reference). */
int dtype_derived_create(struct dtype_node *node, ptrdiff_t lb, ptrdiff_t ub, size_t align, orma_type *type_p);
/* Mark t committed (once), flattening its layout if that speeds walks. */
void dtype_derived_commit(orma_type t);
/* Invalidate the handle (orma_type_free); the object lives on while
 * queued operations hold it. */
void dtype_derived_free(orma_type t);

/* Queued operations keep the types they use (no-ops on predefined types). */
void dtype_hold(orma_type t);
void dtype_release(orma_type t);

#endif
