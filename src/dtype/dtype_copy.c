/* dtype_copy.c -- one pass from one layout straight into another: the
 * shapes the engine copies in loops of their own (strided, flat, a tree
 * beside a flat walk, one layout moved from the other), the pair walk
 * for everything else, and the same copy clipped to a range of the
 * destination (dtype_copy_clipped). */
#include "dtype_iter.h"
#include "dtype_derived.h"
#include "util_copy.h"

#include <stdint.h>
#include <string.h>

/* Every copy below takes a clip c: NULL (dtype_copy, where it is a
 * constant and vanishes from the loops) or the range of destination
 * addresses to store into, the other runs handed to c's spill.  The
 * functions are inlined into both entry points so that each gets loops
 * of its own. */
#define DTYPE_INLINE static inline __attribute__((always_inline))

static __attribute__((noinline)) void dtype_clip_spill(struct dtype_clip *c, char *dst, const char *src, size_t len)
{
    if (!c->status)
        c->status = c->spill(c->ctx, dst, src, len);
}

/* COPY(dst, src, len) if c lets the run be stored, else the spill. */
#define DTYPE_PUT(c, COPY, D, S, LEN)                                                              \
    do {                                                                                           \
        char *d_ = (D);                                                                            \
        if (!(c) || ((uintptr_t)d_ >= (c)->lo && (uintptr_t)d_ + (LEN) <= (c)->hi))               \
            COPY(d_, (S), (LEN));                                                                  \
        else                                                                                       \
            dtype_clip_spill((c), d_, (S), (LEN));                                                 \
    } while (0)

/* count elements of a type as at most two nested strided loops of runs
 * of len bytes: n1 runs s1 apart, n2 times s2 apart, from off.  Vectors,
 * subarrays of up to two dimensions, contiguous and plain arrays are. */
struct dtype_strided {
    size_t len, n1, n2;
    ptrdiff_t s1, s2, off;
};

static int dtype_as_strided(orma_type t, size_t count, struct dtype_strided *d)
{
    const struct dtype_node *n = dtype_layout(t);
    ptrdiff_t ext = dtype_extent(t);
    d->off = 0;
    if (n->kind == DN_SEQ && n->u.seq.n == 1) {
        d->off = n->u.seq.e[0].disp;
        n = n->u.seq.e[0].child;
    }
    if (n->kind == DN_LEAF) {
        *d = (struct dtype_strided){n->u.leaf.len, count, 1, ext, 0, d->off};
        return 1;
    }
    if (n->kind != DN_LOOP)
        return 0;
    const struct dtype_node *c = n->u.loop.child;
    if (c->kind == DN_LEAF) {
        *d = (struct dtype_strided){c->u.leaf.len, n->u.loop.count, count, n->u.loop.stride, ext, d->off};
        return 1;
    }
    if (count == 1 && c->kind == DN_LOOP && c->u.loop.child->kind == DN_LEAF) {
        *d = (struct dtype_strided){c->u.loop.child->u.leaf.len, c->u.loop.count, n->u.loop.count, c->u.loop.stride,
                                    n->u.loop.stride, d->off};
        return 1;
    }
    return 0;
}

/* One side of a strided walk w to its next run: pos moves by s1 within a
 * row of n1 runs (j counts them), to the next row's base by s2. */
#define DTYPE_STEP(w, j, base, pos)                                                                \
    do {                                                                                           \
        if (++j == (w)->n1) {                                                                      \
            j = 0;                                                                                 \
            base += (w)->s2;                                                                       \
            pos = base;                                                                            \
        } else {                                                                                   \
            pos += (w)->s1;                                                                        \
        }                                                                                          \
    } while (0)

/* Runs of len bytes from one strided walk to another; the common small
 * lengths get a copy of constant size (a few moves, no call). */
#define DTYPE_RUNS(COPY, LEN)                                                                      \
    for (size_t r = 0; r < runs; r++) {                                                            \
        DTYPE_PUT(c, COPY, dp + dpos, sp + spos, LEN);                                             \
        DTYPE_STEP(s, sj, sbase, spos);                                                            \
        DTYPE_STEP(d, dj, dbase, dpos);                                                            \
    }

