/* notify.c -- notified access where the net transport carries it
 * (ORMA_TRANSPORT=net under mpirun; the same program checks the shared
 * memory paths under orma-run).  Ranks form a ring: each one produces for
 * its right neighbour and consumes what its left one produced.
 *
 *  1. Passive epochs -- lock_all, lock_all with NOCHECK, lock (exclusive at
 *     2 ranks, where a lone lock is taken lazily; shared at 3, where the
 *     second lock takes both at once) -- on an allocated window and (lock_all
 *     only) on malloc'd memory.  Per round, small and 1 MB in turn, with no
 *     flush anywhere in the round: a typed accumulate, a typed put and an
 *     accumulate (notified each) then a put notified last; the consumer waits
 *     for that counter only, then finds all four payloads and the other
 *     counters raised already -- a target raises a counter behind everything
 *     the origin sent before.  It answers with a notification the producer
 *     waits for before its next round (a producer that never flushes).
 *     Then a notified get: the target scribbles over the bytes as soon as
 *     its counter says the get has read them, and the origin, after its
 *     flush, must find the bytes as they were.
 *  2. Fence epochs: a put notified and waited for inside the epoch, one
 *     rank late to open it in one round (what comes early is held); in the
 *     last, 1 MB not waited for: the closing fence completes what went
 *     ahead of it, the counter included.
 *  3. PSCW epochs: the same between post/start and complete/wait, one
 *     target late to post in one round.
 *  4. A counter the target does not have: the origin's flush returns
 *     ORMA_ERR_NOTIFY with the target's message; the next round is clean.
 * With the argument "threads" (ORMA_THREAD_MULTIPLE): NTHR threads per rank
 * each run a ring of its own on counters of its own in one lock_all epoch. */
#include "check.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BIG ((size_t)1 << 20)
#define ROUNDS 4
#define NT 1000 /* elements of the typed operations */
#define NTHR 2
#define THR_ROUNDS 24
#define THR_SLOT 65536

enum { R_DATA = 0, R_GET = BIG, R_ACC = 2 * BIG, R_TPUT = 3 * BIG, R_TACC = R_TPUT + 3 * NT * 8,
       WIN_SIZE = R_TACC + 3 * NT * 8 };
enum { C_DATA, C_REPLY, C_GET, C_ACC, C_TPUT, C_TACC, C_FENCE, C_PSCW, NCTR };
enum { M_LOCK_ALL, M_NOCHECK, M_LOCK, M_CREATE, NMODES };
static const char *const mode_names[NMODES] = {"lock_all", "lock_all(NOCHECK)", "lock", "lock_all(create)"};

static int me, n, left, right;
static orma_type vec; /* NT int64 at a stride of 3 */

static unsigned char pat(int src, int phase, int round, size_t i)
{
    return (unsigned char)(src * 37 + phase * 11 + round * 5 + (int)(i * 7) + (int)(i >> 9));
}

static size_t round_len(int round) { return round % 2 ? BIG : 24 + (size_t)round; }

static void sleep_ms(int ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

static void wait_ctr(orma_win w, int id, uint64_t v)
{
    CHECK_OK(orma_notify_wait(w, id, v));
    uint64_t got = 0;
    CHECK_OK(orma_notify_read(w, id, &got));
    CHECK((int64_t)(got - v) >= 0);
}

static void ctr_at_least(orma_win w, int id, uint64_t v)
{
    uint64_t got = 0;
    CHECK_OK(orma_notify_read(w, id, &got));
    if ((int64_t)(got - v) < 0) {
        fprintf(stderr, "rank %d: counter %d is %llu, expected at least %llu\n", me, id, (unsigned long long)got,
                (unsigned long long)v);
        exit(1);
    }
}

static void check_bytes(const unsigned char *p, size_t len, int src, int phase, int round, const char *what)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] != pat(src, phase, round, i)) {
            fprintf(stderr, "rank %d: %s, phase %d round %d: byte %zu of %zu is %u, expected %u\n", me, what, phase,
                    round, i, len, p[i], pat(src, phase, round, i));
            exit(1);
        }
}

