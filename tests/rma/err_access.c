/* err_access.c -- argument errors of put and get, and bad window handles.
 *
 * Each bad call must return exactly the documented code, write nothing
 * (neither the target window nor an output argument), and leave the library
 * working: every group ends with correct transfers whose results are checked
 * byte by byte against the background the bad calls must not have touched.
 * The checks are local, so all ranks make the same bad calls and the
 * collective calls stay matched. */
#include "rma_test.h"

#include <stdint.h>
#include <stdlib.h>

static int rank, nranks, rt;

/* Not a type object at all, suitably aligned so that a library that
 * dereferences it does not fault before it can reject it. */
static struct {
    uint64_t words[32];
} junk = {{0x5555555555555555u, 0x7777777777777777u}};

static void bad_handle(orma_win bad)
{
    unsigned char buf[8] = {0};
    void *p = buf;
    size_t sz = 12345;
    int du = -77;
    orma_win_flavor fl = (orma_win_flavor)99;
    orma_win copy = bad;

    CHECK_ERR(orma_put(buf, 1, ORMA_BYTE, rt, 0, 1, ORMA_BYTE, bad), ORMA_ERR_WIN);
    CHECK_ERR(orma_get(buf, 1, ORMA_BYTE, rt, 0, 1, ORMA_BYTE, bad), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_fence(0, bad), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_get_base(bad, &p), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_get_size(bad, &sz), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_get_disp_unit(bad, &du), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_get_flavor(bad, &fl), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_shared_query(bad, 0, &sz, &du, &p), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_attach(bad, buf, sizeof buf), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_detach(bad, buf), ORMA_ERR_WIN);
    CHECK_ERR(orma_win_free(&copy), ORMA_ERR_WIN);
    /* On an error no output argument is written. */
    CHECK(p == buf && sz == 12345 && du == -77 && fl == (orma_win_flavor)99);
    CHECK(copy == bad);
}

static void test_handles(void)
{
    unsigned char *base = NULL;
    orma_win w = ORMA_WIN_NULL, old, w2 = ORMA_WIN_NULL;

    CHECK_OK(orma_win_allocate(64, 1, ORMA_INFO_NULL, (void **)&base, &w));
    CHECK(w != ORMA_WIN_NULL);
    {
        const orma_win bad[] = {ORMA_WIN_NULL, (orma_win)0xdeadbeefcafef00dull,
                                UINT64_MAX, w ^ (UINT64_C(1) << 63),
                                w ^ (UINT64_C(1) << 40), w ^ (UINT64_C(1) << 20)};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            CHECK(bad[i] != w);
            bad_handle(bad[i]);
        }
    }
    rt_good_epoch(w, base, 64, 1, 100);

    /* A freed handle stays invalid, also once a new window exists (which
     * may reuse the freed one's resources but not its handle). */
    old = w;
    CHECK_OK(orma_win_free(&w));
    CHECK(w == ORMA_WIN_NULL);
    bad_handle(old);
    CHECK_OK(orma_win_allocate(64, 1, ORMA_INFO_NULL, (void **)&base, &w2));
    CHECK(w2 != old);
    bad_handle(old);
    rt_good_epoch(w2, base, 64, 1, 200);
    /* The dead handle did not reach the new window: the epoch above checked
     * every byte of it. */
    CHECK_OK(orma_win_free(&w2));
}

/* Every put/get error case, issued inside an open epoch to the right
 * neighbour, whose window is 100 + 8 * rank bytes with unit 4. */
static size_t wsize(int t) { return 100 + 8 * (size_t)t; }

