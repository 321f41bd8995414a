/* mpi_fortran.c -- the Fortran entry points of the communication and
 * synchronization calls (mpi_fortran.h says why liborma-mpi has its own),
 * one generator per shape of argument list, and the conversions every
 * Fortran entry point shares. */
#include "mpi_fortran.h"

#include <string.h>

/* The common blocks holding Fortran's MPI_BOTTOM: weak, so that a program
 * without the host's Fortran library still loads liborma-mpi. */
#ifdef OPEN_MPI
extern int mpi_fortran_bottom_ __attribute__((weak));
#define MPI_F_BOTTOM (&mpi_fortran_bottom_)
#else
extern int mpipriv1_ __attribute__((weak)); /* COMMON /MPIPRIV1/ MPI_BOTTOM, ... */
#define MPI_F_BOTTOM (&mpipriv1_)
#endif

void *mpi_f_buf(void *buf)
{
    return buf && buf == (void *)MPI_F_BOTTOM ? MPI_BOTTOM : buf;
}

int mpi_f_string(const char *s, mpi_f_strlen len, char *out, size_t outlen)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    if (len >= outlen)
        return MPI_ERR_ARG;
    memcpy(out, s, len);
    out[len] = 0;
    return MPI_SUCCESS;
}

void mpi_f_string_out(const char *s, char *out, mpi_f_strlen len)
{
    size_t n = strlen(s);
    if (n > len)
        n = len;
    memcpy(out, s, n);
    memset(out + n, ' ', len - n);
}

#define T(t) PMPI_Type_f2c(*(t))

/* put, get */
#define MPI_F_PUT_GET(x, X, call)                                                                  \
    MPI_F_DEFINE(x, X, (void *origin, MPI_Fint *ocount, MPI_Fint *otype, MPI_Fint *target, MPI_Aint *disp, \
                        MPI_Fint *tcount, MPI_Fint *ttype, MPI_Fint *win, MPI_Fint *ierr))         \
    {                                                                                              \
        MPI_F_RACE_SITE();                                                                         \
        mpi_f_ierr(ierr, call(mpi_f_buf(origin), *ocount, T(otype), *target, *disp, *tcount, T(ttype), \
                              mpi_f_win(win)));                                                    \
    }
MPI_F_PUT_GET(put, PUT, PMPI_Put)
MPI_F_PUT_GET(get, GET, PMPI_Get)

/* rput, rget */
#define MPI_F_RPUT_RGET(x, X, call)                                                                \
    MPI_F_DEFINE(x, X, (void *origin, MPI_Fint *ocount, MPI_Fint *otype, MPI_Fint *target, MPI_Aint *disp, \
                        MPI_Fint *tcount, MPI_Fint *ttype, MPI_Fint *win, MPI_Fint *request, MPI_Fint *ierr)) \
    {                                                                                              \
        MPI_F_RACE_SITE();                                                                         \
        MPI_Request r;                                                                             \
        MPI_F_RESULT(ierr, call(mpi_f_buf(origin), *ocount, T(otype), *target, *disp, *tcount, T(ttype), \
                                mpi_f_win(win), &r),                                               \
                     request, PMPI_Request_c2f(r));                                                \
    }
MPI_F_RPUT_RGET(rput, RPUT, PMPI_Rput)
MPI_F_RPUT_RGET(rget, RGET, PMPI_Rget)

MPI_F_DEFINE(accumulate, ACCUMULATE,
             (void *origin, MPI_Fint *ocount, MPI_Fint *otype, MPI_Fint *target, MPI_Aint *disp, MPI_Fint *tcount,
              MPI_Fint *ttype, MPI_Fint *op, MPI_Fint *win, MPI_Fint *ierr))
{
    MPI_F_RACE_SITE();
    mpi_f_ierr(ierr, PMPI_Accumulate(mpi_f_buf(origin), *ocount, T(otype), *target, *disp, *tcount, T(ttype),
                                     PMPI_Op_f2c(*op), mpi_f_win(win)));
}

MPI_F_DEFINE(raccumulate, RACCUMULATE,
             (void *origin, MPI_Fint *ocount, MPI_Fint *otype, MPI_Fint *target, MPI_Aint *disp, MPI_Fint *tcount,
              MPI_Fint *ttype, MPI_Fint *op, MPI_Fint *win, MPI_Fint *request, MPI_Fint *ierr))
{
    MPI_F_RACE_SITE();
    MPI_Request r;
    MPI_F_RESULT(ierr,
                 PMPI_Raccumulate(mpi_f_buf(origin), *ocount, T(otype), *target, *disp, *tcount, T(ttype),
                                  PMPI_Op_f2c(*op), mpi_f_win(win), &r),
                 request, PMPI_Request_c2f(r));
}

MPI_F_DEFINE(get_accumulate, GET_ACCUMULATE,
             (void *origin, MPI_Fint *ocount, MPI_Fint *otype, void *result, MPI_Fint *rcount, MPI_Fint *rtype,
              MPI_Fint *target, MPI_Aint *disp, MPI_Fint *tcount, MPI_Fint *ttype, MPI_Fint *op, MPI_Fint *win,
              MPI_Fint *ierr))
{
    MPI_F_RACE_SITE();
    mpi_f_ierr(ierr, PMPI_Get_accumulate(mpi_f_buf(origin), *ocount, T(otype), mpi_f_buf(result), *rcount,
                                         T(rtype), *target, *disp, *tcount, T(ttype), PMPI_Op_f2c(*op),
                                         mpi_f_win(win)));
}

