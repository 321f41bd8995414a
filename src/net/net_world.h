/* net_world.h -- the native API started by mpirun: what liborma, which
 * knows no MPI, loads to join the ranks of MPI_COMM_WORLD (DESIGN section
 * 2, "over MPI").
 *
 * One module per host MPI, liborma-mpirun-<variant>.so (net_world.c with
 * net_am.c, against that MPI), exports NET_WORLD_SYMBOL.  liborma opens the
 * one its launcher's environment names (rma_world.c) and calls it once, in
 * orma_init; it initializes the host MPI unless the program did, finds the
 * ranks of this node (MPI_Comm_split_type) and hands back:
 *  - the world's ranks, and which of them share this node (here[]);
 *  - this node's ranks and a job token common to them, so that they form
 *    one orma job over shared memory (boot_job_external);
 *  - the net transport (net_ops.h) over a duplicate of MPI_COMM_WORLD, and
 *    collectives over it that progress the layers above while they wait.
 *
 * This header is MPI-free: liborma includes it as well as the module. */
#ifndef ORMA_NET_WORLD_H
#define ORMA_NET_WORLD_H

#include "net_ops.h"

#include <stddef.h>

#define NET_WORLD_VERSION 3
#define NET_WORLD_SYMBOL "orma_net_world_start"

/* What liborma lends the module: its error reporting (util_error), and its
 * hook for waiters (util_wait_hook), read each time it is called; and
 * whether every two ranks talk over the net (ORMA_TRANSPORT=net). */
struct net_world_host {
    int version;
    int (*error)(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    void (*const *wait_hook)(void);
    int net_forced;
};

struct net_world {
    int rank, size;           /* in MPI_COMM_WORLD */
    int node_rank, node_size; /* among the ranks on this node */
    char token[40];           /* the same on this node's ranks, hex */
    unsigned char *here;      /* here[r]: world rank r is on this node */
    int thread_multiple;      /* the host MPI gave MPI_THREAD_MULTIPLE */
    const struct net_ops *net;
    const void *comm;         /* for net->open: the world's ranks */
    const char *mpi;          /* "Open MPI 4.1.4" and the like, for messages */
    /* Collective over the world, handling what arrives for the layers above
     * while they wait (host->wait_hook). */
    int (*allgather)(const void *mine, size_t len, void *all);
    int (*barrier)(void);
    /* Ends every rank of the job now (MPI_Abort), with status code. */
    void (*abort)(int code);
    /* Last: frees the above, and finalizes the host MPI if start
     * initialized it. */
    void (*finish)(void);
};

/* NET_WORLD_SYMBOL: fills *w; want_multiple asks the host MPI for
 * MPI_THREAD_MULTIPLE (a progress thread).  An orma status; on failure the
 * message was reported through host->error. */
int orma_net_world_start(const struct net_world_host *host, int want_multiple, struct net_world *w);
typedef int (*net_world_start_fn)(const struct net_world_host *host, int want_multiple, struct net_world *w);

#endif
