/* bsp_sync.c -- the end of a superstep (bsp_impl.h has the windows).
 *
 * Every process, at the sync of superstep s:
 *   1. completes its bsp_hpput and bsp_hpget (a flush of the windows they
 *      touched);
 *   2. if it has work that needs the others -- buffered puts or gets,
 *      messages, registrations, a tag size, the end -- writes its
 *      announcement into its own meta area and the mark s+1 into its word
 *      of every process's meta area;
 *   3. waits in one barrier.  If no mark s+1 arrived, that was all: the
 *      empty superstep costs a flush of what it touched and a barrier.
 *   Otherwise every process reads the announcements of those that marked,
 *   and so knows what all will do, then:
 *   4. (gets or messages announced) does its buffered gets -- every
 *      process has ended the superstep and no put has landed yet, so each
 *      get reads the value at the end of the superstep, before the puts --
 *      and puts its messages into the receivers' inboxes; a barrier; each
 *      process takes its queue from its inbox;
 *   5. (puts announced) copies the small puts in its put box into its
 *      memory (bsp_box.c); then, after a barrier if both kinds were
 *      announced, does its staged puts; a barrier;
 *   6. (registrations announced) pops, then pushes, in the announced order
 *      (orma_win_free and orma_win_create, collective).
 * A process leaves the sync only after the last barrier, so no operation
 * of superstep s+1 reaches memory that a step above still reads or writes.
 * The extra barriers are paid only by supersteps with such work; the
 * barrier of step 3 is orma_barrier, the cheapest one the job has.  This
 * is [004]'s principle -- no barrier the semantics do not need -- with
 * BSPlib's semantics: buffered puts and gets cannot move before every
 * process has ended its superstep. */
#include "bsp_impl.h"

#include <bsp.h>

#include <stdarg.h>
#include <stdio.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The announcement's head: the part every process reads. */
static size_t ann_head(void) { return sizeof(struct bsp_ann) + 2 * (size_t)bsp.world * 8; }
static size_t ann_all(void) { return ann_head() + 2 * (size_t)BSP_REG_MAX * 8; }
static size_t work_off(int par, int src) { return ((size_t)par * bsp.world + src) * 8; }
static size_t ann_off(int par) { return 2 * (size_t)bsp.world * 8 + (size_t)par * ann_all(); }

static unsigned char *bsp_marked;   /* per rank: marked this sync */
static uint64_t bsp_mark;           /* the word orma_put sends */

uint64_t *bsp_ann_sends(struct bsp_ann *a) { return (uint64_t *)(a + 1); }
uint64_t *bsp_ann_boxes(struct bsp_ann *a) { return bsp_ann_sends(a) + bsp.world; }
uint64_t *bsp_ann_pushes(struct bsp_ann *a) { return bsp_ann_boxes(a) + bsp.world; }
uint64_t *bsp_ann_pops(struct bsp_ann *a) { return bsp_ann_pushes(a) + BSP_REG_MAX; }

struct bsp_ann *bsp_ann_of(int pid) { return (struct bsp_ann *)(bsp.anns + (size_t)pid * ann_all()); }

/* Collective over the job's ranks; returns process 0's maxprocs, which
 * holds for all (in bsp_init's form only process 0 may know it). */
int bsp_sync_start(int maxprocs)
{
    size_t bytes = ann_off(2) + 8; /* and process 0's maxprocs */
    void *base;
    bsp_orma("bsp_begin", orma_win_allocate(bytes, 1, ORMA_INFO_NULL, &base, &bsp.meta));
    memset(base, 0, bytes);
    bsp.meta_base = base;
    int64_t m = maxprocs;
    memcpy(bsp.meta_base + ann_off(2), &m, 8);
    bsp.anns = calloc((size_t)bsp.world, ann_all());
    bsp_marked = calloc((size_t)bsp.world, 1);
    if (!bsp.anns || !bsp_marked)
        bsp_fail("bsp_begin", "out of memory");
    bsp_orma("bsp_begin", orma_win_lock_all(0, bsp.meta));
    /* nobody marks a meta area before its owner has zeroed it */
    bsp_orma("bsp_begin", orma_barrier());
    bsp_orma("bsp_begin", orma_get(&m, 8, ORMA_BYTE, 0, (orma_aint)ann_off(2), 8, ORMA_BYTE, bsp.meta));
    bsp_orma("bsp_begin", orma_win_flush(0, bsp.meta));
    return m > INT32_MAX ? INT32_MAX : (int)m;
}

