/* put_get_typed.c -- typed put and get between different layouts, on every
 * window flavour, under fence and lock: the target must hold exactly the
 * origin's data in typemap order at exactly the bytes the target layout
 * names, with every other byte of the window untouched; a typed get must
 * fill exactly the origin layout's bytes.  The expected images come from
 * orma_pack/orma_unpack, which tests/dtype checks against a naive typemap
 * expansion.  At one rank every rank targets itself. */
#include "sync_test.h"

#include <stdio.h>

enum { WBYTES = 4096, AT = 1000 }; /* the target layout's origin, in bytes */

static int rank, nranks;

struct layout_pair {
    const char *name;
    orma_type o, t;   /* origin and target layouts */
    size_t ocount, tcount;
};

static void build(struct layout_pair *p, int which)
{
    orma_type a = NULL, b = NULL, tmp = NULL;
    switch (which) {
    case 0: /* strided ints into a differently strided layout, same 30 ints */
        p->name = "vector -> vector";
        CHECK_OK(orma_type_vector(10, 3, 5, ORMA_INT, &a));
        CHECK_OK(orma_type_vector(6, 5, 9, ORMA_INT, &b));
        p->ocount = p->tcount = 1;
        break;
    case 1: /* negative stride at the target: reaches below the displacement */
        p->name = "contiguous -> negative hvector";
        CHECK_OK(orma_type_contiguous(24, ORMA_DOUBLE, &a));
        CHECK_OK(orma_type_hvector(8, 3, -40, ORMA_DOUBLE, &b));
        p->ocount = p->tcount = 1;
        break;
    case 2: { /* indexed blocks into a subarray, two elements each side */
        p->name = "indexed x2 -> subarray x2";
        size_t bl[3] = {2, 5, 5};
        orma_aint d[3] = {7, 0, 20};
        CHECK_OK(orma_type_indexed(3, bl, d, ORMA_SHORT, &a));
        size_t sizes[2] = {6, 8}, subs[2] = {3, 4}, st[2] = {2, 1};
        CHECK_OK(orma_type_subarray(2, sizes, subs, st, ORMA_ORDER_FORTRAN, ORMA_SHORT, &tmp));
        CHECK_OK(orma_type_resized(tmp, 0, 64, &b)); /* two elements 64 bytes apart, not overlapping */
        CHECK_OK(orma_type_free(&tmp));
        p->ocount = p->tcount = 2;
        break;
    }
    case 3: /* two long runs far apart: a get from private memory takes the iovecs, not one read of the span */
        p->name = "contiguous -> sparse long runs";
        CHECK_OK(orma_type_contiguous(300, ORMA_INT, &a));
        CHECK_OK(orma_type_hvector(2, 600, 2400, ORMA_BYTE, &b));
        p->ocount = p->tcount = 1;
        break;
    default: { /* struct with holes into bytes, and a pair type with padding */
        p->name = "struct -> predefined bytes";
        size_t bl[3] = {1, 2, 1};
        orma_aint d[3] = {0, 8, 30};
        orma_type ts[3] = {ORMA_CHAR, ORMA_DOUBLE, ORMA_DOUBLE_INT};
        CHECK_OK(orma_type_struct(3, bl, d, ts, &a));
        CHECK_OK(orma_type_dup(ORMA_BYTE, &b));
        p->ocount = 3;
        p->tcount = 3 * (1 + 16 + 12);
        break;
    }
    }
    CHECK_OK(orma_type_commit(&a));
    CHECK_OK(orma_type_commit(&b));
    p->o = a;
    p->t = b;
}

/* The window image after the data of (src, ocount, o) lands at AT in
 * layout (tcount, t) of a background window. */
static void expect_put(const struct layout_pair *p, const unsigned char *src, unsigned char *want)
{
    size_t osize;
    CHECK_OK(orma_type_size(p->o, &osize));
    size_t n = osize * p->ocount, pos = 0;
    unsigned char *packed = malloc(n ? n : 1);
    CHECK(packed != NULL);
    CHECK_OK(orma_pack(src, p->ocount, p->o, packed, n, &pos));
    rt_fill_bg(want, WBYTES);
    pos = 0;
    CHECK_OK(orma_unpack(packed, n, &pos, want + AT, p->tcount, p->t));
    free(packed);
}

