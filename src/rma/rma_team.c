/* rma_team.c -- see rma_team.h. */
#include "rma_team.h"
#include "boot_job.h"
#include "boot_peer.h"
#include "rma_world.h"
#include "shm_barrier.h"
#include "util_log.h"
#include "util_status.h"
#include "util_time.h"
#include "util_wait.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

#define RMA_TEAM_MAGIC 0x7465616du /* "team" */
#define RMA_TEAM_OPEN_TIMEOUT_NS (UINT64_C(60) * 1000000000)

/* The head of a team's segment, written by its creator before anyone else
 * opens it: who the members are, so that a wait for one that died ends.
 * Followed, from a cache line on, by the barrier and the exchange slots. */
struct rma_team_head {
    _Atomic uint32_t magic; /* set last */
    uint32_t n;
    int32_t pids[];
};

static size_t rma_team_head_len(int n)
{
    return (sizeof(struct rma_team_head) + (size_t)n * sizeof(int32_t) + 63) / 64 * 64;
}

static size_t rma_team_seg_len(int n)
{
    return rma_team_head_len(n) + shm_barrier_size(n) + (size_t)n * RMA_TEAM_SLOT;
}

static struct rma_team_head *rma_team_head(struct rma_split_team *t) { return t->seg.base; }

static void *rma_team_barrier_mem(struct rma_split_team *t)
{
    return (char *)t->seg.base + rma_team_head_len(t->team.size);
}

static char *rma_team_slots(struct rma_split_team *t)
{
    return (char *)rma_team_barrier_mem(t) + shm_barrier_size(t->team.size);
}

static int rma_team_alive(void *ctx, int r)
{
    struct rma_split_team *t = ctx;
    return boot_pid_alive(rma_team_head(t)->pids[r]);
}

static int rma_team_gone(struct rma_split_team *t, int r, const char *what)
{
    return util_error(ORMA_ERR_PEER, "%s: rank %d of the team (pid %ld) is gone", what, r,
                      (long)rma_team_head(t)->pids[r]);
}

int rma_team_barrier(struct rma_split_team *t)
{
    if (t->team.size == 1)
        return ORMA_SUCCESS;
    struct shm_watch watch = {rma_team_alive, t};
    int gone = shm_barrier_wait_watched(rma_team_barrier_mem(t), t->team.size, t->team.rank, &t->episode, &watch);
    return gone < 0 ? ORMA_SUCCESS : rma_team_gone(t, gone, "team barrier");
}

static int rma_team_allgather(void *ctx, const void *mine, size_t len, void *all)
{
    struct rma_split_team *t = ctx;
    if (len > RMA_TEAM_SLOT)
        return util_error(ORMA_ERR_ARG, "a team's exchange takes at most %d bytes a rank, not %zu", RMA_TEAM_SLOT,
                          len);
    struct shm_watch watch = {rma_team_alive, t};
    int gone = shm_allgather_watched(rma_team_barrier_mem(t), rma_team_slots(t), RMA_TEAM_SLOT, t->team.size,
                                     t->team.rank, &t->episode, mine, len, all, &watch);
    return gone < 0 ? ORMA_SUCCESS : rma_team_gone(t, gone, "team exchange");
}

static void rma_team_init(struct rma_split_team *t, int rank, int size)
{
    t->team.rank = rank;
    t->team.size = size;
    t->team.allgather = rma_team_allgather;
    t->team.ctx = t;
    t->team.shm_only = 1;
}

/* The creator's part: the segment, with its members' pids. */
static int rma_team_seg_make(struct rma_split_team *t, const char *name, const int32_t *pids)
{
    int status = shm_seg_create(name, rma_team_seg_len(t->team.size), &t->seg);
    if (status)
        return status;
    struct rma_team_head *h = rma_team_head(t);
    h->n = (uint32_t)t->team.size;
    memcpy(h->pids, pids, (size_t)t->team.size * sizeof *pids);
    atomic_store_explicit(&h->magic, RMA_TEAM_MAGIC, memory_order_release);
    return ORMA_SUCCESS;
}

/* Everybody else's part.  wait: the creator may not have made it yet, so
 * look again until it has (for a minute). */
static int rma_team_seg_join(struct rma_split_team *t, const char *name, int wait)
{
    struct util_backoff backoff = {0};
    uint64_t deadline = util_time_ns() + RMA_TEAM_OPEN_TIMEOUT_NS;
    for (;;) {
        /* Until it is there, "not there yet" and "not sized yet" are expected. */
        int saved = util_log_level;
        if (wait)
            util_log_level = UTIL_LOG_NONE;
        int status = shm_seg_open(name, rma_team_seg_len(t->team.size), &t->seg);
        util_log_level = saved;
        if (!status && atomic_load_explicit(&rma_team_head(t)->magic, memory_order_acquire) == RMA_TEAM_MAGIC)
            break;
        if (!status)
            shm_seg_unmap(&t->seg);
        if (status && !wait)
            return status;
        if (util_time_ns() > deadline)
            return util_error(ORMA_ERR_PEER, "team segment %s did not appear within a minute", name);
        util_backoff_pause(&backoff);
    }
    struct rma_team_head *h = rma_team_head(t);
    if (h->n != (uint32_t)t->team.size ||
        h->pids[t->team.rank] != (int32_t)getpid())
        return util_error(ORMA_ERR_PEER, "team segment %s is not this team's (%u ranks, not %d)", name, h->n,
                          t->team.size);
    return ORMA_SUCCESS;
}

