/* bsp_bsmp.c -- bulk-synchronous message passing: bsp_set_tagsize,
 * bsp_send, bsp_qsize, bsp_get_tag, bsp_move and bsp_hpmove.
 *
 * Supersteps alternate between sending a batch (every process to every
 * process, itself included) and reading it; the tag size changes only in
 * supersteps without sends, and runs 0 (the start), 8, 12, 3, 0, 1000.
 * Checks:
 *   - the tag size starts at 0; bsp_set_tagsize returns the size in force,
 *     and the new one holds from the next sync on (a second call in the
 *     superstep still returns the old one, and the queue read after the
 *     call keeps the old tag size);
 *   - the queue is empty before the first sync (bsp_qsize 0 0, bsp_get_tag
 *     status -1, bsp_hpmove -1);
 *   - after a sync the queue holds exactly the messages sent to this
 *     process in the superstep: bsp_qsize gives their number and payload
 *     bytes, and both go down with every message moved; each message
 *     arrives once with its tag and payload (matched as a multiset, per
 *     sender too: no order is assumed), whatever the sender did to its
 *     buffers after bsp_send;
 *   - bsp_get_tag gives the payload length (-1 on an empty queue), copies
 *     exactly the tag size and removes nothing; bsp_move copies
 *     min(length, reception_nbytes) bytes (the bytes beyond stay) and
 *     removes the message, also with 0 bytes; bsp_hpmove gives the length
 *     and pointers to the tag and payload, which stay valid until the next
 *     sync (checked again after the whole queue is read);
 *   - messages not moved are gone after the next sync;
 *   - payloads of 0 bytes (with NULL payload and, at tag size 0, NULL tag
 *     pointers), batches of thousands of small messages and of several MB
 *     (64 KB messages and one of 1 MB per process). */
#include "bsp_test.h"

enum { G = 32, TAGMAX = 1024, MANY = 1200, LARGE = 1 << 20, MED = 1 << 16 };

enum kind { VARIED, MANY_SMALL, BIG };

static int p, me;

static const size_t varied_len[10] = {0, 1, 7, 64, 1000, 4096, 3, 0, 65536 + 5, 200};

static int count(enum kind kind, int s, int r, int q)
{
    switch (kind) {
    case VARIED:
        return (s + r + 2 * q) % 5 + (r == q);
    case MANY_SMALL:
        return MANY / p;
    default:
        return 8 + (q == (r + 1) % p);
    }
}

static size_t length(enum kind kind, int s, int r, int q, int k)
{
    switch (kind) {
    case VARIED:
        return varied_len[(s + 3 * r + 5 * q + 7 * k) % 10];
    case MANY_SMALL:
        return (size_t)((k + r + s) % 4);
    default:
        return k < 8 ? MED + 13 * (size_t)k + (size_t)r : LARGE;
    }
}

/* The tag of message k from r to q in superstep s at tag size T: from 8
 * bytes on it starts with r and k (so a receiver can tell which it is). */
static void tag_of(int s, int T, int r, int q, int k, unsigned char *tag)
{
    bt_fill(tag, (size_t)T, bt_seed(BT_TAG, s, r, q, k), 0);
    if (T >= 8) {
        unsigned ur = (unsigned)r, uk = (unsigned)k;
        for (int i = 0; i < 4; i++) {
            tag[i] = (unsigned char)(ur >> (8 * i));
            tag[4 + i] = (unsigned char)(uk >> (8 * i));
        }
    }
}

static int tag_eq(const void *a, const void *b, int T)
{
    return T == 0 || !memcmp(a, b, (size_t)T);
}

static unsigned payload_seed(int s, int r, int q, int k)
{
    return bt_seed(BT_DATA, s, r, q, k);
}

