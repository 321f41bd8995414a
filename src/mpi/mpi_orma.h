/* mpi_orma.h -- liborma-mpi: the MPI one-sided chapter on orma, every other
 * MPI call handed to the host MPI through its profiling interface (PMPI).
 * Built once per host MPI (Open MPI, MPICH): the same sources against each
 * one's mpi.h.
 *
 * MPI_Win handles are orma's own: a tag plus an index into the table of
 * windows (mpi_win.c); the host MPI never sees one, because every function
 * taking an MPI_Win is defined here. */
#ifndef ORMA_MPI_ORMA_H
#define ORMA_MPI_ORMA_H

#include "api_face.h"

#include <mpi.h>
#include <orma.h>
/* the MPIX_ calls liborma-mpi defines (mpi_notify.c), declared strong */
#define ORMA_MPIX_NOTIFY_DEFINED
#include <orma/mpix_notify.h>

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

struct mpi_attr; /* mpi_attr.c */
struct mpi_pscw; /* mpi_sync.c */

/* One window of the program. */
struct mpi_win {
    orma_win win;
    MPI_Win handle;
    MPI_Comm comm;          /* a duplicate of the creating communicator */
    MPI_Errhandler errh;    /* MPI_ERRORS_ARE_FATAL unless set */
    int flavor;             /* MPI_WIN_FLAVOR_* */
    int model;              /* MPI_WIN_UNIFIED: one copy of the memory */
    void *base;
    MPI_Aint size;
    int disp_unit;
    char name[MPI_MAX_OBJECT_NAME];
    struct mpi_attr *attrs; /* user attributes, newest first */
    struct mpi_pscw *pscw;  /* PSCW's translated groups (mpi_sync.c), or NULL */
    struct util_rlock lock; /* MPI_THREAD_MULTIPLE: see mpi_win_hold */
};

/* Free w's PSCW group cache (MPI_Win_free). */
void mpi_pscw_release(struct mpi_win *w);

/* Delete every user attribute of w (MPI_Win_free), calling the delete
 * callbacks; MPI's error class of the first that failed, or 0. */
int mpi_attr_delete_all(struct mpi_win *w);

/* Whether orma runs under this MPI job (all ranks on one node), and why
 * not when it does not. */
extern int mpi_orma_ready;
/* The job's ranks are on more than one node (then windows may use the net
 * transport, and mpi_progress.c's calls wait by testing). */
extern int mpi_job_spans_nodes;
extern char mpi_orma_why[160];

/* A duplicate of MPI_COMM_SELF whose errors return: for the host calls
 * liborma-mpi makes to learn something (mpi_dtype.c), which may fail. */
extern MPI_Comm mpi_quiet_comm;

/* Every window creation call (mpi_win.c): a window of flavor (ORMA_WIN_FLAVOR_*)
 * over comm's ranks, collective.  A rank's bad arguments travel into the
 * collective, so that all ranks fail together instead of the others
 * waiting for it. */
int mpi_win_make(const char *call, int flavor, void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                 MPI_Comm comm, void *baseptr, MPI_Win *win);

/* MPI_Win_create, MPI_Win_allocate and MPI_Win_allocate_shared with a
 * displacement unit of type unit_t, named with suffix sfx: int (no suffix,
 * mpi_win.c) and MPI 4.0's MPI_Aint (_c, mpi_win_c.c). */
#define MPI_WIN_MAKE_CALLS(sfx, unit_t)                                                                      \
    int PMPI_Win_create##sfx(void *base, MPI_Aint size, unit_t disp_unit, MPI_Info info, MPI_Comm comm,       \
                             MPI_Win *win)                                                                   \
    {                                                                                                        \
        return mpi_win_make("MPI_Win_create" #sfx, ORMA_WIN_FLAVOR_CREATE, base, size, disp_unit, info, comm, \
                            NULL, win);                                                                      \
    }                                                                                                        \
                                                                                                             \
    int PMPI_Win_allocate##sfx(MPI_Aint size, unit_t disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,  \
                               MPI_Win *win)                                                                 \
    {                                                                                                        \
        return mpi_win_make("MPI_Win_allocate" #sfx, ORMA_WIN_FLAVOR_ALLOCATE, NULL, size, disp_unit, info,  \
                            comm, baseptr, win);                                                             \
    }                                                                                                        \
                                                                                                             \
    int PMPI_Win_allocate_shared##sfx(MPI_Aint size, unit_t disp_unit, MPI_Info info, MPI_Comm comm,         \
                                      void *baseptr, MPI_Win *win)                                           \
    {                                                                                                        \
        return mpi_win_make("MPI_Win_allocate_shared" #sfx, ORMA_WIN_FLAVOR_SHARED, NULL, size, disp_unit,   \
                            info, comm, baseptr, win);                                                       \
    }

