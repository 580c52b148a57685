/*
 * libFuzzer harness: clCreateProgramWithBinary, then clBuildProgram when the
 * binary was taken.  Every input is a binary an application could hand
 * over: it must be refused with CL_INVALID_BINARY or built (or fail its
 * build), never crash the process.  The seed corpus holds real binaries
 * (an executable and a compiled object) to start from.
 */
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_env *env = fuzz_env_get();
    if (size == 0)
        return 0;
    cl_int status = 0, err = 0;
    cl_program program = clCreateProgramWithBinary(env->context, 1, &env->device, &size, &data, &status, &err);
    if ((program != NULL) != (err == CL_SUCCESS) || (!program && err != CL_INVALID_BINARY))
        abort(); /* only a refusal or a program */
    if (program) {
        clBuildProgram(program, 0, NULL, NULL, NULL, NULL);
        clReleaseProgram(program);
    }
    return 0;
}
