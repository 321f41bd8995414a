/* rma_win_create.c -- collective creation and freeing of windows.
 *
 * Every rank describes its part in a record (how to reach its memory), the
 * records are allgathered, every rank maps what it can reach directly, all
 * agree that everything worked, and only then are the names unlinked: from
 * there on nothing of the window is left in /dev/shm, however the job ends.
 *
 * A window spans a team: the job's ranks, or a subset of them (an MPI
 * communicator).  Teams overlap and create windows in different orders, so
 * every shared object is named by the process that creates it, with its own
 * creation count and its job rank, and the names travel in the records. */
#include "rma_win.h"
#include "rma_box.h"
#include "rma_gather.h"
#include "rma_heap.h"
#include "rma_legal.h"
#include "rma_mt.h"
#include "rma_notify.h"
#include "rma_race.h"
#include "rma_team.h"
#include "rma_watch.h"
#include "xport_net.h"
#include "boot_job.h"
#include "boot_peer.h"
#include "shm_barrier.h"
#include "util_config.h"
#include "util_status.h"
#include "xport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What a rank's part offers the others, in its record: the targets'
 * transports are chosen from it (rma_win_map_target). */
enum rma_exposed {
    RMA_EXPOSED_NONE,    /* no memory */
    RMA_EXPOSED_SEGMENT, /* all of it in a shared segment (seg, at seg_off) */
    RMA_EXPOSED_PRIVATE, /* private memory at base, for system calls */
    RMA_EXPOSED_PART,    /* the same, its whole pages also in segment seg
                            (part_len bytes from offset seg_off) */
    RMA_EXPOSED_DYNAMIC  /* regions attached later (rma_dynamic.c) */
};

struct rma_win_record {
    int32_t status;
    int32_t pid;
    int32_t job_rank;
    uint32_t id;      /* the creation count at this rank: its objects' names */
    int32_t disp_unit;
    int32_t exposed;  /* enum rma_exposed */
    uint32_t hints;   /* struct rma_win_hints, packed: all ranks must agree */
    int32_t threads;  /* ORMA_THREAD_MULTIPLE (rma_stripe.h) */
    uint64_t base;    /* PRIVATE, PART: the address at the owner */
    uint64_t size;
    uint64_t seg_off; /* SEGMENT: where the part starts in the segment;
                         PART: the offset of the first adopted byte */
    uint64_t part_len;/* PART: the adopted bytes, the whole segment */
    char seg[48];     /* SEGMENT, PART: the segment's name after the job prefix */
    char token[BOOT_TOKEN_MAX]; /* its job's: the prefix of its objects' names
                                   (a team may span jobs, boot_peer.h) */
};

_Static_assert(sizeof(struct rma_win_record) <= BOOT_SLOT_SIZE, "record must fit an exchange slot");

static _Atomic uint32_t rma_win_next_id;

/* Alone on this node: nobody else opens our shared objects, so their names
 * go at once. */
static int rma_win_alone(const struct rma_win *win) { return win->nlocal == 1; }

static int rma_win_create_ctl(struct rma_win *win)
{
    char name[SHM_NAME_MAX];
    boot_job_name(name, sizeof name, "w%u-r%d-c", win->id, boot_job.rank);
    size_t len = rma_ctl_size((uint32_t)win->nranks, shm_barrier_size(win->nlocal)), box_off = 0;
    /* Boxes (rma_box.h) where peers may expose private memory: create
     * windows, not too many ranks, more than one of them here.  Not under
     * the race checker: a put held in a box lands at the closing fence,
     * after the target's own stores of the epoch, which the check of put
     * data at the close then cannot see (rma_race.h); the direct path
     * lands it at the call, as on allocated memory. */
    if (win->flavor == ORMA_WIN_FLAVOR_CREATE && util_config.box && win->nlocal > 1 &&
        win->nranks <= RMA_BOX_MAX_RANKS && !util_config.race && !win->hints.check_race) {
        box_off = (len + RMA_BOX_BYTES - 1) / RMA_BOX_BYTES * RMA_BOX_BYTES;
        len = box_off + (size_t)win->nranks * (size_t)win->nranks * RMA_BOX_BYTES;
    }
    int status = shm_seg_create(name, len, &win->ctl_seg);
    if (status)
        return status;
    if (rma_win_alone(win))
        shm_seg_unlink(name);
    win->ctl = win->ctl_seg.base;
    win->ctl->nranks = (uint32_t)win->nranks;
    win->ctl->box_off = box_off;
    win->ctl->magic = RMA_CTL_MAGIC;
    return ORMA_SUCCESS;
}

