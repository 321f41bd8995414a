/* caf_coll.c -- the collective subroutines: CO_BROADCAST, CO_SUM, CO_MIN,
 * CO_MAX, CO_REDUCE, with and without RESULT_IMAGE, for every intrinsic
 * type and kind (CO_REDUCE: numeric, logical and character operations).
 *
 * Shared memory on a node: every image packs its argument into its part of
 * a scratch window (grown, collectively, to the largest argument seen:
 * every image calls a collective with the same shape), and the data move
 * along a binomial tree rooted at the result image -- a parent reads its
 * child's partial result with one orma_get and combines it into its own;
 * then, when every image wants the result, down the same tree.  Parent and
 * child hand over with the control window's collective counters (two
 * signals per edge: "ready", then "read", so that nobody overwrites a
 * partial result still being read).  No barrier, log2(images) steps. */
#include "caf_impl.h"

#include <stdlib.h>
#include <string.h>

/* gfortran's flags for CO_REDUCE's operation (libgfortran.h). */
enum { CAF_BYREF = 1 << 0, CAF_HIDDENLEN = 1 << 1, CAF_ARG_VALUE = 1 << 2, CAF_ARG_DESC = 1 << 3 };

enum caf_op { CAF_OP_SUM, CAF_OP_MIN, CAF_OP_MAX, CAF_OP_USER };

struct caf_reduce {
    enum caf_op op;
    int type, kind;
    size_t len; /* bytes of an element */
    void *fn;   /* CO_REDUCE's operation */
    int flags;
};

/* ---- the scratch window (one per team) ---- */

static int caf_scratch_room(struct caf_team *t, size_t bytes)
{
    if (t->scratch && bytes <= t->scratch_cap)
        return ORMA_SUCCESS;
    size_t cap = t->scratch_cap ? t->scratch_cap : 4096;
    while (cap < bytes)
        cap *= 2;
    int rc;
    if (t->scratch) {
        if ((rc = orma_win_unlock_all(t->scratch)) != ORMA_SUCCESS || (rc = orma_win_free(&t->scratch)) != ORMA_SUCCESS)
            return rc;
    }
    void *base = NULL;
    if ((rc = orma_win_allocate_team(t->ot, cap, 1, ORMA_INFO_NULL, &base, &t->scratch)) != ORMA_SUCCESS)
        return rc;
    t->scratch_base = base;
    t->scratch_cap = cap;
    return orma_win_lock_all(0, t->scratch);
}

void caf_coll_free(struct caf_team *t)
{
    if (t->scratch) {
        orma_win_unlock_all(t->scratch);
        orma_win_free(&t->scratch);
    }
    t->scratch_cap = 0;
}

/* ---- combining ---- */

#define CAF_ARITH(T)                                                                                          \
    do {                                                                                                      \
        T *a_ = acc;                                                                                          \
        const T *b_ = in;                                                                                     \
        for (size_t i_ = 0; i_ < count; i_++)                                                                 \
            switch (r->op) {                                                                                  \
            case CAF_OP_SUM: a_[i_] += b_[i_]; break;                                                         \
            case CAF_OP_MIN: if (b_[i_] < a_[i_]) a_[i_] = b_[i_]; break;                                     \
            default: if (b_[i_] > a_[i_]) a_[i_] = b_[i_]; break;                                             \
            }                                                                                                 \
        return 0;                                                                                             \
    } while (0)

#define CAF_CSUM(T)                                                                                           \
    do {                                                                                                      \
        T *a_ = acc;                                                                                          \
        const T *b_ = in;                                                                                     \
        if (r->op != CAF_OP_SUM)                                                                              \
            return -1;                                                                                        \
        for (size_t i_ = 0; i_ < count; i_++)                                                                 \
            a_[i_] += b_[i_];                                                                                 \
        return 0;                                                                                             \
    } while (0)

/* CO_REDUCE's operation, called as gfortran calls a function of two
 * arguments of the element's type: by reference or by value; the result
 * by value, or for character by reference with the hidden lengths. */
#define CAF_USER(T)                                                                                           \
    do {                                                                                                      \
        T *a_ = acc;                                                                                          \
        const T *b_ = in;                                                                                     \
        for (size_t i_ = 0; i_ < count; i_++) {                                                               \
            T x_ = a_[i_], y_ = b_[i_];                                                                       \
            if (r->flags & CAF_ARG_VALUE)                                                                     \
                a_[i_] = ((T(*)(T, T))r->fn)(x_, y_);                                                         \
            else                                                                                              \
                a_[i_] = ((T(*)(T *, T *))r->fn)(&x_, &y_);                                                   \
        }                                                                                                     \
        return 0;                                                                                             \
    } while (0)