/* A transpose: both walks n2 rows of n1 runs, and on one side the rows lie
 * next to each other (s2 == len) while the runs of a row are far apart.
 * Row by row, every run there is a store (or load) to a cache line of its
 * own, which the next row's run completes long after; in tiles of the few
 * rows that fill a line, taken run by run, each line is written (or read)
 * whole at once and the other side is a few sequential streams.  FFT's
 * transpose at 1 MB (16-byte runs, rows 8 KB apart) here: 390 -> 150 us,
 * where orma_unpack of the same layout takes 190. */
#define DTYPE_TILE_BYTES 64

#define DTYPE_TILED(LEN)                                                                           \
    for (size_t i0 = 0; i0 < n2; i0 += ti) {                                                       \
        size_t i1 = i0 + ti < n2 ? i0 + ti : n2;                                                   \
        for (size_t j = 0; j < n1; j++)                                                            \
            for (size_t i = i0; i < i1; i++)                                                       \
                DTYPE_PUT(c, util_copy_run, dp + d->off + (ptrdiff_t)i * d->s2 + (ptrdiff_t)j * d->s1, \
                          sp + s->off + (ptrdiff_t)i * s->s2 + (ptrdiff_t)j * s->s1, LEN);         \
    }

DTYPE_INLINE int dtype_copy_tiled(char *dp, const struct dtype_strided *d, const char *sp,
                                  const struct dtype_strided *s, struct dtype_clip *c)
{
    size_t len = s->len, n1 = s->n1, n2 = s->n2;
    if (d->n1 != n1 || d->n2 != n2 || n2 < 2 || n1 < 2 || len > DTYPE_TILE_BYTES / 2)
        return 0;
    int dt = d->s2 == (ptrdiff_t)len && d->s1 != (ptrdiff_t)len; /* the target is the transposed side */
    int st = s->s2 == (ptrdiff_t)len && s->s1 != (ptrdiff_t)len;
    if (!dt && !st)
        return 0;
    size_t ti = DTYPE_TILE_BYTES / len;
    switch (len) {
    case 4: DTYPE_TILED(4) break;
    case 8: DTYPE_TILED(8) break;
    case 16: DTYPE_TILED(16) break;
    default: DTYPE_TILED(len) break;
    }
    return 1;
}

DTYPE_INLINE void dtype_copy_strided(char *dp, const struct dtype_strided *d, const char *sp,
                                     const struct dtype_strided *s, struct dtype_clip *c)
{
    if (dtype_copy_tiled(dp, d, sp, s, c))
        return;
    size_t runs = s->n1 * s->n2, sj = 0, dj = 0;
    ptrdiff_t sbase = s->off, spos = s->off, dbase = d->off, dpos = d->off;
    switch (s->len) {
    case 4: DTYPE_RUNS(memcpy, 4) break;
    case 8: DTYPE_RUNS(memcpy, 8) break;
    case 12: DTYPE_RUNS(memcpy, 12) break;
    case 16: DTYPE_RUNS(memcpy, 16) break;
    case 24: DTYPE_RUNS(memcpy, 24) break;
    case 32: DTYPE_RUNS(util_copy_run, 32) break;
    case 64: DTYPE_RUNS(util_copy_run, 64) break;
    case 128: DTYPE_RUNS(util_copy_run, 128) break;
    default: DTYPE_RUNS(util_copy_run, s->len) break;
    }
}

/* A dense walk (one run of bytes) is cut into runs of len, shorter or
 * longer than its own (a buffer of bytes, ORMA_BYTE times n, beside a
 * vector of 4 KB rows moves in 4 KB runs, not in bytes); so is a single
 * loop of runs that are multiples of len, each run becoming a row of
 * shorter ones (the rows of a transpose's sending side, which the columns
 * of its receiving side cut into elements: FFT). */
