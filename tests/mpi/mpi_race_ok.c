/* mpi_race_ok.c -- a correct plain MPI program whose one-sided accesses
 * overlap, every pair of them ordered as MPI-4.1 says, for orma's race
 * checker (ORMA_CHECK=race): run with liborma-mpi, it must report nothing
 * (mpi_race.sh counts the report lines: none); run on the host MPI alone
 * it shows that the program is right.  Every phase checks its data.
 *   fence      each rank in turn puts the same ints to every rank in a fence
 *              epoch of its own, and every rank gets them in the next epoch
 *   exclusive  every rank, three times, increments one counter at rank 0 under
 *              an exclusive lock (get, flush, put), on MPI_Alloc_mem'd memory
 *              of an MPI_Win_create window, freed with MPI_Free_mem after it
 *   flush      under MPI_Win_lock_all each rank in turn puts to every rank and
 *              flushes, a barrier, every rank gets and flushes, a barrier
 *   acc        under MPI_Win_lock_all every rank adds to the same int of rank 0
 *              with MPI_Accumulate, MPI_Get_accumulate and MPI_Fetch_and_op
 *              (all MPI_SUM on MPI_INT), takes a maximum of another
 *              (MPI_MAX), and reads the first with MPI_NO_OP, all before any
 *              flush (a barrier after the calls)
 *   pscw       each rank in turn puts the same ints at rank 0 in an exposure
 *              epoch of its own (post/start/complete/wait)
 *   procnull   puts, gets and accumulates of different ops at the same
 *              displacements of MPI_PROC_NULL, in a fence epoch and under
 *              MPI_Win_lock_all
 *   zero       puts, gets and accumulates of no data beside a put of rank 0's
 *              at the same displacement, in one fence epoch
 *   dynamic    a dynamic window with 300 attached regions of 8 bytes per rank;
 *              in each of 3 fence epochs every rank puts once into each region
 *              of another rank (a different one in each epoch)
 *   mpi_race_ok host|orma */
#include "mpi_test.h"

#include <stdint.h>

static MPI_Win ints_window(int n, int **base_p)
{
    MPI_Win win;
    if (n < 64) /* MPICH 4.0.2 alone misplaces puts and accumulates into allocated windows of a few bytes */
        n = 64;
    if (MPI_Win_allocate((MPI_Aint)n * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, base_p,
                         &win) != MPI_SUCCESS)
        fail("MPI_Win_allocate");
    memset(*base_p, 0, (size_t)n * sizeof(int));
    MPI_Barrier(MPI_COMM_WORLD);
    return win;
}

static int val(int writer, int i) { return 1000 * (writer + 1) + i; }

