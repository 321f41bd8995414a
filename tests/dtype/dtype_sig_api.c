/* dtype_sig_api.c -- type signatures worked out by hand from MPI's
 * definitions, for every constructor and the pair types: the compact form
 * each one is built in (a vector of ints is one run, an indexed type of a
 * struct one repeat, empty blocks vanish, a pair type is its two members),
 * what a walk spells out, and comparisons -- including types made without
 * a signature and signatures deeper than the walk's frames on the stack. */
#include "check.h"
#include "dtype_derived.h"
#include "dtype_sig.h"

#include <stdio.h>
#include <string.h>

/* The tree, spelled: a run "INT*3" ("INT" alone), a repeat "4x(...)", a
 * concatenation "(a b)", the empty signature "-". */
static void shape_of(const struct dtype_sig *s, char *out, size_t cap)
{
    size_t n = strlen(out);
    const char *name;
    switch (s->kind) {
    case DS_RUN:
        if (s->len == 0) {
            snprintf(out + n, cap - n, "-");
            break;
        }
        name = orma_type_name(ORMA_PREDEFINED(s->u.run.id)) + strlen("ORMA_");
        if (s->u.run.n == 1)
            snprintf(out + n, cap - n, "%s", name);
        else
            snprintf(out + n, cap - n, "%s*%zu", name, s->u.run.n);
        break;
    case DS_REPEAT:
        snprintf(out + n, cap - n, "%zux", s->u.repeat.count);
        shape_of(s->u.repeat.child, out, cap);
        break;
    default:
        snprintf(out + n, cap - n, "(");
        for (size_t i = 0; i < s->u.concat.n; i++) {
            if (i)
                snprintf(out + strlen(out), cap - strlen(out), " ");
            shape_of(s->u.concat.c[i], out, cap);
        }
        snprintf(out + strlen(out), cap - strlen(out), ")");
        break;
    }
}

static const struct dtype_sig *sig_of(orma_type t)
{
    return t->predefined ? dtype_sig_predefined((int)t->id) : dtype_derived_of(t)->sig;
}

static void expect_shape(int line, orma_type t, const char *want)
{
    char got[512] = "";
    const struct dtype_sig *s = sig_of(t);
    CHECK(s != NULL);
    shape_of(s, got, sizeof got);
    if (strcmp(got, want)) {
        fprintf(stderr, "line %d: signature %s, expected %s\n", line, got, want);
        exit(1);
    }
}
#define SHAPE(t, want) expect_shape(__LINE__, (t), (want))

/* The walk of count elements, runs of one id joined, as "INT*2 FLOAT". */
static void expect_walk(int line, orma_type t, size_t count, const char *want)
{
    char got[512] = "";
    struct dtype_sig_cursor c;
    int id, last = -1;
    size_t n, run = 0;
    CHECK_OK(dtype_sig_cursor_init(&c, t, count));
    for (int more = 1; more;) {
        more = dtype_sig_cursor_next(&c, &id, &n);
        if (more && id == last) {
            run += n;
            continue;
        }
        if (run) {
            size_t k = strlen(got);
            const char *name = orma_type_name(ORMA_PREDEFINED(last)) + strlen("ORMA_");
            if (run == 1)
                snprintf(got + k, sizeof got - k, "%s%s", k ? " " : "", name);
            else
                snprintf(got + k, sizeof got - k, "%s%s*%zu", k ? " " : "", name, run);
        }
        last = id;
        run = n;
    }
    dtype_sig_cursor_fini(&c);
    if (strcmp(got, want)) {
        fprintf(stderr, "line %d: walk of %zu: %s, expected %s\n", line, count, got, want);
        exit(1);
    }
}
#define WALK(t, count, want) expect_walk(__LINE__, (t), (count), (want))

/* compare must say DTYPE_SIG_SAME, or differ at element index (byte) with
 * the two ids. */