static int rma_win_open_ctl(struct rma_win *win, const struct rma_win_record *rec0)
{
    char name[SHM_NAME_MAX];
    boot_name_of(name, sizeof name, rec0->token, "w%u-r%d-c", rec0->id, rec0->job_rank);
    int status = shm_seg_open(name, 0, &win->ctl_seg);
    if (status)
        return status;
    win->ctl = win->ctl_seg.base;
    if (win->ctl->magic != RMA_CTL_MAGIC || win->ctl->nranks != (uint32_t)win->nranks)
        return util_error(ORMA_ERR_PEER, "control segment %s of window %u is not valid", name, win->id);
    return ORMA_SUCCESS;
}

/* create on private memory: its pages into a segment peers map
 * (shm_adopt.h) -- those it touches in a process of one thread, else its
 * whole ones (ORMA_ADOPT=1 always) -- unless ORMA_ADOPT=0 or they cannot
 * be moved. */
static int rma_win_adopt(struct rma_win *win, void *base, size_t size, struct rma_win_record *rec)
{
    if (!util_config.adopt || win->nranks == 1)
        return ORMA_SUCCESS;
    char name[SHM_NAME_MAX];
    snprintf(rec->seg, sizeof rec->seg, "w%u-r%d-a", win->id, boot_job.rank);
    boot_job_name(name, sizeof name, "%s", rec->seg);
    int flags = SHM_ADOPT_WHOLE_BLOCK | (util_config.adopt >= 2 ? SHM_ADOPT_AROUND : 0);
    int status = shm_adopt(base, size, name, shm_page_size(), flags, &win->adopt);
    if (status || !win->adopt.addr)
        return status;
    char *a = win->adopt.addr, *b = base;
    if (a <= b && win->adopt.len - (size_t)(b - a) >= size) {
        /* All of it adopted (page-aligned memory, or a malloc'd block with
         * its mapping): the plain direct path, the window seg_off bytes
         * into the segment. */
        rec->seg_off = (uint64_t)(b - a);
        rec->exposed = RMA_EXPOSED_SEGMENT;
        return ORMA_SUCCESS;
    }
    rec->seg_off = (uint64_t)(a - b);
    rec->part_len = win->adopt.len;
    rec->exposed = RMA_EXPOSED_PART;
    return ORMA_SUCCESS;
}

/* Where the memory of allocate and allocate_shared windows starts in its
 * segment: half a page in, not at the page's start.  Large buffers of the
 * programs that copy to and from a window mostly start a few bytes into a
 * page (glibc's large malloc'd blocks 16 bytes in, page-aligned ones at 0);
 * a copy or an accumulate between addresses a few bytes apart modulo 4 KB
 * has its loads wait on unrelated stores (4K aliasing): here a get of
 * 64 KB into a malloc'd buffer took 0.70 us from page offset 0 against
 * 0.53 from the middle, an accumulate of 16 KB 0.25 against 0.15.  Half a
 * page keeps the window as far as can be from both, and 64-byte aligned. */
#define RMA_WIN_SKEW 2048

/* This rank's part: create what must be created, fill the record. */
static int rma_win_local_part(struct rma_win *win, void *base, size_t size, struct rma_win_record *rec)
{
    char name[SHM_NAME_MAX];
    rec->exposed = RMA_EXPOSED_NONE;
    switch (win->flavor) {
    case ORMA_WIN_FLAVOR_ALLOCATE:
        if (!size)
            return ORMA_SUCCESS;
        snprintf(rec->seg, sizeof rec->seg, "w%u-r%d", win->id, boot_job.rank);
        boot_job_name(name, sizeof name, "%s", rec->seg);
        int status = size > SIZE_MAX - RMA_WIN_SKEW
                         ? util_error(ORMA_ERR_NOMEM, "a window of %zu bytes exceeds the address space", size)
                         : shm_seg_create(name, size + RMA_WIN_SKEW, &win->data_seg);
        if (status)
            return status;
        if (rma_win_alone(win))
            shm_seg_unlink(name);
        win->base = (char *)win->data_seg.base + RMA_WIN_SKEW;
        rec->seg_off = RMA_WIN_SKEW;
        rec->exposed = RMA_EXPOSED_SEGMENT;
        return ORMA_SUCCESS;
    case ORMA_WIN_FLAVOR_CREATE:
        win->base = base;
        if (!size)
            return ORMA_SUCCESS;
        const struct rma_heap_block *b = rma_heap_find(base, size);
        if (b) {
            rec->exposed = RMA_EXPOSED_SEGMENT;
            snprintf(rec->seg, sizeof rec->seg, "%s", b->seg.name + strlen(boot_job.prefix));
            rec->seg_off = (uint64_t)((char *)base - (char *)b->base);
            return ORMA_SUCCESS;
        }
        rec->exposed = RMA_EXPOSED_PRIVATE;
        rec->base = (uint64_t)(uintptr_t)base;
        return rma_win_adopt(win, base, size, rec);
    case ORMA_WIN_FLAVOR_DYNAMIC:
        rec->exposed = RMA_EXPOSED_DYNAMIC;
        return ORMA_SUCCESS;
    case ORMA_WIN_FLAVOR_SHARED:
        rec->exposed = RMA_EXPOSED_SEGMENT; /* the segment comes once all sizes are known */
        return ORMA_SUCCESS;
    }
    return util_error(ORMA_ERR_INTERNAL, "unknown window flavour %d", win->flavor);
}

