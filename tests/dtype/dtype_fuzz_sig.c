/* dtype_fuzz_sig.c -- type signatures against the reference typemap.
 *
 * The library's signature of count elements, walked run by run and spelled
 * out, must be the reference's sequence of basic types.  A "twin" -- a
 * struct of predefined blocks (runs of one type, pair types where a value
 * and an int follow each other) with the same sequence, shaped nothing like
 * the type -- must compare equal to it, and the twin with one element
 * changed must differ exactly there.  A random pair of types compares
 * equal iff the reference sequences are, with the first difference (element,
 * byte offset, the two types) where the reference finds it. */
#include "check.h"
#include "dtype_fuzz.h"
#include "dtype_sig.h"

#include <stdlib.h>

/* The reference sequence of count elements: the basic type of each and the
 * data byte it starts at (byte[n]: the data size). */
struct seq {
    int *id;
    size_t *byte;
    size_t n;
};

static void seq_make(struct seq *s, const struct ref_type *t, size_t count)
{
    s->n = count * t->n;
    s->id = malloc((s->n ? s->n : 1) * sizeof *s->id);
    s->byte = malloc((s->n + 1) * sizeof *s->byte);
    CHECK(s->id && s->byte);
    size_t k = 0, b = 0;
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < t->n; j++, k++) {
            s->id[k] = t->e[j].id;
            s->byte[k] = b;
            b += t->e[j].len;
        }
    s->byte[k] = b;
}

static void seq_free(struct seq *s)
{
    free(s->id);
    free(s->byte);
}

static const char *tname(int id) { return id < 0 ? "(the end)" : orma_type_name(ORMA_PREDEFINED(id)); }

static void check_walk(const struct ref_type *t, size_t count, const struct seq *s)
{
    struct dtype_sig_cursor c;
    int id = -1;
    size_t n = 0, k = 0;
    if (dtype_sig_cursor_init(&c, t->h, count) != ORMA_SUCCESS)
        fuzz_fail(t, "signature of %zu elements: no walk", count);
    while (dtype_sig_cursor_next(&c, &id, &n)) {
        if (n == 0)
            fuzz_fail(t, "signature of %zu elements: an empty run at element %zu", count, k);
        for (size_t m = 0; m < n; m++, k++)
            if (k >= s->n || s->id[k] != id)
                fuzz_fail(t, "signature of %zu elements: element %zu is %s, expected %s", count, k, tname(id),
                          k < s->n ? tname(s->id[k]) : "the end");
    }
    if (k != s->n || c.index != s->n || c.byte != s->byte[s->n])
        fuzz_fail(t, "signature of %zu elements ended after %zu elements (%zu bytes), expected %zu (%zu)", count,
                  c.index, c.byte, s->n, s->byte[s->n]);
    dtype_sig_cursor_fini(&c);
}

/* The pair type of value type vid, or -1. */
static int pair_of(int vid)
{
    static const int pairs[][2] = {{ORMA_TYPEID_FLOAT, ORMA_TYPEID_FLOAT_INT},
                                   {ORMA_TYPEID_DOUBLE, ORMA_TYPEID_DOUBLE_INT},
                                   {ORMA_TYPEID_LONG, ORMA_TYPEID_LONG_INT},
                                   {ORMA_TYPEID_INT, ORMA_TYPEID_2INT},
                                   {ORMA_TYPEID_SHORT, ORMA_TYPEID_SHORT_INT},
                                   {ORMA_TYPEID_LONG_DOUBLE, ORMA_TYPEID_LONG_DOUBLE_INT}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i][0] == vid)
            return pairs[i][1];
    return -1;
}

/* A committed struct whose sequence is s's, element `change` (if < n)
 * replaced by newid. */
