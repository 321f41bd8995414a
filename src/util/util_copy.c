/* util_copy.c -- the backward copy of util_copy.h. */
#include "util_copy.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

__attribute__((target("avx2"))) static void util_copy_backward_avx2(char *d, const char *s, size_t len)
{
    size_t i = len;
    while (i >= 128) {
        i -= 128;
        __m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(s + i + 64));
        __m256i e = _mm256_loadu_si256((const __m256i *)(s + i + 96));
        _mm256_storeu_si256((__m256i *)(d + i), a);
        _mm256_storeu_si256((__m256i *)(d + i + 32), b);
        _mm256_storeu_si256((__m256i *)(d + i + 64), c);
        _mm256_storeu_si256((__m256i *)(d + i + 96), e);
    }
    if (i)
        memcpy(d, s, i); /* under 128 bytes: vector moves in glibc */
}

void util_copy_backward_base(void *dst, const void *src, size_t len)
{
    char *d = dst;
    const char *s = src;
    size_t i = len;
    while (i >= 64) {
        i -= 64;
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_storeu_si128((__m128i *)(d + i), a);
        _mm_storeu_si128((__m128i *)(d + i + 16), b);
        _mm_storeu_si128((__m128i *)(d + i + 32), c);
        _mm_storeu_si128((__m128i *)(d + i + 48), e);
    }
    if (i)
        memcpy(d, s, i);
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
