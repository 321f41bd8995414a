/* api_team.h -- windows over a team of the job's ranks instead of all of
 * them: the native teams (api_team.c), and liborma-mpi's windows over the
 * ranks of an MPI communicator, exchanging the creation records with the
 * communicator's own allgather.  Everything after creation is the same as for any window; its
 * ranks are the team's. */
#ifndef ORMA_API_TEAM_H
#define ORMA_API_TEAM_H

#include "rma_win.h"

#include <orma.h>

/* As orma_win_<flavor> (base: CREATE; base_p: ALLOCATE, SHARED; size and
 * disp_unit: not DYNAMIC), collective over team (NULL: the whole job).
 * arg_status: the caller's own verdict on its arguments, failing the
 * creation at every rank of the team when not ORMA_SUCCESS. */
int api_win_create_team(const struct rma_team *team, int flavor, void *base, size_t size, int disp_unit,
                        orma_info info, void **base_p, orma_win *win_p, int arg_status);

/* What every call needs of a team, whichever kind. */
struct api_team_view {
    const struct rma_team *team; /* for window creation and splits; NULL: the world's default */
    const struct rma_team *parent; /* as a parent of a split (never NULL) */
    const int *world;              /* world rank of each team rank; NULL: the same number */
    int rank, size;
    struct rma_split_team *split;  /* made by a split, or NULL */
};

/* The view of a handle (ORMA_ERR_ARG naming call when it is not a team). */
int api_team_view(const char *call, orma_team team, struct api_team_view *v);

/* A new handle for t (split, spawned, connected), held until
 * orma_team_free or orma_finalize. */
struct rma_split_team;
int api_team_register(struct rma_split_team *t, orma_team *team_p);

/* Whether team is a handle this rank holds now. */
int api_team_held(orma_team team);

/* api_spawn.c: in orma_init, a spawned rank joins the team it shares with
 * its parents; a name for a new bridge segment (of this rank's job). */
int api_parent_join(void);
void api_bridge_name(char *name, size_t len);

/* What orma_spawn and the port calls share (api_spawn.c, api_port.c).
 * Collective over v's team: each rank gives its verdict on its own
 * arguments (arg) and learns every rank's pid (pids: v->size of them);
 * returns arg, else the first other rank's failure. */
int api_bridge_hellos(const char *call, const struct api_team_view *v, int arg, int32_t *pids);
/* status, or when that is fine the root's (root_status), as this rank
 * reports it. */
int api_root_verdict(const char *call, int status, int at_root, int root, int root_status);
/* The last step of every way to a bridge t: all members meet, and t
 * becomes this rank's handle *team_p; on failure (status, or theirs) t
 * goes. */
int api_bridge_join(struct rma_split_team *t, int status, orma_team *team_p);

/* orma_finalize: the teams this rank still holds (orma_team_split) go. */
void api_team_release_all(void);

#endif
