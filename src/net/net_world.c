/* net_world.c -- liborma-mpirun-<variant>: the native API's way into an
 * MPI job (net_world.h).  Built with net_am.c against one host MPI; every
 * symbol but NET_WORLD_SYMBOL is hidden, so that the util_error and
 * util_wait_hook net_am.c calls are the ones below, which hand over to
 * liborma's. */
#include "net_am.h"
#include "net_world.h"
#include "util_status.h"
#include "util_wait.h"

#include <orma.h>

#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

static const struct net_world_host *world_host;
static MPI_Comm world_comm = MPI_COMM_NULL; /* a duplicate of MPI_COMM_WORLD */
static int world_started_mpi;
static char world_mpi[64];

int util_error(int status, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return world_host->error(status, "%s", text);
}

static void world_hook(void)
{
    void (*hook)(void) = *world_host->wait_hook;
    if (hook)
        hook();
}

void (*util_wait_hook)(void) = world_hook;

static int world_mpi_error(const char *what, int rc)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int n = 0;
    PMPI_Error_string(rc, text, &n);
    return util_error(ORMA_ERR_PEER, "%s: %s failed: %s", world_mpi, what, text);
}

/* Until req completes, handling what arrives for the layers above: a rank
 * still flushing to us may need that before it reaches the collective. */
static int world_wait(MPI_Request *req, int rc, const char *what)
{
    for (int done = 0; rc == MPI_SUCCESS && !done;) {
        rc = PMPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && !done) {
            world_hook();
            sched_yield(); /* ranks may outnumber cores */
        }
    }
    return rc == MPI_SUCCESS ? ORMA_SUCCESS : world_mpi_error(what, rc);
}

static int world_allgather(const void *mine, size_t len, void *all)
{
    if (len > INT_MAX)
        return util_error(ORMA_ERR_ARG, "an allgather of %zu bytes per rank", len);
    MPI_Request req;
    int rc = PMPI_Iallgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, world_comm, &req);
    return world_wait(&req, rc, "an allgather over MPI_COMM_WORLD");
}

static int world_barrier(void)
{
    MPI_Request req;
    int rc = PMPI_Ibarrier(world_comm, &req);
    return world_wait(&req, rc, "a barrier over MPI_COMM_WORLD");
}

static struct net_world *world_self;

static void world_abort(int code) { PMPI_Abort(MPI_COMM_WORLD, code); }

static void world_finish(void)
{
    if (!world_self)
        return;
    free(world_self->here);
    world_self->here = NULL;
    world_self = NULL;
    if (world_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&world_comm);
    int finalized = 0;
    PMPI_Finalized(&finalized);
    if (world_started_mpi && !finalized)
        PMPI_Finalize();
    world_started_mpi = 0;
}

/* A job token shared by this node's ranks: drawn by its first, then
 * broadcast ("" everywhere on the node when drawing failed). */
static int world_node_token(MPI_Comm node, int node_rank, char token[40])
{
    memset(token, 0, 40);
    unsigned char raw[16];
    if (node_rank == 0 && getrandom(raw, sizeof raw, 0) == (ssize_t)sizeof raw)
        for (size_t i = 0; i < sizeof raw; i++)
            snprintf(token + 2 * i, 3, "%02x", raw[i]);
    int rc = PMPI_Bcast(token, 40, MPI_CHAR, 0, node);
    return rc == MPI_SUCCESS ? ORMA_SUCCESS : world_mpi_error("broadcasting the node's job token", rc);
}

/* here[r] for every world rank r: whether it is in node. */
static int world_here(MPI_Comm node, struct net_world *w)
{
    MPI_Group wg, ng;
    int *ranks = malloc(2 * (size_t)w->size * sizeof *ranks);
    w->here = calloc((size_t)w->size, 1);
    if (!ranks || !w->here) {
        free(ranks);
        return util_error(ORMA_ERR_NOMEM, "no memory for the map of %d ranks", w->size);
    }
    for (int r = 0; r < w->size; r++)
        ranks[r] = r;
    PMPI_Comm_group(world_comm, &wg);
    PMPI_Comm_group(node, &ng);
    int rc = PMPI_Group_translate_ranks(wg, w->size, ranks, ng, ranks + w->size);
    for (int r = 0; rc == MPI_SUCCESS && r < w->size; r++)
        w->here[r] = ranks[w->size + r] != MPI_UNDEFINED;
    PMPI_Group_free(&wg);
    PMPI_Group_free(&ng);
    free(ranks);
    return rc == MPI_SUCCESS ? ORMA_SUCCESS : world_mpi_error("finding the ranks of this node", rc);
}

static int world_start_mpi(int want_multiple, struct net_world *w)
{
    int initialized = 0, provided = MPI_THREAD_SINGLE;
    PMPI_Initialized(&initialized);
    if (!initialized) {
        net_am_prepare_host(world_host->net_forced);
        /* orma's calls come from one thread at a time (orma.h) */
        int rc = PMPI_Init_thread(NULL, NULL, want_multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED,
                                  &provided);
        if (rc != MPI_SUCCESS)
            return util_error(ORMA_ERR_PEER, "%s: MPI_Init_thread failed (error %d)", world_mpi, rc);
        world_started_mpi = 1;
    } else {
        PMPI_Query_thread(&provided);
    }
    w->thread_multiple = provided == MPI_THREAD_MULTIPLE;
    int rc = PMPI_Comm_dup(MPI_COMM_WORLD, &world_comm);
    if (rc != MPI_SUCCESS)
        return world_mpi_error("duplicating MPI_COMM_WORLD", rc);
    PMPI_Comm_set_errhandler(world_comm, MPI_ERRORS_RETURN);
    PMPI_Comm_rank(world_comm, &w->rank);
    PMPI_Comm_size(world_comm, &w->size);
    return ORMA_SUCCESS;
}

__attribute__((visibility("default"))) int orma_net_world_start(const struct net_world_host *host, int want_multiple,
                                                               struct net_world *w)
{
    if (!host || host->version != NET_WORLD_VERSION || !w)
        return ORMA_ERR_ARG; /* nothing to report through */
    world_host = host;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int vlen = 0;
    PMPI_Get_library_version(version, &vlen);
    snprintf(world_mpi, sizeof world_mpi, "%.*s", (int)strcspn(version, ",\n"), version);
    for (char *c = world_mpi; *c; c++) /* "MPICH Version:<tab>4.0.2" */
        if (*c == '\t')
            *c = ' ';
    memset(w, 0, sizeof *w);
    w->mpi = world_mpi;
    int status = world_start_mpi(want_multiple, w);
    MPI_Comm node = MPI_COMM_NULL;
    if (!status) {
        int rc = PMPI_Comm_split_type(world_comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        if (rc != MPI_SUCCESS)
            status = world_mpi_error("finding the ranks of this node", rc);
    }
    if (!status) {
        PMPI_Comm_rank(node, &w->node_rank);
        PMPI_Comm_size(node, &w->node_size);
        status = world_node_token(node, w->node_rank, w->token);
    }
    if (!status)
        status = world_here(node, w);
    if (node != MPI_COMM_NULL)
        PMPI_Comm_free(&node);
    w->net = &net_am_ops;
    w->comm = &world_comm;
    w->allgather = world_allgather;
    w->barrier = world_barrier;
    w->abort = world_abort;
    w->finish = world_finish;
    world_self = w;
    if (status) { /* MPI stays as it is: the program's exit ends the job */
        free(w->here);
        w->here = NULL;
        world_self = NULL;
    }
    return status;
}
