/* xport_shm.c -- the shm transport: the target's memory is mapped here. */
#include "xport.h"
#include "xport_copy.h"
#include "dtype_iter.h"

void xport_copy_chunked(void *dst, const void *src, size_t len)
{
    char *d = dst;
    const char *s = src;
    for (size_t done = 0; done < len; done += XPORT_COPY_CHUNK)
        util_copy(d + done, s + done, len - done < XPORT_COPY_CHUNK ? len - done : XPORT_COPY_CHUNK);
}

static int xport_shm_put(const struct xport_at *at, size_t off, const void *src, size_t len)
{
    xport_copy(xport_ptr(at) + off, src, len);
    return ORMA_SUCCESS;
}

static int xport_shm_get(const struct xport_at *at, size_t off, void *dst, size_t len)
{
    xport_copy(dst, xport_ptr(at) + off, len);
    return ORMA_SUCCESS;
}

static int xport_shm_put_pieces(const struct xport_at *at, const struct xport_piece *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        xport_copy(xport_ptr(at) + p[i].off, p[i].buf, p[i].len);
    return ORMA_SUCCESS;
}

static int xport_shm_get_pieces(const struct xport_at *at, const struct xport_piece *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        xport_copy(p[i].buf, xport_ptr(at) + p[i].off, p[i].len);
    return ORMA_SUCCESS;
}

/* One pass from one layout straight into the other: never pack, copy,
 * unpack (the partitioned-address-space result of [001]). */
static int xport_shm_put_typed(const struct xport_at *at, const struct xport_typed *x)
{
    dtype_copy(xport_ptr(at) + x->torigin, x->tcount, x->ttype, x->origin, x->ocount, x->otype);
    return ORMA_SUCCESS;
}

static int xport_shm_get_typed(const struct xport_at *at, const struct xport_typed *x)
{
    dtype_copy(x->origin, x->ocount, x->otype, xport_ptr(at) + x->torigin, x->tcount, x->ttype);
    return ORMA_SUCCESS;
}

const struct xport_ops xport_shm = {
    .name = "shm",
    .mapped = 1,
    .put = xport_shm_put,
    .get = xport_shm_get,
    .put_typed = xport_shm_put_typed,
    .get_typed = xport_shm_get_typed,
    .put_pieces = xport_shm_put_pieces,
    .get_pieces = xport_shm_get_pieces,
};
