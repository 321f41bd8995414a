/* ck_halo.h -- a long halo exchange for the race checker's corpus: the
 * shape of the programs it is timed on (and of many applications), where
 * the same bytes are accessed again at every step and the tables recycle
 * the records of closed epochs.
 *
 * The ranks form a ring; at every step each rank puts 16 bytes into a slot
 * of its own (bytes [16 r, 16 r + 16) at its target) at each of its two
 * neighbours, and each target checks the slots it received once the epoch
 * closed.  CK_HALO_STEPS steps with fences, as many with post-start-
 * complete-wait, as many with a shared lock per neighbour and a barrier:
 * the accesses of one step are unordered only with those of the same step,
 * so the exchange is correct.  A program adds its own accesses at one step
 * through the hook (NULL: none). */
#ifndef ORMA_CK_HALO_H
#define ORMA_CK_HALO_H

#include "ck_test.h"

#define CK_HALO_STEPS 120
#define CK_HALO_SLOT 16

enum { CK_HALO_FENCE, CK_HALO_PSCW, CK_HALO_LOCK };

/* Called at every step of every mode, inside the step's epoch (lock mode:
 * with no lock held; it takes its own). */
typedef void (*ck_halo_hook)(int rank, int mode, int step, orma_win win);

struct ck_halo {
    int rank, n, nbr[2], nnbr; /* the distinct neighbours */
    orma_win win;
    unsigned char *mem;
    orma_group nbrs;
    unsigned char src[2][CK_HALO_SLOT]; /* one per neighbour: the epoch's until it closes */
};

static inline unsigned char ck_halo_byte(int origin, int mode, int step)
{
    return (unsigned char)(1 + origin * 31 + mode * 7 + step);
}

static inline void ck_halo_puts(struct ck_halo *h, int mode, int step, int lock)
{
    for (int j = 0; j < h->nnbr; j++) {
        int t = h->nbr[j];
        memset(h->src[j], ck_halo_byte(h->rank, mode, step), CK_HALO_SLOT);
        if (lock)
            CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, t, 0, h->win));
        CHECK_OK(orma_put(h->src[j], CK_HALO_SLOT, ORMA_BYTE, t, (orma_aint)(CK_HALO_SLOT * h->rank), CK_HALO_SLOT,
                          ORMA_BYTE, h->win));
        if (lock)
            CHECK_OK(orma_win_unlock(t, h->win));
    }
}

/* The slots this rank received at the step: its neighbours'. */
static inline void ck_halo_check(struct ck_halo *h, int mode, int step)
{
    for (int j = 0; j < h->nnbr; j++) {
        int o = h->nbr[j];
        CK_BYTES(h->mem, CK_HALO_SLOT * o, CK_HALO_SLOT * (o + 1), ck_halo_byte(o, mode, step));
    }
}

static inline void ck_halo_run(int rank, int n, ck_halo_hook hook)
{
    struct ck_halo h = {.rank = rank, .n = n};
    int left = (rank + n - 1) % n, right = (rank + 1) % n;
    h.nbr[h.nnbr++] = left;
    if (right != left)
        h.nbr[h.nnbr++] = right;
    ck_win((size_t)CK_HALO_SLOT * (size_t)n, (void **)&h.mem, &h.win);
    orma_group all;
    CHECK_OK(orma_win_get_group(h.win, &all));
    CHECK_OK(orma_group_incl(all, h.nnbr, h.nbr, &h.nbrs));
    CHECK_OK(orma_group_free(&all));

    for (int s = 0; s < CK_HALO_STEPS; s++) { /* the epoch closed before the target reads */
        CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, h.win));
        ck_halo_puts(&h, CK_HALO_FENCE, s, 0);
        if (hook)
            hook(rank, CK_HALO_FENCE, s, h.win);
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, h.win));
        ck_halo_check(&h, CK_HALO_FENCE, s);
    }
    for (int s = 0; s < CK_HALO_STEPS; s++) {
        CHECK_OK(orma_win_post(h.nbrs, 0, h.win));
        CHECK_OK(orma_win_start(h.nbrs, 0, h.win));
        ck_halo_puts(&h, CK_HALO_PSCW, s, 0);
        if (hook)
            hook(rank, CK_HALO_PSCW, s, h.win);
        CHECK_OK(orma_win_complete(h.win));
        CHECK_OK(orma_win_wait(h.win));
        ck_halo_check(&h, CK_HALO_PSCW, s);
    }
    CHECK_OK(orma_barrier()); /* every rank checked its last step before the locks' puts */
    for (int s = 0; s < CK_HALO_STEPS; s++) {
        ck_halo_puts(&h, CK_HALO_LOCK, s, 1);
        if (hook)
            hook(rank, CK_HALO_LOCK, s, h.win);
        CHECK_OK(orma_barrier()); /* every put of the step complete at its target */
        CHECK_OK(orma_win_sync(h.win));
        ck_halo_check(&h, CK_HALO_LOCK, s);
        CHECK_OK(orma_barrier()); /* checked before the next step's puts */
    }
    CHECK_OK(orma_group_free(&h.nbrs));
    CHECK_OK(orma_win_free(&h.win));
}

#endif
