/* pp_def.c -- see pp_def.h. */
#include <string.h>

#include "pp_def.h"

const char *const pp_sync_names[] = {"fence", "pscw", "lock", "lock_all",
                                     "flush", NULL};

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