static int caf_combine_user(const struct caf_reduce *r, void *acc, const void *in, size_t count)
{
    if (r->flags & CAF_ARG_DESC)
        return -1;
    switch (r->type) {
    case CAF_BT_INTEGER:
    case CAF_BT_LOGICAL:
        switch (r->kind) {
        case 1: CAF_USER(int8_t);
        case 2: CAF_USER(int16_t);
        case 4: CAF_USER(int32_t);
        case 8: CAF_USER(int64_t);
        case 16: CAF_USER(__int128);
        }
        return -1;
    case CAF_BT_REAL:
        switch (r->kind) {
        case 4: CAF_USER(float);
        case 8: CAF_USER(double);
        }
        return -1;
    case CAF_BT_COMPLEX:
        switch (r->kind) {
        case 4: CAF_USER(_Complex float);
        case 8: CAF_USER(_Complex double);
        }
        return -1;
    case CAF_BT_CHARACTER: {
        /* void f(char *res, size_t res_len, char *a, char *b, size_t a_len, size_t b_len) */
        char *a = acc, *x = malloc(2 * r->len);
        const char *b = in;
        if (!x)
            return -1;
        size_t chars = r->len / (size_t)r->kind;
        for (size_t i = 0; i < count; i++, a += r->len, b += r->len) {
            memcpy(x, a, r->len);
            memcpy(x + r->len, b, r->len);
            ((void (*)(char *, size_t, char *, char *, size_t, size_t))r->fn)(a, chars, x, x + r->len, chars, chars);
        }
        free(x);
        return 0;
    }
    default:
        if (!(r->flags & CAF_BYREF))
            return -1;
        /* void f(T *res, T *a, T *b) */
        {
            char *a = acc, *x = malloc(2 * r->len);
            const char *b = in;
            if (!x)
                return -1;
            for (size_t i = 0; i < count; i++, a += r->len, b += r->len) {
                memcpy(x, a, r->len);
                memcpy(x + r->len, b, r->len);
                ((void (*)(void *, void *, void *))r->fn)(a, x, x + r->len);
            }
            free(x);
            return 0;
        }
    }
}

/* acc[i] = acc[i] op in[i] for count elements; -1 when op is not defined
 * for the type. */
static int caf_combine(const struct caf_reduce *r, void *acc, const void *in, size_t count)
{
    if (r->op == CAF_OP_USER)
        return caf_combine_user(r, acc, in, count);
    switch (r->type) {
    case CAF_BT_INTEGER:
        switch (r->kind) {
        case 1: CAF_ARITH(int8_t);
        case 2: CAF_ARITH(int16_t);
        case 4: CAF_ARITH(int32_t);
        case 8: CAF_ARITH(int64_t);
        case 16: CAF_ARITH(__int128);
        }
        return -1;
    case CAF_BT_REAL:
        switch (r->kind) {
        case 4: CAF_ARITH(float);
        case 8: CAF_ARITH(double);
        }
        return -1;
    case CAF_BT_COMPLEX:
        switch (r->kind) {
        case 4: CAF_CSUM(_Complex float);
        case 8: CAF_CSUM(_Complex double);
        }
        return -1;
    case CAF_BT_CHARACTER: {
        if (r->op != CAF_OP_MIN && r->op != CAF_OP_MAX)
            return -1;
        char *a = acc;
        const char *b = in;
        size_t chars = r->len / (size_t)r->kind;
        for (size_t i = 0; i < count; i++, a += r->len, b += r->len) {
            int c = 0;
            for (size_t k = 0; k < chars && !c; k++) {
                uint32_t x, y;
                if (r->kind == 1) {
                    x = (unsigned char)a[k];
                    y = (unsigned char)b[k];
                } else {
                    memcpy(&x, a + 4 * k, 4);
                    memcpy(&y, b + 4 * k, 4);
                }
                c = x < y ? -1 : x > y;
            }
            if ((r->op == CAF_OP_MIN && c > 0) || (r->op == CAF_OP_MAX && c < 0))
                memcpy(a, b, r->len);
        }
        return 0;
    }
    default:
        return -1;
    }
}

/* ---- the trees ---- */

