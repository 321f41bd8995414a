/* mpi_fortran_win.c -- the Fortran entry points of window creation,
 * attributes, names, info, error handlers and memory, and of the calls
 * outside the chapter that must reach liborma-mpi rather than the host
 * (MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Type_free).  See
 * mpi_fortran.h. */
#include "mpi_fortran.h"

#include <stdlib.h>

/* creation and freeing */
MPI_F_DEFINE(win_create, WIN_CREATE,
             (void *base, MPI_Aint *size, MPI_Fint *disp_unit, MPI_Fint *info, MPI_Fint *comm, MPI_Fint *win,
              MPI_Fint *ierr))
{
    MPI_Win w;
    MPI_F_RESULT(ierr,
                 PMPI_Win_create(mpi_f_buf(base), *size, *disp_unit, PMPI_Info_f2c(*info), PMPI_Comm_f2c(*comm), &w),
                 win, PMPI_Win_c2f(w));
}

/* allocate and allocate_shared: baseptr is INTEGER(KIND=MPI_ADDRESS_KIND)
 * or TYPE(C_PTR), an address either way. */
#define MPI_F_ALLOCATE(x, X, call)                                                                 \
    MPI_F08_DEFINE(x, X, (MPI_Aint *size, MPI_Fint *disp_unit, MPI_Fint *info, MPI_Fint *comm, void **baseptr, \
                          MPI_Fint *win, MPI_Fint *ierr))                                          \
    {                                                                                              \
        MPI_Win w;                                                                                 \
        MPI_F_RESULT(ierr, call(*size, *disp_unit, PMPI_Info_f2c(*info), PMPI_Comm_f2c(*comm), baseptr, &w), \
                     win, PMPI_Win_c2f(w));                                                        \
    }
MPI_F_ALLOCATE(win_allocate, WIN_ALLOCATE, PMPI_Win_allocate)
MPI_F_ALLOCATE(win_allocate_shared, WIN_ALLOCATE_SHARED, PMPI_Win_allocate_shared)

MPI_F08_DEFINE(win_shared_query, WIN_SHARED_QUERY,
               (MPI_Fint *win, MPI_Fint *rank, MPI_Aint *size, MPI_Fint *disp_unit, void **baseptr, MPI_Fint *ierr))
{
    int unit = 0;
    MPI_F_RESULT(ierr, PMPI_Win_shared_query(mpi_f_win(win), *rank, size, &unit, baseptr), disp_unit, unit);
}

#ifdef OPEN_MPI /* its use mpi module's TYPE(C_PTR) forms have names of their own */
MPI_F_DEFINE(win_allocate_cptr, WIN_ALLOCATE_CPTR,
             (MPI_Aint *size, MPI_Fint *disp_unit, MPI_Fint *info, MPI_Fint *comm, void **baseptr, MPI_Fint *win,
              MPI_Fint *ierr))
{
    pmpi_win_allocate_(size, disp_unit, info, comm, baseptr, win, ierr);
}

MPI_F_DEFINE(win_allocate_shared_cptr, WIN_ALLOCATE_SHARED_CPTR,
             (MPI_Aint *size, MPI_Fint *disp_unit, MPI_Fint *info, MPI_Fint *comm, void **baseptr, MPI_Fint *win,
              MPI_Fint *ierr))
{
    pmpi_win_allocate_shared_(size, disp_unit, info, comm, baseptr, win, ierr);
}

MPI_F_DEFINE(win_shared_query_cptr, WIN_SHARED_QUERY_CPTR,
             (MPI_Fint *win, MPI_Fint *rank, MPI_Aint *size, MPI_Fint *disp_unit, void **baseptr, MPI_Fint *ierr))
{
    pmpi_win_shared_query_(win, rank, size, disp_unit, baseptr, ierr);
}
#endif

MPI_F08_DEFINE(win_create_dynamic, WIN_CREATE_DYNAMIC, (MPI_Fint *info, MPI_Fint *comm, MPI_Fint *win, MPI_Fint *ierr))
{
    MPI_Win w;
    MPI_F_RESULT(ierr, PMPI_Win_create_dynamic(PMPI_Info_f2c(*info), PMPI_Comm_f2c(*comm), &w), win, PMPI_Win_c2f(w));
}

