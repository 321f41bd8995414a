/* rma_req.h -- requests of request-based operations.
 *
 * A handle is a slot index in the low half and a generation in the high
 * half, so a freed or made-up handle is recognised.  On shared memory an
 * operation is complete when the call that issued it returns, so a request
 * is created complete; the state is kept per request all the same, for
 * transports whose operations finish later. */
#ifndef ORMA_RMA_REQ_H
#define ORMA_RMA_REQ_H

#include <orma.h>

/* A new request, complete, carrying the operation's status. */
int rma_req_create(int op_status, orma_request *handle_p);

/* ORMA_ERR_REQUEST for a handle that is not a live request; else *done_p
 * tells whether it completed and *op_status_p its status. */
int rma_req_query(orma_request handle, int *done_p, int *op_status_p);

void rma_req_free(orma_request handle);

#endif
