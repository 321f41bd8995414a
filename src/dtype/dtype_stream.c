/* dtype_stream.c -- a layout's data stream a part at a time (dtype_iter.h). */
#include "dtype_iter.h"
#include "util_copy.h"

void dtype_cursor_init(struct dtype_cursor *c, orma_type t, size_t count)
{
    c->flat = dtype_flat_init(&c->w, t, count);
    if (!c->flat)
        dtype_iter_init(&c->it, t, count);
}

void dtype_stream_init(struct dtype_stream *s, orma_type t, size_t count)
{
    dtype_cursor_init(&s->c, t, count);
    s->off = 0;
    s->len = 0;
    s->at = 0;
}

int dtype_stream_next(struct dtype_stream *s, size_t max, ptrdiff_t *off_p, size_t *len_p)
{
    if (!s->len && !dtype_cursor_next(&s->c, &s->off, &s->len))
        return 0;
    size_t len = s->len < max ? s->len : max;
    *off_p = s->off;
    *len_p = len;
    s->off += (ptrdiff_t)len;
    s->len -= len;
    s->at += len;
    return 1;
}

/* The whole runs of a part and the run it ends in, for a flat walk held
 * in a local (registers: its address never taken) or for the iterator. */
#define DTYPE_STREAM_RUNS(NEXT)                                                                  \
    while (done < n && (NEXT)) {                                                                 \
        size_t take = len < n - done ? len : n - done;                                           \
        if (unpack)                                                                              \
            util_copy_run(buf + off, packed + done, take);                                       \
        else                                                                                     \
            util_copy_run(packed + done, buf + off, take);                                       \
        done += take;                                                                            \
        if (take < len) { /* cut: the next part resumes it */                                    \
            s->off = off + (ptrdiff_t)take;                                                      \
            s->len = len - take;                                                                 \
        }                                                                                        \
    }

size_t dtype_stream_move(struct dtype_stream *s, char *buf, char *packed, size_t n, int unpack)
{
    size_t done = 0;
    /* the rest of a run the last part ended in */
    if (s->len && n) {
        size_t len = s->len < n ? s->len : n;
        if (unpack)
            util_copy_run(buf + s->off, packed, len);
        else
            util_copy_run(packed, buf + s->off, len);
        s->off += (ptrdiff_t)len;
        s->len -= len;
        done = len;
    }
    ptrdiff_t off;
    size_t len;
    if (s->c.flat) {
        struct dtype_flat_walk w = s->c.w;
        DTYPE_STREAM_RUNS(dtype_flat_next(&w, &off, &len))
        s->c.w = w;
    } else {
        DTYPE_STREAM_RUNS(dtype_iter_next(&s->c.it, SIZE_MAX, &off, &len))
    }
    s->at += done;
    return done;
}

void dtype_stream_skip(struct dtype_stream *s, size_t n)
{
    ptrdiff_t off;
    size_t len;
    while (n && dtype_stream_next(s, n, &off, &len))
        n -= len;
}
