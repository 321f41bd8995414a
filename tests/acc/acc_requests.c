/* acc_requests.c -- request-based operations: rput, rget, raccumulate and
 * rget_accumulate, completed by orma_wait, orma_test and orma_waitall.
 *
 * In lock and lock_all epochs on every flavour each rank issues, to its
 * right neighbour and to itself, an rput, an rget and a plan of raccumulate
 * and rget_accumulate calls (with one undefined pair, which must fail
 * without writing a request).  Completion is by wait, by test, or by one
 * waitall over an array with ORMA_REQUEST_NULL entries, varying by round.
 * Once a request is complete -- before the unlock -- its get buffer and
 * result buffer hold the data, its origin buffer may be reused (it is
 * overwritten at once: the target must still get the original data), and
 * its handle is ORMA_REQUEST_NULL.  After the epoch each target checks its
 * window.
 *
 * Errors: the calls outside a passive-target epoch (no epoch, fence, PSCW,
 * a lock on another rank) fail with ORMA_ERR_RMA_SYNC and write neither the
 * target nor the request; wait and test on ORMA_REQUEST_NULL succeed at
 * once; freed, reused and made-up handles give ORMA_ERR_REQUEST; NULL
 * pointers ORMA_ERR_ARG; waitall frees every valid request of an array that
 * also holds bad ones and returns the error.  A request may still be
 * waited for or tested after the unlock that completed it.  Many requests
 * may be live at once, and handles are not given out twice. */
#include "acc_plan.h"

enum { M_LOCK, M_LOCK_ALL, NMODES };
enum { C_WAIT, C_TEST, C_WAITALL, NCOMPLETIONS };
enum { PUT_AT = 16, PUT_LEN = 48, GET_AT = PUT_AT + PUT_LEN + 16, GET_LEN = 40,
       PLAN_AT = GET_AT + GET_LEN + 32 };

static int rank, nranks, rt, lt;

static struct at_step plan[] = {
    {AK_ACC, ORMA_TYPEID_INT32, ORMA_SUM, 5, 0, 0},
    {AK_GACC, ORMA_TYPEID_DOUBLE, ORMA_SUM, 4, 0, 0},
    {AK_ACC, ORMA_TYPEID_INT64, ORMA_BXOR, 3, 0, 0},
    {AK_GACC, ORMA_TYPEID_UINT8, ORMA_NO_OP, 6, 1, 0},
    {AK_GACC, ORMA_TYPEID_2INT, ORMA_MINLOC, 3, 0, 0},
    {AK_ACC, ORMA_TYPEID_FLOAT, ORMA_BAND, 2, 0, 0},
    {AK_GACC, ORMA_TYPEID_C_FLOAT_COMPLEX, ORMA_PROD, 2, 0, 0},
    {AK_FOP, ORMA_TYPEID_INT16, ORMA_MAX, 1, 0, 0},
    {AK_ACC, ORMA_TYPEID_LONG_DOUBLE_INT, ORMA_MAXLOC, 2, 0, 0},
    {AK_GACC, ORMA_TYPEID_UNSIGNED_LONG, ORMA_REPLACE, 3, 0, 0},
};
enum { NSTEPS = sizeof plan / sizeof plan[0] };
static size_t plan_size;

static size_t area_size(void) { return PLAN_AT + plan_size; }
static uint32_t tseed(int r, int a, unsigned e) { return at_mix(9000u + (uint32_t)r, e * 4u + (uint32_t)a); }
static uint32_t oseed(int r, int a, unsigned e) { return at_mix(9500u + (uint32_t)r, e * 4u + (uint32_t)a); }
static unsigned put_seed(int r, int a, unsigned e) { return 100u * e + 10u * (unsigned)a + (unsigned)r; }
static unsigned get_seed(int r, int a, unsigned e) { return 100u * e + 50u + 10u * (unsigned)a + (unsigned)r; }

/* Complete one request by polling orma_test.  On shared memory the
 * transfer happens in the call (orma.h), so the first test must find it
 * complete. */
