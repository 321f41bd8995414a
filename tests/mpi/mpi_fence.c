/* mpi_fence.c -- a plain MPI program: allocate and create windows, fence
 * epochs, puts to the right neighbour and gets from the left one, every
 * byte of the window and of the buffers checked.  Run three ways by ctest:
 * on the host MPI alone ("host"), with liborma-mpi preloaded or linked
 * ("orma"); the first argument says which, and the program checks that
 * orma is (or is not) what serves it, so that each run tests what it says. */
#include <mpi.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 64

static int rank, size;

static void fail(const char *what, int at, int got, int want)
{
    fprintf(stderr, "rank %d: %s at %d: got %d, expected %d\n", rank, what, at, got, want);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static int bg(int r, int i) { return -1000 * r - i; }
static int data(int r, int round, int i) { return 100000 * (r + 1) + 1000 * round + i; }

/* One window flavour: round puts of 8 ints at displacement 4 + round into
 * the right neighbour, and a get of the left neighbour's first 4 ints. */
static void run(int create)
{
    int *mem = NULL;
    MPI_Win win;
    if (create) {
        mem = malloc(N * sizeof *mem);
        if (!mem)
            fail("malloc", 0, 0, 0);
        MPI_Win_create(mem, N * sizeof *mem, sizeof *mem, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else {
        MPI_Win_allocate(N * sizeof *mem, sizeof *mem, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    }
    for (int i = 0; i < N; i++)
        mem[i] = bg(rank, i);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int src[8], got[6];
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 8; i++)
            src[i] = data(rank, round, i);
        memset(got, 0x5a, sizeof got);
        MPI_Put(src, 8, MPI_INT, right, 8 + 8 * round, 8, MPI_INT, win);
        MPI_Get(got + 1, 4, MPI_INT, left, 0, 4, MPI_INT, win);
        MPI_Win_fence(0, win);
        for (int i = 0; i < 4; i++)
            if (got[1 + i] != bg(left, i))
                fail("get", i, got[1 + i], bg(left, i));
        if (got[0] != 0x5a5a5a5a || got[5] != 0x5a5a5a5a)
            fail("bytes around the get", 0, got[0], 0x5a5a5a5a);
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    for (int i = 0; i < N; i++) {
        int want = bg(rank, i);
        if (i >= 8 && i < 32)
            want = data(left, (i - 8) / 8, (i - 8) % 8);
        if (mem[i] != want)
            fail(create ? "create window" : "allocate window", i, mem[i], want);
    }
    MPI_Win_free(&win);
    if (win != MPI_WIN_NULL)
        fail("MPI_Win_free left the handle", 0, 0, 0);
    if (create)
        free(mem);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int want_orma = argc > 1 && !strcmp(argv[1], "orma");
    int have_orma = dlsym(RTLD_DEFAULT, "orma_init") != NULL;
    if (want_orma != have_orma) {
        fprintf(stderr, "rank %d: this run should %sbe served by liborma-mpi, and is %s\n", rank,
                want_orma ? "" : "not ", have_orma ? "" : "not");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    run(0);
    run(1);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
