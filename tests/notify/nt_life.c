/* nt_life.c -- the life of a rank's counters.
 *  1. Asked for at creation with info "orma_notify_num", a different
 *     number at each rank ("0" and no key: none), on every flavour but
 *     shared: orma_win_notify_num and orma_win_get_info's orma_notify_num
 *     give this rank's number back, and so they do after
 *     orma_win_notify_alloc and orma_win_notify_free.
 *  2. Made, used and given back many times on one window, with another
 *     number each time: new counters start at 0 whatever the old ones
 *     held, and origins that raised the old ones raise the new ones (ids
 *     the old ones lacked included) with their data in place.
 *     Thousands of counters work to the last.
 *  3. Nothing is left: after many windows with counters and many rounds
 *     of the above, the job's objects in /dev/shm, the descriptors and
 *     the /dev/shm mappings of each rank are as many as before. */
#include "nt_test.h"
#include "usage.h"

enum { SIZE = 512, LEN = 32, CYCLES = 40, WINDOWS = 24 };

static int rank, nranks, rt, lt;

/* orma_win_get_info says this rank has n counters, and so does
 * orma_win_notify_num. */
static void expect_num(orma_win win, size_t n, const char *what)
{
    orma_info info = ORMA_INFO_NULL;
    char v[ORMA_INFO_VAL_MAX + 1], want[24];
    int flag = 0;
    size_t got = 99;
    CHECK_OK(orma_win_notify_num(win, &got));
    CHECK_OK(orma_win_get_info(win, &info));
    CHECK_OK(orma_info_get(info, "orma_notify_num", sizeof v, v, &flag));
    CHECK_OK(orma_info_free(&info));
    snprintf(want, sizeof want, "%zu", n);
    if (got != n || !flag || strcmp(v, want)) {
        fprintf(stderr, "rank %d: %s: orma_win_notify_num says %zu, get_info's orma_notify_num %s\"%s\", "
                "expected %zu\n", rank, what, got, flag ? "" : "(absent) ", flag ? v : "", n);
        exit(1);
    }
}

static size_t asked(int r)
{
    return r % 3 == 0 ? 0 : (size_t)r + 2;
}

static void at_creation(int kind)
{
    struct st_win w;
    orma_info info;
    char v[24];
    nt_step("counters asked for at creation, %s", st_kind_names[kind]);
    snprintf(v, sizeof v, "%zu", asked(rank));
    CHECK_OK(orma_info_create(&info));
    CHECK_OK(orma_info_set(info, "orma_notify_num", v));
    CHECK_OK(orma_info_set(info, "same_size", "true")); /* the other keys still hold alike */
    st_win_open_info(&w, kind, SIZE, info);
    CHECK_OK(orma_info_free(&info));
    expect_num(w.win, asked(rank), "created with orma_notify_num");
    st_win_close(&w);

    st_win_open(&w, kind, SIZE);
    expect_num(w.win, 0, "created without orma_notify_num");
    CHECK_OK(orma_win_notify_alloc(w.win, 3 + (size_t)rank));
    expect_num(w.win, 3 + (size_t)rank, "after orma_win_notify_alloc");
    CHECK_OK(orma_win_notify_free(w.win));
    expect_num(w.win, 0, "after orma_win_notify_free");
    st_win_close(&w);
}

/* Thousands of counters: the last ones are as good as the first. */
static void many(void)
{
    enum { MANY = 4096 };
    struct st_win w;
    static uint64_t want[MANY];
    int ids[3] = {MANY - 1, MANY / 2, 0};
    uint64_t vals[3] = {5, 7, 9};
    nt_step("%d counters", MANY);
    nt_win_open(&w, ST_ALLOCATE, SIZE, MANY, 1);
    CHECK_OK(orma_win_lock_all(0, w.win));
    for (int i = 0; i < 3; i++) {
        CHECK_OK(orma_put_notify(NULL, 0, ORMA_BYTE, rt, 0, 0, ORMA_BYTE, w.win, ids[i], ORMA_NOTIFY_SET, vals[i]));
        CHECK_OK(orma_win_flush(rt, w.win));
        want[ids[i]] = vals[i];
    }
    CHECK_OK(orma_notify_waitall(w.win, 3, ids, vals));
    CHECK_OK(orma_win_unlock_all(w.win));
    CHECK_OK(orma_barrier());
    nt_expect_counters(w.win, MANY, want, "thousands of counters");
    st_win_close(&w);
}

static size_t count_of(int r, int c)
{
    return 1 + (size_t)((c + r) % 5);
}