MPI_F_DEFINE(win_attach, WIN_ATTACH, (MPI_Fint *win, void *base, MPI_Aint *size, MPI_Fint *ierr))
{
    mpi_f_ierr(ierr, PMPI_Win_attach(mpi_f_win(win), base, *size));
}

MPI_F_DEFINE(win_detach, WIN_DETACH, (MPI_Fint *win, void *base, MPI_Fint *ierr))
{
    MPI_F_RACE_SITE();
    mpi_f_ierr(ierr, PMPI_Win_detach(mpi_f_win(win), base));
}

MPI_F08_DEFINE(win_free, WIN_FREE, (MPI_Fint *win, MPI_Fint *ierr))
{
    MPI_Win w = mpi_f_win(win);
    MPI_F_RESULT(ierr, PMPI_Win_free(&w), win, MPI_F_WIN_NULL);
}

MPI_F08_DEFINE(win_get_group, WIN_GET_GROUP, (MPI_Fint *win, MPI_Fint *group, MPI_Fint *ierr))
{
    MPI_Group g;
    MPI_F_RESULT(ierr, PMPI_Win_get_group(mpi_f_win(win), &g), group, PMPI_Group_c2f(g));
}

MPI_F08_DEFINE(win_set_info, WIN_SET_INFO, (MPI_Fint *win, MPI_Fint *info, MPI_Fint *ierr))
{
    mpi_f_ierr(ierr, PMPI_Win_set_info(mpi_f_win(win), PMPI_Info_f2c(*info)));
}

MPI_F08_DEFINE(win_get_info, WIN_GET_INFO, (MPI_Fint *win, MPI_Fint *info, MPI_Fint *ierr))
{
    MPI_Info i;
    MPI_F_RESULT(ierr, PMPI_Win_get_info(mpi_f_win(win), &i), info, PMPI_Info_c2f(i));
}

/* Attributes.  Fortran's values are address-sized integers, stored as
 * the attribute's void * itself; the predefined attributes come by value
 * (the C calls give the address of the size, unit, flavour and model). */
MPI_F08_DEFINE(win_get_attr, WIN_GET_ATTR,
               (MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag, MPI_Fint *ierr))
{
    static const int predefined[] = {MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR,
                                     MPI_WIN_MODEL};
    int key = *keyval;
    for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; i++)
        if (key == MPI_F_KEYVAL(predefined[i]))
            key = predefined[i];
    void *v = NULL;
    int f = 0, rc = PMPI_Win_get_attr(mpi_f_win(win), key, &v, &f);
    if (rc == MPI_SUCCESS) {
        *flag = f ? 1 : 0;
        if (f && key == MPI_WIN_SIZE)
            *value = *(MPI_Aint *)v;
        else if (f && (key == MPI_WIN_DISP_UNIT || key == MPI_WIN_CREATE_FLAVOR || key == MPI_WIN_MODEL))
            *value = *(int *)v;
        else if (f)
            *value = (MPI_Aint)(intptr_t)v;
    }
    mpi_f_ierr(ierr, rc);
}

MPI_F08_DEFINE(win_set_attr, WIN_SET_ATTR, (MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *ierr))
{
    mpi_f_ierr(ierr, PMPI_Win_set_attr(mpi_f_win(win), *keyval, (void *)(intptr_t)*value));
}

MPI_F08_DEFINE(win_delete_attr, WIN_DELETE_ATTR, (MPI_Fint *win, MPI_Fint *keyval, MPI_Fint *ierr))
{
    mpi_f_ierr(ierr, PMPI_Win_delete_attr(mpi_f_win(win), *keyval));
}

/* A Fortran keyval is a C one whose delete callback calls the Fortran
 * subroutine (MPI_WIN_NULL_DELETE_FN is one too), by reference, with the
 * value and extra state as address-sized integers.  The copy callback is
 * never called: windows are not duplicated.  Like the keyvals themselves
 * (mpi_attr.c), these stay until the program ends. */
