/* windows.c -- see windows.h. */
#include <stdint.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ctl.h"
#include "fit.h"
#include "windows.h"

const char *const bench_window_kinds[] = {
    "allocate", "create", "create_allocmem", "dynamic", "shared", NULL};

/* bench_window_open, with stack's memory (NULL for the other kinds). */
static int window_open(bench_ctl *ctl, const char *kind, size_t size,
                       void *stack, orma_info info, bench_window *w)
{
    int nranks = orma_size();
    void *base = NULL;
    memset(w, 0, sizeof *w);
    w->kind = kind;
    w->size = size;
    if (strcmp(kind, "allocate") == 0) {
        BENCH_CHECK(orma_win_allocate(size, 1, info, &base, &w->win));
    } else if (strcmp(kind, "shared") == 0) {
        BENCH_CHECK(orma_win_allocate_shared(size, 1, info, &base,
                                             &w->win));
    } else if (strcmp(kind, "create") == 0 ||
               strcmp(kind, "create_fit") == 0) {
        base = w->own = bench_xmalloc(size);
        BENCH_CHECK(orma_win_create(base, size, 1, info, &w->win));
    } else if (strcmp(kind, "stack") == 0 && stack != NULL) {
        base = stack; /* w->own stays NULL: the caller's frame holds it */
        BENCH_CHECK(orma_win_create(base, size, 1, info, &w->win));
    } else if (strcmp(kind, "create_private") == 0) {
        /* Shared anonymous memory is never adopted (shm_adopt.h): the
         * window stays private at every size, reached by system calls. */
        base = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED)
            return -1;
        w->own = base;
        BENCH_CHECK(orma_win_create(base, size, 1, info, &w->win));
    } else if (strcmp(kind, "create_allocmem") == 0) {
        BENCH_CHECK(orma_alloc_mem(size, ORMA_INFO_NULL, &base));
        w->own = base;
        BENCH_CHECK(orma_win_create(base, size, 1, info, &w->win));
    } else if (strcmp(kind, "dynamic") == 0) {
        BENCH_CHECK(orma_win_create_dynamic(info, &w->win));
        base = w->own = bench_xmalloc(size);
        BENCH_CHECK(orma_win_attach(w->win, base, size));
    } else if (strcmp(kind, "dynamic_allocmem") == 0) {
        BENCH_CHECK(orma_win_create_dynamic(info, &w->win));
        BENCH_CHECK(orma_alloc_mem(size, ORMA_INFO_NULL, &base));
        w->own = base;
        BENCH_CHECK(orma_win_attach(w->win, base, size));
    } else {
        return -1;
    }
    w->base = base;
    memset(w->base, 0, size);
    w->disp = bench_xmalloc((size_t)nranks * sizeof *w->disp);
    int dynamic = strncmp(kind, "dynamic", 7) == 0;
    /* Dynamic windows are addressed by the target's address, which only
     * the target knows; the other flavours start at displacement 0.  The
     * exchange also makes sure every rank has attached before any access. */
    for (int r = 0; r < nranks; r++) {
        uint64_t mine = dynamic ? (uint64_t)(uintptr_t)base : 0;
        w->disp[r] = (orma_aint)bench_ctl_exchange(ctl, mine, r);
    }
    return 0;
}

int bench_window_open(bench_ctl *ctl, const char *kind, size_t size,
                      bench_window *w)
{
    return window_open(ctl, kind, size, NULL, ORMA_INFO_NULL, w);
}

int bench_window_open_info(bench_ctl *ctl, const char *kind, size_t size,
                           orma_info info, bench_window *w)
{
    return window_open(ctl, kind, size, NULL, info, w);
}

/* bench_window_run's window, for bench_window_live. */
typedef struct run_window {
    bench_ctl *ctl;
    const char *kind;
    size_t size;
    bench_window *w;
} run_window;

static int run_open(void *self, void *stack)
{
    run_window *r = self;
    return window_open(r->ctl, r->kind, r->size, stack, ORMA_INFO_NULL, r->w);
}

static void run_close(void *self)
{
    bench_window_close(((run_window *)self)->w);
}

int bench_window_run(bench_ctl *ctl, const char *kind, size_t size,
                     bench_window *w, int (*fn)(void *arg), void *arg)
{
    run_window r = {ctl, kind, size, w};
    bench_window_life l = {run_open, run_close, &r};
    return bench_window_live(kind, size, &l, fn, arg);
}

void bench_window_close(bench_window *w)
{
    if (strncmp(w->kind, "dynamic", 7) == 0)
        BENCH_CHECK(orma_win_detach(w->win, w->base));
    BENCH_CHECK(orma_win_free(&w->win));
    if (strcmp(w->kind, "create_allocmem") == 0 ||
        strcmp(w->kind, "dynamic_allocmem") == 0)
        BENCH_CHECK(orma_free_mem(w->own));
    else if (strcmp(w->kind, "create_private") == 0)
        munmap(w->own, w->size ? w->size : 1);
    else
        free(w->own);
    free(w->disp);
    w->own = NULL;
    w->disp = NULL;
    w->base = NULL;
}