/* Cycle c: counters made at every rank, raised by lt, checked, freed. */
static void cycle(struct st_win *w, int c)
{
    unsigned char msg[LEN];
    size_t mine = count_of(rank, c), top = count_of(rt, c) - 1;
    size_t at = (size_t)(c % 4) * (LEN + 16);
    CHECK_OK(orma_win_notify_alloc(w->win, mine));
    for (size_t i = 0; i < mine; i++) {
        uint64_t v = 1;
        CHECK_OK(orma_notify_read(w->win, (int)i, &v));
        CHECK(v == 0);
    }
    expect_num(w->win, mine, "a cycle's counters");
    CHECK_OK(orma_barrier()); /* every rank's are there */
    CHECK_OK(orma_win_lock_all(0, w->win));
    rt_fill_data(msg, LEN, (unsigned)(c * 37 + rank), at);
    CHECK_OK(orma_put_notify(msg, LEN, ORMA_BYTE, rt, st_disp(w, rt, at), LEN, ORMA_BYTE, w->win, (int)top,
                             ORMA_NOTIFY_ADD, (uint64_t)c + 1));
    CHECK_OK(orma_win_flush(rt, w->win));
    CHECK_OK(orma_notify_wait(w->win, (int)mine - 1, (uint64_t)c + 1));
    RT_EXPECT_DATA(w->mem, at, LEN, (unsigned)(c * 37 + lt), at, "message of a cycle");
    CHECK_OK(orma_win_unlock_all(w->win));
    uint64_t want[8] = {0};
    want[mine - 1] = (uint64_t)c + 1;
    nt_expect_counters(w->win, mine, want, "a cycle's counters");
    CHECK_OK(orma_barrier()); /* nobody raises them any more */
    CHECK_OK(orma_win_notify_free(w->win));
    expect_num(w->win, 0, "a cycle's counters given back");
}

static void cycles(int kind)
{
    struct st_win w;
    nt_step("counters made and given back %d times, %s", CYCLES, st_kind_names[kind]);
    st_win_open(&w, kind, SIZE);
    rt_fill_bg(w.mem, SIZE);
    for (int c = 0; c < CYCLES; c++)
        cycle(&w, c);
    CHECK_OK(orma_barrier());
    st_win_close(&w);
}

/* Windows with counters from creation, raised, freed with the window. */
static void windows(void)
{
    unsigned char msg[LEN];
    nt_step("%d windows with counters", WINDOWS);
    for (int i = 0; i < WINDOWS; i++) {
        struct st_win w;
        nt_win_open(&w, i % 2 ? ST_ALLOCATE : ST_CREATE_MALLOC, SIZE, 2, 1);
        CHECK_OK(orma_win_lock_all(0, w.win));
        rt_fill_data(msg, LEN, (unsigned)i, 0);
        CHECK_OK(orma_put_notify(msg, LEN, ORMA_BYTE, rt, st_disp(&w, rt, 0), LEN, ORMA_BYTE, w.win, 1,
                                 ORMA_NOTIFY_ADD, 1));
        CHECK_OK(orma_win_flush(rt, w.win));
        CHECK_OK(orma_notify_wait(w.win, 1, 1));
        CHECK_OK(orma_win_unlock_all(w.win));
        st_win_close(&w);
    }
}

static void nothing_left(void)
{
    char buf[128];
    const char *prefix = usage_shm_prefix(buf, sizeof buf);
    windows(); /* whatever is set up once, before the count */
    CHECK_OK(orma_barrier());
    struct usage before = usage_now(prefix);
    CHECK_OK(orma_barrier());
    windows();
    cycles(ST_ALLOCATE);
    CHECK_OK(orma_barrier()); /* every rank has freed everything */
    struct usage after = usage_now(prefix);
    if (after.shm > before.shm || after.fds > before.fds || after.shm_maps > before.shm_maps ||
        after.maps > before.maps + 32) {
        fprintf(stderr, "rank %d: counters leaked: /dev/shm objects %d -> %d, fds %d -> %d, /dev/shm mappings "
                "%d -> %d, mappings %d -> %d\n", rank, before.shm, after.shm, before.fds, after.fds,
                before.shm_maps, after.shm_maps, before.maps, after.maps);
        exit(1);
    }
    CHECK_OK(orma_barrier());
}

int main(int argc, char **argv)
{
    nt_init(&argc, &argv, &rank, &nranks, &rt, &lt);
    for (int kind = 0; kind < ST_NKINDS; kind++)
        if (kind != ST_SHARED)
            at_creation(kind);
    many();
    cycles(ST_CREATE_MALLOC);
    cycles(ST_DYNAMIC_ALLOCMEM);
    nothing_left();
    nt_finish("nt_life");
    return 0;
}
