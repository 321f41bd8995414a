/* sync_errors.c -- every illegal use of PSCW, lock, lock_all, flush and
 * groups fails with its exact code and a message naming the rank, and
 * changes nothing: an epoch stays open with its operations, a failed lock
 * leaves no lock word taken, outputs are not written.  Between the groups
 * of cases, and at the end, correct epochs of every kind prove that the
 * library still works: data arrives, and every rank can still lock every
 * other (a lock word left taken would hang there, which the watchdog turns
 * into a failure naming the rank). */
#include "sync_test.h"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

enum { WSIZE = 64, WATCHDOG_S = 45 };

static int rank, nranks, rt, lt;
static orma_win w;
static unsigned char *mine;
static orma_group g_all, g_empty, g_rt, g_lt;

static void watchdog(int sig)
{
    static const char msg[] = "sync_errors: a correct call hung after the error cases "
                              "(a failed call left a lock or epoch behind?)\n";
    (void)sig;
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(2);
    _exit(1);
}

static orma_group group_of(int r)
{
    orma_group g = ORMA_GROUP_NULL;
    CHECK_OK(orma_group_incl(g_all, 1, &r, &g));
    return g;
}

/* Every rank locks its right neighbour exclusively, puts 8 bytes, unlocks;
 * then checks what its left neighbour put.  No failed call may have left
 * a lock held or an epoch open. */
static void good_lock_epoch(unsigned seed)
{
    unsigned char src[8];
    rt_fill_bg(mine, WSIZE);
    rt_fill_data(src, sizeof src, seed + (unsigned)rt, 12);
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, rt, 0, w));
    CHECK_OK(orma_put(src, 8, ORMA_BYTE, rt, 12, 8, ORMA_BYTE, w));
    CHECK_OK(orma_win_unlock(rt, w));
    CHECK_OK(orma_barrier());
    RT_EXPECT_REGION(mine, WSIZE, 12, 8, seed + (unsigned)rank, 12, "window after a lock epoch");
}

/* Post to the left, start to the right, put: the ring as PSCW. */
static void good_pscw_epoch(unsigned seed)
{
    unsigned char src[8];
    rt_fill_bg(mine, WSIZE);
    rt_fill_data(src, sizeof src, seed + (unsigned)rt, 20);
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_post(g_lt, 0, w));
    CHECK_OK(orma_win_start(g_rt, 0, w));
    CHECK_OK(orma_put(src, 8, ORMA_BYTE, rt, 20, 8, ORMA_BYTE, w));
    CHECK_OK(orma_win_complete(w));
    CHECK_OK(orma_win_wait(w));
    RT_EXPECT_REGION(mine, WSIZE, 20, 8, seed + (unsigned)rank, 20, "window after a PSCW epoch");
    CHECK_OK(orma_barrier());
}

static void good_all(unsigned seed)
{
    rt_good_epoch(w, mine, WSIZE, 1, seed);
    good_lock_epoch(seed + 100);
    good_pscw_epoch(seed + 200);
}

