/* mpi_win_c.c -- MPI 4.0's large-count forms of window creation and
 * shared_query, where the host's mpi.h declares them: the displacement
 * unit is an MPI_Aint.  orma's is an int, so a unit past INT_MAX is an
 * error (MPI_ERR_ARG, the class of any other unit orma cannot take),
 * never truncated; otherwise they are the int forms (mpi_win.c). */
#include "mpi_orma.h"

#include <limits.h>
#include <stdio.h>

#if MPI_VERSION >= 4
/* A creation call's unit as an int, or the communicator's error. */
static int mpi_win_unit(const char *call, MPI_Comm comm, MPI_Aint disp_unit, int *unit_p)
{
    if (disp_unit <= INT_MAX) {
        *unit_p = disp_unit > 0 ? (int)disp_unit : 0; /* <= 0: the int form says so */
        return MPI_SUCCESS;
    }
    fprintf(stderr, "liborma-mpi: %s: displacement unit %lld is larger than orma takes (%d)\n", call,
            (long long)disp_unit, INT_MAX);
    PMPI_Comm_call_errhandler(comm, MPI_ERR_ARG);
    return MPI_ERR_ARG;
}

int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    int unit, rc = mpi_win_unit("MPI_Win_create_c", comm, disp_unit, &unit);
    return rc ? rc : PMPI_Win_create(base, size, unit, info, comm, win);
}

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                        MPI_Win *win)
{
    int unit, rc = mpi_win_unit("MPI_Win_allocate_c", comm, disp_unit, &unit);
    return rc ? rc : PMPI_Win_allocate(size, unit, info, comm, baseptr, win);
}

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                               MPI_Win *win)
{
    int unit, rc = mpi_win_unit("MPI_Win_allocate_shared_c", comm, disp_unit, &unit);
    return rc ? rc : PMPI_Win_allocate_shared(size, unit, info, comm, baseptr, win);
}

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_shared_query_c");
    if (!disp_unit)
        return mpi_win_error(w, "MPI_Win_shared_query_c", MPI_ERR_ARG);
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
