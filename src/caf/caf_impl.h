/* caf_impl.h -- liborma-caf's state, shared by its files: the runtime
 * gfortran's -fcoarray=lib calls (_gfortran_caf_*), over orma's public API
 * only, as liborma-bsp is.
 *
 * How coarrays map onto orma:
 *   - every coarray (static, allocatable, lock, event, critical) is an orma
 *     window of orma_win_allocate, disp_unit 1: shared memory on a node, the
 *     same offsets on every image; it stays in a lock_all epoch from its
 *     registration to its deregistration, so a remote access is an orma_put
 *     or orma_get (a typed one for a section, built from the descriptors:
 *     caf_layout.c) and a flush, never element by element;
 *   - the control window (caf_image.c) holds, at every image, a counter per
 *     image that the image increments at each SYNC IMAGES / SYNC ALL naming
 *     this one, and a word per image saying whether it has ended; images
 *     wait on their own memory only (caf_sync.c);
 *   - the image numbers are the ranks of orma's world, plus one.
 * The descriptor and enum layouts are gfortran 12's (gcc's
 * libgfortran/caf/libcaf.h and libgfortran.h), written out here. */
#ifndef ORMA_CAF_IMPL_H
#define ORMA_CAF_IMPL_H

#include <orma.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- gfortran's types -------------------------------------------------- */

enum {
    CAF_BT_UNKNOWN = 0,
    CAF_BT_INTEGER,
    CAF_BT_LOGICAL,
    CAF_BT_REAL,
    CAF_BT_COMPLEX,
    CAF_BT_DERIVED,
    CAF_BT_CHARACTER,
    CAF_BT_CLASS,
};

#define CAF_MAX_DIMS 15

struct caf_dim {
    ptrdiff_t stride; /* in elements (span bytes each) */
    ptrdiff_t lbound;
    ptrdiff_t ubound;
};

struct caf_dtype {
    size_t elem_len;
    int version;
    signed char rank;
    signed char type;
    signed short attribute;
};

/* gfortran's array descriptor (gfc_array_void). */
struct caf_desc {
    void *base;
    size_t offset;
    struct caf_dtype dtype;
    ptrdiff_t span;
    struct caf_dim dim[];
};

/* A dimension of a vector-subscripted reference: nvec == 0 is a triplet
 * (bounds in the declared indices), else nvec subscripts of the given
 * integer kind. */
struct caf_vec {
    size_t nvec;
    union {
        struct {
            void *vector;
            int kind;
        } v;
        struct {
            ptrdiff_t lower, upper, stride;
        } t;
    } u;
};

/* caf_register_t */
enum {
    CAF_REG_COARRAY_STATIC,
    CAF_REG_COARRAY_ALLOC,
    CAF_REG_LOCK_STATIC,
    CAF_REG_LOCK_ALLOC,
    CAF_REG_CRITICAL,
    CAF_REG_EVENT_STATIC,
    CAF_REG_EVENT_ALLOC,
    CAF_REG_COARRAY_ALLOC_REGISTER_ONLY,
    CAF_REG_COARRAY_ALLOC_ALLOCATE_ONLY,
};

/* ISO_FORTRAN_ENV's codes */
enum {
    CAF_STAT_UNLOCKED = 0,
    CAF_STAT_LOCKED = 1,
    CAF_STAT_LOCKED_OTHER_IMAGE = 2,
    CAF_STAT_STOPPED_IMAGE = 6000,
    CAF_STAT_FAILED_IMAGE = 6001,
};

/* ---- liborma-caf's state ----------------------------------------------- */

/* A team (FORM TEAM): its members' world ranks in team order, this image's
 * index, its orma team (collectives, windows), the collectives' scratch
 * window over it (caf_coll.c), and the team it was formed in.  The initial
 * team is every image, number -1. */
struct caf_team {
    orma_team ot;
    int number;
    int n;
    int me;      /* this image's index in the team (0-based) */
    int *world;  /* n world ranks */
    int *index;  /* caf.n entries: the team index of a world rank, or -1 */
    struct caf_team *parent; /* while active (CHANGE TEAM): the team to go back to */
    struct caf_team *next;   /* every team this image formed, newest first */
    orma_win scratch;
    char *scratch_base;
    size_t scratch_cap;
};

/* A registered coarray (what gfortran calls its token). */
/* Another image's part of a window, where this image maps it. */
struct caf_peer {
    char *base;
    size_t size;
};

/* The parts of win's n ranks this image maps (orma_win_shared_query): base
 * NULL for the others; NULL when out of memory (then every access goes
 * through orma's calls, as across nodes). */
struct caf_peer *caf_map_peers(orma_win win, int n);

