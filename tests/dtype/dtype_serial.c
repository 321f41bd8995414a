/* dtype_serial.c -- serialized datatypes: round trips of every constructor
 * (negative strides, resized, subarrays in both orders, mixed structs, a
 * vector of 10^9 blocks, deep nesting, subtrees shared so often that the
 * unfolded layout has 10^12 leaves), a few thousand random types against
 * their reference typemaps, truncation at every length, every single-byte
 * corruption, hand-made invalid layouts (cycles, depth, overflow, lying
 * headers), a buffer too small, and bad arguments.
 *
 * usage: dtype_serial [seed [types]] */
#include "check.h"
#include "dtype_check.h"
#include "dtype_derived.h"
#include "dtype_fuzz.h"
#include "dtype_serial.h"

#include <inttypes.h>
#include <stdarg.h>

uint64_t fuzz_seed = 20261123;
long fuzz_iter;

void fuzz_fail(const struct ref_type *t, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "dtype_serial: seed %" PRIu64 ", type #%ld (%s): ", fuzz_seed, fuzz_iter,
            t && t->desc ? t->desc : "?");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

#define SENTINEL ((orma_type)(void *)&sentinel_obj)
static char sentinel_obj;

/* committed(orma_type_xxx(..., &t), &t): t once built, committed. */
static orma_type committed(int status, orma_type *t)
{
    CHECK_OK(status);
    CHECK_OK(orma_type_commit(t));
    return *t;
}

static unsigned char *serialized(orma_type t, size_t *len_p)
{
    size_t need = 0;
    CHECK_ERR(dtype_serialize(t, NULL, 0, &need), ORMA_ERR_COUNT);
    unsigned char *s = malloc(need);
    CHECK(s);
    CHECK_OK(dtype_serialize(t, s, need, len_p));
    CHECK(*len_p == need);
    return s;
}

/* Bytes that may be anything: an error leaving the output alone, or a
 * type that is consistent and survives a round trip of its own. */
static int try_bytes(const unsigned char *s, size_t len, const char *what)
{
    orma_type u = SENTINEL;
    int status = dtype_deserialize(s, len, &u);
    if (status) {
        CHECK(status == ORMA_ERR_TYPE && u == SENTINEL);
        CHECK(strstr(orma_error_message(), "dtype_deserialize: byte "));
        return 0;
    }
    dtype_check_type(u, what);
    dtype_check_roundtrip(u, what);
    if (!u->predefined)
        CHECK_OK(orma_type_free(&u));
    return 1;
}

/* Every shorter prefix is refused; every single-byte change is refused or
 * gives a sound type. */
static void damage(orma_type t, const char *what)
{
    size_t len = 0;
    unsigned char *s = serialized(t, &len);
    for (size_t k = 0; k < len; k++)
        CHECK(!try_bytes(s, k, what));
    size_t accepted = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char keep = s[i];
        for (int v = 0; v < 256; v++) {
            if (v == keep)
                continue;
            s[i] = (unsigned char)v;
            accepted += (size_t)try_bytes(s, len, what);
        }
        s[i] = keep;
    }
    /* the bounds, the displacements and the strides are free to change,
     * so some changes do make other valid types */
    CHECK(accepted > 0 || t->predefined);
    free(s);
}

