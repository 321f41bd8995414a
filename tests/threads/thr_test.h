/* thr_test.h -- helpers of the thread tests: start-up that requires
 * ORMA_THREAD_MULTIPLE, teams of threads of one rank with a barrier, seeds
 * that name who wrote what, and the window layout the passive tests share.
 *
 * The tests never skip for lack of thread support: a rank that is given a
 * lower level than ORMA_THREAD_MULTIPLE fails, naming the level it got. */
#ifndef ORMA_THR_TEST_H
#define ORMA_THR_TEST_H

#include "sync_test.h"

#include <pthread.h>
#include <stdint.h>

/* orma_init_thread(ORMA_THREAD_MULTIPLE), and orma_query_thread agreeing. */
static inline void thr_init(int *rank_p, int *size_p)
{
    int provided = -1, queried = -1;
    CHECK_OK(orma_init_thread(ORMA_THREAD_MULTIPLE, &provided));
    if (provided != ORMA_THREAD_MULTIPLE) {
        fprintf(stderr, "rank %d: orma_init_thread(ORMA_THREAD_MULTIPLE) gave thread level %d: "
                "the thread tests need ORMA_THREAD_MULTIPLE (%d)\n",
                check_rank(), provided, ORMA_THREAD_MULTIPLE);
        exit(1);
    }
    CHECK_OK(orma_query_thread(&queried));
    CHECK(queried == ORMA_THREAD_MULTIPLE);
    *rank_p = orma_rank();
    *size_p = orma_size();
    CHECK(*size_p >= 1);
    CHECK(*rank_p >= 0 && *rank_p < *size_p);
}

/* A team of nthreads threads of this rank running fn(t, ctx) for t in
 * [0, nthreads), with a barrier they all share (thr_sync). */
struct thr_team {
    int nthreads;
    pthread_barrier_t bar;
    void (*fn)(struct thr_team *team, int t);
    void *ctx;
};

struct thr_start {
    struct thr_team *team;
    int t;
};

static inline void *thr_main(void *arg)
{
    struct thr_start *s = arg;
    s->team->fn(s->team, s->t);
    return NULL;
}

/* Every thread of the team waits here until all have come. */
static inline void thr_sync(struct thr_team *team)
{
    int rc = pthread_barrier_wait(&team->bar);
    CHECK(rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD);
}

/* Run the team to its end: every thread created, every thread joined. */
static inline void thr_run(int nthreads, void (*fn)(struct thr_team *, int), void *ctx)
{
    struct thr_team team = {.nthreads = nthreads, .fn = fn, .ctx = ctx};
    pthread_t *tid = malloc((size_t)nthreads * sizeof *tid);
    struct thr_start *st = malloc((size_t)nthreads * sizeof *st);
    CHECK(tid != NULL && st != NULL);
    CHECK(pthread_barrier_init(&team.bar, NULL, (unsigned)nthreads) == 0);
    for (int t = 0; t < nthreads; t++) {
        st[t] = (struct thr_start){&team, t};
        CHECK(pthread_create(&tid[t], NULL, thr_main, &st[t]) == 0);
    }
    for (int t = 0; t < nthreads; t++)
        CHECK(pthread_join(tid[t], NULL) == 0);
    CHECK(pthread_barrier_destroy(&team.bar) == 0);
    free(st);
    free(tid);
}

/* A data stream seed naming its writer and moment: phase, origin rank,
 * thread, iteration, target.  Distinct arguments give distinct seeds (as
 * long as each stays below 256), so a byte in the wrong place or of the
 * wrong iteration shows. */
static inline unsigned thr_seed(unsigned phase, int origin, int t, int iter, int target)
{
    return ((phase & 0xffu) << 24 | ((unsigned)origin & 0xffu) << 16 |
            ((unsigned)t & 0xffu) << 8 | ((unsigned)iter & 0xffu)) ^
           (unsigned)target * 0x9e3779b9u;
}

