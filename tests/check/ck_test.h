/* ck_test.h -- helpers of the race checker's corpus (ORMA_CHECK=race).
 *
 * Every bug program holds exactly one erroneous access pattern, inside a
 * function named after it (bug_*): the report's site names that function,
 * so the conflicting calls are made there and nowhere else.  The function
 * is kept out of line (CK_BUG) and the programs are built with -g -O0, so
 * that the site is the call the program made.  Every correct program holds
 * the same patterns properly ordered and must draw no report.  Either kind
 * checks what it can of the data and exits 0; race_check.sh counts the
 * reports.  The rules are MPI-4.1's, section 12.7 "Semantics and
 * Correctness". */
#ifndef ORMA_CK_TEST_H
#define ORMA_CK_TEST_H

#include "check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK_BUG __attribute__((noinline))

/* Join the job; a program that needs more ranks than it got is skipped. */
static inline void ck_init(int *argc, char ***argv, int need, int *rank_p, int *size_p)
{
    CHECK_OK(orma_init(argc, argv));
    *rank_p = orma_rank();
    *size_p = orma_size();
    if (*size_p < need) {
        if (*rank_p == 0)
            printf("needs %d ranks, has %d: skipped\n", need, *size_p);
        CHECK_OK(orma_finalize());
        exit(77);
    }
}

static inline void ck_finish(const char *what)
{
    int rank = orma_rank(), n = orma_size();
    CHECK_OK(orma_finalize());
    if (rank == 0)
        printf("%s: %d ranks: OK\n", what, n);
}

/* An allocated window of size bytes (unit 1) at every rank, zeroed, the
 * zeros published by a barrier before any epoch. */
static inline void ck_win(size_t size, void **base_p, orma_win *win_p)
{
    CHECK_OK(orma_win_allocate(size, 1, ORMA_INFO_NULL, base_p, win_p));
    memset(*base_p, 0, size);
    CHECK_OK(orma_barrier());
}

/* Element i of p is want. */
#define CK_I32(p, i, want)                                                       \
    do {                                                                         \
        int32_t ck_got_ = ((const int32_t *)(p))[i];                             \
        if (ck_got_ != (int32_t)(want)) {                                        \
            fprintf(stderr, "rank %d: %s:%d: element %d is %ld, expected %ld\n", \
                    check_rank(), __FILE__, __LINE__, (int)(i), (long)ck_got_,   \
                    (long)(int32_t)(want));                                      \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

/* Bytes [lo, hi) of p all equal v. */
static inline void ck_bytes_at(const char *file, int line, const void *p, size_t lo, size_t hi, unsigned char v)
{
    const unsigned char *b = p;
    for (size_t i = lo; i < hi; i++)
        if (b[i] != v) {
            fprintf(stderr, "rank %d: %s:%d: byte %zu is 0x%02x, expected 0x%02x\n", check_rank(), file, line, i,
                    b[i], v);
            exit(1);
        }
}
#define CK_BYTES(p, lo, hi, v) ck_bytes_at(__FILE__, __LINE__, (p), (lo), (hi), (v))

/* Bytes [lo, hi) of p all equal one of a and b. */
static inline void ck_bytes_either_at(const char *file, int line, const void *p, size_t lo, size_t hi,
                                      unsigned char a, unsigned char b)
{
    const unsigned char *q = p;
    for (size_t i = lo; i < hi; i++)
        if (q[i] != a && q[i] != b) {
            fprintf(stderr, "rank %d: %s:%d: byte %zu is 0x%02x, expected 0x%02x or 0x%02x\n", check_rank(), file,
                    line, i, q[i], a, b);
            exit(1);
        }
}
#define CK_BYTES_EITHER(p, lo, hi, a, b) ck_bytes_either_at(__FILE__, __LINE__, (p), (lo), (hi), (a), (b))

#endif
