/* bsp_test.h -- what the BSPlib tests share, on bsp.h and the C library
 * only: CHECK, which names the process and exits 1 (the launcher then ends
 * the job), byte patterns that differ per seed and position, and a
 * comparison that reports the first byte that differs.
 *
 * Seeds are made of (what, superstep, source, destination, index) by
 * bt_seed, so that data of another superstep, source or destination never
 * passes for the data expected.  Every destination sits between guard
 * bytes (bt_guard), which must never change. */
#ifndef BSP_TEST_H
#define BSP_TEST_H

#include "hash32.h"
#include "bsp.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The process's number once bsp_begin has returned, -1 before. */
static int bt_pid = -1;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "bsp process %d: %s:%d: CHECK(%s) failed\n",       \
                    bt_pid, __FILE__, __LINE__, #cond);                        \
            fflush(stderr);                                                    \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

/* CHECK with the two integers compared shown. */
#define CHECK_EQ(a, b)                                                         \
    do {                                                                       \
        long long bt_a_ = (long long)(a), bt_b_ = (long long)(b);              \
        if (bt_a_ != bt_b_) {                                                  \
            fprintf(stderr, "bsp process %d: %s:%d: %s == %lld, expected "     \
                    "%s == %lld\n", bt_pid, __FILE__, __LINE__, #a, bt_a_,     \
                    #b, bt_b_);                                                \
            fflush(stderr);                                                    \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

/* What a seed is for: kept apart so that, e.g., a put's data never equals
 * the background it lands on. */
enum { BT_DATA = 1, BT_BG, BT_GUARD, BT_TAG, BT_LATE, BT_JUNK, BT_INIT };

static inline unsigned bt_seed(int what, int step, int src, int dst, int index)
{
    unsigned h = test_hash32((unsigned)what * 0x9e3779b9u + 0x632be5abu);
    h = test_hash32(h ^ ((unsigned)step * 0x85ebca6bu));
    h = test_hash32(h ^ ((unsigned)(src + 1) * 0xc2b2ae35u));
    h = test_hash32(h ^ ((unsigned)(dst + 1) * 0x27d4eb2fu));
    return test_hash32(h ^ ((unsigned)index * 0x165667b1u));
}

/* Byte i of the pattern of seed. */
static inline unsigned char bt_byte(unsigned seed, size_t i)
{
    return (unsigned char)(test_hash32(seed ^ test_hash32((unsigned)i + 0x3c6ef372u)) >> 11);
}

/* buf[0..n) = bytes from..from+n of the pattern of seed. */
static inline void bt_fill(void *buf, size_t n, unsigned seed, size_t from)
{
    unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        b[i] = bt_byte(seed, from + i);
}

/* The guard bytes every test places around its destinations. */
static inline void bt_guard(void *buf, size_t n)
{
    bt_fill(buf, n, bt_seed(BT_GUARD, 0, 0, 0, 0), 0);
}

/* got[0..n) must equal want[0..n); else the first difference is reported
 * (with what and the position the caller adds to it) and the process ends. */
static inline void bt_same(const void *got, const void *want, size_t n, const char *what, size_t at,
                           const char *file, int line)
{
    const unsigned char *g = got, *w = want;
    if (!memcmp(g, w, n))
        return;
    size_t first = 0, bad = 0;
    while (g[first] == w[first])
        first++;
    for (size_t i = first; i < n; i++)
        bad += g[i] != w[i];
    fprintf(stderr, "bsp process %d: %s:%d: %s: byte %zu is 0x%02x, expected 0x%02x (%zu of %zu bytes differ)\n",
            bt_pid, file, line, what, at + first, g[first], w[first], bad, n);
    fflush(stderr);
    exit(1);
}
#define CHECK_SAME(got, want, n, what) bt_same(got, want, n, what, 0, __FILE__, __LINE__)

/* buf[0..n) must hold bytes from..from+n of seed's pattern. */
static inline void bt_expect(const void *buf, size_t n, unsigned seed, size_t from, const char *what,
                             const char *file, int line)
{
    const unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        if (b[i] != bt_byte(seed, from + i)) {
            unsigned char *want = malloc(n ? n : 1);
            if (!want)
                abort();
            bt_fill(want, n, seed, from);
            bt_same(buf, want, n, what, 0, file, line);
            free(want);
            return;
        }
}
#define CHECK_PATTERN(buf, n, seed, from, what) bt_expect(buf, n, seed, from, what, __FILE__, __LINE__)

/* The SPMD part on every process, and this process's ring neighbours. */
static inline void bt_begin_ring(int *me_p, int *p_p, int *left_p, int *right_p)
{
    bsp_begin(bsp_nprocs());
    bt_pid = *me_p = bsp_pid();
    *p_p = bsp_nprocs();
    *right_p = (*me_p + 1) % *p_p;
    *left_p = (*me_p + *p_p - 1) % *p_p;
}

static inline void *bt_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    CHECK(p != NULL);
    return p;
}

static inline void bt_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

#endif
