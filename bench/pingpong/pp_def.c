/* pp_def.c -- see pp_def.h. */
#include <string.h>

#include "pp_def.h"
#include "reps.h"

const char *const pp_sync_names[] = {"fence", "pscw", "lock", "lock_all",
                                     "flush", NULL};

const char *const pp_window_kinds[] = {"allocate", "create",
                                       "create_allocmem", "dynamic", "shared",
                                       "create_fit", "stack", NULL};

const char *const pp_op_names[] = {"put", "get", "acc", "gacc", "fop", "cas",
                                   NULL};

pp_op pp_op_by_name(const char *name)
{
    int op = PP_PUT;
    while (op < PP_NOP && strcmp(pp_op_names[op], name) != 0)
        op++;
    return (pp_op)op;
}

int pp_op_size_ok(pp_op op, size_t n)
{
    if (op == PP_FOP || op == PP_CAS)
        return n == 8;
    if (op == PP_ACC || op == PP_GACC)
        return n % 8 == 0;
    return 1;
}

int pp_op_sizes(pp_op op, const bench_opts *o, int *skipped)
{
    int some = 0, other = 0;
    for (int i = 0; i < o->nsizes; i++) {
        if (pp_op_size_ok(op, o->sizes[i]))
            some = 1;
        else
            other = 1;
    }
    if (skipped != NULL)
        *skipped = other;
    return some;
}

long pp_samples(const bench_opts *o, const pp_reps *r, double **us_p)
{
    for (int i = 0; i < PP_WARMUP; i++)
        r->rep(r->arg, NULL);
    long reps = o->reps;
    if (reps <= 0) {
        double t0 = r->now();
        for (int i = 0; i < PP_CALIB; i++)
            r->rep(r->arg, NULL);
        reps = bench_reps_for(o, (r->now() - t0) / PP_CALIB);
    }
    /* Both ranks must run the same count: rank 0's choice wins. */
    reps = r->bcast(r->arg, reps);
    double *us = r->xmalloc((size_t)reps * sizeof *us);
    for (long i = 0; i < reps; i++) {
        double t;
        r->rep(r->arg, &t);
        us[i] = t * 1e6;
    }
    *us_p = us;
    return reps;
}