static void test_until_done(orma_request *req)
{
    int flag = 7;
    CHECK_OK(orma_test(req, &flag));
    CHECK(flag == 1);
    CHECK(*req == ORMA_REQUEST_NULL);
}

static void complete(orma_request *reqs, size_t n, int how)
{
    switch (how) {
    case C_WAIT:
        for (size_t i = 0; i < n; i++) {
            CHECK_OK(orma_wait(&reqs[i]));
            CHECK(reqs[i] == ORMA_REQUEST_NULL);
        }
        break;
    case C_TEST:
        for (size_t i = 0; i < n; i++)
            test_until_done(&reqs[i]);
        break;
    default:
        CHECK_OK(orma_waitall(n, reqs));
        for (size_t i = 0; i < n; i++)
            CHECK(reqs[i] == ORMA_REQUEST_NULL);
        break;
    }
}

static void epoch(struct st_win *w, int mode, unsigned e)
{
    const int target[2] = {rt, rank};
    unsigned char src[2][PUT_LEN], gbuf[2][GET_LEN + 32];
    unsigned char *obuf[2], *cbuf[2], *rbuf[2];
    orma_request reqs[2][NSTEPS + 2];
    char what[2][96];
    int how = (int)(e % NCOMPLETIONS);

    for (int a = 0; a < 2; a++) {
        unsigned char *area = w->mem + (size_t)a * area_size();
        rt_fill_bg(area, PLAN_AT);
        rt_fill_data(area + GET_AT, GET_LEN, get_seed(rank, a, e), GET_AT);
        rt_fill_bg(area + PLAN_AT, plan_size);
        at_plan_init(area + PLAN_AT, plan, NSTEPS, tseed(rank, a, e));
        rt_fill_data(src[a], PUT_LEN, put_seed(rank, a, e), PUT_AT);
        rt_fill_bg(gbuf[a], sizeof gbuf[a]);
        obuf[a] = malloc(plan_size);
        cbuf[a] = malloc(plan_size);
        rbuf[a] = malloc(plan_size);
        CHECK(obuf[a] && cbuf[a] && rbuf[a]);
        rt_fill_bg(obuf[a], plan_size);
        rt_fill_bg(cbuf[a], plan_size);
        rt_fill_bg(rbuf[a], plan_size);
        at_plan_origin(obuf[a], cbuf[a], plan, NSTEPS, oseed(rank, a, e), tseed(target[a], a, e));
        snprintf(what[a], sizeof what[a], "%s to %s on %s, completion %d", mode == M_LOCK ? "lock" : "lock_all",
                 a ? "itself" : "the neighbour", st_kind_names[w->kind], how);
    }

    CHECK_OK(orma_barrier()); /* every window is initialized */
    if (mode == M_LOCK_ALL)
        CHECK_OK(orma_win_lock_all(0, w->win));
    for (int a = 0; a < 2; a++) {
        int t = target[a];
        orma_request *rq = reqs[a];
        size_t base = (size_t)a * area_size();
        /* Lock mode: one target at a time, exclusive for the neighbour. */
        if (mode == M_LOCK)
            CHECK_OK(orma_win_lock(a ? ORMA_LOCK_SHARED : ORMA_LOCK_EXCLUSIVE, t, 0, w->win));
        rq[0] = rq[1] = AT_REQ_UNSET;
        CHECK_OK(orma_rput(src[a], PUT_LEN, ORMA_BYTE, t, st_disp(w, t, base + PUT_AT), PUT_LEN, ORMA_BYTE,
                           w->win, &rq[0]));
        CHECK_OK(orma_rget(gbuf[a] + 16, GET_LEN / 4, ORMA_INT32, t, st_disp(w, t, base + GET_AT), GET_LEN / 8,
                           ORMA_UINT64, w->win, &rq[1]));
        CHECK(rq[0] != AT_REQ_UNSET && rq[0] != ORMA_REQUEST_NULL);
        CHECK(rq[1] != AT_REQ_UNSET && rq[1] != ORMA_REQUEST_NULL && rq[1] != rq[0]);
        at_plan_issue(plan, NSTEPS, obuf[a], cbuf[a], rbuf[a], t, st_disp(w, t, base + PLAN_AT), 1, w->win,
                      rq + 2, what[a]);
        complete(rq, NSTEPS + 2, how);

        /* Complete at the origin: buffers are ours again, before unlock. */
        memset(src[a], 0, sizeof src[a]);
        RT_EXPECT_REGION(gbuf[a], sizeof gbuf[a], 16, GET_LEN, get_seed(t, a, e), GET_AT, what[a]);
        at_plan_expect_results(rbuf[a], plan_size, plan, NSTEPS, tseed(t, a, e), what[a]);
        rt_fill_bg(obuf[a], plan_size);
        if (mode == M_LOCK)
            CHECK_OK(orma_win_unlock(t, w->win));
    }
    if (mode == M_LOCK_ALL)
        CHECK_OK(orma_win_unlock_all(w->win));
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_sync(w->win));

    for (int a = 0; a < 2; a++) {
        unsigned char *area = w->mem + (size_t)a * area_size();
        int from = a ? rank : lt;
        RT_EXPECT_BG(area, 0, PUT_AT, what[a]);
        RT_EXPECT_DATA(area, PUT_AT, PUT_LEN, put_seed(from, a, e), PUT_AT, what[a]);
        RT_EXPECT_BG(area, PUT_AT + PUT_LEN, GET_AT, what[a]);
        RT_EXPECT_DATA(area, GET_AT, GET_LEN, get_seed(rank, a, e), GET_AT, what[a]);
        RT_EXPECT_BG(area, GET_AT + GET_LEN, PLAN_AT, what[a]);
        at_plan_expect_target(area + PLAN_AT, plan_size, plan, NSTEPS, tseed(rank, a, e), oseed(from, a, e),
                              what[a]);
        free(obuf[a]);
        free(cbuf[a]);
        free(rbuf[a]);
    }
    CHECK_OK(orma_barrier());
}

