/* mpi_acc.c -- accumulate operations and atomics: MPI_Accumulate (SUM,
 * MAX, REPLACE, MINLOC on MPI_DOUBLE_INT), MPI_Get_accumulate (with
 * MPI_NO_OP as an atomic read), MPI_Fetch_and_op and MPI_Compare_and_swap,
 * under fence and in lock_all epochs.  Concurrent accumulates from every
 * rank to the same elements are element-wise atomic, so the results are
 * exact; fetched values of a shared counter must form a permutation; a
 * spin lock built on compare-and-swap must protect a plain get/put counter.
 * Every element of the windows not written keeps its background. */
#include "mpi_test.h"

#define N 64
#define K 6 /* increments per rank of the shared counters */

static int data(int r, int i) { return 1000 * (r + 1) + i; }

struct dint { double v; int i; }; /* MPI_DOUBLE_INT's layout */

/* Which elements a step changed, and to what: others keep background. */
static int want_int[N];
static int written[N];

static void want(int i, int v)
{
    want_int[i] = v;
    written[i] = 1;
}

static void check_ints(const int *mem, const char *what)
{
    for (int i = 0; i < N; i++)
        expect(what, i, mem[i], written[i] ? want_int[i] : bg(rank, i));
}

static void fence_ops(MPI_Win win, int *mem, MPI_Win dwin, struct dint *dmem)
{
    int right = (rank + 1) % size;
    /* Origin buffers belong to the epoch until the closing fence (MPI
     * forbids changing them before): one buffer per operation. */
    int sums[4], maxs[4];
    int tri = size * (size + 1) / 2;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, dwin);
    for (int t = 0; t < size; t++) {
        /* SUM at 0..3: every rank adds (r + 1) * (i + 1). */
        for (int i = 0; i < 4; i++)
            sums[i] = (rank + 1) * (i + 1);
        MPI_Accumulate(sums, 4, MPI_INT, t, 0, 4, MPI_INT, MPI_SUM, win);
        /* MAX at 8..11 over background (negative) and data. */
        for (int i = 0; i < 4; i++)
            maxs[i] = data(rank, i);
        MPI_Accumulate(maxs, 4, MPI_INT, t, 8, 4, MPI_INT, MPI_MAX, win);
        /* REPLACE at 16 by all: the element is one of the values put. */
        MPI_Accumulate(&maxs[0], 1, MPI_INT, t, 16, 1, MPI_INT, MPI_REPLACE, win);
        /* REPLACE into one's own slot 20 + rank. */
        MPI_Accumulate(&maxs[1], 1, MPI_INT, t, 20 + rank, 1, MPI_INT, MPI_REPLACE, win);
    }
    /* Accumulates from one origin to one element are ordered by default:
     * REPLACE by 5, then SUM 3, into the right neighbour's 30. */
    int five = 5, three = 3;
    MPI_Accumulate(&five, 1, MPI_INT, right, 30, 1, MPI_INT, MPI_REPLACE, win);
    MPI_Accumulate(&three, 1, MPI_INT, right, 30, 1, MPI_INT, MPI_SUM, win);
    /* Get_accumulate SUM 1 at rank 0's 32: fetched values are distinct. */
    int one = 1, fetched = 0;
    MPI_Get_accumulate(&one, 1, MPI_INT, &fetched, 1, MPI_INT, 0, 32, 1, MPI_INT, MPI_SUM, win);
    /* MINLOC: element i of every target gets {(r + i) % size, r} from
     * every r: the minimum 0 comes from one rank; element 3 ties at 1.5
     * everywhere and must keep the lowest index; element 5 is untouched. */
    struct dint d[4];
    for (int i = 0; i < 4; i++)
        d[i] = (struct dint){i == 3 ? 1.5 : (double)((rank + i) % size), rank};
    for (int t = 0; t < size; t++)
        MPI_Accumulate(d, 4, MPI_DOUBLE_INT, t, 0, 4, MPI_DOUBLE_INT, MPI_MINLOC, dwin);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, dwin);
    MPI_Win_fence(0, win);

    memset(written, 0, sizeof written);
    for (int i = 0; i < 4; i++) {
        want(i, bg(rank, i) + tri * (i + 1));
        want(8 + i, data(size - 1, i));
    }
    int r16 = -1;
    for (int r = 0; r < size; r++)
        if (mem[16] == data(r, 0))
            r16 = r;
    if (r16 < 0)
        fail("concurrent REPLACE left %d, none of the values put", mem[16]);
    want(16, data(r16, 0));
    for (int r = 0; r < size; r++)
        want(20 + r, data(r, 1));
    want(30, 8);
    if (rank == 0)
        want(32, bg(0, 32) + size);
    check_ints(mem, "int window after accumulates under fence");

    int *all = malloc((size_t)size * sizeof *all);
    MPI_Gather(&fetched, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        char seen[64] = {0};
        for (int r = 0; r < size; r++) {
            int k = all[r] - bg(0, 32);
            if (k < 0 || k >= size || k >= 64 || seen[k])
                fail("Get_accumulate fetched %d: not a permutation of the counter's steps", all[r]);
            seen[k] = 1;
        }
    }
    free(all);

    for (int i = 0; i < 4; i++) {
        double v = i == 3 ? 1.5 : 0.0;
        int idx = i == 3 ? 0 : (size - i % size) % size;
        /* The standard breaks a MINLOC tie by the lower index.  Open MPI
         * 4.1's one-sided MINLOC keeps another contributor's index on a
         * tie; its host runs only check that the index is a contributor's. */
        if (i == 3 && !mt_orma && mt_host_is_open_mpi() && dmem[i].i >= 0 && dmem[i].i < size)
            idx = dmem[i].i;
        if (dmem[i].v != v || dmem[i].i != idx)
            fail("MINLOC element %d: got {%g, %d}, expected {%g, %d}", i, dmem[i].v, dmem[i].i, v, idx);
    }
    for (int i = 4; i < 8; i++)
        if (dmem[i].v != 1e9 + i || dmem[i].i != -1 - i)
            fail("MPI_DOUBLE_INT element %d outside the MINLOC changed: {%g, %d}", i, dmem[i].v, dmem[i].i);
}

