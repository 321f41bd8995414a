/* mpi_req.c -- request-based RMA: MPI_Rput, MPI_Rget, MPI_Raccumulate
 * and MPI_Rget_accumulate in a lock_all epoch, their requests completed
 * by the host's MPI_Wait, MPI_Test, MPI_Waitall and MPI_Testall, alone and
 * in one array with MPI_Isend/MPI_Irecv requests.  Completing a request
 * is local completion: the origin buffer may be reused, a get's result
 * has arrived; the target sees the data after a flush, a barrier and
 * MPI_Win_sync.  Every byte of the windows and buffers is checked. */
#include "mpi_test.h"

#define N 64

static int data(int r, int k, int i) { return 1000000 * (r + 1) + 1000 * k + i; }

static void run(enum mt_flavor flavor)
{
    struct mt_win w;
    mt_win_open(&w, flavor, N * sizeof(int), sizeof(int));
    int *mem = w.base;
    MPI_Win win = w.win;
    fill_bg_int(mem, N, rank);
    MPI_Barrier(MPI_COMM_WORLD);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *src = guarded_alloc(4 * sizeof(int));
    int *got = guarded_alloc(4 * sizeof(int));
    MPI_Request req;
    /* Real status arrays: MPICH's st is a non-null
     * dummy pointer that GCC's access checks flag in Waitall/Testall. */
    MPI_Status st[64];
    MPI_Win_lock_all(0, win);

    /* Rput + MPI_Wait: the source may be overwritten at once. */
    for (int i = 0; i < 4; i++)
        src[i] = data(rank, 0, i);
    MPI_Rput(src, 4, MPI_INT, right, mt_disp(&w, right, 0), 4, MPI_INT, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (req != MPI_REQUEST_NULL)
        fail("MPI_Wait left an Rput request");
    for (int i = 0; i < 4; i++)
        src[i] = -5;

    /* Rget + MPI_Test until done: the result is in the buffer. */
    int flag = 0;
    MPI_Rget(got, 4, MPI_INT, left, mt_disp(&w, left, 40), 4, MPI_INT, win, &req);
    while (!flag)
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    for (int i = 0; i < 4; i++)
        expect("Rget completed by MPI_Test", i, got[i], bg(left, 40 + i));

    /* Raccumulate SUM from everyone into everyone's 8, Rget_accumulate
     * SUM 1 into rank 0's 9: fetched values are a permutation. */
    MPI_Request acc[64];
    int nacc = 0, plus = rank + 1, one = 1, fetched = -1;
    for (int t = 0; t < size && nacc < 63; t++)
        MPI_Raccumulate(&plus, 1, MPI_INT, t, mt_disp(&w, t, 8), 1, MPI_INT, MPI_SUM, win, &acc[nacc++]);
    MPI_Rget_accumulate(&one, 1, MPI_INT, &fetched, 1, MPI_INT, 0, mt_disp(&w, 0, 9), 1, MPI_INT, MPI_SUM,
                        win, &acc[nacc++]);
    MPI_Waitall(nacc, acc, st);
    for (int i = 0; i < nacc; i++)
        if (acc[i] != MPI_REQUEST_NULL)
            fail("MPI_Waitall left request %d", i);

    /* One MPI_Waitall over an Isend, an Irecv, an Rput and an Rget. */
    MPI_Request mixed[4];
    int token = data(rank, 9, 0), token_in = -1, src2[4], got2[4];
    for (int i = 0; i < 4; i++)
        src2[i] = data(rank, 1, i), got2[i] = -1;
    MPI_Irecv(&token_in, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &mixed[0]);
    MPI_Rput(src2, 4, MPI_INT, right, mt_disp(&w, right, 16), 4, MPI_INT, win, &mixed[1]);
    MPI_Isend(&token, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &mixed[2]);
    MPI_Rget(got2, 4, MPI_INT, right, mt_disp(&w, right, 20), 4, MPI_INT, win, &mixed[3]);
    MPI_Waitall(4, mixed, st);
    expect("Irecv in a mixed Waitall", 0, token_in, data(left, 9, 0));
    for (int i = 0; i < 4; i++)
        expect("Rget in a mixed Waitall", i, got2[i], bg(right, 20 + i));

    /* The same with MPI_Testall polled to completion. */
    int src3[4];
    for (int i = 0; i < 4; i++)
        src3[i] = data(rank, 2, i), got[i] = -1;
    token = data(rank, 9, 1);
    MPI_Irecv(&token_in, 1, MPI_INT, right, 8, MPI_COMM_WORLD, &mixed[0]);
    MPI_Rput(src3, 4, MPI_INT, right, mt_disp(&w, right, 24), 4, MPI_INT, win, &mixed[1]);
    MPI_Isend(&token, 1, MPI_INT, left, 8, MPI_COMM_WORLD, &mixed[2]);
    MPI_Rget(got, 4, MPI_INT, left, mt_disp(&w, left, 44), 4, MPI_INT, win, &mixed[3]);
    flag = 0;
    while (!flag)
        MPI_Testall(4, mixed, &flag, st);
    expect("Irecv in a mixed Testall", 0, token_in, data(right, 9, 1));
    for (int i = 0; i < 4; i++)
        expect("Rget in a mixed Testall", i, got[i], bg(left, 44 + i));
    guarded_check(src, 4 * sizeof(int), "Rput source");
    guarded_check(got, 4 * sizeof(int), "Rget result");

    /* Remote completion, then the targets look. */
    MPI_Win_flush_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    int tri = size * (size + 1) / 2;
    for (int i = 0; i < N; i++) {
        int want = bg(rank, i);
        if (i < 4)
            want = data(left, 0, i);
        else if (i == 8)
            want = bg(rank, 8) + tri;
        else if (i == 9 && rank == 0)
            want = bg(0, 9) + size;
        else if (i >= 16 && i < 20)
            want = data(left, 1, i - 16);
        else if (i >= 24 && i < 28)
            want = data(left, 2, i - 24);
        expect("window after request-based operations", i, mem[i], want);
    }
    MPI_Win_unlock_all(win);

    int *all = malloc((size_t)size * sizeof *all);
    MPI_Allgather(&fetched, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
        for (int q = 0; q < r; q++)
            if (all[q] == all[r])
                fail("Rget_accumulate: ranks %d and %d both fetched %d", q, r, all[r]);
    for (int r = 0; r < size; r++)
        if (all[r] < bg(0, 9) || all[r] >= bg(0, 9) + size)
            fail("Rget_accumulate: rank %d fetched %d", r, all[r]);
    free(all);
    guarded_free(src);
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
