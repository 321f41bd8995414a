/*
 * orma.h -- the native C API of orma, a library for one-sided communication
 * (remote memory access) between the ranks of a job.
 *
 * A rank exposes a *window* of its memory; other ranks write it (orma_put) and
 * read it (orma_get) without the owner taking part.  Accesses happen inside
 * *epochs* opened and closed by synchronization calls (orma_win_fence).  The
 * semantics follow MPI-3 one-sided communication (unified memory model), so a
 * reader who knows MPI_Win_* knows this header.
 *
 * Conventions
 *  - Every call returns ORMA_SUCCESS (0) or a negative ORMA_ERR_* code.  On an
 *    error nothing was changed, output arguments were not written, and a
 *    message naming the calling rank and the problem was stored for
 *    orma_error_message() and logged (see ORMA_LOG_LEVEL).
 *  - Output arguments end in _p and come last.
 *  - Counts and sizes are size_t; displacements are orma_aint.
 *  - Threads: after orma_init, calls are made from one thread at a time per
 *    rank; after orma_init_thread(ORMA_THREAD_MULTIPLE, ...) any thread may
 *    call any function at any time, with MPI's rules for what concurrent
 *    calls on one window mean (see orma_init_thread).
 *
 * Start a job of N ranks with `orma-run -n N prog args...`; a program started
 * without orma-run is a job of one rank.
 */
#ifndef ORMA_H
#define ORMA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ORMA_VERSION_MAJOR 0
#define ORMA_VERSION_MINOR 1
#define ORMA_VERSION_PATCH 0
#define ORMA_VERSION_STRING "0.1.0"

/* ------------------------------------------------------------------------ */
/* Status codes                                                              */
/* ------------------------------------------------------------------------ */

/* X(name, value, description): the single list the enum and orma_strerror()
 * are generated from. */
#define ORMA_STATUS_LIST(X)                                                   \
    X(SUCCESS,          0,  "success")                                        \
    X(ERR_ARG,         -1,  "invalid argument")                               \
    X(ERR_NOT_INIT,    -2,  "orma is not initialized")                        \
    X(ERR_WIN,         -3,  "invalid or freed window")                        \
    X(ERR_RANK,        -4,  "rank out of range")                              \
    X(ERR_RANGE,       -5,  "access outside the target window")               \
    X(ERR_DISP,        -6,  "invalid displacement or displacement unit")      \
    X(ERR_TYPE,        -7,  "invalid datatype or mismatched signatures")      \
    X(ERR_COUNT,       -8,  "invalid count")                                  \
    X(ERR_RMA_SYNC,    -9,  "RMA synchronization error")                      \
    X(ERR_ASSERT,      -10, "invalid assert")                                 \
    X(ERR_FLAVOR,      -11, "call not valid for this window flavour")         \
    X(ERR_BASE,        -12, "invalid base address")                           \
    X(ERR_INFO,        -13, "invalid info object or key")                     \
    X(ERR_NOMEM,       -14, "out of memory")                                  \
    X(ERR_SYS,         -15, "system call failed")                             \
    X(ERR_PEER,        -16, "peer rank failed or is unreachable")             \
    X(ERR_UNSUPPORTED, -17, "not supported by this build or transport")       \
    X(ERR_OP,          -18, "operation not defined for this datatype")        \
    X(ERR_INTERNAL,    -19, "internal error")                                 \
    X(ERR_REQUEST,     -20, "invalid or freed request")                       \
    X(ERR_NOTIFY,      -21, "invalid notification counter")

#define ORMA_STATUS_ENUM_ENTRY(name, value, text) ORMA_##name = value,
typedef enum orma_status {
    ORMA_STATUS_LIST(ORMA_STATUS_ENUM_ENTRY)
    ORMA_ERR_LAST = -22
} orma_status;
#undef ORMA_STATUS_ENUM_ENTRY

/* Human-readable description of a status code ("unknown status" otherwise). */
const char *orma_strerror(int status);

/* The message stored by the last failing call of this thread, for example
 * "rank 3: put of 64 bytes at displacement 4096 exceeds window size 4096".
 * Empty string when no call has failed yet.  Never NULL. */
const char *orma_error_message(void);

/* ------------------------------------------------------------------------ */
/* Job                                                                       */
/* ------------------------------------------------------------------------ */

/* Join the job.  argc/argv may be NULL; they are not modified.  Calling
 * orma_init twice returns ORMA_ERR_ARG.  Errors: ORMA_ERR_SYS when the job's
 * shared memory cannot be set up, ORMA_ERR_PEER when the launcher's job is
 * unusable. */
int orma_init(int *argc, char ***argv);

/* Thread levels, as MPI's: only one thread; only the thread that called
 * orma_init_thread; any thread, one at a time; any thread at any time. */
#define ORMA_THREAD_SINGLE 0
#define ORMA_THREAD_FUNNELED 1
#define ORMA_THREAD_SERIALIZED 2
#define ORMA_THREAD_MULTIPLE 3

/* orma_init, with the thread level the program needs (ORMA_THREAD_*);
 * *provided_p is the level given, which is always the one required.  Under
 * ORMA_THREAD_MULTIPLE, concurrent calls behave as if made in some order,
 * as MPI's do: several threads may issue operations in one epoch (a lock,
 * lock_all or fence epoch of the window), and a flush or unlock completes
 * the operations of every thread issued before it.  Synchronization that
 * opens or closes an active-target epoch (fence, post, start, complete,
 * wait, test) is called by one thread per window at a time: a second
 * thread calling one while another is inside gets ORMA_ERR_RMA_SYNC and
 * changes nothing.  Operations on different windows never wait for each
 * other.  Errors: those of orma_init; ORMA_ERR_ARG for an unknown level. */
int orma_init_thread(int required, int *provided_p);

/* The thread level orma_init_thread gave (ORMA_THREAD_SINGLE after
 * orma_init), or ORMA_ERR_NOT_INIT. */
int orma_query_thread(int *provided_p);

/* Leave the job: a barrier with every rank, then every window still open is
 * released.  Errors: ORMA_ERR_NOT_INIT. */
int orma_finalize(void);

/* End the whole job at once, from any rank, with exit status code (1 when
 * code is 0): this rank removes the job's shared-memory objects and exits
 * without a barrier; orma-run then ends the other ranks, and under mpirun
 * MPI_Abort does.  Messages should be printed before.  Usable before
 * orma_init (then only this process exits).  Does not return. */
void orma_abort(int code) __attribute__((noreturn));

/* *flag_p = 1 when orma_init has succeeded and orma_finalize was not called. */
int orma_initialized(int *flag_p);

/* This rank's number (0..size-1), or ORMA_ERR_NOT_INIT. */
int orma_rank(void);

/* Number of ranks in the job, or ORMA_ERR_NOT_INIT. */
int orma_size(void);

/* Block until every rank of the job has called orma_barrier. */
int orma_barrier(void);

/* Wall-clock time in seconds from an arbitrary origin (monotonic, ns
 * resolution); orma_wtick() is its resolution.  Usable before orma_init. */
double orma_wtime(void);
double orma_wtick(void);

/* ------------------------------------------------------------------------ */
/* Info objects (key/value hints, as MPI_Info)                               */
/* ------------------------------------------------------------------------ */

typedef struct orma_info_s *orma_info;
#define ORMA_INFO_NULL ((orma_info)0)
#define ORMA_INFO_KEY_MAX 63   /* longest key, in characters */
#define ORMA_INFO_VAL_MAX 255  /* longest value, in characters */

int orma_info_create(orma_info *info_p);
/* Sets or replaces key.  ORMA_ERR_INFO for an over-long key or value. */
int orma_info_set(orma_info info, const char *key, const char *value);
/* Copies the value of key into value (at most len bytes including the NUL)
 * and sets *flag_p to 1, or sets *flag_p to 0 when the key is absent. */
