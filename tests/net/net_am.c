/* net_am: the net transport's active messages over the host MPI (1-4
 * ranks).  Every rank sends every rank (itself too) NMSG messages whose
 * headers (8..64 bytes) and payloads (0 bytes to 1 MB, around the eager
 * limit on both sides) carry a pattern of (source, destination, number);
 * the receiver checks every byte, that nothing around a large payload's
 * place was written, that a source's eager messages come in the order
 * sent, and that each message comes exactly once.  Eager payloads are
 * overwritten right after their send (the engine copied them); large ones
 * are kept until net_am_flush.  Handler 5 has no place function: its
 * large payloads are dropped and delivered as NULL.  Bad arguments give
 * their error codes. */
#include "net_am.h"

#include <orma.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NMSG 48
#define GUARD 64
#define H_DATA 3
#define H_DROP 5

static int me, nranks, errors;
static unsigned char seen[4][NMSG];
static int last_eager[4];
static int dropped[4];
static int delivered, progressed; /* by the handlers, and as net_am_progress counted */

static size_t msg_len(int j)
{
    /* the eager room: a slot less the 16-byte wire and the header */
    static const long lens[] = {0, 1, 7, 100, 4000, -1, 0, 65536, 8192, 1 << 20, 3, 12345};
    long l = lens[j % 12];
    size_t hlen = 8 + (size_t)j % (NET_AM_HDR_MAX - 7);
    if (l < 0) /* exactly the eager limit, then one past it */
        return NET_AM_SLOT_BYTES - 16 - hlen + (size_t)(j / 12 % 2);
    return (size_t)l;
}

static size_t msg_hlen(int j) { return 8 + (size_t)j % (NET_AM_HDR_MAX - 7); }

static unsigned char pat(int src, int dst, int j, size_t i, int salt)
{
    return (unsigned char)(src * 131 + dst * 71 + j * 17 + (int)(i * 7) + salt);
}

static void fail(const char *what, int src, int j, size_t at)
{
    if (errors++ < 10)
        fprintf(stderr, "net_am: rank %d: message %d from rank %d: %s (byte %zu)\n", me, j, src, what, at);
}

static void check_hdr(int src, const unsigned char *hdr, size_t hlen, int *j_p)
{
    uint32_t s, j;
    memcpy(&s, hdr, 4);
    memcpy(&j, hdr + 4, 4);
    *j_p = (int)j;
    if ((int)s != src || j >= NMSG || hlen != msg_hlen((int)j)) {
        fail("wrong header", src, (int)j, 0);
        *j_p = -1;
        return;
    }
    for (size_t i = 8; i < hlen; i++)
        if (hdr[i] != pat(src, me, (int)j, i, 1)) {
            fail("header byte", src, (int)j, i);
            return;
        }
}

static void *place(void *arg, int src, const void *hdr, size_t hlen, size_t len)
{
    (void)arg;
    (void)hlen;
    uint32_t j;
    memcpy(&j, (const char *)hdr + 4, 4);
    if (len <= NET_AM_SLOT_BYTES - 16 - hlen)
        fail("place asked for an eager payload", src, (int)j, len);
    unsigned char *b = malloc(len + 2 * GUARD);
    if (!b) {
        fail("no memory", src, (int)j, len);
        exit(1);
    }
    memset(b, 0xA5, len + 2 * GUARD);
    return b + GUARD;
}

static void deliver(void *arg, int src, const void *hdr, size_t hlen, const void *data, size_t len)
{
    (void)arg;
    int j;
    check_hdr(src, hdr, hlen, &j);
    if (j < 0)
        return;
    delivered++;
    if (seen[src][j]++)
        fail("delivered twice", src, j, 0);
    if (len != msg_len(j)) {
        fail("wrong length", src, j, len);
        return;
    }
    const unsigned char *d = data;
    for (size_t i = 0; i < len; i++)
        if (d[i] != pat(src, me, j, i, 2)) {
            fail("payload byte", src, j, i);
            break;
        }
    int large = len > NET_AM_SLOT_BYTES - 16 - hlen;
    if (large) {
        for (size_t i = 0; i < GUARD; i++)
            if (d[-1 - (long)i] != 0xA5 || d[len + i] != 0xA5) {
                fail("guard byte around the payload written", src, j, i);
                break;
            }
        free((unsigned char *)d - GUARD);
    } else {
        if (j <= last_eager[src])
            fail("eager message out of order", src, j, 0);
        last_eager[src] = j;
    }
}

static void deliver_drop(void *arg, int src, const void *hdr, size_t hlen, const void *data, size_t len)
{
    (void)arg;
    (void)hdr;
    (void)hlen;
    if (data || len != 100000)
        fail("dropped payload delivered", src, 0, len);
    dropped[src]++;
    delivered++;
}

