/* nt_errors.c -- the errors of notified access.  Each failing call returns
 * its code and leaves a message naming the calling rank; none crashes or
 * hangs, and none moves data or raises a counter: afterwards every window
 * holds only what the calls that succeeded wrote, every counter only their
 * raises.  Rank r has r + 1 counters in the main window, so an id valid at
 * one target is out of range at the next.
 *  - ids negative or not below the target's count, a target without
 *    counters, an unknown nop (to ORMA_PROC_NULL too), and the plain
 *    calls' errors (range, rank, NULL buffer, uncommitted type, op) on
 *    notified puts, gets and accumulates;
 *  - notified operations outside an epoch, and to a rank outside the PSCW
 *    access group (ORMA_ERR_RMA_SYNC);
 *  - this rank's counter calls with bad ids, on a window without counters
 *    (ORMA_ERR_NOTIFY), on a freed or null window (ORMA_ERR_WIN), with
 *    NULL pointers and waitany of no counters (ORMA_ERR_ARG);
 *  - orma_win_notify_alloc when counters exist or above ORMA_NOTIFY_MAX,
 *    and a notified operation after its target's orma_win_notify_free;
 *  - info orma_notify_num that is not a count or too large at creation
 *    (ORMA_ERR_INFO at every rank that gives it; creation fails at all).
 * Over the net transport a target checks the ids of what comes to it and
 * the origin's next flush returns the error. */
#include "nt_test.h"

enum { SIZE = 256, AT = 64, LEN = 16 };

static int rank, nranks, rt, lt;
static unsigned char src[SIZE], res[SIZE];

/* A notified call aimed at target failed with ORMA_ERR_NOTIFY -- or, at
 * a net target, will at the flush. */
#define EXPECT_TARGET_ERR(call, win, target)                                   \
    do {                                                                       \
        int nt_rc_ = (call);                                                   \
        if (nt_net() && (target) != rank && nt_rc_ == ORMA_SUCCESS)            \
            CHECK_ERR(orma_win_flush((target), (win)), ORMA_ERR_NOTIFY);       \
        else                                                                   \
            CHECK_ERR(nt_rc_, ORMA_ERR_NOTIFY);                                \
    } while (0)

static orma_win win_counted(void **base_p)
{
    orma_info info;
    orma_win win = ORMA_WIN_NULL;
    char v[16];
    snprintf(v, sizeof v, "%d", rank + 1);
    CHECK_OK(orma_info_create(&info));
    CHECK_OK(orma_info_set(info, "orma_notify_num", v));
    CHECK_OK(orma_win_allocate(SIZE, 1, info, base_p, &win));
    CHECK_OK(orma_info_free(&info));
    return win;
}

