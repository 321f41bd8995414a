/* thr_errors.c -- the thread levels' arguments, and the rule that active
 * target synchronization is called by one thread per window at a time.
 *
 * Before orma_init_thread: an unknown level and a NULL provided_p are
 * ORMA_ERR_ARG, orma_query_thread is ORMA_ERR_NOT_INIT.  After it: the
 * level is ORMA_THREAD_MULTIPLE, and a second orma_init_thread fails.
 *
 * Ranks pair up (0 with 1, 2 with 3; a last odd rank only takes part in
 * the collective calls).  The pair's window W is used in two rounds of
 * post-start-complete-wait, in each of which one thread of one rank is
 * kept inside a synchronization call on W by the other rank, which goes
 * on only when told to through a separate window of flags:
 *  1. the target's thread A posts and waits (the origin has not started);
 *  2. the origin's thread A starts, puts (the target has not posted, so
 *     the put is queued) and completes, which waits for the post.
 * Meanwhile the blocked rank's main thread first makes sure A is inside
 * (orma_win_test is refused with a message about another thread; before A
 * is inside it is an ordinary call), then calls fence, post, start,
 * complete, wait and test on W: each must fail with ORMA_ERR_RMA_SYNC, a
 * message naming the rank and another thread, and change nothing; and a
 * lock epoch on a second window to the peer must work all the same.  Then
 * the peer is told to go on: A's call returns, the round's put has
 * arrived exactly, and a fence epoch on W afterwards transfers data. */
#include "thr_test.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define WSIZE 64

static int rank, nranks;
static orma_win win, other;           /* other: a second window of the pair */
static unsigned char *mem, *other_mem;
static orma_group peer_group;
static _Atomic int a_state; /* 1: A is about to enter its blocking call; 2: A returned */
/* MPI lets complete return before the target's post: orma's shm transport
 * waits for the post (its put goes straight to the target's memory), the
 * net transport sends the put and returns.  So the origin's A may be back
 * before the peer is told, and its round then has nobody to refuse. */
static int a_may_return;

