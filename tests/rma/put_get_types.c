/* put_get_types.c -- put and get of counts of every predefined type.
 *
 * For each predefined type a window with disp_unit = sizeof(type) is made;
 * counts 1, 5 and 257 are put to the right neighbour and got from the left
 * one, and the values that arrive are compared as values of the C type.
 * Bytes outside the transferred elements must keep their background.  Then
 * origin and target types that differ but describe the same number of bytes
 * (4 INT32 into 2 INT64, ...) must be accepted and move exactly those bytes,
 * also at unaligned byte displacements. */
#include "rma_test.h"

#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int rank, nranks;

/* NAME, C type, value of element i in stream seed (k = i * 13 + seed).
 * Values are exact in their type, not NaN and not -0.0, so == on the C type
 * is a faithful comparison. */
#define TYPE_TABLE(X)                                                          \
    X(BYTE, unsigned char, (unsigned char)(k * 31u + 7u))                      \
    X(CHAR, char, (char)('!' + k % 90u))                                       \
    X(SIGNED_CHAR, signed char, (signed char)((int)(k % 251u) - 125))          \
    X(UNSIGNED_CHAR, unsigned char, (unsigned char)(k * 17u + 3u))             \
    X(SHORT, short, (short)((int)(k * 97u % 60000u) - 30000))                  \
    X(UNSIGNED_SHORT, unsigned short, (unsigned short)(k * 977u))              \
    X(INT, int, (int)((long long)(k * 2654435761u % 4000000000u) - 2000000000LL)) \
    X(UNSIGNED, unsigned, k * 2246822519u)                                     \
    X(LONG, long, (long)(k * 40503u) * ((k & 1u) ? -1L : 1L))                  \
    X(UNSIGNED_LONG, unsigned long, (unsigned long)k * 0x9E3779B9ul)           \
    X(LONG_LONG, long long, (long long)((uint64_t)k * 0x9E3779B97F4A7C15ull >> 1) * ((k & 1u) ? -1 : 1)) \
    X(UNSIGNED_LONG_LONG, unsigned long long, (unsigned long long)k * 0xC2B2AE3D27D4EB4Full) \
    X(INT8, int8_t, (int8_t)((int)(k % 249u) - 124))                           \
    X(INT16, int16_t, (int16_t)((int)(k * 331u % 65000u) - 32500))             \
    X(INT32, int32_t, (int32_t)((int64_t)(k * 3266489917u % 4000000000u) - 2000000000)) \
    X(INT64, int64_t, (int64_t)((uint64_t)k * 0x94D049BB133111EBull >> 2) - INT64_C(1000)) \
    X(UINT8, uint8_t, (uint8_t)(k * 101u + 1u))                                \
    X(UINT16, uint16_t, (uint16_t)(k * 7919u))                                 \
    X(UINT32, uint32_t, (uint32_t)(k * 668265263u))                            \
    X(UINT64, uint64_t, (uint64_t)k * 0xBF58476D1CE4E5B9ull)                   \
    X(FLOAT, float, (float)k * 0.5f - 1000.25f)                                \
    X(DOUBLE, double, (double)k / 3.0 - 77.0)                                  \
    X(LONG_DOUBLE, long double, (long double)k / 7.0L - 5.0L)                  \
    X(C_BOOL, _Bool, (_Bool)(k % 3u == 0))                                     \
    X(C_FLOAT_COMPLEX, float _Complex, (float)k * 0.25f + ((float)k + 1.0f) * I) \
    X(C_DOUBLE_COMPLEX, double _Complex, (double)k / 3.0 - ((double)k * 0.125) * I) \
    X(C_LONG_DOUBLE_COMPLEX, long double _Complex, (long double)k / 7.0L + ((long double)k / 9.0L) * I) \
    X(AINT, intptr_t, (intptr_t)k * 4099 - 77777)

struct tdesc {
    orma_type type;
    const char *name;
    size_t size;
    void (*fill)(unsigned char *dst, size_t count, unsigned seed);
    int (*same)(const unsigned char *a, const unsigned char *b);
};

/* Elements are stored with memcpy: window and buffer offsets need not be
 * aligned for the C type.  _Bool is compared as its byte, since a
 * background byte read as _Bool would not be a valid value. */
#define DEFINE_TYPE(NAME, ctype, GEN)                                          \
    static void fill_##NAME(unsigned char *dst, size_t count, unsigned seed)  \
    {                                                                          \
        for (size_t i = 0; i < count; i++) {                                   \
            unsigned k = (unsigned)i * 13u + seed;                             \
            ctype v = GEN;                                                     \
            memcpy(dst + i * sizeof v, &v, sizeof v);                          \
        }                                                                      \
    }                                                                          \
    static int same_##NAME(const unsigned char *a, const unsigned char *b)     \
    {                                                                          \
        ctype x, y;                                                            \
        if (sizeof(ctype) == 1)                                                \
            return a[0] == b[0];                                               \
        memcpy(&x, a, sizeof x);                                               \
        memcpy(&y, b, sizeof y);                                               \
        return x == y;                                                         \
    }
