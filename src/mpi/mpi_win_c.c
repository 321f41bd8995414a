/* mpi_win_c.c -- MPI 4.0's large-count forms of window creation and
 * shared_query, where the host's mpi.h declares them: the displacement
 * unit is an MPI_Aint.  orma's is an int, so a unit past INT_MAX is an
 * error (MPI_ERR_ARG) at every rank of the creation, never truncated
 * (mpi_win_make). */
#include "mpi_orma.h"

#if MPI_VERSION >= 4
MPI_WIN_MAKE_CALLS(_c, MPI_Aint)

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_shared_query_c");
    if (!disp_unit)
        return mpi_win_error_msg(w, "MPI_Win_shared_query_c", MPI_ERR_ARG, "a NULL or invalid argument");
    int unit = 0, rc = PMPI_Win_shared_query(win, rank, size, &unit, baseptr);
    if (rc == MPI_SUCCESS)
        *disp_unit = unit;
    return rc;
}

#pragma weak MPI_Win_create_c = PMPI_Win_create_c
#pragma weak MPI_Win_allocate_c = PMPI_Win_allocate_c
#pragma weak MPI_Win_allocate_shared_c = PMPI_Win_allocate_shared_c
#pragma weak MPI_Win_shared_query_c = PMPI_Win_shared_query_c
#endif
