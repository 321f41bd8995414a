/* flush.c -- after a flush the data is at the target, before any unlock.
 *
 * Each origin opens a passive epoch on rank 0 (a shared lock, an exclusive
 * lock, or lock_all), puts a region, completes it with one of flush,
 * flush_all, flush_local or flush_local_all (the header: "data written
 * directly is visible when the call returns"), gets the region back and
 * completes that with the same call (the get buffer must then be valid),
 * and only then raises a flag -- an atomic in a shared window, not an orma
 * call.  Still holding the lock, it waits for rank 0 to acknowledge.  Rank 0
 * polls the flags, calls orma_win_sync, reads the region straight from its
 * own window memory (volatile loads), checks it and the untouched bytes
 * around it, and acknowledges.  So the target sees the data while the
 * origin still holds the lock: nothing was left for the unlock to do.
 *
 * Every flavour but dynamic-on-malloc is covered (that path is the same
 * syscall as create on malloc); at one rank the rank is its own target and
 * reads its memory directly after the flush. */
#include "sync_test.h"

enum { REG = 40, SLOT = REG + 24, LOW = 32 };
enum { M_SHARED, M_EXCLUSIVE, M_LOCK_ALL, NMODES };
enum { V_FLUSH, V_FLUSH_ALL, V_FLUSH_LOCAL, V_FLUSH_LOCAL_ALL, NVARIANTS };
enum { F_SIG, F_ACK, F_COUNT };

static const char *const mode_names[NMODES] = {"shared lock", "exclusive lock", "lock_all"};
static const char *const variant_names[NVARIANTS] = {"flush", "flush_all", "flush_local",
                                                     "flush_local_all"};

static int rank, nranks;
static struct st_flags fl;

static size_t reg_at(int o) { return LOW + (size_t)o * SLOT; }
static size_t wsize(void) { return reg_at(nranks) + LOW; }
static unsigned seed_of(uint32_t k, int o) { return k * 16u + (unsigned)o; }

static void do_flush(int v, orma_win win)
{
    switch (v) {
    case V_FLUSH: CHECK_OK(orma_win_flush(0, win)); break;
    case V_FLUSH_ALL: CHECK_OK(orma_win_flush_all(win)); break;
    case V_FLUSH_LOCAL: CHECK_OK(orma_win_flush_local(0, win)); break;
    default: CHECK_OK(orma_win_flush_local_all(win)); break;
    }
}

/* Copy with volatile loads: the compiler may not reuse what it read before
 * the flag said the data is there. */
static void read_volatile(unsigned char *dst, const unsigned char *src, size_t n)
{
    const volatile unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        dst[i] = s[i];
}

static void origin_round(struct st_win *w, int m, int v, uint32_t k)
{
    unsigned char src[REG], back[REG + 16];
    size_t at = reg_at(rank);

    rt_fill_data(src, REG, seed_of(k, rank), at);
    rt_fill_bg(back, sizeof back);
    if (m == M_LOCK_ALL)
        CHECK_OK(orma_win_lock_all(0, w->win));
    else
        CHECK_OK(orma_win_lock(m == M_SHARED ? ORMA_LOCK_SHARED : ORMA_LOCK_EXCLUSIVE, 0, 0, w->win));
    CHECK_OK(orma_put(src, REG, ORMA_BYTE, 0, st_disp(w, 0, at), REG, ORMA_BYTE, w->win));
    do_flush(v, w->win);
    CHECK_OK(orma_get(back + 8, REG, ORMA_BYTE, 0, st_disp(w, 0, at), REG, ORMA_BYTE, w->win));
    do_flush(v, w->win);
    RT_EXPECT_REGION(back, sizeof back, 8, REG, seed_of(k, rank), at, variant_names[v]);

    if (rank == 0) {
        /* Our own target: the data must be in our memory now. */
        unsigned char seen[REG];
        CHECK_OK(orma_win_sync(w->win));
        read_volatile(seen, w->mem + at, REG);
        RT_EXPECT_DATA(seen, 0, REG, seed_of(k, rank), at, variant_names[v]);
    } else {
        atomic_store(st_flag(&fl, rank, F_SIG), k);
        ST_WAIT_FLAG(st_flag(&fl, rank, F_ACK), k, "the target's acknowledgement");
    }
    if (m == M_LOCK_ALL)
        CHECK_OK(orma_win_unlock_all(w->win));
    else
        CHECK_OK(orma_win_unlock(0, w->win));
}

