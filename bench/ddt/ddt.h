/* ddt.h -- the suite "ddt": DDTBench's communication patterns as orma
 * datatypes, rank 0 -> rank 1 under lock_all + flush, each moved three
 * ways (typed_put, pack_put_unpack, contig_put; see ddt.c).
 *
 * Every layout is built twice at once (ddt_layout.c): as an orma datatype,
 * through the public constructors, and as a plain tree of blocks the bench
 * walks itself.  The tree gives the byte runs of the typemap in order,
 * which is what the verification compares the window against: the check
 * does not rest on the library's own pack or unpack. */
#ifndef BENCH_DDT_H
#define BENCH_DDT_H

#include <stddef.h>

#include <orma.h>

#include "bench.h"

/* A datatype and its mirror.  A node is count blocks; block b is bl[b]
 * elements of sub[b] (each element sub[b]->extent bytes after the last)
 * starting disp[b] bytes from the node's origin.  A basic node (count 0)
 * is one predefined element of basic bytes.  type is NULL for the inner
 * nodes of a subarray's mirror, which orma builds in one call. */
typedef struct ddt_node {
    orma_type type;
    size_t size;          /* data bytes */
    orma_aint lb, extent; /* as MPI */
    int is_struct;        /* extent rounded to an alignment: not compared */
    size_t basic;
    size_t count;
    size_t *bl;
    orma_aint *disp;
    struct ddt_node **sub;
    struct ddt_node *next; /* the arena's list */
} ddt_node;

/* Owns every node and derived type made through it.  A failed orma call
 * is reported (with the call) and sets failed; later calls return NULL. */
typedef struct ddt_arena {
    ddt_node *head;
    int failed;
} ddt_arena;

ddt_node *ddt_basic(ddt_arena *a, orma_type type);
ddt_node *ddt_contiguous(ddt_arena *a, size_t count, ddt_node *old);
ddt_node *ddt_vector(ddt_arena *a, size_t count, size_t bl, orma_aint stride,
                     ddt_node *old);
ddt_node *ddt_hvector(ddt_arena *a, size_t count, size_t bl,
                      orma_aint stride_bytes, ddt_node *old);
ddt_node *ddt_indexed_block(ddt_arena *a, size_t count, size_t bl,
                            const orma_aint *disp, ddt_node *old);
ddt_node *ddt_hindexed_block(ddt_arena *a, size_t count, size_t bl,
                             const orma_aint *disp_bytes, ddt_node *old);
ddt_node *ddt_indexed(ddt_arena *a, size_t count, const size_t *bl,
                      const orma_aint *disp, ddt_node *old);
ddt_node *ddt_struct(ddt_arena *a, size_t count, const size_t *bl,
                     const orma_aint *disp_bytes, ddt_node *const *subs);
ddt_node *ddt_subarray(ddt_arena *a, int ndims, const size_t *sizes,
                       const size_t *subsizes, const size_t *starts,
                       int order, ddt_node *old);
ddt_node *ddt_resized(ddt_arena *a, ddt_node *old, orma_aint lb,
                      orma_aint extent);
/* Commit; also checks orma's size and extent against the mirror's.
 * Returns 0 or -1 (reported, a->failed set). */
int ddt_commit(ddt_arena *a, ddt_node *n);

/* n rounded up to a cache line: where the next field starts. */
static inline size_t ddt_round64(size_t n) { return (n + 63) & ~(size_t)63; }
void ddt_arena_free(ddt_arena *a);

/* The typemap of one element as byte runs, in order, adjacent runs
 * merged. */
typedef struct ddt_run {
    size_t off, len;
} ddt_run;
typedef struct ddt_runs {
    ddt_run *v;
    size_t n, cap;
    size_t bytes; /* sum of len */
    size_t end;   /* one past the highest byte */
} ddt_runs;

/* 0, or -1 when a byte lies below the buffer (a negative offset). */
int ddt_flatten(const ddt_node *n, ddt_runs *r);
void ddt_runs_free(ddt_runs *r);

/* One pattern at one problem size: the origin's layout and the target's
 * (equal data sizes), both in buffers of the same "domain" shape. */
typedef struct ddt_case {
    ddt_arena arena;
    ddt_node *origin, *target; /* committed */
} ddt_case;

/* Set and commit a case's two layouts; 0 or -1. */
int ddt_case_finish(ddt_case *c, ddt_node *o, ddt_node *t);

typedef struct ddt_pattern {
    const char *name;
    int vector_like; /* judged against contig_put by the summary's bar */
    /* The layouts of about want data bytes (the exact size is what the
     * dimensions round to).  0 or -1. */
    int (*build)(ddt_case *c, size_t want);
} ddt_pattern;

extern const ddt_pattern ddt_patterns[]; /* name NULL ends it */

/* The builders, by family (ddt_pat_grid.c, ddt_pat_irregular.c). */
int ddt_build_wrf_x_vec(ddt_case *c, size_t want);
int ddt_build_wrf_y_vec(ddt_case *c, size_t want);
int ddt_build_wrf_x_sa(ddt_case *c, size_t want);
int ddt_build_wrf_y_sa(ddt_case *c, size_t want);
int ddt_build_milc_su3_zd(ddt_case *c, size_t want);
int ddt_build_nas_mg_x(ddt_case *c, size_t want);
int ddt_build_nas_mg_y(ddt_case *c, size_t want);
int ddt_build_nas_mg_z(ddt_case *c, size_t want);
int ddt_build_nas_lu_x(ddt_case *c, size_t want);
int ddt_build_nas_lu_y(ddt_case *c, size_t want);
int ddt_build_fft2d(ddt_case *c, size_t want);
int ddt_build_specfem3d_mt(ddt_case *c, size_t want);
int ddt_build_lammps_full(ddt_case *c, size_t want);
int ddt_build_lammps_atomic(ddt_case *c, size_t want);
int ddt_build_specfem3d_oc(ddt_case *c, size_t want);
int ddt_build_specfem3d_cm(ddt_case *c, size_t want);

/* The ops, in the order measured; the rows' op names. */
enum { DDT_TYPED, DDT_PACK, DDT_CONTIG, DDT_NOP };
extern const char *const ddt_op_names[]; /* NULL-terminated */

int bench_ddt_run(const bench_ctx *ctx);

/* The window flavours the suite knows (windows.h), NULL-terminated. */
extern const char *const ddt_window_kinds[];

/* A pattern at one size, as measured (for the summary). */
typedef struct ddt_case_id {
    const ddt_pattern *pattern;
    size_t bytes;
} ddt_case_id;

/* Per window, pattern and size: the ratios of medians and the bars
 * (ddt_summary.c); rank 0 prints. */
void ddt_summary(const bench_ctx *ctx, const ddt_case_id *ids, int n);

#endif
