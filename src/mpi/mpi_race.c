/* mpi_race.c -- ORMA_CHECK=race: the program's call site behind a host
 * MPI's Fortran layer (mpi_orma.h, MPI_RACE_SITE).
 *
 * A program using the mpi_f08 module does not call liborma-mpi directly:
 * Open MPI's mpi_put_f08_ (libmpi_usempif08) calls liborma-mpi's
 * ompi_put_f, and MPICH's choice-buffer mpi_f08 routines (libmpichfort)
 * call MPI_Put.  The return address an entry point sees is then the host
 * wrapper's, and the site the program's call one frame or more up: the
 * stack is walked (glibc's backtrace, from the unwind tables) past every
 * frame in the host's libraries, whose file names begin with "libmpi"
 * (libmpi, libmpi_mpifh, libmpi_usempif08, libmpich, libmpichfort, ...),
 * and past liborma-mpi's own: its MPI_Wait, which tests the host's
 * request while orma makes progress, is the frame above a request's end
 * (mpi_comm.c, mpi_greq_free), and its Fortran bindings above the C
 * calls they make.
 * Only under ORMA_CHECK=race, and the stack only when the caller is in
 * such a library; the last caller found outside them is remembered per
 * thread, so that a program's repeated call costs no lookup. */
#include "mpi_orma.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <string.h>

_Thread_local int mpi_race_pinned;
static _Thread_local const void *mpi_race_last_user;

static int mpi_race_in_host(const void *ra)
{
    Dl_info info;
    if (!dladdr(ra, &info) || !info.dli_fname)
        return 0;
    const char *base = strrchr(info.dli_fname, '/');
    base = base ? base + 1 : info.dli_fname;
    return !strncmp(base, "libmpi", 6) || !strncmp(base, "liborma-mpi", 11);
}

__attribute__((noinline)) const void *mpi_race_caller(const void *ra)
{
    if (ra == mpi_race_last_user || !mpi_race_in_host(ra)) {
        mpi_race_last_user = ra;
        return ra;
    }
    void *frames[32];
    int n = backtrace(frames, 32), i = 0;
    while (i < n && frames[i] != ra) /* this function, the entry point, ... up to ra */
        i++;
    while (i < n && mpi_race_in_host(frames[i]))
        i++;
    return i < n ? frames[i] : ra;
}
