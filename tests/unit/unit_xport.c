/* unit_xport.c -- one conformance test for every transport (xport.h): the
 * same calls on each, and the bytes checked that arrived and that nothing
 * around them changed.
 *
 * shm and cma move bytes: contiguous put and get at odd offsets and
 * lengths (one longer than the shm copy's chunk), through an advanced
 * place too; typed put and get between a contiguous buffer and a strided
 * layout whose origin lies past the place, with runs short enough for
 * cma's staged get and long enough for its iovecs.  cma reaches this
 * process's own memory (the same system calls as another's); a gathered
 * put of 300 short pieces, more than cma passes in one call.  none moves
 * nothing: every call fails with ORMA_ERR_RANGE and a message naming the
 * rank and why, and the memory behind the place is untouched. */
#include "check.h"
#include "xport.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GUARD 64
#define AREA ((size_t)640 << 10) /* more than XPORT_COPY_CHUNK beside the guards */

static unsigned char bg(size_t i)
{
    return (unsigned char)(0x5a ^ (i * 7));
}

static unsigned char data(size_t i, unsigned seed)
{
    return (unsigned char)(seed + i * 13 + (i >> 8));
}

static void fill_bg(unsigned char *a, size_t len)
{
    for (size_t i = 0; i < len; i++)
        a[i] = bg(i);
}

/* The area is its background except [lo, lo + len), which holds data from
 * seed (or, with want NULL, the background too). */
static void expect(const unsigned char *a, size_t len, size_t lo, size_t n, unsigned seed, const char *what)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char want = i >= lo && i - lo < n ? data(i - lo, seed) : bg(i);
        if (a[i] != want) {
            fprintf(stderr, "%s: byte %zu is 0x%02x, expected 0x%02x\n", what, i, a[i], want);
            CHECK(0);
        }
    }
}

static struct xport_at place(const struct xport_ops *ops, void *p)
{
    return (struct xport_at){.ops = ops, .addr = (uintptr_t)p, .pid = getpid(), .rank = 3,
                             .why = "exposes no memory in this window"};
}

static void contiguous(const struct xport_ops *ops, unsigned char *target, unsigned char *buf)
{
    static const size_t lens[] = {1, 7, 64, 4099, ((size_t)256 << 10) + 77};
    static const size_t offs[] = {0, 3, 4093};
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
        for (size_t oi = 0; oi < sizeof offs / sizeof *offs; oi++) {
            size_t len = lens[li], off = offs[oi];
            unsigned seed = (unsigned)(li * 5 + oi);
            struct xport_at at = place(ops, target);
            fill_bg(target - GUARD, AREA + 2 * GUARD);
            for (size_t i = 0; i < len; i++)
                buf[i] = data(i, seed);
            CHECK_OK(ops->put(&at, off, buf, len));
            expect(target - GUARD, AREA + 2 * GUARD, GUARD + off, len, seed, ops->name);

            fill_bg(buf - GUARD, AREA + 2 * GUARD);
            struct xport_at there = xport_advance(&at, (ptrdiff_t)off);
            CHECK_OK(ops->get(&there, 0, buf, len));
            expect(buf - GUARD, GUARD, GUARD, 0, 0, "before a get's destination");
            for (size_t i = 0; i < len; i++)
                CHECK(buf[i] == data(i, seed));
            for (size_t i = len; i < AREA + GUARD; i++)
                CHECK(buf[i] == bg(i + GUARD));
        }
    }
}

/* count blocks of blocklen ints, stride ints apart, whose origin is skip
 * bytes past the place; to and from a contiguous buffer. */
static void typed(const struct xport_ops *ops, unsigned char *target, unsigned char *buf, size_t count,
                  size_t blocklen, size_t stride, size_t skip)
{
    orma_type vec;
    CHECK_OK(orma_type_vector(count, blocklen, (orma_aint)stride, ORMA_INT, &vec));
    CHECK_OK(orma_type_commit(&vec));
    size_t n = count * blocklen * sizeof(int), reach = skip + ((count - 1) * stride + blocklen) * sizeof(int);
    CHECK(reach <= AREA);
    struct xport_at at = place(ops, target);
    struct xport_typed x = {.origin = buf, .otype = ORMA_BYTE, .ocount = n, .ttype = vec, .tcount = 1,
                            .torigin = (ptrdiff_t)skip, .reach = reach};
    unsigned seed = (unsigned)(count + blocklen + skip);

    fill_bg(target - GUARD, AREA + 2 * GUARD);
    for (size_t i = 0; i < n; i++)
        buf[i] = data(i, seed);
    CHECK_OK(ops->put_typed(&at, &x));
    /* each block holds its share of the data, every gap the background */
    size_t done = 0;
    for (size_t b = 0; b <= count; b++) {
        size_t lo = b ? skip + ((b - 1) * stride + blocklen) * sizeof(int) : 0;
        size_t hi = b < count ? skip + b * stride * sizeof(int) : AREA;
        for (size_t i = lo; i < hi; i++)
            CHECK(target[i] == bg(i + GUARD));
        for (size_t i = 0; b < count && i < blocklen * sizeof(int); i++)
            CHECK(target[hi + i] == data(done + i, seed));
        done += blocklen * sizeof(int);
    }
    for (size_t i = 0; i < GUARD; i++)
        CHECK(target[i - GUARD] == bg(i) && target[AREA + i] == bg(AREA + GUARD + i));

    fill_bg(buf - GUARD, AREA + 2 * GUARD);
    CHECK_OK(ops->get_typed(&at, &x));
    for (size_t i = 0; i < n; i++)
        CHECK(buf[i] == data(i, seed));
    for (size_t i = n; i < AREA + GUARD; i++)
        CHECK(buf[i] == bg(i + GUARD));
    CHECK_OK(orma_type_free(&vec));
}

