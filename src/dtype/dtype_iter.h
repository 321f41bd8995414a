/* dtype_iter.h -- walking a layout as runs of contiguous bytes, in typemap
 * order, resumable at any byte: the engine behind pack, unpack and the
 * one-pass copy from one layout into another. */
#ifndef ORMA_DTYPE_ITER_H
#define ORMA_DTYPE_ITER_H

#include "dtype_node.h"

#include <orma.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

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

/* A walk without frames for the flat layouts -- one run per element, a
 * loop of runs, a sequence of runs (indexed and struct types of basic
 * members, and every nested layout flattened at commit).  Small and never
 * address-taken in the copy loops, so that it lives in registers there. */
struct dtype_flat_walk {
    const struct dtype_entry *e; /* a sequence's entries, or NULL */
    size_t len;                  /* the length of every run, or 0: they differ */
    ptrdiff_t stride;            /* no sequence: the loop's stride */
    size_t i, runs, elem, count;
    ptrdiff_t ext, base;
};

/* Set w up over count elements of t if t's walk layout is flat: 0 if not. */
int dtype_flat_init(struct dtype_flat_walk *w, orma_type t, size_t count);

static inline __attribute__((always_inline)) int dtype_flat_next(struct dtype_flat_walk *w, ptrdiff_t *off_p,
                                                                 size_t *len_p)
{
    if (w->elem == w->count)
        return 0;
    size_t i = w->i;
    if (w->e) {
        *off_p = dtype_off_add(w->base, w->e[i].disp);
        *len_p = w->len ? w->len : w->e[i].child->u.leaf.len;
    } else {
        *off_p = dtype_off_step(w->base, i, w->stride);
        *len_p = w->len;
    }
    if (++w->i == w->runs) {
        w->i = 0;
        w->elem++;
        w->base = dtype_off_add(w->base, w->ext);
    }
    return 1;
}

/* The flat walk if the layout is flat, else the iterator. */
struct dtype_cursor {
    int flat;
    struct dtype_flat_walk w;
    struct dtype_iter it;
};

void dtype_cursor_init(struct dtype_cursor *c, orma_type t, size_t count);

static inline int dtype_cursor_next(struct dtype_cursor *c, ptrdiff_t *off_p, size_t *len_p)
{
    return c->flat ? dtype_flat_next(&c->w, off_p, len_p) : dtype_iter_next(&c->it, SIZE_MAX, off_p, len_p);
}

/* A layout's data stream taken a part at a time (a packed stream arriving
 * in pieces, each unpacked as it comes): a run a part ends in is resumed
 * by the next, so the whole costs one walk however it is cut. */
struct dtype_stream {
    struct dtype_cursor c;
    ptrdiff_t off; /* what is left of the run the last part ended in */
    size_t len;
    size_t at;     /* stream bytes behind */
};

void dtype_stream_init(struct dtype_stream *s, orma_type t, size_t count);
/* The next piece of the stream, at most max (> 0) bytes: *off_p past the
 * layout's buffer, *len_p long.  0 when the layout is exhausted. */
int dtype_stream_next(struct dtype_stream *s, size_t max, ptrdiff_t *off_p, size_t *len_p);
/* The next n bytes of the stream moved between the layout's buffer buf and
 * the dense packed: into buf (unpack) or out of it.  Returns the bytes
 * moved, fewer than n when the layout ended first. */
size_t dtype_stream_move(struct dtype_stream *s, char *buf, char *packed, size_t n, int unpack);
/* The next n bytes of the stream passed over. */
void dtype_stream_skip(struct dtype_stream *s, size_t n);

/* Two layouts of the same data size walked side by side: the pieces where
 * a run of one meets a run of the other, in typemap order.  What every
 * transfer from one layout into another is made of. */
struct dtype_pair {
    struct dtype_cursor a, b;
    ptrdiff_t aoff, boff; /* what is left of the current runs */
    size_t alen, blen;
};

void dtype_pair_init(struct dtype_pair *p, orma_type a, size_t acount, orma_type b, size_t bcount);

/* The next piece: *len_p bytes at *aoff_p in a's buffer and *boff_p in
 * b's.  Returns 0 when either layout is exhausted. */
int dtype_pair_next(struct dtype_pair *p, ptrdiff_t *aoff_p, ptrdiff_t *boff_p, size_t *len_p);

/* The next batch of the walk as at most max (> 0) paired iovecs, a[i] in
 * a's buffer abase and b[i] in b's bbase, of equal non-zero lengths;
 * pieces adjacent on both sides are merged into one pair.  Returns how
 * many were filled, 0 when the walk is done.  What a single-copy syscall
 * (process_vm_readv/writev: max <= IOV_MAX) or a transport's scatter-gather
 * list is made of. */
size_t dtype_pair_iov(struct dtype_pair *p, char *abase, char *bbase, struct iovec *a, struct iovec *b, size_t max);

/* How many runs count elements of t walk through, at least: exact for the
 * flat walks, a lower bound (the flattening limit per element) otherwise. */
size_t dtype_runs_at_least(orma_type t, size_t count);

/* Pack/unpack bytes [from, from + n) of the data stream of (buf, count,
 * type) to/from the dense buffer packed. */
void dtype_pack(const void *buf, size_t count, orma_type type, size_t from, size_t n, void *packed);
void dtype_unpack(void *buf, size_t count, orma_type type, size_t from, size_t n, const void *packed);

/* One pass from one layout straight into another: the data of (src,
 * scount, stype) into (dst, dcount, dtype); both hold the same number of
 * data bytes. */
void dtype_copy(void *dst, size_t dcount, orma_type dtype, const void *src, size_t scount, orma_type stype);

/* dtype_copy with the stores clipped to [lo, hi) of the destination's
 * addresses: a run that lies wholly inside is copied, every other run is
 * handed to spill (its destination and source, in typemap order; no byte
 * of it is stored), which returns 0 or an error.  After the first error no
 * run is spilled any more; the copy returns it.  What a typed put to a
 * window mapped but for its edges is made of: the mapped runs stored in
 * the engine's loops, the others sent. */
struct dtype_clip {
    uintptr_t lo, hi;
    int (*spill)(void *ctx, char *dst, const char *src, size_t len);
    void *ctx;
    int status;
};

int dtype_copy_clipped(void *dst, size_t dcount, orma_type dtype, const void *src, size_t scount, orma_type stype,
                       struct dtype_clip *clip);

#endif