static int caf_coll_fail(int who, int *stat, const char *what)
{
    if (who > 0) {
        int code = caf_ended_stat(who - 1);
        return caf_fail(code, stat, NULL, 0, "%s: image %d has %s", what, who,
                        code == CAF_STAT_FAILED_IMAGE ? "failed" : "stopped");
    }
    return caf_fail(1, stat, NULL, 0, "%s: %s", what, orma_error_message());
}

/* Reads the scratch part (bytes) of the team's image idx into buf. */
static int caf_scratch_read(struct caf_team *t, int idx, void *buf, size_t bytes)
{
    int rc = orma_get(buf, bytes, ORMA_BYTE, idx, 0, bytes, ORMA_BYTE, t->scratch);
    return rc == ORMA_SUCCESS ? orma_win_flush(idx, t->scratch) : rc;
}

/* Down the binomial tree rooted at root: every image's scratch ends holding
 * root's bytes.  0, or as caf_pair. */
static int caf_tree_bcast(struct caf_team *t, int root, size_t bytes)
{
    int n = t->n, v = (t->me - root + n) % n, mask = 1, who;
    while (mask < n) {
        if (v & mask) {
            int parent = (v - mask + root) % n;
            if ((who = caf_pair(&caf.coll, t->world[parent])) != 0)
                return who;
            if (caf_scratch_read(t, parent, t->scratch_base, bytes) != ORMA_SUCCESS)
                return -1;
            if ((who = caf_pair(&caf.coll, t->world[parent])) != 0)
                return who;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (v + mask < n) {
            int child = t->world[(v + mask + root) % n];
            if ((who = caf_pair(&caf.coll, child)) != 0 || (who = caf_pair(&caf.coll, child)) != 0)
                return who;
        }
    return 0;
}

/* Up the tree: root's scratch ends holding everyone's bytes combined.
 * 0, as caf_pair, or -2 when the operation is not defined for the type. */
static int caf_tree_reduce(struct caf_team *t, int root, const struct caf_reduce *r, size_t count)
{
    int n = t->n, v = (t->me - root + n) % n, who;
    size_t bytes = count * r->len;
    char *in = NULL;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (v & mask) {
            int parent = t->world[(v - mask + root) % n];
            if ((who = caf_pair(&caf.coll, parent)) != 0 || (who = caf_pair(&caf.coll, parent)) != 0) {
                free(in);
                return who;
            }
            break;
        }
        if (v + mask >= n)
            continue;
        int child_idx = (v + mask + root) % n, child = t->world[child_idx];
        if (!in && !(in = malloc(bytes ? bytes : 1)))
            return -1;
        if ((who = caf_pair(&caf.coll, child)) != 0) {
            free(in);
            return who;
        }
        if (caf_scratch_read(t, child_idx, in, bytes) != ORMA_SUCCESS) {
            free(in);
            return -1;
        }
        int bad = caf_combine(r, t->scratch_base, in, count);
        if ((who = caf_pair(&caf.coll, child)) != 0) {
            free(in);
            return who;
        }
        if (bad) {
            free(in);
            return -2;
        }
    }
    free(in);
    return 0;
}

/* A reduction of a's elements over all images into result_image (0: all). */
static void caf_co_reduce(const char *what, struct caf_desc *a, struct caf_reduce *r, int result_image, int *stat)
{
    struct caf_team *t = caf.team;
    if (result_image < 0 || result_image > t->n) {
        caf_fail(1, stat, NULL, 0, "%s: RESULT_IMAGE %d is not in 1..%d", what, result_image, t->n);
        return;
    }
    r->type = a->dtype.type;
    r->len = a->dtype.elem_len;
    if (r->type == CAF_BT_COMPLEX)
        r->kind = (int)(r->len / 2);
    else if (r->type == CAF_BT_CHARACTER)
        r->kind = r->kind ? r->kind : 1;
    else
        r->kind = (int)r->len;
    /* REAL(10) and REAL(16) both come as 16-byte elements: the descriptor
     * does not say which. */
    if ((r->type == CAF_BT_REAL || r->type == CAF_BT_COMPLEX) && r->kind == 16) {
        caf_fail(1, stat, NULL, 0, "%s of REAL or COMPLEX of kind 10 or 16: gfortran 12 does not say which", what);
        return;
    }
    size_t count = caf_desc_count(a), bytes = count * r->len;
    /* A type the operation is not defined for is an error on every image
     * alike, before any hand-over. */
    if (count && r->op != CAF_OP_USER) {
        char probe[64] = {0};
        if (r->len <= sizeof probe / 2 && caf_combine(r, probe, probe + sizeof probe / 2, 1) != 0) {
            caf_fail(1, stat, NULL, 0, "%s of type %d kind %d is not defined", what, r->type, r->kind);
            return;
        }
    }
    int rc = caf_scratch_room(t, bytes);
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, stat, NULL, 0, "%s: scratch of %zu bytes: %s (%s)", what, bytes, orma_strerror(rc),
                 orma_error_message());
        return;
    }
    if (t->n == 1) {
        caf_ok(stat);
        return;
    }
    caf_desc_pack(a, t->scratch_base);
    int root = result_image ? result_image - 1 : 0;
    int who = caf_tree_reduce(t, root, r, count);
    if (who == 0 && result_image == 0)
        who = caf_tree_bcast(t, root, bytes);
    if (who == -2) {
        caf_fail(1, stat, NULL, 0, "%s: the operation is not supported for type %d kind %d", what, r->type, r->kind);
        return;
    }
    if (who != 0) {
        caf_coll_fail(who, stat, what);
        return;
    }
    if (result_image == 0 || t->me == root)
        caf_desc_unpack(a, t->scratch_base);
    caf_ok(stat);
}

