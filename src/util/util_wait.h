/* util_wait.h -- waiting for a word in shared memory without burning a core.
 *
 * Ranks may outnumber cores, so a waiter polls briefly (ORMA_SPIN), then
 * yields its core for up to ORMA_YIELD_US, then sleeps on a futex (at most
 * ORMA_SLEEP_US at a time, so a lost wake-up costs a delay, never a hang).
 * Yielding is as quick to notice a change as polling when the core is ours
 * alone, and hands the core over when ranks share it; sleeping is left for
 * long waits, because waking a sleeper costs a system call on one side and
 * tens of microseconds of scheduling on the other.
 *
 * A waitable word pairs a 32-bit value with a count of sleepers, in the same
 * cache line: the writer stores the value and calls the kernel only when
 * somebody sleeps.  Values are sequence numbers compared modulo 2^32. */
#ifndef ORMA_UTIL_WAIT_H
#define ORMA_UTIL_WAIT_H

#include <stdatomic.h>
#include <stdint.h>

struct util_waitword {
    _Atomic uint32_t value;
    _Atomic uint32_t sleepers;
};

/* true when a is at or past b, modulo 2^32 */
static inline int util_seq_geq(uint32_t a, uint32_t b) { return (int32_t)(a - b) >= 0; }

/* Called over and over by every waiter while it waits, when set: a layer
 * that must make progress of its own while its rank waits for something
 * else (the net transport: its target's side) sets it.  Waiters then never
 * sleep longer than UTIL_WAIT_HOOK_US at a time. */
extern void (*util_wait_hook)(void);
#define UTIL_WAIT_HOOK_US 50

void util_wait_slow(struct util_waitword *w, uint32_t target);
void util_wake_slow(struct util_waitword *w);

/* Wait until w->value has reached target (acquire). */
static inline void util_wait_geq(struct util_waitword *w, uint32_t target)
{
    if (util_seq_geq(atomic_load_explicit(&w->value, memory_order_acquire), target))
        return;
    util_wait_slow(w, target);
}

/* util_wait_geq for a waiter that must look up now and then whether its
 * wait can still end (the rank that writes w lives, when it belongs to
 * another job and its death would not end this one): after every
 * UTIL_WATCH_EVERY_NS of waiting past the spinning, it calls look(ctx),
 * and gives up when that returns nonzero, returning that value; 0 when
 * w->value reached target.  It waits as util_wait_geq does (spin, yield,
 * sleep) and goes straight back to sleep after each look -- an idle rank
 * of another job costs what an idle rank of this job costs -- and reads
 * no clock before the spinning is over. */
#define UTIL_WATCH_EVERY_NS 5000000
int util_wait_watched_slow(struct util_waitword *w, uint32_t target, int (*look)(void *ctx), void *ctx);
static inline int util_wait_geq_watched(struct util_waitword *w, uint32_t target, int (*look)(void *ctx), void *ctx)
{
    if (util_seq_geq(atomic_load_explicit(&w->value, memory_order_acquire), target))
        return 0;
    return util_wait_watched_slow(w, target, look, ctx);
}

/* Publish a new value (release) and wake sleepers if there are any. */
static inline void util_wake_store(struct util_waitword *w, uint32_t value)
{
    atomic_store_explicit(&w->value, value, memory_order_seq_cst);
    if (atomic_load_explicit(&w->sleepers, memory_order_seq_cst))
        util_wake_slow(w);
}

static inline uint32_t util_wake_add(struct util_waitword *w, uint32_t delta)
{
    uint32_t v = atomic_fetch_add_explicit(&w->value, delta, memory_order_seq_cst) + delta;
    if (atomic_load_explicit(&w->sleepers, memory_order_seq_cst))
        util_wake_slow(w);
    return v;
}

/* Wait until done(ctx) returns nonzero, for a condition on words that
 * writers change and then bump w with util_wake_bump: it polls done while
 * spinning and yielding, then sleeps on w (registered as a sleeper before
 * its last look, so a writer that changed the condition after that look
 * sees it and bumps w).  Returns done's value. */
int util_wait_cond(struct util_waitword *w, int (*done)(void *ctx), void *ctx);

/* After a change that a util_wait_cond waiter may wait for (seq_cst): w
 * bumped, and sleepers woken, only when there are any. */
static inline void util_wake_bump(struct util_waitword *w)
{
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&w->sleepers, memory_order_seq_cst))
        util_wake_add(w, 1);
}

/* For conditions on several words: call util_backoff_pause in the polling
 * loop; it spins, then yields, then sleeps for growing periods.  Start from
 * a zeroed struct. */
struct util_backoff {
    uint32_t step;
    uint32_t phase;       /* 0 spinning, 1 yielding, 2 sleeping */
    uint32_t shared;      /* phase 1: another rank of the job last waited
                             on this CPU */
    uint32_t quiet;       /* 1: never call util_wait_hook -- for a waiter
                             holding a lock that the hook's work may take */
    uint64_t yield_until; /* end of the yielding phase, ns */
};
void util_backoff_pause(struct util_backoff *b);

/* The waiting policy for ranks_here ranks on this machine, once they are
 * known: when they outnumber its CPUs, a waiter yields at once instead of
 * spinning ORMA_SPIN polls first (unless ORMA_SPIN was set) -- the rank it
 * waits for may need this very core, and a spin of 100 pauses (about 5 us)
 * is time taken from it.  4 ranks on 2 cores: a ghost-exchange step with
 * fence 29 -> 11 us. */
void util_wait_tune(int ranks_here);

/* The same once a window spans ranks of other jobs on this machine
 * (spawned, connected), ranks_here counting them too: a parent and 2
 * children on 2 cores no longer spin, as 3 ranks of one job do not (a ring
 * of fences: 9.9-12.6 -> 5.7-5.9 us a step; 3 ranks of one job 5.9).
 * Unless this rank is bound to a single CPU: whoever bound it placed the
 * ranks (a benchmark giving each active rank a core of its own, where a
 * waiter that yields at once made the fence 2-3x slower), and it keeps
 * spinning.  It only ever stops the spinning. */
void util_wait_tune_joined(int ranks_here);

/* The spin and yield phases alone: 1 while they last, 0 once the yielding
 * budget is spent (util_wait_slow then sleeps on its futex) -- at once
 * beside another rank of the job on this CPU, when the core is contended.
 *
 * Contended: 8 of this process's last 16 yields beside such a rank each
 * kept it off its core for over 200 us, in the last 100 ms -- a task that
 * never yields (another job's busy loop) shares the core, and yielding to
 * it costs a whole time slice where sleeping on a futex costs the
 * partner's wake-up call (util_wait.c). */
int util_backoff_relax(struct util_backoff *b);
int util_wait_contended(void);

/* Where the job's ranks wait: cpus[r] is 1 + the CPU rank r last waited
 * on (0 unknown), in memory every rank of the machine maps; me is this
 * rank.  NULL (before the job is joined, after it is left): no rank is
 * known to share this one's CPU. */
void util_wait_share_cpus(_Atomic uint32_t *cpus, int n, int me);

static inline void util_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif
