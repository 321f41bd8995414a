/* dtype_fuzz_layout.c -- random nested datatypes against a naive reference.
 *
 * A seeded generator builds a few thousand derived types (every
 * constructor, nesting up to REF_MAX_DEPTH, zero and negative counts,
 * strides and displacements, resized bounds, structs of mixed members,
 * subarrays in both orders) out of a pool of earlier ones, whose members
 * are freed as the pool turns over -- so types outliving the types they
 * were built from are exercised too.  Each type is checked against its
 * spelled-out typemap (dtype_fuzz.h): size, bounds, true bounds,
 * contiguity, pack and unpack of 1..3 elements through the public calls,
 * byte ranges of the internal pack/unpack, the iterator's runs with random
 * run limits and skips, the one-pass copy into another random type, and
 * the type signature (dtype_fuzz_sig.c).
 *
 * usage: dtype_fuzz_layout [seed [types]]; a failure prints the seed, the
 * type's number and its construction. */
#include "check.h"
#include "dtype_fuzz.h"
#include "dtype_iter.h"

#include <inttypes.h>
#include <stdarg.h>

uint64_t fuzz_seed = 20240611;
long fuzz_iter;

#define POOL 24
#define MARGIN 24 /* guard bytes around the reach of every buffer */
#define MAXCOUNT 3

static void fuzz_vfail(const struct ref_type *t, int line, const char *cond, const char *fmt, va_list ap)
    __attribute__((noreturn));
static void fuzz_vfail(const struct ref_type *t, int line, const char *cond, const char *fmt, va_list ap)
{
    fprintf(stderr, "dtype_fuzz_layout: seed %" PRIu64 ", type #%ld: ", fuzz_seed, fuzz_iter);
    if (cond)
        fprintf(stderr, "line %d: %s: ", line, cond);
    vfprintf(stderr, fmt, ap);
    if (t) {
        fprintf(stderr, "\n  construction: %s\n  reference: size %zu lb %td ub %td align %zu, %zu entries:",
                t->desc ? t->desc : "?", t->size, t->lb, t->ub, t->align, t->n);
        for (size_t i = 0; i < t->n && i < 24; i++)
            fprintf(stderr, " (%td,%zu)", t->e[i].disp, t->e[i].len);
        fprintf(stderr, "%s", t->n > 24 ? " ..." : "");
    }
    fprintf(stderr, "\n  reproduce: dtype_fuzz_layout %" PRIu64 "\n", fuzz_seed);
    exit(1);
}

void fuzz_fail(const struct ref_type *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fuzz_vfail(t, 0, NULL, fmt, ap);
}

static void fuzz_fail_at(const struct ref_type *t, int line, const char *cond, const char *fmt, ...)
    __attribute__((format(printf, 4, 5), noreturn));
static void fuzz_fail_at(const struct ref_type *t, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fuzz_vfail(t, line, cond, fmt, ap);
}

#define FCHECK(t, cond, ...)                                                                                        \
    do {                                                                                                            \
        if (!(cond))                                                                                                \
            fuzz_fail_at(t, __LINE__, #cond, __VA_ARGS__);                                                          \
    } while (0)

/* A buffer covering every byte count elements of a type may reach, with
 * guard bytes: base is the address of offset 0. */
struct span {
    unsigned char *mem, *base;
    size_t len;
};

static void span_make(struct span *s, const struct ref_type *t, size_t count)
{
    ptrdiff_t lo = 0, hi = 0, ext = ref_extent(t);
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < t->n; j++) {
            ptrdiff_t o = (ptrdiff_t)i * ext + t->e[j].disp;
            if (o < lo)
                lo = o;
            if (o + (ptrdiff_t)t->e[j].len > hi)
                hi = o + (ptrdiff_t)t->e[j].len;
        }
    s->len = (size_t)(hi - lo) + 2 * MARGIN;
    s->mem = malloc(s->len);
    s->base = s->mem + MARGIN - lo;
    CHECK(s->mem);
}

static void fill(unsigned char *p, size_t n, unsigned salt)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 131u + salt) ^ (i >> 8) * 7u);
}

/* The byte offsets of the data stream of count elements, in order. */
static ptrdiff_t *stream_offsets(const struct ref_type *t, size_t count)
{
    ptrdiff_t *off = malloc((count * t->size > 0 ? count * t->size : 1) * sizeof *off), ext = ref_extent(t);
    size_t k = 0;
    CHECK(off);
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < t->n; j++)
            for (size_t b = 0; b < t->e[j].len; b++)
                off[k++] = (ptrdiff_t)i * ext + t->e[j].disp + (ptrdiff_t)b;
    return off;
}

static void check_queries(const struct ref_type *t)
{
    size_t size = 0;
    orma_aint lb = 0, ext = 0;
    FCHECK(t, orma_type_size(t->h, &size) == ORMA_SUCCESS && size == t->size, "size %zu", size);
    FCHECK(t, orma_type_get_extent(t->h, &lb, &ext) == ORMA_SUCCESS && lb == t->lb && ext == ref_extent(t),
           "lb %td extent %td", (ptrdiff_t)lb, (ptrdiff_t)ext);
    ptrdiff_t tlb = 0, tub = 0;
    for (size_t j = 0; j < t->n; j++) {
        if (j == 0 || t->e[j].disp < tlb)
            tlb = t->e[j].disp;
        if (j == 0 || t->e[j].disp + (ptrdiff_t)t->e[j].len > tub)
            tub = t->e[j].disp + (ptrdiff_t)t->e[j].len;
    }
    FCHECK(t, orma_type_get_true_extent(t->h, &lb, &ext) == ORMA_SUCCESS && lb == tlb && ext == tub - tlb,
           "true lb %td true extent %td, expected %td %td", (ptrdiff_t)lb, (ptrdiff_t)ext, tlb, tub - tlb);
    for (size_t count = 0; count <= MAXCOUNT; count++) {
        ptrdiff_t *off = stream_offsets(t, count);
        int dense = 1, flag = -1;
        for (size_t k = 0; k < count * t->size; k++)
            dense &= off[k] == (ptrdiff_t)k;
        free(off);
        FCHECK(t, orma_type_is_contiguous(t->h, count, &flag) == ORMA_SUCCESS && flag == dense,
               "is_contiguous(count %zu) = %d", count, flag);
    }
}

/* Public pack and unpack of count elements. */
static void check_pack_unpack(struct fuzz_rng *r, const struct ref_type *t, size_t count, const struct span *src,
                              const ptrdiff_t *off)
{
    size_t nbytes = count * t->size, pos0 = (size_t)fuzz_range(r, 0, 7), pos = pos0;
    unsigned char *out = malloc(pos0 + nbytes + 8), *exp = malloc(pos0 + nbytes + 8);
    CHECK(out && exp);
    memset(out, 0xEE, pos0 + nbytes + 8);
    memset(exp, 0xEE, pos0 + nbytes + 8);
    for (size_t k = 0; k < nbytes; k++)
        exp[pos0 + k] = src->base[off[k]];
    FCHECK(t, orma_pack(src->base, count, t->h, out, pos0 + nbytes, &pos) == ORMA_SUCCESS,
           "orma_pack of %zu: %s", count, orma_error_message());
    FCHECK(t, pos == pos0 + nbytes, "pack position %zu, expected %zu", pos, pos0 + nbytes);
    for (size_t k = 0; k < pos0 + nbytes + 8; k++)
        FCHECK(t, out[k] == exp[k], "orma_pack of %zu elements: byte %zu of the output (position %zu) is %#x, "
               "expected %#x", count, k, pos0, out[k], exp[k]);

    struct span dst = {.len = src->len};
    dst.mem = malloc(dst.len);
    unsigned char *want = malloc(dst.len);
    CHECK(dst.mem && want);
    dst.base = dst.mem + (src->base - src->mem);
    fill(dst.mem, dst.len, 0x5A);
    memcpy(want, dst.mem, dst.len);
    for (size_t k = 0; k < nbytes; k++)
        want[(size_t)(src->base - src->mem) + (size_t)off[k]] = out[pos0 + k];
    pos = pos0;
    FCHECK(t, orma_unpack(out, pos0 + nbytes, &pos, dst.base, count, t->h) == ORMA_SUCCESS,
           "orma_unpack of %zu: %s", count, orma_error_message());
    FCHECK(t, pos == pos0 + nbytes, "unpack position %zu", pos);
    for (size_t k = 0; k < dst.len; k++)
        FCHECK(t, dst.mem[k] == want[k], "orma_unpack of %zu elements: byte at offset %td is %#x, expected %#x",
               count, (ptrdiff_t)k - (src->base - src->mem), dst.mem[k], want[k]);
    free(want);
    free(dst.mem);
    free(out);
    free(exp);
}

/* Internal pack/unpack of one byte range, and the iterator. */
static void check_ranges(struct fuzz_rng *r, const struct ref_type *t, size_t count, const struct span *src,
                         const ptrdiff_t *off)
{
    size_t nbytes = count * t->size;
    size_t from = (size_t)fuzz_range(r, 0, (long)nbytes), n = (size_t)fuzz_range(r, 0, (long)(nbytes - from));
    unsigned char *packed = malloc(n + 1);
    CHECK(packed);
    packed[n] = 0xC3;
    dtype_pack(src->base, count, t->h, from, n, packed);
    for (size_t k = 0; k < n; k++)
        FCHECK(t, packed[k] == src->base[off[from + k]], "dtype_pack(count %zu, from %zu, n %zu): byte %zu", count,
               from, n, k);
    FCHECK(t, packed[n] == 0xC3, "dtype_pack(count %zu, from %zu, n %zu) wrote past n", count, from, n);

    size_t base = (size_t)(src->base - src->mem);
    unsigned char *dst = malloc(src->len), *want = malloc(src->len);
    CHECK(dst && want);
    fill(dst, src->len, 0x33);
    memcpy(want, dst, src->len);
    for (size_t k = 0; k < n; k++)
        want[base + (size_t)off[from + k]] = packed[k];
    dtype_unpack(dst + base, count, t->h, from, n, packed);
    for (size_t k = 0; k < src->len; k++)
        FCHECK(t, dst[k] == want[k], "dtype_unpack(count %zu, from %zu, n %zu): offset %td", count, from, n,
               (ptrdiff_t)k - (ptrdiff_t)base);
    free(dst);
    free(want);
    free(packed);

    /* The iterator: runs no longer than asked, covering the stream from a
     * random starting byte in order. */
    static const size_t fixed[] = {1, 2, 3, 8, SIZE_MAX};
    size_t max = fuzz_range(r, 0, 1) ? fixed[fuzz_range(r, 0, 4)] : (size_t)fuzz_range(r, 1, (long)t->size + 2);
    size_t skip = fuzz_range(r, 0, 1) ? 0 : (size_t)fuzz_range(r, 0, (long)nbytes), k = skip;
    struct dtype_iter it;
    ptrdiff_t o;
    size_t len;
    dtype_iter_init(&it, t->h, count);
    dtype_iter_skip(&it, skip);
    while (dtype_iter_next(&it, max, &o, &len)) {
        FCHECK(t, len >= 1 && len <= max, "iterator (count %zu, max %zu) gave a run of %zu", count, max, len);
        for (size_t b = 0; b < len; b++, k++)
            FCHECK(t, k < nbytes && off[k] == o + (ptrdiff_t)b,
                   "iterator (count %zu, max %zu, skip %zu): stream byte %zu at offset %td, expected %td", count,
                   max, skip, k, o + (ptrdiff_t)b, k < nbytes ? off[k] : (ptrdiff_t)-1);
    }
    FCHECK(t, k == nbytes, "iterator (count %zu, max %zu, skip %zu) ended after %zu of %zu bytes", count, max,
           skip, k, nbytes);
    FCHECK(t, !dtype_iter_next(&it, max, &o, &len), "iterator gave a run after its end");
}

/* The stream taken in parts of random lengths (a packed stream arriving
 * a box at a time): packed from the layout into one buffer, then unpacked
 * from it by a second stream cut elsewhere, skipping a random stretch now
 * and then; each part's bytes where the layout's stream puts them, no
 * byte outside written, and the streams end exactly at the data's end. */