/* The window info keys orma takes, and the MPI info's values of them as
 * orma info (*oi_p ORMA_INFO_NULL for MPI_INFO_NULL). */
#define MPI_WIN_INFO_KEYS 7
extern const char *const mpi_win_info_keys[MPI_WIN_INFO_KEYS];
int mpi_win_info(MPI_Info info, orma_info *oi_p);

/* PMPI_Abort, after removing this node's shared objects of the job. */
void mpi_abort(MPI_Comm comm, int code);

/* The window behind handle, or NULL (freed, made up, MPI_WIN_NULL):
 * handles are MPI_WIN_TAG + an index of mpi_wins (mpi_win.c). */
#define MPI_WIN_TAG 0x6f720000 /* "or": never MPICH's MPI_WIN_NULL */
#define MPI_WIN_MAX 4096
extern _Atomic(struct mpi_win *) mpi_wins[MPI_WIN_MAX];
static inline struct mpi_win *mpi_win_lookup(MPI_Win handle)
{
    intptr_t h = (intptr_t)handle - MPI_WIN_TAG;
    return h >= 0 && h < MPI_WIN_MAX ? atomic_load_explicit(&mpi_wins[h], memory_order_acquire) : NULL;
}

/* An MPI rank as orma's: MPI_PROC_NULL (-1 in MPICH, -2 in Open MPI) is
 * ORMA_PROC_NULL, the target of a call with no effect. */
static inline int mpi_rank(int rank)
{
    return rank == MPI_PROC_NULL ? ORMA_PROC_NULL : rank;
}

/* Take (delta 1) or drop (-1) a reference to an error handler (no-op for
 * the predefined ones). */
void mpi_errh_ref(MPI_Errhandler errh, int delta);

/* MPI_THREAD_MULTIPLE: the program's threads may call anything at once.
 * orma keeps them apart in each window (rma_mt.h); what liborma-mpi keeps
 * of a window besides (its PSCW groups, attributes, name, error handler)
 * is kept apart by the window's own lock, held through every checked call
 * on it (MPI_WIN_OR_ERR), by one thread at a time, and nested calls of
 * that thread pass.  The fast paths (mpi_try_win) take no lock of
 * liborma-mpi's: they touch nothing of it.  Other programs pay one
 * predictable branch. */
extern int mpi_thread_multiple; /* MPI_Init_thread gave MPI_THREAD_MULTIPLE */

static inline struct mpi_win *mpi_win_hold(struct mpi_win *w)
{
    if (__builtin_expect(!mpi_thread_multiple, 1) || !w)
        return NULL;
    util_rlock_take(&w->lock);
    return w;
}

static inline void mpi_win_unhold(struct mpi_win **held)
{
    if (*held) /* perhaps freed by this very call (MPI_Win_free) */
        util_rlock_leave(&(*held)->lock);
}

/* For the whole-call paths tried before any checks (rma_comm.h): orma's
 * window behind handle, and w's in *w_p; NULL when there is none. */
static inline struct rma_win *mpi_try_win(MPI_Win handle, struct mpi_win **w_p)
{
    struct mpi_win *w = mpi_win_lookup(handle);
    *w_p = w;
    return w ? rma_win_lookup(w->win) : NULL;
}

/* Declare w, the window behind handle, or return call's MPI_ERR_WIN; and
 * hold it for this thread until the scope ends. */
