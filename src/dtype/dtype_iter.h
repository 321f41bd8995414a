/* dtype_iter.h -- walking a layout as runs of contiguous bytes, in typemap
 * order, resumable at any byte: the engine behind pack, unpack and the
 * one-pass copy from one layout into another. */
#ifndef ORMA_DTYPE_ITER_H
#define ORMA_DTYPE_ITER_H

#include "dtype_node.h"

#include <orma.h>
#include <stddef.h>

struct dtype_frame {
    const struct dtype_node *n;
    size_t i;       /* next child (LOOP, SEQ) */
    ptrdiff_t base; /* byte offset of this node's origin */
};

struct dtype_iter {
    const struct dtype_node *root;
    ptrdiff_t extent; /* distance between consecutive elements */
    size_t count, next_elem;
    size_t leaf_done; /* bytes of the top leaf already handed out */
    int depth;
    struct dtype_frame f[DTYPE_MAX_DEPTH];
};

/* count elements of type, the first at offset 0. */
void dtype_iter_init(struct dtype_iter *it, orma_type type, size_t count);

/* The next run of at most max (> 0) bytes: *off_p bytes past the buffer,
 * *len_p long.  Returns 0 when the layout is exhausted. */
int dtype_iter_next(struct dtype_iter *it, size_t max, ptrdiff_t *off_p, size_t *len_p);

/* Skip n data bytes (resuming a walk at a byte position). */
void dtype_iter_skip(struct dtype_iter *it, size_t n);

/* Pack/unpack bytes [from, from + n) of the data stream of (buf, count,
 * type) to/from the dense buffer packed. */
void dtype_pack(const void *buf, size_t count, orma_type type, size_t from, size_t n, void *packed);
void dtype_unpack(void *buf, size_t count, orma_type type, size_t from, size_t n, const void *packed);

/* One pass from one layout straight into another: the data of (src,
 * scount, stype) into (dst, dcount, dtype); both hold the same number of
 * data bytes. */
void dtype_copy(void *dst, size_t dcount, orma_type dtype, const void *src, size_t scount, orma_type stype);

#endif
