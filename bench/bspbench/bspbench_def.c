/* bspbench_def.c -- see bspbench_def.h. */
#include <stdio.h>

#include "bspbench_def.h"
#include "mix64.h"

void bb_target(int s, int p, size_t i, int *pid, size_t *index)
{
    if (p == 1) {
        *pid = 0;
        *index = i;
        return;
    }
    size_t others = (size_t)p - 1;
    *pid = (int)(((size_t)s + 1 + i % others) % (size_t)p);
    *index = (size_t)s + i / others * (size_t)p;
}

size_t bb_dest_words(int p, size_t hmax)
{
    if (hmax == 0)
        return BB_GUARD;
    if (p == 1)
        return hmax + BB_GUARD;
    /* The last index: s = p - 1, i = hmax - 1. */
    size_t last = (size_t)p - 1 + (hmax - 1) / ((size_t)p - 1) * (size_t)p;
    return last + 1 + BB_GUARD;
}

uint64_t bb_word(uint64_t seq, int s, size_t i)
{
    uint64_t x = bench_mix64(seq + UINT64_C(0x9e3779b97f4a7c15));
    x = bench_mix64(x ^ ((uint64_t)(uint32_t)s << 40) ^ (uint64_t)i);
    return x != 0 ? x : 1;
}

/* The sender and word index of destination index j of process t, or -1
 * when nothing is sent there (for any h). */
static int source_of(int t, int p, size_t j, size_t *i_p)
{
    if (p == 1) {
        *i_p = j;
        return 0;
    }
    int s = (int)(j % (size_t)p);
    if (s == t)
        return -1;
    size_t c = (size_t)((t - s - 1 + p) % p);
    *i_p = j / (size_t)p * ((size_t)p - 1) + c;
    return s;
}

uint64_t bb_expect(uint64_t seq, int t, int p, size_t h, size_t j)
{
    size_t i;
    int s = source_of(t, p, j, &i);
    return s >= 0 && i < h ? bb_word(seq, s, i) : 0;
}

int bb_check(const uint64_t *dest, size_t words, uint64_t seq, int t, int p,
             size_t h, char *msg, size_t len)
{
    size_t bad = 0, first = 0;
    for (size_t j = 0; j < words; j++)
        if (dest[j] != bb_expect(seq, t, p, h, j) && bad++ == 0)
            first = j;
    if (bad == 0)
        return 1;
    size_t i;
    int s = source_of(t, p, first, &i);
    uint64_t want = bb_expect(seq, t, p, h, first);
    if (s >= 0 && i < h)
        snprintf(msg, len, "index %zu (word %zu of process %d): 0x%016llx, "
                 "expected 0x%016llx; %zu of %zu words wrong", first, i, s,
                 (unsigned long long)dest[first], (unsigned long long)want,
                 bad, words);
    else
        snprintf(msg, len, "index %zu (written by nobody): 0x%016llx, "
                 "expected 0; %zu of %zu words wrong", first,
                 (unsigned long long)dest[first], bad, words);
    return 0;
}

int bb_hs(const bench_opts *o, size_t *hs)
{
    int n = 0;
    hs[n++] = 0;
    if (o->sizes_given) {
        for (int k = 0; k < o->nsizes; k++) {
            if (o->sizes[k] > BB_MAX_H)
                return -1;
            hs[n++] = o->sizes[k];
        }
        /* Ascending, each once: a handful of values. */
        for (int a = 1; a < n; a++)
            for (int b = a; b > 0 && hs[b - 1] > hs[b]; b--) {
                size_t x = hs[b];
                hs[b] = hs[b - 1];
                hs[b - 1] = x;
            }
        int m = 1;
        for (int a = 1; a < n; a++)
            if (hs[a] != hs[m - 1])
                hs[m++] = hs[a];
        return m;
    }
    if (o->quick) {
        for (size_t h = 1; h <= 256; h *= 2)
            hs[n++] = h;
        return n;
    }
    for (size_t h = 1; h <= 16; h++)
        hs[n++] = h;
    for (size_t h = 32; h <= 256; h += 16)
        hs[n++] = h;
    return n;
}

int bb_fit(const size_t *h, const double *t, int n, size_t lo, size_t hi,
           double *l_p, double *g_p, int *n_p)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (h[i] < lo || h[i] > hi)
            continue;
        double x = (double)h[i];
        sx += x;
        sy += t[i];
        sxx += x * x;
        sxy += x * t[i];
        m++;
    }
    double d = m * sxx - sx * sx;
    if (m < 2 || !(d > 0.0))
        return 0;
    *g_p = (m * sxy - sx * sy) / d;
    *l_p = (sy - *g_p * sx) / m;
    *n_p = m;
    return 1;
}
