/* mt_run.c -- the mt suite's runner (mt.h): a pool of threads that take
 * batches of operations together, the schedule of the rounds, and the
 * checks of every value returned.  No orma and no MPI here: both programs
 * link it, so that orma and the host MPIs are measured by the same loop. */
#include "mt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stats.h"

const char *const mt_op_names[MT_NOPS] = {"put", "get", "fop"};
const char *const mt_mode_names[MT_NMODES] = {"sep", "shared"};

double mt_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One batch, as every thread of it sees it. */
struct mt_batch {
    const mt_calls *c;
    mt_expect *e;
    int op, mode, nthreads;
    long ops;
    double cap_s;
    pthread_barrier_t *start; /* nthreads */
    /* per thread: the clock when it began and ended, its operations, and
     * whether everything it did verified */
    double t0[MT_MAX_THREADS], t1[MT_MAX_THREADS];
    long done[MT_MAX_THREADS];
    int bad[MT_MAX_THREADS];
};

/* Thread t's share of a batch: the timed loop, every value checked inside
 * it (a compare costs a nanosecond beside a call that costs a hundred).
 * The clock is read after each of the first 16 operations and then every
 * 16, so that a slow backend's batch (MPICH's passive operations, a
 * millisecond each here) stops near cap_s and a fast one's loop stays
 * all calls. */
static void mt_share(struct mt_batch *b, int t)
{
    const mt_calls *c = b->c;
    /* the expected values in this thread's own locals during the loop:
     * the threads' entries of e share cache lines, and a store to them at
     * every operation moved a line between the cores at every operation
     * (2 threads' put+flush ran at 0.76 of 1 thread's) */
    uint64_t *put_out = &b->e->put[b->mode][t], *count_out = &b->e->count[b->mode][t];
    uint64_t put_v = *put_out, count_v = *count_out, *put = &put_v, *count = &count_v;
    int bad = b->mode == MT_SEP && c->epoch(c->arg, MT_SEP, t, 1) ? 1 : 0;
    pthread_barrier_wait(b->start);
    double t0 = mt_now_s(), end = t0 + b->cap_s;
    long i = 0;
    for (; i < b->ops && !bad; i++) {
        uint64_t v = 0;
        switch (b->op) {
        case MT_PUT:
            bad = c->put(c->arg, b->mode, t, *put + 1);
            if (!bad)
                ++*put;
            break;
        case MT_GET:
            bad = c->get(c->arg, b->mode, t, &v);
            if (!bad && v != *put) {
                fprintf(stderr, "mt: %s %s thread %d: get %ld returned %llu, the last value put was %llu\n",
                        mt_mode_names[b->mode], mt_op_names[b->op], t, i, (unsigned long long)v,
                        (unsigned long long)*put);
                bad = 1;
            }
            break;
        default:
            bad = c->fop(c->arg, b->mode, t, &v);
            if (!bad && v != *count) {
                fprintf(stderr, "mt: %s fop thread %d: fetch_and_op %ld returned %llu, the counter was %llu\n",
                        mt_mode_names[b->mode], t, i, (unsigned long long)v, (unsigned long long)*count);
                bad = 1;
            }
            if (!bad)
                ++*count;
            break;
        }
        if ((i < 16 || (i & 15) == 15) && mt_now_s() > end) {
            i++;
            break;
        }
    }
    b->t1[t] = mt_now_s();
    *put_out = put_v;
    *count_out = count_v;
    b->t0[t] = t0;
    b->done[t] = i;
    if (b->mode == MT_SEP && c->epoch(c->arg, MT_SEP, t, 0))
        bad = 1;
    b->bad[t] = bad;
}

/* The pool: threads 1..MT_MAX_THREADS-1 (thread 0 is the caller), each
 * asleep on a condition of its own between batches, so that the threads a
 * batch does not use neither wake nor take a core. */
struct mt_pool {
    pthread_mutex_t mu;
    pthread_cond_t go[MT_MAX_THREADS], idle;
    pthread_t th[MT_MAX_THREADS];
    unsigned long gen[MT_MAX_THREADS]; /* batches handed to each thread */
    int busy;                          /* threads still in this batch */
    int quit;
    struct mt_batch *b;
};

struct mt_worker {
    struct mt_pool *pool;
    int t;
};

static void *mt_worker_main(void *arg)
{
    struct mt_worker *w = arg;
    struct mt_pool *pool = w->pool;
    unsigned long seen = 0;
    for (;;) {
        pthread_mutex_lock(&pool->mu);
        while (pool->gen[w->t] == seen && !pool->quit)
            pthread_cond_wait(&pool->go[w->t], &pool->mu);
        seen = pool->gen[w->t];
        struct mt_batch *b = pool->b;
        int quit = pool->quit;
        pthread_mutex_unlock(&pool->mu);
        if (quit)
            return NULL;
        mt_share(b, w->t);
        pthread_mutex_lock(&pool->mu);
        if (--pool->busy == 0)
            pthread_cond_signal(&pool->idle);
        pthread_mutex_unlock(&pool->mu);
    }
}