static orma_type twin_make(struct fuzz_rng *r, const struct ref_type *t, const struct seq *s, size_t change,
                           int newid)
{
    size_t *bl = malloc((s->n ? s->n : 1) * sizeof *bl), nb = 0;
    orma_aint *disp = malloc((s->n ? s->n : 1) * sizeof *disp);
    orma_type *types = malloc((s->n ? s->n : 1) * sizeof *types);
    CHECK(bl && disp && types);
#define TWIN_ID(k) ((k) == change ? newid : s->id[k])
    for (size_t k = 0; k < s->n;) {
        int id = TWIN_ID(k), pair = pair_of(id);
        size_t len = 1;
        if (pair >= 0 && k + 1 < s->n && TWIN_ID(k + 1) == ORMA_TYPEID_INT && k != change && k + 1 != change &&
            fuzz_range(r, 0, 1)) {
            id = pair;
            len = 2;
            bl[nb] = 1;
        } else {
            while (k + len < s->n && TWIN_ID(k + len) == id && fuzz_range(r, 0, 3))
                len++;
            bl[nb] = len;
        }
        disp[nb] = (orma_aint)s->byte[k];
        types[nb++] = ORMA_PREDEFINED(id);
        k += len;
    }
#undef TWIN_ID
    orma_type h = NULL;
    if (orma_type_struct(nb, bl, disp, types, &h) != ORMA_SUCCESS || orma_type_commit(&h) != ORMA_SUCCESS)
        fuzz_fail(t, "the twin struct of %zu blocks: %s", nb, orma_error_message());
    free(bl);
    free(disp);
    free(types);
    return h;
}

static void expect_same(const struct ref_type *t, orma_type a, size_t ac, orma_type b, size_t bc, const char *what)
{
    struct dtype_sig_diff d = {0, 0, 0, 0};
    int rc = dtype_sig_compare(a, ac, b, bc, &d);
    if (rc != DTYPE_SIG_SAME)
        fuzz_fail(t, "%s: compare returned %d (element %zu: %s vs %s), expected equal", what, rc, d.index,
                  tname(d.a), tname(d.b));
}

static void expect_diff(const struct ref_type *t, orma_type a, size_t ac, orma_type b, size_t bc, size_t index,
                        size_t byte, int ida, int idb, const char *what)
{
    struct dtype_sig_diff d = {0, 0, 0, 0};
    int rc = dtype_sig_compare(a, ac, b, bc, &d);
    if (rc != DTYPE_SIG_DIFFER || d.index != index || d.byte != byte || d.a != ida || d.b != idb)
        fuzz_fail(t, "%s: compare returned %d, element %zu byte %zu %s vs %s; expected a difference at element %zu "
                  "byte %zu, %s vs %s", what, rc, d.index, d.byte, tname(d.a), tname(d.b), index, byte, tname(ida),
                  tname(idb));
}

void check_signature(struct fuzz_rng *r, const struct ref_type *t, const struct ref_type *partner)
{
    size_t count = (size_t)fuzz_range(r, 1, 3);
    struct seq one, s;
    seq_make(&one, t, 1);
    seq_make(&s, t, count);
    check_walk(t, 1, &one);
    check_walk(t, count, &s);
    struct seq none = {s.id, s.byte, 0};
    check_walk(t, 0, &none);

    /* twins of one element (compared count times) and of count elements */
    orma_type tw1 = twin_make(r, t, &one, SIZE_MAX, 0), twn = twin_make(r, t, &s, SIZE_MAX, 0);
    expect_same(t, t->h, count, tw1, count, "type vs its twin of one element");
    expect_same(t, t->h, count, twn, 1, "type vs its twin of all elements");
    expect_same(t, twn, 1, t->h, count, "twin of all elements vs type");
    CHECK_OK(orma_type_free(&tw1));
    CHECK_OK(orma_type_free(&twn));
    if (s.n) {
        size_t k = (size_t)fuzz_range(r, 0, (long)s.n - 1);
        int newid = (s.id[k] + (int)fuzz_range(r, 1, ORMA_TYPEID_FLOAT_INT - 1)) % ORMA_TYPEID_FLOAT_INT;
        orma_type bad = twin_make(r, t, &s, k, newid);
        expect_diff(t, t->h, count, bad, 1, k, s.byte[k], s.id[k], newid, "type vs its twin with one change");
        expect_diff(t, bad, 1, t->h, count, k, s.byte[k], newid, s.id[k], "twin with one change vs type");
        CHECK_OK(orma_type_free(&bad));
    }

    /* a random pair, against the reference */
    size_t pcount = (size_t)fuzz_range(r, 1, 3), k = 0;
    struct seq p;
    seq_make(&p, partner, pcount);
    while (k < s.n && k < p.n && s.id[k] == p.id[k])
        k++;
    if (k == s.n && k == p.n)
        expect_same(t, t->h, count, partner->h, pcount, "type vs partner");
    else
        expect_diff(t, t->h, count, partner->h, pcount, k, s.byte[k], k < s.n ? s.id[k] : -1,
                    k < p.n ? p.id[k] : -1, "type vs partner");
    seq_free(&p);
    seq_free(&one);
    seq_free(&s);
}
