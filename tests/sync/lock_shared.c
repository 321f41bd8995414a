/* lock_shared.c -- shared locks are held together; an exclusive one alone.
 *
 * Part 1: in each round every rank takes a shared lock on rank 0's window
 * (with orma_win_lock, or in odd rounds with orma_win_lock_all, whose
 * shared lock is taken at the first operation -- so the rank only counts
 * as a holder once a get to rank 0 has completed), reads the data rank 0
 * prepared, then marks "I hold it" in a flag and, still holding the lock,
 * waits (bounded) for every rank's mark.  Only holders that overlap can all
 * see all marks; a shared lock that excluded would leave the first holder
 * waiting for the others until the bound.
 *
 * Part 2: ranks take shared or exclusive locks at random and count
 * themselves in and out of two counters in a shared window.  An exclusive
 * holder must find itself alone; a shared one must find no exclusive
 * holder.  The exclusive holder also rewrites rank 0's data in two halves,
 * yielding the core in between, and the seed last; every shared holder
 * checks that the data it reads all belongs to the seed it reads, so an
 * overlap shows as torn data even if it slipped between the counters. */
#include "sync_test.h"

enum {
    ROUNDS = 20,
    ITERS = 200,
    SEED_AT = 32,
    DATA_AT = 64,
    DATA_LEN = 128,
    WSIZE = 256,
    F_MARK = 0, F_SHARED, F_EXCL, F_COUNT /* flags; the counters are rank 0's */
};

static int rank, nranks;
static struct st_flags fl;
static uint32_t mark; /* the marks only grow, over both windows */

static void read_data(struct st_win *w, uint32_t *seed, unsigned char *buf)
{
    CHECK_OK(orma_get(seed, 1, ORMA_UINT32, 0, st_disp(w, 0, SEED_AT), 1, ORMA_UINT32, w->win));
    CHECK_OK(orma_get(buf, DATA_LEN, ORMA_BYTE, 0, st_disp(w, 0, DATA_AT), DATA_LEN, ORMA_BYTE, w->win));
    CHECK_OK(orma_win_flush(0, w->win));
}

/* The whole of rank 0's window as it must be with data of seed. */
static void expect_target(const unsigned char *mem, uint32_t seed, const char *what)
{
    uint32_t s;
    memcpy(&s, mem + SEED_AT, sizeof s);
    CHECK(s == seed);
    RT_EXPECT_BG(mem, 0, SEED_AT, what);
    RT_EXPECT_BG(mem, SEED_AT + 4, DATA_AT, what);
    RT_EXPECT_DATA(mem, DATA_AT, DATA_LEN, seed, DATA_AT, what);
    RT_EXPECT_BG(mem, DATA_AT + DATA_LEN, WSIZE, what);
}

static void prepare(struct st_win *w, uint32_t seed)
{
    rt_fill_bg(w->mem, WSIZE);
    if (rank == 0) {
        memcpy(w->mem + SEED_AT, &seed, sizeof seed);
        rt_fill_data(w->mem + DATA_AT, DATA_LEN, seed, DATA_AT);
    }
}

static void part_overlap(struct st_win *w)
{
    unsigned char buf[DATA_LEN];
    uint32_t seed = 0;

    for (uint32_t k = 1; k <= ROUNDS; k++) {
        prepare(w, 100 + k);
        CHECK_OK(orma_barrier());
        if (k % 2)
            CHECK_OK(orma_win_lock_all(0, w->win));
        else
            CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, w->win));
        read_data(w, &seed, buf);
        CHECK(seed == 100 + k);
        RT_EXPECT_DATA(buf, 0, DATA_LEN, seed, DATA_AT, "data read under a shared lock");

        atomic_store(st_flag(&fl, rank, F_MARK), ++mark);
        for (int r = 0; r < nranks; r++)
            ST_WAIT_FLAG_FOR(st_flag(&fl, r, F_MARK), mark, 10.0,
                             "another shared holder's mark (shared locks do not overlap?)");

        if (k % 2)
            CHECK_OK(orma_win_unlock_all(w->win));
        else
            CHECK_OK(orma_win_unlock(0, w->win));
        CHECK_OK(orma_barrier());
        if (rank == 0)
            expect_target(w->mem, 100 + k, "rank 0's window after shared readers");
        else
            RT_EXPECT_BG(w->mem, 0, WSIZE, "window");
    }
}

/* A lock may be taken lazily (lock_all always, lock over the net
 * transport): hold it before counting in, by a flushed get. */
static void hold_now(struct st_win *w)
{
    uint32_t seed = 0;
    CHECK_OK(orma_get(&seed, 1, ORMA_UINT32, 0, st_disp(w, 0, SEED_AT), 1, ORMA_UINT32, w->win));
    CHECK_OK(orma_win_flush(0, w->win));
}