static void check_stream(struct fuzz_rng *r, const struct ref_type *t, size_t count, const struct span *src,
                         const ptrdiff_t *off)
{
    size_t nbytes = count * t->size, base = (size_t)(src->base - src->mem);
    unsigned char *packed = malloc(nbytes + 1), *dst = malloc(src->len), *want = malloc(src->len);
    CHECK(packed && dst && want);
    packed[nbytes] = 0xC3;
    struct dtype_stream s;
    dtype_stream_init(&s, t->h, count);
    for (size_t at = 0; at < nbytes;) {
        size_t n = (size_t)fuzz_range(r, 1, fuzz_range(r, 0, 3) ? 9 : (long)nbytes);
        if (n > nbytes - at)
            n = nbytes - at;
        FCHECK(t, dtype_stream_move(&s, (char *)src->base, (char *)packed + at, n, 0) == n,
               "stream pack (count %zu): a part of %zu at %zu came short", count, n, at);
        at += n;
    }
    FCHECK(t, dtype_stream_move(&s, (char *)src->base, (char *)packed, 1, 0) == 0 && s.at == nbytes,
           "stream pack (count %zu) went past the data's end", count);
    FCHECK(t, packed[nbytes] == 0xC3, "stream pack (count %zu) wrote past the data", count);
    for (size_t k = 0; k < nbytes; k++)
        FCHECK(t, packed[k] == src->base[off[k]], "stream pack (count %zu): byte %zu", count, k);

    fill(dst, src->len, 0x71);
    memcpy(want, dst, src->len);
    dtype_stream_init(&s, t->h, count);
    for (size_t at = 0; at < nbytes;) {
        size_t n = (size_t)fuzz_range(r, 1, fuzz_range(r, 0, 3) ? 9 : (long)nbytes);
        if (n > nbytes - at)
            n = nbytes - at;
        if (!fuzz_range(r, 0, 4)) { /* a part carried out elsewhere: passed over */
            dtype_stream_skip(&s, n);
        } else {
            for (size_t k = 0; k < n; k++)
                want[base + (size_t)off[at + k]] = packed[at + k];
            dtype_stream_move(&s, (char *)dst + base, (char *)packed + at, n, 1);
        }
        at += n;
        FCHECK(t, s.at == at, "stream unpack (count %zu): at %zu after %zu bytes", count, s.at, at);
    }
    for (size_t k = 0; k < src->len; k++)
        FCHECK(t, dst[k] == want[k], "stream unpack (count %zu): offset %td", count, (ptrdiff_t)k - (ptrdiff_t)base);
    free(packed);
    free(dst);
    free(want);
}

/* The copy again as batches of paired iovecs of at most a random few
 * (what single-copy syscalls take): equal non-zero lengths, no two
 * mergeable neighbours, and applied with memcpy the same bytes as want. */
static void check_iov(struct fuzz_rng *r, const struct ref_type *a, const struct ref_type *b, size_t count,
                      const struct span *s, const struct span *d, const unsigned char *want)
{
    enum { MAXIOV = 8 };
    unsigned char *out = malloc(d->len);
    CHECK(out);
    fill(out, d->len, 0x17);
    unsigned char *obase = out + (d->base - d->mem);
    struct dtype_pair pair;
    dtype_pair_init(&pair, a->h, count, b->h, count);
    struct iovec ia[MAXIOV], ib[MAXIOV];
    size_t max = (size_t)fuzz_range(r, 1, MAXIOV), n, total = 0;
    while ((n = dtype_pair_iov(&pair, (char *)s->base, (char *)obase, ia, ib, max))) {
        FCHECK(b, n <= max, "dtype_pair_iov filled %zu iovecs, more than %zu", n, max);
        for (size_t i = 0; i < n; i++) {
            FCHECK(b, ia[i].iov_len == ib[i].iov_len && ia[i].iov_len, "iovec pair %zu: lengths %zu and %zu", i,
                   ia[i].iov_len, ib[i].iov_len);
            FCHECK(b, !i || (char *)ia[i - 1].iov_base + ia[i - 1].iov_len != (char *)ia[i].iov_base ||
                          (char *)ib[i - 1].iov_base + ib[i - 1].iov_len != (char *)ib[i].iov_base,
                   "iovec pairs %zu and %zu could have been one", i - 1, i);
            memcpy(ib[i].iov_base, ia[i].iov_base, ia[i].iov_len);
            total += ia[i].iov_len;
        }
    }
    FCHECK(b, total == count * a->size, "iovecs carried %zu bytes of %zu", total, count * a->size);
    FCHECK(b, !memcmp(out, want, d->len), "iovec copy from [%s] differs from the reference", a->desc);
    free(out);
}

