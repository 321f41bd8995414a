/* mpi_sync.c -- the synchronization calls: fence, post-start-complete-wait
 * (MPI groups translated to ranks of the window), locks and flushes. */
#include "mpi_orma.h"
#include "api_face.h"

#include <stdlib.h>
#include <string.h>

/* MPI's assert bits as orma's, or -1 when bits MPI does not define are set
 * (orma checks which asserts each call takes). */
static int mpi_assert(int assert)
{
    const int known = MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;
    if (assert & ~known)
        return -1;
    int a = 0;
    a |= assert & MPI_MODE_NOCHECK ? ORMA_MODE_NOCHECK : 0;
    a |= assert & MPI_MODE_NOSTORE ? ORMA_MODE_NOSTORE : 0;
    a |= assert & MPI_MODE_NOPUT ? ORMA_MODE_NOPUT : 0;
    a |= assert & MPI_MODE_NOPRECEDE ? ORMA_MODE_NOPRECEDE : 0;
    a |= assert & MPI_MODE_NOSUCCEED ? ORMA_MODE_NOSUCCEED : 0;
    return a;
}

int PMPI_Win_fence(int assert, MPI_Win win)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Win_fence");
    return mpi_win_status(w, "MPI_Win_fence", orma_win_fence(mpi_assert(assert), w->win));
}

/* PSCW epochs repeat their groups: each window keeps the last group of a
 * post and of a start, translated to the window's ranks, as an orma group.
 * A call translates its MPI group again (the handle may name another group
 * than last time, once freed) and reuses the orma group when the ranks are
 * the same, so that the epoch costs no allocation. */
struct mpi_pscw_group {
    int n, cap;
    int *in, *ranks;   /* 0..cap-1, and the translation */
    int *out;          /* the translation being checked */
    orma_group og;
};

struct mpi_pscw {
    MPI_Group comm_group; /* the window's ranks */
    struct mpi_pscw_group kind[2]; /* 0: start, 1: post */
};

void mpi_pscw_release(struct mpi_win *w)
{
    struct mpi_pscw *p = w->pscw;
    if (!p)
        return;
    for (int k = 0; k < 2; k++) {
        if (p->kind[k].og != ORMA_GROUP_NULL)
            orma_group_free(&p->kind[k].og);
        free(p->kind[k].in);
        free(p->kind[k].ranks);
        free(p->kind[k].out);
    }
    PMPI_Group_free(&p->comm_group);
    free(p);
    w->pscw = NULL;
}

static int mpi_pscw_grow(struct mpi_pscw_group *g, int n)
{
    if (n <= g->cap)
        return 1;
    int cap = n < 16 ? 16 : n;
    int *in = realloc(g->in, (size_t)cap * sizeof *in);
    if (in)
        g->in = in;
    int *ranks = realloc(g->ranks, (size_t)cap * sizeof *ranks);
    if (ranks)
        g->ranks = ranks;
    int *out = realloc(g->out, (size_t)cap * sizeof *out);
    if (out)
        g->out = out;
    if (!in || !ranks || !out)
        return 0;
    for (int i = g->cap; i < cap; i++)
        g->in[i] = i;
    g->cap = cap;
    return 1;
}

/* An MPI group as an orma group of the window's ranks, owned by the cache. */
static int mpi_group(struct mpi_win *w, const char *call, MPI_Group group, int post, orma_group *og_p)
{
    int n = 0;
    if (group == MPI_GROUP_NULL || PMPI_Group_size(group, &n) != MPI_SUCCESS)
        return mpi_win_error_msg(w, call, MPI_ERR_GROUP, "not a group");
    if (!w->pscw) {
        w->pscw = calloc(1, sizeof *w->pscw);
        if (!w->pscw)
            return mpi_win_error_msg(w, call, MPI_ERR_NO_MEM, "out of memory");
        PMPI_Comm_group(w->comm, &w->pscw->comm_group);
    }
    struct mpi_pscw_group *g = &w->pscw->kind[post];
    if (!mpi_pscw_grow(g, n))
        return mpi_win_error_msg(w, call, MPI_ERR_NO_MEM, "out of memory");
    if (n)
        PMPI_Group_translate_ranks(group, n, g->in, w->pscw->comm_group, g->out);
    for (int i = 0; i < n; i++)
        if (g->out[i] == MPI_UNDEFINED)
            return mpi_win_status(w, call, util_error(ORMA_ERR_RANK, "%s: rank %d of the group is not in the "
                                                      "window", call, i));
    if (g->og != ORMA_GROUP_NULL && g->n == n && !memcmp(g->out, g->ranks, (size_t)n * sizeof *g->out)) {
        *og_p = g->og;
        return MPI_SUCCESS;
    }
    if (g->og != ORMA_GROUP_NULL)
        orma_group_free(&g->og);
    orma_group all = ORMA_GROUP_NULL;
    int status = orma_win_get_group(w->win, &all);
    if (!status)
        status = orma_group_incl(all, n, g->out, &g->og);
    if (all != ORMA_GROUP_NULL)
        orma_group_free(&all);
    if (status)
        return mpi_win_status(w, call, status);
    memcpy(g->ranks, g->out, (size_t)n * sizeof *g->out);
    g->n = n;
    *og_p = g->og;
    return MPI_SUCCESS;
}

static int mpi_pscw_open(const char *call, MPI_Group group, int assert, MPI_Win win, int post)
{
    MPI_WIN_OR_ERR(w, win, call);
    orma_group g = ORMA_GROUP_NULL;
    int rc = mpi_group(w, call, group, post, &g);
    if (rc)
        return rc;
    int status = post ? orma_win_post(g, mpi_assert(assert), w->win) : orma_win_start(g, mpi_assert(assert), w->win);
    return mpi_win_status(w, call, status);
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    MPI_RACE_SITE();
    return mpi_pscw_open("MPI_Win_post", group, assert, win, 1);
}

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    MPI_RACE_SITE();
    return mpi_pscw_open("MPI_Win_start", group, assert, win, 0);
}