void bsp_sync_stop(void)
{
    bsp_orma("bsp_end", orma_win_unlock_all(bsp.meta));
    bsp_orma("bsp_end", orma_win_free(&bsp.meta));
    free(bsp.anns);
    free(bsp_marked);
    bsp.anns = bsp_marked = NULL;
}

/* An error every process sees alike: the lowest process it concerns says
 * it; the others leave it the time to, and end too. */
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
    struct timespec ts = {0, 300 * 1000 * 1000};
    nanosleep(&ts, NULL);
    orma_abort(1);
}

/* What the processes announced must agree: counts of pushes and pops,
 * the tag size, and the end. */
static void bsp_sync_check(void)
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
        if ((a->flags ^ a0->flags) & BSP_W_TAG)
            bsp_fail_one(r, "bsp_sync", "tag size mismatch: process %ld called bsp_set_tagsize in the superstep, "
                              "process %ld did not", (a->flags & BSP_W_TAG) ? (long)r : 0L,
                              (a->flags & BSP_W_TAG) ? 0L : (long)r);
        if ((a->flags & BSP_W_TAG) && a->tagsize != a0->tagsize)
            bsp_fail_one(r, "bsp_sync", "tag size mismatch: this process set tag size %ld, process 0 set %ld",
                              (long)a->tagsize, (long)a0->tagsize);
        if ((a->flags ^ a0->flags) & BSP_W_END)
            bsp_fail_one(r, "bsp_sync", "process %ld called bsp_end while process %ld called bsp_sync",
                              (a->flags & BSP_W_END) ? (long)r : 0L, (a->flags & BSP_W_END) ? 0L : (long)r);
    }
}

/* The push lists of every process (the registrations' sizes) and process
 * 0's pop list (which a surplus rank follows, and the others compare
 * theirs with). */
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
    struct bsp_ann *a0 = bsp_ann_of(0);
    size_t n = (size_t)a0->npop * 8;
    if (n)
        bsp_orma("bsp_sync", orma_get(bsp_ann_pops(a0), n, ORMA_BYTE, 0,
                                      at + (orma_aint)BSP_REG_MAX * 8, n, ORMA_BYTE, bsp.meta));
    bsp_orma("bsp_sync", orma_win_flush_all(bsp.meta));
}

static void bsp_announce(uint32_t flags, int par)
{
    struct bsp_ann *a = (struct bsp_ann *)(bsp.meta_base + ann_off(par));
    a->step = bsp.step + 1;
    a->flags = flags;
    a->npush = (uint32_t)bsp.npush;
    a->npop = (uint32_t)bsp.npop;
    a->tagsize = bsp.tagsize_next;
    uint64_t *sends = bsp_ann_sends(a), *boxes = bsp_ann_boxes(a);
    for (int d = 0; d < bsp.world; d++) {
        sends[d] = bsp_bsmp_out_bytes(d);
        boxes[d] = bsp_box_bytes(d);
    }
    for (size_t i = 0; i < bsp.npush; i++)
        bsp_ann_pushes(a)[i] = bsp.push_size[i];
    if (bsp.npop)
        memcpy(bsp_ann_pops(a), bsp.pops, bsp.npop * 8);
    bsp_mark = bsp.step + 1;
    for (int r = 0; r < bsp.world; r++)
        bsp_orma("bsp_sync", orma_put(&bsp_mark, 8, ORMA_BYTE, r, (orma_aint)work_off(par, bsp.pid), 8,
                                      ORMA_BYTE, bsp.meta));
    bsp_orma("bsp_sync", orma_win_flush_all(bsp.meta));
}

