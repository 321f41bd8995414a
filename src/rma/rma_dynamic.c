/* rma_dynamic.c -- dynamic windows.
 *
 * Each rank publishes its attached regions in a region table of its own: a
 * shared segment, sorted by base address, that doubles when full -- MPI
 * sets no limit on attached regions, and programs that build linked lists
 * or trees attach one per element.  The control block names the table and
 * gives its length under a sequence lock (regions_version odd while either
 * changes).  An origin maps a target's table at its first access and again
 * whenever the name changed, finds an access by binary search, and maps the
 * owner's orma_alloc_mem or adopted segment of the region on first use,
 * falling back to single-copy syscalls for private memory.
 *
 * An access that is not inside one region:
 *  - over adjacent regions it is legal, and goes by system calls, which
 *    reach every byte whatever backs it;
 *  - outside every region it is erroneous (MPI-4.1 12.2.4), but MPICH
 *    carries it out as a single copy into the target's memory, and programs
 *    rely on it (OpenCoarrays 2.10 reaches the pointer components of
 *    derived-type coarrays that way): orma does the same, by system calls,
 *    so that the only error is memory the target does not have.  With
 *    ORMA_CHECK=1 such an access is refused, quoting the rule. */
#include "rma_comm.h"
#include "rma_heap.h"
#include "boot_job.h"
#include "boot_peer.h"
#include "util_config.h"
#include "util_status.h"
#include "util_wait.h"

#include <stdlib.h>
#include <string.h>

/* Our side: the table peers read, and the adopted pages behind each entry
 * (adopt[i] belongs to entry i and moves with it).  Tables outgrown stay
 * mapped here until the window goes (retired): the net transport's
 * progress thread reads our table while this thread attaches, and the
 * sequence lock makes it read again, but only from memory still there. */
struct rma_dyn_own {
    struct shm_seg table;
    uint32_t cap;
    struct shm_adopt *adopt;
    struct shm_seg *retired;
    size_t nretired;
    /* the table and its entries for this process's other threads: the
     * entries written first, then (release) the count they may read */
    _Atomic(struct rma_region *) shown;
    _Atomic uint32_t shown_cap;
};

#define RMA_DYN_FIRST_CAP 16u

