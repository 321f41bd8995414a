/* stress_minmaxloc.c -- concurrent MINLOC and MAXLOC on the pair types.
 *
 * Every pair type (2INT, SHORT_INT, FLOAT_INT, LONG_INT, DOUBLE_INT with
 * extent 16, LONG_DOUBLE_INT with extent 32) has two arrays of M pairs at
 * the target, one reduced only with MINLOC, one only with MAXLOC.  Every
 * rank, R rounds per phase, reduces a fresh array of pairs into each, with
 * orma_accumulate in even rounds and orma_get_accumulate in odd ones.
 * The values move on with the round (down for MINLOC, up for MAXLOC),
 * so that most updates change the element and the ranks' updates collide
 * all along; the ranks' values of one round are often equal, and on every
 * fourth element always, so that the tie rule (smallest index) decides.
 *
 * MINLOC keeps the least pair in the order (value, then index), MAXLOC
 * the greatest value with the least index: each element only ever moves
 * one way in a total order, whatever the interleaving.  So:
 *  - the final array equals the sequential reduction of the initial
 *    pairs and every contribution: a lost update of the winner shows;
 *  - every old pair a get_accumulate returned is the initial pair or one
 *    that some rank contributed to that element (indices are drawn from
 *    65536, so a pair torn between two updates is almost never either);
 *  - each rank's old pairs never move backwards in issue order, are at
 *    least as good as the best of its own earlier contributions (they have
 *    taken effect: same-origin ordering), and no better than the final.
 * Phases: every window flavour times every epoch kind.  The bytes between
 * the arrays and around them keep their background, and so does the
 * padding inside every pair at the target: it is no part of the type's
 * data (the origins' padding holds another pattern). */
#include "stress_test.h"

#include <stddef.h>

enum { M = 4, NPT = 6, NARR = 2 * NPT, SLOT = 32, LOW = 64, EPOCHS = 8, BASE_ROUNDS = 2048, MAPPED_FACTOR = 4 };
enum { KWRAP = 8192, NIDX = 1 << 16 };
enum { WSIZE = LOW + NARR * M * SLOT + 64 };

struct ptype {
    int id;
    size_t ext;
    const char *name;
};

enum { P_2INT, P_SHORT, P_FLOAT, P_LONG, P_DOUBLE, P_LDOUBLE };

static const struct ptype ptypes[NPT] = {
    {P_2INT, sizeof(struct orma_2int), "2INT"},
    {P_SHORT, sizeof(struct orma_short_int), "SHORT_INT"},
    {P_FLOAT, sizeof(struct orma_float_int), "FLOAT_INT"},
    {P_LONG, sizeof(struct orma_long_int), "LONG_INT"},
    {P_DOUBLE, sizeof(struct orma_double_int), "DOUBLE_INT"},
    {P_LDOUBLE, sizeof(struct orma_long_double_int), "LONG_DOUBLE_INT"},
};

static orma_type ptype_handle(int id)
{
    switch (id) {
    case P_2INT: return ORMA_2INT;
    case P_SHORT: return ORMA_SHORT_INT;
    case P_FLOAT: return ORMA_FLOAT_INT;
    case P_LONG: return ORMA_LONG_INT;
    case P_DOUBLE: return ORMA_DOUBLE_INT;
    default: return ORMA_LONG_DOUBLE_INT;
    }
}

/* A pair whatever its type: every value used is a small whole number. */
struct pair {
    long double v;
    int idx;
};

/* Write x's two members into the pair of type id at p, leaving its
 * padding as it is: the target's padding holds background, which must
 * survive (it is no part of the type's data), the origins' a pattern of
 * their own, which must not get there nor change the outcome. */
#define PAIR_STORE(P, VT)                                                      \
    do {                                                                       \
        VT v_ = (VT)x.v;                                                       \
        memcpy(p + offsetof(P, value), &v_, sizeof v_);                        \
        memcpy(p + offsetof(P, index), &x.idx, sizeof x.idx);                  \
    } while (0)

static void pair_store(int id, unsigned char *p, struct pair x)
{
    switch (id) {
    case P_2INT: PAIR_STORE(struct orma_2int, int); break;
    case P_SHORT: PAIR_STORE(struct orma_short_int, short); break;
    case P_FLOAT: PAIR_STORE(struct orma_float_int, float); break;
    case P_LONG: PAIR_STORE(struct orma_long_int, long); break;
    case P_DOUBLE: PAIR_STORE(struct orma_double_int, double); break;
    default: PAIR_STORE(struct orma_long_double_int, long double); break;
    }
}

