/* dynamic_regions.c -- dynamic windows as list- and tree-building programs
 * use them (MPI sets no limit on attached regions):
 *  - every rank attaches hundreds of small regions one at a time, malloc'd
 *    and orma_alloc_mem'd alternately, and publishes each address, while
 *    the others already write into the regions published so far (the
 *    region tables grow under their readers);
 *  - then every rank writes its slot of every region of every rank, and
 *    each checks its regions slot by slot;
 *  - one access over two adjacent regions (put, get, accumulate) on both
 *    kinds of memory is legal and lands;
 *  - regions of no bytes attach and detach, inside a region or not;
 *  - an access to a peer's memory that was never attached is erroneous:
 *    carried out as MPICH does (ORMA_CHECK=1: refused), and memory that
 *    does not exist at all is an error, not a crash. */
#include "rma_test.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#define NREG 200     /* regions per rank */
#define SLOT 8       /* bytes each writer owns in a region */
#define MAXR 4

static int rank, nranks, check_mode, net_mode;

static uint64_t value_of(int writer, int owner, int i)
{
    return (uint64_t)writer << 48 | (uint64_t)owner << 32 | (uint64_t)i << 8 | 0x5a;
}

/* The published addresses: rank r's region i at pub[r].addr[i], pub[r].count
 * of them so far (written by r with C11 atomics in its part of a shared
 * window, read by the others in the same lock_all epoch). */
struct pub {
    _Atomic uint64_t count;
    _Atomic uint64_t addr[NREG];
};

static void many_regions(void)
{
    struct pub *mine = NULL;
    orma_win pw = ORMA_WIN_NULL, dw = ORMA_WIN_NULL;
    CHECK_OK(orma_win_allocate_shared(sizeof(struct pub), 1, ORMA_INFO_NULL, (void **)&mine, &pw));
    struct pub *pubs[MAXR];
    for (int r = 0; r < nranks; r++) {
        size_t sz;
        int unit;
        CHECK_OK(orma_win_shared_query(pw, r, &sz, &unit, (void **)&pubs[r]));
    }
    atomic_store(&mine->count, 0);
    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &dw));
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, pw));
    CHECK_OK(orma_win_lock_all(0, dw));

    unsigned char *reg[NREG];
    uint64_t seed = 12345u + (uint64_t)rank, writes = 0;
    for (int i = 0; i < NREG; i++) {
        size_t len = (size_t)SLOT * (size_t)nranks;
        if (i % 2)
            CHECK_OK(orma_alloc_mem(len, ORMA_INFO_NULL, (void **)&reg[i]));
        else
            CHECK(reg[i] = malloc(len));
        memset(reg[i], 0, len);
        CHECK_OK(orma_win_attach(dw, reg[i], len));
        atomic_store(&mine->addr[i], (uint64_t)(uintptr_t)reg[i]);
        atomic_store(&mine->count, (uint64_t)i + 1);
        /* meanwhile: into a region published so far by someone */
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        int owner = (int)((seed >> 33) % (uint64_t)nranks);
        uint64_t n = atomic_load(&pubs[owner]->count);
        if (n) {
            int j = (int)((seed >> 13) % n);
            uint64_t v = value_of(rank, owner, j);
            orma_aint at = (orma_aint)atomic_load(&pubs[owner]->addr[j]) + SLOT * rank;
            CHECK_OK(orma_put(&v, 1, ORMA_UINT64, owner, at, 1, ORMA_UINT64, dw));
            CHECK_OK(orma_win_flush(owner, dw));
            writes++;
        }
    }
    CHECK_OK(orma_barrier());
    /* every slot of every region, now that all are attached (the values
     * belong to the operations until the flush) */
    static uint64_t vals[NREG];
    for (int owner = 0; owner < nranks; owner++) {
        CHECK(atomic_load(&pubs[owner]->count) == NREG);
        for (int j = 0; j < NREG; j++) {
            vals[j] = value_of(rank, owner, j);
            orma_aint at = (orma_aint)atomic_load(&pubs[owner]->addr[j]) + SLOT * rank;
            CHECK_OK(orma_put(&vals[j], 1, ORMA_UINT64, owner, at, 1, ORMA_UINT64, dw));
        }
        CHECK_OK(orma_win_flush(owner, dw));
    }
    CHECK_OK(orma_win_unlock_all(dw));
    CHECK_OK(orma_barrier());
    for (int i = 0; i < NREG; i++)
        for (int w = 0; w < nranks; w++) {
            uint64_t got;
            memcpy(&got, reg[i] + SLOT * w, sizeof got);
            if (got != value_of(w, rank, i)) {
                fprintf(stderr, "rank %d: region %d slot %d holds 0x%llx, expected 0x%llx\n", rank, i, w,
                        (unsigned long long)got, (unsigned long long)value_of(w, rank, i));
                exit(1);
            }
        }
    CHECK_OK(orma_barrier());
    /* detached in another order than attached */
    for (int i = NREG - 1; i >= 0; i -= 2)
        CHECK_OK(orma_win_detach(dw, reg[i]));
    for (int i = 0; i < NREG; i += 2)
        CHECK_OK(orma_win_detach(dw, reg[i]));
    CHECK_OK(orma_win_unlock_all(pw));
    CHECK_OK(orma_win_free(&dw));
    CHECK_OK(orma_win_free(&pw));
    for (int i = 0; i < NREG; i++) {
        if (i % 2)
            CHECK_OK(orma_free_mem(reg[i]));
        else
            free(reg[i]);
    }
    (void)writes;
}

