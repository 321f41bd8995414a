/* fuzz.h -- the entry points of a libFuzzer target, which fuzz_main.c also
 * drives in builds without libFuzzer. */
#ifndef ORMA_TEST_FUZZ_H
#define ORMA_TEST_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
