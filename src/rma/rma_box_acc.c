/* rma_box_acc.c -- small accumulates through the target's boxes.
 *
 * An accumulate to memory the origin cannot map costs two system calls
 * (read, write back) under the target's stripes: 2.7-4 us where the host
 * MPIs take 0.3-1.5.  Where the epoch lets the box take it (rma_box.h:
 * fetching ones as gets, the others as puts), it goes in as an entry --
 * op, element type, the origin's bytes (and compare), room for the old
 * contents -- and whoever empties the box applies it: the target to its
 * own memory as it applies another rank's accumulate over the net
 * (rma_acc_host: the stripes, never its own hardware-atomic slots), the
 * origin, not served, as it applies its own (rma_acc_execute).  Either
 * way under the stripes every other accumulate to those bytes takes, and
 * once: the box's claim word says who empties it. */
#include "rma_acc.h"
#include "rma_box.h"
#include "util_status.h"

#include <stdlib.h>
#include <string.h>

/* The operation an entry holds, its parts where parts points. */
static void rma_box_acc_op(const struct rma_box_entry *e, unsigned char *parts, int target, struct xport_op *op)
{
    size_t part = rma_box_part(e->len);
    *op = (struct xport_op){.kind = e->kind == RMA_BOX_E_CAS ? XPORT_OP_CAS : XPORT_OP_ACC, .op = e->op,
                            .typeid_ = e->typeid_, .target = target, .len = e->len, .offset = (size_t)e->offset};
    if (e->kind == RMA_BOX_E_CAS || e->op != ORMA_NO_OP) {
        op->origin = parts;
        parts += part;
    }
    if (e->kind == RMA_BOX_E_CAS) {
        op->compare = parts;
        parts += part;
    }
    if (e->kind != RMA_BOX_E_ACC)
        op->result = parts;
}

int rma_box_acc(struct rma_win *win, const struct xport_op *op)
{
    struct rma_target *t = &win->targets[op->target];
    int cas = op->kind == XPORT_OP_CAS, fetch = cas || op->result != NULL;
    if (fetch && !t->box_gets && !(t->box_gets = calloc(1, sizeof *t->box_gets))) { /* no room to note it: now */
        struct rma_where w;
        int status = rma_box_pending(t) ? rma_box_flush(win, op->target) : ORMA_SUCCESS;
        if (!status)
            status = rma_where_resolve(win, op->target, op->len, op->offset, &w);
        return status ? status : rma_acc_execute(win, op, &w);
    }
    struct rma_box_entry e = {.offset = op->offset, .len = (uint32_t)op->len, .op = op->op, .typeid_ = op->typeid_,
                              .kind = cas ? RMA_BOX_E_CAS : fetch ? RMA_BOX_E_GACC : RMA_BOX_E_ACC};
    size_t part = rma_box_part(op->len);
    int status = rma_box_room(win, op->target, rma_box_entry_size(&e));
    if (status)
        return status;
    uint32_t pos = rma_box_add_entry(t->box, &e);
    unsigned char *d = t->box->data + pos;
    if (cas || op->op != ORMA_NO_OP) {
        memcpy(d, op->origin, op->len);
        d += part;
    }
    if (cas) {
        memcpy(d, op->compare, op->len);
        d += part;
    }
    if (fetch)
        rma_box_note_get(win, op->target, (uint32_t)(d - t->box->data), op->len, op->result);
    t->box_run = 0;
    return ORMA_SUCCESS;
}

int rma_box_apply_acc(struct rma_win *win, int o, const struct rma_box_entry *e, unsigned char *parts)
{
    struct xport_op op;
    rma_box_acc_op(e, parts, win->rank, &op);
    if (e->kind > RMA_BOX_E_CAS || !rma_acc_plan_peer(&op))
        return util_error(ORMA_ERR_PEER, "window %u: rank %d's box at rank %d holds an accumulate it cannot apply "
                          "(kind %u, op %u, type %u, %u bytes)", win->id, o, win->rank, e->kind, e->op, e->typeid_,
                          e->len);
    return rma_acc_host(win, &op);
}

int rma_box_carry_acc(struct rma_win *win, int target, const struct rma_box_entry *e, unsigned char *parts)
{
    struct xport_op op;
    rma_box_acc_op(e, parts, target, &op);
    struct rma_where w;
    int status = rma_where_resolve(win, target, op.len, op.offset, &w);
    return status ? status : rma_acc_execute(win, &op, &w);
}
