/* rma_team.h -- teams made by splitting another (orma_team_split): an
 * ordered subset of a parent team's ranks, chosen by colour and ordered by
 * key, whose collectives (allgather, barrier) run over a shared segment of
 * their own, so that only the team's ranks take part.  Its ranks must share
 * this node's orma job (the world's ranks on other nodes have no segment in
 * common with these: such a split fails, at every member alike).
 *
 * The job (every rank of this node's orma job) is a team too: rma_job_team. */
#ifndef ORMA_RMA_TEAM_H
#define ORMA_RMA_TEAM_H

#include "rma_win.h"
#include "shm_seg.h"

#include <stdint.h>

struct rma_split_team {
    struct rma_team team; /* rank, size; allgather over seg; ctx: this */
    int *world_ranks;     /* world_ranks[r]: team rank r's rank in this
                             rank's world, or -1 - its pid (a rank of
                             another job): a rank's identity in any team */
    struct shm_seg seg;   /* members' pids, barrier and exchange slots */
    uint32_t episode;     /* of the segment's barrier */
    int creator;          /* this rank made the segment (a bridge's) */
};

/* The ranks of this node's orma job, as a team (boot_job). */
const struct rma_team *rma_job_team(void);

/* Every rank of the job: the world under mpirun (rma_world.h), else the
 * job's own team.  What a window made without a team spans. */
const struct rma_team *rma_all_team(void);

/* Every rank's status becomes everybody's: the first failure among the
 * team's ranks, reported once at each (what: the step, for the message). */
int rma_team_agree(const struct rma_team *team, int status, const char *what);

/* Collective over parent: the ranks giving the same colour (>= 0) form one
 * new team, ordered by key, then by rank in parent.  parent_world[r] is
 * parent rank r's world rank (NULL: the same number).  colour < 0: this rank
 * joins none and *team_p is NULL.  arg_status: the caller's verdict on its
 * own arguments (this rank still takes part).  On error no rank of the
 * parent has a new team (the verdict is agreed over the parent). */
int rma_team_split(const struct rma_team *parent, const int *parent_world, int colour, int key, int arg_status,
                   struct rma_split_team **team_p);

/* Collective over the team.  ORMA_ERR_PEER when a rank of it is gone (a
 * rank of another job, which may end without ending this one). */
int rma_team_barrier(struct rma_split_team *t);

/* Teams over ranks of several jobs on this machine (bridges: orma_spawn,
 * ports).  One member creates the segment of the n members, with their
 * pids, under name (of its own job: boot_job_name); each other member opens
 * it with its rank once it knows that it exists; then all meet
 * (rma_bridge_meet: every member, with its world rank): the name is
 * unlinked, and each learns which members share its world. */
int rma_bridge_create(const char *name, int rank, int n, const int32_t *pids, struct rma_split_team **t_p);
int rma_bridge_open(const char *name, int rank, int n, struct rma_split_team **t_p);
int rma_bridge_meet(struct rma_split_team *t, int world_rank);

/* Local: this rank's part of the team goes (windows made on it live on). */
void rma_team_free(struct rma_split_team *t);

#endif
