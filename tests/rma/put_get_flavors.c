/* put_get_flavors.c -- put and get through every window flavour.
 *
 * Each rank puts to its right neighbour and gets from its left one inside a
 * fence epoch, on windows whose size and displacement unit differ from rank
 * to rank (so a library that used the origin's unit or size instead of the
 * target's lands in the wrong place).  Flavours: allocate, create on malloc'd
 * memory (single-copy syscall path), create on orma_alloc_mem memory (direct
 * path), dynamic with a malloc'd and an orma_alloc_mem region, and shared,
 * where direct loads and stores through orma_win_shared_query are checked
 * too.  Every byte of the exposed memory and of the get buffer is checked. */
#include "rma_test.h"

#include <stdint.h>
#include <stdlib.h>

enum { GUARD = 16 };

static const int units[4] = {1, 4, 8, 12};

static int rank, nranks;

/* What rank t exposes and where the ring puts and gets in it, as every rank
 * computes it.  The put region lies below the get region, and the two never
 * overlap: a put and a get of one location in one epoch would conflict. */
struct part {
    orma_aint put_disp, get_disp; /* in the target's units (dynamic: address) */
    size_t put_off, put_len;      /* byte offsets into the exposed memory */
    size_t get_off, get_len;
    size_t size;                  /* bytes exposed */
};

static int du_of(int t, int k) { return units[(t + k) % 4]; }

/* Sizes differ per rank and are not multiples of the unit for every rank. */
static size_t size_of(int t, int du)
{
    return (size_t)du * (size_t)(40 + 8 * t) + (size_t)(t % 3);
}

static struct part unit_part(int t, int du)
{
    struct part p;
    p.put_disp = 3 + t % 2;
    p.put_off = (size_t)p.put_disp * (size_t)du;
    p.put_len = 5 * (size_t)du + 3;
    p.get_disp = 20;
    p.get_off = 20 * (size_t)du;
    p.get_len = 6 * (size_t)du + 1;
    p.size = size_of(t, du);
    CHECK(p.put_off + p.put_len <= p.get_off && p.get_off + p.get_len <= p.size);
    return p;
}

/* A region of a dynamic window: displacements are addresses at the target. */
static struct part region_part(orma_aint addr, size_t size, int t)
{
    struct part p;
    p.size = size;
    p.put_off = 7 + (size_t)t;
    p.put_len = 61;
    p.get_off = 150;
    p.get_len = 77 + (size_t)t;
    p.put_disp = addr + (orma_aint)p.put_off;
    p.get_disp = addr + (orma_aint)p.get_off;
    CHECK(p.put_off + p.put_len <= p.get_off && p.get_off + p.get_len <= p.size);
    return p;
}

static unsigned put_seed(int t, unsigned iter) { return 100u + (unsigned)t + 16u * iter; }
static unsigned get_seed(int t, unsigned iter) { return 5000u + (unsigned)t + 16u * iter; }

/* One epoch of the ring on win.  mine is this rank's exposed memory, laid
 * out as me; right and left are the neighbours' layouts. */