static void test_access(void)
{
    size_t mine_size = wsize(rank), rsize = wsize(rt), end = rsize / 4;
    unsigned char *mine = NULL, buf[256], gbuf[48], src_end[4], src_front[3];
    const orma_type invalid_types[] = {
        NULL,
        (orma_type)(void *)&junk,
        /* inside the predefined table but not at an element */
        (orma_type)(void *)((char *)ORMA_INT32 + 1),
        /* one past the last predefined type */
        ORMA_PREDEFINED(ORMA_TYPEID_COUNT),
    };
    orma_win w = ORMA_WIN_NULL;

    CHECK_OK(orma_win_allocate(mine_size, 4, ORMA_INFO_NULL, (void **)&mine, &w));
    rt_fill_bg(mine, mine_size);
    rt_fill_bg(gbuf, sizeof gbuf);
    rt_fill_data(buf, sizeof buf, 77, 0);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, w));

    /* target rank */
    CHECK_ERR(orma_put(buf, 4, ORMA_BYTE, -1, 0, 4, ORMA_BYTE, w), ORMA_ERR_RANK);
    CHECK_ERR(orma_put(buf, 4, ORMA_BYTE, nranks, 0, 4, ORMA_BYTE, w), ORMA_ERR_RANK);
    CHECK_ERR(orma_get(gbuf, 4, ORMA_BYTE, -1, 0, 4, ORMA_BYTE, w), ORMA_ERR_RANK);
    CHECK_ERR(orma_get(gbuf, 4, ORMA_BYTE, nranks, 0, 4, ORMA_BYTE, w), ORMA_ERR_RANK);

    /* Range, against the size of the target (which differs from the
     * origin's).  disp * unit must not wrap around either. */
    CHECK_ERR(orma_put(buf, 8, ORMA_BYTE, rt, (orma_aint)end - 1, 8, ORMA_BYTE, w), ORMA_ERR_RANGE);
    CHECK_ERR(orma_put(buf, 5, ORMA_BYTE, rt, (orma_aint)end - 1, 5, ORMA_BYTE, w), ORMA_ERR_RANGE);
    CHECK_ERR(orma_put(buf, 1, ORMA_BYTE, rt, (orma_aint)end, 1, ORMA_BYTE, w), ORMA_ERR_RANGE);
    CHECK_ERR(orma_put(buf, rsize + 1, ORMA_BYTE, rt, 0, rsize + 1, ORMA_BYTE, w), ORMA_ERR_RANGE);
    CHECK_ERR(orma_put(buf, 2, ORMA_INT64, rt, (orma_aint)end - 3, 2, ORMA_INT64, w), ORMA_ERR_RANGE);
    CHECK_ERR(orma_put(buf, 1, ORMA_BYTE, rt, INTPTR_MAX / 2, 1, ORMA_BYTE, w), ORMA_ERR_RANGE);
    CHECK_ERR(orma_put(buf, 1, ORMA_BYTE, rt, INTPTR_MAX, 1, ORMA_BYTE, w), ORMA_ERR_RANGE);
    CHECK_ERR(orma_get(gbuf, 8, ORMA_BYTE, rt, (orma_aint)end - 1, 8, ORMA_BYTE, w), ORMA_ERR_RANGE);
    CHECK_ERR(orma_get(gbuf, 1, ORMA_BYTE, rt, INTPTR_MAX / 4 + 1, 1, ORMA_BYTE, w), ORMA_ERR_RANGE);

    /* negative displacement */
    CHECK_ERR(orma_put(buf, 4, ORMA_BYTE, rt, -1, 4, ORMA_BYTE, w), ORMA_ERR_DISP);
    CHECK_ERR(orma_put(buf, 4, ORMA_BYTE, rt, INTPTR_MIN, 4, ORMA_BYTE, w), ORMA_ERR_DISP);
    CHECK_ERR(orma_get(gbuf, 4, ORMA_BYTE, rt, -3, 4, ORMA_BYTE, w), ORMA_ERR_DISP);

    /* invalid types, on either side */
    for (size_t i = 0; i < sizeof invalid_types / sizeof invalid_types[0]; i++) {
        orma_type bad = invalid_types[i];
        size_t sz = 999;
        CHECK_ERR(orma_put(buf, 4, bad, rt, 0, 4, ORMA_BYTE, w), ORMA_ERR_TYPE);
        CHECK_ERR(orma_put(buf, 4, ORMA_BYTE, rt, 0, 4, bad, w), ORMA_ERR_TYPE);
        CHECK_ERR(orma_get(gbuf, 4, bad, rt, 0, 4, ORMA_BYTE, w), ORMA_ERR_TYPE);
        CHECK_ERR(orma_get(gbuf, 4, ORMA_BYTE, rt, 0, 4, bad, w), ORMA_ERR_TYPE);
        CHECK_ERR(orma_type_size(bad, &sz), ORMA_ERR_TYPE);
        CHECK(sz == 999);
        CHECK(strcmp(orma_type_name(bad), "invalid type") == 0);
    }

    /* signatures of different byte sizes */
    CHECK_ERR(orma_put(buf, 3, ORMA_INT32, rt, 0, 1, ORMA_INT64, w), ORMA_ERR_TYPE);
    CHECK_ERR(orma_put(buf, 4, ORMA_INT32, rt, 0, 2, ORMA_INT32, w), ORMA_ERR_TYPE);
    CHECK_ERR(orma_put(buf, 1, ORMA_DOUBLE, rt, 0, 1, ORMA_FLOAT, w), ORMA_ERR_TYPE);
    CHECK_ERR(orma_get(gbuf, 2, ORMA_INT64, rt, 0, 3, ORMA_INT32, w), ORMA_ERR_TYPE);
    CHECK_ERR(orma_get(gbuf, 1, ORMA_BYTE, rt, 0, 0, ORMA_BYTE, w), ORMA_ERR_TYPE);

    /* NULL buffers with data to move */
    CHECK_ERR(orma_put(NULL, 4, ORMA_BYTE, rt, 0, 4, ORMA_BYTE, w), ORMA_ERR_ARG);
    CHECK_ERR(orma_get(NULL, 4, ORMA_BYTE, rt, 0, 4, ORMA_BYTE, w), ORMA_ERR_ARG);

    /* Count 0 succeeds and moves nothing, whatever the buffer. */
    CHECK_OK(orma_put(buf, 0, ORMA_BYTE, rt, 0, 0, ORMA_BYTE, w));
    CHECK_OK(orma_put(NULL, 0, ORMA_INT32, rt, 1, 0, ORMA_INT32, w));
    CHECK_OK(orma_get(gbuf + 8, 0, ORMA_BYTE, rt, 0, 0, ORMA_BYTE, w));
    CHECK_OK(orma_get(NULL, 0, ORMA_DOUBLE, rt, 2, 0, ORMA_DOUBLE, w));

    /* Correct accesses at the edges: the last 4 bytes of the target, which
     * for all but the last rank lie beyond the origin's own window, and 3
     * bytes at its start. */
    rt_fill_data(src_end, 4, 300 + (unsigned)rt, rsize - 4);
    rt_fill_data(src_front, 3, 400 + (unsigned)rt, 0);
    CHECK_OK(orma_put(src_end, 4, ORMA_BYTE, rt, (orma_aint)end - 1, 4, ORMA_BYTE, w));
    CHECK_OK(orma_put(src_front, 3, ORMA_BYTE, rt, 0, 3, ORMA_BYTE, w));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w));

    RT_EXPECT_DATA(mine, 0, 3, 400 + (unsigned)rank, 0, "front of window");
    RT_EXPECT_BG(mine, 3, mine_size - 4, "window after failed calls");
    RT_EXPECT_DATA(mine, mine_size - 4, 4, 300 + (unsigned)rank, mine_size - 4,
                   "end of window");
    RT_EXPECT_BG(gbuf, 0, sizeof gbuf, "get buffer after failed and empty gets");

    /* A get of the last bytes of the target in the next epoch returns what
     * the put of the previous one left there. */
    CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, w));
    CHECK_OK(orma_get(gbuf + 8, 4, ORMA_BYTE, rt, (orma_aint)end - 1, 4, ORMA_BYTE, w));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w));
    RT_EXPECT_REGION(gbuf, sizeof gbuf, 8, 4, 300 + (unsigned)rt, rsize - 4,
                     "get of the end of the target window");

    rt_good_epoch(w, mine, mine_size, 4, 500);
    CHECK_OK(orma_win_free(&w));
}

