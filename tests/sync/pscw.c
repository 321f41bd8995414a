/* pscw.c -- post-start-complete-wait in ring and all-to-all patterns.
 *
 * Every rank is target and origin at once, so exposure and access groups
 * overlap: it posts to the ranks that will access it, starts to the ranks
 * it accesses, puts and gets, completes and waits.  Before each post the
 * target stores a fresh background over its whole window (and the data
 * its origins will get): a put applied before the post would be wiped
 * out, a get served before it would return the old contents.  Values
 * depend on the epoch; after complete the get buffers, after wait the
 * whole window are checked.
 *
 * Ring (right neighbour): epochs cycle through plain, ORMA_MODE_NOCHECK
 * (post, barrier, start: the guarantee holds), and a late target that
 * sleeps before posting (the origin's start, put, get and complete come
 * first: the operations are deferred); some origins issue nothing in some
 * epochs, and some epochs end with orma_win_test polling instead of wait.
 * In some epochs each rank, with its exposure epoch open, also locks its
 * right neighbour and puts through a passive epoch before it starts: an
 * exposure epoch may overlap a passive access epoch.
 * All-to-all: in epoch e rank e % n stays out (posts and starts the empty
 * group) and the others use the group of all but it, built with
 * orma_group_excl; sizes, ranks and translations are checked.  Both run on
 * an allocated window and on malloc'd memory (single-copy syscalls). */
#include "sync_test.h"

enum { LOW = 32, PUT_AT = LOW, PUT_LEN = 48, GET_AT = PUT_AT + PUT_LEN + 16, GET_LEN = 40,
       PAS_AT = GET_AT + GET_LEN + 16, PAS_LEN = 24, RING_SIZE = PAS_AT + PAS_LEN + 32 };
enum { SLOT = 32, SLOT_LEN = 24, A2A_GET_LEN = 64, LATE_MS = 30 };

static int rank, nranks, lt, rt;
static orma_group g_all, g_empty;

static size_t a2a_slot(int o) { return LOW + (size_t)o * SLOT; }
static size_t a2a_get_at(void) { return a2a_slot(nranks) + 8; }
static size_t a2a_size(void) { return a2a_get_at() + A2A_GET_LEN + 32; }

static orma_group group_of(int r)
{
    orma_group g = ORMA_GROUP_NULL;
    int size = 0, pos = 0, back = -1;
    const int first = 0;
    CHECK_OK(orma_group_incl(g_all, 1, &r, &g));
    CHECK_OK(orma_group_size(g, &size));
    CHECK(size == 1);
    CHECK_OK(orma_group_rank(g, &pos));
    CHECK(pos == (r == rank ? 0 : ORMA_UNDEFINED));
    CHECK_OK(orma_group_translate_ranks(g, 1, &first, g_all, &back));
    CHECK(back == r);
    return g;
}

static void close_exposure(orma_win win, int use_test)
{
    if (!use_test) {
        CHECK_OK(orma_win_wait(win));
        return;
    }
    st_test_until_done(win);
}

static unsigned ring_put_seed(unsigned e, int t) { return 7u * e * 16u + (unsigned)t; }
static unsigned ring_get_seed(unsigned e, int t) { return 7u * e * 16u + 8u + (unsigned)t; }
static int ring_silent(unsigned e, int r) { return (e + (unsigned)r) % 7 == 3; }
static unsigned ring_pas_seed(unsigned e, int t) { return 7u * e * 16u + 4u + (unsigned)t; }

