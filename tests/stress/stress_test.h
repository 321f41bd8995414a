/* stress_test.h -- helpers of the concurrent stress tests of the
 * accumulate family: one interface over every epoch kind, round counts
 * that grow with STRESS_SCALE, and a gather of per-rank results.
 *
 * Every phase of a stress test is one (window flavour, epoch kind) pair:
 * all ranks hammer locations at one target rank inside epochs of that
 * kind, then the results are checked against what the sequential
 * semantics allow.  The flavours come from sync_test.h (st_win), because
 * each reaches the target's memory by another path -- hardware atomics on
 * mapped memory, striped locks on memory reached by syscalls -- and the
 * epoch kind decides whether the library may use plain loops (exclusive
 * lock) or must be atomic against other origins. */
#ifndef ORMA_STRESS_TEST_H
#define ORMA_STRESS_TEST_H

#include "sync_test.h"

/* The epoch kinds.  SX_MIXED draws, for every epoch, an exclusive lock, a
 * shared lock or lock_all: the plain loops an exclusive holder may use
 * must then be excluded from the atomics of the shared holders. */
enum sx_mode { SX_FENCE, SX_PSCW, SX_LOCK_SHARED, SX_LOCK_EXCL, SX_LOCK_ALL, SX_MIXED, SX_NMODES };

static const char *const sx_mode_names[SX_NMODES] = {"fence", "PSCW", "lock(shared)",
                                                     "lock(exclusive)", "lock_all", "mixed locks"};

/* ThreadSanitizer makes every atomic operation some fifty times slower,
 * and it cannot see races between processes anyway: its builds run the
 * flavours reached by hardware atomics for fewer rounds. */
#if defined(__SANITIZE_THREAD__)
#define SX_SANITIZER_DIVISOR 8u
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SX_SANITIZER_DIVISOR 8u
#endif
#endif
#ifndef SX_SANITIZER_DIVISOR
#define SX_SANITIZER_DIVISOR 1u
#endif

/* The base round count times STRESS_SCALE (a positive integer; 1
 * when unset).  The base counts keep the whole label within a few minutes
 * on two cores with four ranks; a larger scale is for soak runs. */
static inline unsigned sx_rounds(unsigned base)
{
    const char *s = getenv("STRESS_SCALE");
    long k = s ? strtol(s, NULL, 10) : 1;
    if (k < 1)
        k = 1;
    if (k > 1000)
        k = 1000;
    return base * (unsigned)k;
}

/* Rounds of a phase on window flavour kind: base times STRESS_SCALE,
 * and times mapped_factor on the flavours reached by loads, stores and
 * hardware atomics, whose operations take nanoseconds where the
 * single-copy syscalls take microseconds -- so that every phase lasts long
 * enough for its ranks to run side by side on several cores and to be
 * preempted in the middle of updates. */
static inline unsigned sx_mapped_factor(unsigned mapped_factor)
{
    unsigned f = mapped_factor / SX_SANITIZER_DIVISOR;
    return f ? f : 1;
}

static inline unsigned sx_rounds_for(int kind, unsigned base, unsigned mapped_factor)
{
    int syscalls = kind == ST_CREATE_MALLOC || kind == ST_DYNAMIC_MALLOC;
    return sx_rounds(base) * (syscalls ? 1 : sx_mapped_factor(mapped_factor));
}

/* Pin this rank to one of the CPUs it may use, rank by rank in turn.  A
 * race in a hardware atomic lasts nanoseconds: only ranks running on two
 * cores at once hit it, never ranks that take turns on one.  Left alone,
 * the scheduler keeps a job's ranks on whatever core they started on as
 * long as other jobs keep the rest busy -- the usual case when tests run
 * side by side -- so that a broken atomic passes every time. */
static inline void sx_pin(void)
{
#ifdef __linux__
    cpu_set_t allowed, one;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < 2)
        return;
    int want = orma_rank() % CPU_COUNT(&allowed), seen = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &allowed) || seen++ != want)
            continue;
        CPU_ZERO(&one);
        CPU_SET(c, &one);
        if (sched_setaffinity(0, sizeof one, &one) != 0)
            fprintf(stderr, "rank %d: not pinned to CPU %d; races may go unseen\n", orma_rank(), c);
        break;
    }
#endif
}

/* The start line.  A barrier lets ranks go one by one as they wake up
 * (the library's waits end in sleeps), and a phase shorter than that skew
 * would run its ranks one after the other, hiding every race.  At the
 * start line the ranks spin, yielding the core but never sleeping, until
 * all have arrived: they leave it within a time slice of each other.  A
 * flag in a window of its own, under a lock_all epoch that stays open. */
static struct st_flags sx_flags;
static uint32_t sx_gen;

/* Collective: pin this rank, open the start line. */
static inline void sx_open(void)
{
    sx_pin();
    st_flags_open(&sx_flags, 1);
    sx_gen = 0;
}

/* Collective. */
static inline void sx_close(void)
{
    st_flags_close(&sx_flags);
}

/* Collective: return when every rank has called it as often. */
static inline void sx_start(void)
{
    uint32_t want = ++sx_gen * (uint32_t)orma_size();
    atomic_fetch_add_explicit(st_flag(&sx_flags, 0, 0), 1, memory_order_acq_rel);
    ST_WAIT_FLAG(st_flag(&sx_flags, 0, 0), want, "the start line");
}

