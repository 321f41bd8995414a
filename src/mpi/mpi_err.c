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
    case ORMA_ERR_NOTIFY: return mpi_err_notify_code; /* of MPI_ERR_INVALID_NOTIFICATION (mpi_notify.c) */
    default: return MPI_ERR_OTHER; /* NOT_INIT, SYS, PEER, INTERNAL */
    }
}

/* User window error handlers are orma's: a tag plus an index, reference
 * counted as MPI says (the handle, each window using it, each handle
 * MPI_Win_get_errhandler gave out), freed through MPI_Errhandler_free,
 * which is defined here for them and hands the host's to the host. */
#define MPI_ERRH_TAG 0x6f650000
#define MPI_ERRH_MAX 64
static struct {
    int refs;
    int fortran; /* fn takes the window's Fortran handle (mpi_fortran_win.c) */
    MPI_Win_errhandler_function *fn;
} mpi_errhs[MPI_ERRH_MAX];

static int mpi_errh_index(MPI_Errhandler errh)
{
    intptr_t i = (intptr_t)errh - MPI_ERRH_TAG;
    return i >= 0 && i < MPI_ERRH_MAX && mpi_errhs[i].refs > 0 ? (int)i : -1;
}

static MPI_Win_errhandler_function *mpi_errh_fn(MPI_Errhandler errh)
{
    int i = mpi_errh_index(errh);
    return i < 0 ? NULL : mpi_errhs[i].fn;
}

void mpi_errh_ref(MPI_Errhandler errh, int delta)
{
    int i = mpi_errh_index(errh);
    if (i >= 0)
        mpi_errhs[i].refs += delta;
}

/* MPI 4.0's MPI_ERRORS_ABORT, where the host's mpi.h has it: it aborts the
 * window's processes, where MPI_ERRORS_ARE_FATAL may end all. */
static int mpi_errh_aborts(MPI_Errhandler errh)
{
#ifdef MPI_ERRORS_ABORT
    return errh == MPI_ERRORS_ABORT;
#else
    (void)errh;
    return 0;
#endif
}

static int mpi_raise(struct mpi_win *w, const char *call, int code, const char *why)
{
    if (!w) /* no window to raise it on: MPI_COMM_SELF (MPI-4.1 2.8) */
        return mpi_comm_error(MPI_COMM_SELF, call, code, why);
    MPI_Errhandler errh = w->errh;
    if (errh == MPI_ERRORS_RETURN)
        return code;
    MPI_Win_errhandler_function *fn = mpi_errh_fn(errh);
    if (fn && mpi_errhs[mpi_errh_index(errh)].fortran) {
        MPI_Fint handle = PMPI_Win_c2f(w->handle);
        ((void (*)(MPI_Fint *, int *))(void (*)(void))fn)(&handle, &code);
        return code;
    }
    if (fn) {
        MPI_Win handle = w->handle;
        fn(&handle, &code);
        return code;
    }
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "liborma-mpi: rank %d: %s: %s; aborting (the window's error handler is %s)\n", rank, call,
            why, mpi_errh_aborts(errh) ? "MPI_ERRORS_ABORT" : "MPI_ERRORS_ARE_FATAL");
    fflush(stderr);
    mpi_abort(w->comm, code);
    return code;
}

int mpi_win_error(struct mpi_win *w, const char *call, int mpi_class)
{
    return mpi_raise(w, call, mpi_class, orma_error_message());
}

int mpi_comm_error(MPI_Comm comm, const char *call, int mpi_class, const char *why)
{
    MPI_Errhandler errh = MPI_ERRHANDLER_NULL;
    PMPI_Comm_get_errhandler(comm, &errh);
    int quiet = errh == MPI_ERRORS_RETURN;
    if (errh != MPI_ERRHANDLER_NULL)
        PMPI_Errhandler_free(&errh);
    if (!quiet) { /* the host's handler would not say why */
        int rank = 0;
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        fprintf(stderr, "liborma-mpi: rank %d: %s: %s\n", rank, call, why);
        fflush(stderr);
    }
    PMPI_Comm_call_errhandler(comm, mpi_class);
    return mpi_class;
}

