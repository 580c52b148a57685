/* OpenCL helpers of the end-to-end test programs (Mosaic's CPU device
 * through the ICD loader); the harness itself is test.h. */
#ifndef MOSAIC_TEST_CL_TEST_H
#define MOSAIC_TEST_CL_TEST_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "test.h"

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

/* The main of a test program whose cases share one CPU device, context and
 * in-order queue: opens them, runs the cases argv selects, releases them and
 * returns the summary's exit code. */
static inline int test_main_on_cpu_queue(int argc, char **argv, cl_device_id *device, cl_context *context,
                                         cl_command_queue *queue)
{
    cl_platform_id platform;
    if (!test_open_cpu_device(&platform, device, context))
        return 1;
    *queue = clCreateCommandQueueWithProperties(*context, *device, NULL, NULL);
    test_run(argc, argv);
    clReleaseCommandQueue(*queue);
    clReleaseContext(*context);
    return test_summary();
}

/* The program's build log on device (malloc'd; "" when there is none). */
static inline char *test_build_log(cl_program program, cl_device_id device)
{
    size_t size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = calloc(size + 1, 1);
    if (log)
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    return log;
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

/* Kernel `name` of *program, which is built from source at the first call;
 * NULL (a failed check) when it does not build or has no such kernel. */
static inline cl_kernel test_kernel_of(cl_program *program, cl_context context, cl_device_id device,
                                       const char *source, const char *name)
{
    if (!*program)
        *program = test_build_program(context, device, source, NULL);
    if (!*program)
        return NULL;
    cl_int err;
    cl_kernel k = clCreateKernel(*program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
}

/* The main of a test program whose cases share one CPU device, context,
 * in-order queue and program built from `source`: as test_main_on_cpu_queue,
 * running no case when the program does not build (its log is on stderr). */
static inline int test_main_with_program(int argc, char **argv, const char *source, const char *options,
                                         cl_device_id *device, cl_context *context, cl_command_queue *queue,
                                         cl_program *program)
{
    cl_platform_id platform;
    if (!test_open_cpu_device(&platform, device, context))
        return 1;
    *queue = clCreateCommandQueueWithProperties(*context, *device, NULL, NULL);
    *program = test_build_program(*context, *device, source, options);
    if (*program) {
        test_run(argc, argv);
        clReleaseProgram(*program);
    }
    clReleaseCommandQueue(*queue);
    clReleaseContext(*context);
    return test_summary();
}

/* Runs kernel k over n work-items (groups of l) on queue with fd 1 sent to
 * a file; returns what reached the file by the time the command completed
 * (malloc'd; no flush by us): what the kernel's printf wrote. */
static inline char *test_run_captured(cl_command_queue queue, cl_kernel k, size_t n, size_t l)
{
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(1);
    dup2(fileno(tmp), 1);
    cl_event done;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, &l, 0, NULL, &done), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &done), CL_SUCCESS);
    off_t size = lseek(fileno(tmp), 0, SEEK_END);
    char *text = calloc((size_t)size + 1, 1);
    if (text && size > 0 && pread(fileno(tmp), text, (size_t)size, 0) != size)
        text[0] = 0;
    dup2(saved, 1);
    close(saved);
    fclose(tmp);
    clReleaseEvent(done);
    return text;
}

#endif