int orma_info_get(orma_info info, const char *key, size_t len, char *value,
                  int *flag_p);
int orma_info_free(orma_info *info_p);

/* ------------------------------------------------------------------------ */
/* Datatypes                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct orma_type_s *orma_type;
typedef intptr_t orma_aint; /* displacements and addresses */

/* X(NAME, C type): the predefined element types. */
#define ORMA_PREDEFINED_TYPE_LIST(X)                                          \
    X(BYTE, unsigned char)                                                    \
    X(CHAR, char)                                                             \
    X(SIGNED_CHAR, signed char)                                               \
    X(UNSIGNED_CHAR, unsigned char)                                           \
    X(SHORT, short)                                                           \
    X(UNSIGNED_SHORT, unsigned short)                                         \
    X(INT, int)                                                               \
    X(UNSIGNED, unsigned int)                                                 \
    X(LONG, long)                                                             \
    X(UNSIGNED_LONG, unsigned long)                                           \
    X(LONG_LONG, long long)                                                   \
    X(UNSIGNED_LONG_LONG, unsigned long long)                                 \
    X(INT8, int8_t)                                                           \
    X(INT16, int16_t)                                                         \
    X(INT32, int32_t)                                                         \
    X(INT64, int64_t)                                                         \
    X(UINT8, uint8_t)                                                         \
    X(UINT16, uint16_t)                                                       \
    X(UINT32, uint32_t)                                                       \
    X(UINT64, uint64_t)                                                       \
    X(FLOAT, float)                                                           \
    X(DOUBLE, double)                                                         \
    X(LONG_DOUBLE, long double)                                               \
    X(C_BOOL, _Bool)                                                          \
    X(C_FLOAT_COMPLEX, float _Complex)                                        \
    X(C_DOUBLE_COMPLEX, double _Complex)                                      \
    X(C_LONG_DOUBLE_COMPLEX, long double _Complex)                            \
    X(AINT, intptr_t)

/* The value-index pairs of ORMA_MINLOC and ORMA_MAXLOC, laid out as the C
 * structs MPI's MPI_FLOAT_INT and friends describe. */
struct orma_float_int { float value; int index; };
struct orma_double_int { double value; int index; };
struct orma_long_int { long value; int index; };
struct orma_2int { int value; int index; };
struct orma_short_int { short value; int index; };
struct orma_long_double_int { long double value; int index; };

/* X(NAME, pair struct, value C type).  A pair type's size is the bytes of
 * its two members (MPI_Type_size), its extent the size of the struct. */
#define ORMA_PAIR_TYPE_LIST(X)                                                \
    X(FLOAT_INT, struct orma_float_int, float)                                \
    X(DOUBLE_INT, struct orma_double_int, double)                             \
    X(LONG_INT, struct orma_long_int, long)                                   \
    X(2INT, struct orma_2int, int)                                            \
    X(SHORT_INT, struct orma_short_int, short)                                \
    X(LONG_DOUBLE_INT, struct orma_long_double_int, long double)

#define ORMA_TYPEID_ENTRY(name, ...) ORMA_TYPEID_##name,
enum orma_typeid {
    ORMA_PREDEFINED_TYPE_LIST(ORMA_TYPEID_ENTRY)
    ORMA_PAIR_TYPE_LIST(ORMA_TYPEID_ENTRY)
    ORMA_TYPEID_COUNT
};
#undef ORMA_TYPEID_ENTRY

/* The predefined type objects live in one table of fixed-stride entries (its
 * layout is private); ORMA_<NAME> is the address of entry ORMA_TYPEID_<NAME>. */
struct orma_type_table_s;
extern struct orma_type_table_s orma_predefined_types;
#define ORMA_TYPE_STRIDE 64
#define ORMA_PREDEFINED(id) \
    ((orma_type)(void *)((char *)&orma_predefined_types + (size_t)(id) * ORMA_TYPE_STRIDE))
#define ORMA_BYTE                  ORMA_PREDEFINED(ORMA_TYPEID_BYTE)
#define ORMA_CHAR                  ORMA_PREDEFINED(ORMA_TYPEID_CHAR)
#define ORMA_SIGNED_CHAR           ORMA_PREDEFINED(ORMA_TYPEID_SIGNED_CHAR)
#define ORMA_UNSIGNED_CHAR         ORMA_PREDEFINED(ORMA_TYPEID_UNSIGNED_CHAR)
#define ORMA_SHORT                 ORMA_PREDEFINED(ORMA_TYPEID_SHORT)
#define ORMA_UNSIGNED_SHORT        ORMA_PREDEFINED(ORMA_TYPEID_UNSIGNED_SHORT)
#define ORMA_INT                   ORMA_PREDEFINED(ORMA_TYPEID_INT)
#define ORMA_UNSIGNED              ORMA_PREDEFINED(ORMA_TYPEID_UNSIGNED)
#define ORMA_LONG                  ORMA_PREDEFINED(ORMA_TYPEID_LONG)
#define ORMA_UNSIGNED_LONG         ORMA_PREDEFINED(ORMA_TYPEID_UNSIGNED_LONG)
#define ORMA_LONG_LONG             ORMA_PREDEFINED(ORMA_TYPEID_LONG_LONG)
#define ORMA_UNSIGNED_LONG_LONG    ORMA_PREDEFINED(ORMA_TYPEID_UNSIGNED_LONG_LONG)
#define ORMA_INT8                  ORMA_PREDEFINED(ORMA_TYPEID_INT8)
#define ORMA_INT16                 ORMA_PREDEFINED(ORMA_TYPEID_INT16)
#define ORMA_INT32                 ORMA_PREDEFINED(ORMA_TYPEID_INT32)
#define ORMA_INT64                 ORMA_PREDEFINED(ORMA_TYPEID_INT64)
#define ORMA_UINT8                 ORMA_PREDEFINED(ORMA_TYPEID_UINT8)
#define ORMA_UINT16                ORMA_PREDEFINED(ORMA_TYPEID_UINT16)
#define ORMA_UINT32                ORMA_PREDEFINED(ORMA_TYPEID_UINT32)
#define ORMA_UINT64                ORMA_PREDEFINED(ORMA_TYPEID_UINT64)
#define ORMA_FLOAT                 ORMA_PREDEFINED(ORMA_TYPEID_FLOAT)
#define ORMA_DOUBLE                ORMA_PREDEFINED(ORMA_TYPEID_DOUBLE)
#define ORMA_LONG_DOUBLE           ORMA_PREDEFINED(ORMA_TYPEID_LONG_DOUBLE)
#define ORMA_C_BOOL                ORMA_PREDEFINED(ORMA_TYPEID_C_BOOL)
#define ORMA_C_FLOAT_COMPLEX       ORMA_PREDEFINED(ORMA_TYPEID_C_FLOAT_COMPLEX)
#define ORMA_C_DOUBLE_COMPLEX      ORMA_PREDEFINED(ORMA_TYPEID_C_DOUBLE_COMPLEX)
#define ORMA_C_LONG_DOUBLE_COMPLEX ORMA_PREDEFINED(ORMA_TYPEID_C_LONG_DOUBLE_COMPLEX)
#define ORMA_AINT                  ORMA_PREDEFINED(ORMA_TYPEID_AINT)
#define ORMA_FLOAT_INT             ORMA_PREDEFINED(ORMA_TYPEID_FLOAT_INT)
#define ORMA_DOUBLE_INT            ORMA_PREDEFINED(ORMA_TYPEID_DOUBLE_INT)
#define ORMA_LONG_INT              ORMA_PREDEFINED(ORMA_TYPEID_LONG_INT)
#define ORMA_2INT                  ORMA_PREDEFINED(ORMA_TYPEID_2INT)
#define ORMA_SHORT_INT             ORMA_PREDEFINED(ORMA_TYPEID_SHORT_INT)
#define ORMA_LONG_DOUBLE_INT       ORMA_PREDEFINED(ORMA_TYPEID_LONG_DOUBLE_INT)

