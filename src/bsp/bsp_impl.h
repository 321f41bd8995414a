/* bsp_impl.h -- liborma-bsp's state, shared by its files.
 *
 * How a superstep maps onto orma (bsp_sync.c has the protocol):
 *   - each registration is an orma window over the registered bytes
 *     (orma_win_create, disp_unit 1), in a lock_all epoch from its creation
 *     to its pop: bsp_hpput and bsp_hpget are orma_put and orma_get at
 *     once, and bsp_sync flushes the windows they touched;
 *   - a small bsp_put (up to 1 KB, or 8 KB where orma would not map the
 *     target's bytes) or bsp_hpput (up to 8 KB, where orma would not map
 *     them) becomes a record in the target's put box, which the target
 *     copies into its memory at the sync (bsp_box.c); a larger bsp_put
 *     copies its source into a staging
 *     buffer and bsp_get records itself; both are done by their origin
 *     during bsp_sync, after every process has ended the superstep;
 *   - bsp_send copies the message into an outbox per destination; during
 *     bsp_sync each sender puts its outbox into the receiver's inbox, a
 *     window of orma_win_allocate (shared memory on a node), where the
 *     receiver's queue then lives until the next sync;
 *   - the meta window (orma_win_allocate) holds, per process, the notes
 *     the others write into it at a sync when they have work (what kinds,
 *     and the bytes of box records and messages for this process), the
 *     process's own announcement (the bytes of messages for each process,
 *     the registrations pushed and popped), which the others read when
 *     they need it, and the put box.  A sync where nobody has work is one
 *     barrier.
 * Notes, announcements and boxes alternate between two copies by the
 * superstep's parity: a process can be at most one sync ahead of another. */
#ifndef ORMA_BSP_IMPL_H
#define ORMA_BSP_IMPL_H

#include <orma.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Kinds of work at a sync (bsp_sync.c's notes). */
enum {
    BSP_W_PUT = 1,  /* buffered puts to do */
    BSP_W_GET = 2,  /* buffered gets to do */
    BSP_W_SEND = 4, /* messages to deliver */
    BSP_W_REG = 8,  /* registrations pushed or popped */
    BSP_W_TAG = 16, /* bsp_set_tagsize called */
    BSP_W_END = 32, /* bsp_end: the last sync */
    BSP_W_BOX = 64, /* small puts in put boxes (bsp_box.c) */
    BSP_W_GOT = 128, /* gets into registered memory, landing after the gets */
};

/* In a pop list: the process's ident names more than one registration
 * (NULL, pushed by several), so another process's choice decides. */
#define BSP_POP_AMBIGUOUS ((uint64_t)1 << 63)

/* Pushes, and pops, one superstep may hold (the lists are announced
 * whole). */
#define BSP_REG_MAX 1024

/* A process's announcement, followed in the meta window by
 * uint64_t send_bytes[world], uint64_t pushes[BSP_REG_MAX] (size | head << 32) and
 * uint64_t pops[BSP_REG_MAX] (slots). */
struct bsp_ann {
    uint32_t npush;
    uint32_t npop;
};

struct bsp_reg {
    const void *ident;
    size_t size;     /* on this process */
    uint64_t *sizes; /* on every process */
    uint32_t *heads; /* on every process: bytes before its first whole page */
    orma_win win;
    int live;    /* not popped by a sync yet */
    int touched; /* hp operations to flush in this superstep */
};

struct bsp_push {
    const void *ident;
    size_t size;
};

struct bsp_put_rec {
    size_t slot, off, n, at; /* at: in the staging buffer */
    int pid;
};

struct bsp_get_rec {
    size_t slot, off, n;
    void *dst;
    int pid;
    int staged; /* lands in the staging buffer first (bsp_drma_gets) */
};

struct bsp_bytes {
    unsigned char *data;
    size_t len, cap;
};

struct bsp_msg {
    const unsigned char *tag;
    const unsigned char *payload;
    size_t len;
};

struct bsp_state {
    int on;          /* between bsp_begin and bsp_end */
    int pid, p;      /* BSP process number and count */
    int world;       /* the job's ranks (p of them take part) */
    int own_orma;    /* bsp_begin initialized orma */
    int spmd_form;   /* bsp_init was called */
    double t0;
    uint64_t step;   /* supersteps ended so far */

