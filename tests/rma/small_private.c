/* small_private.c -- small puts to windows on private memory the peers
 * cannot map (a malloc'd block and a stack array less than a page long,
 * the end fragments of a window of whole pages besides): in fence and PSCW
 * epochs small puts travel through the target's boxes and land when it
 * closes the epoch (rma_box.h).  Checked at 1-4 ranks:
 *
 *   - every rank puts a slot of every target's window in one-byte to
 *     three-byte pieces, many more than one box holds (the origin then
 *     writes them itself): first wrong bytes, then -- after a piece of 300
 *     bytes (larger than a box takes with ORMA_BOX_MAX=256), of the right
 *     bytes at the slot's end -- the right
 *     ones, so the puts must land in the order issued; then closes with a
 *     fence, PSCW (wait, or test until done) or a fence with NOSUCCEED;
 *   - each rank checks its own window after the closing call, and the
 *     window of its right neighbour by gets (many short ones, then one
 *     long; or, every third group of rounds, short ones alone, the last of
 *     which complete only at the closing call) in the next epoch -- fence,
 *     PSCW, a lock or a lock_all epoch -- which must see what a third rank
 *     put there in the epoch before;
 *   - ping-pong by fence: each epoch one rank puts, the others check;
 *   - the bytes around each window (the rest of its malloc'd block, the
 *     stack array's guards) never change.
 *
 * Run with ORMA_BOX=0, ORMA_EAGER=0 and ORMA_BOX_MAX=256 too
 * (tests/rma/CMakeLists.txt). */
#include "rt_slots.h"

#include <stdlib.h>
#include <string.h>

enum { WIN = SLOTS_WIN, ROUNDS = 24, BIG = 300 };

/* from[0, len) to our slot at t, in pieces of 1..3 bytes. */
static void put_pieces(orma_win win, int t, const unsigned char *from, size_t len, unsigned step)
{
    size_t at = slot_at(rank);
    for (size_t off = 0; off < len; step++) {
        size_t n = 1 + step % 3 < len - off ? 1 + step % 3 : len - off;
        CHECK_OK(orma_put(from + off, n, ORMA_BYTE, t, (orma_aint)(at + off), n, ORMA_BYTE, win));
        off += n;
    }
}

/* Our slot of target t in round k: wrong bytes in pieces; then the last
 * BIG bytes right in one put (a system call, or a copy to mapped pages),
 * when the slot is longer; then the rest right in pieces. */
static void put_slot(orma_win win, int t, int k, unsigned char *src, unsigned char *junk)
{
    size_t at = slot_at(rank), len = slot_len();
    rt_fill_data(src, len, seed_of(k, rank), at);
    rt_fill_data(junk, len, seed_of(k, rank) + 1000, at);
    put_pieces(win, t, junk, len, (unsigned)(k + t));
    if (len > BIG) {
        CHECK_OK(orma_put(src + len - BIG, BIG, ORMA_BYTE, t, (orma_aint)(at + len - BIG), BIG, ORMA_BYTE, win));
        len -= BIG;
    }
    put_pieces(win, t, src, len, (unsigned)(k + t + 1));
}

/* All of target t's window, into dst (checked once the epoch is over): its
 * first 400 bytes in gets of 1..3 bytes (more than the origin gathers, or
 * its box holds, at once), the rest in one; or (all_small) the whole of
 * it in such gets, the last of which then wait in the box or the gather
 * for the epoch's closing call. */
static void get_all(orma_win win, int t, unsigned char *dst, int all_small)
{
    size_t small = all_small ? WIN : 400;
    memset(dst, 0, WIN);
    for (size_t off = 0, step = (size_t)t; off < small; step++) {
        size_t n = 1 + step % 3 < small - off ? 1 + step % 3 : small - off;
        CHECK_OK(orma_get(dst + off, n, ORMA_BYTE, t, (orma_aint)off, n, ORMA_BYTE, win));
        off += n;
    }
    if (small < WIN)
        CHECK_OK(orma_get(dst + small, WIN - small, ORMA_BYTE, t, (orma_aint)small, WIN - small, ORMA_BYTE, win));
}

/* Ping-pong by fence: in epoch e only rank e % n puts, 8 bytes to each of
 * the others, which check them right after the fence -- an origin then
 * puts again while the target may still be emptying its boxes of the
 * epoch before (rma_box.h: it must wait for that). */
