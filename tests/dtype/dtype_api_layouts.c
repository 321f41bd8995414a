/* dtype_api_layouts.c -- layouts worked out by hand from MPI's definitions:
 * contiguity of indexed blocks, 3-D subarrays in C and Fortran order, the
 * padding of C structs, resizing a struct to sizeof, the pair types,
 * resized bounds propagating through constructors, negative strides and
 * empty types.  Every unpack also checks the bytes it must not touch. */
#include "check.h"
#include "dtype_api.h"

#include <stddef.h>
#include <stdint.h>

static orma_type commit(orma_type t)
{
    CHECK_OK(orma_type_commit(&t));
    return t;
}

static void bounds(orma_type t, orma_aint lb, orma_aint extent, orma_aint tlb, orma_aint textent, size_t size)
{
    orma_aint a = 0, b = 0;
    size_t s = 0;
    CHECK_OK(orma_type_get_extent(t, &a, &b));
    if (a != lb || b != extent)
        fprintf(stderr, "extent: got lb %td extent %td, expected %td %td\n", (ptrdiff_t)a, (ptrdiff_t)b,
                (ptrdiff_t)lb, (ptrdiff_t)extent);
    CHECK(a == lb && b == extent);
    CHECK_OK(orma_type_get_true_extent(t, &a, &b));
    CHECK(a == tlb && b == textent);
    CHECK_OK(orma_type_size(t, &s));
    CHECK(s == size);
}

static int contig(orma_type t, size_t count)
{
    int flag = -1;
    CHECK_OK(orma_type_is_contiguous(t, count, &flag));
    return flag;
}

/* Pack count elements of t from ints, expect the ints listed. */
static void pack_ints(const int *base, size_t count, orma_type t, const int *want, size_t nwant)
{
    int out[64];
    size_t pos = 0;
    CHECK(nwant <= 64);
    CHECK_OK(orma_pack(base, count, t, out, sizeof out, &pos));
    CHECK(pos == nwant * sizeof(int));
    for (size_t i = 0; i < nwant; i++) {
        if (out[i] != want[i])
            fprintf(stderr, "packed int %zu is %d, expected %d\n", i, out[i], want[i]);
        CHECK(out[i] == want[i]);
    }
}

static void indexed_contiguity(void)
{
    int a[16];
    for (int i = 0; i < 16; i++)
        a[i] = i;
    orma_type t;
    CHECK_OK(orma_type_indexed(3, (size_t[]){2, 1, 3}, (orma_aint[]){0, 2, 3}, ORMA_INT, &t));
    t = commit(t);
    bounds(t, 0, 24, 0, 24, 24);
    CHECK(contig(t, 1) && contig(t, 2) && contig(t, 0));
    pack_ints(a, 2, t, a, 12);
    CHECK_OK(orma_type_free(&t));

    CHECK_OK(orma_type_hindexed(2, (size_t[]){1, 1}, (orma_aint[]){0, sizeof(int)}, ORMA_INT, &t));
    CHECK(contig(t, 1) && contig(t, 3));
    CHECK_OK(orma_type_free(&t));

    /* touching but out of order: dense, not one run in order */
    CHECK_OK(orma_type_indexed(2, (size_t[]){1, 3}, (orma_aint[]){3, 0}, ORMA_INT, &t));
    t = commit(t);
    bounds(t, 0, 16, 0, 16, 16);
    CHECK(!contig(t, 1));
    pack_ints(a, 1, t, (const int[]){3, 0, 1, 2}, 4);
    CHECK_OK(orma_type_free(&t));

    /* a gap */
    CHECK_OK(orma_type_indexed(2, (size_t[]){1, 1}, (orma_aint[]){0, 2}, ORMA_INT, &t));
    CHECK(!contig(t, 1));
    CHECK_OK(orma_type_free(&t));

    /* dense data, but not at the start of the buffer */
    CHECK_OK(orma_type_hindexed(1, (size_t[]){2}, (orma_aint[]){4}, ORMA_INT, &t));
    CHECK(!contig(t, 1));
    CHECK_OK(orma_type_free(&t));

    /* one element dense, consecutive elements apart */
    orma_type c;
    CHECK_OK(orma_type_contiguous(2, ORMA_INT, &c));
    CHECK_OK(orma_type_resized(c, 0, 12, &t));
    CHECK(contig(t, 1) && !contig(t, 2));
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_free(&c));
}