/* Size in bytes of the data of one element of type.  ORMA_ERR_TYPE for a
 * bad handle. */
int orma_type_size(orma_type type, size_t *size_p);
/* Bytes one element spans in memory (lower bound 0): the struct size of a
 * pair type, the size of every other predefined type. */
int orma_type_extent(orma_type type, size_t *extent_p);
/* Name of a type ("ORMA_INT32"), or "invalid type". */
const char *orma_type_name(orma_type type);

/* Derived datatypes, as MPI's constructors.  Counts and block lengths are
 * element counts of the old type; "h" variants and struct take byte
 * displacements and strides, the others multiples of the old type's extent.
 * Strides and displacements may be negative.  A new type must be committed
 * before use; freeing a type leaves types built from it intact.  Queries
 * work on uncommitted types.  Errors: ORMA_ERR_TYPE (invalid old type),
 * ORMA_ERR_ARG (NULL pointer, bad order or subarray bounds), ORMA_ERR_COUNT
 * (sizes overflow), ORMA_ERR_NOMEM.
 *
 * Bounds follow MPI: lb and ub are the lowest and highest byte the typemap
 * reaches (resized sets them explicitly); a struct's extent is then rounded
 * up to the largest alignment of its basic types, as C pads a struct (a
 * member of block length 0 is not in the typemap and does not count). */
int orma_type_contiguous(size_t count, orma_type oldtype, orma_type *newtype_p);
int orma_type_vector(size_t count, size_t blocklength, orma_aint stride, orma_type oldtype,
                     orma_type *newtype_p);
int orma_type_hvector(size_t count, size_t blocklength, orma_aint stride_bytes, orma_type oldtype,
                      orma_type *newtype_p);
int orma_type_indexed(size_t count, const size_t *blocklengths, const orma_aint *displacements,
                      orma_type oldtype, orma_type *newtype_p);
int orma_type_hindexed(size_t count, const size_t *blocklengths, const orma_aint *displacements_bytes,
                       orma_type oldtype, orma_type *newtype_p);
int orma_type_indexed_block(size_t count, size_t blocklength, const orma_aint *displacements,
                            orma_type oldtype, orma_type *newtype_p);
int orma_type_hindexed_block(size_t count, size_t blocklength, const orma_aint *displacements_bytes,
                             orma_type oldtype, orma_type *newtype_p);
int orma_type_struct(size_t count, const size_t *blocklengths, const orma_aint *displacements_bytes,
                     const orma_type *types, orma_type *newtype_p);

#define ORMA_ORDER_C 0       /* last dimension varies fastest */
#define ORMA_ORDER_FORTRAN 1 /* first dimension varies fastest */
/* The subarray starts[d] .. starts[d] + subsizes[d] - 1 of an ndims-dimensional
 * array of sizes[d] elements per dimension; the extent is the whole array's. */
int orma_type_subarray(int ndims, const size_t *sizes, const size_t *subsizes, const size_t *starts, int order,
                       orma_type oldtype, orma_type *newtype_p);
int orma_type_resized(orma_type oldtype, orma_aint lb, orma_aint extent, orma_type *newtype_p);
int orma_type_dup(orma_type oldtype, orma_type *newtype_p);
int orma_type_commit(orma_type *type_p);
/* Free a derived type and set *type_p to NULL; ORMA_ERR_TYPE for a
 * predefined one. */
int orma_type_free(orma_type *type_p);
/* Lower bound and extent (ub - lb), and the same of the bytes actually
 * holding data. */
int orma_type_get_extent(orma_type type, orma_aint *lb_p, orma_aint *extent_p);
int orma_type_get_true_extent(orma_type type, orma_aint *lb_p, orma_aint *extent_p);
/* *flag_p = 1 when count elements of type are one dense run of bytes
 * starting at the buffer (no gaps, no reordering). */
int orma_type_is_contiguous(orma_type type, size_t count, int *flag_p);
/* Pack count elements of type at inbuf into outbuf (outsize bytes, from
 * *position_p on, which advances), and the reverse; as MPI_Pack/Unpack.
 * ORMA_ERR_COUNT when outsize (insize) is too small. */
int orma_pack(const void *inbuf, size_t count, orma_type type, void *outbuf, size_t outsize,
              size_t *position_p);
int orma_unpack(const void *inbuf, size_t insize, size_t *position_p, void *outbuf, size_t count,
                orma_type type);

/* Reduction operations of the accumulate family, as MPI's predefined ops.
 * Which types each applies to follows MPI: SUM, PROD on integers, floating
 * and complex types; MIN, MAX on integers and floating types; LAND, LOR,
 * LXOR on integers and C_BOOL; BAND, BOR, BXOR on integers and BYTE;
 * REPLACE and NO_OP on every type; MINLOC and MAXLOC on the pair types. */
#define ORMA_OP_LIST(X)                                                       \
    X(SUM) X(PROD) X(MIN) X(MAX) X(LAND) X(LOR) X(LXOR) X(BAND) X(BOR)        \
    X(BXOR) X(MINLOC) X(MAXLOC) X(REPLACE) X(NO_OP)

#define ORMA_OP_ENTRY(name) ORMA_##name,
typedef enum orma_op { ORMA_OP_LIST(ORMA_OP_ENTRY) ORMA_OP_COUNT } orma_op;
#undef ORMA_OP_ENTRY

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */
/* ------------------------------------------------------------------------ */

/* Allocate size bytes (64-byte aligned) from this rank's shared heap.  A
 * window later created on this memory with orma_win_create is reached by the
 * other ranks of the node with plain loads and stores instead of a copy
 * syscall.  size 0 returns a unique non-NULL pointer.  Errors: ORMA_ERR_NOMEM,
 * ORMA_ERR_SYS, ORMA_ERR_NOT_INIT. */
int orma_alloc_mem(size_t size, orma_info info, void **base_p);

/* Release memory from orma_alloc_mem.  ORMA_ERR_BASE when base did not come
 * from orma_alloc_mem (or was already freed); NULL is accepted and ignored.
 * Memory still used by a window must not be freed before the window. */
int orma_free_mem(void *base);

/* ------------------------------------------------------------------------ */
/* Windows                                                                   */
/* ------------------------------------------------------------------------ */


/* A window handle.  A freed handle is detected (ORMA_ERR_WIN), never used. */
typedef uint64_t orma_win;
#define ORMA_WIN_NULL ((orma_win)0)

typedef enum orma_win_flavor {
    ORMA_WIN_FLAVOR_CREATE = 1,   /* orma_win_create: user memory */
    ORMA_WIN_FLAVOR_ALLOCATE = 2, /* orma_win_allocate: orma memory */
    ORMA_WIN_FLAVOR_DYNAMIC = 3,  /* orma_win_create_dynamic + attach */
    ORMA_WIN_FLAVOR_SHARED = 4    /* orma_win_allocate_shared */
} orma_win_flavor;

/* All window creation and orma_win_free are collective over every rank of
 * the job (of the team, for windows made on one: orma_win_*_team below),
 * called in the same order by all.  disp_unit > 0 is the unit of
 * target displacements at this rank.  size may differ between ranks and may
 * be 0.  Creation errors: ORMA_ERR_DISP (disp_unit <= 0), ORMA_ERR_ARG (NULL
 * output), ORMA_ERR_BASE (create: NULL base with size > 0), ORMA_ERR_NOMEM,
 * ORMA_ERR_SYS, ORMA_ERR_INFO. */