/* One batch on b->nthreads threads: microseconds per operation, or -1. */
static double mt_batch_run(struct mt_pool *pool, struct mt_batch *b)
{
    const mt_calls *c = b->c;
    if (b->mode == MT_SHARED && c->epoch(c->arg, MT_SHARED, -1, 1))
        return -1;
    memset(b->bad, 0, sizeof b->bad);
    pthread_mutex_lock(&pool->mu);
    pool->b = b;
    pool->busy = b->nthreads - 1;
    for (int t = 1; t < b->nthreads; t++) {
        pool->gen[t]++;
        pthread_cond_signal(&pool->go[t]);
    }
    pthread_mutex_unlock(&pool->mu);
    mt_share(b, 0);
    pthread_mutex_lock(&pool->mu);
    while (pool->busy > 0)
        pthread_cond_wait(&pool->idle, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
    int bad = b->mode == MT_SHARED && c->epoch(c->arg, MT_SHARED, -1, 0);
    double first = b->t0[0], last = b->t1[0];
    long total = 0;
    for (int t = 0; t < b->nthreads; t++) {
        bad |= b->bad[t];
        first = b->t0[t] < first ? b->t0[t] : first;
        last = b->t1[t] > last ? b->t1[t] : last;
        total += b->done[t];
    }
    if (bad || total == 0)
        return -1;
    return (last - first) * 1e6 / (double)total;
}

int mt_origin(const mt_plan *p, const mt_calls *c, int max_threads, double *samples, mt_expect *e)
{
    memset(e, 0, sizeof *e);
    int most = 1;
    for (int i = 0; i < p->nthreads; i++)
        if (p->threads[i] <= max_threads && p->threads[i] > most)
            most = p->threads[i];
    struct mt_pool pool = {.mu = PTHREAD_MUTEX_INITIALIZER, .idle = PTHREAD_COND_INITIALIZER};
    for (int t = 0; t < MT_MAX_THREADS; t++)
        pthread_cond_init(&pool.go[t], NULL);
    struct mt_worker w[MT_MAX_THREADS];
    pthread_barrier_t start[MT_MAX_THREADS];
    int st = 0, made = 1;
    for (int i = 0; i < p->nthreads; i++)
        pthread_barrier_init(&start[i], NULL, (unsigned)p->threads[i]);
    for (; made < most && !st; made++) {
        w[made] = (struct mt_worker){&pool, made};
        if (pthread_create(&pool.th[made], NULL, mt_worker_main, &w[made]) != 0) {
            fprintf(stderr, "mt: cannot start thread %d\n", made);
            st = -1;
            break;
        }
    }
    /* Round -1 warms up: the windows' first touch, the threads' first
     * calls. */
    int stop = 0;
    for (int r = -1; r < p->rounds && !stop; r++)
        for (int op = 0; op < MT_NOPS && !stop; op++)
            for (int mode = 0; mode < MT_NMODES && !stop; mode++) {
                if (!p->ops[op] || !p->modes[mode])
                    continue;
                for (int k = 0; k < p->nthreads && !stop; k++) {
                    int ti = (k + (r < 0 ? 0 : r)) % p->nthreads;
                    if (c->turn && c->turn(c->turn_arg, r, 0)) {
                        stop = 1;
                        break;
                    }
                    struct mt_batch b = {.c = c, .e = e, .op = op, .mode = mode, .nthreads = p->threads[ti],
                                         .ops = p->batch_ops, .cap_s = p->batch_s, .start = &start[ti]};
                    double us = st || p->threads[ti] > max_threads || p->threads[ti] > made
                                    ? 0
                                    : mt_batch_run(&pool, &b);
                    if (us < 0) {
                        fprintf(stderr, "mt: %s %s with %d thread%s: a call failed or a value did not verify\n",
                                mt_op_names[op], mt_mode_names[mode], b.nthreads, b.nthreads > 1 ? "s" : "");
                        st = -1;
                    } else if (r >= 0 && us > 0) {
                        samples[mt_at(p, op, mode, ti, r)] = us;
                    }
                    if (c->turn && c->turn(c->turn_arg, r, 1))
                        stop = 1;
                }
            }
    if (stop)
        st = -1;
    pthread_mutex_lock(&pool.mu);
    pool.quit = 1;
    for (int t = 1; t < made; t++)
        pthread_cond_signal(&pool.go[t]);
    pthread_mutex_unlock(&pool.mu);
    for (int t = 1; t < made; t++)
        pthread_join(pool.th[t], NULL);
    for (int i = 0; i < p->nthreads; i++)
        pthread_barrier_destroy(&start[i]);
    return st;
}

int mt_check_slot(const mt_expect *e, int mode, int t, const volatile uint64_t *slot, const char *who)
{
    uint64_t v = slot[0], n = slot[1];
    int st = 0;
    if (v != e->put[mode][t]) {
        fprintf(stderr, "mt: %s: %s window, thread %d: the target holds %llu, the last value put was %llu\n", who,
                mt_mode_names[mode], t, (unsigned long long)v, (unsigned long long)e->put[mode][t]);
        st = -1;
    }
    if (n != e->count[mode][t]) {
        fprintf(stderr, "mt: %s: %s window, thread %d: the counter is %llu after %llu fetch_and_op of 1\n", who,
                mt_mode_names[mode], t, (unsigned long long)n, (unsigned long long)e->count[mode][t]);
        st = -1;
    }
    return st;
}

void mt_stats(const double *v, const double *over, int n, double *mn, double *med, double *mx)
{
    double copy[MT_MAX_ROUNDS];
    if (n > MT_MAX_ROUNDS)
        n = MT_MAX_ROUNDS;
    for (int i = 0; i < n; i++)
        copy[i] = over ? v[i] / over[i] : v[i];
    bench_stats s;
    bench_stats_compute(copy, n, &s);
    *mn = s.min;
    *med = s.median;
    *mx = s.max;
}

void mt_print_samples(const mt_plan *p, const double *samples)
{
    for (int op = 0; op < MT_NOPS; op++)
        for (int mode = 0; mode < MT_NMODES; mode++)
            for (int ti = 0; ti < p->nthreads; ti++)
                for (int r = 0; r < p->rounds; r++) {
                    double us = samples[mt_at(p, op, mode, ti, r)];
                    if (us > 0)
                        printf("sample %s %s %d %d %.6f\n", mt_op_names[op], mt_mode_names[mode], p->threads[ti], r,
                               us);
                }
    fflush(stdout);
}

static int mt_find(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

int mt_read_sample(const mt_plan *p, const char *line, double *samples)
{
    char op[16], mode[16];
    int t, r, ti = -1;
    double us;
    if (sscanf(line, "sample %15s %15s %d %d %lf", op, mode, &t, &r, &us) != 5)
        return 0;
    for (int i = 0; i < p->nthreads; i++)
        ti = p->threads[i] == t ? i : ti;
    int o = mt_find(mt_op_names, MT_NOPS, op), m = mt_find(mt_mode_names, MT_NMODES, mode);
    if (o < 0 || m < 0 || ti < 0 || r < 0 || r >= p->rounds || !(us > 0))
        return 0;
    samples[mt_at(p, o, m, ti, r)] = us;
    return 1;
}

void mt_plan_format(const mt_plan *p, char out[6][64])
{
    size_t n = 0;
    out[0][0] = out[1][0] = out[2][0] = '\0';
    for (int i = 0; i < p->nthreads; i++)
        n += (size_t)snprintf(out[0] + n, 64 - n, "%s%d", i ? "," : "", p->threads[i]);
    for (int op = 0; op < MT_NOPS; op++)
        if (p->ops[op])
            snprintf(out[1] + strlen(out[1]), 64 - strlen(out[1]), "%s%s", *out[1] ? "," : "", mt_op_names[op]);
    for (int m = 0; m < MT_NMODES; m++)
        if (p->modes[m])
            snprintf(out[2] + strlen(out[2]), 64 - strlen(out[2]), "%s%s", *out[2] ? "," : "", mt_mode_names[m]);
    snprintf(out[3], 64, "%ld", p->batch_ops);
    snprintf(out[4], 64, "%.0f", p->batch_s * 1e6);
    snprintf(out[5], 64, "%d", p->rounds);
}

/* 1 when name is an element of the comma list. */
static int mt_in(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *s = list; s && *s;) {
        size_t len = strcspn(s, ",");
        if (len == n && !strncmp(s, name, n))
            return 1;
        s += len + (s[len] == ',');
    }
    return 0;
}

int mt_plan_parse(mt_plan *p, char *const args[6])
{
    memset(p, 0, sizeof *p);
    for (const char *s = args[0]; *s && p->nthreads < MT_MAX_THREADS;) {
        char *end;
        long t = strtol(s, &end, 10);
        if (end == s || t < 1 || t > MT_MAX_THREADS || (*end && *end != ','))
            return -1;
        p->threads[p->nthreads++] = (int)t;
        s = *end ? end + 1 : end;
    }
    for (int op = 0; op < MT_NOPS; op++)
        p->ops[op] = mt_in(args[1], mt_op_names[op]);
    for (int m = 0; m < MT_NMODES; m++)
        p->modes[m] = mt_in(args[2], mt_mode_names[m]);
    p->batch_ops = atol(args[3]);
    p->batch_s = atof(args[4]) * 1e-6;
    p->rounds = atoi(args[5]);
    return p->nthreads > 0 && p->batch_ops > 0 && p->batch_s > 0 && p->rounds > 0 && p->rounds <= MT_MAX_ROUNDS
               ? 0
               : -1;
}
