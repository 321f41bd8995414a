/* thr_windows.c -- one window per thread, all in use at once
 * (ORMA_THREAD_MULTIPLE).
 *
 * The main thread creates one window of each flavour (allocate, create on
 * malloc'd and on orma_alloc_mem memory, dynamic with a malloc'd and an
 * orma_alloc_mem region attached, allocate_shared), in the same order at
 * every rank, as creation is collective.  Then thread k, alone on window
 * k, runs passive epochs in a loop: lock_all or a lock per target by
 * round, a put to its rank's slice at every target, a flush, a get of the
 * slice and a comparison, unlock.  Every window is a target of every rank
 * at the same time as the others, so a window's epochs and locks must
 * never be confused with another's.  At the end every rank checks each
 * window's memory: the last round's data of every rank, guards untouched. */
#include "thr_test.h"

#define ROUNDS 24

static int rank, nranks;
static struct st_win wins[ST_NKINDS];
static struct thr_layout lay;

static void put_get(struct st_win *w, int k, int it, int r)
{
    size_t at = thr_slice(&lay, rank, 0);
    unsigned seed = thr_seed(1, rank, k, it, r);
    unsigned char src[THR_SLICE], dst[THR_SLICE];
    rt_fill_data(src, sizeof src, seed, at);
    rt_fill_bg(dst, sizeof dst);
    CHECK_OK(orma_put(src, sizeof src, ORMA_BYTE, r, st_disp(w, r, at), sizeof src, ORMA_BYTE, w->win));
    CHECK_OK(orma_win_flush(r, w->win));
    CHECK_OK(orma_get(dst, sizeof dst, ORMA_BYTE, r, st_disp(w, r, at), sizeof dst, ORMA_BYTE, w->win));
    CHECK_OK(orma_win_flush(r, w->win));
    RT_EXPECT_DATA(dst, 0, sizeof dst, seed, at, st_kind_names[k]);
}

static void run(struct thr_team *team, int k)
{
    struct st_win *w = &wins[k];
    (void)team;
    for (int it = 0; it < ROUNDS; it++) {
        if (it % 2 == 0) {
            CHECK_OK(orma_win_lock_all(0, w->win));
            for (int r = 0; r < nranks; r++)
                put_get(w, k, it, r);
            CHECK_OK(orma_win_unlock_all(w->win));
        } else {
            for (int r = 0; r < nranks; r++) {
                int target = (rank + r) % nranks;
                CHECK_OK(orma_win_lock(it % 4 == 1 ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED, target, 0, w->win));
                put_get(w, k, it, target);
                CHECK_OK(orma_win_unlock(target, w->win));
            }
        }
    }
}

static int checking; /* the window final_seed describes */

static unsigned final_seed(int origin, int t)
{
    (void)t;
    return thr_seed(1, origin, checking, ROUNDS - 1, rank);
}

int main(void)
{
    thr_init(&rank, &nranks);
    thr_layout_make(&lay, nranks, 1, 0);
    for (int k = 0; k < ST_NKINDS; k++) {
        st_win_open(&wins[k], k, lay.size);
        thr_layout_fill(&lay, wins[k].mem);
    }
    CHECK_OK(orma_barrier());

    thr_run(ST_NKINDS, run, NULL);

    CHECK_OK(orma_barrier());
    for (int k = 0; k < ST_NKINDS; k++) {
        checking = k;
        thr_layout_expect(&lay, wins[k].mem, final_seed, st_kind_names[k]);
    }
    CHECK_OK(orma_barrier());
    for (int k = 0; k < ST_NKINDS; k++)
        st_win_close(&wins[k]);
    if (rank == 0)
        printf("thr_windows: %d windows, one per thread, %d ranks: ok\n", ST_NKINDS, nranks);
    CHECK_OK(orma_finalize());
    return 0;
}