/* Allocate size bytes (64-byte aligned) that the other ranks of the node
 * access directly, and a window on them.  *base_p receives the local base. */
int orma_win_allocate(size_t size, int disp_unit, orma_info info,
                      void **base_p, orma_win *win_p);

/* Like orma_win_allocate, but the memory of all ranks is one contiguous
 * segment (rank r's part follows rank r-1's) that every rank can load and
 * store directly; see orma_win_shared_query. */
int orma_win_allocate_shared(size_t size, int disp_unit, orma_info info,
                             void **base_p, orma_win *win_p);

/* Size, displacement unit and local address of rank's part of a shared
 * window; a rank of size 0 has base NULL.  Of an allocate or create window
 * too (as MPI-4.1): this rank's own part, and another's where orma maps all
 * of it here (allocate windows on one node, memory from orma_alloc_mem or
 * adopted whole), else size 0 and base NULL.  rank may be ORMA_PROC_NULL
 * (or -1): the first rank with a non-zero size (or rank 0).
 * Errors: ORMA_ERR_FLAVOR (a dynamic window), ORMA_ERR_RANK. */
int orma_win_shared_query(orma_win win, int rank, size_t *size_p,
                          int *disp_unit_p, void **base_p);

/* A window on existing memory [base, base+size).  Memory from
 * orma_alloc_mem is accessed directly.  Of other private memory (malloc,
 * anonymous mappings, static data; not the main stack or file mappings),
 * the whole pages inside [base, base+size) are moved into a shared segment
 * at the same addresses with the same contents, so peers access them
 * directly too, and moved back into private memory when the window is
 * freed (ORMA_ADOPT=0: not done); the rest is reached through single-copy
 * system calls (process_vm_readv/writev).  While a window holds adopted
 * pages, no other thread may access them during its creation and freeing,
 * and a fork()ed child shares them instead of copying.  orma_win_attach
 * does the same for a dynamic window's region, until orma_win_detach. */
int orma_win_create(void *base, size_t size, int disp_unit, orma_info info,
                    orma_win *win_p);

/* A window without memory; regions are attached later.  Target
 * displacements are addresses at the target (cast with (orma_aint)ptr), and
 * the displacement unit is 1.  An access may span adjacent regions.  One
 * that reaches memory the target never attached is erroneous; orma carries
 * it out all the same where the target has such memory (as MPICH does, and
 * programs rely on), and refuses it (ORMA_ERR_RANGE) with ORMA_CHECK=1 and
 * over the net transport. */
int orma_win_create_dynamic(orma_info info, orma_win *win_p);

/* Expose [base, base+size) of this rank in a dynamic window (local call).
 * There is no limit on the number of regions; one of size 0 exposes nothing
 * (detach it like any other).  Errors: ORMA_ERR_FLAVOR, ORMA_ERR_BASE (NULL
 * with a size, overlaps an attached region), ORMA_ERR_NOMEM. */
int orma_win_attach(orma_win win, void *base, size_t size);

/* Remove the region attached at base (local call).  ORMA_ERR_BASE when no
 * region starts at base. */
int orma_win_detach(orma_win win, const void *base);

/* Free the window (collective) and set *win_p to ORMA_WIN_NULL.  Errors:
 * ORMA_ERR_WIN, ORMA_ERR_RMA_SYNC when an epoch is still open on the window:
 * a fence epoch with operations, or any PSCW, lock or lock_all epoch (a
 * fence that issued nothing may be followed by free). */
int orma_win_free(orma_win *win_p);

/* Queries of the local part of a window. */
int orma_win_get_base(orma_win win, void **base_p);
int orma_win_get_size(orma_win win, size_t *size_p);
int orma_win_get_disp_unit(orma_win win, int *disp_unit_p);
int orma_win_get_flavor(orma_win win, orma_win_flavor *flavor_p);

/* Window info keys understood at creation (MPI's names and values; every
 * rank must give the same value, orma_notify_num and orma_check_race
 * excepted):
 *   accumulate_ordering  "rar,raw,war,waw" (default) or a subset, or "none":
 *                        which orderings of same-origin accumulates to one
 *                        location orma must keep (on one machine orma
 *                        performs them in issue order in any case)
 *   accumulate_ops       "same_op_no_op" (default) or "same_op": the
 *                        user's promise that concurrent updates of a
 *                        location use one op (and NO_OP); orma keeps
 *                        updates with different ops atomic all the same
 *   no_locks             "false" (default) or "true": orma_win_lock and
 *                        orma_win_lock_all will not be called (they then fail
 *                        with ORMA_ERR_RMA_SYNC)
 *   same_size            "false" or "true": every rank gives the same size
 *   same_disp_unit       "false" or "true": every rank gives the same unit
 *   orma_unlock_local    "false" (default) or "true": over the net transport
 *                        (mpirun, other nodes), orma_win_unlock and
 *                        orma_win_unlock_all return once the operations are
 *                        complete here, without waiting for the target's
 *                        acknowledgement.  The target still carries them out
 *                        before its lock goes to anyone else, and this
 *                        origin's later epochs see them; its own loads, and
 *                        lock epochs it grants before the release arrives,
 *                        may not yet.  A later orma_win_flush or the
 *                        window's free waits for them.  No effect on shared
 *                        memory, where an unlock costs nothing to wait for.
 *                        Its default is ORMA_UNLOCK_LOCAL's (0: false), so
 *                        that MPI programs can have it unchanged.
 *   orma_notify_num      a count, 0 (default) to ORMA_NOTIFY_MAX, each rank
 *                        its own: this rank's notification counters ("Notified
 *                        access" below).  A request, not a hint: any other
 *                        value fails creation with ORMA_ERR_INFO
 *   orma_check_race      "false" (default) or "true", each rank its own:
 *                        check this window's accesses as ORMA_CHECK=race
 *                        checks every window ("Checking one-sided bugs"
 *                        below); the other windows run unchecked
 *   alloc_shared_noncontig  "false" (default) or "true", shared windows: the
 *                        user's promise not to rely on the ranks' parts being
 *                        contiguous (orma makes them contiguous either way)
 * An unknown key is ignored, and so is a known key with a value outside its
 * set, with a warning (as MPI libraries take hints); with ORMA_CHECK=1 such a
 * value fails creation with ORMA_ERR_INFO.  orma_win_get_info returns a new info object
 * (free it with orma_info_free) holding every key above that applies to the
 * window's flavour, with its value in effect. */
int orma_win_get_info(orma_win win, orma_info *info_p);

/* Change the window's hints to the keys info names (the others keep their
 * values; alloc_shared_noncontig only at creation).  Every rank must give
 * the same; a value outside a key's set is ignored as at creation.
 * Errors: ORMA_ERR_WIN, ORMA_ERR_INFO (not an info object; with
 * ORMA_CHECK=1 a value outside its key's set: nothing changes). */
int orma_win_set_info(orma_win win, orma_info info);

/* ------------------------------------------------------------------------ */
/* Communication                                                             */
/* ------------------------------------------------------------------------ */

/* No rank: a valid target of every communication call, of orma_win_lock,
 * orma_win_unlock, orma_win_flush and orma_win_flush_local, as MPI_PROC_NULL
 * is in MPI.  Such a call does nothing, but the epoch rules still hold: an
 * operation to ORMA_PROC_NULL needs an access epoch that allows operations
 * (a request-based one a passive epoch), and it counts as issued in it;
 * ORMA_PROC_NULL's lock opens a lock epoch and its unlock closes it; its
 * requests are complete at once. */
#define ORMA_PROC_NULL (-32765)

