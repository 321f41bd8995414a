/* dtype_fuzz.h -- the naive reference model behind dtype_fuzz_layout.
 *
 * A reference type is its full typemap spelled out: one (displacement,
 * basic size, basic type) entry per basic element of one element of the
 * type, in typemap order (a pair type is two entries, as in MPI), with MPI's bounds and the alignment a struct pads to.  It
 * is built by expanding each constructor literally (no merging, no loops),
 * so that it shares nothing with the library's compact layouts.  Every
 * reference type also owns the library handle built from the same
 * arguments, and a printable description of the construction. */
#ifndef ORMA_TEST_DTYPE_FUZZ_H
#define ORMA_TEST_DTYPE_FUZZ_H

#include <orma.h>
#include <stddef.h>
#include <stdint.h>

/* Types whose reference would exceed these are discarded and rebuilt, which
 * keeps buffers small and a few thousand types within seconds. */
#define REF_MAX_ENTRIES 4000
#define REF_MAX_SPAN 32768
#define REF_MAX_DEPTH 4

struct fuzz_rng {
    uint64_t s;
};

uint64_t fuzz_next(struct fuzz_rng *r);
/* Uniform in [lo, hi]. */
long fuzz_range(struct fuzz_rng *r, long lo, long hi);

struct ref_ent {
    ptrdiff_t disp;
    size_t len;
    int id; /* the basic type: an ORMA_TYPEID_* below the pair types */
};

struct ref_type {
    orma_type h;  /* the library's type (committed), or a predefined one */
    int derived;  /* h is ours to free */
    int depth;    /* constructor nesting, predefined = 0 */
    size_t n;     /* typemap entries of one element */
    struct ref_ent *e;
    ptrdiff_t lb, ub;
    size_t align; /* largest alignment of the basic types */
    size_t size;  /* sum of basic sizes */
    char *desc;   /* the construction, as nested calls */
};

/* Number of predefined types the builder draws from, and the i-th. */
size_t ref_predefined_count(void);
const struct ref_type *ref_predefined(size_t i);

/* Build one random derived type from children drawn out of pool[0..npool)
 * and the predefined types.  Returns 0 and fills *out, 1 when the draw was
 * too large (nothing allocated).  A library error is a test failure (it
 * prints the construction and exits). */
int ref_build_random(struct fuzz_rng *r, struct ref_type *const *pool, size_t npool, struct ref_type *out);

/* A struct of one a and pad bytes after it: equalises data sizes for the
 * copy check.  Returns 0, or 1 when too large. */
int ref_build_padded(const struct ref_type *a, size_t pad, struct ref_type *out);

/* Free the library handle (when derived) and the reference. */
void ref_release(struct ref_type *t);

/* The signature walk and comparisons of the library against t's entries
 * (dtype_fuzz_sig.c); partner: another type, for a random pair. */
void check_signature(struct fuzz_rng *r, const struct ref_type *t, const struct ref_type *partner);

/* Extent as MPI defines it. */
static inline ptrdiff_t ref_extent(const struct ref_type *t) { return t->ub - t->lb; }

/* The command line [seed [types]]: sets fuzz_seed, returns the number of
 * types to build (ntypes when not given). */
long fuzz_args(int argc, char **argv, long ntypes);

/* Where a failure is reported: what is being checked, for reproduction. */
extern uint64_t fuzz_seed;
extern long fuzz_iter;
void fuzz_fail(const struct ref_type *t, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

#endif
