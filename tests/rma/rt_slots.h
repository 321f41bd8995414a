/* rt_slots.h -- windows of SLOTS_WIN bytes in which every origin owns a
 * slot of its own, written anew each round (small_private.c, gather.c). */
#ifndef ORMA_RT_SLOTS_H
#define ORMA_RT_SLOTS_H

#include "rma_test.h"

#include <stdlib.h>
#include <unistd.h>

enum { SLOTS_WIN = 1800 };

static int rank, nranks;


static inline size_t slot_len(void) { return SLOTS_WIN / (size_t)nranks; }
static inline size_t slot_at(int o) { return (size_t)o * slot_len(); }
static inline unsigned seed_of(int k, int o) { return (unsigned)(k * 131 + o * 7 + 1); }

/* What window byte i holds after round k (k < 0: the background): its
 * slot owner's data, plus add. */
static inline unsigned char slot_want(int k, size_t i, unsigned add)
{
    if (k < 0 || i >= slot_len() * (size_t)nranks)
        return rt_bg(i);
    int o = (int)(i / slot_len());
    return (unsigned char)(rt_data(seed_of(k, o), i) + add);
}

#define EXPECT_WINDOW(w, k, add, what) expect_window_at(__FILE__, __LINE__, (w), (k), (add), (what))
static inline void expect_window_at(const char *file, int line, const unsigned char *w, int k, unsigned add,
                                    const char *what)
{
    for (size_t i = 0; i < SLOTS_WIN; i++)
        if (w[i] != slot_want(k, i, add))
            rt_fail(file, line, what, i, w[i], slot_want(k, i, add));
}

/* The bytes of a window of size past the slots: still the background. */
#define SLOTS_EXPECT_REST(w, size) RT_EXPECT_BG((w), SLOTS_WIN, (size), "the window past the slots")

/* Window memory of size bytes at w inside block[0, total): block filled
 * with the background, run(w, size, name), then every byte of block
 * outside the window must still hold it. */
static inline void slots_run_in(unsigned char *block, size_t total, unsigned char *w, size_t size, const char *name,
                                void (*run)(unsigned char *, size_t, const char *))
{
    rt_fill_bg(block, total);
    rt_fill_bg(w, size);
    size_t before = (size_t)(w - block), after = before + size;
    run(w, size, name);
    RT_EXPECT_BG(block, 0, before, "before the window");
    for (size_t i = after; i < total; i++)
        if (block[i] != rt_bg(i))
            rt_fail(__FILE__, __LINE__, "after the window", i - after, block[i], rt_bg(i));
}

/* The windows both tests use, each run(w, size, name) with guards around:
 * a malloc'd block less than a page, a stack array, and three pages of a
 * malloc'd block from 1000 bytes before a page boundary (whose whole pages
 * are adopted, so the slots meet the unmapped head fragment and the mapped
 * pages both, and a piece crosses their edge). */
static inline void slots_windows(void (*run)(unsigned char *, size_t, const char *))
{
    enum { GUARD = 40 };
    unsigned char *block = malloc(GUARD + SLOTS_WIN + GUARD);
    CHECK(block);
    slots_run_in(block, GUARD + SLOTS_WIN + GUARD, block + GUARD, SLOTS_WIN, "malloc'd window", run);
    free(block);

    unsigned char stack[GUARD + SLOTS_WIN + GUARD];
    slots_run_in(stack, sizeof stack, stack + GUARD, SLOTS_WIN, "stack window", run);

    size_t page = (size_t)sysconf(_SC_PAGESIZE), size = 3 * page;
    block = malloc(size + 2 * page);
    CHECK(block);
    uintptr_t b = (uintptr_t)block;
    unsigned char *w = block + ((b + 2 * page - 1) / page * page - 1000 - b) % page;
    if (w - block < GUARD)
        w += page;
    slots_run_in(block, size + 2 * page, w, size, "window across a page boundary", run);
    free(block);
}

/* A test's main: run(w, size, name) on each of slots_windows. */
static inline int slots_main(int *argc, char ***argv, void (*run)(unsigned char *, size_t, const char *),
                             const char *test)
{
    CHECK_OK(orma_init(argc, argv));
    rank = orma_rank();
    nranks = orma_size();
    slots_windows(run);
    if (rank == 0)
        printf("%s ok (%d ranks)\n", test, nranks);
    CHECK_OK(orma_finalize());
    return 0;
}

#endif
