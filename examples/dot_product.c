/*
 * dot_product: a dot product of two integer vectors, reduced in __local memory.
 *
 * What it shows (OpenCL 3.0 API and OpenCL C specifications):
 *  - Build options: the kernel's work-group size comes from `-D WORK_GROUP_SIZE=...`
 *    given to clBuildProgram, because the size of a __local array must be known
 *    when the kernel is compiled.
 *  - __local memory and a work-group barrier: the work-items of a group add their
 *    partial sums in a shared array, halving it at each step; barrier() makes
 *    every work-item's write visible to the others of its group before the next
 *    step reads it (work-items of one group only; there is no barrier between groups).
 *  - Events as a wait list: both inputs are written with non-blocking
 *    clEnqueueWriteBuffer calls, and the kernel waits for their two events.  On an
 *    out-of-order queue (used when the device has one) nothing else orders those
 *    commands: without the wait list the kernel could read inputs not yet written.
 *    Profiling (CL_QUEUE_PROFILING_ENABLE) shows when each command ran: the
 *    kernel must start after both writes have ended, and the program checks it.
 *
 * Integers keep the result exact, so it is compared with the host's sum for equality.
 * Prints "dot_product: OK (...)" and exits 0, or says what differed and exits 1;
 * exits 77 when there is no OpenCL device (of the type asked for).
 *
 *   usage: dot_product [cpu|gpu]     (without an argument: the first device of any type)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1 << 20)       /* elements in each vector */
#define GROUPS 64         /* work-groups; each work-item adds N / (GROUPS * size) products first */

/* The kernel, kept in the program so it runs from anywhere (no file to find). */
static const char source[] =
    "kernel void dot_product(global const int *a, global const int *b, global long *partial, uint n)\n"
    "{\n"
    "    local long sums[WORK_GROUP_SIZE];   /* WORK_GROUP_SIZE: from the build options */\n"
    "    uint lid = get_local_id(0);\n"
    "    /* each work-item first adds every get_global_size(0)-th product on its own */\n"
    "    long sum = 0;\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "        sum += (long)a[i] * b[i];\n"
    "    sums[lid] = sum;\n"
    "    /* then the group halves the array: the lower half adds the upper half */\n"
    "    for (uint stride = WORK_GROUP_SIZE / 2; stride > 0; stride /= 2) {\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);   /* every write to sums[] above is visible below */\n"
    "        if (lid < stride)\n"
    "            sums[lid] += sums[lid + stride];\n"
    "    }\n"
    "    if (lid == 0)\n"
    "        partial[get_group_id(0)] = sums[0];   /* one result per work-group */\n"
    "}\n";

/* Stops the program with the call that failed and its error code. */
#define CHECK(call)                                                                          \
    do {                                                                                     \
        cl_int err_ = (call);                                                                \
        if (err_ != CL_SUCCESS) {                                                            \
            fprintf(stderr, "dot_product: %s failed with error %d (line %d)\n", #call, err_, \
                    __LINE__);                                                               \
            exit(EXIT_FAILURE);                                                              \
        }                                                                                    \
    } while (0)

