/*
 * cpu_gpu_pipeline: one context of a CPU and a GPU, and a buffer passed from a
 * kernel on one to a kernel on the other and back, ordered by events alone.
 *
 * What it shows (OpenCL 3.0 API specification, "Contexts" and "Memory
 * Objects"):
 *  - A context of devices of different types: clCreateContext with a CPU and a
 *    GPU of one platform, a command queue on each, and one program built for
 *    both (clBuildProgram with no device list builds it for every device).
 *  - Buffers belong to the context, not to a device: the same cl_mem is an
 *    argument of kernels on both devices.  The implementation moves its bytes
 *    to the memory of whichever device runs the next command that uses it.
 *  - Events across queues: each stage waits for the event of the stage before
 *    it, on the other device's queue; nothing waits on the host until the
 *    final read.
 *
 * The stages, on n = 1 << 20 integers: the CPU fills x[i] = i % 4096, the GPU
 * computes x[i] = x[i] * x[i] % 1009, the CPU adds 1, the GPU doubles; the host
 * reads the result on the CPU's queue and checks every element.
 *
 *   usage: cpu_gpu_pipeline
 *
 * Exit status: 0 and "cpu_gpu_pipeline: OK (...)" when every element is right;
 * 1 when one differs or a call fails; 77 when no platform has a CPU and a GPU
 * that can share a context (most have not: NVIDIA's platform lists only GPUs;
 * Mosaic lists a GPU where NVIDIA's driver finds one).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define NO_DEVICES 77

static const char source[] =
    "kernel void fill(global int *x) { size_t i = get_global_id(0); x[i] = (int)(i % 4096); }\n"
    "kernel void square_mod(global int *x) { size_t i = get_global_id(0); x[i] = x[i] * x[i] % 1009; }\n"
    "kernel void add_one(global int *x) { x[get_global_id(0)] += 1; }\n"
    "kernel void twice(global int *x) { x[get_global_id(0)] *= 2; }\n";

#define CHECK(call)                                                                                  \
    do {                                                                                             \
        cl_int err_ = (call);                                                                        \
        if (err_ != CL_SUCCESS) {                                                                    \
            fprintf(stderr, "cpu_gpu_pipeline: %s failed with error %d (line %d)\n", #call, err_,   \
                    __LINE__);                                                                       \
            exit(EXIT_FAILURE);                                                                      \
        }                                                                                            \
    } while (0)

/* A platform with a CPU and a GPU that share a context: *context and the two
 * devices.  0 when there is none. */
static int find_pair(cl_context *context, cl_device_id devices[2])
{
    cl_platform_id platforms[16];
    cl_uint num_platforms = 0;
    if (clGetPlatformIDs(16, platforms, &num_platforms) != CL_SUCCESS)
        return 0;
    for (cl_uint p = 0; p < num_platforms && p < 16; p++) {
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_CPU, 1, &devices[0], NULL) != CL_SUCCESS ||
            clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, &devices[1], NULL) != CL_SUCCESS)
            continue;
        cl_int err;
        *context = clCreateContext(NULL, 2, devices, NULL, NULL, &err);
        if (*context)
            return 1;
    }
    return 0;
}

/* kernel(x) over n work-items on q, after `after`; its event. */
static cl_event stage(cl_command_queue q, cl_kernel kernel, cl_mem x, size_t n, cl_event after)
{
    cl_event done;
    CHECK(clSetKernelArg(kernel, 0, sizeof x, &x));
    CHECK(clEnqueueNDRangeKernel(q, kernel, 1, NULL, &n, NULL, after ? 1 : 0, after ? &after : NULL, &done));
    if (after)
        clReleaseEvent(after);
    return done;
}

int main(void)
{
    cl_context context;
    cl_device_id devices[2];
    if (!find_pair(&context, devices)) {
        printf("cpu_gpu_pipeline: no platform has a CPU and a GPU that share a context\n");
        return NO_DEVICES;
    }
    char names[2][256];
    for (int d = 0; d < 2; d++)
        CHECK(clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof names[d], names[d], NULL));
    cl_int err;
    cl_command_queue cpu = clCreateCommandQueueWithProperties(context, devices[0], NULL, &err);
    CHECK(err);
    cl_command_queue gpu = clCreateCommandQueueWithProperties(context, devices[1], NULL, &err);
    CHECK(err);
    const char *text = source;
    cl_program program = clCreateProgramWithSource(context, 1, &text, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(program, 0, NULL, "", NULL, NULL)); /* for both devices */
    const char *names_of_kernels[4] = {"fill", "square_mod", "add_one", "twice"};
    cl_kernel k[4];
    for (int i = 0; i < 4; i++) {
        k[i] = clCreateKernel(program, names_of_kernels[i], &err);
        CHECK(err);
    }

    enum { N = 1 << 20 };
    cl_mem x = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    CHECK(err);
    cl_event e = stage(cpu, k[0], x, N, NULL); /* CPU: x[i] = i */
    e = stage(gpu, k[1], x, N, e);             /* GPU: x[i] = x[i]^2 % 1009 */
    e = stage(cpu, k[2], x, N, e);             /* CPU: + 1 */
    e = stage(gpu, k[3], x, N, e);             /* GPU: * 2 */
    int *got = malloc(N * sizeof *got);
    if (!got)
        return EXIT_FAILURE;
    CHECK(clEnqueueReadBuffer(cpu, x, CL_TRUE, 0, N * sizeof *got, got, 1, &e, NULL));
    clReleaseEvent(e);

    size_t bad = 0;
    for (size_t i = 0; i < N; i++) {
        int v = (int)(i % 4096), want = (v * v % 1009 + 1) * 2;
        if (got[i] != want && bad++ < 5)
            fprintf(stderr, "cpu_gpu_pipeline: x[%zu] = %d, not %d\n", i, got[i], want);
    }
    free(got);
    clReleaseMemObject(x);
    for (int i = 0; i < 4; i++)
        clReleaseKernel(k[i]);
    clReleaseProgram(program);
    clReleaseCommandQueue(cpu);
    clReleaseCommandQueue(gpu);
    clReleaseContext(context);
    if (bad) {
        fprintf(stderr, "cpu_gpu_pipeline: %zu of %d elements differ\n", bad, N);
        return EXIT_FAILURE;
    }
    printf("cpu_gpu_pipeline: OK (%d elements through 4 kernels: %s, %s, and back, events only)\n", N, names[0],
           names[1]);
    return 0;
}
