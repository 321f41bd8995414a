/* bsp_reg.c -- registrations: bsp_push_reg and bsp_pop_reg, the table of
 * registrations (one orma window each, in a lock_all epoch for its life),
 * and the checks of a DRMA call's process and bytes. */
#include "bsp_impl.h"

#include <bsp.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ident -> the latest live registration's slot: open addressing, rebuilt
 * by every sync that changes the registrations. */
struct bsp_reg_entry {
    const void *ident;
    size_t slot;
};
static struct bsp_reg_entry *bsp_reg_table;
static size_t bsp_reg_mask; /* table size - 1; no table when 0 */
static uintptr_t bsp_reg_lo, bsp_reg_hi; /* the live registrations' bytes lie within */

static size_t bsp_reg_hash(const void *ident)
{
    uint64_t x = (uint64_t)(uintptr_t)ident;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

static void bsp_reg_index(void)
{
    BSP_FREE(bsp_reg_table);
    bsp_reg_mask = 0;
    bsp_reg_lo = UINTPTR_MAX;
    bsp_reg_hi = 0;
    size_t live = 0;
    for (size_t s = 0; s < bsp.nregs; s++) {
        const struct bsp_reg *r = &bsp.regs[s];
        if (!r->live)
            continue;
        live++;
        uintptr_t a = (uintptr_t)r->ident;
        if (r->size && a < bsp_reg_lo)
            bsp_reg_lo = a;
        if (r->size && a + r->size > bsp_reg_hi)
            bsp_reg_hi = a + r->size;
    }
    if (!live)
        return;
    size_t n = 4;
    while (n < 2 * live)
        n *= 2;
    bsp_reg_table = calloc(n, sizeof *bsp_reg_table);
    if (!bsp_reg_table)
        bsp_fail("bsp_sync", "out of memory");
    bsp_reg_mask = n - 1;
    for (size_t s = 0; s < bsp.nregs; s++) { /* later slots replace earlier */
        if (!bsp.regs[s].live)
            continue;
        size_t h = bsp_reg_hash(bsp.regs[s].ident) & bsp_reg_mask;
        while (bsp_reg_table[h].slot && bsp_reg_table[h].ident != bsp.regs[s].ident)
            h = (h + 1) & bsp_reg_mask;
        bsp_reg_table[h].ident = bsp.regs[s].ident;
        bsp_reg_table[h].slot = s + 1; /* 0: empty */
    }
}

void bsp_push_reg(const void *ident, int size)
{
    bsp_check_on("bsp_push_reg");
    if (size < 0)
        bsp_fail("bsp_push_reg", "size %d of %p is negative", size, ident);
    if (bsp.npush == BSP_REG_MAX)
        bsp_fail("bsp_push_reg", "more than %d registrations pushed in one superstep", BSP_REG_MAX);
    bsp.pushes = bsp_grow(bsp.pushes, &bsp.cap_push, bsp.npush + 1, sizeof *bsp.pushes, "bsp_push_reg");
    bsp.pushes[bsp.npush++] = (struct bsp_push){ident, (size_t)size};
}

static int bsp_reg_popping(size_t slot)
{
    for (size_t i = 0; i < bsp.npop; i++)
        if ((bsp.pops[i] & ~BSP_POP_AMBIGUOUS) == slot)
            return 1;
    return 0;
}

void bsp_pop_reg(const void *ident)
{
    bsp_check_on("bsp_pop_reg");
    size_t slot = (size_t)-1, found = 0;
    for (size_t s = bsp.nregs; s-- > 0;)
        if (bsp.regs[s].live && bsp.regs[s].ident == ident && !bsp_reg_popping(s) && !found++)
            slot = s;
    if (!found)
        bsp_fail("bsp_pop_reg", "%p is not registered%s", ident,
                 bsp.npop ? " (or its registrations are popped already in this superstep)" : "");
    if (bsp.npop == BSP_REG_MAX)
        bsp_fail("bsp_pop_reg", "more than %d registrations popped in one superstep", BSP_REG_MAX);
    if (!bsp.pops) {
        bsp.pops = malloc(BSP_REG_MAX * sizeof *bsp.pops);
        bsp.pop_ident = malloc(BSP_REG_MAX * sizeof *bsp.pop_ident);
        if (!bsp.pops || !bsp.pop_ident)
            bsp_fail("bsp_pop_reg", "out of memory");
    }
    bsp.pop_ident[bsp.npop] = ident;
    bsp.pops[bsp.npop++] = slot | (found > 1 ? BSP_POP_AMBIGUOUS : 0);
}

static int bsp_reg_pending(const void *ident)
{
    for (size_t i = 0; i < bsp.npush; i++)
        if (bsp.pushes[i].ident == ident)
            return 1;
    return 0;
}

int bsp_reg_local(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    if (a >= bsp_reg_hi || a + n <= bsp_reg_lo)
        return 0;
    for (size_t s = 0; s < bsp.nregs; s++) {
        const struct bsp_reg *r = &bsp.regs[s];
        uintptr_t b = (uintptr_t)r->ident;
        if (r->live && a < b + r->size && b < a + n)
            return 1;
    }
    return 0;
}

size_t bsp_reg_find(const void *ident, const char *call)
{
    if (bsp_reg_mask) {
        size_t h = bsp_reg_hash(ident) & bsp_reg_mask;
        for (; bsp_reg_table[h].slot; h = (h + 1) & bsp_reg_mask)
            if (bsp_reg_table[h].ident == ident)
                return bsp_reg_table[h].slot - 1;
    }
    if (bsp_reg_pending(ident))
        bsp_fail(call, "%p is registered in this superstep: a registration holds from the next bsp_sync",
                 ident);
    bsp_fail(call, "%p is not registered", ident);
}

void bsp_check_pid(const char *call, int pid)
{
    if (pid < 0 || pid >= bsp.p)
        bsp_fail(call, "process %d does not exist (bsp_nprocs() is %d)", pid, bsp.p);
}

void bsp_check_range(const char *call, size_t slot, int pid, int offset, int nbytes)
{
    if (nbytes < 0)
        bsp_fail(call, "nbytes %d is negative", nbytes);
    if (offset < 0)
        bsp_fail(call, "offset %d is negative", offset);
    const struct bsp_reg *r = &bsp.regs[slot];
    if ((uint64_t)offset + (uint64_t)nbytes > r->sizes[pid])
        bsp_fail(call, "%d bytes at offset %d lie outside the %llu bytes process %d registered (%p here)",
                 nbytes, offset, (unsigned long long)r->sizes[pid], pid, r->ident);
}

static size_t bsp_page(void)
{
    static size_t page;
    if (!page) {
        long v = sysconf(_SC_PAGESIZE);
        page = v > 0 ? (size_t)v : 4096;
    }
    return page;
}

/* Bytes from ident to its first page boundary. */
uint32_t bsp_reg_head(const void *ident)
{
    size_t page = bsp_page();
    return (uint32_t)((page - (uintptr_t)ident % page) % page);
}

/* Whether [off, off + n) of pid's registration lies in its whole pages --
 * what orma maps into the other processes of the node when a window is
 * made over private memory (orma.h, orma_win_create), so that a transfer
 * there is a copy, not a system call.  A guess from the outside: a wrong
 * one costs time, never bytes. */
int bsp_reg_mapped(size_t slot, int pid, size_t off, size_t n)
{
    const struct bsp_reg *r = &bsp.regs[slot];
    size_t page = bsp_page(), size = r->sizes[pid], lo = r->heads[pid];
    if (size < lo + page)
        return 0;
    size_t hi = lo + (size - lo) / page * page;
    return off >= lo && off + n <= hi;
}

void bsp_reg_touch(size_t slot)
{
    struct bsp_reg *r = &bsp.regs[slot];
    if (r->touched)
        return;
    bsp.touched = bsp_grow(bsp.touched, &bsp.cap_touched, bsp.ntouched + 1, sizeof *bsp.touched, "bsp_hpput");
    bsp.touched[bsp.ntouched++] = slot;
    r->touched = 1;
}

void bsp_reg_flush(void)
{
    for (size_t i = 0; i < bsp.ntouched; i++) {
        struct bsp_reg *r = &bsp.regs[bsp.touched[i]];
        bsp_orma("bsp_sync", orma_win_flush_all(r->win));
        r->touched = 0;
    }
    bsp.ntouched = 0;
}

static void bsp_reg_free(struct bsp_reg *r, const char *call)
{
    bsp_orma(call, orma_win_unlock_all(r->win));
    bsp_orma(call, orma_win_free(&r->win));
    BSP_FREE(r->sizes);
    BSP_FREE(r->heads);
    r->live = 0;
}

/* Pops first (the superstep's puts and gets used them), then pushes, in
 * the announced order on every process; a surplus rank follows process 0
 * with registrations of nothing. */
/* Pop i removes, on every process, the registration the lowest process
 * whose ident names only one chose (process 0's when every ident was
 * ambiguous: NULL pushed by all, say); a process whose own choice differs
 * must have popped the same address. */
static size_t bsp_reg_popped(size_t i)
{
    for (int r = 0; r < bsp.p; r++) {
        uint64_t v = bsp_ann_pops(bsp_ann_of(r))[i];
        if (!(v & BSP_POP_AMBIGUOUS))
            return (size_t)v;
    }
    return (size_t)(bsp_ann_pops(bsp_ann_of(0))[i] & ~BSP_POP_AMBIGUOUS);
}

void bsp_reg_apply(void)
{
    int surplus = bsp.pid >= bsp.p;
    const struct bsp_ann *a0 = bsp_ann_of(0);
    bsp_ann_read_lists();
    for (size_t i = 0; i < a0->npop; i++) {
        size_t slot = bsp_reg_popped(i), mine = surplus ? slot : (size_t)(bsp.pops[i] & ~BSP_POP_AMBIGUOUS);
        struct bsp_reg *r = &bsp.regs[slot];
        if (!r->live || (mine != slot && r->ident != bsp.pop_ident[i]))
            bsp_fail("bsp_pop_reg", "registration mismatch: pop %zu of the superstep removes registration "
                     "%llu here (%p), registration %llu elsewhere (%p here)", i + 1, (unsigned long long)mine + 1,
                     surplus ? NULL : bsp.pop_ident[i], (unsigned long long)slot + 1, r->ident);
        bsp_reg_free(r, "bsp_sync");
    }
    size_t n = a0->npush;
    bsp.regs = bsp_grow(bsp.regs, &bsp.cap_regs, bsp.nregs + n, sizeof *bsp.regs, "bsp_sync");
    for (size_t i = 0; i < n; i++) {
        struct bsp_reg *r = &bsp.regs[bsp.nregs++];
        memset(r, 0, sizeof *r);
        r->ident = surplus ? NULL : bsp.pushes[i].ident;
        r->size = surplus ? 0 : bsp.pushes[i].size;
        r->sizes = calloc((size_t)bsp.p, sizeof *r->sizes);
        r->heads = calloc((size_t)bsp.p, sizeof *r->heads);
        if (!r->sizes || !r->heads)
            bsp_fail("bsp_sync", "out of memory");
        for (int q = 0; q < bsp.p; q++) {
            uint64_t v = bsp_ann_pushes(bsp_ann_of(q))[i];
            r->sizes[q] = v & 0xffffffffu;
            r->heads[q] = (uint32_t)(v >> 32);
        }
        bsp_orma("bsp_push_reg", orma_win_create((void *)r->ident, r->size, 1, ORMA_INFO_NULL, &r->win));
        bsp_orma("bsp_push_reg", orma_win_lock_all(0, r->win));
        r->live = 1;
    }
    bsp_reg_index();
}

void bsp_reg_free_all(void)
{
    for (size_t s = 0; s < bsp.nregs; s++)
        if (bsp.regs[s].live)
            bsp_reg_free(&bsp.regs[s], "bsp_end");
    BSP_FREE(bsp.regs);
    BSP_FREE(bsp.pushes);
    BSP_FREE(bsp.pops);
    BSP_FREE(bsp.pop_ident);
    BSP_FREE(bsp.touched);
    bsp.nregs = bsp.cap_regs = bsp.cap_push = bsp.cap_touched = 0;
    bsp_reg_index();
}
