/* dyn_pairs.c -- seed 000's Figure 1 for one-sided communication: put and
 * get latency and bandwidth between two ranks of a static, a spawned and a
 * connected team (dyn.h).
 *
 * The kinds take turns batch by batch, in an order that rotates every
 * round, so that the machine's moods fall on all of them alike: the origin
 * meets the partner of the kind whose turn it is in a barrier of their
 * pair, times a batch of operations, and meets it again; the other
 * partners wait in their own pair's barrier meanwhile.  Four processes
 * share two cores, and left alone the scheduler kept one kind's partner on
 * the origin's core for whole runs (a context switch at every fence: 5
 * against 0.4 us at 16 KB, whichever kind it picked), so the origin is
 * pinned to one CPU and every partner to another, as the latency suite
 * pins its two ranks (common/bind.h).  Before each batch the origin lets the others settle
 * (DYN_SETTLE_US, longer than a waiter yields before it sleeps): a partner
 * that has just finished its batch and still yields its core would
 * otherwise slow down the next kind's batch, and always the same kind.
 * Then two barriers: the first wakes the partner, the second starts the
 * batch with both awake.  Every batch's data
 * is checked: the partner checks what the puts left in its window, the
 * origin what the gets read. */
#include "dyn.h"

#include "bind.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const dyn_kind_names[DYN_KINDS] = {"static", "spawned", "connected"};
const char *const dyn_op_names[DYN_NOPS] = {"put", "get", "put"};
const char *const dyn_op_syncs[DYN_NOPS] = {"flush", "flush", "fence"};

double dyn_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

void dyn_plan_format(const dyn_plan *p, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->nsizes && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%zu", i ? "," : "", p->sizes[i]);
}

int dyn_plan_parse(dyn_plan *p, const char *sizes, const char *rounds)
{
    memset(p, 0, sizeof *p);
    p->rounds = atoi(rounds);
    for (const char *s = sizes; *s && p->nsizes < DYN_MAX_SIZES;) {
        char *end;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || v == 0 || v > DYN_MAX_BYTES)
            return -1;
        p->sizes[p->nsizes++] = (size_t)v;
        s = *end == ',' ? end + 1 : end;
    }
    return p->nsizes > 0 && p->rounds > 0 ? 0 : -1;
}

long dyn_batch_ops(size_t bytes)
{
    long n = (long)((size_t)32 << 20) / (long)bytes; /* about 32 MB a batch: 0.4 to 3 ms here */
    return n < 8 ? 8 : n > 20000 ? 20000 : n;
}

static unsigned char dyn_byte(size_t i, int round) { return (unsigned char)((i * 131 + (size_t)round * 17) % 251); }

/* Where in its region of the window round r's transfers of bytes go:
 * each round a next slot of that size, so that which of the window's
 * pages share cache sets with the origin's buffer (fixed for a run, and
 * at 256 KB, half the L2 cache here, worth +-10% to a kind's whole
 * series) changes from round to round and averages out alike for every
 * kind. */
static size_t dyn_offset(size_t bytes, int round) { return (size_t)round % (DYN_MAX_BYTES / bytes) * bytes; }

struct dyn_side {
    orma_team pair;
    orma_win win;
    unsigned char *mem; /* the window: [0, MAX) put into, [MAX, 2 MAX) read by gets */
    unsigned char *buf; /* the origin's, one for every kind (NULL at a partner) */
};

static int dyn_side_open(orma_team pair, unsigned char *buf, struct dyn_side *s)
{
    memset(s, 0, sizeof *s);
    s->pair = pair;
    s->buf = buf;
    int rc = orma_win_allocate_team(pair, 2 * DYN_MAX_BYTES, 1, ORMA_INFO_NULL, (void **)&s->mem, &s->win);
    if (rc) {
        fprintf(stderr, "orma-bench: dynamic: a window on the pair: %s\n", orma_error_message());
        return -1;
    }
    for (size_t i = 0; i < DYN_MAX_BYTES; i++)
        s->mem[DYN_MAX_BYTES + i] = dyn_byte(i, 7);
    return orma_team_barrier(pair) ? -1 : 0;
}

static void dyn_side_close(struct dyn_side *s)
{
    if (s->win != ORMA_WIN_NULL)
        orma_win_free(&s->win);
}

/* The partner's check of a put batch, and the origin's of a get batch. */
static int dyn_verify(const unsigned char *got, size_t from, size_t bytes, int round, const char *what)
{
    for (size_t i = 0; i < bytes; i++)
        if (got[i] != dyn_byte(from + i, round)) {
            fprintf(stderr, "orma-bench: dynamic: %s of %zu bytes: byte %zu is %u, not %u\n", what, bytes, i,
                    got[i], dyn_byte(from + i, round));
            return -1;
        }
    return 0;
}

