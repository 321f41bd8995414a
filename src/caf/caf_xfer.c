/* caf_xfer.c -- coarray assignments to and from other images: x(...)[i] =
 * y, y = x(...)[i], and x(...)[i] = z(...)[j].
 *
 * When both sides have the same type and kind, a section moves in one
 * orma_put_typed or orma_get_typed from one layout to the other
 * (caf_layout.c), and a flush completes it at once (Fortran orders an
 * image's own accesses: a later reference to the same coarray must see
 * it).  Otherwise the values are converted through a contiguous buffer on
 * this image, which then moves in one typed operation. */
#include "caf_impl.h"

#include <stdlib.h>
#include <string.h>

static size_t caf_vec_count(const struct caf_desc *d, const struct caf_vec *vec)
{
    if (!vec)
        return caf_desc_count(d);
    size_t n = 1;
    for (int j = 0; j < d->dtype.rank; j++) {
        if (vec[j].nvec) {
            n *= vec[j].nvec;
        } else {
            ptrdiff_t st = vec[j].u.t.stride ? vec[j].u.t.stride : 1;
            ptrdiff_t e = (vec[j].u.t.upper - vec[j].u.t.lower) / st + 1;
            if (e <= 0)
                return 0;
            n *= (size_t)e;
        }
    }
    return n;
}

static int caf_orma_fail(int rc, int image, int *stat, char *errmsg, size_t errmsg_len, const char *what)
{
    return caf_fail(1, stat, errmsg, errmsg_len, "%s image %d: %s (%s)", what, image, orma_strerror(rc),
                    orma_error_message());
}

/* Moves n elements between buf (contiguous, elem_len each; or a local
 * descriptor's layout when local is given) and the remote section
 * (remote, vec) at offset in t on rank r. */
static int caf_move(int put, struct caf_token *t, int r, size_t offset, const struct caf_desc *remote,
                    const struct caf_vec *vec, void *buf, const struct caf_desc *local, size_t n)
{
    orma_type rt, lt = ORMA_BYTE;
    int rhow, lhow = CAF_LAYOUT_BYTES, rc;
    size_t len = remote->dtype.elem_len;
    if ((rc = caf_layout(remote, vec, &rt, &rhow)) != ORMA_SUCCESS)
        return rc;
    if (local && (rc = caf_layout(local, NULL, &lt, &lhow)) != ORMA_SUCCESS) {
        caf_layout_put(&rt, rhow);
        return rc;
    }
    int lbytes = lhow == CAF_LAYOUT_BYTES, rbytes = rhow == CAF_LAYOUT_BYTES;
    size_t lcount = lbytes ? n * len : 1, rcount = rbytes ? n * len : 1;
    void *lbuf = local ? local->base : buf;
    r = caf_win_rank(t, r);
    if (lbytes && rbytes) /* bytes on both sides: the shortest path */
        rc = put ? orma_put(lbuf, n * len, ORMA_BYTE, r, (orma_aint)offset, n * len, ORMA_BYTE, t->win)
                 : orma_get(lbuf, n * len, ORMA_BYTE, r, (orma_aint)offset, n * len, ORMA_BYTE, t->win);
    else if (put)
        rc = orma_put_typed(lbuf, lcount, lt, r, (orma_aint)offset, rcount, rt, t->win);
    else
        rc = orma_get_typed(lbuf, lcount, lt, r, (orma_aint)offset, rcount, rt, t->win);
    if (rc == ORMA_SUCCESS)
        rc = orma_win_flush(r, t->win);
    caf_layout_put(&lt, lhow);
    caf_layout_put(&rt, rhow);
    return rc;
}

static int caf_same(const struct caf_desc *a, int ak, const struct caf_desc *b, int bk)
{
    return a->dtype.type == b->dtype.type && ak == bk && a->dtype.elem_len == b->dtype.elem_len;
}

/* The common case, on the shortest path: no vector subscript, the same
 * type and kind, both sides one run of the same bytes, no overlap to fear.
 * 1 when it was done (status in *rc), 0 when caf_assign must go on. */
