/* The frame the end-to-end test programs share: Mosaic's CPU device through
 * the ICD loader, a context on it, and a list of named cases, run all (no
 * argument) or those whose name starts with argv[1]. */
#ifndef MOSAIC_TEST_RUNNER_H
#define MOSAIC_TEST_RUNNER_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

typedef struct named_test {
    const char *name;
    void (*run)(void);
} named_test;

/* The first platform's CPU device and a context on it; false if there is none. */
static inline bool test_open_cpu_device(cl_platform_id *platform, cl_device_id *device, cl_context *context)
{
    if (clGetPlatformIDs(1, platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(*platform, CL_DEVICE_TYPE_CPU, 1, device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL CPU device\n");
        return false;
    }
    cl_int err;
    *context = clCreateContext(NULL, 1, device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return err == CL_SUCCESS;
}

/* Builds a program from source; NULL (with the log on stderr) if it fails. */
static inline cl_program test_build_program(cl_context context, cl_device_id device, const char *source,
                                            const char *options)
{
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    err = clBuildProgram(program, 1, &device, options, NULL, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    if (err == CL_SUCCESS)
        return program;
    char log[16384] = "";
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build log:\n%s\n", log);
    clReleaseProgram(program);
    return NULL;
}

/* Runs the selected cases; an argument that selects none is a failure. */
static inline void test_run_cases(const named_test *tests, size_t count, int argc, char **argv)
{
    int ran = 0;
    for (size_t i = 0; i < count; i++) {
        if (argc > 1 && strncmp(tests[i].name, argv[1], strlen(argv[1])) != 0)
            continue;
        printf("-- %s\n", tests[i].name);
        fflush(stdout);
        tests[i].run();
        ran++;
    }
    CHECK(ran > 0);
}

#endif
