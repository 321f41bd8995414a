/* dtype_fuzz_ref.c -- random constructions and their naive reference
 * typemaps (see dtype_fuzz.h). */
#include "dtype_fuzz.h"

#include <complex.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t fuzz_next(struct fuzz_rng *r)
{
    /* splitmix64: every seed, including 0, gives a full-period stream */
    uint64_t z = (r->s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

long fuzz_range(struct fuzz_rng *r, long lo, long hi)
{
    return lo + (long)(fuzz_next(r) % (uint64_t)(hi - lo + 1));
}

long fuzz_args(int argc, char **argv, long ntypes)
{
    if (argc > 1)
        fuzz_seed = strtoull(argv[1], NULL, 0);
    return argc > 2 ? strtol(argv[2], NULL, 0) : ntypes;
}

/* ---- growing strings for the descriptions ---- */

struct sbuf {
    char *p;
    size_t n, cap;
};

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->n + (size_t)need + 1 > b->cap) {
        size_t cap = 2 * (b->n + (size_t)need + 1);
        char *p = realloc(b->p, cap);
        if (!p) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        b->p = p;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)need;
}

static void sb_sizes(struct sbuf *b, size_t n, const size_t *v)
{
    sb_printf(b, "{");
    for (size_t i = 0; i < n; i++)
        sb_printf(b, "%s%zu", i ? "," : "", v[i]);
    sb_printf(b, "}");
}

static void sb_disps(struct sbuf *b, size_t n, const orma_aint *v)
{
    sb_printf(b, "{");
    for (size_t i = 0; i < n; i++)
        sb_printf(b, "%s%td", i ? "," : "", (ptrdiff_t)v[i]);
    sb_printf(b, "}");
}

/* ---- predefined types ---- */

struct predef_row {
    int id, vid; /* vid: the type of the value (of a pair) */
    size_t vsize, align, index_off, extent; /* index_off 0: not a pair */
};

#define MAXOF(a, b) ((a) > (b) ? (a) : (b))
#define PREDEF_ROW(name, ctype) {ORMA_TYPEID_##name, ORMA_TYPEID_##name, sizeof(ctype), alignof(ctype), 0, sizeof(ctype)},
#define VALUE_ID(vtype)                                                                                             \
    _Generic((vtype)0, float: ORMA_TYPEID_FLOAT, double: ORMA_TYPEID_DOUBLE, long: ORMA_TYPEID_LONG,                 \
             int: ORMA_TYPEID_INT, short: ORMA_TYPEID_SHORT, long double: ORMA_TYPEID_LONG_DOUBLE)
#define PAIR_ROW(name, stype, vtype)                                                                                \
    {ORMA_TYPEID_##name, VALUE_ID(vtype), sizeof(vtype), MAXOF(alignof(vtype), alignof(int)), offsetof(stype, index), \
     sizeof(stype)},
static const struct predef_row predef_rows[] = {ORMA_PREDEFINED_TYPE_LIST(PREDEF_ROW) ORMA_PAIR_TYPE_LIST(PAIR_ROW)};
#define NPREDEF (sizeof predef_rows / sizeof predef_rows[0])

static struct ref_type predef_refs[NPREDEF];
static struct ref_ent predef_ents[NPREDEF][2];

size_t ref_predefined_count(void) { return NPREDEF; }

const struct ref_type *ref_predefined(size_t i)
{
    struct ref_type *t = &predef_refs[i];
    if (!t->h) {
        const struct predef_row *row = &predef_rows[i];
        predef_ents[i][0] = (struct ref_ent){0, row->vsize, row->vid};
        predef_ents[i][1] = (struct ref_ent){(ptrdiff_t)row->index_off, sizeof(int), ORMA_TYPEID_INT};
        t->h = ORMA_PREDEFINED(row->id);
        t->n = row->index_off ? 2 : 1;
        t->e = predef_ents[i];
        t->lb = 0;
        t->ub = (ptrdiff_t)row->extent;
        t->align = row->align;
        t->size = row->vsize + (row->index_off ? sizeof(int) : 0);
        t->desc = (char *)orma_type_name(t->h);
    }
    return t;
}

