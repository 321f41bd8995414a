/* thr_lock_wait.c -- a thread waiting for a lock blocks only itself
 * (ORMA_THREAD_MULTIPLE).
 *
 * Rank 0's thread A holds the exclusive lock of rank 1 on W; rank 1 holds
 * the exclusive lock of rank 0 and asks for rank 1's, which it gets only
 * when A unlocks.  Rank 0's thread B meanwhile asks for rank 0's lock, so
 * B waits inside orma_win_lock until rank 1 is done -- and A's unlock must
 * go through while B waits, as it would in any serial order of the two
 * calls (A unlocks, rank 1 takes and releases both, B gets its lock).  An
 * implementation that keeps the window to B for as long as B waits
 * deadlocks the two ranks: the test then says so after 40 seconds.  The
 * data the three epochs put must all arrive.  Ranks beyond 1 only take
 * part in the collective calls. */
#include "thr_test.h"

#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

#define WSIZE 64

static int rank, nranks;
static orma_win win;
static unsigned char *mem;
static _Atomic int a_locked;

static void on_alarm(int sig)
{
    static const char msg[] = "thr_lock_wait: still blocked after 40 s: a thread waiting in orma_win_lock "
                              "kept another thread's orma_win_unlock from running (or the job hung otherwise)\n";
    (void)sig;
    ssize_t n = write(2, msg, sizeof msg - 1);
    (void)n;
    _exit(1);
}

static void put8(int target, size_t at, unsigned seed)
{
    unsigned char src[8];
    rt_fill_data(src, sizeof src, seed, at);
    CHECK_OK(orma_put(src, sizeof src, ORMA_BYTE, target, (orma_aint)at, sizeof src, ORMA_BYTE, win));
    CHECK_OK(orma_win_flush(target, win)); /* src is on this stack frame */
}

static void *thread_a(void *arg)
{
    (void)arg;
    CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, 1, 0, win));
    put8(1, 8, 1);
    atomic_store(&a_locked, 1);
    while (atomic_load(&a_locked) != 2) /* the ranks met: B is about to lock */
        sched_yield();
    st_sleep_ms(200); /* B is most likely waiting inside orma_win_lock by now */
    CHECK_OK(orma_win_unlock(1, win));
    return NULL;
}

static void *thread_b(void *arg)
{
    (void)arg;
    CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, 0, 0, win)); /* until rank 1 unlocks 0 */
    put8(0, 16, 2);
    CHECK_OK(orma_win_unlock(0, win));
    return NULL;
}

int main(void)
{
    thr_init(&rank, &nranks);
    CHECK(nranks >= 2);
    CHECK_OK(orma_win_allocate(WSIZE, 1, ORMA_INFO_NULL, (void **)&mem, &win));
    rt_fill_bg(mem, WSIZE);
    signal(SIGALRM, on_alarm);
    alarm(40);
    CHECK_OK(orma_barrier());

    if (rank == 0) {
        pthread_t a, b;
        CHECK(pthread_create(&a, NULL, thread_a, NULL) == 0);
        while (atomic_load(&a_locked) != 1)
            sched_yield();
        CHECK_OK(orma_barrier()); /* A holds rank 1's lock, rank 1 holds rank 0's */
        atomic_store(&a_locked, 2);
        CHECK(pthread_create(&b, NULL, thread_b, NULL) == 0);
        CHECK(pthread_join(a, NULL) == 0);
        CHECK(pthread_join(b, NULL) == 0);
    } else if (rank == 1) {
        CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, 0, 0, win));
        put8(0, 24, 3);
        CHECK_OK(orma_barrier());
        CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, 1, 0, win)); /* until rank 0's A unlocks */
        put8(1, 32, 4);
        CHECK_OK(orma_win_unlock(1, win));
        CHECK_OK(orma_win_unlock(0, win));
    } else {
        CHECK_OK(orma_barrier());
    }
    CHECK_OK(orma_barrier());
    alarm(0);

    if (rank == 0) {
        RT_EXPECT_BG(mem, 0, 16, "rank 0's window");
        RT_EXPECT_DATA(mem, 16, 8, 2, 16, "B's put, made once rank 1 released the lock");
        RT_EXPECT_DATA(mem, 24, 8, 3, 24, "rank 1's put under its lock of rank 0");
        RT_EXPECT_BG(mem, 32, WSIZE, "rank 0's window");
    } else if (rank == 1) {
        RT_EXPECT_BG(mem, 0, 8, "rank 1's window");
        RT_EXPECT_DATA(mem, 8, 8, 1, 8, "A's put under its lock of rank 1");
        RT_EXPECT_BG(mem, 16, 32, "rank 1's window");
        RT_EXPECT_DATA(mem, 32, 8, 4, 32, "rank 1's put once A unlocked");
        RT_EXPECT_BG(mem, 40, WSIZE, "rank 1's window");
    } else {
        RT_EXPECT_BG(mem, 0, WSIZE, "window of a rank outside the pair");
    }
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_free(&win));
    if (rank == 0)
        printf("thr_lock_wait: %d ranks: ok\n", nranks);
    CHECK_OK(orma_finalize());
    return 0;
}
