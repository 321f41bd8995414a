/* mpi_fortran.h -- liborma-mpi's Fortran entry points (mpi_fortran*.c).
 *
 * Why they exist: a host MPI's Fortran library reaches the C one-sided
 * calls by routes that do not all pass through liborma-mpi.
 *   Open MPI 4.1 (libmpi_mpifh, and libmpi_usempif08 through its
 *   ompi_*_f functions): PMPI_Win_f2c then PMPI_X for most calls, which
 *   liborma-mpi defines; but MPI_Win_get_attr, MPI_Win_set_attr,
 *   MPI_Win_create_keyval and MPI_Win_create_errhandler call Open MPI's
 *   attribute and error handler internals directly, MPI_Init, MPI_Finalize
 *   and MPI_Type_free call PMPI_ names that are the host's, and handles of
 *   orma's error handlers go through the host's PMPI_Errhandler_c2f/f2c.
 *   MPICH 4.0 (libmpichfort): MPI_X for most calls; but MPI_Win_get_attr
 *   and MPI_Win_set_attr call MPII_Win_get_attr/set_attr, MPI_Win_create_keyval
 *   MPII_Keyval_set_proxy (all internal), and its mpi_f08 layer calls
 *   PMPI_Init, PMPI_Finalize and PMPI_Type_free.
 * So liborma-mpi defines the Fortran entry points of the whole chapter
 * itself, plus MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Type_free,
 * MPI_Errhandler_free, MPI_Alloc_mem and MPI_Free_mem, for both hosts:
 * found first (preloaded, linked before the host's Fortran library, or
 * statically linked into the program), they convert the Fortran arguments
 * and call liborma-mpi's C functions.
 *
 * Names: each entry point is defined as pmpi_<name>_ and aliased weakly as
 * every name a Fortran compiler or a host's Fortran modules call: mpi_x_,
 * mpi_x__, mpi_x, MPI_X and the same with pmpi_ (so that a Fortran
 * profiling tool's PMPI call reaches orma), Open MPI's ompi_x_f (what its
 * mpi_f08 module calls), and for the calls whose mpi_f08 binding has no
 * choice buffer the mpi_f08 names mpi_x_f08_ / pmpi_x_f08_ (MPICH's
 * choice-buffer mpi_f08 routines take array descriptors and end in
 * MPI_X, which is liborma-mpi's already).  The mpi_f08 arguments are the
 * same as the mpif.h ones (a handle is a derived type holding one
 * integer, passed by reference); only ierror may be absent (NULL).
 *
 * Handles: windows as MPI_Win_c2f/f2c say (mpi_attr.c), orma's error
 * handlers as mpi_errh_c2f/f2c (mpi_err.c), everything else by the host's
 * PMPI_X_f2c/c2f.  Fortran's MPI_BOTTOM is an address in a common block
 * of the host's Fortran library, turned into C's MPI_BOTTOM here.
 * LOGICAL results are written as gfortran's .true. (1) and .false. (0). */
#ifndef ORMA_MPI_FORTRAN_H
#define ORMA_MPI_FORTRAN_H

#include "mpi_orma.h"

#include <stddef.h>
#include <stdint.h>

/* The Fortran MPI_WIN_NULL: Open MPI's mpif-handles.h says 0, MPICH's
 * Fortran handles are its C ones. */
#ifdef OPEN_MPI
#define MPI_F_WIN_NULL 0
#else
#define MPI_F_WIN_NULL ((MPI_Fint)MPI_WIN_NULL)
#endif

/* The predefined window keyvals as Fortran passes them: MPICH's Fortran
 * ones are the C ones plus one, Open MPI's are the C ones. */
#ifdef OPEN_MPI
#define MPI_F_KEYVAL(k) (k)
#else
#define MPI_F_KEYVAL(k) ((k) + 1)
#endif

/* The hidden length argument gfortran (8 and later) passes, after all the
 * others, for each CHARACTER argument. */
typedef size_t mpi_f_strlen;

#define MPI_F_ALIAS(def, name) extern __typeof__(def) name __attribute__((weak, alias(#def)));

#ifdef OPEN_MPI
#define MPI_F_OMPI_ALIAS(x) MPI_F_ALIAS(pmpi_##x##_, ompi_##x##_f)
#else
#define MPI_F_OMPI_ALIAS(x)
#endif

/* The mpif.h / use mpi names of pmpi_x_ (MPI_F_NAMES_NO_OMPI: without
 * Open MPI's ompi_x_f, for the calls with CHARACTER arguments, whose
 * ompi_x_f take the length as an int). */