/* The padding of a pair: [sizeof value, offset of index) and the bytes
 * after the index. */
#define PAIR_PAD(P, VT)                                                        \
    do {                                                                       \
        lo[0] = sizeof(VT);                                                    \
        hi[0] = offsetof(P, index);                                            \
        lo[1] = offsetof(P, index) + sizeof(int);                              \
        hi[1] = sizeof(P);                                                     \
    } while (0)

static void pair_pad(int id, size_t lo[2], size_t hi[2])
{
    switch (id) {
    case P_2INT: PAIR_PAD(struct orma_2int, int); break;
    case P_SHORT: PAIR_PAD(struct orma_short_int, short); break;
    case P_FLOAT: PAIR_PAD(struct orma_float_int, float); break;
    case P_LONG: PAIR_PAD(struct orma_long_int, long); break;
    case P_DOUBLE: PAIR_PAD(struct orma_double_int, double); break;
    default: PAIR_PAD(struct orma_long_double_int, long double); break;
    }
}

static struct pair pair_load(int id, const unsigned char *p)
{
    struct pair x;
    switch (id) {
    case P_2INT: {
        struct orma_2int s;
        memcpy(&s, p, sizeof s);
        x.v = s.value;
        x.idx = s.index;
        break;
    }
    case P_SHORT: {
        struct orma_short_int s;
        memcpy(&s, p, sizeof s);
        x.v = s.value;
        x.idx = s.index;
        break;
    }
    case P_FLOAT: {
        struct orma_float_int s;
        memcpy(&s, p, sizeof s);
        x.v = s.value;
        x.idx = s.index;
        break;
    }
    case P_LONG: {
        struct orma_long_int s;
        memcpy(&s, p, sizeof s);
        x.v = (long double)s.value;
        x.idx = s.index;
        break;
    }
    case P_DOUBLE: {
        struct orma_double_int s;
        memcpy(&s, p, sizeof s);
        x.v = s.value;
        x.idx = s.index;
        break;
    }
    default: {
        struct orma_long_double_int s;
        memcpy(&s, p, sizeof s);
        x.v = s.value;
        x.idx = s.index;
        break;
    }
    }
    return x;
}

/* Array a (0..NARR-1): pair type a / 2, MINLOC when a is even. */
static int arr_minloc(int a) { return a % 2 == 0; }
static const struct ptype *arr_type(int a) { return &ptypes[a / 2]; }
static size_t arr_off(int a) { return LOW + (size_t)a * M * SLOT; }

/* a comes strictly before b in the order the op moves towards. */
static int better(int minloc, struct pair a, struct pair b)
{
    if (a.v != b.v)
        return minloc ? a.v < b.v : a.v > b.v;
    return a.idx < b.idx;
}

static int same(struct pair a, struct pair b) { return a.v == b.v && a.idx == b.idx; }

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* What rank r reduces into element i of array a in round k of phase ph:
 * a value that moves on with the round -- down for MINLOC, up for MAXLOC
 * -- so that most updates change the element and the ranks' updates meet
 * on it, not just the first few; plus a coin flip (none on every fourth
 * element) so that the values of one round are often equal and the index
 * decides.  Values stay within a short. */
static struct pair contrib(unsigned ph, int r, unsigned k, int a, int i)
{
    uint64_t h = mix(((((uint64_t)ph * 64 + (uint64_t)r) << 20 | k) * 64 + (uint64_t)a) * 64 + (uint64_t)i);
    int m = (int)(k % KWRAP) * 2 + (i % 4 ? (int)(h & 1) : 0);
    struct pair x;
    x.v = arr_minloc(a) ? -m : m;
    x.idx = (int)((h >> 8) % NIDX);
    return x;
}

static struct pair initial(int a, int i)
{
    struct pair x;
    x.v = arr_minloc(a) ? 1 : -1;
    x.idx = 500 + a + i;
    return x;
}

static int rank, nranks;

/* Whether x is the initial pair of the element or a contribution to it. */
static int contributed(unsigned ph, int a, int i, unsigned rounds, struct pair x)
{
    if (same(x, initial(a, i)))
        return 1;
    if (x.v != (long double)(int)x.v)
        return 0;
    int m = arr_minloc(a) ? -(int)x.v : (int)x.v;
    if (m < 0)
        return 0;
    for (unsigned k = (unsigned)m / 2; k < rounds; k += KWRAP)
        for (int r = 0; r < nranks; r++)
            if (same(contrib(ph, r, k, a, i), x))
                return 1;
    return 0;
}

