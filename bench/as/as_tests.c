/* as_tests.c -- the as suite's tests (seed 003 section 3), each once for
 * the one-sided backends and once for the two-sided one (as_alg.h):
 *
 *   empty    sync (two-sided: barrier): the superstep's synchronization
 *   barrier  the library's barrier, on every backend, to compare sync with
 *   comp     one step of a linear congruential generator on a volatile
 *            word (which the compiler cannot drop), then the superstep
 *   full     a total exchange of P ints: each rank puts one int into
 *            every other rank's slot for it and stores its own locally,
 *            then sync (two-sided: irecv from all, send to all, waitall,
 *            barrier)
 *   simple   one int from rank 0 to rank P-1, then sync (send/recv, then
 *            barrier)
 *   scatter  rank 0 puts one int to every other rank, then sync
 *   xchg     the total exchange of h ints per pair (an hP-relation: each
 *            rank sends and receives h x P words, its own by a local
 *            copy), put then sync (irecv from all, send to all, waitall,
 *            barrier: seed 003's best two-sided pair, MPI_Irecv and
 *            MPI_Send)
 *
 * A rank's targets and sources go round from itself (to me + 1, me + 2,
 * ...; from me - 1, me - 2, ...), so that the ranks do not all start with
 * rank 0.  The two-sided versions end with a barrier as the one-sided
 * ones with sync: a superstep ends when every rank's data is in. */
#include <string.h>

#include "as_alg.h"
#include "as_def.h"

static void empty_1(as_state *s, long reps)
{
    li_lib *l = s->l;
    for (long i = 0; i < reps; i++)
        l->sync(l, &s->area);
    s->seq += (uint64_t)reps;
}

static void barrier_any(as_state *s, long reps)
{
    li_lib *l = s->l;
    for (long i = 0; i < reps; i++)
        l->barrier(l);
    s->seq += (uint64_t)reps;
}

static void comp_1(as_state *s, long reps)
{
    li_lib *l = s->l;
    for (long i = 0; i < reps; i++) {
        s->comp = s->comp * UINT32_C(1103515245) + UINT32_C(12345);
        l->sync(l, &s->area);
    }
    s->seq += (uint64_t)reps;
}

static void comp_2(as_state *s, long reps)
{
    li_lib *l = s->l;
    for (long i = 0; i < reps; i++) {
        s->comp = s->comp * UINT32_C(1103515245) + UINT32_C(12345);
        l->barrier(l);
    }
    s->seq += (uint64_t)reps;
}

static void full_1(as_state *s, long reps)
{
    li_lib *l = s->l;
    int me = s->me, p = s->p;
    size_t off = as_slot(1, me) * sizeof *s->mem;
    for (long i = 0; i < reps; i++) {
        uint64_t q = s->seq++;
        s->mem[as_slot(1, me)] = as_word(q, me, me, 0);
        for (int k = 1; k < p; k++) {
            int d = (me + k) % p;
            s->send[d] = as_word(q, me, d, 0);
            l->put(l, &s->area, d, off, &s->send[d], sizeof *s->send);
        }
        l->sync(l, &s->area);
    }
}

static void full_2(as_state *s, long reps)
{
    li_lib *l = s->l;
    int me = s->me, p = s->p;
    for (long i = 0; i < reps; i++) {
        uint64_t q = s->seq++;
        for (int k = 1; k < p; k++) {
            int src = (me + p - k) % p;
            l->irecv(l, src, &s->mem[as_slot(1, src)], sizeof *s->mem);
        }
        s->mem[as_slot(1, me)] = as_word(q, me, me, 0);
        for (int k = 1; k < p; k++) {
            int d = (me + k) % p;
            s->send[d] = as_word(q, me, d, 0);
            l->send(l, d, &s->send[d], sizeof *s->send);
        }
        l->waitall(l);
        l->barrier(l);
    }
}

static void full_expect(as_state *s)
{
    for (int src = 0; src < s->p; src++)
        s->want[as_slot(1, src)] = as_word(s->seq - 1, src, s->me, 0);
}

static void simple_1(as_state *s, long reps)
{
    li_lib *l = s->l;
    int last = s->p - 1;
    size_t off = as_slot(1, 0) * sizeof *s->mem;
    for (long i = 0; i < reps; i++) {
        uint64_t q = s->seq++;
        if (s->me == 0) {
            s->send[0] = as_word(q, 0, last, 0);
            l->put(l, &s->area, last, off, &s->send[0], sizeof *s->send);
        }
        l->sync(l, &s->area);
    }
}

static void simple_2(as_state *s, long reps)
{
    li_lib *l = s->l;
    int last = s->p - 1;
    for (long i = 0; i < reps; i++) {
        uint64_t q = s->seq++;
        if (s->me == last)
            l->irecv(l, 0, &s->mem[as_slot(1, 0)], sizeof *s->mem);
        if (s->me == 0) {
            s->send[0] = as_word(q, 0, last, 0);
            l->send(l, last, &s->send[0], sizeof *s->send);
        }
        l->waitall(l);
        l->barrier(l);
    }
}