static void ok_fence(void)
{
    int *base, src[4], dst[4];
    MPI_Win win = ints_window(4, &base);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    for (int w = 0; w < size; w++) {
        if (rank == w) {
            for (int i = 0; i < 4; i++)
                src[i] = val(w, i);
            for (int t = 0; t < size; t++)
                MPI_Put(src, 4, MPI_INT, t, 0, 4, MPI_INT, win);
        }
        MPI_Win_fence(0, win);
        for (int t = 0; t < size; t++) {
            MPI_Get(dst, 4, MPI_INT, t, 0, 4, MPI_INT, win);
            MPI_Win_fence(0, win); /* dst complete, and the next get ordered after it */
            for (int i = 0; i < 4; i++)
                expect("fence: a get of the last epoch's put", i, dst[i], val(w, i));
        }
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
}

static void ok_exclusive(void)
{
    int *mem = NULL;
    MPI_Win win;
    if (MPI_Alloc_mem(4 * sizeof(int), MPI_INFO_NULL, &mem) != MPI_SUCCESS)
        fail("MPI_Alloc_mem");
    memset(mem, 0, 4 * sizeof(int));
    if (MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win) != MPI_SUCCESS)
        fail("MPI_Win_create");
    MPI_Barrier(MPI_COMM_WORLD);
    for (int round = 0; round < 3; round++) {
        int v = -1;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_flush(0, win);
        v++;
        MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int got = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_unlock(0, win);
    expect("exclusive: the counter", 0, got, 3 * size);
    MPI_Win_free(&win);
    MPI_Free_mem(mem);
}

static void ok_flush(void)
{
    int *base, src[2], dst[2];
    MPI_Win win = ints_window(2, &base);
    MPI_Win_lock_all(0, win);
    for (int w = 0; w < size; w++) {
        if (rank == w) {
            src[0] = val(w, 0);
            src[1] = val(w, 1);
            for (int t = 0; t < size; t++)
                MPI_Put(src, 2, MPI_INT, t, 0, 2, MPI_INT, win);
            MPI_Win_flush_all(win);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        for (int t = 0; t < size; t++) {
            MPI_Get(dst, 2, MPI_INT, t, 0, 2, MPI_INT, win);
            MPI_Win_flush(t, win);
            expect("flush: a get after the flushed put", 0, dst[0], val(w, 0));
            expect("flush: a get after the flushed put", 1, dst[1], val(w, 1));
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
}

static void ok_acc(void)
{
    /* all at rank 0: MPICH 4.0.2 alone (ch4, shared memory) adds twice when
     * every rank accumulates into every rank this way */
    int *base;
    MPI_Win win = ints_window(2, &base);
    MPI_Win_lock_all(0, win);
    int one = rank + 1, two = 2 * (rank + 1), three = 3 * (rank + 1), mx = 100 + rank;
    int fetched = 0, old = 0, peek = 0, dummy = 0;
    MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
    MPI_Get_accumulate(&two, 1, MPI_INT, &fetched, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
    MPI_Fetch_and_op(&three, &old, MPI_INT, 0, 0, MPI_SUM, win);
    MPI_Fetch_and_op(&dummy, &peek, MPI_INT, 0, 0, MPI_NO_OP, win);
    MPI_Accumulate(&mx, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_MAX, win);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank's accumulates issued, none flushed */
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    int sum = 0;
    for (int r = 0; r < size; r++)
        sum += 6 * (r + 1);
    int got[2] = {0, 0};
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Get(got, 2, MPI_INT, 0, 0, 2, MPI_INT, win);
    MPI_Win_unlock(0, win);
    expect("acc: the sum", 0, got[0], sum);
    expect("acc: the maximum", 1, got[1], 100 + size - 1);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

static void ok_pscw(void)
{
    int *base, src[3];
    MPI_Win win = ints_window(3, &base);
    MPI_Group world, zero, one;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int r0 = 0;
    MPI_Group_incl(world, 1, &r0, &zero);
    for (int w = 1; w < size; w++) {
        if (rank == 0) {
            MPI_Group_incl(world, 1, &w, &one);
            MPI_Win_post(one, 0, win);
            MPI_Win_wait(win);
            MPI_Group_free(&one);
        } else if (rank == w) {
            for (int i = 0; i < 3; i++)
                src[i] = val(w, i);
            MPI_Win_start(zero, 0, win);
            MPI_Put(src, 3, MPI_INT, 0, 0, 3, MPI_INT, win);
            MPI_Win_complete(win);
        }
    }
    if (rank == 0)
        for (int i = 0; i < 3; i++)
            expect("pscw: the last epoch's put", i, base[i], val(size - 1, i));
    MPI_Group_free(&zero);
    MPI_Group_free(&world);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

static void ok_procnull(void)
{
    int *base, src[4] = {1, 2, 3, 4}, dst[4] = {-1, -1, -1, -1};
    MPI_Win win = ints_window(4, &base);
    MPI_Op op = rank % 2 ? MPI_MAX : MPI_SUM;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    MPI_Put(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, win);
    MPI_Get(dst, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, win);
    MPI_Accumulate(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, op, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_lock_all(0, win);
    MPI_Put(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, win);
    MPI_Get(dst, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, win);
    MPI_Accumulate(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, op, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_unlock_all(win);
    for (int i = 0; i < 4; i++) {
        expect("procnull: the window", i, base[i], 0);
        expect("procnull: a get's buffer", i, dst[i], -1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

static void ok_zero(void)
{
    int *base, src[2] = {val(0, 0), val(0, 1)}, dst[2] = {-1, -1};
    MPI_Win win = ints_window(2, &base);
    MPI_Op op = rank % 2 ? MPI_MAX : MPI_SUM;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    for (int t = 0; t < size; t++) {
        if (rank == 0)
            MPI_Put(src, 2, MPI_INT, t, 0, 2, MPI_INT, win);
        MPI_Put(src, 0, MPI_INT, t, 0, 0, MPI_INT, win);
        MPI_Get(dst, 0, MPI_INT, t, 0, 0, MPI_INT, win);
        MPI_Accumulate(src, 0, MPI_INT, t, 0, 0, MPI_INT, op, win);
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    expect("zero: rank 0's put", 0, base[0], val(0, 0));
    expect("zero: rank 0's put", 1, base[1], val(0, 1));
    expect("zero: a get of nothing", 0, dst[0], -1);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

#define REGIONS 300
#define EPOCHS 3

static int64_t dyn_val(int epoch, int origin, int i) { return ((int64_t)(epoch + 1) << 40) | (int64_t)origin << 20 | i; }

static void ok_dynamic(void)
{
    MPI_Win win;
    int64_t *regions[REGIONS];
    MPI_Aint *addrs = malloc((size_t)size * REGIONS * sizeof *addrs), mine[REGIONS];
    if (!addrs)
        fail("malloc");
    if (MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win) != MPI_SUCCESS)
        fail("MPI_Win_create_dynamic");
    for (int i = 0; i < REGIONS; i++) {
        regions[i] = malloc(sizeof(int64_t));
        if (!regions[i])
            fail("malloc");
        *regions[i] = -1;
        if (MPI_Win_attach(win, regions[i], sizeof(int64_t)) != MPI_SUCCESS)
            fail("MPI_Win_attach of region %d", i);
        MPI_Get_address(regions[i], &mine[i]);
    }
    MPI_Allgather(mine, REGIONS, MPI_AINT, addrs, REGIONS, MPI_AINT, MPI_COMM_WORLD);
    int64_t *src = malloc(REGIONS * sizeof *src);
    if (!src)
        fail("malloc");
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    for (int e = 0; e < EPOCHS; e++) {
        int t = (rank + 1 + e) % size, from = ((rank - 1 - e) % size + size) % size;
        for (int i = 0; i < REGIONS; i++) {
            src[i] = dyn_val(e, rank, i);
            MPI_Put(&src[i], 1, MPI_INT64_T, t, addrs[(size_t)t * REGIONS + (size_t)i], 1, MPI_INT64_T, win);
        }
        MPI_Win_fence(e == EPOCHS - 1 ? MPI_MODE_NOSUCCEED : 0, win);
        for (int i = 0; i < REGIONS; i++)
            expect("dynamic: a region", i, *regions[i], dyn_val(e, from, i));
        MPI_Barrier(MPI_COMM_WORLD); /* read before the next epoch's puts */
    }
    for (int i = 0; i < REGIONS; i++)
        MPI_Win_detach(win, regions[i]);
    MPI_Win_free(&win);
    for (int i = 0; i < REGIONS; i++)
        free(regions[i]);
    free(src);
    free(addrs);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    ok_fence();
    ok_exclusive();
    ok_flush();
    ok_acc();
    ok_pscw();
    ok_procnull();
    ok_zero();
    ok_dynamic();
    if (rank == 0)
        printf("mpi_race_ok: done\n");
    mt_finalize();
    return 0;
}
