/* as_def.c -- see as_def.h. */
#include <stdio.h>

#include "as_def.h"
#include "mix64.h"

uint32_t as_word(uint64_t seq, int src, int dst, size_t pos)
{
    uint64_t x = bench_mix64(seq + UINT64_C(0x9e3779b97f4a7c15));
    x = bench_mix64(x ^ ((uint64_t)(uint32_t)src << 32 | (uint32_t)dst));
    x = bench_mix64(x ^ (uint64_t)pos);
    uint32_t w = (uint32_t)(x >> 32);
    return w != 0 ? w : 1;
}

size_t as_words_of(size_t bytes)
{
    return bytes > 0 && bytes % 4 == 0 && bytes / 4 <= AS_MAX_H ? bytes / 4
                                                                : 0;
}

void as_default_sizes(bench_opts *o, int p)
{
    size_t top = o->quick ? 16384 : 65536;
    size_t step = o->quick ? 4 : 2;
    int n = 0;
    for (size_t h = (size_t)p; h <= top && n < BENCH_MAX_SIZES; h *= step)
        o->sizes[n++] = h * 4;
    o->nsizes = n;
}

int as_check(const uint32_t *got, const uint32_t *want, size_t from,
             size_t to, size_t h, int p, char *msg, size_t len)
{
    size_t i = from;
    while (i < to && got[i] == want[i])
        i++;
    if (i == to)
        return 1;
    /* Where i lies in the layout of h: slot s word k, or a guard. */
    size_t stride = h + AS_GUARD;
    if (i >= AS_GUARD && i < as_slot(h, p) &&
        (i - AS_GUARD) % stride < h) {
        size_t s = (i - AS_GUARD) / stride;
        snprintf(msg, len, "word %zu (slot of rank %zu, word %zu of %zu): "
                 "0x%08x, expected 0x%08x", i, s, (i - AS_GUARD) % stride, h,
                 (unsigned)got[i], (unsigned)want[i]);
    } else {
        snprintf(msg, len, "word %zu (a guard or beyond the slots of %zu "
                 "words): 0x%08x, expected 0x%08x", i, h, (unsigned)got[i],
                 (unsigned)want[i]);
    }
    return 0;
}
