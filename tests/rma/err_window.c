/* err_window.c -- errors of window creation, flavour-specific calls,
 * dynamic windows and orma_free_mem.
 *
 * Creation with a bad displacement unit, base, info object or output pointer;
 * orma_win_shared_query (of allocate and create windows too) and
 * orma_win_attach on windows of the wrong flavour;
 * attach/detach of bad regions; hundreds of regions; accesses to a dynamic
 * window beyond, between and across its attached regions and to a region
 * detached before the epoch -- erroneous, and refused with ORMA_CHECK=1
 * (and over the net transport), else carried out as MPICH does (the
 * memory exists); orma_free_mem of memory that orma_alloc_mem did not
 * return.  All
 * ranks make the same bad calls (the checks are local, so collective calls
 * stay matched), and correct transfers follow each group. */
#include "rma_test.h"

#include <stdint.h>
#include <stdlib.h>

static int rank, nranks, rt;

/* Accesses outside a dynamic window's regions are refused, not carried
 * out, in check mode (ORMA_CHECK=1), and over the net transport (ranks but
 * this one, with ORMA_TRANSPORT=net). */
static int check_mode, net_mode;

static int refused(int target)
{
    return check_mode || (net_mode && target != rank);
}

static int env_is(const char *name, const char *value)
{
    const char *v = getenv(name);
    return v && !strcmp(v, value);
}

#define SENTINEL_WIN ((orma_win)0x5e5e5e5e5e5e5e5eull)

/* Zeros, suitably aligned: no valid object of the library looks like this. */
static struct {
    uint64_t words[64];
} not_info;