/* gfortran 12 passes ERRMSG= of the collectives by value, not by address:
 * the errmsg arguments below hold nothing usable and are never touched, and
 * with ERRMSG= present the arguments after it (a_len, errmsg_len) arrive
 * shifted.  So a_len only says a character is of kind 4 when it makes the
 * element exactly 4 bytes a character; otherwise kind 1. */
static int caf_char_kind(const struct caf_desc *a, int a_len)
{
    if (a->dtype.type != CAF_BT_CHARACTER)
        return 0;
    return a_len > 0 && a->dtype.elem_len == 4 * (size_t)a_len ? 4 : 1;
}

void _gfortran_caf_co_sum(struct caf_desc *a, int result_image, int *stat, char *errmsg, size_t errmsg_len)
{
    (void)errmsg, (void)errmsg_len;
    struct caf_reduce r = {.op = CAF_OP_SUM};
    caf_co_reduce("CO_SUM", a, &r, result_image, stat);
}

void _gfortran_caf_co_min(struct caf_desc *a, int result_image, int *stat, char *errmsg, int a_len,
                          size_t errmsg_len)
{
    (void)errmsg, (void)errmsg_len;
    struct caf_reduce r = {.op = CAF_OP_MIN, .kind = caf_char_kind(a, a_len)};
    caf_co_reduce("CO_MIN", a, &r, result_image, stat);
}

void _gfortran_caf_co_max(struct caf_desc *a, int result_image, int *stat, char *errmsg, int a_len,
                          size_t errmsg_len)
{
    (void)errmsg, (void)errmsg_len;
    struct caf_reduce r = {.op = CAF_OP_MAX, .kind = caf_char_kind(a, a_len)};
    caf_co_reduce("CO_MAX", a, &r, result_image, stat);
}

void _gfortran_caf_co_reduce(struct caf_desc *a, void *(*opr)(void *, void *), int opr_flags, int result_image,
                             int *stat, char *errmsg, int a_len, size_t errmsg_len)
{
    (void)errmsg, (void)errmsg_len;
    struct caf_reduce r = {.op = CAF_OP_USER, .fn = (void *)opr, .flags = opr_flags, .kind = caf_char_kind(a, a_len)};
    caf_co_reduce("CO_REDUCE", a, &r, result_image, stat);
}

void _gfortran_caf_co_broadcast(struct caf_desc *a, int source_image, int *stat, char *errmsg, size_t errmsg_len)
{
    (void)errmsg, (void)errmsg_len;
    struct caf_team *t = caf.team;
    int root = source_image - 1;
    if (root < 0 || root >= t->n) {
        caf_fail(1, stat, NULL, 0, "CO_BROADCAST: SOURCE_IMAGE %d is not in 1..%d", source_image, t->n);
        return;
    }
    size_t bytes = caf_desc_count(a) * a->dtype.elem_len;
    int rc = caf_scratch_room(t, bytes);
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, stat, NULL, 0, "CO_BROADCAST: scratch of %zu bytes: %s (%s)", bytes, orma_strerror(rc),
                 orma_error_message());
        return;
    }
    if (t->me == root)
        caf_desc_pack(a, t->scratch_base);
    int who = caf_tree_bcast(t, root, bytes);
    if (who != 0) {
        caf_coll_fail(who, stat, "CO_BROADCAST");
        return;
    }
    if (t->me != root)
        caf_desc_unpack(a, t->scratch_base);
    caf_ok(stat);
}
