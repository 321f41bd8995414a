/* unit_copy.c -- util_copy (util_copy.h): every byte of the destination
 * copied and not one byte around it touched, at lengths below, at and above
 * the threshold of the backward loop and around its vector widths, with
 * the destination at every distance from the source near a page multiple
 * (the backward loop's shape and its neighbours) and elsewhere; the
 * backward loop's two versions directly too. */
#include "check.h"
#include "util_copy.h"

#include <stdint.h>
#include <stdlib.h>

#define GUARD 80
#define AREA ((size_t)1 << 20)

static uint64_t rng = 0x243f6a8885a308d3u;

static unsigned char next_byte(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned char)(rng >> 24);
}

typedef void copy_fn(void *, const void *, size_t);

/* Copy len bytes from src_area + so to dst_area + dof with fn and check. */
static void one(copy_fn *fn, unsigned char *src_area, unsigned char *dst_area, size_t so, size_t dof, size_t len)
{
    unsigned char *src = src_area + so, *dst = dst_area + dof;
    for (size_t i = 0; i < len; i++)
        src[i] = next_byte();
    for (size_t i = 0; i < len + 2 * GUARD; i++)
        dst[i - GUARD] = (unsigned char)(0xa5 ^ i);
    fn(dst, src, len);
    for (size_t i = 0; i < GUARD; i++) {
        CHECK(dst[i - GUARD] == (unsigned char)(0xa5 ^ i));
        CHECK(dst[len + i] == (unsigned char)(0xa5 ^ (len + GUARD + i)));
    }
    if (memcmp(dst, src, len)) {
        size_t i = 0;
        while (dst[i] == src[i])
            i++;
        fprintf(stderr, "length %zu, source offset %zu, destination offset %zu: byte %zu differs\n", len, so, dof, i);
        CHECK(0);
    }
}

static void copy_default(void *d, const void *s, size_t n)
{
    util_copy(d, s, n);
}

int main(void)
{
    unsigned char *src_area = aligned_alloc(4096, AREA + 8192);
    unsigned char *dst_area = aligned_alloc(4096, AREA + 8192);
    CHECK(src_area && dst_area);
    static const size_t lens[] = {0, 1, 15, 63, 64, 127, 128, 129, 1000, 1023, 1024, 1025, 1087,
                                  2048, 4095, 4096, 4097, 16384 + 72, 65536 + 7, 262144 + 131};
    copy_fn *fns[] = {copy_default, util_copy_backward, util_copy_backward_base};
    int shaped = 0;
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++)
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
            size_t len = lens[l];
            /* destination page offsets around the source's: the slow shape
             * is 1 .. UTIL_COPY_ALIAS_SPAN bytes ahead */
            for (int d = -70; d <= 70; d += (len > 100000 ? 7 : 1)) {
                size_t so = 1024 + (size_t)(l % 3) * 8, dof = 4096 + (size_t)(((int)so + d + 4096) % 4096);
                shaped += util_copy_aliased(dst_area + dof, src_area + so, len);
                one(fns[f], src_area, dst_area, so, dof, len);
            }
            one(fns[f], src_area, dst_area, 3, GUARD + 1111, len);
        }
    /* the shape is the one documented, at the edges of both bounds */
    CHECK(shaped > 0);
    CHECK(!util_copy_aliased(dst_area + 1, src_area, UTIL_COPY_ALIAS_MIN - 1));
    CHECK(util_copy_aliased(dst_area + 1, src_area, UTIL_COPY_ALIAS_MIN));
    CHECK(util_copy_aliased(dst_area + UTIL_COPY_ALIAS_SPAN, src_area, UTIL_COPY_ALIAS_MIN));
    CHECK(!util_copy_aliased(dst_area + UTIL_COPY_ALIAS_SPAN + 1, src_area, UTIL_COPY_ALIAS_MIN));
    CHECK(!util_copy_aliased(dst_area, src_area, 1 << 20));
    CHECK(!util_copy_aliased(dst_area, src_area + 16, 1 << 20));
    CHECK(util_copy_aliased(dst_area + 4096 * 3 + 16, src_area, 1 << 20));
    free(src_area);
    free(dst_area);
    printf("util_copy: every length and offset copied exactly\n");
    return 0;
}
