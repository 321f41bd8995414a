/* thr_passive.c -- passive-target epochs shared by the threads of a rank
 * (ORMA_THREAD_MULTIPLE), with 2, 4 and 8 threads per rank in turn.
 *
 * Every thread of every rank owns one slice of every rank's window (and
 * one 64-bit cell), so the data each thread expects is known exactly
 * whatever the interleaving.  The phases, each on one window:
 *  1. lock_all (taken by the main thread): each thread puts to every
 *     target, completes the put with a flush of its own (flush, flush_all,
 *     or flush_local or flush_local_all and a flush after it has
 *     overwritten its origin buffer), reads the slice back with get and compares; accumulates
 *     into a counter every thread of every rank adds to; get_accumulates
 *     into its own cell, whose old values it knows.
 *  2. each thread puts to every target, then only thread 0 calls
 *     flush_all: every rank then finds every thread's data in its memory,
 *     so one thread's flush completed the other threads' puts.
 *  3. fetch_and_op and compare_and_swap tickets from every thread of every
 *     rank at every target: each ticket is handed out exactly once (the
 *     takers mark it with an accumulate) and the counters end at the total.
 *  4. per-target locks from several threads at once: thread t locks target
 *     rank+t alone (exclusive); then one thread per target holds a shared
 *     lock while all threads put to it, and its unlock completes them.
 * At the end every rank checks its whole window: the last data of every
 * slice, the counters and cells, and every guard byte untouched. */
#include "thr_test.h"

#define ITER1 48 /* phase 1 rounds: hundreds of operations per thread */
#define NTICK 4 /* tickets of each kind a thread takes from each target */

enum { C_SUM, C_FAO, C_CAS, C_SEEN }; /* counters; then seen_fao[total], seen_cas[total] */

static int rank, nranks;

struct ctx {
    orma_win win;
    unsigned char *mem;
    struct thr_layout l;
    int64_t total; /* tickets of each kind taken from one target */
};

/* What thread t of rank o adds to the common counter at every accumulate. */
static int64_t addend(const struct ctx *c, int o, int t)
{
    return (int64_t)o * c->l.nthreads + t + 1;
}

/* Sum of addend over every thread of every rank. */
static int64_t addend_sum(const struct ctx *c)
{
    int64_t s = 0;
    for (int o = 0; o < nranks; o++)
        for (int t = 0; t < c->l.nthreads; t++)
            s += addend(c, o, t);
    return s;
}

static size_t seen_fao(const struct ctx *c, int64_t k)
{
    return thr_counter(&c->l, C_SEEN + (int)k);
}

static size_t seen_cas(const struct ctx *c, int64_t k)
{
    return thr_counter(&c->l, C_SEEN + (int)(c->total + k));
}

static void put_slice(struct ctx *c, int t, int target, unsigned seed, unsigned char *src)
{
    size_t at = thr_slice(&c->l, rank, t);
    rt_fill_data(src, THR_SLICE, seed, at);
    CHECK_OK(orma_put(src, THR_SLICE, ORMA_BYTE, target, (orma_aint)at, THR_SLICE, ORMA_BYTE, c->win));
}

static void get_slice(struct ctx *c, int t, int target, unsigned char *dst)
{
    size_t at = thr_slice(&c->l, rank, t);
    rt_fill_bg(dst, THR_SLICE);
    CHECK_OK(orma_get(dst, THR_SLICE, ORMA_BYTE, target, (orma_aint)at, THR_SLICE, ORMA_BYTE, c->win));
}

static void expect_slice(struct ctx *c, int t, const unsigned char *dst, unsigned seed, const char *what)
{
    RT_EXPECT_DATA(dst, 0, THR_SLICE, seed, thr_slice(&c->l, rank, t), what);
}

static void phase1(struct ctx *c, int t)
{
    unsigned char src[THR_SLICE], dst[THR_SLICE];
    for (int it = 0; it < ITER1; it++)
        for (int r = 0; r < nranks; r++) {
            unsigned seed = thr_seed(1, rank, t, it, r);
            put_slice(c, t, r, seed, src);
            switch ((it + r) % 4) {
            case 0: CHECK_OK(orma_win_flush(r, c->win)); break;
            case 1: CHECK_OK(orma_win_flush_all(c->win)); break;
            case 2:
                /* complete at the origin only: the buffer is free again,
                 * and what the target gets is what was put before */
                CHECK_OK(orma_win_flush_local(r, c->win));
                rt_fill_bg(src, sizeof src);
                CHECK_OK(orma_win_flush(r, c->win));
                break;
            default:
                CHECK_OK(orma_win_flush_local_all(c->win));
                rt_fill_bg(src, sizeof src);
                CHECK_OK(orma_win_flush_all(c->win));
            }
            get_slice(c, t, r, dst);
            if (it % 2)
                CHECK_OK(orma_win_flush_local(r, c->win));
            else
                CHECK_OK(orma_win_flush(r, c->win));
            expect_slice(c, t, dst, seed, "phase 1: get after put and flush");

            int64_t add = addend(c, rank, t), one = it + 1, old = -1;
            CHECK_OK(orma_accumulate(&add, 1, ORMA_INT64, r, (orma_aint)thr_counter(&c->l, C_SUM), 1,
                                     ORMA_INT64, ORMA_SUM, c->win));
            CHECK_OK(orma_get_accumulate(&one, 1, ORMA_INT64, &old, 1, ORMA_INT64, r,
                                         (orma_aint)thr_cell(&c->l, rank, t), 1, ORMA_INT64, ORMA_SUM,
                                         c->win));
            CHECK_OK(orma_win_flush(r, c->win));
            THR_EXPECT_I64(old, (int64_t)it * (it + 1) / 2, "phase 1: old value of this thread's cell");
        }
}