static void dtype_strided_recut(struct dtype_strided *d, size_t len)
{
    size_t total = d->len * d->n1 * d->n2;
    int dense = (d->n1 == 1 || d->s1 == (ptrdiff_t)d->len) &&
                (d->n2 == 1 || d->s2 == (ptrdiff_t)(d->len * d->n1));
    if (!len || d->len == len)
        return;
    if (dense && total % len == 0) {
        *d = (struct dtype_strided){len, total / len, 1, (ptrdiff_t)len, 0, d->off};
    } else if (d->len < len || d->len % len) {
        return;
    } else if (d->n1 == 1 || d->n2 == 1) {
        size_t rows = d->n1 == 1 ? d->n2 : d->n1;
        ptrdiff_t step = d->n1 == 1 ? d->s2 : d->s1;
        *d = (struct dtype_strided){len, d->len / len, rows, (ptrdiff_t)len, step, d->off};
    }
}

/* Both walks in runs of one length: run for run, copies of constant size,
 * every index in a local (the copies' char stores may alias memory, not
 * registers).  OFF(side) is the offset of that side's current run. */
#define DTYPE_UNIFORM(LEN, SOFF, DOFF)                                                             \
    for (size_t r = 0; r < runs; r++) {                                                            \
        DTYPE_PUT(c, util_copy_run, dst + dtype_off_add(dbase, DOFF), src + dtype_off_add(sbase, SOFF), LEN); \
        if (++si == sruns) {                                                                       \
            si = 0;                                                                                \
            sbase = dtype_off_add(sbase, sext);                                                    \
        }                                                                                          \
        if (++di == druns) {                                                                       \
            di = 0;                                                                                \
            dbase = dtype_off_add(dbase, dext);                                                    \
        }                                                                                          \
    }
#define DTYPE_UNIFORM_SIZES(SOFF, DOFF)                                                            \
    switch (sw->len) {                                                                             \
    case 4: DTYPE_UNIFORM(4, SOFF, DOFF) break;                                                    \
    case 8: DTYPE_UNIFORM(8, SOFF, DOFF) break;                                                    \
    case 12: DTYPE_UNIFORM(12, SOFF, DOFF) break;                                                  \
    case 16: DTYPE_UNIFORM(16, SOFF, DOFF) break;                                                  \
    case 24: DTYPE_UNIFORM(24, SOFF, DOFF) break;                                                  \
    case 32: DTYPE_UNIFORM(32, SOFF, DOFF) break;                                                  \
    case 64: DTYPE_UNIFORM(64, SOFF, DOFF) break;                                                  \
    case 128: DTYPE_UNIFORM(128, SOFF, DOFF) break;                                                \
    default: DTYPE_UNIFORM(sw->len, SOFF, DOFF) break;                                             \
    }

/* Indexed runs are where the data is scattered at random (the particles
 * or mesh points an application picked): no hardware prefetcher follows
 * them, so dtype_copy_seqs fetches the runs DTYPE_AHEAD further on while
 * it copies one.  SPECFEM3D's 4-byte and 12-byte points at 1 MB, LAMMPS's
 * atoms: see bench/README.md (ddt).  Only where the runs spread over
 * more than the caches keep (DTYPE_AHEAD_SPAN): in a few hundred KB the
 * fetches are instructions that win nothing (LAMMPS's atoms at 64 KB, a
 * 590 KB spread: 1.43-1.80x of pack with them, 1.23-1.31x without). */
#define DTYPE_AHEAD 16
#define DTYPE_AHEAD_SPAN ((size_t)2 << 20)

/* Whether the runs of a sequence spread wider than DTYPE_AHEAD_SPAN. */
static int dtype_spread(const struct dtype_entry *e, size_t n)
{
    ptrdiff_t lo = e[0].disp, hi = e[0].disp;
    for (size_t i = 1; i < n; i += n / 64 + 1) { /* a sample is enough */
        lo = e[i].disp < lo ? e[i].disp : lo;
        hi = e[i].disp > hi ? e[i].disp : hi;
    }
    lo = e[n - 1].disp < lo ? e[n - 1].disp : lo;
    hi = e[n - 1].disp > hi ? e[n - 1].disp : hi;
    return (size_t)(hi - lo) > DTYPE_AHEAD_SPAN;
}