/* ---- reference construction ---- */

static ptrdiff_t absd(ptrdiff_t v) { return v < 0 ? -v : v; }

/* Append the entries of one copy of c at offset o. */
static void ref_append(struct ref_type *t, const struct ref_type *c, ptrdiff_t o)
{
    for (size_t j = 0; j < c->n; j++)
        t->e[t->n++] = (struct ref_ent){o + c->e[j].disp, c->e[j].len, c->e[j].id};
}

/* Bounds, size and the span check shared by every constructor; returns 1
 * when the type is too large to test cheaply. */
static int ref_finish(struct ref_type *t)
{
    t->size = 0;
    for (size_t i = 0; i < t->n; i++) {
        t->size += t->e[i].len;
        if (absd(t->e[i].disp) > REF_MAX_SPAN / 4)
            return 1;
    }
    return absd(t->lb) > REF_MAX_SPAN / 4 || absd(t->ub) > REF_MAX_SPAN / 4;
}

/* nb blocks: block i is bl[i] copies of types[i], the k-th at byte
 * disp[i] + k * extent(types[i]).  Each copy contributes its own bounds
 * (lb(T) .. ub(T) shifted), so resized children propagate theirs. */
static int ref_blocks(struct ref_type *t, size_t nb, const ptrdiff_t *disp, const size_t *bl,
                      const struct ref_type *const *types, const struct ref_type *old, int is_struct)
{
    size_t total = 0;
    for (size_t i = 0; i < nb; i++)
        total += bl[i] * types[i]->n;
    if (total > REF_MAX_ENTRIES)
        return 1;
    t->e = malloc((total ? total : 1) * sizeof *t->e);
    t->n = 0;
    int any = 0;
    t->lb = t->ub = 0;
    t->align = is_struct ? 1 : old->align;
    for (size_t i = 0; i < nb; i++) {
        const struct ref_type *c = types[i];
        if (is_struct && bl[i] && c->align > t->align) /* a member of no elements is not in the typemap */
            t->align = c->align;
        for (size_t k = 0; k < bl[i]; k++) {
            ptrdiff_t o = disp[i] + (ptrdiff_t)k * ref_extent(c);
            ref_append(t, c, o);
            if (!any || o + c->lb < t->lb)
                t->lb = o + c->lb;
            if (!any || o + c->ub > t->ub)
                t->ub = o + c->ub;
            any = 1;
        }
    }
    if (is_struct && t->align > 1 && t->ub > t->lb) {
        ptrdiff_t a = (ptrdiff_t)t->align, ext = t->ub - t->lb;
        t->ub = t->lb + (ext + a - 1) / a * a;
    }
    return ref_finish(t);
}

static void ref_copy_entries(struct ref_type *t, const struct ref_type *c)
{
    t->e = malloc((c->n ? c->n : 1) * sizeof *t->e);
    t->n = 0;
    ref_append(t, c, 0);
}

/* The subarray's elements in typemap order: the fastest dimension last in
 * C order, first in Fortran order. */
