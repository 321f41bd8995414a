/* util_copy.h -- memcpy for the copies between user buffers and mapped
 * windows (put, get, typed runs, accumulate buffers).
 *
 * glibc copies blocks of a few KB and more with `rep movsb`, and on some
 * CPUs that instruction is many times slower when the destination lies a
 * few bytes ahead of the source modulo 4 KB: on the AMD EPYC (Zen 3) of
 * this project's machines, glibc 2.36, a 16 KB memcpy took 0.19 us with
 * the two page offsets equal and 6.0 us with the destination 8-24 bytes
 * ahead (4 KB: 0.05 -> 1.6 us, 256 KB: 7 -> 96 us; 32 bytes and more
 * ahead, or the source ahead, cost nothing).  Such pairs are ordinary
 * here: a large malloc'd block starts 16 bytes into a page, orma_alloc_mem
 * and page-adopted windows start where the user's memory does, and an MPI
 * library's windows at offsets of its own; a get of 64 KB from such a
 * window took 24 us against 1.6.  Copies of that shape go through a loop
 * of vector moves from the end backwards instead, whose loads never meet
 * the page offsets of the stores just made (1.7 us for that 64 KB).
 * Everything else is glibc's memcpy. */
#ifndef ORMA_UTIL_COPY_H
#define ORMA_UTIL_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Below this glibc copies with vector moves, whatever the offsets. */
#define UTIL_COPY_ALIAS_MIN 1024
/* Destinations ahead of the source by 1 .. this many bytes modulo a page
 * take the backward loop (measured slow up to 24, fast from 32). */
#define UTIL_COPY_ALIAS_SPAN 63

/* Copy len bytes backwards, in vector moves; dst and src do not overlap. */
void util_copy_backward(void *dst, const void *src, size_t len);
/* The same without AVX2 (what CPUs without it run; tested on every CPU). */
void util_copy_backward_base(void *dst, const void *src, size_t len);

static inline int util_copy_aliased(const void *dst, const void *src, size_t len)
{
    return len >= UTIL_COPY_ALIAS_MIN && (((uintptr_t)dst - (uintptr_t)src) & 4095) - 1 < UTIL_COPY_ALIAS_SPAN;
}

/* memcpy(dst, src, len), never in the slow shape above. */
static inline void util_copy(void *dst, const void *src, size_t len)
{
    if (__builtin_expect(util_copy_aliased(dst, src, len), 0))
        util_copy_backward(dst, src, len);
    else
        memcpy(dst, src, len);
}

/* A run of a typed layout: often a few bytes to a few hundred, copied
 * inline in overlapping moves of 16, 8, 4, 2 or 1 bytes rather than by a
 * call that costs more than the copy (the datatype engine, a typed put's
 * runs into mapped pages). */
static inline void util_copy_run(char *dst, const char *src, size_t len)
{
    if (len >= 16 && len <= 256) {
        size_t i = 0;
#pragma GCC unroll 16
        for (; i + 16 <= len; i += 16)
            memcpy(dst + i, src + i, 16);
        if (i < len) /* the last 16 bytes again, overlapping */
            memcpy(dst + len - 16, src + len - 16, 16);
    } else if (len >= 8 && len < 16) {
        memcpy(dst, src, 8);
        memcpy(dst + len - 8, src + len - 8, 8);
    } else if (len >= 4 && len < 8) {
        memcpy(dst, src, 4);
        memcpy(dst + len - 4, src + len - 4, 4);
    } else if (len < 4) {
        for (size_t i = 0; i < len; i++)
            dst[i] = src[i];
    } else {
        util_copy(dst, src, len);
    }
}

#endif