#define MPI_WIN_OR_ERR(w, handle, call)                                                            \
    struct mpi_win *w = mpi_win_lookup(handle);                                                    \
    if (!w)                                                                                        \
        return mpi_win_error_msg(NULL, call, MPI_ERR_WIN, "not a window (MPI_WIN_NULL, freed, or never created)"); \
    __attribute__((cleanup(mpi_win_unhold))) struct mpi_win *mpi_held_ = mpi_win_hold(w);          \
    (void)mpi_held_

/* ORMA_CHECK=race: each report of orma's race checker names the call sites
 * of its two accesses (or of the access and the call that completed it),
 * and the site of a program's MPI_Put is its call of MPI_Put, not
 * liborma-mpi's of orma_put.  So every entry point that issues or completes
 * an access, or opens or closes an epoch, hands orma its caller's return
 * address first (api_race_site: the next orma call of this thread that
 * takes a site reports it), in the function the program called: PMPI_X, of
 * which MPI_X is an alias, or MPI_X itself where liborma-mpi has no PMPI_X.
 * Every orma call that takes a site is thus reached through such an entry
 * point, so a site one of them left unused (an error found before orma)
 * is replaced before any call could take it.  A Fortran entry point hands
 * its own caller's, the Fortran program's, and pins it (mpi_race_pinned)
 * for the C call it makes, whose return address would be liborma-mpi's.
 * A caller in the host MPI's libraries (its mpi_f08 layer) is looked past
 * (mpi_race_caller).  Other runs pay one predictable branch. */
extern _Thread_local int mpi_race_pinned;

/* ra, or when ra is in the host MPI's own libraries (its mpi_f08 layer
 * calling liborma-mpi), the first caller above them (mpi_race.c). */
const void *mpi_race_caller(const void *ra);

static inline void mpi_race_site(const void *ra)
{
    if (!mpi_race_pinned)
        api_race_site(mpi_race_caller(ra));
}

#define MPI_RACE_SITE()                                                                                do {                                                                                                   if (__builtin_expect(util_config.race, 0))                                                             mpi_race_site(__builtin_return_address(0));                                                } while (0)

/* A window error handler; fortran: fn is a Fortran subroutine, called
 * with the window's Fortran handle (mpi_fortran_win.c). */
int mpi_errh_create(MPI_Win_errhandler_function *fn, int fortran, MPI_Errhandler *errhandler);

/* Fortran handles of error handlers, orma's or the host's. */
MPI_Fint mpi_errh_c2f(MPI_Errhandler errh);
MPI_Errhandler mpi_errh_f2c(MPI_Fint errh);

/* The MPI error class for an orma status (for ORMA_ERR_NOTIFY an error code
 * of MPI_ERR_INVALID_NOTIFICATION: see mpi_notify_init). */
int mpi_error_class(int status);

/* Report an error of call on w (NULL: no window, on MPI_COMM_SELF as MPI-4.1
 * says): by the window's error handler -- fatal by default, as MPI says for
 * windows -- and return the MPI error class. */
int mpi_win_error(struct mpi_win *w, const char *call, int mpi_class);

/* Report an error of a creation call by comm's error handler, saying why on
 * stderr unless the handler is MPI_ERRORS_RETURN; the MPI error class. */
int mpi_comm_error(MPI_Comm comm, const char *call, int mpi_class, const char *why);

/* The same for an error liborma-mpi detected itself, saying why. */
int mpi_win_error_msg(struct mpi_win *w, const char *call, int mpi_class, const char *why);

/* orma's status of a call on w, turned into MPI's. */
static inline int mpi_win_status(struct mpi_win *w, const char *call, int status)
{
    return status == ORMA_SUCCESS ? MPI_SUCCESS : mpi_win_error(w, call, mpi_error_class(status));
}

/* A put (1) or get (0) on w, counts and datatypes as MPI's, raised on w as
 * MPI_Put's errors are: by the request-based rules (passive: a passive
 * epoch), or notified (notify: raising the target's counter *notify,
 * mpi_notify.c), or plain.  The MPI status (mpi_comm.c).  kept: where a
 * request-based operation's orma request is kept for its MPI request
 * (mpi_comm.c), or NULL. */