/* Only thread 0 completes what every thread put. */
static void phase2(struct thr_team *team, struct ctx *c, int t)
{
    unsigned char src[4][THR_SLICE]; /* one per target: none is reused before the flush */
    for (int r = 0; r < nranks; r++)
        put_slice(c, t, r, thr_seed(2, rank, t, 0, r), src[r]);
    thr_sync(team);
    if (t == 0) {
        CHECK_OK(orma_win_flush_all(c->win));
        CHECK_OK(orma_barrier()); /* every rank's thread 0 has flushed */
        CHECK_OK(orma_win_sync(c->win));
        for (int o = 0; o < nranks; o++)
            for (int u = 0; u < team->nthreads; u++) {
                size_t at = thr_slice(&c->l, o, u);
                RT_EXPECT_DATA(c->mem, at, THR_SLICE, thr_seed(2, o, u, 0, rank), at,
                               "phase 2: memory after thread 0's flush_all");
                THR_EXPECT_I64(thr_i64(c->mem, thr_cell(&c->l, o, u)), ITER1 * (ITER1 + 1) / 2,
                               "phase 2: cell of one thread's get_accumulates");
            }
        THR_EXPECT_I64(thr_i64(c->mem, thr_counter(&c->l, C_SUM)), ITER1 * addend_sum(c),
                       "phase 2: counter of every thread's accumulates");
        CHECK_OK(orma_barrier()); /* checked before anyone writes again */
    }
    thr_sync(team);
}

static int64_t fetch(struct ctx *c, int r, int counter, orma_op op)
{
    int64_t one = 1, got = -1;
    CHECK_OK(orma_fetch_and_op(op == ORMA_NO_OP ? NULL : &one, &got, ORMA_INT64, r,
                               (orma_aint)thr_counter(&c->l, counter), op, c->win));
    CHECK_OK(orma_win_flush(r, c->win));
    return got;
}

static void mark(struct ctx *c, int r, size_t off)
{
    /* not on the stack: the accumulate may still read it after mark
     * returns (over the net transport it travels at the next flush) */
    static const int64_t one = 1;
    CHECK_OK(orma_accumulate(&one, 1, ORMA_INT64, r, (orma_aint)off, 1, ORMA_INT64, ORMA_SUM, c->win));
}

static void phase3(struct thr_team *team, struct ctx *c, int t)
{
    for (int r = 0; r < nranks; r++) {
        int64_t last_fao = -1, last_cas = -1;
        for (int k = 0; k < NTICK; k++) {
            int64_t f = fetch(c, r, C_FAO, ORMA_SUM);
            CHECK(f > last_fao && f < c->total);
            last_fao = f;
            mark(c, r, seen_fao(c, f));

            int64_t cur = fetch(c, r, C_CAS, ORMA_NO_OP), tries = 0;
            for (;;) {
                int64_t next = cur + 1, got = -1;
                CHECK(cur >= 0 && cur < c->total);
                CHECK_OK(orma_compare_and_swap(&next, &cur, &got, ORMA_INT64, r,
                                               (orma_aint)thr_counter(&c->l, C_CAS), c->win));
                CHECK_OK(orma_win_flush(r, c->win));
                if (got == cur)
                    break;
                CHECK(got > cur); /* the counter only grows */
                cur = got;
                CHECK(++tries < 1000000);
            }
            CHECK(cur > last_cas);
            last_cas = cur;
            mark(c, r, seen_cas(c, cur));
        }
    }
    thr_sync(team);
    if (t == 0) {
        CHECK_OK(orma_win_flush_all(c->win));
        CHECK_OK(orma_barrier());
        CHECK_OK(orma_win_sync(c->win));
        THR_EXPECT_I64(thr_i64(c->mem, thr_counter(&c->l, C_FAO)), c->total, "fetch_and_op counter");
        THR_EXPECT_I64(thr_i64(c->mem, thr_counter(&c->l, C_CAS)), c->total, "compare_and_swap counter");
        for (int64_t k = 0; k < c->total; k++) {
            THR_EXPECT_I64(thr_i64(c->mem, seen_fao(c, k)), 1, "takers of one fetch_and_op ticket");
            THR_EXPECT_I64(thr_i64(c->mem, seen_cas(c, k)), 1, "takers of one compare_and_swap ticket");
        }
        CHECK_OK(orma_barrier());
    }
    thr_sync(team);
}