static void send_batch(enum kind kind, int s, int T)
{
    unsigned char tag[TAGMAX];
    unsigned char *payload = bt_alloc(LARGE);
    int most = 0;
    for (int q = 0; q < p; q++)
        if (count(kind, s, me, q) > most)
            most = count(kind, s, me, q);
    for (int k = 0; k < most; k++)
        for (int q = 0; q < p; q++) {
            if (k >= count(kind, s, me, q))
                continue;
            size_t len = length(kind, s, me, q, k);
            tag_of(s, T, me, q, k, tag);
            bt_fill(payload, len, payload_seed(s, me, q, k), 0);
            const void *t = T == 0 && k % 2 ? NULL : tag;
            const void *pl = len == 0 && k % 2 == 0 ? NULL : payload;
            bsp_send(q, t, pl, (int)len);
            /* copied during the call */
            bt_fill(tag, TAGMAX, bt_seed(BT_JUNK, s, me, q, k), 0);
            bt_fill(payload, len > 16 ? len : 16, bt_seed(BT_JUNK, s, me, q, k), 0);
        }
    free(payload);
}

/* ---- what a process expects to receive ---- */

struct expect {
    int r, k;
    size_t len;
    int seen;
};

static struct expect *ex;
static int nex, ex_first[64];
static long long ex_bytes;
static int ex_step, ex_tagsize;
static enum kind ex_kind;

static void expect_batch(enum kind kind, int s, int T)
{
    free(ex);
    nex = 0;
    ex_bytes = 0;
    for (int r = 0; r < p; r++)
        nex += count(kind, s, r, me);
    ex = bt_alloc((size_t)nex * sizeof *ex);
    int i = 0;
    for (int r = 0; r < p; r++) {
        ex_first[r] = i;
        for (int k = 0; k < count(kind, s, r, me); k++) {
            ex[i] = (struct expect){r, k, length(kind, s, r, me, k), 0};
            ex_bytes += (long long)ex[i].len;
            i++;
        }
    }
    ex_kind = kind;
    ex_step = s;
    ex_tagsize = T;
}

static int payload_is(const struct expect *e, const unsigned char *payload, size_t have)
{
    unsigned seed = payload_seed(ex_step, e->r, me, e->k);
    for (size_t i = 0; i < have; i++)
        if (payload[i] != bt_byte(seed, i))
            return 0;
    return 1;
}

/* The expected message this one is (tag, length, and the first `have`
 * payload bytes); it must be one not seen yet. */
static struct expect *match(const unsigned char *tag, size_t len, const unsigned char *payload, size_t have)
{
    unsigned char want[TAGMAX];
    int T = ex_tagsize;
    if (T >= 8) {
        unsigned r = 0, k = 0;
        for (int i = 0; i < 4; i++) {
            r |= (unsigned)tag[i] << (8 * i);
            k |= (unsigned)tag[4 + i] << (8 * i);
        }
        if (r >= (unsigned)p || k >= (unsigned)count(ex_kind, ex_step, (int)r, me)) {
            fprintf(stderr, "bsp process %d: superstep %d: message with tag naming sender %u, index %u: no such message "
                    "(length %zu)\n", me, ex_step, r, k, len);
            exit(1);
        }
        struct expect *e = &ex[ex_first[r] + (int)k];
        tag_of(ex_step, T, e->r, me, e->k, want);
        if (e->seen)
            fprintf(stderr, "bsp process %d: message %d from process %d arrived twice\n", me, e->k, e->r);
        else if (e->len != len)
            fprintf(stderr, "bsp process %d: message %d from process %d: length %zu, expected %zu\n", me, e->k, e->r, len,
                    e->len);
        else if (!tag_eq(tag, want, T))
            fprintf(stderr, "bsp process %d: message %d from process %d: wrong tag\n", me, e->k, e->r);
        else if (!payload_is(e, payload, have))
            fprintf(stderr, "bsp process %d: message %d from process %d: wrong payload\n", me, e->k, e->r);
        else {
            e->seen = 1;
            return e;
        }
        exit(1);
    }
    for (int i = 0; i < nex; i++) {
        struct expect *e = &ex[i];
        if (e->seen || e->len != len)
            continue;
        tag_of(ex_step, T, e->r, me, e->k, want);
        if (!tag_eq(tag, want, T) || !payload_is(e, payload, have))
            continue;
        e->seen = 1;
        return e;
    }
    fprintf(stderr, "bsp process %d: superstep %d: a message of %zu bytes (tag size %d) that nobody sent, or sent once "
            "and received twice\n", me, ex_step, len, T);
    exit(1);
}

