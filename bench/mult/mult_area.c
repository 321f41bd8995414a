/* mult_area.c -- see mult_area.h. */
#include <stdio.h>
#include <string.h>

#include "mult_area.h"

static const char *const region_names[MULT_NREGION] = {"A",  "B",  "a0",
                                                       "a1", "b0", "b1"};

/* The pattern's byte at offset o of the area: never zero (a zeroed area
 * fails), different at neighbouring offsets, and not a small-integer
 * double (a block of pattern bytes fails the product's check). */
static unsigned char pattern_byte(size_t o)
{
    return (unsigned char)(0xa5 ^ (o % 251));
}

static void pattern_write(unsigned char *mem, size_t from, size_t to)
{
    for (size_t o = from; o < to; o++)
        mem[o] = pattern_byte(o);
}

void mult_area_init(size_t N, mult_area *m)
{
    m->N = N;
    m->block = N * N * sizeof(double);
    m->bytes = mult_area_off(m, MULT_NREGION);
}

void mult_area_fill(unsigned char *mem, const mult_area *m, const double *A,
                    const double *B)
{
    pattern_write(mem, 0, m->bytes);
    memcpy(mem + mult_area_off(m, MULT_A), A, m->block);
    memcpy(mem + mult_area_off(m, MULT_B), B, m->block);
}

void mult_area_clear(unsigned char *mem, const mult_area *m, unsigned mask)
{
    for (int r = 0; r < MULT_NREGION; r++)
        if (mask & 1u << r)
            pattern_write(mem, mult_area_off(m, r),
                          mult_area_off(m, r) + m->block);
}

/* The region (or the guard before it) that offset o falls in. */
static void where(const mult_area *m, size_t o, char *buf, size_t len)
{
    for (int r = 0; r < MULT_NREGION; r++) {
        size_t start = mult_area_off(m, r);
        if (o < start) {
            snprintf(buf, len, "the guard before %s", region_names[r]);
            return;
        }
        if (o < start + m->block) {
            snprintf(buf, len, "%s (unused by this version)",
                     region_names[r]);
            return;
        }
    }
    snprintf(buf, len, "the last guard");
}

int mult_area_check(const unsigned char *mem, const mult_area *m,
                    unsigned mask, const double *A, const double *B,
                    char *msg, size_t len)
{
    const double *own[2] = {A, B};
    for (int r = MULT_A; r <= MULT_B; r++) {
        const unsigned char *blk = mem + mult_area_off(m, r);
        if (memcmp(blk, own[r], m->block) == 0)
            continue;
        size_t x = 0;
        while (blk[x] == ((const unsigned char *)own[r])[x])
            x++;
        snprintf(msg, len, "block %s changed at its byte %zu of %zu",
                 region_names[r], x, m->block);
        return 0;
    }
    size_t o = 0;
    for (int r = 0; r <= MULT_NREGION; r++) {
        /* Up to region r (or the end), skipping the regions written. */
        size_t end = r < MULT_NREGION ? mult_area_off(m, r) : m->bytes;
        for (; o < end; o++)
            if (mem[o] != pattern_byte(o)) {
                char what[48];
                where(m, o, what, sizeof what);
                snprintf(msg, len, "byte %zu of the area, in %s, is 0x%02x "
                         "instead of 0x%02x", o, what, mem[o],
                         pattern_byte(o));
                return 0;
            }
        if (r < MULT_NREGION && (r <= MULT_B || (mask & 1u << r)))
            o = end + m->block; /* checked above, or written */
    }
    return 1;
}