/* int a[4][5][6] (C) or a(4,5,6) (Fortran), element value 100i + 10j + k,
 * sub-block [1..2][1..3][3..4]. */
static void subarray_3d(int order)
{
    enum { N0 = 4, N1 = 5, N2 = 6 };
    int a[N0 * N1 * N2], back[N0 * N1 * N2], want[12], n = 0;
    size_t sizes[3] = {N0, N1, N2}, sub[3] = {2, 3, 2}, starts[3] = {1, 1, 3};
#define FLAT(i, j, k) (order == ORMA_ORDER_C ? ((i) * N1 + (j)) * N2 + (k) : (i) + N0 * ((j) + N1 * (k)))
    for (int i = 0; i < N0; i++)
        for (int j = 0; j < N1; j++)
            for (int k = 0; k < N2; k++)
                a[FLAT(i, j, k)] = 100 * i + 10 * j + k;
    /* typemap order: the last index fastest in C, the first in Fortran */
    if (order == ORMA_ORDER_C) {
        for (int i = 1; i <= 2; i++)
            for (int j = 1; j <= 3; j++)
                for (int k = 3; k <= 4; k++)
                    want[n++] = 100 * i + 10 * j + k;
    } else {
        for (int k = 3; k <= 4; k++)
            for (int j = 1; j <= 3; j++)
                for (int i = 1; i <= 2; i++)
                    want[n++] = 100 * i + 10 * j + k;
    }
    orma_type t;
    CHECK_OK(orma_type_subarray(3, sizes, sub, starts, order, ORMA_INT, &t));
    t = commit(t);
    orma_aint first = FLAT(1, 1, 3), last = FLAT(2, 3, 4);
    bounds(t, 0, (orma_aint)sizeof a, first * 4, (last + 1 - first) * 4, 12 * sizeof(int));
    CHECK(!contig(t, 1));
    pack_ints(a, 1, t, want, 12);

    for (int i = 0; i < N0 * N1 * N2; i++)
        back[i] = -1;
    size_t pos = 0;
    CHECK_OK(orma_unpack(want, sizeof want, &pos, back, 1, t));
    for (int i = 0; i < N0; i++)
        for (int j = 0; j < N1; j++)
            for (int k = 0; k < N2; k++) {
                int inside = i >= 1 && i <= 2 && j >= 1 && j <= 3 && k >= 3 && k <= 4;
                CHECK(back[FLAT(i, j, k)] == (inside ? a[FLAT(i, j, k)] : -1));
            }
#undef FLAT
    CHECK_OK(orma_type_free(&t));
}

struct cd {
    char c;
    double d;
};
struct dc {
    double d;
    char c;
};
struct ic12 {
    int a;
    char b;
    char spare[7];
};

