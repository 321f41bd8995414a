/* pscw_test.c -- orma_win_test: 0 while an origin has not completed, then 1.
 *
 * In round k the target (rank k % n) posts to every other rank and polls
 * orma_win_test.  The origins start at once but may put, get and complete
 * only when the target lets them, one after the other, through flags in a
 * shared window; each says when it has completed.  So the target knows
 * exactly when test must still say 0 (some origin has not been let go),
 * and that it must say 1 as soon as the last origin reports -- complete
 * has told the target before it returned.  Then the data is checked, and
 * test or wait again is an error: the exposure epoch is closed.
 *
 * At one rank the rank is its own origin: post, start, test (0), put,
 * test (0), complete, test (1). */
#include "sync_test.h"

enum { ROUNDS = 24, LOW = 32, SLOT = 40, SLOT_LEN = 32, GET_LEN = 24, HIGH = 32 };
enum { F_GO, F_DONE, F_COUNT };

static int rank, nranks;
static struct st_flags fl;

static size_t slot_at(int o) { return LOW + (size_t)o * SLOT; }
static size_t get_at(void) { return slot_at(nranks) + 8; }
static size_t wsize(void) { return get_at() + GET_LEN + HIGH; }
static unsigned put_seed(unsigned k, int o) { return k * 32u + (unsigned)o; }
static unsigned get_seed(unsigned k) { return 90000u + k; }

static int test_once(orma_win win)
{
    int flag = -1;
    CHECK_OK(orma_win_test(win, &flag));
    CHECK(flag == 0 || flag == 1);
    return flag;
}

static void check_target(const struct st_win *w, unsigned k, int t)
{
    size_t n = wsize();
    RT_EXPECT_BG(w->mem, 0, LOW, "below the slots");
    for (int o = 0; o < nranks; o++) {
        if (o != t || nranks == 1)
            RT_EXPECT_DATA(w->mem, slot_at(o), SLOT_LEN, put_seed(k, o), slot_at(o), "slot");
        else
            RT_EXPECT_BG(w->mem, slot_at(o), slot_at(o) + SLOT_LEN, "the target's own slot");
        RT_EXPECT_BG(w->mem, slot_at(o) + SLOT_LEN, slot_at(o + 1), "between slots");
    }
    RT_EXPECT_BG(w->mem, slot_at(nranks), get_at(), "below the get region");
    RT_EXPECT_DATA(w->mem, get_at(), GET_LEN, get_seed(k), get_at(), "get region");
    RT_EXPECT_BG(w->mem, get_at() + GET_LEN, n, "above the get region");
}

static void origin_ops(struct st_win *w, unsigned k, int t, unsigned char *src, unsigned char *gbuf)
{
    rt_fill_data(src, SLOT_LEN, put_seed(k, rank), slot_at(rank));
    CHECK_OK(orma_put(src, SLOT_LEN, ORMA_BYTE, t, st_disp(w, t, slot_at(rank)), SLOT_LEN,
                      ORMA_BYTE, w->win));
    CHECK_OK(orma_get(gbuf + 8, GET_LEN, ORMA_BYTE, t, st_disp(w, t, get_at()), GET_LEN,
                      ORMA_BYTE, w->win));
}

static void after_close(struct st_win *w)
{
    int flag = 7;
    CHECK_ERR(orma_win_test(w->win, &flag), ORMA_ERR_RMA_SYNC);
    CHECK(flag == 7);
    CHECK_ERR(orma_win_wait(w->win), ORMA_ERR_RMA_SYNC);
}

static void round_alone(struct st_win *w, unsigned k, orma_group self)
{
    unsigned char src[SLOT_LEN], gbuf[GET_LEN + 16];

    rt_fill_bg(w->mem, wsize());
    rt_fill_data(w->mem + get_at(), GET_LEN, get_seed(k), get_at());
    rt_fill_bg(gbuf, sizeof gbuf);
    CHECK_OK(orma_win_post(self, 0, w->win));
    CHECK_OK(orma_win_start(self, 0, w->win));
    CHECK(test_once(w->win) == 0);
    origin_ops(w, k, 0, src, gbuf);
    CHECK(test_once(w->win) == 0);
    CHECK_OK(orma_win_complete(w->win));
    CHECK(test_once(w->win) == 1);
    RT_EXPECT_REGION(gbuf, sizeof gbuf, 8, GET_LEN, get_seed(k), get_at(), "get buffer");
    check_target(w, k, 0);
    if (k <= 2)
        after_close(w);
}