static void expect_cmp(int line, orma_type a, size_t ac, orma_type b, size_t bc, int want, size_t index, size_t byte,
                       int ida, int idb)
{
    struct dtype_sig_diff d = {0, 0, 0, 0};
    int rc = dtype_sig_compare(a, ac, b, bc, &d);
    if (rc != want ||
        (want == DTYPE_SIG_DIFFER && (d.index != index || d.byte != byte || d.a != ida || d.b != idb))) {
        fprintf(stderr, "line %d: compare returned %d (element %zu byte %zu, %d vs %d), expected %d (element %zu "
                "byte %zu, %d vs %d)\n", line, rc, d.index, d.byte, d.a, d.b, want, index, byte, ida, idb);
        exit(1);
    }
}
#define SAME(a, ac, b, bc) expect_cmp(__LINE__, (a), (ac), (b), (bc), DTYPE_SIG_SAME, 0, 0, 0, 0)
#define DIFFER(a, ac, b, bc, i, byte, ida, idb)                                                                     \
    expect_cmp(__LINE__, (a), (ac), (b), (bc), DTYPE_SIG_DIFFER, (i), (byte), (ida), (idb))
#define T(name) ORMA_TYPEID_##name
#define END (-1) /* that side's sequence has ended */

static orma_type commit(orma_type t)
{
    CHECK_OK(orma_type_commit(&t));
    return t;
}

/* struct {int; float;} */
static orma_type int_float(void)
{
    orma_type t, ts[2] = {ORMA_INT, ORMA_FLOAT};
    CHECK_OK(orma_type_struct(2, (size_t[]){1, 1}, (orma_aint[]){0, 4}, ts, &t));
    return commit(t);
}

static void predefined_and_pairs(void)
{
    SHAPE(ORMA_INT, "INT");
    SHAPE(ORMA_BYTE, "BYTE");
    SHAPE(ORMA_FLOAT_INT, "(FLOAT INT)");
    SHAPE(ORMA_DOUBLE_INT, "(DOUBLE INT)");
    SHAPE(ORMA_LONG_INT, "(LONG INT)");
    SHAPE(ORMA_2INT, "INT*2");
    SHAPE(ORMA_SHORT_INT, "(SHORT INT)");
    SHAPE(ORMA_LONG_DOUBLE_INT, "(LONG_DOUBLE INT)");
    WALK(ORMA_DOUBLE_INT, 2, "DOUBLE INT DOUBLE INT");
    WALK(ORMA_2INT, 3, "INT*6");
    WALK(ORMA_INT, 0, "");

    /* one basic type on both sides: O(1), and exact */
    SAME(ORMA_INT, 4, ORMA_INT, 4);
    DIFFER(ORMA_INT, 4, ORMA_FLOAT, 4, 0, 0, T(INT), T(FLOAT));
    DIFFER(ORMA_BYTE, 4, ORMA_INT, 1, 0, 0, T(BYTE), T(INT));
    DIFFER(ORMA_INT, 3, ORMA_INT, 4, 3, 12, END, T(INT)); /* the origin ends first */
    /* a pair is its members: 2INT is two ints, DOUBLE_INT a double and an int */
    SAME(ORMA_2INT, 2, ORMA_INT, 4);
    DIFFER(ORMA_DOUBLE_INT, 2, ORMA_DOUBLE, 3, 1, 8, T(INT), T(DOUBLE));
    DIFFER(ORMA_FLOAT_INT, 1, ORMA_2INT, 1, 0, 0, T(FLOAT), T(INT));
    DIFFER(ORMA_SHORT_INT, 2, ORMA_SHORT, 4, 1, sizeof(short), T(INT), T(SHORT));

    /* struct {double; int;} is ORMA_DOUBLE_INT, whatever its padding */
    orma_type di, ts[2] = {ORMA_DOUBLE, ORMA_INT};
    CHECK_OK(orma_type_struct(2, (size_t[]){1, 1}, (orma_aint[]){0, 8}, ts, &di));
    di = commit(di);
    SHAPE(di, "(DOUBLE INT)");
    SAME(di, 3, ORMA_DOUBLE_INT, 3);
    SAME(ORMA_DOUBLE_INT, 3, di, 3);
    orma_type li, ts2[2] = {ORMA_LONG, ORMA_INT};
    CHECK_OK(orma_type_struct(2, (size_t[]){1, 1}, (orma_aint[]){0, sizeof(long)}, ts2, &li));
    li = commit(li);
    SAME(li, 2, ORMA_LONG_INT, 2);
    DIFFER(li, 2, ORMA_DOUBLE_INT, 2, 0, 0, T(LONG), T(DOUBLE));
    CHECK_OK(orma_type_free(&di));
    CHECK_OK(orma_type_free(&li));
}

