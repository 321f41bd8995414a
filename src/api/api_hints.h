/* api_hints.h -- window info keys at creation. */
#ifndef ORMA_API_HINTS_H
#define ORMA_API_HINTS_H

#include "rma_win.h"

/* The hints in info (ORMA_INFO_NULL: the defaults); ORMA_ERR_INFO for a
 * known key with a value outside its set.  Unknown keys are ignored. */
int api_hints_parse(const char *call, orma_info info, struct rma_win_hints *h);

/* The same over the hints *h already holds: keys info does not name keep
 * their values; *h changes only when every key is valid.  Hints of the
 * window's creation only (alloc_shared_noncontig) are not changed. */
int api_hints_update(const char *call, orma_info info, struct rma_win_hints *h);

#endif