static void hand_built(void)
{
    orma_type v, t;
    size_t bl[3] = {2, 0, 3}, sizes[3] = {5, 4, 6}, sub[3] = {2, 3, 2}, starts[3] = {1, 0, 3};
    orma_aint disp[3] = {-4, 9, 2}, sdisp[3] = {0, 8, 16};
    orma_type mixed[3] = {ORMA_CHAR, ORMA_DOUBLE_INT, ORMA_SHORT_INT};

    for (int id = 0; id < ORMA_TYPEID_COUNT; id++)
        dtype_check_roundtrip(ORMA_PREDEFINED(id), "predefined");
    v = committed(orma_type_vector(3, 2, -4, ORMA_INT, &v), &v);
    orma_type built[] = {
        committed(orma_type_contiguous(7, ORMA_SHORT, &t), &t),
        v,
        committed(orma_type_hvector(4, 1, -13, ORMA_DOUBLE_INT, &t), &t),
        committed(orma_type_indexed(3, bl, disp, ORMA_FLOAT, &t), &t),
        committed(orma_type_hindexed(3, bl, disp, ORMA_SHORT_INT, &t), &t),
        committed(orma_type_indexed_block(3, 2, disp, v, &t), &t),
        committed(orma_type_hindexed_block(3, 1, disp, ORMA_LONG_DOUBLE, &t), &t),
        committed(orma_type_struct(3, bl, sdisp, mixed, &t), &t),
        committed(orma_type_subarray(3, sizes, sub, starts, ORMA_ORDER_C, ORMA_INT16, &t), &t),
        committed(orma_type_subarray(3, sizes, sub, starts, ORMA_ORDER_FORTRAN, v, &t), &t),
        committed(orma_type_resized(v, -40, 100, &t), &t),
        committed(orma_type_resized(ORMA_INT, 8, -24, &t), &t),
        committed(orma_type_dup(v, &t), &t),
        committed(orma_type_contiguous(0, ORMA_INT, &t), &t),
    };
    size_t nbuilt = sizeof built / sizeof built[0];
    for (size_t i = 0; i < nbuilt; i++) {
        dtype_check_type(built[i], "hand-built");
        dtype_check_roundtrip(built[i], "hand-built");
    }
    /* the basic type and the alignment travel too */
    CHECK(dtype_basic(built[0]) == ORMA_TYPEID_SHORT && dtype_basic(built[7]) == DTYPE_MIXED);
    damage(built[1], "corrupted vector");
    damage(built[7], "corrupted struct");
    damage(built[9], "corrupted subarray");
    damage(ORMA_DOUBLE, "corrupted predefined");
    for (size_t i = 0; i < nbuilt; i++)
        CHECK_OK(orma_type_free(&built[i]));
}

/* A type whose serialization stays within max_len bytes round-trips
 * (and is freed). */
static void compact_roundtrip(orma_type t, size_t max_len, const char *what)
{
    size_t len = 0;
    unsigned char *s = serialized(t, &len);
    CHECK(len <= max_len);
    free(s);
    dtype_check_roundtrip(t, what);
    CHECK_OK(orma_type_free(&t));
}

/* A vector of 10^9 blocks is a few dozen bytes, as is its copy. */
static void huge_counts(void)
{
    orma_type t;
    t = committed(orma_type_vector(1000000000, 1, 3, ORMA_DOUBLE, &t), &t);
    compact_roundtrip(t, 64 + 9 + 21, "vector of 10^9 blocks");
}

/* Each level a struct of the level below twice, then a vector of that:
 * the layout's nodes are shared, 4^k leaves in 2k + 1 nodes. */
static void shared_subtrees(void)
{
    orma_type t = ORMA_INT;
    for (int k = 0; k < 20; k++) {
        orma_aint lb, ext;
        CHECK_OK(orma_type_get_extent(t, &lb, &ext));
        size_t bl[2] = {1, 1};
        orma_aint d[2] = {0, ext};
        orma_type two[2] = {t, t}, s, v;
        CHECK_OK(orma_type_struct(2, bl, d, two, &s));
        CHECK_OK(orma_type_hvector(2, 1, 3 * ext, s, &v));
        CHECK_OK(orma_type_free(&s));
        if (t != ORMA_INT)
            CHECK_OK(orma_type_free(&t));
        t = committed(ORMA_SUCCESS, &v);
    }
    size_t size = 0;
    CHECK_OK(orma_type_size(t, &size));
    CHECK(size == ((size_t)1 << 40) * sizeof(int));
    /* a leaf, then per level a sequence of two entries and a loop */
    compact_roundtrip(t, 64 + 9 + 20 * (9 + 2 * 12 + 21), "shared subtrees");
}

