/* passive_busy_target.c -- passive target needs nothing from the target.
 *
 * Rank 0 makes no orma call for SLEEP_MS: first it sleeps in nanosleep,
 * then (second phase) it computes in a loop reading the clock itself.
 * Meanwhile every other rank, on windows of every flavour, locks rank 0
 * exclusively, puts a region and gets it back, unlocks; locks it shared and
 * gets the region again; and in a lock_all epoch puts a second region,
 * flushes, gets it back, and unlocks all -- checking each get.  When
 * rank 0 wakes it raises a flag (an atomic store, not an orma call); every
 * origin must have finished before that.  After a barrier rank 0 checks
 * that its windows hold every origin's regions and nothing else changed.
 * One rank has nobody to wait for it: the program exits 77 then. */
#include "sync_test.h"

#include <time.h>

enum { SLEEP_MS = 1200, REG = 48, SLOT = REG + 16, LOW = 64 };

static int rank, nranks;
static struct st_flags fl;

static const int kinds[] = {ST_ALLOCATE, ST_CREATE_MALLOC, ST_CREATE_ALLOCMEM,
                            ST_DYNAMIC_MALLOC, ST_SHARED};
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* Region j (0: lock, 1: lock_all) of origin o in rank 0's window. */
static size_t reg_at(int o, int j) { return LOW + ((size_t)(o - 1) * 2 + (size_t)j) * SLOT; }
static size_t wsize(void) { return reg_at(nranks, 0) + LOW; }
static unsigned seed_of(int phase, size_t k, int o, int j)
{
    return 1000u * (unsigned)phase + 100u * (unsigned)k + 10u * (unsigned)o + (unsigned)j;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Rank 0: stay out of orma for SLEEP_MS, asleep or busy. */
static void target_absent(int busy)
{
    double t0 = now_s();
    if (!busy) {
        st_sleep_ms(SLEEP_MS);
        return;
    }
    volatile uint64_t x = 1;
    while (now_s() - t0 < SLEEP_MS / 1000.0)
        for (int i = 0; i < 10000; i++)
            x = x * 6364136223846793005ull + 1442695040888963407ull;
}

static void origin_work(struct st_win *w, int phase, size_t k)
{
    unsigned char src[REG], back[REG + 16];
    size_t a = reg_at(rank, 0), b = reg_at(rank, 1);

    rt_fill_data(src, REG, seed_of(phase, k, rank, 0), a);
    rt_fill_bg(back, sizeof back);
    CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, 0, 0, w->win));
    CHECK_OK(orma_put(src, REG, ORMA_BYTE, 0, st_disp(w, 0, a), REG, ORMA_BYTE, w->win));
    CHECK_OK(orma_get(back + 8, REG, ORMA_BYTE, 0, st_disp(w, 0, a), REG, ORMA_BYTE, w->win));
    CHECK_OK(orma_win_unlock(0, w->win));
    RT_EXPECT_REGION(back, sizeof back, 8, REG, seed_of(phase, k, rank, 0), a,
                     "get-back under an exclusive lock");

    rt_fill_bg(back, sizeof back);
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, w->win));
    CHECK_OK(orma_get(back + 3, REG, ORMA_BYTE, 0, st_disp(w, 0, a), REG, ORMA_BYTE, w->win));
    CHECK_OK(orma_win_unlock(0, w->win));
    RT_EXPECT_REGION(back, sizeof back, 3, REG, seed_of(phase, k, rank, 0), a,
                     "get under a shared lock");

    rt_fill_data(src, REG, seed_of(phase, k, rank, 1), b);
    rt_fill_bg(back, sizeof back);
    CHECK_OK(orma_win_lock_all(0, w->win));
    CHECK_OK(orma_put(src, REG, ORMA_BYTE, 0, st_disp(w, 0, b), REG, ORMA_BYTE, w->win));
    CHECK_OK(orma_win_flush(0, w->win));
    CHECK_OK(orma_get(back + 5, REG, ORMA_BYTE, 0, st_disp(w, 0, b), REG, ORMA_BYTE, w->win));
    CHECK_OK(orma_win_flush_all(w->win));
    RT_EXPECT_REGION(back, sizeof back, 5, REG, seed_of(phase, k, rank, 1), b,
                     "get-back in a lock_all epoch after flush_all");
    CHECK_OK(orma_win_unlock_all(w->win));
}

static void phase_run(struct st_win *w, int phase)
{
    size_t n = wsize();

    for (size_t k = 0; k < NKINDS; k++)
        rt_fill_bg(w[k].mem, n);
    CHECK_OK(orma_barrier());
    if (rank == 0) {
        target_absent(phase == 1);
        atomic_store(st_flag(&fl, 0, 0), (uint32_t)phase + 1);
    } else {
        double t0 = orma_wtime();
        for (size_t k = 0; k < NKINDS; k++)
            origin_work(&w[k], phase, k);
        double t = orma_wtime() - t0;
        if (atomic_load(st_flag(&fl, 0, 0)) > (uint32_t)phase) {
            fprintf(stderr, "rank %d: phase %d: the origin finished only after the target "
                    "came back (%.3f s): passive target waited for the target\n", rank, phase, t);
            exit(1);
        }
        if (rank == 1)
            printf("phase %d: origin done in %.3f s while the target was %s for %.1f s\n",
                   phase, t, phase ? "computing" : "asleep", SLEEP_MS / 1000.0);
    }
    CHECK_OK(orma_barrier());
    for (size_t k = 0; k < NKINDS; k++) {
        if (rank != 0) {
            RT_EXPECT_BG(w[k].mem, 0, n, "window of an origin");
            continue;
        }
        for (int o = 1; o < nranks; o++)
            for (int j = 0; j < 2; j++) {
                size_t at = reg_at(o, j), below = j == 0 && o == 1 ? 0 : at - (SLOT - REG);
                RT_EXPECT_BG(w[k].mem, below, at, st_kind_names[kinds[k]]);
                RT_EXPECT_DATA(w[k].mem, at, REG, seed_of(phase, k, o, j), at,
                               st_kind_names[kinds[k]]);
            }
        RT_EXPECT_BG(w[k].mem, reg_at(nranks - 1, 1) + REG, n, st_kind_names[kinds[k]]);
    }
}

int main(int argc, char **argv)
{
    struct st_win w[NKINDS];

    rt_init(&argc, &argv, &rank, &nranks);
    if (nranks < 2) {
        CHECK_OK(orma_finalize());
        return 77;
    }
    st_flags_open(&fl, 1);
    for (size_t k = 0; k < NKINDS; k++)
        st_win_open(&w[k], kinds[k], wsize());
    phase_run(w, 0);
    phase_run(w, 1);
    for (size_t k = 0; k < NKINDS; k++)
        st_win_close(&w[k]);
    st_flags_close(&fl);
    CHECK_OK(orma_finalize());
    return 0;
}
