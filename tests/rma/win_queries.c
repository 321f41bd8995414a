/* win_queries.c -- window queries, shared-window layout, and resource
 * release over many windows.
 *
 * orma_win_get_base/size/disp_unit/flavor report what each flavour was
 * created with (sizes and units differ per rank, size 0 included).
 * orma_win_shared_query reports every rank's part, rank -1 the first
 * non-empty one, and with "alloc_shared_noncontig" the parts are still
 * disjoint and directly accessible.  Then 100 windows of all flavours are
 * created and freed: afterwards the job's objects in /dev/shm
 * (orma-<uid>-<ORMA_BOOT_JOB>-...), the open file descriptors and the
 * shared-memory mappings of the process are no more than before. */
#include "rma_test.h"
#include "usage.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, nranks;

static void expect_queries(orma_win w, const void *base, size_t size, int du,
                           orma_win_flavor flavor)
{
    void *qb = (void *)&qb;
    size_t qs = 777;
    int qdu = -1;
    orma_win_flavor qf = (orma_win_flavor)0;

    CHECK_OK(orma_win_get_base(w, &qb));
    CHECK_OK(orma_win_get_size(w, &qs));
    CHECK_OK(orma_win_get_disp_unit(w, &qdu));
    CHECK_OK(orma_win_get_flavor(w, &qf));
    CHECK(qb == base);
    CHECK(qs == size);
    CHECK(qdu == du);
    CHECK(qf == flavor);
}

static void test_queries(void)
{
    size_t size = 100 + 10 * (size_t)rank;
    int du = 1 + rank % 3 * 4; /* 1, 5, 9: not a power of two either */
    unsigned char *base = NULL, *mem = malloc(size), stack_byte = 0;
    orma_win w = ORMA_WIN_NULL;
    CHECK(mem != NULL);

    CHECK_OK(orma_win_allocate(size, du, ORMA_INFO_NULL, (void **)&base, &w));
    CHECK(base != NULL && (uintptr_t)base % 64 == 0);
    expect_queries(w, base, size, du, ORMA_WIN_FLAVOR_ALLOCATE);
    CHECK_OK(orma_win_free(&w));

    CHECK_OK(orma_win_allocate(0, 2, ORMA_INFO_NULL, (void **)&base, &w));
    {
        size_t qs = 1;
        CHECK_OK(orma_win_get_size(w, &qs));
        CHECK(qs == 0);
    }
    CHECK_OK(orma_win_free(&w));

    CHECK_OK(orma_win_create(mem, size, du + 1, ORMA_INFO_NULL, &w));
    expect_queries(w, mem, size, du + 1, ORMA_WIN_FLAVOR_CREATE);
    CHECK_OK(orma_win_free(&w));

    /* Size 0: a NULL base is allowed, and any base is reported back. */
    CHECK_OK(orma_win_create(NULL, 0, 4, ORMA_INFO_NULL, &w));
    expect_queries(w, NULL, 0, 4, ORMA_WIN_FLAVOR_CREATE);
    CHECK_OK(orma_win_free(&w));
    CHECK_OK(orma_win_create(&stack_byte, 0, 3, ORMA_INFO_NULL, &w));
    expect_queries(w, &stack_byte, 0, 3, ORMA_WIN_FLAVOR_CREATE);
    CHECK_OK(orma_win_free(&w));

    /* A dynamic window has unit 1 and, as in MPI, no memory of its own:
     * base NULL (MPI_BOTTOM) and size 0, also with regions attached. */
    CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &w));
    expect_queries(w, NULL, 0, 1, ORMA_WIN_FLAVOR_DYNAMIC);
    CHECK_OK(orma_win_attach(w, mem, size));
    expect_queries(w, NULL, 0, 1, ORMA_WIN_FLAVOR_DYNAMIC);
    CHECK_OK(orma_win_detach(w, mem));
    CHECK_OK(orma_win_free(&w));

    CHECK_OK(orma_win_allocate_shared(size, du, ORMA_INFO_NULL, (void **)&base, &w));
    expect_queries(w, base, size, du, ORMA_WIN_FLAVOR_SHARED);
    CHECK_OK(orma_win_free(&w));
    free(mem);
}

/* Shared windows where rank 0 (and with noncontig every even rank) has an
 * empty part. */
static size_t shared_size(int t) { return t == 0 ? 0 : 1000 + 100 * (size_t)t; }

static void test_shared(int noncontig)
{
    orma_info info = ORMA_INFO_NULL;
    unsigned char *base = NULL, *prev_end = NULL;
    unsigned char **parts = malloc((size_t)nranks * sizeof *parts);
    orma_win w = ORMA_WIN_NULL;
    size_t qs = 0;
    int qdu = 0;
    void *qb = NULL;
    CHECK(parts != NULL);

    if (noncontig) {
        CHECK_OK(orma_info_create(&info));
        CHECK_OK(orma_info_set(info, "alloc_shared_noncontig", "true"));
    }
    CHECK_OK(orma_win_allocate_shared(shared_size(rank), 8, info, (void **)&base, &w));
    if (info != ORMA_INFO_NULL)
        CHECK_OK(orma_info_free(&info));

    for (int r = 0; r < nranks; r++) {
        CHECK_OK(orma_win_shared_query(w, r, &qs, &qdu, &qb));
        CHECK(qs == shared_size(r));
        CHECK(qdu == 8);
        if (r == rank && qs)
            CHECK(qb == (void *)base);
        parts[r] = qb;
        if (qs == 0) {
            CHECK(qb == NULL); /* a part of no memory has no base */
            continue;
        }
        CHECK(qb != NULL);
        if (!noncontig && prev_end)
            CHECK((unsigned char *)qb == prev_end);
        if (noncontig && prev_end)
            CHECK((unsigned char *)qb >= prev_end);
        prev_end = (unsigned char *)qb + qs;
    }
    /* ORMA_PROC_NULL (or -1): the first rank with a non-empty part. */
    for (int k = 0; k < 2; k++) {
        CHECK_OK(orma_win_shared_query(w, k ? -1 : ORMA_PROC_NULL, &qs, &qdu, &qb));
        if (nranks > 1)
            CHECK(qs == shared_size(1) && qb == (void *)parts[1]);
        else
            CHECK(qs == 0 && qb == NULL);
    }

    /* Every part is reachable by loads of every rank. */
    rt_fill_data(base, shared_size(rank), 90u + (unsigned)rank, 0);
    CHECK_OK(orma_barrier());
    for (int r = 0; r < nranks; r++)
        RT_EXPECT_DATA(parts[r], 0, shared_size(r), 90u + (unsigned)r, 0,
                       "part of a shared window");
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_free(&w));
    free(parts);
}

