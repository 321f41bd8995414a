/* mpi_pscw.c -- generalized active target synchronization: MPI_Win_post,
 * start, complete, wait and MPI_Win_test, with groups made from the
 * communicator's group by MPI_Group_incl.  A ring exchange (each rank
 * exposes itself to its left neighbour and accesses its right one), an
 * exchange with both neighbours, a target that exposes itself to a subset
 * of ranks only, and MPI_Win_get_group against the communicator's group.
 * The targets check every byte of their windows. */
#include "mpi_test.h"

#define N 32

static int data(int r, int k, int i) { return 1000000 * (r + 1) + 1000 * k + i; }

static MPI_Group world_group;

/* The group of the n ranks in list (n <= 2), without a duplicate. */
static MPI_Group group_of(int n, const int *list)
{
    int ranks[2] = {list[0], n > 1 ? list[1] : list[0]};
    if (n > 1 && ranks[1] == ranks[0])
        n = 1;
    MPI_Group g;
    MPI_Group_incl(world_group, n, ranks, &g);
    return g;
}

static void check_window(const int *mem, int k, const char *what, int (*want_of)(int i, int k))
{
    for (int i = 0; i < N; i++)
        expect(what, i, mem[i], want_of(i, k));
}

/* Ring: put 4 ints to the right neighbour at 4 * k, get the right
 * neighbour's slot 28..31; MPI_Win_test polls for the end of exposure. */
static int ring_left;
static int ring_want(int i, int k)
{
    if (i >= 4 * k && i < 4 * k + 4)
        return data(ring_left, k, i - 4 * k);
    if (i < 4 * k)
        return data(ring_left, i / 4, i % 4);
    return bg(rank, i);
}

static void ring(MPI_Win win, int *mem)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Group from = group_of(1, &left), to = group_of(1, &right);
    int src[4];
    int *got = guarded_alloc(4 * sizeof *got);
    ring_left = left;
    for (int k = 0; k < 3; k++) {
        MPI_Win_post(from, 0, win);
        MPI_Win_start(to, 0, win);
        for (int i = 0; i < 4; i++)
            src[i] = data(rank, k, i);
        MPI_Put(src, 4, MPI_INT, right, 4 * k, 4, MPI_INT, win);
        MPI_Get(got, 4, MPI_INT, right, 28, 4, MPI_INT, win);
        MPI_Win_complete(win);
        for (int i = 0; i < 4; i++)
            expect("ring get", i, got[i], bg(right, 28 + i));
        guarded_check(got, 4 * sizeof *got, "ring get");
        if (k == 1) {
            int flag = 0;
            while (!flag)
                MPI_Win_test(win, &flag);
        } else {
            MPI_Win_wait(win);
        }
        check_window(mem, k, "window after a ring exchange", ring_want);
    }
    guarded_free(got);
    MPI_Group_free(&from);
    MPI_Group_free(&to);
    if (from != MPI_GROUP_NULL || to != MPI_GROUP_NULL)
        fail("MPI_Group_free left a handle");
    fill_bg_int(mem, N, rank);
}

/* Both neighbours: each rank exposes itself to both, and puts its rank
 * into slot 12 of its right neighbour and slot 13 of its left one. */
static void both(MPI_Win win, int *mem)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int nb[2] = {left, right};
    MPI_Group g = group_of(2, nb);
    MPI_Win_post(g, 0, win);
    MPI_Win_start(g, 0, win);
    int a = data(rank, 5, 0), b = data(rank, 5, 1);
    MPI_Put(&a, 1, MPI_INT, right, 12, 1, MPI_INT, win);
    MPI_Put(&b, 1, MPI_INT, left, 13, 1, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    for (int i = 0; i < N; i++) {
        int want = i == 12 ? data(left, 5, 0) : i == 13 ? data(right, 5, 1) : bg(rank, i);
        expect("window after the two-neighbour exchange", i, mem[i], want);
    }
    MPI_Group_free(&g);
    fill_bg_int(mem, N, rank);
}

/* A subset: rank 0 exposes itself to the odd ranks only; each of them
 * puts into slot rank, the even ranks take no part in the epoch. */
static void subset(MPI_Win win, int *mem)
{
    int odd[8], n = 0;
    for (int r = 1; r < size && n < 8; r += 2)
        odd[n++] = r;
    if (rank == 0) {
        MPI_Group g;
        MPI_Group_incl(world_group, n, odd, &g);
        MPI_Win_post(g, 0, win);
        MPI_Win_wait(win);
        MPI_Group_free(&g);
        for (int i = 0; i < N; i++) {
            int want = i > 0 && i < size && i % 2 ? data(i, 6, 0) : bg(0, i);
            expect("window of the target exposed to a subset", i, mem[i], want);
        }
    } else if (rank % 2) {
        int zero = 0, v = data(rank, 6, 0);
        MPI_Group g = group_of(1, &zero);
        MPI_Win_start(g, 0, win);
        MPI_Put(&v, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Group_free(&g);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; i++)
        if (rank != 0)
            expect("window of a rank outside the subset epoch", i, mem[i], bg(rank, i));
}

static void get_group(MPI_Win win)
{
    MPI_Group g;
    int cmp = MPI_UNEQUAL, gsize = -1, grank = -2;
    MPI_Win_get_group(win, &g);
    MPI_Group_compare(g, world_group, &cmp);
    expect("MPI_Group_compare(window group, communicator group)", 0, cmp, MPI_IDENT);
    MPI_Group_size(g, &gsize);
    MPI_Group_rank(g, &grank);
    expect("size of the window's group", 0, gsize, size);
    expect("rank in the window's group", 0, grank, rank);
    MPI_Group_free(&g);
}

static void run(enum mt_flavor flavor)
{
    struct mt_win w;
    mt_win_open(&w, flavor, N * sizeof(int), sizeof(int));
    fill_bg_int(w.base, N, rank);
    MPI_Barrier(MPI_COMM_WORLD);
    get_group(w.win);
    ring(w.win, w.base);
    both(w.win, w.base);
    subset(w.win, w.base);
    mt_win_close(&w);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    run(MT_ALLOCATE);
    run(MT_CREATE);
    MPI_Group_free(&world_group);
    mt_finalize();
    return 0;
}
