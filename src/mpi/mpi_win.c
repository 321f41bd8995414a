/* mpi_win.c -- MPI windows on orma: the handle table, creation over any
 * intracommunicator whose ranks share this node (an orma window over the
 * communicator's ranks, its records exchanged with the communicator's
 * allgather), shared_query, attach/detach and freeing. */
#include "mpi_orma.h"
#include "api_face.h"
#include "net_am.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Atomic(struct mpi_win *) mpi_wins[MPI_WIN_MAX];
static pthread_mutex_t mpi_wins_mu = PTHREAD_MUTEX_INITIALIZER; /* threads creating windows at once */

static int mpi_win_register(struct mpi_win *w, MPI_Win *win)
{
    pthread_mutex_lock(&mpi_wins_mu);
    for (intptr_t i = 0; i < MPI_WIN_MAX; i++)
        if (!atomic_load_explicit(&mpi_wins[i], memory_order_relaxed)) {
            *win = w->handle = (MPI_Win)(MPI_WIN_TAG + i);
            atomic_store_explicit(&mpi_wins[i], w, memory_order_release);
            pthread_mutex_unlock(&mpi_wins_mu);
            return 1;
        }
    pthread_mutex_unlock(&mpi_wins_mu);
    return 0;
}

/* Whether comm can hold an orma window: an intracommunicator.  *here_p
 * (malloc'd, or NULL when all are): here[r] is 1 when comm's rank r shares
 * this node's memory -- a rank of this world or of another one (spawned,
 * connected: its own orma job, reached through its objects' names, as
 * boot_peer.h says); the others are reached over the net transport.  Asked
 * of every rank (an allgather over comm), not of the world's node group:
 * a communicator may hold ranks of several worlds. */
static int mpi_win_comm_usable(const char *call, MPI_Comm comm, unsigned char **here_p)
{
    int inter = 0, n = 0, off = 0;
    *here_p = NULL;
    if (!mpi_orma_ready)
        return mpi_comm_error(comm, call, MPI_ERR_UNSUPPORTED_OPERATION, mpi_orma_why);
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return mpi_comm_error(MPI_COMM_WORLD, call, MPI_ERR_COMM, "not a valid communicator");
    if (inter)
        return mpi_comm_error(comm, call, MPI_ERR_COMM, "windows need an intracommunicator");
    PMPI_Comm_size(comm, &n);
    uint64_t mine = boot_node_id(), *nodes = malloc(((size_t)n + 1) * sizeof *nodes);
    unsigned char *here = malloc((size_t)n + 1);
    if (!nodes || !here) {
        free(nodes);
        free(here);
        return mpi_comm_error(comm, call, MPI_ERR_NO_MEM, "out of memory");
    }
    int rc = PMPI_Allgather(&mine, 1, MPI_UINT64_T, nodes, 1, MPI_UINT64_T, comm);
    if (rc != MPI_SUCCESS) {
        free(nodes);
        free(here);
        return mpi_comm_error(comm, call, rc, "the exchange of the ranks' nodes failed");
    }
    for (int i = 0; i < n; i++) {
        here[i] = nodes[i] == mine;
        off += !here[i];
    }
    free(nodes);
    if (off)
        *here_p = here;
    else
        free(here);
    return MPI_SUCCESS;
}

const char *const mpi_win_info_keys[MPI_WIN_INFO_KEYS] = {
    "accumulate_ordering", "accumulate_ops", "no_locks", "same_size", "same_disp_unit", "orma_unlock_local",
    "alloc_shared_noncontig"};