static int caf_assign_run(int put, struct caf_token *t, size_t offset, int image, const struct caf_desc *remote,
                          const struct caf_vec *vec, const struct caf_desc *local, int rk, int lk,
                          bool may_require_tmp, int *rc)
{
    int r = caf_image_rank(image);
    if (vec || r < 0 || (may_require_tmp && r == caf.me) || !caf_same(remote, rk, local, lk))
        return 0;
    ptrdiff_t rb = caf_desc_run(remote), lb = caf_desc_run(local);
    if (rb < 0 || rb != lb)
        return 0;
    *rc = ORMA_SUCCESS;
    if (rb == 0)
        return 1;
    r = caf_win_rank(t, r);
    size_t n = (size_t)rb;
    const struct caf_peer *p = t->peer ? &t->peer[r] : NULL;
    if (p && p->base && offset <= p->size && n <= p->size - offset) {
        /* That image's memory is mapped here: the assignment is a copy,
         * complete when it returns, as orma's put and flush would be. */
        if (put)
            memmove(p->base + offset, local->base, n);
        else
            memmove(local->base, p->base + offset, n);
        return 1;
    }
    *rc = put ? orma_put(local->base, n, ORMA_BYTE, r, (orma_aint)offset, n, ORMA_BYTE, t->win)
              : orma_get(local->base, n, ORMA_BYTE, r, (orma_aint)offset, n, ORMA_BYTE, t->win);
    if (*rc == ORMA_SUCCESS)
        *rc = orma_win_flush(r, t->win);
    return 1;
}

/* x(...)[image] = y (put) or y = x(...)[image] (get): remote is the
 * coarray's section, local the variable on this image; rk and lk their
 * kinds.  The destination's elements are n; the source's are n too, or one
 * (broadcast). */
void caf_assign(int put, struct caf_token *t, size_t offset, int image, const struct caf_desc *remote,
                const struct caf_vec *vec, const struct caf_desc *local, int rk, int lk, bool may_require_tmp,
                int *stat)
{
    const char *what = put ? "assignment to" : "reference to";
    int rc;
    if (caf_assign_run(put, t, offset, image, remote, vec, local, rk, lk, may_require_tmp, &rc)) {
        if (rc != ORMA_SUCCESS)
            caf_orma_fail(rc, image, stat, NULL, 0, what);
        else
            caf_ok(stat);
        return;
    }
    int r = caf_image_rank(image);
    if (r < 0) {
        caf_fail(1, stat, NULL, 0, "%s image %d, which is not in 1..%d", what, image, caf.team->n);
        return;
    }
    size_t rn = caf_vec_count(remote, vec), ln = caf_desc_count(local);
    size_t n = put ? rn : ln, sn = put ? ln : rn;
    if (n == 0) {
        caf_ok(stat);
        return;
    }
    if (sn != 1 && sn != n) {
        caf_fail(1, stat, NULL, 0, "%s image %d: %zu elements assigned to %zu", what, image, sn, n);
        return;
    }
    if (caf_same(remote, rk, local, lk) && sn == n && !(may_require_tmp && r == caf.me)) {
        rc = caf_move(put, t, r, offset, remote, vec, NULL, local, n);
    } else {
        /* Through a buffer: the source's values (sbuf), converted (dbuf). */
        const struct caf_desc *src = put ? local : remote, *dst = put ? remote : local;
        int sk = put ? lk : rk, dk = put ? rk : lk;
        size_t sl = src->dtype.elem_len, dl = dst->dtype.elem_len;
        char *dbuf, *sbuf = caf_conv_buffers(sn * sl, n * dl, &dbuf);
        if (!sbuf) {
            caf_fail(1, stat, NULL, 0, "%s image %d: out of memory", what, image);
            return;
        }
        if (put) {
            caf_desc_pack(local, sbuf);
            rc = ORMA_SUCCESS;
        } else {
            rc = caf_move(0, t, r, offset, remote, vec, sbuf, NULL, sn);
        }
        if (rc == ORMA_SUCCESS &&
            caf_convert(dbuf, dst->dtype.type, dk, dl, sbuf, src->dtype.type, sk, sl, n, sn) != 0) {
            free(sbuf);
            caf_fail(1, stat, NULL, 0, "%s image %d: no assignment of type %d kind %d to type %d kind %d", what,
                     image, src->dtype.type, sk, dst->dtype.type, dk);
            return;
        }
        if (rc == ORMA_SUCCESS) {
            if (put)
                rc = caf_move(1, t, r, offset, remote, vec, dbuf, NULL, n);
            else
                caf_desc_unpack(local, dbuf);
        }
        free(sbuf);
    }
    if (rc != ORMA_SUCCESS) {
        caf_orma_fail(rc, image, stat, NULL, 0, what);
        return;
    }
    caf_ok(stat);
}

