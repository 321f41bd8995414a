/* bsp_bsmp.c -- BSPlib's bulk-synchronous message passing: bsp_send
 * copies a message into an outbox per destination; at the sync each
 * sender puts its outbox into the receiver's inbox -- one window of
 * orma_win_allocate, shared memory on a node, at the offset the
 * announcements give (the bytes of the lower-numbered senders) -- and the
 * receiver's queue is read in place until the next sync.
 *
 * A message in the inbox: its payload length (8 bytes), the tag, padded
 * to 8 bytes, the payload, padded to 8 bytes. */
#include "bsp_impl.h"

#include <bsp.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define BSP_INBOX_MIN 4096

static void bsp_inbox_open(size_t cap)
{
    void *base;
    bsp_orma("bsp_sync", orma_win_allocate(cap, 1, ORMA_INFO_NULL, &base, &bsp.inbox));
    bsp_orma("bsp_sync", orma_win_lock_all(0, bsp.inbox));
    bsp.inbox_base = base;
    bsp.inbox_cap = cap;
}

static void bsp_inbox_close(void)
{
    bsp_orma("bsp_sync", orma_win_unlock_all(bsp.inbox));
    bsp_orma("bsp_sync", orma_win_free(&bsp.inbox));
    bsp.inbox_base = NULL;
    bsp.inbox_cap = 0;
}

void bsp_bsmp_start(void)
{
    bsp.out = calloc((size_t)bsp.world, sizeof *bsp.out);
    if (!bsp.out)
        bsp_fail("bsp_begin", "out of memory");
    bsp_inbox_open(BSP_INBOX_MIN);
}

void bsp_bsmp_stop(void)
{
    bsp_inbox_close();
    for (int d = 0; d < bsp.world; d++)
        free(bsp.out[d].data);
    BSP_FREE(bsp.out);
    BSP_FREE(bsp.queue);
    bsp.qlen = bsp.qhead = bsp.qcap = bsp.qbytes = 0;
}

uint64_t bsp_bsmp_out_bytes(int dst) { return bsp.out[dst].len; }

void bsp_set_tagsize(int *tag_nbytes)
{
    bsp_check_on("bsp_set_tagsize");
    if (!tag_nbytes)
        bsp_fail("bsp_set_tagsize", "tag_nbytes is NULL");
    if (*tag_nbytes < 0)
        bsp_fail("bsp_set_tagsize", "tag size %d is negative", *tag_nbytes);
    bsp.tagsize_next = *tag_nbytes;
    bsp.tag_set = 1;
    *tag_nbytes = bsp.tagsize;
}

void bsp_send(int pid, const void *tag, const void *payload, int payload_nbytes)
{
    bsp_check_on("bsp_send");
    bsp_check_pid("bsp_send", pid);
    if (payload_nbytes < 0)
        bsp_fail("bsp_send", "payload_nbytes %d is negative", payload_nbytes);
    if (!tag && bsp.tagsize > 0)
        bsp_fail("bsp_send", "tag is NULL with a tag size of %d", bsp.tagsize);
    if (!payload && payload_nbytes > 0)
        bsp_fail("bsp_send", "payload is NULL");
    size_t n = (size_t)payload_nbytes, t = (size_t)bsp.tagsize;
    struct bsp_bytes *b = &bsp.out[pid];
    size_t at = b->len, whole = 8 + pad8(t) + pad8(n);
    b->data = bsp_grow(b->data, &b->cap, at + whole, 1, "bsp_send");
    uint64_t len = n;
    memcpy(b->data + at, &len, 8);
    if (t)
        memcpy(b->data + at + 8, tag, t);
    if (n)
        memcpy(b->data + at + 8 + pad8(t), payload, n);
    b->len = at + whole;
    bsp.sending = 1;
}

static void bsp_out_clear(void)
{
    for (int d = 0; d < bsp.world; d++)
        bsp.out[d].len = 0;
    bsp.sending = 0;
}

void bsp_bsmp_drop(void)
{
    bsp.qlen = bsp.qhead = bsp.qbytes = 0;
    bsp_out_clear();
}

/* Takes this process's queue from its inbox: bytes of messages, in the
 * order of their senders. */
