/* ghost_def.h -- what a ghost-area exchange step is, whoever makes it: the
 * process grid and its neighbours, where each ghost slot lies, the data of
 * every step and its verification, and how a point is timed.  orma's
 * versions (ghost_orma.c) and the MPI program's (mpi/mpib_ghost.c) both use
 * these, so that their rows measure the same thing; nothing here depends
 * on orma or MPI.
 *
 * Grid: P ranks on a periodic dims[0] x dims[1] grid, dims as
 * MPI_Dims_create(P, 2) chooses them (2 -> 2x1, 4 -> 2x2, 1 -> 1x1), rank
 * = coords[0] * dims[1] + coords[1] (MPI_Cart_create's order).  Direction
 * j = left, right (along dims[0]), down, up (along dims[1]).  A step: every
 * rank sends n bytes to its neighbour in each direction j, into that
 * neighbour's ghost slot j (seed 004 Fig. 3: put j lands at displacement
 * j * n).  So slot j of a rank holds what travelled in direction j: what
 * its neighbour on the opposite side sent.  On a small grid neighbours
 * repeat (2x1: left and right are the same rank, down and up the rank
 * itself; 1x1: all four are self), and each direction still has its slot.
 *
 * Area (the window, or the receive buffer of the point-to-point version):
 * guard, slot 0, guard, slot 1, guard, slot 2, guard, slot 3, guard, each
 * guard GHOST_GUARD bytes of a fixed pattern that nothing may touch.
 *
 * Data: the send buffer has two halves of 4 x n bytes (segment j of a half
 * goes in direction j); step s sends half s % 2, whose segments were
 * filled before the batch with a pattern of (batch, half, sender,
 * direction), and whose first and last 8 bytes the step stamps with (s,
 * sender, direction) before sending.  So consecutive steps send different
 * bytes everywhere, and stale data -- from an earlier step, batch, sender
 * or direction -- does not pass the check.  A step writes only the half it
 * sends, which the epoch (or waitall) of step s - 2 released.
 *
 * Timing (ghost_measure): after a barrier every rank runs a batch of steps
 * and times it; the batch's time is the slowest rank's, divided by the
 * steps.  A warm-up batch, then batches of GHOST_MIN_STEPS steps and more
 * (at least twice as many each time) until one lasts ghost_batch_seconds();
 * then bench_reps_for() batches of that many steps (--reps: that many).
 * Short batches: on a busy machine most of them still run unpreempted, and
 * the median ignores the others.  After every batch, untimed, each
 * rank checks its slots and guards (the data of the batch's last step). */
#ifndef BENCH_GHOST_DEF_H
#define BENCH_GHOST_DEF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "opts.h"

typedef enum ghost_sync {
    GHOST_P2P,   /* MPI_Irecv x 4, MPI_Isend x 4, MPI_Waitall */
    GHOST_FENCE, /* fence(NOPRECEDE); 4 puts; fence(NOSTORE|NOPUT|NOSUCCEED) */
    GHOST_PSCW,  /* post(nbrs); start(nbrs); 4 puts; complete; wait */
    GHOST_LOCK,  /* per neighbour lock(SHARED), put, unlock; barrier */
    GHOST_NOTIFY, /* 4 notified puts; wait on this rank's counter (orma) */
    GHOST_NSYNC
} ghost_sync;

/* Names by ghost_sync, NULL-terminated: --sync and the rows' sync. */
extern const char *const ghost_sync_names[];

/* The rows' op and window: one-sided rows "put" on "allocate", the
 * point-to-point rows "isend" on "none". */
const char *ghost_op_name(ghost_sync m);
const char *ghost_window_name(ghost_sync m);

/* The default sizes (seed 004 Table 1's) and --quick's. */
void ghost_default_sizes(bench_opts *o);

#define GHOST_NDIR 4
enum { GHOST_LEFT, GHOST_RIGHT, GHOST_DOWN, GHOST_UP };
extern const char *const ghost_dir_names[];