TYPE_TABLE(DEFINE_TYPE)
#undef DEFINE_TYPE

/* The MINLOC/MAXLOC pairs: compared member by member, since the struct
 * may hold padding that a transfer carries but nobody defines. */
#define PAIR_TABLE(X)                                                          \
    X(FLOAT_INT, struct orma_float_int, (float)k * 0.5f - 3.0f)                \
    X(DOUBLE_INT, struct orma_double_int, (double)k / 3.0 - 9.0)               \
    X(LONG_INT, struct orma_long_int, (long)k * -40503L)                       \
    X(2INT, struct orma_2int, (int)(k * 2654435761u % 100000u) - 50000)        \
    X(SHORT_INT, struct orma_short_int, (short)((int)(k * 97u % 60000u) - 30000)) \
    X(LONG_DOUBLE_INT, struct orma_long_double_int, (long double)k / 7.0L - 5.0L)

#define DEFINE_PAIR(NAME, ptype, GEN)                                          \
    static void fill_##NAME(unsigned char *dst, size_t count, unsigned seed)  \
    {                                                                          \
        for (size_t i = 0; i < count; i++) {                                   \
            unsigned k = (unsigned)i * 13u + seed;                             \
            ptype v;                                                           \
            memset(&v, 0, sizeof v);                                           \
            v.value = GEN;                                                     \
            v.index = (int)(k * 7u) - 999;                                     \
            memcpy(dst + i * sizeof v, &v, sizeof v);                          \
        }                                                                      \
    }                                                                          \
    static int same_##NAME(const unsigned char *a, const unsigned char *b)     \
    {                                                                          \
        ptype x, y;                                                            \
        memcpy(&x, a, sizeof x);                                               \
        memcpy(&y, b, sizeof y);                                               \
        return x.value == y.value && x.index == y.index;                       \
    }
PAIR_TABLE(DEFINE_PAIR)
#undef DEFINE_PAIR

/* size: the extent, the bytes one element spans. */
#define DESC_ENTRY(NAME, ctype, GEN)                                           \
    {ORMA_##NAME, "ORMA_" #NAME, sizeof(ctype), fill_##NAME, same_##NAME},

/* Layout of a window, in elements: guard, put region, guard, get region,
 * guard.  The window grows by one element per rank so that sizes differ. */
enum { MAXCOUNT = 257, PUT_AT = 3, GET_AT = PUT_AT + MAXCOUNT + 3, GUARD_EL = 2 };
static size_t win_elems(int t) { return GET_AT + MAXCOUNT + 3 + (size_t)t; }

/* Element-wise value comparison of count elements at got against the
 * stream seed. */
static void expect_values(const struct tdesc *d, const unsigned char *got,
                          size_t count, unsigned seed, const char *what)
{
    unsigned char *want = malloc(count * d->size);
    CHECK(want != NULL);
    d->fill(want, count, seed);
    for (size_t i = 0; i < count; i++)
        if (!d->same(got + i * d->size, want + i * d->size)) {
            fprintf(stderr, "rank %d: %s count %zu: %s: element %zu differs\n",
                    rank, d->name, count, what, i);
            exit(1);
        }
    free(want);
}

static void run_type(const struct tdesc *d, unsigned tindex)
{
    int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
    static const size_t counts[] = {1, 5, MAXCOUNT};
    size_t sz = 0, wbytes = win_elems(rank) * d->size;
    unsigned char *mine = NULL;
    orma_win win = ORMA_WIN_NULL;

    CHECK_OK(orma_type_extent(d->type, &sz));
    CHECK(sz == d->size);
    CHECK(strcmp(orma_type_name(d->type), d->name) == 0);

    CHECK_OK(orma_win_allocate(wbytes, (int)d->size, ORMA_INFO_NULL,
                               (void **)&mine, &win));
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        size_t c = counts[ci];
        unsigned put_s = 1000u * tindex + 10u * (unsigned)ci;
        unsigned get_s = put_s + 500u;
        size_t gbytes = (c + 2 * GUARD_EL) * d->size;
        unsigned char *obuf = malloc(c * d->size);
        unsigned char *gbuf = malloc(gbytes);
        CHECK(obuf && gbuf);

        rt_fill_bg(mine, wbytes);
        d->fill(mine + GET_AT * d->size, c, get_s + (unsigned)rank);
        d->fill(obuf, c, put_s + (unsigned)rt);
        rt_fill_bg(gbuf, gbytes);

        CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, win));
        CHECK_OK(orma_put(obuf, c, d->type, rt, PUT_AT, c, d->type, win));
        CHECK_OK(orma_get(gbuf + GUARD_EL * d->size, c, d->type, lt, GET_AT, c,
                          d->type, win));
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));

        RT_EXPECT_BG(mine, 0, PUT_AT * d->size, "window below put");
        expect_values(d, mine + PUT_AT * d->size, c, put_s + (unsigned)rank,
                      "put region");
        RT_EXPECT_BG(mine, (PUT_AT + c) * d->size, GET_AT * d->size,
                     "window between put and get");
        expect_values(d, mine + GET_AT * d->size, c, get_s + (unsigned)rank,
                      "get region (read only)");
        RT_EXPECT_BG(mine, (GET_AT + c) * d->size, wbytes, "window above get");

        RT_EXPECT_BG(gbuf, 0, GUARD_EL * d->size, "get buffer front guard");
        expect_values(d, gbuf + GUARD_EL * d->size, c, get_s + (unsigned)lt,
                      "get buffer");
        RT_EXPECT_BG(gbuf, (GUARD_EL + c) * d->size, gbytes, "get buffer back guard");
        free(obuf);
        free(gbuf);
    }
    CHECK_OK(orma_win_free(&win));
}

