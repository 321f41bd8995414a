/* api_team.c -- teams (orma.h): the two predefined ones and those made by
 * orma_team_split (rma_team.c), their collectives and windows. */
#include "api_check.h"
#include "api_team.h"
#include "boot_job.h"
#include "rma_team.h"
#include "rma_world.h"

#include <stdlib.h>

#define API_TEAM_MAGIC 0x7ea3u

struct orma_team_s {
    uint32_t magic;
    struct rma_split_team *split;
};

/* The teams this rank holds: a handle is looked up here before it is
 * followed. */
static orma_team *api_teams;
static size_t api_nteams, api_teams_cap;


/* ORMA_TEAM_SHARED: this node's orma job, and its world ranks (under
 * mpirun the node's ranks in world order: MPI_Comm_split_type keeps it). */
static struct rma_team api_shared_team;
static int *api_shared_world;

static int api_team_shared(struct api_team_view *v)
{
    api_shared_team = *rma_job_team();
    api_shared_team.shm_only = 1;
    const struct rma_team *world = rma_world_team();
    if (world && world->here && !api_shared_world) {
        int *w = malloc((size_t)api_shared_team.size * sizeof *w);
        if (!w)
            return util_error(ORMA_ERR_NOMEM, "out of memory for ORMA_TEAM_SHARED's %d ranks", api_shared_team.size);
        int k = 0;
        for (int r = 0; r < world->size && k < api_shared_team.size; r++)
            if (world->here[r])
                w[k++] = r;
        api_shared_world = w;
    }
    *v = (struct api_team_view){&api_shared_team, &api_shared_team, world && world->here ? api_shared_world : NULL,
                                api_shared_team.rank, api_shared_team.size, NULL};
    return ORMA_SUCCESS;
}

int api_team_view(const char *call, orma_team team, struct api_team_view *v)
{
    int status = api_check_init(call);
    if (status)
        return status;
    if (team == ORMA_TEAM_WORLD) {
        const struct rma_team *all = rma_all_team();
        *v = (struct api_team_view){NULL, all, NULL, all->rank, all->size, NULL};
        return ORMA_SUCCESS;
    }
    if (team == ORMA_TEAM_SHARED)
        return api_team_shared(v);
    for (size_t i = 0; i < api_nteams; i++)
        if (api_teams[i] == team && team->magic == API_TEAM_MAGIC) {
            struct rma_split_team *t = team->split;
            *v = (struct api_team_view){&t->team, &t->team, t->world_ranks, t->team.rank, t->team.size, t};
            return ORMA_SUCCESS;
        }
    return util_error(ORMA_ERR_ARG, "%s: %s", call,
                      team == ORMA_TEAM_NULL ? "the team is ORMA_TEAM_NULL" : "not a team (freed, or never made)");
}

int api_team_held(orma_team team)
{
    for (size_t i = 0; i < api_nteams; i++)
        if (api_teams[i] == team)
            return 1;
    return 0;
}

/* This rank's number in team (want_size 0) or the team's size. */
static int api_team_query(const char *call, orma_team team, int *out_p, int want_size)
{
    struct api_team_view v;
    int status = api_team_view(call, team, &v);
    if (!status && !out_p)
        status = util_error(ORMA_ERR_ARG, "%s: %s is NULL", call, want_size ? "size_p" : "rank_p");
    if (!status)
        *out_p = want_size ? v.size : v.rank;
    return status;
}

int orma_team_rank(orma_team team, int *rank_p) { return api_team_query("orma_team_rank", team, rank_p, 0); }

int orma_team_size(orma_team team, int *size_p) { return api_team_query("orma_team_size", team, size_p, 1); }

int api_team_register(struct rma_split_team *t, orma_team *team_p)
{
    orma_team h = malloc(sizeof *h);
    if (h && api_nteams == api_teams_cap) {
        size_t cap = api_teams_cap ? 2 * api_teams_cap : 16;
        orma_team *grown = realloc(api_teams, cap * sizeof *grown);
        if (grown) {
            api_teams = grown;
            api_teams_cap = cap;
        }
    }
    if (!h || api_nteams == api_teams_cap) {
        free(h);
        return util_error(ORMA_ERR_NOMEM, "out of memory for a team handle");
    }
    *h = (struct orma_team_s){API_TEAM_MAGIC, t};
    api_teams[api_nteams++] = h;
    *team_p = h;
    return ORMA_SUCCESS;
}

int orma_team_split(orma_team parent, int colour, int key, orma_team *newteam_p)
{
    const char *call = "orma_team_split";
    struct api_team_view v;
    int status = api_team_view(call, parent, &v);
    if (status)
        return status; /* no parent to take part in */
    int arg = ORMA_SUCCESS;
    if (!newteam_p)
        arg = util_error(ORMA_ERR_ARG, "%s: newteam_p is NULL", call);
    else if (colour < 0 && colour != ORMA_UNDEFINED)
        arg = util_error(ORMA_ERR_ARG, "%s: colour %d at rank %d is neither >= 0 nor ORMA_UNDEFINED", call, colour,
                         v.rank);
    struct rma_split_team *t = NULL;
    status = rma_team_split(v.parent, v.world, colour, key, arg, &t);
    if (!status && t) {
        status = api_team_register(t, newteam_p);
        if (status)
            rma_team_free(t);
    } else if (!status) {
        *newteam_p = ORMA_TEAM_NULL;
    }
    return status;
}

