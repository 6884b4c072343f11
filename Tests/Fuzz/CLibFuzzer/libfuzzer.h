// libFuzzer's driver, for a fuzz target that has its own main (llvm.org/docs/LibFuzzer.html,
// "Using LLVMFuzzerRunDriver"). Defined by the libFuzzer runtime that -sanitize=fuzzer links.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
