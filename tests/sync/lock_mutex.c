/* lock_mutex.c -- ORMA_LOCK_EXCLUSIVE is mutual exclusion.
 *
 * Every rank, ROUNDS times, locks the owner's window exclusively, reads two
 * counters, checks that they are equal, increments both and writes them
 * back -- the first, then (sometimes after yielding the core while holding
 * the lock) the second -- and unlocks.  Two holders at once are caught both
 * ways: a lost update leaves the final counts short of nranks * ROUNDS, and
 * a holder that comes in between the two writes of another sees the
 * counters differ.  The read is completed with flush or flush_local
 * (alternating) before its value is used.
 *
 * Windows: allocate, create on malloc'd memory (single-copy syscalls, much
 * longer critical sections), create on orma_alloc_mem memory; the counters
 * live on rank 0 and on the last rank.  In every third round the owner
 * locks its own window and updates the counters with plain loads and
 * stores (the lock must be held when orma_win_lock returns, not taken at
 * the first operation).  On a shared window every rank updates the owner's
 * counters with loads and stores through orma_win_shared_query, so only
 * the lock orders them.  All bytes around the counters must keep their
 * background, at the owner and at every other rank.
 *
 * Then (putget_run) every rank, PG_ROUNDS times, locks the owner's window
 * exclusively, puts a value of its own (this rank's, this round's) into the
 * same 8 bytes, flushes, waits a little holding the lock, gets the 8 bytes
 * back and unlocks: they must be its own, whatever the others do -- no
 * other holder's put comes between.  Every third epoch first gets other
 * bytes.  Over the net transport the get's reply left the target after the
 * lock was already released with it (the release rides on the get), and
 * the next holder's put, handled meanwhile, changed the bytes it was read
 * from. */
#include "sync_test.h"

enum { ROUNDS = 300, WSIZE = 256, OFF_A = 40, OFF_B = 168, PG_ROUNDS = 200, OFF_PG = 96 };

static int rank, nranks;

static void differ(int kind, int owner, int i, uint64_t a, uint64_t b)
{
    fprintf(stderr, "rank %d: %s, owner %d, round %d: counters differ under the "
            "exclusive lock: %llu and %llu\n", rank, st_kind_names[kind], owner, i,
            (unsigned long long)a, (unsigned long long)b);
    exit(1);
}

/* One round with loads and stores into mem, the owner's window memory as
 * mapped here.  Volatile: the compiler must not keep the counters in
 * registers across the lock calls, nor merge the two stores. */
static void round_direct(struct st_win *w, unsigned char *mem, int owner, int i)
{
    volatile uint64_t *pa = (volatile uint64_t *)(void *)(mem + OFF_A);
    volatile uint64_t *pb = (volatile uint64_t *)(void *)(mem + OFF_B);

    CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, owner, 0, w->win));
    uint64_t a = *pa, b = *pb;
    if (a != b)
        differ(w->kind, owner, i, a, b);
    CHECK(a < (uint64_t)nranks * ROUNDS);
    *pa = a + 1;
    if (i % 4 == 1)
        sched_yield();
    *pb = b + 1;
    CHECK_OK(orma_win_unlock(owner, w->win));
}

