/* free_overlap.c -- a window over private memory whose pages orma adopted
 * (O, 16 MB of malloc'd memory on the last rank) is freed while a second
 * window (I, inside O) stays: the others put into I right after the free.
 * orma_win_free gives O's pages back to private memory; a put into I that
 * reached a page while it moved was lost.  Every byte of I is checked, and
 * the bytes of O outside I are checked unchanged. */
#include "check.h"

#include <orma.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define O_BYTES ((size_t)16 << 20)
#define I_SKIP 100 /* I begins inside O's first page */
#define STEP 4096  /* a put per page */

static unsigned char want(int src, int round, size_t i) { return (unsigned char)(1 + (src * 31 + round * 7 + i / STEP) % 251); }

int main(int argc, char **argv)
{
    CHECK_OK(orma_init(&argc, &argv));
    int rank = orma_rank(), size = orma_size(), owner = size - 1;
    size_t ilen = O_BYTES - 2 * I_SKIP;
    for (int round = 0; round < 3; round++) {
        unsigned char *o = NULL;
        if (rank == owner) {
            o = malloc(O_BYTES);
            CHECK(o != NULL);
            memset(o, 0xee, O_BYTES);
        }
        orma_win wo, wi;
        CHECK_OK(orma_win_create(o, rank == owner ? O_BYTES : 0, 1, ORMA_INFO_NULL, &wo));
        CHECK_OK(orma_win_create(o ? o + I_SKIP : NULL, rank == owner ? ilen : 0, 1, ORMA_INFO_NULL, &wi));
        CHECK_OK(orma_win_lock_all(0, wi));
        CHECK_OK(orma_win_free(&wo));
        /* at once: every other rank writes its share of I's pages */
        if (rank != owner || size == 1) {
            int writers = size > 1 ? size - 1 : 1;
            /* an origin byte stays unchanged until the flush */
            unsigned char *v = malloc(ilen / STEP + 1);
            CHECK(v != NULL);
            for (size_t at = (size_t)rank * STEP; at + 1 <= ilen; at += (size_t)writers * STEP) {
                v[at / STEP] = want(rank, round, at);
                CHECK_OK(orma_put(&v[at / STEP], 1, ORMA_BYTE, owner, (orma_aint)at, 1, ORMA_BYTE, wi));
            }
            CHECK_OK(orma_win_flush_all(wi));
            free(v);
        }
        CHECK_OK(orma_win_unlock_all(wi));
        CHECK_OK(orma_barrier());
        if (rank == owner) {
            int writers = size > 1 ? size - 1 : 1;
            for (size_t i = 0; i < O_BYTES; i++) {
                unsigned char v = o[i];
                size_t at = i - I_SKIP;
                int written = i >= I_SKIP && at < ilen && at % STEP == 0;
                if (written) {
                    int src = size > 1 ? (int)(at / STEP % (size_t)writers) : 0;
                    if (v != want(src, round, at)) {
                        fprintf(stderr, "rank %d: round %d: byte %zu of I is %u, rank %d put %u\n", rank, round, at,
                                v, src, want(src, round, at));
                        exit(1);
                    }
                } else if (v != 0xee) {
                    fprintf(stderr, "rank %d: round %d: byte %zu of O, not put, is %u\n", rank, round, i, v);
                    exit(1);
                }
            }
        }
        CHECK_OK(orma_win_free(&wi));
        free(o);
    }
    CHECK_OK(orma_finalize());
    return 0;
}
