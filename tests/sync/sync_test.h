/* sync_test.h -- helpers of the synchronization tests: windows of every
 * flavour behind one interface, flags in a shared window for signalling
 * between ranks outside the synchronization under test, bounded waits.
 *
 * The flags are a separate mechanism on purpose: a test of (say) flush must
 * not learn that the data arrived through the very calls it is testing. */
#ifndef ORMA_SYNC_TEST_H
#define ORMA_SYNC_TEST_H

#include "rma_test.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* How long a bounded wait may take before the test declares a hang.  Far
 * above anything a working library needs even under ThreadSanitizer on an
 * oversubscribed machine, far below the ctest timeout, so that a lost
 * signal is reported with the rank and the line instead of a timeout. */
#define ST_WAIT_LIMIT 30.0

static inline void st_sleep_ms(double ms)
{
    struct timespec ts;
    ts.tv_sec = (time_t)(ms / 1000.0);
    ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1000.0) * 1e6);
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* The flavours, with the path each takes to the target's memory. */
enum st_kind {
    ST_ALLOCATE,         /* shared segment: loads and stores */
    ST_CREATE_MALLOC,    /* private memory: single-copy syscalls */
    ST_CREATE_ALLOCMEM,  /* orma_alloc_mem: loads and stores */
    ST_DYNAMIC_MALLOC,   /* dynamic, a malloc'd region: syscalls */
    ST_DYNAMIC_ALLOCMEM, /* dynamic, an orma_alloc_mem region: loads, stores */
    ST_SHARED,           /* allocate_shared */
    ST_NKINDS
};

static const char *const st_kind_names[ST_NKINDS] = {
    "allocate", "create(malloc)", "create(alloc_mem)", "dynamic(malloc)",
    "dynamic(alloc_mem)", "shared"};

/* A window of `size` bytes per rank, displacement unit 1, exposed memory
 * mem.  Dynamic windows are addressed by the target's address, so addr[]
 * holds every rank's region base; st_disp hides the difference. */
struct st_win {
    orma_win win;
    int kind;
    unsigned char *mem;
    size_t size;
    orma_aint *addr; /* dynamic: region base of every rank, else NULL */
};

/* Collective.  info is given to the window's creation. */
static inline void st_win_open_info(struct st_win *w, int kind, size_t size, orma_info info)
{
    w->kind = kind;
    w->size = size;
    w->mem = NULL;
    w->addr = NULL;
    w->win = ORMA_WIN_NULL;
    switch (kind) {
    case ST_ALLOCATE:
        CHECK_OK(orma_win_allocate(size, 1, info, (void **)&w->mem, &w->win));
        break;
    case ST_SHARED:
        CHECK_OK(orma_win_allocate_shared(size, 1, info, (void **)&w->mem, &w->win));
        break;
    case ST_CREATE_MALLOC:
    case ST_DYNAMIC_MALLOC:
        w->mem = malloc(size);
        CHECK(w->mem != NULL);
        break;
    default:
        CHECK_OK(orma_alloc_mem(size, ORMA_INFO_NULL, (void **)&w->mem));
        break;
    }
    if (kind == ST_CREATE_MALLOC || kind == ST_CREATE_ALLOCMEM)
        CHECK_OK(orma_win_create(w->mem, size, 1, info, &w->win));
    if (kind == ST_DYNAMIC_MALLOC || kind == ST_DYNAMIC_ALLOCMEM) {
        orma_aint mine = (orma_aint)w->mem;
        w->addr = malloc((size_t)orma_size() * sizeof *w->addr);
        CHECK(w->addr != NULL);
        CHECK_OK(orma_win_create_dynamic(info, &w->win));
        CHECK_OK(orma_win_attach(w->win, w->mem, size));
        rt_exchange_aint(&mine, 1, w->addr);
    }
    CHECK(w->mem != NULL && w->win != ORMA_WIN_NULL);
}

/* Collective. */
static inline void st_win_open(struct st_win *w, int kind, size_t size)
{
    st_win_open_info(w, kind, size, ORMA_INFO_NULL);
}

/* Target displacement of byte offset off of rank target's memory. */
static inline orma_aint st_disp(const struct st_win *w, int target, size_t off)
{
    return (w->addr ? w->addr[target] : 0) + (orma_aint)off;
}

