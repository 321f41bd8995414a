/* rma_world.c -- see rma_world.h.  The module is looked for next to
 * liborma (the file dladdr names for this code), then in the directory
 * lib/ beside a program's bin/ (liborma linked statically), then by the
 * dynamic loader's own search. */
#include "rma_world.h"
#include "boot_job.h"
#include "net_world.h"
#include "rma_net.h"
#include "util_config.h"
#include "util_log.h"
#include "util_status.h"
#include "util_wait.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct net_world rma_world_w;
static struct rma_team rma_world_t;
static int rma_world_on;

/* The launchers that start MPI jobs say so in their ranks' environment. */
struct rma_world_launcher {
    const char *variant, *size_var, *rank_var;
};
static const struct rma_world_launcher rma_world_launchers[] = {
    {"openmpi", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"},
    {"mpich", "PMI_SIZE", "PMI_RANK"}, /* Hydra, and PMI-1/2 launchers */
};
#define RMA_WORLD_NLAUNCHERS (sizeof rma_world_launchers / sizeof rma_world_launchers[0])

static int rma_world_env_int(const char *name)
{
    const char *v = getenv(name);
    char *end;
    long n = v && *v ? strtol(v, &end, 10) : -1;
    return v && *v && !*end && n >= 0 && n <= INT_MAX ? (int)n : -1;
}

/* The launcher that started this process with more than one rank, or
 * NULL; ORMA_MPIRUN names one, or off. */
static const struct rma_world_launcher *rma_world_launched(void)
{
    const char *want = util_config.mpirun;
    if (!strcmp(want, "off"))
        return NULL;
    int known = !strcmp(want, "auto");
    for (size_t i = 0; i < RMA_WORLD_NLAUNCHERS; i++) {
        const struct rma_world_launcher *l = &rma_world_launchers[i];
        if (strcmp(want, "auto") && strcmp(want, l->variant))
            continue;
        known = 1;
        if (rma_world_env_int(l->size_var) > 1)
            return l;
    }
    if (!known)
        util_warn("ORMA_MPIRUN=%s is none of auto, openmpi, mpich, off: off", want);
    return NULL;
}

static void *rma_world_open(const char *variant, char *why, size_t len)
{
    char file[64], path[PATH_MAX + sizeof "/../lib/" + sizeof file];
    snprintf(file, sizeof file, "liborma-mpirun-%s.so", variant);
    Dl_info info;
    const char *dirs[2] = {NULL, NULL};
    char dir[PATH_MAX] = "";
    if (dladdr((void *)rma_world_start, &info) && info.dli_fname && strrchr(info.dli_fname, '/')) {
        snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(info.dli_fname, '/') - info.dli_fname), info.dli_fname);
        dirs[0] = "";
        dirs[1] = "/../lib";
    }
    why[0] = 0;
    for (int i = 0; i < 2 && dirs[i]; i++) {
        snprintf(path, sizeof path, "%s%s/%s", dir, dirs[i], file);
        /* global: the host MPI's components look their library up there */
        void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        if (h)
            return h;
        if (!why[0] || i == 0)
            snprintf(why, len, "%s", dlerror());
    }
    void *h = dlopen(file, RTLD_NOW | RTLD_GLOBAL);
    if (!h && !why[0])
        snprintf(why, len, "%s", dlerror());
    return h;
}

static int rma_world_allgather(void *ctx, const void *mine, size_t len, void *all)
{
    (void)ctx;
    return rma_world_w.allgather(mine, len, all);
}

int rma_world_start(void)
{
    if (rma_world_on || boot_job_is_external() || util_config.boot_rank >= 0)
        return ORMA_SUCCESS; /* liborma-mpi's job, or orma-run's */
    const struct rma_world_launcher *l = rma_world_launched();
    if (!l)
        return ORMA_SUCCESS;
    util_set_rank(rma_world_env_int(l->rank_var));
    char why[512];
    void *h = rma_world_open(l->variant, why, sizeof why);
    net_world_start_fn start = h ? (net_world_start_fn)(uintptr_t)dlsym(h, NET_WORLD_SYMBOL) : NULL;
    if (!start)
        return util_error(ORMA_ERR_UNSUPPORTED, "started by mpirun (%s=%s), but liborma-mpirun-%s.so %s: %s; "
                          "build orma with that MPI, or set ORMA_MPIRUN=off to run every rank as a job of its own",
                          l->size_var, getenv(l->size_var), l->variant,
                          h ? "lacks its entry point" : "could not be opened", h ? NET_WORLD_SYMBOL : why);
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
    rma_world_t = (struct rma_team){rma_world_w.rank, rma_world_w.size, rma_world_allgather, NULL,
                                    rma_world_w.net, rma_world_w.comm, rma_world_w.here};
    rma_net_thread_ok = rma_world_w.thread_multiple;
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