static void errors_passive(void)
{
    unsigned char src[8], gbuf[8];
    int other = rank; /* a rank that is not rt, when there is one */
    const int bad_types[] = {0, 3, -1, ORMA_LOCK_EXCLUSIVE | ORMA_LOCK_SHARED, INT_MAX};
    const int bad_lock_asserts[] = {ORMA_MODE_NOPRECEDE, ORMA_MODE_NOSUCCEED, ORMA_MODE_NOSTORE,
                                    ORMA_MODE_NOPUT, ORMA_MODE_NOCHECK | (1 << 9), -1};

    rt_fill_data(src, 8, 1, 0);
    rt_fill_bg(gbuf, 8);

    /* Nothing open. */
    CHECK_ERR(orma_win_unlock(rt, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_unlock_all(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_flush(rt, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_flush_all(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_flush_local(rt, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_flush_local_all(w), ORMA_ERR_RMA_SYNC);
    CHECK_OK(orma_win_sync(w)); /* always allowed */

    /* Arguments of lock. */
    for (size_t i = 0; i < sizeof bad_types / sizeof bad_types[0]; i++)
        CHECK_ERR(orma_win_lock(bad_types[i], rt, 0, w), ORMA_ERR_ARG);
    for (size_t i = 0; i < sizeof bad_lock_asserts / sizeof bad_lock_asserts[0]; i++) {
        CHECK_ERR(orma_win_lock(ORMA_LOCK_EXCLUSIVE, rt, bad_lock_asserts[i], w), ORMA_ERR_ASSERT);
        CHECK_ERR(orma_win_lock_all(bad_lock_asserts[i], w), ORMA_ERR_ASSERT);
    }
    CHECK_ERR(orma_win_lock(ORMA_LOCK_EXCLUSIVE, -1, 0, w), ORMA_ERR_RANK);
    CHECK_ERR(orma_win_lock(ORMA_LOCK_SHARED, nranks, 0, w), ORMA_ERR_RANK);
    CHECK_ERR(orma_win_lock(ORMA_LOCK_SHARED, INT_MIN, 0, w), ORMA_ERR_RANK);
    CHECK_ERR(orma_win_unlock(nranks, w), ORMA_ERR_RANK);
    CHECK_ERR(orma_win_unlock(-1, w), ORMA_ERR_RANK);
    CHECK_ERR(orma_win_lock(ORMA_LOCK_EXCLUSIVE, rt, 0, ORMA_WIN_NULL), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_lock_all(0, ORMA_WIN_NULL), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_unlock(rt, ORMA_WIN_NULL), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_flush(rt, ORMA_WIN_NULL), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_flush_all(ORMA_WIN_NULL), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_sync(ORMA_WIN_NULL), ORMA_ERR_WIN);

    /* A lock epoch on rt. */
    CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, rt, 0, w));
    CHECK_ERR(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_lock(ORMA_LOCK_EXCLUSIVE, rt, 0, w), ORMA_ERR_RMA_SYNC);
    for (int r = 0; r < nranks; r++)
        if (r != rt)
            other = r;
    if (other != rt) {
        CHECK_ERR(orma_win_unlock(other, w), ORMA_ERR_RMA_SYNC);
        CHECK_ERR(orma_put(src, 8, ORMA_BYTE, other, 0, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
        CHECK_ERR(orma_get(gbuf, 8, ORMA_BYTE, other, 0, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
        CHECK_ERR(orma_win_flush(other, w), ORMA_ERR_RMA_SYNC);
        CHECK_ERR(orma_win_flush_local(other, w), ORMA_ERR_RMA_SYNC);
    }
    CHECK_ERR(orma_win_flush(nranks, w), ORMA_ERR_RANK);
    CHECK_ERR(orma_win_flush_local(-1, w), ORMA_ERR_RANK);
    CHECK_ERR(orma_win_unlock(nranks, w), ORMA_ERR_RANK);
    CHECK_OK(orma_put(src, 8, ORMA_BYTE, rt, 4, 8, ORMA_BYTE, w));
    CHECK_ERR(orma_win_fence(0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_fence(ORMA_MODE_NOPRECEDE, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_fence(ORMA_MODE_NOSUCCEED, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_lock_all(0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_unlock_all(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_start(g_rt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_complete(w), ORMA_ERR_RMA_SYNC);
    {
        orma_win saved = w;
        CHECK_ERR(orma_win_free(&w), ORMA_ERR_RMA_SYNC);
        CHECK(w == saved);
    }
    CHECK_OK(orma_win_flush(rt, w));
    CHECK_OK(orma_win_flush_local_all(w));
    CHECK_OK(orma_get(gbuf, 8, ORMA_BYTE, rt, 4, 8, ORMA_BYTE, w));
    CHECK_OK(orma_win_unlock(rt, w));
    RT_EXPECT_DATA(gbuf, 0, 8, 1, 0, "get back in the lock epoch after the failed calls");
    CHECK_ERR(orma_win_unlock(rt, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_put(src, 8, ORMA_BYTE, rt, 4, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);

    /* Two targets locked: unlocking one leaves the other's epoch open. */
    if (other != rt) {
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, rt < other ? rt : other, 0, w));
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, rt < other ? other : rt, 0, w));
        CHECK_OK(orma_win_unlock(rt, w));
        CHECK_ERR(orma_put(src, 8, ORMA_BYTE, rt, 4, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
        CHECK_ERR(orma_win_unlock(rt, w), ORMA_ERR_RMA_SYNC);
        CHECK_ERR(orma_win_fence(0, w), ORMA_ERR_RMA_SYNC);
        CHECK_OK(orma_get(gbuf, 8, ORMA_BYTE, other, 40, 8, ORMA_BYTE, w));
        CHECK_OK(orma_win_unlock(other, w));
    }

    /* lock_all. */
    CHECK_OK(orma_win_lock_all(0, w));
    CHECK_ERR(orma_win_lock_all(0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_unlock(rt, w), ORMA_ERR_RMA_SYNC);
    CHECK_OK(orma_put(src, 8, ORMA_BYTE, rt, 4, 8, ORMA_BYTE, w));
    CHECK_ERR(orma_win_fence(0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_start(g_rt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_complete(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_flush(nranks, w), ORMA_ERR_RANK);
    {
        orma_win saved = w;
        CHECK_ERR(orma_win_free(&w), ORMA_ERR_RMA_SYNC);
        CHECK(w == saved);
    }
    CHECK_OK(orma_win_flush(rt, w));
    CHECK_OK(orma_win_flush_local(rt, w));
    CHECK_OK(orma_win_flush_all(w));
    CHECK_OK(orma_win_unlock_all(w));
    CHECK_ERR(orma_win_unlock_all(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_flush_all(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_put(src, 8, ORMA_BYTE, rt, 4, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
}

static void errors_fence(void)
{
    unsigned char src[8];
    rt_fill_bg(mine, WSIZE);
    rt_fill_data(src, 8, 30 + (unsigned)rt, 16);
    CHECK_OK(orma_win_fence(0, w));
    /* A fence that opened an epoch in which nothing was issued yet does
     * not stop a lock epoch; one with operations does. */
    CHECK_OK(orma_put(src, 8, ORMA_BYTE, rt, 16, 8, ORMA_BYTE, w));
    CHECK_ERR(orma_win_lock(ORMA_LOCK_EXCLUSIVE, rt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_lock_all(0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_post(g_lt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_start(g_rt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_complete(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_wait(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_flush(rt, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_flush_local_all(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_unlock(rt, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_unlock_all(w), ORMA_ERR_RMA_SYNC);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w));
    RT_EXPECT_REGION(mine, WSIZE, 16, 8, 30 + (unsigned)rank, 16, "fence epoch after failed calls");
}

static void errors_pscw(void)
{
    unsigned char src[8], gbuf[8];
    int flag = 5;
    const int bad_post[] = {ORMA_MODE_NOPRECEDE, ORMA_MODE_NOSUCCEED, 1 << 12, -1};
    const int bad_start[] = {ORMA_MODE_NOSTORE, ORMA_MODE_NOPUT, ORMA_MODE_NOPRECEDE,
                             ORMA_MODE_NOSUCCEED, 1 << 12, -1};
    static uint32_t fake[8]; /* zeroes: not a group */

    rt_fill_data(src, 8, 2, 0);
    rt_fill_bg(gbuf, 8);

    /* Nothing open. */
    CHECK_ERR(orma_win_complete(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_wait(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_test(w, &flag), ORMA_ERR_RMA_SYNC);
    CHECK(flag == 5);

    /* Arguments. */
    for (size_t i = 0; i < sizeof bad_post / sizeof bad_post[0]; i++)
        CHECK_ERR(orma_win_post(g_lt, bad_post[i], w), ORMA_ERR_ASSERT);
    for (size_t i = 0; i < sizeof bad_start / sizeof bad_start[0]; i++)
        CHECK_ERR(orma_win_start(g_rt, bad_start[i], w), ORMA_ERR_ASSERT);
    CHECK_ERR(orma_win_post(ORMA_GROUP_NULL, 0, w), ORMA_ERR_ARG);
    CHECK_ERR(orma_win_start(ORMA_GROUP_NULL, 0, w), ORMA_ERR_ARG);
    CHECK_ERR(orma_win_post((orma_group)(void *)fake, 0, w), ORMA_ERR_ARG);
    CHECK_ERR(orma_win_start((orma_group)(void *)fake, 0, w), ORMA_ERR_ARG);
    CHECK_ERR(orma_win_post(g_lt, 0, ORMA_WIN_NULL), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_start(g_rt, 0, ORMA_WIN_NULL), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_complete(ORMA_WIN_NULL), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_wait(ORMA_WIN_NULL), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_test(ORMA_WIN_NULL, &flag), ORMA_ERR_WIN);

    /* An access epoch to nobody. */
    CHECK_OK(orma_win_start(g_empty, 0, w));
    CHECK_ERR(orma_put(src, 8, ORMA_BYTE, rt, 0, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_get(gbuf, 8, ORMA_BYTE, rt, 0, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_start(g_empty, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_start(g_rt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_fence(0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_lock_all(0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_flush(rt, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_unlock(rt, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_wait(w), ORMA_ERR_RMA_SYNC);
    {
        orma_win saved = w;
        CHECK_ERR(orma_win_free(&w), ORMA_ERR_RMA_SYNC);
        CHECK(w == saved);
    }
    CHECK_OK(orma_win_complete(w));
    CHECK_ERR(orma_win_complete(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_put(src, 8, ORMA_BYTE, rt, 0, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
    RT_EXPECT_BG(gbuf, 0, 8, "get buffer of failed gets");

    /* An exposure epoch to nobody. */
    CHECK_OK(orma_win_post(g_empty, 0, w));
    CHECK_ERR(orma_win_post(g_empty, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_post(g_lt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_fence(0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_fence(ORMA_MODE_NOPRECEDE | ORMA_MODE_NOSUCCEED, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_complete(w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_test(w, NULL), ORMA_ERR_ARG);
    {
        orma_win saved = w;
        CHECK_ERR(orma_win_free(&w), ORMA_ERR_RMA_SYNC);
        CHECK(w == saved);
    }
    flag = 0;
    CHECK_OK(orma_win_test(w, &flag));
    CHECK(flag == 1); /* nobody to wait for */
    CHECK_ERR(orma_win_test(w, &flag), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_wait(w), ORMA_ERR_RMA_SYNC);

    /* A real ring epoch with failed calls inside it. */
    rt_fill_bg(mine, WSIZE);
    rt_fill_data(src, 8, 40 + (unsigned)rt, 24);
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_post(g_lt, 0, w));
    CHECK_OK(orma_win_start(g_rt, 0, w));
    CHECK_OK(orma_put(src, 8, ORMA_BYTE, rt, 24, 8, ORMA_BYTE, w));
    if (nranks > 1 && lt != rt)
        CHECK_ERR(orma_put(src, 8, ORMA_BYTE, lt, 24, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
    if (nranks == 2)
        CHECK_ERR(orma_get(gbuf, 8, ORMA_BYTE, rank, 24, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_post(g_lt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_start(g_rt, 0, w), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_win_fence(0, w), ORMA_ERR_RMA_SYNC);
    CHECK_OK(orma_win_complete(w));
    CHECK_ERR(orma_put(src, 8, ORMA_BYTE, rt, 24, 8, ORMA_BYTE, w), ORMA_ERR_RMA_SYNC);
    CHECK_OK(orma_win_wait(w));
    RT_EXPECT_REGION(mine, WSIZE, 24, 8, 40 + (unsigned)rank, 24, "ring after failed calls");
    CHECK_OK(orma_barrier());
}

static void errors_groups(void)
{
    orma_group g = ORMA_GROUP_NULL, null_group = ORMA_GROUP_NULL;
    orma_group sentinel = (orma_group)(void *)&sentinel;
    int two[2] = {0, 0}, out[2] = {-7, -7}, size = -7;
    static uint32_t fake[8];

    g = sentinel;
    two[0] = nranks;
    CHECK_ERR(orma_group_incl(g_all, 1, two, &g), ORMA_ERR_RANK);
    two[0] = -1;
    CHECK_ERR(orma_group_incl(g_all, 1, two, &g), ORMA_ERR_RANK);
    CHECK_ERR(orma_group_excl(g_all, 1, two, &g), ORMA_ERR_RANK);
    two[0] = two[1] = nranks - 1;
    CHECK_ERR(orma_group_incl(g_all, 2, two, &g), ORMA_ERR_RANK);
    CHECK_ERR(orma_group_excl(g_all, 2, two, &g), ORMA_ERR_RANK);
    two[0] = 1;
    CHECK_ERR(orma_group_incl(g_rt, 1, two, &g), ORMA_ERR_RANK); /* g_rt has one rank */
    two[0] = 0;
    CHECK_ERR(orma_group_incl(g_all, 1, NULL, &g), ORMA_ERR_ARG);
    CHECK_ERR(orma_group_incl(g_all, -1, two, &g), ORMA_ERR_ARG);
    CHECK(g == sentinel);
    CHECK_ERR(orma_group_incl(g_all, 0, NULL, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_group_incl(ORMA_GROUP_NULL, 0, NULL, &g), ORMA_ERR_ARG);
    CHECK_ERR(orma_group_incl((orma_group)(void *)fake, 0, NULL, &g), ORMA_ERR_ARG);
    CHECK_ERR(orma_group_excl(ORMA_GROUP_NULL, 0, NULL, &g), ORMA_ERR_ARG);
    CHECK(g == sentinel);

    CHECK_ERR(orma_group_size(ORMA_GROUP_NULL, &size), ORMA_ERR_ARG);
    CHECK_ERR(orma_group_size((orma_group)(void *)fake, &size), ORMA_ERR_ARG);
    CHECK_ERR(orma_group_size(g_all, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_group_rank(ORMA_GROUP_NULL, &size), ORMA_ERR_ARG);
    CHECK_ERR(orma_group_rank(g_all, NULL), ORMA_ERR_ARG);
    CHECK(size == -7);
    two[0] = nranks;
    CHECK_ERR(orma_group_translate_ranks(g_all, 1, two, g_rt, out), ORMA_ERR_RANK);
    two[0] = 0;
    CHECK_ERR(orma_group_translate_ranks(ORMA_GROUP_NULL, 1, two, g_rt, out), ORMA_ERR_ARG);
    CHECK_ERR(orma_group_translate_ranks(g_all, 1, two, ORMA_GROUP_NULL, out), ORMA_ERR_ARG);
    CHECK_ERR(orma_group_translate_ranks(g_all, 1, two, g_rt, NULL), ORMA_ERR_ARG);
    CHECK(out[0] == -7 && out[1] == -7);
    CHECK_ERR(orma_group_free(&null_group), ORMA_ERR_ARG);
    CHECK_ERR(orma_group_free(NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_win_get_group(ORMA_WIN_NULL, &g), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_get_group(w, NULL), ORMA_ERR_ARG);
    CHECK(g == sentinel);

    /* The groups used before are intact. */
    CHECK_OK(orma_group_size(g_all, &size));
    CHECK(size == nranks);
    two[0] = 0;
    CHECK_OK(orma_group_translate_ranks(g_rt, 1, two, g_all, out));
    CHECK(out[0] == rt);
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    signal(SIGALRM, watchdog);
    alarm(WATCHDOG_S);
    rt = (rank + 1) % nranks;
    lt = (rank + nranks - 1) % nranks;
    CHECK_OK(orma_win_allocate(WSIZE, 1, ORMA_INFO_NULL, (void **)&mine, &w));
    CHECK_OK(orma_win_get_group(w, &g_all));
    CHECK_OK(orma_group_incl(g_all, 0, NULL, &g_empty));
    g_rt = group_of(rt);
    g_lt = group_of(lt);

    good_all(100);
    errors_passive();
    CHECK_OK(orma_barrier());
    good_all(1000);
    errors_fence();
    good_all(2000);
    errors_pscw();
    good_all(3000);
    errors_groups();
    good_all(4000);

    CHECK_OK(orma_group_free(&g_lt));
    CHECK_OK(orma_group_free(&g_rt));
    CHECK_OK(orma_group_free(&g_empty));
    CHECK_OK(orma_group_free(&g_all));
    CHECK_OK(orma_win_free(&w));
    CHECK(w == ORMA_WIN_NULL);
    CHECK_OK(orma_finalize());
    alarm(0);
    return 0;
}