/* Per-target locks taken by several threads at once. */
static void phase4(struct thr_team *team, struct ctx *c, int t)
{
    int nt = team->nthreads;
    unsigned char src[THR_SLICE], dst[THR_SLICE];

    /* a: thread t alone at target rank+t, exclusively */
    if (t < nranks) {
        int r = (rank + t) % nranks;
        unsigned seed = thr_seed(4, rank, t, 0, r);
        CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, r, 0, c->win));
        put_slice(c, t, r, seed, src);
        CHECK_OK(orma_win_flush(r, c->win));
        get_slice(c, t, r, dst);
        CHECK_OK(orma_win_unlock(r, c->win));
        expect_slice(c, t, dst, seed, "phase 4: get under an exclusive lock held by this thread");
    }
    thr_sync(team);

    /* b: target r's shared lock is held by thread r % nt; every thread puts
     * to every target in it, and the holder's unlock completes the puts */
    unsigned char srcs[4][THR_SLICE];
    for (int r = t; r < nranks; r += nt)
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, r, 0, c->win));
    thr_sync(team);
    for (int r = 0; r < nranks; r++) {
        int64_t add = addend(c, rank, t);
        put_slice(c, t, r, thr_seed(5, rank, t, 0, r), srcs[r]);
        CHECK_OK(orma_accumulate(&add, 1, ORMA_INT64, r, (orma_aint)thr_counter(&c->l, C_SUM), 1,
                                 ORMA_INT64, ORMA_SUM, c->win));
    }
    thr_sync(team);
    for (int r = t; r < nranks; r += nt)
        CHECK_OK(orma_win_unlock(r, c->win));
    thr_sync(team);

    /* read back in new shared epochs, again held by one thread each */
    unsigned char got[4][THR_SLICE];
    for (int r = t; r < nranks; r += nt)
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, r, 0, c->win));
    thr_sync(team);
    for (int r = 0; r < nranks; r++)
        get_slice(c, t, r, got[r]);
    thr_sync(team);
    for (int r = t; r < nranks; r += nt)
        CHECK_OK(orma_win_unlock(r, c->win));
    thr_sync(team);
    for (int r = 0; r < nranks; r++)
        expect_slice(c, t, got[r], thr_seed(5, rank, t, 0, r),
                     "phase 4: get after another thread's unlock completed this thread's put");
}

static void run(struct thr_team *team, int t)
{
    struct ctx *c = team->ctx;
    if (t == 0)
        CHECK_OK(orma_win_lock_all(0, c->win));
    thr_sync(team);
    phase1(c, t);
    thr_sync(team);
    phase2(team, c, t);
    phase3(team, c, t);
    if (t == 0)
        CHECK_OK(orma_win_unlock_all(c->win));
    thr_sync(team);
    phase4(team, c, t);
}

static unsigned final_seed(int origin, int t)
{
    return thr_seed(5, origin, t, 0, rank);
}

int main(void)
{
    static const int counts[] = {2, 4, 8};
    thr_init(&rank, &nranks);
    CHECK(nranks <= 4); /* the phases' buffers hold four targets */

    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        int nt = counts[i];
        struct ctx c = {.total = (int64_t)nranks * nt * NTICK};
        thr_layout_make(&c.l, nranks, nt, C_SEEN + 2 * (int)c.total);
        CHECK_OK(orma_win_allocate(c.l.size, 1, ORMA_INFO_NULL, (void **)&c.mem, &c.win));
        thr_layout_fill(&c.l, c.mem);
        CHECK_OK(orma_barrier());

        thr_run(nt, run, &c);

        CHECK_OK(orma_barrier());
        thr_layout_expect(&c.l, c.mem, final_seed, "window at the end");
        THR_EXPECT_I64(thr_i64(c.mem, thr_counter(&c.l, C_SUM)), (ITER1 + 1) * addend_sum(&c),
                       "counter of every thread's accumulates at the end");
        for (int o = 0; o < nranks; o++)
            for (int u = 0; u < nt; u++)
                THR_EXPECT_I64(thr_i64(c.mem, thr_cell(&c.l, o, u)), ITER1 * (ITER1 + 1) / 2,
                               "cell at the end");
        THR_EXPECT_I64(thr_i64(c.mem, thr_counter(&c.l, C_FAO)), c.total, "fetch_and_op counter at the end");
        THR_EXPECT_I64(thr_i64(c.mem, thr_counter(&c.l, C_CAS)), c.total, "compare_and_swap counter at the end");
        CHECK_OK(orma_barrier());
        CHECK_OK(orma_win_free(&c.win));
        if (rank == 0)
            printf("thr_passive: %d threads per rank, %d ranks: ok\n", nt, nranks);
    }
    CHECK_OK(orma_finalize());
    return 0;
}