void _gfortran_caf_send(void *token, size_t offset, int image, struct caf_desc *dest, struct caf_vec *dst_vector,
                        struct caf_desc *src, int dst_kind, int src_kind, bool may_require_tmp, int *stat,
                        void *team)
{
    (void)team;
    caf_assign(1, token, offset, image, dest, dst_vector, src, dst_kind, src_kind, may_require_tmp, stat);
}

void _gfortran_caf_get(void *token, size_t offset, int image, struct caf_desc *src, struct caf_vec *src_vector,
                       struct caf_desc *dest, int src_kind, int dst_kind, bool may_require_tmp, int *stat)
{
    caf_assign(0, token, offset, image, src, src_vector, dest, src_kind, dst_kind, may_require_tmp, stat);
}

void _gfortran_caf_sendget(void *dst_token, size_t dst_offset, int dst_image, struct caf_desc *dest,
                           struct caf_vec *dst_vector, void *src_token, size_t src_offset, int src_image,
                           struct caf_desc *src, struct caf_vec *src_vector, int dst_kind, int src_kind,
                           bool may_require_tmp, int *stat)
{
    (void)may_require_tmp;
    int dr = caf_image_rank(dst_image), sr = caf_image_rank(src_image);
    if (dr < 0 || sr < 0) {
        caf_fail(1, stat, NULL, 0, "assignment from image %d to image %d, not both in 1..%d", src_image,
                 dst_image, caf.team->n);
        return;
    }
    size_t n = caf_vec_count(dest, dst_vector), sn = caf_vec_count(src, src_vector);
    if (n == 0) {
        caf_ok(stat);
        return;
    }
    if (sn != n && sn != 1) {
        caf_fail(1, stat, NULL, 0, "assignment of %zu elements of image %d to %zu on image %d", sn, src_image, n,
                 dst_image);
        return;
    }
    size_t dl = dest->dtype.elem_len, sl = src->dtype.elem_len;
    char *dbuf, *sbuf = caf_conv_buffers(sn * sl, n * dl, &dbuf);
    if (!sbuf) {
        caf_fail(1, stat, NULL, 0, "out of memory for an assignment from image %d", src_image);
        return;
    }
    int rc = caf_move(0, src_token, sr, src_offset, src, src_vector, sbuf, NULL, sn);
    if (rc != ORMA_SUCCESS) {
        free(sbuf);
        caf_orma_fail(rc, src_image, stat, NULL, 0, "reference to");
        return;
    }
    if (caf_convert(dbuf, dest->dtype.type, dst_kind, dl, sbuf, src->dtype.type, src_kind, sl, n, sn) != 0) {
        free(sbuf);
        caf_fail(1, stat, NULL, 0, "assignment of type %d kind %d to type %d kind %d", src->dtype.type, src_kind,
                 dest->dtype.type, dst_kind);
        return;
    }
    rc = caf_move(1, dst_token, dr, dst_offset, dest, dst_vector, dbuf, NULL, n);
    free(sbuf);
    if (rc != ORMA_SUCCESS) {
        caf_orma_fail(rc, dst_image, stat, NULL, 0, "assignment to");
        return;
    }
    caf_ok(stat);
}
