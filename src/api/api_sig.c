/* api_sig.c -- the signature check of check mode (api_sig.h). */
#include "api_sig.h"
#include "dtype_sig.h"
#include "dtype_type.h"
#include "util_status.h"

static const char *api_sig_name(int id) { return orma_predefined_types.types[id].name; }

int api_sig_check(const char *call, int target, size_t ocount, orma_type otype, size_t tcount, orma_type ttype)
{
    struct dtype_sig_diff d;
    int status = dtype_sig_compare(otype, ocount, ttype, tcount, &d);
    if (status == DTYPE_SIG_SAME || status == DTYPE_SIG_UNKNOWN)
        return ORMA_SUCCESS;
    if (status != DTYPE_SIG_DIFFER)
        return util_error(status, "%s to rank %d: out of memory comparing the type signatures", call, target);
    if (d.a < 0 || d.b < 0) /* not with equal data sizes, but say it right */
        return util_error(ORMA_ERR_TYPE, "%s to rank %d: the %s's data ends at element %zu (byte %zu) but the %s's "
                          "goes on with %s", call, target, d.a < 0 ? "origin" : "target", d.index, d.byte,
                          d.a < 0 ? "target" : "origin", api_sig_name(d.a < 0 ? d.b : d.a));
    return util_error(ORMA_ERR_TYPE, "%s to rank %d: element %zu of the data (byte %zu) is %s at the origin but %s "
                      "at the target", call, target, d.index, d.byte, api_sig_name(d.a), api_sig_name(d.b));
}
