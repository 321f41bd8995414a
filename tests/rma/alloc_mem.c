/* alloc_mem.c -- orma_alloc_mem / orma_free_mem, and windows created on
 * such memory at an offset inside an allocation.
 *
 * Allocations of 0 bytes to 3 MiB are 64-byte aligned, non-NULL, writable
 * over their whole size and disjoint (all are filled, then all re-checked).
 * orma_free_mem(NULL) is a no-op; a second free of the same pointer is
 * ORMA_ERR_BASE.  A churn of allocations and frees must keep every live
 * block intact.  Finally two windows are created on parts of one allocation
 * (neither at its start); transfers through both must land at the right
 * place, and the bytes of the allocation outside the windows stay as they
 * were. */
#include "rma_test.h"

#include <stdint.h>
#include <stdlib.h>

static int rank, nranks;

static int overlaps(const unsigned char *a, size_t na, const unsigned char *b, size_t nb)
{
    /* a 0-byte block still owns its address */
    na = na ? na : 1;
    nb = nb ? nb : 1;
    return a < b + nb && b < a + na;
}

static void test_sizes(void)
{
    static const size_t sizes[] = {0, 0, 1, 63, 64, 65, 4096, 100000, 3 << 20};
    enum { N = sizeof sizes / sizeof sizes[0] };
    unsigned char *p[N];

    for (int i = 0; i < N; i++) {
        p[i] = NULL;
        CHECK_OK(orma_alloc_mem(sizes[i], ORMA_INFO_NULL, (void **)&p[i]));
        CHECK(p[i] != NULL);
        CHECK((uintptr_t)p[i] % 64 == 0);
        rt_fill_data(p[i], sizes[i], 10u + (unsigned)i, 0);
    }
    for (int i = 0; i < N; i++) {
        RT_EXPECT_DATA(p[i], 0, sizes[i], 10u + (unsigned)i, 0, "allocation");
        for (int j = 0; j < i; j++)
            CHECK(!overlaps(p[i], sizes[i], p[j], sizes[j]));
    }
    /* Free in an order unlike allocation; the others stay intact. */
    for (int i = 1; i < N; i += 2) {
        CHECK_OK(orma_free_mem(p[i]));
        CHECK_ERR(orma_free_mem(p[i]), ORMA_ERR_BASE);
    }
    for (int i = 0; i < N; i += 2) {
        RT_EXPECT_DATA(p[i], 0, sizes[i], 10u + (unsigned)i, 0,
                       "allocation after others were freed");
        CHECK_OK(orma_free_mem(p[i]));
        CHECK_ERR(orma_free_mem(p[i]), ORMA_ERR_BASE);
    }
    CHECK_OK(orma_free_mem(NULL));
}

/* Pseudo-random alloc/free sequence with up to 16 live blocks; each block
 * holds its own stream and is verified before it is freed. */
static void test_churn(void)
{
    enum { LIVE = 16, ROUNDS = 300 };
    unsigned char *p[LIVE] = {0};
    size_t sz[LIVE] = {0};
    unsigned seed[LIVE] = {0};
    uint32_t x = 12345u + (uint32_t)rank;

    for (unsigned round = 0; round < ROUNDS; round++) {
        int i;
        x = x * 1103515245u + 12345u;
        i = (int)((x >> 16) % LIVE);
        if (p[i]) {
            RT_EXPECT_DATA(p[i], 0, sz[i], seed[i], 0, "live block in churn");
            CHECK_OK(orma_free_mem(p[i]));
            p[i] = NULL;
        } else {
            x = x * 1103515245u + 12345u;
            sz[i] = (x >> 8) % 3 == 0 ? (x >> 4) % 70000 : (x >> 4) % 300;
            seed[i] = 1000u + round;
            CHECK_OK(orma_alloc_mem(sz[i], ORMA_INFO_NULL, (void **)&p[i]));
            CHECK(p[i] != NULL && (uintptr_t)p[i] % 64 == 0);
            rt_fill_data(p[i], sz[i], seed[i], 0);
        }
    }
    for (int i = 0; i < LIVE; i++)
        if (p[i]) {
            RT_EXPECT_DATA(p[i], 0, sz[i], seed[i], 0, "live block at the end");
            CHECK_OK(orma_free_mem(p[i]));
        }
}

/* Two windows inside one allocation of ALLOC bytes.  Window a starts at an
 * offset that is not 64-byte aligned and differs per rank; window b follows
 * it with a gap.  In each window every rank puts PUT_LEN bytes to its right
 * neighbour at displacement PUT_DISP and gets the last GET_LEN bytes of its
 * left neighbour's window. */