static void struct_padding(void)
{
    orma_type t;
    CHECK_OK(orma_type_struct(2, (size_t[]){1, 1}, (orma_aint[]){offsetof(struct cd, c), offsetof(struct cd, d)},
                              (orma_type[]){ORMA_CHAR, ORMA_DOUBLE}, &t));
    t = commit(t);
    bounds(t, 0, sizeof(struct cd), 0, offsetof(struct cd, d) + sizeof(double), 1 + sizeof(double));
    if (_Alignof(double) == 8)
        CHECK(sizeof(struct cd) == 16);
    struct cd in[3] = {{'x', 1.5}, {'y', -2.25}, {'z', 1e300}}, back[3];
    unsigned char packed[3 * 9];
    size_t pos = 0;
    CHECK_OK(orma_pack(in, 3, t, packed, sizeof packed, &pos));
    CHECK(pos == sizeof packed);
    for (int i = 0; i < 3; i++) {
        double d;
        memcpy(&d, packed + 9 * i + 1, sizeof d);
        CHECK(packed[9 * i] == (unsigned char)in[i].c && d == in[i].d);
    }
    memset(back, 0x7F, sizeof back);
    pos = 0;
    CHECK_OK(orma_unpack(packed, sizeof packed, &pos, back, 3, t));
    for (int i = 0; i < 3; i++)
        CHECK(back[i].c == in[i].c && back[i].d == in[i].d);
    /* the padding after c is not in the typemap */
    for (size_t b = 1; b < offsetof(struct cd, d); b++)
        CHECK(((unsigned char *)&back[1])[b] == 0x7F);
    CHECK_OK(orma_type_free(&t));

    /* padding at the end: the data ends at 9, the extent is rounded to 16 */
    CHECK_OK(orma_type_struct(2, (size_t[]){1, 1}, (orma_aint[]){offsetof(struct dc, d), offsetof(struct dc, c)},
                              (orma_type[]){ORMA_DOUBLE, ORMA_CHAR}, &t));
    bounds(t, 0, sizeof(struct dc), 0, sizeof(double) + 1, sizeof(double) + 1);
    CHECK_OK(orma_type_free(&t));

    /* a double of block length 0 is not in the typemap: no padding to 8 */
    CHECK_OK(orma_type_struct(2, (size_t[]){1, 0}, (orma_aint[]){0, 8}, (orma_type[]){ORMA_CHAR, ORMA_DOUBLE}, &t));
    bounds(t, 0, 1, 0, 1, 1);
    CHECK_OK(orma_type_free(&t));

    /* resized to sizeof a larger struct: the extent is what was asked */
    CHECK_OK(orma_type_struct(2, (size_t[]){1, 1}, (orma_aint[]){offsetof(struct ic12, a), offsetof(struct ic12, b)},
                              (orma_type[]){ORMA_INT, ORMA_CHAR}, &t));
    bounds(t, 0, 2 * sizeof(int), 0, sizeof(int) + 1, sizeof(int) + 1);
    orma_type r;
    CHECK_OK(orma_type_resized(t, 0, sizeof(struct ic12), &r));
    r = commit(r);
    bounds(r, 0, sizeof(struct ic12), 0, sizeof(int) + 1, sizeof(int) + 1);
    struct ic12 s[3] = {{7, 'a', {0}}, {8, 'b', {0}}, {9, 'c', {0}}};
    unsigned char out[15];
    pos = 0;
    CHECK_OK(orma_pack(s, 3, r, out, sizeof out, &pos));
    for (int i = 0; i < 3; i++) {
        int v;
        memcpy(&v, out + 5 * i, sizeof v);
        CHECK(v == s[i].a && out[5 * i + 4] == (unsigned char)s[i].b);
    }
    CHECK_OK(orma_type_free(&r));
    CHECK_OK(orma_type_free(&t));
}

