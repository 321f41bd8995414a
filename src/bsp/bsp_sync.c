/* bsp_sync.c -- the end of a superstep (bsp_impl.h has the windows).
 *
 * Every process, at the sync of superstep s:
 *   1. completes its direct bsp_hpput and bsp_hpget (a flush of the
 *      windows they touched);
 *   2. if it has work that needs the others -- buffered puts or gets,
 *      messages, registrations, a tag size, the end -- puts its put box
 *      regions (bsp_box.c) and a note into every process's meta area: the
 *      mark s+1, what kinds of work it has, the tag size it set, and the
 *      bytes of box records it has for that process;
 *   3. waits in one barrier.  If no note of superstep s arrived, that was
 *      all: the empty superstep costs a flush of what it touched and a
 *      barrier.  Otherwise every process knows from its notes what all
 *      will do (a process with work writes to every process), and:
 *   4. (gets or messages noted) does its buffered gets -- every process has
 *      ended the superstep and no put has landed yet, so each get reads the
 *      value at the end of the superstep, before the puts; a get into
 *      registered memory, which another get may read, lands in a staging
 *      buffer first -- and puts its messages into the receivers' inboxes
 *      (their offsets from the announcements, read now); a barrier; each
 *      process moves its staged gets to their destinations and takes its
 *      queue from its inbox;
 *   5. (box records noted) copies the records in its box into its memory;
 *   6. (staged puts noted) after a barrier if there were box records or
 *      staged gets too, does its staged puts; a barrier;
 *   7. (registrations noted) pops, then pushes, in the announced order
 *      (orma_win_free and orma_win_create, collective).
 * A superstep whose only puts went through the boxes -- the small ones --
 * costs one barrier, as a fence does: the step-5 copies of a process then
 * run while the others may have begun superstep s+1.  What could meet them
 * there is guarded: box regions and notes alternate between two copies by
 * the superstep's parity (a process is at most one sync ahead of another),
 * and a direct operation of superstep s+1 on a process first waits until
 * that process says it has applied its box of s (bsp_sync_guard).  Any
 * other step ends with the barrier after it.  This is [004]'s principle --
 * no barrier the semantics do not need -- with BSPlib's semantics:
 * buffered puts and gets cannot move before every process has ended its
 * superstep. */
#include "bsp_impl.h"

#include <bsp.h>

#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* What a process with work writes into every process's meta area. */
struct bsp_note {
    uint64_t mark; /* the superstep + 1 */
    uint32_t flags;
    int32_t tagsize;     /* set by bsp_set_tagsize (BSP_W_TAG) */
    uint64_t box_bytes;  /* of records in the receiver's box region */
};

/* The meta area of a process, in bytes: notes[2][world], anns[2], process
 * 0's maxprocs, the applied word, the put box (bsp_box.c) from box_at. */
static size_t ann_head(void) { return sizeof(struct bsp_ann) + (size_t)bsp.world * 8; }
static size_t ann_all(void) { return ann_head() + 2 * (size_t)BSP_REG_MAX * 8; }
static size_t note_off(int par, int src) { return ((size_t)par * bsp.world + src) * sizeof(struct bsp_note); }
static size_t ann_off(int par) { return note_off(2, 0) + (size_t)par * ann_all(); }
static size_t maxprocs_off(void) { return ann_off(2); }
static size_t applied_off(void) { return ann_off(2) + 8; }

static struct bsp_note *bsp_notes_out; /* orma_put reads them until the flush */
static struct bsp_note *bsp_notes_in;  /* this sync's, per process (0 when none) */
static unsigned char *bsp_checked;     /* per process: guarded this superstep */
static uint64_t *bsp_sent;             /* [src * world + dst]: bytes of messages */

uint64_t *bsp_ann_sends(struct bsp_ann *a) { return (uint64_t *)(a + 1); }
uint64_t *bsp_ann_pushes(struct bsp_ann *a) { return bsp_ann_sends(a) + bsp.world; }
uint64_t *bsp_ann_pops(struct bsp_ann *a) { return bsp_ann_pushes(a) + BSP_REG_MAX; }

struct bsp_ann *bsp_ann_of(int pid) { return (struct bsp_ann *)(bsp.anns + (size_t)pid * ann_all()); }

uint64_t bsp_note_box_bytes(int src) { return bsp_notes_in[src].box_bytes; }

