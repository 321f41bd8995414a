/* dtype_api.c -- the public datatype calls: every constructor's argument
 * errors (outputs left alone), overflow of sizes and bounds, the rules of
 * commit, dup and free, pack/unpack errors, and layouts checked by hand
 * where a random reference could share a misunderstanding: a vector of a
 * million blocks (compact: building a hundred costs no memory per block),
 * touching indexed blocks, 3-D subarrays in both orders, C-struct padding,
 * resized structs, the pair types and negative strides. */
#include "check.h"
#include "dtype_api.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SENTINEL ((orma_type)(void *)&sentinel_obj)
static char sentinel_obj;

static orma_type committed(orma_type t)
{
    CHECK_OK(orma_type_commit(&t));
    return t;
}

static void check_bounds(orma_type t, orma_aint lb, orma_aint extent, orma_aint tlb, orma_aint textent, size_t size)
{
    orma_aint a = 0, b = 0;
    size_t s = 0;
    CHECK_OK(orma_type_get_extent(t, &a, &b));
    CHECK(a == lb && b == extent);
    CHECK_OK(orma_type_get_true_extent(t, &a, &b));
    CHECK(a == tlb && b == textent);
    CHECK_OK(orma_type_size(t, &s));
    CHECK(s == size);
}

static int is_contig(orma_type t, size_t count)
{
    int flag = -1;
    CHECK_OK(orma_type_is_contiguous(t, count, &flag));
    return flag;
}

