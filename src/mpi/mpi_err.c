/* mpi_err.c -- orma's statuses as MPI error classes, raised the MPI way. */
#include "mpi_orma.h"

#include <stdio.h>

int mpi_error_class(int status)
{
    switch (status) {
    case ORMA_SUCCESS: return MPI_SUCCESS;
    case ORMA_ERR_ARG: return MPI_ERR_ARG;
    case ORMA_ERR_WIN: return MPI_ERR_WIN;
    case ORMA_ERR_RANK: return MPI_ERR_RANK;
    case ORMA_ERR_RANGE: return MPI_ERR_RMA_RANGE;
    case ORMA_ERR_DISP: return MPI_ERR_DISP;
    case ORMA_ERR_TYPE: return MPI_ERR_TYPE;
    case ORMA_ERR_COUNT: return MPI_ERR_COUNT;
    case ORMA_ERR_RMA_SYNC: return MPI_ERR_RMA_SYNC;
    case ORMA_ERR_ASSERT: return MPI_ERR_ASSERT;
    case ORMA_ERR_FLAVOR: return MPI_ERR_RMA_FLAVOR;
    case ORMA_ERR_BASE: return MPI_ERR_BASE;
    case ORMA_ERR_INFO: return MPI_ERR_INFO;
    case ORMA_ERR_NOMEM: return MPI_ERR_NO_MEM;
    case ORMA_ERR_UNSUPPORTED: return MPI_ERR_UNSUPPORTED_OPERATION;
    case ORMA_ERR_OP: return MPI_ERR_OP;
    case ORMA_ERR_REQUEST: return MPI_ERR_REQUEST;
    default: return MPI_ERR_OTHER; /* NOT_INIT, SYS, PEER, INTERNAL */
    }
}

int mpi_win_error(struct mpi_win *w, const char *call, int mpi_class)
{
    MPI_Errhandler errh = w ? w->errh : MPI_ERRORS_ARE_FATAL;
    if (errh == MPI_ERRORS_RETURN)
        return mpi_class;
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "liborma-mpi: rank %d: %s: %s; aborting (the window's error handler is "
            "MPI_ERRORS_ARE_FATAL)\n", rank, call, orma_error_message());
    fflush(stderr);
    PMPI_Abort(w ? w->comm : MPI_COMM_WORLD, mpi_class);
    return mpi_class;
}
