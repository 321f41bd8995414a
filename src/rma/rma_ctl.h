/* rma_ctl.h -- the window's control segment, shared by every rank of it.
 *
 * Created by rank 0 when the window is created, mapped by all, unlinked as
 * soon as all have it.  Offsets, never pointers; fixed-width fields; a field
 * written by one rank sits on a cache line no other rank writes.
 *
 *   header | rank block 0 | ... | rank block n-1 | barrier flags | boxes
 *
 * A rank block is rma_ctl_block_size(nranks) bytes. */
#ifndef ORMA_RMA_CTL_H
#define ORMA_RMA_CTL_H

#include "util_wait.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define RMA_CTL_MAGIC 0x776e6463u
#define RMA_LINE 64

struct rma_ctl_header {
    uint32_t magic;      /* writer: rank 0, at creation */
    uint32_t nranks;     /* writer: rank 0, at creation */
    uint64_t box_off;    /* writer: rank 0, at creation: where the boxes
                            begin (rma_box.h), or 0: none */
    uint32_t pad[12];
};

/* One attached region of a dynamic window, an entry of its owner's region
 * table (rma_dynamic.c: a segment of its own, sorted by base); seg_seq != 0
 * names the owner's segment holding [base + map_lo, base + map_hi) of it
 * (direct access): an orma_alloc_mem allocation, which holds all of it, or
 * the region's whole pages adopted at attach (shm_adopt.h); the rest is
 * private memory (single-copy syscalls).  Writer: the owner. */
struct rma_region {
    _Atomic uint64_t base;    /* address at the owner */
    _Atomic uint64_t size;
    _Atomic uint64_t seg_seq; /* 0: private memory */
    _Atomic uint64_t seg_off; /* where base would be in that segment, modulo
                                 2^64 (adopted: before its start) */
    _Atomic uint64_t map_lo, map_hi; /* seg_seq != 0: the mapped bytes */
};

struct rma_ctl_rank {
    /* line 0 -- writer: the owner.  Number of the last fence epoch the owner
     * has opened; origins wait on it before touching the owner's memory. */
    struct util_waitword fence_seq;
    char pad0[RMA_LINE - sizeof(struct util_waitword)];

    /* line 1 -- writer: the owner (attach/detach).  A sequence lock: odd
     * while the region table, its length or its name changes.  The table is
     * the segment "m<regions_seq>-r<job rank>" (0: none yet), of nregions
     * entries (struct rma_region). */
    _Atomic uint32_t regions_version;
    _Atomic uint32_t nregions;
    _Atomic uint64_t regions_seq;
    /* Writer: the owner.  The closing fences after which it has emptied
     * its boxes (rma_box.h). */
    struct util_waitword box_drained;
    /* Writer: the owner.  Its notification counters (rma_notify.h): the
     * segment "m<notify_seq>-r<job rank>", or 0: none. */
    _Atomic uint64_t notify_seq;
    /* Writer: the owner.  Its access table of ORMA_CHECK=race
     * (rma_race.h): the segment "m<race_seq>-r<job rank>", or 0: none. */
    _Atomic uint64_t race_seq;
    char pad1[RMA_LINE - 32 - sizeof(struct util_waitword)];

    /* line 2 -- writers: every rank locking this window.  A fair
     * reader-writer ticket lock (Mellor-Crummey and Scott): the high half
     * counts exclusive requests/releases, the low half shared ones.  An
     * exclusive holder owns the lock when lock_done equals the value
     * lock_req had when it asked; a shared one when the high halves match.
     * A carry out of the low half acts as one more exclusive request and
     * release, seen by both words alike, so wrap-around is harmless. */
    _Atomic uint64_t lock_req;
    _Atomic uint64_t lock_done;
    struct util_waitword lock_released; /* bumped by a release that finds lock_waiters: they sleep on it */
    _Atomic uint32_t lock_waiters;      /* origins waiting for the lock (rma_lock.h) */
    /* Writers: origins putting into a box of the owner's (and the owner,
     * emptying them): nonzero when some box may hold entries. */
    _Atomic uint32_t box_dirty;
    /* Writers: origins of passive epochs offering the owner a box to empty
     * (rma_box.h), and the owner: nonzero when one may be offered. */
    _Atomic uint32_t pbox_dirty;
    char pad2[RMA_LINE - 16 - sizeof(struct util_waitword) - 12];

    /* line 3 -- writers: origins of PSCW epochs, after raising their own
     * complete_from slot; the owner sleeps on it in orma_win_wait. */
    struct util_waitword complete_any;
    /* complete_from[] itself when the window has at most RMA_CTL_NEAR
     * ranks: then an origin's completion and the wake-up it causes touch
     * one cache line of the target, and wait reads one line. */
    _Atomic uint32_t complete_near[(RMA_LINE - sizeof(struct util_waitword)) / sizeof(uint32_t)];