int orma_team_translate_rank(orma_team src, int src_rank, orma_team dest, int *dest_rank_p)
{
    const char *call = "orma_team_translate_rank";
    struct api_team_view s, d;
    int status = api_team_view(call, src, &s);
    if (!status)
        status = api_team_view(call, dest, &d);
    if (status)
        return status;
    if (!dest_rank_p)
        return util_error(ORMA_ERR_ARG, "%s: dest_rank_p is NULL", call);
    if (src_rank < 0 || src_rank >= s.size)
        return util_error(ORMA_ERR_RANK, "%s: rank %d is not in the source team (0..%d)", call, src_rank, s.size - 1);
    int w = s.world ? s.world[src_rank] : src_rank;
    *dest_rank_p = ORMA_UNDEFINED;
    for (int r = 0; r < d.size; r++)
        if ((d.world ? d.world[r] : r) == w) {
            *dest_rank_p = r;
            break;
        }
    return ORMA_SUCCESS;
}

int orma_team_barrier(orma_team team)
{
    struct api_team_view v;
    int status = api_team_view("orma_team_barrier", team, &v);
    if (status)
        return status;
    if (team == ORMA_TEAM_WORLD)
        rma_world_barrier();
    else if (team == ORMA_TEAM_SHARED)
        boot_job_barrier();
    else
        status = rma_team_barrier(v.split);
    return status;
}

int orma_team_free(orma_team *team_p)
{
    if (!team_p)
        return util_error(ORMA_ERR_ARG, "orma_team_free: team_p is NULL");
    if (*team_p == ORMA_TEAM_WORLD || *team_p == ORMA_TEAM_SHARED)
        return util_error(ORMA_ERR_ARG, "orma_team_free: %s is predefined",
                          *team_p == ORMA_TEAM_WORLD ? "ORMA_TEAM_WORLD" : "ORMA_TEAM_SHARED");
    struct api_team_view v;
    int status = api_team_view("orma_team_free", *team_p, &v);
    if (status)
        return status;
    for (size_t i = 0; i < api_nteams; i++)
        if (api_teams[i] == *team_p) {
            api_teams[i] = api_teams[--api_nteams];
            break;
        }
    rma_team_free(v.split);
    (*team_p)->magic = 0;
    free(*team_p);
    *team_p = ORMA_TEAM_NULL;
    return ORMA_SUCCESS;
}

/* The creation calls on a team: a bad team fails this rank alone (there is
 * no team to take part in); everything else as the job's calls. */
static int api_team_win(const char *call, orma_team team, int flavor, void *base, size_t size, int disp_unit,
                        orma_info info, void **base_p, orma_win *win_p)
{
    struct api_team_view v;
    int status = api_team_view(call, team, &v);
    if (status)
        return status;
    return api_win_create_team(v.team, flavor, base, size, disp_unit, info, base_p, win_p, ORMA_SUCCESS);
}

int orma_win_allocate_team(orma_team team, size_t size, int disp_unit, orma_info info, void **base_p,
                           orma_win *win_p)
{
    return api_team_win("orma_win_allocate_team", team, ORMA_WIN_FLAVOR_ALLOCATE, NULL, size, disp_unit, info,
                        base_p, win_p);
}

int orma_win_allocate_shared_team(orma_team team, size_t size, int disp_unit, orma_info info, void **base_p,
                                  orma_win *win_p)
{
    return api_team_win("orma_win_allocate_shared_team", team, ORMA_WIN_FLAVOR_SHARED, NULL, size, disp_unit, info,
                        base_p, win_p);
}

int orma_win_create_team(orma_team team, void *base, size_t size, int disp_unit, orma_info info, orma_win *win_p)
{
    return api_team_win("orma_win_create_team", team, ORMA_WIN_FLAVOR_CREATE, base, size, disp_unit, info, NULL,
                        win_p);
}

int orma_win_create_dynamic_team(orma_team team, orma_info info, orma_win *win_p)
{
    return api_team_win("orma_win_create_dynamic_team", team, ORMA_WIN_FLAVOR_DYNAMIC, NULL, 0, 1, info, NULL,
                        win_p);
}

void api_team_release_all(void)
{
    while (api_nteams) {
        orma_team h = api_teams[--api_nteams];
        rma_team_free(h->split);
        h->magic = 0;
        free(h);
    }
    free(api_teams);
    api_teams = NULL;
    api_teams_cap = 0;
    free(api_shared_world);
    api_shared_world = NULL;
}