static void round_target(struct st_win *w, unsigned k, orma_group others)
{
    unsigned long polls = 0;
    int last = nranks - 1 - (rank == nranks - 1);

    rt_fill_bg(w->mem, wsize());
    rt_fill_data(w->mem + get_at(), GET_LEN, get_seed(k), get_at());
    CHECK_OK(orma_win_post(others, 0, w->win));
    CHECK(test_once(w->win) == 0);
    polls++;
    for (int o = 0; o < nranks; o++) {
        if (o == rank)
            continue;
        CHECK(test_once(w->win) == 0);
        polls++;
        atomic_store(st_flag(&fl, o, F_GO), k);
        if (o != last) {
            /* Others have not been let go: 0 however long we poll. */
            double t0 = orma_wtime();
            while (atomic_load(st_flag(&fl, o, F_DONE)) != k) {
                CHECK(orma_wtime() - t0 < ST_WAIT_LIMIT);
                if (test_once(w->win) != 0) {
                    fprintf(stderr, "rank %d: round %u: orma_win_test returned 1 while rank %d "
                            "had not completed\n", rank, k, last);
                    exit(1);
                }
                polls++;
                sched_yield();
            }
            CHECK(test_once(w->win) == 0);
            continue;
        }
        /* The last origin: 1 may come any time now, and must once it has
         * reported back. */
        double t0 = orma_wtime();
        for (;;) {
            int reported = atomic_load(st_flag(&fl, o, F_DONE)) == k;
            polls++;
            if (test_once(w->win))
                break;
            if (reported) {
                fprintf(stderr, "rank %d: round %u: orma_win_test returned 0 after every "
                        "origin completed\n", rank, k);
                exit(1);
            }
            CHECK(orma_wtime() - t0 < ST_WAIT_LIMIT);
            sched_yield();
        }
    }
    if (k == 1)
        printf("round %u: %lu polls of orma_win_test\n", k, polls);
    check_target(w, k, rank);
    if (k <= 2 * (unsigned)nranks)
        after_close(w); /* a few times: each logs its error */
}

static void round_origin(struct st_win *w, unsigned k, int t)
{
    unsigned char src[SLOT_LEN], gbuf[GET_LEN + 16];
    orma_group all = ORMA_GROUP_NULL, to_t = ORMA_GROUP_NULL;

    CHECK_OK(orma_win_get_group(w->win, &all));
    CHECK_OK(orma_group_incl(all, 1, &t, &to_t));
    rt_fill_bg(gbuf, sizeof gbuf);
    CHECK_OK(orma_win_start(to_t, 0, w->win));
    ST_WAIT_FLAG(st_flag(&fl, rank, F_GO), k, "the target's go");
    st_sleep_ms(1); /* let the target poll meanwhile */
    origin_ops(w, k, t, src, gbuf);
    CHECK_OK(orma_win_complete(w->win));
    atomic_store(st_flag(&fl, rank, F_DONE), k);
    RT_EXPECT_REGION(gbuf, sizeof gbuf, 8, GET_LEN, get_seed(k), get_at(), "get buffer");
    CHECK_OK(orma_group_free(&to_t));
    CHECK_OK(orma_group_free(&all));
}

int main(int argc, char **argv)
{
    struct st_win w[2];

    rt_init(&argc, &argv, &rank, &nranks);
    st_flags_open(&fl, F_COUNT);
    st_win_open(&w[0], ST_ALLOCATE, wsize());
    st_win_open(&w[1], ST_CREATE_MALLOC, wsize());
    for (unsigned k = 1; k <= ROUNDS; k++) {
        struct st_win *wk = &w[k % 2];
        int t = (int)(k % (unsigned)nranks);
        orma_group all = ORMA_GROUP_NULL, g = ORMA_GROUP_NULL;

        CHECK_OK(orma_win_get_group(wk->win, &all));
        if (nranks == 1) {
            round_alone(wk, k, all);
        } else if (rank == t) {
            CHECK_OK(orma_group_excl(all, 1, &t, &g));
            round_target(wk, k, g);
            CHECK_OK(orma_group_free(&g));
        } else {
            rt_fill_bg(wk->mem, wsize());
            round_origin(wk, k, t);
        }
        CHECK_OK(orma_group_free(&all));
        CHECK_OK(orma_barrier());
        if (rank != t)
            RT_EXPECT_BG(wk->mem, 0, wsize(), "window of an origin");
        CHECK_OK(orma_barrier());
    }
    st_win_close(&w[0]);
    st_win_close(&w[1]);
    st_flags_close(&fl);
    CHECK_OK(orma_finalize());
    return 0;
}