static void ring_epoch(orma_win win, unsigned char *mine, const struct part *me,
                       const struct part *right, const struct part *left,
                       unsigned iter)
{
    int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
    size_t skew = (iter / 2) % 8; /* unaligned origin buffers */
    size_t gtotal = left->get_len + 2 * GUARD + 8;
    unsigned char *obuf = malloc(right->put_len + 8);
    unsigned char *gbuf = malloc(gtotal);
    CHECK(obuf && gbuf);

    rt_fill_bg(mine, me->size);
    rt_fill_data(mine + me->get_off, me->get_len, get_seed(rank, iter), me->get_off);
    rt_fill_data(obuf + skew, right->put_len, put_seed(rt, iter), right->put_off);
    rt_fill_bg(gbuf, gtotal);

    if (iter % 2 == 0) {
        /* No barrier before the epoch: operations to a rank that has not yet
         * opened it (and so may still be filling its memory) wait for it. */
        CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, win));
    } else {
        /* A fence with a barrier: every target is known to be open, so the
         * operations take the immediate path. */
        CHECK_OK(orma_win_fence(0, win));
    }
    CHECK_OK(orma_put(obuf + skew, right->put_len, ORMA_BYTE, rt, right->put_disp,
                      right->put_len, ORMA_BYTE, win));
    CHECK_OK(orma_get(gbuf + GUARD + skew, left->get_len, ORMA_BYTE, lt,
                      left->get_disp, left->get_len, ORMA_BYTE, win));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));

    RT_EXPECT_BG(mine, 0, me->put_off, "window below the put region");
    RT_EXPECT_DATA(mine, me->put_off, me->put_len, put_seed(rank, iter),
                   me->put_off, "put region");
    RT_EXPECT_BG(mine, me->put_off + me->put_len, me->get_off,
                 "window between put and get regions");
    RT_EXPECT_DATA(mine, me->get_off, me->get_len, get_seed(rank, iter),
                   me->get_off, "get region (read only)");
    RT_EXPECT_BG(mine, me->get_off + me->get_len, me->size,
                 "window above the get region");
    RT_EXPECT_REGION(gbuf, gtotal, GUARD + skew, left->get_len,
                     get_seed(lt, iter), left->get_off, "get buffer");
    free(obuf);
    free(gbuf);
}

static void ring_units(orma_win win, unsigned char *mine, int k, unsigned iter)
{
    int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
    struct part me = unit_part(rank, du_of(rank, k));
    struct part right = unit_part(rt, du_of(rt, k));
    struct part left = unit_part(lt, du_of(lt, k));
    ring_epoch(win, mine, &me, &right, &left, iter);
}

static void test_allocate(int k, unsigned iter)
{
    int du = du_of(rank, k);
    size_t size = size_of(rank, du);
    unsigned char *base = NULL;
    orma_win win = ORMA_WIN_NULL;

    CHECK_OK(orma_win_allocate(size, du, ORMA_INFO_NULL, (void **)&base, &win));
    CHECK(base != NULL && win != ORMA_WIN_NULL);
    ring_units(win, base, k, iter);
    CHECK_OK(orma_win_free(&win));
}

static void test_create(int k, unsigned iter, int use_alloc_mem)
{
    int du = du_of(rank, k);
    size_t size = size_of(rank, du);
    unsigned char *mem = NULL;
    orma_win win = ORMA_WIN_NULL;

    if (use_alloc_mem)
        CHECK_OK(orma_alloc_mem(size, ORMA_INFO_NULL, (void **)&mem));
    else
        mem = malloc(size);
    CHECK(mem != NULL);
    CHECK_OK(orma_win_create(mem, size, du, ORMA_INFO_NULL, &win));
    ring_units(win, mem, k, iter);
    CHECK_OK(orma_win_free(&win));
    if (use_alloc_mem)
        CHECK_OK(orma_free_mem(mem));
    else
        free(mem);
}

/* Region 0 of a dynamic window is plain malloc'd memory, region 1 orma
 * memory; the sizes differ per rank and per region. */
static size_t dyn_size(int i, int t)
{
    return i == 0 ? 300 + 24 * (size_t)t : 256 + 40 * (size_t)t;
}