struct caf_token {
    orma_win win;
    char *base; /* this image's part (a component: its memory, or NULL) */
    size_t size;
    int kind; /* CAF_REG_*; REGISTER_ONLY: an allocatable component, whose
               * window is dynamic */
    struct caf_desc *desc; /* CAF_REG_COARRAY_ALLOC: the program's descriptor */
    struct caf_team *team; /* the team it was allocated in: its window's ranks */
    /* Per window rank, that image's part where this image maps it (every
     * image's on one node): a contiguous assignment there is one memcpy
     * (caf_xfer.c), an event post one atomic add.  NULL base elsewhere;
     * peer NULL for dynamic windows. */
    struct caf_peer *peer;
    struct caf_token *prev, *next;
};

/* Releases a registration's window (and a component's memory): collective,
 * at termination. */
void caf_token_release(struct caf_token *t);
/* Takes a registration out of caf.tokens. */
void caf_token_unlink(struct caf_token *t);

/* The control window's layout at every image: sync[j] counts the syncs
 * image j+1 made with this one; ended[j] is nonzero once image j+1 has
 * begun to terminate (CAF_ENDED_*); coll[j] counts the hand-overs of
 * collectives between image j+1 and this one (caf_coll.c), apart from the
 * program's own syncs. */
enum { CAF_ENDED_NOT = 0, CAF_ENDED_STOPPED = 1, CAF_ENDED_FAILED = 2 };

/* A set of pairwise counters in the control window: in (this image's n
 * words, which the others increment), its displacement there, and made
 * (private: how often this image signalled each). */
struct caf_pairs {
    uint64_t *in;
    size_t disp;
    uint64_t *made;
};

struct caf_state {
    int me;    /* this image's rank (image me + 1) */
    int n;     /* images */
    orma_win ctl;
    struct caf_peer *ctl_peer; /* per world rank: its control window, where mapped */
    int all_mapped;            /* every image's control window is */
    struct caf_pairs sync; /* SYNC IMAGES / SYNC ALL */
    uint64_t *ended;       /* n words, after sync's */
    struct caf_pairs coll; /* collectives' hand-overs, after ended */
    struct caf_token *tokens; /* newest first */
    int ending;        /* this image is terminating */
    uint64_t salt;     /* image 1's random word, the same on every image */
    struct caf_team initial;
    struct caf_team *team;  /* the current team */
    struct caf_team *teams; /* formed by this image, newest first */
};

extern struct caf_state caf;

/* Fills stat/errmsg (Fortran's STAT= and ERRMSG=) when given, or prints
 * the message naming the image and ends the job with error termination.
 * errmsg is blank-padded.  Returns status. */
