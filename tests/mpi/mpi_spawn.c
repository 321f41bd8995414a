/* mpi_spawn.c -- windows over communicators that span MPI_COMM_WORLDs:
 * the parents (this program, mpirun -n P) spawn 2 children of it with
 * MPI_Comm_spawn, both sides merge the intercommunicator, and every window
 * flavour is used in every sync mode across the merged communicator, a
 * split of it and a duplicate, the data checked with guards around.
 *
 * With liborma-mpi the parents' and the children's ranks on one node reach
 * each other's windows through shared memory, as ranks of one world do.
 * Host runs: a host that cannot spawn here (MPICH 4.0.2 from Debian, its
 * UCX netmod opens no ports) makes the test skip, saying so; a flavour the
 * host cannot create on such a communicator (Open MPI 4.1's osc rdma finds
 * no atomics to the other world's ranks) is skipped in the host run only. */
#include "mpi_xworld.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm parent, inter, merged;
    MPI_Comm_get_parent(&parent);
    int child = parent != MPI_COMM_NULL;
    if (!child) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        char *args[] = {argv[1], "child", NULL};
        int errs[2] = {0, 0};
        int rc = MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errs);
        int ok = rc == MPI_SUCCESS, all = 0;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        if (!all) {
            char msg[MPI_MAX_ERROR_STRING] = "";
            int len = 0;
            MPI_Error_string(rc, msg, &len);
            if (rank == 0)
                printf("skipped: this host MPI cannot spawn here (%s)\n", msg);
            MPI_Finalize();
            return SKIP;
        }
        MPI_Intercomm_merge(inter, 0, &merged);
    } else {
        if (argc < 3 || strcmp(argv[2], "child"))
            fail("a child without its argument");
        inter = parent;
        MPI_Intercomm_merge(inter, 1, &merged);
    }
    int me, np, psize;
    MPI_Comm_rank(merged, &me);
    MPI_Comm_size(merged, &np);
    MPI_Comm_remote_size(inter, &psize);
    if (np != size + psize)
        fail("merged communicator of %d ranks, expected %d", np, size + psize);
    if (me != (child ? psize : 0) + rank)
        fail("rank %d in the merged communicator, expected %d", me, (child ? psize : 0) + rank);
    windows(merged, "merged");
    MPI_Comm half, dup;
    MPI_Comm_split(merged, me % 2, me, &half); /* each half holds ranks of both worlds */
    windows(half, "a split");
    MPI_Comm_free(&half);
    MPI_Comm_dup(merged, &dup);
    windows(dup, "a duplicate");
    MPI_Comm_free(&dup);
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&inter);
    if (rank == 0)
        printf("%s: ok\n", child ? "children" : "parents");
    MPI_Finalize();
    return 0;
}
