/* li_run.c -- see li_run.h. */
#include <stdio.h>

#include "li_run.h"
#include "report.h"

static void emit(li_lib *l, const char *op, const char *sync,
                 const char *window, size_t bytes, double moved_bytes,
                 double *samples_us, long n)
{
    bench_emit(l->ctx, l->backend, op, sync, window, bytes, moved_bytes,
               samples_us, n);
}

static void note(li_lib *l, const char *msg)
{
    (void)l;
    bench_note("%s", msg);
}

static void progress(li_lib *l, const char *what, size_t bytes)
{
    char line[96];
    snprintf(line, sizeof line, "%s %s", l->backend, what);
    bench_progress(line, bytes);
}

void li_run_init(li_lib *l, const bench_ctx *ctx, const char *suite,
                 void *impl)
{
    l->suite = suite;
    l->opts = ctx->opts;
    l->pid = ctx->rank;
    l->nprocs = ctx->size;
    l->impl = impl;
    l->ctx = ctx;
    l->emit = emit;
    l->note = note;
    l->progress = progress;
}
