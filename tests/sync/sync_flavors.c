/* sync_flavors.c -- every synchronization mode on every window flavour.
 *
 * Modes: fence (with and without a barrier on opening), PSCW, lock (the two
 * targets one after the other, or both at once), lock_all.  Flavours:
 * allocate, create on malloc'd memory (single-copy syscalls), create on
 * orma_alloc_mem memory, dynamic with two attached regions (one malloc'd,
 * one from orma_alloc_mem), and shared.  In every epoch each rank puts to
 * its right neighbour and gets from its left one; the target stores a fresh
 * background and the data to be read before the epoch, and afterwards all
 * of its exposed memory and the whole get buffer are checked. */
#include "sync_test.h"

enum { LOW = 24, PUT_AT = LOW, PUT_LEN = 56, GET_AT = PUT_AT + PUT_LEN + 24, GET_LEN = 44,
       SIZE = GET_AT + GET_LEN + 40 };
enum { M_FENCE, M_PSCW, M_LOCK, M_LOCK_ALL, NMODES };
enum { K_ALLOCATE, K_CREATE_MALLOC, K_CREATE_ALLOCMEM, K_DYNAMIC, K_SHARED, NKINDS };

static const char *const mode_names[NMODES] = {"fence", "PSCW", "lock", "lock_all"};
static const char *const kind_names[NKINDS] = {"allocate", "create(malloc)", "create(alloc_mem)",
                                               "dynamic(2 regions)", "shared"};

static int rank, nranks, rt, lt;

/* A window whose put region is in mem[0] and get region in mem[1]: the
 * same memory except for dynamic windows, where they are two regions. */
struct flav {
    int kind;
    orma_win win;
    unsigned char *mem[2];
    orma_aint *addr; /* dynamic: addr[2*r + i] is region i of rank r */
};

static void flav_open(struct flav *f, int kind)
{
    f->kind = kind;
    f->addr = NULL;
    switch (kind) {
    case K_ALLOCATE:
        CHECK_OK(orma_win_allocate(SIZE, 1, ORMA_INFO_NULL, (void **)&f->mem[0], &f->win));
        break;
    case K_SHARED:
        CHECK_OK(orma_win_allocate_shared(SIZE, 1, ORMA_INFO_NULL, (void **)&f->mem[0], &f->win));
        break;
    case K_CREATE_MALLOC:
        f->mem[0] = malloc(SIZE);
        CHECK(f->mem[0] != NULL);
        CHECK_OK(orma_win_create(f->mem[0], SIZE, 1, ORMA_INFO_NULL, &f->win));
        break;
    case K_CREATE_ALLOCMEM:
        CHECK_OK(orma_alloc_mem(SIZE, ORMA_INFO_NULL, (void **)&f->mem[0]));
        CHECK_OK(orma_win_create(f->mem[0], SIZE, 1, ORMA_INFO_NULL, &f->win));
        break;
    default: {
        orma_aint mine[2];
        f->mem[0] = malloc(SIZE);
        CHECK(f->mem[0] != NULL);
        CHECK_OK(orma_alloc_mem(SIZE, ORMA_INFO_NULL, (void **)&f->mem[1]));
        CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &f->win));
        for (int i = 0; i < 2; i++) {
            CHECK_OK(orma_win_attach(f->win, f->mem[i], SIZE));
            mine[i] = (orma_aint)f->mem[i];
        }
        f->addr = malloc(2 * (size_t)nranks * sizeof *f->addr);
        CHECK(f->addr != NULL);
        rt_exchange_aint(mine, 2, f->addr);
        return;
    }
    }
    f->mem[1] = f->mem[0];
}

static void flav_close(struct flav *f)
{
    if (f->kind == K_DYNAMIC)
        for (int i = 0; i < 2; i++)
            CHECK_OK(orma_win_detach(f->win, f->mem[i]));
    CHECK_OK(orma_win_free(&f->win));
    if (f->kind == K_CREATE_MALLOC || f->kind == K_DYNAMIC)
        free(f->mem[0]);
    if (f->kind == K_CREATE_ALLOCMEM)
        CHECK_OK(orma_free_mem(f->mem[0]));
    if (f->kind == K_DYNAMIC)
        CHECK_OK(orma_free_mem(f->mem[1]));
    free(f->addr);
}

static orma_aint disp(const struct flav *f, int t, int region, size_t off)
{
    return (f->addr ? f->addr[2 * t + region] : 0) + (orma_aint)off;
}