static int ref_subarray(struct ref_type *t, int nd, const size_t *sizes, const size_t *sub, const size_t *starts,
                        int order, const struct ref_type *c)
{
    size_t elems = 1, mult[3], idx[3] = {0, 0, 0};
    for (int d = 0; d < nd; d++)
        elems *= sub[d];
    if (elems * c->n > REF_MAX_ENTRIES)
        return 1;
    size_t m = 1;
    for (int k = 0; k < nd; k++) {
        int d = order == ORMA_ORDER_C ? nd - 1 - k : k;
        mult[d] = m;
        m *= sizes[d];
    }
    t->e = malloc((elems * c->n > 0 ? elems * c->n : 1) * sizeof *t->e);
    t->n = 0;
    for (size_t i = 0; i < elems; i++) {
        size_t flat = 0;
        for (int d = 0; d < nd; d++)
            flat += (starts[d] + idx[d]) * mult[d];
        ref_append(t, c, (ptrdiff_t)flat * ref_extent(c));
        for (int k = 0; k < nd; k++) { /* odometer, fastest dimension first */
            int d = order == ORMA_ORDER_C ? nd - 1 - k : k;
            if (++idx[d] < sub[d])
                break;
            idx[d] = 0;
        }
    }
    t->lb = 0;
    t->ub = (ptrdiff_t)m * ref_extent(c);
    t->align = c->align;
    return ref_finish(t);
}

/* ---- random draws ---- */

static const struct ref_type *pick_child(struct fuzz_rng *r, struct ref_type *const *pool, size_t npool)
{
    if (npool && fuzz_range(r, 0, 99) >= 35) {
        for (int tries = 0; tries < 4; tries++) {
            const struct ref_type *c = pool[fuzz_range(r, 0, (long)npool - 1)];
            /* empty children mostly make empty types: take few of them */
            if (c->depth < REF_MAX_DEPTH && (c->size || fuzz_range(r, 0, 3) == 0))
                return c;
        }
    }
    return ref_predefined((size_t)fuzz_range(r, 0, (long)NPREDEF - 1));
}

enum { K_CONTIG, K_VECTOR, K_HVECTOR, K_INDEXED, K_HINDEXED, K_INDEXED_BLOCK, K_HINDEXED_BLOCK, K_STRUCT,
       K_SUBARRAY, K_RESIZED, K_DUP, K_COUNT };

static const char *const kind_names[K_COUNT] = {"contiguous", "vector", "hvector", "indexed", "hindexed",
                                                "indexed_block", "hindexed_block", "struct", "subarray",
                                                "resized", "dup"};

/* A library error on a valid construction: report and stop. */
static void ref_check_status(int status, struct ref_type *t)
{
    if (status != ORMA_SUCCESS)
        fuzz_fail(t, "constructor returned %d (%s): %s", status, orma_strerror(status), orma_error_message());
}

