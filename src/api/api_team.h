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

/* orma_finalize: the teams this rank still holds (orma_team_split) go. */
void api_team_release_all(void);

#endif
