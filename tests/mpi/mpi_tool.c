/* mpi_tool.c -- a profiling tool on top: run with pmpi_count (a PMPI
 * wrapper of MPI_Put) layered above the MPI that serves the program (the
 * host alone, or liborma-mpi).  After N puts of a fence epoch the tool must
 * have counted exactly N (gets and fences not counted), and the puts must
 * still have done their work: every byte of the windows is checked. */
#include "mpi_test.h"

#define N 32
#define PUTS 10

static int data(int r, int i) { return 100000 * (r + 1) + i; }

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int (*count)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "pmpi_count_puts");
    if (!count)
        fail("the pmpi_count tool is not in the process");
    int before = count();
    expect("puts counted before any put", 0, before, 0);

    struct mt_win w;
    mt_win_open(&w, MT_ALLOCATE, N * sizeof(int), sizeof(int));
    int *mem = w.base;
    fill_bg_int(mem, N, rank);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int src[PUTS], got = -1;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, w.win);
    for (int k = 0; k < PUTS; k++) {
        src[k] = data(rank, k);
        MPI_Put(&src[k], 1, MPI_INT, right, 2 * k + 1, 1, MPI_INT, w.win);
    }
    MPI_Get(&got, 1, MPI_INT, left, 0, 1, MPI_INT, w.win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win);
    expect("puts counted by the tool", 0, count(), PUTS);
    expect("get under the tool", 0, got, bg(left, 0));
    for (int i = 0; i < N; i++) {
        int want = i % 2 && i < 2 * PUTS ? data(left, i / 2) : bg(rank, i);
        expect("window after puts through the tool", i, mem[i], want);
    }
    mt_win_close(&w);
    mt_finalize();
    return 0;
}