int ref_build_random(struct fuzz_rng *r, struct ref_type *const *pool, size_t npool, struct ref_type *out)
{
    struct ref_type t = {0};
    struct sbuf sb = {0};
    int kind = (int)fuzz_range(r, 0, K_COUNT - 1), too_big, status = ORMA_SUCCESS;
    /* zero counts and block lengths one draw in ten each: any more and
     * most types end up empty, as emptiness propagates to what is built
     * from them */
    size_t count = fuzz_range(r, 0, 9) ? (size_t)fuzz_range(r, 1, 5) : 0, bl[5];
    size_t blk = fuzz_range(r, 0, 9) ? (size_t)fuzz_range(r, 1, 4) : 0;
    orma_aint disp[5];
    ptrdiff_t bdisp[5];
    const struct ref_type *types[5];
    orma_type handles[5];
    const struct ref_type *c = pick_child(r, pool, npool);

    for (size_t i = 0; i < 5; i++) {
        types[i] = c;
        bl[i] = blk;
    }
    t.derived = 1;
    t.depth = c->depth + 1;
    sb_printf(&sb, "%s(", kind_names[kind]);
    switch (kind) {
    case K_CONTIG:
        sb_printf(&sb, "%zu, %s)", count, c->desc);
        bdisp[0] = 0;
        bl[0] = count;
        too_big = ref_blocks(&t, 1, bdisp, bl, types, c, 0);
        if (!too_big)
            status = orma_type_contiguous(count, c->h, &t.h);
        break;
    case K_VECTOR:
    case K_HVECTOR: {
        orma_aint stride = kind == K_VECTOR ? fuzz_range(r, -6, 6) : fuzz_range(r, -48, 48);
        ptrdiff_t bstride = kind == K_VECTOR ? stride * ref_extent(c) : stride;
        sb_printf(&sb, "%zu, %zu, %td, %s)", count, blk, (ptrdiff_t)stride, c->desc);
        for (size_t i = 0; i < count; i++)
            bdisp[i] = (ptrdiff_t)i * bstride;
        too_big = ref_blocks(&t, count, bdisp, bl, types, c, 0);
        if (!too_big)
            status = kind == K_VECTOR ? orma_type_vector(count, blk, stride, c->h, &t.h)
                                      : orma_type_hvector(count, blk, stride, c->h, &t.h);
        break;
    }
    case K_INDEXED:
    case K_HINDEXED:
    case K_INDEXED_BLOCK:
    case K_HINDEXED_BLOCK: {
        int bytes = kind == K_HINDEXED || kind == K_HINDEXED_BLOCK;
        int per_block = kind == K_INDEXED || kind == K_HINDEXED;
        for (size_t i = 0; i < count; i++) {
            if (per_block)
                bl[i] = (size_t)fuzz_range(r, 0, 4);
            disp[i] = bytes ? fuzz_range(r, -64, 64) : fuzz_range(r, -6, 6);
            bdisp[i] = bytes ? disp[i] : disp[i] * ref_extent(c);
        }
        sb_printf(&sb, "%zu, ", count);
        if (per_block)
            sb_sizes(&sb, count, bl);
        else
            sb_printf(&sb, "%zu", blk);
        sb_printf(&sb, ", ");
        sb_disps(&sb, count, disp);
        sb_printf(&sb, ", %s)", c->desc);
        too_big = ref_blocks(&t, count, bdisp, bl, types, c, 0);
        if (too_big)
            break;
        if (kind == K_INDEXED)
            status = orma_type_indexed(count, bl, disp, c->h, &t.h);
        else if (kind == K_HINDEXED)
            status = orma_type_hindexed(count, bl, disp, c->h, &t.h);
        else if (kind == K_INDEXED_BLOCK)
            status = orma_type_indexed_block(count, blk, disp, c->h, &t.h);
        else
            status = orma_type_hindexed_block(count, blk, disp, c->h, &t.h);
        break;
    }
    case K_STRUCT: {
        /* Half the time laid out as C lays out a struct, half anywhere. */
        int c_like = (int)fuzz_range(r, 0, 1);
        ptrdiff_t cursor = 0;
        count = count > 4 ? 4 : count;
        for (size_t i = 0; i < count; i++) {
            types[i] = i ? pick_child(r, pool, npool) : c;
            handles[i] = types[i]->h;
            if (types[i]->depth + 1 > t.depth)
                t.depth = types[i]->depth + 1;
            bl[i] = (size_t)fuzz_range(r, 0, 3);
            if (c_like) {
                ptrdiff_t a = (ptrdiff_t)types[i]->align;
                cursor = (cursor + a - 1) / a * a;
                disp[i] = cursor - types[i]->lb;
                cursor += (ptrdiff_t)bl[i] * (ref_extent(types[i]) > 0 ? ref_extent(types[i]) : 0);
            } else {
                disp[i] = fuzz_range(r, -64, 64);
            }
            bdisp[i] = disp[i];
        }
        sb_printf(&sb, "%zu, ", count);
        sb_sizes(&sb, count, bl);
        sb_printf(&sb, ", ");
        sb_disps(&sb, count, disp);
        sb_printf(&sb, ", {");
        for (size_t i = 0; i < count; i++)
            sb_printf(&sb, "%s%s", i ? ", " : "", types[i]->desc);
        sb_printf(&sb, "})");
        too_big = ref_blocks(&t, count, bdisp, bl, types, c, 1);
        if (!too_big)
            status = orma_type_struct(count, bl, disp, handles, &t.h);
        break;
    }
    case K_SUBARRAY: {
        int nd = (int)fuzz_range(r, 1, 3), order = (int)fuzz_range(r, 0, 1) ? ORMA_ORDER_FORTRAN : ORMA_ORDER_C;
        size_t sizes[3], sub[3], starts[3];
        for (int d = 0; d < nd; d++) {
            sizes[d] = (size_t)fuzz_range(r, 1, 4);
            sub[d] = (size_t)fuzz_range(r, 1, (long)sizes[d]);
            starts[d] = (size_t)fuzz_range(r, 0, (long)(sizes[d] - sub[d]));
        }
        sb_printf(&sb, "%d, ", nd);
        sb_sizes(&sb, (size_t)nd, sizes);
        sb_printf(&sb, ", ");
        sb_sizes(&sb, (size_t)nd, sub);
        sb_printf(&sb, ", ");
        sb_sizes(&sb, (size_t)nd, starts);
        sb_printf(&sb, ", %s, %s)", order == ORMA_ORDER_C ? "C" : "FORTRAN", c->desc);
        too_big = ref_subarray(&t, nd, sizes, sub, starts, order, c);
        if (!too_big)
            status = orma_type_subarray(nd, sizes, sub, starts, order, c->h, &t.h);
        break;
    }
    case K_RESIZED: {
        orma_aint lb = fuzz_range(r, -16, 16);
        /* mostly non-negative extents; MPI allows negative ones too */
        orma_aint ext = fuzz_range(r, 0, 19) ? fuzz_range(r, 0, 48) : fuzz_range(r, -16, -1);
        sb_printf(&sb, "%td, %td, %s)", (ptrdiff_t)lb, (ptrdiff_t)ext, c->desc);
        ref_copy_entries(&t, c);
        t.lb = lb;
        t.ub = lb + ext;
        t.align = c->align;
        too_big = ref_finish(&t);
        if (!too_big)
            status = orma_type_resized(c->h, lb, ext, &t.h);
        break;
    }
    default: /* K_DUP */
        sb_printf(&sb, "%s)", c->desc);
        ref_copy_entries(&t, c);
        t.lb = c->lb;
        t.ub = c->ub;
        t.align = c->align;
        too_big = ref_finish(&t);
        if (!too_big)
            status = orma_type_dup(c->h, &t.h);
        break;
    }
    t.desc = sb.p;
    if (too_big) {
        free(t.e);
        free(t.desc);
        return 1;
    }
    ref_check_status(status, &t);
    status = orma_type_commit(&t.h);
    ref_check_status(status, &t);
    *out = t;
    return 0;
}