static void test_creation(void)
{
    unsigned char buf[64];
    void *base = buf;
    orma_win w = SENTINEL_WIN;
    const int bad_units[] = {0, -1, -8, INT32_MIN};

    for (size_t i = 0; i < sizeof bad_units / sizeof bad_units[0]; i++) {
        int du = bad_units[i];
        CHECK_ERR(orma_win_allocate(64, du, ORMA_INFO_NULL, &base, &w), ORMA_ERR_DISP);
        CHECK_ERR(orma_win_allocate_shared(64, du, ORMA_INFO_NULL, &base, &w),
                  ORMA_ERR_DISP);
        CHECK_ERR(orma_win_create(buf, sizeof buf, du, ORMA_INFO_NULL, &w), ORMA_ERR_DISP);
        CHECK_ERR(orma_win_create(buf, 0, du, ORMA_INFO_NULL, &w), ORMA_ERR_DISP);
    }
    CHECK_ERR(orma_win_create(NULL, 64, 1, ORMA_INFO_NULL, &w), ORMA_ERR_BASE);
    /* Readable memory that is not an info object. */
    CHECK_ERR(orma_win_allocate(64, 1, (orma_info)(void *)&not_info, &base, &w), ORMA_ERR_INFO);
    CHECK_ERR(orma_win_create(buf, sizeof buf, 1, (orma_info)(void *)&not_info, &w),
              ORMA_ERR_INFO);
    CHECK_ERR(orma_win_create_dynamic((orma_info)(void *)&not_info, &w), ORMA_ERR_INFO);
    CHECK_ERR(orma_win_allocate(64, 1, ORMA_INFO_NULL, &base, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_win_allocate(64, 1, ORMA_INFO_NULL, NULL, &w), ORMA_ERR_ARG);
    CHECK_ERR(orma_win_allocate_shared(64, 1, ORMA_INFO_NULL, &base, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_win_allocate_shared(64, 1, ORMA_INFO_NULL, NULL, &w), ORMA_ERR_ARG);
    CHECK_ERR(orma_win_create(buf, sizeof buf, 1, ORMA_INFO_NULL, NULL), ORMA_ERR_ARG);
    CHECK_ERR(orma_win_create_dynamic(ORMA_INFO_NULL, NULL), ORMA_ERR_ARG);
    /* Outputs are not written on error. */
    CHECK(w == SENTINEL_WIN && base == buf);

    /* After all that, creation works and the window does. */
    w = ORMA_WIN_NULL;
    CHECK_OK(orma_win_create(buf, sizeof buf, 2, ORMA_INFO_NULL, &w));
    rt_good_epoch(w, buf, sizeof buf, 2, 30);
    CHECK_OK(orma_win_free(&w));
}

/* shared_query not on dynamic windows, attach only on dynamic ones. */
static void test_flavors(void)
{
    unsigned char *mine = NULL, buf[64], region[32];
    size_t sz = 4242;
    int du = -5;
    void *qbase = buf;
    orma_win wa = ORMA_WIN_NULL, wc = ORMA_WIN_NULL, wd = ORMA_WIN_NULL,
             ws = ORMA_WIN_NULL;

    CHECK_OK(orma_win_allocate(64, 1, ORMA_INFO_NULL, (void **)&mine, &wa));
    CHECK_OK(orma_win_create(buf, sizeof buf, 1, ORMA_INFO_NULL, &wc));
    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &wd));
    CHECK_OK(orma_win_allocate_shared(16, 1, ORMA_INFO_NULL, &qbase, &ws));

    qbase = buf;
    CHECK_ERR(orma_win_shared_query(wd, 0, &sz, &du, &qbase), ORMA_ERR_FLAVOR);
    CHECK_ERR(orma_win_shared_query(wd, -1, &sz, &du, &qbase), ORMA_ERR_FLAVOR);
    CHECK_ERR(orma_win_shared_query(ws, nranks, &sz, &du, &qbase), ORMA_ERR_RANK);
    CHECK_ERR(orma_win_shared_query(ws, -2, &sz, &du, &qbase), ORMA_ERR_RANK);
    CHECK_ERR(orma_win_shared_query(wa, nranks, &sz, &du, &qbase), ORMA_ERR_RANK);
    CHECK(sz == 4242 && du == -5 && qbase == buf);
    /* allocate and create windows (MPI-4.1): a rank's own part, and
     * another's only where it is mapped here -- never the stack buffer's
     * (less than a page), an allocate window's on one node unless the net
     * transport reaches it */
    CHECK_OK(orma_win_shared_query(wa, rank, &sz, &du, &qbase));
    CHECK(sz == 64 && du == 1 && qbase == mine);
    CHECK_OK(orma_win_shared_query(wc, rank, &sz, &du, &qbase));
    CHECK(sz == sizeof buf && du == 1 && qbase == buf);
    if (nranks > 1) {
        CHECK_OK(orma_win_shared_query(wc, rt, &sz, &du, &qbase));
        CHECK(sz == 0 && du == 1 && qbase == NULL);
        CHECK_OK(orma_win_shared_query(wa, rt, &sz, &du, &qbase));
        CHECK(net_mode ? sz == 0 && qbase == NULL : sz == 64 && qbase != NULL);
    }

    CHECK_ERR(orma_win_attach(wa, region, sizeof region), ORMA_ERR_FLAVOR);
    CHECK_ERR(orma_win_attach(wc, region, sizeof region), ORMA_ERR_FLAVOR);
    CHECK_ERR(orma_win_attach(ws, region, sizeof region), ORMA_ERR_FLAVOR);

    rt_good_epoch(wa, mine, 64, 1, 40);
    rt_good_epoch(wc, buf, sizeof buf, 1, 50);
    CHECK_OK(orma_win_free(&ws));
    CHECK_OK(orma_win_free(&wd));
    CHECK_OK(orma_win_free(&wc));
    CHECK_OK(orma_win_free(&wa));
}

/* A dynamic window with two regions of one malloc'd block and a hole
 * between them:  [0,256) attached, [256,512) hole, [512,768) attached,
 * [768,1024) never attached. */
enum { BLOCK = 1024, R1 = 0, R1_END = 256, R2 = 512, R2_END = 768 };

/* Accesses outside the regions, each erroneous. */
static const struct {
    orma_aint at;
    size_t len;
} bad[] = {
    {R1_END - 6, 8},  /* across the end of the first region */
    {R1_END, 1},      /* first byte of the hole */
    {300, 8},         /* inside the hole */
    {R2 - 4, 8},      /* from the hole into the second region */
    {R1_END - 4, R2 - R1_END + 8}, /* over the hole, both ends attached */
    {R2_END - 4, 8},  /* across the end of the second region */
    {R2_END, 1},      /* just past the second region */
    {BLOCK - 8, 8},   /* never attached */
    {-1, 1},          /* just before the first region */
};
#define NBAD (sizeof bad / sizeof bad[0])
#define BAD_MAX (R2 - R1_END + 8)

