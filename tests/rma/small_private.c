/* small_private.c -- small puts to windows on private memory less than a
 * page long (a malloc'd block, a stack array): nothing of them can be
 * mapped by the peers, so in fence and PSCW epochs small puts travel
 * through the target's boxes and land when it closes the epoch
 * (rma_box.h).  Checked at 1-4 ranks:
 *
 *   - every rank puts a slot of every target's window in one-byte to
 *     three-byte pieces, many more than one box holds (the origin then
 *     writes them itself), and a piece larger than a box takes, then
 *     closes with a fence, PSCW (wait, or test until done) or a fence with
 *     NOSUCCEED;
 *   - each rank checks its own window after the closing call, and the
 *     window of its right neighbour by gets in the next epoch -- fence,
 *     PSCW, a lock or a lock_all epoch -- which must see what a third rank put there
 *     in the epoch before;
 *   - ping-pong by fence: each epoch one rank puts, the others check;
 *   - the bytes around each window (the rest of its malloc'd block, the
 *     stack array's guards) never change.
 *
 * Run with ORMA_BOX=0 and ORMA_EAGER=0 too (tests/rma/CMakeLists.txt). */
#include "rma_test.h"

#include <stdlib.h>
#include <string.h>

enum { GUARD = 40, WIN = 1800, ROUNDS = 24, BIG = 300 };

static int rank, nranks;

/* The bytes origin o owns in every window in round k: a slot of its own. */
static size_t slot_len(void) { return WIN / (size_t)nranks; }
static size_t slot_at(int o) { return (size_t)o * slot_len(); }
static unsigned seed_of(int k, int o) { return (unsigned)(k * 131 + o * 7 + 1); }

/* What window byte i holds after round k (k < 0: the background). */
static unsigned char want(int k, size_t i)
{
    if (k < 0 || i >= slot_len() * (size_t)nranks)
        return rt_bg(i);
    int o = (int)(i / slot_len());
    return rt_data(seed_of(k, o), i);
}

static void expect_window(const unsigned char *w, int k, const char *what)
{
    for (size_t i = 0; i < WIN; i++)
        if (w[i] != want(k, i))
            rt_fail(__FILE__, __LINE__, what, i, w[i], want(k, i));
}

/* Our slot of target t in round k: a piece of BIG bytes (a system call)
 * when the slot is long enough, the rest in pieces of 1..3 bytes (more than a box holds). */
static void put_slot(orma_win win, int t, int k, unsigned char *src)
{
    size_t at = slot_at(rank), len = slot_len(), off = 0;
    rt_fill_data(src, len, seed_of(k, rank), at);
    if (len > 2 * BIG) {
        CHECK_OK(orma_put(src + len - BIG, BIG, ORMA_BYTE, t, (orma_aint)(at + len - BIG), BIG, ORMA_BYTE, win));
        len -= BIG;
    }
    for (unsigned step = (unsigned)(k + t); off < len; step++) {
        size_t n = 1 + step % 3;
        if (n > len - off)
            n = len - off;
        CHECK_OK(orma_put(src + off, n, ORMA_BYTE, t, (orma_aint)(at + off), n, ORMA_BYTE, win));
        off += n;
    }
}

/* All of target t's window, into dst (checked once the epoch is over). */
static void get_all(orma_win win, int t, unsigned char *dst)
{
    memset(dst, 0, WIN);
    CHECK_OK(orma_get(dst, WIN, ORMA_BYTE, t, 0, WIN, ORMA_BYTE, win));
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

/* One window, base w; rounds of puts closed by each kind of call. */
static void run(unsigned char *w, const char *name)
{
    orma_win win;
    CHECK_OK(orma_win_create(w, WIN, 1, ORMA_INFO_NULL, &win));
    orma_group all;
    CHECK_OK(orma_win_get_group(win, &all));
    unsigned char *src = malloc(WIN), *got = malloc(WIN);
    CHECK(src && got);
    int right = (rank + 1) % nranks;
    CHECK_OK(orma_win_fence(0, win));
    for (int k = 0; k < ROUNDS; k++) {
        int how = k % 4; /* 0 fence, 1 PSCW with wait, 2 PSCW with test, 3 fence NOSUCCEED */
        if (how == 1 || how == 2) {
            CHECK_OK(orma_win_post(all, 0, win));
            CHECK_OK(orma_win_start(all, 0, win));
        }
        for (int t = 0; t < nranks; t++)
            put_slot(win, t, k, src);
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
            get_all(win, right, got);
            expect_window(w, k, name);
            CHECK_OK(orma_win_fence(0, win));
        } else if (how == 3) {
            if ((k / 4) % 2) { /* the first access of lock_all takes the lock */
                CHECK_OK(orma_win_lock_all(0, win));
                get_all(win, right, got);
                expect_window(w, k, name);
                CHECK_OK(orma_win_unlock_all(win));
            } else {
                CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, right, 0, win));
                get_all(win, right, got);
                expect_window(w, k, name);
                CHECK_OK(orma_win_unlock(right, win));
            }
            CHECK_OK(orma_barrier());
            CHECK_OK(orma_win_fence(0, win));
        } else {
            CHECK_OK(orma_win_post(all, 0, win));
            CHECK_OK(orma_win_start(all, 0, win));
            get_all(win, right, got);
            expect_window(w, k, name);
            CHECK_OK(orma_win_complete(win));
            CHECK_OK(orma_win_wait(win));
            if (how == 2) /* the next round's puts are in a fence epoch */
                CHECK_OK(orma_win_fence(0, win));
        }
        expect_window(got, k, "the right neighbour's window, by a get");
    }
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    turns(win, w);
    CHECK_OK(orma_group_free(&all));
    CHECK_OK(orma_win_free(&win));
    free(src);
    free(got);
}

int main(int argc, char **argv)
{
    CHECK_OK(orma_init(&argc, &argv));
    rank = orma_rank();
    nranks = orma_size();

    /* A malloc'd block less than a page: the window in its middle. */
    unsigned char *block = malloc(GUARD + WIN + GUARD);
    CHECK(block);
    rt_fill_bg(block, GUARD + WIN + GUARD);
    unsigned char *w = block + GUARD;
    rt_fill_bg(w, WIN);
    run(w, "malloc'd window");
    RT_EXPECT_BG(block, 0, GUARD, "before the malloc'd window");
    for (size_t i = 0; i < GUARD; i++)
        if (w[WIN + i] != rt_bg(GUARD + WIN + i))
            rt_fail(__FILE__, __LINE__, "after the malloc'd window", i, w[WIN + i], rt_bg(GUARD + WIN + i));
    free(block);

    /* A stack array. */
    unsigned char stack[GUARD + WIN + GUARD];
    rt_fill_bg(stack, sizeof stack);
    rt_fill_bg(stack + GUARD, WIN);
    run(stack + GUARD, "stack window");
    RT_EXPECT_BG(stack, 0, GUARD, "before the stack window");
    for (size_t i = 0; i < GUARD; i++)
        if (stack[GUARD + WIN + i] != rt_bg(GUARD + WIN + i))
            rt_fail(__FILE__, __LINE__, "after the stack window", i, stack[GUARD + WIN + i],
                    rt_bg(GUARD + WIN + i));

    CHECK_OK(orma_finalize());
    return 0;
}
