/* caf_atomic.c -- atomic subroutines, LOCK/UNLOCK (and CRITICAL, which
 * gfortran makes a lock on image 1), and events, all on orma's atomics in
 * the coarrays' windows: what one image does to another's variable is one
 * orma atomic and a flush; an image waits on its own memory only (event
 * wait), or retries its compare-and-swap with backoff (a lock held
 * elsewhere).
 *
 * A lock or event variable is a 64-bit word per element: a lock holds 0
 * (unlocked) or the holder's image number; an event its count.  gfortran
 * registers them by element count (caf_reg.c sizes them). */
#include "caf_impl.h"

#include <sched.h>
#include <string.h>

/* gfortran's codes for atomic_op (libgfortran.h). */
enum { CAF_ATOMIC_ADD = 1, CAF_ATOMIC_AND = 2, CAF_ATOMIC_OR = 3, CAF_ATOMIC_XOR = 4 };

/* The orma type of an atomic variable (integer or logical of atomic kind,
 * or any integer kind the program passes). */
static int caf_atomic_type(int type, int kind, orma_type *t)
{
    if (type != CAF_BT_INTEGER && type != CAF_BT_LOGICAL)
        return -1;
    switch (kind) {
    case 1: *t = ORMA_INT8; return 0;
    case 2: *t = ORMA_INT16; return 0;
    case 4: *t = ORMA_INT32; return 0;
    case 8: *t = ORMA_INT64; return 0;
    default: return -1;
    }
}

/* Image index of an atomic, lock or event reference (0: this image), as a
 * world rank. */
static int caf_target(int image)
{
    return image == 0 ? caf.me : caf_image_rank(image);
}

static void caf_atomic(const char *what, orma_op op, void *token, size_t offset, int image, const void *value,
                       void *old, int *stat, int type, int kind)
{
    struct caf_token *t = token;
    orma_type ot;
    int r = caf_target(image);
    if (r < 0) {
        caf_fail(1, stat, NULL, 0, "%s on image %d, which is not in 1..%d", what, image, caf.team->n);
        return;
    }
    if (caf_atomic_type(type, kind, &ot) != 0) {
        caf_fail(1, stat, NULL, 0, "%s of type %d kind %d", what, type, kind);
        return;
    }
    int64_t scratch;
    int wr = caf_win_rank(t, r);
    int rc = orma_fetch_and_op(value, old ? old : &scratch, ot, wr, (orma_aint)offset, op, t->win);
    if (rc == ORMA_SUCCESS)
        rc = orma_win_flush(wr, t->win);
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, stat, NULL, 0, "%s on image %d: %s (%s)", what, image, orma_strerror(rc), orma_error_message());
        return;
    }
    caf_ok(stat);
}

void _gfortran_caf_atomic_define(void *token, size_t offset, int image, void *value, int *stat, int type, int kind)
{
    caf_atomic("atomic_define", ORMA_REPLACE, token, offset, image, value, NULL, stat, type, kind);
}

void _gfortran_caf_atomic_ref(void *token, size_t offset, int image, void *value, int *stat, int type, int kind)
{
    caf_atomic("atomic_ref", ORMA_NO_OP, token, offset, image, NULL, value, stat, type, kind);
}

void _gfortran_caf_atomic_op(int op, void *token, size_t offset, int image, void *value, void *old, int *stat,
                             int type, int kind)
{
    orma_op o;
    switch (op) {
    case CAF_ATOMIC_ADD: o = ORMA_SUM; break;
    case CAF_ATOMIC_AND: o = ORMA_BAND; break;
    case CAF_ATOMIC_OR: o = ORMA_BOR; break;
    case CAF_ATOMIC_XOR: o = ORMA_BXOR; break;
    default:
        caf_fail(1, stat, NULL, 0, "atomic operation %d unknown", op);
        return;
    }
    caf_atomic("atomic_op", o, token, offset, image, value, old, stat, type, kind);
}

