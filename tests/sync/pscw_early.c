/* pscw_early.c -- operations that reach a target before it posts.
 *
 * Rank 0 is the target, every other rank an origin.  In each round the
 * target lays a background over its window and lets the origins go; they
 * start, put into a slot of their own, get a region, add to a counter and
 * complete.  The target does not post yet: for about 30 ms it keeps
 * polling (flushes of another window, which handle whatever has arrived),
 * then checks that its window is still exactly the background -- nothing
 * an origin sent may land before the post -- and only then writes the
 * values the gets must return and posts.  After wait the target checks
 * every byte (each origin's slot, the counter's sum, the background
 * elsewhere); after complete each origin checks its get.
 *
 * Over the net transport, operations travel at complete without waiting
 * for the post and the target holds them until it has posted that epoch
 * (on shared memory complete waits for the post): this is the test of
 * that holding.  Every third round one origin also puts a block too large
 * to travel with its header.  Runs on an allocated window and on malloc'd
 * memory. */
#include "sync_test.h"

enum { SLOT = 64, SLOT_LEN = 40, ROUNDS = 24, POLL_MS = 30, BIG_LEN = 20000 };

static int rank, nranks;

static size_t slot_at(int o) { return 32 + (size_t)o * SLOT; }
static size_t get_at(void) { return slot_at(nranks) + 16; }
static size_t acc_at(void) { return (get_at() + SLOT + 7) / 8 * 8; }
static size_t big_at(void) { return acc_at() + 64; }
static size_t win_size(void) { return big_at() + BIG_LEN + 32; }

static unsigned put_seed(unsigned r, int o) { return 100u * r + (unsigned)o; }
static unsigned get_seed(unsigned r) { return 100u * r + 77u; }
static unsigned big_seed(unsigned r) { return 100u * r + 88u; }
static int big_round(unsigned r) { return r % 3 == 1; }

static uint64_t acc_base(unsigned r) { return 1000u * (uint64_t)r + 5u; }

static void target_round(struct st_win *w, orma_win aux, orma_group origins, unsigned r)
{
    size_t n = w->size;
    rt_fill_bg(w->mem, n);
    uint64_t base = acc_base(r);
    memcpy(w->mem + acc_at(), &base, sizeof base);
    CHECK_OK(orma_barrier()); /* the origins go */
    double t0 = orma_wtime();
    while ((orma_wtime() - t0) * 1e3 < POLL_MS) {
        CHECK_OK(orma_win_flush_all(aux)); /* handles what arrives, on every window */
        st_sleep_ms(1);
    }
    /* nothing may have landed before the post */
    RT_EXPECT_BG(w->mem, 0, acc_at(), "before the post");
    uint64_t now;
    memcpy(&now, w->mem + acc_at(), sizeof now);
    CHECK(now == base);
    RT_EXPECT_BG(w->mem, acc_at() + 8, n, "before the post");
    rt_fill_data(w->mem + get_at(), SLOT_LEN, get_seed(r), 0);
    CHECK_OK(orma_win_post(origins, 0, w->win));
    CHECK_OK(orma_win_wait(w->win));
    /* every origin's put, the get region as written, the sum, background elsewhere */
    size_t at = 0;
    for (int o = 1; o < nranks; o++) {
        RT_EXPECT_BG(w->mem, at, slot_at(o), "between slots");
        RT_EXPECT_DATA(w->mem, slot_at(o), SLOT_LEN, put_seed(r, o), 0, "an origin's put");
        at = slot_at(o) + SLOT_LEN;
    }
    RT_EXPECT_BG(w->mem, at, get_at(), "after the slots");
    RT_EXPECT_DATA(w->mem, get_at(), SLOT_LEN, get_seed(r), 0, "the get region");
    RT_EXPECT_BG(w->mem, get_at() + SLOT_LEN, acc_at(), "after the get region");
    uint64_t sum;
    memcpy(&sum, w->mem + acc_at(), sizeof sum);
    uint64_t want = base;
    for (int o = 1; o < nranks; o++)
        want += (uint64_t)o * 3u + r;
    CHECK(sum == want);
    if (big_round(r)) {
        RT_EXPECT_BG(w->mem, acc_at() + 8, big_at(), "before the block");
        RT_EXPECT_DATA(w->mem, big_at(), BIG_LEN, big_seed(r), 0, "the large put");
        RT_EXPECT_BG(w->mem, big_at() + BIG_LEN, n, "after the block");
    } else {
        RT_EXPECT_BG(w->mem, acc_at() + 8, n, "after the counter");
    }
}

