/* bsp_put.c -- bsp_put's buffered semantics over several supersteps.
 *
 * Each superstep every process puts, to every process (itself included):
 * thousands of small puts of 1..8 bytes into slots of 8 (the slot's other
 * bytes must keep the background), a medium put of ~40 KB, and to its right
 * neighbour a put of ~50-90 bytes, a zero-byte put and a 1 MB put at an odd
 * offset, plus one put to itself.  The source buffer is overwritten right
 * after every bsp_put: the target must receive what it held at the call.
 * Before bsp_sync each process checks that its own area still holds the
 * background of the superstep (no put lands early); after it, the whole
 * area, and the guard bytes around it, must equal the image computed from
 * what every source put.  Data, background and offsets differ per
 * superstep, source and destination.
 *
 * A last superstep floods the right neighbour with 50000 puts of 1..8
 * bytes (more small puts than one origin can hand a target in a single
 * batch, whatever the library's buffers) while every process also gets a
 * few small puts from every process. */
#include "bsp_test.h"

enum {
    G = 64,           /* guard bytes before and after the area */
    STEPS = 3,
    NSMALL = 2400,    /* small puts per process and superstep */
    R0 = 0,           /* neighbour, self and zero-byte puts */
    R0_SIZE = 256,
    LARGE = 1 << 20,
    MEDIUM = 40000,   /* + source */
    MEDIUM_SLOT = 48000,
    NFLOOD = 50000    /* 8-byte slots: fits the 1 MB region */
};

static int p, M;       /* M: small puts per (source, destination) */
static size_t RS, RL, RM, AREA;

/* Put k of source r to destination q in superstep s: 0 when there is
 * none, else its offset and length (the data is bt_seed(BT_DATA, s, r,
 * q, k)'s pattern from 0). */
static int plan(int s, int r, int q, int k, size_t *off, size_t *len)
{
    int right = (r + 1) % p;
    if (k < M) {
        *off = RS + ((size_t)r * (size_t)M + (size_t)k) * 8;
        *len = 1 + (size_t)((k + s + r) % 8);
        return 1;
    }
    switch (k - M) {
    case 0:
        if (q != right)
            return 0;
        *off = R0 + 3 + 7 * (size_t)s;
        *len = 41 + 13 * (size_t)s;
        return 1;
    case 1:
        if (q != r)
            return 0;
        *off = R0 + 128 + (size_t)s;
        *len = 50 + (size_t)s;
        return 1;
    case 2:
        if (q != right)
            return 0;
        *off = R0 + 200;
        *len = 0;
        return 1;
    case 3:
        if (q != right)
            return 0;
        *off = RL + 1 + (size_t)s;
        *len = LARGE;
        return 1;
    case 4:
        *off = RM + (size_t)r * MEDIUM_SLOT + 3 * (size_t)s;
        *len = MEDIUM + (size_t)r + (size_t)q;
        return 1;
    default:
        return 0;
    }
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    bt_pid = bsp_pid();
    p = bsp_nprocs();
    int me = bt_pid;
    M = NSMALL / p;
    RS = R0 + R0_SIZE;
    RL = RS + (size_t)p * (size_t)M * 8 + 8;
    RM = RL + LARGE + 16;
    AREA = RM + (size_t)p * MEDIUM_SLOT + 8;
    int nk = M + 5;

    unsigned char *buf = bt_alloc(AREA + 2 * G), *area = buf + G;
    unsigned char *want = bt_alloc(AREA + 2 * G);
    unsigned char *src = bt_alloc(LARGE);
    bt_guard(buf, G);
    bt_guard(buf + G + AREA, G);
    memcpy(want, buf, AREA + 2 * G);
    bsp_push_reg(area, (int)AREA);
    bsp_sync();

    for (int s = 0; s < STEPS; s++) {
        /* this superstep's background; what lands on top of it comes at
         * the sync */
        bt_fill(area, AREA, bt_seed(BT_BG, s, -1, me, 0), 0);
        bt_fill(want + G, AREA, bt_seed(BT_BG, s, -1, me, 0), 0);

        for (int k = 0; k < nk; k++)
            for (int q = 0; q < p; q++) {
                size_t off, len;
                if (!plan(s, me, q, k, &off, &len))
                    continue;
                bt_fill(src, len, bt_seed(BT_DATA, s, me, q, k), 0);
                bsp_put(q, src, area, (int)off, (int)len);
                /* read during the call: what comes now must not arrive */
                bt_fill(src, len > 64 ? len : 64, bt_seed(BT_JUNK, s, me, q, k), 0);
            }
        /* nothing has landed here yet, and nothing outside the area ever */
        CHECK_SAME(buf, want, AREA + 2 * G, "area before bsp_sync (puts must land at the sync)");
        bsp_sync();

        for (int r = 0; r < p; r++)
            for (int k = 0; k < nk; k++) {
                size_t off, len;
                if (plan(s, r, me, k, &off, &len))
                    bt_fill(want + G + off, len, bt_seed(BT_DATA, s, r, me, k), 0);
            }
        char what[80];
        snprintf(what, sizeof what, "area after superstep %d (guard: first and last %d bytes)", s, G);
        CHECK_SAME(buf, want, AREA + 2 * G, what);
    }

    /* the flood */
    int s = STEPS;
    bt_fill(area, AREA, bt_seed(BT_BG, s, -1, me, 0), 0);
    bt_fill(want + G, AREA, bt_seed(BT_BG, s, -1, me, 0), 0);
    for (int k = 0; k < NFLOOD; k++) {
        size_t len = 1 + (size_t)((k * 7 + me) % 8);
        bt_fill(src, len, bt_seed(BT_DATA, s, me, -1, k), 0);
        bsp_put((me + 1) % p, src, area, (int)(RL + (size_t)k * 8), (int)len);
        bt_fill(src, 8, bt_seed(BT_JUNK, s, me, -1, k), 0);
        if (k % 500 == 0 && k / 500 < M)
            for (int q = 0; q < p; q++) {
                bt_fill(src, 8, bt_seed(BT_DATA, s, me, q, k), 0);
                bsp_put(q, src, area, (int)(RS + ((size_t)me * (size_t)M + (size_t)(k / 500)) * 8), 8);
                bt_fill(src, 8, bt_seed(BT_JUNK, s, me, q, k), 0);
            }
    }
    CHECK_SAME(buf, want, AREA + 2 * G, "area before the sync of the flood");
    bsp_sync();
    int left = (me + p - 1) % p;
    for (int k = 0; k < NFLOOD; k++) {
        bt_fill(want + G + RL + (size_t)k * 8, 1 + (size_t)((k * 7 + left) % 8), bt_seed(BT_DATA, s, left, -1, k), 0);
        if (k % 500 == 0 && k / 500 < M)
            for (int r = 0; r < p; r++)
                bt_fill(want + G + RS + ((size_t)r * (size_t)M + (size_t)(k / 500)) * 8, 8, bt_seed(BT_DATA, s, r, me, k),
                        0);
    }
    CHECK_SAME(buf, want, AREA + 2 * G, "area after the flood of small puts");

    bsp_pop_reg(area);
    bsp_sync();
    free(src);
    free(want);
    free(buf);
    bsp_end();
    return 0;
}
