/* util_wait.c -- the slow paths of util_wait.h. */
#include "util_wait.h"
#include "util_config.h"
#include "util_time.h"

#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void util_futex_wait(_Atomic uint32_t *addr, uint32_t expected, uint32_t usec)
{
    struct timespec ts = {.tv_sec = usec / 1000000, .tv_nsec = (long)(usec % 1000000) * 1000};
    /* Shared (not FUTEX_PRIVATE) because the word lives in memory mapped by
     * several processes. */
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT, expected, &ts, NULL, 0);
}

void (*util_wait_hook)(void);

static uint32_t util_sleep_cap(void)
{
    uint32_t cap = util_config.sleep_us ? util_config.sleep_us : 1;
    return util_wait_hook && cap > UTIL_WAIT_HOOK_US ? UTIL_WAIT_HOOK_US : cap;
}

void util_wake_slow(struct util_waitword *w)
{
    syscall(SYS_futex, (uint32_t *)&w->value, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Waiting beside another rank of the job on one CPU.  Yielding is how it
 * gets the core -- unless a task that never yields shares the core too
 * (another job's busy loop): then the scheduler hands that task a whole
 * time slice at every yield (1-6 ms measured here), the rank we wait for
 * gets the core a slice later, and an exchange takes milliseconds.  A rank
 * asleep on a futex instead is woken by its partner's store and, having
 * slept, preempts the busy task at once (25 us a round trip, two ranks and
 * four busy loops on one CPU).
 *
 * So the process keeps the outcome of its last 16 yields beside such a
 * rank: lost (over UTIL_YIELD_LOST_NS off the core) or not.  With two
 * ranks and four busy loops on one CPU, 94% of them were lost; with two
 * 2-rank jobs sharing 2 CPUs, 0.01-0.2%, in bursts (a rank of the other
 * job starting, or touching its window) -- and sleeping there costs: a
 * wake-up per exchange, and wake-ups pull the partners onto one CPU.  When
 * UTIL_YIELDS_LOST of the 16 were lost, its waits beside such a rank sleep
 * instead of yielding for UTIL_CONTENDED_NS, then yield again to look,
 * with the history left one lost yield short of the mark: while the busy
 * task stays, that yield is lost and renews the period (one lost slice
 * per period, 1.5-6%); once it has gone, short yields wear the history
 * down.  A rank whose partners run on other CPUs keeps yielding: there a
 * long yield says only that other processes wanted the core. */
#define UTIL_YIELD_LOST_NS UINT64_C(200000)
#define UTIL_YIELDS_LOST 8
#define UTIL_CONTENDED_NS UINT64_C(100000000)
#define UTIL_LOST_PRIMED ((1u << (UTIL_YIELDS_LOST - 1)) - 1)

/* Process-wide, updated racily (a heuristic): the outcomes of the last 16
 * yields beside a rank on this CPU, 1 bits lost; and the time until which
 * waits beside one sleep instead of yielding (ns, 0 none). */
static _Atomic uint32_t util_lost_hist;
static _Atomic uint64_t util_contended_until;

/* Notes one yield beside a rank on this CPU, from before to after (ns). */
static void util_note_yield(uint64_t before, uint64_t after)
{
    uint32_t hist = atomic_load_explicit(&util_lost_hist, memory_order_relaxed);
    hist = ((hist << 1) | (after - before > UTIL_YIELD_LOST_NS)) & 0xffffu;
    if (__builtin_popcount(hist) >= UTIL_YIELDS_LOST) {
        hist = UTIL_LOST_PRIMED;
        atomic_store_explicit(&util_contended_until, after + UTIL_CONTENDED_NS, memory_order_relaxed);
    }
    atomic_store_explicit(&util_lost_hist, hist, memory_order_relaxed);
}

/* Whether waits beside a rank on this CPU sleep at time now (ns). */
static int util_contended_at(uint64_t now)
{
    uint64_t until = atomic_load_explicit(&util_contended_until, memory_order_relaxed);
    return until && now < until;
}

int util_wait_contended(void)
{
    return util_contended_at(util_time_ns());
}

static struct {
    _Atomic uint32_t *cpus;
    int n, me;
} util_share;

void util_wait_share_cpus(_Atomic uint32_t *cpus, int n, int me)
{
    util_share.cpus = cpus;
    util_share.n = n;
    util_share.me = me;
    if (cpus) {
        int cpu = sched_getcpu();
        atomic_store_explicit(&cpus[me], cpu >= 0 ? (uint32_t)cpu + 1 : 0, memory_order_relaxed);
    }
}

/* 1 when another rank of the job last waited on the CPU this one runs on
 * (noting this one's CPU). */
static int util_cpu_shared(void)
{
    _Atomic uint32_t *cpus = util_share.cpus;
    int cpu = sched_getcpu();
    if (!cpus || cpu < 0)
        return 0;
    uint32_t mine = (uint32_t)cpu + 1;
    if (atomic_load_explicit(&cpus[util_share.me], memory_order_relaxed) != mine)
        atomic_store_explicit(&cpus[util_share.me], mine, memory_order_relaxed);
    for (int r = 0; r < util_share.n; r++)
        if (r != util_share.me && atomic_load_explicit(&cpus[r], memory_order_relaxed) == mine)
            return 1;
    return 0;
}

/* The spinning and yielding phases shared by every waiter: 1 while they
 * last, 0 once the yielding budget is spent, or yielding beside a rank
 * on this CPU loses the core (above), and the caller should sleep. */
int util_backoff_relax(struct util_backoff *b)
{
    if (util_wait_hook && !b->quiet)
        util_wait_hook();
    if (b->phase == 0) {
        if (b->step < util_config.spin) {
            b->step++;
            util_cpu_relax();
            return 1;
        }
        b->phase = 1;
        b->step = 0;
        b->yield_until = util_time_ns() + (uint64_t)util_config.yield_us * 1000;
    }
    if (b->phase == 1) {
        /* where this rank runs, now and every 64 yields; the clock every
         * 16 yields only, or at each beside a rank on this CPU */
        if (b->step % 64 == 0)
            b->shared = util_cpu_shared();
        int timed = b->shared || b->step % 16 == 0;
        uint64_t now = timed ? util_time_ns() : 0;
        b->step++;
        if ((!timed || now < b->yield_until) && !(b->shared && util_contended_at(now))) {
            sched_yield();
            if (b->shared)
                util_note_yield(now, util_time_ns());
            return 1;
        }
        b->phase = 2;
        b->step = 0;
    }
    return 0;
}

/* util_wait_slow's loop, for at most ns once the spinning is over (0:
 * no limit), in the phases of *b (which goes on where it was left).  0 or
 * -1 (the time ran out).  The clock is first read when the yielding
 * starts: a wait that the spinning ends (a fence's partner arriving)
 * costs no more than util_wait_geq's. */
static int util_wait_until(struct util_waitword *w, uint32_t target, uint64_t ns, struct util_backoff *b)
{
    uint64_t deadline = 0;
    while (util_backoff_relax(b)) {
        if (util_seq_geq(atomic_load_explicit(&w->value, memory_order_acquire), target))
            return 0;
        if (ns && b->phase == 1 && b->step % 16 == 0) {
            uint64_t now = util_time_ns();
            if (!deadline)
                deadline = now + ns;
            else if (now >= deadline)
                return -1;
        }
    }
    if (ns && !deadline)
        deadline = util_time_ns() + ns;
    for (;;) {
        if (util_wait_hook)
            util_wait_hook();
        uint32_t sleep_us = util_sleep_cap();
        if (deadline) {
            uint64_t now = util_time_ns();
            if (now >= deadline)
                return util_seq_geq(atomic_load_explicit(&w->value, memory_order_acquire), target) ? 0 : -1;
            if ((deadline - now) / 1000 < sleep_us)
                sleep_us = (uint32_t)((deadline - now) / 1000) + 1;
        }
        atomic_fetch_add_explicit(&w->sleepers, 1, memory_order_seq_cst);
        uint32_t v = atomic_load_explicit(&w->value, memory_order_seq_cst);
        if (util_seq_geq(v, target)) {
            atomic_fetch_sub_explicit(&w->sleepers, 1, memory_order_relaxed);
            atomic_thread_fence(memory_order_acquire);
            return 0;
        }
        util_futex_wait(&w->value, v, sleep_us);
        atomic_fetch_sub_explicit(&w->sleepers, 1, memory_order_relaxed);
    }
}

void util_wait_slow(struct util_waitword *w, uint32_t target)
{
    struct util_backoff b = {0};
    util_wait_until(w, target, 0, &b);
}

int util_wait_watched_slow(struct util_waitword *w, uint32_t target, int (*look)(void *ctx), void *ctx)
{
    struct util_backoff b = {0}; /* one for every turn: later turns sleep at once */
    while (util_wait_until(w, target, UTIL_WATCH_EVERY_NS, &b)) {
        int status = look(ctx);
        if (status)
            return status;
    }
    return 0;
}

int util_wait_cond(struct util_waitword *w, int (*done)(void *ctx), void *ctx)
{
    struct util_backoff b = {0};
    int rc;
    while (util_backoff_relax(&b))
        if ((rc = done(ctx)))
            return rc;
    for (;;) {
        if (util_wait_hook)
            util_wait_hook();
        atomic_fetch_add_explicit(&w->sleepers, 1, memory_order_seq_cst);
        uint32_t v = atomic_load_explicit(&w->value, memory_order_seq_cst);
        if ((rc = done(ctx))) {
            atomic_fetch_sub_explicit(&w->sleepers, 1, memory_order_relaxed);
            return rc;
        }
        util_futex_wait(&w->value, v, util_sleep_cap());
        atomic_fetch_sub_explicit(&w->sleepers, 1, memory_order_relaxed);
    }
}

void util_backoff_pause(struct util_backoff *b)
{
    if (util_backoff_relax(b))
        return;
    /* growing sleeps of 10 us steps, up to ORMA_SLEEP_US */
    uint32_t cap = util_sleep_cap();
    if (b->step * 10 < cap)
        b->step++;
    uint32_t us = b->step * 10 < cap ? b->step * 10 : cap;
    struct timespec ts = {.tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

void util_wait_tune_joined(int ranks_here)
{
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof mine, &mine) == 0 && CPU_COUNT(&mine) == 1)
        return;
    util_wait_tune(ranks_here);
}

void util_wait_tune(int ranks_here)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus > 0 && ranks_here > cpus && util_config_is_default("ORMA_SPIN"))
        util_config.spin = 0;
}