/* One batch at the origin: ops operations, time per operation (us). */
static int dyn_batch(struct dyn_side *s, int op, size_t bytes, long ops, int round, double *us)
{
    int rc = 0;
    size_t off = dyn_offset(bytes, round);
    if (op != DYN_GET_FLUSH)
        for (size_t i = 0; i < bytes; i++)
            s->buf[i] = dyn_byte(i, round);
    if (op != DYN_PUT_FENCE)
        rc |= orma_win_lock_all(0, s->win);
    else
        rc |= orma_win_fence(0, s->win);
    double t0 = dyn_now_us();
    for (long k = 0; k < ops && !rc; k++) {
        switch (op) {
        case DYN_PUT_FLUSH:
            rc |= orma_put(s->buf, bytes, ORMA_BYTE, 1, (orma_aint)off, bytes, ORMA_BYTE, s->win);
            rc |= orma_win_flush(1, s->win);
            break;
        case DYN_GET_FLUSH:
            rc |= orma_get(s->buf, bytes, ORMA_BYTE, 1, (orma_aint)(DYN_MAX_BYTES + off), bytes, ORMA_BYTE, s->win);
            rc |= orma_win_flush(1, s->win);
            break;
        case DYN_PUT_FENCE:
            rc |= orma_put(s->buf, bytes, ORMA_BYTE, 1, (orma_aint)off, bytes, ORMA_BYTE, s->win);
            rc |= orma_win_fence(0, s->win);
            break;
        }
    }
    *us = (dyn_now_us() - t0) / (double)ops;
    if (op != DYN_PUT_FENCE)
        rc |= orma_win_unlock_all(s->win);
    else
        rc |= orma_win_fence(0, s->win);
    if (rc) {
        fprintf(stderr, "orma-bench: dynamic: %s (%s): %s\n", dyn_op_names[op], dyn_op_syncs[op],
                orma_error_message());
        return -1;
    }
    if (op == DYN_GET_FLUSH) {
        /* the target's get region holds dyn_byte(i, 7) at i */
        for (size_t i = 0; i < bytes; i++)
            if (s->buf[i] != dyn_byte(off + i, 7))
                return dyn_verify(s->buf, off, bytes, 7, "get");
    }
    return 0;
}

/* The partner's side of one batch: the fences of a fence batch (a
 * passive batch needs nothing of it). */
static int dyn_follow(struct dyn_side *s, int op, long ops)
{
    int rc = 0;
    if (op == DYN_PUT_FENCE) {
        rc |= orma_win_fence(0, s->win);
        for (long k = 0; k < ops; k++)
            rc |= orma_win_fence(0, s->win);
        rc |= orma_win_fence(0, s->win);
    }
    return rc ? -1 : 0;
}

static int dyn_side_barrier(struct dyn_side *s) { return orma_team_barrier(s->pair) ? -1 : 0; }

/* The partner's verdict on the puts, at the end: a word of its window. */
static int dyn_verdict(struct dyn_side *s, int origin, int bad)
{
    int32_t v = bad;
    int rc = 0;
    if (!origin)
        memcpy(s->mem, &v, sizeof v);
    rc |= dyn_side_barrier(s);
    if (origin) {
        rc |= orma_win_lock_all(0, s->win);
        rc |= orma_get(&v, sizeof v, ORMA_BYTE, 1, 0, sizeof v, ORMA_BYTE, s->win);
        rc |= orma_win_unlock_all(s->win);
    }
    rc |= dyn_side_barrier(s);
    return rc || v ? -1 : 0;
}

#define DYN_SETTLE_US 3000

static void dyn_settle(void)
{
    struct timespec ts = {0, DYN_SETTLE_US * 1000L};
    nanosleep(&ts, NULL);
}

/* The kind whose turn is t of round r: the order rotates. */
static int dyn_turn(int r, int t) { return (r + t) % DYN_KINDS; }

/* One batch of the schedule (op at size p->sizes[z], round r, kind k):
 * 0, or -1 to stop. */
typedef int (*dyn_batch_fn)(void *ctx, const dyn_plan *p, int op, int z, int r, int k);

/* Every batch of the schedule in its order -- both sides walk it alike;
 * -1 at the first that fails. */
static int dyn_schedule(const dyn_plan *p, dyn_batch_fn fn, void *ctx)
{
    for (int op = 0; op < DYN_NOPS; op++)
        for (int z = 0; z < p->nsizes; z++)
            for (int r = 0; r < p->rounds; r++)
                for (int t = 0; t < DYN_KINDS; t++)
                    if (fn(ctx, p, op, z, r, dyn_turn(r, t)))
                        return -1;
    return 0;
}

struct dyn_origin {
    const orma_team *pair;
    struct dyn_side *side;
    double *samples;
};