static void print_pair(char *buf, size_t len, struct pair x)
{
    snprintf(buf, len, "(%.0Lf, %d)", x.v, x.idx);
}

/* What a rank tracks of one element while its phase runs. */
struct track {
    struct pair fin;  /* the final state: the reduction of everything */
    struct pair own;  /* the best this rank has reduced into it so far */
    struct pair last; /* the last old pair its get_accumulate returned */
};

/* The old pairs get_accumulate returned in round k (odd) of the epoch
 * just closed. */
static void check_olds(const char *what, unsigned ph, unsigned rounds, unsigned k, int a, const unsigned char *res,
                       struct track *tr)
{
    const struct ptype *pt = arr_type(a);
    int minloc = arr_minloc(a);
    const char *opn = minloc ? "MINLOC" : "MAXLOC";
    char s1[48], s2[48];
    for (int i = 0; i < M; i++) {
        struct track *t = &tr[a * M + i];
        struct pair old = pair_load(pt->id, res + (size_t)i * pt->ext);
        print_pair(s1, sizeof s1, old);
        if (!contributed(ph, a, i, rounds, old))
            SX_FAIL("%s: %s %s element %d: get_accumulate in round %u returned %s, which nobody stored there", what,
                    pt->name, opn, i, k, s1);
        if (better(minloc, t->own, old)) {
            print_pair(s2, sizeof s2, t->own);
            SX_FAIL("%s: %s %s element %d: round %u returned %s, worse than %s this rank had already reduced into "
                    "it", what, pt->name, opn, i, k, s1, s2);
        }
        if (better(minloc, t->last, old)) {
            print_pair(s2, sizeof s2, t->last);
            SX_FAIL("%s: %s %s element %d: round %u returned %s after %s: the element moved backwards", what,
                    pt->name, opn, i, k, s1, s2);
        }
        if (better(minloc, old, t->fin)) {
            print_pair(s2, sizeof s2, t->fin);
            SX_FAIL("%s: %s %s element %d: round %u returned %s, better than the final %s", what, pt->name, opn, i,
                    k, s1, s2);
        }
        t->last = old;
    }
}