static void origin_round(struct st_win *w, orma_group target, unsigned r, unsigned char *big)
{
    unsigned char src[SLOT_LEN], got[SLOT_LEN + 16];
    rt_fill_data(src, SLOT_LEN, put_seed(r, rank), 0);
    memset(got, 0xEE, sizeof got);
    uint64_t add = (uint64_t)rank * 3u + r;
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_start(target, 0, w->win));
    CHECK_OK(orma_put(src, SLOT_LEN, ORMA_BYTE, 0, st_disp(w, 0, slot_at(rank)), SLOT_LEN, ORMA_BYTE, w->win));
    CHECK_OK(orma_get(got + 8, SLOT_LEN, ORMA_BYTE, 0, st_disp(w, 0, get_at()), SLOT_LEN, ORMA_BYTE, w->win));
    CHECK_OK(orma_accumulate(&add, 1, ORMA_UINT64, 0, st_disp(w, 0, acc_at()), 1, ORMA_UINT64, ORMA_SUM, w->win));
    if (big_round(r) && rank == 1) {
        rt_fill_data(big, BIG_LEN, big_seed(r), 0);
        CHECK_OK(orma_put(big, BIG_LEN, ORMA_BYTE, 0, st_disp(w, 0, big_at()), BIG_LEN, ORMA_BYTE, w->win));
    }
    CHECK_OK(orma_win_complete(w->win));
    /* the buffers are ours again, whether or not the target has posted */
    memset(src, 0, sizeof src);
    add = 0;
    memset(big, 0, BIG_LEN);
    RT_EXPECT_DATA(got, 8, SLOT_LEN, get_seed(r), 0, "a get");
    for (size_t i = 0; i < 8; i++)
        CHECK(got[i] == 0xEE && got[8 + SLOT_LEN + i] == 0xEE);
}

static void rounds(int kind)
{
    struct st_win w;
    st_win_open(&w, kind, win_size());
    orma_win aux;
    void *auxmem;
    CHECK_OK(orma_win_allocate(64, 1, ORMA_INFO_NULL, &auxmem, &aux));
    CHECK_OK(orma_win_lock_all(ORMA_MODE_NOCHECK, aux));
    orma_group all, peers;
    CHECK_OK(orma_win_get_group(w.win, &all));
    if (rank == 0) {
        const int zero = 0;
        CHECK_OK(orma_group_excl(all, 1, &zero, &peers));
    } else {
        const int zero = 0;
        CHECK_OK(orma_group_incl(all, 1, &zero, &peers));
    }
    unsigned char *big = malloc(BIG_LEN);
    CHECK(big != NULL);
    for (unsigned r = 0; r < ROUNDS; r++) {
        if (rank == 0)
            target_round(&w, aux, peers, r);
        else
            origin_round(&w, peers, r, big);
    }
    free(big);
    CHECK_OK(orma_group_free(&peers));
    CHECK_OK(orma_group_free(&all));
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_unlock_all(aux));
    CHECK_OK(orma_win_free(&aux));
    st_win_close(&w);
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    if (nranks < 2) {
        if (rank == 0)
            printf("pscw_early: needs an origin besides the target; skipped\n");
        CHECK_OK(orma_finalize());
        return 77;
    }
    rounds(ST_ALLOCATE);
    rounds(ST_CREATE_MALLOC);
    if (rank == 0)
        printf("pscw_early: %d origins, %d rounds on two windows: ok\n", nranks - 1, ROUNDS);
    CHECK_OK(orma_finalize());
    return 0;
}