/* What the gets of the carried-out accesses read, from this rank's own
 * block (k 0) and its neighbour's (k 1): checked once the epoch closes; and
 * what the puts write, which belongs to the epoch until then. */
static unsigned char outside_got[2][NBAD][BAD_MAX], outside_put[2][NBAD][BAD_MAX];

static void expect_range_errors(orma_win w, orma_aint b, int target, int k)
{
    unsigned char src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dst[8];
    unsigned char big[BAD_MAX] = {0};

    for (size_t i = 0; i < NBAD; i++) {
        const void *p = bad[i].len > sizeof src ? (const void *)big : (const void *)src;
        if (!refused(target)) { /* carried out: the block's bytes read, and written unchanged */
            if (bad[i].at < 0)
                continue; /* the allocator's bytes: not ours to write */
            for (size_t j = 0; j < bad[i].len; j++)
                outside_put[k][i][j] = rt_bg((size_t)bad[i].at + j);
            memset(outside_got[k][i], 0, BAD_MAX);
            CHECK_OK(orma_get(outside_got[k][i], bad[i].len, ORMA_BYTE, target, b + bad[i].at, bad[i].len,
                              ORMA_BYTE, w));
            CHECK_OK(orma_put(outside_put[k][i], bad[i].len, ORMA_BYTE, target, b + bad[i].at, bad[i].len,
                              ORMA_BYTE, w));
            continue;
        }
        CHECK_ERR(orma_put(p, bad[i].len, ORMA_BYTE, target, b + bad[i].at,
                           bad[i].len, ORMA_BYTE, w), ORMA_ERR_RANGE);
        CHECK_ERR(orma_get(bad[i].len > sizeof dst ? (void *)big : (void *)dst,
                           bad[i].len, ORMA_BYTE, target, b + bad[i].at,
                           bad[i].len, ORMA_BYTE, w), ORMA_ERR_RANGE);
    }
}

/* After the epoch: the carried-out gets read the block's background. */
static void expect_outside_reads(int k, int target)
{
    for (size_t i = 0; !refused(target) && i < NBAD; i++)
        if (bad[i].at >= 0)
            RT_EXPECT_BG(outside_got[k][i] - bad[i].at, (size_t)bad[i].at, (size_t)bad[i].at + bad[i].len,
                         "a get outside the regions, carried out");
}