static void ring(struct st_win *w, unsigned epochs, unsigned base)
{
    orma_group to_lt = group_of(lt), to_rt = group_of(rt);
    unsigned char src[PUT_LEN + 8], gbuf[GET_LEN + 32], pas[PAS_LEN];

    for (unsigned i = 0; i < epochs; i++) {
        unsigned e = base + i;
        int nocheck = e % 4 == 1, passive = e % 10 == 4;
        int late = e % 25 == 7 && rank == (int)(e / 25 % (unsigned)nranks);
        int silent = ring_silent(e, rank);
        size_t skew = e % 8;

        if (late)
            st_sleep_ms(LATE_MS);
        rt_fill_bg(w->mem, RING_SIZE);
        rt_fill_data(w->mem + GET_AT, GET_LEN, ring_get_seed(e, rank), GET_AT);
        rt_fill_data(src + skew, PUT_LEN, ring_put_seed(e, rt), PUT_AT);
        rt_fill_bg(gbuf, sizeof gbuf);

        CHECK_OK(orma_win_post(to_lt, nocheck ? ORMA_MODE_NOCHECK : 0, w->win));
        if (nocheck)
            CHECK_OK(orma_barrier());
        if (passive) {
            /* After the barrier every rank has stored its background. */
            CHECK_OK(orma_barrier());
            rt_fill_data(pas, PAS_LEN, ring_pas_seed(e, rt), PAS_AT);
            CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, rt, 0, w->win));
            CHECK_OK(orma_put(pas, PAS_LEN, ORMA_BYTE, rt, st_disp(w, rt, PAS_AT), PAS_LEN,
                              ORMA_BYTE, w->win));
            CHECK_OK(orma_win_unlock(rt, w->win));
        }
        CHECK_OK(orma_win_start(to_rt, nocheck ? ORMA_MODE_NOCHECK : 0, w->win));
        if (!silent) {
            CHECK_OK(orma_put(src + skew, PUT_LEN, ORMA_BYTE, rt, st_disp(w, rt, PUT_AT), PUT_LEN,
                              ORMA_BYTE, w->win));
            CHECK_OK(orma_get(gbuf + 16, GET_LEN, ORMA_BYTE, rt, st_disp(w, rt, GET_AT), GET_LEN,
                              ORMA_BYTE, w->win));
        }
        CHECK_OK(orma_win_complete(w->win));
        if (silent)
            RT_EXPECT_BG(gbuf, 0, sizeof gbuf, "get buffer of an origin that issued nothing");
        else
            RT_EXPECT_REGION(gbuf, sizeof gbuf, 16, GET_LEN, ring_get_seed(e, rt), GET_AT,
                             "ring get buffer");
        close_exposure(w->win, e % 3 == 2);

        if (ring_silent(e, lt))
            RT_EXPECT_BG(w->mem, 0, GET_AT, "put region of a silent origin");
        else
            RT_EXPECT_REGION(w->mem, GET_AT, PUT_AT, PUT_LEN, ring_put_seed(e, rank), PUT_AT,
                             "ring put region");
        RT_EXPECT_DATA(w->mem, GET_AT, GET_LEN, ring_get_seed(e, rank), GET_AT,
                       "ring get region (read only)");
        if (passive) {
            /* The left neighbour unlocked before it completed. */
            RT_EXPECT_BG(w->mem, GET_AT + GET_LEN, PAS_AT, "above the ring get region");
            RT_EXPECT_DATA(w->mem, PAS_AT, PAS_LEN, ring_pas_seed(e, rank), PAS_AT,
                           "region put in a passive epoch during the exposure epoch");
            RT_EXPECT_BG(w->mem, PAS_AT + PAS_LEN, RING_SIZE, "above the passive region");
            CHECK_OK(orma_barrier()); /* before anybody stores the next background */
        } else {
            RT_EXPECT_BG(w->mem, GET_AT + GET_LEN, RING_SIZE, "above the ring get region");
        }
    }
    CHECK_OK(orma_group_free(&to_lt));
    CHECK_OK(orma_group_free(&to_rt));
    CHECK(to_lt == ORMA_GROUP_NULL && to_rt == ORMA_GROUP_NULL);
}

static unsigned a2a_seed(unsigned e, int o, int t) { return e * 64u + (unsigned)o * 8u + (unsigned)t; }
static unsigned a2a_get_seed(unsigned e, int t) { return 50000u + e * 8u + (unsigned)t; }

/* The group of every rank but x, checked against the whole group. */
static orma_group all_but(int x)
{
    orma_group g = ORMA_GROUP_NULL;
    int size = 0, pos = 0;
    int *pos_in_g = malloc((size_t)nranks * sizeof *pos_in_g);
    int *ranks = malloc((size_t)nranks * sizeof *ranks);
    CHECK(pos_in_g && ranks);

    CHECK_OK(orma_group_excl(g_all, 1, &x, &g));
    CHECK_OK(orma_group_size(g, &size));
    CHECK(size == nranks - 1);
    CHECK_OK(orma_group_rank(g, &pos));
    CHECK(pos == (rank == x ? ORMA_UNDEFINED : rank - (rank > x)));
    for (int r = 0; r < nranks; r++)
        ranks[r] = r;
    CHECK_OK(orma_group_translate_ranks(g_all, nranks, ranks, g, pos_in_g));
    for (int r = 0; r < nranks; r++)
        CHECK(pos_in_g[r] == (r == x ? ORMA_UNDEFINED : r - (r > x)));
    if (size > 0) {
        CHECK_OK(orma_group_translate_ranks(g, size, ranks, g_all, pos_in_g));
        for (int i = 0; i < size; i++)
            CHECK(pos_in_g[i] == i + (i >= x));
    }
    free(pos_in_g);
    free(ranks);
    return g;
}