/* The clipped copy's spill: the run goes into the shadow buffer at the
 * same place, and must not lie wholly inside the clip. */
struct clip_seen {
    const struct ref_type *t;
    unsigned char *dbase, *shadow_base, *mask_base; /* mask: 1 where spilled */
    struct dtype_clip *clip;
    size_t spilled, budget; /* bytes; a spill past budget fails */
};

static int clip_spill(void *ctx, char *dst, const char *src, size_t len)
{
    struct clip_seen *cs = ctx;
    FCHECK(cs->t, len > 0, "clipped copy spilled an empty run");
    FCHECK(cs->t, !((uintptr_t)dst >= cs->clip->lo && (uintptr_t)dst + len <= cs->clip->hi),
           "clipped copy spilled a run of %zu bytes at offset %td, inside the clip", len,
           (unsigned char *)dst - cs->dbase);
    memcpy(cs->shadow_base + ((unsigned char *)dst - cs->dbase), src, len);
    memset(cs->mask_base + ((unsigned char *)dst - cs->dbase), 1, len);
    cs->spilled += len;
    return cs->spilled > cs->budget ? ORMA_ERR_PEER : ORMA_SUCCESS;
}

/* dtype_copy_clipped into d (whose background is bg) with a random clip:
 * runs wholly inside the clip arrive in d, the others -- those reaching
 * outside, whole -- only through the spill (into a shadow copy of bg);
 * together they are want (unless b's runs overlap: then which of two
 * stores to a byte comes last differs, as MPI leaves it).  With a budget, the
 * copy stops spilling at the first error and returns it. */
static void check_clip(struct fuzz_rng *r, const struct ref_type *a, const struct ref_type *b, size_t count,
                       const struct span *s, const struct span *d, const unsigned char *bg,
                       const unsigned char *want, int overlaps)
{
    unsigned char *out = malloc(d->len), *shadow = malloc(d->len), *mask = calloc(d->len, 1);
    CHECK(out && shadow && mask);
    memcpy(out, bg, d->len);
    memcpy(shadow, bg, d->len);
    size_t lo = (size_t)fuzz_range(r, 0, (long)d->len), hi = (size_t)fuzz_range(r, (long)lo, (long)d->len);
    if (fuzz_range(r, 0, 3) == 0) { /* everything inside, or nothing */
        lo = fuzz_range(r, 0, 1) ? 0 : d->len;
        hi = d->len;
    }
    unsigned char *obase = out + (d->base - d->mem);
    struct dtype_clip clip = {(uintptr_t)(out + lo), (uintptr_t)(out + hi), clip_spill, NULL, 0};
    struct clip_seen cs = {b, obase, shadow + (d->base - d->mem), mask + (d->base - d->mem), &clip, 0, SIZE_MAX};
    size_t nbytes = count * a->size;
    int failing = nbytes && fuzz_range(r, 0, 7) == 0;
    if (failing)
        cs.budget = (size_t)fuzz_range(r, 0, (long)nbytes);
    clip.ctx = &cs;
    int st = dtype_copy_clipped(obase, count, b->h, s->base, count, a->h, &clip);
    for (size_t k = 0; k < d->len; k++) {
        if (k >= lo && k < hi) {
            if (mask[k]) /* a run reaching outside: spilled whole */
                out[k] = shadow[k];
        } else {
            FCHECK(b, out[k] == bg[k], "clipped copy [%zu, %zu) from [%s]: offset %td, outside, was stored", lo, hi,
                   a->desc, (ptrdiff_t)k - (d->base - d->mem));
            out[k] = shadow[k];
        }
    }
    if (cs.spilled > cs.budget) {
        FCHECK(b, st == ORMA_ERR_PEER, "clipped copy: the spill failed, the copy returned %d", st);
    } else {
        FCHECK(b, st == ORMA_SUCCESS, "clipped copy returned %d", st);
        FCHECK(b, overlaps || !memcmp(out, want, d->len), "clipped copy [%zu, %zu) from [%s] differs from the reference", lo,
               hi, a->desc);
    }
    free(out);
    free(shadow);
    free(mask);
}

/* dtype_copy from a into b (sizes equalised with trailing bytes) against
 * the reference and against the library's own pack then unpack. */
