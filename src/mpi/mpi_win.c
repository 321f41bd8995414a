/* mpi_win.c -- MPI windows on orma: creation and freeing, fence, put and
 * get of predefined datatypes.  Windows must span MPI_COMM_WORLD's ranks
 * (a communicator congruent with it); the other communicators, derived
 * datatypes and the rest of the chapter are still to come. */
#include "mpi_orma.h"

#include <stdio.h>
#include <stdlib.h>

#define MPI_WIN_TAG 0x6f720000 /* "or": never MPICH's MPI_WIN_NULL */
#define MPI_WIN_MAX 4096

static struct mpi_win *mpi_wins[MPI_WIN_MAX];

struct mpi_win *mpi_win_lookup(MPI_Win handle)
{
    intptr_t h = (intptr_t)handle - MPI_WIN_TAG;
    return h >= 0 && h < MPI_WIN_MAX ? mpi_wins[h] : NULL;
}

static int mpi_win_register(struct mpi_win *w, MPI_Win *win)
{
    for (intptr_t i = 0; i < MPI_WIN_MAX; i++)
        if (!mpi_wins[i]) {
            mpi_wins[i] = w;
            *win = (MPI_Win)(MPI_WIN_TAG + i);
            return 1;
        }
    return 0;
}

/* The checks of every creation call; on success *w_p is a new window
 * object holding a duplicate of comm. */
static int mpi_win_begin(const char *call, MPI_Comm comm, MPI_Win *win, struct mpi_win **w_p)
{
    int same = MPI_UNEQUAL;
    if (!mpi_orma_ready) {
        fprintf(stderr, "liborma-mpi: %s: %s\n", call, mpi_orma_why);
        return PMPI_Comm_call_errhandler(comm, MPI_ERR_UNSUPPORTED_OPERATION), MPI_ERR_UNSUPPORTED_OPERATION;
    }
    if (!win)
        return PMPI_Comm_call_errhandler(comm, MPI_ERR_ARG), MPI_ERR_ARG;
    if (PMPI_Comm_compare(comm, MPI_COMM_WORLD, &same) != MPI_SUCCESS ||
        (same != MPI_IDENT && same != MPI_CONGRUENT)) {
        fprintf(stderr, "liborma-mpi: %s: windows over other communicators than MPI_COMM_WORLD's ranks in "
                "order are not supported yet\n", call);
        return PMPI_Comm_call_errhandler(comm, MPI_ERR_UNSUPPORTED_OPERATION), MPI_ERR_UNSUPPORTED_OPERATION;
    }
    struct mpi_win *w = calloc(1, sizeof *w);
    if (!w)
        return PMPI_Comm_call_errhandler(comm, MPI_ERR_NO_MEM), MPI_ERR_NO_MEM;
    PMPI_Comm_dup(comm, &w->comm);
    w->errh = MPI_ERRORS_ARE_FATAL;
    *w_p = w;
    return MPI_SUCCESS;
}

/* Creation done (status: orma's): register the window, or undo. */
static int mpi_win_end(const char *call, MPI_Comm comm, struct mpi_win *w, int status, MPI_Win *win)
{
    if (status == ORMA_SUCCESS && mpi_win_register(w, win))
        return MPI_SUCCESS;
    int cls = status ? mpi_error_class(status) : MPI_ERR_NO_MEM;
    fprintf(stderr, "liborma-mpi: %s: %s\n", call, status ? orma_error_message() : "too many windows");
    if (status == ORMA_SUCCESS)
        orma_win_free(&w->win);
    PMPI_Comm_free(&w->comm);
    free(w);
    PMPI_Comm_call_errhandler(comm, cls);
    return cls;
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    struct mpi_win *w = NULL;
    int rc = mpi_win_begin("MPI_Win_allocate", comm, win, &w);
    if (rc)
        return rc;
    (void)info; /* TODO(6): window info through to orma */
    int status = size < 0 || disp_unit <= 0 ? ORMA_ERR_ARG : ORMA_SUCCESS;
    if (!status)
        status = orma_win_allocate((size_t)size, disp_unit, ORMA_INFO_NULL, &w->base, &w->win);
    if (!status) {
        *(void **)baseptr = w->base;
        w->flavor = MPI_WIN_FLAVOR_ALLOCATE;
        w->size = size;
        w->disp_unit = disp_unit;
    }
    return mpi_win_end("MPI_Win_allocate", comm, w, status, win);
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    struct mpi_win *w = NULL;
    int rc = mpi_win_begin("MPI_Win_create", comm, win, &w);
    if (rc)
        return rc;
    (void)info;
    int status = size < 0 || disp_unit <= 0 ? ORMA_ERR_ARG : ORMA_SUCCESS;
    if (!status)
        status = orma_win_create(base, (size_t)size, disp_unit, ORMA_INFO_NULL, &w->win);
    if (!status) {
        w->base = base;
        w->flavor = MPI_WIN_FLAVOR_CREATE;
        w->size = size;
        w->disp_unit = disp_unit;
    }
    return mpi_win_end("MPI_Win_create", comm, w, status, win);
}

int MPI_Win_free(MPI_Win *win)
{
    struct mpi_win *w = win ? mpi_win_lookup(*win) : NULL;
    if (!w)
        return mpi_win_error(NULL, "MPI_Win_free", MPI_ERR_WIN);
    int status = orma_win_free(&w->win);
    if (status)
        return mpi_win_status(w, "MPI_Win_free", status);
    mpi_wins[(intptr_t)*win - MPI_WIN_TAG] = NULL;
    PMPI_Comm_free(&w->comm);
    free(w);
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}