DTYPE_INLINE void dtype_copy_uniform_body(char *dst, const struct dtype_flat_walk *dw, const char *src,
                                         const struct dtype_flat_walk *sw, struct dtype_clip *c)
{
    const struct dtype_entry *se = sw->e, *de = dw->e;
    const ptrdiff_t sstride = sw->stride, dstride = dw->stride, sext = sw->ext, dext = dw->ext;
    const size_t sruns = sw->runs, druns = dw->runs;
    size_t runs = sw->runs * sw->count, si = 0, di = 0;
    if (dw->runs * dw->count < runs)
        runs = dw->runs * dw->count;
    ptrdiff_t sbase = 0, dbase = 0;
    /* No prefetching here: flattened regular layouts (WRF's faces) take
     * this loop too, and fetching ahead of them cost 10-25% at 4-256 KB;
     * the hardware follows their strides. */
    if (se && de) /* indexed or flattened on both sides */
        DTYPE_UNIFORM_SIZES(se[si].disp, de[di].disp)
    else
        DTYPE_UNIFORM_SIZES(se ? se[si].disp : dtype_off_step(0, si, sstride),
                            de ? de[di].disp : dtype_off_step(0, di, dstride))
}

/* One element of a sequence of leaves on each side, runs of any lengths
 * (indexed types whose neighbouring blocks merged: SPECFEM3D's points,
 * LAMMPS's atoms into its contiguous arrays).  The general loop below keeps
 * two walks' state and loses it to the stack; here it is two indices, two
 * offsets and two lengths.  Scattered to scattered is bound by the memory
 * system, not the loop: SPECFEM3D's points in one process, 64 KB 41 -> 38
 * us, 1 MB of triples 1064 -> 952 us, where pack and unpack take about as
 * long together (each touches one scattered side, the typed copy both). */
DTYPE_INLINE void dtype_copy_seqs_body(char *dst, const struct dtype_entry *de, size_t dn, size_t dlen,
                                      const char *src, const struct dtype_entry *se, size_t sn, size_t slen,
                                      struct dtype_clip *c, int ahead)
{
    size_t i = 0, j = 0;
    ptrdiff_t so = se[0].disp, dof = de[0].disp;
    size_t sl = slen ? slen : se[0].child->u.leaf.len, dl = dlen ? dlen : de[0].child->u.leaf.len;
    for (;;) {
        if (ahead && i + DTYPE_AHEAD < sn)
            __builtin_prefetch(src + se[i + DTYPE_AHEAD].disp, 0);
        if (ahead && j + DTYPE_AHEAD < dn)
            __builtin_prefetch(dst + de[j + DTYPE_AHEAD].disp, 1);
        size_t len = sl < dl ? sl : dl;
        DTYPE_PUT(c, util_copy_run, dst + dof, src + so, len);
        sl -= len;
        dl -= len;
        if (sl) {
            so += (ptrdiff_t)len;
        } else {
            if (++i == sn)
                return;
            so = se[i].disp;
            sl = slen ? slen : se[i].child->u.leaf.len;
        }
        if (dl) {
            dof += (ptrdiff_t)len;
        } else {
            if (++j == dn)
                return;
            dof = de[j].disp;
            dl = dlen ? dlen : de[j].child->u.leaf.len;
        }
    }
}

/* Short runs into a few long ones (LAMMPS's atoms, picked from six
 * per-atom arrays, into the ends of six others): gathered into a buffer
 * that stays in L1, written out DTYPE_BOUNCE bytes at a time.  Stored run
 * by run instead, every store of 4-24 bytes first fetches the line it
 * lands in -- from another core's cache when the destination is a peer's
 * window, which it last read -- where a copy of a few KB writes whole
 * lines.  The same reads as pack's, then the stores of a put. */
#define DTYPE_BOUNCE 4096