static void check_copy(struct fuzz_rng *r, const struct ref_type *a0, const struct ref_type *b0)
{
    struct ref_type pa = {0}, pb = {0};
    const struct ref_type *a = a0, *b = b0;
    if (a0->size < b0->size) {
        if (ref_build_padded(a0, b0->size - a0->size, &pa))
            return;
        a = &pa;
    } else if (b0->size < a0->size) {
        if (ref_build_padded(b0, a0->size - b0->size, &pb))
            return;
        b = &pb;
    }
    size_t count = (size_t)fuzz_range(r, 1, MAXCOUNT), nbytes = count * a->size;
    struct span s, d;
    span_make(&s, a, count);
    span_make(&d, b, count);
    fill(s.mem, s.len, 0x91);
    fill(d.mem, d.len, 0x17);
    unsigned char *want = malloc(d.len), *packed = malloc(nbytes + 1), *viapack = malloc(d.len);
    CHECK(want && packed && viapack);
    memcpy(want, d.mem, d.len);
    memcpy(viapack, d.mem, d.len);
    unsigned char *bg = malloc(d.len);
    CHECK(bg);
    memcpy(bg, d.mem, d.len);
    ptrdiff_t *so = stream_offsets(a, count), *dso = stream_offsets(b, count);
    for (size_t k = 0; k < nbytes; k++)
        want[(d.base - d.mem) + dso[k]] = s.base[so[k]];
    dtype_copy(d.base, count, b->h, s.base, count, a->h);
    for (size_t k = 0; k < d.len; k++)
        if (d.mem[k] != want[k])
            fuzz_fail(b, "dtype_copy of %zu elements from [%s] into this type: offset %td is %#x, expected %#x",
                      count, a->desc, (ptrdiff_t)k - (d.base - d.mem), d.mem[k], want[k]);
    size_t pos = 0;
    FCHECK(a, orma_pack(s.base, count, a->h, packed, nbytes, &pos) == ORMA_SUCCESS, "pack for copy");
    pos = 0;
    FCHECK(b, orma_unpack(packed, nbytes, &pos, viapack + (d.base - d.mem), count, b->h) == ORMA_SUCCESS,
           "unpack for copy");
    FCHECK(b, !memcmp(viapack, d.mem, d.len), "dtype_copy from [%s] differs from pack then unpack", a->desc);
    check_iov(r, a, b, count, &s, &d, want);
    unsigned char *hit = calloc(d.len, 1);
    int overlaps = 0;
    CHECK(hit);
    for (size_t k = 0; k < nbytes; k++)
        overlaps |= hit[(d.base - d.mem) + dso[k]]++ != 0;
    free(hit);
    check_clip(r, a, b, count, &s, &d, bg, want, overlaps);
    free(bg);
    free(so);
    free(dso);
    free(want);
    free(packed);
    free(viapack);
    free(s.mem);
    free(d.mem);
    if (a == &pa)
        ref_release(&pa);
    if (b == &pb)
        ref_release(&pb);
}

static void check_type(struct fuzz_rng *r, const struct ref_type *t)
{
    check_queries(t);
    for (size_t count = 1; count <= MAXCOUNT; count++) {
        struct span src;
        span_make(&src, t, count);
        fill(src.mem, src.len, (unsigned)count);
        ptrdiff_t *off = stream_offsets(t, count);
        check_pack_unpack(r, t, count, &src, off);
        check_ranges(r, t, count, &src, off);
        check_stream(r, t, count, &src, off);
        free(off);
        free(src.mem);
    }
}

/* Atoms picked from six per-atom arrays into the tails of six arrays (a
 * struct of contiguous runs, flat), and back, plain and clipped, against
 * pack then unpack: every fourth atom (a struct of vectors: a tree, more
 * than DTYPE_WALK_RUNS runs), or atoms picked by index among 4 (a struct
 * of indexed blocks: flat, runs 16 and more times shorter than the other
 * side's, which the engine gathers through a buffer). */