/* Collective over the job's ranks; returns process 0's maxprocs, which
 * holds for all (in bsp_init's form only process 0 may know it). */
int bsp_sync_start(int maxprocs)
{
    size_t at = (applied_off() + 8 + 63) & ~(size_t)63;
    size_t bytes = at + bsp_box_bytes_needed();
    void *base;
    bsp_orma("bsp_begin", orma_win_allocate(bytes, 1, ORMA_INFO_NULL, &base, &bsp.meta));
    memset(base, 0, bytes);
    bsp.meta_base = base;
    bsp.box_at = at;
    int64_t m = maxprocs;
    memcpy(bsp.meta_base + maxprocs_off(), &m, 8);
    bsp.anns = calloc((size_t)bsp.world, ann_all());
    bsp_notes_out = calloc((size_t)bsp.world, sizeof *bsp_notes_out);
    bsp_notes_in = calloc((size_t)bsp.world, sizeof *bsp_notes_in);
    bsp_checked = calloc((size_t)bsp.world, 1);
    bsp_sent = calloc((size_t)bsp.world * bsp.world, 8);
    if (!bsp.anns || !bsp_notes_out || !bsp_notes_in || !bsp_checked || !bsp_sent)
        bsp_fail("bsp_begin", "out of memory");
    bsp_orma("bsp_begin", orma_win_lock_all(0, bsp.meta));
    /* nobody writes a meta area before its owner has zeroed it */
    bsp_orma("bsp_begin", orma_barrier());
    bsp_orma("bsp_begin", orma_get(&m, 8, ORMA_BYTE, 0, (orma_aint)maxprocs_off(), 8, ORMA_BYTE, bsp.meta));
    bsp_orma("bsp_begin", orma_win_flush(0, bsp.meta));
    return m > INT32_MAX ? INT32_MAX : (int)m;
}

void bsp_sync_stop(void)
{
    bsp_orma("bsp_end", orma_win_unlock_all(bsp.meta));
    bsp_orma("bsp_end", orma_win_free(&bsp.meta));
    BSP_FREE(bsp.anns);
    BSP_FREE(bsp_notes_out);
    BSP_FREE(bsp_notes_in);
    BSP_FREE(bsp_checked);
    BSP_FREE(bsp_sent);
}

void bsp_fail_one(int reporter, const char *call, const char *fmt, ...)
{
    if (bsp.pid == reporter) {
        char msg[400];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        bsp_fail(call, "%s", msg);
    }
    /* the reporter's end ends this process; should it not, after 5 s */
    struct timespec ts = {5, 0};
    nanosleep(&ts, NULL);
    orma_abort(1);
}

/* What the processes noted must agree: the tag size, and the end. */
static void bsp_sync_check_notes(void)
{
    const struct bsp_note *n0 = &bsp_notes_in[0];
    for (int r = 1; r < bsp.p; r++) {
        const struct bsp_note *n = &bsp_notes_in[r];
        if ((n->flags ^ n0->flags) & BSP_W_TAG)
            bsp_fail_one(r, "bsp_sync", "tag size mismatch: process %ld called bsp_set_tagsize in the "
                         "superstep, process %ld did not", (n->flags & BSP_W_TAG) ? (long)r : 0L,
                         (n->flags & BSP_W_TAG) ? 0L : (long)r);
        if ((n->flags & BSP_W_TAG) && n->tagsize != n0->tagsize)
            bsp_fail_one(r, "bsp_sync", "tag size mismatch: this process set tag size %ld, process 0 set %ld",
                         (long)n->tagsize, (long)n0->tagsize);
        if ((n->flags ^ n0->flags) & BSP_W_END)
            bsp_fail_one(r, "bsp_sync", "process %ld called bsp_end while process %ld called bsp_sync",
                         (n->flags & BSP_W_END) ? (long)r : 0L, (n->flags & BSP_W_END) ? 0L : (long)r);
    }
}

/* ... and the counts of pushes and pops (from the announcements). */
static void bsp_sync_check_anns(void)
{
    struct bsp_ann *a0 = bsp_ann_of(0);
    for (int r = 1; r < bsp.p; r++) {
        struct bsp_ann *a = bsp_ann_of(r);
        if (a->npush != a0->npush)
            bsp_fail_one(r, "bsp_sync", "registration mismatch: this process pushed %ld registrations in the "
                         "superstep, process 0 pushed %ld", (long)a->npush, (long)a0->npush);
        if (a->npop != a0->npop)
            bsp_fail_one(r, "bsp_sync", "registration mismatch: this process popped %ld registrations in the "
                         "superstep, process 0 popped %ld", (long)a->npop, (long)a0->npop);
    }
}