/* Levels of alternating vectors and structs: forty (too large to pack,
 * compared by their queries), and twenty, packed. */
static void deep_nesting(int levels)
{
    orma_type t = ORMA_INT;
    for (int k = 0; k < levels; k++) {
        orma_type n;
        if (k % 2) {
            size_t bl[2] = {1, 1};
            orma_aint d[2] = {0, 0};
            orma_type m[2] = {ORMA_CHAR, t};
            CHECK_OK(orma_type_get_extent(t, &d[0], &d[1]));
            d[0] = d[1] + 3; /* a char after a gap, then t at 0 */
            d[1] = 0;
            CHECK_OK(orma_type_struct(2, bl, d, m, &n));
        } else {
            CHECK_OK(orma_type_vector(2, 1, 1, t, &n));
        }
        if (t != ORMA_INT)
            CHECK_OK(orma_type_free(&t));
        t = n;
    }
    t = committed(ORMA_SUCCESS, &t);
    const struct dtype_node *layout = dtype_layout(t);
    CHECK(layout->depth >= levels); /* the first vector is one run */
    CHECK(levels > 30 ||
          (t->size <= DTYPE_CHECK_MAX_SPAN && layout->true_ub - layout->true_lb <= DTYPE_CHECK_MAX_SPAN));
    dtype_check_roundtrip(t, "deep nesting");
    CHECK_OK(orma_type_free(&t));
}

/* ---- hand-made bytes ---- */

struct bytes {
    unsigned char b[2048];
    size_t n;
};

static void put(struct bytes *w, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        w->b[w->n++] = (unsigned char)(v >> (8 * i));
}

/* The header of a derived type; the nodes follow. */
static void header(struct bytes *w, int basic, size_t align, size_t size, ptrdiff_t lb, ptrdiff_t ub, ptrdiff_t tlb,
                   ptrdiff_t tub, uint32_t nodes)
{
    w->n = 0;
    memcpy(w->b, "ORDT", 4);
    w->n = 4;
    put(w, 1, 2);
    put(w, 1, 2);
    put(w, (uint32_t)basic, 4);
    put(w, align, 4);
    put(w, size, 8);
    put(w, (uint64_t)lb, 8);
    put(w, (uint64_t)ub, 8);
    put(w, (uint64_t)tlb, 8);
    put(w, (uint64_t)tub, 8);
    put(w, nodes, 4);
    put(w, 0, 4);
}

static void leaf(struct bytes *w, size_t len)
{
    put(w, 0, 1);
    put(w, len, 8);
}

static void loop(struct bytes *w, size_t count, ptrdiff_t stride, uint32_t child)
{
    put(w, 1, 1);
    put(w, count, 8);
    put(w, (uint64_t)stride, 8);
    put(w, child, 4);
}

static void seq(struct bytes *w, size_t n, const ptrdiff_t *disps, const uint32_t *children)
{
    put(w, 2, 1);
    put(w, n, 8);
    for (size_t i = 0; i < n; i++) {
        put(w, (uint64_t)disps[i], 8);
        put(w, children[i], 4);
    }
}

static void refused(const struct bytes *w, const char *why)
{
    orma_type u = SENTINEL;
    CHECK_ERR(dtype_deserialize(w->b, w->n, &u), ORMA_ERR_TYPE);
    CHECK(u == SENTINEL);
    if (!strstr(orma_error_message(), why)) {
        fprintf(stderr, "message \"%s\" does not say \"%s\"\n", orma_error_message(), why);
        exit(1);
    }
}

