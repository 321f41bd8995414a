/* fit.c -- see fit.h. */
#include <alloca.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "fit.h"
#include "report.h"

/* Room for latency's guard bytes around a window's region (lat_def.h:
 * 2 x 4 KB), with some to spare. */
#define STACK_SLACK ((size_t)16 << 10)

int bench_window_per_point(const char *kind)
{
    return strcmp(kind, "create_fit") == 0 || strcmp(kind, "stack") == 0;
}

int bench_window_selected(const char *windows, const char *kind)
{
    if (bench_window_per_point(kind) && windows == NULL)
        return 0;
    return bench_list_has(windows, kind);
}

int bench_stack_fits(size_t n)
{
    if (n > BENCH_STACK_MAX)
        return 0;
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) != 0)
        return 0;
    if (rl.rlim_cur == RLIM_INFINITY)
        return 1;
    return 2 * (n + STACK_SLACK) <= (size_t)rl.rlim_cur / 2;
}

int bench_window_fits(const char *kind, size_t n)
{
    return strcmp(kind, "stack") != 0 || bench_stack_fits(n);
}

void bench_stack_note(const bench_opts *o)
{
    if (!bench_window_selected(o->windows, "stack"))
        return;
    char skipped[BENCH_MAX_SIZES * 12] = "";
    size_t used = 0;
    for (int i = 0; i < o->nsizes && used < sizeof skipped; i++) {
        if (bench_stack_fits(o->sizes[i]))
            continue;
        char sz[24];
        bench_format_size(o->sizes[i], sz, sizeof sz);
        used += (size_t)snprintf(skipped + used, sizeof skipped - used, "%s%s",
                                 used ? "," : "", sz);
    }
    if (used == 0)
        return;
    char max[24];
    bench_format_size(BENCH_STACK_MAX, max, sizeof max);
    struct rlimit rl;
    char lim[32] = "unknown";
    if (getrlimit(RLIMIT_STACK, &rl) == 0) {
        if (rl.rlim_cur == RLIM_INFINITY)
            snprintf(lim, sizeof lim, "unlimited");
        else
            bench_format_size((size_t)rl.rlim_cur, lim, sizeof lim);
    }
    bench_note("stack windows skip %s: a window on the stack takes at most "
               "%s, and two of them at most half the stack limit (%s)",
               skipped, max, lim);
}

/* Not inlined into a caller's loop, where the memory of every call would
 * stay on the stack until the caller returns. */
__attribute__((noinline)) int bench_stack_run(size_t bytes,
                                              int (*fn)(void *, void *),
                                              void *arg)
{
    /* alloca, not a variable-length array (the build refuses those,
     * -Wvla): the bytes stay in this frame until this function returns. */
    void *mem = alloca(bytes ? bytes : 1);
    int st = fn(mem, arg);
    /* mem is used after fn returns, so the call is never made a tail call
     * that would leave the frame first. */
    __asm__ volatile("" : : "r"(mem) : "memory");
    return st;
}

typedef struct life_call {
    const bench_window_life *l;
    int (*fn)(void *arg);
    void *arg;
} life_call;

static int live(void *stack, void *arg)
{
    life_call *c = arg;
    if (c->l->open(c->l->self, stack) != 0)
        return -1;
    int st = c->fn(c->arg);
    c->l->close(c->l->self);
    return st;
}

int bench_window_live(const char *kind, size_t size,
                      const bench_window_life *l, int (*fn)(void *arg),
                      void *arg)
{
    life_call c = {l, fn, arg};
    if (strcmp(kind, "stack") != 0)
        return live(NULL, &c);
    return bench_stack_run(size, live, &c);
}