/* The push lists (the registrations' sizes) and pop lists of every
 * process. */
void bsp_ann_read_lists(void)
{
    int par = bsp.step & 1;
    orma_aint at = (orma_aint)(ann_off(par) + ann_head());
    for (int r = 0; r < bsp.p; r++) {
        struct bsp_ann *a = bsp_ann_of(r);
        size_t n = (size_t)a->npush * 8;
        if (n)
            bsp_orma("bsp_sync", orma_get(bsp_ann_pushes(a), n, ORMA_BYTE, r, at, n, ORMA_BYTE, bsp.meta));
    }
    for (int r = 0; r < bsp.p; r++) {
        struct bsp_ann *a = bsp_ann_of(r);
        size_t n = (size_t)a->npop * 8;
        if (n)
            bsp_orma("bsp_sync", orma_get(bsp_ann_pops(a), n, ORMA_BYTE, r, at + (orma_aint)BSP_REG_MAX * 8, n,
                                          ORMA_BYTE, bsp.meta));
    }
    bsp_orma("bsp_sync", orma_win_flush_all(bsp.meta));
}

/* Step 2: the box regions, this process's announcement (read by the
 * others only when it has messages or registrations), and the notes. */
static void bsp_announce(uint32_t flags, int par)
{
    bsp_box_send(par);
    struct bsp_ann *a = (struct bsp_ann *)(bsp.meta_base + ann_off(par));
    a->npush = (uint32_t)bsp.npush;
    a->npop = (uint32_t)bsp.npop;
    uint64_t *sends = bsp_ann_sends(a);
    for (int d = 0; d < bsp.world; d++)
        sends[d] = bsp_bsmp_out_bytes(d);
    for (size_t i = 0; i < bsp.npush; i++) /* the size, and where the first page begins */
        bsp_ann_pushes(a)[i] = bsp.pushes[i].size | (uint64_t)bsp_reg_head(bsp.pushes[i].ident) << 32;
    if (bsp.npop)
        memcpy(bsp_ann_pops(a), bsp.pops, bsp.npop * 8);
    for (int r = 0; r < bsp.world; r++) {
        struct bsp_note *n = &bsp_notes_out[r];
        n->mark = bsp.step + 1;
        n->flags = flags;
        n->tagsize = bsp.tagsize_next;
        n->box_bytes = bsp_box_bytes(r);
        bsp_orma("bsp_sync", orma_put(n, sizeof *n, ORMA_BYTE, r, (orma_aint)note_off(par, bsp.pid), sizeof *n,
                                      ORMA_BYTE, bsp.meta));
    }
    bsp_orma("bsp_sync", orma_win_flush_all(bsp.meta));
}

/* Step 3's reading: this sync's notes; the union of their flags, or 0. */
static uint32_t bsp_read_notes(int par)
{
    const struct bsp_note *in = (const struct bsp_note *)(bsp.meta_base + note_off(par, 0));
    uint64_t mark = bsp.step + 1;
    uint32_t all = 0;
    for (int r = 0; r < bsp.world; r++) {
        if (in[r].mark == mark) {
            bsp_notes_in[r] = in[r];
            all |= in[r].flags;
        } else {
            memset(&bsp_notes_in[r], 0, sizeof bsp_notes_in[r]);
        }
    }
    return all;
}

/* The announcements' heads of the processes with work. */
static void bsp_read_anns(int par)
{
    size_t head = ann_head();
    for (int r = 0; r < bsp.world; r++) {
        struct bsp_ann *a = bsp_ann_of(r);
        if (bsp_notes_in[r].mark)
            bsp_orma("bsp_sync", orma_get(a, head, ORMA_BYTE, r, (orma_aint)ann_off(par), head, ORMA_BYTE,
                                          bsp.meta));
        else
            memset(a, 0, head);
    }
    bsp_orma("bsp_sync", orma_win_flush_all(bsp.meta));
}

/* Before the first direct operation of a superstep on pid: when the last
 * sync ended without a barrier after the box copies, waits until pid has
 * done them. */