static void vectors_and_contiguous(void)
{
    orma_type s = int_float(), t;
    CHECK_OK(orma_type_contiguous(5, ORMA_INT, &t));
    SHAPE(t, "INT*5");
    SAME(t, 2, ORMA_INT, 10);
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_contiguous(0, ORMA_INT, &t));
    SHAPE(t, "-");
    WALK(t, 3, "");
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_contiguous(3, ORMA_DOUBLE_INT, &t));
    SHAPE(t, "3x(DOUBLE INT)");
    CHECK_OK(orma_type_free(&t));

    /* a million strided blocks of one type: one run */
    CHECK_OK(orma_type_vector(1000000, 2, 5, ORMA_FLOAT, &t));
    t = commit(t);
    SHAPE(t, "FLOAT*2000000");
    SAME(t, 1, ORMA_FLOAT, 2000000);
    DIFFER(t, 1, ORMA_FLOAT, 2000001, 2000000, 8000000, END, T(FLOAT));
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_hvector(3, 2, 100, s, &t));
    t = commit(t);
    SHAPE(t, "6x(INT FLOAT)");
    WALK(t, 1, "INT FLOAT INT FLOAT INT FLOAT INT FLOAT INT FLOAT INT FLOAT");
    SAME(t, 2, s, 12);
    DIFFER(t, 2, ORMA_FLOAT_INT, 12, 0, 0, T(INT), T(FLOAT));
    orma_type v;
    CHECK_OK(orma_type_vector(2, 3, -4, s, &v)); /* repeats of repeats of one part: one repeat */
    SHAPE(v, "6x(INT FLOAT)");
    SAME(v, 2, t, 2); /* the same parts: compared without a look inside */
    CHECK_OK(orma_type_free(&v));
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_free(&s));
}

static void indexed_and_struct(void)
{
    orma_type s = int_float(), t;
    /* the empty block vanishes, the rest merges */
    CHECK_OK(orma_type_indexed(3, (size_t[]){2, 0, 3}, (orma_aint[]){0, 5, 9}, ORMA_INT, &t));
    SHAPE(t, "INT*5");
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_hindexed(2, (size_t[]){1, 2}, (orma_aint[]){64, 0}, s, &t));
    SHAPE(t, "3x(INT FLOAT)");
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_indexed_block(3, 2, (orma_aint[]){0, 4, 9}, ORMA_SHORT_INT, &t));
    SHAPE(t, "6x(SHORT INT)");
    SAME(t, 1, ORMA_SHORT_INT, 6);
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_hindexed_block(2, 1, (orma_aint[]){16, 0}, ORMA_2INT, &t));
    SHAPE(t, "INT*4");
    CHECK_OK(orma_type_free(&t));

    /* struct: blocks in the order given, not by address */
    orma_type ts[4] = {ORMA_FLOAT, ORMA_INT, ORMA_DOUBLE, ORMA_FLOAT};
    CHECK_OK(orma_type_struct(2, (size_t[]){1, 1}, (orma_aint[]){4, 0}, ts, &t));
    SHAPE(t, "(FLOAT INT)");
    DIFFER(t, 1, s, 1, 0, 0, T(FLOAT), T(INT));
    CHECK_OK(orma_type_free(&t));
    /* empty blocks vanish; neighbouring runs of one type merge */
    orma_type ts2[4] = {ORMA_INT, ORMA_2INT, ORMA_DOUBLE, ORMA_FLOAT};
    CHECK_OK(orma_type_struct(4, (size_t[]){2, 1, 0, 1}, (orma_aint[]){0, 8, 16, 24}, ts2, &t));
    SHAPE(t, "(INT*4 FLOAT)");
    WALK(t, 2, "INT*4 FLOAT INT*4 FLOAT");
    DIFFER(t, 2, ORMA_INT, 10, 4, 16, T(FLOAT), T(INT));
    CHECK_OK(orma_type_free(&t));
    /* a struct member that is a struct is spliced in */
    orma_type ts3[3] = {ORMA_FLOAT, s, ORMA_DOUBLE};
    CHECK_OK(orma_type_struct(3, (size_t[]){1, 1, 2}, (orma_aint[]){0, 8, 16}, ts3, &t));
    SHAPE(t, "(FLOAT INT FLOAT DOUBLE*2)");
    CHECK_OK(orma_type_free(&t));
    /* blocks of one member type: one repeat */
    orma_type ts4[2] = {s, s};
    CHECK_OK(orma_type_struct(2, (size_t[]){2, 1}, (orma_aint[]){0, 32}, ts4, &t));
    t = commit(t);
    SHAPE(t, "3x(INT FLOAT)");
    orma_type u;
    CHECK_OK(orma_type_contiguous(3, s, &u));
    SAME(t, 4, u, 4);
    SAME(t, 4, s, 12);
    CHECK_OK(orma_type_free(&u));
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_free(&s));
}

