/* mpi_test.h -- what the plain MPI test programs share: start-up with the
 * check that the run is served by what its argument says ("host": the host
 * MPI alone, "orma": liborma-mpi), fail() naming the rank, background
 * patterns, guarded buffers and a window of any flavour.  Header-only, so
 * that each program stays one source file built against each host MPI. */
#ifndef MPI_TEST_H
#define MPI_TEST_H

#include <mpi.h>

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;
static int mt_orma; /* served by liborma-mpi (argument "orma") */

static inline void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static inline void fail(const char *fmt, ...)
{
    va_list ap;
    char msg[512];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "rank %d: %s\n", rank, msg);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    abort(); /* MPI_Abort does not return; say so to the compiler */
}

/* A value check with the place named: what, index, got, expected. */
static inline void expect(const char *what, long at, long long got, long long want)
{
    if (got != want)
        fail("%s at %ld: got %lld, expected %lld", what, at, got, want);
}

/* Defined when liborma-mpi is in the program: found by dlsym when it is a
 * shared library, by this weak reference when it was linked statically. */
extern int orma_init(int *argc, char ***argv) __attribute__((weak));

/* MPI_Init, rank and size, and the check that this run tests what it says:
 * argv[1] "orma" means liborma-mpi must be in the process (preloaded or
 * linked), anything else that it must not. */
static inline void mt_check_served(int *argc, char ***argv);

static inline void mt_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    mt_check_served(argc, argv);
}

/* The same with MPI_Init_thread. */
static inline void mt_init_thread(int *argc, char ***argv, int required, int *provided)
{
    MPI_Init_thread(argc, argv, required, provided);
    mt_check_served(argc, argv);
}

static inline void mt_check_served(int *argc, char ***argv)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int want_orma = *argc > 1 && !strcmp((*argv)[1], "orma");
    int have_orma = dlsym(RTLD_DEFAULT, "orma_init") != NULL || orma_init != NULL;
    mt_orma = want_orma;
    if (want_orma != have_orma)
        fail("this run should %sbe served by liborma-mpi, and is %s", want_orma ? "" : "not ",
             have_orma ? "" : "not");
}

/* Which host MPI this program was built against: for the few places where
 * a host departs from the standard and its host-only runs must tolerate it
 * (each such place says why). */
static inline int mt_host_is_open_mpi(void)
{
#ifdef OPEN_MPI
    return 1;
#else
    return 0;
#endif
}

static inline void mt_finalize(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
}

/* Background patterns: distinct per rank and index, never equal to the
 * data a test writes (data are positive, backgrounds negative). */
static inline int bg(int r, long i) { return -1000000 * (r + 1) - (int)i; }

static inline void fill_bg_int(int *p, size_t n, int r)
{
    for (size_t i = 0; i < n; i++)
        p[i] = bg(r, (long)i);
}

/* Guarded buffers: MT_GUARD bytes of 0xee on each side of n bytes. */
#define MT_GUARD 32
#define MT_GUARD_BYTE 0xee

static inline void *guarded_alloc(size_t n)
{
    unsigned char *p = malloc(n + 2 * MT_GUARD);
    if (!p)
        fail("malloc of %zu bytes", n + 2 * MT_GUARD);
    memset(p, MT_GUARD_BYTE, n + 2 * MT_GUARD);
    return p + MT_GUARD;
}

static inline void guarded_check(const void *buf, size_t n, const char *what)
{
    const unsigned char *p = (const unsigned char *)buf - MT_GUARD;
    for (size_t i = 0; i < MT_GUARD; i++) {
        if (p[i] != MT_GUARD_BYTE)
            fail("%s: guard byte %zu before the buffer was overwritten (0x%02x)", what, MT_GUARD - i, p[i]);
        if (p[MT_GUARD + n + i] != MT_GUARD_BYTE)
            fail("%s: guard byte %zu after the buffer was overwritten (0x%02x)", what, i, p[MT_GUARD + n + i]);
    }
}

static inline void guarded_free(void *buf)
{
    if (buf)
        free((unsigned char *)buf - MT_GUARD);
}

/* A window over MPI_COMM_WORLD of any flavour, of `bytes` bytes per rank
 * with displacement unit `unit`.  Dynamic windows have unit 1 and absolute
 * displacements: mt_disp() turns a displacement in units into what a
 * target expects, whatever the flavour. */
enum mt_flavor { MT_ALLOCATE, MT_CREATE, MT_SHARED, MT_DYNAMIC, MT_FLAVORS };

static const char *const mt_flavor_name[MT_FLAVORS] = {"allocate", "create", "allocate_shared", "dynamic"};

struct mt_win {
    MPI_Win win;
    enum mt_flavor flavor;
    void *base;        /* this rank's memory */
    size_t bytes;
    int unit;
    MPI_Aint *addr;    /* dynamic: every rank's attached address */
};

static inline void mt_win_open(struct mt_win *w, enum mt_flavor flavor, size_t bytes, int unit)
{
    memset(w, 0, sizeof *w);
    w->flavor = flavor;
    w->bytes = bytes;
    w->unit = unit;
    switch (flavor) {
    case MT_ALLOCATE:
        MPI_Win_allocate((MPI_Aint)bytes, unit, MPI_INFO_NULL, MPI_COMM_WORLD, &w->base, &w->win);
        break;
    case MT_CREATE:
        w->base = malloc(bytes ? bytes : 1);
        if (!w->base)
            fail("malloc of %zu bytes", bytes);
        MPI_Win_create(w->base, (MPI_Aint)bytes, unit, MPI_INFO_NULL, MPI_COMM_WORLD, &w->win);
        break;
    case MT_SHARED:
        MPI_Win_allocate_shared((MPI_Aint)bytes, unit, MPI_INFO_NULL, MPI_COMM_WORLD, &w->base, &w->win);
        break;
    case MT_DYNAMIC:
        w->base = malloc(bytes ? bytes : 1);
        w->addr = malloc((size_t)size * sizeof *w->addr);
        if (!w->base || !w->addr)
            fail("malloc of %zu bytes", bytes);
        MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w->win);
        MPI_Win_attach(w->win, w->base, (MPI_Aint)bytes);
        MPI_Aint mine;
        MPI_Get_address(w->base, &mine);
        MPI_Allgather(&mine, 1, MPI_AINT, w->addr, 1, MPI_AINT, MPI_COMM_WORLD);
        break;
    default:
        fail("no window flavour %d", (int)flavor);
    }
}

static inline MPI_Aint mt_disp(const struct mt_win *w, int target, MPI_Aint disp)
{
    if (w->flavor == MT_DYNAMIC)
        return MPI_Aint_add(w->addr[target], disp * w->unit);
    return disp;
}

static inline void mt_win_close(struct mt_win *w)
{
    if (w->flavor == MT_DYNAMIC)
        MPI_Win_detach(w->win, w->base);
    MPI_Win_free(&w->win);
    if (w->win != MPI_WIN_NULL)
        fail("MPI_Win_free left the handle of a %s window", mt_flavor_name[w->flavor]);
    if (w->flavor == MT_CREATE || w->flavor == MT_DYNAMIC)
        free(w->base);
    free(w->addr);
    w->base = NULL;
    w->addr = NULL;
}

#endif
