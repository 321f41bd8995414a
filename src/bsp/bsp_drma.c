/* bsp_drma.c -- BSPlib's direct remote memory access: bsp_put and bsp_get
 * (buffered: recorded now, done by bsp_sync; bsp_sync.c says when), and
 * bsp_hpput and bsp_hpget (orma_put and orma_get at once; a small hpput
 * through the put box, as a small put). */
#include "bsp_impl.h"

#include <bsp.h>

#include <stdlib.h>
#include <string.h>

/* A transfer of no bytes: nothing to do (bsp_drma_check). */
#define BSP_DRMA_NOTHING SIZE_MAX

/* The checks every DRMA call makes, buf being its local buffer (which: src
 * or dst); the registration's slot, or BSP_DRMA_NOTHING. */
static size_t bsp_drma_check(const char *call, int pid, const void *ident, int offset, int nbytes, const void *buf,
                             const char *which)
{
    bsp_check_on(call);
    bsp_check_pid(call, pid);
    size_t slot = bsp_reg_find(ident, call);
    bsp_check_range(call, slot, pid, offset, nbytes);
    if (nbytes == 0)
        return BSP_DRMA_NOTHING;
    if (!buf)
        bsp_fail(call, "%s is NULL", which);
    return slot;
}

/* hpput and hpget: the transfer issued at once. */
static inline void bsp_drma_now(const char *call, int put, int pid, size_t slot, void *buf, int offset, int nbytes)
{
    size_t n = (size_t)nbytes;
    bsp_sync_guard(pid);
    bsp_reg_touch(slot);
    orma_win win = bsp.regs[slot].win;
    bsp_orma(call, put ? orma_put(buf, n, ORMA_BYTE, pid, offset, n, ORMA_BYTE, win)
                       : orma_get(buf, n, ORMA_BYTE, pid, offset, n, ORMA_BYTE, win));
}

void bsp_put(int pid, const void *src, void *dst, int offset, int nbytes)
{
    size_t slot = bsp_drma_check("bsp_put", pid, dst, offset, nbytes, src, "src");
    if (slot == BSP_DRMA_NOTHING || bsp_box_put(pid, slot, src, (size_t)offset, (size_t)nbytes, 0))
        return;
    struct bsp_put_rec *p = bsp.nputs ? &bsp.puts[bsp.nputs - 1] : NULL;
    if (p && p->slot == slot && p->pid == pid && p->off + p->n == (size_t)offset) {
        /* continues the last put: one transfer at the sync */
        p->n += (size_t)nbytes;
        bsp_bytes_add(&bsp.staged, src, (size_t)nbytes, "bsp_put");
        return;
    }
    bsp.puts = bsp_grow(bsp.puts, &bsp.cap_puts, bsp.nputs + 1, sizeof *bsp.puts, "bsp_put");
    p = &bsp.puts[bsp.nputs++];
    p->slot = slot;
    p->pid = pid;
    p->off = (size_t)offset;
    p->n = (size_t)nbytes;
    p->at = bsp.staged.len;
    bsp_bytes_add(&bsp.staged, src, (size_t)nbytes, "bsp_put");
}

void bsp_get(int pid, const void *src, int offset, void *dst, int nbytes)
{
    size_t slot = bsp_drma_check("bsp_get", pid, src, offset, nbytes, dst, "dst");
    if (slot == BSP_DRMA_NOTHING)
        return;
    bsp.gets = bsp_grow(bsp.gets, &bsp.cap_gets, bsp.ngets + 1, sizeof *bsp.gets, "bsp_get");
    struct bsp_get_rec *g = &bsp.gets[bsp.ngets++];
    g->slot = slot;
    g->pid = pid;
    g->off = (size_t)offset;
    g->n = (size_t)nbytes;
    g->dst = dst;
    g->staged = bsp_reg_local(dst, g->n);
    bsp.got_any |= g->staged;
}

void bsp_hpput(int pid, const void *src, void *dst, int offset, int nbytes)
{
    size_t slot = bsp_drma_check("bsp_hpput", pid, dst, offset, nbytes, src, "src");
    if (slot == BSP_DRMA_NOTHING)
        return;
    /* Where orma would not map the target's bytes, a few KB cost less
     * through the put box than as a transfer of their own, which takes a
     * system call (bsp_box.c); hpput may land any time before the sync, so
     * the box's landing at the sync is one of its choices. */
    if (!bsp_box_put(pid, slot, src, (size_t)offset, (size_t)nbytes, 1))
        bsp_drma_now("bsp_hpput", 1, pid, slot, (void *)src, offset, nbytes);
}

void bsp_hpget(int pid, const void *src, int offset, void *dst, int nbytes)
{
    size_t slot = bsp_drma_check("bsp_hpget", pid, src, offset, nbytes, dst, "dst");
    if (slot != BSP_DRMA_NOTHING)
        bsp_drma_now("bsp_hpget", 0, pid, slot, dst, offset, nbytes);
}

/* At the sync, after every process has ended the superstep.  A get whose
 * destination lies in registered memory lands in the staging buffer: the
 * other gets of the sync, this process's or another's, may still read
 * those bytes, and must read their value at the end of the superstep. */
void bsp_drma_gets(void)
{
    size_t need = 0;
    for (size_t i = 0; i < bsp.ngets; i++)
        if (bsp.gets[i].staged)
            need += bsp.gets[i].n;
    bsp.got.len = 0;
    bsp.got.data = bsp_grow(bsp.got.data, &bsp.got.cap, need, 1, "bsp_sync");
    for (size_t i = 0; i < bsp.ngets; i++) {
        const struct bsp_get_rec *g = &bsp.gets[i];
        void *into = g->dst;
        if (g->staged) {
            into = bsp.got.data + bsp.got.len;
            bsp.got.len += g->n;
        }
        bsp_reg_touch(g->slot);
        bsp_orma("bsp_sync", orma_get(into, g->n, ORMA_BYTE, g->pid, (orma_aint)g->off, g->n, ORMA_BYTE,
                                      bsp.regs[g->slot].win));
    }
    bsp_reg_flush();
}

/* After the barrier that ends every process's gets (and before any
 * staged put may land: bsp_sync.c). */
void bsp_drma_gets_land(void)
{
    size_t at = 0;
    for (size_t i = 0; i < bsp.ngets; i++) {
        const struct bsp_get_rec *g = &bsp.gets[i];
        if (!g->staged)
            continue;
        memcpy(g->dst, bsp.got.data + at, g->n);
        at += g->n;
    }
}

/* At the sync, after every process has done its gets. */
void bsp_drma_puts(void)
{
    for (size_t i = 0; i < bsp.nputs; i++) {
        const struct bsp_put_rec *p = &bsp.puts[i];
        bsp_reg_touch(p->slot);
        bsp_orma("bsp_sync", orma_put(bsp.staged.data + p->at, p->n, ORMA_BYTE, p->pid, (orma_aint)p->off, p->n,
                                     ORMA_BYTE, bsp.regs[p->slot].win));
    }
    bsp_reg_flush();
}

void bsp_drma_free(void)
{
    BSP_FREE(bsp.puts);
    BSP_FREE(bsp.gets);
    free(bsp.staged.data);
    free(bsp.got.data);
    memset(&bsp.staged, 0, sizeof bsp.staged);
    memset(&bsp.got, 0, sizeof bsp.got);
    bsp.cap_puts = bsp.cap_gets = 0;
}