static void expect(int got, int want, const char *what)
{
    if (got != want && errors++ < 10)
        fprintf(stderr, "net_am: rank %d: %s returned %d, expected %d\n", me, what, got, want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks > 4) {
        if (me == 0)
            fprintf(stderr, "net_am: at most 4 ranks\n");
        MPI_Finalize();
        return 77;
    }
    for (int r = 0; r < 4; r++)
        last_eager[r] = -1;
    struct net_am *am = NULL;
    if (net_am_open(MPI_COMM_WORLD, &am) != ORMA_SUCCESS) {
        fprintf(stderr, "net_am: rank %d: open failed: %s\n", me, orma_error_message());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    struct net_handler h = {.place = place, .deliver = deliver}, hd = {.deliver = deliver_drop};
    expect(net_am_rank(am), me, "net_am_rank");
    expect(net_am_size(am), nranks, "net_am_size");
    expect(net_am_handle(am, H_DATA, &h), ORMA_SUCCESS, "net_am_handle");
    expect(net_am_handle(am, H_DROP, &hd), ORMA_SUCCESS, "net_am_handle");
    expect(net_am_handle(am, NET_AM_HANDLERS, &h), ORMA_ERR_ARG, "net_am_handle(NET_AM_HANDLERS)");
    MPI_Barrier(MPI_COMM_WORLD); /* every handler set before any send */

    unsigned char hdr[NET_AM_HDR_MAX + 1];
    unsigned char *keep[NMSG * 4];
    int nkeep = 0;
    for (int j = 0; j < NMSG; j++)
        for (int k = 0; k < nranks; k++) {
            int dst = (me + k) % nranks;
            size_t hlen = msg_hlen(j), len = msg_len(j);
            uint32_t s = (uint32_t)me, jj = (uint32_t)j;
            memcpy(hdr, &s, 4);
            memcpy(hdr + 4, &jj, 4);
            for (size_t i = 8; i < hlen; i++)
                hdr[i] = pat(me, dst, j, i, 1);
            unsigned char *p = malloc(len ? len : 1);
            for (size_t i = 0; i < len; i++)
                p[i] = pat(me, dst, j, i, 2);
            expect(net_am_send(am, dst, H_DATA, hdr, hlen, p, len), ORMA_SUCCESS, "net_am_send");
            memset(hdr, 0, sizeof hdr);
            if (len + hlen + 16 <= NET_AM_SLOT_BYTES) {
                memset(p, 0, len);
                free(p);
            } else {
                keep[nkeep++] = p;
            }
            if (j % 5 == 0) {
                int n = -1;
                expect(net_am_progress(am, &n), ORMA_SUCCESS, "net_am_progress");
                progressed += n;
                if (n < 0 || progressed > delivered)
                    fail("progress counted messages it did not deliver", me, j, (size_t)n);
            }
        }
    /* A large payload nobody places, to the next rank. */
    unsigned char *big = calloc(100000, 1);
    memset(hdr, 0, sizeof hdr);
    expect(net_am_send(am, (me + 1) % nranks, H_DROP, hdr, 8, big, 100000), ORMA_SUCCESS, "net_am_send (drop)");
    /* Bad input. */
    expect(net_am_send(am, nranks, H_DATA, hdr, 8, NULL, 0), ORMA_ERR_RANK, "net_am_send to rank nranks");
    expect(net_am_send(am, -1, H_DATA, hdr, 8, NULL, 0), ORMA_ERR_RANK, "net_am_send to rank -1");
    expect(net_am_send(am, 0, H_DATA, hdr, NET_AM_HDR_MAX + 1, NULL, 0), ORMA_ERR_ARG, "net_am_send, long header");
    expect(net_am_send(am, 0, 99, hdr, 8, NULL, 0), ORMA_ERR_ARG, "net_am_send, handler 99");
    expect(net_am_send(am, 0, H_DATA, hdr, 8, NULL, 5), ORMA_ERR_ARG, "net_am_send, NULL payload");

    expect(net_am_flush(am), ORMA_SUCCESS, "net_am_flush");
    for (int i = 0; i < nkeep; i++)
        free(keep[i]);
    free(big);
    expect(net_am_close(&am), ORMA_SUCCESS, "net_am_close");
    if (am)
        fail("close left the engine", me, 0, 0);

    for (int src = 0; src < nranks; src++) {
        for (int j = 0; j < NMSG; j++)
            if (seen[src][j] != 1)
                fail(seen[src][j] ? "delivered more than once" : "never delivered", src, j, 0);
        if (dropped[src] != (src == (me + nranks - 1) % nranks))
            fail("dropped payloads miscounted", src, 0, (size_t)dropped[src]);
    }
    int all = 0;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("net_am: %d ranks, %d messages each way: %s\n", nranks, NMSG, all ? "FAILED" : "ok");
    MPI_Finalize();
    return all ? 1 : 0;
}
