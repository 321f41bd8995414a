/* fuzz_dtype.c -- a fuzz target for the datatype engine.
 *
 * The first byte chooses what the rest is:
 *  - (byte % 4 == 0) raw bytes for dtype_deserialize: refused, or a type
 *    that is sound and round-trips (dtype_check.h);
 *  - otherwise a program of public constructor calls on a small stack of
 *    types, arguments taken from the bytes, absurd ones included (counts
 *    near SIZE_MAX, displacements near PTRDIFF_MIN/MAX).  A call that fails
 *    leaves its output alone; one that succeeds has the data size its
 *    arguments imply (and must have failed if that overflows); every type,
 *    once committed, passes dtype_check_type and dtype_check_roundtrip.
 * Everything is freed at the end of each input. */
#include "dtype_check.h"
#include "dtype_derived.h"
#include "dtype_serial.h"
#include "fuzz.h"

#include <stdlib.h>

#define FUZZ_TYPES 6
#define FUZZ_ARRAY 8
/* Structs and indexed types cost an entry per block of a sequence child:
 * calls that would build more are skipped, not run out of memory. */
#define FUZZ_MAX_ENTRIES 100000

#define SENTINEL ((orma_type)(void *)&fuzz_sentinel)
static char fuzz_sentinel;

static void fuzz_finalize(void) { orma_finalize(); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("ORMA_LOG_LEVEL", "none", 0); /* most calls fail, on purpose */
    if (orma_init(NULL, NULL) != ORMA_SUCCESS)
        abort();
    atexit(fuzz_finalize);
    return 0;
}

struct prog {
    const uint8_t *p;
    size_t n, pos;
};

static uint8_t next8(struct prog *g) { return g->pos < g->n ? g->p[g->pos++] : 0; }

static uint64_t next64(struct prog *g)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)next8(g) << (8 * i);
    return v;
}

/* Mostly small; else a power of two, the top of the range, or any. */
static size_t next_count(struct prog *g)
{
    uint8_t b = next8(g);
    if (b < 128)
        return b & 7;
    if (b < 192)
        return (size_t)1 << (b & 63);
    return b & 32 ? SIZE_MAX - (b & 15) : (size_t)next64(g);
}

static orma_aint next_disp(struct prog *g)
{
    uint8_t b = next8(g);
    if (b < 128)
        return (orma_aint)(b & 63) - 32;
    if (b < 192)
        return (b & 1 ? -1 : 1) * ((orma_aint)1 << ((b >> 1) & 31) * 2 % 63);
    if (b < 224)
        return b & 1 ? PTRDIFF_MAX - (b >> 1 & 7) : PTRDIFF_MIN + (b >> 1 & 7);
    return (orma_aint)next64(g);
}

struct stack {
    orma_type t[FUZZ_TYPES];
    size_t n;
};

/* A type off the stack, a predefined one, or NULL. */
static orma_type pick(struct stack *s, struct prog *g)
{
    size_t b = next8(g) % (s->n + ORMA_TYPEID_COUNT + 1);
    if (b < s->n)
        return s->t[b];
    return b == s->n ? NULL : ORMA_PREDEFINED(b - s->n - 1);
}

static int is_committed(orma_type t) { return t->predefined || dtype_derived_of(t)->committed; }

static void check(orma_type t)
{
    dtype_check_type(t, "fuzz");
    if (is_committed(t)) {
        dtype_check_roundtrip(t, "fuzz");
    } else {
        size_t len = 0;
        DCHECK("fuzz: serialize uncommitted", dtype_serialize(t, NULL, 0, &len) == ORMA_ERR_TYPE);
    }
}

static void drop(struct stack *s, size_t i)
{
    DCHECK("fuzz: free", orma_type_free(&s->t[i]) == ORMA_SUCCESS && s->t[i] == NULL);
    for (size_t k = i + 1; k < s->n; k++)
        s->t[k - 1] = s->t[k];
    s->n--;
}

/* Data size a call implies, or over = 1 when it overflows. */
struct expect {
    size_t size;
    int over;
};

static void expect_add(struct expect *e, size_t a, size_t b)
{
    size_t m;
    e->over |= __builtin_mul_overflow(a, b, &m) || __builtin_add_overflow(e->size, m, &e->size);
}

/* What any constructor call must have done. */
static void settle(struct stack *s, int status, const orma_type *t_p, const struct expect *e)
{
    orma_type t = *t_p; /* read after the call: arguments are unordered */
    if (status != ORMA_SUCCESS) {
        DCHECK("fuzz: failed call", t == SENTINEL && status < 0 && status > ORMA_ERR_LAST);
        return;
    }
    DCHECK("fuzz: size of a call that overflows", !e->over);
    DCHECK("fuzz: size", t->size == e->size);
    check(t);
    if (s->n == FUZZ_TYPES)
        drop(s, 0);
    s->t[s->n++] = t;
}

static size_t entries_of(orma_type t)
{
    const struct dtype_node *n = t && dtype_is_type(t) ? dtype_layout(t) : NULL;
    return n && n->kind == DN_SEQ ? n->u.seq.n : 1;
}

