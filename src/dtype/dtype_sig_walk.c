/* dtype_sig_walk.c -- walking signatures without expanding them, and
 * comparing two (see dtype_sig.h). */
#include "dtype_derived.h"
#include "dtype_sig.h"

#include <stdlib.h>

/* Stand at the start of part s: a run is entered at once, anything else
 * is left for the caller to enter or to skip whole. */
static void dtype_sig_set(struct dtype_sig_cursor *c, const struct dtype_sig *s)
{
    if (s->kind == DS_RUN) {
        c->at = NULL;
        c->id = s->u.run.id;
        c->left = s->u.run.n;
    } else {
        c->at = s;
    }
}

/* Past the part just finished: the next copy or sibling, or the end. */
static void dtype_sig_advance(struct dtype_sig_cursor *c)
{
    while (c->top) {
        struct dtype_sig_frame *fr = &c->f[c->top - 1];
        const struct dtype_sig *s = fr->s;
        if (s->kind == DS_REPEAT ? ++fr->i < s->u.repeat.count : ++fr->i < s->u.concat.n) {
            dtype_sig_set(c, s->kind == DS_REPEAT ? s->u.repeat.child : s->u.concat.c[fr->i]);
            return;
        }
        c->top--;
    }
    c->at = NULL;
    c->end = 1;
}

/* Into the part the cursor stands at the start of; a repeat from copy
 * `copy` on (the earlier ones were skipped). */
static void dtype_sig_enter(struct dtype_sig_cursor *c, size_t copy)
{
    const struct dtype_sig *s = c->at;
    c->f[c->top++] = (struct dtype_sig_frame){s, copy};
    dtype_sig_set(c, s->kind == DS_REPEAT ? s->u.repeat.child : s->u.concat.c[0]);
}

/* The part the cursor stands at as *reps_p copies of a unit (a repeat's
 * child, else the part itself once). */
static const struct dtype_sig *dtype_sig_at_unit(const struct dtype_sig_cursor *c, size_t *reps_p)
{
    if (c->at->kind == DS_REPEAT) {
        *reps_p = c->at->u.repeat.count;
        return c->at->u.repeat.child;
    }
    *reps_p = 1;
    return c->at;
}

/* Skip the first m (> 0) copies of the unit of the part at hand. */
static void dtype_sig_skip(struct dtype_sig_cursor *c, size_t m, const struct dtype_sig *unit)
{
    c->index += m * unit->len;
    c->byte += m * unit->size;
    if (c->at->kind == DS_REPEAT && m < c->at->u.repeat.count)
        dtype_sig_enter(c, m);
    else
        dtype_sig_advance(c);
}

/* Take m (> 0, at most what is left) elements of the current run. */
static void dtype_sig_take(struct dtype_sig_cursor *c, size_t m)
{
    c->index += m;
    c->byte += m * dtype_sig_predefined(c->id)->size;
    c->left -= m;
    if (!c->left)
        dtype_sig_advance(c);
}

int dtype_sig_cursor_init(struct dtype_sig_cursor *c, orma_type t, size_t count)
{
    const struct dtype_sig *s;
    size_t copies = count;
    if (t->predefined) {
        s = dtype_sig_predefined((int)t->id);
    } else {
        const struct dtype_derived *d = dtype_derived_of(t);
        s = d->sig;
        if (!s && d->basic == DTYPE_MIXED)
            return DTYPE_SIG_UNKNOWN;
        if (!s) { /* the basic type repeated, without building it */
            s = dtype_sig_predefined(d->basic);
            copies = count * (t->size / s->size);
        }
    }
    c->index = c->byte = 0;
    c->top = 0;
    c->f = c->own;
    c->end = 0;
    if (copies == 0 || s->len == 0) {
        c->at = NULL;
        c->end = 1;
        return ORMA_SUCCESS;
    }
    /* The root: copies of s, normalised as dtype_sig_repeat would (one run,
     * or one repeat), without allocating. */
    const struct dtype_sig *root = s;
    if (copies > 1) {
        c->root = *s;
        if (s->kind == DS_RUN) {
            c->root.u.run.n = copies * s->u.run.n;
        } else if (s->kind == DS_REPEAT) {
            c->root.u.repeat.count = copies * s->u.repeat.count;
        } else {
            c->root.kind = DS_REPEAT;
            c->root.depth = s->depth + 1;
            c->root.u.repeat.count = copies;
            c->root.u.repeat.child = (struct dtype_sig *)s;
        }
        c->root.len = copies * s->len;
        c->root.size = copies * s->size;
        root = &c->root;
    }
    /* A walk holds a frame per level above the run it is in. */
    if (root->depth > DTYPE_SIG_FRAMES) {
        c->f = malloc(root->depth * sizeof *c->f);
        if (!c->f)
            return ORMA_ERR_NOMEM;
    }
    dtype_sig_set(c, root);
    return ORMA_SUCCESS;
}

void dtype_sig_cursor_fini(struct dtype_sig_cursor *c)
{
    if (c->f != c->own)
        free(c->f);
    c->f = NULL;
}

int dtype_sig_cursor_next(struct dtype_sig_cursor *c, int *id_p, size_t *n_p)
{
    while (c->at)
        dtype_sig_enter(c, 0);
    if (c->end)
        return 0;
    *id_p = c->id;
    *n_p = c->left;
    dtype_sig_take(c, c->left);
    return 1;
}

int dtype_sig_compare(orma_type a, size_t acount, orma_type b, size_t bcount, struct dtype_sig_diff *diff_p)
{
    struct dtype_sig_cursor ca, cb;
    int status = dtype_sig_cursor_init(&ca, a, acount);
    if (status)
        return status;
    status = dtype_sig_cursor_init(&cb, b, bcount);
    if (status) {
        dtype_sig_cursor_fini(&ca);
        return status;
    }
    /* Both cursors stand at the same element throughout. */
    while (!ca.end && !cb.end) {
        if (ca.at && cb.at) {
            /* copies of one part on both sides match without a look inside */
            size_t ra, rb;
            const struct dtype_sig *ua = dtype_sig_at_unit(&ca, &ra), *ub = dtype_sig_at_unit(&cb, &rb);
            if (ua == ub) {
                size_t m = ra < rb ? ra : rb;
                dtype_sig_skip(&ca, m, ua);
                dtype_sig_skip(&cb, m, ub);
                continue;
            }
        }
        if (ca.at) {
            dtype_sig_enter(&ca, 0);
        } else if (cb.at) {
            dtype_sig_enter(&cb, 0);
        } else if (ca.id != cb.id) {
            break;
        } else {
            size_t m = ca.left < cb.left ? ca.left : cb.left;
            dtype_sig_take(&ca, m);
            dtype_sig_take(&cb, m);
        }
    }
    status = DTYPE_SIG_SAME;
    if (!ca.end || !cb.end) {
        while (ca.at)
            dtype_sig_enter(&ca, 0);
        while (cb.at)
            dtype_sig_enter(&cb, 0);
        *diff_p = (struct dtype_sig_diff){ca.index, ca.byte, ca.end ? -1 : ca.id, cb.end ? -1 : cb.id};
        status = DTYPE_SIG_DIFFER;
    }
    dtype_sig_cursor_fini(&ca);
    dtype_sig_cursor_fini(&cb);
    return status;
}
