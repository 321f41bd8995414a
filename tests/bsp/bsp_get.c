/* bsp_get.c -- bsp_get reads its source as it is at the END of the
 * superstep, lands at the sync, and is served before the puts of the same
 * superstep.
 *
 * Part 1, several supersteps: every process gets thousands of small pieces
 * (1..7 bytes) from every process (itself included), ~100 bytes from its
 * right neighbour, 1 MB from its left neighbour at odd offsets, a zero-byte
 * get and a piece of its own area.  After issuing its gets each process
 * waits a little and only then rewrites its whole source area with this
 * superstep's values: every getter must receive those (a get served at the
 * call would see the previous superstep's).  Before bsp_sync the
 * destinations must still hold their background, after it exactly the
 * bytes got, with guard bytes around them unchanged.
 *
 * Part 2: each process gets the whole of an area X from its right
 * neighbour q and, in the same superstep, puts into its own slot of q's X
 * (in either program order): the get must see the slot as it was before
 * the put; q rewrites another slot late in the superstep, and the get must
 * see that new value.
 *
 * Part 3: a get whose destination is in the getter's own registered area
 * and a put from another process to the same bytes, in one superstep: the
 * put lands after the get, so its bytes are what remains. */
#include "bsp_test.h"

enum {
    G = 64,
    STEPS = 3,
    NSMALL = 2400, /* small gets per process and superstep */
    LARGE = 1 << 20,
    XSLOT = 16,
    XSTEPS = 4
};

static int p, M;
static size_t SRC_RS, SRC_RL, SRC_SIZE;  /* the source area */
static size_t D0, DS, DL, DST_SIZE;      /* the destination buffer */

/* Get k of process r in superstep s: 0 when there is none, else the
 * process it reads, the source offset, length and destination offset. */
static int plan(int s, int r, int k, int *q, size_t *soff, size_t *len, size_t *doff)
{
    if (k < M * p) {
        int j = k / p;
        *q = k % p;
        *soff = SRC_RS + ((size_t)r * (size_t)M + (size_t)j) * 8 + (size_t)(j % 2);
        *len = 1 + (size_t)((j + s + *q) % 7);
        *doff = DS + ((size_t)*q * (size_t)M + (size_t)j) * 8;
        return 1;
    }
    switch (k - M * p) {
    case 0:
        *q = (r + 1) % p;
        *soff = 5 + (size_t)s;
        *len = 100 + 7 * (size_t)s;
        *doff = D0 + 2;
        return 1;
    case 1:
        *q = (r + 1) % p;
        *soff = 3;
        *len = 0;
        *doff = D0 + 150;
        return 1;
    case 2:
        *q = (r + p - 1) % p;
        *soff = SRC_RL + (size_t)s;
        *len = LARGE;
        *doff = DL + 3;
        return 1;
    case 3:
        *q = r;
        *soff = 300;
        *len = 77;
        *doff = D0 + 160;
        return 1;
    default:
        return 0;
    }
}

/* The source area of process q as it is at the end of superstep s. */
static unsigned src_seed(int s, int q)
{
    return bt_seed(BT_LATE, s, q, -1, 0);
}

static void part1(void)
{
    int me = bt_pid;
    unsigned char *sbuf = bt_alloc(SRC_SIZE + 2 * G), *src = sbuf + G;
    unsigned char *dbuf = bt_alloc(DST_SIZE + 2 * G), *dst = dbuf + G;
    unsigned char *want = bt_alloc(DST_SIZE + 2 * G);
    bt_guard(sbuf, G);
    bt_guard(src + SRC_SIZE, G);
    bt_fill(src, SRC_SIZE, bt_seed(BT_INIT, 0, me, 0, 0), 0);
    bt_guard(dbuf, G);
    bt_guard(dst + DST_SIZE, G);
    memcpy(want, dbuf, DST_SIZE + 2 * G);
    bsp_push_reg(src, (int)SRC_SIZE);
    bsp_sync();

    int nk = M * p + 4;
    for (int s = 0; s < STEPS; s++) {
        bt_fill(dst, DST_SIZE, bt_seed(BT_BG, s, -1, me, 0), 0);
        bt_fill(want + G, DST_SIZE, bt_seed(BT_BG, s, -1, me, 0), 0);
        for (int k = 0; k < nk; k++) {
            int q;
            size_t soff, len, doff;
            if (plan(s, me, k, &q, &soff, &len, &doff))
                bsp_get(q, src, (int)soff, dst + doff, (int)len);
        }
        CHECK_SAME(dbuf, want, DST_SIZE + 2 * G, "destination before bsp_sync (gets land at the sync)");
        /* the value at the end of the superstep is what the getters want */
        bt_sleep_ms(5);
        bt_fill(src, SRC_SIZE, src_seed(s, me), 0);
        bsp_sync();

        for (int k = 0; k < nk; k++) {
            int q;
            size_t soff, len, doff;
            if (plan(s, me, k, &q, &soff, &len, &doff))
                bt_fill(want + G + doff, len, src_seed(s, q), soff);
        }
        char what[96];
        snprintf(what, sizeof what, "destination after superstep %d (guard: first and last %d bytes)", s, G);
        CHECK_SAME(dbuf, want, DST_SIZE + 2 * G, what);
        /* the getters read the source; they never write it */
        CHECK_PATTERN(src, SRC_SIZE, src_seed(s, me), 0, "source area after the sync");
        unsigned char guard[G];
        bt_guard(guard, G);
        CHECK_SAME(sbuf, guard, G, "guard before the source area");
        CHECK_SAME(src + SRC_SIZE, guard, G, "guard after the source area");
    }
    bsp_pop_reg(src);
    bsp_sync();
    free(want);
    free(dbuf);
    free(sbuf);
}