static void bsp_inbox_read(size_t bytes)
{
    bsp.qlen = bsp.qhead = bsp.qbytes = 0;
    bsp.qtagsize = bsp.tagsize;
    size_t t = pad8((size_t)bsp.tagsize), at = 0;
    while (at < bytes) {
        uint64_t len;
        memcpy(&len, bsp.inbox_base + at, 8);
        bsp.queue = bsp_grow(bsp.queue, &bsp.qcap, bsp.qlen + 1, sizeof *bsp.queue, "bsp_sync");
        struct bsp_msg *m = &bsp.queue[bsp.qlen++];
        m->tag = bsp.inbox_base + at + 8;
        m->payload = m->tag + t;
        m->len = (size_t)len;
        bsp.qbytes += m->len;
        at += 8 + t + pad8(m->len);
    }
}

/* Collective, at the sync; sent[src * world + dst] are the bytes
 * announced.  Ends with a barrier, after which the queue is read. */
void bsp_bsmp_deliver(const uint64_t *sent)
{
    int w = bsp.world, me = bsp.pid;
    uint64_t most = 0, mine = 0;
    for (int d = 0; d < w; d++) {
        uint64_t need = 0;
        for (int s = 0; s < w; s++)
            need += sent[(size_t)s * w + d];
        if (need > most)
            most = need;
        if (d == me)
            mine = need;
    }
    if (most > bsp.inbox_cap) { /* every process sees the same need */
        size_t cap = bsp.inbox_cap * 2 > most ? bsp.inbox_cap * 2 : (size_t)most;
        bsp_inbox_close();
        bsp_inbox_open(cap);
    }
    for (int d = 0; d < w; d++) {
        size_t len = bsp.out[d].len;
        if (!len)
            continue;
        uint64_t off = 0;
        for (int s = 0; s < me; s++)
            off += sent[(size_t)s * w + d];
        bsp_orma("bsp_sync", orma_put(bsp.out[d].data, len, ORMA_BYTE, d, (orma_aint)off, len, ORMA_BYTE,
                                      bsp.inbox));
    }
    bsp_orma("bsp_sync", orma_win_flush_all(bsp.inbox));
    bsp_orma("bsp_sync", orma_barrier());
    bsp_out_clear();
    bsp_inbox_read((size_t)mine);
}

void bsp_qsize(int *nmessages, int *accum_nbytes)
{
    bsp_check_on("bsp_qsize");
    if (!nmessages || !accum_nbytes)
        bsp_fail("bsp_qsize", "an argument is NULL");
    size_t n = bsp.qlen - bsp.qhead;
    *nmessages = n > INT_MAX ? INT_MAX : (int)n; /* BSPlib's ints; more is not countable */
    *accum_nbytes = bsp.qbytes > INT_MAX ? INT_MAX : (int)bsp.qbytes;
}

void bsp_get_tag(int *status, void *tag)
{
    bsp_check_on("bsp_get_tag");
    if (!status)
        bsp_fail("bsp_get_tag", "status is NULL");
    if (bsp.qhead == bsp.qlen) {
        *status = -1;
        return;
    }
    const struct bsp_msg *m = &bsp.queue[bsp.qhead];
    if (bsp.qtagsize > 0 && !tag)
        bsp_fail("bsp_get_tag", "tag is NULL with a tag size of %d", bsp.qtagsize);
    if (bsp.qtagsize > 0)
        memcpy(tag, m->tag, (size_t)bsp.qtagsize);
    *status = (int)m->len;
}

void bsp_move(void *payload, int reception_nbytes)
{
    bsp_check_on("bsp_move");
    if (bsp.qhead == bsp.qlen)
        bsp_fail("bsp_move", "the queue is empty");
    if (reception_nbytes < 0)
        bsp_fail("bsp_move", "reception_nbytes %d is negative", reception_nbytes);
    const struct bsp_msg *m = &bsp.queue[bsp.qhead];
    size_t n = m->len < (size_t)reception_nbytes ? m->len : (size_t)reception_nbytes;
    if (n && !payload)
        bsp_fail("bsp_move", "payload is NULL");
    if (n)
        memcpy(payload, m->payload, n);
    bsp.qbytes -= m->len;
    bsp.qhead++;
}

int bsp_hpmove(void **tag_ptr, void **payload_ptr)
{
    bsp_check_on("bsp_hpmove");
    if (!tag_ptr || !payload_ptr)
        bsp_fail("bsp_hpmove", "an argument is NULL");
    if (bsp.qhead == bsp.qlen)
        return -1;
    const struct bsp_msg *m = &bsp.queue[bsp.qhead];
    *tag_ptr = (void *)m->tag;
    *payload_ptr = (void *)m->payload;
    bsp.qbytes -= m->len;
    bsp.qhead++;
    return (int)m->len;
}
