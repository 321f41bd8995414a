/* bsp_hp.c -- bsp_hpput and bsp_hpget: after bsp_sync every byte has
 * arrived, exactly where it was addressed, and nothing around it changed.
 * Nothing is claimed before the sync, so the rules of the unbuffered calls
 * are kept: a source is not changed and a remote area is not touched by its
 * owner until the sync.  An extra superstep separates rewriting the areas
 * from the next round of transfers.
 *
 * Each round every process hpputs to every process (itself included)
 * hundreds of small pieces and ~20 KB, and 1 MB to its right neighbour, and
 * hpgets the same kinds of pieces from every process and 1 MB from its left
 * neighbour; plus buffered puts into another part of the same area in the
 * same supersteps.  Values differ per round, source and destination.
 *
 * Then chains of supersteps: one with nothing but thousands of small
 * bsp_puts into the right neighbour's area, the next with bsp_hpget (of
 * 32 KB and of 64 bytes) of those very bytes and a 4 KB bsp_hpput over
 * part of them, and a buffered get of them: the hp calls of a superstep
 * must see, and come after, the puts of the one before, on every process
 * however far ahead of its neighbour it runs. */
#include "bsp_test.h"

enum {
    G = 64,
    ROUNDS = 3,
    NSMALL = 800,
    MED = 20000,
    LARGE = 1 << 20
};

static int p, M;
/* the registered area: what hpputs write, what bsp_puts write, what hpgets read */
static size_t A_PUT, A_SMALL, A_MED, A_LARGE, A_BPUT, A_SRC, A_SIZE;
/* the local buffer hpgets write */
static size_t B_SMALL, B_MED, B_LARGE, B_SIZE;

static unsigned put_seed(int round, int r, int q, int k)
{
    return bt_seed(BT_DATA, round, r, q, k);
}

/* the readable part of process q's area in round `round` */
static unsigned src_seed(int round, int q)
{
    return bt_seed(BT_LATE, round, q, -1, 0);
}

enum { NCHAIN = 4000, CHAIN_ROUNDS = 8, HP_AT = 9000, HP_N = 4096 }; /* HP_AT, HP_N: multiples of 8 */

