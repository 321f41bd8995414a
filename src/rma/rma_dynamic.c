/* rma_dynamic.c -- dynamic windows: the owner publishes its attached regions
 * in its control block under a sequence lock; an origin resolves each access
 * against that table, mapping the owner's orma_alloc_mem segments on first
 * use and falling back to single-copy syscalls for private memory. */
#include "rma_comm.h"
#include "rma_heap.h"
#include "boot_job.h"
#include "util_config.h"
#include "util_status.h"
#include "util_wait.h"

#include <stdlib.h>
#include <string.h>

static void rma_regions_begin(struct rma_ctl_rank *c)
{
    atomic_fetch_add_explicit(&c->regions_version, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
}

static void rma_regions_end(struct rma_ctl_rank *c)
{
    atomic_fetch_add_explicit(&c->regions_version, 1, memory_order_release);
}

/* Private memory attached: its whole pages into a segment named like an
 * allocation's, which peers map on first access (shm_adopt.h).  *seq_p
 * stays 0 when nothing was adopted. */
static int rma_dyn_adopt(struct rma_win *win, void *base, size_t size, struct shm_adopt *ad, uint64_t *seq_p)
{
    *seq_p = 0;
    memset(ad, 0, sizeof *ad);
    if (!util_config.adopt || win->nranks == 1)
        return ORMA_SUCCESS;
    if (!win->dyn_adopt) {
        win->dyn_adopt = calloc(win->ctl->max_attach, sizeof *win->dyn_adopt);
        if (!win->dyn_adopt)
            return util_error(ORMA_ERR_NOMEM, "out of memory attaching [%p, +%zu)", base, size);
    }
    uint64_t seq = rma_heap_seq_new();
    char name[SHM_NAME_MAX];
    boot_job_name(name, sizeof name, "m%llu-r%d", (unsigned long long)seq, boot_job.rank);
    int status = shm_adopt(base, size, name, shm_page_size(), 0, ad);
    if (!status && ad->addr)
        *seq_p = seq;
    return status;
}

int rma_win_attach(struct rma_win *win, void *base, size_t size)
{
    struct rma_ctl_rank *c = win->my_ctl;
    struct rma_region *regs = rma_ctl_regions(win->ctl, c);
    uint32_t n = atomic_load_explicit(&c->nregions, memory_order_relaxed);
    uintptr_t lo = (uintptr_t)base;
    for (uint32_t i = 0; i < n; i++) {
        uintptr_t b = (uintptr_t)atomic_load_explicit(&regs[i].base, memory_order_relaxed);
        uintptr_t s = (uintptr_t)atomic_load_explicit(&regs[i].size, memory_order_relaxed);
        if (lo < b + s && b < lo + size)
            return util_error(ORMA_ERR_BASE, "attach of [%p, +%zu) overlaps the region attached at %p", base,
                              size, (void *)b);
    }
    if (n >= win->ctl->max_attach)
        return util_error(ORMA_ERR_NOMEM, "cannot attach more than %u regions to a dynamic window "
                          "(ORMA_MAX_ATTACH)", win->ctl->max_attach);
    const struct rma_heap_block *blk = rma_heap_find(base, size);
    uint64_t seq = 0, seg_off = 0, map_lo = 0, map_hi = size;
    struct shm_adopt ad = {0};
    if (blk) {
        seq = blk->seq;
        seg_off = (uint64_t)(lo - (uintptr_t)blk->base);
    } else {
        int status = rma_dyn_adopt(win, base, size, &ad, &seq);
        if (status)
            return status;
        if (seq) {
            map_lo = (uint64_t)((uintptr_t)ad.addr - lo);
            map_hi = map_lo + ad.len;
            seg_off = (uint64_t)0 - map_lo; /* the segment starts map_lo bytes into the region */
        }
    }
    if (win->dyn_adopt)
        win->dyn_adopt[n] = ad;
    rma_regions_begin(c);
    atomic_store_explicit(&regs[n].base, (uint64_t)lo, memory_order_relaxed);
    atomic_store_explicit(&regs[n].size, (uint64_t)size, memory_order_relaxed);
    atomic_store_explicit(&regs[n].seg_seq, seq, memory_order_relaxed);
    atomic_store_explicit(&regs[n].seg_off, seg_off, memory_order_relaxed);
    atomic_store_explicit(&regs[n].map_lo, map_lo, memory_order_relaxed);
    atomic_store_explicit(&regs[n].map_hi, map_hi, memory_order_relaxed);
    atomic_store_explicit(&c->nregions, n + 1, memory_order_relaxed);
    rma_regions_end(c);
    return ORMA_SUCCESS;
}

void rma_dyn_release(struct rma_win *win)
{
    if (!win->dyn_adopt)
        return;
    for (uint32_t i = 0; i < win->ctl->max_attach; i++)
        shm_adopt_release(&win->dyn_adopt[i]);
    free(win->dyn_adopt);
    win->dyn_adopt = NULL;
}

int rma_win_detach(struct rma_win *win, const void *base)
{
    struct rma_ctl_rank *c = win->my_ctl;
    struct rma_region *regs = rma_ctl_regions(win->ctl, c);
    uint32_t n = atomic_load_explicit(&c->nregions, memory_order_relaxed);
    for (uint32_t i = 0; i < n; i++) {
        if (atomic_load_explicit(&regs[i].base, memory_order_relaxed) != (uint64_t)(uintptr_t)base)
            continue;
        rma_regions_begin(c);
        struct rma_region *last = &regs[n - 1], *r = &regs[i];
        atomic_store_explicit(&r->base, atomic_load_explicit(&last->base, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&r->size, atomic_load_explicit(&last->size, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&r->seg_seq, atomic_load_explicit(&last->seg_seq, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&r->seg_off, atomic_load_explicit(&last->seg_off, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&r->map_lo, atomic_load_explicit(&last->map_lo, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&r->map_hi, atomic_load_explicit(&last->map_hi, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&c->nregions, n - 1, memory_order_relaxed);
        rma_regions_end(c);
        if (win->dyn_adopt) {
            /* The region is out of the table: its pages back to private
             * memory, and the name gone (peers that mapped it keep a
             * mapping nobody reaches through the table any more). */
            shm_adopt_release(&win->dyn_adopt[i]);
            win->dyn_adopt[i] = win->dyn_adopt[n - 1];
            memset(&win->dyn_adopt[n - 1], 0, sizeof win->dyn_adopt[n - 1]);
        }
        return ORMA_SUCCESS;
    }
    return util_error(ORMA_ERR_BASE, "detach of %p: no region of this dynamic window starts there", base);
}

/* A consistent copy of the target's region holding [addr, addr+len). */
size_t rma_dyn_regions(struct rma_win *win, uint64_t *pairs, size_t max)
{
    struct rma_ctl_rank *c = win->my_ctl;
    struct rma_region *regs = rma_ctl_regions(win->ctl, c);
    struct util_backoff backoff = {0};
    for (;;) {
        uint32_t v1 = atomic_load_explicit(&c->regions_version, memory_order_acquire);
        if (v1 & 1) { /* our own thread attaching while the progress thread asks */
            util_backoff_pause(&backoff);
            continue;
        }
        uint32_t n = atomic_load_explicit(&c->nregions, memory_order_relaxed);
        for (uint32_t i = 0; i < n && i < max; i++) {
            pairs[2 * i] = atomic_load_explicit(&regs[i].base, memory_order_relaxed);
            pairs[2 * i + 1] = atomic_load_explicit(&regs[i].size, memory_order_relaxed);
        }
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&c->regions_version, memory_order_relaxed) == v1)
            return n;
    }
}

static int rma_dyn_find(struct rma_ctl_rank *c, struct rma_region *regs, uint64_t addr, size_t len, struct rma_region_copy *out)
{
    struct util_backoff backoff = {0};
    for (;;) {
        uint32_t v1 = atomic_load_explicit(&c->regions_version, memory_order_acquire);
        if (v1 & 1) {
            util_backoff_pause(&backoff);
            continue;
        }
        int found = 0;
        uint32_t n = atomic_load_explicit(&c->nregions, memory_order_relaxed);
        for (uint32_t i = 0; i < n && !found; i++) {
            uint64_t b = atomic_load_explicit(&regs[i].base, memory_order_relaxed);
            uint64_t s = atomic_load_explicit(&regs[i].size, memory_order_relaxed);
            if (addr >= b && addr - b <= s && len <= s - (addr - b)) {
                out->base = b;
                out->size = s;
                out->seg_seq = atomic_load_explicit(&regs[i].seg_seq, memory_order_relaxed);
                out->seg_off = atomic_load_explicit(&regs[i].seg_off, memory_order_relaxed);
                out->map_lo = atomic_load_explicit(&regs[i].map_lo, memory_order_relaxed);
                out->map_hi = atomic_load_explicit(&regs[i].map_hi, memory_order_relaxed);
                found = 1;
            }
        }
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&c->regions_version, memory_order_relaxed) == v1)
            return found;
    }
}

static int rma_dyn_map_segment(struct rma_win *win, int target, uint64_t seq, char **base_p)
{
    struct rma_target *t = &win->targets[target];
    for (struct rma_dyn_map *m = t->dyn; m; m = m->next) {
        if (m->seq == seq) {
            *base_p = m->seg.base;
            return ORMA_SUCCESS;
        }
    }
    struct rma_dyn_map *m = calloc(1, sizeof *m);
    if (!m)
        return util_error(ORMA_ERR_NOMEM, "out of memory mapping rank %d's memory", target);
    char name[SHM_NAME_MAX];
    boot_job_name(name, sizeof name, "m%llu-r%d", (unsigned long long)seq, t->job_rank);
    int status = shm_seg_open(name, 0, &m->seg);
    if (status) {
        free(m);
        return status;
    }
    m->seq = seq;
    m->next = t->dyn;
    t->dyn = m;
    *base_p = m->seg.base;
    return ORMA_SUCCESS;
}

int rma_dyn_resolve(struct rma_win *win, int target, uint64_t addr, size_t len, struct rma_where *where)
{
    struct rma_region_copy reg = {0};
    if (!rma_dyn_find(win->targets[target].ctl, rma_ctl_regions(win->ctl, win->targets[target].ctl), addr, len, &reg))
        return util_error(ORMA_ERR_RANGE, "access of %zu bytes at address 0x%llx of rank %d is not inside "
                          "a region attached to the dynamic window", len, (unsigned long long)addr, target);
    /* Inside the part of the region a segment holds: direct.  Elsewhere,
     * or across its edge, the system calls, which reach that part too. */
    uint64_t off = addr - reg.base;
    int mapped = reg.seg_seq != 0 && off >= reg.map_lo && off <= reg.map_hi && len <= reg.map_hi - off;
    where->shared = mapped;
    where->hw = reg.seg_seq != 0;
    if (target == win->rank) {
        where->path = RMA_PATH_DIRECT;
        where->ptr = (char *)(uintptr_t)addr;
        return ORMA_SUCCESS;
    }
    if (mapped) {
        char *seg_base = NULL;
        int status = rma_dyn_map_segment(win, target, reg.seg_seq, &seg_base);
        if (status)
            return status;
        where->path = RMA_PATH_DIRECT;
        where->ptr = seg_base + (size_t)(reg.seg_off + off); /* modulo 2^64: at least map_lo - map_lo */
        return ORMA_SUCCESS;
    }
    where->path = RMA_PATH_CMA;
    where->raddr = (uintptr_t)addr;
    return ORMA_SUCCESS;
}