/* Write origin_count elements of origin_type from origin into the window of
 * rank target, starting target_disp * disp_unit bytes past its base (dynamic
 * windows: at address target_disp).  The origin buffer must not be modified
 * until the epoch is closed: the transfer may be deferred to the closing
 * synchronization call.  Both types must currently be predefined and the two
 * signatures must have the same size in bytes; with ORMA_CHECK=1 they must
 * match as MPI requires: the same type on both sides (ORMA_BYTE matches
 * only ORMA_BYTE), or a pair type and its members (ORMA_2INT and two
 * ORMA_INTs).  A count of 0 does nothing (after the epoch and argument
 * checks).
 * Errors: ORMA_ERR_WIN, ORMA_ERR_RANK, ORMA_ERR_TYPE, ORMA_ERR_DISP (negative
 * displacement), ORMA_ERR_RANGE (beyond the target window or attached
 * regions), ORMA_ERR_RMA_SYNC (no access epoch open to target), ORMA_ERR_ARG
 * (NULL buffer with a non-zero count). */
int orma_put(const void *origin, size_t origin_count, orma_type origin_type,
             int target, orma_aint target_disp, size_t target_count,
             orma_type target_type, orma_win win);

/* Read from the target window into origin; as orma_put.  origin must not be
 * read until the epoch is closed. */
int orma_get(void *origin, size_t origin_count, orma_type origin_type,
             int target, orma_aint target_disp, size_t target_count,
             orma_type target_type, orma_win win);

/* orma_put and orma_get with any committed datatypes on either side (the
 * data sizes must be equal).  The bytes move once, from the origin's layout
 * straight into the target's: no packing on either side.  The target range
 * checked is every byte the target layout reaches from target_disp.  A
 * datatype may be freed once the call returns.  Errors: those of orma_put,
 * and ORMA_ERR_TYPE for an uncommitted type or unequal data sizes, and with
 * ORMA_CHECK=1 when the two sides' type signatures (their sequences of
 * basic types, a pair type counting as its two members) differ; the
 * message names the first element that differs. */
int orma_put_typed(const void *origin, size_t origin_count, orma_type origin_type,
                   int target, orma_aint target_disp, size_t target_count,
                   orma_type target_type, orma_win win);
int orma_get_typed(void *origin, size_t origin_count, orma_type origin_type,
                   int target, orma_aint target_disp, size_t target_count,
                   orma_type target_type, orma_win win);

/* orma_accumulate and orma_get_accumulate with any committed layouts on
 * each side, every one made of one and the same predefined type (else
 * ORMA_ERR_TYPE), each side holding as many data bytes as the target;
 * element-wise atomic as orma_accumulate.  With ORMA_NO_OP the origin is
 * ignored (NULL-able) and get_accumulate is an atomic typed read.  Layouts
 * of the pair types with padding (e.g. ORMA_DOUBLE_INT) go element by
 * element, never touching the padding. */
int orma_accumulate_typed(const void *origin, size_t origin_count, orma_type origin_type,
                          int target, orma_aint target_disp, size_t target_count,
                          orma_type target_type, orma_op op, orma_win win);
int orma_get_accumulate_typed(const void *origin, size_t origin_count, orma_type origin_type,
                              void *result, size_t result_count, orma_type result_type,
                              int target, orma_aint target_disp, size_t target_count,
                              orma_type target_type, orma_op op, orma_win win);

/* ------------------------------------------------------------------------ */
/* Accumulate family and atomics                                             */
/* ------------------------------------------------------------------------ */

/* target[i] = target[i] op origin[i] for each of origin_count elements
 * (ORMA_REPLACE: origin[i]; ORMA_NO_OP: nothing is written).  Each element is
 * updated atomically with respect to every other accumulate-family call on
 * the same location with the same type, from any rank and in any epoch kind,
 * and two accumulates from one origin to the same location take effect in
 * the order issued (unless the window's "accumulate_ordering" info is
 * "none").  origin_type and target_type must be the same predefined type
 * and the counts equal.  Whether op is defined for the type is checked
 * before anything is written (see ORMA_OP_LIST).  The origin buffer belongs
 * to the epoch until it is closed, as for orma_put.
 * Errors: those of orma_put, and ORMA_ERR_OP (invalid op, or op not defined
 * for the type). */
int orma_accumulate(const void *origin, size_t origin_count, orma_type origin_type,
                    int target, orma_aint target_disp, size_t target_count,
                    orma_type target_type, orma_op op, orma_win win);

/* orma_accumulate that also returns, in result, the target elements as they
 * were just before the update (each element read and updated in one atomic
 * step).  result_type must be the target's type and result_count the target
 * count.  With ORMA_NO_OP it is an atomic read: origin may be NULL and its
 * count 0.  result must not be read until the epoch closes or the operation
 * is flushed. */
int orma_get_accumulate(const void *origin, size_t origin_count, orma_type origin_type,
                        void *result, size_t result_count, orma_type result_type,
                        int target, orma_aint target_disp, size_t target_count,
                        orma_type target_type, orma_op op, orma_win win);

/* One element: *result = target; target = target op *origin, atomically.
 * origin may be NULL with ORMA_NO_OP. */
int orma_fetch_and_op(const void *origin, void *result, orma_type type,
                      int target, orma_aint target_disp, orma_op op, orma_win win);

/* One element: *result = target; if target == *compare then target =
 * *origin, atomically.  type must be an integer type, ORMA_BYTE, ORMA_C_BOOL
 * or ORMA_AINT (as MPI), else ORMA_ERR_TYPE. */
int orma_compare_and_swap(const void *origin, const void *compare, void *result,
                          orma_type type, int target, orma_aint target_disp,
                          orma_win win);

/* ------------------------------------------------------------------------ */
/* Request-based operations (passive-target epochs only, as MPI)            */
/* ------------------------------------------------------------------------ */

/* A request handle.  A completed request that was waited for is freed and
 * its handle set to ORMA_REQUEST_NULL; a freed or made-up handle is
 * detected (ORMA_ERR_REQUEST). */
typedef uint64_t orma_request;
#define ORMA_REQUEST_NULL ((orma_request)0)

/* As orma_put, orma_get, orma_accumulate and orma_get_accumulate, inside a
 * lock or lock_all epoch (else ORMA_ERR_RMA_SYNC), returning a request whose
 * completion means the operation is complete at the origin: the origin
 * buffer may be reused (rput, raccumulate) or read (rget, and the result of
 * rget_accumulate).  Completion at the target still needs a flush or unlock.
 * On shared memory the transfer happens in the call, so the request is
 * complete when it is returned; its handle must still be waited for or
 * tested to free it. */
int orma_rput(const void *origin, size_t origin_count, orma_type origin_type,
              int target, orma_aint target_disp, size_t target_count,
              orma_type target_type, orma_win win, orma_request *request_p);
int orma_rget(void *origin, size_t origin_count, orma_type origin_type,
              int target, orma_aint target_disp, size_t target_count,
              orma_type target_type, orma_win win, orma_request *request_p);
int orma_raccumulate(const void *origin, size_t origin_count, orma_type origin_type,
                     int target, orma_aint target_disp, size_t target_count,
                     orma_type target_type, orma_op op, orma_win win,
                     orma_request *request_p);
int orma_rget_accumulate(const void *origin, size_t origin_count, orma_type origin_type,
                         void *result, size_t result_count, orma_type result_type,
                         int target, orma_aint target_disp, size_t target_count,
                         orma_type target_type, orma_op op, orma_win win,
                         orma_request *request_p);

/* The request-based typed calls: as orma_put_typed, orma_get_typed,
 * orma_accumulate_typed and orma_get_accumulate_typed, with the epoch
 * rules and completion of orma_rput. */
