/* bsp_box.c -- small buffered puts through the target's put box.
 *
 * A registered area is an orma window over the program's own memory, which
 * orma reaches directly only where it could map whole pages of it; the
 * rest takes a system call per transfer (~1.3 us here).  A bsp_put of a few
 * words, done by its origin at the sync, paid one each: g for one-word
 * h-relations was ~2 us per word.  So a small put goes, during the call,
 * into the target's put box -- one window of orma_win_allocate, shared
 * memory on a node, with a region per origin -- as a record (the
 * registration's slot, the offset, the length, the bytes), and the target
 * copies the records of every origin into its own memory at the sync,
 * after the gets (bsp_sync.c).  An origin fills its region in order; the
 * sync's announcements say how many bytes.
 *
 * Order: a put that does not fit (too large, or its region is full) is
 * staged as before and done by the origin after every box has been
 * applied -- and so is every later put of that origin to that target, so
 * that two puts of one origin to the same bytes land in the order they
 * were called.
 *
 * A region of superstep s is written and read during sync s.  The target
 * may still be copying from it when the origin, past the sync's barrier,
 * writes its next regions: they go to the other of two copies, by the
 * superstep's parity. */
#include "bsp_impl.h"

#include <stdlib.h>
#include <string.h>

#define BSP_BOX_PUT_MAX 1024       /* bytes of a put the box takes always */
#define BSP_BOX_UNMAPPED_MAX 8192  /* ... and where orma would not map the target */
#define BSP_BOX_TOTAL (1 << 20) /* bytes of a box, shared by the origins */
#define BSP_BOX_MIN 16384       /* bytes of an origin's region at least (two of the largest records) */

struct bsp_box_rec {
    uint32_t slot;
    uint32_t n;
    uint64_t off;
};

static size_t bsp_box_region_bytes(void)
{
    size_t region = BSP_BOX_TOTAL / (size_t)bsp.world;
    if (region < BSP_BOX_MIN)
        region = BSP_BOX_MIN;
    return region & ~(size_t)7;
}

/* The box's bytes in the meta window: a region per origin, two copies. */
size_t bsp_box_bytes_needed(void) { return 2 * bsp_box_region_bytes() * (size_t)bsp.world; }

void bsp_box_start(void)
{
    bsp.box_region = bsp_box_region_bytes();
    bsp.box_used = calloc((size_t)bsp.world, sizeof *bsp.box_used);
    bsp.box_closed = calloc((size_t)bsp.world, 1);
    bsp.box_out = malloc(bsp.box_region * (size_t)bsp.world);
    if (!bsp.box_used || !bsp.box_closed || !bsp.box_out)
        bsp_fail("bsp_begin", "out of memory");
}

void bsp_box_stop(void)
{
    BSP_FREE(bsp.box_used);
    BSP_FREE(bsp.box_closed);
    BSP_FREE(bsp.box_out);
}

/* Where origin src's region of parity par lies in a meta area. */
static size_t bsp_box_off(int par, int src)
{
    return bsp.box_at + ((size_t)par * bsp.world + (size_t)src) * bsp.box_region;
}

/* 1 when the put went into pid's box; 0: stage it (bsp_put), or put it
 * at once (hp, bsp_hpput).  The box takes a put of up to 1 KB -- a record
 * costs less than a transfer of its own even where orma maps the target
 * (~30 ns against ~60 per word) -- and, where orma would take a system call
 * (bsp_reg_mapped), one of up to 8 KB; an hpput to mapped bytes goes at
 * once.  Once a put to pid is staged, every later one is, in order. */
int bsp_box_put(int pid, size_t slot, const void *src, size_t off, size_t n, int hp)
{
    size_t whole = sizeof(struct bsp_box_rec) + pad8(n);
    if (bsp.box_closed[pid])
        return 0;
    int mapped = bsp_reg_mapped(slot, pid, off, n);
    if (hp && mapped)
        return 0;
    if (n > (mapped ? BSP_BOX_PUT_MAX : BSP_BOX_UNMAPPED_MAX) || bsp.box_used[pid] + whole > bsp.box_region ||
        slot > UINT32_MAX) {
        if (!hp)
            bsp.box_closed[pid] = 1;
        return 0;
    }
    struct bsp_box_rec h = {(uint32_t)slot, (uint32_t)n, off};
    unsigned char *at = bsp.box_out + bsp.box_region * (size_t)pid + bsp.box_used[pid];
    memcpy(at, &h, sizeof h);
    memcpy(at + sizeof h, src, n);
    bsp.box_used[pid] += whole;
    bsp.box_any = 1;
    return 1;
}

uint64_t bsp_box_bytes(int dst) { return bsp.box_used[dst]; }

/* Before the sync's barrier: each region into its target's box (the
 * sync's flush of the meta window completes them). */
void bsp_box_send(int par)
{
    if (!bsp.box_any)
        return;
    orma_aint at = (orma_aint)bsp_box_off(par, bsp.pid);
    for (int d = 0; d < bsp.world; d++) {
        size_t n = bsp.box_used[d];
        if (n)
            bsp_orma("bsp_sync", orma_put(bsp.box_out + bsp.box_region * (size_t)d, n, ORMA_BYTE, d, at, n,
                                         ORMA_BYTE, bsp.meta));
    }
}

/* At the sync: every origin's records into this process's memory. */
void bsp_box_apply(int par)
{
    for (int src = 0; src < bsp.world; src++) {
        uint64_t bytes = bsp_note_box_bytes(src);
        const unsigned char *at = bsp.meta_base + bsp_box_off(par, src), *end = at + bytes;
        while (at < end) {
            struct bsp_box_rec h;
            memcpy(&h, at, sizeof h);
            const struct bsp_reg *r = &bsp.regs[h.slot];
            memcpy((unsigned char *)(uintptr_t)r->ident + h.off, at + sizeof h, h.n);
            at += sizeof h + pad8(h.n);
        }
    }
}

void bsp_box_clear(void)
{
    memset(bsp.box_used, 0, (size_t)bsp.world * sizeof *bsp.box_used);
    memset(bsp.box_closed, 0, (size_t)bsp.world);
    bsp.box_any = 0;
}