/* What rank src adds at element i in round r of the accumulates. */
static int64_t acc_val(int src, int round, size_t i) { return (int64_t)(src + 1) * (round + 1) + (int64_t)(i % 7); }
static int64_t tput_val(int src, int phase, int round, size_t i)
{
    return (int64_t)src * 1000000 + phase * 100000 + round * 10000 + (int64_t)i;
}

struct state {
    orma_win w;
    unsigned char *base;
    uint64_t data, reply, get, acc, tput, tacc; /* counters' expected values */
    int64_t *acc_expect;                         /* R_ACC as it must be */
    int64_t tacc_expect[NT];
};

static void open_passive(struct state *s, int mode)
{
    if (mode != M_LOCK) {
        CHECK_OK(orma_win_lock_all(mode == M_NOCHECK ? ORMA_MODE_NOCHECK : 0, s->w));
        return;
    }
    int type = n == 2 ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED;
    CHECK_OK(orma_win_lock(type, right, 0, s->w));
    if (left != right)
        CHECK_OK(orma_win_lock(type, left, 0, s->w));
}

static void close_passive(struct state *s, int mode)
{
    if (mode != M_LOCK) {
        CHECK_OK(orma_win_unlock_all(s->w));
        return;
    }
    CHECK_OK(orma_win_unlock(right, s->w));
    if (left != right)
        CHECK_OK(orma_win_unlock(left, s->w));
}

/* Round r of phase 1 as the producer: four notified operations to the
 * right, none flushed; their buffers are the round's own. */
static void produce(struct state *s, int phase, int r, unsigned char *data, int64_t *acc, int64_t *typed)
{
    size_t len = round_len(r), nacc = len / 8;
    for (size_t i = 0; i < nacc; i++)
        acc[i] = acc_val(me, r, i);
    for (size_t i = 0; i < NT; i++)
        typed[i] = tput_val(me, phase, r, i);
    for (size_t i = 0; i < len; i++)
        data[i] = pat(me, phase, r, i);
    CHECK_OK(orma_accumulate_notify(typed, NT, ORMA_INT64, right, R_TACC, 1, vec, ORMA_SUM, s->w, C_TACC,
                                    ORMA_NOTIFY_ADD, 1));
    CHECK_OK(orma_put_notify(typed, NT, ORMA_INT64, right, R_TPUT, 1, vec, s->w, C_TPUT, ORMA_NOTIFY_ADD, 1));
    CHECK_OK(orma_accumulate_notify(acc, nacc, ORMA_INT64, right, R_ACC, nacc, ORMA_INT64, ORMA_SUM, s->w, C_ACC,
                                    ORMA_NOTIFY_ADD, 1));
    CHECK_OK(orma_put_notify(data, len, ORMA_BYTE, right, R_DATA, len, ORMA_BYTE, s->w, C_DATA, ORMA_NOTIFY_ADD, 1));
}

/* ... and as the consumer: everything the left neighbour sent is in once
 * its last counter is. */
static void consume(struct state *s, int phase, int r)
{
    size_t len = round_len(r), nacc = len / 8;
    wait_ctr(s->w, C_DATA, ++s->data);
    ctr_at_least(s->w, C_ACC, ++s->acc);
    ctr_at_least(s->w, C_TPUT, ++s->tput);
    ctr_at_least(s->w, C_TACC, ++s->tacc);
    check_bytes(s->base + R_DATA, len, left, phase, r, "notified put");
    const int64_t *acc = (const int64_t *)(s->base + R_ACC);
    for (size_t i = 0; i < nacc; i++) {
        s->acc_expect[i] += acc_val(left, r, i);
        if (acc[i] != s->acc_expect[i]) {
            fprintf(stderr, "rank %d: accumulate, phase %d round %d: element %zu is %lld, expected %lld\n", me,
                    phase, r, i, (long long)acc[i], (long long)s->acc_expect[i]);
            exit(1);
        }
    }
    const int64_t *tput = (const int64_t *)(s->base + R_TPUT), *tacc = (const int64_t *)(s->base + R_TACC);
    for (size_t i = 0; i < NT; i++) {
        s->tacc_expect[i] += tput_val(left, phase, r, i);
        CHECK(tput[3 * i] == tput_val(left, phase, r, i));
        CHECK(tacc[3 * i] == s->tacc_expect[i]);
        for (int g = 1; g < 3; g++) /* the gaps of the layout stay as they were */
            CHECK(tput[3 * i + g] == -1 && tacc[3 * i + g] == -1);
    }
}

