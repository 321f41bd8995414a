/* li_report.c -- see li_report.h. */
#include <stdio.h>

#include "li_report.h"
#include "report.h"

void li_report_emit(li_lib *l, const char *op, const char *sync,
                    const char *window, size_t bytes, double moved_bytes,
                    double *samples_us, long n)
{
    bench_emit(l->ctx, l->backend, op, sync, window, bytes, moved_bytes,
               samples_us, n);
}

void li_report_note(li_lib *l, const char *msg)
{
    (void)l;
    bench_note("%s", msg);
}

void li_report_progress(li_lib *l, const char *what, size_t bytes)
{
    char line[96];
    snprintf(line, sizeof line, "%s %s", l->backend, what);
    bench_progress(line, bytes);
}
