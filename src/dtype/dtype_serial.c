/* dtype_serial.c -- committed datatypes to bytes and back (the format is
 * in dtype_serial.h). */
#include "dtype_serial.h"
#include "dtype_derived.h"
#include "util_status.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The format's 64-bit fields are read straight into size_t and ptrdiff_t. */
_Static_assert(sizeof(size_t) == 8 && sizeof(ptrdiff_t) == 8, "64-bit size_t and ptrdiff_t");

#define SER_MAGIC "ORDT"
#define SER_FORM_PREDEFINED 0
#define SER_FORM_DERIVED 1
#define SER_PREDEF_LEN 12
#define SER_HEADER_LEN 64
#define SER_LEAF_LEN 9
#define SER_LOOP_LEN 21
#define SER_SEQ_LEN 9
#define SER_ENTRY_LEN 12

/* ---- writing ---- */

static unsigned char *ser_put(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
    return p + bytes;
}

static unsigned char *ser_put_header(unsigned char *p, int form)
{
    memcpy(p, SER_MAGIC, 4);
    p = ser_put(p + 4, DTYPE_SERIAL_VERSION, 2);
    return ser_put(p, (uint64_t)form, 2);
}

/* The distinct nodes of a layout, children first (order), and the index of
 * each: a map from node address to index by open addressing. */
struct ser_nodes {
    const struct dtype_node **order;
    const struct dtype_node **key;
    uint32_t *idx;
    size_t n, cap; /* cap: a power of two, kept at most half full */
};

static size_t ser_slot(const struct ser_nodes *s, const struct dtype_node *n)
{
    size_t i = (size_t)(((uintptr_t)n >> 4) * UINT64_C(0x9E3779B97F4A7C15)) & (s->cap - 1);
    while (s->key[i] && s->key[i] != n)
        i = (i + 1) & (s->cap - 1);
    return i;
}

static int ser_add(struct ser_nodes *s, const struct dtype_node *n)
{
    if (s->n == UINT32_MAX)
        return util_error(ORMA_ERR_COUNT, "dtype_serialize: the layout has more than %u distinct nodes",
                          (unsigned)UINT32_MAX);
    if (2 * (s->n + 1) > s->cap) {
        struct ser_nodes g = {.n = s->n, .cap = s->cap ? 2 * s->cap : 64};
        g.order = realloc(s->order, g.cap / 2 * sizeof *g.order);
        if (g.order)
            s->order = g.order;
        g.key = calloc(g.cap, sizeof *g.key);
        g.idx = malloc(g.cap * sizeof *g.idx);
        if (!g.order || !g.key || !g.idx) {
            free(g.key);
            free(g.idx);
            return util_error(ORMA_ERR_NOMEM, "dtype_serialize: out of memory");
        }
        for (size_t i = 0; i < s->n; i++) {
            size_t k = ser_slot(&g, g.order[i]);
            g.key[k] = g.order[i];
            g.idx[k] = (uint32_t)i;
        }
        free(s->key);
        free(s->idx);
        *s = g;
    }
    size_t k = ser_slot(s, n);
    s->key[k] = n;
    s->idx[k] = (uint32_t)s->n;
    s->order[s->n++] = n;
    return ORMA_SUCCESS;
}

/* Post-order, each shared node once: O(distinct nodes), however often a
 * subtree is reused. */
static int ser_visit(struct ser_nodes *s, const struct dtype_node *n)
{
    if (s->cap && s->key[ser_slot(s, n)])
        return ORMA_SUCCESS;
    int status = ORMA_SUCCESS;
    if (n->kind == DN_LOOP)
        status = ser_visit(s, n->u.loop.child);
    else if (n->kind == DN_SEQ)
        for (size_t i = 0; i < n->u.seq.n && !status; i++)
            status = ser_visit(s, n->u.seq.e[i].child);
    return status ? status : ser_add(s, n);
}

static size_t ser_node_len(const struct dtype_node *n)
{
    if (n->kind == DN_LEAF)
        return SER_LEAF_LEN;
    if (n->kind == DN_LOOP)
        return SER_LOOP_LEN;
    return SER_SEQ_LEN + n->u.seq.n * SER_ENTRY_LEN;
}

static unsigned char *ser_put_node(unsigned char *p, const struct ser_nodes *s, const struct dtype_node *n)
{
    p = ser_put(p, n->kind, 1);
    switch (n->kind) {
    case DN_LEAF:
        return ser_put(p, n->u.leaf.len, 8);
    case DN_LOOP:
        p = ser_put(p, n->u.loop.count, 8);
        p = ser_put(p, (uint64_t)n->u.loop.stride, 8);
        return ser_put(p, s->idx[ser_slot(s, n->u.loop.child)], 4);
    default:
        p = ser_put(p, n->u.seq.n, 8);
        for (size_t i = 0; i < n->u.seq.n; i++) {
            p = ser_put(p, (uint64_t)n->u.seq.e[i].disp, 8);
            p = ser_put(p, s->idx[ser_slot(s, n->u.seq.e[i].child)], 4);
        }
        return p;
    }
}