void _gfortran_caf_atomic_cas(void *token, size_t offset, int image, void *old, void *compare, void *new_val,
                              int *stat, int type, int kind)
{
    struct caf_token *t = token;
    orma_type ot;
    int r = caf_target(image);
    if (r < 0) {
        caf_fail(1, stat, NULL, 0, "atomic_cas on image %d, which is not in 1..%d", image, caf.team->n);
        return;
    }
    if (caf_atomic_type(type, kind, &ot) != 0) {
        caf_fail(1, stat, NULL, 0, "atomic_cas of type %d kind %d", type, kind);
        return;
    }
    int wr = caf_win_rank(t, r);
    int rc = orma_compare_and_swap(new_val, compare, old, ot, wr, (orma_aint)offset, t->win);
    if (rc == ORMA_SUCCESS)
        rc = orma_win_flush(wr, t->win);
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, stat, NULL, 0, "atomic_cas on image %d: %s (%s)", image, orma_strerror(rc), orma_error_message());
        return;
    }
    caf_ok(stat);
}

/* ---- locks ---- */

static int caf_word(struct caf_token *t, int r, size_t index, orma_op op, uint64_t arg, uint64_t *old)
{
    r = caf_win_rank(t, r);
    /* Where r's part is mapped here, an add (event post and wait) or a read
     * (EVENT_QUERY) is one hardware atomic, as orma's own would be there. */
    const struct caf_peer *p = t->peer ? &t->peer[r] : NULL;
    if (p && p->base && (index + 1) * sizeof(uint64_t) <= p->size && (op == ORMA_SUM || op == ORMA_NO_OP)) {
        uint64_t *w = (uint64_t *)(p->base + index * sizeof(uint64_t));
        *old = op == ORMA_SUM ? __atomic_fetch_add(w, arg, __ATOMIC_SEQ_CST) : __atomic_load_n(w, __ATOMIC_SEQ_CST);
        return ORMA_SUCCESS;
    }
    int rc = orma_fetch_and_op(&arg, old, ORMA_UINT64, r, (orma_aint)(index * sizeof(uint64_t)), op, t->win);
    return rc == ORMA_SUCCESS ? orma_win_flush(r, t->win) : rc;
}

static int caf_cas_word(struct caf_token *t, int r, size_t index, uint64_t cmp, uint64_t nv, uint64_t *old)
{
    r = caf_win_rank(t, r);
    int rc = orma_compare_and_swap(&nv, &cmp, old, ORMA_UINT64, r, (orma_aint)(index * sizeof(uint64_t)), t->win);
    return rc == ORMA_SUCCESS ? orma_win_flush(r, t->win) : rc;
}

/* The rank holding element index of a lock or event variable on image
 * (0: this image), or -1 after reporting that there is no such element. */
static int caf_elem_rank(struct caf_token *t, size_t index, int image, const char *what, int *stat, char *errmsg,
                         size_t errmsg_len)
{
    int r = caf_target(image);
    if (r < 0 || (index + 1) * sizeof(uint64_t) > t->size) {
        caf_fail(1, stat, errmsg, errmsg_len, "%s of element %zu on image %d: no such %s", what, index + 1,
                 image ? image : caf.me + 1, strstr(what, "EVENT") ? "event" : "lock");
        return -1;
    }
    return r;
}

void _gfortran_caf_lock(void *token, size_t index, int image, int *acquired, int *stat, char *errmsg,
                        size_t errmsg_len)
{
    struct caf_token *t = token;
    int r = caf_elem_rank(t, index, image, "LOCK", stat, errmsg, errmsg_len);
    if (r < 0)
        return;
    uint64_t mine = (uint64_t)caf.me + 1, old = 0;
    unsigned spins = 0;
    for (;;) {
        int rc = caf_cas_word(t, r, index, 0, mine, &old);
        if (rc != ORMA_SUCCESS) {
            caf_fail(1, stat, errmsg, errmsg_len, "LOCK on image %d: %s (%s)", r + 1, orma_strerror(rc),
                     orma_error_message());
            return;
        }
        if (old == 0)
            break;
        if (old == mine) {
            caf_fail(CAF_STAT_LOCKED, stat, errmsg, errmsg_len, "LOCK of a lock this image holds already");
            return;
        }
        if (acquired) {
            *acquired = 0;
            caf_ok(stat);
            return;
        }
        if (__atomic_load_n(&caf.ended[old - 1], __ATOMIC_ACQUIRE)) {
            caf_fail(CAF_STAT_STOPPED_IMAGE, stat, errmsg, errmsg_len,
                     "LOCK waits for image %d, which holds it and has stopped", (int)old);
            return;
        }
        if (++spins > 16)
            sched_yield();
        orma_win_sync(caf.ctl);
    }
    if (acquired)
        *acquired = 1;
    caf_ok(stat);
}