static void check_all_seen(void)
{
    for (int i = 0; i < nex; i++)
        if (!ex[i].seen) {
            fprintf(stderr, "bsp process %d: superstep %d: message %d from process %d (%zu bytes) never arrived\n", me,
                    ex_step, ex[i].k, ex[i].r, ex[i].len);
            exit(1);
        }
}

/* ---- reading the queue ---- */

static int left_n;
static long long left_b;

static void check_qsize(void)
{
    int n = -5, b = -5;
    bsp_qsize(&n, &b);
    CHECK_EQ(n, left_n);
    CHECK_EQ(b, left_b);
}

static void check_empty(void)
{
    int n = -5, b = -5;
    bsp_qsize(&n, &b);
    CHECK_EQ(n, 0);
    CHECK_EQ(b, 0);
    unsigned char tag[G + TAGMAX + G], guard[G + TAGMAX + G];
    bt_guard(tag, sizeof tag);
    bt_guard(guard, sizeof guard);
    int status = -5;
    bsp_get_tag(&status, tag + G);
    CHECK_EQ(status, -1);
    CHECK_SAME(tag, guard, sizeof tag, "tag buffer after bsp_get_tag on an empty queue");
    void *tp = &status, *pp = &status;
    CHECK_EQ(bsp_hpmove(&tp, &pp), -1);
}

/* bsp_get_tag into a guarded buffer: the length; the tag is copied to
 * tag[0..T) and nothing else changes. */
static size_t get_tag(unsigned char *tag)
{
    unsigned char buf[G + TAGMAX + G];
    bt_guard(buf, sizeof buf);
    int status = -5;
    bsp_get_tag(&status, buf + G);
    CHECK(status >= 0);
    int T = ex_tagsize;
    CHECK_PATTERN(buf, G, bt_seed(BT_GUARD, 0, 0, 0, 0), 0, "guard before the tag buffer");
    CHECK_PATTERN(buf + G + T, sizeof buf - G - (size_t)T, bt_seed(BT_GUARD, 0, 0, 0, 0), G + (size_t)T,
                  "tag buffer beyond the tag size");
    memcpy(tag, buf + G, (size_t)T);
    return (size_t)status;
}

static unsigned char *mbuf; /* G + LARGE + 512 + G */

/* get_tag, then bsp_move into a guarded buffer with reception_nbytes =
 * the length + extra (cut: 1 half the length, 2 none): exactly
 * min(length, reception_nbytes) bytes come. */
static void move_one(long long extra, int cut)
{
    unsigned char tag[TAGMAX], again[TAGMAX];
    size_t len = get_tag(tag);
    /* get_tag takes nothing out */
    CHECK_EQ(get_tag(again), len);
    CHECK(tag_eq(tag, again, ex_tagsize));
    check_qsize();
    long long rec = cut == 1 ? (long long)len / 2 : cut == 2 ? 0 : (long long)len + extra;
    size_t copied = (size_t)rec < len ? (size_t)rec : len;
    size_t span = len + 512 + 2 * G;
    bt_guard(mbuf, span);
    bsp_move(mbuf + G, (int)rec);
    CHECK_PATTERN(mbuf, G, bt_seed(BT_GUARD, 0, 0, 0, 0), 0, "guard before the bsp_move buffer");
    CHECK_PATTERN(mbuf + G + copied, span - G - copied, bt_seed(BT_GUARD, 0, 0, 0, 0), G + copied,
                  "bsp_move buffer beyond min(length, reception_nbytes)");
    match(tag, len, mbuf + G, copied);
    left_n--;
    left_b -= (long long)len;
    check_qsize();
}

struct held {
    void *tag, *payload;
    size_t len;
    struct expect *e;
};

static struct held hpmove_one(void)
{
    void *tp = NULL, *pp = NULL;
    int len = bsp_hpmove(&tp, &pp);
    CHECK(len >= 0);
    CHECK(tp != NULL || ex_tagsize == 0);
    CHECK(pp != NULL || len == 0);
    struct held h = {tp, pp, (size_t)len, NULL};
    h.e = match(tp, (size_t)len, pp, (size_t)len);
    left_n--;
    left_b -= len;
    check_qsize();
    return h;
}