int mpi_win_error_msg(struct mpi_win *w, const char *call, int mpi_class, const char *why)
{
    return mpi_raise(w, call, mpi_class, why);
}

int mpi_errh_create(MPI_Win_errhandler_function *fn, int fortran, MPI_Errhandler *errhandler)
{
    if (!fn || !errhandler)
        return mpi_win_error_msg(NULL, "MPI_Win_create_errhandler", MPI_ERR_ARG, "NULL function or handle");
    for (int i = 0; i < MPI_ERRH_MAX; i++)
        if (mpi_errhs[i].refs == 0) {
            mpi_errhs[i].refs = 1;
            mpi_errhs[i].fortran = fortran;
            mpi_errhs[i].fn = fn;
            *errhandler = (MPI_Errhandler)(MPI_ERRH_TAG + (intptr_t)i);
            return MPI_SUCCESS;
        }
    return mpi_win_error_msg(NULL, "MPI_Win_create_errhandler", MPI_ERR_NO_MEM, "too many error handlers");
}

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    return mpi_errh_create(fn, 0, errhandler);
}

/* Fortran handles: orma's handlers are their tag plus index (never one of
 * the host's small Fortran indices, nor an MPICH handle), the host's are
 * the host's. */
MPI_Fint mpi_errh_c2f(MPI_Errhandler errh)
{
    intptr_t i = (intptr_t)errh - MPI_ERRH_TAG;
    return i >= 0 && i < MPI_ERRH_MAX ? (MPI_Fint)(intptr_t)errh : PMPI_Errhandler_c2f(errh);
}

MPI_Errhandler mpi_errh_f2c(MPI_Fint errh)
{
    intptr_t i = (intptr_t)errh - MPI_ERRH_TAG;
    return i >= 0 && i < MPI_ERRH_MAX ? (MPI_Errhandler)(intptr_t)errh : PMPI_Errhandler_f2c(errh);
}

int MPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    if (errhandler && mpi_errh_index(*errhandler) >= 0) {
        mpi_errh_ref(*errhandler, -1);
        *errhandler = MPI_ERRHANDLER_NULL;
        return MPI_SUCCESS;
    }
    return PMPI_Errhandler_free(errhandler);
}

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_set_errhandler");
    if (errhandler != MPI_ERRORS_RETURN && errhandler != MPI_ERRORS_ARE_FATAL && !mpi_errh_aborts(errhandler) &&
        !mpi_errh_fn(errhandler))
        return mpi_win_error_msg(w, "MPI_Win_set_errhandler", MPI_ERR_ARG, "not a window error handler");
    mpi_errh_ref(errhandler, 1);
    mpi_errh_ref(w->errh, -1);
    w->errh = errhandler;
    return MPI_SUCCESS;
}

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_get_errhandler");
    if (!errhandler)
        return mpi_win_error_msg(w, "MPI_Win_get_errhandler", MPI_ERR_ARG, "a NULL or invalid argument");
    *errhandler = w->errh;
    mpi_errh_ref(w->errh, 1); /* the caller frees it */
    return MPI_SUCCESS;
}

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_call_errhandler");
    mpi_raise(w, "MPI_Win_call_errhandler", errorcode, "called by the program");
    return MPI_SUCCESS;
}

/* MPI's names are weak aliases of the PMPI ones, as in an MPI library, so that a
 * profiling tool above liborma-mpi reaches orma through PMPI. */
#pragma weak MPI_Win_create_errhandler = PMPI_Win_create_errhandler
#pragma weak MPI_Win_set_errhandler = PMPI_Win_set_errhandler
#pragma weak MPI_Win_get_errhandler = PMPI_Win_get_errhandler
#pragma weak MPI_Win_call_errhandler = PMPI_Win_call_errhandler