static void rma_regions_begin(struct rma_ctl_rank *c)
{
    atomic_fetch_add_explicit(&c->regions_version, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
}

static void rma_regions_end(struct rma_ctl_rank *c)
{
    atomic_fetch_add_explicit(&c->regions_version, 1, memory_order_release);
}

static void rma_region_move(struct rma_region *dst, struct rma_region *src)
{
    atomic_store_explicit(&dst->base, atomic_load_explicit(&src->base, memory_order_relaxed), memory_order_relaxed);
    atomic_store_explicit(&dst->size, atomic_load_explicit(&src->size, memory_order_relaxed), memory_order_relaxed);
    atomic_store_explicit(&dst->seg_seq, atomic_load_explicit(&src->seg_seq, memory_order_relaxed),
                          memory_order_relaxed);
    atomic_store_explicit(&dst->seg_off, atomic_load_explicit(&src->seg_off, memory_order_relaxed),
                          memory_order_relaxed);
    atomic_store_explicit(&dst->map_lo, atomic_load_explicit(&src->map_lo, memory_order_relaxed),
                          memory_order_relaxed);
    atomic_store_explicit(&dst->map_hi, atomic_load_explicit(&src->map_hi, memory_order_relaxed),
                          memory_order_relaxed);
}

static uint64_t rma_region_base(struct rma_region *r)
{
    return atomic_load_explicit(&r->base, memory_order_relaxed);
}

/* The first of n sorted entries whose base is at least addr (n if none). */
static uint32_t rma_regions_lower(struct rma_region *regs, uint32_t n, uint64_t addr)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (rma_region_base(&regs[mid]) < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int rma_dyn_own_get(struct rma_win *win, struct rma_dyn_own **own_p)
{
    struct rma_dyn_own *own = atomic_load_explicit(&win->dyn_own, memory_order_relaxed);
    if (!own) {
        if (!(own = calloc(1, sizeof *own)))
            return util_error(ORMA_ERR_NOMEM, "out of memory for a dynamic window's region table");
        atomic_store_explicit(&win->dyn_own, own, memory_order_release);
    }
    *own_p = own;
    return ORMA_SUCCESS;
}

/* Our table as this process's other threads may read it (the net
 * transport's progress thread): at least cap entries behind the pointer. */
static struct rma_region *rma_dyn_own_shown(struct rma_win *win, size_t *cap_p)
{
    struct rma_dyn_own *own = atomic_load_explicit(&win->dyn_own, memory_order_acquire);
    *cap_p = own ? atomic_load_explicit(&own->shown_cap, memory_order_acquire) : 0;
    return own ? atomic_load_explicit(&own->shown, memory_order_relaxed) : NULL;
}

/* A table of twice the entries (the first one: RMA_DYN_FIRST_CAP), the
 * entries copied, its name published; the old name gone (peers that
 * mapped the old table see the name change and map the new one). */
static int rma_dyn_grow(struct rma_win *win, struct rma_dyn_own *own, uint32_t n)
{
    uint32_t cap = own->cap ? 2 * own->cap : RMA_DYN_FIRST_CAP;
    if (cap <= own->cap)
        return util_error(ORMA_ERR_NOMEM, "a dynamic window's region table cannot grow past %u regions", own->cap);
    struct shm_adopt *adopt = realloc(own->adopt, cap * sizeof *adopt);
    if (!adopt)
        return util_error(ORMA_ERR_NOMEM, "out of memory for %u attached regions", cap);
    own->adopt = adopt;
    struct shm_seg *retired = realloc(own->retired, (own->nretired + 1) * sizeof *retired);
    if (!retired)
        return util_error(ORMA_ERR_NOMEM, "out of memory for %u attached regions", cap);
    own->retired = retired;
    memset(adopt + own->cap, 0, (cap - own->cap) * sizeof *adopt);
    uint64_t seq = rma_heap_seq_new();
    char name[SHM_NAME_MAX];
    boot_job_name(name, sizeof name, "m%llu-r%d", (unsigned long long)seq, boot_job.rank);
    struct shm_seg table;
    int status = shm_seg_create(name, cap * sizeof(struct rma_region), &table);
    if (status)
        return status;
    struct rma_region *from = own->table.base, *to = table.base;
    for (uint32_t i = 0; i < n; i++)
        rma_region_move(&to[i], &from[i]);
    struct rma_ctl_rank *c = win->my_ctl;
    rma_regions_begin(c);
    atomic_store_explicit(&c->regions_seq, seq, memory_order_relaxed);
    atomic_store_explicit(&own->shown, (struct rma_region *)table.base, memory_order_relaxed);
    atomic_store_explicit(&own->shown_cap, cap, memory_order_release);
    rma_regions_end(c);
    if (own->table.base) {
        shm_seg_unlink(own->table.name);
        own->retired[own->nretired++] = own->table;
    }
    own->table = table;
    own->cap = cap;
    return ORMA_SUCCESS;
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
    struct rma_dyn_own *own = NULL;
    int status = rma_dyn_own_get(win, &own);
    if (status)
        return status;
    struct rma_ctl_rank *c = win->my_ctl;
    uint32_t n = atomic_load_explicit(&c->nregions, memory_order_relaxed);
    uint64_t lo = (uint64_t)(uintptr_t)base;
    struct rma_region *regs = own->table.base;
    uint32_t at = regs ? rma_regions_lower(regs, n, lo) : 0;
    /* sorted and disjoint: only the neighbours can overlap (a region of no
     * bytes overlaps nothing) */
    for (uint32_t i = at ? at - 1 : 0; size && i < n && i <= at; i++) {
        uint64_t b = rma_region_base(&regs[i]), s = atomic_load_explicit(&regs[i].size, memory_order_relaxed);
        if (lo < b + s && b < lo + size)
            return util_error(ORMA_ERR_BASE, "attach of [%p, +%zu) overlaps the region attached at %p", base,
                              size, (void *)(uintptr_t)b);
    }
    if (n == own->cap && (status = rma_dyn_grow(win, own, n)))
        return status;
    regs = own->table.base;
    const struct rma_heap_block *blk = rma_heap_find(base, size);
    uint64_t seq = 0, seg_off = 0, map_lo = 0, map_hi = size;
    struct shm_adopt ad = {0};
    if (blk) {
        seq = blk->seq;
        seg_off = lo - (uint64_t)(uintptr_t)blk->base;
    } else {
        if ((status = rma_dyn_adopt(win, base, size, &ad, &seq)))
            return status;
        if (seq) {
            map_lo = (uint64_t)((uintptr_t)ad.addr - lo);
            map_hi = map_lo + ad.len;
            seg_off = (uint64_t)0 - map_lo; /* the segment starts map_lo bytes into the region */
        }
    }
    rma_regions_begin(c);
    for (uint32_t i = n; i > at; i--)
        rma_region_move(&regs[i], &regs[i - 1]);
    struct rma_region *r = &regs[at];
    atomic_store_explicit(&r->base, lo, memory_order_relaxed);
    atomic_store_explicit(&r->size, (uint64_t)size, memory_order_relaxed);
    atomic_store_explicit(&r->seg_seq, seq, memory_order_relaxed);
    atomic_store_explicit(&r->seg_off, seg_off, memory_order_relaxed);
    atomic_store_explicit(&r->map_lo, map_lo, memory_order_relaxed);
    atomic_store_explicit(&r->map_hi, map_hi, memory_order_relaxed);
    atomic_store_explicit(&c->nregions, n + 1, memory_order_relaxed);
    rma_regions_end(c);
    memmove(&own->adopt[at + 1], &own->adopt[at], (n - at) * sizeof *own->adopt);
    own->adopt[at] = ad;
    return ORMA_SUCCESS;
}

int rma_dyn_attached(struct rma_win *win, uint64_t lo, uint64_t hi, uint64_t *base_p, uint64_t *size_p)
{
    struct rma_dyn_own *own = atomic_load_explicit(&win->dyn_own, memory_order_relaxed);
    struct rma_region *regs = own ? own->table.base : NULL;
    uint32_t n = regs ? atomic_load_explicit(&win->my_ctl->nregions, memory_order_relaxed) : 0;
    /* sorted and disjoint: the last region beginning before hi, if any,
     * is the only one that can reach lo */
    uint32_t at = regs ? rma_regions_lower(regs, n, hi) : 0;
    for (uint32_t i = at; i-- > 0;) {
        uint64_t b = rma_region_base(&regs[i]), s = atomic_load_explicit(&regs[i].size, memory_order_relaxed);
        if (!s)
            continue;
        if (b + s <= lo)
            return 0;
        *base_p = b;
        *size_p = s;
        return 1;
    }
    return 0;
}

int rma_win_detach(struct rma_win *win, const void *base)
{
    struct rma_ctl_rank *c = win->my_ctl;
    struct rma_dyn_own *own = atomic_load_explicit(&win->dyn_own, memory_order_relaxed);
    uint32_t n = atomic_load_explicit(&c->nregions, memory_order_relaxed);
    uint64_t b = (uint64_t)(uintptr_t)base;
    struct rma_region *regs = own ? own->table.base : NULL;
    uint32_t at = regs ? rma_regions_lower(regs, n, b) : 0;
    if (!regs || at == n || rma_region_base(&regs[at]) != b)
        return util_error(ORMA_ERR_BASE, "detach of %p: no region of this dynamic window starts there", base);
    if (__builtin_expect(win->race != NULL, 0))
        rma_race_detaching(win, base, atomic_load_explicit(&regs[at].size, memory_order_relaxed), "orma_win_detach");
    rma_regions_begin(c);
    for (uint32_t i = at; i + 1 < n; i++)
        rma_region_move(&regs[i], &regs[i + 1]);
    atomic_store_explicit(&c->nregions, n - 1, memory_order_relaxed);
    rma_regions_end(c);
    /* The region is out of the table: its pages back to private memory, and
     * the name gone (peers that mapped it keep a mapping nobody reaches
     * through the table any more). */
    shm_adopt_release(&own->adopt[at]);
    memmove(&own->adopt[at], &own->adopt[at + 1], (n - 1 - at) * sizeof *own->adopt);
    memset(&own->adopt[n - 1], 0, sizeof *own->adopt);
    return ORMA_SUCCESS;
}

void rma_dyn_release(struct rma_win *win)
{
    struct rma_dyn_own *own = atomic_load_explicit(&win->dyn_own, memory_order_relaxed);
    if (!own)
        return;
    for (uint32_t i = 0; i < own->cap; i++)
        shm_adopt_release(&own->adopt[i]);
    free(own->adopt);
    if (own->table.base) {
        shm_seg_unlink(own->table.name);
        shm_seg_unmap(&own->table);
    }
    for (size_t i = 0; i < own->nretired; i++)
        shm_seg_unmap(&own->retired[i]);
    free(own->retired);
    free(own);
    atomic_store_explicit(&win->dyn_own, NULL, memory_order_relaxed);
}

void rma_dyn_unmap(struct rma_win *win)
{
    for (int r = 0; r < win->nranks; r++) {
        struct rma_target *t = &win->targets[r];
        while (t->dyn) {
            struct rma_dyn_map *m = t->dyn;
            t->dyn = m->next;
            shm_seg_unmap(&m->seg);
            free(m);
        }
        shm_seg_unmap(&t->dyn_table);
        t->dyn_table_seq = 0;
    }
}

/* Target's region table as named now (seq), mapped here: NULL when it is
 * gone (replaced since the name was read: the caller reads again) or on
 * failure (*status_p). */
static struct rma_region *rma_dyn_table(struct rma_win *win, int target, uint64_t seq, size_t *cap_p,
                                        int *status_p)
{
    *status_p = ORMA_SUCCESS;
    if (target == win->rank)
        return rma_dyn_own_shown(win, cap_p);
    struct rma_target *t = &win->targets[target];
    if (t->dyn_table_seq != seq) {
        char name[SHM_NAME_MAX];
        boot_name_of(name, sizeof name, t->token, "m%llu-r%d", (unsigned long long)seq, t->job_rank);
        struct shm_seg table;
        int missing = 0;
        if ((*status_p = shm_seg_open_if(name, 0, &table, &missing)) || missing)
            return NULL;
        shm_seg_unmap(&t->dyn_table);
        t->dyn_table = table;
        t->dyn_table_seq = seq;
    }
    *cap_p = t->dyn_table.size / sizeof(struct rma_region);
    return t->dyn_table.base;
}

/* How [addr, addr+len) lies in target's regions. */
enum rma_dyn_fit {
    RMA_DYN_OUTSIDE, /* not all of it in attached regions */
    RMA_DYN_ONE,     /* inside one region: *out */
    RMA_DYN_SPAN     /* over adjacent regions */
};

/* The fit of [addr, addr+len) in n sorted regions; *hw_p: whether any of
 * them is a segment (other accesses may use hardware atomics on it). */
static int rma_dyn_fit(struct rma_region *regs, uint32_t n, uint64_t addr, size_t len,
                       struct rma_region_copy *out, int *hw_p)
{
    uint32_t i = rma_regions_lower(regs, n, addr + 1); /* the first region beginning past addr */
    if (i == 0)
        return RMA_DYN_OUTSIDE;
    struct rma_region *r = &regs[i - 1];
    uint64_t b = rma_region_base(r), s = atomic_load_explicit(&r->size, memory_order_relaxed);
    uint64_t seq = atomic_load_explicit(&r->seg_seq, memory_order_relaxed);
    if (addr - b <= s && len <= s - (addr - b)) {
        out->base = b;
        out->size = s;
        out->seg_seq = seq;
        out->seg_off = atomic_load_explicit(&r->seg_off, memory_order_relaxed);
        out->map_lo = atomic_load_explicit(&r->map_lo, memory_order_relaxed);
        out->map_hi = atomic_load_explicit(&r->map_hi, memory_order_relaxed);
        *hw_p = seq != 0;
        return RMA_DYN_ONE;
    }
    if (addr - b >= s) /* addr lies past it: in no region */
        return RMA_DYN_OUTSIDE;
    uint64_t end = addr + len, covered = b + s;
    int hw = seq != 0;
    for (; i < n && covered < end; i++) {
        if (rma_region_base(&regs[i]) != covered)
            return RMA_DYN_OUTSIDE;
        covered += atomic_load_explicit(&regs[i].size, memory_order_relaxed);
        hw |= atomic_load_explicit(&regs[i].seg_seq, memory_order_relaxed) != 0;
    }
    if (covered < end)
        return RMA_DYN_OUTSIDE;
    *hw_p = hw;
    return RMA_DYN_SPAN;
}

/* A consistent answer of rma_dyn_fit at target (a status on failure). */
static int rma_dyn_find(struct rma_win *win, int target, uint64_t addr, size_t len, struct rma_region_copy *out,
                        int *hw_p, int *fit_p)
{
    struct rma_ctl_rank *c = win->targets[target].ctl;
    struct util_backoff backoff = {0};
    for (;;) {
        uint32_t v1 = atomic_load_explicit(&c->regions_version, memory_order_acquire);
        if (v1 & 1) {
            util_backoff_pause(&backoff);
            continue;
        }
        uint32_t n = atomic_load_explicit(&c->nregions, memory_order_relaxed);
        uint64_t seq = atomic_load_explicit(&c->regions_seq, memory_order_relaxed);
        int status = ORMA_SUCCESS, fit = RMA_DYN_OUTSIDE;
        size_t cap = 0;
        struct rma_region *regs = seq ? rma_dyn_table(win, target, seq, &cap, &status) : NULL;
        if (status)
            return status;
        if (regs && n <= cap)
            fit = rma_dyn_fit(regs, n, addr, len, out, hw_p);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&c->regions_version, memory_order_relaxed) != v1)
            continue;
        if (seq && !regs) /* gone while the version held: the window is being freed */
            fit = RMA_DYN_OUTSIDE;
        *fit_p = fit;
        return ORMA_SUCCESS;
    }
}