/* Every request call must fail with ORMA_ERR_RMA_SYNC in the current
 * state, writing no request. */
static void expect_sync_errors(struct st_win *w, int t, const char *what)
{
    unsigned char buf[16];
    int32_t res[2];
    orma_request r = AT_REQ_UNSET;
    orma_aint d = st_disp(w, t, PUT_AT);

    rt_fill_data(buf, sizeof buf, 77, 0);
    CHECK_ERR(orma_rput(buf, 8, ORMA_BYTE, t, d, 8, ORMA_BYTE, w->win, &r), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_rget(buf, 8, ORMA_BYTE, t, d, 8, ORMA_BYTE, w->win, &r), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_raccumulate(buf, 2, ORMA_INT32, t, d, 2, ORMA_INT32, ORMA_SUM, w->win, &r),
              ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_rget_accumulate(buf, 2, ORMA_INT32, res, 2, ORMA_INT32, t, d, 2, ORMA_INT32, ORMA_SUM,
                                   w->win, &r),
              ORMA_ERR_RMA_SYNC);
    if (r != AT_REQ_UNSET) {
        fprintf(stderr, "rank %d: %s: a failed call wrote the request\n", rank, what);
        exit(1);
    }
}

static void errors(void)
{
    struct st_win w;
    const orma_request made_up[] = {1, 2, 3, 0xdeadbeef, UINT64_MAX, UINT64_C(0x8000000000000000),
                                    AT_REQ_UNSET};
    orma_request r = ORMA_REQUEST_NULL, a, b, c, copy_a, copy_b, copy_c, freed, stale;
    unsigned char src[8], gb[8 + 16];
    int32_t one = 5, old = -1;
    int flag;

    st_win_open(&w, ST_ALLOCATE, area_size());
    rt_fill_bg(w.mem, area_size());
    CHECK_OK(orma_barrier());

    /* Outside a passive-target epoch. */
    expect_sync_errors(&w, rt, "no epoch");
    CHECK_OK(orma_win_fence(0, w.win));
    expect_sync_errors(&w, rt, "fence epoch");
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w.win));
    {
        orma_group all = ORMA_GROUP_NULL;
        CHECK_OK(orma_win_get_group(w.win, &all));
        CHECK_OK(orma_win_post(all, 0, w.win));
        CHECK_OK(orma_win_start(all, 0, w.win));
        expect_sync_errors(&w, rt, "PSCW epoch");
        CHECK_OK(orma_win_complete(w.win));
        CHECK_OK(orma_win_wait(w.win));
        CHECK_OK(orma_group_free(&all));
    }
    if (nranks > 1) {
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, w.win));
        expect_sync_errors(&w, rank, "lock epoch on another rank");
        CHECK_OK(orma_win_unlock(rt, w.win));
    }
    CHECK_OK(orma_barrier());
    RT_EXPECT_BG(w.mem, 0, area_size(), "window after refused request calls");
    CHECK_OK(orma_barrier());

    CHECK_OK(orma_win_lock_all(0, w.win));
    /* ORMA_REQUEST_NULL: done at once. */
    CHECK_OK(orma_wait(&r));
    CHECK(r == ORMA_REQUEST_NULL);
    flag = 7;
    CHECK_OK(orma_test(&r, &flag));
    CHECK(flag == 1 && r == ORMA_REQUEST_NULL);
    CHECK_OK(orma_waitall(1, &r));

    /* NULL pointers. */
    CHECK_ERR(orma_wait(NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_test(NULL, &flag), ORMA_ERR_ARG);
    rt_fill_data(src, sizeof src, 300u + (unsigned)rt, PUT_AT);
    CHECK_OK(orma_rput(src, 8, ORMA_BYTE, rt, PUT_AT, 8, ORMA_BYTE, w.win, &a));
    copy_a = a;
    CHECK_ERR(orma_test(&a, NULL), ORMA_ERR_ARG);
    CHECK(a == copy_a); /* still valid: nothing was changed */
    CHECK_ERR(orma_rput(src, 8, ORMA_BYTE, rt, PUT_AT + 8, 8, ORMA_BYTE, w.win, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_raccumulate(&one, 1, ORMA_INT32, rt, PUT_AT + 16, 1, ORMA_INT32, ORMA_SUM, w.win, NULL),
              ORMA_ERR_ARG);

    /* Freed handles. */
    CHECK_OK(orma_wait(&a));
    CHECK(a == ORMA_REQUEST_NULL);
    /* The rget_accumulate below reads what this rput wrote: a put and an
     * accumulate are only ordered by a flush. */
    CHECK_OK(orma_win_flush(rt, w.win));
    CHECK_ERR(orma_wait(&copy_a), ORMA_ERR_REQUEST);
    CHECK(copy_a != ORMA_REQUEST_NULL); /* not written on error */
    flag = 7;
    CHECK_ERR(orma_test(&copy_a, &flag), ORMA_ERR_REQUEST);
    CHECK(flag == 7);
    /* A new request must not make the freed handle valid again. */
    freed = copy_a;
    CHECK_OK(orma_rget(gb + 8, 8, ORMA_BYTE, lt, PUT_AT + 24, 8, ORMA_BYTE, w.win, &b));
    CHECK(b != freed);
    stale = freed;
    CHECK_ERR(orma_wait(&stale), ORMA_ERR_REQUEST);
    CHECK_OK(orma_wait(&b));

    /* Made-up handles, while no request is live. */
    for (size_t i = 0; i < sizeof made_up / sizeof made_up[0]; i++) {
        orma_request m = made_up[i];
        flag = 7;
        CHECK_ERR(orma_wait(&m), ORMA_ERR_REQUEST);
        CHECK_ERR(orma_test(&m, &flag), ORMA_ERR_REQUEST);
        CHECK(m == made_up[i] && flag == 7);
    }

    /* waitall over good, NULL, made-up and freed entries: the good ones are
     * completed and freed, the first error is returned. */
    rt_fill_bg(gb, sizeof gb);
    CHECK_OK(orma_rput(src, 8, ORMA_BYTE, rt, PUT_AT + 32, 8, ORMA_BYTE, w.win, &a));
    CHECK_OK(orma_rget(gb + 8, 8, ORMA_BYTE, rt, GET_AT, 8, ORMA_BYTE, w.win, &b));
    CHECK_OK(orma_rget_accumulate(&one, 1, ORMA_INT32, &old, 1, ORMA_INT32, rt, PUT_AT, 1, ORMA_INT32,
                                  ORMA_SUM, w.win, &c));
    copy_a = a;
    copy_b = b;
    copy_c = c;
    {
        orma_request arr[] = {ORMA_REQUEST_NULL, a, 0xdeadbeef, b, ORMA_REQUEST_NULL, freed, c};
        CHECK_ERR(orma_waitall(sizeof arr / sizeof arr[0], arr), ORMA_ERR_REQUEST);
        CHECK(arr[0] == ORMA_REQUEST_NULL && arr[1] == ORMA_REQUEST_NULL && arr[3] == ORMA_REQUEST_NULL &&
              arr[4] == ORMA_REQUEST_NULL && arr[6] == ORMA_REQUEST_NULL);
    }
    CHECK_ERR(orma_wait(&copy_a), ORMA_ERR_REQUEST);
    CHECK_ERR(orma_wait(&copy_b), ORMA_ERR_REQUEST);
    CHECK_ERR(orma_wait(&copy_c), ORMA_ERR_REQUEST);
    /* Their data arrived: the get buffer holds the target's bytes (still
     * background: nothing wrote GET_AT), the result the old int32 at
     * PUT_AT, which our first rput wrote. */
    RT_EXPECT_BG(gb, 0, 8, "waitall get buffer front");
    for (size_t i = 0; i < 8; i++)
        CHECK(gb[8 + i] == rt_bg(GET_AT + i));
    RT_EXPECT_BG(gb, 16, sizeof gb, "waitall get buffer back");
    {
        int32_t want;
        memcpy(&want, src, sizeof want);
        CHECK(old == want);
    }
    CHECK_OK(orma_win_unlock_all(w.win));
    CHECK_OK(orma_barrier());

    /* The target: the rput at PUT_AT (+ 5 from the rget_accumulate), the
     * rput at PUT_AT + 32, nothing from the refused calls. */
    {
        unsigned char want[8];
        int32_t v;
        rt_fill_data(want, sizeof want, 300u + (unsigned)rank, PUT_AT);
        memcpy(&v, want, sizeof v);
        v = (int32_t)((uint32_t)v + 5u);
        memcpy(want, &v, sizeof v);
        CHECK(memcmp(w.mem + PUT_AT, want, 8) == 0);
        RT_EXPECT_BG(w.mem, PUT_AT + 8, PUT_AT + 32, "window after request errors");
        RT_EXPECT_DATA(w.mem, PUT_AT + 32, 8, 300u + (unsigned)rank, PUT_AT, "rput completed by waitall");
        RT_EXPECT_BG(w.mem, PUT_AT + 40, area_size(), "window after request errors");
        RT_EXPECT_BG(w.mem, 0, PUT_AT, "window after request errors");
    }
    CHECK_OK(orma_barrier());

    /* A request outlives its epoch: the unlock completed it, and waiting
     * or testing afterwards frees it. */
    rt_fill_bg(gb, sizeof gb);
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, w.win));
    CHECK_OK(orma_rget(gb + 8, 8, ORMA_BYTE, rt, PUT_AT + 32, 8, ORMA_BYTE, w.win, &a));
    CHECK_OK(orma_raccumulate(&one, 1, ORMA_INT32, rt, PUT_AT + 48, 1, ORMA_INT32, ORMA_REPLACE, w.win, &b));
    CHECK_OK(orma_win_unlock(rt, w.win));
    CHECK_OK(orma_wait(&b));
    flag = 0;
    CHECK_OK(orma_test(&a, &flag));
    CHECK(flag == 1 && a == ORMA_REQUEST_NULL && b == ORMA_REQUEST_NULL);
    RT_EXPECT_REGION(gb, sizeof gb, 8, 8, 300u + (unsigned)rt, PUT_AT, "rget completed after unlock");
    CHECK_OK(orma_barrier());
    {
        int32_t v;
        memcpy(&v, w.mem + PUT_AT + 48, sizeof v);
        CHECK(v == one);
        RT_EXPECT_BG(w.mem, PUT_AT + 52, area_size(), "window after the late waits");
    }
    CHECK_OK(orma_barrier());
    st_win_close(&w);
}