/* One transfer whose origin and target types differ but cover the same
 * bytes.  off_t_ is the byte offset at the target; the window unit divides
 * it.  Put and get regions at a target never overlap. */
struct mixed {
    int is_put;
    size_t ocount;
    orma_type otype;
    size_t tcount;
    orma_type ttype;
    size_t off;
    size_t len;
};

static void run_mixed(int du, size_t shift)
{
    int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
    const struct mixed cases[] = {
        {1, 4, ORMA_INT32, 2, ORMA_INT64, 8, 16},
        {1, 3, ORMA_DOUBLE, 24, ORMA_BYTE, 32, 24},
        {1, 16, ORMA_UINT8, 1, ORMA_C_DOUBLE_COMPLEX, 64, 16},
        {1, 2, ORMA_INT16, 1, ORMA_FLOAT, 88, 4},
        {0, 4, ORMA_INT32, 2, ORMA_INT64, 96, 16},
        {0, 2, ORMA_UINT64, 4, ORMA_FLOAT, 112, 16},
        {0, 1, ORMA_LONG_DOUBLE, 2, ORMA_DOUBLE, 128, 16},
    };
    enum { NCASES = sizeof cases / sizeof cases[0] };
    size_t wbytes = 160 + shift + 8 * (size_t)rank;
    unsigned char *mine = NULL, *obuf[NCASES];
    orma_win win = ORMA_WIN_NULL;
    unsigned pseed = 40000u + (unsigned)du, gseed = 41000u + (unsigned)du;

    CHECK_OK(orma_win_allocate(wbytes, du, ORMA_INFO_NULL, (void **)&mine, &win));
    rt_fill_bg(mine, wbytes);
    for (int i = 0; i < NCASES; i++) {
        const struct mixed *m = &cases[i];
        size_t at = m->off + shift;
        CHECK(at % (size_t)du == 0);
        obuf[i] = malloc(m->len + 2 * 8);
        CHECK(obuf[i] != NULL);
        if (m->is_put) {
            rt_fill_data(obuf[i], m->len, pseed + (unsigned)rt, at);
        } else {
            rt_fill_bg(obuf[i], m->len + 16);
            rt_fill_data(mine + at, m->len, gseed + (unsigned)rank, at);
        }
    }

    CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, win));
    for (int i = 0; i < NCASES; i++) {
        const struct mixed *m = &cases[i];
        orma_aint disp = (orma_aint)((m->off + shift) / (size_t)du);
        if (m->is_put)
            CHECK_OK(orma_put(obuf[i], m->ocount, m->otype, rt, disp, m->tcount,
                              m->ttype, win));
        else
            CHECK_OK(orma_get(obuf[i] + 8, m->ocount, m->otype, lt, disp,
                              m->tcount, m->ttype, win));
    }
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));

    /* The regions are listed in ascending order: check each and the
     * background up to the next. */
    {
        size_t pos = 0;
        for (int i = 0; i < NCASES; i++) {
            const struct mixed *m = &cases[i];
            size_t at = m->off + shift;
            RT_EXPECT_BG(mine, pos, at, "window between mixed regions");
            RT_EXPECT_DATA(mine, at, m->len,
                           (m->is_put ? pseed : gseed) + (unsigned)rank, at,
                           m->is_put ? "mixed-type put region" : "mixed-type get source");
            pos = at + m->len;
            if (!m->is_put)
                RT_EXPECT_REGION(obuf[i], m->len + 16, 8, m->len,
                                 gseed + (unsigned)lt, at, "mixed-type get buffer");
        }
        RT_EXPECT_BG(mine, pos, wbytes, "window above mixed regions");
    }
    for (int i = 0; i < NCASES; i++)
        free(obuf[i]);
    CHECK_OK(orma_win_free(&win));
}

int main(int argc, char **argv)
{
    const struct tdesc descs[] = {TYPE_TABLE(DESC_ENTRY) PAIR_TABLE(DESC_ENTRY)};
    unsigned ndesc = (unsigned)(sizeof descs / sizeof descs[0]);

    rt_init(&argc, &argv, &rank, &nranks);
    CHECK(ndesc == ORMA_TYPEID_COUNT);
    for (unsigned i = 0; i < ndesc; i++)
        run_type(&descs[i], i + 1);

    /* Mixed types with the natural unit, and with unit 1 at odd byte
     * displacements. */
    run_mixed(8, 0);
    run_mixed(1, 3);
    CHECK_OK(orma_finalize());
    return 0;
}