/* allocate_shared: rank 0 creates one segment for every part, in rank order. */
static int rma_win_shared_segment(const struct rma_team *team, struct rma_win *win,
                                  struct rma_win_record *recs)
{
    uint64_t total = RMA_WIN_SKEW;
    for (int r = 0; r < win->nranks; r++) {
        recs[r].seg_off = total;
        snprintf(recs[r].seg, sizeof recs[r].seg, "w%u-r%d-s", recs[0].id, recs[0].job_rank);
        total += recs[r].size;
    }
    char name[SHM_NAME_MAX];
    boot_name_of(name, sizeof name, recs[0].token, "%s", recs[0].seg);
    int status = ORMA_SUCCESS;
    if (win->rank == 0) {
        status = shm_seg_create(name, total, &win->data_seg);
        if (!status && rma_win_alone(win))
            shm_seg_unlink(name);
    }
    status = rma_team_agree(team, status, "creating the shared segment");
    if (!status && win->rank != 0)
        status = shm_seg_open(name, total, &win->data_seg);
    if (!status)
        win->base = (char *)win->data_seg.base + recs[win->rank].seg_off;
    return status;
}

/* A target whose create window is partly adopted: its segment holds
 * [seg_off, seg_off + part_len) of the window, the rest by system calls. */
static int rma_win_map_part(struct rma_win *win, int r, const struct rma_win_record *rec)
{
    struct rma_target *t = &win->targets[r];
    char name[SHM_NAME_MAX];
    boot_name_of(name, sizeof name, rec->token, "%s", rec->seg);
    int status = shm_seg_open(name, 0, &t->seg);
    if (status)
        return status;
    if (rec->part_len > t->seg.size || rec->seg_off > rec->size || rec->part_len > rec->size - rec->seg_off)
        return util_error(ORMA_ERR_PEER, "rank %d's adopted part of window %u lies outside segment %s", r,
                          win->id, name);
    t->raddr = (uintptr_t)rec->base;
    t->lo = (size_t)rec->seg_off;
    t->hi = (size_t)(rec->seg_off + rec->part_len);
    t->base = (char *)t->seg.base - t->lo; /* base + offset for offsets in [lo, hi) */
    t->shared = 0;                          /* per access (rma_comm.c) */
    return ORMA_SUCCESS;
}

