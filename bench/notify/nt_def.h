/* nt_def.h -- the notify suite (orma-bench notify): what it measures,
 * whoever measures it.  orma-bench (nt_orma.c) and the MPI program
 * (mpi/mpib_notify.c) both use these definitions, so that their rows
 * measure the same thing; nothing here depends on orma or MPI.
 *
 * Parts (--op):
 *   pingpong  8-byte items between ranks 0 and 1, each side waiting for
 *             its item, then sending one back: the one-way latency is half
 *             the round trip (2 ranks)
 *   pipeline  items of n bytes from a producer (rank 0) through a ring of
 *             NT_SLOTS slots in the consumer's memory (rank 1): the
 *             producer sends item i into slot i % NT_SLOTS once the
 *             consumer has freed it (a credit back per item), the consumer
 *             waits for item i, checks it and gives the credit (2 ranks)
 *   ghost     seed 004's ghost-area exchange (ghost_def.h), P ranks
 * Kinds (--sync): how an item travels and is waited for
 *   floor     the cache-line round trip (pingpong only): a flag stored on a
 *             line of each rank, no data -- the machine's, not a library's
 *   notify    orma_put_notify into the peer's slot, raising its counter;
 *             orma_notify_wait on one's own (credits: a put_notify of no
 *             bytes); through liborma-mpi (orma-mpi), Intel MPI's
 *             MPIX_Put_notify and a poll of MPIX_Win_get_notify
 *   flag      put of the item, flush, put of a counter word (the "flag")
 *             into the peer's window, flush; the peer polls its word --
 *             the pattern notified access replaces (orma's calls, or the
 *             host MPI's one-sided ones)
 *   p2p       MPI_Send / MPI_Recv (pipeline: the consumer's receives
 *             posted ahead, one per slot; ghost: isend/irecv)
 *   fence, pscw, lock   orma's other ghost versions (ghost_def.h)
 *
 * Data: an item is NT_SLOTS source buffers' one, whose bytes were filled
 * before the batch with a pattern of (batch, buffer) and whose first and
 * last 8 bytes the sender stamps with (batch, item, sender) right before
 * it sends: consecutive items differ everywhere.  The receiver checks the
 * stamps of every item when its wait says it arrived (inside the timed
 * loop: 16 bytes), and after the batch, untimed, every byte of its slots
 * (the last NT_SLOTS items).
 *
 * Schedule: points (pingpong at 8 bytes, pipeline and ghost at each
 * size), each a calibration round (every kind finds its batch length)
 * and rounds of batches.  In a round every program -- orma-bench's ranks
 * and each MPI job (turns.h) -- runs one batch of each of its kinds, the
 * programs in an order that rotates from round to round, and within a
 * program the kinds likewise: every ratio the suite prints is taken
 * between batches of one round, a few milliseconds apart. */
#ifndef BENCH_NT_DEF_H
#define BENCH_NT_DEF_H

#include <stddef.h>
#include <stdint.h>

enum nt_part { NT_PINGPONG, NT_PIPELINE, NT_GHOST, NT_NPARTS };
enum nt_kind { NT_FLOOR, NT_NOTIFY, NT_FLAG, NT_P2P, NT_FENCE, NT_PSCW, NT_LOCK, NT_NKINDS };
extern const char *const nt_part_names[];  /* NULL-terminated: --op */
extern const char *const nt_kind_names[];  /* by nt_kind, NULL-terminated */
extern const char *const nt_sync_names[];  /* --sync: the kinds but floor */

/* 1 when part has kind at all (in some program). */
int nt_part_has(int part, int kind);

#define NT_SLOTS 8           /* the pipeline's ring */
#define NT_MAX_SIZES 16
#define NT_MAX_ROUNDS 200
#define NT_PINGPONG_BYTES 8

typedef struct nt_plan {
    int parts[NT_NPARTS];                     /* 1: measured */
    int kinds[NT_NKINDS];                     /* 1: wanted (--sync) */
    size_t sizes[NT_NPARTS][NT_MAX_SIZES];    /* pingpong: 8 alone */
    int nsizes[NT_NPARTS];
    int rounds;
    int quick;
} nt_plan;

/* The plan as the MPI program gets it on its command line, 5 arguments:
 * PARTS KINDS PIPELINE_SIZES GHOST_SIZES ROUNDS[q] (comma lists, "-" for
 * none; q after ROUNDS: --quick). */
#define NT_PLAN_ARGS 5
void nt_plan_format(const nt_plan *p, char out[NT_PLAN_ARGS][256]);
int nt_plan_parse(nt_plan *p, char *const args[NT_PLAN_ARGS]);

/* Points: index 0 .. nt_npoints() - 1, pingpong's first, then pipeline's
 * and ghost's sizes. */
int nt_npoints(const nt_plan *p);
void nt_point(const nt_plan *p, int i, int *part_p, size_t *bytes_p);
size_t nt_max_bytes(const nt_plan *p, int part); /* 0: part not measured */

/* Samples: us per one-way item (pingpong; floor: per round trip), per
 * item (pipeline), per step (ghost), at nt_at(); 0: not measured. */
static inline size_t nt_at(const nt_plan *p, int point, int kind, int round)
{
    return ((size_t)point * NT_NKINDS + (size_t)kind) * (size_t)p->rounds + (size_t)round;
}
static inline size_t nt_nsamples(const nt_plan *p)
{
    return (size_t)nt_npoints(p) * NT_NKINDS * (size_t)p->rounds;
}

/* A program's samples as lines, and back ("sample POINT KIND ROUND US"):
 * the MPI program prints them (rank 0), orma-bench reads its jobs'. */
void nt_print_samples(const nt_plan *p, const double *samples);
int nt_read_sample(const nt_plan *p, const char *line, double *samples);

/* Batch lengths: the time a batch aims at, the warm-up and first counts
 * (items: pipeline; round trips: pingpong; steps: ghost's own,
 * ghost_def.h). */
double nt_batch_seconds(const nt_plan *p, int part);
long nt_warm_iters(int part);
long nt_first_iters(int part);
#define NT_MAX_ITERS (1L << 22)

/* The distance between slots (and between source buffers) at a point of
 * bytes: the item rounded up to a cache line.  Per point, not the largest
 * item's: 8 slots of small items 4 MB apart would all fall into one
 * cache set. */
static inline size_t nt_stride(size_t bytes)
{
    return (bytes + 63) & ~(size_t)63;
}

/* Item data.  The stamp of item (from 0) of batch sent by rank from. */
uint64_t nt_item_word(uint64_t batch, uint64_t item, int from);
/* Before a batch, at the sender: source buffer k (of NT_SLOTS, stride
 * apart) filled with its pattern for batch. */
void nt_fill_sources(unsigned char *src, size_t stride, size_t n, uint64_t batch, int from);
/* Right before sending item: its stamps into buf (n bytes: the first and
 * last min(n, 8)). */
void nt_stamp(unsigned char *buf, size_t n, uint64_t word);
/* 1 when buf holds item's stamps. */
int nt_stamped(const unsigned char *buf, size_t n, uint64_t word);
/* After a batch of items items (untimed), at the receiver: 1 when each of
 * the last NT_SLOTS items (or all, when fewer) is whole in its slot --
 * the pattern of its source buffer and its stamps; else 0 with a message
 * naming the slot, the item and the first wrong byte.  scratch: n bytes. */
int nt_slots_check(const unsigned char *slots, size_t stride, size_t n, uint64_t batch, long items, int from,
                   unsigned char *scratch, char *msg, size_t len);

#endif
