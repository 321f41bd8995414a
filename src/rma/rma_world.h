/* rma_world.h -- the native API's job when mpirun started it: every rank of
 * MPI_COMM_WORLD, through the module of the launcher's MPI (net_world.h).
 * The ranks of each node are one orma job over shared memory, as under
 * liborma-mpi; the world is a team over them all whose windows reach the
 * other nodes (or, with ORMA_TRANSPORT=net, every other rank) over the net
 * transport.  Without mpirun (or with ORMA_MPIRUN=off) there is no world
 * and the job is orma-run's. */
#ifndef ORMA_RMA_WORLD_H
#define ORMA_RMA_WORLD_H

#include "rma_win.h"

/* Before boot_job_start: joins the MPI job when the environment says mpirun
 * started this process (ORMA_MPIRUN), describing this node's ranks to
 * boot_job_external.  ORMA_SUCCESS also when there is none to join. */
int rma_world_start(void);

/* After boot_job_start: every rank's status becomes everybody's (all or
 * none), so that a rank that failed cannot leave the others waiting. */
int rma_world_agree(int status);

/* The world as a team, or NULL when there is no world. */
const struct rma_team *rma_world_team(void);

/* The world's rank and size (the job's without one), and its barrier
 * (progressing the net transport while it waits). */
int rma_world_rank(void);
int rma_world_size(void);
void rma_world_barrier(void);

/* Last: the module's finish (MPI_Finalize when orma initialized MPI). */
/* Under an MPI launcher: ends every rank of the job (MPI_Abort); returns
 * at once otherwise. */
void rma_world_abort(int code);
void rma_world_finish(void);

#endif