typedef void mpi_f_delete_fn(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *value, MPI_Aint *extra, MPI_Fint *ierr);

struct mpi_f_keyval {
    mpi_f_delete_fn *del;
    MPI_Aint extra;
};

static int mpi_f_delete(MPI_Win win, int keyval, void *value, void *extra)
{
    struct mpi_f_keyval *k = extra;
    MPI_Fint fwin = PMPI_Win_c2f(win), fkey = keyval, err = MPI_SUCCESS;
    MPI_Aint v = (MPI_Aint)(intptr_t)value;
    k->del(&fwin, &fkey, &v, &k->extra, &err);
    return err;
}

MPI_F08_DEFINE(win_create_keyval, WIN_CREATE_KEYVAL,
               (void (*copy)(void), mpi_f_delete_fn *del, MPI_Fint *keyval, MPI_Aint *extra, MPI_Fint *ierr))
{
    (void)copy;
    struct mpi_f_keyval *k = malloc(sizeof *k);
    if (!k) {
        mpi_f_ierr(ierr, mpi_win_error_msg(NULL, "MPI_Win_create_keyval", MPI_ERR_NO_MEM, "too many keyvals"));
        return;
    }
    *k = (struct mpi_f_keyval){del, *extra};
    int key = 0, rc = PMPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, mpi_f_delete, &key, k);
    if (rc == MPI_SUCCESS)
        *keyval = key;
    else
        free(k);
    mpi_f_ierr(ierr, rc);
}

MPI_F08_DEFINE(win_free_keyval, WIN_FREE_KEYVAL, (MPI_Fint *keyval, MPI_Fint *ierr))
{
    int key = *keyval;
    MPI_F_RESULT(ierr, PMPI_Win_free_keyval(&key), keyval, key);
}

/* names */
void pmpi_win_set_name_(MPI_Fint *win, const char *name, MPI_Fint *ierr, mpi_f_strlen len);
void pmpi_win_get_name_(MPI_Fint *win, char *name, MPI_Fint *resultlen, MPI_Fint *ierr, mpi_f_strlen len);
MPI_F_NAMES_NO_OMPI(win_set_name, WIN_SET_NAME)
MPI_F_NAMES_NO_OMPI(win_get_name, WIN_GET_NAME)
MPI_F08_NAMES(win_set_name)
MPI_F08_NAMES(win_get_name)

#ifdef OPEN_MPI
void ompi_win_set_name_f(MPI_Fint *win, const char *name, MPI_Fint *ierr, int len);
void ompi_win_get_name_f(MPI_Fint *win, char *name, MPI_Fint *resultlen, MPI_Fint *ierr, int len);

void ompi_win_set_name_f(MPI_Fint *win, const char *name, MPI_Fint *ierr, int len)
{
    pmpi_win_set_name_(win, name, ierr, len > 0 ? (mpi_f_strlen)len : 0);
}

void ompi_win_get_name_f(MPI_Fint *win, char *name, MPI_Fint *resultlen, MPI_Fint *ierr, int len)
{
    pmpi_win_get_name_(win, name, resultlen, ierr, len > 0 ? (mpi_f_strlen)len : 0);
}
#endif

void pmpi_win_set_name_(MPI_Fint *win, const char *name, MPI_Fint *ierr, mpi_f_strlen len)
{
    char s[MPI_MAX_OBJECT_NAME];
    MPI_Win w = mpi_f_win(win);
    int rc = mpi_f_string(name, len, s, sizeof s);
    if (rc != MPI_SUCCESS)
        rc = mpi_win_error(mpi_win_lookup(w), "MPI_Win_set_name", rc);
    else
        rc = PMPI_Win_set_name(w, s);
    mpi_f_ierr(ierr, rc);
}

void pmpi_win_get_name_(MPI_Fint *win, char *name, MPI_Fint *resultlen, MPI_Fint *ierr, mpi_f_strlen len)
{
    char s[MPI_MAX_OBJECT_NAME];
    int n = 0, rc = PMPI_Win_get_name(mpi_f_win(win), s, &n);
    if (rc == MPI_SUCCESS) {
        mpi_f_string_out(s, name, len);
        *resultlen = n < (int)len ? n : (int)len;
    }
    mpi_f_ierr(ierr, rc);
}

