/* rdx_alg.c -- the rdx suite written once against li.h (seed 003 section
 * 5): the parallel radix sort of rdx_def.h in three versions, on whatever
 * backend runs it.
 *
 *   put      RDXSORT (Fig. 9).  A round: the local count sort; this
 *            rank's 256 counts put into row pid of every rank's count
 *            table; sync; the prefix G (rdx_def.h); for d = 0 .. 255 the
 *            run of digit d put to its destination, one put per rank the
 *            run lands on; sync.
 *   put_opt  RDXSORTOPT (Fig. 10): the same, but rank pid routes digits
 *            pid * 256 / p, ..., 255, 0, ..., pid * 256 / p - 1, so that
 *            the ranks do not all start at the same destination.  The
 *            seed's artificial delay after the routing is left out: it
 *            spread requests out for a cluster's network interfaces, and
 *            here it would only add its own length to the time.
 *   send     two-sided (the backends with l->two_sided): the counts of
 *            every rank by irecv/send, then one message per destination:
 *            the keys a rank sends to one rank are contiguous after its
 *            local count sort (rdx_def.h), and the receiver, knowing every
 *            rank's counts, places each digit's piece of the message
 *            (rdx_unpack).
 *
 * One area per point holds the count table (p rows of 256 uint32), the
 * check's records (p) and this rank's m keys -- each round's destination.
 * No second key buffer is needed: every rank has copied its keys out into
 * its local count sort before it puts its counts, so once the counts' sync
 * returns nobody reads the keys any more and they may be overwritten; and
 * the next round's counts are put after the keys' sync, when everyone has
 * computed its prefix from the table.  Keys and counts for this rank
 * itself are copied, not put (as a send version copies rather than sends
 * to itself).
 *
 * One sample is a whole sort: the input regenerated (untimed), a barrier,
 * the 4 rounds timed; then the check (untimed): every rank's record
 * (rdx_rec) to every rank, rdx_check on each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "li.h"
#include "li_suites.h"
#include "rdx_def.h"

typedef struct rdx_state {
    li_lib *l;
    int p, pid;
    size_t n, m;
    rdx_version v;
    li_area a;           /* one-sided: table | recs | keys */
    size_t keys_off;     /* of keys in the area */
    uint32_t *table;     /* p rows of RDX_RADIX counts */
    rdx_rec *recs;       /* p */
    uint32_t *keys;      /* this rank's m keys: input, each round's output */
    uint32_t *local;     /* the local count sort's output: what is routed */
    uint32_t *recv;      /* send: the messages of a round, m keys */
    uint64_t *g;         /* G: this rank's row (put), every row (send) */
    size_t *sendc, *recvc; /* send: keys to / from each rank */
    uint32_t cnt[RDX_RADIX];
    size_t start[RDX_RADIX];
    uint64_t sample;     /* samples of this point so far: the seeds */
    uint64_t in_hash;    /* of this sample's input here */
} rdx_state;

/* The run of digit d to wherever it goes. */
static void route(rdx_state *s, int d)
{
    li_lib *l = s->l;
    const uint32_t *src = s->local + s->start[d];
    uint64_t at = s->g[d];
    size_t left = s->cnt[d];
    while (left > 0) {
        rdx_piece pc = rdx_piece_at(at, left, s->m);
        if (pc.pid == s->pid)
            memcpy(s->keys + pc.off, src, pc.len * sizeof *src);
        else
            l->put(l, &s->a, pc.pid, s->keys_off + pc.off * sizeof *src, src,
                   pc.len * sizeof *src);
        src += pc.len;
        at += pc.len;
        left -= pc.len;
    }
}

static void round_put(rdx_state *s, int r, int opt)
{
    li_lib *l = s->l;
    rdx_count(s->keys, s->m, r, s->cnt);
    rdx_scatter(s->keys, s->m, r, s->cnt, s->local);
    size_t row = (size_t)s->pid * RDX_RADIX;
    for (int q = 0; q < s->p; q++)
        if (q == s->pid)
            memcpy(s->table + row, s->cnt, sizeof s->cnt);
        else
            l->put(l, &s->a, q, row * sizeof *s->table, s->cnt,
                   sizeof s->cnt);
    l->sync(l, &s->a);
    rdx_prefix(s->table, s->p, s->pid, s->g);
    rdx_starts(s->cnt, s->start);
    int first = opt ? s->pid * RDX_RADIX / s->p : 0;
    for (int k = 0; k < RDX_RADIX; k++)
        route(s, (first + k) % RDX_RADIX);
    l->sync(l, &s->a);
}

