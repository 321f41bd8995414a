/* rma_dynamic.c -- dynamic windows: the owner publishes its attached regions
 * in its control block under a sequence lock; an origin resolves each access
 * against that table, mapping the owner's orma_alloc_mem segments on first
 * use and falling back to single-copy syscalls for private memory. */
#include "rma_comm.h"
#include "rma_heap.h"
#include "boot_job.h"
#include "util_status.h"
#include "util_wait.h"

#include <stdlib.h>

static void rma_regions_begin(struct rma_ctl_rank *c)
{
    atomic_fetch_add_explicit(&c->regions_version, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
}

static void rma_regions_end(struct rma_ctl_rank *c)
{
    atomic_fetch_add_explicit(&c->regions_version, 1, memory_order_release);
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
    rma_regions_begin(c);
    atomic_store_explicit(&regs[n].base, (uint64_t)lo, memory_order_relaxed);
    atomic_store_explicit(&regs[n].size, (uint64_t)size, memory_order_relaxed);
    atomic_store_explicit(&regs[n].seg_seq, blk ? blk->seq : 0, memory_order_relaxed);
    atomic_store_explicit(&regs[n].seg_off, blk ? (uint64_t)(lo - (uintptr_t)blk->base) : 0,
                          memory_order_relaxed);
    atomic_store_explicit(&c->nregions, n + 1, memory_order_relaxed);
    rma_regions_end(c);
    return ORMA_SUCCESS;
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
        atomic_store_explicit(&c->nregions, n - 1, memory_order_relaxed);
        rma_regions_end(c);
        return ORMA_SUCCESS;
    }
    return util_error(ORMA_ERR_BASE, "detach of %p: no region of this dynamic window starts there", base);
}

/* A consistent copy of the target's region holding [addr, addr+len). */
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
    where->shared = reg.seg_seq != 0;
    if (target == win->rank) {
        where->path = RMA_PATH_DIRECT;
        where->ptr = (char *)(uintptr_t)addr;
        return ORMA_SUCCESS;
    }
    if (reg.seg_seq) {
        char *seg_base = NULL;
        int status = rma_dyn_map_segment(win, target, reg.seg_seq, &seg_base);
        if (status)
            return status;
        where->path = RMA_PATH_DIRECT;
        where->ptr = seg_base + reg.seg_off + (addr - reg.base);
        return ORMA_SUCCESS;
    }
    where->path = RMA_PATH_CMA;
    where->raddr = (uintptr_t)addr;
    return ORMA_SUCCESS;
}