/* error handlers: a Fortran handler is called with the Fortran window */
MPI_F08_DEFINE(win_create_errhandler, WIN_CREATE_ERRHANDLER,
               (MPI_Win_errhandler_function *fn, MPI_Fint *errhandler, MPI_Fint *ierr))
{
    MPI_Errhandler e;
    MPI_F_RESULT(ierr, mpi_errh_create(fn, 1, &e), errhandler, mpi_errh_c2f(e));
}

MPI_F08_DEFINE(win_set_errhandler, WIN_SET_ERRHANDLER, (MPI_Fint *win, MPI_Fint *errhandler, MPI_Fint *ierr))
{
    mpi_f_ierr(ierr, PMPI_Win_set_errhandler(mpi_f_win(win), mpi_errh_f2c(*errhandler)));
}

MPI_F08_DEFINE(win_get_errhandler, WIN_GET_ERRHANDLER, (MPI_Fint *win, MPI_Fint *errhandler, MPI_Fint *ierr))
{
    MPI_Errhandler e;
    MPI_F_RESULT(ierr, PMPI_Win_get_errhandler(mpi_f_win(win), &e), errhandler, mpi_errh_c2f(e));
}

MPI_F08_DEFINE(win_call_errhandler, WIN_CALL_ERRHANDLER, (MPI_Fint *win, MPI_Fint *errorcode, MPI_Fint *ierr))
{
    mpi_f_ierr(ierr, PMPI_Win_call_errhandler(mpi_f_win(win), *errorcode));
}

MPI_F08_DEFINE(errhandler_free, ERRHANDLER_FREE, (MPI_Fint *errhandler, MPI_Fint *ierr))
{
    MPI_Errhandler e = mpi_errh_f2c(*errhandler);
    /* liborma-mpi's MPI_Errhandler_free: orma's handlers, or the host's */
    MPI_F_RESULT(ierr, MPI_Errhandler_free(&e), errhandler, mpi_errh_c2f(e));
}

/* memory */
MPI_F08_DEFINE(alloc_mem, ALLOC_MEM, (MPI_Aint *size, MPI_Fint *info, void **baseptr, MPI_Fint *ierr))
{
    mpi_f_ierr(ierr, MPI_Alloc_mem(*size, PMPI_Info_f2c(*info), baseptr));
}

#ifdef OPEN_MPI
MPI_F_DEFINE(alloc_mem_cptr, ALLOC_MEM_CPTR, (MPI_Aint *size, MPI_Fint *info, void **baseptr, MPI_Fint *ierr))
{
    pmpi_alloc_mem_(size, info, baseptr, ierr);
}
#endif

MPI_F_DEFINE(free_mem, FREE_MEM, (void *base, MPI_Fint *ierr))
{
    MPI_F_RACE_SITE();
    mpi_f_ierr(ierr, MPI_Free_mem(base));
}

/* Start and end with the host MPI, as liborma-mpi's C calls do. */
MPI_F08_DEFINE(init, INIT, (MPI_Fint *ierr))
{
    mpi_f_ierr(ierr, MPI_Init(NULL, NULL));
}

MPI_F08_DEFINE(init_thread, INIT_THREAD, (MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr))
{
    int p = 0;
    MPI_F_RESULT(ierr, MPI_Init_thread(NULL, NULL, *required, &p), provided, p);
}

MPI_F08_DEFINE(finalize, FINALIZE, (MPI_Fint *ierr))
{
    mpi_f_ierr(ierr, MPI_Finalize());
}

/* so that the datatype cache forgets the type (mpi_dtype.c) */
MPI_F08_DEFINE(type_free, TYPE_FREE, (MPI_Fint *type, MPI_Fint *ierr))
{
    MPI_Datatype t = PMPI_Type_f2c(*type);
    MPI_F_RESULT(ierr, MPI_Type_free(&t), type, PMPI_Type_c2f(t));
}