int PMPI_Win_complete(MPI_Win win)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Win_complete");
    return mpi_win_status(w, "MPI_Win_complete", orma_win_complete(w->win));
}

int PMPI_Win_wait(MPI_Win win)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Win_wait");
    return mpi_win_status(w, "MPI_Win_wait", orma_win_wait(w->win));
}

int PMPI_Win_test(MPI_Win win, int *flag)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Win_test");
    if (!flag)
        return mpi_win_error_msg(w, "MPI_Win_test", MPI_ERR_ARG, "a NULL or invalid argument");
    return mpi_win_status(w, "MPI_Win_test", orma_win_test(w->win, flag));
}

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    MPI_RACE_SITE();
    int type = lock_type == MPI_LOCK_EXCLUSIVE ? ORMA_LOCK_EXCLUSIVE
               : lock_type == MPI_LOCK_SHARED  ? ORMA_LOCK_SHARED
                                               : -1;
    struct mpi_win *tw;
    struct rma_win *rw = mpi_try_win(win, &tw);
    if (rw && type >= 0 && (assert == 0 || assert == MPI_MODE_NOCHECK) &&
        rma_lock_try(rw, type, rank, assert ? ORMA_MODE_NOCHECK : 0))
        return MPI_SUCCESS;
    MPI_WIN_OR_ERR(w, win, "MPI_Win_lock");
    if (type < 0)
        return mpi_win_error_msg(w, "MPI_Win_lock", MPI_ERR_LOCKTYPE,
                                 "the lock type is neither MPI_LOCK_EXCLUSIVE nor MPI_LOCK_SHARED");
    return mpi_win_status(w, "MPI_Win_lock", orma_win_lock(type, mpi_rank(rank), mpi_assert(assert), w->win));
}

int PMPI_Win_unlock(int rank, MPI_Win win)
{
    MPI_RACE_SITE();
    struct mpi_win *tw;
    struct rma_win *rw = mpi_try_win(win, &tw);
    if (rw && rma_unlock_try(rw, rank))
        return MPI_SUCCESS;
    MPI_WIN_OR_ERR(w, win, "MPI_Win_unlock");
    return mpi_win_status(w, "MPI_Win_unlock", orma_win_unlock(mpi_rank(rank), w->win));
}

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Win_lock_all");
    return mpi_win_status(w, "MPI_Win_lock_all", orma_win_lock_all(mpi_assert(assert), w->win));
}

int PMPI_Win_unlock_all(MPI_Win win)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Win_unlock_all");
    return mpi_win_status(w, "MPI_Win_unlock_all", orma_win_unlock_all(w->win));
}

/* flush and flush_local of rank (all: their _all forms). */
static int mpi_flush(const char *call, int all, int rank, MPI_Win win, int local)
{
    /* the common case whole (rma_flush_try), as mpi_copy_try */
    struct mpi_win *fw;
    struct rma_win *rw = mpi_try_win(win, &fw);
    if (rw && (all || rank >= 0) && rma_flush_try(rw, all ? -1 : rank))
        return MPI_SUCCESS;
    MPI_WIN_OR_ERR(w, win, call);
    rank = mpi_rank(rank);
    int status = !all ? (local ? orma_win_flush_local(rank, w->win) : orma_win_flush(rank, w->win))
                      : (local ? orma_win_flush_local_all(w->win) : orma_win_flush_all(w->win));
    return mpi_win_status(w, call, status);
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
    MPI_RACE_SITE();
    return mpi_flush("MPI_Win_flush", 0, rank, win, 0);
}

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    MPI_RACE_SITE();
    return mpi_flush("MPI_Win_flush_local", 0, rank, win, 1);
}

int PMPI_Win_flush_all(MPI_Win win)
{
    MPI_RACE_SITE();
    return mpi_flush("MPI_Win_flush_all", 1, 0, win, 0);
}

int PMPI_Win_flush_local_all(MPI_Win win)
{
    MPI_RACE_SITE();
    return mpi_flush("MPI_Win_flush_local_all", 1, 0, win, 1);
}

int PMPI_Win_sync(MPI_Win win)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Win_sync");
    return mpi_win_status(w, "MPI_Win_sync", orma_win_sync(w->win));
}

/* MPI's names are weak aliases of the PMPI ones, as in an MPI library, so that a
 * profiling tool above liborma-mpi reaches orma through PMPI. */
#pragma weak MPI_Win_fence = PMPI_Win_fence
#pragma weak MPI_Win_post = PMPI_Win_post
#pragma weak MPI_Win_start = PMPI_Win_start
#pragma weak MPI_Win_complete = PMPI_Win_complete
#pragma weak MPI_Win_wait = PMPI_Win_wait
#pragma weak MPI_Win_test = PMPI_Win_test
#pragma weak MPI_Win_lock = PMPI_Win_lock
#pragma weak MPI_Win_unlock = PMPI_Win_unlock
#pragma weak MPI_Win_lock_all = PMPI_Win_lock_all
#pragma weak MPI_Win_unlock_all = PMPI_Win_unlock_all
#pragma weak MPI_Win_flush = PMPI_Win_flush
#pragma weak MPI_Win_flush_local = PMPI_Win_flush_local
#pragma weak MPI_Win_flush_all = PMPI_Win_flush_all
#pragma weak MPI_Win_flush_local_all = PMPI_Win_flush_local_all
#pragma weak MPI_Win_sync = PMPI_Win_sync