/* One array attached as two adjacent halves: accesses over the seam. */
static void adjacent(int on_heap)
{
    enum { LEN = 3 * 4096, HALF = LEN / 2 + 40 };
    unsigned char *block = NULL, src[256], got[256];
    if (on_heap)
        CHECK_OK(orma_alloc_mem(LEN, ORMA_INFO_NULL, (void **)&block));
    else
        CHECK(block = malloc(LEN));
    rt_fill_bg(block, LEN);
    orma_win w = ORMA_WIN_NULL;
    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &w));
    CHECK_OK(orma_win_attach(w, block, HALF));
    CHECK_OK(orma_win_attach(w, block + HALF, LEN - HALF));
    orma_aint mine = (orma_aint)block, all[MAXR];
    rt_exchange_aint(&mine, 1, all);
    int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks;
    orma_aint seam = all[right] + HALF;

    rt_fill_data(src, sizeof src, 30 + (unsigned)rank, HALF - 100);
    CHECK_OK(orma_win_fence(0, w));
    CHECK_OK(orma_put(src, 200, ORMA_BYTE, right, seam - 100, 200, ORMA_BYTE, w));
    CHECK_OK(orma_win_fence(0, w));
    RT_EXPECT_REGION(block, LEN, HALF - 100, 200, 30 + (unsigned)left, HALF - 100, "a put over two regions");

    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, right, 0, w));
    CHECK_OK(orma_get(got, 200, ORMA_BYTE, right, seam - 100, 200, ORMA_BYTE, w));
    CHECK_OK(orma_win_unlock(right, w));
    RT_EXPECT_DATA(got, 0, 200, 30 + (unsigned)rank, HALF - 100, "a get over two regions");

    /* an accumulate of 16 int32 over the seam, from every rank at once */
    int32_t one[16], sum[16];
    for (int i = 0; i < 16; i++)
        one[i] = 1 + i;
    CHECK_OK(orma_barrier());
    int32_t *at = (int32_t *)(void *)(block + HALF - 32);
    for (int i = 0; i < 16; i++)
        at[i] = 0;
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, w));
    for (int t = 0; t < nranks; t++)
        CHECK_OK(orma_accumulate(one, 16, ORMA_INT32, t, all[t] + HALF - 32, 16, ORMA_INT32, ORMA_SUM, w));
    CHECK_OK(orma_win_unlock_all(w));
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, w));
    CHECK_OK(orma_get_accumulate(NULL, 0, ORMA_INT32, sum, 16, ORMA_INT32, rank, mine + HALF - 32, 16, ORMA_INT32,
                                 ORMA_NO_OP, w));
    CHECK_OK(orma_win_unlock_all(w));
    for (int i = 0; i < 16; i++)
        CHECK(sum[i] == nranks * (1 + i));

    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_detach(w, block));
    CHECK_OK(orma_win_detach(w, block + HALF));
    CHECK_OK(orma_win_free(&w));
    if (on_heap)
        CHECK_OK(orma_free_mem(block));
    else
        free(block);
}