int orma_rput_typed(const void *origin, size_t origin_count, orma_type origin_type,
                    int target, orma_aint target_disp, size_t target_count,
                    orma_type target_type, orma_win win, orma_request *request_p);
int orma_rget_typed(void *origin, size_t origin_count, orma_type origin_type,
                    int target, orma_aint target_disp, size_t target_count,
                    orma_type target_type, orma_win win, orma_request *request_p);
int orma_raccumulate_typed(const void *origin, size_t origin_count, orma_type origin_type,
                           int target, orma_aint target_disp, size_t target_count,
                           orma_type target_type, orma_op op, orma_win win,
                           orma_request *request_p);
int orma_rget_accumulate_typed(const void *origin, size_t origin_count, orma_type origin_type,
                               void *result, size_t result_count, orma_type result_type,
                               int target, orma_aint target_disp, size_t target_count,
                               orma_type target_type, orma_op op, orma_win win,
                               orma_request *request_p);

/* Block until the request completes, free it and set *request_p to
 * ORMA_REQUEST_NULL.  ORMA_REQUEST_NULL returns at once.  The status is the
 * operation's.  Errors: ORMA_ERR_ARG (NULL pointer), ORMA_ERR_REQUEST. */
int orma_wait(orma_request *request_p);

/* orma_wait that never blocks: *flag_p = 1 (and the request freed) when it
 * has completed, else 0. */
int orma_test(orma_request *request_p, int *flag_p);

/* orma_wait on each of requests[0..count-1] (ORMA_REQUEST_NULL entries are
 * skipped).  Every valid request is completed and freed even when another is
 * not valid; the first error is returned. */
int orma_waitall(size_t count, orma_request *requests);

/* ------------------------------------------------------------------------ */
/* Checking one-sided bugs (ORMA_CHECK=race)                                 */
/* ------------------------------------------------------------------------ */
/* With ORMA_CHECK=race (or all: with ORMA_CHECK=1's checks too) in the
 * environment, or for one window with the info key orma_check_race=true,
 * orma reports the one-sided bugs that MPI leaves undefined and MPI
 * libraries do not detect (MPI-4.1 12.7), one line each on the reporting
 * rank's stderr, beginning "orma race: ":
 *
 *   orma race: <kind>: window W, target rank T, bytes [lo, hi) of the window
 *       (dynamic windows: of address space, in hex), <epoch>: <call> from
 *       rank A at <site>; <call> from rank B at <site>
 *
 * <epoch> is "fence epoch N", "exposure epoch N (post/start)" or "passive
 * epoch (lock)"; a <site> is the caller's function+offset and, with debug
 * information, file:line (read with addr2line when the report is made).
 * The kinds:
 *   overlapping puts, put and get overlap, put and accumulate overlap, get
 *       and accumulate overlap -- two accesses that MPI does not order
 *       (different origins, or one origin: MPI orders only its
 *       accumulates), reaching a byte in common;
 *   accumulates with different ops / with different types -- on the same
 *       bytes (ORMA_NO_OP goes with any op);
 *   access outside the window -- beyond the target's window or attached
 *       regions (the call also returns ORMA_ERR_RANGE);
 *   origin buffer changed before completion -- a put's or accumulate's
 *       origin bytes differ (by content) at the flush, unlock, fence,
 *       complete or request completion that completes it;
 *   memory detached while exposed, memory freed while exposed --
 *       orma_win_detach of a region that an open epoch's access reaches,
 *       orma_free_mem of memory a window or such an access still uses;
 *   local store during exposure -- put data no longer in place when the
 *       fence or wait closing its epoch checks it, with no access of the
 *       epoch writing over it: a store of the target (or of a rank sharing
 *       its memory) did.  Stores before the put landed, and loads, are not
 *       seen.
 *
 * Which accesses MPI leaves unordered: those of one fence epoch; those of
 * one exposure epoch of the target (PSCW); in passive epochs, those live at
 * the same time -- an access lives from its call until its origin's flush
 * or unlock of the target completes it (a get: also flush_local and its
 * request's completion), and an exclusive lock orders its accesses with
 * every other origin's.  A notified access (orma_put_notify and kin) is
 * complete once its counter is raised.  So a passive-epoch conflict is
 * found only when both accesses are live together: orma sees no other
 * synchronization (messages of the host MPI, say) that would order them.
 *
 * ORMA_CHECK_ABORT=1 ends the job at the first report (exit status 1,
 * nothing left in /dev/shm); by default the job goes on.  Through
 * liborma-mpi, MPI programs are checked unmodified, their MPI calls named
 * as orma's and their sites their own (LD_PRELOAD plus ORMA_CHECK=race).
 * Accesses to ranks on other nodes are not checked; accesses are checked
 * over the net transport on one node.  Costs: every access takes the
 * checked path and a lock on its target's table; see orma-bench race. */

/* ------------------------------------------------------------------------ */
/* Notified access                                                           */
/* ------------------------------------------------------------------------ */

/* Each rank of a window may hold notification counters: unsigned 64-bit
 * numbers, 0 when made, that notified operations aimed at the rank raise
 * and that only the rank itself reads and waits on.  A rank asks for them
 * with the window info key "orma_notify_num" at creation (a decimal count;
 * unlike the other keys each rank may give its own, and 0 or none gives
 * none), or later with orma_win_notify_alloc.  At most ORMA_NOTIFY_MAX.
 *
 * A notified operation is an ordinary put, get or accumulate -- the same
 * epoch rules, arguments and errors, any committed datatypes on either side
 * (as the _typed calls) -- that also raises counter id of its target once
 * its data is there: a put's or accumulate's bytes are in the target's
 * memory, a get's have been read from it (the target may reuse them).  A
 * target that sees the counter raised sees that operation's data, as with
 * OpenSHMEM's put-with-signal; nothing is said of other operations.  nop is
 * ORMA_NOTIFY_ADD (counter += value, modulo 2^64) or ORMA_NOTIFY_SET
 * (counter = value).  A count of 0 moves no data and still raises the
 * counter; ORMA_PROC_NULL does neither.
 *
 * In fence and PSCW epochs a notified operation does not wait for the
 * closing synchronization: it waits, if it must, for its target to open the
 * epoch, then goes.  Over the net transport (mpirun, other nodes) it goes at
 * once too, together with every operation issued to that target before it
 * (in a passive epoch behind the target's lock, asked for first if the
 * epoch has not yet, as a flush would), without waiting for the target: the
 * target holds what comes for a fence or PSCW epoch it has not opened yet,
 * and raises the counter once it has carried out all of them.  The origin's
 * next synchronization (flush, unlock, fence, complete) completes them as
 * the others.  A target raises counters when it makes progress: in its orma
 * calls -- its waits on its counters among them -- or with
 * ORMA_PROGRESS_THREAD=1.
 *
 * Errors: those of the plain calls, and ORMA_ERR_NOTIFY (id negative or not
 * below the target's number of counters, nop unknown).  Over the net
 * transport the target checks id, and the origin's next synchronization of
 * the epoch returns the error. */
#define ORMA_NOTIFY_ADD 0
#define ORMA_NOTIFY_SET 1
#define ORMA_NOTIFY_MAX (1u << 20)

int orma_put_notify(const void *origin, size_t origin_count, orma_type origin_type,
                    int target, orma_aint target_disp, size_t target_count,
                    orma_type target_type, orma_win win, int id, int nop, uint64_t value);
int orma_get_notify(void *origin, size_t origin_count, orma_type origin_type,
                    int target, orma_aint target_disp, size_t target_count,
                    orma_type target_type, orma_win win, int id, int nop, uint64_t value);
int orma_accumulate_notify(const void *origin, size_t origin_count, orma_type origin_type,
                           int target, orma_aint target_disp, size_t target_count,
                           orma_type target_type, orma_op op, orma_win win, int id, int nop,
                           uint64_t value);