static void subarray_resized_dup(void)
{
    orma_type s = int_float(), t, r;
    size_t sizes[2] = {4, 5}, subs[2] = {2, 3}, starts[2] = {1, 1};
    CHECK_OK(orma_type_subarray(2, sizes, subs, starts, ORMA_ORDER_C, s, &t));
    SHAPE(t, "6x(INT FLOAT)");
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_subarray(2, sizes, subs, starts, ORMA_ORDER_FORTRAN, ORMA_DOUBLE, &t));
    SHAPE(t, "DOUBLE*6");
    CHECK_OK(orma_type_free(&t));
    /* resized and dup keep the signature itself */
    CHECK_OK(orma_type_resized(s, -4, 24, &r));
    CHECK(sig_of(r) == sig_of(s));
    CHECK_OK(orma_type_dup(r, &t));
    CHECK(sig_of(t) == sig_of(s));
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_dup(ORMA_LONG_DOUBLE_INT, &t));
    SHAPE(t, "(LONG_DOUBLE INT)");
    CHECK_OK(orma_type_free(&t));
    CHECK_OK(orma_type_free(&r));
    CHECK_OK(orma_type_free(&s));
}

/* Types made without a signature (as a deserializer may): the basic type
 * repeated, or unknown when the data is mixed. */
static void without_signature(void)
{
    orma_type a, b, m, c;
    CHECK_OK(dtype_derived_create(dtype_node_leaf(3 * sizeof(int)), 0, 3 * sizeof(int), sizeof(int), &a));
    dtype_derived_of(a)->basic = ORMA_TYPEID_INT;
    dtype_derived_of(a)->committed = 1;
    CHECK(sig_of(a) == NULL);
    WALK(a, 2, "INT*6");
    SAME(a, 2, ORMA_INT, 6);
    DIFFER(ORMA_FLOAT, 6, a, 2, 0, 0, T(FLOAT), T(INT));
    CHECK_OK(dtype_derived_create(dtype_node_leaf(2 * 12), 0, 32, 8, &b));
    dtype_derived_of(b)->basic = ORMA_TYPEID_DOUBLE_INT;
    WALK(b, 1, "DOUBLE INT DOUBLE INT");
    DIFFER(b, 1, ORMA_DOUBLE, 2, 1, 8, T(INT), T(DOUBLE));
    /* built on: the new type has the signature spelled out */
    CHECK_OK(orma_type_contiguous(2, a, &c));
    SHAPE(c, "INT*6");
    CHECK_OK(orma_type_free(&c));
    CHECK_OK(dtype_derived_create(dtype_node_leaf(8), 0, 8, 4, &m)); /* basic: DTYPE_MIXED */
    struct dtype_sig_diff d;
    CHECK(dtype_sig_compare(m, 1, ORMA_INT, 2, &d) == DTYPE_SIG_UNKNOWN);
    CHECK(dtype_sig_compare(ORMA_FLOAT, 2, m, 1, &d) == DTYPE_SIG_UNKNOWN);
    orma_type ts[2] = {ORMA_INT, m};
    CHECK_OK(orma_type_struct(2, (size_t[]){1, 1}, (orma_aint[]){0, 4}, ts, &c));
    CHECK(sig_of(c) == NULL);
    CHECK(dtype_sig_compare(c, 1, ORMA_INT, 3, &d) == DTYPE_SIG_UNKNOWN);
    CHECK_OK(orma_type_free(&c));
    CHECK_OK(orma_type_free(&m));
    CHECK_OK(orma_type_free(&b));
    CHECK_OK(orma_type_free(&a));
}

