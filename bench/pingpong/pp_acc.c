/* pp_acc.c -- see pp_acc.h. */
#include <string.h>

#include "pattern.h"
#include "pp_acc.h"

/* An odd constant: the patterns of two seeds differ in every word. */
#define LIN_K 0x9E3779B97F4A7C15ull

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

size_t pp_acc_words(const pp_acc *a)
{
    return a->op == PP_FOP || a->op == PP_CAS ? 1 : a->n / 8;
}

/* From a->cur and the repetition number: the operand, what the windows
 * will hold, and the compare value. */
static void plan(pp_acc *a, uint64_t rep, void *send)
{
    a->add = lin_of_seed(bench_pattern_seed(rep, 0));
    if (a->op == PP_CAS) {
        a->next[1] = a->add;
        a->next[0] = a->add;
    } else {
        a->next[1] = lin_add(a->cur[1], a->add);
        a->next[0] = lin_add(a->cur[0], a->next[1]);
    }
    /* Word 0 of the target's window, as the peer's cur says. */
    a->cmp = a->cur[a->peer].c;
    if (a->me == 0)
        lin_fill(send, pp_acc_words(a), a->add);
}

void pp_acc_begin(pp_acc *a, uint64_t rep, void *window, void *send)
{
    for (int r = 0; r < 2; r++)
        a->cur[r] = lin_of_seed(bench_pattern_seed(rep, 1u + (unsigned)r));
    lin_fill(window, pp_acc_words(a), a->cur[a->me]);
    plan(a, rep, send);
}

void pp_acc_next(pp_acc *a, uint64_t rep, void *send)
{
    a->cur[0] = a->next[0];
    a->cur[1] = a->next[1];
    plan(a, rep, send);
}

int pp_acc_check(const pp_acc *a, const void *window, const void *result,
                 const char **what_p, size_t *i_p, uint64_t *want_p,
                 uint64_t *got_p)
{
    size_t words = pp_acc_words(a);
    if (window != NULL &&
        !lin_check(window, words, a->next[a->me], i_p, want_p, got_p)) {
        *what_p = "window";
        return 0;
    }
    if (a->op != PP_ACC &&
        !lin_check(result, words, a->cur[a->peer], i_p, want_p, got_p)) {
        *what_p = "returned";
        return 0;
    }
    return 1;
}