static int dyn_origin_batch(void *ctx, const dyn_plan *p, int op, int z, int r, int k)
{
    struct dyn_origin *o = ctx;
    if (o->pair[k] == ORMA_TEAM_NULL)
        return 0;
    double us = 0;
    int st = 0;
    dyn_settle();
    st |= orma_team_barrier(o->pair[k]) ? -1 : 0;
    st |= orma_team_barrier(o->pair[k]) ? -1 : 0;
    st |= dyn_batch(&o->side[k], op, p->sizes[z], dyn_batch_ops(p->sizes[z]), r, &us);
    st |= orma_team_barrier(o->pair[k]) ? -1 : 0;
    o->samples[dyn_sample_at(p, op, z, k, r)] = us;
    st |= orma_team_barrier(o->pair[k]) ? -1 : 0; /* the partner has checked the puts */
    return st;
}

int dyn_pairs_origin(const dyn_plan *p, const orma_team pair[DYN_KINDS], double *samples)
{
    struct dyn_side side[DYN_KINDS];
    unsigned char *buf = malloc(DYN_MAX_BYTES);
    int st = buf ? 0 : -1;
    if (!buf)
        fprintf(stderr, "orma-bench: dynamic: out of memory\n");
    /* bound before the windows are made: orma then knows that the ranks
     * were placed (util_wait_tune_joined) */
    cpu_set_t saved;
    (void)bench_bind_rank(0, &saved);
    for (int k = 0; k < DYN_KINDS; k++) {
        memset(&side[k], 0, sizeof side[k]);
        side[k].win = ORMA_WIN_NULL;
        if (pair[k] != ORMA_TEAM_NULL && dyn_side_open(pair[k], buf, &side[k]))
            st = -1;
    }
    struct dyn_origin o = {pair, side, samples};
    if (!st)
        st = dyn_schedule(p, dyn_origin_batch, &o);
    bench_bind_restore(&saved);
    for (int k = 0; k < DYN_KINDS; k++)
        if (pair[k] != ORMA_TEAM_NULL) {
            if (!st && dyn_verdict(&side[k], 1, 0)) {
                fprintf(stderr, "orma-bench: dynamic: the %s partner found wrong data\n", dyn_kind_names[k]);
                st = -1;
            }
            dyn_side_close(&side[k]);
        }
    free(buf);
    return st;
}

struct dyn_partner {
    orma_team pair;
    int kind;
    struct dyn_side *side;
    int bad; /* a wrong byte does not stop the schedule (the origin would
                wait for this rank): it is the verdict at the end */
};

static int dyn_partner_batch(void *ctx, const dyn_plan *p, int op, int z, int r, int k)
{
    struct dyn_partner *q = ctx;
    if (k != q->kind)
        return 0;
    int st = 0;
    st |= orma_team_barrier(q->pair) ? -1 : 0;
    st |= orma_team_barrier(q->pair) ? -1 : 0;
    st |= dyn_follow(q->side, op, dyn_batch_ops(p->sizes[z]));
    st |= orma_team_barrier(q->pair) ? -1 : 0;
    if (op != DYN_GET_FLUSH) {
        orma_win_sync(q->side->win);
        size_t off = dyn_offset(p->sizes[z], r);
        q->bad |= dyn_verify(q->side->mem + off, 0, p->sizes[z], r, dyn_op_names[op]) != 0;
    }
    st |= orma_team_barrier(q->pair) ? -1 : 0;
    return st;
}

int dyn_pairs_partner(const dyn_plan *p, orma_team pair, int kind)
{
    struct dyn_side side;
    cpu_set_t saved;
    (void)bench_bind_rank(1, &saved); /* before the window, as the origin */
    if (dyn_side_open(pair, NULL, &side)) {
        bench_bind_restore(&saved);
        return -1;
    }
    struct dyn_partner q = {pair, kind, &side, 0};
    int st = dyn_schedule(p, dyn_partner_batch, &q);
    bench_bind_restore(&saved);
    if (!st)
        st = dyn_verdict(&side, 0, q.bad);
    dyn_side_close(&side);
    return st || q.bad ? -1 : 0;
}

int dyn_pair_split(orma_team merged, int other, orma_team *pair_p)
{
    int me;
    int rc = orma_team_rank(merged, &me);
    if (!rc)
        rc = orma_team_split(merged, me == 0 || me == other ? 0 : ORMA_UNDEFINED, me == 0 ? 0 : 1, pair_p);
    if (rc)
        fprintf(stderr, "orma-bench: dynamic: splitting a pair off the merged team: %s\n", orma_error_message());
    return rc ? -1 : 0;
}

int dyn_beside(const char *name, char *path, size_t len)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return snprintf(path, len, "%s/%s", self, name) < (int)len && access(path, X_OK) == 0 ? 0 : -1;
}
