/* mpi_threads.c -- two threads of one process in one-sided calls at once
 * (MPI_THREAD_MULTIPLE).  On rank 0, thread A posts on window a and waits
 * in MPI_Win_wait, which returns only once rank 1 has completed; rank 1
 * starts only when told that rank 0's main thread (B) is done with window
 * b.  Meanwhile B runs a lock epoch on window b: its put must succeed and
 * arrive, and its get must read what rank 1 wrote -- different windows
 * never wait for each other.  Rank 1's put on window a arrives when A's
 * wait returns, and both windows work from one thread afterwards.  The
 * host must provide MPI_THREAD_MULTIPLE (Open MPI and MPICH do), else the
 * test fails.  Two ranks. */
#include "mpi_test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static MPI_Win win_a, win_b;
static int *mem_a, *mem_b;
static _Atomic int a_state; /* 1: A is about to wait; 2: A's wait returned */

static MPI_Group peer_group(int peer)
{
    MPI_Group world, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &peer, &g);
    MPI_Group_free(&world);
    return g;
}

static void *thread_a(void *arg)
{
    MPI_Group *peer = arg;
    MPI_Win_post(*peer, 0, win_a);
    atomic_store(&a_state, 1);
    MPI_Win_wait(win_a); /* until rank 1 completes, after B's epoch */
    atomic_store(&a_state, 2);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;
    mt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (size != 2)
        fail("needs 2 ranks");
    if (provided != MPI_THREAD_MULTIPLE)
        fail("MPI_Init_thread(MPI_THREAD_MULTIPLE) gave thread level %d: this test needs MPI_THREAD_MULTIPLE",
             provided);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem_a, &win_a);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem_b, &win_b);
    fill_bg_int(mem_a, 4, rank);
    fill_bg_int(mem_b, 4, rank);
    MPI_Barrier(MPI_COMM_WORLD);
    int v = 4242, w = 4343, got = 0, go = 0;
    if (rank == 0) {
        MPI_Group peer = peer_group(1);
        pthread_t a;
        if (pthread_create(&a, NULL, thread_a, &peer))
            fail("pthread_create");
        while (atomic_load(&a_state) == 0)
            ;
        struct timespec ts = {0, 50 * 1000 * 1000}; /* A is most likely inside MPI_Win_wait by now */
        nanosleep(&ts, NULL);
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win_b);
        MPI_Put(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, win_b);
        MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win_b);
        MPI_Win_unlock(1, win_b);
        expect("get on window b while another thread waited on window a", 1, got, bg(1, 1));
        if (atomic_load(&a_state) != 1)
            fail("MPI_Win_wait returned before rank 1 was told to start");
        MPI_Send(&go, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        pthread_join(a, NULL);
        expect("window a after the wait", 0, mem_a[0], bg(0, 0));
        expect("window a after the wait", 1, mem_a[1], 4343);
        MPI_Group_free(&peer);
    } else {
        MPI_Group peer = peer_group(0);
        MPI_Recv(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Win_start(peer, 0, win_a);
        MPI_Put(&w, 1, MPI_INT, 0, 1, 1, MPI_INT, win_a);
        MPI_Win_complete(win_a);
        MPI_Group_free(&peer);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* rank 1's window b: exactly the put */
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win_b);
        MPI_Win_sync(win_b);
        for (int i = 0; i < 4; i++)
            expect("window b after the put from a second thread", i, mem_b[i], i == 2 ? 4242 : bg(1, i));
        MPI_Win_unlock(1, win_b);
    }
    /* both windows work afterwards, from one thread */
    MPI_Win_fence(0, win_b);
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 1, 3, 1, MPI_INT, win_b);
    MPI_Win_fence(0, win_b);
    if (rank == 1)
        expect("window b after a later put", 3, mem_b[3], 4242);
    MPI_Win_fence(0, win_a);
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 0, 3, 1, MPI_INT, win_a);
    MPI_Win_fence(0, win_a);
    if (rank == 0)
        expect("window a after a later put", 3, mem_a[3], 4242);
    MPI_Win_free(&win_a);
    MPI_Win_free(&win_b);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0)
        printf("mpi_threads: ok\n");
    return 0;
}