/* Notified operations to targets with counters, in a lock_all epoch. */
static void operations(orma_win win, unsigned char *mem)
{
    int bad = rt + 1; /* rt has ids 0..rt */
    orma_type loose = NULL;
    double d = 1.0;
    nt_step("operations with bad arguments");
    CHECK_OK(orma_win_lock_all(0, win));
    CHECK_ERR(orma_put_notify(src, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, -1, ORMA_NOTIFY_ADD, 1),
              ORMA_ERR_NOTIFY);
    CHECK_ERR(orma_get_notify(res, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, -7, ORMA_NOTIFY_SET, 1),
              ORMA_ERR_NOTIFY);
    CHECK_ERR(orma_accumulate_notify(src, 2, ORMA_INT64, rt, AT, 2, ORMA_INT64, ORMA_SUM, win, -1, ORMA_NOTIFY_ADD,
                                     1),
              ORMA_ERR_NOTIFY);
    EXPECT_TARGET_ERR(orma_put_notify(src, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, bad, ORMA_NOTIFY_ADD, 1), win,
                      rt);
    EXPECT_TARGET_ERR(orma_get_notify(res, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, bad, ORMA_NOTIFY_ADD, 1), win,
                      rt);
    EXPECT_TARGET_ERR(orma_accumulate_notify(src, 2, ORMA_INT64, rt, AT, 2, ORMA_INT64, ORMA_SUM, win, 1000000,
                                             ORMA_NOTIFY_ADD, 1),
                      win, rt);
    CHECK_ERR(orma_put_notify(src, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, 0, 2, 1), ORMA_ERR_NOTIFY);
    CHECK_ERR(orma_get_notify(res, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, 0, -1, 1), ORMA_ERR_NOTIFY);
    CHECK_ERR(orma_accumulate_notify(src, 2, ORMA_INT64, rt, AT, 2, ORMA_INT64, ORMA_SUM, win, 0, 7, 1),
              ORMA_ERR_NOTIFY);
    CHECK_ERR(orma_put_notify(src, LEN, ORMA_BYTE, ORMA_PROC_NULL, AT, LEN, ORMA_BYTE, win, 0, 2, 1),
              ORMA_ERR_NOTIFY);
    /* the plain calls' errors */
    CHECK_ERR(orma_put_notify(src, LEN, ORMA_BYTE, rt, SIZE - 8, LEN, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1),
              ORMA_ERR_RANGE);
    CHECK_ERR(orma_get_notify(res, LEN, ORMA_BYTE, rt, SIZE, LEN, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1),
              ORMA_ERR_RANGE);
    CHECK_ERR(orma_put_notify(src, LEN, ORMA_BYTE, nranks, AT, LEN, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1),
              ORMA_ERR_RANK);
    CHECK_ERR(orma_put_notify(NULL, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1),
              ORMA_ERR_ARG);
    CHECK_OK(orma_type_contiguous(4, ORMA_INT, &loose)); /* never committed */
    CHECK_ERR(orma_put_notify(src, 1, loose, rt, AT, 16, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1), ORMA_ERR_TYPE);
    CHECK_ERR(orma_get_notify(res, 16, ORMA_BYTE, rt, AT, 1, loose, win, 0, ORMA_NOTIFY_ADD, 1), ORMA_ERR_TYPE);
    CHECK_OK(orma_type_free(&loose));
    CHECK_ERR(orma_accumulate_notify(&d, 1, ORMA_DOUBLE, rt, AT, 1, ORMA_DOUBLE, ORMA_BXOR, win, 0, ORMA_NOTIFY_ADD,
                                     1),
              ORMA_ERR_OP);
    /* and the last valid id works */
    CHECK_OK(orma_put_notify(src, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, rt, ORMA_NOTIFY_ADD, 3));
    CHECK_OK(orma_win_flush(rt, win));
    CHECK_OK(orma_notify_wait(win, rank, 3));
    CHECK_OK(orma_win_unlock_all(win));
    CHECK_OK(orma_barrier());
    RT_EXPECT_REGION(mem, SIZE, AT, LEN, 1u + (unsigned)lt, AT, "window after failed notified operations");
    if (!nt_net()) /* there a target refuses the counter of a get it has carried out */
        RT_EXPECT_BG(res, 0, SIZE, "get buffer after failed notified gets");
    uint64_t want[64] = {0};
    CHECK(rank < 64);
    want[rank] = 3;
    nt_expect_counters(win, (size_t)rank + 1, want, "counters after failed notified operations");
    CHECK_OK(orma_barrier());
}

/* Notified operations outside an epoch, and outside the PSCW group. */
static void epochs(orma_win win)
{
    nt_step("operations outside their epoch");
    CHECK_ERR(orma_put_notify(src, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1),
              ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_get_notify(res, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1),
              ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_accumulate_notify(src, 2, ORMA_INT64, rt, AT, 2, ORMA_INT64, ORMA_SUM, win, 0, ORMA_NOTIFY_ADD, 1),
              ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_put_notify(NULL, 0, ORMA_BYTE, ORMA_PROC_NULL, 0, 0, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1),
              ORMA_ERR_RMA_SYNC);
    if (nranks >= 3) {
        orma_group g = st_group_pair(win, rt, rt), h = st_group_pair(win, lt, lt);
        CHECK_OK(orma_win_post(h, 0, win));
        CHECK_OK(orma_win_start(g, 0, win));
        CHECK_ERR(orma_put_notify(src, LEN, ORMA_BYTE, lt, AT, LEN, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1),
                  ORMA_ERR_RMA_SYNC);
        CHECK_OK(orma_win_complete(win));
        CHECK_OK(orma_win_wait(win));
        CHECK_OK(orma_group_free(&g));
        CHECK_OK(orma_group_free(&h));
    }
    CHECK_OK(orma_barrier());
    nt_expect_counters(win, (size_t)rank + 1, NULL, "counters after operations outside their epoch");
}

