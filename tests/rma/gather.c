/* gather.c -- small puts and gets of passive epochs to memory the peers
 * cannot map, which wait at the origin for the flush or unlock that
 * completes them (rma_gather.h).  Three windows: a malloc'd block less than
 * a page, a stack array, and a malloc'd window of three pages starting 1000
 * bytes before a page boundary (its whole pages adopted, so the slots below
 * meet the unmapped head fragment and the mapped pages both).  Checked at
 * 1-4 ranks, every rank writing a slot of its own in every window, round
 * after round, closed in turn by:
 *
 *   0. lock (exclusive, then shared) and unlock of each target;
 *   1. lock_all, flush of each target, unlock_all;
 *   2. lock_all, then gets of the slot just put, in 1-3 byte pieces and
 *      without a flush between (issue order holds), completed by
 *      flush_local_all and checked before unlock_all;
 *   3. lock of each target, the puts, then an accumulate (SUM) over the
 *      same bytes, which must apply after them;
 *   4. lock_all, rput and rget, each request waited for at once: a get's
 *      bytes are there when its request completes;
 *   5. lock_all, the puts, flush_local_all, then every source buffer
 *      overwritten before unlock_all: flush_local freed them, so the puts
 *      still waiting (the long one copied aside, rma_gather.h) carry the
 *      bytes they were given;
 *
 * the slot each time written twice in 1-3 byte pieces -- first wrong
 * bytes, then the right ones: many more pieces than one gather holds, so it
 * fills and is carried out midway, and of two puts to the same byte the
 * later must win -- and once in a piece longer than a gather copies (it
 * waits with the caller's buffer; to the window with mapped pages it is
 * carried out at once, after the pending ones).  After each round every rank checks its own window, and
 * the bytes around each window never change.
 *
 * Run with ORMA_GATHER=0 too (tests/rma/CMakeLists.txt). */
#include "rt_slots.h"

#include <stdlib.h>
#include <string.h>

enum { WIN = SLOTS_WIN, ROUNDS = 18, BIG = 300 };

/* One piece of a put: plain, or request-based from a copy of src, which is
 * overwritten as soon as the request completes (the buffer is ours again). */
static void put_piece(orma_win win, int t, const unsigned char *src, size_t at, size_t n, int req)
{
    if (req) {
        static unsigned char copy[WIN];
        memcpy(copy, src, n);
        orma_request r;
        CHECK_OK(orma_rput(copy, n, ORMA_BYTE, t, (orma_aint)at, n, ORMA_BYTE, win, &r));
        CHECK_OK(orma_wait(&r));
        memset(copy, 0xee, n);
    } else {
        CHECK_OK(orma_put(src, n, ORMA_BYTE, t, (orma_aint)at, n, ORMA_BYTE, win));
    }
}

/* Our slot of target t in round k: wrong bytes first, then the right ones,
 * in pieces of 1..3 bytes but for the last BIG bytes (when the slot is
 * longer): one put of them each time.  src holds the right bytes after. */
static void put_slot(orma_win win, int t, int k, unsigned char *src, unsigned char *junk, int req)
{
    size_t at = slot_at(rank), len = slot_len();
    rt_fill_data(junk, len, seed_of(k, rank) + 1000, at);
    rt_fill_data(src, len, seed_of(k, rank), at);
    for (int pass = 0; pass < 2; pass++) {
        const unsigned char *from = pass ? src : junk;
        size_t end = pass && len > BIG ? len - BIG : len;
        for (size_t off = 0, step = (size_t)(k + t + pass); off < end; step++) {
            size_t n = 1 + step % 3 < end - off ? 1 + step % 3 : end - off;
            put_piece(win, t, from + off, at + off, n, req);
            off += n;
        }
        if (len > BIG) /* the tail, wrong then right, each in one piece */
            put_piece(win, t, from + len - BIG, at + len - BIG, BIG, req);
    }
}

