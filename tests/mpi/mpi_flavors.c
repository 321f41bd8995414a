/* mpi_flavors.c -- the window flavours beyond allocate and create:
 * MPI_Win_allocate_shared with MPI_Win_shared_query (each rank loads and
 * stores its neighbours' segments directly), MPI_Win_create_dynamic with
 * MPI_Win_attach/detach (addresses exchanged by MPI_Get_address and
 * MPI_Allgather), and MPI_Alloc_mem memory given to MPI_Win_create. */
#include "mpi_test.h"

static int data(int r, int k, int i) { return 1000000 * (r + 1) + 1000 * k + i; }

/* Rank r's segment holds 16 * (r + 1) ints: sizes differ per rank. */
static size_t seg_ints(int r) { return 16 * (size_t)(r + 1); }

static void shared(void)
{
    int *mine;
    MPI_Win win;
    MPI_Win_allocate_shared((MPI_Aint)(seg_ints(rank) * sizeof(int)), sizeof(int), MPI_INFO_NULL,
                            MPI_COMM_WORLD, &mine, &win);
    int **seg = malloc((size_t)size * sizeof *seg);
    for (int r = 0; r < size; r++) {
        MPI_Aint bytes = -1;
        int unit = -1;
        MPI_Win_shared_query(win, r, &bytes, &unit, &seg[r]);
        expect("shared_query size", r, bytes, (long long)(seg_ints(r) * sizeof(int)));
        expect("shared_query disp_unit", r, unit, (int)sizeof(int));
        /* Contiguous by default: rank r's segment starts where r - 1's ends. */
        if (r > 0 && seg[r] != seg[r - 1] + seg_ints(r - 1))
            fail("segment of rank %d does not follow rank %d's (default is contiguous)", r, r - 1);
    }
    if (seg[rank] != mine)
        fail("shared_query of one's own rank differs from the allocated base");
    /* MPI_PROC_NULL: the segment of the lowest rank with a nonzero size. */
    MPI_Aint bytes = -1;
    int unit = -1;
    int *first = NULL;
    MPI_Win_shared_query(win, MPI_PROC_NULL, &bytes, &unit, &first);
    if (first != seg[0] || bytes != (MPI_Aint)(seg_ints(0) * sizeof(int)))
        fail("shared_query(MPI_PROC_NULL) is not rank 0's segment");

    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    fill_bg_int(mine, seg_ints(rank), rank);
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    /* Loads of the left neighbour's segment: its background, all of it. */
    for (size_t i = 0; i < seg_ints(left); i++)
        expect("load from the left neighbour's segment", (long)i, seg[left][i], bg(left, (long)i));
    MPI_Barrier(MPI_COMM_WORLD); /* everyone has read before anyone stores */
    /* Stores into the right neighbour's segment, 4 ints at 3. */
    for (int i = 0; i < 4; i++)
        seg[right][3 + i] = data(rank, 0, i);
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    for (size_t i = 0; i < seg_ints(rank); i++) {
        int want = i >= 3 && i < 7 ? data(left, 0, (int)i - 3) : bg(rank, (long)i);
        expect("own segment after the left neighbour's stores", (long)i, mine[i], want);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* everyone has checked before the puts */
    /* RMA on a shared window works as on any other. */
    int v = data(rank, 1, 0);
    MPI_Put(&v, 1, MPI_INT, right, 10, 1, MPI_INT, win);
    MPI_Win_flush(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    expect("put into a shared window, loaded", 10, mine[10], data(left, 1, 0));
    MPI_Win_unlock_all(win);
    free(seg);
    MPI_Win_free(&win);
}

/* Dynamic: two regions attached, the right neighbour's second one written
 * by put, its first one read by get; then the first region is detached
 * and a third attached and written. */
static void dynamic(void)
{
    enum { R = 16 };
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int *reg[3];
    for (int k = 0; k < 3; k++) {
        reg[k] = malloc(R * sizeof(int));
        if (!reg[k])
            fail("malloc");
        fill_bg_int(reg[k], R, rank + 10 * k);
    }
    MPI_Win_attach(win, reg[0], R * sizeof(int));
    MPI_Win_attach(win, reg[1], R * sizeof(int));
    MPI_Aint mine[3], *addr = malloc(3 * (size_t)size * sizeof *addr);
    MPI_Get_address(reg[0], &mine[0]);
    MPI_Get_address(reg[1], &mine[1]);
    MPI_Get_address(reg[2], &mine[2]);
    MPI_Allgather(mine, 3, MPI_AINT, addr, 3, MPI_AINT, MPI_COMM_WORLD);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int src[4], *got = guarded_alloc(4 * sizeof(int));
    for (int i = 0; i < 4; i++)
        src[i] = data(rank, 2, i);
    MPI_Win_lock_all(0, win);
    MPI_Put(src, 4, MPI_INT, right, MPI_Aint_add(addr[3 * right + 1], 5 * sizeof(int)), 4, MPI_INT, win);
    MPI_Get(got, 4, MPI_INT, right, MPI_Aint_add(addr[3 * right], 2 * sizeof(int)), 4, MPI_INT, win);
    MPI_Win_flush(right, win);
    for (int i = 0; i < 4; i++)
        expect("get from an attached region", i, got[i], bg(right, 2 + i));
    guarded_check(got, 4 * sizeof(int), "get from an attached region");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    for (int i = 0; i < R; i++) {
        expect("first attached region", i, reg[0][i], bg(rank, i));
        expect("second attached region", i, reg[1][i], i >= 5 && i < 9 ? data(left, 2, i - 5) : bg(rank + 10, i));
    }
    MPI_Win_unlock_all(win);
    /* Nobody may access a region once its owner detaches it. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_detach(win, reg[0]);
    MPI_Win_attach(win, reg[2], R * sizeof(int));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    MPI_Put(src, 2, MPI_INT, right, addr[3 * right + 2], 2, MPI_INT, win);
    MPI_Win_flush(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    for (int i = 0; i < R; i++)
        expect("region attached after a detach", i, reg[2][i], i < 2 ? data(left, 2, i) : bg(rank + 20, i));
    MPI_Win_unlock_all(win);
    MPI_Win_detach(win, reg[1]);
    MPI_Win_detach(win, reg[2]);
    MPI_Win_free(&win);
    for (int k = 0; k < 3; k++)
        free(reg[k]);
    free(addr);
    guarded_free(got);
}

/* MPI_Alloc_mem memory under MPI_Win_create, fence epochs. */
static void alloc_mem(void)
{
    enum { M = 32 };
    int *mem = NULL;
    MPI_Alloc_mem(M * sizeof(int), MPI_INFO_NULL, &mem);
    if (!mem)
        fail("MPI_Alloc_mem gave no memory");
    fill_bg_int(mem, M, rank);
    MPI_Win win;
    MPI_Win_create(mem, M * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int src[3] = {data(rank, 3, 0), data(rank, 3, 1), data(rank, 3, 2)}, got[3] = {0, 0, 0};
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    MPI_Put(src, 3, MPI_INT, right, M - 3, 3, MPI_INT, win);
    MPI_Get(got, 3, MPI_INT, left, 0, 3, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    for (int i = 0; i < 3; i++)
        expect("get from MPI_Alloc_mem memory", i, got[i], bg(left, i));
    for (int i = 0; i < M; i++)
        expect("MPI_Alloc_mem window", i, mem[i], i >= M - 3 ? data(left, 3, i - (M - 3)) : bg(rank, i));
    MPI_Win_free(&win);
    MPI_Free_mem(mem);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    shared();
    dynamic();
    alloc_mem();
    mt_finalize();
    return 0;
}
