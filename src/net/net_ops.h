/* net_ops.h -- the net transport as the layers above see it, without MPI:
 * a table of functions that a face built against a host MPI fills in
 * (net_am.c: net_am_ops), so that rma, which is compiled once and knows no
 * MPI, can send active messages between the ranks of a window.
 *
 * An endpoint spans the ranks of one communicator (one per window, so that
 * a window's ranks are the endpoint's ranks).  Messages and their order,
 * progress and buffers are as net_am.h says. */
#ifndef ORMA_NET_OPS_H
#define ORMA_NET_OPS_H

#include <stddef.h>
#include <stdint.h>

/* What a handler number means at the receiver. */
struct net_handler {
    /* Where the len bytes of a large payload go, contiguous; called when
     * its header arrives.  NULL (or no place function): the payload is
     * received and dropped, and deliver sees data == NULL. */
    void *(*place)(void *arg, int src, const void *hdr, size_t hlen, size_t len);
    /* The whole message: data points at the payload (in a slot, valid
     * during the call only, or where place said). */
    void (*deliver)(void *arg, int src, const void *hdr, size_t hlen, const void *data, size_t len);
    void *arg;
};

struct net_ep; /* one endpoint */

struct net_ops {
    const char *name;
    size_t eager; /* payloads up to this many bytes are copied at the send */
    /* Collective over the ranks of comm (the face's communicator handle,
     * passed through as it is). */
    int (*open)(const void *comm, struct net_ep **ep_p);
    /* Collective: delivers everything in flight, then frees. */
    int (*close)(struct net_ep **ep_p);
    /* Local: frees at once, whatever is in flight (the job is ending, or
     * the endpoint's making failed somewhere). */
    void (*abandon)(struct net_ep **ep_p);
    int (*handle)(struct net_ep *ep, int id, const struct net_handler *h);
    int (*send)(struct net_ep *ep, int dst, int id, const void *hdr, size_t hlen, const void *data, size_t len);
    /* Until every payload this rank sent from the caller's memory (not
     * copied) is sent: the memory is the caller's again. */
    int (*flush)(struct net_ep *ep);
    int (*progress)(struct net_ep *ep, int *delivered_p);
    /* Collective, progressing while it waits: every rank gives one count
     * per rank, and receives the sum of the counts given for it. */
    int (*sum_scatter)(struct net_ep *ep, const uint32_t *counts, uint32_t *mine);
    int (*rank)(const struct net_ep *ep);
    int (*size)(const struct net_ep *ep);
};

#endif