static void pair_types(void)
{
    struct orma_short_int si[2] = {{1, 10}, {-2, 20}};
    unsigned char out[2 * (sizeof(short) + sizeof(int))];
    size_t pos = 0, per = sizeof(short) + sizeof(int);
    CHECK_OK(orma_pack(si, 2, ORMA_SHORT_INT, out, sizeof out, &pos));
    CHECK(pos == sizeof out);
    for (int i = 0; i < 2; i++) {
        short v;
        int x;
        memcpy(&v, out + per * i, sizeof v);
        memcpy(&x, out + per * i + sizeof(short), sizeof x);
        CHECK(v == si[i].value && x == si[i].index);
    }
    bounds(ORMA_SHORT_INT, 0, sizeof(struct orma_short_int), 0,
           offsetof(struct orma_short_int, index) + sizeof(int), sizeof(short) + sizeof(int));
    CHECK(contig(ORMA_SHORT_INT, 1) == (offsetof(struct orma_short_int, index) == sizeof(short)));
    CHECK(contig(ORMA_DOUBLE_INT, 1) && contig(ORMA_DOUBLE_INT, 2) == (sizeof(struct orma_double_int) == 12));

    /* in a derived type, the gap inside each pair stays a gap */
    orma_type t;
    CHECK_OK(orma_type_contiguous(2, ORMA_SHORT_INT, &t));
    t = commit(t);
    bounds(t, 0, 2 * sizeof(struct orma_short_int), 0,
           sizeof(struct orma_short_int) + offsetof(struct orma_short_int, index) + sizeof(int), 2 * per);
    struct orma_short_int back[2];
    memset(back, 0x55, sizeof back);
    pos = 0;
    CHECK_OK(orma_unpack(out, sizeof out, &pos, back, 1, t));
    CHECK(back[0].value == 1 && back[0].index == 10 && back[1].value == -2 && back[1].index == 20);
    for (size_t b = sizeof(short); b < offsetof(struct orma_short_int, index); b++)
        CHECK(((unsigned char *)&back[1])[b] == 0x55);
    CHECK_OK(orma_type_free(&t));
}

static void bounds_and_strides(void)
{
    int a[16];
    for (int i = 0; i < 16; i++)
        a[i] = i;
    orma_type r, t, s;

    /* a resized inner type carries its bounds into each copy */
    CHECK_OK(orma_type_resized(ORMA_INT, -4, 12, &r));
    CHECK_OK(orma_type_contiguous(3, r, &t));
    t = commit(t);
    bounds(t, -4, 36, 0, 28, 12);
    pack_ints(a, 1, t, (const int[]){0, 3, 6}, 3);
    pack_ints(a, 2, t, (const int[]){0, 3, 6, 9, 12, 15}, 6);
    CHECK_OK(orma_type_struct(1, (size_t[]){2}, (orma_aint[]){100}, &r, &s));
    bounds(s, 96, 24, 100, 16, 8);
    CHECK_OK(orma_type_free(&s));
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_free(&r));

    /* a negative stride walks backwards from the buffer */
    CHECK_OK(orma_type_vector(3, 1, -2, ORMA_INT, &t));
    t = commit(t);
    bounds(t, -16, 20, -16, 20, 12);
    pack_ints(a + 4, 1, t, (const int[]){4, 2, 0}, 3);
    CHECK(!contig(t, 1));
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_hvector(2, 2, -8, ORMA_INT, &t));
    t = commit(t);
    bounds(t, -8, 16, -8, 16, 16);
    pack_ints(a + 2, 1, t, (const int[]){2, 3, 0, 1}, 4);
    CHECK_OK(orma_type_free(&t));

    /* no data: bounds 0, contiguous, pack moves nothing */
    orma_type empties[3];
    CHECK_OK(orma_type_contiguous(0, ORMA_INT, &empties[0]));
    CHECK_OK(orma_type_vector(3, 0, 1, ORMA_DOUBLE, &empties[1]));
    CHECK_OK(orma_type_hindexed(2, (size_t[]){0, 0}, (orma_aint[]){8, -8}, ORMA_INT, &empties[2]));
    for (int i = 0; i < 3; i++) {
        empties[i] = commit(empties[i]);
        bounds(empties[i], 0, 0, 0, 0, 0);
        CHECK(contig(empties[i], 5));
        size_t pos = 2;
        CHECK_OK(orma_pack(a, 5, empties[i], a, 0 + 2, &pos));
        CHECK(pos == 2 && a[0] == 0);
        CHECK_OK(orma_type_free(&empties[i]));
    }
}

void dtype_api_layouts(void)
{
    indexed_contiguity();
    subarray_3d(ORMA_ORDER_C);
    subarray_3d(ORMA_ORDER_FORTRAN);
    struct_padding();
    pair_types();
    bounds_and_strides();
}