static void hand_made(void)
{
    struct bytes w;
    orma_type u;
    /* a loop of 10^12 runs of 8 bytes, 16 apart: accepted, O(1) bytes */
    size_t n12 = 1000000000000;
    header(&w, ORMA_TYPEID_DOUBLE, 8, 8 * n12, 0, (ptrdiff_t)(16 * n12 - 8), 0, (ptrdiff_t)(16 * n12 - 8), 2);
    leaf(&w, 8);
    loop(&w, n12, 16, 0);
    CHECK_OK(dtype_deserialize(w.b, w.n, &u));
    CHECK(u->size == 8 * n12 && !u->contiguous && dtype_basic(u) == ORMA_TYPEID_DOUBLE);
    dtype_check_roundtrip(u, "10^12 runs");
    CHECK_OK(orma_type_free(&u));

    /* the same with each lie or impossibility in turn */
    header(&w, ORMA_TYPEID_DOUBLE, 8, 8 * n12 + 8, 0, 16, 0, (ptrdiff_t)(16 * n12 - 8), 2);
    leaf(&w, 8);
    loop(&w, n12, 16, 0);
    refused(&w, "the layout holds");
    header(&w, ORMA_TYPEID_DOUBLE, 8, 8 * n12, 0, 16, 0, 16, 2);
    leaf(&w, 8);
    loop(&w, n12, 16, 0);
    refused(&w, "true bounds");
    header(&w, ORMA_TYPEID_DOUBLE, 8, 8, 0, 16, 0, 8, 2);
    leaf(&w, 8);
    loop(&w, 1, 16, 1); /* itself: a cycle */
    refused(&w, "not an earlier one");
    header(&w, ORMA_TYPEID_DOUBLE, 8, 16, 0, 16, 0, 16, 2);
    loop(&w, 2, 8, 1); /* a later node */
    leaf(&w, 8);
    refused(&w, "not an earlier one");
    header(&w, ORMA_TYPEID_BYTE, 1, 2, 0, 2, 0, 2, 2);
    leaf(&w, 1);
    loop(&w, 2, PTRDIFF_MAX, 0);
    refused(&w, "byte offsets overflow");
    header(&w, ORMA_TYPEID_BYTE, 1, 2, 0, 2, 0, 2, 2);
    leaf(&w, 1);
    loop(&w, SIZE_MAX / 2 + 2, 2, 0);
    refused(&w, "overflow");
    /* one run of bytes, with a bad header or trailing bytes */
    static const struct {
        int basic;
        size_t align, len;
        ptrdiff_t lb, ub;
        uint32_t nodes, trailing;
        const char *why;
    } one_run[] = {
        {ORMA_TYPEID_BYTE, 1, (size_t)PTRDIFF_MAX + 1, 0, 2, 1, 0, "overflows the address space"},
        {ORMA_TYPEID_BYTE, 1, 2, 0, 2, 1, 1, "follow the last node"},
        {ORMA_TYPEID_BYTE, 1, 2, 0, 2, 3, 0, "cannot fit"},
        {ORMA_TYPEID_COUNT, 1, 2, 0, 2, 1, 0, "not a predefined type id"},
        {ORMA_TYPEID_INT, 4, 6, 0, 6, 1, 0, "not a whole number"},
        {DTYPE_MIXED, 3, 6, 0, 6, 1, 0, "alignment"},
        {DTYPE_MIXED, 1, 6, PTRDIFF_MIN, PTRDIFF_MAX, 1, 0, "extent"},
    };
    for (size_t i = 0; i < sizeof one_run / sizeof one_run[0]; i++) {
        header(&w, one_run[i].basic, one_run[i].align, one_run[i].len, one_run[i].lb, one_run[i].ub, 0,
               (ptrdiff_t)one_run[i].len, one_run[i].nodes);
        leaf(&w, one_run[i].len);
        put(&w, 0, (int)one_run[i].trailing);
        refused(&w, one_run[i].why);
    }
    header(&w, DTYPE_MIXED, 1, 2, 0, 2, 0, 2, 2);
    leaf(&w, 1);
    put(&w, 2, 1); /* a sequence claiming more entries than bytes left */
    put(&w, 1000, 8);
    refused(&w, "sequence entries");
    header(&w, DTYPE_MIXED, 1, 2, 0, 2, 0, 2, 1);
    put(&w, 7, 1);
    put(&w, 0, 8);
    refused(&w, "unknown kind");
    /* 49 levels of loops: deeper than any layout may be */
    header(&w, ORMA_TYPEID_BYTE, 1, (size_t)1 << 48, 0, 0, 0, 0, DTYPE_MAX_DEPTH + 1);
    leaf(&w, 1);
    for (uint32_t i = 0; i < DTYPE_MAX_DEPTH; i++)
        loop(&w, 2, ((ptrdiff_t)3 << i) + 1, i);
    refused(&w, "deeper than");
    /* a sequence entry that is a sequence (serialized layouts are flat) */
    ptrdiff_t apart[2] = {0, 4}, two = 2, gap[2] = {0, 10};
    uint32_t firsts[2] = {0, 0}, second = 1, both[2] = {0, 1};
    header(&w, DTYPE_MIXED, 1, 3, 0, 9, 0, 9, 4);
    leaf(&w, 1);
    seq(&w, 2, apart, firsts);
    seq(&w, 1, &two, &second);
    leaf(&w, 1);
    refused(&w, "itself a sequence");
    /* ints in runs of 6 and 2 bytes: the size is whole ints, the runs not */
    header(&w, ORMA_TYPEID_INT, 4, 8, 0, 12, 0, 12, 3);
    leaf(&w, 6);
    leaf(&w, 2);
    seq(&w, 2, gap, both);
    refused(&w, "not whole elements");

    /* the predefined form */
    w.n = 0;
    memcpy(w.b, "ORDT", 4);
    w.n = 4;
    put(&w, 1, 2);
    put(&w, 0, 2);
    put(&w, ORMA_TYPEID_COUNT, 4);
    refused(&w, "out of range");
    w.n -= 4;
    put(&w, ORMA_TYPEID_2INT, 4);
    CHECK_OK(dtype_deserialize(w.b, w.n, &u));
    CHECK(u == ORMA_2INT);
    put(&w, 0, 1);
    refused(&w, "takes 12 bytes");
    w.b[4] = 2;
    refused(&w, "version 2");
    w.b[4] = 1;
    w.b[6] = 9;
    refused(&w, "unknown form");
    w.b[0] = 'X';
    refused(&w, "no magic");
}

