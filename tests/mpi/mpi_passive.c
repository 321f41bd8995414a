/* mpi_passive.c -- passive target synchronization: exclusive and shared
 * locks, lock_all, flush, flush_all, flush_local, flush_local_all and
 * MPI_Win_sync, on allocated and created windows.  A counter incremented
 * under exclusive locks by every rank must end exact (mutual exclusion);
 * data put in lock_all epochs and flushed must be seen by the target after
 * a barrier and MPI_Win_sync (the standard's pattern for the target's
 * loads); every byte around what was written keeps its background. */
#include "mpi_test.h"

#define N 64        /* ints per window */
#define COUNTER 5   /* the counter's index, background on both sides */
#define ROUNDS 8

static int data(int r, int k, int i) { return 1000000 * (r + 1) + 1000 * k + i; }

/* Every rank increments rank 0's counter ROUNDS times by get, flush, put
 * under an exclusive lock: without mutual exclusion increments get lost. */
static void counter(struct mt_win *w)
{
    int *mem = w->base;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w->win);
        mem[COUNTER] = 0;
        MPI_Win_unlock(0, w->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < ROUNDS; k++) {
        int v = -1;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w->win);
        MPI_Get(&v, 1, MPI_INT, 0, mt_disp(w, 0, COUNTER), 1, MPI_INT, w->win);
        MPI_Win_flush(0, w->win);
        if (v < 0 || v >= ROUNDS * size)
            fail("counter read %d under an exclusive lock", v);
        v++;
        MPI_Put(&v, 1, MPI_INT, 0, mt_disp(w, 0, COUNTER), 1, MPI_INT, w->win);
        MPI_Win_unlock(0, w->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        /* The target's own loads: an exclusive lock on itself syncs the copies. */
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w->win);
        expect("counter after exclusive increments", COUNTER, mem[COUNTER], ROUNDS * size);
        for (int i = 0; i < N; i++)
            if (i != COUNTER)
                expect("background around the counter", i, mem[i], bg(0, i));
        mem[COUNTER] = bg(0, COUNTER);
        MPI_Win_unlock(0, w->win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Shared locks on every target in turn: each rank puts 2 ints into its
 * own slot (8 + 2 * rank) of every target, and reads back the target's
 * slot 0 which nobody writes. */
static void shared_locks(struct mt_win *w)
{
    int *mem = w->base;
    int src[2], got[2];
    for (int t = 0; t < size; t++) {
        src[0] = data(rank, t, 0);
        src[1] = data(rank, t, 1);
        MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w->win);
        MPI_Put(src, 2, MPI_INT, t, mt_disp(w, t, 8 + 2 * rank), 2, MPI_INT, w->win);
        MPI_Get(got, 2, MPI_INT, t, mt_disp(w, t, 0), 2, MPI_INT, w->win);
        MPI_Win_unlock(t, w->win);
        /* Unlock completed both: the source may change, the result is here. */
        src[0] = src[1] = 0;
        expect("get under a shared lock", 0, got[0], bg(t, 0));
        expect("get under a shared lock", 1, got[1], bg(t, 1));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win);
    for (int i = 0; i < N; i++) {
        int want = bg(rank, i);
        if (i >= 8 && i < 8 + 2 * size)
            want = data((i - 8) / 2, rank, (i - 8) % 2);
        expect("window after shared-lock puts", i, mem[i], want);
    }
    fill_bg_int(mem, N, rank);
    MPI_Win_unlock(rank, w->win);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* lock_all: flush, flush_all, flush_local, flush_local_all and Win_sync. */
static void lock_all(struct mt_win *w)
{
    int *mem = w->base;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *src = guarded_alloc(4 * sizeof *src);
    int *got = guarded_alloc(4 * sizeof *got);
    MPI_Win_lock_all(0, w->win);

    /* flush_local on a put: the origin buffer may be reused at once, and
     * the target must see what it held at the call, not the new values. */
    for (int i = 0; i < 4; i++)
        src[i] = data(rank, 1, i);
    MPI_Put(src, 4, MPI_INT, right, mt_disp(w, right, 16), 4, MPI_INT, w->win);
    MPI_Win_flush_local(right, w->win);
    for (int i = 0; i < 4; i++)
        src[i] = -7;
    /* flush: the put is complete at the target too. */
    MPI_Win_flush(right, w->win);

    /* flush_local_all on a get: the data are in the result buffer. */
    MPI_Get(got, 4, MPI_INT, left, mt_disp(w, left, 40), 4, MPI_INT, w->win);
    MPI_Win_flush_local_all(w->win);
    for (int i = 0; i < 4; i++)
        expect("get after flush_local_all", i, got[i], bg(left, 40 + i));

    /* Puts to every rank's slot 24 + rank... completed by flush_all. */
    for (int t = 0; t < size; t++) {
        int v = data(rank, 2, t);
        MPI_Put(&v, 1, MPI_INT, t, mt_disp(w, t, 24 + rank), 1, MPI_INT, w->win);
        MPI_Win_flush_all(w->win); /* v is about to go out of scope */
    }

    /* The target's view: barrier after the origins' flushes, then
     * MPI_Win_sync before loading from its own window. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(w->win);
    for (int i = 0; i < N; i++) {
        int want = bg(rank, i);
        if (i >= 16 && i < 20)
            want = data(left, 1, i - 16);
        else if (i >= 24 && i < 24 + size)
            want = data(i - 24, 2, rank);
        expect("window after lock_all puts", i, mem[i], want);
    }

    /* The other way: local stores, MPI_Win_sync, barrier; then the left
     * neighbour's get, completed by flush, sees them. */
    for (int i = 0; i < 4; i++)
        mem[50 + i] = data(rank, 3, i);
    MPI_Win_sync(w->win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Get(got, 4, MPI_INT, right, mt_disp(w, right, 50), 4, MPI_INT, w->win);
    MPI_Win_flush(right, w->win);
    for (int i = 0; i < 4; i++)
        expect("get of the target's stores after Win_sync", i, got[i], data(right, 3, i));
    guarded_check(src, 4 * sizeof *src, "put source");
    guarded_check(got, 4 * sizeof *got, "get result");
    MPI_Win_unlock_all(w->win);
    MPI_Barrier(MPI_COMM_WORLD);
    guarded_free(src);
    guarded_free(got);
}

static void run(enum mt_flavor flavor)
{
    struct mt_win w;
    mt_win_open(&w, flavor, N * sizeof(int), sizeof(int));
    /* Initialize inside an epoch on one's own window, then let everyone
     * start only once every window holds its background. */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w.win);
    fill_bg_int(w.base, N, rank);
    MPI_Win_unlock(rank, w.win);
    MPI_Barrier(MPI_COMM_WORLD);
    counter(&w);
    shared_locks(&w);
    lock_all(&w);
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