int ref_build_padded(const struct ref_type *a, size_t pad, struct ref_type *out)
{
    struct ref_type t = {0};
    struct sbuf sb = {0};
    const struct ref_type *types[2] = {a, ref_predefined(ORMA_TYPEID_BYTE)};
    orma_type handles[2] = {a->h, ORMA_BYTE};
    size_t bl[2] = {1, pad};
    orma_aint disp[2] = {0, a->ub};
    ptrdiff_t bdisp[2] = {0, a->ub};

    t.derived = 1;
    t.depth = a->depth + 1;
    sb_printf(&sb, "struct(2, {1,%zu}, {0,%td}, {%s, ORMA_BYTE})", pad, a->ub, a->desc);
    t.desc = sb.p;
    if (ref_blocks(&t, 2, bdisp, bl, types, a, 1)) {
        free(t.e);
        free(t.desc);
        return 1;
    }
    ref_check_status(orma_type_struct(2, bl, disp, handles, &t.h), &t);
    ref_check_status(orma_type_commit(&t.h), &t);
    *out = t;
    return 0;
}

void ref_release(struct ref_type *t)
{
    if (!t->derived)
        return;
    int status = orma_type_free(&t->h);
    if (status != ORMA_SUCCESS || t->h != NULL)
        fuzz_fail(t, "orma_type_free returned %d", status);
    free(t->e);
    free(t->desc);
    memset(t, 0, sizeof *t);
}
