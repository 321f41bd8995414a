/* rma_test.h -- byte patterns and region checks shared by the RMA tests.
 *
 * Every transfer test fills the memory it looks at with a background pattern
 * first and checks afterwards that exactly the target region changed.  The
 * data pattern differs from the background at every offset, so a transfer
 * that did not happen (or happened one byte off) can never pass unnoticed. */
#ifndef ORMA_RMA_TEST_H
#define ORMA_RMA_TEST_H

#include "check.h"

#include <stdint.h>

/* Background byte at offset i of a buffer.  Not constant, so that a copy
 * from the wrong place of another background buffer is visible too. */
static inline unsigned char rt_bg(size_t i)
{
    return (unsigned char)(0xB7u ^ (unsigned)(i * 29u) ^ (unsigned)(i >> 9));
}

/* Data byte of stream `seed` at offset i.  XOR with a value in 1..255 keeps
 * it different from rt_bg(i); the hash makes streams of different seeds and
 * shifted copies of one stream differ. */
static inline unsigned char rt_data(unsigned seed, size_t i)
{
    uint32_t v = (uint32_t)i * 2654435761u ^ seed * 40503u ^ (uint32_t)(i >> 13);
    v ^= v >> 15;
    v *= 0x2c1b3c6du;
    v ^= v >> 12;
    return (unsigned char)(rt_bg(i) ^ (v % 255u + 1u));
}

static inline void rt_fill_bg(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = rt_bg(i);
}

/* p[j] = rt_data(seed, doff + j): the stream as it must appear at offset
 * doff of the memory it is meant for. */
static inline void rt_fill_data(unsigned char *p, size_t n, unsigned seed,
                                size_t doff)
{
    for (size_t j = 0; j < n; j++)
        p[j] = rt_data(seed, doff + j);
}

static inline void rt_fail(const char *file, int line, const char *what,
                           size_t at, unsigned got, unsigned want)
{
    fprintf(stderr, "rank %d: %s:%d: %s: byte %zu is 0x%02x, expected 0x%02x\n",
            check_rank(), file, line, what, at, got, want);
    exit(1);
}

/* p[from, to) must still hold the background of the buffer p starts. */
#define RT_EXPECT_BG(p, from, to, what)                                        \
    rt_expect_bg_at(__FILE__, __LINE__, (p), (from), (to), (what))
static inline void rt_expect_bg_at(const char *file, int line,
                                   const unsigned char *p, size_t from,
                                   size_t to, const char *what)
{
    for (size_t i = from; i < to; i++)
        if (p[i] != rt_bg(i))
            rt_fail(file, line, what, i, p[i], rt_bg(i));
}

/* p[at + j] must hold rt_data(seed, doff + j) for j < len. */
#define RT_EXPECT_DATA(p, at, len, seed, doff, what)                           \
    rt_expect_data_at(__FILE__, __LINE__, (p), (at), (len), (seed), (doff),   \
                      (what))
static inline void rt_expect_data_at(const char *file, int line,
                                     const unsigned char *p, size_t at,
                                     size_t len, unsigned seed, size_t doff,
                                     const char *what)
{
    for (size_t j = 0; j < len; j++)
        if (p[at + j] != rt_data(seed, doff + j))
            rt_fail(file, line, what, at + j, p[at + j], rt_data(seed, doff + j));
}

/* The whole buffer p[0, n) must be background except [at, at+len), which
 * holds the stream seed as it appears at offset doff. */
#define RT_EXPECT_REGION(p, n, at, len, seed, doff, what)                      \
    do {                                                                       \
        RT_EXPECT_BG((p), 0, (at), (what));                                    \
        RT_EXPECT_DATA((p), (at), (len), (seed), (doff), (what));              \
        RT_EXPECT_BG((p), (at) + (len), (n), (what));                          \
    } while (0)

/* Join the job and learn where this rank stands in it. */
static inline void rt_init(int *argc, char ***argv, int *rank_p, int *size_p)
{
    CHECK_OK(orma_init(argc, argv));
    *rank_p = orma_rank();
    *size_p = orma_size();
    CHECK(*size_p >= 1);
    CHECK(*rank_p >= 0 && *rank_p < *size_p);
}

/* Every rank contributes k addresses; all[r*k + i] receives rank r's i-th.
 * Dynamic windows are addressed by target addresses, which only the target
 * knows, so tests exchange them through a window of their own. */
static inline void rt_exchange_aint(const orma_aint *mine, int k, orma_aint *all)
{
    int n = orma_size();
    orma_aint *base = NULL;
    orma_win win = ORMA_WIN_NULL;

    CHECK_OK(orma_win_allocate((size_t)k * sizeof(orma_aint),
                               (int)sizeof(orma_aint), ORMA_INFO_NULL,
                               (void **)&base, &win));
    for (int i = 0; i < k; i++)
        base[i] = mine[i];
    CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, win));
    for (int r = 0; r < n; r++)
        CHECK_OK(orma_get(all + (size_t)r * (size_t)k, (size_t)k, ORMA_AINT, r,
                          0, (size_t)k, ORMA_AINT, win));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    for (int i = 0; i < k; i++)
        CHECK(all[(size_t)orma_rank() * (size_t)k + (size_t)i] == mine[i]);
    CHECK_OK(orma_win_free(&win));
    CHECK(win == ORMA_WIN_NULL);
}

/* A correct epoch on win after error cases: every rank puts 8 bytes at
 * displacement 1 of its right neighbour and checks that its own window,
 * mine[0, mysize) with unit du, holds exactly what the left neighbour put.
 * Proves that the library still works and that the failed calls before
 * left nothing behind.  No epoch may be open; the neighbour's window must
 * hold du + 8 bytes. */
static inline void rt_good_epoch(orma_win win, unsigned char *mine,
                                 size_t mysize, int du, unsigned seed)
{
    int rank = orma_rank(), n = orma_size();
    int rt = (rank + 1) % n;
    unsigned char src[8];

    rt_fill_bg(mine, mysize);
    rt_fill_data(src, sizeof src, seed + (unsigned)rt, (size_t)du);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, win));
    CHECK_OK(orma_put(src, sizeof src, ORMA_BYTE, rt, 1, sizeof src, ORMA_BYTE, win));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    RT_EXPECT_REGION(mine, mysize, (size_t)du, sizeof src, seed + (unsigned)rank,
                     (size_t)du, "window after a correct epoch");
}

#endif