/* A notified get from the right neighbour, which scribbles over the bytes
 * once its counter says they were read. */
static void get_round(struct state *s, int phase, int r, unsigned char *dst)
{
    size_t len = round_len(r);
    CHECK_OK(orma_get_notify(dst, len, ORMA_BYTE, right, R_GET, len, ORMA_BYTE, s->w, C_GET, ORMA_NOTIFY_ADD, 1));
    wait_ctr(s->w, C_GET, ++s->get);
    memset(s->base + R_GET, 0x5a, len);
    CHECK_OK(orma_win_flush(right, s->w));
    check_bytes(dst, len, right, phase + 50, r, "notified get");
}

static void phase_passive(struct state *s, int mode)
{
    unsigned char *data = malloc(ROUNDS * BIG), *got = malloc(BIG);
    int64_t *acc = malloc(ROUNDS * BIG), *typed = malloc(ROUNDS * NT * sizeof *typed);
    CHECK(data && got && acc && typed);
    open_passive(s, mode);
    for (int r = 0; r < ROUNDS; r++) {
        size_t len = round_len(r);
        /* what our left neighbour gets from us this round, before our
         * answer lets it ask */
        for (size_t i = 0; i < len; i++)
            s->base[R_GET + i] = pat(me, mode + 50, r, i);
        produce(s, mode, r, data + (size_t)r * BIG, acc + (size_t)r * (BIG / 8), typed + (size_t)r * NT);
        consume(s, mode, r);
        CHECK_OK(orma_put_notify(NULL, 0, ORMA_BYTE, left, 0, 0, ORMA_BYTE, s->w, C_REPLY, ORMA_NOTIFY_SET,
                                 ++s->reply));
        wait_ctr(s->w, C_REPLY, s->reply);
        get_round(s, mode, r, got);
    }
    close_passive(s, mode);
    CHECK_OK(orma_barrier());
    free(data);
    free(got);
    free(acc);
    free(typed);
}

static void phase_fence(struct state *s)
{
    uint64_t fence = 0;
    unsigned char *data = malloc(BIG);
    CHECK(data);
    CHECK_OK(orma_win_fence(0, s->w));
    for (int r = 0; r < ROUNDS; r++) {
        size_t len = round_len(r);
        for (size_t i = 0; i < len; i++)
            data[i] = pat(me, 20, r, i);
        CHECK_OK(orma_put_notify(data, len, ORMA_BYTE, right, R_DATA, len, ORMA_BYTE, s->w, C_FENCE,
                                 ORMA_NOTIFY_ADD, 1));
        if (r < ROUNDS - 1) {
            wait_ctr(s->w, C_FENCE, ++fence);
            check_bytes(s->base + R_DATA, len, left, 20, r, "notified put (fence)");
            if (r == 1 && me == 1 % n)
                sleep_ms(30); /* the others' next epoch reaches us before we open it */
            CHECK_OK(orma_win_fence(0, s->w));
            continue;
        }
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, s->w)); /* which alone completes the last */
        ctr_at_least(s->w, C_FENCE, ++fence);
        check_bytes(s->base + R_DATA, len, left, 20, r, "notified put (closing fence)");
    }
    free(data);
}

