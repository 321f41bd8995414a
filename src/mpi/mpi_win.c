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
            *win = w->handle = (MPI_Win)(MPI_WIN_TAG + i);
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
    w->model = MPI_WIN_UNIFIED;
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

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
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

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
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

int PMPI_Win_free(MPI_Win *win)
{
    struct mpi_win *w = win ? mpi_win_lookup(*win) : NULL;
    if (!w)
        return mpi_win_error(NULL, "MPI_Win_free", MPI_ERR_WIN);
    int status = orma_win_free(&w->win);
    if (status)
        return mpi_win_status(w, "MPI_Win_free", status);
    int rc = mpi_attr_delete_all(w);
    mpi_errh_ref(w->errh, -1);
    mpi_wins[(intptr_t)*win - MPI_WIN_TAG] = NULL;
    PMPI_Comm_free(&w->comm);
    free(w);
    *win = MPI_WIN_NULL;
    return rc;
}

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                            MPI_Win *win)
{
    struct mpi_win *w = NULL;
    int rc = mpi_win_begin("MPI_Win_allocate_shared", comm, win, &w);
    if (rc)
        return rc;
    (void)info;
    int status = size < 0 || disp_unit <= 0 ? ORMA_ERR_ARG : ORMA_SUCCESS;
    if (!status)
        status = orma_win_allocate_shared((size_t)size, disp_unit, ORMA_INFO_NULL, &w->base, &w->win);
    if (!status) {
        *(void **)baseptr = w->base;
        w->flavor = MPI_WIN_FLAVOR_SHARED;
        w->size = size;
        w->disp_unit = disp_unit;
    }
    return mpi_win_end("MPI_Win_allocate_shared", comm, w, status, win);
}

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_shared_query");
    if (!size || !disp_unit || !baseptr)
        return mpi_win_error(w, "MPI_Win_shared_query", MPI_ERR_ARG);
    size_t sz = 0;
    int status = ORMA_SUCCESS, n = 0;
    PMPI_Comm_size(w->comm, &n);
    if (rank == MPI_PROC_NULL) { /* the lowest rank with memory, as MPI says */
        for (int r = 0; r < n && !status; r++) {
            status = orma_win_shared_query(w->win, r, &sz, disp_unit, (void **)baseptr);
            if (sz)
                break;
        }
    } else {
        status = orma_win_shared_query(w->win, rank, &sz, disp_unit, (void **)baseptr);
    }
    if (!status)
        *size = (MPI_Aint)sz;
    return mpi_win_status(w, "MPI_Win_shared_query", status);
}

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    struct mpi_win *w = NULL;
    int rc = mpi_win_begin("MPI_Win_create_dynamic", comm, win, &w);
    if (rc)
        return rc;
    (void)info;
    int status = orma_win_create_dynamic(ORMA_INFO_NULL, &w->win);
    if (!status) {
        w->flavor = MPI_WIN_FLAVOR_DYNAMIC;
        w->base = MPI_BOTTOM;
        w->disp_unit = 1;
    }
    return mpi_win_end("MPI_Win_create_dynamic", comm, w, status, win);
}

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_attach");
    if (size < 0)
        return mpi_win_error(w, "MPI_Win_attach", MPI_ERR_SIZE);
    return mpi_win_status(w, "MPI_Win_attach", orma_win_attach(w->win, base, (size_t)size));
}

int PMPI_Win_detach(MPI_Win win, const void *base)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_detach");
    return mpi_win_status(w, "MPI_Win_detach", orma_win_detach(w->win, base));
}

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_get_group");
    if (!group)
        return mpi_win_error(w, "MPI_Win_get_group", MPI_ERR_ARG);
    return PMPI_Comm_group(w->comm, group);
}

/* Memory: orma's shared heap when orma runs, so that a window later
 * created on it is reached with loads and stores; the pointers handed out
 * are remembered, so that MPI_Free_mem knows whose they are. */
#define MPI_MEM_MAX 4096
static void *mpi_mems[MPI_MEM_MAX];

int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    if (!mpi_orma_ready || size < 0)
        return PMPI_Alloc_mem(size, info, baseptr);
    for (int i = 0; i < MPI_MEM_MAX; i++)
        if (!mpi_mems[i]) {
            void *p = NULL;
            if (orma_alloc_mem((size_t)size, ORMA_INFO_NULL, &p) != ORMA_SUCCESS)
                break; /* the host's, then */
            mpi_mems[i] = p;
            *(void **)baseptr = p;
            return MPI_SUCCESS;
        }
    return PMPI_Alloc_mem(size, info, baseptr);
}

int MPI_Free_mem(void *base)
{
    for (int i = 0; base && i < MPI_MEM_MAX; i++)
        if (mpi_mems[i] == base) {
            mpi_mems[i] = NULL;
            return orma_free_mem(base) == ORMA_SUCCESS ? MPI_SUCCESS : MPI_ERR_BASE;
        }
    return PMPI_Free_mem(base);
}

/* MPI's names are weak aliases of the PMPI ones, as in an MPI library, so that a
 * profiling tool above liborma-mpi reaches orma through PMPI. */
#pragma weak MPI_Win_allocate = PMPI_Win_allocate
#pragma weak MPI_Win_create = PMPI_Win_create
#pragma weak MPI_Win_free = PMPI_Win_free
#pragma weak MPI_Win_allocate_shared = PMPI_Win_allocate_shared
#pragma weak MPI_Win_shared_query = PMPI_Win_shared_query
#pragma weak MPI_Win_create_dynamic = PMPI_Win_create_dynamic
#pragma weak MPI_Win_attach = PMPI_Win_attach
#pragma weak MPI_Win_detach = PMPI_Win_detach
#pragma weak MPI_Win_get_group = PMPI_Win_get_group