int caf_fail(int status, int *stat, char *errmsg, size_t errmsg_len, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* stat = 0 when given. */
void caf_ok(int *stat);
/* Flushes the program's Fortran units and C streams. */
void caf_flush_units(void);
/* Ends the job (error termination) with code after printing msg. */
void caf_die(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

/* Joins the job (orma_init unless orma runs already) and makes the control
 * window, once; argc/argv may be NULL. */
void caf_start(int *argc, char ***argv);

/* This image ends: stopped (normal termination) or failed (FAIL IMAGE);
 * returns once every image has ended, after leaving the job. */
void caf_end(uint64_t how);
/* 0 while rank r runs, else CAF_STAT_STOPPED_IMAGE or CAF_STAT_FAILED_IMAGE
 * (caf_status.c). */
int caf_ended_stat(int r);
/* Before a collective ALLOCATE or DEALLOCATE, which would wait forever
 * for an image of the current team that has ended: 0, or that image's
 * status after caf_fail has reported it. */
int caf_collective_blocked(const char *what, int *stat, char *errmsg, size_t errmsg_len);

/* The image number (1-based, in the current team) as a world rank, or -1
 * when out of range.  (Inline: every remote access asks.) */
static inline int caf_image_rank(int image)
{
    return image >= 1 && image <= caf.team->n ? caf.team->world[image - 1] : -1;
}
/* The rank of world rank r in t's window (the rank in the team t was
 * allocated in). */
static inline int caf_win_rank(const struct caf_token *t, int r)
{
    return t->team ? t->team->index[r] : r;
}

/* ---- assignments (caf_xfer.c) ------------------------------------------ */

/* x(...)[image] = y (put) or y = x(...)[image]: remote describes the
 * coarray's section at offset bytes into t's window (vec: its vector
 * subscripts, or NULL), local the variable on this image; rk and lk their
 * kinds.  Sets stat, or fails with a message. */
void caf_assign(int put, struct caf_token *t, size_t offset, int image, const struct caf_desc *remote,
                const struct caf_vec *vec, const struct caf_desc *local, int rk, int lk, bool may_require_tmp,
                int *stat);

/* ---- sections (caf_layout.c) ------------------------------------------- */

/* Number of elements of a descriptor (1 for a scalar, 0 for an empty
 * section). */
size_t caf_desc_count(const struct caf_desc *d);
/* Byte step of a descriptor's elements (span, or elem_len). */
size_t caf_desc_elem(const struct caf_desc *d);
/* The bytes of d's elements when they are one run of memory (0 for none),
 * else -1. */
ptrdiff_t caf_desc_run(const struct caf_desc *d);
/* An orma type whose typemap is the descriptor's elements in array element
 * order, displacements from the first element.  *how says what it is:
 * CAF_LAYOUT_BYTES when they are one run (then *type is ORMA_BYTE and the
 * run is count * elem bytes), a slot of the cache of strided layouts (>=
 * 0), or CAF_LAYOUT_OWN (built for this call).  With vec (vector
 * subscripts), the elements the subscripts name, from the first element of
 * the declared array.  The type must be given back with caf_layout_put. */
enum { CAF_LAYOUT_BYTES = -2, CAF_LAYOUT_OWN = -1 };
int caf_layout(const struct caf_desc *d, const struct caf_vec *vec, orma_type *type, int *how);
void caf_layout_put(orma_type *type, int how);
/* Elements of d in array element order, each elem bytes, packed into out
 * (pack) or unpacked from in (unpack). */
void caf_desc_pack(const struct caf_desc *d, void *out);
void caf_desc_unpack(const struct caf_desc *d, const void *in);

/* ---- kinds (caf_convert.c) --------------------------------------------- */

/* Two buffers in one allocation (free the first): src_bytes, then, from
 * the next 16-byte boundary, dst_bytes, at *dbuf.  NULL when out of
 * memory. */
char *caf_conv_buffers(size_t src_bytes, size_t dst_bytes, char **dbuf);

/* Converts count elements from src (type st, kind sk, elem_len sl each) to
 * dst (type dt, kind dk, elem_len dl each), as intrinsic assignment does:
 * numeric kinds and types, logical kinds, character lengths (blank padded,
 * truncated) and kinds 1 <-> 4.  A src of one element with count > 1 is
 * broadcast.  Returns 0, or -1 for a conversion Fortran has not. */
int caf_convert(void *dst, int dt, int dk, size_t dl, const void *src, int st, int sk, size_t sl,
                size_t count, size_t src_count);

/* ---- waiting (caf_sync.c) ---------------------------------------------- */

/* SYNC IMAGES with the ranks in list (n of them; -1: all but this one). */
int caf_sync_ranks(const int *ranks, int n, int *stat, char *errmsg, size_t errmsg_len);
/* One hand-over with rank r on a set of counters: signal it, then wait for
 * its signal.  Returns 0, or the rank's image number when it has stopped
 * instead, or -1 when orma failed (orma's message stands). */
int caf_pair(struct caf_pairs *p, int r);
/* Waits until every image has begun to terminate. */
void caf_wait_all_ended(void);

/* ---- collectives (caf_coll.c) ------------------------------------------ */

/* Frees a team's scratch window (collective over the team). */
void caf_coll_free(struct caf_team *team);

/* ---- teams (caf_team.c) ------------------------------------------------ */

/* The initial team, at start. */
void caf_team_init(void);
/* At termination: every team's windows and scratch, then the teams, in an
 * order every member of a team shares (caf_image.c). */
void caf_team_release_all(void);

/* ---- the entry points gfortran 12 calls --------------------------------
 * Each with exactly the arguments gfortran 12 passes (its calls, as
 * -fdump-tree-original shows them), not more: a function declared with an
 * extra stack argument may reuse that slot -- the caller's own stack --
 * for a tail call (seen: caf_get declared with 11, called with 10). */

void _gfortran_caf_init(int *argc, char ***argv);
void _gfortran_caf_finalize(void);
int _gfortran_caf_this_image(int distance);
int _gfortran_caf_num_images(int distance, int failed);
void _gfortran_caf_register(size_t size, int type, void **token, struct caf_desc *desc, int *stat, char *errmsg,
                            size_t errmsg_len);
void _gfortran_caf_deregister(void **token, int type, int *stat, char *errmsg, size_t errmsg_len);
void _gfortran_caf_send(void *token, size_t offset, int image, struct caf_desc *dest, struct caf_vec *dst_vector,
                        struct caf_desc *src, int dst_kind, int src_kind, bool may_require_tmp, int *stat,
                        void *team);
void _gfortran_caf_get(void *token, size_t offset, int image, struct caf_desc *src, struct caf_vec *src_vector,
                       struct caf_desc *dest, int src_kind, int dst_kind, bool may_require_tmp, int *stat);
void _gfortran_caf_sendget(void *dst_token, size_t dst_offset, int dst_image, struct caf_desc *dest,
                           struct caf_vec *dst_vector, void *src_token, size_t src_offset, int src_image,
                           struct caf_desc *src, struct caf_vec *src_vector, int dst_kind, int src_kind,
                           bool may_require_tmp, int *stat);
void _gfortran_caf_sync_all(int *stat, char **errmsg_p, size_t errmsg_len);
void _gfortran_caf_sync_images(int count, int images[], int *stat, char **errmsg_p, size_t errmsg_len);
void _gfortran_caf_sync_memory(int *stat, char **errmsg_p, size_t errmsg_len);
void _gfortran_caf_stop_numeric(int code, bool quiet) __attribute__((noreturn));
void _gfortran_caf_stop_str(const char *s, size_t len, bool quiet) __attribute__((noreturn));
void _gfortran_caf_error_stop(int code, bool quiet) __attribute__((noreturn));
void _gfortran_caf_error_stop_str(const char *s, size_t len, bool quiet) __attribute__((noreturn));
void _gfortran_caf_co_sum(struct caf_desc *a, int result_image, int *stat, char *errmsg, size_t errmsg_len);
void _gfortran_caf_co_min(struct caf_desc *a, int result_image, int *stat, char *errmsg, int a_len,
                          size_t errmsg_len);
void _gfortran_caf_co_max(struct caf_desc *a, int result_image, int *stat, char *errmsg, int a_len,
                          size_t errmsg_len);
void _gfortran_caf_co_reduce(struct caf_desc *a, void *(*opr)(void *, void *), int opr_flags, int result_image,
                             int *stat, char *errmsg, int a_len, size_t errmsg_len);
void _gfortran_caf_co_broadcast(struct caf_desc *a, int source_image, int *stat, char *errmsg, size_t errmsg_len);
void _gfortran_caf_get_by_ref(void *token, int image, struct caf_desc *dst, void *refs, int dst_kind, int src_kind,
                              bool may_require_tmp, bool dst_reallocatable, int *stat, int src_type);
void _gfortran_caf_send_by_ref(void *token, int image, struct caf_desc *src, void *refs, int dst_kind, int src_kind,
                               bool may_require_tmp, bool dst_reallocatable, int *stat, int dst_type);
void _gfortran_caf_sendget_by_ref(void *dst_token, int dst_image, void *dst_refs, void *src_token, int src_image,
                                  void *src_refs, int dst_kind, int src_kind, bool may_require_tmp, int *dst_stat,
                                  int *src_stat, int dst_type, int src_type);
int _gfortran_caf_is_present(void *token, int image, void *refs);
int _gfortran_caf_image_status(int image, void *team);
void _gfortran_caf_form_team(int team_number, void **team, int new_index);
void _gfortran_caf_change_team(void **team, int coselector);
void _gfortran_caf_end_team(void **team);
void _gfortran_caf_sync_team(void **team, int unused);
int _gfortran_caf_team_number(void *team);
void _gfortran_caf_failed_images(struct caf_desc *array, void *team, int *kind);
void _gfortran_caf_stopped_images(struct caf_desc *array, void *team, int *kind);
void _gfortran_caf_fail_image(void) __attribute__((noreturn));
void _gfortran_caf_random_init(bool repeatable, bool image_distinct);
void _gfortran_caf_atomic_define(void *token, size_t offset, int image, void *value, int *stat, int type, int kind);
void _gfortran_caf_atomic_ref(void *token, size_t offset, int image, void *value, int *stat, int type, int kind);
void _gfortran_caf_atomic_op(int op, void *token, size_t offset, int image, void *value, void *old, int *stat,
                             int type, int kind);
void _gfortran_caf_atomic_cas(void *token, size_t offset, int image, void *old, void *compare, void *new_val,
                              int *stat, int type, int kind);
void _gfortran_caf_lock(void *token, size_t index, int image, int *acquired, int *stat, char *errmsg,
                        size_t errmsg_len);
void _gfortran_caf_unlock(void *token, size_t index, int image, int *stat, char *errmsg, size_t errmsg_len);
void _gfortran_caf_event_post(void *token, size_t index, int image, int *stat, char *errmsg, size_t errmsg_len);
void _gfortran_caf_event_wait(void *token, size_t index, int until_count, int *stat, char *errmsg,
                              size_t errmsg_len);
void _gfortran_caf_event_query(void *token, size_t index, int image, int *count, int *stat);

#endif