/* Windows of size 0: any access that moves a byte is out of range. */
static void test_empty_window(void)
{
    /* Odd ranks expose 64 bytes, even ones none: rank 0 is always empty. */
    size_t size = rank % 2 ? 64 : 0;
    unsigned char *mine = NULL, buf[8];
    orma_win w = ORMA_WIN_NULL;

    rt_fill_data(buf, sizeof buf, 600 + (unsigned)rank, 8 * (size_t)rank);
    CHECK_OK(orma_win_allocate(size, 1, ORMA_INFO_NULL, (void **)&mine, &w));
    if (size)
        rt_fill_bg(mine, size);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, w));
    CHECK_ERR(orma_put(buf, 1, ORMA_BYTE, 0, 0, 1, ORMA_BYTE, w), ORMA_ERR_RANGE);
    CHECK_ERR(orma_get(buf, 1, ORMA_BYTE, 0, 0, 1, ORMA_BYTE, w), ORMA_ERR_RANGE);
    CHECK_ERR(orma_put(buf, 1, ORMA_INT64, 0, 0, 1, ORMA_INT64, w), ORMA_ERR_RANGE);
    CHECK_OK(orma_put(buf, 0, ORMA_BYTE, 0, 0, 0, ORMA_BYTE, w));
    CHECK_OK(orma_get(buf, 0, ORMA_BYTE, 0, 0, 0, ORMA_BYTE, w));
    /* Rank 1, beside the empty ones, is reachable in the same epoch: each
     * rank writes its own 8 bytes of it. */
    if (nranks > 1)
        CHECK_OK(orma_put(buf, 8, ORMA_BYTE, 1, 8 * rank, 8, ORMA_BYTE, w));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w));
    RT_EXPECT_DATA(buf, 0, sizeof buf, 600 + (unsigned)rank, 8 * (size_t)rank,
                   "buffer of failed and empty gets");
    if (rank == 1) {
        for (int r = 0; r < nranks; r++)
            RT_EXPECT_DATA(mine, 8 * (size_t)r, 8, 600 + (unsigned)r, 8 * (size_t)r,
                           "64-byte window beside empty ones");
        RT_EXPECT_BG(mine, 8 * (size_t)nranks, size, "64-byte window beside empty ones");
    } else if (size) {
        RT_EXPECT_BG(mine, 0, size, "64-byte window nobody wrote");
    }
    CHECK_OK(orma_win_free(&w));
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    rt = (rank + 1) % nranks;
    test_handles();
    test_access();
    test_empty_window();
    CHECK_OK(orma_finalize());
    return 0;
}