void bsp_sync_guard(int pid)
{
    if (!bsp.unfenced || bsp_checked[pid])
        return;
    for (unsigned spins = 0;; spins++) {
        uint64_t applied;
        bsp_orma("bsp_sync", orma_get(&applied, 8, ORMA_BYTE, pid, (orma_aint)applied_off(), 8, ORMA_BYTE,
                                      bsp.meta));
        bsp_orma("bsp_sync", orma_win_flush(pid, bsp.meta));
        if (applied >= bsp.step)
            break;
        if (spins > 64)
            sched_yield(); /* pid may need this core */
    }
    atomic_thread_fence(memory_order_acquire);
    bsp_checked[pid] = 1;
}

static void bsp_superstep_clear(void)
{
    bsp.nputs = 0;
    bsp.staged.len = 0;
    bsp_box_clear();
    bsp.ngets = 0;
    bsp.got_any = 0;
    bsp.npush = 0;
    bsp.npop = 0;
    bsp.tag_set = 0;
    memset(bsp_checked, 0, (size_t)bsp.world);
    bsp.step++;
}

void bsp_superstep_end(int extra)
{
    int par = bsp.step & 1;
    bsp_reg_flush();
    uint32_t flags = (uint32_t)extra;
    if (bsp.nputs)
        flags |= BSP_W_PUT;
    if (bsp.box_any)
        flags |= BSP_W_BOX;
    if (bsp.ngets)
        flags |= BSP_W_GET;
    if (bsp.got_any)
        flags |= BSP_W_GOT;
    if (bsp.sending)
        flags |= BSP_W_SEND;
    if (bsp.npush || bsp.npop)
        flags |= BSP_W_REG;
    if (bsp.tag_set)
        flags |= BSP_W_TAG;
    if (flags)
        bsp_announce(flags, par);
    bsp_orma("bsp_sync", orma_barrier());

    uint32_t all = bsp_read_notes(par);
    bsp.unfenced = 0;
    if (!all) {
        bsp_bsmp_drop();
        bsp_superstep_clear();
        return;
    }
    if (bsp.pid < bsp.p)
        bsp_sync_check_notes();
    if (all & (BSP_W_SEND | BSP_W_REG)) {
        bsp_read_anns(par);
        if (bsp.pid < bsp.p)
            bsp_sync_check_anns();
    }
    if (all & (BSP_W_GET | BSP_W_SEND)) {
        bsp_drma_gets();
        memset(bsp_sent, 0, (size_t)bsp.world * bsp.world * 8);
        if (all & BSP_W_SEND)
            for (int r = 0; r < bsp.world; r++)
                memcpy(bsp_sent + (size_t)r * bsp.world, bsp_ann_sends(bsp_ann_of(r)), (size_t)bsp.world * 8);
        bsp_bsmp_deliver(bsp_sent);
        bsp_drma_gets_land(); /* after every get has read */
    } else {
        bsp_bsmp_drop();
    }
    if (all & BSP_W_BOX)
        bsp_box_apply(par);
    /* a staged put lands after the box copies and the staged gets */
    if ((all & (BSP_W_BOX | BSP_W_GOT)) && (all & BSP_W_PUT))
        bsp_orma("bsp_sync", orma_barrier());
    if (all & BSP_W_PUT) {
        bsp_drma_puts();
        bsp_orma("bsp_sync", orma_barrier());
    } else if (all & BSP_W_BOX) {
        bsp.unfenced = 1;
    }
    if (all & BSP_W_REG) /* orma_win_create and _free return when every rank has adopted or released */
        bsp_reg_apply();
    if (bsp.unfenced) { /* what bsp_sync_guard waits for */
        atomic_thread_fence(memory_order_release);
        uint64_t applied = bsp.step + 1;
        memcpy(bsp.meta_base + applied_off(), &applied, 8);
    }
    if (all & BSP_W_TAG)
        bsp.tagsize = bsp_notes_in[0].tagsize;
    bsp_superstep_clear();
    if (all & BSP_W_END) {
        bsp_reg_free_all();
        bsp_drma_free();
        bsp_bsmp_stop();
        bsp_box_stop();
        bsp_sync_stop();
        bsp.on = 0;
    }
}

void bsp_sync(void)
{
    bsp_check_on("bsp_sync");
    bsp_superstep_end(0);
}
