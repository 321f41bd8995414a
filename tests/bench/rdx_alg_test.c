/* rdx_alg_test.c -- the rdx suite's algorithm (bench/rdx/rdx_alg.c) on a
 * backend of threads: li.h's calls done with memcpy, a barrier and a
 * rendezvous of posted receives, p threads as p ranks.  Independent of
 * the real backends, it runs the three versions at p = 1..6 on key counts
 * whose runs straddle many ranks, and requires:
 *   - every point verified and reported (one row per version and n that
 *     is a multiple of p; the others skipped with a note);
 *   - a backend that damages one key of one put, or of one message, makes
 *     the run fail, with no row for the damaged point.
 * The repetitions are li.c's (li_measure), with --reps 3. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "li.h"
#include "li_suites.h"
#include "rdx_def.h"

#define MAXP 6
#define MAXQ 8 /* receives posted from one sender before a waitall */

typedef struct post {
    void *dst;
    size_t n;
} post;

typedef struct world {
    int p;
    pthread_barrier_t bar;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    li_area *areas[MAXP];
    post q[MAXP][MAXP][MAXQ]; /* [from][to]: posted receives, in order */
    int posted[MAXP][MAXP], filled[MAXP][MAXP];
    double vals[MAXP];
    atomic_int damage;        /* puts or sends left before the damaged one */
    int rows, notes;          /* by rank 0 */
} world;

static world *W(li_lib *l)
{
    return l->impl;
}

static void bar(li_lib *l)
{
    pthread_barrier_wait(&W(l)->bar);
}

/* Keys only: damaged counts or records would derail the algorithm
 * itself (its routing trusts the counts), not test its check.  The last
 * byte is the high byte of a key. */
static void maybe_damage(li_lib *l, unsigned char *dst, size_t n)
{
    if (n != RDX_RADIX * sizeof(uint32_t) && n != sizeof(rdx_rec) &&
        atomic_fetch_sub(&W(l)->damage, 1) == 1)
        dst[n - 1] ^= 0x40;
}

static void area_open(li_lib *l, size_t bytes, li_area *a)
{
    a->base = calloc(bytes > 0 ? bytes : 1, 1);
    CHECK(a->base != NULL);
    a->bytes = bytes;
    W(l)->areas[l->pid] = a;
    bar(l);
}

static void area_close(li_lib *l, li_area *a)
{
    bar(l);
    free(a->base);
    bar(l);
}

static void put(li_lib *l, li_area *a, int pid, size_t off, const void *src,
                size_t n)
{
    li_area *t = W(l)->areas[pid];
    CHECK(a == W(l)->areas[l->pid] && pid != l->pid && off + n <= t->bytes);
    memcpy(t->base + off, src, n);
    maybe_damage(l, t->base + off, n);
}

static void get(li_lib *l, li_area *a, int pid, size_t off, void *dst,
                size_t n)
{
    (void)a;
    memcpy(dst, W(l)->areas[pid]->base + off, n);
}

