/* net_am.h -- active messages over MPI point-to-point: the wire of the net
 * transport (DESIGN section 6), in the manner of MPICH's CH3 packets
 * ([004] section 4): the sender names a handler, the receiver's progress
 * engine runs it.
 *
 * A message is a handler number, a header of at most NET_AM_HDR_MAX bytes
 * and a payload of any length.  Each rank keeps NET_AM_SLOTS receives of
 * one slot each posted on a communicator of its own (a duplicate of the
 * one given, so no message of the program's can match them).  A header
 * whose payload fits in a slot travels with it as one MPI message; a
 * larger payload follows its header on a tag of its own, received straight
 * into the memory the handler's place function names -- no copy.
 *
 * Order.  Handlers see a source's messages in the order it sent them,
 * always: the messages behind a large one wait (in their slots) until its
 * payload has landed and it was delivered -- so that, as [004] assumes of
 * its networks, "this message is in" means "and all sent before it".
 *
 * Progress.  Nothing arrives unless the rank calls net_am_progress, or a
 * call that progresses (send, flush, close): the layers above poll it in
 * their calls.  A send never waits for the destination to progress unless
 * all NET_AM_SENDS send buffers are in flight; then it progresses (and so
 * delivers) until one is free.
 *
 * Buffers.  An eager payload (header and payload within a slot) is copied
 * at the send: the caller may reuse it at once.  A large payload is sent
 * from the caller's memory, which must stay unchanged until net_am_flush
 * returns -- as MPI's one-sided origin buffers until their epoch ends.
 *
 * No call here blocks in MPI without progressing: a peer's send may be
 * waiting for this rank's receives.  The same holds for the layers above:
 * a blocking collective while a peer still needs our progress deadlocks.
 *
 * Errors are orma's status codes, reported once with util_error (naming
 * this rank and the peer).  Not thread-safe: one thread at a time per
 * net_am. */
#ifndef ORMA_NET_AM_H
#define ORMA_NET_AM_H

#include "net_ops.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#define NET_AM_HDR_MAX 64
#define NET_AM_HANDLERS 16
#define NET_AM_SLOTS 16
#define NET_AM_SENDS 32
#define NET_AM_SLOT_BYTES 8192 /* wire header + header + eager payload */

struct net_am;


/* Before the host MPI is initialized (by orma or the program): tune the
 * host MPI's transport for the messages of the net transport, if it will
 * carry them -- forced (ORMA_TRANSPORT=net), or the launcher does not say
 * that every rank is on this node.  A variable the user set stays as it
 * is.  Today: UCX (MPICH's netmod, Open MPI's pml ucx) sends messages up to
 * NET_AM_UCX_EAGER bytes eagerly (net_am.c says why). */
#define NET_AM_UCX_EAGER (64 * 1024)
void net_am_prepare_host(int forced);

/* Collective over comm: a net_am over a duplicate of it. */
int net_am_open(MPI_Comm comm, struct net_am **am_p);
/* Collective: every rank's sends are delivered (each rank progresses until
 * it has received all that was sent to it), then everything is freed.  No
 * handler may send once a rank has begun closing. */
int net_am_close(struct net_am **am_p);

/* Local: everything freed at once, whatever is in flight (the job is
 * ending, or a collective open failed elsewhere). */
void net_am_abandon(struct net_am **am_p);

/* Handler id (0 .. NET_AM_HANDLERS-1) runs h; set before anyone sends it. */
int net_am_handle(struct net_am *am, int id, const struct net_handler *h);

int net_am_send(struct net_am *am, int dst, int id, const void *hdr, size_t hlen, const void *data, size_t len);
/* Until every large payload's send of this rank is complete here (the
 * caller's buffers reusable); eager ones were copied, their sends complete
 * in later progress. */
int net_am_flush(struct net_am *am);
/* Deliver what has arrived, without waiting; *delivered_p (may be NULL):
 * how many messages were delivered. */
int net_am_progress(struct net_am *am, int *delivered_p);

/* This rank and the communicator's size. */
int net_am_rank(const struct net_am *am);
int net_am_size(const struct net_am *am);

/* Collective, progressing while it waits (a peer may need our receives to
 * reach the call): rank r receives in *mine the sum over all ranks of their
 * counts[r]. */
int net_am_sum_scatter(struct net_am *am, const uint32_t *counts, uint32_t *mine);

/* net_am as the net transport of the layers above (net_ops.h): comm points
 * at an MPI_Comm. */
extern const struct net_ops net_am_ops;

#endif