    /* registrations: every slot ever, in registration order */
    struct bsp_reg *regs;
    size_t nregs, cap_regs;
    struct bsp_push *pushes; /* this superstep's */
    size_t npush, cap_push;
    uint64_t *pops; /* slots popped this superstep */
    const void **pop_ident;
    size_t npop;
    size_t *touched; /* slots with hp operations this superstep */
    size_t ntouched, cap_touched;

    /* buffered DRMA */
    struct bsp_put_rec *puts;
    size_t nputs, cap_puts;
    struct bsp_bytes staged;
    struct bsp_get_rec *gets;
    size_t ngets, cap_gets;
    struct bsp_bytes got; /* staged gets */
    int got_any;          /* a get of this superstep is staged */

    /* BSMP */
    int tagsize;      /* for bsp_send this superstep */
    int tagsize_next; /* set this superstep (tag_set) */
    int tag_set;
    struct bsp_bytes *out; /* per destination */
    int sending;
    struct bsp_msg *queue;
    size_t qlen, qhead, qcap, qbytes;
    int qtagsize;

    /* windows */
    orma_win meta;
    unsigned char *meta_base;
    unsigned char *anns; /* the p announcements read at a sync */
    orma_win inbox;
    unsigned char *inbox_base;
    size_t inbox_cap;

    /* put boxes (bsp_box.c), in the meta window from box_at */
    size_t box_at;
    unsigned char *box_out;  /* this origin's regions, one per target */
    size_t box_region;
    uint64_t *box_used; /* bytes of each target's region */
    unsigned char *box_closed;
    int box_any;
    int unfenced; /* the last sync ended without a barrier after its box copies */
};

extern struct bsp_state bsp;

static inline size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

/* free(p), and p forgotten: NULL, which a later free takes. */
#define BSP_FREE(p) (free(p), (p) = NULL)

/* bsp_proc.c */
void bsp_fail(const char *call, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void bsp_check_on(const char *call);
void bsp_orma(const char *call, int status); /* fails on an orma error */
void *bsp_grow(void *p, size_t *cap, size_t need, size_t elem, const char *call);
void bsp_bytes_add(struct bsp_bytes *b, const void *src, size_t n, const char *call);

/* bsp_reg.c */
size_t bsp_reg_find(const void *ident, const char *call); /* the slot, or fails */
void bsp_reg_apply(void); /* at a sync: pops, then pushes */
void bsp_reg_flush(void);                         /* completes hp operations */
void bsp_reg_touch(size_t slot);
uint32_t bsp_reg_head(const void *ident);
int bsp_reg_mapped(size_t slot, int pid, size_t off, size_t n);
int bsp_reg_local(const void *p, size_t n); /* overlaps this process's registered memory */
void bsp_reg_free_all(void);
void bsp_check_pid(const char *call, int pid);
void bsp_check_range(const char *call, size_t slot, int pid, int offset, int nbytes);

/* bsp_drma.c */
void bsp_drma_gets(void);
void bsp_drma_gets_land(void);
void bsp_drma_free(void);
void bsp_drma_puts(void);

/* bsp_bsmp.c */
void bsp_bsmp_start(void);
void bsp_bsmp_stop(void);
uint64_t bsp_bsmp_out_bytes(int dst);
void bsp_bsmp_deliver(const uint64_t *sent); /* sent[src * p + dst] */
void bsp_bsmp_drop(void);                    /* an empty queue */

/* bsp_box.c */
size_t bsp_box_bytes_needed(void);
void bsp_box_start(void);
void bsp_box_stop(void);
int bsp_box_put(int pid, size_t slot, const void *src, size_t off, size_t n, int hp);
uint64_t bsp_box_bytes(int dst);
void bsp_box_send(int par);
void bsp_box_apply(int par);
void bsp_box_clear(void);

/* bsp_sync.c */
/* An error every process sees alike: reporter says it, the others wait to
 * be ended by its end. */
void bsp_fail_one(int reporter, const char *call, const char *fmt, ...) __attribute__((format(printf, 3, 4), noreturn));
int bsp_sync_start(int maxprocs);
void bsp_sync_stop(void);
void bsp_superstep_end(int flags_extra);
struct bsp_ann *bsp_ann_of(int pid); /* read at this sync */
uint64_t *bsp_ann_sends(struct bsp_ann *a);
uint64_t bsp_note_box_bytes(int src);
void bsp_sync_guard(int pid); /* before a direct operation on pid */
uint64_t *bsp_ann_pushes(struct bsp_ann *a);
uint64_t *bsp_ann_pops(struct bsp_ann *a);
void bsp_ann_read_lists(void); /* the push and pop lists of every process */

#endif
