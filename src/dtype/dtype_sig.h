/* dtype_sig.h -- type signatures: the sequence of basic (predefined) types
 * of a datatype's data, in typemap order, which MPI requires to match on
 * the two sides of a transfer.
 *
 * A signature is a tree of three kinds of nodes, shared (reference counted)
 * between the types built on each other, like the layouts of dtype_node.h:
 *   RUN     n elements of basic type id;
 *   REPEAT  count copies of child;
 *   CONCAT  the children one after another.
 * The pair types (ORMA_DOUBLE_INT, ...) are, as in MPI, their two members,
 * so a RUN's id is never a pair.  Construction normalises as it goes:
 * empty parts vanish, adjacent runs of one id merge, a repeat of a run is a
 * run, a repeat of a repeat one repeat, nested concatenations are
 * flattened, and adjacent copies of one part become a repeat.  So a vector
 * or contiguous type of one basic type is one RUN, and an indexed or struct
 * type costs one child per block.  Invariants the walk relies on: every
 * node but the empty signature holds data, and a REPEAT's child is always
 * a CONCAT.
 *
 * A derived type may have no signature (types made by dtype_derived_create
 * alone); when all its data is one basic type (dtype_basic) the signature
 * is taken to be that type repeated, otherwise it is unknown and
 * dtype_sig_compare says so instead of comparing. */
#ifndef ORMA_DTYPE_SIG_H
#define ORMA_DTYPE_SIG_H

#include <orma.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

enum dtype_sig_kind { DS_RUN, DS_REPEAT, DS_CONCAT };

struct dtype_sig {
    _Atomic uint32_t refs; /* 0: static (never freed); threads share signatures */
    uint16_t kind;
    uint32_t depth; /* levels including this one */
    size_t len;     /* basic elements */
    size_t size;    /* data bytes */
    union {
        struct {
            int id;
            size_t n;
        } run;
        struct {
            size_t count;
            struct dtype_sig *child;
        } repeat;
        struct {
            size_t n;
            struct dtype_sig **c;
        } concat;
    } u;
};

/* The signature of predefined type id (static). */
struct dtype_sig *dtype_sig_predefined(int typeid_);

/* Constructors return a new reference, or NULL when out of memory.  They
 * take their own references to children; the caller keeps its own. */
struct dtype_sig *dtype_sig_repeat(size_t count, struct dtype_sig *child);
struct dtype_sig *dtype_sig_concat(size_t n, struct dtype_sig *const *children);

struct dtype_sig *dtype_sig_ref(struct dtype_sig *s);
void dtype_sig_unref(struct dtype_sig *s);

/* A new reference to the signature of one element of t in *sig_p: its own,
 * or for a type without one whose data is one basic type, that type
 * repeated; NULL when unknown.  ORMA_ERR_NOMEM when out of memory. */
int dtype_sig_get(orma_type t, struct dtype_sig **sig_p);

/* Walking count elements of a type's signature, run by run, and
 * comparing two walks (dtype_sig.c). */
struct dtype_sig_frame {
    const struct dtype_sig *s; /* a REPEAT or CONCAT being walked */
    size_t i;                  /* its current copy or child */
};

#define DTYPE_SIG_FRAMES 32 /* deeper signatures take frames from the heap */

struct dtype_sig_cursor {
    const struct dtype_sig *at; /* a REPEAT or CONCAT not entered yet, or NULL: in a run */
    int id;                     /* the current run: its id and what is left of it */
    size_t left;
    int end;
    size_t index, byte; /* elements and data bytes before the current position */
    size_t top;         /* frames in use */
    struct dtype_sig_frame *f;
    struct dtype_sig root; /* count copies of the type's signature */
    struct dtype_sig_frame own[DTYPE_SIG_FRAMES];
};

#define DTYPE_SIG_SAME 0
#define DTYPE_SIG_DIFFER 1
#define DTYPE_SIG_UNKNOWN 2 /* a type without a signature, of mixed data */

/* Start at the first element of count elements of t.  Returns
 * ORMA_SUCCESS, DTYPE_SIG_UNKNOWN or ORMA_ERR_NOMEM; the cursor must be
 * finished (dtype_sig_cursor_fini) after ORMA_SUCCESS only.  count times
 * t's size must not overflow (the callers' byte counts are checked). */
int dtype_sig_cursor_init(struct dtype_sig_cursor *c, orma_type t, size_t count);
void dtype_sig_cursor_fini(struct dtype_sig_cursor *c);

/* The next run: *n_p elements of basic type *id_p.  Returns 0 at the end.
 * Adjacent runs may have the same id (where one part ends and the next
 * begins). */
int dtype_sig_cursor_next(struct dtype_sig_cursor *c, int *id_p, size_t *n_p);

/* Where two signatures first differ. */
struct dtype_sig_diff {
    size_t index; /* the element (position in the sequence of basic types) */
    size_t byte;  /* its offset in the data, in bytes */
    int a, b;     /* the basic type ids there; -1: that sequence has ended */
};

/* Compare the signatures of acount elements of a and bcount elements of b,
 * lazily: the cost is the number of runs walked up to the first
 * difference, and O(1) when both sides are one basic type or are made of
 * the same parts.  Returns DTYPE_SIG_SAME, DTYPE_SIG_DIFFER (filling
 * *diff_p), DTYPE_SIG_UNKNOWN (a side has no signature and mixed data:
 * nothing compared) or ORMA_ERR_NOMEM. */
int dtype_sig_compare(orma_type a, size_t acount, orma_type b, size_t bcount, struct dtype_sig_diff *diff_p);

#endif