static void check_big_copy(int indexed)
{
    enum { ATOMS = 12000, NLOCAL = 4 * ATOMS };
    orma_aint *idx = malloc(ATOMS * sizeof *idx), *idx3 = malloc(ATOMS * sizeof *idx3);
    CHECK(idx && idx3);
    for (size_t i = 0; i < ATOMS; i++) {
        idx[i] = (orma_aint)(4 * i + (i * i) % 4);
        idx3[i] = 3 * idx[i];
    }
    static const size_t per[6] = {24, 4, 4, 4, 8, 4};
    orma_type el[6] = {ORMA_DOUBLE, ORMA_INT, ORMA_INT, ORMA_INT, ORMA_DOUBLE, ORMA_INT};
    orma_aint off[6], roff[6], o = 0;
    orma_type pick[6], tail[6], st, rt;
    size_t bl[6] = {1, 1, 1, 1, 1, 1};
    for (int f = 0; f < 6; f++) {
        off[f] = o;
        roff[f] = o + (orma_aint)(NLOCAL * per[f]);
        o += (orma_aint)((NLOCAL + ATOMS) * per[f]);
        if (indexed)
            CHECK_OK(orma_type_indexed_block(ATOMS, f == 0 ? 3 : 1, f == 0 ? idx3 : idx, el[f], &pick[f]));
        else
            CHECK_OK(orma_type_vector(ATOMS, f == 0 ? 3 : 1, f == 0 ? 12 : 4, el[f], &pick[f]));
        CHECK_OK(orma_type_contiguous(f == 0 ? 3 * ATOMS : ATOMS, el[f], &tail[f]));
    }
    CHECK_OK(orma_type_struct(6, bl, off, pick, &st));
    CHECK_OK(orma_type_struct(6, bl, roff, tail, &rt));
    CHECK_OK(orma_type_commit(&st));
    CHECK_OK(orma_type_commit(&rt));
    size_t len = (size_t)o, size = 0, pos;
    struct dtype_flat_walk w;
    FCHECK(NULL, dtype_flat_init(&w, st, 1) == indexed && dtype_flat_init(&w, rt, 1) && w.runs == 6,
           "the picked atoms' layout is %s", indexed ? "not flat" : "flat");
    CHECK_OK(orma_type_size(st, &size));
    unsigned char *a = malloc(len), *b = malloc(len), *want = malloc(len), *packed = malloc(size);
    CHECK(a && b && want && packed);
    for (int dir = 0; dir < 2; dir++) { /* picked -> tails, tails -> picked */
        orma_type from = dir ? rt : st, to = dir ? st : rt;
        fill(a, len, 5);
        fill(b, len, 9);
        memcpy(want, b, len);
        pos = 0;
        CHECK_OK(orma_pack(a, 1, from, packed, size, &pos));
        pos = 0;
        CHECK_OK(orma_unpack(packed, size, &pos, want, 1, to));
        dtype_copy(b, 1, to, a, 1, from);
        FCHECK(NULL, !memcmp(b, want, len), "copy of picked atoms (%s, direction %d)", indexed ? "indexed" : "vectors",
               dir);
        /* clipped to the middle half: the rest spilled, then merged */
        fill(b, len, 9);
        unsigned char *shadow = malloc(len), *mask = calloc(len, 1);
        CHECK(shadow && mask);
        memcpy(shadow, b, len);
        struct dtype_clip clip = {(uintptr_t)(b + len / 4), (uintptr_t)(b + 3 * len / 4), clip_spill, NULL, 0};
        struct clip_seen cs = {NULL, b, shadow, mask, &clip, 0, SIZE_MAX};
        clip.ctx = &cs;
        FCHECK(NULL, dtype_copy_clipped(b, 1, to, a, 1, from, &clip) == ORMA_SUCCESS, "clipped copy, picked atoms");
        for (size_t k = 0; k < len; k++)
            if (mask[k])
                b[k] = shadow[k];
        FCHECK(NULL, cs.spilled > 0 && !memcmp(b, want, len),
               "clipped copy of picked atoms (%s, direction %d, %zu bytes spilled)", indexed ? "indexed" : "vectors",
               dir, cs.spilled);
        free(shadow);
        free(mask);
    }
    for (int f = 0; f < 6; f++) {
        CHECK_OK(orma_type_free(&pick[f]));
        CHECK_OK(orma_type_free(&tail[f]));
    }
    CHECK_OK(orma_type_free(&st));
    CHECK_OK(orma_type_free(&rt));
    free(a);
    free(b);
    free(want);
    free(packed);
    free(idx);
    free(idx3);
}