/* Rank 0: for every other rank, wait for its flag, then look at the data. */
static void target_round(struct st_win *w, int m, int v, uint32_t k)
{
    int left = nranks - 1;
    char *done = calloc((size_t)nranks, 1);
    double t0 = orma_wtime();
    CHECK(done != NULL);

    while (left > 0) {
        CHECK(orma_wtime() - t0 < ST_WAIT_LIMIT);
        CHECK_OK(orma_win_sync(w->win));
        for (int o = 1; o < nranks; o++) {
            unsigned char seen[SLOT + 16];
            size_t at = reg_at(o);
            if (done[o] || atomic_load_explicit(st_flag(&fl, o, F_SIG), memory_order_acquire) != k)
                continue;
            /* The region and the never-written bytes on either side. */
            read_volatile(seen, w->mem + at - 16, REG + 32);
            for (size_t j = 0; j < REG; j++)
                if (seen[16 + j] != rt_data(seed_of(k, o), at + j)) {
                    fprintf(stderr, "rank 0: %s, %s, %s, round %u: byte %zu of rank %d's region "
                            "is 0x%02x, expected 0x%02x, while the origin holds the lock after "
                            "the flush\n", st_kind_names[w->kind], mode_names[m],
                            variant_names[v], (unsigned)k, j, o, seen[16 + j],
                            rt_data(seed_of(k, o), at + j));
                    exit(1);
                }
            for (size_t j = 0; j < 16; j++) {
                CHECK(seen[j] == rt_bg(at - 16 + j));
                CHECK(seen[16 + REG + j] == rt_bg(at + REG + j));
            }
            atomic_store(st_flag(&fl, o, F_ACK), k);
            done[o] = 1;
            left--;
        }
        sched_yield();
    }
    free(done);
}

static void run_kind(int kind, uint32_t *k)
{
    struct st_win w;
    size_t n = wsize();

    st_win_open(&w, kind, n);
    rt_fill_bg(w.mem, n);
    CHECK_OK(orma_barrier());
    for (int m = 0; m < NMODES; m++)
        for (int v = 0; v < NVARIANTS; v++) {
            ++*k;
            if (rank == 0) {
                if (nranks == 1)
                    origin_round(&w, m, v, *k);
                else
                    target_round(&w, m, v, *k);
            } else {
                origin_round(&w, m, v, *k);
            }
            /* An origin in the next round could otherwise take an
             * exclusive lock and wait for its acknowledgement while a
             * slower one still needs the lock for this round. */
            CHECK_OK(orma_barrier());
        }
    CHECK_OK(orma_barrier());
    if (rank == 0) {
        int first = nranks == 1 ? 0 : 1;
        RT_EXPECT_BG(w.mem, 0, reg_at(first), "below the regions");
        for (int o = first; o < nranks; o++) {
            RT_EXPECT_DATA(w.mem, reg_at(o), REG, seed_of(*k, o), reg_at(o), "final region");
            RT_EXPECT_BG(w.mem, reg_at(o) + REG, reg_at(o + 1), "between the regions");
        }
        RT_EXPECT_BG(w.mem, reg_at(nranks), n, "above the regions");
    } else {
        RT_EXPECT_BG(w.mem, 0, n, "window of an origin");
    }
    st_win_close(&w);
}

int main(int argc, char **argv)
{
    static const int kinds[] = {ST_ALLOCATE, ST_CREATE_MALLOC, ST_CREATE_ALLOCMEM,
                                ST_DYNAMIC_ALLOCMEM, ST_SHARED};
    uint32_t k = 0;

    rt_init(&argc, &argv, &rank, &nranks);
    st_flags_open(&fl, F_COUNT);
    for (int rep = 0; rep < 3; rep++)
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            run_kind(kinds[i], &k);
    st_flags_close(&fl);
    CHECK_OK(orma_finalize());
    return 0;
}
