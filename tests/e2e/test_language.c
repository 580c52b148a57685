/*
 * OpenCL C features on the CPU device, through the ICD loader: the generic
 * address space (to_global/to_local/to_private/get_fence), printf, the
 * work-group collective functions, and the feature macros the compiler
 * defines.
 *
 *   usage: test_language [case]
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/check.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

/* Builds source with options; on failure prints the log and returns NULL. */
static cl_program build(const char *source, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    err = clBuildProgram(p, 1, &device, options, NULL, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    if (err != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
        char *log = calloc(size + 1, 1);
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
        fprintf(stderr, "build (%s) failed:\n%s\n", options ? options : "", log);
        free(log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

static cl_mem buffer(size_t size, void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), size, host, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

/* ---- generic address space ----------------------------------------------------------- */
/* Pointers to global, local and private memory (a buffer, a static __local
 * array, a __local argument, a private array, a program-scope variable) pass
 * through generic pointers to helper functions, which classify them. */
static const char generic_source[] =
    "global int gvar = 7;\n"
    "int classify(int *p) {\n"
    "  int r = (to_global(p) != 0) | (to_local(p) != 0) << 1 | (to_private(p) != 0) << 2;\n"
    "  if (to_local(p)) { *to_local(p) += 1; *p -= 1; }\n"
    "  if (to_private(p)) { *to_private(p) += 1; *p -= 1; }\n"
    "  return r;\n"
    "}\n"
    "uint fence(const int *p) { return get_fence(p); }\n"
    "kernel void k(global int *out, global int *buf, local int *larg) {\n"
    "  local int lvar[4];\n"
    "  int pv[3] = {1, 2, 3};\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  larg[l] = (int)l;\n"
    "  int *ps[5] = {&buf[i], &lvar[1], &pv[2], &larg[l], &gvar};\n"
    "  for (int j = 0; j < 5; j++) {\n"
    "    out[i * 12 + 2 * j] = classify(ps[j]);\n"
    "    out[i * 12 + 2 * j + 1] = (int)fence(ps[j]);\n"
    "#ifdef BARRIER\n"
    "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "#endif\n"
    "  }\n"
    "  out[i * 12 + 10] = pv[2] * 100 + larg[l];\n"
    "}\n";

static void generic_address_space(void)
{
    static const char *const options[] = {"-cl-std=CL2.0", "-cl-std=CL3.0", "-cl-std=CL2.0 -D BARRIER",
                                          "-cl-std=CL3.0 -D BARRIER"};
    cl_bool generic = CL_FALSE;
    clGetDeviceInfo(device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof generic, &generic, NULL);
    CHECK(generic == CL_TRUE);
    enum { N = 100, L = 16 }; /* a trailing group of 4 */
    for (size_t o = 0; o < sizeof options / sizeof options[0]; o++) {
        cl_program p = build(generic_source, options[o]);
        if (!p)
            continue;
        cl_int err;
        cl_kernel k = clCreateKernel(p, "k", &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_mem out = buffer(N * 12 * sizeof(cl_int), NULL), buf = buffer(N * sizeof(cl_int), NULL);
        clSetKernelArg(k, 0, sizeof out, &out);
        clSetKernelArg(k, 1, sizeof buf, &buf);
        clSetKernelArg(k, 2, L * sizeof(cl_int), NULL);
        size_t global = N, local = L;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        cl_int res[N * 12];
        CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof res, res, 0, NULL, NULL), CL_SUCCESS);
        /* class global 1, local 2, private 4; fence CLK_GLOBAL_MEM_FENCE 2, CLK_LOCAL_MEM_FENCE 1, none 0 */
        static const int want[5][2] = {{1, 2}, {2, 1}, {4, 0}, {2, 1}, {1, 2}};
        int bad = 0;
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < 5; j++)
                if (res[i * 12 + 2 * j] != want[j][0] || res[i * 12 + 2 * j + 1] != want[j][1]) {
                    if (bad++ < 5)
                        fprintf(stderr, "%s: item %d pointer %d: class %d fence %d\n", options[o], i, j,
                                res[i * 12 + 2 * j], res[i * 12 + 2 * j + 1]);
                }
            bad += res[i * 12 + 10] != 300 + i % L;
        }
        CHECK(bad == 0);
        clReleaseMemObject(out);
        clReleaseMemObject(buf);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
}

static const struct {
    const char *name;
    void (*run)(void);
} tests[] = {
    {"generic_address_space", generic_address_space},
};

int main(int argc, char **argv)
{
    cl_platform_id platform;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL CPU device\n");
        return 1;
    }
    context = clCreateContext(NULL, 1, &device, NULL, NULL, NULL);
    queue = clCreateCommandQueueWithProperties(context, device, NULL, NULL);
    int ran = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (argc > 1 && strcmp(tests[i].name, argv[1]) != 0)
            continue;
        printf("-- %s\n", tests[i].name);
        fflush(stdout);
        tests[i].run();
        ran++;
    }
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    CHECK(ran > 0);
    return check_summary();
}