static void chains(void)
{
    int me = bt_pid, right = (me + 1) % p, left = (me + p - 1) % p;
    size_t csize = (size_t)NCHAIN * 8;
    unsigned char *cbuf = bt_alloc(csize + 2 * G), *c = cbuf + G;
    unsigned char *want = bt_alloc(csize + 2 * G);
    unsigned char *got = bt_alloc(csize + 2 * G), *got_want = bt_alloc(csize + 2 * G);
    unsigned char *hp_src = bt_alloc(HP_N), small[64], gb[G + 64 + G], gb_want[G + 64 + G];
    unsigned char piece[8];
    bt_guard(cbuf, csize + 2 * G);
    bsp_push_reg(c, (int)csize);
    bsp_sync();
    for (int round = 0; round < CHAIN_ROUNDS; round++) {
        /* small puts only: each 8-byte slot of the right neighbour's area */
        for (int k = 0; k < NCHAIN; k++) {
            bt_fill(piece, 8, bt_seed(BT_DATA, round, me, right, k), 0);
            bsp_put(right, piece, c, k * 8, 8);
        }
        bsp_sync();
        /* what this process put there, read back at once, and overwritten
         * in part */
        bt_guard(got, csize + 2 * G);
        bt_guard(gb, sizeof gb);
        /* (not the bytes the hpput below writes: no order between the two) */
        bsp_hpget(right, c, 0, got + G, HP_AT);
        bsp_hpget(right, c, HP_AT + HP_N, got + G + HP_AT + HP_N, (int)csize - HP_AT - HP_N);
        bsp_hpget(right, c, 8 * (NCHAIN - 8), small, 64);
        bt_fill(hp_src, HP_N, bt_seed(BT_LATE, round, me, right, 0), 0);
        bsp_hpput(right, hp_src, c, HP_AT, HP_N);
        bsp_get(right, c, 8, gb + G, 64);
        bsp_sync();
        bt_guard(got_want, csize + 2 * G);
        for (int k = 0; k < NCHAIN; k++)
            if ((size_t)k * 8 + 8 <= HP_AT || (size_t)k * 8 >= HP_AT + HP_N)
                bt_fill(got_want + G + (size_t)k * 8, 8, bt_seed(BT_DATA, round, me, right, k), 0);
        CHECK_SAME(got, got_want, csize + 2 * G, "bsp_hpget of the bytes put in the superstep before");
        CHECK_SAME(small, got_want + G + 8 * (NCHAIN - 8), 64, "64-byte bsp_hpget of the bytes put before");
        bt_guard(gb_want, sizeof gb_want);
        for (int k = 1; k <= 8; k++)
            bt_fill(gb_want + G + (size_t)(k - 1) * 8, 8, bt_seed(BT_DATA, round, me, right, k), 0);
        CHECK_SAME(gb, gb_want, sizeof gb, "bsp_get of the bytes put in the superstep before");
        /* our own area: the left neighbour's puts, then its hpput */
        bt_guard(want, csize + 2 * G);
        for (int k = 0; k < NCHAIN; k++)
            bt_fill(want + G + (size_t)k * 8, 8, bt_seed(BT_DATA, round, left, me, k), 0);
        bt_fill(want + G + HP_AT, HP_N, bt_seed(BT_LATE, round, left, me, 0), 0);
        CHECK_SAME(cbuf, want, csize + 2 * G, "area after small puts and then a bsp_hpput");
    }
    bsp_pop_reg(c);
    bsp_sync();
    free(hp_src);
    free(got_want);
    free(got);
    free(want);
    free(cbuf);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    bt_pid = bsp_pid();
    p = bsp_nprocs();
    int me = bt_pid, right = (me + 1) % p, left = (me + p - 1) % p;
    M = NSMALL / p;
    A_PUT = 0;
    A_SMALL = A_PUT;
    A_MED = A_SMALL + (size_t)p * (size_t)M * 8 + 8;
    A_LARGE = A_MED + (size_t)p * (MED + 16);
    A_BPUT = A_LARGE + LARGE + 16;
    A_SRC = A_BPUT + (size_t)p * 64;
    A_SIZE = A_SRC + LARGE + 16;
    B_SMALL = 0;
    B_MED = (size_t)p * (size_t)M * 8 + 8;
    B_LARGE = B_MED + (size_t)p * (MED + 16);
    B_SIZE = B_LARGE + LARGE + 16;

    unsigned char *abuf = bt_alloc(A_SIZE + 2 * G), *area = abuf + G;
    unsigned char *bbuf = bt_alloc(B_SIZE + 2 * G), *got = bbuf + G;
    unsigned char *want = bt_alloc((A_SIZE > B_SIZE ? A_SIZE : B_SIZE) + 2 * G);
    /* sources of the hpputs, one per piece: none may change before the sync */
    unsigned char *small_src = bt_alloc((size_t)p * (size_t)M * 8);
    unsigned char *med_src = bt_alloc((size_t)p * MED);
    unsigned char *large_src = bt_alloc(LARGE);
    unsigned char bput_src[64];
    bt_guard(abuf, G);
    bt_guard(area + A_SIZE, G);
    bt_guard(bbuf, G);
    bt_guard(got + B_SIZE, G);
    bsp_push_reg(area, (int)A_SIZE);

    for (int round = 0; round < ROUNDS; round++) {
        /* superstep 1: the round's background and sources, nothing moves */
        bt_fill(area, A_SRC, bt_seed(BT_BG, round, -1, me, 0), 0);
        bt_fill(area + A_SRC, A_SIZE - A_SRC, src_seed(round, me), A_SRC);
        bt_fill(got, B_SIZE, bt_seed(BT_BG, round, -2, me, 0), 0);
        bsp_sync();

        /* superstep 2: the transfers */
        for (int j = 0; j < M; j++)
            for (int q = 0; q < p; q++) {
                unsigned char *s = small_src + ((size_t)q * (size_t)M + (size_t)j) * 8;
                size_t len = 1 + (size_t)((j + q + round) % 8);
                bt_fill(s, len, put_seed(round, me, q, j), 0);
                bsp_hpput(q, s, area, (int)(A_SMALL + ((size_t)me * (size_t)M + (size_t)j) * 8), (int)len);
                /* hpget: piece j of process q's readable part */
                size_t soff = A_SRC + ((size_t)me * (size_t)M + (size_t)j) * 8 + (size_t)(j % 3);
                bsp_hpget(q, area, (int)soff, got + B_SMALL + ((size_t)q * (size_t)M + (size_t)j) * 8,
                          (int)(1 + (j + round) % 6));
            }
        for (int q = 0; q < p; q++) {
            size_t len = MED - (size_t)q - (size_t)round;
            bt_fill(med_src + (size_t)q * MED, len, put_seed(round, me, q, -1), 0);
            bsp_hpput(q, med_src + (size_t)q * MED, area, (int)(A_MED + (size_t)me * (MED + 16) + (size_t)round),
                      (int)len);
            bsp_hpget(q, area, (int)(A_SRC + 1000 * (size_t)me + (size_t)q), got + B_MED + (size_t)q * (MED + 16) + 1,
                      (int)(MED - (size_t)me));
            /* buffered puts beside them; the source changes at once */
            bt_fill(bput_src, 64, put_seed(round, me, q, -3), 0);
            bsp_put(q, bput_src, area, (int)(A_BPUT + (size_t)me * 64 + 1), 63 - round);
            memset(bput_src, 0, sizeof bput_src);
        }
        bt_fill(large_src, LARGE, put_seed(round, me, right, -2), 0);
        bsp_hpput(right, large_src, area, (int)(A_LARGE + 5 + (size_t)round), LARGE - 7);
        bsp_hpget(left, area, (int)(A_SRC + 3), got + B_LARGE + 7, LARGE - 9);
        bsp_sync();

        /* the area: background plus what every process hpput and put */
        bt_guard(want, G);
        bt_fill(want + G, A_SRC, bt_seed(BT_BG, round, -1, me, 0), 0);
        bt_fill(want + G + A_SRC, A_SIZE - A_SRC, src_seed(round, me), A_SRC);
        bt_guard(want + G + A_SIZE, G);
        for (int r = 0; r < p; r++) {
            for (int j = 0; j < M; j++)
                bt_fill(want + G + A_SMALL + ((size_t)r * (size_t)M + (size_t)j) * 8, 1 + (size_t)((j + me + round) % 8),
                        put_seed(round, r, me, j), 0);
            bt_fill(want + G + A_MED + (size_t)r * (MED + 16) + (size_t)round, MED - (size_t)me - (size_t)round,
                    put_seed(round, r, me, -1), 0);
            bt_fill(want + G + A_BPUT + (size_t)r * 64 + 1, 63 - (size_t)round, put_seed(round, r, me, -3), 0);
        }
        bt_fill(want + G + A_LARGE + 5 + (size_t)round, LARGE - 7, put_seed(round, left, me, -2), 0);
        char what[96];
        snprintf(what, sizeof what, "area after round %d (hpput, put)", round);
        CHECK_SAME(abuf, want, A_SIZE + 2 * G, what);

        /* what the hpgets brought */
        bt_guard(want, G);
        bt_fill(want + G, B_SIZE, bt_seed(BT_BG, round, -2, me, 0), 0);
        bt_guard(want + G + B_SIZE, G);
        for (int q = 0; q < p; q++) {
            for (int j = 0; j < M; j++) {
                size_t soff = A_SRC + ((size_t)me * (size_t)M + (size_t)j) * 8 + (size_t)(j % 3);
                bt_fill(want + G + B_SMALL + ((size_t)q * (size_t)M + (size_t)j) * 8, 1 + (size_t)((j + round) % 6),
                        src_seed(round, q), soff);
            }
            bt_fill(want + G + B_MED + (size_t)q * (MED + 16) + 1, MED - (size_t)me, src_seed(round, q),
                    A_SRC + 1000 * (size_t)me + (size_t)q);
        }
        bt_fill(want + G + B_LARGE + 7, LARGE - 9, src_seed(round, left), A_SRC + 3);
        snprintf(what, sizeof what, "hpget destination after round %d", round);
        CHECK_SAME(bbuf, want, B_SIZE + 2 * G, what);
    }
    bsp_pop_reg(area);
    bsp_sync();
    chains();
    free(large_src);
    free(med_src);
    free(small_src);
    free(want);
    free(bbuf);
    free(abuf);
    bsp_end();
    return 0;
}