int mpi_win_info(MPI_Info info, orma_info *oi_p)
{
    const char *const *keys = mpi_win_info_keys;
    *oi_p = ORMA_INFO_NULL;
    if (info == MPI_INFO_NULL)
        return ORMA_SUCCESS;
    int status = orma_info_create(oi_p);
    for (size_t i = 0; i < MPI_WIN_INFO_KEYS && !status; i++) {
        char value[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        if (PMPI_Info_get(info, keys[i], MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS && flag)
            status = orma_info_set(*oi_p, keys[i], value);
    }
    return status;
}

static int mpi_win_allgather(void *ctx, const void *mine, size_t len, void *all)
{
    return PMPI_Allgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, *(MPI_Comm *)ctx) != MPI_SUCCESS;
}

int mpi_win_make(const char *call, int flavor, void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                 MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    unsigned char *here = NULL;
    int rc = mpi_win_comm_usable(call, comm, &here);
    if (rc)
        return rc;
    MPI_Comm dup;
    if (PMPI_Comm_dup(comm, &dup) != MPI_SUCCESS) {
        free(here);
        return mpi_comm_error(comm, call, MPI_ERR_INTERN, "duplicating the communicator failed");
    }
    struct mpi_win *w = calloc(1, sizeof *w);
    int status = ORMA_SUCCESS;
    if (w)
        util_rlock_init(&w->lock);
    if (!w)
        status = util_error(ORMA_ERR_NOMEM, "%s: out of memory", call);
    else if (!win || (!baseptr && (flavor == ORMA_WIN_FLAVOR_ALLOCATE || flavor == ORMA_WIN_FLAVOR_SHARED)))
        status = util_error(ORMA_ERR_ARG, "%s: NULL %s argument", call, win ? "baseptr" : "win");
    else if (size < 0)
        status = util_error(ORMA_ERR_ARG, "%s: size %lld is negative", call, (long long)size);
    else if (disp_unit > INT_MAX)
        status = util_error(ORMA_ERR_ARG, "%s: displacement unit %lld is larger than orma takes (%d)", call,
                            (long long)disp_unit, INT_MAX);
    orma_info oi = ORMA_INFO_NULL;
    if (!status)
        status = mpi_win_info(info, &oi);
    int rank, n;
    PMPI_Comm_rank(dup, &rank);
    PMPI_Comm_size(dup, &n);
    /* the net transport (net_am.h) for the ranks on other nodes, or all
     * with ORMA_TRANSPORT=net */
    struct rma_team team = {rank, n, mpi_win_allgather, &dup, &net_am_ops, &dup, here, 0};
    void *mem = base;
    orma_win ow = ORMA_WIN_NULL;
    status = api_win_create_team(&team, flavor, base, status ? 0 : (size_t)size,
                                 disp_unit > INT_MAX ? 1 : (int)disp_unit, oi,
                                 baseptr ? &mem : NULL, &ow, status);
    free(here);
    if (oi != ORMA_INFO_NULL)
        orma_info_free(&oi);
    if (!status && !mpi_win_register(w, win)) {
        status = util_error(ORMA_ERR_NOMEM, "%s: too many windows (%d)", call, MPI_WIN_MAX);
        orma_win_free(&ow);
    }
    if (status) {
        if (w)
            util_rlock_destroy(&w->lock);
        free(w);
        PMPI_Comm_free(&dup);
        return mpi_comm_error(comm, call, size < 0 ? MPI_ERR_SIZE : mpi_error_class(status),
                              orma_error_message());
    }
    static const int mpi_flavors[] = {
        [ORMA_WIN_FLAVOR_CREATE] = MPI_WIN_FLAVOR_CREATE, [ORMA_WIN_FLAVOR_ALLOCATE] = MPI_WIN_FLAVOR_ALLOCATE,
        [ORMA_WIN_FLAVOR_DYNAMIC] = MPI_WIN_FLAVOR_DYNAMIC, [ORMA_WIN_FLAVOR_SHARED] = MPI_WIN_FLAVOR_SHARED};
    w->win = ow;
    w->comm = dup;
    w->errh = MPI_ERRORS_ARE_FATAL;
    w->model = MPI_WIN_UNIFIED;
    w->flavor = mpi_flavors[flavor];
    w->base = flavor == ORMA_WIN_FLAVOR_DYNAMIC ? MPI_BOTTOM : mem;
    w->size = flavor == ORMA_WIN_FLAVOR_DYNAMIC ? 0 : size;
    w->disp_unit = (int)disp_unit;
    if (baseptr)
        *(void **)baseptr = mem;
    return MPI_SUCCESS;
}

MPI_WIN_MAKE_CALLS(, int)

int PMPI_Win_free(MPI_Win *win)
{
    if (!win)
        return mpi_win_error_msg(NULL, "MPI_Win_free", MPI_ERR_WIN, "NULL window handle pointer");
    MPI_WIN_OR_ERR(w, *win, "MPI_Win_free");
    int status = orma_win_free(&w->win);
    if (status)
        return mpi_win_status(w, "MPI_Win_free", status);
    int rc = mpi_attr_delete_all(w);
    mpi_pscw_release(w);
    mpi_errh_ref(w->errh, -1);
    atomic_store_explicit(&mpi_wins[(intptr_t)*win - MPI_WIN_TAG], NULL, memory_order_release);
    PMPI_Comm_free(&w->comm);
    util_rlock_destroy(&w->lock); /* held by this call: let go before it goes */
    free(w);
    *win = MPI_WIN_NULL;
    return rc;
}

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_shared_query");
    if (!size || !disp_unit || !baseptr)
        return mpi_win_error_msg(w, "MPI_Win_shared_query", MPI_ERR_ARG, "a NULL or invalid argument");
    size_t sz = 0;
    int status = orma_win_shared_query(w->win, mpi_rank(rank), &sz, disp_unit, (void **)baseptr);
    if (!status)
        *size = (MPI_Aint)sz;
    return mpi_win_status(w, "MPI_Win_shared_query", status);
}

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return mpi_win_make("MPI_Win_create_dynamic", ORMA_WIN_FLAVOR_DYNAMIC, NULL, 0, 1, info, comm, NULL, win);
}

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_attach");
    if (size < 0)
        return mpi_win_error_msg(w, "MPI_Win_attach", MPI_ERR_SIZE, "a negative size");
    return mpi_win_status(w, "MPI_Win_attach", orma_win_attach(w->win, base, (size_t)size));
}

int PMPI_Win_detach(MPI_Win win, const void *base)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Win_detach");
    return mpi_win_status(w, "MPI_Win_detach", orma_win_detach(w->win, base));
}

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_get_group");
    if (!group)
        return mpi_win_error_msg(w, "MPI_Win_get_group", MPI_ERR_ARG, "a NULL or invalid argument");
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
    MPI_RACE_SITE();
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