/* Reads the announcements of the processes that marked; the union of
 * their flags, or 0 when none did. */
static uint32_t bsp_read_anns(int par)
{
    const volatile uint64_t *work = (const volatile uint64_t *)(bsp.meta_base + work_off(par, 0));
    uint64_t mark = bsp.step + 1;
    int any = 0;
    for (int r = 0; r < bsp.world; r++) {
        bsp_marked[r] = work[r] == mark;
        any |= bsp_marked[r];
    }
    if (!any)
        return 0;
    size_t head = ann_head();
    for (int r = 0; r < bsp.world; r++) {
        struct bsp_ann *a = bsp_ann_of(r);
        if (bsp_marked[r])
            bsp_orma("bsp_sync", orma_get(a, head, ORMA_BYTE, r, (orma_aint)ann_off(par), head, ORMA_BYTE,
                                          bsp.meta));
        else
            memset(a, 0, head);
    }
    bsp_orma("bsp_sync", orma_win_flush_all(bsp.meta));
    uint32_t all = 0;
    for (int r = 0; r < bsp.world; r++)
        all |= bsp_ann_of(r)->flags;
    return all;
}

static void bsp_superstep_clear(void)
{
    bsp.nputs = 0;
    bsp.staged.len = 0;
    bsp_box_clear();
    bsp.ngets = 0;
    bsp.npush = 0;
    bsp.npop = 0;
    bsp.tag_set = 0;
    bsp.step++;
}

void bsp_superstep_end(int extra)
{
    int par = bsp.step & 1;
    bsp_reg_flush();
    uint32_t flags = (uint32_t)extra;
    bsp_box_send();
    if (bsp.nputs)
        flags |= BSP_W_PUT;
    if (bsp.box_any)
        flags |= BSP_W_BOX;
    if (bsp.ngets)
        flags |= BSP_W_GET;
    if (bsp.sending)
        flags |= BSP_W_SEND;
    if (bsp.npush || bsp.npop)
        flags |= BSP_W_REG;
    if (bsp.tag_set)
        flags |= BSP_W_TAG;
    if (flags)
        bsp_announce(flags, par);
    bsp_orma("bsp_sync", orma_barrier());

    uint32_t all = bsp_read_anns(par);
    if (!all) {
        bsp_bsmp_drop();
        bsp_superstep_clear();
        return;
    }
    if (bsp.pid < bsp.p)
        bsp_sync_check();
    if (all & (BSP_W_GET | BSP_W_SEND)) {
        bsp_drma_gets();
        uint64_t *sent = malloc((size_t)bsp.world * bsp.world * 8);
        if (!sent)
            bsp_fail("bsp_sync", "out of memory");
        for (int r = 0; r < bsp.world; r++)
            memcpy(sent + (size_t)r * bsp.world, bsp_ann_sends(bsp_ann_of(r)), (size_t)bsp.world * 8);
        bsp_bsmp_deliver(sent);
        free(sent);
    } else {
        bsp_bsmp_drop();
    }
    if (all & BSP_W_BOX)
        bsp_box_apply();
    if ((all & BSP_W_BOX) && (all & BSP_W_PUT)) /* a box put before a later staged one */
        bsp_orma("bsp_sync", orma_barrier());
    if (all & BSP_W_PUT)
        bsp_drma_puts();
    if (all & (BSP_W_BOX | BSP_W_PUT))
        bsp_orma("bsp_sync", orma_barrier());
    if (all & BSP_W_REG)
        bsp_reg_apply(bsp_ann_of(0));
    if (all & BSP_W_TAG)
        bsp.tagsize = bsp_ann_of(0)->tagsize;
    bsp_superstep_clear();
    if (all & BSP_W_END) {
        bsp_reg_free_all();
        bsp_box_stop();
        bsp_bsmp_stop();
        bsp_sync_stop();
        bsp.on = 0;
    }
}

void bsp_sync(void)
{
    bsp_check_on("bsp_sync");
    bsp_superstep_end(0);
}