/* This rank's counters: n of them (all 0), replacing none (ORMA_ERR_NOTIFY
 * when it has some: free them first).  Local: origins find them at their
 * first notified operation to this rank, so make them before a
 * synchronization that orders that operation after this call (window
 * creation with "orma_notify_num" does).  Errors: ORMA_ERR_WIN,
 * ORMA_ERR_NOTIFY (n above ORMA_NOTIFY_MAX, or counters already there),
 * ORMA_ERR_NOMEM, ORMA_ERR_SYS. */
int orma_win_notify_alloc(orma_win win, size_t n);
/* Give this rank's counters back (none: nothing).  Local; a notified
 * operation aimed at them afterwards fails with ORMA_ERR_NOTIFY.  The
 * window's free gives them back too. */
int orma_win_notify_free(orma_win win);
/* The number of this rank's counters (0: none). */
int orma_win_notify_num(orma_win win, size_t *n_p);

/* Counter id of this rank: read it; set it (to 0 to reset it: a set racing
 * with an origin's add may lose either); wait until it has reached value
 * (counter - value, as a signed 64-bit number, is >= 0: a counter may wrap);
 * the same without waiting, *flag_p 1 when it has.  A wait spins, yields its
 * core, then sleeps, as orma's synchronizations do, and needs no epoch.
 * Each call lets the net transport make progress.
 * Errors: ORMA_ERR_WIN (null or freed window), ORMA_ERR_NOTIFY (no such
 * counter), ORMA_ERR_ARG (NULL pointer). */
int orma_notify_read(orma_win win, int id, uint64_t *value_p);
int orma_notify_set(orma_win win, int id, uint64_t value);
int orma_notify_wait(orma_win win, int id, uint64_t value);
int orma_notify_test(orma_win win, int id, uint64_t value, int *flag_p);
/* Wait on n counters at once: until counter ids[i] has reached values[i]
 * for some i, the lowest such i in *index_p (waitany); or for every i
 * (waitall, index_p unused). */
int orma_notify_waitany(orma_win win, size_t n, const int *ids, const uint64_t *values, size_t *index_p);
int orma_notify_waitall(orma_win win, size_t n, const int *ids, const uint64_t *values);

/* ------------------------------------------------------------------------ */
/* Synchronization                                                           */
/* ------------------------------------------------------------------------ */

/* Asserts (bitwise or), as MPI's MPI_MODE_*. */
#define ORMA_MODE_NOCHECK   (1 << 0)
#define ORMA_MODE_NOSTORE   (1 << 1) /* no local stores to the window since last sync */
#define ORMA_MODE_NOPUT     (1 << 2) /* no puts/accumulates to this rank until next sync */
#define ORMA_MODE_NOPRECEDE (1 << 3) /* fence completes no operations: no barrier */
#define ORMA_MODE_NOSUCCEED (1 << 4) /* fence opens no new epoch */

/* Collective over all ranks.  Closes the current fence epoch (every operation
 * this rank issued is complete at its target and every operation targeting
 * this rank is complete here) and, unless ORMA_MODE_NOSUCCEED, opens the next.
 * The opening of an epoch only publishes it: operations to a target that has
 * opened go straight to its memory, others are queued until it has.  Closing
 * costs one barrier; none with ORMA_MODE_NOPRECEDE.  NOPRECEDE and NOSUCCEED
 * must be given by all ranks or none.
 * Errors: ORMA_ERR_WIN, ORMA_ERR_ASSERT (unknown bits), ORMA_ERR_RMA_SYNC
 * (NOPRECEDE after operations were issued in the epoch, or fence while
 * another kind of epoch is open: PSCW, lock, lock_all). */
int orma_win_fence(int assert, orma_win win);

/* ------------------------------------------------------------------------ */
/* Groups (of ranks of a window)                                             */
/* ------------------------------------------------------------------------ */

typedef struct orma_group_s *orma_group;
#define ORMA_GROUP_NULL ((orma_group)0)
#define ORMA_UNDEFINED (-32766) /* a rank that is not in a group */

/* The group of every rank of the window, in rank order. */
int orma_win_get_group(orma_win win, orma_group *group_p);

/* The group of ranks[0..n-1] of group, in that order.  ORMA_ERR_RANK for a
 * rank outside group or given twice.  n may be 0 (the empty group). */
int orma_group_incl(orma_group group, int n, const int *ranks, orma_group *newgroup_p);

/* group without ranks[0..n-1], order kept.  Same errors as incl. */
int orma_group_excl(orma_group group, int n, const int *ranks, orma_group *newgroup_p);

int orma_group_size(orma_group group, int *size_p);

/* This rank's position in group, or ORMA_UNDEFINED. */
int orma_group_rank(orma_group group, int *rank_p);

/* For each ranks1[i] of group1, its position in group2 (or ORMA_UNDEFINED). */
int orma_group_translate_ranks(orma_group group1, int n, const int *ranks1, orma_group group2,
                               int *ranks2);

/* Free the group and set *group_p to ORMA_GROUP_NULL. */
int orma_group_free(orma_group *group_p);

/* ------------------------------------------------------------------------ */
/* Teams: ordered subsets of the job's ranks                                 */
/* ------------------------------------------------------------------------ */

/* A team is an ordered set of the job's ranks with collectives of its own
 * (barrier, window creation), named after OpenSHMEM 1.5's teams and made as
 * MPI splits communicators.  Two teams are predefined: ORMA_TEAM_WORLD,
 * every rank (team rank = orma_rank), and ORMA_TEAM_SHARED, the ranks that
 * share memory with this one (this node's; under orma-run every rank), in
 * world order.  A team made by orma_team_split is this rank's handle,
 * valid until orma_team_free; a freed or made-up handle is refused
 * (ORMA_ERR_ARG), never followed.  A window created on a team has the
 * team's ranks as its ranks (0..size-1 in team order).  Teams other than
 * ORMA_TEAM_WORLD reach each other through shared memory: all of their
 * ranks must share this node (ORMA_ERR_UNSUPPORTED otherwise), and
 * ORMA_TRANSPORT=net does not apply to their windows. */
typedef struct orma_team_s *orma_team;
#define ORMA_TEAM_NULL ((orma_team)0)
#define ORMA_TEAM_WORLD ((orma_team)1)
#define ORMA_TEAM_SHARED ((orma_team)2)

/* This rank's number in team (0..size-1) and the team's size. */
int orma_team_rank(orma_team team, int *rank_p);
int orma_team_size(orma_team team, int *size_p);

/* Collective over parent: the ranks giving the same colour (>= 0) form a
 * new team, ranked by key, ties by rank in parent.  colour ORMA_UNDEFINED:
 * this rank joins none and *newteam_p is ORMA_TEAM_NULL.  Errors (at every
 * rank of parent alike, none of which then has a new team): ORMA_ERR_ARG
 * (parent not a team, negative colour other than ORMA_UNDEFINED, NULL
 * newteam_p), ORMA_ERR_UNSUPPORTED (a new team's ranks on several nodes),
 * ORMA_ERR_NOMEM, ORMA_ERR_PEER (another rank failed). */
int orma_team_split(orma_team parent, int colour, int key, orma_team *newteam_p);

/* The number in dest of rank src_rank of src, or ORMA_UNDEFINED when it is
 * not in dest.  Local.  Errors: ORMA_ERR_ARG, ORMA_ERR_RANK (src_rank not
 * in src). */
int orma_team_translate_rank(orma_team src, int src_rank, orma_team dest, int *dest_rank_p);

/* Block until every rank of team has called it. */
int orma_team_barrier(orma_team team);

/* Let go of this rank's handle (local; windows created on the team live
 * on) and set *team_p to ORMA_TEAM_NULL.  The predefined teams cannot be
 * freed (ORMA_ERR_ARG). */