/* Slot j of X on process q before any put: */
static unsigned x_init(int q, int j)
{
    return bt_seed(BT_INIT, 1, q, j, 0);
}

static void part2(void)
{
    int me = bt_pid, q = (me + 1) % p, left = (me + p - 1) % p;
    size_t xsize = (size_t)(p + 1) * XSLOT;
    unsigned char *xb = bt_alloc(xsize + 2 * G), *x = xb + G;
    unsigned char *gb = bt_alloc(xsize + 2 * G), *got = gb + G;
    unsigned char *want = bt_alloc(xsize + 2 * G);
    unsigned char data[XSLOT];
    bt_guard(xb, G);
    bt_guard(x + xsize, G);
    for (int j = 0; j <= p; j++)
        bt_fill(x + (size_t)j * XSLOT, XSLOT, x_init(me, j), 0);
    bt_guard(gb, G);
    bt_guard(got + xsize, G);
    bsp_push_reg(x, (int)xsize);
    bsp_sync();

    for (int t = 0; t < XSTEPS; t++) {
        bt_fill(got, xsize, bt_seed(BT_BG, t, -2, me, 0), 0);
        bt_fill(data, XSLOT, bt_seed(BT_DATA, t, me, q, 0), 0);
        if (t % 2 == 0) {
            bsp_get(q, x, 0, got, (int)xsize);
            bsp_put(q, data, x, me * XSLOT, XSLOT);
        } else {
            bsp_put(q, data, x, me * XSLOT, XSLOT);
            bsp_get(q, x, 0, got, (int)xsize);
        }
        memset(data, 0, sizeof data);
        bt_sleep_ms(3);
        bt_fill(x + (size_t)p * XSLOT, XSLOT, bt_seed(BT_LATE, t, me, -1, 0), 0);
        bsp_sync();

        /* what we got: q's X before this superstep's puts, with its late
         * slot as q left it at the end of the superstep */
        memcpy(want, gb, xsize + 2 * G);
        for (int j = 0; j < p; j++)
            bt_fill(want + G + (size_t)j * XSLOT, XSLOT,
                    j == me && t > 0 ? bt_seed(BT_DATA, t - 1, me, q, 0) : x_init(q, j), 0);
        bt_fill(want + G + (size_t)p * XSLOT, XSLOT, bt_seed(BT_LATE, t, q, -1, 0), 0);
        bt_guard(want, G);
        bt_guard(want + G + xsize, G);
        char what[96];
        snprintf(what, sizeof what, "X got from process %d in superstep %d (gets before puts)", q, t);
        CHECK_SAME(gb, want, xsize + 2 * G, what);

        /* our X: the left neighbour's put has landed in its slot */
        for (int j = 0; j < p; j++)
            bt_fill(want + G + (size_t)j * XSLOT, XSLOT, j == left ? bt_seed(BT_DATA, t, left, me, 0) : x_init(me, j), 0);
        bt_fill(want + G + (size_t)p * XSLOT, XSLOT, bt_seed(BT_LATE, t, me, -1, 0), 0);
        snprintf(what, sizeof what, "own X after superstep %d", t);
        CHECK_SAME(xb, want, xsize + 2 * G, what);
    }
    bsp_pop_reg(x);
    bsp_sync();
    free(want);
    free(gb);
    free(xb);
}

static void part3(void)
{
    int me = bt_pid, q = (me + 1) % p, left = (me + p - 1) % p;
    enum { ZS = 64 };
    unsigned char zb[G + ZS + G], want[G + ZS + G], data[16];
    unsigned char *z = zb + G;
    bt_guard(zb, sizeof zb);
    bt_fill(z, 32, bt_seed(BT_INIT, 3, me, 0, 0), 0);
    bsp_push_reg(z, ZS);
    bsp_sync();
    for (int t = 0; t < 2; t++) {
        bt_fill(z + 32, 32, bt_seed(BT_BG, t, -3, me, 0), 0);
        memcpy(want, zb, sizeof zb);
        bt_fill(data, 16, bt_seed(BT_DATA, t, me, q, 3), 0);
        if (t == 0) {
            bsp_get(q, z, 0, z + 32, 16);
            bsp_put(q, data, z, 32, 16);
        } else {
            bsp_put(q, data, z, 32, 16);
            bsp_get(q, z, 0, z + 32, 16);
        }
        bsp_get(q, z, 0, z + 48, 16);
        memset(data, 0, sizeof data);
        bsp_sync();
        bt_fill(want + G + 32, 16, bt_seed(BT_DATA, t, left, me, 3), 0);
        bt_fill(want + G + 48, 16, bt_seed(BT_INIT, 3, q, 0, 0), 0);
        CHECK_SAME(zb, want, sizeof zb, "area that a get and a put both wrote (the put lands last)");
    }
    bsp_pop_reg(z);
    bsp_sync();
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    bt_pid = bsp_pid();
    p = bsp_nprocs();
    M = NSMALL / p;
    SRC_RS = 512;
    SRC_RL = SRC_RS + (size_t)p * (size_t)M * 8 + 8;
    SRC_SIZE = SRC_RL + LARGE + 8;
    D0 = 0;
    DS = 256;
    DL = DS + (size_t)p * (size_t)M * 8 + 8;
    DST_SIZE = DL + LARGE + 8;
    part1();
    part2();
    part3();
    bsp_end();
    return 0;
}
