/* dtype_node.h -- the layout of a datatype in compact form.
 *
 * A layout is a tree of three kinds of nodes, shared (reference counted)
 * between the types built on each other:
 *   LEAF  len contiguous bytes at offset 0;
 *   LOOP  count copies of child, the i-th at i * stride bytes;
 *   SEQ   n entries, the i-th a child at disp[i] bytes, in typemap order.
 * Construction normalises as it goes: zero-size parts vanish, a loop of
 * touching leaves is one leaf, a loop of loops whose strides line up is one
 * loop, nested sequences are flattened and touching leaves in a sequence
 * merged.  So a vector of a million blocks is one LOOP over one LEAF, and
 * an indexed type costs one entry per (merged) block. */
#ifndef ORMA_DTYPE_NODE_H
#define ORMA_DTYPE_NODE_H

#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

/* Deeper layouts are refused at construction (iterators keep a frame per
 * level on the stack). */
#define DTYPE_MAX_DEPTH 48

enum dtype_node_kind { DN_LEAF, DN_LOOP, DN_SEQ };

struct dtype_node;

struct dtype_entry {
    ptrdiff_t disp;
    struct dtype_node *child;
};

struct dtype_node {
    _Atomic uint32_t refs; /* 0: static (never freed); threads share nodes */
    uint16_t kind;
    uint16_t depth;    /* levels including this one */
    size_t size;       /* data bytes */
    ptrdiff_t true_lb; /* first and one past the last data byte (size 0: 0, 0) */
    ptrdiff_t true_ub;
    union {
        struct {
            size_t len;
        } leaf;
        struct {
            size_t count;
            ptrdiff_t stride;
            struct dtype_node *child;
        } loop;
        struct {
            size_t n;
            struct dtype_entry *e;
            size_t run_len; /* every entry a leaf of this many bytes, else 0 */
        } seq;
    } u;
};

/* a + b and a + i * stride for offsets inside a layout: a partial sum may
 * leave the range of ptrdiff_t (a loop far out, its child's offsets
 * negative) where the final offset does not, so they wrap (unsigned
 * arithmetic, defined) instead of overflowing. */
static inline ptrdiff_t dtype_off_add(ptrdiff_t a, ptrdiff_t b) { return (ptrdiff_t)((uintptr_t)a + (uintptr_t)b); }
static inline ptrdiff_t dtype_off_step(ptrdiff_t a, size_t i, ptrdiff_t stride)
{
    return (ptrdiff_t)((uintptr_t)a + (uintptr_t)i * (uintptr_t)stride);
}

/* Why a constructor refused, in *too_deep_p (0: out of memory). */
#define DTYPE_REFUSED_DEPTH 1 /* deeper than DTYPE_MAX_DEPTH */
#define DTYPE_REFUSED_RANGE 2 /* byte offsets overflow */

/* Constructors return a new reference, or NULL when out of memory or
 * refused (*too_deep_p says why).  They
 * take their own references to children; the caller keeps its own. */
struct dtype_node *dtype_node_leaf(size_t len);
struct dtype_node *dtype_node_repeat(size_t count, ptrdiff_t stride, struct dtype_node *child, int *too_deep_p);
struct dtype_node *dtype_node_seq(size_t n, const ptrdiff_t *disps, struct dtype_node *const *children,
                                  int *too_deep_p);

struct dtype_node *dtype_node_ref(struct dtype_node *n);
void dtype_node_unref(struct dtype_node *n);

/* Whether the data of one instance is exactly the bytes [0, size), in
 * order.  Stops at the first gap, so it is cheap for sparse layouts. */
int dtype_node_dense(const struct dtype_node *n);

/* The same layout as one sequence of leaves -- what a walk of a nested
 * layout with few runs goes through fastest -- or NULL when n is flat
 * already (a leaf, a loop of a leaf, a sequence of leaves), has more than
 * max_runs runs per instance, or memory is short. */
struct dtype_node *dtype_node_flatten(const struct dtype_node *n, size_t max_runs);

/* The layout of predefined type id (static, never freed). */
struct dtype_node *dtype_node_predefined(int typeid_);

#endif