static void phase(struct st_win *w, int mode, int target, unsigned rounds, unsigned ph)
{
    char what[96], s1[48], s2[48];
    size_t per_round = (size_t)NARR * M * SLOT;
    unsigned per = rounds / EPOCHS;
    /* One epoch's origins and results: they belong to the epoch until it
     * closes. */
    unsigned char *orig = malloc(per * per_round), *resb = malloc(per * per_round);
    struct track *tr = malloc(NARR * M * sizeof *tr);
    CHECK(orig && resb && tr);
    snprintf(what, sizeof what, "%s, %s, target %d", st_kind_names[w->kind], sx_mode_names[mode], target);

    /* Every rank knows every contribution, hence the final array. */
    for (int a = 0; a < NARR; a++)
        for (int i = 0; i < M; i++) {
            struct track *t = &tr[a * M + i];
            t->fin = t->own = t->last = initial(a, i);
            for (int r = 0; r < nranks; r++)
                for (unsigned k = 0; k < rounds; k++) {
                    struct pair c = contrib(ph, r, k, a, i);
                    if (better(arr_minloc(a), c, t->fin))
                        t->fin = c;
                }
        }

    rt_fill_bg(w->mem, WSIZE);
    if (rank == target)
        for (int a = 0; a < NARR; a++)
            for (int i = 0; i < M; i++)
                pair_store(arr_type(a)->id, w->mem + arr_off(a) + (size_t)i * arr_type(a)->ext, initial(a, i));
    CHECK_OK(orma_barrier());
    sx_start();

    struct sx_epoch e;
    sx_epoch_init(&e, w->win, mode, target, ph);
    for (unsigned b = 0; b < EPOCHS; b++) {
        memset(orig, 0xE5, per * per_round);
        memset(resb, 0, per * per_round);
        for (unsigned q = 0; q < per; q++)
            for (int a = 0; a < NARR; a++)
                for (int i = 0; i < M; i++)
                    pair_store(arr_type(a)->id, orig + q * per_round + arr_off(a) - LOW + (size_t)i * arr_type(a)->ext,
                               contrib(ph, rank, b * per + q, a, i));
        sx_begin(&e);
        for (unsigned q = 0; q < per; q++) {
            unsigned k = b * per + q;
            /* The arrays in the same order on every rank, so that ranks
             * running side by side collide on them -- but shifted by
             * the rank in every third round, so that the types are
             * also hit while other types are updated. */
            for (int j = 0; j < NARR; j++) {
                int a = (j + (int)k + (k % 3 == 2 ? rank : 0)) % NARR;
                orma_type t = ptype_handle(arr_type(a)->id);
                orma_op op = arr_minloc(a) ? ORMA_MINLOC : ORMA_MAXLOC;
                unsigned char *src = orig + q * per_round + arr_off(a) - LOW;
                orma_aint disp = st_disp(w, target, arr_off(a));
                if (k % 2 == 0)
                    CHECK_OK(orma_accumulate(src, M, t, target, disp, M, t, op, w->win));
                else
                    CHECK_OK(orma_get_accumulate(src, M, t, resb + q * per_round + arr_off(a) - LOW, M, t, target,
                                                 disp, M, t, op, w->win));
            }
            if (sx_can_flush(&e) && k % 11 == 3)
                CHECK_OK(orma_win_flush(target, w->win));
        }
        sx_end(&e);
        for (unsigned q = 0; q < per; q++) {
            unsigned k = b * per + q;
            for (int a = 0; a < NARR; a++) {
                if (k % 2)
                    check_olds(what, ph, rounds, k, a, resb + q * per_round + arr_off(a) - LOW, tr);
                for (int i = 0; i < M; i++) {
                    struct pair c = contrib(ph, rank, k, a, i);
                    if (better(arr_minloc(a), c, tr[a * M + i].own))
                        tr[a * M + i].own = c;
                }
            }
        }
    }
    sx_epoch_fini(&e);
    CHECK_OK(orma_barrier()); /* passive epochs: the others' unlocks are done */

    for (int a = 0; a < NARR; a++) {
        const struct ptype *pt = arr_type(a);
        if (rank != target)
            break;
        for (int i = 0; i < M; i++) {
            struct pair got = pair_load(pt->id, w->mem + arr_off(a) + (size_t)i * pt->ext), fin = tr[a * M + i].fin;
            if (!same(got, fin)) {
                print_pair(s1, sizeof s1, got);
                print_pair(s2, sizeof s2, fin);
                SX_FAIL("%s: %s %s element %d is %s, expected %s (sequential reduction of %d ranks x %u rounds)",
                        what, pt->name, arr_minloc(a) ? "MINLOC" : "MAXLOC", i, s1, s2, nranks, rounds);
            }
        }
        size_t lo[2], hi[2];
        char pw[160];
        snprintf(pw, sizeof pw, "%s: padding of a %s pair", what, pt->name);
        pair_pad(pt->id, lo, hi);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < 2; j++) {
                size_t at = arr_off(a) + (size_t)i * pt->ext;
                RT_EXPECT_BG(w->mem, at + lo[j], at + hi[j], pw);
            }
        RT_EXPECT_BG(w->mem, arr_off(a) + M * pt->ext, arr_off(a) + M * SLOT, what);
    }
    if (rank == target) {
        RT_EXPECT_BG(w->mem, 0, LOW, what);
        RT_EXPECT_BG(w->mem, arr_off(NARR), WSIZE, what);
    } else {
        RT_EXPECT_BG(w->mem, 0, WSIZE, what);
    }
    CHECK_OK(orma_barrier());
    free(orig);
    free(resb);
    free(tr);
}

int main(int argc, char **argv)
{
    unsigned nph = 0;

    rt_init(&argc, &argv, &rank, &nranks);
    sx_open();
    for (int a = 0; a < NARR; a++)
        CHECK(arr_type(a)->ext <= SLOT);
    for (int kind = 0; kind < ST_NKINDS; kind++) {
        struct st_win w;
        st_win_open(&w, kind, WSIZE);
        for (int mode = 0; mode < SX_NMODES; mode++, nph++)
            phase(&w, mode, (int)(nph % (unsigned)nranks), sx_rounds_for(kind, BASE_ROUNDS, MAPPED_FACTOR), nph);
        st_win_close(&w);
    }
    sx_close();
    if (rank == 0)
        printf("stress_minmaxloc: %u phases of %u or %u rounds x %d arrays of %d pairs, %d ranks: ok\n", nph,
               sx_rounds(BASE_ROUNDS), sx_rounds(BASE_ROUNDS) * sx_mapped_factor(MAPPED_FACTOR), NARR, M, nranks);
    CHECK_OK(orma_finalize());
    return 0;
}
