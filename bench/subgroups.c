/*
 * Sub-group reduction against work-group reduction, in one program on every
 * CPU device the ICD loader finds that has sub-groups (CL_DEVICE_MAX_NUM_SUB_GROUPS
 * > 0).  Prints the best time of several runs per kernel and each kernel's
 * time relative to work_group_reduce_add's (above 1.00 = faster than it).
 * Results are checked against the host so a fast wrong answer does not count.
 *
 *   OCL_ICD_VENDORS=$PWD/build/bench/vendors build/bench/subgroups [scale] [repetitions]
 *
 * The kernels, over 4M floats (x scale) in groups of 256:
 *   wg_reduce   work_group_reduce_add: one sum per work-group
 *   sg_reduce   sub_group_reduce_add: one sum per sub-group
 *   sg_to_wg    sub_group_reduce_add, then the sub-groups' sums through
 *               __local memory and one work-group barrier: one sum per work-group
 *   nu_all      sub_group_non_uniform_reduce_add inside a branch on the data
 *               that every work-item takes: one sum per sub-group (sg_reduce's
 *               uniform twin)
 *   nu_half     the same inside a branch the odd work-items take: one sum of
 *               the odd ones per sub-group, stored by its first active one
 * The non-uniform rows' time is also given relative to their twin sg_reduce.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *source =
    "kernel void wg_reduce(global const float *x, global float *out)\n"
    "{ float s = work_group_reduce_add(x[get_global_id(0)]);\n"
    "  if (get_local_id(0) == 0) out[get_group_id(0)] = s; }\n"
    "\n"
    "kernel void sg_reduce(global const float *x, global float *out)\n"
    "{ float s = sub_group_reduce_add(x[get_global_id(0)]);\n"
    "  if (get_sub_group_local_id() == 0)\n"
    "    out[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = s; }\n"
    "\n"
    "kernel void sg_to_wg(global const float *x, global float *out, local float *sums)\n"
    "{ float s = sub_group_reduce_add(x[get_global_id(0)]);\n"
    "  if (get_sub_group_local_id() == 0) sums[get_sub_group_id()] = s;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (get_local_id(0) == 0) {\n"
    "    float t = 0;\n"
    "    for (uint i = 0; i < get_num_sub_groups(); i++) t += sums[i];\n"
    "    out[get_group_id(0)] = t;\n"
    "  } }\n"
    "\n"
    "kernel void nu_all(global const float *x, global float *out)\n"
    "{ float v = x[get_global_id(0)];\n"
    "  if (v > -2.0f) {\n"
    "    float s = sub_group_non_uniform_reduce_add(v);\n"
    "    if (sub_group_elect())\n"
    "      out[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = s;\n"
    "  } }\n"
    "\n"
    "kernel void nu_half(global const float *x, global float *out)\n"
    "{ float v = x[get_global_id(0)];\n"
    "  if (get_global_id(0) & 1) {\n"
    "    float s = sub_group_non_uniform_reduce_add(v);\n"
    "    if (sub_group_elect())\n"
    "      out[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = s;\n"
    "  } }\n";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum { NUM_BENCH = 5, TWIN = 1, FIRST_NU = 3 };
static const char *bench_names[NUM_BENCH] = { "wg_reduce", "sg_reduce", "sg_to_wg", "nu_all", "nu_half" };
static int reps = 8;

/* Best of reps runs in ms (the first run only warms up); reads `out` back. */
static double run(cl_command_queue q, cl_kernel k, size_t n, size_t wg, cl_mem out, float *result, size_t count)
{
    double best = 1e30;
    for (int i = 0; i < reps + 1; i++) {
        double t0 = now();
        cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &wg, 0, NULL, NULL);
        clFinish(q);
        double t = now() - t0;
        if (err != CL_SUCCESS) {
            fprintf(stderr, "launch failed %d\n", err);
            return -1;
        }
        if (i > 0 && t < best)
            best = t;
    }
    clEnqueueReadBuffer(q, out, CL_TRUE, 0, count * sizeof *result, result, 0, NULL, NULL);
    return best * 1e3;
}

