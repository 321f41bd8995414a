/* flag.c -- see flag.h: the window of flags and buffers. */
#include <string.h>

#include "check.h"
#include "flag.h"

#define LINE 64
#define PAGE 4096
/* Room in each rank's part for aligning the flag line and, two lines
 * further (so the adjacent-line prefetcher never pairs the flag with the
 * data), the buffer's first page. */
#define PART_SLACK (LINE + 2 * LINE + PAGE)

static uintptr_t align_up(uintptr_t a, uintptr_t to)
{
    return (a + to - 1) & ~(to - 1);
}

void bench_flag_win_open(size_t bytes, bench_flag_win *fw)
{
    memset(fw, 0, sizeof *fw);
    int rank = orma_rank();
    size_t part = rank <= 1 ? PART_SLACK + bytes : 0;
    void *base;
    BENCH_CHECK(orma_win_allocate_shared(part, 1, ORMA_INFO_NULL, &base,
                                         &fw->win));
    for (int r = 0; r <= 1 && rank <= 1; r++) {
        size_t size;
        int unit;
        void *b;
        BENCH_CHECK(orma_win_shared_query(fw->win, r, &size, &unit, &b));
        uintptr_t line = align_up((uintptr_t)b, LINE);
        fw->flag[r] = (_Atomic uint64_t *)line;
        if (bytes > 0)
            fw->buf[r] = (unsigned char *)align_up(line + 2 * LINE, PAGE);
    }
    if (rank <= 1) {
        bench_flag_init(fw->flag[rank]);
        /* The owner faults its pages in, as the windows of the orma rows
         * are touched before they are timed. */
        if (bytes > 0)
            memset(fw->buf[rank], 0, bytes);
    }
    BENCH_CHECK(orma_barrier());
}

void bench_flag_win_close(bench_flag_win *fw)
{
    BENCH_CHECK(orma_win_free(&fw->win));
    memset(fw, 0, sizeof *fw);
}
