/* caf_convert.c -- intrinsic assignment between kinds and types, for
 * coarray transfers whose two sides differ (x[2] = i where x is real(8)
 * and i integer(4); character of other lengths or kinds).  Values go
 * through the widest form of their class: __int128, _Float128 (or long
 * double), and a complex pair of them. */
#include "caf_impl.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SIZEOF_FLOAT128__)
typedef _Float128 caf_real;
#else
typedef long double caf_real;
#endif
typedef __int128 caf_int;

struct caf_value {
    int cls; /* CAF_BT_INTEGER, _REAL (with im for complex), _LOGICAL */
    caf_int i;
    caf_real re, im;
};

/* Loads and stores go through memcpy: a value in a derived type or a
 * buffer need not be aligned for its type. */
#define CAF_GET(T, p, k) ({ T v_; memcpy(&v_, (const char *)(p) + (k) * sizeof(T), sizeof(T)); v_; })
#define CAF_PUT(T, p, k, x) do { T v_ = (T)(x); memcpy((char *)(p) + (k) * sizeof(T), &v_, sizeof(T)); } while (0)

static int caf_load(struct caf_value *v, const void *p, int type, int kind)
{
    int cx = type == CAF_BT_COMPLEX;
    v->re = v->im = 0;
    v->i = 0;
    switch (type) {
    case CAF_BT_INTEGER:
    case CAF_BT_LOGICAL:
        switch (kind) {
        case 1: v->i = CAF_GET(int8_t, p, 0); break;
        case 2: v->i = CAF_GET(int16_t, p, 0); break;
        case 4: v->i = CAF_GET(int32_t, p, 0); break;
        case 8: v->i = CAF_GET(int64_t, p, 0); break;
        case 16: v->i = CAF_GET(caf_int, p, 0); break;
        default: return -1;
        }
        v->cls = type;
        v->re = (caf_real)v->i;
        return 0;
    case CAF_BT_REAL:
    case CAF_BT_COMPLEX:
        switch (kind) {
        case 4: v->re = CAF_GET(float, p, 0); if (cx) v->im = CAF_GET(float, p, 1); break;
        case 8: v->re = CAF_GET(double, p, 0); if (cx) v->im = CAF_GET(double, p, 1); break;
        case 10: v->re = CAF_GET(long double, p, 0); if (cx) v->im = CAF_GET(long double, p, 1); break;
#if defined(__SIZEOF_FLOAT128__)
        case 16: v->re = CAF_GET(_Float128, p, 0); if (cx) v->im = CAF_GET(_Float128, p, 1); break;
#endif
        default: return -1;
        }
        v->cls = CAF_BT_REAL;
        v->i = (caf_int)v->re;
        return 0;
    default:
        return -1;
    }
}

static int caf_store(void *p, int type, int kind, const struct caf_value *v)
{
    int cx = type == CAF_BT_COMPLEX;
    if ((type == CAF_BT_LOGICAL) != (v->cls == CAF_BT_LOGICAL))
        return -1;
    switch (type) {
    case CAF_BT_INTEGER:
    case CAF_BT_LOGICAL:
        switch (kind) {
        case 1: CAF_PUT(int8_t, p, 0, v->i); return 0;
        case 2: CAF_PUT(int16_t, p, 0, v->i); return 0;
        case 4: CAF_PUT(int32_t, p, 0, v->i); return 0;
        case 8: CAF_PUT(int64_t, p, 0, v->i); return 0;
        case 16: CAF_PUT(caf_int, p, 0, v->i); return 0;
        default: return -1;
        }
    case CAF_BT_REAL:
    case CAF_BT_COMPLEX:
        switch (kind) {
        case 4: CAF_PUT(float, p, 0, v->re); if (cx) CAF_PUT(float, p, 1, v->im); return 0;
        case 8: CAF_PUT(double, p, 0, v->re); if (cx) CAF_PUT(double, p, 1, v->im); return 0;
        case 10: CAF_PUT(long double, p, 0, v->re); if (cx) CAF_PUT(long double, p, 1, v->im); return 0;
#if defined(__SIZEOF_FLOAT128__)
        case 16: CAF_PUT(_Float128, p, 0, v->re); if (cx) CAF_PUT(_Float128, p, 1, v->im); return 0;
#endif
        default: return -1;
        }
    default:
        return -1;
    }
}

/* One character value: kinds 1 and 4, blank padded or truncated. */
static void caf_char(void *dst, int dk, size_t dl, const void *src, int sk, size_t sl)
{
    size_t dn = dl / (size_t)dk, sn = sl / (size_t)sk, n = dn < sn ? dn : sn;
    for (size_t i = 0; i < dn; i++) {
        uint32_t c = ' ';
        if (i < n)
            c = sk == 1 ? ((const unsigned char *)src)[i] : CAF_GET(uint32_t, src, i);
        if (dk == 1)
            ((unsigned char *)dst)[i] = c > 255 ? '?' : (unsigned char)c;
        else
            CAF_PUT(uint32_t, dst, i, c);
    }
}

char *caf_conv_buffers(size_t src_bytes, size_t dst_bytes, char **dbuf)
{
    size_t at = (src_bytes + 15) & ~(size_t)15;
    char *p = malloc(at + dst_bytes + 1);
    *dbuf = p ? p + at : NULL;
    return p;
}

int caf_convert(void *dst, int dt, int dk, size_t dl, const void *src, int st, int sk, size_t sl,
                size_t count, size_t src_count)
{
    char *d = dst;
    const char *s = src;
    size_t sstep = src_count == 1 ? 0 : sl;
    if (dt == CAF_BT_CHARACTER || st == CAF_BT_CHARACTER) {
        if (dt != st || (dk != 1 && dk != 4) || (sk != 1 && sk != 4))
            return -1;
        for (size_t i = 0; i < count; i++, d += dl, s += sstep)
            caf_char(d, dk, dl, s, sk, sl);
        return 0;
    }
    if (dt == st && dk == sk && dl == sl) {
        for (size_t i = 0; i < count; i++, d += dl, s += sstep)
            memmove(d, s, dl);
        return 0;
    }
    struct caf_value v;
    for (size_t i = 0; i < count; i++, d += dl, s += sstep)
        if (caf_load(&v, s, st, sk) != 0 || caf_store(d, dt, dk, &v) != 0)
            return -1;
    return 0;
}