DTYPE_INLINE void dtype_copy_gather_body(char *dst, const struct dtype_entry *de, size_t dn, size_t dlen,
                                        const char *src, const struct dtype_entry *se, size_t sn, size_t slen,
                                        struct dtype_clip *c)
{
    _Alignas(64) char buf[DTYPE_BOUNCE];
    size_t i = 0, sl = slen ? slen : se[0].child->u.leaf.len;
    ptrdiff_t so = se[0].disp;
    for (size_t j = 0; j < dn; j++) {
        char *d = dst + de[j].disp;
        size_t dl = dlen ? dlen : de[j].child->u.leaf.len;
        while (dl) {
            size_t want = dl < DTYPE_BOUNCE ? dl : DTYPE_BOUNCE, got = 0;
            while (got < want) {
                size_t len = sl < want - got ? sl : want - got;
                util_copy_run(buf + got, src + so, len);
                got += len;
                sl -= len;
                if (sl) {
                    so += (ptrdiff_t)len;
                } else if (++i == sn) {
                    break;
                } else {
                    so = se[i].disp;
                    sl = slen ? slen : se[i].child->u.leaf.len;
                }
            }
            if (got)
                DTYPE_PUT(c, util_copy, d, buf, got);
            if (got < want)
                return; /* the source is exhausted */
            d += got;
            dl -= got;
        }
    }
}

/* The three loops above, each kept whole (not inlined into a larger
 * function, where its locals would compete for registers), and each in
 * a copy without a clip (c NULL: a constant there) and one with. */
static __attribute__((noinline)) void dtype_copy_uniform(char *dst, const struct dtype_flat_walk *dw,
                                                         const char *src, const struct dtype_flat_walk *sw,
                                                         struct dtype_clip *c)
{
    if (c)
        dtype_copy_uniform_body(dst, dw, src, sw, c);
    else
        dtype_copy_uniform_body(dst, dw, src, sw, NULL);
}

static __attribute__((noinline)) void dtype_copy_seqs(char *dst, const struct dtype_entry *de, size_t dn, size_t dlen,
                                                      const char *src, const struct dtype_entry *se, size_t sn,
                                                      size_t slen, struct dtype_clip *c)
{
    int ahead = dtype_spread(se, sn) || dtype_spread(de, dn);
    if (c && ahead)
        dtype_copy_seqs_body(dst, de, dn, dlen, src, se, sn, slen, c, 1);
    else if (c)
        dtype_copy_seqs_body(dst, de, dn, dlen, src, se, sn, slen, c, 0);
    else if (ahead)
        dtype_copy_seqs_body(dst, de, dn, dlen, src, se, sn, slen, NULL, 1);
    else
        dtype_copy_seqs_body(dst, de, dn, dlen, src, se, sn, slen, NULL, 0);
}

static __attribute__((noinline)) void dtype_copy_gather(char *dst, const struct dtype_entry *de, size_t dn,
                                                        size_t dlen, const char *src, const struct dtype_entry *se,
                                                        size_t sn, size_t slen, struct dtype_clip *c)
{
    if (c)
        dtype_copy_gather_body(dst, de, dn, dlen, src, se, sn, slen, c);
    else
        dtype_copy_gather_body(dst, de, dn, dlen, src, se, sn, slen, NULL);
}

/* dtype_copy between two flat layouts: the two walks and the pieces in
 * locals, so that the stores of the copy (through char pointers, which
 * may alias anything in memory) do not force them to be reloaded. */
DTYPE_INLINE void dtype_copy_flat(char *dst, struct dtype_flat_walk dw, const char *src, struct dtype_flat_walk sw,
                                 struct dtype_clip *c)
{
    if (dw.len && dw.len == sw.len) {
        dtype_copy_uniform(dst, &dw, src, &sw, c);
        return;
    }
    if (dw.e && sw.e && dw.count == 1 && sw.count == 1 && dw.runs && sw.runs) {
        if (dw.runs <= sw.runs / 16) /* the destination's runs 16 times as long, on average */
            dtype_copy_gather(dst, dw.e, dw.runs, dw.len, src, sw.e, sw.runs, sw.len, c);
        else
            dtype_copy_seqs(dst, dw.e, dw.runs, dw.len, src, sw.e, sw.runs, sw.len, c);
        return;
    }
    ptrdiff_t doff = 0, soff = 0;
    size_t dlen = 0, slen = 0;
    for (;;) {
        if (!slen && !dtype_flat_next(&sw, &soff, &slen))
            return;
        if (!dlen && !dtype_flat_next(&dw, &doff, &dlen))
            return;
        if (slen == dlen) { /* the usual case: runs that match */
            DTYPE_PUT(c, util_copy_run, dst + doff, src + soff, slen);
            slen = dlen = 0;
            continue;
        }
        size_t len = slen < dlen ? slen : dlen;
        DTYPE_PUT(c, util_copy_run, dst + doff, src + soff, len);
        soff += (ptrdiff_t)len;
        doff += (ptrdiff_t)len;
        slen -= len;
        dlen -= len;
    }
}