static int rma_win_map_target(struct rma_win *win, int r, const struct rma_win_record *rec)
{
    struct rma_target *t = &win->targets[r];
    t->size = rec->size;
    t->disp_unit = rec->disp_unit;
    t->pid = rec->pid;
    t->job_rank = rec->job_rank;
    t->token = boot_token_intern(rec->token);
    if (!t->token)
        return util_error(ORMA_ERR_NOMEM, "out of memory mapping rank %d's part of window %u", r, win->id);
    t->foreign = strcmp(t->token, boot_job.token) != 0;
    win->foreign += t->foreign;
    t->shared = rec->exposed == RMA_EXPOSED_SEGMENT;
    t->hw = rec->exposed == RMA_EXPOSED_SEGMENT || rec->exposed == RMA_EXPOSED_PART;
    t->ctl = rma_ctl_block(win->ctl, r); /* on another node: a block nobody uses */
    t->hw_busy = rma_ctl_hw_busy(win->ctl, t->ctl);
    t->hw_threads = rma_ctl_hw_threads(win->ctl, t->ctl);
    t->threads = rec->threads != 0;
    t->stripes = rma_ctl_stripes(win->ctl, t->ctl);
    if (t->off_node) {
        t->net = 1; /* rma_net_open */
        t->shared = t->hw = 0;
        return ORMA_SUCCESS;
    }
    switch (rec->exposed) {
    case RMA_EXPOSED_DYNAMIC:
        return ORMA_SUCCESS; /* per access: t->xp stays NULL */
    case RMA_EXPOSED_NONE:
        t->xp = &xport_none;
        return ORMA_SUCCESS;
    case RMA_EXPOSED_PRIVATE:
    case RMA_EXPOSED_PART:
        if (win->ctl->box_off) { /* small puts of fence and PSCW epochs: its boxes */
            win->box_in |= r == win->rank;
            t->box = r != win->rank ? rma_ctl_box(win->ctl, r, win->rank) : NULL;
        }
        if (r == win->rank)
            break; /* our own memory: plain copies */
        t->raddr = (uintptr_t)rec->base;
        t->xp = &xport_cma;
        return rec->exposed == RMA_EXPOSED_PART ? rma_win_map_part(win, r, rec) : ORMA_SUCCESS;
    default:
        break;
    }
    t->xp = &xport_shm;
    t->direct = 1;
    if (r == win->rank) {
        t->base = win->base;
        return ORMA_SUCCESS;
    }
    if (win->flavor == ORMA_WIN_FLAVOR_SHARED) {
        t->base = (char *)win->data_seg.base + rec->seg_off;
        return ORMA_SUCCESS;
    }
    char name[SHM_NAME_MAX];
    boot_name_of(name, sizeof name, rec->token, "%s", rec->seg);
    int status = shm_seg_open(name, 0, &t->seg);
    if (status)
        return status;
    if (rec->seg_off + rec->size > t->seg.size)
        return util_error(ORMA_ERR_PEER, "rank %d's part of window %u lies outside segment %s", r, win->id,
                          name);
    t->base = (char *)t->seg.base + rec->seg_off;
    return ORMA_SUCCESS;
}

void rma_win_release(struct rma_win *win)
{
    rma_win_unregister(win); /* first: no other thread finds it from here on */
    if (win->targets) {
        for (int r = 0; r < win->nranks; r++) {
            struct rma_target *t = &win->targets[r];
            shm_seg_unmap(&t->seg);
            rma_gather_free(t->gather);
            free(t->box_gets);
        }
        rma_dyn_unmap(win);
    }
    rma_box_typed_free(win);
    if (win->net) /* orma_finalize, or a failed creation: no collective part */
        xport_net_abandon(&win->net);
    /* after the net transport, whose target side raises them; before the
     * control block, which names them */
    rma_notify_release(win);
    rma_race_release(win);
    /* Our adopted pages back to private memory. */
    rma_dyn_release(win);
    shm_adopt_release(&win->adopt);
    shm_seg_unmap(&win->ctl_seg);
    shm_seg_unmap(&win->data_seg);
    free(win->targets);
    free(win->queue);
    free(win->acc_buf);
    rma_mt_forget(win);
    free(win);
}

static void rma_win_unlink_names(struct rma_win *win)
{
    if (rma_win_alone(win))
        return; /* unlinked at creation */
    if (win->data_seg.base && win->flavor == ORMA_WIN_FLAVOR_ALLOCATE)
        shm_seg_unlink(win->data_seg.name);
    if (win->adopt.addr)
        shm_seg_unlink(win->adopt.name);
    if (win->rank == win->leader) {
        shm_seg_unlink(win->ctl_seg.name);
        if (win->flavor == ORMA_WIN_FLAVOR_SHARED)
            shm_seg_unlink(win->data_seg.name);
    }
}

static uint32_t rma_hints_pack(const struct rma_win_hints *h)
{
    return h->acc_ordering | (uint32_t)h->same_op << 4 | (uint32_t)h->no_locks << 5 | (uint32_t)h->same_size << 6 |
           (uint32_t)h->same_disp_unit << 7;
}

/* The info every rank gave must be the same, and true where it promises
 * something about all ranks.  Every rank sees the same records, so every
 * rank reaches the same verdict. */