static void epoch(struct flav *f, int mode, unsigned it)
{
    char what[64];
    unsigned pseed = 1000u * it + 10u * (unsigned)mode, gseed = pseed + 500u;
    unsigned char src[PUT_LEN], gbuf[GET_LEN + 32];
    orma_group g = ORMA_GROUP_NULL;

    snprintf(what, sizeof what, "%s on %s", mode_names[mode], kind_names[f->kind]);
    for (int i = 0; i < (f->kind == K_DYNAMIC ? 2 : 1); i++)
        rt_fill_bg(f->mem[i], SIZE);
    rt_fill_data(f->mem[1] + GET_AT, GET_LEN, gseed + (unsigned)rank, GET_AT);
    rt_fill_data(src, PUT_LEN, pseed + (unsigned)rt, PUT_AT);
    rt_fill_bg(gbuf, sizeof gbuf);

    switch (mode) {
    case M_FENCE:
        /* Odd iterations open without a barrier: operations to a target
         * that has not opened yet are queued. */
        CHECK_OK(orma_win_fence(it % 2 ? ORMA_MODE_NOPRECEDE : 0, f->win));
        break;
    case M_PSCW:
        g = st_group_pair(f->win, rt, lt);
        CHECK_OK(orma_win_post(g, 0, f->win));
        CHECK_OK(orma_win_start(g, 0, f->win));
        break;
    case M_LOCK:
        CHECK_OK(orma_barrier());
        if (it % 2) {
            /* Both targets at once, in rank order. */
            int a = rt < lt ? rt : lt, b = rt < lt ? lt : rt;
            CHECK_OK(orma_win_lock(a == rt ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED, a, 0, f->win));
            if (b != a)
                CHECK_OK(orma_win_lock(b == rt ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED, b, 0, f->win));
        } else {
            CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, rt, 0, f->win));
        }
        break;
    default:
        CHECK_OK(orma_barrier());
        CHECK_OK(orma_win_lock_all(0, f->win));
        break;
    }

    CHECK_OK(orma_put(src, PUT_LEN, ORMA_BYTE, rt, disp(f, rt, 0, PUT_AT), PUT_LEN, ORMA_BYTE, f->win));
    if (mode == M_LOCK && it % 2 == 0) {
        CHECK_OK(orma_win_unlock(rt, f->win));
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, lt, 0, f->win));
    }
    CHECK_OK(orma_get(gbuf + 16, GET_LEN, ORMA_BYTE, lt, disp(f, lt, 1, GET_AT), GET_LEN, ORMA_BYTE,
                      f->win));

    switch (mode) {
    case M_FENCE:
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, f->win));
        break;
    case M_PSCW:
        CHECK_OK(orma_win_complete(f->win));
        CHECK_OK(orma_win_wait(f->win));
        CHECK_OK(orma_group_free(&g));
        break;
    case M_LOCK:
        CHECK_OK(orma_win_unlock(lt, f->win));
        if (it % 2 && rt != lt)
            CHECK_OK(orma_win_unlock(rt, f->win));
        CHECK_OK(orma_barrier());
        break;
    default:
        CHECK_OK(orma_win_unlock_all(f->win));
        CHECK_OK(orma_barrier());
        break;
    }

    RT_EXPECT_REGION(gbuf, sizeof gbuf, 16, GET_LEN, gseed + (unsigned)lt, GET_AT, what);
    if (f->kind == K_DYNAMIC) {
        RT_EXPECT_REGION(f->mem[0], SIZE, PUT_AT, PUT_LEN, pseed + (unsigned)rank, PUT_AT, what);
        RT_EXPECT_REGION(f->mem[1], SIZE, GET_AT, GET_LEN, gseed + (unsigned)rank, GET_AT, what);
    } else {
        RT_EXPECT_BG(f->mem[0], 0, PUT_AT, what);
        RT_EXPECT_DATA(f->mem[0], PUT_AT, PUT_LEN, pseed + (unsigned)rank, PUT_AT, what);
        RT_EXPECT_BG(f->mem[0], PUT_AT + PUT_LEN, GET_AT, what);
        RT_EXPECT_DATA(f->mem[0], GET_AT, GET_LEN, gseed + (unsigned)rank, GET_AT, what);
        RT_EXPECT_BG(f->mem[0], GET_AT + GET_LEN, SIZE, what);
    }
    /* Nobody may touch this rank's memory before it has checked it. */
    CHECK_OK(orma_barrier());
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    rt = (rank + 1) % nranks;
    lt = (rank + nranks - 1) % nranks;
    for (int kind = 0; kind < NKINDS; kind++) {
        struct flav f;
        flav_open(&f, kind);
        for (unsigned it = 0; it < 4; it++)
            for (int mode = 0; mode < NMODES; mode++) {
                epoch(&f, mode, it + 4 * (unsigned)kind);
            }
        flav_close(&f);
    }
    CHECK_OK(orma_finalize());
    return 0;
}