void dtype_pair_init(struct dtype_pair *p, orma_type a, size_t acount, orma_type b, size_t bcount)
{
    dtype_cursor_init(&p->a, a, acount);
    dtype_cursor_init(&p->b, b, bcount);
    p->alen = p->blen = 0;
    p->aoff = p->boff = 0;
}

/* Inlined into dtype_copy's loop, so that the walk's state lives in
 * registers there. */
static inline __attribute__((always_inline)) int dtype_pair_step(struct dtype_pair *p, ptrdiff_t *aoff_p,
                                                                 ptrdiff_t *boff_p, size_t *len_p)
{
    if (!p->alen && !dtype_cursor_next(&p->a, &p->aoff, &p->alen))
        return 0;
    if (!p->blen && !dtype_cursor_next(&p->b, &p->boff, &p->blen))
        return 0;
    size_t len = p->alen < p->blen ? p->alen : p->blen;
    *aoff_p = p->aoff;
    *boff_p = p->boff;
    *len_p = len;
    p->aoff += (ptrdiff_t)len;
    p->boff += (ptrdiff_t)len;
    p->alen -= len;
    p->blen -= len;
    return 1;
}

int dtype_pair_next(struct dtype_pair *p, ptrdiff_t *aoff_p, ptrdiff_t *boff_p, size_t *len_p)
{
    return dtype_pair_step(p, aoff_p, boff_p, len_p);
}

size_t dtype_pair_iov(struct dtype_pair *p, char *abase, char *bbase, struct iovec *a, struct iovec *b, size_t max)
{
    size_t n = 0;
    ptrdiff_t aoff, boff;
    size_t len;
    while (dtype_pair_step(p, &aoff, &boff, &len)) {
        char *ap = abase + aoff, *bp = bbase + boff;
        if (n && (char *)a[n - 1].iov_base + a[n - 1].iov_len == ap &&
            (char *)b[n - 1].iov_base + b[n - 1].iov_len == bp) {
            a[n - 1].iov_len += len;
            b[n - 1].iov_len += len;
            continue;
        }
        if (n == max) { /* the batch is full: give the piece back */
            p->aoff -= (ptrdiff_t)len;
            p->boff -= (ptrdiff_t)len;
            p->alen += len;
            p->blen += len;
            break;
        }
        a[n] = (struct iovec){ap, len};
        b[n] = (struct iovec){bp, len};
        n++;
    }
    return n;
}

static int dtype_node_equal(const struct dtype_node *a, const struct dtype_node *b);

/* Whether layout b is layout a moved by *delta_p bytes (set here when the
 * first displacement that can differ is met; it starts at 0): the same
 * tree but for a sequence's displacements, all moved alike.  What a halo
 * exchange's two sides usually are -- one strip of a domain into the halo
 * on the other side, each built by the same code (WRF's struct of faces)
 * -- and then one walk serves both. */
static int dtype_node_shifted(const struct dtype_node *a, const struct dtype_node *b, ptrdiff_t *delta_p, int *set_p)
{
    if (a == b && *set_p && *delta_p == 0)
        return 1;
    if (a->kind != b->kind || a->size != b->size || a->depth != b->depth)
        return 0;
    switch (a->kind) {
    case DN_LEAF:
        return a->u.leaf.len == b->u.leaf.len;
    case DN_LOOP:
        if (a->u.loop.count != b->u.loop.count || a->u.loop.stride != b->u.loop.stride)
            return 0;
        /* the same child: moved by whatever the level above says */
        return dtype_node_equal(a->u.loop.child, b->u.loop.child);
    default:
        if (a->u.seq.n != b->u.seq.n)
            return 0;
        for (size_t i = 0; i < a->u.seq.n; i++) {
            ptrdiff_t d = b->u.seq.e[i].disp - a->u.seq.e[i].disp;
            if (!*set_p) {
                *delta_p = d;
                *set_p = 1;
            } else if (d != *delta_p) {
                return 0;
            }
            if (!dtype_node_equal(a->u.seq.e[i].child, b->u.seq.e[i].child))
                return 0;
        }
        return 1;
    }
}