/* One phase's epochs: all to one target, or (passive kinds) to any. */
struct sx_epoch {
    orma_win win;
    int mode;
    int target;
    int used;         /* the kind this epoch really is (SX_MIXED draws one) */
    unsigned n;       /* epochs opened so far */
    uint64_t rng;     /* SX_MIXED's draws, different on every rank */
    orma_group all;   /* PSCW: the target's post group */
    orma_group tgt;   /* PSCW: the origins' start group */
};

/* Collective over the ranks that take part (all of them). */
static inline void sx_epoch_init(struct sx_epoch *e, orma_win win, int mode, int target, uint64_t seed)
{
    e->win = win;
    e->mode = mode;
    e->target = target;
    e->used = mode;
    e->n = 0;
    e->rng = seed * 0x9E3779B97F4A7C15ull + (uint64_t)orma_rank() * 1000003u + 1u;
    e->all = ORMA_GROUP_NULL;
    e->tgt = ORMA_GROUP_NULL;
    if (mode == SX_PSCW) {
        CHECK_OK(orma_win_get_group(win, &e->all));
        CHECK_OK(orma_group_incl(e->all, 1, &target, &e->tgt));
    }
}

static inline void sx_epoch_fini(struct sx_epoch *e)
{
    if (e->mode == SX_PSCW) {
        CHECK_OK(orma_group_free(&e->tgt));
        CHECK_OK(orma_group_free(&e->all));
    }
}

/* Open the next epoch.  Fence epochs are opened with and without the
 * barrier in turn: without it, operations to a target that has not opened
 * yet are queued and performed by the closing fence, concurrently with
 * the direct operations of the ranks that found it open. */
static inline void sx_begin(struct sx_epoch *e)
{
    unsigned n = e->n++;
    e->used = e->mode;
    if (e->mode == SX_MIXED) {
        static const int pick[3] = {SX_LOCK_EXCL, SX_LOCK_SHARED, SX_LOCK_ALL};
        e->used = pick[st_rand_below(&e->rng, 3)];
    }
    switch (e->used) {
    case SX_FENCE:
        CHECK_OK(orma_win_fence(n % 2 ? ORMA_MODE_NOPRECEDE : 0, e->win));
        break;
    case SX_PSCW:
        if (orma_rank() == e->target)
            CHECK_OK(orma_win_post(e->all, 0, e->win));
        CHECK_OK(orma_win_start(e->tgt, 0, e->win));
        break;
    case SX_LOCK_SHARED:
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, e->target, 0, e->win));
        break;
    case SX_LOCK_EXCL:
        CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, e->target, 0, e->win));
        break;
    default:
        CHECK_OK(orma_win_lock_all(0, e->win));
        break;
    }
    /* Every other active epoch starts from the start line, so that its
     * ranks run side by side; the others keep the skew, which queues
     * operations for targets that have not opened yet.  (Not in the lock
     * kinds: a rank holding an exclusive lock would wait there for ranks
     * that wait for the lock.) */
    if ((e->used == SX_FENCE || e->used == SX_PSCW) && n % 2 == 0)
        sx_start();
}

/* Complete the epoch's operations to the target mid-epoch: a flush in the
 * passive kinds, nothing in the active ones (results must wait for the
 * close there). */
static inline int sx_can_flush(const struct sx_epoch *e)
{
    return e->used != SX_FENCE && e->used != SX_PSCW;
}

static inline void sx_end(struct sx_epoch *e)
{
    switch (e->used) {
    case SX_FENCE:
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, e->win));
        break;
    case SX_PSCW:
        CHECK_OK(orma_win_complete(e->win));
        if (orma_rank() == e->target) {
            if (e->n % 3 == 2)
                st_test_until_done(e->win);
            else
                CHECK_OK(orma_win_wait(e->win));
        }
        break;
    case SX_LOCK_SHARED:
    case SX_LOCK_EXCL:
        CHECK_OK(orma_win_unlock(e->target, e->win));
        break;
    default:
        CHECK_OK(orma_win_unlock_all(e->win));
        break;
    }
}

/* Gather: each rank's int64 values land at root, rank r's at
 * buf[r * per_rank].  A window of its own, filled with put under fence,
 * so that the check does not depend on the operations under test. */
struct sx_gather {
    orma_win win;
    int64_t *buf;
    size_t per_rank;
};

static inline void sx_gather_open(struct sx_gather *g, size_t per_rank)
{
    g->per_rank = per_rank;
    CHECK_OK(orma_win_allocate((size_t)orma_size() * per_rank * sizeof(int64_t), (int)sizeof(int64_t),
                               ORMA_INFO_NULL, (void **)&g->buf, &g->win));
}

static inline void sx_gather_close(struct sx_gather *g)
{
    CHECK_OK(orma_win_free(&g->win));
}

/* Collective: mine[0, n) lands at buf[rank * per_rank], n <= per_rank. */
static inline void sx_gather(struct sx_gather *g, const int64_t *mine, size_t n, int root)
{
    CHECK(n <= g->per_rank);
    CHECK_OK(orma_win_fence(0, g->win));
    CHECK_OK(orma_put(mine, n, ORMA_INT64, root, (orma_aint)((size_t)orma_rank() * g->per_rank), n, ORMA_INT64,
                      g->win));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, g->win));
}

/* A failed value check: what, where and both values, then exit. */
#define SX_FAIL(...)                                                           \
    do {                                                                       \
        fprintf(stderr, "rank %d: %s:%d: ", check_rank(), __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                          \
        fputc('\n', stderr);                                                   \
        exit(1);                                                               \
    } while (0)

#endif