static void all_to_all(struct st_win *w, unsigned epochs, unsigned base)
{
    size_t n = a2a_size(), get_at = a2a_get_at(), glen = A2A_GET_LEN - 4 * (size_t)(nranks - 1);
    size_t gtotal = (size_t)nranks * (glen + 16) + 16;
    unsigned char *src = malloc((size_t)nranks * SLOT_LEN), *gbuf = malloc(gtotal);
    CHECK(src && gbuf);

    for (unsigned i = 0; i < epochs; i++) {
        unsigned e = base + i;
        int x = (int)(e % (unsigned)nranks), in = rank != x;
        int late = e % 20 == 5 && rank == (int)((e / 20 + 1) % (unsigned)nranks);
        orma_group g = all_but(x);
        orma_group mine = in ? g : g_empty;

        if (late)
            st_sleep_ms(LATE_MS);
        rt_fill_bg(w->mem, n);
        rt_fill_data(w->mem + get_at, A2A_GET_LEN, a2a_get_seed(e, rank), get_at);
        rt_fill_bg(gbuf, gtotal);
        CHECK_OK(orma_win_post(mine, 0, w->win));
        CHECK_OK(orma_win_start(mine, 0, w->win));
        for (int t = 0; in && t < nranks; t++) {
            if (t == x)
                continue;
            /* Each origin gets a different part of the target's get region. */
            size_t goff = get_at + 4 * (size_t)rank - 4 * (size_t)(rank > x);
            rt_fill_data(src + (size_t)t * SLOT_LEN, SLOT_LEN, a2a_seed(e, rank, t), a2a_slot(rank));
            CHECK_OK(orma_put(src + (size_t)t * SLOT_LEN, SLOT_LEN, ORMA_BYTE, t,
                              st_disp(w, t, a2a_slot(rank)), SLOT_LEN, ORMA_BYTE, w->win));
            CHECK_OK(orma_get(gbuf + 16 + (size_t)t * (glen + 16), glen, ORMA_BYTE, t,
                              st_disp(w, t, goff), glen, ORMA_BYTE, w->win));
        }
        CHECK_OK(orma_win_complete(w->win));
        close_exposure(w->win, e % 3 == 1);

        for (int t = 0; t < nranks; t++) {
            size_t at = (size_t)t * (glen + 16) + 16;
            size_t goff = get_at + 4 * (size_t)rank - 4 * (size_t)(rank > x);
            RT_EXPECT_BG(gbuf, at - 16, at, "all-to-all get buffer guard");
            if (in && t != x)
                RT_EXPECT_DATA(gbuf, at, glen, a2a_get_seed(e, t), goff, "all-to-all get buffer");
            else
                RT_EXPECT_BG(gbuf, at, at + glen, "get buffer of a target not accessed");
        }
        RT_EXPECT_BG(gbuf, (size_t)nranks * (glen + 16), gtotal, "all-to-all get buffer guard");
        RT_EXPECT_BG(w->mem, 0, LOW, "below the slots");
        for (int o = 0; o < nranks; o++) {
            if (in && o != x)
                RT_EXPECT_DATA(w->mem, a2a_slot(o), SLOT_LEN, a2a_seed(e, o, rank), a2a_slot(o),
                               "all-to-all slot");
            else
                RT_EXPECT_BG(w->mem, a2a_slot(o), a2a_slot(o) + SLOT_LEN, "slot of nobody");
            RT_EXPECT_BG(w->mem, a2a_slot(o) + SLOT_LEN, a2a_slot(o + 1), "between slots");
        }
        RT_EXPECT_BG(w->mem, a2a_slot(nranks), get_at, "below the get region");
        RT_EXPECT_DATA(w->mem, get_at, A2A_GET_LEN, a2a_get_seed(e, rank), get_at,
                       "all-to-all get region");
        RT_EXPECT_BG(w->mem, get_at + A2A_GET_LEN, n, "above the get region");
        CHECK_OK(orma_group_free(&g));
    }
    free(src);
    free(gbuf);
}

int main(int argc, char **argv)
{
    struct st_win w;
    int size = 0, pos = -1;

    rt_init(&argc, &argv, &rank, &nranks);
    rt = (rank + 1) % nranks;
    lt = (rank + nranks - 1) % nranks;

    st_win_open(&w, ST_ALLOCATE, RING_SIZE);
    CHECK_OK(orma_win_get_group(w.win, &g_all));
    CHECK_OK(orma_group_size(g_all, &size));
    CHECK(size == nranks);
    CHECK_OK(orma_group_rank(g_all, &pos));
    CHECK(pos == rank);
    CHECK_OK(orma_group_incl(g_all, 0, NULL, &g_empty));
    CHECK_OK(orma_group_size(g_empty, &size));
    CHECK(size == 0);
    CHECK_OK(orma_group_rank(g_empty, &pos));
    CHECK(pos == ORMA_UNDEFINED);

    ring(&w, 300, 0);
    st_win_close(&w);
    st_win_open(&w, ST_CREATE_MALLOC, RING_SIZE);
    ring(&w, 60, 300);
    st_win_close(&w);

    st_win_open(&w, ST_ALLOCATE, a2a_size());
    all_to_all(&w, 100, 0);
    st_win_close(&w);
    st_win_open(&w, ST_CREATE_MALLOC, a2a_size());
    all_to_all(&w, 40, 100);
    st_win_close(&w);

    CHECK_OK(orma_group_free(&g_empty));
    CHECK_OK(orma_group_free(&g_all));
    CHECK_OK(orma_finalize());
    return 0;
}