#define MPI_F_NAMES_NO_OMPI(x, X)                                                                  \
    MPI_F_ALIAS(pmpi_##x##_, pmpi_##x##__)                                                         \
    MPI_F_ALIAS(pmpi_##x##_, pmpi_##x)                                                             \
    MPI_F_ALIAS(pmpi_##x##_, PMPI_##X)                                                             \
    MPI_F_ALIAS(pmpi_##x##_, mpi_##x##_)                                                           \
    MPI_F_ALIAS(pmpi_##x##_, mpi_##x##__)                                                          \
    MPI_F_ALIAS(pmpi_##x##_, mpi_##x)                                                              \
    MPI_F_ALIAS(pmpi_##x##_, MPI_##X)
#define MPI_F_NAMES(x, X) MPI_F_NAMES_NO_OMPI(x, X) MPI_F_OMPI_ALIAS(x)

/* ... and its mpi_f08 names. */
#define MPI_F08_NAMES(x)                                                                           \
    MPI_F_ALIAS(pmpi_##x##_, pmpi_##x##_f08_)                                                      \
    MPI_F_ALIAS(pmpi_##x##_, mpi_##x##_f08_)

/* Define the entry point x (upper case X) with the parameter list params:
 *   MPI_F_DEFINE(win_fence, WIN_FENCE, (MPI_Fint *assert, MPI_Fint *win, MPI_Fint *ierr)) { ... }
 * MPI_F08_DEFINE also gives it its mpi_f08 names. */
#define MPI_F_DEFINE(x, X, params)                                                                 \
    void pmpi_##x##_ params;                                                                       \
    MPI_F_NAMES(x, X)                                                                              \
    void pmpi_##x##_ params

#define MPI_F08_DEFINE(x, X, params)                                                               \
    void pmpi_##x##_ params;                                                                       \
    MPI_F_NAMES(x, X)                                                                              \
    MPI_F08_NAMES(x)                                                                               \
    void pmpi_##x##_ params

/* ORMA_CHECK=race: the Fortran program's call as the site of the accesses
 * and completions of the C call an entry point makes (mpi_orma.h), held
 * until the entry point returns.  A declaration, first in the body:
 *   MPI_F_RACE_SITE();  */
static inline int mpi_f_race_pin(const void *ra)
{
    if (mpi_race_pinned) /* one entry point through another (alloc_mem_cptr): the outer one's */
        return 0;
    api_race_site(mpi_race_caller(ra));
    mpi_race_pinned = 1;
    return 1;
}

static inline void mpi_f_race_unpin(const int *pinned)
{
    if (*pinned)
        mpi_race_pinned = 0;
}

#define MPI_F_RACE_SITE()                                                                          \
    __attribute__((cleanup(mpi_f_race_unpin))) int mpi_f_race_ =                                   \
        __builtin_expect(util_config.race, 0) ? mpi_f_race_pin(__builtin_return_address(0)) : 0

/* The error code of a Fortran call into its ierror (absent in mpi_f08: NULL). */
static inline void mpi_f_ierr(MPI_Fint *ierr, int rc)
{
    if (ierr)
        *ierr = (MPI_Fint)rc;
}

/* A call that returns a result through a C variable: its error code into
 * *ierr and, only when it succeeded, value (the result as Fortran takes
 * it, evaluated then) into *out.
 *   MPI_Group g;
 *   MPI_F_RESULT(ierr, PMPI_Win_get_group(mpi_f_win(win), &g), group, PMPI_Group_c2f(g)); */
#define MPI_F_RESULT(ierr, call, out, value)                                                       \
    do {                                                                                           \
        int mpi_f_rc_ = (call);                                                                    \
        if (mpi_f_rc_ == MPI_SUCCESS)                                                              \
            *(out) = (value);                                                                      \
        mpi_f_ierr(ierr, mpi_f_rc_);                                                               \
    } while (0)

static inline MPI_Win mpi_f_win(const MPI_Fint *win) { return PMPI_Win_f2c(*win); }

/* Fortran's MPI_BOTTOM as C's; any other buffer as it is. */
void *mpi_f_buf(void *buf);

/* A Fortran CHARACTER argument as a C string (trailing blanks dropped) in
 * out[outlen]; MPI_ERR_ARG if it does not fit. */
int mpi_f_string(const char *s, mpi_f_strlen len, char *out, size_t outlen);

/* A C string into a Fortran CHARACTER argument, blank padded. */
void mpi_f_string_out(const char *s, char *out, mpi_f_strlen len);

#endif