/* Gets of our slot at t into got, in 1..3 byte pieces. */
static void get_slot(orma_win win, int t, unsigned char *got, int req)
{
    size_t at = slot_at(rank), len = slot_len();
    memset(got, 0, len);
    for (size_t off = 0, step = (size_t)t; off < len; step++) {
        size_t n = 1 + step % 3 < len - off ? 1 + step % 3 : len - off;
        if (req) {
            orma_request r;
            CHECK_OK(orma_rget(got + off, n, ORMA_BYTE, t, (orma_aint)(at + off), n, ORMA_BYTE, win, &r));
            CHECK_OK(orma_wait(&r));
            if (memcmp(got + off, got + len + off, n) != 0) /* there at once */
                rt_fail(__FILE__, __LINE__, "a byte of an rget after its wait", off, got[off], got[len + off]);
        } else {
            CHECK_OK(orma_get(got + off, n, ORMA_BYTE, t, (orma_aint)(at + off), n, ORMA_BYTE, win));
        }
        off += n;
    }
}

static void expect_slot(const unsigned char *got, const unsigned char *src, const char *what)
{
    for (size_t i = 0; i < slot_len(); i++)
        if (got[i] != src[i])
            rt_fail(__FILE__, __LINE__, what, i, got[i], src[i]);
}

/* Add one to every byte of our slot at t. */
static void add_one(orma_win win, int t, unsigned char *ones)
{
    memset(ones, 1, slot_len());
    CHECK_OK(orma_accumulate(ones, slot_len(), ORMA_UINT8, t, (orma_aint)slot_at(rank), slot_len(), ORMA_UINT8,
                             ORMA_SUM, win));
}

static void round_of(orma_win win, int k, unsigned char *src, unsigned char *junk, unsigned char *got)
{
    int how = k % 6;
    if (how == 0 || how == 3) {
        for (int t = 0; t < nranks; t++) {
            CHECK_OK(orma_win_lock(how == 0 && k % 2 ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED, t, 0, win));
            put_slot(win, t, k, src, junk, 0);
            if (how == 3)
                add_one(win, t, got);
            CHECK_OK(orma_win_unlock(t, win));
        }
        return;
    }
    CHECK_OK(orma_win_lock_all(0, win));
    for (int t = 0; t < nranks; t++) {
        put_slot(win, t, k, src, junk, how == 4);
        if (how == 1) {
            CHECK_OK(orma_win_flush(t, win));
        } else if (how == 5) {
            CHECK_OK(orma_win_flush_local_all(win));
            memset(src, 0xa5, slot_len());
            memset(junk, 0x5a, slot_len());
        } else if (how == 2) {
            get_slot(win, t, got, 0);
            CHECK_OK(orma_win_flush_local_all(win));
            expect_slot(got, src, "our slot, by gets right after the puts");
        } else {
            memcpy(got + slot_len(), src, slot_len()); /* what each rget must find at once */
            get_slot(win, t, got, 1);
            expect_slot(got, src, "our slot, by rgets");
        }
    }
    CHECK_OK(orma_win_unlock_all(win));
}

static void run(unsigned char *w, size_t size, const char *name)
{
    orma_win win;
    CHECK_OK(orma_win_create(w, size, 1, ORMA_INFO_NULL, &win));
    unsigned char *src = malloc(4 * WIN), *junk = src + WIN, *got = junk + WIN; /* got: 2 * WIN */
    CHECK(src);
    CHECK_OK(orma_barrier());
    for (int k = 0; k < ROUNDS; k++) {
        round_of(win, k, src, junk, got);
        CHECK_OK(orma_barrier()); /* every origin has unlocked: its bytes are here */
        EXPECT_WINDOW(w, k, (unsigned)(k % 6 == 3), name);
        SLOTS_EXPECT_REST(w, size);
        CHECK_OK(orma_barrier()); /* checked before anybody writes again */
    }
    CHECK_OK(orma_win_free(&win));
    free(src);
}

int main(int argc, char **argv)
{
    /* These windows' partial pages must stay private, as the paths under
     * test need: a process of one thread would have them adopted too
     * (ORMA_ADOPT=2, shm_adopt.h).  A run that sets ORMA_ADOPT keeps it. */
    setenv("ORMA_ADOPT", "1", 0);
    return slots_main(&argc, &argv, run, "gather");
}