static int ser_too_small(size_t need, size_t cap, size_t *len_p)
{
    *len_p = need;
    if (!cap) /* sizing a buffer: no error to report */
        return ORMA_ERR_COUNT;
    return util_error(ORMA_ERR_COUNT, "dtype_serialize: the datatype needs %zu bytes, the buffer holds %zu", need,
                      cap);
}

int dtype_serialize(orma_type t, void *buf, size_t cap, size_t *len_p)
{
    if (!len_p || (!buf && cap))
        return util_error(ORMA_ERR_ARG, "dtype_serialize: %s is NULL", len_p ? "buf" : "len_p");
    if (!dtype_is_type(t))
        return util_error(ORMA_ERR_TYPE, "dtype_serialize: not a valid datatype");
    return dtype_serialize_held(t, buf, cap, len_p);
}

int dtype_serialize_held(orma_type t, void *buf, size_t cap, size_t *len_p)
{
    if (t->predefined) {
        if (cap < SER_PREDEF_LEN)
            return ser_too_small(SER_PREDEF_LEN, cap, len_p);
        ser_put(ser_put_header(buf, SER_FORM_PREDEFINED), t->id, 4);
        *len_p = SER_PREDEF_LEN;
        return ORMA_SUCCESS;
    }
    const struct dtype_derived *d = dtype_derived_of(t);
    if (!d->committed)
        return util_error(ORMA_ERR_TYPE, "dtype_serialize: the datatype is not committed");
    struct ser_nodes s = {0};
    int status = ser_visit(&s, d->node);
    size_t need = SER_HEADER_LEN;
    for (size_t i = 0; i < s.n; i++)
        need += ser_node_len(s.order[i]);
    if (!status && need > cap)
        status = ser_too_small(need, cap, len_p);
    if (!status) {
        unsigned char *p = ser_put_header(buf, SER_FORM_DERIVED);
        p = ser_put(p, (uint32_t)d->basic, 4);
        p = ser_put(p, d->align, 4);
        p = ser_put(p, d->hdr.size, 8);
        p = ser_put(p, (uint64_t)d->lb, 8);
        p = ser_put(p, (uint64_t)d->ub, 8);
        p = ser_put(p, (uint64_t)d->node->true_lb, 8);
        p = ser_put(p, (uint64_t)d->node->true_ub, 8);
        p = ser_put(p, s.n, 4);
        p = ser_put(p, 0, 4);
        for (size_t i = 0; i < s.n; i++)
            p = ser_put_node(p, &s, s.order[i]);
        *len_p = need;
    }
    free(s.order);
    free(s.key);
    free(s.idx);
    return status;
}

/* ---- reading ---- */

struct ser_reader {
    const unsigned char *p;
    size_t pos, len;
};

/* A field the caller has checked is there. */
static uint64_t ser_get(struct ser_reader *r, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)r->p[r->pos + (size_t)i] << (8 * i);
    r->pos += (size_t)bytes;
    return v;
}

