/* mpi_threads.c -- two threads of one process in one-sided calls at once
 * (MPI_THREAD_MULTIPLE).  On rank 0, thread A waits in MPI_Win_wait on one
 * window while thread B puts on another.  The host MPIs allow it, and the
 * put must arrive.  liborma-mpi does not support concurrent one-sided calls
 * yet: B's put must fail with MPI_ERR_OTHER (never corrupt anything), and
 * both windows must work normally afterwards.  Two ranks. */
#include "mpi_test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static MPI_Win win_a, win_b;
static int *mem_a, *mem_b;
static _Atomic int a_waiting;

static void *thread_a(void *arg)
{
    (void)arg;
    MPI_Group world, peer;
    int one = 1;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &one, &peer);
    MPI_Win_post(peer, 0, win_a);
    atomic_store(&a_waiting, 1);
    MPI_Win_wait(win_a); /* until rank 1 completes, after B's attempt */
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = 0;
    mt_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (size != 2)
        fail("needs 2 ranks");
    if (provided < MPI_THREAD_MULTIPLE) { /* nothing to test */
        if (rank == 0)
            printf("mpi_threads: the host gives no MPI_THREAD_MULTIPLE (%d): skipped\n", provided);
        MPI_Finalize();
        return 0;
    }
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem_a, &win_a);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem_b, &win_b);
    MPI_Win_set_errhandler(win_b, MPI_ERRORS_RETURN);
    fill_bg_int(mem_a, 4, rank);
    fill_bg_int(mem_b, 4, rank);
    MPI_Barrier(MPI_COMM_WORLD);
    int v = 4242, go = 0, put_rc = MPI_SUCCESS;
    if (rank == 0) {
        pthread_t a;
        if (pthread_create(&a, NULL, thread_a, NULL))
            fail("pthread_create");
        while (!atomic_load(&a_waiting))
            ;
        struct timespec ts = {0, 50 * 1000 * 1000}; /* A is inside MPI_Win_wait by now */
        nanosleep(&ts, NULL);
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win_b);
        put_rc = MPI_Put(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, win_b);
        MPI_Win_unlock(1, win_b);
        int cls = MPI_SUCCESS;
        if (put_rc != MPI_SUCCESS)
            MPI_Error_class(put_rc, &cls);
        if (mt_orma && cls != MPI_ERR_OTHER)
            fail("a put while another thread waited inside liborma-mpi: error class %d, expected "
                 "MPI_ERR_OTHER (%d)", cls, MPI_ERR_OTHER);
        if (!mt_orma && put_rc != MPI_SUCCESS)
            fail("the host refused a put while another thread waited (class %d)", cls);
        MPI_Send(&put_rc, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        pthread_join(a, NULL);
    } else {
        MPI_Group world, peer;
        int zero = 0;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, 1, &zero, &peer);
        MPI_Recv(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        put_rc = go;
        MPI_Win_start(peer, 0, win_a);
        MPI_Win_complete(win_a);
        MPI_Group_free(&peer);
        MPI_Group_free(&world);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* rank 1's window b: the put arrived exactly when it succeeded */
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win_b);
        MPI_Win_sync(win_b);
        for (int i = 0; i < 4; i++)
            expect("window b after the concurrent put", i, mem_b[i],
                   i == 2 && put_rc == MPI_SUCCESS ? 4242 : bg(1, i));
        MPI_Win_unlock(1, win_b);
    }
    /* both windows work afterwards, from one thread */
    MPI_Win_fence(0, win_b);
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 1, 3, 1, MPI_INT, win_b);
    MPI_Win_fence(0, win_b);
    if (rank == 1)
        expect("window b after a later put", 3, mem_b[3], 4242);
    MPI_Win_free(&win_a);
    MPI_Win_free(&win_b);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0)
        printf("mpi_threads: ok\n");
    return 0;
}
