/* rma_table.c -- window handles: index in the low half, a generation in the
 * high half, so that a freed handle (or a made-up value) is recognised. */
#include "rma_box.h"
#include "util_status.h"

#include <stdlib.h>

struct rma_win **rma_table;
uint32_t rma_table_cap;
static uint32_t rma_next_gen = 1;
_Atomic uint32_t rma_box_windows;

int rma_win_register(struct rma_win *win, orma_win *handle_p)
{
    uint32_t i;
    for (i = 0; i < rma_table_cap && rma_table[i]; i++)
        ;
    if (i == rma_table_cap) {
        uint32_t cap = rma_table_cap ? 2 * rma_table_cap : 16;
        struct rma_win **t = realloc(rma_table, cap * sizeof *t);
        if (!t)
            return util_error(ORMA_ERR_NOMEM, "cannot grow the window table to %u entries", cap);
        for (uint32_t j = rma_table_cap; j < cap; j++)
            t[j] = NULL;
        rma_table = t;
        rma_table_cap = cap;
    }
    win->index = i;
    win->gen = rma_next_gen++;
    if (!rma_next_gen)
        rma_next_gen = 1;
    rma_table[i] = win;
    rma_box_windows += win->box_in;
    *handle_p = ((uint64_t)win->gen << 32) | (uint64_t)(i + 1);
    return ORMA_SUCCESS;
}

void rma_win_unregister(struct rma_win *win)
{
    if (win->index < rma_table_cap && rma_table[win->index] == win) {
        rma_table[win->index] = NULL;
        rma_box_windows -= win->box_in;
    }
}

void rma_win_foreach(void (*fn)(struct rma_win *))
{
    for (uint32_t i = 0; i < rma_table_cap; i++)
        if (rma_table[i])
            fn(rma_table[i]);
}