static int rma_win_check_hints(const struct rma_win_hints *h, const struct rma_win_record *recs, int n)
{
    for (int r = 1; r < n; r++) {
        if (recs[r].hints != recs[0].hints)
            return util_error(ORMA_ERR_INFO, "window creation: ranks 0 and %d gave different values of the "
                              "window info keys", r);
        if (h->same_size && recs[r].size != recs[0].size)
            return util_error(ORMA_ERR_INFO, "window creation: info same_size is true, but rank 0 gives %llu "
                              "bytes and rank %d %llu", (unsigned long long)recs[0].size, r,
                              (unsigned long long)recs[r].size);
        if (h->same_disp_unit && recs[r].disp_unit != recs[0].disp_unit)
            return util_error(ORMA_ERR_INFO, "window creation: info same_disp_unit is true, but rank 0 gives "
                              "unit %d and rank %d unit %d", recs[0].disp_unit, r, recs[r].disp_unit);
    }
    return ORMA_SUCCESS;
}

/* A rank the net transport must reach (on another node, or any other with
 * ORMA_TRANSPORT=net, shared windows excepted), or -1.  The same answer at
 * every rank: all see the same nodes and settings. */
static int rma_win_far(const struct rma_team *team, const struct rma_win *win, int flavor)
{
    int all = util_config.transport == UTIL_TRANSPORT_NET && flavor != ORMA_WIN_FLAVOR_SHARED && !team->shm_only;
    for (int r = 0; r < win->nranks; r++)
        if (win->targets[r].off_node || (all && r != win->rank))
            return r;
    return -1;
}

