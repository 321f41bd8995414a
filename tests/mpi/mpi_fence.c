/* mpi_fence.c -- a plain MPI program: allocate and create windows, fence
 * epochs, puts to the right neighbour and gets from the left one, every
 * byte of the window and of the buffers checked.  Run three ways by ctest:
 * on the host MPI alone ("host"), with liborma-mpi preloaded or linked
 * ("orma"); mt_init checks that orma is (or is not) what serves it, so
 * that each run tests what it says. */
#include "mpi_test.h"

#define N 64

static int data(int r, int round, int i) { return 100000 * (r + 1) + 1000 * round + i; }

/* One window flavour: round puts of 8 ints at displacement 8 + 8 * round
 * into the right neighbour, and a get of the left neighbour's first 4 ints. */
static void run(enum mt_flavor flavor)
{
    struct mt_win w;
    mt_win_open(&w, flavor, N * sizeof(int), sizeof(int));
    int *mem = w.base;
    fill_bg_int(mem, N, rank);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int src[8];
    int *got = guarded_alloc(4 * sizeof *got);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, w.win);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 8; i++)
            src[i] = data(rank, round, i);
        MPI_Put(src, 8, MPI_INT, right, 8 + 8 * round, 8, MPI_INT, w.win);
        MPI_Get(got, 4, MPI_INT, left, 0, 4, MPI_INT, w.win);
        MPI_Win_fence(0, w.win);
        for (int i = 0; i < 4; i++)
            expect("get", i, got[i], bg(left, i));
        guarded_check(got, 4 * sizeof *got, "get");
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win);
    for (int i = 0; i < N; i++) {
        int want = bg(rank, i);
        if (i >= 8 && i < 32)
            want = data(left, (i - 8) / 8, (i - 8) % 8);
        expect(mt_flavor_name[flavor], i, mem[i], want);
    }
    guarded_free(got);
    mt_win_close(&w);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    run(MT_ALLOCATE);
    run(MT_CREATE);
    mt_finalize();
    return 0;
}