static void mutex_run(int kind, int owner)
{
    struct st_win w;
    uint64_t a = 0, b = 0;
    unsigned char *owner_mem = NULL;

    st_win_open(&w, kind, WSIZE);
    if (kind == ST_SHARED) {
        size_t sz = 0;
        int du = 0;
        CHECK_OK(orma_win_shared_query(w.win, owner, &sz, &du, (void **)&owner_mem));
        CHECK(sz == WSIZE && owner_mem != NULL);
    }
    rt_fill_bg(w.mem, WSIZE);
    if (rank == owner) {
        memcpy(w.mem + OFF_A, &a, sizeof a);
        memcpy(w.mem + OFF_B, &b, sizeof b);
    }
    CHECK_OK(orma_barrier());

    for (int i = 0; i < ROUNDS; i++) {
        if (owner_mem || (rank == owner && i % 3 == 0)) {
            round_direct(&w, owner_mem ? owner_mem : w.mem, owner, i);
            continue;
        }
        CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, owner, 0, w.win));
        CHECK_OK(orma_get(&a, 1, ORMA_UINT64, owner, st_disp(&w, owner, OFF_A), 1, ORMA_UINT64, w.win));
        CHECK_OK(orma_get(&b, 8, ORMA_BYTE, owner, st_disp(&w, owner, OFF_B), 8, ORMA_BYTE, w.win));
        if (i % 2)
            CHECK_OK(orma_win_flush(owner, w.win));
        else
            CHECK_OK(orma_win_flush_local(owner, w.win));
        if (a != b)
            differ(kind, owner, i, a, b);
        CHECK(a < (uint64_t)nranks * ROUNDS);
        a++;
        b++;
        CHECK_OK(orma_put(&a, 1, ORMA_UINT64, owner, st_disp(&w, owner, OFF_A), 1, ORMA_UINT64, w.win));
        if (i % 4 == 1) {
            /* Hold the lock across a reschedule: with a broken lock the
             * other ranks now run into the half-updated pair. */
            CHECK_OK(orma_win_flush(owner, w.win));
            sched_yield();
        }
        CHECK_OK(orma_put(&b, 1, ORMA_UINT64, owner, st_disp(&w, owner, OFF_B), 1, ORMA_UINT64, w.win));
        CHECK_OK(orma_win_unlock(owner, w.win));
    }
    CHECK_OK(orma_barrier());

    /* Every rank reads the final counts under a shared lock. */
    a = b = 0;
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, owner, 0, w.win));
    CHECK_OK(orma_get(&a, 1, ORMA_UINT64, owner, st_disp(&w, owner, OFF_A), 1, ORMA_UINT64, w.win));
    CHECK_OK(orma_get(&b, 1, ORMA_UINT64, owner, st_disp(&w, owner, OFF_B), 1, ORMA_UINT64, w.win));
    CHECK_OK(orma_win_unlock(owner, w.win));
    if (a != (uint64_t)nranks * ROUNDS || b != a) {
        fprintf(stderr, "rank %d: %s, owner %d: final counters %llu and %llu, expected %llu\n",
                rank, st_kind_names[kind], owner, (unsigned long long)a, (unsigned long long)b,
                (unsigned long long)nranks * ROUNDS);
        exit(1);
    }
    CHECK_OK(orma_barrier());

    if (rank == owner) {
        RT_EXPECT_BG(w.mem, 0, OFF_A, "below counter A");
        RT_EXPECT_BG(w.mem, OFF_A + 8, OFF_B, "between the counters");
        RT_EXPECT_BG(w.mem, OFF_B + 8, WSIZE, "above counter B");
        memcpy(&a, w.mem + OFF_A, sizeof a);
        memcpy(&b, w.mem + OFF_B, sizeof b);
        CHECK(a == (uint64_t)nranks * ROUNDS && b == a);
    } else {
        RT_EXPECT_BG(w.mem, 0, WSIZE, "window of a rank that is not the owner");
    }
    st_win_close(&w);
}

static void putget_run(int kind, int owner)
{
    struct st_win w;
    st_win_open(&w, kind, WSIZE);
    rt_fill_bg(w.mem, WSIZE);
    CHECK_OK(orma_barrier());
    int bad = 0;
    for (int i = 0; i < PG_ROUNDS; i++) {
        uint64_t mine = ((uint64_t)(rank + 1) << 32) | (uint64_t)i, back = 0, other = 0;
        CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, owner, 0, w.win));
        if (i % 3 == 2)
            CHECK_OK(orma_get(&other, 8, ORMA_BYTE, owner, st_disp(&w, owner, OFF_A), 8, ORMA_BYTE, w.win));
        CHECK_OK(orma_put(&mine, 8, ORMA_BYTE, owner, st_disp(&w, owner, OFF_PG), 8, ORMA_BYTE, w.win));
        CHECK_OK(orma_win_flush(owner, w.win));
        for (volatile int spin = 0; spin < 20000; spin++)
            ; /* the others' lock requests arrive meanwhile */
        CHECK_OK(orma_get(&back, 8, ORMA_BYTE, owner, st_disp(&w, owner, OFF_PG), 8, ORMA_BYTE, w.win));
        CHECK_OK(orma_win_unlock(owner, w.win));
        if (back != mine && !bad++)
            fprintf(stderr, "rank %d: %s, owner %d, round %d: put 0x%llx under the exclusive lock, got back "
                    "0x%llx\n", rank, st_kind_names[kind], owner, i, (unsigned long long)mine,
                    (unsigned long long)back);
    }
    if (bad) {
        fprintf(stderr, "rank %d: %s, owner %d: %d of %d exclusive epochs saw another's put\n", rank,
                st_kind_names[kind], owner, bad, PG_ROUNDS);
        exit(1);
    }
    CHECK_OK(orma_barrier());
    if (rank == owner) {
        RT_EXPECT_BG(w.mem, 0, OFF_PG, "below the put-get bytes");
        RT_EXPECT_BG(w.mem, OFF_PG + 8, WSIZE, "above the put-get bytes");
    } else {
        RT_EXPECT_BG(w.mem, 0, WSIZE, "window of a rank that is not the owner");
    }
    st_win_close(&w);
}

int main(int argc, char **argv)
{
    static const int kinds[] = {ST_ALLOCATE, ST_CREATE_MALLOC, ST_CREATE_ALLOCMEM, ST_SHARED};

    rt_init(&argc, &argv, &rank, &nranks);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        mutex_run(kinds[k], 0);
        if (nranks > 1)
            mutex_run(kinds[k], nranks - 1);
        putget_run(kinds[k], 0);
        if (nranks > 1)
            putget_run(kinds[k], nranks - 1);
    }
    CHECK_OK(orma_finalize());
    return 0;
}
