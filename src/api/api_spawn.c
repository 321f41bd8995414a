/* api_spawn.c -- orma_spawn and orma_team_parent (orma.h).
 *
 * The root asks orma-run for the new ranks (boot_spawn.h), then creates the
 * merged team's segment (a bridge, rma_team.h) with every member's pid: the
 * parents' from an exchange over the parent team, the children's from the
 * launcher.  It tells the other parents its name over the parent team; the
 * children find it in their environment and open it in orma_init, retrying
 * until it exists.  All meet in its barrier, which is where orma_spawn
 * returns and the children's orma_init goes on. */
#include "api_check.h"
#include "api_team.h"
#include "boot_job.h"
#include "boot_spawn.h"
#include "rma_team.h"
#include "rma_world.h"
#include "util_config.h"
#include "util_log.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static orma_team api_parent = ORMA_TEAM_NULL;
static unsigned api_bridge_seq;

/* What the root says after it. */
struct api_spawn_done {
    int32_t status, n;
    char bridge[SHM_NAME_MAX];
};

void api_bridge_name(char *name, size_t len) { boot_job_name(name, len, "b%u-r%d", api_bridge_seq++, boot_job.rank); }

int api_bridge_hellos(const char *call, const struct api_team_view *v, int arg, int32_t *pids)
{
    int32_t mine[2] = {arg, (int32_t)getpid()}, *all = calloc((size_t)v->size * 2, sizeof *all);
    if (!all)
        return util_error(ORMA_ERR_NOMEM, "%s: out of memory for a team of %d ranks", call, v->size);
    int xrc = v->parent->allgather(v->parent->ctx, mine, sizeof mine, all);
    int status = arg ? arg : xrc; /* this rank's own error first */
    for (int r = 0; r < v->size; r++) {
        pids[r] = all[2 * r + 1];
        if (!status && all[2 * r])
            status = util_error(ORMA_ERR_PEER, "%s failed at rank %d (%s)", call, r, orma_strerror(all[2 * r]));
    }
    free(all);
    return status;
}

int api_root_verdict(const char *call, int status, int at_root, int root, int root_status)
{
    if (status || !root_status)
        return status;
    return at_root ? root_status
                   : util_error(ORMA_ERR_PEER, "%s failed at the root, rank %d (%s)", call, root,
                                orma_strerror(root_status));
}

int api_bridge_join(struct rma_split_team *t, int status, orma_team *team_p)
{
    if (!status)
        status = rma_bridge_meet(t, rma_world_rank());
    if (!status)
        status = api_team_register(t, team_p);
    if (status)
        rma_team_free(t);
    return status;
}

/* The root's part: the ranks, then the segment. */
static int api_spawn_root(const struct api_team_view *v, const int32_t *parents, const char *program,
                          char *const argv[], int n, orma_info info, struct api_spawn_done *done,
                          struct rma_split_team **t_p)
{
    int p = v->size;
    int32_t *pids = malloc(((size_t)p + (size_t)n) * sizeof *pids);
    if (!pids)
        return util_error(ORMA_ERR_NOMEM, "orma_spawn: out of memory for %d ranks", p + n);
    memcpy(pids, parents, (size_t)p * sizeof *pids);
    api_bridge_name(done->bridge, sizeof done->bridge);
    char wdir[PATH_MAX] = "", here[PATH_MAX] = "";
    int flag = 0, status = ORMA_SUCCESS;
    if (info != ORMA_INFO_NULL)
        status = orma_info_get(info, "wdir", sizeof wdir, wdir, &flag);
    /* The launcher starts them in the requester's directory. */
    if (!status && flag && (!getcwd(here, sizeof here) || chdir(wdir)))
        status = util_error(ORMA_ERR_ARG, "orma_spawn: cannot use info wdir \"%s\"", wdir);
    if (!status)
        status = boot_spawn_request(program, argv, n, p, done->bridge, pids + p);
    if (flag && here[0] && chdir(here))
        util_log(UTIL_LOG_WARN, "orma_spawn: cannot return to %s", here);
    if (!status)
        status = rma_bridge_create(done->bridge, v->rank, p + n, pids, t_p);
    free(pids);
    return status;
}