/* Bytes (ORMA_BYTE times n, or 4-byte ints) beside rows of run bytes
 * stride apart, both ways, with the rows longer, shorter and as long as
 * the dense side's elements: the copy moves whole rows (the dense side is
 * recut to them) and must equal pack then unpack, every byte between the
 * rows untouched. */
static void check_dense_rows(void)
{
    static const size_t runs[] = {4, 8, 12, 64, 4096};
    for (size_t ri = 0; ri < sizeof runs / sizeof runs[0]; ri++)
        for (int ints = 0; ints < 2; ints++) {
            size_t run = runs[ri], rows = 7, stride = run * 3 + 8, len = rows * stride;
            size_t n = rows * run;
            orma_type row, vec, dense;
            CHECK_OK(orma_type_contiguous(run, ORMA_BYTE, &row));
            CHECK_OK(orma_type_hvector(rows, 1, (orma_aint)stride, row, &vec));
            CHECK_OK(orma_type_commit(&vec));
            dense = ints ? ORMA_INT : ORMA_BYTE;
            size_t dcount = ints ? n / 4 : n;
            unsigned char *lay = malloc(len), *buf = malloc(n), *want = malloc(len > n ? len : n);
            CHECK(lay && buf && want);
            for (int dir = 0; dir < 2; dir++) { /* bytes -> rows, rows -> bytes */
                fill(lay, len, 3);
                fill(buf, n, 11);
                size_t pos = 0;
                if (dir == 0) {
                    memcpy(want, lay, len);
                    CHECK_OK(orma_unpack(buf, n, &pos, want, 1, vec));
                    dtype_copy(lay, 1, vec, buf, dcount, dense);
                    FCHECK(NULL, !memcmp(lay, want, len), "bytes into rows of %zu (%s)", run, ints ? "ints" : "bytes");
                } else {
                    CHECK_OK(orma_pack(lay, 1, vec, want, n, &pos));
                    dtype_copy(buf, dcount, dense, lay, 1, vec);
                    FCHECK(NULL, !memcmp(buf, want, n), "rows of %zu into bytes (%s)", run, ints ? "ints" : "bytes");
                }
            }
            free(lay);
            free(buf);
            free(want);
            CHECK_OK(orma_type_free(&row));
            CHECK_OK(orma_type_free(&vec));
        }
}

int main(int argc, char **argv)
{
    long ntypes = fuzz_args(argc, argv, 5000);
    CHECK_OK(orma_init(&argc, &argv));

    check_big_copy(0);
    check_big_copy(1);
    check_dense_rows();
    struct fuzz_rng rng = {fuzz_seed};
    struct ref_type *pool[POOL];
    size_t npool = 0;
    for (fuzz_iter = 0; fuzz_iter < ntypes; fuzz_iter++) {
        struct ref_type *t = malloc(sizeof *t);
        CHECK(t);
        while (ref_build_random(&rng, pool, npool, t))
            ;
        check_type(&rng, t);
        const struct ref_type *partner = npool ? pool[fuzz_range(&rng, 0, (long)npool - 1)] : t;
        check_copy(&rng, t, fuzz_range(&rng, 0, 3) ? partner : t);
        check_copy(&rng, partner, t);
        check_signature(&rng, t, partner);
        /* An older type, checked again after some of what it was built from
         * has been freed. */
        if (npool && fuzz_iter % 4 == 0)
            check_type(&rng, pool[fuzz_range(&rng, 0, (long)npool - 1)]);
        if (npool < POOL) {
            pool[npool++] = t;
        } else {
            size_t victim = (size_t)fuzz_range(&rng, 0, POOL - 1);
            orma_type gone = pool[victim]->h;
            ref_release(pool[victim]);
            free(pool[victim]);
            pool[victim] = t;
            /* A freed handle is refused, as long as its memory was not
             * handed to a new type in between. */
            size_t s = 0;
            FCHECK(NULL, orma_type_size(gone, &s) == ORMA_ERR_TYPE, "size of a freed type");
        }
    }
    for (size_t i = 0; i < npool; i++) {
        ref_release(pool[i]);
        free(pool[i]);
    }
    CHECK_OK(orma_finalize());
    printf("dtype_fuzz_layout: seed %" PRIu64 ", %ld types checked\n", fuzz_seed, ntypes);
    return 0;
}