int orma_team_free(orma_team *team_p);

/* The window creation calls above, collective over team instead of the
 * job: its ranks are the team's. */
int orma_win_allocate_team(orma_team team, size_t size, int disp_unit, orma_info info, void **base_p,
                           orma_win *win_p);
int orma_win_allocate_shared_team(orma_team team, size_t size, int disp_unit, orma_info info, void **base_p,
                                  orma_win *win_p);
int orma_win_create_team(orma_team team, void *base, size_t size, int disp_unit, orma_info info,
                         orma_win *win_p);
int orma_win_create_dynamic_team(orma_team team, orma_info info, orma_win *win_p);

/* ------------------------------------------------------------------------ */
/* Dynamic processes: spawned and connected jobs                            */
/* ------------------------------------------------------------------------ */

/* Ranks of several jobs on one machine can share a team: a job that
 * spawned another, and two jobs that connected.  Such a merged team is a
 * team like those of orma_team_split (windows of every flavour, barriers,
 * splits) whose ranks reach each other through shared memory exactly as a
 * job's own ranks do.  Each job keeps its own ORMA_TEAM_WORLD; a rank of
 * another job has no number there (orma_team_translate_rank: ORMA_UNDEFINED).
 * A rank of another job that dies makes this job's calls on the merged
 * team fail with ORMA_ERR_PEER instead of waiting for it. */

/* Collective over team: start nranks new ranks of program (looked up in
 * PATH as a shell does, from the root's working directory, or from info
 * key "wdir" when given) with arguments argv (NULL-terminated, after the
 * program; NULL: none), as a job of their own under this job's orma-run.
 * program, argv, nranks and info count at root only.  *merged_p: team's
 * ranks in team order, then the new ranks in their order.  Returns once
 * every new rank is in orma_init.  Errors, at every rank of team alike:
 * ORMA_ERR_ARG (bad team, root, nranks < 1, NULL merged_p, program not
 * found or not executable, more ranks than orma-run's universe, -u),
 * ORMA_ERR_UNSUPPORTED (this job was not started by orma-run),
 * ORMA_ERR_PEER, ORMA_ERR_NOMEM. */
int orma_spawn(orma_team team, int root, const char *program, char *const argv[], int nranks, orma_info info,
               orma_team *merged_p);

/* In a spawned rank: the team it shares with its parents (the one
 * orma_spawn gave them), else ORMA_TEAM_NULL.  Local. */
int orma_team_parent(orma_team *merged_p);

/* A port: a name another job on this machine connects to.  port_name:
 * room for ORMA_PORT_NAME_MAX characters.  Local. */
#define ORMA_PORT_NAME_MAX 96
int orma_port_open(char *port_name);
int orma_port_close(const char *port_name);

/* Collective over team: the port (opened at root) takes one connection,
 * from orma_team_connect of another job's team.  *merged_p: this team's
 * ranks, then the connecting team's.  Blocks until a job connects. */
int orma_team_accept(const char *port_name, orma_team team, int root, orma_team *merged_p);

/* Collective over team: connect to a port another job opened (port_name
 * counts at root).  *merged_p: the accepting team's ranks, then this
 * team's.  ORMA_ERR_ARG when no job has the port open. */
int orma_team_connect(const char *port_name, orma_team team, int root, orma_team *merged_p);

/* This rank and the rank of another job at the other end of the connected
 * stream socket fd (each calls it with its end): a team of the two, ordered
 * by the jobs' tokens.  fd is left open. */
int orma_team_join(int fd, orma_team *merged_p);

/* ------------------------------------------------------------------------ */
/* Active target: post-start-complete-wait                                   */
/* ------------------------------------------------------------------------ */

/* Open an exposure epoch for the origins in group (ranks of the window).
 * Never blocks: it makes the post visible to each origin.  Asserts:
 * ORMA_MODE_NOCHECK, NOSTORE, NOPUT.  Errors: ORMA_ERR_WIN, ORMA_ERR_ARG (bad
 * group), ORMA_ERR_ASSERT, ORMA_ERR_RMA_SYNC (an exposure epoch or a fence
 * epoch with operations is open). */
int orma_win_post(orma_group group, int assert, orma_win win);

/* Open an access epoch to the targets in group.  Returns at once: an
 * operation to a target whose post is visible goes straight to its memory,
 * others are queued until orma_win_complete.  ORMA_MODE_NOCHECK: every target
 * has posted already (the user guarantees it), nothing is waited for.
 * Errors as orma_win_post, and ORMA_ERR_RMA_SYNC when an access epoch is
 * open.  Operations to a rank outside group fail with ORMA_ERR_RMA_SYNC. */
int orma_win_start(orma_group group, int assert, orma_win win);

/* Close the access epoch: wait only for the posts that queued operations
 * need, perform those operations, then tell each target this origin is done.
 * ORMA_ERR_RMA_SYNC without a matching orma_win_start. */
int orma_win_complete(orma_win win);

/* Close the exposure epoch: return when every origin of the post group has
 * completed.  ORMA_ERR_RMA_SYNC without a matching orma_win_post. */
int orma_win_wait(orma_win win);

/* orma_win_wait that never blocks: *flag_p = 1 (and the epoch closed) when
 * every origin has completed, else 0. */
int orma_win_test(orma_win win, int *flag_p);

/* ------------------------------------------------------------------------ */
/* Passive target: lock, unlock, flush                                       */
/* ------------------------------------------------------------------------ */

#define ORMA_LOCK_EXCLUSIVE 1
#define ORMA_LOCK_SHARED 2

/* Open an access epoch to rank, under a shared or exclusive lock of its
 * window.  The lock is a word in shared memory taken with atomic operations:
 * the target never has to call anything, whatever it is doing.  Exclusive
 * requests are served in arrival order, so none starves.  Several ranks may
 * be locked at once (not the same one twice).  ORMA_MODE_NOCHECK: no other
 * rank holds or requests a conflicting lock (none is taken).
 * Errors: ORMA_ERR_WIN, ORMA_ERR_RANK, ORMA_ERR_ARG (lock type),
 * ORMA_ERR_ASSERT, ORMA_ERR_RMA_SYNC (rank already locked, or a fence, PSCW
 * or lock_all access epoch is open). */
int orma_win_lock(int lock_type, int rank, int assert, orma_win win);

/* Complete every operation to rank (at origin and target) and release the
 * lock.  ORMA_ERR_RMA_SYNC when rank is not locked. */
int orma_win_unlock(int rank, orma_win win);

/* Shared locks on every rank, taken lazily: at the first operation to each
 * target, in the order the operations come.  Locks block until granted, so
 * a rank that holds exclusive locks on several ranks while it asks for more
 * can deadlock with a lock_all epoch that reaches them in another order:
 * take several exclusive locks in rank order.  ORMA_MODE_NOCHECK: none are
 * taken. */
int orma_win_lock_all(int assert, orma_win win);
int orma_win_unlock_all(orma_win win);

/* Inside a lock or lock_all epoch: complete the operations issued to rank
 * (flush: at the target too; flush_local: at the origin), or to all ranks.
 * Data written directly is visible when the call returns.
 * ORMA_ERR_RMA_SYNC outside a passive-target epoch (or rank not locked). */
int orma_win_flush(int rank, orma_win win);
int orma_win_flush_all(orma_win win);
int orma_win_flush_local(int rank, orma_win win);
int orma_win_flush_local_all(orma_win win);

/* Synchronize the private and public copies of the window (a full memory
 * barrier: orma windows are in the unified memory model).  Always allowed. */
int orma_win_sync(orma_win win);

#ifdef __cplusplus
}
#endif

#endif /* ORMA_H */