enum { ALLOC = 16384, PUT_DISP = 10, PUT_LEN = 40, GET_LEN = 64 };

struct subwin {
    size_t off, size;
    int du;
};

static struct subwin subwin_of(int which, int t)
{
    struct subwin s;
    if (which == 0) {
        s.off = 100 + 8 * (size_t)t;
        s.size = 4000 + 16 * (size_t)t;
        s.du = 4;
    } else {
        s.off = 8200 + 24 * (size_t)t;
        s.size = 3000 + 8 * (size_t)t;
        s.du = 8;
    }
    return s;
}

static unsigned put_seed(int which, int t) { return 500u + 10u * (unsigned)which + (unsigned)t; }
static unsigned get_seed(int which, int t) { return 700u + 10u * (unsigned)which + (unsigned)t; }

static void test_windows_inside(void)
{
    int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
    unsigned char *mem = NULL, src[2][PUT_LEN], gbuf[2][GET_LEN + 16];
    orma_win w[2] = {ORMA_WIN_NULL, ORMA_WIN_NULL};

    CHECK_OK(orma_alloc_mem(ALLOC, ORMA_INFO_NULL, (void **)&mem));
    rt_fill_bg(mem, ALLOC);
    for (int k = 0; k < 2; k++) {
        struct subwin me = subwin_of(k, rank), right = subwin_of(k, rt);
        void *qbase = NULL;
        size_t qsize = 0;

        CHECK_OK(orma_win_create(mem + me.off, me.size, me.du, ORMA_INFO_NULL, &w[k]));
        CHECK_OK(orma_win_get_base(w[k], &qbase));
        CHECK_OK(orma_win_get_size(w[k], &qsize));
        CHECK(qbase == mem + me.off && qsize == me.size);
        /* the owner's data for the neighbour's get, at the window's end */
        rt_fill_data(mem + me.off + me.size - GET_LEN, GET_LEN, get_seed(k, rank),
                     me.off + me.size - GET_LEN);
        rt_fill_data(src[k], PUT_LEN, put_seed(k, rt),
                     right.off + (size_t)PUT_DISP * (size_t)right.du);
        rt_fill_bg(gbuf[k], sizeof gbuf[k]);
    }
    for (int k = 0; k < 2; k++)
        CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, w[k]));
    for (int k = 0; k < 2; k++) {
        struct subwin left = subwin_of(k, lt);
        CHECK_OK(orma_put(src[k], PUT_LEN, ORMA_BYTE, rt, PUT_DISP, PUT_LEN, ORMA_BYTE, w[k]));
        CHECK_OK(orma_get(gbuf[k] + 8, GET_LEN, ORMA_BYTE, lt,
                          (orma_aint)((left.size - GET_LEN) / (size_t)left.du),
                          GET_LEN, ORMA_BYTE, w[k]));
    }
    for (int k = 0; k < 2; k++)
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w[k]));

    /* The whole allocation: background but for what each window received
     * and what the owner stored for the gets. */
    {
        size_t pos = 0;
        for (int k = 0; k < 2; k++) {
            struct subwin me = subwin_of(k, rank), left = subwin_of(k, lt);
            size_t at = me.off + (size_t)PUT_DISP * (size_t)me.du;
            size_t g = me.off + me.size - GET_LEN;
            RT_EXPECT_BG(mem, pos, at, "allocation around windows");
            RT_EXPECT_DATA(mem, at, PUT_LEN, put_seed(k, rank), at, "put into window");
            RT_EXPECT_BG(mem, at + PUT_LEN, g, "window inside allocation");
            RT_EXPECT_DATA(mem, g, GET_LEN, get_seed(k, rank), g, "get source");
            pos = g + GET_LEN;
            /* left.size is a multiple of its unit, so the get hit its end */
            CHECK(left.size % (size_t)left.du == 0);
            RT_EXPECT_REGION(gbuf[k], sizeof gbuf[k], 8, GET_LEN, get_seed(k, lt),
                             left.off + left.size - GET_LEN, "get buffer");
        }
        RT_EXPECT_BG(mem, pos, ALLOC, "allocation after the windows");
    }
    for (int k = 0; k < 2; k++)
        CHECK_OK(orma_win_free(&w[k]));
    CHECK_OK(orma_free_mem(mem));
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    test_sizes();
    test_churn();
    test_windows_inside();
    CHECK_OK(orma_finalize());
    return 0;
}
