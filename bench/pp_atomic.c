/* pp_atomic.c -- the data of the accumulate-family pingpong ops and its
 * verification.  The round trip is put's (pp_sync.c): rank 0 applies its
 * operand (a fresh pattern in its private send buffer) to the first n
 * bytes of rank 1's window; rank 1 applies the n bytes it received (its
 * window) to rank 0's window:
 *
 *   acc   orma_accumulate, ORMA_SUM on n/8 uint64:   W1 += D;  W0 += W1
 *   gacc  orma_get_accumulate, the same, and each call returns the old
 *         target elements: rank 0 old W1, rank 1 old W0
 *   fop   orma_fetch_and_op, ORMA_SUM on one uint64, as gacc
 *   cas   orma_compare_and_swap on one uint64, compare = the element the
 *         target is known to hold, so every swap succeeds:
 *         W1 = D; W0 = W1; each call returns the old element
 *
 * uint64 SUM wraps exactly, and every operand and window content is a
 * linear pattern (pp.h), so both ranks know what each window holds after
 * every round trip without reading it: no reset between repetitions (the
 * windows are written afresh only when a point begins), and a wrong sum
 * anywhere in a point stays wrong at every later check.  Rank 0 checks its
 * window and results after every round trip (inside the timed batch, as
 * for put).  Rank 1 checks its results after every round trip too (they
 * are not echoed back, as put's data is), but its window only after each
 * repetition, untimed: inside a batch rank 0 may already be updating it. */
#include <stdio.h>
#include <string.h>

#include "pattern.h"
#include "pp.h"

/* An odd constant: the patterns of two seeds differ in every word. */
#define LIN_K 0x9E3779B97F4A7C15ull

int pp_op_size_ok(pp_op op, size_t n)
{
    if (op == PP_FOP || op == PP_CAS)
        return n == 8;
    if (op == PP_ACC || op == PP_GACC)
        return n % 8 == 0;
    return 1;
}

/* d is odd, so the words of one pattern are all distinct: a word written
 * at the wrong place shows. */
static pp_lin lin_of_seed(uint64_t seed)
{
    pp_lin p = {seed * LIN_K, 2 * seed + 1};
    return p;
}

static pp_lin lin_add(pp_lin a, pp_lin b)
{
    pp_lin p = {a.c + b.c, a.d + b.d};
    return p;
}

static void lin_fill(void *buf, size_t words, pp_lin p)
{
    unsigned char *b = buf;
    for (size_t i = 0; i < words; i++) {
        uint64_t w = p.c + p.d * i;
        memcpy(b + 8 * i, &w, 8);
    }
}

/* 1 when buf holds p; else 0 with the first wrong word. */
static int lin_check(const void *buf, size_t words, pp_lin p, size_t *i_p,
                     uint64_t *want_p, uint64_t *got_p)
{
    const unsigned char *b = buf;
    for (size_t i = 0; i < words; i++) {
        uint64_t got, want = p.c + p.d * i;
        memcpy(&got, b + 8 * i, 8);
        if (got != want) {
            *i_p = i;
            *want_p = want;
            *got_p = got;
            return 0;
        }
    }
    return 1;
}

/* Elements one call moves. */
static size_t words(const pp_state *s)
{
    return s->op == PP_FOP || s->op == PP_CAS ? 1 : s->n / 8;
}

/* From s->cur and the repetition number: the operand, what the windows
 * will hold, and the compare value. */
static void plan(pp_state *s)
{
    s->add = lin_of_seed(bench_pattern_seed(s->rep, 0));
    if (s->op == PP_CAS) {
        s->next[1] = s->add;
        s->next[0] = s->add;
    } else {
        s->next[1] = lin_add(s->cur[1], s->add);
        s->next[0] = lin_add(s->cur[0], s->next[1]);
    }
    /* Word 0 of the target's window, as the peer's cur says. */
    s->cmp = s->cur[s->peer].c;
    if (s->me == 0)
        lin_fill(s->send, words(s), s->add);
}

void pp_atomic_begin(pp_state *s)
{
    for (int r = 0; r < 2; r++)
        s->cur[r] = lin_of_seed(bench_pattern_seed(s->rep, 1u + (unsigned)r));
    lin_fill(s->w.base, words(s), s->cur[s->me]);
    plan(s);
}

void pp_atomic_next(pp_state *s)
{
    s->cur[0] = s->next[0];
    s->cur[1] = s->next[1];
    plan(s);
}

static void report(pp_state *s, const char *what, size_t i, uint64_t want,
                   uint64_t got)
{
    /* The first bad repetition of a point only; the loop goes on so that
     * both ranks keep making the same collective calls. */
    if (s->ok)
        fprintf(stderr, "orma-bench: rank %d: %s+%s on %s window, %zu bytes, "
                "repetition %llu: %s element %zu is 0x%016llx, expected "
                "0x%016llx\n", s->me, pp_op_names[s->op],
                pp_sync_names[s->sync], s->w.kind, s->n,
                (unsigned long long)s->rep, what, i,
                (unsigned long long)got, (unsigned long long)want);
    s->ok = 0;
}

int pp_atomic_verify(pp_state *s, int window)
{
    size_t i;
    uint64_t want, got;
    int ok = 1;
    if (window && !lin_check(s->w.base, words(s), s->next[s->me], &i, &want, &got)) {
        report(s, "window", i, want, got);
        ok = 0;
    }
    if (s->op != PP_ACC &&
        !lin_check(s->recv, words(s), s->cur[s->peer], &i, &want, &got)) {
        report(s, "returned", i, want, got);
        ok = 0;
    }
    return ok;
}