static orma_group group_of(orma_win w, int r)
{
    orma_group all, g;
    CHECK_OK(orma_win_get_group(w, &all));
    CHECK_OK(orma_group_incl(all, 1, &r, &g));
    CHECK_OK(orma_group_free(&all));
    return g;
}

static void phase_pscw(struct state *s)
{
    uint64_t pscw = 0;
    unsigned char *data = malloc(BIG);
    orma_group gl = group_of(s->w, left), gr = group_of(s->w, right);
    CHECK(data);
    for (int r = 0; r < ROUNDS; r++) {
        size_t len = round_len(r);
        for (size_t i = 0; i < len; i++)
            data[i] = pat(me, 30, r, i);
        if (r == 2 && me == 1 % n)
            sleep_ms(30); /* posted late: what comes first is held */
        CHECK_OK(orma_win_post(gl, 0, s->w));
        CHECK_OK(orma_win_start(gr, 0, s->w));
        CHECK_OK(orma_put_notify(data, len, ORMA_BYTE, right, R_DATA, len, ORMA_BYTE, s->w, C_PSCW,
                                 ORMA_NOTIFY_ADD, 1));
        wait_ctr(s->w, C_PSCW, ++pscw);
        check_bytes(s->base + R_DATA, len, left, 30, r, "notified put (PSCW)");
        CHECK_OK(orma_win_complete(s->w));
        CHECK_OK(orma_win_wait(s->w));
    }
    CHECK_OK(orma_group_free(&gl));
    CHECK_OK(orma_group_free(&gr));
    free(data);
    CHECK_OK(orma_barrier()); /* our wait does not wait for our right neighbour's check */
}

/* Over the net transport the target finds the bad counter, and the flush
 * says so; on shared memory the call itself does. */
static void phase_bad_id(struct state *s)
{
    int64_t v = 7;
    const char *transport = getenv("ORMA_TRANSPORT");
    int net = transport && !strcmp(transport, "net");
    CHECK_OK(orma_win_lock_all(0, s->w));
    int rc = orma_put_notify(&v, 1, ORMA_INT64, right, R_DATA, 1, ORMA_INT64, s->w, 100, ORMA_NOTIFY_ADD, 1);
    if (net) {
        CHECK_OK(rc);
        rc = orma_win_flush(right, s->w);
    }
    CHECK_ERR(rc, ORMA_ERR_NOTIFY);
    CHECK(strstr(orma_error_message(), "counter 100") != NULL);
    CHECK_OK(orma_win_flush(right, s->w)); /* said once */
    CHECK_OK(orma_put_notify(&v, 1, ORMA_INT64, right, R_DATA, 1, ORMA_INT64, s->w, C_DATA, ORMA_NOTIFY_ADD, 1));
    CHECK_OK(orma_win_flush(right, s->w));
    wait_ctr(s->w, C_DATA, ++s->data);
    CHECK_OK(orma_win_unlock_all(s->w));
}

static void window(struct state *s, int create, orma_info info)
{
    memset(s, 0, sizeof *s);
    if (create) {
        s->base = malloc(WIN_SIZE);
        CHECK(s->base);
        CHECK_OK(orma_win_create(s->base, WIN_SIZE, 1, info, &s->w));
    } else {
        CHECK_OK(orma_win_allocate(WIN_SIZE, 1, info, (void **)&s->base, &s->w));
    }
    memset(s->base, 0, WIN_SIZE);
    memset(s->base + R_TPUT, 0xff, 2 * 3 * NT * 8); /* -1 in every int64 of the typed regions ... */
    for (size_t i = 0; i < NT; i++)
        ((int64_t *)(s->base + R_TACC))[3 * i] = 0; /* ... but the elements accumulated into */
    CHECK(s->acc_expect = calloc(BIG / 8, sizeof *s->acc_expect));
    CHECK_OK(orma_barrier());
}

static void window_free(struct state *s, int create)
{
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_free(&s->w));
    if (create)
        free(s->base);
    free(s->acc_expect);
}

