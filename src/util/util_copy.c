/* util_copy.c -- the backward copy of util_copy.h. */
#include "util_copy.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* The loop of both versions, from the end down in blocks of four vectors
 * of type V, W bytes each (LOAD and STORE: its unaligned moves), the rest
 * under one block by memcpy (vector moves in glibc).  All four loads of a
 * block come before its stores. */
#define UTIL_COPY_BACKWARD_LOOP(d, s, len, V, W, LOAD, STORE)                                                 \
    do {                                                                                                     \
        size_t i = (len);                                                                                    \
        while (i >= 4 * (W)) {                                                                               \
            i -= 4 * (W);                                                                                    \
            V a = LOAD((const V *)((s) + i));                                                                \
            V b = LOAD((const V *)((s) + i + (W)));                                                          \
            V c = LOAD((const V *)((s) + i + 2 * (W)));                                                      \
            V e = LOAD((const V *)((s) + i + 3 * (W)));                                                      \
            STORE((V *)((d) + i), a);                                                                        \
            STORE((V *)((d) + i + (W)), b);                                                                  \
            STORE((V *)((d) + i + 2 * (W)), c);                                                              \
            STORE((V *)((d) + i + 3 * (W)), e);                                                              \
        }                                                                                                    \
        if (i)                                                                                               \
            memcpy((d), (s), i);                                                                             \
    } while (0)

__attribute__((target("avx2"))) static void util_copy_backward_avx2(char *d, const char *s, size_t len)
{
    UTIL_COPY_BACKWARD_LOOP(d, s, len, __m256i, 32, _mm256_loadu_si256, _mm256_storeu_si256);
}

void util_copy_backward_base(void *dst, const void *src, size_t len)
{
    char *d = dst;
    const char *s = src;
    UTIL_COPY_BACKWARD_LOOP(d, s, len, __m128i, 16, _mm_loadu_si128, _mm_storeu_si128);
}

void util_copy_backward(void *dst, const void *src, size_t len)
{
    if (__builtin_cpu_supports("avx2"))
        util_copy_backward_avx2(dst, src, len);
    else
        util_copy_backward_base(dst, src, len);
}
#else
void util_copy_backward_base(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len);
}

void util_copy_backward(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len);
}
#endif
