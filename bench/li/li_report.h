/* li_report.h -- li_lib's emit, note and progress in both programs:
 * report.h's bench_emit (on l->ctx), bench_note and bench_progress, the
 * progress line naming l->backend.  Apart from li.c, which the
 * algorithms' tests build with backends of their own. */
#ifndef BENCH_LI_REPORT_H
#define BENCH_LI_REPORT_H

#include "li.h"

void li_report_emit(li_lib *l, const char *op, const char *sync,
                    const char *window, size_t bytes, double moved_bytes,
                    double *samples_us, long n);
void li_report_note(li_lib *l, const char *msg);
void li_report_progress(li_lib *l, const char *what, size_t bytes);

#endif
