/* passive_box.c -- small puts of passive epochs to memory the origin
 * cannot map, offered to the target in its box at flush and unlock and
 * emptied by whichever of the two takes the box first (rma_box.h).
 *
 * Rank 0 is the target of every other rank, through a create window on a
 * malloc'd block less than a page long (guards around it), each origin
 * owning a slot of SLOT bytes.  Round after round each origin:
 *
 *   - opens an epoch on rank 0 -- lock_all and flush, lock and unlock
 *     (shared, then exclusive), or lock_all and unlock_all, by turns;
 *   - puts wrong bytes over its whole slot in 8-byte pieces (lock_all:
 *     and flushes them), then the right bytes of its first BIG in one
 *     piece (with ORMA_BOX_MAX=256 longer than a box takes: the box must
 *     be emptied before it),
 *     wrong bytes of its last BIG in another (both wait in the origin's
 *     gather), then the right bytes of all but its first HEAD in pieces of
 *     1..8 bytes (the gather must be carried out before they go in the
 *     box): the puts must land in the order issued;
 *   - every third round, gets its slot back after the puts and before the
 *     closing call (the box is emptied before the get);
 *   - closes the epoch (lock_all: flushes it), then tells rank 0 the round
 *     by a put to a flags window (allocate flavour), and waits for its
 *     answer (lock_all: then unlocks all).
 *
 * Rank 0 waits for the flags in a way drawn at random each time: polling
 * with orma_win_sync (which serves the boxes), polling the flags' memory
 * alone (so the origins' offers time out and they empty their boxes
 * themselves), or sleeping a few microseconds between polls -- so that
 * the origin's taking the box back and the target's serving it race.
 * When an origin's flag shows round k, its slot must hold exactly round
 * k's bytes; rank 0 then overwrites the slot with its own bytes and
 * answers.  A box applied twice, or late, would bring an old round's bytes
 * back over them.  At the end every byte outside the slots, and the guards
 * around the window, must still be the background.
 *
 * Run with ORMA_PASSIVE_BOX=0 and ORMA_BOX_MAX=256 too
 * (tests/rma/CMakeLists.txt). */
#include "rma_test.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SLOT = 320, BIG = 280, HEAD = SLOT - BIG, ROUNDS = 400, GUARD = 48 };

static int rank, nranks;

static unsigned seed_of(int k, int o) { return (unsigned)(k * 257 + o * 13 + 5); }

/* Rank 0's own bytes over slot o after it checked round k. */
static unsigned seed_mine(int k, int o) { return seed_of(k, o) + 100000u; }

static size_t slot_at(int o) { return (size_t)(o - 1) * SLOT; }

static void nap_ns(long ns)
{
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
}

static void origin_round(orma_win win, orma_win flags, _Atomic uint64_t *mine, int k, unsigned char *src,
                         unsigned char *junk, unsigned char *got)
{
    size_t at = slot_at(rank);
    rt_fill_data(src, SLOT, seed_of(k, rank), at);
    rt_fill_data(junk, SLOT, seed_of(k, rank) + 7, at);
    int how = k % 3;
    if (how == 0)
        CHECK_OK(orma_win_lock_all(0, win));
    else
        CHECK_OK(orma_win_lock(k % 2 ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED, 0, 0, win));
    for (size_t off = 0; off < SLOT; off += 8)
        CHECK_OK(orma_put(junk + off, 8, ORMA_BYTE, 0, (orma_aint)(at + off), 8, ORMA_BYTE, win));
    if (how == 0) /* a flush midway: the epoch's second flush completes the rest */
        CHECK_OK(orma_win_flush(0, win));
    CHECK_OK(orma_put(src, BIG, ORMA_BYTE, 0, (orma_aint)at, BIG, ORMA_BYTE, win));
    CHECK_OK(orma_put(junk + HEAD, BIG, ORMA_BYTE, 0, (orma_aint)(at + HEAD), BIG, ORMA_BYTE, win));
    for (size_t off = HEAD, step = (size_t)k; off < SLOT; step++) {
        size_t n = 1 + step % 8 < SLOT - off ? 1 + step % 8 : SLOT - off;
        CHECK_OK(orma_put(src + off, n, ORMA_BYTE, 0, (orma_aint)(at + off), n, ORMA_BYTE, win));
        off += n;
    }
    if (k % 3 == 1) {
        memset(got, 0, SLOT);
        CHECK_OK(orma_get(got, SLOT, ORMA_BYTE, 0, (orma_aint)at, SLOT, ORMA_BYTE, win));
        CHECK_OK(orma_win_flush_local(0, win));
        for (size_t i = 0; i < SLOT; i++)
            if (got[i] != src[i])
                rt_fail(__FILE__, __LINE__, "our slot, got back before the epoch closed", i, got[i], src[i]);
    }
    if (how == 0)
        CHECK_OK(orma_win_flush(0, win)); /* the epoch stays open until rank 0 has checked */
    else
        CHECK_OK(orma_win_unlock(0, win));
    /* the round to rank 0's flag, then its answer in ours */
    uint64_t v = (uint64_t)k + 1;
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, flags));
    CHECK_OK(orma_put(&v, 1, ORMA_UINT64, 0, (orma_aint)rank, 1, ORMA_UINT64, flags));
    CHECK_OK(orma_win_unlock(0, flags));
    while (atomic_load_explicit(&mine[0], memory_order_acquire) < v)
        CHECK_OK(orma_win_sync(flags));
    if (how == 0)
        CHECK_OK(orma_win_unlock_all(win));
}

