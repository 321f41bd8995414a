/* xport.h -- the transports: how bytes move between this process and the
 * memory of one target.  One table of operations per transport, in the
 * manner of UCX's uct_iface_ops, bound to each target once when a window
 * is created (rma_win_create.c) or, in dynamic windows, to each access by
 * the region it falls in (rma_dynamic.c).  rma keeps the semantics --
 * epochs, locks, ordering, accumulate atomicity, completion -- and moves
 * bytes only through these tables.
 *
 *   shm   memory mapped here: loads and stores (xport_shm.c)
 *   cma   another process's private memory: single-copy system calls
 *         (xport_cma.c)
 *   none  a target no transport reaches: every call is an error naming
 *         the rank and why (xport_none.c)
 *
 * Every call is synchronous: when it returns, the bytes are in place.  The
 * net transport, whose operations travel as active messages and complete
 * at the closing synchronization ([004]), is xport_net.h.
 *
 * A place is a transport and an address: for shm the address of the bytes
 * here, for cma their address in the target's process.  Offsets in the
 * calls are bytes past that place. */
#ifndef ORMA_XPORT_H
#define ORMA_XPORT_H

#include <orma.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct xport_ops;

struct xport_at {
    const struct xport_ops *ops;
    uintptr_t addr;  /* shm: here; cma: in the target's process */
    pid_t pid;       /* cma: the target's process */
    int rank;        /* the target, for messages */
    const char *why; /* none: why no transport reaches it */
};

/* A typed transfer: count x type at origin here, and the target's layout,
 * tcount x ttype, whose own origin lies torigin bytes past the place the
 * call is given (the lowest byte it reaches); it reaches reach bytes. */
struct xport_typed {
    void *origin;
    orma_type otype, ttype;
    size_t ocount, tcount;
    ptrdiff_t torigin;
    size_t reach;
};

/* NOTIFY: raise the target's notification counter notify_id (rma_notify.h)
 * by notify_op (ORMA_NOTIFY_ADD, _SET) and notify_value, once the
 * operations issued before it to that target are there; no data. */
enum xport_op_kind { XPORT_OP_PUT, XPORT_OP_GET, XPORT_OP_ACC, XPORT_OP_CAS, XPORT_OP_NOTIFY };

/* One operation, as rma performs it or queues it until its target opens
 * the epoch, and as the net transport carries it (xport_net.h).  The
 * buffers belong to the epoch until it closes, so they are referenced,
 * not copied. */
struct xport_op {
    uint8_t kind;
    uint8_t op;          /* ACC: enum orma_op */
    uint16_t typeid_;    /* ACC, CAS: the predefined element type */
    int target;
    void *origin;        /* PUT, ACC, CAS: the data; GET: the destination */
    void *result;        /* ACC: old contents, or NULL; CAS: old element */
    const void *compare; /* CAS */
    size_t len;
    size_t offset; /* bytes past the target base (dynamic: the address) */
    /* typed PUT, GET and ACC (rma_typed.c): the layouts, or NULL (ttype NULL:
     * not typed; otype NULL: ACC with NO_OP, no origin; rtype NULL: ACC
     * without result); then len and offset describe the bytes the target
     * layout reaches, which begin torigin bytes before the target layout's
     * origin */
    orma_type otype, ttype, rtype;
    size_t ocount, tcount, rcount;
    ptrdiff_t torigin;
    /* NOTIFY */
    uint32_t notify_id;
    uint8_t notify_op;
    uint64_t notify_value;
};

/* One piece of a gathered put or get: len bytes off bytes past the place,
 * and buf the bytes to write there (put_pieces: only read) or the place to
 * read them into (get_pieces). */
struct xport_piece {
    void *buf;
    size_t off, len;
};

struct xport_ops {
    const char *name;
    /* The address is one here: loads and stores, kernels in place and,
     * in memory every rank maps, hardware atomics. */
    int mapped;
    /* 0, or why no byte of at can be reached (none). */
    int (*reach)(const struct xport_at *at);
    int (*put)(const struct xport_at *at, size_t off, const void *src, size_t len);
    int (*get)(const struct xport_at *at, size_t off, void *dst, size_t len);
    int (*put_typed)(const struct xport_at *at, const struct xport_typed *x);
    /* n pieces, in order, at once (cma: one system call per batch). */
    int (*put_pieces)(const struct xport_at *at, const struct xport_piece *p, size_t n);
    int (*get_pieces)(const struct xport_at *at, const struct xport_piece *p, size_t n);
    int (*get_typed)(const struct xport_at *at, const struct xport_typed *x);
};

extern const struct xport_ops xport_shm, xport_cma, xport_none;

static inline char *xport_ptr(const struct xport_at *at)
{
    return (char *)at->addr;
}

/* The place len bytes further on. */
static inline struct xport_at xport_advance(const struct xport_at *at, ptrdiff_t len)
{
    struct xport_at next = *at;
    next.addr += (uintptr_t)len;
    return next;
}

/* Memory of ours, as a place. */
static inline struct xport_at xport_here(void *p)
{
    return (struct xport_at){.ops = &xport_shm, .addr = (uintptr_t)p};
}

/* The same, set field by field where it is on a fast path: GCC builds the
 * compound literal above on the stack and copies it with a 16-byte load
 * over two 8-byte stores, which the CPU cannot forward -- a stall that
 * cost a dynamic window's 8-byte put through liborma-mpi 4 ns of 26. */
static inline void xport_set_here(struct xport_at *at, void *p)
{
    at->ops = &xport_shm;
    at->addr = (uintptr_t)p;
}

static inline int xport_reach(const struct xport_at *at)
{
    return at->ops->reach ? at->ops->reach(at) : ORMA_SUCCESS;
}

#endif