static void test_dynamic(void)
{
    unsigned char *block = malloc(BLOCK), *loose = malloc(64);
    unsigned char src[2][8];
    orma_aint mine, *all = malloc((size_t)nranks * sizeof *all);
    orma_win w = ORMA_WIN_NULL;
    int left = (rank + nranks - 1) % nranks; /* whose puts land here */
    CHECK(block && loose && all);

    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &w));
    CHECK_OK(orma_win_attach(w, block + R1, R1_END - R1));
    CHECK_OK(orma_win_attach(w, block + R2, R2_END - R2));

    /* bad attach and detach */
    CHECK_ERR(orma_win_attach(w, NULL, 16), ORMA_ERR_BASE);
    CHECK_ERR(orma_win_attach(w, block + 100, 16), ORMA_ERR_BASE);
    CHECK_ERR(orma_win_attach(w, block + R2 - 8, 16), ORMA_ERR_BASE);
    CHECK_ERR(orma_win_attach(w, block + R1, R1_END - R1), ORMA_ERR_BASE);
    CHECK_ERR(orma_win_attach(w, block + R1_END - 8, R2 - R1_END + 16), ORMA_ERR_BASE);
    CHECK_ERR(orma_win_detach(w, block + 8), ORMA_ERR_BASE);
    CHECK_ERR(orma_win_detach(w, block + R1_END), ORMA_ERR_BASE);
    CHECK_ERR(orma_win_detach(w, loose), ORMA_ERR_BASE);
    CHECK_ERR(orma_win_detach(w, NULL), ORMA_ERR_BASE);

    mine = (orma_aint)block;
    rt_exchange_aint(&mine, 1, all);
    rt_fill_bg(block, BLOCK);
    rt_fill_bg(loose, 64);

    CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, w));
    expect_range_errors(w, mine, rank, 0);
    expect_range_errors(w, all[rt], rt, 1);
    if (refused(rt))
        CHECK_ERR(orma_put(src[0], 8, ORMA_BYTE, rt, (orma_aint)loose, 8, ORMA_BYTE, w), ORMA_ERR_RANGE);
    /* Displacements are addresses here, but a negative one is still a bad
     * displacement rather than an address outside the regions. */
    CHECK_ERR(orma_put(src[0], 8, ORMA_BYTE, rt, -8, 8, ORMA_BYTE, w), ORMA_ERR_DISP);
    CHECK_ERR(orma_get(src[0], 8, ORMA_BYTE, rank, INTPTR_MIN, 8, ORMA_BYTE, w),
              ORMA_ERR_DISP);
    /* The carried-out accesses read and write the bytes next to the ends of
     * the regions: the in-range puts there go in an epoch of their own, as a
     * get that overlaps a put in one epoch reads an undefined value. */
    CHECK_OK(orma_win_fence(0, w));
    expect_outside_reads(0, rank);
    expect_outside_reads(1, rt);
    /* The last bytes of each region are in range. */
    rt_fill_data(src[0], 8, 60 + (unsigned)rt, R1_END - 8);
    rt_fill_data(src[1], 8, 70 + (unsigned)rt, R2_END - 8);
    CHECK_OK(orma_put(src[0], 8, ORMA_BYTE, rt, all[rt] + R1_END - 8, 8, ORMA_BYTE, w));
    CHECK_OK(orma_put(src[1], 8, ORMA_BYTE, rt, all[rt] + R2_END - 8, 8, ORMA_BYTE, w));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w));

    RT_EXPECT_BG(block, 0, R1_END - 8, "dynamic block");
    RT_EXPECT_DATA(block, R1_END - 8, 8, 60 + (unsigned)rank, R1_END - 8,
                   "end of the first region");
    RT_EXPECT_BG(block, R1_END, R2_END - 8, "dynamic block (hole)");
    RT_EXPECT_DATA(block, R2_END - 8, 8, 70 + (unsigned)rank, R2_END - 8,
                   "end of the second region");
    RT_EXPECT_BG(block, R2_END, BLOCK, "dynamic block (never attached)");
    RT_EXPECT_BG(loose, 0, 64, "memory never attached");

    /* A region detached before the epoch is out of range in it (carried
     * out all the same unless refused: then it gets the data). */
    CHECK_OK(orma_win_detach(w, block + R2));
    rt_fill_bg(block, BLOCK);
    CHECK_OK(orma_win_fence(0, w));
    if (check_mode)
        CHECK_ERR(orma_put(src[1], 8, ORMA_BYTE, rank, mine + R2_END - 8, 8, ORMA_BYTE, w), ORMA_ERR_RANGE);
    if (refused(rt)) {
        CHECK_ERR(orma_put(src[1], 8, ORMA_BYTE, rt, all[rt] + R2, 8, ORMA_BYTE, w), ORMA_ERR_RANGE);
    } else {
        rt_fill_data(src[1], 8, 70 + (unsigned)rt, R2);
        CHECK_OK(orma_put(src[1], 8, ORMA_BYTE, rt, all[rt] + R2, 8, ORMA_BYTE, w));
    }
    CHECK_OK(orma_put(src[0], 8, ORMA_BYTE, rt, all[rt] + R1_END - 8, 8, ORMA_BYTE, w));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w));
    RT_EXPECT_BG(block, 0, R1_END - 8, "dynamic block after detach");
    RT_EXPECT_DATA(block, R1_END - 8, 8, 60 + (unsigned)rank, R1_END - 8, "dynamic block after detach");
    if (refused(left)) {
        RT_EXPECT_BG(block, R1_END, BLOCK, "dynamic block after detach");
    } else {
        RT_EXPECT_BG(block, R1_END, R2, "dynamic block after detach");
        RT_EXPECT_DATA(block, R2, 8, 70 + (unsigned)rank, R2, "a detached region, carried out");
        RT_EXPECT_BG(block, R2 + 8, BLOCK, "dynamic block after detach");
    }

    /* Detached twice is not attached. */
    CHECK_ERR(orma_win_detach(w, block + R2), ORMA_ERR_BASE);
    CHECK_OK(orma_win_detach(w, block + R1));
    CHECK_OK(orma_win_free(&w));
    free(block);
    free(loose);
    free(all);
}