static void run(int kind, int pair, int use_lock)
{
    struct layout_pair p;
    build(&p, pair);
    struct st_win w;
    st_win_open(&w, kind, WBYTES);
    int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
    unsigned seed = (unsigned)(kind * 100 + pair * 10 + use_lock);

    /* put: rank r writes its origin buffer into rank rt */
    unsigned char *src = malloc(WBYTES), *want = malloc(WBYTES), *got = malloc(WBYTES);
    CHECK(src && want && got);
    rt_fill_data(src, WBYTES, seed + (unsigned)rank, 0);
    rt_fill_bg(w.mem, WBYTES);
    CHECK_OK(orma_barrier());
    if (use_lock) {
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, w.win));
        CHECK_OK(orma_put_typed(src + 512, p.ocount, p.o, rt, st_disp(&w, rt, AT), p.tcount, p.t, w.win));
        CHECK_OK(orma_win_unlock(rt, w.win));
        CHECK_OK(orma_barrier());
    } else {
        CHECK_OK(orma_win_fence(0, w.win));
        CHECK_OK(orma_put_typed(src + 512, p.ocount, p.o, rt, st_disp(&w, rt, AT), p.tcount, p.t, w.win));
        CHECK_OK(orma_win_fence(0, w.win));
    }
    rt_fill_data(src, WBYTES, seed + (unsigned)lt, 0); /* what lt sent us */
    expect_put(&p, src + 512, want);
    for (size_t i = 0; i < WBYTES; i++)
        if (w.mem[i] != want[i]) {
            fprintf(stderr, "rank %d: %s, %s, %s: put: window byte %zu is 0x%02x, expected 0x%02x\n", rank,
                    st_kind_names[kind], p.name, use_lock ? "lock" : "fence", i, w.mem[i], want[i]);
            exit(1);
        }

    /* get: the window now holds that image; read it back into the origin
     * layout of a background buffer */
    rt_fill_bg(got, WBYTES);
    if (use_lock) {
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, lt, 0, w.win));
        CHECK_OK(orma_get_typed(got + 512, p.ocount, p.o, lt, st_disp(&w, lt, AT), p.tcount, p.t, w.win));
        CHECK_OK(orma_win_unlock(lt, w.win));
    } else {
        CHECK_OK(orma_get_typed(got + 512, p.ocount, p.o, lt, st_disp(&w, lt, AT), p.tcount, p.t, w.win));
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w.win));
    }
    /* rank lt's window holds what lt - 1 sent; its origin layout bytes are
     * exactly that origin's data, every other byte our background */
    unsigned char *sent = malloc(WBYTES);
    CHECK(sent != NULL);
    rt_fill_data(sent, WBYTES, seed + (unsigned)((lt + nranks - 1) % nranks), 0);
    size_t osize, pos = 0;
    CHECK_OK(orma_type_size(p.o, &osize));
    unsigned char *packed = malloc(osize * p.ocount + 1);
    CHECK(packed != NULL);
    CHECK_OK(orma_pack(sent + 512, p.ocount, p.o, packed, osize * p.ocount, &pos));
    rt_fill_bg(want, WBYTES);
    pos = 0;
    CHECK_OK(orma_unpack(packed, osize * p.ocount, &pos, want + 512, p.ocount, p.o));
    for (size_t i = 0; i < WBYTES; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "rank %d: %s, %s, %s: get: buffer byte %zu is 0x%02x, expected 0x%02x\n", rank,
                    st_kind_names[kind], p.name, use_lock ? "lock" : "fence", i, got[i], want[i]);
            exit(1);
        }
    CHECK_OK(orma_barrier());
    free(packed);
    free(sent);
    free(src);
    free(want);
    free(got);
    st_win_close(&w);
    CHECK_OK(orma_type_free(&p.o));
    CHECK_OK(orma_type_free(&p.t));
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    for (int kind = 0; kind < ST_NKINDS; kind++)
        for (int pair = 0; pair < 5; pair++)
            for (int lock = 0; lock < 2; lock++)
                run(kind, pair, lock);
    CHECK_OK(orma_finalize());
    return 0;
}
