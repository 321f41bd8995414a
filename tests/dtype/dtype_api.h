/* dtype_api.h -- the parts of dtype_api, one file each. */
#ifndef ORMA_TEST_DTYPE_API_H
#define ORMA_TEST_DTYPE_API_H

/* Hand-checked layouts (dtype_api_layouts.c). */
void dtype_api_layouts(void);

#endif
