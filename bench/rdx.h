/* rdx.h -- the rdx suite: seed 003's parallel radix sort with put-based
 * routing (section 5, Figs. 9 and 10) and its send version, written once
 * against li.h (rdx_alg.c, the li suite li_rdx) and run on every backend;
 * its arithmetic and check: rdx_def.h. */
#ifndef BENCH_RDX_H
#define BENCH_RDX_H

#include "li.h"

extern const li_suite li_rdx;

#endif