/* Memory never attached: carried out (refused in check mode, and by the
 * net transport); memory that does not exist: an error either way. */
static void unattached(void)
{
    enum { LEN = 256 };
    unsigned char *loose = malloc(LEN), *attached = malloc(64), src[LEN];
    CHECK(loose && attached);
    rt_fill_bg(loose, LEN);
    orma_win w = ORMA_WIN_NULL;
    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &w));
    CHECK_OK(orma_win_attach(w, attached, 64));
    /* regions of no bytes, inside a region and outside: they expose nothing */
    CHECK_OK(orma_win_attach(w, attached + 8, 0));
    CHECK_OK(orma_win_attach(w, loose + 200, 0));
    orma_aint mine = (orma_aint)loose, all[MAXR];
    rt_exchange_aint(&mine, 1, all);
    int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks;
    rt_fill_data(src, LEN, 50 + (unsigned)rank, 16);
    int refused = check_mode || (net_mode && right != rank), refused_here = check_mode || (net_mode && left != rank);
    CHECK_OK(orma_win_lock_all(0, w));
    if (refused)
        CHECK_ERR(orma_put(src, 64, ORMA_BYTE, right, all[right] + 16, 64, ORMA_BYTE, w), ORMA_ERR_RANGE);
    else
        CHECK_OK(orma_put(src, 64, ORMA_BYTE, right, all[right] + 16, 64, ORMA_BYTE, w));
    /* the first page of the address space is never mapped */
    CHECK_ERR(orma_put(src, 8, ORMA_BYTE, right, 4096, 8, ORMA_BYTE, w), ORMA_ERR_RANGE);
    CHECK_ERR(orma_get(src, 8, ORMA_BYTE, rank, 64, 8, ORMA_BYTE, w), ORMA_ERR_RANGE);
    CHECK_OK(orma_win_unlock_all(w));
    CHECK_OK(orma_barrier());
    if (refused_here)
        RT_EXPECT_BG(loose, 0, LEN, "memory never attached, refused");
    else
        RT_EXPECT_REGION(loose, LEN, 16, 64, 50 + (unsigned)left, 16, "memory never attached, carried out");
    CHECK_OK(orma_win_detach(w, loose + 200));
    CHECK_OK(orma_win_detach(w, attached + 8));
    CHECK_ERR(orma_win_detach(w, attached + 8), ORMA_ERR_BASE);
    CHECK_OK(orma_win_detach(w, attached));
    CHECK_OK(orma_win_free(&w));
    free(loose);
    free(attached);
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    CHECK(nranks <= MAXR);
    const char *c = getenv("ORMA_CHECK");
    const char *t = getenv("ORMA_TRANSPORT");
    check_mode = c && (!strcmp(c, "1") || !strcmp(c, "all"));
    net_mode = t && !strcmp(t, "net");
    many_regions();
    adjacent(0);
    adjacent(1);
    unattached();
    CHECK_OK(orma_finalize());
    if (rank == 0)
        printf("dynamic_regions: %d ranks, %d regions each: OK\n", nranks, NREG);
    return 0;
}