int mpi_put_get(const char *call, int put, int passive, const int *notify, void *origin, MPI_Count ocount,
                MPI_Datatype otype, int target, MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, struct mpi_win *w,
                orma_request *kept);

/* MPI_Init's part of the notified calls: MPI_ERR_INVALID_NOTIFICATION
 * (orma_mpix_err_invalid_notification) added to the host's error classes,
 * and mpi_err_notify_code, the error code of that class that calls return
 * for ORMA_ERR_NOTIFY (mpi_notify.c). */
void mpi_notify_init(void);
extern int mpi_err_notify_code;

/* The tables of MPI's predefined datatypes and ops as orma's (mpi_types.c),
 * filled at run time (Open MPI's handles are addresses, not constants):
 * at MPI_Init, or at a first lookup before it (filling twice changes
 * nothing).  The lookups are inline: every put, get and accumulate makes
 * them. */
struct mpi_type_pair {
    MPI_Datatype mpi;
    orma_type orma;
};
#define MPI_TYPES_MAX 64
extern struct mpi_type_pair mpi_types[MPI_TYPES_MAX];
extern size_t mpi_ntypes;
void mpi_types_init(void);

/* An open-addressing index of mpi_types by handle (a pointer in Open MPI,
 * an integer in MPICH): slot = 1 + the entry's position, 0 empty.  A scan
 * took up to a few dozen compares for the later types (MPI_UINT64_T was
 * the twelfth). */
#define MPI_TYPE_SLOTS 128
extern unsigned char mpi_type_index[MPI_TYPE_SLOTS];

/* A datatype handle's bits, mixed: index tables by its high bits, or by
 * its low bits masked (mpi_dtype.c's cache). */
static inline uint64_t mpi_type_mix(MPI_Datatype t)
{
    uint64_t h = 0;
    memcpy(&h, &t, sizeof t < sizeof h ? sizeof t : sizeof h);
    return (h ^ h >> 17) * UINT64_C(0x9e3779b97f4a7c15);
}

static inline size_t mpi_type_hash(MPI_Datatype t)
{
    return (size_t)(mpi_type_mix(t) >> 57); /* the top 7 bits: 0 .. 127 */
}

/* The orma type of a predefined MPI datatype, or NULL. */
static inline orma_type mpi_type_predefined(MPI_Datatype t)
{
    if (__builtin_expect(!mpi_ntypes, 0))
        mpi_types_init();
    for (size_t h = mpi_type_hash(t); mpi_type_index[h]; h = (h + 1) % MPI_TYPE_SLOTS)
        if (mpi_types[mpi_type_index[h] - 1].mpi == t)
            return mpi_types[mpi_type_index[h] - 1].orma;
    return NULL;
}

/* The orma type of any MPI datatype: predefined by table, derived ones
 * decoded and cached until MPI_Type_free (an orma status). */
int mpi_type(MPI_Datatype t, orma_type *o_p);

/* MPI_BOTTOM as a buffer of *count_p elements of *type_p (absolute
 * addresses): orma takes no NULL buffer, so the buffer becomes the lowest
 * address they reach and the elements one element of a new type, *tmp_p,
 * displaced back by as much (free it after the call).  Anything else is
 * left as it is (*tmp_p NULL).  An orma status. */
int mpi_type_bottom(void **buf_p, size_t *count_p, orma_type *type_p, orma_type *tmp_p);

struct mpi_op_pair {
    MPI_Op mpi;
    int orma;
};
#define MPI_OPS 14
extern struct mpi_op_pair mpi_ops[MPI_OPS];
extern int mpi_ops_filled;
void mpi_ops_fill(void);

/* The orma op of an MPI op, or -1. */
static inline int mpi_op(MPI_Op op)
{
    if (__builtin_expect(!mpi_ops_filled, 0))
        mpi_ops_fill();
    for (size_t i = 0; i < MPI_OPS; i++)
        if (mpi_ops[i].mpi == op)
            return mpi_ops[i].orma;
    return -1;
}

#endif