/* hpmove's pointers still show the messages */
static void check_held(struct held *h, int n)
{
    unsigned char want[TAGMAX];
    for (int i = 0; i < n; i++) {
        tag_of(ex_step, ex_tagsize, h[i].e->r, me, h[i].e->k, want);
        CHECK(tag_eq(h[i].tag, want, ex_tagsize));
        CHECK(h[i].len == h[i].e->len);
        CHECK_PATTERN(h[i].payload, h[i].len, payload_seed(ex_step, h[i].e->r, me, h[i].e->k), 0,
                      "payload behind a bsp_hpmove pointer, after the whole queue was read");
    }
}

enum how { ALL_MOVE, ALL_HPMOVE, MIXED };

/* Reads the batch sent in superstep s (at tag size T).  MIXED reads two
 * thirds of it, by all three means (truncating moves when the tags name
 * the messages), and leaves the rest. */
static void receive(enum kind kind, int s, int T, enum how how)
{
    expect_batch(kind, s, T);
    left_n = nex;
    left_b = ex_bytes;
    check_qsize();
    struct held *held = bt_alloc((size_t)nex * sizeof *held);
    int nheld = 0, stop = how == MIXED ? nex - nex / 3 : nex;
    for (int i = 0; i < stop; i++) {
        if (how == ALL_HPMOVE || (how == MIXED && i % 3 == 1))
            held[nheld++] = hpmove_one();
        else if (how == ALL_MOVE)
            move_one(i % 2 ? 100 : 0, 0);
        else if (T >= 8)
            move_one(0, 1 + (i % 2)); /* half the length, or nothing */
        else
            move_one(i % 2 ? 7 : 0, 0);
    }
    check_held(held, nheld);
    free(held);
    if (how != MIXED) {
        check_all_seen();
        check_empty();
    } else {
        check_qsize();
    }
}

/* bsp_set_tagsize(&n): must return `was` */
static void set_tagsize(int n, int was)
{
    int v = n;
    bsp_set_tagsize(&v);
    CHECK_EQ(v, was);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    bt_pid = me = bsp_pid();
    p = bsp_nprocs();
    CHECK(p <= 64);
    mbuf = bt_alloc(G + LARGE + 512 + G);

    /* s0: tag size 0, empty queue; a varied batch */
    check_empty();
    send_batch(VARIED, 0, 0);
    bsp_sync();
    /* s1: a tag size set now holds from the next sync on: a second call
     * still returns 0 */
    receive(VARIED, 0, 0, ALL_MOVE);
    set_tagsize(8, 0);
    set_tagsize(8, 0);
    bsp_sync();
    /* s2: 8 now (setting it again changes nothing) */
    set_tagsize(8, 8);
    send_batch(VARIED, 2, 8);
    bsp_sync();
    /* s3: read two thirds, then the next batch */
    receive(VARIED, 2, 8, MIXED);
    send_batch(MANY_SMALL, 3, 8);
    bsp_sync();
    /* s4: exactly s3's batch, s2's leftovers gone; the tag size set first
     * does not change the messages of this superstep */
    set_tagsize(12, 8);
    receive(MANY_SMALL, 3, 8, ALL_HPMOVE);
    bsp_sync();
    /* s5 */
    check_empty();
    send_batch(BIG, 5, 12);
    bsp_sync();
    /* s6 */
    set_tagsize(3, 12);
    receive(BIG, 5, 12, ALL_MOVE);
    bsp_sync();
    /* s7 */
    send_batch(MANY_SMALL, 7, 3);
    bsp_sync();
    /* s8 */
    set_tagsize(0, 3);
    receive(MANY_SMALL, 7, 3, ALL_HPMOVE);
    bsp_sync();
    /* s9 */
    send_batch(VARIED, 9, 0);
    bsp_sync();
    /* s10: part of it, the rest left */
    receive(VARIED, 9, 0, MIXED);
    bsp_sync();
    /* s11: nothing was sent in s10 */
    check_empty();
    set_tagsize(1000, 0);
    bsp_sync();
    /* s12: tags longer than most payloads */
    send_batch(VARIED, 12, 1000);
    bsp_sync();
    /* s13 */
    receive(VARIED, 12, 1000, ALL_MOVE);
    bsp_sync();
    check_empty();
    free(ex);
    free(mbuf);
    bsp_end();
    return 0;
}