static void bad_args(void)
{
    unsigned char buf[256];
    size_t len = 12345, need = 0;
    orma_type u = SENTINEL, t;
    CHECK_ERR(dtype_serialize(ORMA_INT, buf, sizeof buf, NULL), ORMA_ERR_ARG);
    CHECK_ERR(dtype_serialize(ORMA_INT, NULL, 16, &len), ORMA_ERR_ARG);
    CHECK_ERR(dtype_serialize(NULL, buf, sizeof buf, &len), ORMA_ERR_TYPE);
    CHECK_ERR(dtype_serialize(SENTINEL, buf, sizeof buf, &len), ORMA_ERR_TYPE);
    CHECK(len == 12345);
    CHECK_OK(orma_type_vector(3, 1, 2, ORMA_INT, &t));
    CHECK_ERR(dtype_serialize(t, buf, sizeof buf, &len), ORMA_ERR_TYPE); /* not committed */
    CHECK(strstr(orma_error_message(), "not committed"));
    CHECK_OK(orma_type_commit(&t));
    /* too small: an error, the length needed, and nothing written */
    CHECK_ERR(dtype_serialize(t, NULL, 0, &need), ORMA_ERR_COUNT);
    CHECK(need > 64 && need <= sizeof buf);
    for (size_t cap = 0; cap < need; cap++) {
        memset(buf, 0xA5, sizeof buf);
        len = 0;
        CHECK_ERR(dtype_serialize(t, buf, cap, &len), ORMA_ERR_COUNT);
        CHECK(len == need);
        for (size_t i = 0; i < sizeof buf; i++)
            CHECK(buf[i] == 0xA5);
    }
    CHECK_OK(dtype_serialize(t, buf, sizeof buf, &len));
    CHECK(len == need);
    orma_type freed = t;
    CHECK_OK(orma_type_free(&t));
    CHECK_ERR(dtype_serialize(freed, buf, sizeof buf, &len), ORMA_ERR_TYPE);
    CHECK_ERR(dtype_deserialize(buf, len, NULL), ORMA_ERR_ARG);
    CHECK_ERR(dtype_deserialize(NULL, 4, &u), ORMA_ERR_ARG);
    CHECK_ERR(dtype_deserialize(NULL, 0, &u), ORMA_ERR_TYPE);
    CHECK(u == SENTINEL);
}