MPI_F_DEFINE(rget_accumulate, RGET_ACCUMULATE,
             (void *origin, MPI_Fint *ocount, MPI_Fint *otype, void *result, MPI_Fint *rcount, MPI_Fint *rtype,
              MPI_Fint *target, MPI_Aint *disp, MPI_Fint *tcount, MPI_Fint *ttype, MPI_Fint *op, MPI_Fint *win,
              MPI_Fint *request, MPI_Fint *ierr))
{
    MPI_F_RACE_SITE();
    MPI_Request r;
    MPI_F_RESULT(ierr,
                 PMPI_Rget_accumulate(mpi_f_buf(origin), *ocount, T(otype), mpi_f_buf(result), *rcount, T(rtype),
                                      *target, *disp, *tcount, T(ttype), PMPI_Op_f2c(*op), mpi_f_win(win), &r),
                 request, PMPI_Request_c2f(r));
}

MPI_F_DEFINE(fetch_and_op, FETCH_AND_OP,
             (void *origin, void *result, MPI_Fint *type, MPI_Fint *target, MPI_Aint *disp, MPI_Fint *op,
              MPI_Fint *win, MPI_Fint *ierr))
{
    MPI_F_RACE_SITE();
    mpi_f_ierr(ierr, PMPI_Fetch_and_op(mpi_f_buf(origin), mpi_f_buf(result), T(type), *target, *disp,
                                       PMPI_Op_f2c(*op), mpi_f_win(win)));
}

MPI_F_DEFINE(compare_and_swap, COMPARE_AND_SWAP,
             (void *origin, void *compare, void *result, MPI_Fint *type, MPI_Fint *target, MPI_Aint *disp,
              MPI_Fint *win, MPI_Fint *ierr))
{
    MPI_F_RACE_SITE();
    mpi_f_ierr(ierr, PMPI_Compare_and_swap(mpi_f_buf(origin), mpi_f_buf(compare), mpi_f_buf(result), T(type),
                                           *target, *disp, mpi_f_win(win)));
}

/* Synchronization: (win), (int, win), (group, int, win). */
#define MPI_F_SYNC_W(x, X, call)                                                                   \
    MPI_F08_DEFINE(x, X, (MPI_Fint *win, MPI_Fint *ierr))                                          \
    {                                                                                              \
        MPI_F_RACE_SITE();                                                                         \
        mpi_f_ierr(ierr, call(mpi_f_win(win)));                                                    \
    }
#define MPI_F_SYNC_IW(x, X, call)                                                                  \
    MPI_F08_DEFINE(x, X, (MPI_Fint *i, MPI_Fint *win, MPI_Fint *ierr))                             \
    {                                                                                              \
        MPI_F_RACE_SITE();                                                                         \
        mpi_f_ierr(ierr, call(*i, mpi_f_win(win)));                                                \
    }
#define MPI_F_SYNC_GIW(x, X, call)                                                                 \
    MPI_F08_DEFINE(x, X, (MPI_Fint *group, MPI_Fint *assert, MPI_Fint *win, MPI_Fint *ierr))       \
    {                                                                                              \
        MPI_F_RACE_SITE();                                                                         \
        mpi_f_ierr(ierr, call(PMPI_Group_f2c(*group), *assert, mpi_f_win(win)));                   \
    }

MPI_F_SYNC_IW(win_fence, WIN_FENCE, PMPI_Win_fence)
MPI_F_SYNC_GIW(win_post, WIN_POST, PMPI_Win_post)
MPI_F_SYNC_GIW(win_start, WIN_START, PMPI_Win_start)
MPI_F_SYNC_W(win_complete, WIN_COMPLETE, PMPI_Win_complete)
MPI_F_SYNC_W(win_wait, WIN_WAIT, PMPI_Win_wait)
MPI_F_SYNC_IW(win_unlock, WIN_UNLOCK, PMPI_Win_unlock)
MPI_F_SYNC_IW(win_lock_all, WIN_LOCK_ALL, PMPI_Win_lock_all)
MPI_F_SYNC_W(win_unlock_all, WIN_UNLOCK_ALL, PMPI_Win_unlock_all)
MPI_F_SYNC_IW(win_flush, WIN_FLUSH, PMPI_Win_flush)
MPI_F_SYNC_IW(win_flush_local, WIN_FLUSH_LOCAL, PMPI_Win_flush_local)
MPI_F_SYNC_W(win_flush_all, WIN_FLUSH_ALL, PMPI_Win_flush_all)
MPI_F_SYNC_W(win_flush_local_all, WIN_FLUSH_LOCAL_ALL, PMPI_Win_flush_local_all)
MPI_F_SYNC_W(win_sync, WIN_SYNC, PMPI_Win_sync)

MPI_F08_DEFINE(win_lock, WIN_LOCK, (MPI_Fint *type, MPI_Fint *rank, MPI_Fint *assert, MPI_Fint *win, MPI_Fint *ierr))
{
    MPI_F_RACE_SITE();
    mpi_f_ierr(ierr, PMPI_Win_lock(*type, *rank, *assert, mpi_f_win(win)));
}

MPI_F08_DEFINE(win_test, WIN_TEST, (MPI_Fint *win, MPI_Fint *flag, MPI_Fint *ierr))
{
    MPI_F_RACE_SITE();
    int f = 0;
    MPI_F_RESULT(ierr, PMPI_Win_test(mpi_f_win(win), &f), flag, f ? 1 : 0);
}
