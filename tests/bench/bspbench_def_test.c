/* bspbench_def_test.c -- the bspbench suite's data (bench/bspbench/bspbench_def.h),
 * in one process:
 *   - the pattern is an h-relation: at p = 1..6 and several h, every
 *     process sends h words and receives h, none to itself (p > 1), no two
 *     into one place, all inside the destination array before its guard;
 *   - the arrays so filled pass bb_check, and each kind of damage is
 *     caught: a word of the sample before, a missing word, two words
 *     exchanged, a word where nobody writes (the own column, past h, the
 *     guard);
 *   - words are never 0 and differ between samples, senders and
 *     positions;
 *   - the h of a run: 0 first, then the defaults, --quick's, or --sizes
 *     sorted without repeats; too large an h is refused;
 *   - the least-squares line of points on a line is that line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bspbench_def.h"
#include "check.h"

#define MAXP 6

static void check_words(void)
{
    for (uint64_t q = 0; q < 32; q++)
        for (int s = 0; s < 4; s++)
            for (size_t i = 0; i < 64; i++) {
                uint64_t w = bb_word(q, s, i);
                CHECK(w != 0);
                CHECK(w != bb_word(q + 1, s, i));
                CHECK(w != bb_word(q, (s + 1) % 4, i));
                CHECK(w != bb_word(q, s, i + 1));
            }
}

/* Every process's array after an h-relation of sample seq, as the
 * puts leave it; checks the pattern's shape on the way. */
static void deliver(uint64_t **dest, size_t words, int p, size_t h,
                    uint64_t seq)
{
    int got[MAXP] = {0};
    for (int t = 0; t < p; t++)
        memset(dest[t], 0, words * sizeof **dest);
    for (int s = 0; s < p; s++)
        for (size_t i = 0; i < h; i++) {
            int pid;
            size_t index;
            bb_target(s, p, i, &pid, &index);
            CHECK(pid >= 0 && pid < p);
            CHECK(p == 1 || pid != s);
            CHECK(index < words - BB_GUARD);
            CHECK(dest[pid][index] == 0); /* no two words in one place */
            dest[pid][index] = bb_word(seq, s, i);
            got[pid]++;
        }
    for (int t = 0; t < p; t++)
        CHECK((size_t)got[t] == h);
}

static int ok(const uint64_t *d, size_t words, uint64_t seq, int t, int p,
              size_t h)
{
    char msg[256];
    return bb_check(d, words, seq, t, p, h, msg, sizeof msg);
}

static void check_relation(int p, size_t h)
{
    size_t words = bb_dest_words(p, h > 0 ? h : 1);
    uint64_t *dest[MAXP], *old[MAXP];
    for (int t = 0; t < p; t++) {
        dest[t] = malloc(words * sizeof **dest);
        old[t] = malloc(words * sizeof **old);
        CHECK(dest[t] != NULL && old[t] != NULL);
    }
    deliver(old, words, p, h, 6);
    deliver(dest, words, p, h, 7);
    for (int t = 0; t < p; t++) {
        uint64_t *d = dest[t];
        CHECK(ok(d, words, 7, t, p, h));
        CHECK(h == 0 || !ok(old[t], words, 7, t, p, h)); /* the sample before */
        /* The first and last word this process received. */
        size_t first = words, last = 0;
        for (size_t j = 0; j < words; j++)
            if (d[j] != 0) {
                first = j < first ? j : first;
                last = j;
            }
        CHECK((h == 0) == (first == words));
        if (h > 0) {
            uint64_t w = d[first];
            d[first] = 0; /* missing */
            CHECK(!ok(d, words, 7, t, p, h));
            d[first] = old[t][first]; /* stale */
            CHECK(!ok(d, words, 7, t, p, h));
            d[first] = w;
            if (first != last) { /* exchanged */
                d[first] = d[last];
                d[last] = w;
                CHECK(!ok(d, words, 7, t, p, h));
                d[last] = d[first];
                d[first] = w;
            }
        }
        if (p > 1) {
            d[t] = 1; /* the own column: nobody writes it */
            CHECK(!ok(d, words, 7, t, p, h));
            d[t] = 0;
        }
        if (last + 1 < words - BB_GUARD && h > 0) {
            /* Past the h words received (another h's place). */
            size_t j = last + 1;
            while (j < words - BB_GUARD && p > 1 && j % (size_t)p == (size_t)t)
                j++;
            if (j < words - BB_GUARD) {
                d[j] = 1;
                CHECK(!ok(d, words, 7, t, p, h));
                d[j] = 0;
            }
        }
        d[words - 1] = 1; /* the guard */
        CHECK(!ok(d, words, 7, t, p, h));
        d[words - 1] = 0;
        CHECK(ok(d, words, 7, t, p, h));
    }
    for (int t = 0; t < p; t++) {
        free(dest[t]);
        free(old[t]);
    }
}

/* The words of an array for hmax hold every smaller h too. */
static void check_smaller(int p)
{
    size_t words = bb_dest_words(p, 64);
    uint64_t *dest[MAXP];
    for (int t = 0; t < p; t++) {
        dest[t] = malloc(words * sizeof **dest);
        CHECK(dest[t] != NULL);
    }
    for (size_t h = 0; h <= 64; h++) {
        deliver(dest, words, p, h, h);
        for (int t = 0; t < p; t++)
            CHECK(ok(dest[t], words, h, t, p, h));
    }
    for (int t = 0; t < p; t++)
        free(dest[t]);
}

static void check_hs(void)
{
    bench_opts o;
    size_t hs[BB_MAX_POINTS];
    memset(&o, 0, sizeof o);
    int n = bb_hs(&o, hs);
    CHECK(n == 32 && hs[0] == 0 && hs[1] == 1 && hs[16] == 16 &&
          hs[17] == 32 && hs[31] == 256);
    o.quick = 1;
    n = bb_hs(&o, hs);
    CHECK(n == 10 && hs[0] == 0 && hs[1] == 1 && hs[9] == 256);
    o.sizes_given = 1;
    o.nsizes = 4;
    o.sizes[0] = 64;
    o.sizes[1] = 8;
    o.sizes[2] = 64;
    o.sizes[3] = 1;
    n = bb_hs(&o, hs);
    CHECK(n == 4 && hs[0] == 0 && hs[1] == 1 && hs[2] == 8 && hs[3] == 64);
    o.sizes[1] = BB_MAX_H + 1;
    CHECK(bb_hs(&o, hs) == -1);
}

static void check_fit(void)
{
    size_t h[] = {0, 1, 2, 4, 8, 16, 32};
    double t[7];
    for (int i = 0; i < 7; i++)
        t[i] = 3.5 + 0.25 * (double)h[i];
    double l, g;
    int used;
    CHECK(bb_fit(h, t, 7, 2, 32, &l, &g, &used));
    CHECK(used == 5 && fabs(l - 3.5) < 1e-9 && fabs(g - 0.25) < 1e-9);
    CHECK(!bb_fit(h, t, 7, 3, 4, &l, &g, &used)); /* one point */
    CHECK(!bb_fit(h, t, 7, 64, 128, &l, &g, &used));
}

int main(void)
{
    check_words();
    static const size_t hs[] = {0, 1, 2, 3, 5, 7, 64, 257};
    for (int p = 1; p <= MAXP; p++) {
        for (size_t i = 0; i < sizeof hs / sizeof hs[0]; i++)
            check_relation(p, hs[i]);
        check_smaller(p);
    }
    check_hs();
    check_fit();
    return 0;
}