static void exclusive_holder(struct st_win *w, uint32_t seed)
{
    _Atomic uint32_t *sh = st_flag(&fl, 0, F_SHARED), *ex = st_flag(&fl, 0, F_EXCL);
    unsigned char buf[DATA_LEN];

    CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, 0, 0, w->win));
    hold_now(w);
    uint32_t e = atomic_fetch_add(ex, 1) + 1, s = atomic_load(sh);
    if (e != 1 || s != 0) {
        fprintf(stderr, "rank %d: holding the exclusive lock, %u other exclusive and %u "
                "shared holders are in too\n", rank, (unsigned)(e - 1), (unsigned)s);
        exit(1);
    }
    rt_fill_data(buf, DATA_LEN, seed, DATA_AT);
    CHECK_OK(orma_put(buf, DATA_LEN / 2, ORMA_BYTE, 0, st_disp(w, 0, DATA_AT), DATA_LEN / 2,
                      ORMA_BYTE, w->win));
    CHECK_OK(orma_win_flush(0, w->win));
    sched_yield();
    CHECK_OK(orma_put(buf + DATA_LEN / 2, DATA_LEN / 2, ORMA_BYTE, 0,
                      st_disp(w, 0, DATA_AT + DATA_LEN / 2), DATA_LEN / 2, ORMA_BYTE, w->win));
    CHECK_OK(orma_put(&seed, 1, ORMA_UINT32, 0, st_disp(w, 0, SEED_AT), 1, ORMA_UINT32, w->win));
    CHECK_OK(orma_win_flush(0, w->win));
    CHECK(atomic_load(sh) == 0);
    atomic_fetch_sub(ex, 1);
    CHECK_OK(orma_win_unlock(0, w->win));
}

static void shared_holder(struct st_win *w, int use_lock_all)
{
    _Atomic uint32_t *sh = st_flag(&fl, 0, F_SHARED), *ex = st_flag(&fl, 0, F_EXCL);
    unsigned char buf[DATA_LEN];
    uint32_t seed = 0;

    if (use_lock_all)
        CHECK_OK(orma_win_lock_all(0, w->win));
    else
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, w->win));
    hold_now(w);
    atomic_fetch_add(sh, 1);
    if (atomic_load(ex) != 0) {
        fprintf(stderr, "rank %d: holding a shared lock, an exclusive holder is in too\n", rank);
        exit(1);
    }
    read_data(w, &seed, buf);
    RT_EXPECT_DATA(buf, 0, DATA_LEN, seed, DATA_AT, "data read under a shared lock (torn?)");
    sched_yield();
    CHECK(atomic_load(ex) == 0);
    atomic_fetch_sub(sh, 1);
    if (use_lock_all)
        CHECK_OK(orma_win_unlock_all(w->win));
    else
        CHECK_OK(orma_win_unlock(0, w->win));
}

static void part_exclusion(struct st_win *w)
{
    uint64_t rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)(rank + 1) * 0x100000001B3ull;

    prepare(w, 1000);
    CHECK_OK(orma_barrier());
    for (uint32_t i = 0; i < ITERS; i++) {
        unsigned kind = st_rand_below(&rng, 6);
        if (kind < 2) {
            exclusive_holder(w, 2000 + (uint32_t)rank * ITERS + i);
        } else {
            shared_holder(w, kind == 5);
        }
    }
    CHECK_OK(orma_barrier());
    CHECK(atomic_load(st_flag(&fl, 0, F_SHARED)) == 0 && atomic_load(st_flag(&fl, 0, F_EXCL)) == 0);
    if (rank == 0) {
        uint32_t seed;
        memcpy(&seed, w->mem + SEED_AT, sizeof seed);
        CHECK(seed == 1000 || (seed >= 2000 && seed < 2000 + (uint32_t)nranks * ITERS));
        expect_target(w->mem, seed, "rank 0's window after the mixed locks");
    } else {
        RT_EXPECT_BG(w->mem, 0, WSIZE, "window");
    }
}

int main(int argc, char **argv)
{
    struct st_win w;

    rt_init(&argc, &argv, &rank, &nranks);
    st_flags_open(&fl, F_COUNT);
    st_win_open(&w, ST_ALLOCATE, WSIZE);
    part_overlap(&w);
    part_exclusion(&w);
    st_win_close(&w);
    /* The single-copy path: the lock is the same word, the data moves by
     * syscalls, so critical sections are longer. */
    st_win_open(&w, ST_CREATE_MALLOC, WSIZE);
    part_overlap(&w);
    part_exclusion(&w);
    st_win_close(&w);
    st_flags_close(&fl);
    CHECK_OK(orma_finalize());
    return 0;
}
