/* put_get_sizes.c -- transfers of 1 byte to 4 MiB at unaligned places.
 *
 * Sizes straddle the boundaries where a copy loop or a transport usually
 * changes strategy (word, cache line, page, large-message thresholds).  The
 * target displacement and the origin address are both off an 8-byte boundary
 * by 1..7 bytes.  Each size is put to the right neighbour and got from the
 * left one in its own epoch, on an allocate window, a window created on
 * malloc'd memory (single-copy syscall path) and one created on
 * orma_alloc_mem memory (direct path).  The whole window and the whole get
 * buffer, guards included, are checked after every epoch. */
#include "rma_test.h"

#include <stdlib.h>

#define MIB ((size_t)1 << 20)

enum { GUARD = 64 };

static const size_t sizes[] = {1, 2, 3, 7, 8, 63, 64, 65, 4095, 4096, 4097,
                               65537, MIB + 3, 4 * MIB};
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

static int rank, nranks;

/* Window bytes of rank t: room for the largest size at the largest
 * displacement plus a guard, and different for every rank. */
static size_t win_size(int t) { return 4 * MIB + 8192 + 64 * (size_t)t; }

/* Target displacement for size index i at rank t: 1..7 past a multiple of
 * 8, spread over a few cache lines. */
static size_t disp_of(int i, int t)
{
    return 1 + (size_t)((i * 3 + t) % 7) + 64 * (size_t)(i % 3);
}

/* Origin skew: the origin buffer starts 1..7 bytes past an aligned address. */
static size_t skew_of(int i) { return 1 + (size_t)((i + rank) % 7); }

static unsigned put_seed(int i, int t) { return 300u + 16u * (unsigned)i + (unsigned)t; }
static unsigned get_seed(int t) { return 900u + (unsigned)t; }

/* Two ways to bracket each transfer:
 *   DEFERRED  fence(NOPRECEDE) op fence(NOSUCCEED): no barrier before the
 *             operation, which waits for (or is queued until) the target
 *             has opened the epoch;
 *   OPEN      fence(0) op fence(0), check, fence(NOSUCCEED): the barrier of
 *             the first fence makes every target known to be open, so the
 *             operation goes straight to memory.  The check runs in an
 *             epoch in which nobody accesses the window. */
enum style { DEFERRED, OPEN };

static void open_epoch(orma_win win, enum style style)
{
    CHECK_OK(orma_win_fence(style == DEFERRED ? ORMA_MODE_NOPRECEDE : 0, win));
}

/* Completes the operations; the caller checks, then calls end_check. */
static void close_epoch(orma_win win, enum style style)
{
    CHECK_OK(orma_win_fence(style == DEFERRED ? ORMA_MODE_NOSUCCEED : 0, win));
}

static void end_check(orma_win win, enum style style)
{
    if (style == OPEN)
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
}

static void put_all_sizes(orma_win win, unsigned char *mine, unsigned char *obuf,
                          enum style style)
{
    int rt = (rank + 1) % nranks;
    size_t wsize = win_size(rank);

    rt_fill_bg(mine, wsize);
    for (int i = 0; i < NSIZES; i++) {
        size_t s = sizes[i], skew = skew_of(i);
        size_t d_right = disp_of(i, rt), d_me = disp_of(i, rank);

        rt_fill_data(obuf + skew, s, put_seed(i, rt), d_right);
        open_epoch(win, style);
        CHECK_OK(orma_put(obuf + skew, s, ORMA_BYTE, rt, (orma_aint)d_right, s,
                          ORMA_BYTE, win));
        close_epoch(win, style);

        RT_EXPECT_REGION(mine, wsize, d_me, s, put_seed(i, rank), d_me,
                         "window after put");
        /* Back to background for the next size; nobody accesses this
         * window now. */
        for (size_t j = d_me; j < d_me + s; j++)
            mine[j] = rt_bg(j);
        end_check(win, style);
    }
}

static void get_all_sizes(orma_win win, unsigned char *mine, unsigned char *gbuf,
                          enum style style)
{
    int lt = (rank + nranks - 1) % nranks;
    size_t wsize = win_size(rank);

    rt_fill_data(mine, wsize, get_seed(rank), 0);
    for (int i = 0; i < NSIZES; i++) {
        size_t s = sizes[i], skew = skew_of(i), d_left = disp_of(i, lt);
        size_t gtotal = s + 2 * GUARD + 8;

        rt_fill_bg(gbuf, gtotal);
        open_epoch(win, style);
        CHECK_OK(orma_get(gbuf + GUARD + skew, s, ORMA_BYTE, lt, (orma_aint)d_left,
                          s, ORMA_BYTE, win));
        close_epoch(win, style);
        RT_EXPECT_REGION(gbuf, gtotal, GUARD + skew, s, get_seed(lt), d_left,
                         "get buffer");
        end_check(win, style);
    }
    /* A get must leave the target as it was. */
    RT_EXPECT_DATA(mine, 0, wsize, get_seed(rank), 0, "window after gets");
}

static void put_get(orma_win win, unsigned char *mine, unsigned char *obuf,
                    unsigned char *gbuf)
{
    for (int style = DEFERRED; style <= OPEN; style++) {
        put_all_sizes(win, mine, obuf, (enum style)style);
        get_all_sizes(win, mine, gbuf, (enum style)style);
    }
}

int main(int argc, char **argv)
{
    unsigned char *obuf, *gbuf, *mem;
    size_t wsize;
    orma_win win = ORMA_WIN_NULL;

    rt_init(&argc, &argv, &rank, &nranks);
    wsize = win_size(rank);
    obuf = malloc(4 * MIB + 16);
    gbuf = malloc(4 * MIB + 2 * GUARD + 8);
    CHECK(obuf && gbuf);

    /* allocate */
    CHECK_OK(orma_win_allocate(wsize, 1, ORMA_INFO_NULL, (void **)&mem, &win));
    put_get(win, mem, obuf, gbuf);
    CHECK_OK(orma_win_free(&win));

    /* create on malloc'd memory */
    mem = malloc(wsize);
    CHECK(mem != NULL);
    CHECK_OK(orma_win_create(mem, wsize, 1, ORMA_INFO_NULL, &win));
    put_get(win, mem, obuf, gbuf);
    CHECK_OK(orma_win_free(&win));
    free(mem);

    /* create on orma_alloc_mem memory */
    CHECK_OK(orma_alloc_mem(wsize, ORMA_INFO_NULL, (void **)&mem));
    CHECK_OK(orma_win_create(mem, wsize, 1, ORMA_INFO_NULL, &win));
    put_get(win, mem, obuf, gbuf);
    CHECK_OK(orma_win_free(&win));
    CHECK_OK(orma_free_mem(mem));

    free(obuf);
    free(gbuf);
    CHECK_OK(orma_finalize());
    return 0;
}
