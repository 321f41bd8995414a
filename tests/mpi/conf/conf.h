/* conf.h -- what the conformance programs share (tests/mpi/conf: one program
 * per section of MPI-4.1's one-sided chapter, each rule of the section a
 * check).  Every program runs on the host MPI alone ("host"), so that the
 * program itself is known to be right, and served by liborma-mpi ("orma"),
 * which must follow the standard; on 1 to 4 ranks.
 *
 * Where a host MPI departs from the standard, the check names the host and
 * the rule and is skipped in that host's own runs only (conf_host_ok), and
 * README lists the defect among those orma does not share. */
#ifndef CONF_H
#define CONF_H

#include "../mpi_test.h"

#include <stdint.h>

/* The hosts, for the checks a host departs from. */
enum conf_host { CONF_ANY, CONF_NOT_OPEN_MPI, CONF_NOT_MPICH };

/* Whether a check that host `skip` gets wrong is made in this run: always
 * with liborma-mpi, and on the host alone unless it is that host. */
static inline int conf_host_ok(enum conf_host skip)
{
    if (mt_orma || skip == CONF_ANY)
        return 1;
    return skip == CONF_NOT_OPEN_MPI ? !mt_host_is_open_mpi() : mt_host_is_open_mpi();
}

/* Whether this run can make a window of flavour f.  Open MPI 4.1.4 alone,
 * on one rank, fails MPI_Win_create and MPI_Win_create_dynamic with
 * MPI_ERR_WIN (none of its one-sided components takes them there; with
 * "--mca osc pt2pt" they work): those runs skip the two flavours. */
static inline int conf_flavor_here(enum mt_flavor f)
{
    return mt_orma || size > 1 || !mt_host_is_open_mpi() || f == MT_ALLOCATE || f == MT_SHARED;
}

static inline const char *conf_class_name(int cls)
{
    static char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(cls, s, &len) != MPI_SUCCESS)
        snprintf(s, sizeof s, "class %d", cls);
    return s;
}

/* rc, the return code of what, must be MPI_SUCCESS. */
static inline void conf_ok(const char *what, int rc)
{
    if (rc != MPI_SUCCESS) {
        int cls = -1;
        MPI_Error_class(rc, &cls);
        fail("%s failed: error class %d (%s)", what, cls, conf_class_name(cls));
    }
}

/* rc, the return code of what, must be an error of class cls. */
static inline void conf_err(const char *what, int rc, int cls)
{
    if (rc == MPI_SUCCESS)
        fail("%s succeeded; expected an error of class %s", what, conf_class_name(cls));
    int got = -1;
    MPI_Error_class(rc, &got);
    if (got != cls) {
        char g[MPI_MAX_ERROR_STRING];
        snprintf(g, sizeof g, "%s", conf_class_name(got));
        fail("%s: error class %d (%s), expected %d (%s)", what, got, g, cls, conf_class_name(cls));
    }
}

/* The call must succeed / fail with class cls (the call's text is its name
 * in the message). */
#define OK(call) conf_ok(#call, (call))
#define ERR(cls, call) conf_err(#call, (call), cls)
/* The same, in the runs conf_host_ok(skip) allows. */
#define ERR_BUT(skip, cls, call)                                                                   \
    do {                                                                                           \
        if (conf_host_ok(skip))                                                                    \
            conf_err(#call, (call), cls);                                                          \
    } while (0)

/* Rank r's value at index i of a test's data: positive, distinct per rank
 * and index (backgrounds are negative: mpi_test.h's bg()). */
static inline int conf_val(int r, long i) { return 1000 * (r + 1) + (int)i + 1; }

/* n ints at p must be conf_val(r, first + i), else fail naming what. */
static inline void conf_expect_vals(const char *what, const int *p, long n, int r, long first)
{
    for (long i = 0; i < n; i++)
        expect(what, i, p[i], conf_val(r, first + i));
}

/* n ints at p must still be the background of rank r from index first. */
static inline void conf_expect_bg(const char *what, const int *p, long n, int r, long first)
{
    for (long i = 0; i < n; i++)
        expect(what, first + i, p[i], bg(r, first + i));
}

/* n ints at p must be want[0..n-1], else fail naming what. */
static inline void conf_expect_ints(const char *what, const int *p, const int *want, long n)
{
    for (long i = 0; i < n; i++)
        expect(what, i, p[i], want[i]);
}

/* With no epoch of this rank's open, once every rank is there: its first n
 * ints of w are the background again (in a lock epoch of its own). */
static inline void conf_reset(struct mt_win *w, size_t n)
{
    MPI_Barrier(MPI_COMM_WORLD);
    conf_ok("MPI_Win_lock of this rank", MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    fill_bg_int(w->base, n, rank);
    conf_ok("MPI_Win_unlock of this rank", MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* After every rank's epochs: this rank's first n ints of w, read by loads
 * in a lock epoch of its own, must be want. */
static inline void conf_expect_window(const char *what, const struct mt_win *w, const int *want, long n)
{
    MPI_Barrier(MPI_COMM_WORLD);
    conf_ok("MPI_Win_lock of this rank", MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win));
    conf_expect_ints(what, w->base, want, n);
    conf_ok("MPI_Win_unlock of this rank", MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* MPI_COMM_WORLD's half of this rank (even or odd ranks), ranked in reverse
 * order; this rank's rank in it in *me_p (when not NULL). */
static inline MPI_Comm conf_half(int *me_p)
{
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    if (me_p)
        MPI_Comm_rank(half, me_p);
    return half;
}

/* The neighbours of this rank in a ring (itself on one rank). */
static inline int conf_right(void) { return (rank + 1) % size; }
static inline int conf_left(void) { return (rank + size - 1) % size; }

/* checks on a window of every flavour this run can make (conf_flavor_here),
 * of bytes per rank and displacement unit unit, its errors returned rather
 * than fatal. */
static inline void conf_each_flavor(size_t bytes, int unit, void (*checks)(struct mt_win *w))
{
    for (int f = 0; f < MT_FLAVORS; f++) {
        if (!conf_flavor_here((enum mt_flavor)f))
            continue;
        struct mt_win w;
        mt_win_open(&w, (enum mt_flavor)f, bytes, unit);
        MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN);
        checks(&w);
        mt_win_close(&w);
    }
}

/* The end of a program whose checks all passed: its exit status. */
static inline int conf_done(const char *name)
{
    if (rank == 0)
        printf("%s: %d ranks: OK\n", name, size);
    mt_finalize();
    return 0;
}

/* A committed datatype of size 0 (MPI_Type_contiguous(0, ...)). */
static inline MPI_Datatype conf_empty_type(void)
{
    MPI_Datatype t;
    MPI_Type_contiguous(0, MPI_INT, &t);
    MPI_Type_commit(&t);
    return t;
}

#endif