/* The first device of `type` of the first platform that has one. */
static cl_device_id first_device(cl_device_type type)
{
    cl_platform_id platforms[16];
    cl_uint count = 0;
    if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS)
        return NULL;
    for (cl_uint i = 0; i < count && i < 16; i++) {
        cl_device_id device;
        if (clGetDeviceIDs(platforms[i], type, 1, &device, NULL) == CL_SUCCESS)
            return device;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    cl_device_type type = CL_DEVICE_TYPE_ALL;
    if (argc > 1 && !strcmp(argv[1], "cpu"))
        type = CL_DEVICE_TYPE_CPU;
    else if (argc > 1 && !strcmp(argv[1], "gpu"))
        type = CL_DEVICE_TYPE_GPU;
    else if (argc > 1) {
        fprintf(stderr, "usage: dot_product [cpu|gpu]\n");
        return 2;
    }
    cl_device_id device = first_device(type);
    if (!device) {
        printf("dot_product: no OpenCL device%s%s found\n", argc > 1 ? " of type " : "", argc > 1 ? argv[1] : "");
        return 77;
    }
    char name[256] = "";
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);

    /* The work-group size: a power of two (the halving needs one), at most 256
     * and at most what the device allows. */
    size_t max_group = 1;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_group, &max_group, NULL));
    size_t group_size = 256;
    while (group_size > max_group)
        group_size /= 2;

    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    /* An out-of-order queue when the device offers one: then only the wait lists order the commands. */
    cl_command_queue_properties offered = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof offered, &offered, NULL));
    cl_queue_properties queue_props[] = {
        CL_QUEUE_PROPERTIES, (offered & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) | CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, queue_props, &err);
    CHECK(err);

    /* Build with -D: the kernel's source says WORK_GROUP_SIZE, the options say how much. */
    char options[64];
    snprintf(options, sizeof options, "-D WORK_GROUP_SIZE=%zu", group_size);
    const char *text = source;
    cl_program program = clCreateProgramWithSource(context, 1, &text, NULL, &err);
    CHECK(err);
    if (clBuildProgram(program, 1, &device, options, NULL, NULL) != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "dot_product: the kernel did not build:\n%s\n", log);
        return EXIT_FAILURE;
    }
    cl_kernel kernel = clCreateKernel(program, "dot_product", &err);
    CHECK(err);

    /* Inputs with both signs, so a wrong or missing product shows in the sum. */
    int *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    long long *partial = malloc(GROUPS * sizeof *partial);
    if (!a || !b || !partial)
        return EXIT_FAILURE;
    long long expected = 0;
    for (int i = 0; i < N; i++) {
        a[i] = i % 1000 - 500;
        b[i] = (i * 7) % 301 - 150;
        expected += (long long)a[i] * b[i];
    }

    cl_mem a_buf = clCreateBuffer(context, CL_MEM_READ_ONLY, N * sizeof *a, NULL, &err);
    CHECK(err);
    cl_mem b_buf = clCreateBuffer(context, CL_MEM_READ_ONLY, N * sizeof *b, NULL, &err);
    CHECK(err);
    cl_mem partial_buf = clCreateBuffer(context, CL_MEM_WRITE_ONLY, GROUPS * sizeof(cl_long), NULL, &err);
    CHECK(err);

    /* Non-blocking writes (CL_FALSE): the calls return at once; a[] and b[] must
     * stay untouched until the events say the copies are done. */
    cl_event written[2];
    CHECK(clEnqueueWriteBuffer(queue, a_buf, CL_FALSE, 0, N * sizeof *a, a, 0, NULL, &written[0]));
    CHECK(clEnqueueWriteBuffer(queue, b_buf, CL_FALSE, 0, N * sizeof *b, b, 0, NULL, &written[1]));

    cl_uint n = N;
    CHECK(clSetKernelArg(kernel, 0, sizeof a_buf, &a_buf));
    CHECK(clSetKernelArg(kernel, 1, sizeof b_buf, &b_buf));
    CHECK(clSetKernelArg(kernel, 2, sizeof partial_buf, &partial_buf));
    CHECK(clSetKernelArg(kernel, 3, sizeof n, &n));
    size_t global = GROUPS * group_size, local = group_size;
    /* The kernel starts only once both writes are complete: their events are its wait list. */
    cl_event ran;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 2, written, &ran));
    /* The read waits for the kernel the same way, and blocks (CL_TRUE) until the data is here. */
    CHECK(clEnqueueReadBuffer(queue, partial_buf, CL_TRUE, 0, GROUPS * sizeof(cl_long), partial, 1, &ran, NULL));

    /* When each command ran, on the device's clock, from the first write's start. */
    cl_ulong start[3], end[3];
    cl_event events[3] = {written[0], written[1], ran};
    for (int i = 0; i < 3; i++) {
        CHECK(clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_START, sizeof start[i], &start[i], NULL));
        CHECK(clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_END, sizeof end[i], &end[i], NULL));
    }
    const char *labels[3] = {"write a", "write b", "kernel"};
    for (int i = 0; i < 3; i++)
        printf("  %-7s ran from %7.3f ms to %7.3f ms\n", labels[i], (double)(start[i] - start[0]) * 1e-6,
               (double)(end[i] - start[0]) * 1e-6);
    int in_order = start[2] >= end[0] && start[2] >= end[1];
    if (!in_order)
        printf("  FAILED: the kernel started before both writes of its wait list had ended\n");

    long long sum = 0;
    for (int g = 0; g < GROUPS; g++)
        sum += partial[g];
    if (sum != expected)
        printf("  FAILED: the device's sum is %lld, the host's %lld\n", sum, expected);
    int ok = sum == expected && in_order;
    if (ok)
        printf("dot_product: OK (%d ints on %s, %s queue, %d work-groups of %zu with %s: %lld, as on the host; "
               "the kernel started after both writes)\n",
               N, name, offered & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE ? "out-of-order" : "in-order", GROUPS,
               group_size, options, sum);
    else
        printf("dot_product: FAILED\n");

    clReleaseEvent(written[0]), clReleaseEvent(written[1]), clReleaseEvent(ran);
    clReleaseMemObject(a_buf), clReleaseMemObject(b_buf), clReleaseMemObject(partial_buf);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    free(a), free(b), free(partial);
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