/* Random nested types of every constructor: the copy packs any buffer
 * as the reference typemap says. */
static void random_types(long ntypes)
{
    struct fuzz_rng rng = {fuzz_seed};
    struct ref_type pool[16];
    size_t npool = 0;
    for (fuzz_iter = 0; fuzz_iter < ntypes; fuzz_iter++) {
        struct ref_type *ptrs[16], t;
        for (size_t i = 0; i < npool; i++)
            ptrs[i] = &pool[i];
        while (ref_build_random(&rng, ptrs, npool, &t))
            ;
        dtype_check_roundtrip(t.h, t.desc);
        size_t len = 0;
        unsigned char *s = serialized(t.h, &len);
        orma_type u;
        CHECK_OK(dtype_deserialize(s, len, &u));
        free(s);
        ptrdiff_t lo = 0, hi = 1;
        for (size_t j = 0; j < t.n; j++) {
            lo = t.e[j].disp < lo ? t.e[j].disp : lo;
            hi = t.e[j].disp + (ptrdiff_t)t.e[j].len > hi ? t.e[j].disp + (ptrdiff_t)t.e[j].len : hi;
        }
        unsigned char *mem = malloc((size_t)(hi - lo)), *packed = malloc(t.size + 1);
        CHECK(mem && packed);
        for (ptrdiff_t i = 0; i < hi - lo; i++)
            mem[i] = (unsigned char)(i * 37 + 11);
        size_t pos = 0, k = 0;
        CHECK_OK(orma_pack(mem - lo, 1, u, packed, t.size, &pos));
        for (size_t j = 0; j < t.n; j++)
            for (size_t b = 0; b < t.e[j].len; b++, k++)
                if (packed[k] != mem[t.e[j].disp + (ptrdiff_t)b - lo])
                    fuzz_fail(&t, "the deserialized type packs byte %zu differently", k);
        CHECK(k == pos);
        free(mem);
        free(packed);
        if (u != t.h && !u->predefined)
            CHECK_OK(orma_type_free(&u));
        if (npool < 16) {
            pool[npool++] = t;
        } else {
            size_t victim = (size_t)fuzz_range(&rng, 0, 15);
            ref_release(&pool[victim]);
            pool[victim] = t;
        }
    }
    for (size_t i = 0; i < npool; i++)
        ref_release(&pool[i]);
}

int main(int argc, char **argv)
{
    long ntypes = fuzz_args(argc, argv, 3000);
    CHECK_OK(orma_init(&argc, &argv));
    bad_args();
    hand_built();
    huge_counts();
    shared_subtrees();
    deep_nesting(40);
    deep_nesting(20);
    hand_made();
    random_types(ntypes);
    CHECK_OK(orma_finalize());
    printf("dtype_serial: seed %" PRIu64 ", %ld random types round-tripped\n", fuzz_seed, ntypes);
    return 0;
}