static void turns(orma_win win, unsigned char *w)
{
    enum { TURNS = 3000 };
    CHECK_OK(orma_win_fence(0, win));
    for (int e = 0; e < TURNS; e++) {
        int who = e % nranks;
        unsigned char v[8];
        for (int j = 0; j < 8; j++)
            v[j] = (unsigned char)(e * 8 + j + 1);
        if (rank == who)
            for (int t = 0; t < nranks; t++)
                if (t != rank)
                    CHECK_OK(orma_put(v, 8, ORMA_BYTE, t, 8 * who, 8, ORMA_BYTE, win));
        CHECK_OK(orma_win_fence(0, win));
        if (rank != who)
            for (int j = 0; j < 8; j++)
                if (w[8 * who + j] != v[j])
                    rt_fail(__FILE__, __LINE__, "a ping-pong put", (size_t)(8 * who + j), w[8 * who + j], v[j]);
    }
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
}

/* One window of size bytes (the slots in its first WIN) at w; rounds of
 * puts closed by each kind of call. */
static void run(unsigned char *w, size_t size, const char *name)
{
    orma_win win;
    CHECK_OK(orma_win_create(w, size, 1, ORMA_INFO_NULL, &win));
    orma_group all;
    CHECK_OK(orma_win_get_group(win, &all));
    unsigned char *src = malloc(3 * WIN), *junk = src + WIN, *got = junk + WIN;
    CHECK(src);
    int right = (rank + 1) % nranks;
    CHECK_OK(orma_win_fence(0, win));
    for (int k = 0; k < ROUNDS; k++) {
        int how = k % 4; /* 0 fence, 1 PSCW with wait, 2 PSCW with test, 3 fence NOSUCCEED */
        if (how == 1 || how == 2) {
            CHECK_OK(orma_win_post(all, 0, win));
            CHECK_OK(orma_win_start(all, 0, win));
        }
        for (int t = 0; t < nranks; t++)
            put_slot(win, t, k, src, junk);
        if (how == 0) {
            CHECK_OK(orma_win_fence(0, win));
        } else if (how == 3) {
            CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
        } else {
            CHECK_OK(orma_win_complete(win));
            if (how == 1) {
                CHECK_OK(orma_win_wait(win));
            } else {
                int flag = 0;
                while (!flag)
                    CHECK_OK(orma_win_test(win, &flag));
            }
        }
        /* The right neighbour's window in the next epoch, every slot of
         * which another rank (for 3 or more) wrote in the epoch before --
         * at once, while it may still be emptying its boxes.  Our own
         * window while that epoch is open: it only reads. */
        if (how == 0) {
            get_all(win, right, got, (k / 4) % 3 == 1);
            EXPECT_WINDOW(w, k, 0, name);
            CHECK_OK(orma_win_fence(0, win));
        } else if (how == 3) {
            if ((k / 4) % 2) { /* the first access of lock_all takes the lock */
                CHECK_OK(orma_win_lock_all(0, win));
                get_all(win, right, got, (k / 4) % 3 == 1);
                EXPECT_WINDOW(w, k, 0, name);
                CHECK_OK(orma_win_unlock_all(win));
            } else {
                CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, right, 0, win));
                get_all(win, right, got, (k / 4) % 3 == 1);
                EXPECT_WINDOW(w, k, 0, name);
                CHECK_OK(orma_win_unlock(right, win));
            }
            CHECK_OK(orma_barrier());
            CHECK_OK(orma_win_fence(0, win));
        } else {
            CHECK_OK(orma_win_post(all, 0, win));
            CHECK_OK(orma_win_start(all, 0, win));
            get_all(win, right, got, (k / 4) % 3 == 1);
            EXPECT_WINDOW(w, k, 0, name);
            CHECK_OK(orma_win_complete(win));
            CHECK_OK(orma_win_wait(win));
            if (how == 2) /* the next round's puts are in a fence epoch */
                CHECK_OK(orma_win_fence(0, win));
        }
        EXPECT_WINDOW(got, k, 0, "the right neighbour's window, by a get");
    }
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    turns(win, w);
    CHECK_OK(orma_group_free(&all));
    CHECK_OK(orma_win_free(&win));
    SLOTS_EXPECT_REST(w, size);
    free(src);
}

int main(int argc, char **argv)
{
    /* These windows' partial pages must stay private, as the paths under
     * test need: a process of one thread would have them adopted too
     * (ORMA_ADOPT=2, shm_adopt.h).  A run that sets ORMA_ADOPT keeps it. */
    setenv("ORMA_ADOPT", "1", 0);
    return slots_main(&argc, &argv, run, "small_private");
}