static void lock_all_ops(MPI_Win win, int *mem)
{
    MPI_Win_lock_all(0, win);
    /* A shared counter at rank 0's 40 (zeroed under fence before):
     * fetch_and_op SUM from all ranks, each fetched value seen once. */
    int one = 1, mine[K];
    for (int k = 0; k < K; k++) {
        MPI_Fetch_and_op(&one, &mine[k], MPI_INT, 0, 40, MPI_SUM, win);
        MPI_Win_flush(0, win);
    }
    int *all = malloc((size_t)size * K * sizeof *all);
    MPI_Allgather(mine, K, MPI_INT, all, K, MPI_INT, MPI_COMM_WORLD);
    char *seen = calloc((size_t)size * K, 1);
    for (int j = 0; j < size * K; j++) {
        if (all[j] < 0 || all[j] >= size * K || seen[all[j]])
            fail("fetch_and_op fetched %d: not a permutation of 0..%d", all[j], size * K - 1);
        seen[all[j]] = 1;
    }
    free(seen);
    free(all);
    /* Atomic reads: Fetch_and_op and Get_accumulate with MPI_NO_OP. */
    int v = -1, v2[2] = {-1, -1};
    MPI_Fetch_and_op(NULL, &v, MPI_INT, 0, 40, MPI_NO_OP, win);
    MPI_Get_accumulate(NULL, 0, MPI_INT, v2, 2, MPI_INT, 0, 40, 2, MPI_INT, MPI_NO_OP, win);
    MPI_Win_flush(0, win);
    expect("counter read by Fetch_and_op(MPI_NO_OP)", 40, v, size * K);
    expect("counter read by Get_accumulate(MPI_NO_OP)", 40, v2[0], size * K);
    expect("background next to the counter", 41, v2[1], bg(0, 41));
    MPI_Barrier(MPI_COMM_WORLD);

    /* A spin lock on rank 0's 48 by compare-and-swap (0: free, r + 1:
     * held by r) protecting a counter at 49 updated by plain get and put. */
    for (int k = 0; k < K; k++) {
        int free_ = 0, me = rank + 1, old = -1;
        do {
            MPI_Compare_and_swap(&me, &free_, &old, MPI_INT, 0, 48, win);
            MPI_Win_flush(0, win);
            if (old != 0 && (old < 1 || old > size))
                fail("lock word read %d", old);
        } while (old != 0);
        int c = -1;
        MPI_Get(&c, 1, MPI_INT, 0, 49, 1, MPI_INT, win);
        MPI_Win_flush(0, win);
        c++;
        MPI_Put(&c, 1, MPI_INT, 0, 49, 1, MPI_INT, win);
        MPI_Win_flush(0, win);
        MPI_Compare_and_swap(&free_, &me, &old, MPI_INT, 0, 48, win);
        MPI_Win_flush(0, win);
        expect("lock word at release", 48, old, me);
    }
    /* A swap of 2 elements: Get_accumulate REPLACE fetches the old ones. */
    int right = (rank + 1) % size, src[2] = {data(rank, 50), data(rank, 51)}, old2[2] = {0, 0};
    MPI_Get_accumulate(src, 2, MPI_INT, old2, 2, MPI_INT, right, 50, 2, MPI_INT, MPI_REPLACE, win);
    MPI_Win_flush(right, win);
    expect("Get_accumulate REPLACE fetched", 50, old2[0], bg(right, 50));
    expect("Get_accumulate REPLACE fetched", 51, old2[1], bg(right, 51));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    MPI_Win_unlock_all(win);

    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    int left = (rank + size - 1) % size;
    if (rank == 0) {
        want(40, size * K);
        want(48, 0);
        want(49, size * K);
    }
    want(50, data(left, 50));
    want(51, data(left, 51));
    check_ints(mem, "int window after atomics in lock_all");
}

static void run(enum mt_flavor flavor)
{
    struct mt_win w, d;
    mt_win_open(&w, flavor, N * sizeof(int), sizeof(int));
    mt_win_open(&d, flavor, 8 * sizeof(struct dint), sizeof(struct dint));
    int *mem = w.base;
    struct dint *dmem = d.base;
    fill_bg_int(mem, N, rank);
    for (int i = 0; i < 8; i++)
        dmem[i] = (struct dint){1e9 + i, -1 - i};
    fence_ops(w.win, mem, d.win, dmem);
    /* The counters of lock_all_ops start at 0, set here between fences. */
    if (rank == 0)
        mem[40] = mem[48] = mem[49] = 0;
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win);
    lock_all_ops(w.win, mem);
    mt_win_close(&d);
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