/* Receives are posted before sends and waited for after them (li.h's
 * order); a message of no keys is neither sent nor received, which both
 * sides know from the same table. */
static void round_send(rdx_state *s, int r)
{
    li_lib *l = s->l;
    int p = s->p, me = s->pid;
    rdx_count(s->keys, s->m, r, s->cnt);
    rdx_scatter(s->keys, s->m, r, s->cnt, s->local);
    memcpy(s->table + (size_t)me * RDX_RADIX, s->cnt, sizeof s->cnt);
    for (int q = 0; q < p; q++)
        if (q != me)
            l->irecv(l, q, s->table + (size_t)q * RDX_RADIX, sizeof s->cnt);
    for (int q = 0; q < p; q++)
        if (q != me)
            l->send(l, q, s->cnt, sizeof s->cnt);
    l->waitall(l);

    rdx_prefix_all(s->table, p, s->g);
    const uint64_t *mine = s->g + (size_t)me * RDX_RADIX;
    rdx_send_counts(mine, s->cnt, p, s->m, s->sendc);
    size_t off = 0;
    for (int q = 0; q < p; q++) {
        const size_t at = (size_t)q * RDX_RADIX;
        s->recvc[q] = rdx_recv_count(s->g + at, s->table + at, me, s->m);
        if (q != me && s->recvc[q] > 0)
            l->irecv(l, q, s->recv + off, s->recvc[q] * sizeof *s->recv);
        off += s->recvc[q];
    }
    off = 0;
    size_t own = 0;
    for (int q = 0; q < p; q++) {
        if (q == me)
            own = off;
        else if (s->sendc[q] > 0)
            l->send(l, q, s->local + off, s->sendc[q] * sizeof *s->local);
        off += s->sendc[q];
    }
    rdx_unpack(s->local + own, mine, s->cnt, me, s->m, s->keys);
    l->waitall(l);
    off = 0;
    for (int q = 0; q < p; q++) {
        const size_t at = (size_t)q * RDX_RADIX;
        if (q != me)
            rdx_unpack(s->recv + off, s->g + at, s->table + at, me, s->m,
                       s->keys);
        off += s->recvc[q];
    }
}

/* Every rank's record to every rank. */
static void recs_exchange(rdx_state *s, const rdx_rec *mine)
{
    li_lib *l = s->l;
    s->recs[s->pid] = *mine;
    if (l->two_sided) {
        for (int q = 0; q < s->p; q++)
            if (q != s->pid)
                l->irecv(l, q, &s->recs[q], sizeof *mine);
        for (int q = 0; q < s->p; q++)
            if (q != s->pid)
                l->send(l, q, mine, sizeof *mine);
        l->waitall(l);
        return;
    }
    size_t off = (size_t)s->p * RDX_RADIX * sizeof *s->table +
                 (size_t)s->pid * sizeof *mine;
    for (int q = 0; q < s->p; q++)
        if (q != s->pid)
            l->put(l, &s->a, q, off, mine, sizeof *mine);
    l->sync(l, &s->a);
}

/* Collective: 1 when the sort of every rank verified. */
static int verify(rdx_state *s)
{
    li_lib *l = s->l;
    rdx_rec mine;
    rdx_rec_make(s->in_hash, s->keys, s->m, &mine);
    recs_exchange(s, &mine);
    char msg[200];
    int ok = rdx_check(s->recs, s->p, s->pid, s->m, msg, sizeof msg);
    if (!ok)
        fprintf(stderr, "rdx %s: rank %d: %s, %zu keys: %s\n", l->backend,
                s->pid, rdx_op_names[s->v], s->n, msg);
    return l->all_ok(l, ok);
}

