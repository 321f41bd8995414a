/* rma_team.c -- see rma_team.h. */
#include "rma_team.h"
#include "boot_job.h"
#include "rma_world.h"
#include "shm_barrier.h"
#include "util_status.h"

#include <stdlib.h>
#include <string.h>

#define RMA_TEAM_SLOT BOOT_SLOT_SIZE /* bytes one rank gives an allgather, as the job's */

static int rma_job_allgather(void *ctx, const void *mine, size_t len, void *all)
{
    (void)ctx;
    boot_job_allgather(mine, len, all);
    return 0;
}

const struct rma_team *rma_job_team(void)
{
    static struct rma_team job;
    job = (struct rma_team){.rank = boot_job.rank, .size = boot_job.size, .allgather = rma_job_allgather};
    return &job;
}

const struct rma_team *rma_all_team(void)
{
    const struct rma_team *world = rma_world_team();
    return world ? world : rma_job_team();
}

int rma_team_agree(const struct rma_team *team, int status, const char *what)
{
    int32_t mine = status, *all = malloc((size_t)team->size * sizeof *all);
    if (!all)
        return util_error(ORMA_ERR_NOMEM, "out of memory during %s", what);
    if (team->allgather(team->ctx, &mine, sizeof mine, all)) {
        free(all);
        return util_error(ORMA_ERR_PEER, "%s: the exchange between the team's ranks failed", what);
    }
    int result = status;
    for (int r = 0; r < team->size && !result; r++)
        if (all[r])
            result = util_error(ORMA_ERR_PEER, "%s failed at rank %d (%s)", what, r, orma_strerror(all[r]));
    free(all);
    return result;
}

static void *rma_team_barrier_mem(struct rma_split_team *t) { return t->seg.base; }

static char *rma_team_slots(struct rma_split_team *t)
{
    return (char *)t->seg.base + shm_barrier_size(t->team.size);
}

void rma_team_barrier(struct rma_split_team *t)
{
    if (t->team.size > 1)
        shm_barrier_wait(rma_team_barrier_mem(t), t->team.size, t->team.rank, &t->episode);
}

static int rma_team_allgather(void *ctx, const void *mine, size_t len, void *all)
{
    struct rma_split_team *t = ctx;
    if (len > RMA_TEAM_SLOT)
        return util_error(ORMA_ERR_ARG, "a team's exchange takes at most %d bytes a rank, not %zu", RMA_TEAM_SLOT,
                          len);
    shm_allgather(rma_team_barrier_mem(t), rma_team_slots(t), RMA_TEAM_SLOT, t->team.size, t->team.rank,
                  &t->episode, mine, len, all);
    return 0;
}

/* What each rank of the parent says of itself in a split. */
struct rma_split_rec {
    int32_t colour, key, world, job_rank;
    uint32_t seq; /* the splits this rank has made: its segment's name when it leads */
    char token[40]; /* its orma job's: the same on one node */
};

static uint32_t rma_team_seq;

/* The parent ranks of colour, ordered by key and then by parent rank (an
 * insertion sort: teams are small, and it is stable). */
static int rma_team_members(const struct rma_split_rec *recs, int n, int colour, int *members)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (recs[i].colour != colour)
            continue;
        int j = m++;
        while (j > 0 && recs[members[j - 1]].key > recs[i].key) {
            members[j] = members[j - 1];
            j--;
        }
        members[j] = i;
    }
    return m;
}

int rma_team_split(const struct rma_team *parent, const int *parent_world, int colour, int key, int arg_status,
                   struct rma_split_team **team_p)
{
    *team_p = NULL;
    if (arg_status)
        colour = -1;
    int n = parent->size, status = arg_status;
    struct rma_split_rec mine = {colour < 0 ? -1 : colour, key,
                                 parent_world ? parent_world[parent->rank] : parent->rank, boot_job.rank,
                                 rma_team_seq++, ""};
    memcpy(mine.token, boot_job.token, sizeof mine.token);
    struct rma_split_rec *recs = calloc((size_t)n, sizeof *recs);
    int *members = calloc((size_t)n, sizeof *members);
    struct rma_split_team *t = colour >= 0 ? calloc(1, sizeof *t) : NULL;
    if (!recs || !members || (colour >= 0 && !t)) {
        free(recs);
        free(members);
        free(t);
        /* the exchange cannot be taken part in without the room for it */
        return util_error(ORMA_ERR_NOMEM, "orma_team_split: out of memory for a parent of %d ranks", n);
    }
    if (parent->allgather(parent->ctx, &mine, sizeof mine, recs) && !status)
        status = util_error(ORMA_ERR_PEER, "orma_team_split: the exchange between the parent's ranks failed");
    int m = 0, lead = -1;
    char name[SHM_NAME_MAX] = "";
    if (!status && t) {
        m = rma_team_members(recs, n, colour, members);
        for (int i = 0; i < m; i++)
            if (members[i] == parent->rank)
                t->team.rank = i;
        t->team.size = m;
        t->team.allgather = rma_team_allgather;
        t->team.ctx = t;
        t->team.shm_only = 1;
        lead = members[0];
        t->world_ranks = malloc((size_t)m * sizeof *t->world_ranks);
        if (!t->world_ranks)
            status = util_error(ORMA_ERR_NOMEM, "orma_team_split: out of memory for a team of %d ranks", m);
        for (int i = 0; i < m && !status; i++) {
            t->world_ranks[i] = recs[members[i]].world;
            if (strncmp(recs[members[i]].token, mine.token, sizeof mine.token))
                status = util_error(ORMA_ERR_UNSUPPORTED, "orma_team_split: rank %d of the parent would join rank "
                                    "%d's team of colour %d but is on another node; a team's ranks must share "
                                    "memory", members[i], parent->rank, colour);
        }
        boot_job_name(name, sizeof name, "t%u-r%d", recs[lead].seq, recs[lead].job_rank);
        if (!status && t->team.rank == 0)
            status = shm_seg_create(name, shm_barrier_size(m) + (size_t)m * RMA_TEAM_SLOT, &t->seg);
    }
    status = rma_team_agree(parent, status, "orma_team_split");
    if (!status && t && t->team.rank != 0)
        status = shm_seg_open(name, shm_barrier_size(m) + (size_t)m * RMA_TEAM_SLOT, &t->seg);
    status = rma_team_agree(parent, status, "orma_team_split");
    if (t && t->team.rank == 0 && t->seg.base)
        shm_seg_unlink(name); /* every member has it mapped, or the split failed */
    free(recs);
    free(members);
    if (status) {
        if (t) {
            if (t->seg.base)
                shm_seg_unmap(&t->seg);
            free(t->world_ranks);
            free(t);
        }
        return status;
    }
    *team_p = t;
    return ORMA_SUCCESS;
}

void rma_team_free(struct rma_split_team *t)
{
    if (!t)
        return;
    if (t->seg.base)
        shm_seg_unmap(&t->seg);
    free(t->world_ranks);
    free(t);
}