int orma_spawn(orma_team team, int root, const char *program, char *const argv[], int nranks, orma_info info,
               orma_team *merged_p)
{
    const char *call = "orma_spawn";
    struct api_team_view v;
    int status = api_team_view(call, team, &v);
    if (status)
        return status;
    int arg = ORMA_SUCCESS;
    if (!merged_p)
        arg = util_error(ORMA_ERR_ARG, "%s: merged_p is NULL", call);
    else if (root < 0 || root >= v.size)
        arg = util_error(ORMA_ERR_ARG, "%s: root %d is not a rank of the team (0..%d)", call, root, v.size - 1);
    else if (v.rank == root && !program)
        arg = util_error(ORMA_ERR_ARG, "%s: program is NULL", call);
    else if (v.rank == root && nranks < 1)
        arg = util_error(ORMA_ERR_ARG, "%s: %d ranks to start (at least 1)", call, nranks);
    else if (v.rank == root && info != ORMA_INFO_NULL)
        arg = api_info_valid(call, info);
    if (merged_p)
        *merged_p = ORMA_TEAM_NULL;
    const struct rma_team *parent = v.parent;
    int32_t *pids = calloc((size_t)v.size, sizeof *pids);
    struct api_spawn_done done = {0}, *dones = calloc((size_t)v.size, sizeof *dones);
    if (!pids || !dones) {
        free(pids);
        free(dones);
        return util_error(ORMA_ERR_NOMEM, "%s: out of memory for a team of %d ranks", call, v.size);
    }
    status = api_bridge_hellos(call, &v, arg, pids);
    struct rma_split_team *t = NULL;
    int at_root = root >= 0 && root < v.size && v.rank == root;
    if (!status && at_root) {
        done.n = nranks;
        done.status = api_spawn_root(&v, pids, program, argv, nranks, info, &done, &t);
    }
    /* Every rank takes part: a bad root is everybody's error already. */
    int xrc = parent->allgather(parent->ctx, &done, sizeof done, dones);
    if (!status)
        status = xrc;
    status = api_root_verdict(call, status, at_root, root, status ? 0 : dones[root].status);
    if (!status && !at_root)
        status = rma_bridge_open(dones[root].bridge, v.rank, v.size + dones[root].n, &t);
    status = api_bridge_join(t, status, merged_p);
    free(pids);
    free(dones);
    return status;
}

int api_parent_join(void)
{
    const char *spec = util_config.boot_parent;
    if (!spec || !spec[0])
        return ORMA_SUCCESS;
    const char *colon = strrchr(spec, ':');
    char name[SHM_NAME_MAX];
    int parents = colon ? atoi(colon + 1) : 0;
    if (!colon || parents < 1 || (size_t)(colon - spec) >= sizeof name)
        return util_error(ORMA_ERR_PEER, "ORMA_BOOT_PARENT=\"%s\" does not name a team: start jobs with orma-run",
                          spec);
    snprintf(name, sizeof name, "%.*s", (int)(colon - spec), spec);
    struct rma_split_team *t = NULL;
    int status = rma_bridge_open(name, parents + boot_job.rank, parents + boot_job.size, &t);
    return api_bridge_join(t, status, &api_parent);
}

int orma_team_parent(orma_team *merged_p)
{
    int status = api_check_init("orma_team_parent");
    if (status)
        return status;
    if (!merged_p)
        return util_error(ORMA_ERR_ARG, "orma_team_parent: merged_p is NULL");
    /* Freed by the program: gone, as MPI's parent after a disconnect. */
    *merged_p = api_parent != ORMA_TEAM_NULL && api_team_held(api_parent) ? api_parent : ORMA_TEAM_NULL;
    return ORMA_SUCCESS;
}
