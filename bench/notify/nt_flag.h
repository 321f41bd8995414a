/* nt_flag.h -- the notify suite's flag kind (nt_def.h), written once for
 * orma's calls and the host MPI's (rma_api.h): the pattern a notified put
 * replaces.  An item: put of its bytes into the peer's slot, flush of the
 * peer, put of the item count (an 8-byte word, aligned) into the peer's
 * items flag, flush; a credit: put of the credit count into the peer's
 * credits flag, flush.  The flush before the flag's put completes the
 * bytes at the target, so a peer that sees the count sees them.  A waiter
 * polls its own flag in its window memory, letting the library progress
 * between looks (ntf_progress: orma_win_sync; MPI_Win_sync and
 * MPI_Iprobe), and yields or sleeps as flagwait.h says.
 *
 * Window layout, every rank alike: NT_SLOTS slots of the largest item's
 * stride (the slots of a point are its own stride apart, nt_stride), then
 * the items flag and the credits flag on a cache line each.  The window
 * is in one lock_all epoch from its creation to its free.
 *
 * An includer includes orma.h and check.h (or mpib.h and defines
 * BENCH_RMA_MPI), then defines
 *   static void ntf_progress(nt_flagwin *f);
 * and includes this file. */
#ifndef BENCH_NT_FLAG_H
#define BENCH_NT_FLAG_H

#include <stdatomic.h>

#include "flagwait.h"
#include "nt_run.h"
#include "rma_api.h"

typedef struct nt_flagwin {
    RMA_API(orma_win, MPI_Win) win;
    unsigned char *base; /* this rank's window memory */
    size_t stride;       /* the slots' of this point (nt_stride) */
    size_t flags;        /* where the flags lie: ntf_bytes(largest) - 128 */
    int peer;
    uint64_t word; /* the count being put: it stays until the flush */
} nt_flagwin;

/* The window's bytes per rank for items of at most max bytes; flags
 * gets where the flags lie. */
static inline size_t ntf_bytes(size_t max, size_t *flags)
{
    *flags = NT_SLOTS * nt_stride(max);
    return *flags + 128;
}

static inline size_t ntf_flag_disp(const nt_flagwin *f, int credits)
{
    return f->flags + (size_t)(credits ? 64 : 0);
}

static void ntf_progress(nt_flagwin *f);

static inline void ntf_put_word(nt_flagwin *f, int credits, uint64_t seq)
{
    f->word = seq;
    RMA_CHECK(RMA_API(orma_put, MPI_Put)(&f->word, RMA_COUNT(1), RMA_UINT64, f->peer,
                                         (rma_aint)ntf_flag_disp(f, credits), RMA_COUNT(1), RMA_UINT64,
                                         f->win));
    RMA_CHECK(RMA_API(orma_win_flush, MPI_Win_flush)(f->peer, f->win));
}

static inline void ntf_poll(nt_flagwin *f, int credits, uint64_t seq)
{
    _Atomic uint64_t *flag = (_Atomic uint64_t *)(void *)(f->base + ntf_flag_disp(f, credits));
    bench_flag_waiter w = {.mine = NULL};
    while (atomic_load_explicit(flag, memory_order_acquire) < seq) {
        ntf_progress(f);
        bench_flag_pause(&w, flag, seq, 50);
    }
}

static void ntf_put(void *arg, const unsigned char *src, size_t n, int k, uint64_t seq)
{
    nt_flagwin *f = arg;
    RMA_CHECK(RMA_API(orma_put, MPI_Put)(src, RMA_COUNT(n), RMA_BYTE, f->peer, (rma_aint)((size_t)k * f->stride),
                                         RMA_COUNT(n), RMA_BYTE, f->win));
    RMA_CHECK(RMA_API(orma_win_flush, MPI_Win_flush)(f->peer, f->win));
    ntf_put_word(f, 0, seq);
}

static void ntf_wait(void *arg, int k, uint64_t seq)
{
    (void)k;
    ntf_poll(arg, 0, seq);
}

static void ntf_credit(void *arg, int k, uint64_t seq)
{
    (void)k;
    ntf_put_word(arg, 1, seq);
}

static void ntf_wait_credit(void *arg, uint64_t seq)
{
    ntf_poll(arg, 1, seq);
}

/* A kind's calls on f's window (open: its slots) and the sources src:
 * those given (the notified kinds, on the same window), or the flag
 * kind's. */
static inline void ntf_calls_with(nt_flagwin *f, const char *name, unsigned char *src,
                                  void (*put)(void *, const unsigned char *, size_t, int, uint64_t),
                                  void (*wait)(void *, int, uint64_t), void (*credit)(void *, int, uint64_t),
                                  void (*wait_credit)(void *, uint64_t), nt_calls *c)
{
    *c = (nt_calls){.arg = f, .name = name, .slots = f->base, .src = src, .stride = f->stride, .put = put,
                    .wait = wait, .credit = credit, .wait_credit = wait_credit, .ok = 1};
}

static inline void ntf_calls(nt_flagwin *f, const char *name, unsigned char *src, nt_calls *c)
{
    ntf_calls_with(f, name, src, ntf_put, ntf_wait, ntf_credit, ntf_wait_credit, c);
}

#endif