static void simple_expect(as_state *s)
{
    if (s->me == s->p - 1)
        s->want[as_slot(1, 0)] = as_word(s->seq - 1, 0, s->me, 0);
}

static void scatter_1(as_state *s, long reps)
{
    li_lib *l = s->l;
    size_t off = as_slot(1, 0) * sizeof *s->mem;
    for (long i = 0; i < reps; i++) {
        uint64_t q = s->seq++;
        if (s->me == 0)
            for (int d = 1; d < s->p; d++) {
                s->send[d] = as_word(q, 0, d, 0);
                l->put(l, &s->area, d, off, &s->send[d], sizeof *s->send);
            }
        l->sync(l, &s->area);
    }
}

static void scatter_2(as_state *s, long reps)
{
    li_lib *l = s->l;
    for (long i = 0; i < reps; i++) {
        uint64_t q = s->seq++;
        if (s->me != 0)
            l->irecv(l, 0, &s->mem[as_slot(1, 0)], sizeof *s->mem);
        else
            for (int d = 1; d < s->p; d++) {
                s->send[d] = as_word(q, 0, d, 0);
                l->send(l, d, &s->send[d], sizeof *s->send);
            }
        l->waitall(l);
        l->barrier(l);
    }
}

static void scatter_expect(as_state *s)
{
    if (s->me != 0)
        s->want[as_slot(1, 0)] = as_word(s->seq - 1, 0, s->me, 0);
}

/* Words 1..h-1 of every segment, for the whole sample. */
static void xchg_prepare(as_state *s)
{
    size_t h = s->h;
    for (int d = 0; d < s->p; d++) {
        uint32_t *seg = s->send + (size_t)d * h;
        uint32_t base = as_fill_base(s->first, s->me, d);
        for (size_t i = 1; i < h; i++)
            seg[i] = as_fill_word(base, i);
    }
}

/* Segment d of repetition q, stamped; the rank's own is copied into its
 * slot here (NULL returned), the others are for sending. */
static const uint32_t *xchg_segment(as_state *s, int d, uint64_t q)
{
    uint32_t *seg = s->send + (size_t)d * s->h;
    seg[0] = as_word(q, s->me, d, 0);
    if (d != s->me)
        return seg;
    memcpy(&s->mem[as_slot(s->h, d)], seg, s->h * sizeof *seg);
    return NULL;
}

static void xchg_1(as_state *s, long reps)
{
    li_lib *l = s->l;
    int me = s->me, p = s->p;
    size_t n = s->h * sizeof *s->mem;
    size_t off = as_slot(s->h, me) * sizeof *s->mem;
    for (long i = 0; i < reps; i++) {
        uint64_t q = s->seq++;
        for (int k = 0; k < p; k++) {
            int d = (me + k) % p;
            const uint32_t *seg = xchg_segment(s, d, q);
            if (seg != NULL)
                l->put(l, &s->area, d, off, seg, n);
        }
        l->sync(l, &s->area);
    }
}

static void xchg_2(as_state *s, long reps)
{
    li_lib *l = s->l;
    int me = s->me, p = s->p;
    size_t h = s->h, n = h * sizeof *s->mem;
    for (long i = 0; i < reps; i++) {
        uint64_t q = s->seq++;
        for (int k = 1; k < p; k++) {
            int src = (me + p - k) % p;
            l->irecv(l, src, &s->mem[as_slot(h, src)], n);
        }
        for (int k = 0; k < p; k++) {
            int d = (me + k) % p;
            const uint32_t *seg = xchg_segment(s, d, q);
            if (seg != NULL)
                l->send(l, d, seg, n);
        }
        l->waitall(l);
        l->barrier(l);
    }
}

static void xchg_expect(as_state *s)
{
    size_t h = s->h;
    for (int src = 0; src < s->p; src++) {
        uint32_t *slot = &s->want[as_slot(h, src)];
        uint32_t base = as_fill_base(s->first, src, s->me);
        slot[0] = as_word(s->seq - 1, src, s->me, 0);
        for (size_t i = 1; i < h; i++)
            slot[i] = as_fill_word(base, i);
    }
}

/* sent: the words a rank sends per repetition, sent[0] + sent[1] x P +
 * sent[2] x h x P (as_alg.h). */
const as_test as_tests[] = {
    {"empty", empty_1, barrier_any, NULL, NULL, {0, 0, 0}, 0},
    {"barrier", barrier_any, barrier_any, NULL, NULL, {0, 0, 0}, 0},
    {"comp", comp_1, comp_2, NULL, NULL, {0, 0, 0}, 0},
    {"full", full_1, full_2, NULL, full_expect, {0, 1, 0}, 0},
    {"simple", simple_1, simple_2, NULL, simple_expect, {1, 0, 0}, 0},
    {"scatter", scatter_1, scatter_2, NULL, scatter_expect, {-1, 1, 0}, 0},
    {"xchg", xchg_1, xchg_2, xchg_prepare, xchg_expect, {0, 0, 1}, 1},
};
const size_t as_ntests = sizeof as_tests / sizeof as_tests[0];