/* Whether b is layout a itself, moved by nothing. */
static int dtype_node_equal(const struct dtype_node *a, const struct dtype_node *b)
{
    ptrdiff_t zero = 0;
    int set = 1;
    return dtype_node_shifted(a, b, &zero, &set);
}

/* Every run of one walk, from src + off to dst + off. */
DTYPE_INLINE void dtype_copy_walk(char *dst, const char *src, struct dtype_iter *it, struct dtype_clip *c)
{
    ptrdiff_t off;
    size_t len;
    while (dtype_iter_next(it, SIZE_MAX, &off, &len))
        DTYPE_PUT(c, util_copy_run, dst + off, src + off, len);
}

/* Two structs of the same fields, each field's layout the same on both
 * sides but moved by its own amount (WRF's y faces: a 2D field's strip
 * moves by rows of i, a 3D field's by planes): field by field, one walk
 * each.  0 when the layouts are not such. */
DTYPE_INLINE int dtype_copy_fields(void *dst, size_t dcount, orma_type dtype, const void *src, size_t scount,
                                   orma_type stype, struct dtype_clip *c)
{
    const struct dtype_node *a = dtype_walk_layout(stype), *b = dtype_walk_layout(dtype);
    ptrdiff_t sext = dtype_extent(stype), dext = dtype_extent(dtype);
    if (a->kind != DN_SEQ || b->kind != DN_SEQ || a->u.seq.n != b->u.seq.n || dcount != scount ||
        (scount > 1 && sext != dext) || a->u.seq.n > 64)
        return 0;
    for (size_t i = 0; i < a->u.seq.n; i++)
        if (!dtype_node_equal(a->u.seq.e[i].child, b->u.seq.e[i].child))
            return 0;
    for (size_t k = 0; k < scount; k++) {
        for (size_t i = 0; i < a->u.seq.n; i++) {
            const char *sp = (const char *)src + dtype_off_step(a->u.seq.e[i].disp, k, sext);
            char *dp = (char *)dst + dtype_off_step(b->u.seq.e[i].disp, k, dext);
            struct dtype_iter it = {.root = a->u.seq.e[i].child, .count = 1};
            dtype_copy_walk(dp, sp, &it, c);
        }
    }
    return 1;
}

/* A tree walk it (a layout too large to flatten: a struct of vectors of
 * more than DTYPE_WALK_RUNS blocks) and a flat walk w: run by run of w, a
 * pack of it's next bytes into the run (to_tree: an unpack from it) --
 * pack's loop, whose locals stay in registers, where the pair walk keeps
 * its state in memory beside the tree's frames and reloads it after
 * every copy. */
DTYPE_INLINE void dtype_copy_tree_flat(char *tree, struct dtype_iter *it, char *flat, struct dtype_flat_walk w,
                                       int to_tree, struct dtype_clip *c)
{
    ptrdiff_t woff, off;
    size_t wlen, len;
    while (dtype_flat_next(&w, &woff, &wlen)) {
        char *p = flat + woff;
        while (wlen && dtype_iter_next(it, wlen, &off, &len)) {
            if (to_tree)
                DTYPE_PUT(c, util_copy_run, tree + off, p, len);
            else
                DTYPE_PUT(c, util_copy_run, p, tree + off, len);
            p += len;
            wlen -= len;
        }
        if (wlen)
            return;
    }
}