/* Collective. */
static inline void st_win_close(struct st_win *w)
{
    if (w->addr)
        CHECK_OK(orma_win_detach(w->win, w->mem));
    CHECK_OK(orma_win_free(&w->win));
    CHECK(w->win == ORMA_WIN_NULL);
    if (w->kind == ST_CREATE_MALLOC || w->kind == ST_DYNAMIC_MALLOC)
        free(w->mem);
    else if (w->kind == ST_CREATE_ALLOCMEM || w->kind == ST_DYNAMIC_ALLOCMEM)
        CHECK_OK(orma_free_mem(w->mem));
    free(w->addr);
    w->mem = NULL;
    w->addr = NULL;
}

/* The group of ranks a and b of win, one rank when they coincide. */
static inline orma_group st_group_pair(orma_win win, int a, int b)
{
    orma_group all = ORMA_GROUP_NULL, g = ORMA_GROUP_NULL;
    int ranks[2] = {a, b};
    CHECK_OK(orma_win_get_group(win, &all));
    CHECK_OK(orma_group_incl(all, a == b ? 1 : 2, ranks, &g));
    CHECK_OK(orma_group_free(&all));
    return g;
}

/* Flags: k 32-bit words per rank in a shared window, read and written
 * with C11 atomics under a lock_all epoch that stays open while they are
 * in use (the unified model: atomics need no further synchronization). */
struct st_flags {
    orma_win win;
    int k;
    _Atomic uint32_t **part; /* part[r]: rank r's k words */
};

/* Collective. */
static inline void st_flags_open(struct st_flags *f, int k)
{
    int n = orma_size();
    _Atomic uint32_t *mine = NULL;
    f->k = k;
    f->part = malloc((size_t)n * sizeof *f->part);
    CHECK(f->part != NULL);
    CHECK_OK(orma_win_allocate_shared((size_t)k * sizeof(uint32_t), (int)sizeof(uint32_t),
                                      ORMA_INFO_NULL, (void **)&mine, &f->win));
    for (int i = 0; i < k; i++)
        atomic_init(&mine[i], 0);
    for (int r = 0; r < n; r++) {
        size_t sz = 0;
        int du = 0;
        void *p = NULL;
        CHECK_OK(orma_win_shared_query(f->win, r, &sz, &du, &p));
        CHECK(sz == (size_t)k * sizeof(uint32_t) && p != NULL);
        f->part[r] = p;
    }
    CHECK_OK(orma_win_lock_all(ORMA_MODE_NOCHECK, f->win));
    CHECK_OK(orma_barrier()); /* every rank's words are initialized */
}

static inline _Atomic uint32_t *st_flag(struct st_flags *f, int rank, int i)
{
    return &f->part[rank][i];
}

/* Collective. */
static inline void st_flags_close(struct st_flags *f)
{
    CHECK_OK(orma_barrier()); /* nobody still reads a flag */
    CHECK_OK(orma_win_unlock_all(f->win));
    CHECK_OK(orma_win_free(&f->win));
    free(f->part);
}

/* Wait until *p >= want (as a sequence number), at most ST_WAIT_LIMIT
 * (ST_WAIT_FLAG_FOR: at most limit seconds). */
#define ST_WAIT_FLAG(p, want, what)                                            \
    st_wait_flag_at(__FILE__, __LINE__, (p), (want), ST_WAIT_LIMIT, (what))
#define ST_WAIT_FLAG_FOR(p, want, limit, what)                                 \
    st_wait_flag_at(__FILE__, __LINE__, (p), (want), (limit), (what))
static inline void st_wait_flag_at(const char *file, int line, _Atomic uint32_t *p,
                                   uint32_t want, double limit, const char *what)
{
    double t0 = orma_wtime();
    while ((int32_t)(atomic_load_explicit(p, memory_order_acquire) - want) < 0) {
        if (orma_wtime() - t0 > limit) {
            fprintf(stderr, "rank %d: %s:%d: waited %.0f s for %s to reach %u (it is %u)\n",
                    check_rank(), file, line, limit, what, (unsigned)want,
                    (unsigned)atomic_load(p));
            exit(1);
        }
        sched_yield();
    }
}

/* A small deterministic generator (xorshift64*): every rank that seeds it
 * alike draws the same numbers. */
/* Close the exposure epoch by polling orma_win_test, at most ST_WAIT_LIMIT
 * seconds. */
static inline void st_test_until_done(orma_win win)
{
    int flag = 0;
    double t0 = orma_wtime();
    for (;;) {
        CHECK_OK(orma_win_test(win, &flag));
        if (flag)
            return;
        CHECK(orma_wtime() - t0 < ST_WAIT_LIMIT);
        sched_yield();
    }
}

static inline uint64_t st_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* Uniform in [0, n). */
static inline unsigned st_rand_below(uint64_t *s, unsigned n)
{
    return (unsigned)((st_rand(s) >> 32) % n);
}

#endif