/* A consistent copy of our own regions, at most max of them. */
size_t rma_dyn_regions(struct rma_win *win, uint64_t *pairs, size_t max)
{
    struct rma_ctl_rank *c = win->my_ctl;
    struct util_backoff backoff = {0};
    for (;;) {
        uint32_t v1 = atomic_load_explicit(&c->regions_version, memory_order_acquire);
        if (v1 & 1) { /* our own thread attaching while the progress thread asks */
            util_backoff_pause(&backoff);
            continue;
        }
        uint32_t n = atomic_load_explicit(&c->nregions, memory_order_relaxed);
        size_t cap = 0;
        struct rma_region *regs = rma_dyn_own_shown(win, &cap);
        for (uint32_t i = 0; regs && i < n && i < max && i < cap; i++) {
            pairs[2 * i] = rma_region_base(&regs[i]);
            pairs[2 * i + 1] = atomic_load_explicit(&regs[i].size, memory_order_relaxed);
        }
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&c->regions_version, memory_order_relaxed) == v1)
            return n;
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
    boot_name_of(name, sizeof name, t->token, "m%llu-r%d", (unsigned long long)seq, t->job_rank);
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

/* addr of target's memory reached by system calls. */
static void rma_dyn_by_call(struct rma_win *win, int target, uint64_t addr, struct rma_where *where)
{
    where->at = (struct xport_at){.ops = &xport_cma, .addr = (uintptr_t)addr, .pid = win->targets[target].pid,
                                  .rank = target};
}