/* Hundreds of regions, as programs that attach one per element of a list
 * have: no limit; every region is reachable, and a detached one is
 * refused in check mode, else carried out (its memory is still there). */
static void test_many_regions(void)
{
    const size_t max = 300, len = (max + 1) * 16;
    unsigned char *block = malloc(len), *src = malloc(len);
    orma_win w = ORMA_WIN_NULL;
    CHECK(block && src);

    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &w));
    for (size_t i = 0; i <= max; i += 2) /* every other one first: the table keeps them sorted */
        CHECK_OK(orma_win_attach(w, block + 16 * i, 8));
    for (size_t i = 1; i <= max; i += 2)
        CHECK_OK(orma_win_attach(w, block + 16 * i, 8));
    CHECK_ERR(orma_win_attach(w, block + 16 * 7 + 4, 8), ORMA_ERR_BASE);
    CHECK_OK(orma_win_detach(w, block + 16 * 3));

    rt_fill_bg(block, len);
    rt_fill_data(src, len, 90, 0);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, w));
    for (size_t i = 0; i <= max; i++) {
        orma_aint at = (orma_aint)(block + 16 * i);
        if (i == 3 && check_mode)
            CHECK_ERR(orma_put(src + 16 * i, 8, ORMA_BYTE, rank, at, 8, ORMA_BYTE, w), ORMA_ERR_RANGE);
        else
            CHECK_OK(orma_put(src + 16 * i, 8, ORMA_BYTE, rank, at, 8, ORMA_BYTE, w));
    }
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w));
    for (size_t i = 0; i <= max; i++) {
        if (i == 3 && check_mode)
            RT_EXPECT_BG(block, 16 * i, 16 * i + 8, "detached region");
        else
            RT_EXPECT_DATA(block, 16 * i, 8, 90, 16 * i, "one of many regions");
        RT_EXPECT_BG(block, 16 * i + 8, 16 * i + 16, "between regions");
    }

    for (size_t i = max + 1; i-- > 0;) /* in the other order */
        if (i != 3)
            CHECK_OK(orma_win_detach(w, block + 16 * i));
    CHECK_OK(orma_win_free(&w));
    free(block);
    free(src);
}

static void test_free_mem(void)
{
    unsigned char *heap = malloc(64), *mem = NULL;
    int on_stack = 0;
    static char in_data[64];

    CHECK(heap != NULL);
    CHECK_ERR(orma_free_mem(heap), ORMA_ERR_BASE);
    CHECK_ERR(orma_free_mem(&on_stack), ORMA_ERR_BASE);
    CHECK_ERR(orma_free_mem(in_data), ORMA_ERR_BASE);
    free(heap);

    CHECK_OK(orma_alloc_mem(256, ORMA_INFO_NULL, (void **)&mem));
    CHECK_ERR(orma_free_mem(mem + 64), ORMA_ERR_BASE);
    CHECK_ERR(orma_free_mem(mem + 1), ORMA_ERR_BASE);
    /* The failed frees left the allocation usable, as window memory too. */
    {
        orma_win w = ORMA_WIN_NULL;
        CHECK_OK(orma_win_create(mem, 256, 4, ORMA_INFO_NULL, &w));
        rt_good_epoch(w, mem, 256, 4, 80);
        CHECK_OK(orma_win_free(&w));
    }
    CHECK_OK(orma_free_mem(mem));
    CHECK_OK(orma_free_mem(NULL));
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    rt = (rank + 1) % nranks;
    check_mode = env_is("ORMA_CHECK", "1");
    net_mode = env_is("ORMA_TRANSPORT", "net");
    test_creation();
    test_flavors();
    test_dynamic();
    test_many_regions();
    test_free_mem();
    CHECK_OK(orma_finalize());
    return 0;
}