static int ser_bad(size_t at, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ser_bad(size_t at, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return util_error(ORMA_ERR_TYPE, "dtype_deserialize: byte %zu: %s", at, msg);
}

static int ser_refused(size_t at, uint32_t i, int why)
{
    if (why == DTYPE_REFUSED_RANGE)
        return ser_bad(at, "node %u: byte offsets overflow", i);
    if (why == DTYPE_REFUSED_DEPTH)
        return ser_bad(at, "node %u: the layout nests deeper than %d levels", i, DTYPE_MAX_DEPTH);
    return util_error(ORMA_ERR_NOMEM, "dtype_deserialize: out of memory");
}

/* The index of an earlier node (so the layout has no cycles). */
static int ser_get_child(struct ser_reader *r, uint32_t i, struct dtype_node *const *tab, struct dtype_node **child_p)
{
    size_t at = r->pos;
    uint64_t c = ser_get(r, 4);
    if (c >= i)
        return ser_bad(at, "node %u refers to node %llu, not an earlier one", i, (unsigned long long)c);
    *child_p = tab[c];
    return ORMA_SUCCESS;
}

static int ser_read_seq(struct ser_reader *r, uint32_t i, struct dtype_node *const *tab, struct dtype_node **node_p)
{
    size_t at = r->pos - 1, n = ser_get(r, 8), size = 0;
    if (n > (r->len - r->pos) / SER_ENTRY_LEN)
        return ser_bad(at, "node %u: %zu sequence entries, but %zu bytes are left", i, n, r->len - r->pos);
    ptrdiff_t *disps = malloc((n ? n : 1) * sizeof *disps);
    struct dtype_node **children = malloc((n ? n : 1) * sizeof *children);
    int status = disps && children ? ORMA_SUCCESS : util_error(ORMA_ERR_NOMEM, "dtype_deserialize: out of memory");
    for (size_t k = 0; k < n && !status; k++) {
        size_t eat = r->pos;
        disps[k] = (ptrdiff_t)ser_get(r, 8);
        status = ser_get_child(r, i, tab, &children[k]);
        if (status)
            break;
        /* The constructor flattens sequence entries by adding offsets;
         * serialized layouts are flat already, and refusing nesting keeps
         * every sum checked here. */
        const struct dtype_node *c = children[k];
        ptrdiff_t lo, hi;
        if (c->kind == DN_SEQ)
            status = ser_bad(eat, "node %u: entry %zu is itself a sequence", i, k);
        else if (__builtin_add_overflow(disps[k], c->true_lb, &lo) || __builtin_add_overflow(disps[k], c->true_ub, &hi))
            status = ser_bad(eat, "node %u: entry %zu at %td overflows the address space", i, k, disps[k]);
        else if (__builtin_add_overflow(size, c->size, &size))
            status = ser_bad(eat, "node %u: the data size overflows", i);
    }
    int why = 0;
    if (!status && !(*node_p = dtype_node_seq(n, disps, children, &why)))
        status = ser_refused(at, i, why);
    free(disps);
    free(children);
    return status;
}

/* Node i, rebuilt through the constructors from nodes 0..i-1; every run
 * holds whole elements of unit bytes. */
static int ser_read_node(struct ser_reader *r, uint32_t i, size_t unit, struct dtype_node *const *tab,
                         struct dtype_node **node_p)
{
    size_t at = r->pos, left = r->len - r->pos;
    int kind = left ? (int)ser_get(r, 1) : -1, why = 0, status;
    if (kind < 0 || (kind == DN_LEAF && left < SER_LEAF_LEN) || (kind == DN_LOOP && left < SER_LOOP_LEN) ||
        (kind == DN_SEQ && left < SER_SEQ_LEN))
        return ser_bad(at, "the data ends inside node %u", i);
    if (kind == DN_LEAF) {
        size_t len = ser_get(r, 8);
        if (len > PTRDIFF_MAX)
            return ser_bad(at, "node %u: a run of %zu bytes overflows the address space", i, len);
        if (len % unit)
            return ser_bad(at, "node %u: a run of %zu bytes is not whole elements of the basic type", i, len);
        *node_p = dtype_node_leaf(len);
    } else if (kind == DN_LOOP) {
        size_t count = ser_get(r, 8), bytes;
        ptrdiff_t stride = (ptrdiff_t)ser_get(r, 8);
        struct dtype_node *child = NULL;
        if ((status = ser_get_child(r, i, tab, &child)))
            return status;
        if (__builtin_mul_overflow(count, child->size, &bytes))
            return ser_bad(at, "node %u: %zu copies of %zu bytes overflow", i, count, child->size);
        *node_p = dtype_node_repeat(count, stride, child, &why);
    } else if (kind == DN_SEQ) {
        return ser_read_seq(r, i, tab, node_p);
    } else {
        return ser_bad(at, "node %u has unknown kind %d", i, kind);
    }
    return *node_p ? ORMA_SUCCESS : ser_refused(at, i, why);
}

static size_t ser_max_align(void)
{
    size_t a = 1;
    for (int id = 0; id < ORMA_TYPEID_COUNT; id++)
        if (dtype_align(ORMA_PREDEFINED(id)) > a)
            a = dtype_align(ORMA_PREDEFINED(id));
    return a;
}

struct ser_header {
    int basic;
    size_t align, size, nodes;
    ptrdiff_t lb, ub, true_lb, true_ub;
};

static int ser_read_header(struct ser_reader *r, struct ser_header *h)
{
    if (r->len < SER_HEADER_LEN)
        return ser_bad(r->len, "the data ends inside the header of a derived datatype (%d bytes)", SER_HEADER_LEN);
    h->basic = (int)(int32_t)(uint32_t)ser_get(r, 4);
    h->align = ser_get(r, 4);
    h->size = ser_get(r, 8);
    h->lb = (ptrdiff_t)ser_get(r, 8);
    h->ub = (ptrdiff_t)ser_get(r, 8);
    h->true_lb = (ptrdiff_t)ser_get(r, 8);
    h->true_ub = (ptrdiff_t)ser_get(r, 8);
    h->nodes = ser_get(r, 4);
    uint64_t zero = ser_get(r, 4);
    ptrdiff_t ext;
    if (h->basic != DTYPE_MIXED && (h->basic < 0 || h->basic >= ORMA_TYPEID_COUNT))
        return ser_bad(8, "basic type %d is not a predefined type id", h->basic);
    if (h->basic != DTYPE_MIXED && h->size % orma_predefined_types.types[h->basic].size)
        return ser_bad(16, "a size of %zu bytes is not a whole number of %s", h->size,
                       orma_predefined_types.types[h->basic].name);
    if (h->align == 0 || (h->align & (h->align - 1)) || h->align > ser_max_align())
        return ser_bad(12, "alignment %zu is not one of a predefined type", h->align);
    if (__builtin_sub_overflow(h->ub, h->lb, &ext))
        return ser_bad(24, "the extent from lb %td to ub %td overflows", h->lb, h->ub);
    if (zero)
        return ser_bad(60, "reserved field is not zero");
    /* every node takes at least SER_LEAF_LEN bytes: the table of nodes is
     * bounded by the input */
    if (h->nodes == 0 || h->nodes > (r->len - SER_HEADER_LEN) / SER_LEAF_LEN)
        return ser_bad(56, "%zu nodes cannot fit the %zu bytes after the header", h->nodes, r->len - SER_HEADER_LEN);
    return ORMA_SUCCESS;
}

static int ser_read_derived(struct ser_reader *r, orma_type *type_p)
{
    struct ser_header h = {0};
    int status = ser_read_header(r, &h);
    if (status)
        return status;
    struct dtype_node **tab = calloc(h.nodes, sizeof *tab);
    if (!tab)
        return util_error(ORMA_ERR_NOMEM, "dtype_deserialize: out of memory");
    /* Runs of one basic type are whole elements of it; a pair's two
     * members are runs of their own, merged with their neighbours. */
    size_t unit = 1;
    if (h.basic != DTYPE_MIXED && h.basic < ORMA_TYPEID_FLOAT_INT)
        unit = orma_predefined_types.types[h.basic].size;
    for (uint32_t i = 0; i < h.nodes && !status; i++)
        status = ser_read_node(r, i, unit, tab, &tab[i]);
    const struct dtype_node *root = status ? NULL : tab[h.nodes - 1];
    ptrdiff_t true_ext;
    if (!status && r->pos != r->len)
        status = ser_bad(r->pos, "%zu bytes follow the last node", r->len - r->pos);
    else if (!status && root->size != h.size)
        status = ser_bad(16, "the header says %zu bytes of data, the layout holds %zu", h.size, root->size);
    else if (!status && (root->true_lb != h.true_lb || root->true_ub != h.true_ub))
        status = ser_bad(40, "the header's true bounds [%td, %td) are not the layout's [%td, %td)", h.true_lb,
                         h.true_ub, root->true_lb, root->true_ub);
    else if (!status && __builtin_sub_overflow(root->true_ub, root->true_lb, &true_ext))
        status = ser_bad(40, "the true extent from %td to %td overflows", root->true_lb, root->true_ub);
    if (!status)
        status = dtype_derived_create(dtype_node_ref(tab[h.nodes - 1]), h.lb, h.ub, h.align, type_p);
    if (!status) {
        dtype_derived_of(*type_p)->basic = h.basic;
        dtype_derived_commit(*type_p); /* and its flattened walk */
    }
    for (uint32_t i = 0; i < h.nodes; i++)
        dtype_node_unref(tab[i]);
    free(tab);
    return status;
}

int dtype_deserialize(const void *buf, size_t len, orma_type *type_p)
{
    if (!type_p || (!buf && len))
        return util_error(ORMA_ERR_ARG, "dtype_deserialize: %s is NULL", type_p ? "buf" : "type_p");
    struct ser_reader r = {buf, 0, len};
    if (len < 8 || memcmp(buf, SER_MAGIC, 4))
        return ser_bad(0, "not a serialized datatype (%s)", len < 8 ? "too short" : "no magic");
    r.pos = 4;
    unsigned version = (unsigned)ser_get(&r, 2), form = (unsigned)ser_get(&r, 2);
    if (version != DTYPE_SERIAL_VERSION)
        return ser_bad(4, "format version %u, this build reads version %d", version, DTYPE_SERIAL_VERSION);
    if (form == SER_FORM_DERIVED)
        return ser_read_derived(&r, type_p);
    if (form != SER_FORM_PREDEFINED)
        return ser_bad(6, "unknown form %u", form);
    if (len != SER_PREDEF_LEN)
        return ser_bad(8, "a predefined type takes %d bytes, not %zu", SER_PREDEF_LEN, len);
    uint64_t id = ser_get(&r, 4);
    if (id >= ORMA_TYPEID_COUNT)
        return ser_bad(8, "predefined type id %llu is out of range", (unsigned long long)id);
    *type_p = ORMA_PREDEFINED(id);
    return ORMA_SUCCESS;
}