static int cmp_req(const void *a, const void *b)
{
    orma_request x = *(const orma_request *)a, y = *(const orma_request *)b;
    return x < y ? -1 : x > y;
}

/* Many requests: MANY live at once (each rput writes one byte at the
 * target), completed by one waitall; then MANY made and freed one after
 * the other, whose handles must all differ (a handle given out again
 * would make a freed one valid). */
enum { MANY = 1500 };

static void many(void)
{
    struct st_win w;
    orma_request *live = malloc(MANY * sizeof *live), *seen = malloc(MANY * sizeof *seen), first;
    unsigned char *src = malloc(MANY);
    CHECK(live && seen && src);
    st_win_open(&w, ST_ALLOCATE, MANY);
    memset(w.mem, 0, MANY);
    rt_fill_data(src, MANY, 700u + (unsigned)rt, 0);
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, w.win));
    for (size_t i = 0; i < MANY; i++)
        CHECK_OK(orma_rput(src + i, 1, ORMA_BYTE, rt, (orma_aint)i, 1, ORMA_BYTE, w.win, &live[i]));
    memcpy(seen, live, MANY * sizeof *seen);
    qsort(seen, MANY, sizeof *seen, cmp_req);
    for (size_t i = 1; i < MANY; i++)
        CHECK(seen[i] != seen[i - 1]);
    CHECK_OK(orma_waitall(MANY, live));
    for (size_t i = 0; i < MANY; i++)
        CHECK(live[i] == ORMA_REQUEST_NULL);
    for (size_t i = 0; i < MANY; i++) {
        orma_request r;
        CHECK_OK(orma_raccumulate(src + i, 1, ORMA_BYTE, rt, (orma_aint)i, 1, ORMA_BYTE, ORMA_NO_OP, w.win, &r));
        seen[i] = r;
        CHECK_OK(orma_wait(&r));
    }
    first = seen[0];
    qsort(seen, MANY, sizeof *seen, cmp_req);
    for (size_t i = 1; i < MANY; i++)
        CHECK(seen[i] != seen[i - 1]);
    CHECK_ERR(orma_wait(&first), ORMA_ERR_REQUEST);
    CHECK_OK(orma_win_unlock_all(w.win));
    CHECK_OK(orma_barrier());
    RT_EXPECT_DATA(w.mem, 0, MANY, 700u + (unsigned)rank, 0, "bytes of the many rputs");
    CHECK_OK(orma_barrier());
    st_win_close(&w);
    free(live);
    free(seen);
    free(src);
}

int main(int argc, char **argv)
{
    unsigned e = 0;
    rt_init(&argc, &argv, &rank, &nranks);
    rt = (rank + 1) % nranks;
    lt = (rank + nranks - 1) % nranks;
    at_types_init();
    plan_size = at_plan_layout(plan, NSTEPS);
    for (int kind = 0; kind < ST_NKINDS; kind++) {
        struct st_win w;
        st_win_open(&w, kind, 2 * area_size());
        for (int mode = 0; mode < NMODES; mode++)
            for (int round = 0; round < NCOMPLETIONS; round++)
                epoch(&w, mode, e++);
        st_win_close(&w);
    }
    errors();
    many();
    CHECK_OK(orma_finalize());
    return 0;
}