static void test_dynamic(unsigned iter)
{
    int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
    unsigned char *reg[2];
    orma_aint mine[2];
    orma_aint *all = malloc(2 * (size_t)nranks * sizeof *all);
    orma_win win = ORMA_WIN_NULL;
    CHECK(all != NULL);

    reg[0] = malloc(dyn_size(0, rank));
    CHECK(reg[0] != NULL);
    CHECK_OK(orma_alloc_mem(dyn_size(1, rank), ORMA_INFO_NULL, (void **)&reg[1]));

    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &win));
    for (int i = 0; i < 2; i++)
        CHECK_OK(orma_win_attach(win, reg[i], dyn_size(i, rank)));

    /* Round 1 uses the regions as attached.  Before round 2 the orma memory
     * region is detached, freed, and replaced by a new allocation of the
     * same size -- often at the same address, but a different object, which
     * an origin that cached what it found at that address would miss. */
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            CHECK_OK(orma_win_detach(win, reg[1]));
            CHECK_OK(orma_free_mem(reg[1]));
            CHECK_OK(orma_alloc_mem(dyn_size(1, rank), ORMA_INFO_NULL, (void **)&reg[1]));
            CHECK_OK(orma_win_attach(win, reg[1], dyn_size(1, rank)));
        }
        for (int i = 0; i < 2; i++)
            mine[i] = (orma_aint)reg[i];
        rt_exchange_aint(mine, 2, all);
        for (int i = 0; i < 2; i++) {
            struct part me = region_part(mine[i], dyn_size(i, rank), rank);
            struct part right = region_part(all[2 * rt + i], dyn_size(i, rt), rt);
            struct part left = region_part(all[2 * lt + i], dyn_size(i, lt), lt);
            ring_epoch(win, reg[i], &me, &right, &left,
                       iter + 4 * (unsigned)round + (unsigned)i);
        }
    }

    for (int i = 0; i < 2; i++)
        CHECK_OK(orma_win_detach(win, reg[i]));
    CHECK_OK(orma_win_free(&win));
    free(reg[0]);
    CHECK_OK(orma_free_mem(reg[1]));
    free(all);
}

static void test_shared(int k, unsigned iter)
{
    int du = du_of(rank, k);
    size_t size = size_of(rank, du);
    unsigned char *base = NULL, *prev_end = NULL;
    unsigned char **parts = malloc((size_t)nranks * sizeof *parts);
    orma_win win = ORMA_WIN_NULL;
    CHECK(parts != NULL);

    CHECK_OK(orma_win_allocate_shared(size, du, ORMA_INFO_NULL, (void **)&base, &win));

    /* Every rank sees every part with its owner's size and unit, and the
     * parts follow each other without gaps. */
    for (int r = 0; r < nranks; r++) {
        size_t sz = 0;
        int qdu = 0;
        void *ptr = NULL;
        CHECK_OK(orma_win_shared_query(win, r, &sz, &qdu, &ptr));
        CHECK(sz == size_of(r, du_of(r, k)));
        CHECK(qdu == du_of(r, k));
        CHECK(ptr != NULL);
        if (r == rank)
            CHECK(ptr == (void *)base);
        if (r > 0)
            CHECK((unsigned char *)ptr == prev_end);
        parts[r] = ptr;
        prev_end = (unsigned char *)ptr + sz;
    }

    /* RMA through the shared window. */
    ring_units(win, base, k, iter);

    /* Direct stores into the own part are loads for everyone else. */
    rt_fill_data(base, size, 7000u + (unsigned)rank, 0);
    CHECK_OK(orma_win_fence(0, win));
    for (int r = 0; r < nranks; r++)
        RT_EXPECT_DATA(parts[r], 0, size_of(r, du_of(r, k)), 7000u + (unsigned)r, 0,
                       "shared part read by load");
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));

    /* Direct stores into the right neighbour's part reach its owner. */
    {
        int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
        rt_fill_data(parts[rt], size_of(rt, du_of(rt, k)), 8000u + (unsigned)rank, 0);
        CHECK_OK(orma_win_fence(0, win));
        RT_EXPECT_DATA(base, 0, size, 8000u + (unsigned)lt, 0,
                       "own shared part written by the left neighbour");
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    }

    CHECK_OK(orma_win_free(&win));
    free(parts);
}

int main(int argc, char **argv)
{
    unsigned iter = 0;

    rt_init(&argc, &argv, &rank, &nranks);
    /* k rotates the units over the ranks so that every rank sees each. */
    /* iter's parity picks the fence style (see ring_epoch); each flavour
     * and unit runs with both. */
    for (int k = 0; k < 4; k++)
        for (int style = 0; style < 2; style++) {
            test_allocate(k, 2 * iter++ + (unsigned)style);
            test_create(k, 2 * iter++ + (unsigned)style, 0);
            test_create(k, 2 * iter++ + (unsigned)style, 1);
            test_shared(k, 2 * iter++ + (unsigned)style);
        }
    test_dynamic(2 * iter);      /* regions 0, 1 with parity 0, 1 */
    test_dynamic(2 * iter + 11); /* and with parity 1, 0 */
    CHECK_OK(orma_finalize());
    return 0;
}
