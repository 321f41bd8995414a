/* rma_world.c -- see rma_world.h.  Which launcher started the process and
 * where its module is: boot_mpirun.c. */
#include "rma_world.h"
#include "boot_job.h"
#include "boot_mpirun.h"
#include "boot_peer.h"
#include "net_world.h"
#include "xport_net.h"
#include "util_config.h"
#include "util_log.h"
#include "util_status.h"
#include "util_wait.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct net_world rma_world_w;
static struct rma_team rma_world_t;
static int rma_world_on;

static int rma_world_allgather(void *ctx, const void *mine, size_t len, void *all)
{
    (void)ctx;
    return rma_world_w.allgather(mine, len, all);
}

int rma_world_start(void)
{
    if (rma_world_on || boot_job_is_external() || util_config.boot_rank >= 0)
        return ORMA_SUCCESS; /* liborma-mpi's job, or orma-run's */
    const struct boot_mpirun *l = boot_mpirun_detect();
    if (!l)
        return ORMA_SUCCESS;
    util_set_rank(boot_mpirun_env_int(l->rank_var));
    char why[512];
    net_world_start_fn start = (net_world_start_fn)(uintptr_t)boot_mpirun_entry(l, NET_WORLD_SYMBOL, why, sizeof why);
    if (!start)
        return util_error(ORMA_ERR_UNSUPPORTED, "started by mpirun (%s=%s), but liborma-mpirun-%s.so %s; build orma "
                          "with that MPI, or set ORMA_MPIRUN=off to run every rank as a job of its own",
                          l->size_var, getenv(l->size_var), l->variant, why);
    static struct net_world_host host = {NET_WORLD_VERSION, util_error, &util_wait_hook, 0};
    host.net_forced = util_config.transport == UTIL_TRANSPORT_NET; /* the module keeps &host */
    int status = start(&host, util_config.progress_thread, &rma_world_w);
    if (status)
        return status;
    rma_world_on = 1; /* from here on every rank agrees (rma_world_agree) */
    util_set_rank(rma_world_w.rank);
    status = boot_job_external(rma_world_w.node_rank, rma_world_w.node_size, rma_world_w.token);
    if (status)
        return status;
    if (rma_world_w.here)
        boot_node_split(); /* the world's nodes are as its MPI says */
    rma_world_t = (struct rma_team){rma_world_w.rank, rma_world_w.size, rma_world_allgather, NULL,
                                    rma_world_w.net, rma_world_w.comm, rma_world_w.here, 0};
    xport_net_thread_ok = rma_world_w.thread_multiple;
    util_info("joined the %d ranks of an MPI job (%s): %d on this node", rma_world_w.size, rma_world_w.mpi,
              rma_world_w.node_size);
    return ORMA_SUCCESS;
}

int rma_world_agree(int status)
{
    if (!rma_world_on)
        return status;
    util_set_rank(rma_world_w.rank); /* boot_job_start set the node's */
    int *all = calloc((size_t)rma_world_w.size, sizeof *all);
    int ok = !status;
    if (!all || rma_world_w.allgather(&ok, sizeof ok, all)) {
        free(all);
        return status ? status : util_error(ORMA_ERR_NOMEM, "no memory to agree on starting");
    }
    int bad = -1;
    for (int r = 0; r < rma_world_w.size && bad < 0; r++)
        if (!all[r])
            bad = r;
    free(all);
    if (!status && bad >= 0)
        status = util_error(ORMA_ERR_PEER, "rank %d could not start orma (its own message says why)", bad);
    if (status) /* every rank alike */
        rma_world_finish();
    return status;
}

const struct rma_team *rma_world_team(void) { return rma_world_on ? &rma_world_t : NULL; }

int rma_world_rank(void) { return rma_world_on ? rma_world_w.rank : boot_job.rank; }

int rma_world_size(void) { return rma_world_on ? rma_world_w.size : boot_job.size; }

void rma_world_barrier(void)
{
    if (!rma_world_on) {
        boot_job_barrier();
        return;
    }
    int status = rma_world_w.barrier();
    if (status) /* MPI failed under us: nothing to wait for any more */
        util_warn("the barrier over the MPI job failed: %s", orma_error_message());
}

void rma_world_abort(int code)
{
    if (rma_world_on)
        rma_world_w.abort(code);
}

void rma_world_finish(void)
{
    if (!rma_world_on)
        return;
    rma_world_on = 0;
    rma_world_w.finish();
}