int rma_dyn_resolve(struct rma_win *win, int target, uint64_t addr, size_t len, struct rma_where *where)
{
    struct rma_region_copy reg = {0};
    int hw = 1, fit = RMA_DYN_OUTSIDE;
    int status = rma_dyn_find(win, target, addr, len, &reg, &hw, &fit);
    if (status)
        return status;
    where->outside = fit == RMA_DYN_OUTSIDE;
    if (where->outside && win->race)
        win->race_outside = 1; /* reported once the access is done (api_race_after) */
    if (where->outside && util_config.check)
        return util_error(ORMA_ERR_RANGE, "access of %zu bytes at address 0x%llx of rank %d is not inside a region "
                          "attached to the dynamic window (MPI-4.1 12.2.4: only attached memory may be accessed; "
                          "without ORMA_CHECK=1 orma carries it out, as MPICH does)",
                          len, (unsigned long long)addr, target);
    where->hw = hw;
    if (fit != RMA_DYN_ONE) { /* system calls reach every byte, whatever backs it */
        rma_dyn_by_call(win, target, addr, where);
        where->shared = 0;
        return ORMA_SUCCESS;
    }
    /* Inside the part of the region a segment holds: direct.  Elsewhere,
     * or across its edge, the system calls, which reach that part too. */
    uint64_t off = addr - reg.base;
    int mapped = reg.seg_seq != 0 && off >= reg.map_lo && off <= reg.map_hi && len <= reg.map_hi - off;
    where->shared = mapped;
    if (target == win->rank) {
        xport_set_here(&where->at, (void *)(uintptr_t)addr);
        return ORMA_SUCCESS;
    }
    if (mapped) {
        char *seg_base = NULL;
        if ((status = rma_dyn_map_segment(win, target, reg.seg_seq, &seg_base)))
            return status;
        xport_set_here(&where->at, seg_base + (size_t)(reg.seg_off + off)); /* modulo 2^64: at least map_lo - map_lo */
        return ORMA_SUCCESS;
    }
    rma_dyn_by_call(win, target, addr, where);
    return ORMA_SUCCESS;
}