/* Rank 0, between looks at the flags: one of three ways, as draw says. */
static void target_pause(orma_win win, orma_win flags, unsigned draw)
{
    switch (draw % 3) {
    case 0:
        CHECK_OK(orma_win_sync(win)); /* serves the offered boxes */
        CHECK_OK(orma_win_sync(flags));
        break;
    case 1:
        break; /* memory alone: the origins empty their boxes themselves */
    default:
        nap_ns(2000 + (long)(draw % 7) * 1000);
    }
}

/* Rank 0: answers each origin's rounds as they come -- an origin may be a
 * round ahead of another, holding its lock_all epoch open meanwhile, and
 * the other's exclusive lock waits for it. */
static void run_target(orma_win win, orma_win flags, unsigned char *w, _Atomic uint64_t *mine, uint64_t *answers)
{
    unsigned draw = 12345;
    int left = nranks - 1;
    while (left) {
        int answered = 0;
        for (int o = 1; o < nranks; o++) {
            int k = (int)answers[o];
            if (k == ROUNDS || atomic_load_explicit(&mine[o], memory_order_acquire) < (uint64_t)k + 1)
                continue;
            CHECK_OK(orma_win_sync(flags));
            CHECK_OK(orma_win_sync(win));
            RT_EXPECT_DATA(w, slot_at(o), SLOT, seed_of(k, o), slot_at(o), "a slot when its origin says it is done");
            rt_fill_data(w + slot_at(o), SLOT, seed_mine(k, o), slot_at(o));
            CHECK_OK(orma_win_sync(win));
            answers[o] = (uint64_t)k + 1;
            CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, o, 0, flags));
            CHECK_OK(orma_put(&answers[o], 1, ORMA_UINT64, o, 0, 1, ORMA_UINT64, flags));
            CHECK_OK(orma_win_unlock(o, flags));
            left -= k + 1 == ROUNDS;
            answered = 1;
            draw = draw * 1103515245u + 12345u;
        }
        if (!answered)
            target_pause(win, flags, draw >> 8);
    }
}

static void run_origin(orma_win win, orma_win flags, _Atomic uint64_t *mine)
{
    unsigned char *buf = malloc(3 * SLOT);
    CHECK(buf);
    for (int k = 0; k < ROUNDS; k++)
        origin_round(win, flags, mine, k, buf, buf + SLOT, buf + 2 * SLOT);
    free(buf);
}

int main(int argc, char **argv)
{
    /* These windows' partial pages must stay private, as the paths under
     * test need: a process of one thread would have them adopted too
     * (ORMA_ADOPT=2, shm_adopt.h).  A run that sets ORMA_ADOPT keeps it. */
    setenv("ORMA_ADOPT", "1", 0);
    rt_init(&argc, &argv, &rank, &nranks);
    size_t size = nranks > 1 ? (size_t)(nranks - 1) * SLOT + 40 : 40; /* less than a page */
    unsigned char *block = malloc(GUARD + size + GUARD);
    CHECK(block);
    unsigned char *w = block + GUARD;
    rt_fill_bg(block, GUARD + size + GUARD);
    rt_fill_bg(w, size);
    orma_win win, flags;
    CHECK_OK(orma_win_create(w, size, 1, ORMA_INFO_NULL, &win));
    _Atomic uint64_t *mine;
    CHECK_OK(orma_win_allocate((size_t)nranks * sizeof(uint64_t), (int)sizeof(uint64_t), ORMA_INFO_NULL,
                               (void **)&mine, &flags));
    for (int r = 0; r < nranks; r++)
        atomic_store(&mine[r], 0);
    uint64_t *answers = calloc((size_t)nranks, sizeof *answers);
    CHECK(answers);
    CHECK_OK(orma_barrier());
    if (rank == 0)
        run_target(win, flags, w, mine, answers);
    else
        run_origin(win, flags, mine);
    CHECK_OK(orma_barrier());
    if (rank == 0) {
        for (int o = 1; o < nranks; o++)
            RT_EXPECT_DATA(w, slot_at(o), SLOT, seed_mine(ROUNDS - 1, o), slot_at(o), "a slot at the end");
        RT_EXPECT_BG(w, slot_at(nranks), size, "the window past the slots");
    } else {
        RT_EXPECT_BG(w, 0, size, "a window nobody puts into");
    }
    CHECK_OK(orma_win_free(&flags));
    CHECK_OK(orma_win_free(&win));
    RT_EXPECT_BG(block, 0, GUARD, "before the window");
    for (size_t i = GUARD + size; i < GUARD + size + GUARD; i++)
        if (block[i] != rt_bg(i))
            rt_fail(__FILE__, __LINE__, "after the window", i, block[i], rt_bg(i));
    free(answers);
    free(block);
    CHECK_OK(orma_finalize());
    return 0;
}