/* Dense data to or from a layout (unpack, pack) through a clip. */
static void dtype_copy_dense_clip(char *lay, orma_type t, size_t count, char *dense, int to_layout,
                                  struct dtype_clip *c)
{
    struct dtype_cursor cur;
    dtype_cursor_init(&cur, t, count);
    ptrdiff_t off;
    size_t len;
    while (dtype_cursor_next(&cur, &off, &len)) {
        if (to_layout)
            DTYPE_PUT(c, util_copy_run, lay + off, dense, len);
        else
            DTYPE_PUT(c, util_copy_run, dense, lay + off, len);
        dense += len;
    }
}

DTYPE_INLINE void dtype_copy_any(void *dst, size_t dcount, orma_type dtype, const void *src, size_t scount,
                                 orma_type stype, struct dtype_clip *c)
{
    struct dtype_strided ds, ss;
    int strided = dtype_as_strided(dtype, dcount, &ds) && dtype_as_strided(stype, scount, &ss);
    if (strided && ds.len != ss.len) {
        dtype_strided_recut(&ds, ss.len);
        dtype_strided_recut(&ss, ds.len);
    }
    if (strided && ds.len == ss.len && ds.len && ds.n1 && ss.n1 && ds.n2 && ss.n2) {
        dtype_copy_strided(dst, &ds, src, &ss, c);
        return;
    }
    struct dtype_flat_walk dw, sw;
    if (dtype_flat_init(&dw, dtype, dcount) && dtype_flat_init(&sw, stype, scount)) {
        dtype_copy_flat(dst, dw, src, sw, c);
        return;
    }
    /* One walk where one suffices: the same layout on both sides, or one
     * moved from the other (the usual halo exchange), or one side dense
     * (pack, unpack).  WRF's x faces at 1 MB (87K runs of 12 bytes):
     * 1630 -> 390 us, against 730-1140 for pack, put and unpack; the pair
     * walk below costs about two walks. */
    size_t total = scount * stype->size;
    ptrdiff_t delta = 0;
    int set = 0;
    struct dtype_iter it;
    if (dcount == scount && dtype_extent(dtype) == dtype_extent(stype) &&
        dtype_node_shifted(dtype_walk_layout(stype), dtype_walk_layout(dtype), &delta, &set)) {
        dtype_iter_init(&it, stype, scount);
        dtype_copy_walk((char *)dst + delta, src, &it, c);
        return;
    }
    if (dtype_copy_fields(dst, dcount, dtype, src, scount, stype, c))
        return;
    if (stype->contiguous || dtype->contiguous) {
        if (c)
            dtype_copy_dense_clip(stype->contiguous ? dst : (char *)(uintptr_t)src,
                                  stype->contiguous ? dtype : stype, stype->contiguous ? dcount : scount,
                                  stype->contiguous ? (char *)(uintptr_t)src : dst, stype->contiguous, c);
        else if (stype->contiguous)
            dtype_unpack(dst, dcount, dtype, 0, total, src);
        else
            dtype_pack(src, scount, stype, 0, total, dst);
        return;
    }
    if (dtype_flat_init(&dw, dtype, dcount)) {
        dtype_iter_init(&it, stype, scount);
        dtype_copy_tree_flat((char *)(uintptr_t)src, &it, dst, dw, 0, c);
        return;
    }
    if (dtype_flat_init(&sw, stype, scount)) {
        dtype_iter_init(&it, dtype, dcount);
        dtype_copy_tree_flat(dst, &it, (char *)(uintptr_t)src, sw, 1, c);
        return;
    }
    struct dtype_pair pair;
    dtype_pair_init(&pair, stype, scount, dtype, dcount);
    ptrdiff_t soff, doff;
    size_t len;
    while (dtype_pair_step(&pair, &soff, &doff, &len))
        DTYPE_PUT(c, util_copy_run, (char *)dst + doff, (const char *)src + soff, len);
}

void dtype_copy(void *dst, size_t dcount, orma_type dtype, const void *src, size_t scount, orma_type stype)
{
    dtype_copy_any(dst, dcount, dtype, src, scount, stype, NULL);
}

int dtype_copy_clipped(void *dst, size_t dcount, orma_type dtype, const void *src, size_t scount, orma_type stype,
                       struct dtype_clip *clip)
{
    clip->status = 0;
    dtype_copy_any(dst, dcount, dtype, src, scount, stype, clip);
    return clip->status;
}