static double sample(void *arg)
{
    rdx_state *s = arg;
    li_lib *l = s->l;
    s->in_hash = rdx_keys_fill(s->keys, s->m, rdx_seed(s->n, s->sample++),
                               (uint64_t)s->pid * s->m);
    l->barrier(l);
    double t0 = l->now();
    /* One loop per version: nothing decided per round but the order. */
    if (s->v == RDX_SEND)
        for (int r = 0; r < RDX_ROUNDS; r++)
            round_send(s, r);
    else
        for (int r = 0; r < RDX_ROUNDS; r++)
            round_put(s, r, s->v == RDX_PUT_OPT);
    double t = l->now() - t0;
    return verify(s) ? t : -1.0;
}

static void state_open(rdx_state *s, li_lib *l, size_t n, rdx_version v)
{
    memset(s, 0, sizeof *s);
    s->l = l;
    s->p = l->nprocs;
    s->pid = l->pid;
    s->n = n;
    s->m = n / (size_t)l->nprocs;
    s->v = v;
    size_t p = (size_t)s->p;
    size_t tbytes = p * RDX_RADIX * sizeof *s->table;
    size_t rbytes = p * sizeof *s->recs;
    size_t kbytes = s->m * sizeof *s->keys;
    if (l->two_sided) {
        s->table = li_xmalloc(tbytes);
        s->recs = li_xmalloc(rbytes);
        s->keys = li_xmalloc(kbytes);
        s->recv = li_xmalloc(kbytes);
        s->g = li_xmalloc(p * RDX_RADIX * sizeof *s->g);
        s->sendc = li_xmalloc(p * sizeof *s->sendc);
        s->recvc = li_xmalloc(p * sizeof *s->recvc);
    } else {
        /* Sizes in multiples of 8: the records and keys stay aligned. */
        l->area_open(l, tbytes + rbytes + kbytes, &s->a);
        s->table = (uint32_t *)(void *)s->a.base;
        s->recs = (rdx_rec *)(void *)(s->a.base + tbytes);
        s->keys_off = tbytes + rbytes;
        s->keys = (uint32_t *)(void *)(s->a.base + s->keys_off);
        s->g = li_xmalloc(RDX_RADIX * sizeof *s->g);
    }
    s->local = li_xmalloc(kbytes);
}

static void state_close(rdx_state *s)
{
    if (s->l->two_sided) {
        free(s->table);
        free(s->recs);
        free(s->keys);
        free(s->recv);
        free(s->sendc);
        free(s->recvc);
    } else {
        s->l->area_close(s->l, &s->a);
    }
    free(s->g);
    free(s->local);
}

/* One verified point, emitted; -1 when it did not verify (every rank). */
static int point(li_lib *l, size_t n, rdx_version v, double *us)
{
    rdx_state s;
    state_open(&s, l, n, v);
    long k = li_measure(l, sample, &s, us);
    state_close(&s);
    if (k < 0) {
        if (l->pid == 0)
            fprintf(stderr, "rdx %s: %s, %zu keys: data did not verify\n",
                    l->backend, rdx_op_names[v], n);
        return -1;
    }
    /* bytes is the key count; mbps counts the keys' bytes sorted. */
    l->emit(l, rdx_op_names[v], rdx_sync_name(v), rdx_window_name(v), n,
            (double)n * sizeof(uint32_t), us, k);
    return 0;
}

static int run(li_lib *l)
{
    const size_t *sizes = l->opts->sizes;
    int ns = l->opts->nsizes;
    double *us = li_xmalloc(LI_MAX_SAMPLES * sizeof *us);
    int st = BENCH_OK;
    for (int i = 0; i < ns; i++) {
        size_t n = sizes[i];
        if (n == 0 || n % (size_t)l->nprocs != 0) {
            char msg[128];
            snprintf(msg, sizeof msg, "rdx: n = %zu keys is not a multiple "
                     "of p = %d: skipped", n, l->nprocs);
            l->note(l, msg);
            continue;
        }
        for (int v = 0; v < RDX_NVERSIONS; v++) {
            if (!rdx_version_on(l->opts, (rdx_version)v, l->two_sided))
                continue;
            char what[64];
            snprintf(what, sizeof what, "%s %s", l->backend, rdx_op_names[v]);
            l->progress(l, what, n);
            if (point(l, n, (rdx_version)v, us) != 0)
                st = BENCH_FAIL;
        }
    }
    free(us);
    return st;
}

const li_suite li_rdx = {"rdx", rdx_op_names, rdx_sync_names, run,
                         rdx_default_sizes};
