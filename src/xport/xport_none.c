/* xport_none.c -- a target no transport reaches (it exposes no memory in
 * the window): every call an error naming the rank and why. */
#include "xport.h"
#include "util_status.h"

static int xport_none_reach(const struct xport_at *at)
{
    return util_error(ORMA_ERR_RANGE, "rank %d %s", at->rank, at->why ? at->why : "cannot be reached");
}

static int xport_none_put(const struct xport_at *at, size_t off, const void *src, size_t len)
{
    (void)off, (void)src, (void)len;
    return xport_none_reach(at);
}

static int xport_none_get(const struct xport_at *at, size_t off, void *dst, size_t len)
{
    (void)off, (void)dst, (void)len;
    return xport_none_reach(at);
}

static int xport_none_typed(const struct xport_at *at, const struct xport_typed *x)
{
    (void)x;
    return xport_none_reach(at);
}

static int xport_none_pieces(const struct xport_at *at, const struct xport_piece *p, size_t n)
{
    (void)p, (void)n;
    return xport_none_reach(at);
}

const struct xport_ops xport_none = {
    .name = "none",
    .reach = xport_none_reach,
    .put = xport_none_put,
    .get = xport_none_get,
    .put_typed = xport_none_typed,
    .get_typed = xport_none_typed,
    .put_pieces = xport_none_pieces,
    .get_pieces = xport_none_pieces,
};