    /* followed by, at offsets from rma_ctl_post_from() etc.:
     *   post_from[nranks]     writer: rank t bumps slot t when it posts an
     *                         exposure epoch that includes the owner
     *   complete_from[nranks] writer: rank o bumps slot o when it completes
     *                         an access epoch that included the owner
     *                         (none: line 3 holds it in small windows)
 *   stripes[RMA_STRIPES]  writers: every rank updating the owner's memory
 *                         under locks (rma_stripe.h)
 *   hw_busy[nranks]       writer: the owner; slot t is odd while the owner
 *                         updates rank t's memory with hardware atomics
 *   hw_threads            the same for the owner's threads under
 *                         ORMA_THREAD_MULTIPLE (rma_stripe.h): a pair of
 *                         lines whose first word counts the slots its
 *                         threads have used in this window (writers: those
 *                         threads, raising it), then RMA_HW_THREADS pairs of
 *                         lines of one slot each, odd while the one thread
 *                         holding it updates any rank's memory with
 *                         hardware atomics */
};

#define RMA_ROUND_LINE(x) (((x) + RMA_LINE - 1) / RMA_LINE * RMA_LINE)
#define RMA_CTL_NEAR ((RMA_LINE - sizeof(struct util_waitword)) / sizeof(uint32_t))

/* Bytes of the complete_from array after the rank block (none when it fits
 * in the block's line 3). */
_Static_assert(sizeof(struct rma_ctl_rank) == 4 * RMA_LINE, "rank block header is four lines");

static inline size_t rma_ctl_complete_bytes(uint32_t nranks)
{
    return nranks <= RMA_CTL_NEAR ? 0 : RMA_ROUND_LINE(nranks * sizeof(uint32_t));
}

/* The accumulate locks of one rank's memory: stripe s guards the bytes whose
 * offset (dynamic windows: address) o has (o >> RMA_STRIPE_SHIFT) mod
 * RMA_STRIPES == s: 64 KB each, so that an accumulate of up to 64 KB takes
 * one or two locks, and ranges 64 KB apart do not wait for each other. */
#define RMA_STRIPES 64
#define RMA_STRIPE_SHIFT 16

/* Threads of one rank that may update with hardware atomics at once; the
 * others take the stripes (rma_stripe.h). */
#define RMA_HW_THREADS 8
/* Each in a pair of lines of its own, as the count before them: a core
 * fetches lines in aligned pairs, and two threads' slots in one pair would
 * move it between their cores. */
#define RMA_HW_STRIDE (2 * RMA_LINE)
#define RMA_HW_THREADS_BYTES ((1 + RMA_HW_THREADS) * RMA_HW_STRIDE)

static inline size_t rma_ctl_block_size(uint32_t nranks)
{
    return sizeof(struct rma_ctl_rank) + RMA_ROUND_LINE(nranks * sizeof(struct util_waitword)) +
           rma_ctl_complete_bytes(nranks) + RMA_ROUND_LINE(RMA_STRIPES * sizeof(uint32_t)) +
           RMA_ROUND_LINE(nranks * sizeof(uint32_t)) + RMA_HW_THREADS_BYTES;
}

static inline struct rma_ctl_rank *rma_ctl_block(struct rma_ctl_header *h, int rank)
{
    return (struct rma_ctl_rank *)((char *)h + sizeof *h + (size_t)rank * rma_ctl_block_size(h->nranks));
}

static inline struct util_waitword *rma_ctl_post_from(struct rma_ctl_header *h, struct rma_ctl_rank *c)
{
    (void)h;
    return (struct util_waitword *)(c + 1);
}

static inline _Atomic uint32_t *rma_ctl_complete_from(struct rma_ctl_header *h, struct rma_ctl_rank *c)
{
    if (h->nranks <= RMA_CTL_NEAR)
        return c->complete_near;
    return (_Atomic uint32_t *)((char *)(c + 1) + RMA_ROUND_LINE(h->nranks * sizeof(struct util_waitword)));
}

static inline _Atomic uint32_t *rma_ctl_stripes(struct rma_ctl_header *h, struct rma_ctl_rank *c)
{
    return (_Atomic uint32_t *)((char *)(c + 1) + RMA_ROUND_LINE(h->nranks * sizeof(struct util_waitword)) +
                                rma_ctl_complete_bytes(h->nranks));
}

static inline _Atomic uint32_t *rma_ctl_hw_busy(struct rma_ctl_header *h, struct rma_ctl_rank *c)
{
    return rma_ctl_stripes(h, c) + RMA_ROUND_LINE(RMA_STRIPES * sizeof(uint32_t)) / sizeof(uint32_t);
}

/* The count of hw_threads slots used, then slot k at [(k + 1) *
 * RMA_HW_STRIDE / 4] (rma_ctl_hw_thread). */
static inline _Atomic uint32_t *rma_ctl_hw_threads(struct rma_ctl_header *h, struct rma_ctl_rank *c)
{
    return rma_ctl_hw_busy(h, c) + RMA_ROUND_LINE(h->nranks * sizeof(uint32_t)) / sizeof(uint32_t);
}

static inline _Atomic uint32_t *rma_ctl_hw_thread(_Atomic uint32_t *hw_threads, int k)
{
    return hw_threads + (size_t)(k + 1) * (RMA_HW_STRIDE / sizeof(uint32_t));
}

static inline void *rma_ctl_barrier(struct rma_ctl_header *h)
{
    return (char *)h + sizeof *h + (size_t)h->nranks * rma_ctl_block_size(h->nranks);
}

static inline size_t rma_ctl_size(uint32_t nranks, size_t barrier_size)
{
    return sizeof(struct rma_ctl_header) + nranks * rma_ctl_block_size(nranks) + barrier_size;
}

#endif
