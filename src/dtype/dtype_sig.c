/* dtype_sig.c -- building normalised signatures (see dtype_sig.h). */
#include "dtype_sig.h"
#include "dtype_derived.h"

#include <stdlib.h>

/* The basic types are runs of one; the pairs their two members (2INT a
 * run of two ints, as adjacent runs of one id merge). */
static struct dtype_sig dtype_sig_static[ORMA_TYPEID_COUNT];

_Static_assert(ORMA_TYPEID_FLOAT_INT + 6 == ORMA_TYPEID_COUNT, "every pair type needs its members below");

#define DTYPE_SIG_MEMBERS(vname) {&dtype_sig_static[ORMA_TYPEID_##vname], &dtype_sig_static[ORMA_TYPEID_INT]}
static struct dtype_sig *dtype_sig_members[][2] = {
    DTYPE_SIG_MEMBERS(FLOAT), DTYPE_SIG_MEMBERS(DOUBLE), DTYPE_SIG_MEMBERS(LONG),
    DTYPE_SIG_MEMBERS(SHORT), DTYPE_SIG_MEMBERS(LONG_DOUBLE),
};

#define DTYPE_SIG_BASIC(name, ctype)                                                                  \
    [ORMA_TYPEID_##name] = {.kind = DS_RUN, .depth = 1, .len = 1, .size = sizeof(ctype),               \
                            .u.run = {ORMA_TYPEID_##name, 1}},
#define DTYPE_SIG_PAIR(name, vtype, k)                                                                \
    [ORMA_TYPEID_##name] = {.kind = DS_CONCAT, .depth = 2, .len = 2, .size = sizeof(vtype) + sizeof(int), \
                            .u.concat = {2, dtype_sig_members[k]}},
static struct dtype_sig dtype_sig_static[ORMA_TYPEID_COUNT] = {
    ORMA_PREDEFINED_TYPE_LIST(DTYPE_SIG_BASIC)
    DTYPE_SIG_PAIR(FLOAT_INT, float, 0)
    DTYPE_SIG_PAIR(DOUBLE_INT, double, 1)
    DTYPE_SIG_PAIR(LONG_INT, long, 2)
    DTYPE_SIG_PAIR(SHORT_INT, short, 3)
    DTYPE_SIG_PAIR(LONG_DOUBLE_INT, long double, 4)
    [ORMA_TYPEID_2INT] = {.kind = DS_RUN, .depth = 1, .len = 2, .size = 2 * sizeof(int),
                          .u.run = {ORMA_TYPEID_INT, 2}},
};

static struct dtype_sig dtype_sig_none = {.kind = DS_RUN, .depth = 1}; /* the empty signature */

struct dtype_sig *dtype_sig_predefined(int typeid_) { return &dtype_sig_static[typeid_]; }

struct dtype_sig *dtype_sig_ref(struct dtype_sig *s)
{
    if (s->refs)
        s->refs++;
    return s;
}

void dtype_sig_unref(struct dtype_sig *s)
{
    if (!s || !s->refs || --s->refs)
        return;
    if (s->kind == DS_REPEAT) {
        dtype_sig_unref(s->u.repeat.child);
    } else if (s->kind == DS_CONCAT) {
        for (size_t i = 0; i < s->u.concat.n; i++)
            dtype_sig_unref(s->u.concat.c[i]);
        free(s->u.concat.c);
    }
    free(s);
}

static struct dtype_sig *dtype_sig_new(int kind, uint32_t depth, size_t len, size_t size)
{
    struct dtype_sig *s = calloc(1, sizeof *s);
    if (s)
        *s = (struct dtype_sig){.refs = 1, .kind = (uint16_t)kind, .depth = depth, .len = len, .size = size};
    return s;
}

/* s as *reps_p copies of a unit: a run as copies of its basic type, a
 * repeat as copies of its child, anything else as itself once.  Adjacent
 * parts with the same unit merge into one run or repeat. */
static struct dtype_sig *dtype_sig_unit(struct dtype_sig *s, size_t *reps_p)
{
    if (s->kind == DS_RUN) {
        *reps_p = s->u.run.n;
        return &dtype_sig_static[s->u.run.id];
    }
    if (s->kind == DS_REPEAT) {
        *reps_p = s->u.repeat.count;
        return s->u.repeat.child;
    }
    *reps_p = 1;
    return s;
}

/* reps (> 0) copies of a unit of dtype_sig_unit. */
static struct dtype_sig *dtype_sig_copies(struct dtype_sig *unit, size_t reps)
{
    if (reps == 1)
        return dtype_sig_ref(unit);
    if (unit->kind == DS_RUN) {
        struct dtype_sig *s = dtype_sig_new(DS_RUN, 1, reps, reps * unit->size);
        if (s) {
            s->u.run.id = unit->u.run.id;
            s->u.run.n = reps;
        }
        return s;
    }
    struct dtype_sig *s = dtype_sig_new(DS_REPEAT, unit->depth + 1, reps * unit->len, reps * unit->size);
    if (s) {
        s->u.repeat.count = reps;
        s->u.repeat.child = dtype_sig_ref(unit);
    }
    return s;
}

struct dtype_sig *dtype_sig_repeat(size_t count, struct dtype_sig *child)
{
    if (count == 0 || child->len == 0)
        return dtype_sig_ref(&dtype_sig_none);
    size_t reps;
    struct dtype_sig *unit = dtype_sig_unit(child, &reps);
    return dtype_sig_copies(unit, reps * count);
}

/* The children of a concatenation as they are collected: the last unit is
 * held back until a different one comes. */
struct dtype_sig_build {
    struct dtype_sig **e;
    size_t k;
    struct dtype_sig *unit;
    size_t reps;
    int failed;
};

static void dtype_sig_flush(struct dtype_sig_build *b)
{
    if (!b->unit)
        return;
    struct dtype_sig *s = dtype_sig_copies(b->unit, b->reps);
    if (s)
        b->e[b->k++] = s;
    else
        b->failed = 1;
    b->unit = NULL;
}

static void dtype_sig_push(struct dtype_sig_build *b, struct dtype_sig *unit, size_t reps)
{
    if (unit == b->unit) {
        b->reps += reps;
        return;
    }
    dtype_sig_flush(b);
    b->unit = unit;
    b->reps = reps;
}

struct dtype_sig *dtype_sig_concat(size_t n, struct dtype_sig *const *children)
{
    size_t cap = 0;
    for (size_t i = 0; i < n; i++)
        cap += children[i]->kind == DS_CONCAT ? children[i]->u.concat.n : 1;
    struct dtype_sig_build b = {.e = malloc((cap ? cap : 1) * sizeof *b.e)};
    if (!b.e)
        return NULL;
    for (size_t i = 0; i < n;) {
        size_t reps, r;
        if (children[i]->len == 0) {
            i++;
            continue;
        }
        /* Neighbours made of the same unit first: indexed blocks of one
         * struct become one repeat rather than its runs spelled out. */
        struct dtype_sig *unit = dtype_sig_unit(children[i], &reps);
        size_t j = i + 1;
        for (; j < n; j++) {
            if (children[j]->len == 0)
                continue;
            if (dtype_sig_unit(children[j], &r) != unit)
                break;
            reps += r;
        }
        if (unit->kind == DS_CONCAT && reps == 1) {
            for (size_t m = 0; m < unit->u.concat.n; m++) {
                struct dtype_sig *part = dtype_sig_unit(unit->u.concat.c[m], &r);
                dtype_sig_push(&b, part, r);
            }
        } else {
            dtype_sig_push(&b, unit, reps);
        }
        i = j;
    }
    dtype_sig_flush(&b);
    if (b.failed)
        goto err;
    if (b.k < 2) {
        struct dtype_sig *only = b.k ? b.e[0] : dtype_sig_ref(&dtype_sig_none);
        free(b.e);
        return only;
    }
    uint32_t depth = 0;
    size_t len = 0, size = 0;
    for (size_t i = 0; i < b.k; i++) {
        depth = b.e[i]->depth > depth ? b.e[i]->depth : depth;
        len += b.e[i]->len;
        size += b.e[i]->size;
    }
    struct dtype_sig *s = dtype_sig_new(DS_CONCAT, depth + 1, len, size);
    if (!s)
        goto err;
    struct dtype_sig **e = b.k < cap ? realloc(b.e, b.k * sizeof *e) : b.e;
    s->u.concat.n = b.k;
    s->u.concat.c = e ? e : b.e;
    return s;
err:
    for (size_t i = 0; i < b.k; i++)
        dtype_sig_unref(b.e[i]);
    free(b.e);
    return NULL;
}

int dtype_sig_get(orma_type t, struct dtype_sig **sig_p)
{
    if (t->predefined) {
        *sig_p = &dtype_sig_static[t->id];
        return ORMA_SUCCESS;
    }
    const struct dtype_derived *d = dtype_derived_of(t);
    struct dtype_sig *s = NULL;
    if (d->sig) {
        s = dtype_sig_ref(d->sig);
    } else if (d->basic != DTYPE_MIXED) {
        struct dtype_sig *one = &dtype_sig_static[d->basic];
        s = dtype_sig_repeat(t->size / one->size, one);
        if (!s)
            return ORMA_ERR_NOMEM;
    }
    *sig_p = s;
    return ORMA_SUCCESS;
}
