/* mpib_win.c -- the MPI windows of the pingpong and latency series, one
 * per flavour name (mpib_win.h: allocate, shared, create, create_fit,
 * create_allocmem, dynamic, dynamic_allocmem, stack -- windows.h's), made
 * and freed with the functions of a table (mpib_fns.h: the host's or
 * those linked), and the passive modes' flag window. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "flagwait.h"
#include "mpib_win.h"

/* Errors come back to MPIB_CHECK, which names the call. */
static void errors_return(const mpib_fns *f, MPI_Win win)
{
    MPIB_CHECK(f->Win_set_errhandler(win, MPI_ERRORS_RETURN));
}

/* A window of kind (stack: on the memory at stack); 0, or -1 for an
 * unknown kind. */
static int window_open(const char *kind, size_t size, const mpib_fns *f,
                       void *stack, mpib_window *w)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Aint sz = (MPI_Aint)size;
    /* The allocated flavours get whole 64-byte lines: MPICH 4.0.2 lays the
     * ranks' parts of such a window end to end, and when a part's size is
     * not a multiple of 16 (8200 bytes: the latency suite at --sizes 8),
     * its own puts to rank 1 land elsewhere -- every check failed. */
    MPI_Aint lines = (sz + 63) / 64 * 64;
    void *base = NULL;
    memset(w, 0, sizeof *w);
    w->kind = kind;
    w->f = f;
    if (strcmp(kind, "allocate") == 0) {
        MPIB_CHECK(f->Win_allocate(lines, 1, MPI_INFO_NULL, comm, &base,
                                   &w->win));
    } else if (strcmp(kind, "shared") == 0) {
        MPIB_CHECK(f->Win_allocate_shared(lines, 1, MPI_INFO_NULL, comm,
                                          &base, &w->win));
    } else if (strcmp(kind, "create") == 0 ||
               strcmp(kind, "create_fit") == 0) {
        base = w->own = mpib_xmalloc(size);
        MPIB_CHECK(f->Win_create(base, sz, 1, MPI_INFO_NULL, comm, &w->win));
    } else if (strcmp(kind, "stack") == 0 && stack != NULL) {
        base = stack; /* w->own stays NULL: the caller's frame holds it */
        MPIB_CHECK(f->Win_create(base, sz, 1, MPI_INFO_NULL, comm, &w->win));
    } else if (strcmp(kind, "create_allocmem") == 0) {
        MPIB_CHECK(f->Alloc_mem(sz, MPI_INFO_NULL, &base));
        w->own = base;
        MPIB_CHECK(f->Win_create(base, sz, 1, MPI_INFO_NULL, comm, &w->win));
    } else if (strcmp(kind, "dynamic") == 0) {
        MPIB_CHECK(f->Win_create_dynamic(MPI_INFO_NULL, comm, &w->win));
        base = w->own = mpib_xmalloc(size);
        MPIB_CHECK(f->Win_attach(w->win, base, sz));
    } else if (strcmp(kind, "dynamic_allocmem") == 0) {
        MPIB_CHECK(f->Win_create_dynamic(MPI_INFO_NULL, comm, &w->win));
        MPIB_CHECK(f->Alloc_mem(sz, MPI_INFO_NULL, &base));
        w->own = base;
        MPIB_CHECK(f->Win_attach(w->win, base, sz));
    } else {
        return -1;
    }
    errors_return(f, w->win);
    w->base = base;
    memset(w->base, 0, size);
    /* Dynamic windows are addressed by the target's address; the others
     * start at displacement 0.  The exchange also makes sure both ranks
     * have attached before any access. */
    MPI_Aint mine = 0;
    if (strncmp(kind, "dynamic", 7) == 0)
        MPIB_CHECK(MPI_Get_address(base, &mine));
    MPIB_CHECK(MPI_Allgather(&mine, 1, MPI_AINT, w->disp, 1, MPI_AINT, comm));
    return 0;
}

/* Collective, epochs closed. */
static void window_close(mpib_window *w)
{
    const mpib_fns *f = w->f;
    if (strncmp(w->kind, "dynamic", 7) == 0)
        MPIB_CHECK(f->Win_detach(w->win, w->base));
    MPIB_CHECK(f->Win_free(&w->win));
    if (strcmp(w->kind, "create_allocmem") == 0 ||
        strcmp(w->kind, "dynamic_allocmem") == 0)
        MPIB_CHECK(f->Free_mem(w->own));
    else
        free(w->own);
    w->own = NULL;
    w->base = NULL;
}

/* mpib_window_run's window, for bench_window_live. */
typedef struct run_window {
    const char *kind;
    size_t size;
    const mpib_fns *f;
    mpib_window *w;
} run_window;

static int run_open(void *self, void *stack)
{
    run_window *r = self;
    return window_open(r->kind, r->size, r->f, stack, r->w);
}

static void run_close(void *self)
{
    window_close(((run_window *)self)->w);
}

int mpib_window_run(const char *kind, size_t size, const mpib_fns *f,
                    mpib_window *w, int (*fn)(void *arg), void *arg)
{
    run_window r = {kind, size, f, w};
    bench_window_life l = {run_open, run_close, &r};
    return bench_window_live(kind, size, &l, fn, arg);
}

/* Each rank's segment holds its flag on a cache line of its own: 128
 * bytes leave room to align it whatever the segment's alignment. */
#define FLAG_SEG 128
#define LINE 64

void mpib_flags_open(mpib_flags *f)
{
    void *mine;
    MPIB_CHECK(MPI_Win_allocate_shared(FLAG_SEG, 1, MPI_INFO_NULL,
                                       MPI_COMM_WORLD, &mine, &f->win));
    errors_return(&mpib_fns_linked, f->win);
    for (int r = 0; r < 2; r++) {
        MPI_Aint size;
        int unit;
        void *base;
        MPIB_CHECK(MPI_Win_shared_query(f->win, r, &size, &unit, &base));
        uintptr_t a = ((uintptr_t)base + LINE - 1) & ~(uintptr_t)(LINE - 1);
        f->flag[r] = (_Atomic uint64_t *)a;
    }
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    bench_flag_init(f->flag[me]);
    MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

void mpib_flags_close(mpib_flags *f)
{
    MPIB_CHECK(MPI_Win_free(&f->win));
    f->flag[0] = f->flag[1] = NULL;
}
