/*
 * libFuzzer harness: clCreateProgramWithIL, then clBuildProgram when the
 * module was taken.  Every input is SPIR-V an application could hand over:
 * it must be refused with CL_INVALID_VALUE (spirv-val, in a child process,
 * says why) or become a program, whose build may fail but never the
 * process.  The seeds are the end-to-end tests' modules
 * (the .spvasm files of tests/e2e/spirv, assembled).
 */
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_env *env = fuzz_env_get();
    cl_int err = 0;
    cl_program program = clCreateProgramWithIL(env->context, data, size, &err);
    if ((program != NULL) != (err == CL_SUCCESS) || (!program && err != CL_INVALID_VALUE))
        abort(); /* only a refusal or a program */
    if (program) {
        clBuildProgram(program, 0, NULL, NULL, NULL, NULL);
        clReleaseProgram(program);
    }
    return 0;
}