/* Do the device's sums of `per` consecutive inputs match the host's?  (Of
 * the odd ones only when `odd`.) */
static int check(const float *in, const float *out, size_t count, size_t per, int odd)
{
    for (size_t g = 0; g < count; g++) {
        double s = 0;
        for (size_t i = odd; i < per; i += 1 + odd)
            s += in[g * per + i];
        if (fabs(s - out[g]) > 1e-3 * (1 + fabs(s)))
            return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    size_t scale = argc > 1 && atoi(argv[1]) > 0 ? (size_t)atoi(argv[1]) : 1;
    if (argc > 2)
        reps = atoi(argv[2]) > 0 ? atoi(argv[2]) : reps;
    size_t n = ((size_t)1 << 22) * scale, wg = 256;
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    srand(1);
    for (size_t i = 0; i < n; i++)
        in[i] = (float)rand() / RAND_MAX - 0.5f;

    cl_platform_id platforms[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, platforms, &np);
    for (cl_uint p = 0; p < np && p < 8; p++) {
        cl_device_id dev;
        char name[64] = "";
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_CPU, 1, &dev, NULL) != CL_SUCCESS)
            continue;
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
        cl_uint max_sg = 0;
        if (clGetDeviceInfo(dev, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof max_sg, &max_sg, NULL) != CL_SUCCESS || !max_sg) {
            fprintf(stderr, "%s: no sub-groups, skipped\n", name);
            continue;
        }
        cl_int err;
        cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
        cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
        if (clBuildProgram(prog, 1, &dev, "-cl-std=CL3.0", NULL, NULL) != CL_SUCCESS) {
            fprintf(stderr, "%s: build failed\n", name);
            continue;
        }
        cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, in, &err);
        cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, NULL, &err);
        double ms[NUM_BENCH];
        for (int b = 0; b < NUM_BENCH; b++) {
            cl_kernel k = clCreateKernel(prog, bench_names[b], &err);
            clSetKernelArg(k, 0, sizeof a, &a);
            clSetKernelArg(k, 1, sizeof o, &o);
            size_t sgs = 0, nsg = 0;
            clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof wg, &wg, sizeof sgs, &sgs,
                                    NULL);
            clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof wg, &wg, sizeof nsg, &nsg, NULL);
            if (b == 2)
                clSetKernelArg(k, 2, nsg * sizeof(float), NULL);
            size_t per = b == 1 || b >= FIRST_NU ? sgs : wg;
            ms[b] = run(q, k, n, wg, o, out, n / per);
            if (ms[b] < 0 || !check(in, out, n / per, per, b == 4))
                ms[b] = -1;
            if (b == 0)
                printf("%s: %zu floats, groups of %zu, sub-groups of %zu\n", name, n, wg, sgs);
            clReleaseKernel(k);
        }
        printf("%-12s %10s %10s %10s\n", "kernel", "ms", "ratio", "twin");
        for (int b = 0; b < NUM_BENCH; b++) {
            if (ms[b] < 0)
                printf("%-12s %10s %10s\n", bench_names[b], "FAILED", "-");
            else if (b >= FIRST_NU && ms[TWIN] > 0)
                printf("%-12s %10.2f %10.2f %10.2f\n", bench_names[b], ms[b], ms[0] > 0 ? ms[0] / ms[b] : 0.0,
                       ms[b] / ms[TWIN]);
            else
                printf("%-12s %10.2f %10.2f\n", bench_names[b], ms[b], ms[0] > 0 ? ms[0] / ms[b] : 0.0);
        }
        printf("ratio = wg_reduce's time / the kernel's (above 1: faster than the work-group reduction);\n"
               "twin = the kernel's time / sg_reduce's (the non-uniform rows: within 2 is the goal)\n");
        clReleaseMemObject(a);
        clReleaseMemObject(o);
        clReleaseProgram(prog);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
    free(in);
    free(out);
    return 0;
}