/* 300 pieces of 1-9 bytes with gaps between (more than cma takes in one
 * system call), and each piece's bytes at its place, the gaps untouched. */
static void pieces(const struct xport_ops *ops, unsigned char *target, unsigned char *buf)
{
    enum { N = 300 };
    struct xport_piece p[N];
    size_t off = 5, src = 0;
    for (size_t i = 0; i < N; i++) {
        size_t len = 1 + i % 9;
        p[i] = (struct xport_piece){buf + src, off, len};
        for (size_t j = 0; j < len; j++)
            buf[src + j] = data(off + j, 77);
        src += len;
        off += len + 1 + i % 4;
    }
    struct xport_at at = place(ops, target);
    fill_bg(target - GUARD, AREA + 2 * GUARD);
    CHECK_OK(ops->put_pieces(&at, p, N));
    size_t next = 0;
    for (size_t i = 0; i < AREA; i++) {
        while (next < N && i >= p[next].off + p[next].len)
            next++;
        int in = next < N && i >= p[next].off;
        unsigned char want = in ? data(i, 77) : bg(i + GUARD);
        if (target[i] != want) {
            fprintf(stderr, "%s: pieces: byte %zu is 0x%02x, expected 0x%02x\n", ops->name, i, target[i], want);
            CHECK(0);
        }
    }
    for (size_t i = 0; i < GUARD; i++)
        CHECK(target[i - GUARD] == bg(i) && target[AREA + i] == bg(AREA + GUARD + i));
}

static void moves_bytes(const struct xport_ops *ops, unsigned char *target, unsigned char *buf)
{
    contiguous(ops, target, buf);
    pieces(ops, target, buf);
    typed(ops, target, buf, 50, 3, 5, 0);     /* 12-byte runs: cma stages its get */
    typed(ops, target, buf, 50, 3, 5, 16);    /* the layout's origin past the place */
    typed(ops, target, buf, 4, 512, 600, 40); /* 2 KB runs: iovecs */
}

static void refuses(const struct xport_ops *ops, unsigned char *target, unsigned char *buf)
{
    struct xport_at at = place(ops, target);
    orma_type t = ORMA_INT;
    struct xport_typed x = {.origin = buf, .otype = t, .ocount = 4, .ttype = t, .tcount = 4, .reach = 16};
    fill_bg(target - GUARD, AREA + 2 * GUARD);
    fill_bg(buf, 64);
    CHECK(xport_reach(&at) == ORMA_ERR_RANGE);
    const char *m = orma_error_message();
    CHECK(strstr(m, "rank 3") && strstr(m, "exposes no memory"));
    CHECK(ops->put(&at, 0, buf, 16) == ORMA_ERR_RANGE);
    CHECK(ops->get(&at, 8, buf, 16) == ORMA_ERR_RANGE);
    CHECK(ops->put_typed(&at, &x) == ORMA_ERR_RANGE);
    CHECK(ops->get_typed(&at, &x) == ORMA_ERR_RANGE);
    struct xport_piece p = {buf, 4, 8};
    CHECK(ops->put_pieces(&at, &p, 1) == ORMA_ERR_RANGE);
    expect(target - GUARD, AREA + 2 * GUARD, 0, 0, 0, "memory behind a place none reaches");
    for (size_t i = 0; i < 64; i++)
        CHECK(buf[i] == bg(i));
}

int main(int argc, char **argv)
{
    CHECK_OK(orma_init(&argc, &argv)); /* the layouts are made through the API */
    unsigned char *t = malloc(AREA + 2 * GUARD), *b = malloc(AREA + 2 * GUARD);
    CHECK(t && b);
    CHECK(xport_shm.mapped && !xport_cma.mapped && !xport_none.mapped);
    CHECK(xport_reach(&(struct xport_at){.ops = &xport_shm}) == ORMA_SUCCESS);
    moves_bytes(&xport_shm, t + GUARD, b + GUARD);
    moves_bytes(&xport_cma, t + GUARD, b + GUARD);
    refuses(&xport_none, t + GUARD, b + GUARD);
    free(t);
    free(b);
    CHECK_OK(orma_finalize());
    printf("unit_xport: shm, cma and none conform\n");
    return 0;
}