/* One window of flavour i % 6, with a transfer through it so that the
 * library has set up whatever it sets up lazily. */
static void one_window(int i)
{
    int rt = (rank + 1) % nranks;
    size_t size = 4096 + 512 * (size_t)((i + rank) % 5);
    unsigned char *base = NULL, *mem = NULL, src[16];
    orma_win w = ORMA_WIN_NULL;
    orma_info info = ORMA_INFO_NULL;
    orma_aint disp = 64;

    switch (i % 6) {
    case 0:
        CHECK_OK(orma_win_allocate(size, 1, ORMA_INFO_NULL, (void **)&base, &w));
        break;
    case 1:
        CHECK_OK(orma_alloc_mem(size, ORMA_INFO_NULL, (void **)&mem));
        CHECK_OK(orma_win_create(mem, size, 1, ORMA_INFO_NULL, &w));
        base = mem;
        break;
    case 2:
        base = malloc(size);
        CHECK(base != NULL);
        CHECK_OK(orma_win_create(base, size, 1, ORMA_INFO_NULL, &w));
        break;
    case 3:
        CHECK_OK(orma_alloc_mem(size, ORMA_INFO_NULL, (void **)&mem));
        CHECK_OK(orma_win_create_dynamic(ORMA_INFO_NULL, &w));
        CHECK_OK(orma_win_attach(w, mem, size));
        base = mem;
        break;
    case 4:
        CHECK_OK(orma_win_allocate_shared(size, 1, ORMA_INFO_NULL, (void **)&base, &w));
        break;
    default:
        CHECK_OK(orma_info_create(&info));
        CHECK_OK(orma_info_set(info, "alloc_shared_noncontig", "true"));
        CHECK_OK(orma_win_allocate_shared(size, 1, info, (void **)&base, &w));
        CHECK_OK(orma_info_free(&info));
        break;
    }
    if (i % 6 == 3) {
        /* dynamic: the target address, exchanged through a window of its
         * own (itself created and freed here too) */
        orma_aint mine = (orma_aint)base + 64;
        orma_aint *all = malloc((size_t)nranks * sizeof *all);
        CHECK(all != NULL);
        rt_exchange_aint(&mine, 1, all);
        disp = all[rt];
        free(all);
    }
    rt_fill_bg(base, size);
    rt_fill_data(src, sizeof src, 3000u + (unsigned)i, 64);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, w));
    CHECK_OK(orma_put(src, sizeof src, ORMA_BYTE, rt, disp, sizeof src, ORMA_BYTE, w));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w));
    RT_EXPECT_REGION(base, size, 64, sizeof src, 3000u + (unsigned)i, 64,
                     "window in the create/free loop");

    if (i % 6 == 3)
        CHECK_OK(orma_win_detach(w, mem));
    CHECK_OK(orma_win_free(&w));
    CHECK(w == ORMA_WIN_NULL);
    if (mem)
        CHECK_OK(orma_free_mem(mem));
    else if (i % 6 == 2)
        free(base);
}

static void test_many_windows(void)
{
    char buf[128];
    const char *prefix = usage_shm_prefix(buf, sizeof buf);
    struct usage before, after;

    /* A dozen windows first, so that one-time setup (caches, lazily opened
     * segments of the job, the allocator's own mappings) is counted in
     * "before". */
    for (int i = 0; i < 12; i++)
        one_window(i);
    CHECK_OK(orma_barrier());
    before = usage_now(prefix);
    CHECK_OK(orma_barrier());

    for (int i = 0; i < 100; i++)
        one_window(i);

    /* Every rank has freed every window before anyone counts.  Shared
     * memory objects, descriptors and shared-memory mappings must be back
     * to their number exactly; other mappings (malloc's arenas, a
     * sanitizer's shadow) may vary a little, a per-window leak would not. */
    CHECK_OK(orma_barrier());
    after = usage_now(prefix);
    if (after.shm > before.shm || after.fds > before.fds ||
        after.shm_maps > before.shm_maps || after.maps > before.maps + 32) {
        fprintf(stderr, "rank %d: 100 windows leaked: /dev/shm objects %d -> %d, "
                "fds %d -> %d, /dev/shm mappings %d -> %d, mappings %d -> %d\n",
                rank, before.shm, after.shm, before.fds, after.fds,
                before.shm_maps, after.shm_maps, before.maps, after.maps);
        exit(1);
    }
    if (!prefix && rank == 0)
        printf("ORMA_BOOT_JOB not set: /dev/shm objects not counted\n");
    CHECK_OK(orma_barrier());
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    test_queries();
    test_shared(0);
    test_shared(1);
    test_many_windows();
    CHECK_OK(orma_finalize());
    return 0;
}