static void constructor_errors(void)
{
    orma_type t = SENTINEL, freed, bad = (orma_type)(void *)((char *)ORMA_INT + 8);
    size_t bl[2] = {1, 1}, sizes[2] = {4, 4}, sub[2] = {2, 2}, starts[2] = {1, 1};
    orma_aint disp[2] = {0, 8};
    orma_type types[2] = {ORMA_INT, ORMA_DOUBLE};

    CHECK_OK(orma_type_contiguous(2, ORMA_INT, &freed));
    orma_type keep = freed;
    CHECK_OK(orma_type_free(&keep));

    /* invalid, NULL and freed old types; NULL outputs */
    orma_type olds[3] = {NULL, bad, freed};
    for (int i = 0; i < 3; i++) {
        orma_type o = olds[i];
        CHECK_ERR(orma_type_contiguous(1, o, &t), ORMA_ERR_TYPE);
        CHECK_ERR(orma_type_vector(1, 1, 1, o, &t), ORMA_ERR_TYPE);
        CHECK_ERR(orma_type_hvector(1, 1, 1, o, &t), ORMA_ERR_TYPE);
        CHECK_ERR(orma_type_indexed(2, bl, disp, o, &t), ORMA_ERR_TYPE);
        CHECK_ERR(orma_type_hindexed(2, bl, disp, o, &t), ORMA_ERR_TYPE);
        CHECK_ERR(orma_type_indexed_block(2, 1, disp, o, &t), ORMA_ERR_TYPE);
        CHECK_ERR(orma_type_hindexed_block(2, 1, disp, o, &t), ORMA_ERR_TYPE);
        CHECK_ERR(orma_type_subarray(2, sizes, sub, starts, ORMA_ORDER_C, o, &t), ORMA_ERR_TYPE);
        CHECK_ERR(orma_type_resized(o, 0, 4, &t), ORMA_ERR_TYPE);
        CHECK_ERR(orma_type_dup(o, &t), ORMA_ERR_TYPE);
        types[1] = o;
        CHECK_ERR(orma_type_struct(2, bl, disp, types, &t), ORMA_ERR_TYPE);
        types[1] = ORMA_DOUBLE;
    }
    CHECK(t == SENTINEL);
    CHECK_ERR(orma_type_contiguous(1, ORMA_INT, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_vector(1, 1, 1, ORMA_INT, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_hvector(1, 1, 1, ORMA_INT, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_indexed(2, bl, disp, ORMA_INT, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_hindexed(2, bl, disp, ORMA_INT, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_indexed_block(2, 1, disp, ORMA_INT, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_hindexed_block(2, 1, disp, ORMA_INT, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_struct(2, bl, disp, types, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_subarray(2, sizes, sub, starts, ORMA_ORDER_C, ORMA_INT, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_resized(ORMA_INT, 0, 4, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_dup(ORMA_INT, NULL), ORMA_ERR_ARG);

    /* NULL arrays with a nonzero count */
    CHECK_ERR(orma_type_indexed(2, NULL, disp, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_indexed(2, bl, NULL, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_hindexed(2, NULL, disp, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_hindexed(2, bl, NULL, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_indexed_block(2, 1, NULL, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_hindexed_block(2, 1, NULL, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_struct(2, NULL, disp, types, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_struct(2, bl, NULL, types, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_struct(2, bl, disp, NULL, &t), ORMA_ERR_ARG);
    CHECK(t == SENTINEL);

    /* subarray: dimensions, arrays, order, bounds */
    CHECK_ERR(orma_type_subarray(0, sizes, sub, starts, ORMA_ORDER_C, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_subarray(-1, sizes, sub, starts, ORMA_ORDER_C, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_subarray(2, NULL, sub, starts, ORMA_ORDER_C, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_subarray(2, sizes, NULL, starts, ORMA_ORDER_C, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_subarray(2, sizes, sub, NULL, ORMA_ORDER_C, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_subarray(2, sizes, sub, starts, 2, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_subarray(2, sizes, sub, starts, -1, ORMA_INT, &t), ORMA_ERR_ARG);
    size_t big_sub[2] = {2, 5}, late[2] = {0, 3}, huge_start[2] = {SIZE_MAX, 0};
    CHECK_ERR(orma_type_subarray(2, sizes, big_sub, starts, ORMA_ORDER_C, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_subarray(2, sizes, sub, late, ORMA_ORDER_FORTRAN, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK_ERR(orma_type_subarray(2, sizes, sub, huge_start, ORMA_ORDER_C, ORMA_INT, &t), ORMA_ERR_ARG);
    CHECK(t == SENTINEL);

}

/* Counts are legal at zero with NULL arrays: nothing is read. */
static void zero_counts(void)
{
    orma_type t;
    CHECK_OK(orma_type_indexed(0, NULL, NULL, ORMA_INT, &t));
    check_bounds(t, 0, 0, 0, 0, 0);
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_hindexed_block(0, 3, NULL, ORMA_INT, &t));
    check_bounds(t, 0, 0, 0, 0, 0);
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_struct(0, NULL, NULL, NULL, &t));
    check_bounds(t, 0, 0, 0, 0, 0);
    CHECK_OK(orma_type_free(&t));
}

/* Sizes, spans and bounds that do not fit: ORMA_ERR_COUNT, never a type
 * whose numbers wrapped around. */
static void overflow_errors(void)
{
    orma_type t = SENTINEL, big, thin;
    const orma_aint amax = INTPTR_MAX;
    size_t one = 1, sizes[2] = {(size_t)1 << 32, (size_t)1 << 32}, starts[2] = {0, 0};
    orma_aint far = amax, farelems = amax / 2;
    orma_type bytes = ORMA_BYTE;

    CHECK_ERR(orma_type_contiguous(SIZE_MAX, ORMA_INT, &t), ORMA_ERR_COUNT);
    CHECK_ERR(orma_type_contiguous((size_t)amax / 2, ORMA_INT, &t), ORMA_ERR_COUNT);
    CHECK_OK(orma_type_contiguous((size_t)1 << 40, ORMA_BYTE, &big));
    CHECK_ERR(orma_type_contiguous((size_t)1 << 40, big, &t), ORMA_ERR_COUNT);
    CHECK_ERR(orma_type_vector(2, 1, amax, ORMA_INT, &t), ORMA_ERR_COUNT);
    CHECK_ERR(orma_type_vector(SIZE_MAX, 1, 1, ORMA_INT, &t), ORMA_ERR_COUNT);
    CHECK_ERR(orma_type_vector(2, (size_t)1 << 40, 1, big, &t), ORMA_ERR_COUNT);
    CHECK_ERR(orma_type_hvector(3, 1, amax / 2 + 1, ORMA_BYTE, &t), ORMA_ERR_COUNT);
    CHECK_ERR(orma_type_indexed(1, &one, &farelems, ORMA_INT, &t), ORMA_ERR_COUNT);
    CHECK_ERR(orma_type_hindexed(1, &one, &far, ORMA_INT, &t), ORMA_ERR_COUNT);
    CHECK_ERR(orma_type_hindexed_block(1, 1, &far, ORMA_INT, &t), ORMA_ERR_COUNT);
    CHECK_ERR(orma_type_struct(1, &one, &far, &bytes, &t), ORMA_ERR_COUNT);
    CHECK_ERR(orma_type_subarray(2, sizes, sizes, starts, ORMA_ORDER_C, ORMA_INT, &t), ORMA_ERR_COUNT);
    CHECK_ERR(orma_type_resized(ORMA_INT, amax, 1, &t), ORMA_ERR_COUNT);
    CHECK(t == SENTINEL);

    /* The byte span of hvector's blocks: the last block starts at
     * INTPTR_MAX and ends past it. */
    CHECK_ERR(orma_type_hvector(2, 1, amax, ORMA_INT, &t), ORMA_ERR_COUNT);
    CHECK(t == SENTINEL);

    /* The data size of a subarray of a type resized to an extent below its
     * size: the array's span fits, its data does not. */
    CHECK_OK(orma_type_resized(big, 0, 1, &thin));
    size_t n1[1] = {(size_t)1 << 30}, s1[1] = {0};
    CHECK_ERR(orma_type_subarray(1, n1, n1, s1, ORMA_ORDER_C, thin, &t), ORMA_ERR_COUNT);
    CHECK(t == SENTINEL);
    CHECK_OK(orma_type_free(&thin));
    CHECK_OK(orma_type_free(&big));

    /* Bounds that each fit, an extent between them that does not. */
    size_t ones[2] = {1, 1};
    orma_aint apart[2] = {-(amax / 2) - 8, amax / 2 + 8}, late[2] = {0, amax - 10};
    orma_type cd[2] = {ORMA_CHAR, ORMA_DOUBLE};
    CHECK_ERR(orma_type_hindexed(2, ones, apart, ORMA_INT, &t), ORMA_ERR_COUNT);
    CHECK_ERR(orma_type_struct(2, ones, apart, cd, &t), ORMA_ERR_COUNT);
    /* A struct's extent that fits until it is padded to its alignment. */
    CHECK_ERR(orma_type_struct(2, ones, late, cd, &t), ORMA_ERR_COUNT);
    /* Data past INTPTR_MAX behind bounds resized to fit: as touching runs
     * about to merge, and as the entries of a flattened indexed type. */
    orma_type back, pair, spread;
    orma_aint near[2] = {amax - 2, amax - 2}, at[2] = {0, 25}, edge = amax - 50;
    CHECK_OK(orma_type_resized(ORMA_INT, -8, 8, &back));
    CHECK_ERR(orma_type_hindexed(2, ones, near, back, &t), ORMA_ERR_COUNT);
    CHECK_OK(orma_type_indexed(2, ones, at, ORMA_INT, &pair));
    CHECK_OK(orma_type_resized(pair, 0, 1, &spread));
    CHECK_ERR(orma_type_hindexed(1, ones, &edge, spread, &t), ORMA_ERR_COUNT);
    CHECK(t == SENTINEL);
    CHECK_OK(orma_type_free(&back));
    CHECK_OK(orma_type_free(&pair));
    CHECK_OK(orma_type_free(&spread));
}

static void free_and_dup_rules(void)
{
    orma_type t = ORMA_INT, c, v, gone, d, r;
    int vals[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[8] = {0};
    size_t pos = 0, s;

    /* predefined types: commit is fine, free is not */
    CHECK_OK(orma_type_commit(&t));
    CHECK(t == ORMA_INT);
    CHECK_ERR(orma_type_free(&t), ORMA_ERR_TYPE);
    CHECK(t == ORMA_INT);
    CHECK(orma_type_free(NULL) != ORMA_SUCCESS);
    CHECK(orma_type_commit(NULL) != ORMA_SUCCESS);

    /* free: sets NULL; then the handle is refused everywhere */
    CHECK_OK(orma_type_contiguous(2, ORMA_INT, &c));
    CHECK_OK(orma_type_vector(2, 1, 2, c, &v)); /* ints 0,1 and 4,5 */
    CHECK_OK(orma_type_commit(&v));
    gone = c;
    CHECK_OK(orma_type_free(&c));
    CHECK(c == NULL);
    CHECK_ERR(orma_type_free(&c), ORMA_ERR_TYPE);
    c = gone;
    CHECK_ERR(orma_type_size(gone, &s), ORMA_ERR_TYPE);
    CHECK_ERR(orma_type_get_extent(gone, (orma_aint[1]){0}, (orma_aint[1]){0}), ORMA_ERR_TYPE);
    CHECK_ERR(orma_type_commit(&c), ORMA_ERR_TYPE);
    CHECK_ERR(orma_type_free(&c), ORMA_ERR_TYPE);
    CHECK_ERR(orma_pack(vals, 1, gone, out, sizeof out, &pos), ORMA_ERR_TYPE);
    CHECK(pos == 0);
    /* the type built from it keeps working */
    CHECK_OK(orma_pack(vals, 1, v, out, sizeof out, &pos));
    CHECK(pos == 16 && out[0] == 0 && out[1] == 1 && out[2] == 4 && out[3] == 5);
    check_bounds(v, 0, 24, 0, 24, 16);

    /* dup: same bounds, same layout, same committed state */
    CHECK_OK(orma_type_resized(v, -4, 32, &r));
    CHECK_OK(orma_type_dup(r, &d));
    check_bounds(d, -4, 32, 0, 24, 16);
    pos = 0;
    CHECK_ERR(orma_pack(vals, 1, d, out, sizeof out, &pos), ORMA_ERR_TYPE); /* r was not committed */
    CHECK_OK(orma_type_free(&d));
    CHECK_OK(orma_type_commit(&r));
    CHECK_OK(orma_type_dup(r, &d));
    memset(out, 0, sizeof out);
    CHECK_OK(orma_pack(vals, 1, d, out, sizeof out, &pos)); /* committed like r */
    CHECK(pos == 16 && out[0] == 0 && out[1] == 1 && out[2] == 4 && out[3] == 5);
    CHECK_OK(orma_type_free(&d));
    CHECK_OK(orma_type_free(&r));
    CHECK_OK(orma_type_free(&v));

    /* A predefined type is committed, so its duplicate is (MPI_Type_dup
     * keeps the committed state). */
    CHECK_OK(orma_type_dup(ORMA_DOUBLE_INT, &d));
    check_bounds(d, 0, (orma_aint)sizeof(struct orma_double_int), 0, (orma_aint)(sizeof(double) + sizeof(int)),
                 sizeof(double) + sizeof(int));
    pos = 0;
    int rc = orma_pack(vals, 1, d, out, sizeof out, &pos);
    if (rc != ORMA_SUCCESS)
        fprintf(stderr, "dtype_api: pack with the dup of ORMA_DOUBLE_INT (never committed) returned %d\n", rc);
    CHECK_OK(rc);
    CHECK_OK(orma_type_free(&d));
}

static void pack_errors(void)
{
    int vals[4] = {1, 2, 3, 4};
    unsigned char out[32];
    size_t pos = 0;
    orma_type u, c;

    CHECK_OK(orma_type_contiguous(2, ORMA_INT, &u)); /* never committed */
    CHECK_ERR(orma_pack(vals, 1, u, out, sizeof out, &pos), ORMA_ERR_TYPE);
    CHECK_ERR(orma_unpack(out, sizeof out, &pos, vals, 1, u), ORMA_ERR_TYPE);
    CHECK_ERR(orma_pack(vals, 1, NULL, out, sizeof out, &pos), ORMA_ERR_TYPE);
    CHECK_ERR(orma_unpack(out, sizeof out, &pos, vals, 1, NULL), ORMA_ERR_TYPE);
    c = committed(u);
    CHECK_ERR(orma_pack(vals, 1, c, out, sizeof out, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_unpack(out, sizeof out, NULL, vals, 1, c), ORMA_ERR_ARG);
    CHECK_ERR(orma_pack(NULL, 1, c, out, sizeof out, &pos), ORMA_ERR_ARG);
    CHECK_ERR(orma_pack(vals, 1, c, NULL, sizeof out, &pos), ORMA_ERR_ARG);
    CHECK_ERR(orma_unpack(NULL, sizeof out, &pos, vals, 1, c), ORMA_ERR_ARG);
    CHECK_ERR(orma_unpack(out, sizeof out, &pos, NULL, 1, c), ORMA_ERR_ARG);
    CHECK(pos == 0);

    /* does not fit: nothing written, position unchanged */
    memset(out, 0xAB, sizeof out);
    pos = 20;
    CHECK_ERR(orma_pack(vals, 2, c, out, 35, &pos), ORMA_ERR_COUNT);
    CHECK_ERR(orma_pack(vals, 1, c, out, 27, &pos), ORMA_ERR_COUNT);
    pos = 40;
    CHECK_ERR(orma_pack(vals, 0, c, out, 32, &pos), ORMA_ERR_COUNT);
    CHECK_ERR(orma_pack(vals, SIZE_MAX / 4, c, out, 32, &pos), ORMA_ERR_COUNT);
    CHECK(pos == 40);
    for (size_t i = 0; i < sizeof out; i++)
        CHECK(out[i] == 0xAB);
    pos = 24;
    CHECK_OK(orma_pack(vals, 1, c, out, 32, &pos));
    CHECK(pos == 32 && !memcmp(out + 24, vals, 8) && out[23] == 0xAB);
    pos = 25;
    CHECK_ERR(orma_unpack(out, 32, &pos, vals, 1, c), ORMA_ERR_COUNT);
    CHECK(pos == 25 && vals[0] == 1);
    /* nothing to move: NULL buffers are fine */
    pos = 3;
    CHECK_OK(orma_pack(NULL, 0, c, NULL, 3, &pos));
    CHECK_OK(orma_unpack(NULL, 3, &pos, NULL, 0, c));
    CHECK(pos == 3);
    CHECK_OK(orma_type_free(&c));
}

/* Resident set size in bytes, or 0 when /proc is not there. */
static size_t rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size = 0, resident = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%lu %lu", &size, &resident) != 2)
        resident = 0;
    fclose(f);
    return resident * 4096;
}

static void million_blocks(void)
{
    enum { N = 1000000, TYPES = 100 };
    orma_type v[TYPES];

    size_t before = rss_bytes();
    for (int i = 0; i < TYPES; i++) {
        CHECK_OK(orma_type_vector(N, 1 + (size_t)(i % 3), 4 + i, ORMA_DOUBLE, &v[i]));
        CHECK_OK(orma_type_commit(&v[i]));
    }
    size_t after = rss_bytes();
    /* One descriptor per block would be >= 16 MB per type. */
    if (before && after)
        CHECK(after < before + ((size_t)4 << 20));
    for (int i = 0; i < TYPES; i++)
        CHECK_OK(orma_type_free(&v[i]));

    orma_type t;
    CHECK_OK(orma_type_vector(N, 1, 2, ORMA_DOUBLE, &t));
    t = committed(t);
    check_bounds(t, 0, (orma_aint)(2 * (N - 1) + 1) * 8, 0, (orma_aint)(2 * (N - 1) + 1) * 8, (size_t)N * 8);
    CHECK(!is_contig(t, 1));
    double *in = malloc(sizeof(double) * 2 * N), *packed = malloc(sizeof(double) * N);
    CHECK(in && packed);
    for (size_t i = 0; i < 2 * (size_t)N; i++)
        in[i] = (double)i;
    size_t pos = 0;
    CHECK_OK(orma_pack(in, 1, t, packed, sizeof(double) * N, &pos));
    CHECK(pos == sizeof(double) * N);
    for (size_t i = 0; i < N; i++)
        CHECK(packed[i] == (double)(2 * i));
    for (size_t i = 0; i < 2 * (size_t)N; i++)
        in[i] = -1.0;
    pos = 0;
    CHECK_OK(orma_unpack(packed, sizeof(double) * N, &pos, in, 1, t));
    for (size_t i = 0; i < 2 * (size_t)N; i++)
        CHECK(in[i] == (i % 2 ? -1.0 : (double)i));
    free(in);
    free(packed);
    CHECK_OK(orma_type_free(&t));
}

int main(int argc, char **argv)
{
    CHECK_OK(orma_init(&argc, &argv));
    constructor_errors();
    overflow_errors();
    pack_errors();
    million_blocks();
    dtype_api_layouts();
    free_and_dup_rules();
    zero_counts();
    CHECK_OK(orma_finalize());
    return 0;
}