/* Level k: struct {contiguous(2, level k-1); int;}, level 0 a float: two
 * levels of signature per level of type, deeper than the walk's frames on
 * the stack.  Its sequence, spelled out recursively, is what every walk
 * and comparison must find. */
enum { LEVELS = 20 };

static orma_type deep_type(int base_id)
{
    orma_type t = ORMA_PREDEFINED(base_id);
    for (int k = 0; k < LEVELS; k++) {
        orma_type pair, next, ts[2];
        CHECK_OK(orma_type_contiguous(2, t, &pair));
        ts[0] = pair;
        ts[1] = ORMA_INT;
        CHECK_OK(orma_type_struct(2, (size_t[]){1, 1}, (orma_aint[]){0, (orma_aint)pair->size}, ts, &next));
        CHECK_OK(orma_type_free(&pair));
        if (k)
            CHECK_OK(orma_type_free(&t));
        t = next;
    }
    return commit(t);
}

static size_t deep_spell(int *out, int level, int base_id)
{
    if (level == 0) {
        out[0] = base_id;
        return 1;
    }
    size_t n = deep_spell(out, level - 1, base_id);
    memcpy(out + n, out, n * sizeof *out);
    out[2 * n] = ORMA_TYPEID_INT;
    return 2 * n + 1;
}

static void deep(void)
{
    orma_type a = deep_type(ORMA_TYPEID_FLOAT), b = deep_type(ORMA_TYPEID_FLOAT), c = deep_type(ORMA_TYPEID_UNSIGNED);
    CHECK(sig_of(a)->depth > DTYPE_SIG_FRAMES && sig_of(a) != sig_of(b));
    size_t len = ((size_t)1 << (LEVELS + 1)) - 1;
    int *want = malloc(len * sizeof *want);
    CHECK(want && deep_spell(want, LEVELS, ORMA_TYPEID_FLOAT) == len && sig_of(a)->len == len);
    struct dtype_sig_cursor cur;
    int id;
    size_t n, k = 0;
    CHECK_OK(dtype_sig_cursor_init(&cur, a, 2));
    while (dtype_sig_cursor_next(&cur, &id, &n))
        for (size_t m = 0; m < n; m++, k++)
            CHECK(k < 2 * len && want[k % len] == id);
    CHECK(k == 2 * len && cur.byte == 2 * a->size);
    dtype_sig_cursor_fini(&cur);
    SAME(a, 2, b, 2);
    DIFFER(a, 1, c, 1, 0, 0, T(FLOAT), T(UNSIGNED));
    /* the same parts, one level down: a's element is 2x level 19 and an int */
    orma_type ts[2] = {ORMA_FLOAT, ORMA_INT};
    orma_type d;
    CHECK_OK(orma_type_struct(2, (size_t[]){len - 1, 1}, (orma_aint[]){0, 0}, ts, &d));
    DIFFER(a, 1, d, 1, 2, 8, T(INT), T(FLOAT));
    CHECK_OK(orma_type_free(&d));
    free(want);
    CHECK_OK(orma_type_free(&a));
    CHECK_OK(orma_type_free(&b));
    CHECK_OK(orma_type_free(&c));
}

int main(int argc, char **argv)
{
    CHECK_OK(orma_init(&argc, &argv));
    predefined_and_pairs();
    vectors_and_contiguous();
    indexed_and_struct();
    subarray_resized_dup();
    without_signature();
    deep();
    CHECK_OK(orma_finalize());
    printf("dtype_sig_api: passed\n");
    return 0;
}