/* A call made while thread A is inside a synchronization call on win. */
#define CHECK_OTHER_THREAD(call)                                               \
    do {                                                                       \
        CHECK_ERR((call), ORMA_ERR_RMA_SYNC);                                  \
        if (!strstr(orma_error_message(), "another thread")) {                 \
            fprintf(stderr, "rank %d: %s:%d: %s: message \"%s\" does not "     \
                    "mention another thread\n", rank, __FILE__, __LINE__,      \
                    #call, orma_error_message());                              \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

/* Return once orma_win_test says another thread is inside a call on win.
 * Until then the call is an ordinary one: it succeeds without closing
 * anything (exposure epoch, no origin done yet) or fails for want of an
 * exposure epoch; either way it changes nothing. */
static int until_a_is_inside(void)
{
    double t0 = orma_wtime();
    while (atomic_load(&a_state) == 0)
        CHECK(orma_wtime() - t0 < ST_WAIT_LIMIT);
    for (;;) {
        int flag = 0;
        if (a_may_return && atomic_load(&a_state) == 2)
            return 0;
        int rc = orma_win_test(win, &flag);
        if (a_may_return && atomic_load(&a_state) == 2)
            return 0;
        CHECK(atomic_load(&a_state) == 1); /* A cannot return before the peer is told */
        if (rc == ORMA_SUCCESS)
            CHECK(flag == 0);
        else if (rc == ORMA_ERR_RMA_SYNC && strstr(orma_error_message(), "another thread"))
            return 1;
        else
            CHECK(rc == ORMA_ERR_RMA_SYNC);
        if (orma_wtime() - t0 > ST_WAIT_LIMIT) {
            fprintf(stderr, "rank %d: orma_win_test never said that another thread is inside a "
                    "synchronization call on the window; last: %d, \"%s\"\n", rank, rc, orma_error_message());
            exit(1);
        }
        st_sleep_ms(5);
    }
}

/* Every active-target synchronization call, each refused. */
static void refused_calls(void)
{
    int flag = -1;
    CHECK_OTHER_THREAD(orma_win_fence(0, win));
    CHECK_OTHER_THREAD(orma_win_fence(ORMA_MODE_NOPRECEDE, win));
    CHECK_OTHER_THREAD(orma_win_post(peer_group, 0, win));
    CHECK_OTHER_THREAD(orma_win_start(peer_group, 0, win));
    CHECK_OTHER_THREAD(orma_win_complete(win));
    CHECK_OTHER_THREAD(orma_win_wait(win));
    CHECK_OTHER_THREAD(orma_win_test(win, &flag));
    CHECK(flag == -1); /* not written by a failed call */
    CHECK(atomic_load(&a_state) == 1);
}

static unsigned char round_src[8];

/* Thread A's blocking call.  The main thread's probe (orma_win_test) may
 * be inside a call on win just as A makes it: A is then the second thread
 * and is refused, changing nothing, and simply calls again. */
#define A_BLOCKING(call)                                                       \
    do {                                                                       \
        int a_rc_;                                                             \
        while ((a_rc_ = (call)) == ORMA_ERR_RMA_SYNC &&                        \
               strstr(orma_error_message(), "another thread"))                 \
            ;                                                                  \
        CHECK_OK(a_rc_);                                                       \
    } while (0)

static void *target_a(void *arg)
{
    (void)arg;
    CHECK_OK(orma_win_post(peer_group, 0, win));
    atomic_store(&a_state, 1);
    A_BLOCKING(orma_win_wait(win)); /* until the origin is told to start and completes */
    atomic_store(&a_state, 2);
    return NULL;
}

static void *origin_a(void *arg)
{
    int target = rank - 1;
    (void)arg;
    CHECK_OK(orma_win_start(peer_group, 0, win));
    rt_fill_data(round_src, sizeof round_src, thr_seed(2, rank, 0, 0, target), 16);
    CHECK_OK(orma_put(round_src, sizeof round_src, ORMA_BYTE, target, 16, sizeof round_src, ORMA_BYTE, win));
    atomic_store(&a_state, 1);
    A_BLOCKING(orma_win_complete(win)); /* until the target is told to post */
    atomic_store(&a_state, 2);
    return NULL;
}

/* While A is inside its call on win, a passive epoch on the other window
 * to the peer works: windows never wait for each other.  Round i writes
 * bytes [8(i+1), 8(i+2)) of the peer's other window. */
static void other_window_epoch(int peer, int i)
{
    unsigned char src[8], dst[8];
    size_t at = 8 * (size_t)(i + 1);
    rt_fill_data(src, sizeof src, thr_seed(3, rank, 0, i, peer), at);
    rt_fill_bg(dst, sizeof dst);
    CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, peer, 0, other));
    CHECK_OK(orma_put(src, sizeof src, ORMA_BYTE, peer, (orma_aint)at, sizeof src, ORMA_BYTE, other));
    CHECK_OK(orma_win_flush(peer, other));
    CHECK_OK(orma_get(dst, sizeof dst, ORMA_BYTE, peer, (orma_aint)at, sizeof dst, ORMA_BYTE, other));
    CHECK_OK(orma_win_unlock(peer, other));
    RT_EXPECT_DATA(dst, 0, sizeof dst, thr_seed(3, rank, 0, i, peer), at,
                   "get on another window while a thread is inside a call on this one");
    CHECK(a_may_return || atomic_load(&a_state) == 1);
}

/* Thread A blocks on win; this thread checks the refusals and uses the
 * other window, then tells the peer (flag i of this rank) to go on, and
 * waits for A. */
static void blocked_round(void *(*a)(void *), struct st_flags *f, int i)
{
    pthread_t tid;
    atomic_store(&a_state, 0);
    CHECK(pthread_create(&tid, NULL, a, NULL) == 0);
    a_may_return = a == origin_a && getenv("ORMA_TRANSPORT") && !strcmp(getenv("ORMA_TRANSPORT"), "net");
    /* The origin's A over the net transport may leave its complete at any
     * moment (MPI lets complete return before the post; the main thread's
     * calls make the progress that lets it): that A was inside once says
     * nothing of the next call, so that round asserts no refusals -- a call
     * may succeed and open an epoch.  Round 1 (the target's wait, which
     * cannot end before the peer is told) asserts them on every transport,
     * round 2 on shared memory. */
    if (until_a_is_inside() && !a_may_return)
        refused_calls();
    other_window_epoch(rank % 2 ? rank - 1 : rank + 1, i);
    atomic_store_explicit(st_flag(f, rank, i), 1, memory_order_release);
    CHECK(pthread_join(tid, NULL) == 0);
    CHECK(atomic_load(&a_state) == 2);
}

static void levels_before_init(void)
{
    int provided = -5;
    CHECK_ERR(orma_init_thread(7, &provided), ORMA_ERR_ARG);
    CHECK_ERR(orma_init_thread(-1, &provided), ORMA_ERR_ARG);
    CHECK_ERR(orma_init_thread(ORMA_THREAD_MULTIPLE, NULL), ORMA_ERR_ARG);
    CHECK(provided == -5);
    CHECK_ERR(orma_query_thread(&provided), ORMA_ERR_NOT_INIT);
    CHECK(provided == -5);
    int flag = -1;
    CHECK_OK(orma_initialized(&flag));
    CHECK(flag == 0); /* the failed calls did not start anything */
}

int main(void)
{
    levels_before_init();
    thr_init(&rank, &nranks);
    int provided = -5;
    CHECK_ERR(orma_init_thread(ORMA_THREAD_MULTIPLE, &provided), ORMA_ERR_ARG); /* initialized already */
    CHECK(provided == -5);
    CHECK_ERR(orma_query_thread(NULL), ORMA_ERR_ARG);
    CHECK_OK(orma_query_thread(&provided));
    CHECK(provided == ORMA_THREAD_MULTIPLE);
    if (nranks < 2) {
        fprintf(stderr, "thr_errors needs 2 ranks or more: a thread is kept waiting by another rank\n");
        exit(1);
    }

    struct st_flags f;
    st_flags_open(&f, 2);
    CHECK_OK(orma_win_allocate(WSIZE, 1, ORMA_INFO_NULL, (void **)&mem, &win));
    CHECK_OK(orma_win_allocate(WSIZE, 1, ORMA_INFO_NULL, (void **)&other_mem, &other));
    rt_fill_bg(mem, WSIZE);
    rt_fill_bg(other_mem, WSIZE);
    int paired = rank % 2 == 1 || rank + 1 < nranks;
    int is_target = rank % 2 == 0, peer = is_target ? rank + 1 : rank - 1;
    if (paired) {
        orma_group world;
        CHECK_OK(orma_win_get_group(win, &world));
        CHECK_OK(orma_group_incl(world, 1, &peer, &peer_group));
        CHECK_OK(orma_group_free(&world));
    }
    CHECK_OK(orma_barrier());

    unsigned char src[8];
    if (paired && is_target) {
        /* 1: A waits here; the origin starts when told */
        blocked_round(target_a, &f, 0);
        /* 2: the origin's A is kept in complete until this rank posts */
        ST_WAIT_FLAG(st_flag(&f, peer, 1), 1, "the origin's permission to post");
        CHECK_OK(orma_win_post(peer_group, 0, win));
        CHECK_OK(orma_win_wait(win));
        RT_EXPECT_BG(mem, 0, 8, "target window after both rounds");
        RT_EXPECT_DATA(mem, 8, 8, thr_seed(1, peer, 0, 0, rank), 8, "round 1's put");
        RT_EXPECT_DATA(mem, 16, 8, thr_seed(2, peer, 0, 0, rank), 16, "round 2's put");
        RT_EXPECT_BG(mem, 24, WSIZE, "target window after both rounds");
    } else if (paired) {
        ST_WAIT_FLAG(st_flag(&f, peer, 0), 1, "the target's permission to start");
        CHECK_OK(orma_win_start(peer_group, 0, win));
        rt_fill_data(src, sizeof src, thr_seed(1, rank, 0, 0, peer), 8);
        CHECK_OK(orma_put(src, sizeof src, ORMA_BYTE, peer, 8, sizeof src, ORMA_BYTE, win));
        CHECK_OK(orma_win_complete(win));
        blocked_round(origin_a, &f, 1);
        RT_EXPECT_BG(mem, 0, WSIZE, "origin window after both rounds");
    }
    CHECK_OK(orma_barrier());
    /* the other window holds exactly the peer's two puts (round 1 from the
     * target of the pair, round 2 from the origin) */
    if (paired) {
        RT_EXPECT_BG(other_mem, 0, 8, "other window");
        if (is_target) {
            RT_EXPECT_BG(other_mem, 8, 16, "other window");
            RT_EXPECT_DATA(other_mem, 16, 8, thr_seed(3, peer, 0, 1, rank), 16, "other window, round 2");
        } else {
            RT_EXPECT_DATA(other_mem, 8, 8, thr_seed(3, peer, 0, 0, rank), 8, "other window, round 1");
            RT_EXPECT_BG(other_mem, 16, 24, "other window");
        }
        RT_EXPECT_BG(other_mem, 24, WSIZE, "other window");
    } else {
        RT_EXPECT_BG(other_mem, 0, WSIZE, "other window of a rank without a pair");
    }
    CHECK_OK(orma_barrier());

    /* W works as before: a fence epoch from the main thread */
    rt_good_epoch(win, mem, WSIZE, 1, 40);
    if (paired)
        CHECK_OK(orma_group_free(&peer_group));
    CHECK_OK(orma_win_free(&win));
    CHECK_OK(orma_win_free(&other));
    st_flags_close(&f);
    if (rank == 0)
        printf("thr_errors: %d ranks: ok\n", nranks);
    CHECK_OK(orma_finalize());
    return 0;
}