static void p2p_irecv(li_lib *l, int pid, void *dst, size_t n)
{
    world *w = W(l);
    pthread_mutex_lock(&w->mu);
    int k = w->posted[pid][l->pid]++;
    CHECK(k < MAXQ && pid != l->pid && n > 0);
    w->q[pid][l->pid][k] = (post){dst, n};
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

/* Returns once the receiver has posted the matching receive and the data
 * is in it (a rendezvous). */
static void p2p_send(li_lib *l, int pid, const void *src, size_t n)
{
    world *w = W(l);
    pthread_mutex_lock(&w->mu);
    while (w->filled[l->pid][pid] == w->posted[l->pid][pid])
        pthread_cond_wait(&w->cv, &w->mu);
    post *r = &w->q[l->pid][pid][w->filled[l->pid][pid]];
    CHECK(r->n == n && pid != l->pid);
    memcpy(r->dst, src, n);
    maybe_damage(l, r->dst, n);
    w->filled[l->pid][pid]++;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

static void p2p_waitall(li_lib *l)
{
    world *w = W(l);
    pthread_mutex_lock(&w->mu);
    for (int s = 0; s < w->p; s++) {
        while (w->filled[s][l->pid] < w->posted[s][l->pid])
            pthread_cond_wait(&w->cv, &w->mu);
        w->filled[s][l->pid] = w->posted[s][l->pid] = 0;
    }
    pthread_mutex_unlock(&w->mu);
}

static void sync_area(li_lib *l, li_area *a)
{
    (void)a;
    bar(l);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double vmax(li_lib *l, double v)
{
    world *w = W(l);
    w->vals[l->pid] = v;
    bar(l);
    double m = w->vals[0];
    for (int q = 1; q < w->p; q++)
        m = w->vals[q] > m ? w->vals[q] : m;
    bar(l);
    return m;
}

static long bcast(li_lib *l, long v)
{
    return (long)vmax(l, l->pid == 0 ? (double)v : -1e300);
}

static int all_ok(li_lib *l, int ok)
{
    return vmax(l, ok ? 0.0 : 1.0) == 0.0;
}

static void emit(li_lib *l, const char *op, const char *sync,
                 const char *window, size_t bytes, double moved,
                 double *us, long n)
{
    (void)op, (void)sync, (void)window, (void)bytes, (void)moved, (void)us;
    CHECK(n == 3);
    if (l->pid == 0)
        W(l)->rows++;
}

static void note(li_lib *l, const char *msg)
{
    (void)msg;
    if (l->pid == 0)
        W(l)->notes++;
}

static void progress(li_lib *l, const char *what, size_t bytes)
{
    (void)l, (void)what, (void)bytes;
}

typedef struct rank_arg {
    li_lib l;
    int status;
} rank_arg;

static void *rank_main(void *arg)
{
    rank_arg *ra = arg;
    ra->status = li_rdx.run(&ra->l);
    return NULL;
}

/* The suite over p threads; returns the status (checked the same on every
 * rank) and the rows. */
static int run(int p, int two_sided, const bench_opts *o, int damage,
               int *rows_p, int *notes_p)
{
    static world w;
    memset(&w, 0, sizeof w);
    w.p = p;
    atomic_init(&w.damage, damage);
    CHECK(pthread_barrier_init(&w.bar, NULL, (unsigned)p) == 0);
    pthread_mutex_init(&w.mu, NULL);
    pthread_cond_init(&w.cv, NULL);
    rank_arg ra[MAXP];
    pthread_t th[MAXP];
    for (int q = 0; q < p; q++) {
        li_lib *l = &ra[q].l;
        memset(l, 0, sizeof *l);
        l->backend = two_sided ? "threads-p2p" : "threads";
        l->suite = "rdx";
        l->opts = o;
        l->pid = q;
        l->nprocs = p;
        l->two_sided = two_sided;
        l->impl = &w;
        if (two_sided) {
            l->irecv = p2p_irecv;
            l->send = p2p_send;
            l->waitall = p2p_waitall;
        } else {
            l->area_open = area_open;
            l->area_close = area_close;
            l->put = put;
            l->get = get;
            l->sync = sync_area;
        }
        l->barrier = bar;
        l->now = now;
        l->max = vmax;
        l->bcast = bcast;
        l->all_ok = all_ok;
        l->emit = emit;
        l->note = note;
        l->progress = progress;
        CHECK(pthread_create(&th[q], NULL, rank_main, &ra[q]) == 0);
    }
    for (int q = 0; q < p; q++)
        CHECK(pthread_join(th[q], NULL) == 0);
    for (int q = 1; q < p; q++)
        CHECK(ra[q].status == ra[0].status);
    pthread_barrier_destroy(&w.bar);
    *rows_p = w.rows;
    *notes_p = w.notes;
    return ra[0].status;
}

int main(void)
{
    /* Few keys per rank: most runs straddle ranks; 1: a key per rank. */
    static const size_t sizes[] = {1, 6, 60, 300, 7000, 24000};
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    bench_opts o;
    memset(&o, 0, sizeof o);
    o.sizes_given = 1;
    o.reps = 3;
    o.nsizes = nsizes;
    memcpy(o.sizes, sizes, sizeof sizes);
    for (int p = 1; p <= MAXP; p++)
        for (int two = 0; two < 2; two++) {
            int multiples = 0;
            for (int i = 0; i < nsizes; i++)
                multiples += sizes[i] % (size_t)p == 0;
            int rows, notes;
            CHECK(run(p, two, &o, 0, &rows, &notes) == BENCH_OK);
            CHECK(rows == multiples * (two ? 1 : 2));
            CHECK(notes == nsizes - multiples);
        }

    /* Damage: the third put or message of keys of the first point. */
    o.nsizes = 1;
    o.sizes[0] = 24000;
    for (int p = 2; p <= 4; p++)
        for (int two = 0; two < 2; two++) {
            int rows, notes;
            CHECK(run(p, two, &o, 3, &rows, &notes) ==
                  BENCH_FAIL);
            /* put: put_opt still runs and verifies. */
            CHECK(rows == (two ? 0 : 1));
        }
    return 0;
}
