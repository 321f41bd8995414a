/* unlock_local.c -- the window info key orma_unlock_local (orma.h): an
 * unlock that waits for local completion only.  On shared memory it changes
 * nothing; over the net transport (run under mpirun with ORMA_TRANSPORT=net)
 * it leaves the target's acknowledgement out.  Checked, on create windows
 * over malloc'd memory (readable after the window is freed):
 *   - the key is reported by orma_win_get_info ("false" by default), and a
 *     value other than "true" or "false" fails creation on every rank;
 *   - an origin's puts before such an unlock, each into its own slot of its
 *     right neighbour, are seen by its own next lock epoch there (gets);
 *   - after a flush in a later epoch, the target sees them in its memory;
 *   - puts under lock_all before such an unlock_all, to every rank, are
 *     all in the targets' memory once the window is freed;
 *   - nothing outside the slots changes. */
#include "rma_test.h"

#include <stdlib.h>
#include <string.h>

enum { SLOT = 96, ROUNDS = 20 };

static int rank, nranks;

static orma_info info_unlock_local(const char *value)
{
    orma_info info = ORMA_INFO_NULL;
    CHECK_OK(orma_info_create(&info));
    CHECK_OK(orma_info_set(info, "orma_unlock_local", value));
    return info;
}

static void expect_key(orma_win win, const char *want)
{
    orma_info got = ORMA_INFO_NULL;
    char val[ORMA_INFO_VAL_MAX + 1];
    int flag = 0;
    CHECK_OK(orma_win_get_info(win, &got));
    CHECK_OK(orma_info_get(got, "orma_unlock_local", sizeof val, val, &flag));
    CHECK(flag && strcmp(val, want) == 0);
    CHECK_OK(orma_info_free(&got));
}

static void keys(void)
{
    unsigned char mem[64];
    orma_win win = ORMA_WIN_NULL;
    CHECK_OK(orma_win_create(mem, sizeof mem, 1, ORMA_INFO_NULL, &win));
    expect_key(win, "false");
    CHECK_OK(orma_win_free(&win));
    /* a value outside the set: ignored, or refused in check mode */
    orma_info bad = info_unlock_local("sometimes");
    const char *check = getenv("ORMA_CHECK");
    if (check && (!strcmp(check, "1") || !strcmp(check, "all"))) {
        CHECK_ERR(orma_win_create(mem, sizeof mem, 1, bad, &win), ORMA_ERR_INFO);
        CHECK(win == ORMA_WIN_NULL);
    } else {
        CHECK_OK(orma_win_create(mem, sizeof mem, 1, bad, &win));
        expect_key(win, "false");
        CHECK_OK(orma_win_free(&win));
    }
    CHECK_OK(orma_info_free(&bad));
}

static unsigned seed_of(int origin, int round) { return 1000u + (unsigned)origin * 97u + (unsigned)round; }

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    keys();
    int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
    size_t size = (size_t)nranks * SLOT;
    unsigned char *mem = malloc(size), *src = malloc(SLOT), *back = malloc(SLOT + 32);
    CHECK(mem && src && back);
    rt_fill_bg(mem, size);
    orma_info info = info_unlock_local("true");
    orma_win win = ORMA_WIN_NULL;
    CHECK_OK(orma_win_create(mem, size, 1, info, &win));
    CHECK_OK(orma_info_free(&info));
    expect_key(win, "true");
    CHECK_OK(orma_barrier());

    /* lock, put into my slot at my right neighbour, the weaker unlock;
     * then my own next epoch there reads it back */
    size_t at = (size_t)rank * SLOT;
    for (int round = 0; round < ROUNDS; round++) {
        rt_fill_data(src, SLOT, seed_of(rank, round), at);
        CHECK_OK(orma_win_lock(round % 2 ? ORMA_LOCK_SHARED : ORMA_LOCK_EXCLUSIVE, rt, 0, win));
        CHECK_OK(orma_put(src, SLOT, ORMA_BYTE, rt, (orma_aint)at, SLOT, ORMA_BYTE, win));
        CHECK_OK(orma_win_unlock(rt, win));
        memset(src, 0, SLOT); /* the buffer is ours again */
        rt_fill_bg(back, SLOT + 32);
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, win));
        CHECK_OK(orma_get(back + 16, SLOT, ORMA_BYTE, rt, (orma_aint)at, SLOT, ORMA_BYTE, win));
        CHECK_OK(orma_win_unlock(rt, win));
        RT_EXPECT_REGION(back, SLOT + 32, 16, SLOT, seed_of(rank, round), at, "read back after the unlock");
    }

    /* one more put, then a flush in a later epoch: done at the target */
    rt_fill_data(src, SLOT, seed_of(rank, ROUNDS), at);
    CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, rt, 0, win));
    CHECK_OK(orma_put(src, SLOT, ORMA_BYTE, rt, (orma_aint)at, SLOT, ORMA_BYTE, win));
    CHECK_OK(orma_win_unlock(rt, win));
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, win));
    CHECK_OK(orma_win_flush(rt, win));
    CHECK_OK(orma_win_unlock(rt, win));
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_sync(win));
    size_t lat = (size_t)lt * SLOT;
    if (nranks > 1)
        RT_EXPECT_BG(mem, 0, lat, "window before my left neighbour's slot");
    RT_EXPECT_DATA(mem, lat, SLOT, seed_of(lt, ROUNDS), lat, "my left neighbour's slot after its flush");
    if (nranks > 1)
        RT_EXPECT_BG(mem, lat + SLOT, size, "window after my left neighbour's slot");
    CHECK_OK(orma_barrier());

    /* lock_all: my slot at every rank, the weaker unlock_all, then the
     * window freed: everything is in */
    rt_fill_data(src, SLOT, seed_of(rank, ROUNDS + 1), at);
    CHECK_OK(orma_win_lock_all(0, win));
    for (int t = 0; t < nranks; t++)
        CHECK_OK(orma_put(src, SLOT, ORMA_BYTE, t, (orma_aint)at, SLOT, ORMA_BYTE, win));
    CHECK_OK(orma_win_unlock_all(win));
    CHECK_OK(orma_win_free(&win));
    for (int o = 0; o < nranks; o++)
        RT_EXPECT_DATA(mem, (size_t)o * SLOT, SLOT, seed_of(o, ROUNDS + 1), (size_t)o * SLOT,
                       "a slot after unlock_all and the window's free");

    free(mem);
    free(src);
    free(back);
    CHECK_OK(orma_finalize());
    return 0;
}