void _gfortran_caf_unlock(void *token, size_t index, int image, int *stat, char *errmsg, size_t errmsg_len)
{
    struct caf_token *t = token;
    int r = caf_elem_rank(t, index, image, "UNLOCK", stat, errmsg, errmsg_len);
    if (r < 0)
        return;
    uint64_t mine = (uint64_t)caf.me + 1, old = 0;
    int rc = caf_cas_word(t, r, index, mine, 0, &old);
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, stat, errmsg, errmsg_len, "UNLOCK on image %d: %s (%s)", r + 1, orma_strerror(rc),
                 orma_error_message());
        return;
    }
    if (old == 0) {
        caf_fail(CAF_STAT_UNLOCKED, stat, errmsg, errmsg_len, "UNLOCK of a lock that is not locked");
        return;
    }
    if (old != mine) {
        caf_fail(CAF_STAT_LOCKED_OTHER_IMAGE, stat, errmsg, errmsg_len, "UNLOCK of a lock image %d holds", (int)old);
        return;
    }
    caf_ok(stat);
}

/* ---- events ---- */

void _gfortran_caf_event_post(void *token, size_t index, int image, int *stat, char *errmsg, size_t errmsg_len)
{
    struct caf_token *t = token;
    int r = caf_elem_rank(t, index, image, "EVENT POST", stat, errmsg, errmsg_len);
    if (r < 0)
        return;
    /* What this image wrote before the post is visible to the image that
     * waits for it: every put is flushed already; the post is an atomic
     * after them. */
    uint64_t old;
    int rc = caf_word(t, r, index, ORMA_SUM, 1, &old);
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, stat, errmsg, errmsg_len, "EVENT POST to image %d: %s (%s)", r + 1, orma_strerror(rc),
                 orma_error_message());
        return;
    }
    caf_ok(stat);
}

void _gfortran_caf_event_wait(void *token, size_t index, int until_count, int *stat, char *errmsg,
                              size_t errmsg_len)
{
    struct caf_token *t = token;
    if (caf_elem_rank(t, index, 0, "EVENT WAIT", stat, errmsg, errmsg_len) < 0)
        return;
    uint64_t need = until_count > 0 ? (uint64_t)until_count : 1;
    const uint64_t *word = (const uint64_t *)(t->base + index * sizeof(uint64_t));
    unsigned spins = 0;
    while (__atomic_load_n(word, __ATOMIC_ACQUIRE) < need) {
        orma_win_flush_all(t->win); /* over the net: handles what has arrived */
        if (++spins > 64)
            sched_yield();
    }
    uint64_t old;
    int rc = caf_word(t, caf.me, index, ORMA_SUM, (uint64_t)0 - need, &old);
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, stat, errmsg, errmsg_len, "EVENT WAIT: %s (%s)", orma_strerror(rc), orma_error_message());
        return;
    }
    caf_ok(stat);
}

void _gfortran_caf_event_query(void *token, size_t index, int image, int *count, int *stat)
{
    struct caf_token *t = token;
    int r = caf_elem_rank(t, index, image, "EVENT_QUERY", stat, NULL, 0);
    if (r < 0)
        return;
    uint64_t v = 0;
    int rc = caf_word(t, r, index, ORMA_NO_OP, 0, &v);
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, stat, NULL, 0, "EVENT_QUERY on image %d: %s (%s)", r + 1, orma_strerror(rc),
                 orma_error_message());
        return;
    }
    *count = (int)v;
    caf_ok(stat);
}