typedef struct ghost_grid {
    int p, rank;
    int dims[2], coords[2];
    int nbr[GHOST_NDIR]; /* the neighbour in direction j: put j goes there */
    int src[GHOST_NDIR]; /* who sends into slot j: the opposite neighbour */
    int distinct[GHOST_NDIR]; /* the distinct neighbours, ascending */
    int ndistinct;
} ghost_grid;

void ghost_grid_init(int p, int rank, ghost_grid *g);

#define GHOST_GUARD 64

/* Offset of slot j in the area for messages of n bytes, and the area's
 * size. */
static inline size_t ghost_slot_disp(size_t n, int j)
{
    return GHOST_GUARD + (size_t)j * (n + GHOST_GUARD);
}

static inline size_t ghost_area_size(size_t n)
{
    return GHOST_GUARD + GHOST_NDIR * (n + GHOST_GUARD);
}

/* The send buffer: 2 halves of GHOST_NDIR segments of n bytes. */
static inline size_t ghost_send_size(size_t n)
{
    return 2 * GHOST_NDIR * n;
}

/* The word stamped into the first and last 8 bytes of the segment sender
 * sends in direction j at step s (fewer bytes when n < 8): consecutive
 * steps differ in every byte's low bit (an odd multiplier), senders and
 * directions in the low byte. */
static inline uint64_t ghost_stamp_word(uint64_t step, int sender, int j)
{
    return (step + 1) * UINT64_C(0x9e3779b97f4a7c15) ^
           ((uint64_t)(unsigned)sender << 2 | (uint64_t)j);
}

static inline void ghost_stamp_segment(unsigned char *seg, size_t n,
                                       uint64_t word)
{
    size_t k = n < 8 ? n : 8;
    memcpy(seg, &word, k);
    memcpy(seg + n - k, &word, k);
}

/* Inside the timed loop: stamp the half step s sends and return it
 * (segment j at + j * n). */
static inline unsigned char *ghost_step_data(unsigned char *send, size_t n,
                                             uint64_t step, int rank)
{
    unsigned char *half = send + (step & 1) * GHOST_NDIR * n;
    for (int j = 0; j < GHOST_NDIR; j++)
        ghost_stamp_segment(half + (size_t)j * n, n,
                            ghost_stamp_word(step, rank, j));
    return half;
}

/* Before a batch (untimed): both halves' patterns for batch. */
void ghost_fill_batch(unsigned char *send, size_t n, int rank, uint64_t batch);

/* Before a point: the area zeroed, its guards written. */
void ghost_area_reset(unsigned char *area, size_t n, int rank);

/* After a batch whose last step was step: 1 when every slot holds what
 * its sender sent then and every guard is intact; else 0 with a message
 * in msg naming the slot (or guard), the byte, and what it held.  scratch
 * has n bytes. */
int ghost_area_check(const unsigned char *area, const ghost_grid *g,
                     size_t n, uint64_t batch, uint64_t step,
                     unsigned char *scratch, char *msg, size_t len);

/* One batch of iters steps, with its barrier before and its verification
 * after: returns the slowest rank's seconds (the same on every rank). */
typedef double (*ghost_batch_fn)(void *arg, long iters, uint64_t batch);

#define GHOST_WARMUP_STEPS 16
#define GHOST_MIN_STEPS 8
#define GHOST_MAX_ITERS (1L << 22)

double ghost_batch_seconds(const bench_opts *o);

/* The most batches ghost_measure takes: us needs room for that many. */
long ghost_max_batches(const bench_opts *o);

/* Collective: the warm-up and the growing batches of a point, as
 * described above; the steps per batch, and the last batch's seconds in
 * *last_s. */
long ghost_calibrate(const bench_opts *o, ghost_batch_fn fn, void *arg, uint64_t *batch_p, double *last_s);

/* Collective: a point, as described above.  us[i] receives microseconds
 * per step of batch i; returns the number of batches.  *batch_p numbers
 * the batches across points (the data's seeds). */
long ghost_measure(const bench_opts *o, ghost_batch_fn fn, void *arg,
                   uint64_t *batch_p, double *us);

#endif