/* What each rank of the parent says of itself in a split. */
struct rma_split_rec {
    int32_t colour, key, world, job_rank, pid;
    uint64_t node; /* boot_node_id: who can share memory */
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
                                 (int32_t)getpid(), boot_node_id(), rma_team_seq++, ""};
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
    int m = 0, lead = -1, rank = 0;
    char name[SHM_NAME_MAX] = "";
    int32_t *pids = NULL;
    if (!status && t) {
        m = rma_team_members(recs, n, colour, members);
        for (int i = 0; i < m; i++)
            if (members[i] == parent->rank)
                rank = i;
        rma_team_init(t, rank, m);
        lead = members[0];
        t->world_ranks = malloc((size_t)m * sizeof *t->world_ranks);
        pids = malloc((size_t)m * sizeof *pids);
        if (!t->world_ranks || !pids)
            status = util_error(ORMA_ERR_NOMEM, "orma_team_split: out of memory for a team of %d ranks", m);
        for (int i = 0; i < m && !status; i++) {
            t->world_ranks[i] = recs[members[i]].world;
            pids[i] = recs[members[i]].pid;
            if (recs[members[i]].node != mine.node)
                status = util_error(ORMA_ERR_UNSUPPORTED, "orma_team_split: rank %d of the parent would join rank "
                                    "%d's team of colour %d but is on another node; a team's ranks must share "
                                    "memory", members[i], parent->rank, colour);
        }
        boot_name_of(name, sizeof name, recs[lead].token, "t%u-r%d", recs[lead].seq, recs[lead].job_rank);
        if (!status && t->team.rank == 0)
            status = rma_team_seg_make(t, name, pids);
    }
    free(pids);
    status = rma_team_agree(parent, status, "orma_team_split");
    if (!status && t && t->team.rank != 0)
        status = rma_team_seg_join(t, name, 0);
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

int rma_bridge_create(const char *name, int rank, int n, const int32_t *pids, struct rma_split_team **t_p)
{
    struct rma_split_team *t = calloc(1, sizeof *t);
    if (!t)
        return util_error(ORMA_ERR_NOMEM, "out of memory for a team of %d ranks", n);
    rma_team_init(t, rank, n);
    t->creator = 1;
    int status = rma_team_seg_make(t, name, pids);
    if (status) {
        free(t);
        return status;
    }
    *t_p = t;
    return ORMA_SUCCESS;
}

int rma_bridge_open(const char *name, int rank, int n, struct rma_split_team **t_p)
{
    struct rma_split_team *t = calloc(1, sizeof *t);
    if (!t)
        return util_error(ORMA_ERR_NOMEM, "out of memory for a team of %d ranks", n);
    rma_team_init(t, rank, n);
    int status = rma_team_seg_join(t, name, 1);
    if (status) {
        rma_team_free(t);
        return status;
    }
    *t_p = t;
    return ORMA_SUCCESS;
}

/* What a member of a new bridge says of itself once all have it. */
struct rma_bridge_rec {
    int32_t world;
    char token[BOOT_TOKEN_MAX];
};

int rma_bridge_meet(struct rma_split_team *t, int world_rank)
{
    int n = t->team.size;
    struct rma_bridge_rec mine = {world_rank, ""}, *recs = calloc((size_t)n, sizeof *recs);
    snprintf(mine.token, sizeof mine.token, "%s", boot_job.token);
    t->world_ranks = malloc((size_t)n * sizeof *t->world_ranks);
    int status = recs && t->world_ranks ? ORMA_SUCCESS
                                        : util_error(ORMA_ERR_NOMEM, "out of memory for a team of %d ranks", n);
    /* Every member takes part even so: the others would wait for it. */
    int xrc = rma_team_allgather(t, &mine, sizeof mine, recs ? (void *)recs : (void *)&mine);
    if (!status)
        status = xrc;
    if (t->creator)
        shm_seg_unlink(t->seg.name); /* mapped by every member, or the team failed */
    for (int r = 0; r < n && !status; r++)
        t->world_ranks[r] = strncmp(recs[r].token, mine.token, sizeof mine.token) ? -1 - rma_team_head(t)->pids[r]
                                                                                  : recs[r].world;
    free(recs);
    return status;
}