/* This rank's calls on its counters: with an id it lacks, or none at all. */
static void own_calls(orma_win win, int id, const char *what)
{
    uint64_t v = 77, vals[2] = {0, 0};
    int flag = 77, ids[2] = {0, id};
    size_t index = 77;
    nt_step("counter calls: %s", what);
    CHECK_ERR(orma_notify_read(win, id, &v), ORMA_ERR_NOTIFY);
    CHECK_ERR(orma_notify_set(win, id, 1), ORMA_ERR_NOTIFY);
    CHECK_ERR(orma_notify_wait(win, id, 0), ORMA_ERR_NOTIFY);
    CHECK_ERR(orma_notify_test(win, id, 0, &flag), ORMA_ERR_NOTIFY);
    CHECK_ERR(orma_notify_waitany(win, 2, ids, vals, &index), ORMA_ERR_NOTIFY);
    CHECK_ERR(orma_notify_waitall(win, 2, ids, vals), ORMA_ERR_NOTIFY);
    CHECK(v == 77 && flag == 77 && index == 77);
}

static void null_pointers(orma_win win)
{
    int ids[1] = {0};
    uint64_t vals[1] = {0};
    size_t index = 0;
    nt_step("NULL pointers");
    CHECK_ERR(orma_notify_read(win, 0, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_notify_test(win, 0, 0, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_notify_waitany(win, 1, NULL, vals, &index), ORMA_ERR_ARG);
    CHECK_ERR(orma_notify_waitany(win, 1, ids, NULL, &index), ORMA_ERR_ARG);
    CHECK_ERR(orma_notify_waitany(win, 1, ids, vals, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_notify_waitany(win, 0, ids, vals, &index), ORMA_ERR_ARG);
    CHECK_ERR(orma_notify_waitall(win, 1, NULL, vals), ORMA_ERR_ARG);
    CHECK_ERR(orma_notify_waitall(win, 1, ids, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_win_notify_num(win, NULL), ORMA_ERR_ARG);
}

/* Every counter call on a window that is not one (any more). */
static void dead_window(orma_win win)
{
    uint64_t v = 0;
    int flag = 0, ids[1] = {0};
    uint64_t vals[1] = {0};
    size_t index = 0, n = 0;
    nt_step("calls on a window that is not one");
    CHECK_ERR(orma_notify_read(win, 0, &v), ORMA_ERR_WIN);
    CHECK_ERR(orma_notify_set(win, 0, 1), ORMA_ERR_WIN);
    CHECK_ERR(orma_notify_wait(win, 0, 0), ORMA_ERR_WIN);
    CHECK_ERR(orma_notify_test(win, 0, 0, &flag), ORMA_ERR_WIN);
    CHECK_ERR(orma_notify_waitany(win, 1, ids, vals, &index), ORMA_ERR_WIN);
    CHECK_ERR(orma_notify_waitall(win, 1, ids, vals), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_notify_num(win, &n), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_notify_alloc(win, 1), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_notify_free(win), ORMA_ERR_WIN);
    CHECK_ERR(orma_put_notify(src, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1), ORMA_ERR_WIN);
    CHECK_ERR(orma_get_notify(res, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1), ORMA_ERR_WIN);
    CHECK_ERR(orma_accumulate_notify(src, 1, ORMA_INT64, rt, AT, 1, ORMA_INT64, ORMA_SUM, win, 0, ORMA_NOTIFY_ADD, 1),
              ORMA_ERR_WIN);
}

/* A window whose ranks have no counters; then some, freed again. */
static void without_counters(void)
{
    void *base = NULL;
    orma_win win = ORMA_WIN_NULL;
    size_t n = 9;
    nt_step("a window without counters");
    CHECK_OK(orma_win_allocate(SIZE, 1, ORMA_INFO_NULL, &base, &win));
    CHECK_OK(orma_win_notify_num(win, &n));
    CHECK(n == 0);
    own_calls(win, 0, "a window without counters");
    CHECK_OK(orma_win_lock_all(0, win));
    EXPECT_TARGET_ERR(orma_put_notify(src, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1), win,
                      rt);
    EXPECT_TARGET_ERR(orma_get_notify(res, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, 0, ORMA_NOTIFY_ADD, 1), win,
                      rt);
    CHECK_OK(orma_win_unlock_all(win));
    CHECK_OK(orma_barrier()); /* before any rank makes counters */
    CHECK_ERR(orma_win_notify_alloc(win, (size_t)ORMA_NOTIFY_MAX + 1), ORMA_ERR_NOTIFY);
    CHECK_OK(orma_win_notify_alloc(win, 0)); /* none */
    CHECK_OK(orma_win_notify_num(win, &n));
    CHECK(n == 0);
    CHECK_OK(orma_win_notify_free(win)); /* none: nothing */
    CHECK_OK(orma_win_notify_alloc(win, 2));
    CHECK_ERR(orma_win_notify_alloc(win, 2), ORMA_ERR_NOTIFY);
    CHECK_ERR(orma_win_notify_alloc(win, 5), ORMA_ERR_NOTIFY);
    CHECK_OK(orma_win_notify_num(win, &n));
    CHECK(n == 2);
    null_pointers(win);
    own_calls(win, 2, "an id past this rank's two");
    own_calls(win, -1, "a negative id");
    CHECK_OK(orma_barrier());
    /* the target gives them back: an origin that has used them fails */
    CHECK_OK(orma_win_lock_all(0, win));
    CHECK_OK(orma_put_notify(src, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, 1, ORMA_NOTIFY_ADD, 1));
    CHECK_OK(orma_win_flush(rt, win));
    CHECK_OK(orma_notify_wait(win, 1, 1));
    CHECK_OK(orma_win_unlock_all(win));
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_notify_free(win));
    CHECK_OK(orma_win_notify_free(win));
    CHECK_OK(orma_barrier());
    own_calls(win, 0, "counters given back");
    CHECK_OK(orma_win_lock_all(0, win));
    EXPECT_TARGET_ERR(orma_put_notify(src, LEN, ORMA_BYTE, rt, AT, LEN, ORMA_BYTE, win, 1, ORMA_NOTIFY_ADD, 1), win,
                      rt);
    EXPECT_TARGET_ERR(orma_accumulate_notify(src, 1, ORMA_INT64, rt, AT, 1, ORMA_INT64, ORMA_SUM, win, 0,
                                             ORMA_NOTIFY_ADD, 1),
                      win, rt);
    CHECK_OK(orma_win_unlock_all(win));
    CHECK_OK(orma_barrier());
    orma_win dead = win;
    CHECK_OK(orma_win_free(&win));
    dead_window(dead);
    dead_window(ORMA_WIN_NULL);
}

/* Creation with info orma_notify_num that is not a count of 0 to
 * ORMA_NOTIFY_MAX: given by every rank, then by rank 0 alone. */
static void bad_info(void)
{
    static const char *const values[] = {"abc", "12x", "-1", "", "1048577", "99999999999999999999999"};
    orma_info info;
    nt_step("creation with bad orma_notify_num");
    CHECK_OK(orma_info_create(&info));
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        void *base = NULL;
        orma_win win = ORMA_WIN_NULL;
        CHECK_OK(orma_info_set(info, "orma_notify_num", values[i]));
        CHECK_ERR(orma_win_allocate(SIZE, 1, info, &base, &win), ORMA_ERR_INFO);
        CHECK(win == ORMA_WIN_NULL);
        CHECK_ERR(orma_win_create(src, SIZE, 1, info, &win), ORMA_ERR_INFO);
        CHECK_ERR(orma_win_create_dynamic(info, &win), ORMA_ERR_INFO);
        CHECK(win == ORMA_WIN_NULL);
    }
    /* rank 0 alone: it fails with ORMA_ERR_INFO, the others with it */
    void *base = NULL;
    orma_win win = ORMA_WIN_NULL;
    CHECK_OK(orma_info_set(info, "orma_notify_num", rank == 0 ? "many" : "2"));
    int rc = orma_win_allocate(SIZE, 1, info, &base, &win);
    if (rank == 0)
        CHECK_ERR(rc, ORMA_ERR_INFO);
    else
        CHECK(rc != ORMA_SUCCESS);
    CHECK(win == ORMA_WIN_NULL);
    CHECK_OK(orma_info_free(&info));
    CHECK_OK(orma_barrier());
}

int main(int argc, char **argv)
{
    unsigned char *mem = NULL;
    nt_init(&argc, &argv, &rank, &nranks, &rt, &lt);
    rt_fill_data(src, SIZE, 1u + (unsigned)rank, AT); /* the stream as it lands at AT */
    rt_fill_bg(res, SIZE);

    orma_win win = win_counted((void **)&mem);
    rt_fill_bg(mem, SIZE);
    CHECK_OK(orma_barrier());
    operations(win, mem);
    epochs(win);
    own_calls(win, rank + 1, "an id past this rank's count");
    own_calls(win, -1, "a negative id");
    null_pointers(win);
    CHECK_ERR(orma_win_notify_alloc(win, 1), ORMA_ERR_NOTIFY);
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_free(&win));
    without_counters();
    bad_info();
    nt_finish("nt_errors");
    return 0;
}