/* ---- threads --------------------------------------------------------- */

struct thr_arg {
    struct state *s;
    int t;
};

/* Thread t: counters 2t (data) and 2t + 1 (answer), its own slot. */
static void *thr_ring(void *arg)
{
    const struct thr_arg *a = arg;
    struct state *s = a->s;
    int t = a->t;
    size_t at = (size_t)t * THR_SLOT;
    unsigned char *data = malloc(THR_ROUNDS * (size_t)THR_SLOT);
    CHECK(data);
    for (int r = 0; r < THR_ROUNDS; r++) {
        size_t len = r % 3 == 2 ? THR_SLOT : 16 + (size_t)r;
        unsigned char *d = data + (size_t)r * THR_SLOT;
        for (size_t i = 0; i < len; i++)
            d[i] = pat(me, 40 + t, r, i);
        CHECK_OK(orma_put_notify(d, len, ORMA_BYTE, right, (orma_aint)at, len, ORMA_BYTE, s->w, 2 * t,
                                 ORMA_NOTIFY_ADD, 1));
        wait_ctr(s->w, 2 * t, (uint64_t)r + 1);
        check_bytes(s->base + at, len, left, 40 + t, r, "threaded notified put");
        CHECK_OK(orma_put_notify(NULL, 0, ORMA_BYTE, left, 0, 0, ORMA_BYTE, s->w, 2 * t + 1, ORMA_NOTIFY_SET,
                                 (uint64_t)r + 1));
        wait_ctr(s->w, 2 * t + 1, (uint64_t)r + 1);
    }
    free(data);
    return NULL;
}

static void threads_ring(struct state *s)
{
    pthread_t tid[NTHR];
    struct thr_arg args[NTHR];
    CHECK_OK(orma_win_lock_all(0, s->w));
    for (int t = 0; t < NTHR; t++) {
        args[t] = (struct thr_arg){s, t};
        CHECK(pthread_create(&tid[t], NULL, thr_ring, &args[t]) == 0);
    }
    for (int t = 0; t < NTHR; t++)
        CHECK(pthread_join(tid[t], NULL) == 0);
    CHECK_OK(orma_win_unlock_all(s->w));
}

int main(int argc, char **argv)
{
    int threads = argc > 1 && !strcmp(argv[1], "threads"), provided = 0;
    CHECK_OK(threads ? orma_init_thread(ORMA_THREAD_MULTIPLE, &provided) : orma_init(&argc, &argv));
    CHECK(!threads || provided == ORMA_THREAD_MULTIPLE);
    me = orma_rank();
    n = orma_size();
    if (n < 2) {
        orma_finalize();
        return 77;
    }
    right = (me + 1) % n;
    left = (me + n - 1) % n;
    orma_info info;
    char num[16];
    snprintf(num, sizeof num, "%d", threads ? 2 * NTHR : NCTR);
    CHECK_OK(orma_info_create(&info));
    CHECK_OK(orma_info_set(info, "orma_notify_num", num));
    CHECK_OK(orma_type_vector(NT, 1, 3, ORMA_INT64, &vec));
    CHECK_OK(orma_type_commit(&vec));
    struct state s;
    if (threads) {
        window(&s, 0, info);
        threads_ring(&s);
        window_free(&s, 0);
    } else {
        for (int m = 0; m < NMODES; m++) {
            window(&s, m == M_CREATE, info);
            phase_passive(&s, m);
            if (m == M_LOCK_ALL) {
                phase_fence(&s);
                phase_pscw(&s);
                phase_bad_id(&s);
            }
            window_free(&s, m == M_CREATE);
            if (me == 0)
                printf("notify: %s and the rest passed (%d ranks)\n", mode_names[m], n);
        }
    }
    CHECK_OK(orma_type_free(&vec));
    CHECK_OK(orma_info_free(&info));
    CHECK_OK(orma_finalize());
    return 0;
}