/* The layout of the passive tests' window at every rank, for nranks ranks
 * of nthreads threads each: a guard, one slice per (origin rank, thread)
 * with a guard gap after its data, then 64-bit cells, one per (origin
 * rank, thread), counters, and a guard at the end.  Slices and gaps start
 * as background (rt_bg); cells and counters as 0. */
#define THR_GUARD 64
#define THR_SLICE 48 /* data bytes of a slice */
#define THR_GAP 16   /* never written */

struct thr_layout {
    int nranks, nthreads;
    size_t slices;   /* offset of slice 0 */
    size_t cells;    /* offset of the int64 cells, one per (origin, thread) */
    size_t counters; /* offset of ncounters int64 counters */
    int ncounters;
    size_t tail;     /* offset of the final guard */
    size_t size;     /* bytes of the window */
};

static inline void thr_layout_make(struct thr_layout *l, int nranks, int nthreads, int ncounters)
{
    size_t nslices = (size_t)nranks * (size_t)nthreads;
    l->nranks = nranks;
    l->nthreads = nthreads;
    l->ncounters = ncounters;
    l->slices = THR_GUARD;
    l->cells = l->slices + nslices * (THR_SLICE + THR_GAP);
    l->counters = l->cells + nslices * sizeof(int64_t);
    l->tail = l->counters + (size_t)ncounters * sizeof(int64_t);
    l->size = l->tail + THR_GUARD;
}

/* Byte offset of the slice of thread t of rank origin. */
static inline size_t thr_slice(const struct thr_layout *l, int origin, int t)
{
    return l->slices + ((size_t)origin * (size_t)l->nthreads + (size_t)t) * (THR_SLICE + THR_GAP);
}

static inline size_t thr_cell(const struct thr_layout *l, int origin, int t)
{
    return l->cells + ((size_t)origin * (size_t)l->nthreads + (size_t)t) * sizeof(int64_t);
}

static inline size_t thr_counter(const struct thr_layout *l, int i)
{
    return l->counters + (size_t)i * sizeof(int64_t);
}

static inline void thr_layout_fill(const struct thr_layout *l, unsigned char *mem)
{
    rt_fill_bg(mem, l->cells);
    memset(mem + l->cells, 0, l->tail - l->cells);
    for (size_t i = l->tail; i < l->size; i++)
        mem[i] = rt_bg(i);
}

/* This rank's window memory after the test: every slice holds the stream
 * seed_of(origin, t) (a slice not written holds background), every gap and
 * guard its background; cells and counters are checked by the caller. */
static inline void thr_layout_expect(const struct thr_layout *l, const unsigned char *mem,
                                     unsigned (*seed_of)(int origin, int t), const char *what)
{
    RT_EXPECT_BG(mem, 0, l->slices, what);
    for (int o = 0; o < l->nranks; o++)
        for (int t = 0; t < l->nthreads; t++) {
            size_t at = thr_slice(l, o, t);
            RT_EXPECT_DATA(mem, at, THR_SLICE, seed_of(o, t), at, what);
            RT_EXPECT_BG(mem, at + THR_SLICE, at + THR_SLICE + THR_GAP, what);
        }
    RT_EXPECT_BG(mem, l->tail, l->size, what);
}

/* An int64 of the window at byte offset off. */
static inline int64_t thr_i64(const unsigned char *mem, size_t off)
{
    int64_t v;
    memcpy(&v, mem + off, sizeof v);
    return v;
}

#define THR_EXPECT_I64(got, want, what)                                        \
    do {                                                                       \
        long long thr_g_ = (long long)(got), thr_w_ = (long long)(want);       \
        if (thr_g_ != thr_w_) {                                                \
            fprintf(stderr, "rank %d: %s:%d: %s is %lld, expected %lld\n",     \
                    check_rank(), __FILE__, __LINE__, (what), thr_g_, thr_w_); \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

#endif