static void op_blocks(struct stack *s, struct prog *g, int op)
{
    size_t count = next8(g) % (FUZZ_ARRAY + 1), bl[FUZZ_ARRAY], blk = next_count(g), cost = 0;
    orma_aint disp[FUZZ_ARRAY];
    orma_type types[FUZZ_ARRAY], old = pick(s, g), t = SENTINEL;
    struct expect e = {0, 0};
    int valid = op == 3 || old != NULL;
    for (size_t i = 0; i < count; i++) {
        bl[i] = next_count(g);
        disp[i] = next_disp(g);
        types[i] = op == 4 ? pick(s, g) : old;
        valid &= types[i] != NULL;
        if (valid)
            expect_add(&e, op == 2 ? blk : bl[i], types[i]->size);
        cost += entries_of(types[i]);
    }
    if (cost > FUZZ_MAX_ENTRIES)
        return;
    int status;
    switch (op) {
    case 0: status = orma_type_indexed(count, bl, disp, old, &t); break;
    case 1: status = orma_type_hindexed(count, bl, disp, old, &t); break;
    case 2: status = (next8(g) & 1 ? orma_type_indexed_block : orma_type_hindexed_block)(count, blk, disp, old, &t);
        break;
    default: status = orma_type_struct(count, bl, disp, types, &t); break;
    }
    DCHECK("fuzz: invalid type accepted", valid || status != ORMA_SUCCESS);
    settle(s, status, &t, &e);
}

static void op_subarray(struct stack *s, struct prog *g)
{
    int ndims = (int)(next8(g) % 6) - 1, order = (int)(next8(g) % 3);
    size_t sizes[4], sub[4], starts[4];
    orma_type old = pick(s, g), t = SENTINEL;
    struct expect e = {1, 0};
    for (int d = 0; d < 4; d++) {
        sizes[d] = next_count(g);
        sub[d] = next8(g) & 1 ? sizes[d] : next_count(g);
        starts[d] = next8(g) & 1 ? 0 : next_count(g);
        if (d < ndims)
            e.over |= __builtin_mul_overflow(e.size, sub[d], &e.size);
    }
    if (old)
        e.over |= __builtin_mul_overflow(e.size, old->size, &e.size);
    order = order == 2 ? 7 : order; /* neither C nor Fortran */
    settle(s, orma_type_subarray(ndims, sizes, sub, starts, order, old, &t), &t, &e);
}

/* One call of the program. */
static void step(struct stack *s, struct prog *g)
{
    int op = next8(g) % 12;
    orma_type old = pick(s, g), t = SENTINEL;
    struct expect e = {0, 0};
    size_t count, bl;
    orma_aint a, b;
    switch (op) {
    case 0:
        count = next_count(g);
        if (old)
            expect_add(&e, count, old->size);
        settle(s, orma_type_contiguous(count, old, &t), &t, &e);
        break;
    case 1:
    case 2:
        count = next_count(g);
        bl = next_count(g);
        a = next_disp(g);
        if (old)
            expect_add(&e, bl, old->size), e.over |= __builtin_mul_overflow(count, e.size, &e.size);
        settle(s, (op == 1 ? orma_type_vector : orma_type_hvector)(count, bl, a, old, &t), &t, &e);
        break;
    case 3:
    case 4:
    case 5:
    case 6:
        op_blocks(s, g, op - 3);
        break;
    case 7:
        op_subarray(s, g);
        break;
    case 8:
        a = next_disp(g);
        b = next_disp(g);
        e.size = old ? old->size : 0;
        settle(s, orma_type_resized(old, a, b, &t), &t, &e);
        if (t != SENTINEL)
            DCHECK("fuzz: resized bounds", dtype_lb(t) == a && dtype_extent(t) == b);
        break;
    case 9: {
        /* settle may free old to make room: look at it first */
        ptrdiff_t lb = old ? dtype_lb(old) : 0, ext = old ? dtype_extent(old) : 0;
        int was_committed = old ? is_committed(old) : 0;
        e.size = old ? old->size : 0;
        settle(s, orma_type_dup(old, &t), &t, &e);
        if (t != SENTINEL)
            DCHECK("fuzz: dup", dtype_lb(t) == lb && dtype_extent(t) == ext && is_committed(t) == was_committed);
        break;
    }
    case 10:
        if (!old || old->predefined) {
            DCHECK("fuzz: commit", orma_type_commit(old ? &old : NULL) == (old ? ORMA_SUCCESS : ORMA_ERR_TYPE));
        } else {
            DCHECK("fuzz: commit", orma_type_commit(&old) == ORMA_SUCCESS && is_committed(old));
            check(old);
        }
        break;
    default:
        for (size_t i = 0; i < s->n; i++)
            if (s->t[i] == old) {
                drop(s, i);
                return;
            }
        if (old)
            DCHECK("fuzz: free predefined", orma_type_free(&old) == ORMA_ERR_TYPE);
        break;
    }
}

static void deserialize_raw(const uint8_t *data, size_t size)
{
    orma_type t = SENTINEL;
    int status = dtype_deserialize(data, size, &t);
    if (status != ORMA_SUCCESS) {
        DCHECK("fuzz: refused bytes", t == SENTINEL && (status == ORMA_ERR_TYPE || status == ORMA_ERR_NOMEM));
        return;
    }
    check(t);
    if (!t->predefined)
        DCHECK("fuzz: free", orma_type_free(&t) == ORMA_SUCCESS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    if (data[0] % 4 == 0) {
        deserialize_raw(data + 1, size - 1);
        return 0;
    }
    struct prog g = {data + 1, size - 1, 0};
    struct stack s = {.n = 0};
    while (g.pos < g.n)
        step(&s, &g);
    while (s.n) {
        check(s.t[s.n - 1]);
        drop(&s, s.n - 1);
    }
    return 0;
}