int rma_win_create(const struct rma_team *team, int flavor, void *base, size_t size, int disp_unit,
                   const struct rma_win_hints *hints, int arg_status, orma_win *handle_p, struct rma_win **win_p)
{
    if (!team)
        team = rma_all_team();
    orma_win handle = ORMA_WIN_NULL;
    int status = arg_status;
    struct rma_win_record rec = {0}, *recs = NULL;
    struct rma_win *win = calloc(1, sizeof *win);
    if (win) {
        util_rlock_init(&win->mt_lock);
        win->id = rma_win_next_id;
        win->flavor = flavor;
        win->rank = team->rank;
        win->nranks = team->size;
        win->size = size;
        win->disp_unit = disp_unit;
        rma_epoch_set(win, RMA_EPOCH_NONE);
        RMA_ST(win->access_gen, 1); /* targets start at 0: not ready */
        win->targets = calloc((size_t)win->nranks, sizeof *win->targets);
        win->hints = *hints;
        win->leader = -1;
        for (int r = 0; r < team->size; r++) {
            if (team->here && !team->here[r])
                continue;
            if (win->leader < 0)
                win->leader = r;
            if (r == team->rank)
                win->local_rank = win->nlocal;
            win->nlocal++;
        }
        for (int r = 0; win->targets && team->here && r < team->size; r++)
            win->targets[r].off_node = !team->here[r];
    }
    recs = team->size > 0 ? calloc((size_t)team->size, sizeof *recs) : NULL;
    rec.id = atomic_fetch_add_explicit(&rma_win_next_id, 1, memory_order_relaxed);
    if (!status && (!win || !win->targets || !recs))
        status = util_error(ORMA_ERR_NOMEM, "out of memory creating a window");
    /* Before anything is made: every rank reaches the same verdict. */
    int far = win && win->targets ? rma_win_far(team, win, flavor) : -1;
    if (!status && far >= 0 && flavor == ORMA_WIN_FLAVOR_SHARED)
        status = util_error(ORMA_ERR_UNSUPPORTED, "a shared window, but rank %d is on another node than rank %d",
                            far, team->rank);
    else if (!status && far >= 0 && !team->net)
        status = util_error(ORMA_ERR_UNSUPPORTED, "no path to rank %d from rank %d: %s", far, team->rank,
                            win->targets[far].off_node ? "it is on another node, and no net transport was given"
                                                       : "ORMA_TRANSPORT=net, and the net transport comes with "
                                                         "mpirun (liborma-mpi, or the native API with "
                                                         "liborma-mpirun-<mpi>.so)");
    if (!status)
        status = rma_win_local_part(win, base, size, &rec);
    if (!status && win->rank == win->leader)
        status = rma_win_create_ctl(win);

    rec.status = status;
    rec.threads = rma_threads;
    rec.pid = (int32_t)getpid();
    rec.job_rank = boot_job.rank;
    memcpy(rec.token, boot_job.token, sizeof rec.token);
    rec.disp_unit = disp_unit;
    rec.size = size;
    rec.hints = rma_hints_pack(hints);
    int xrc;
    if (recs) {
        xrc = team->allgather(team->ctx, &rec, sizeof rec, recs);
    } else {
        struct rma_win_record *none = calloc((size_t)team->size, sizeof *none);
        xrc = team->allgather(team->ctx, &rec, sizeof rec, none ? none : &rec); /* still take part */
        free(none);
    }
    if (!status && xrc)
        status = util_error(ORMA_ERR_PEER, "window creation: the exchange between the window's ranks failed");
    for (int r = 0; r < team->size && !status; r++)
        if (recs[r].status)
            status = util_error(ORMA_ERR_PEER, "window creation failed at rank %d (%s)", r,
                                orma_strerror(recs[r].status));
    if (!status)
        status = rma_win_check_hints(hints, recs, team->size);
    if (status)
        goto err_free; /* every rank saw the same records: all stop here */
    win->id = recs[0].id; /* the same number at every rank, for messages */
    if (flavor == ORMA_WIN_FLAVOR_SHARED)
        status = rma_win_shared_segment(team, win, recs);
    if (!status && win->rank != win->leader)
        status = rma_win_open_ctl(win, &recs[win->leader]);
    int others_here = 0; /* ranks of other jobs (spawned, connected) on this machine */
    for (int r = 0; r < win->nranks && !status; r++) {
        status = rma_win_map_target(win, r, &recs[r]);
        others_here += win->targets[r].foreign && !win->targets[r].off_node;
    }
    if (!status && others_here) /* they share our cores: the waiting policy counts them */
        util_wait_tune_joined(boot_job.size + others_here);
    if (!status) {
        win->my_ctl = rma_ctl_block(win->ctl, win->rank);
        win->my_hw_busy = rma_ctl_hw_busy(win->ctl, win->my_ctl);
        win->my_hw_threads = rma_ctl_hw_threads(win->ctl, win->my_ctl);
        status = rma_notify_alloc(win, hints->notify_num);
    }
    if (!status && (util_config.race || hints->check_race))
        status = rma_race_open(win);
    if (!status) {
        status = rma_win_register(win, &handle);
    }
    status = rma_team_agree(team, status, "window creation");
    rma_win_unlink_names(win);
    if (!status && far >= 0) {
        status = rma_net_open(win, team->net, team->net_comm, util_config.transport == UTIL_TRANSPORT_NET);
        win->net_only = win->net && (win->nlocal == 1 || util_config.transport == UTIL_TRANSPORT_NET);
        status = rma_team_agree(team, status, "opening the net transport");
    }
    if (status)
        goto err_free;
    free(recs);
    *handle_p = handle;
    *win_p = win;
    return ORMA_SUCCESS;

err_free:
    free(recs);
    if (win) {
        if (!rma_win_alone(win)) {
            if (win->data_seg.base && win->flavor == ORMA_WIN_FLAVOR_ALLOCATE)
                shm_seg_unlink(win->data_seg.name);
            if (win->rank == win->leader && win->ctl_seg.base)
                shm_seg_unlink(win->ctl_seg.name);
        }
        rma_win_release(win);
    }
    return status;
}

int rma_win_barrier(struct rma_win *win)
{
    if (win->nlocal > 1 && !win->net_only)
        return rma_watch_barrier(win, rma_ctl_barrier(win->ctl), &win->barrier_episode);
    return ORMA_SUCCESS;
}

int rma_win_free(struct rma_win *win)
{
    /* Nobody may still be reading or writing our memory when we unmap:
     * everything of the net transport delivered, then everybody here. */
    int status = xport_net_close(&win->net);
    win->net_only = 0;
    int lost = rma_win_barrier(win);
    /* Adopted pages go back to private memory while the others wait: an
     * access through another window that overlaps this one (a process_vm
     * transfer to the same pages) would land in the shared copy being left
     * and be lost.  Every rank of a create or dynamic window takes the
     * second barrier, adopted or not, so that all take it alike. */
    if (win->flavor == ORMA_WIN_FLAVOR_CREATE || win->flavor == ORMA_WIN_FLAVOR_DYNAMIC) {
        rma_dyn_release(win);
        shm_adopt_release(&win->adopt);
        if (!lost)
            lost = rma_win_barrier(win);
    }
    rma_win_release(win);
    return status ? status : lost;
}
