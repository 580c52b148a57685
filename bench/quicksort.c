/*
 * A recursive divide-and-conquer kernel: quicksort, driven two ways on each
 * platform with device-side enqueue (PoCL has none: skipped there).
 *
 *   device: one work-item partitions its range and enqueue_kernel()s a child
 *           for each half (NO_WAIT); the host waits for the first kernel's
 *           event, which completes after every descendant.
 *   host:   the same partition, one level of the recursion per launch (a
 *           work-item per range, the halves appended to the next level's
 *           list); the host reads the list's length and launches the next
 *           level until none is left.
 * Ranges of CUTOFF elements or fewer are heap-sorted by one work-item in both.
 *
 *   OCL_ICD_VENDORS=$PWD/build/bench/vendors build/bench/quicksort [elements] [runs]
 * prints the best time of each and host / device (above 1: device-side enqueue faster).
 */
#define _POSIX_C_SOURCE 200809L
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char source[] =
    "#define CUTOFF 1024u\n"
    "void sift(global uint *a, uint root, uint n) {\n"
    "    for (;;) {\n"
    "        uint c = 2 * root + 1;\n"
    "        if (c >= n) return;\n"
    "        if (c + 1 < n && a[c + 1] > a[c]) c++;\n"
    "        if (a[root] >= a[c]) return;\n"
    "        uint t = a[root]; a[root] = a[c]; a[c] = t;\n"
    "        root = c;\n"
    "    }\n"
    "}\n"
    "void heap_sort(global uint *a, uint n) {\n"
    "    for (uint i = n / 2; i-- > 0;) sift(a, i, n);\n"
    "    for (uint end = n; end-- > 1;) {\n"
    "        uint t = a[0]; a[0] = a[end]; a[end] = t;\n"
    "        sift(a, 0, end);\n"
    "    }\n"
    "}\n"
    "/* Hoare partition around the median of three: [lo, p) <= [p, hi), both non-empty */\n"
    "uint partition(global uint *a, uint lo, uint hi) {\n"
    "    uint x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi - 1];\n"
    "    uint pivot = max(min(x, y), min(max(x, y), z));\n"
    "    uint i = lo - 1, j = hi;\n"
    "    for (;;) {\n"
    "        do i++; while (a[i] < pivot);\n"
    "        do j--; while (a[j] > pivot);\n"
    "        if (i >= j) return j + 1;\n"
    "        uint t = a[i]; a[i] = a[j]; a[j] = t;\n"
    "    }\n"
    "}\n"
    "void task(queue_t q, global uint *a, uint lo, uint hi, global int *refused) {\n"
    "    if (hi - lo <= CUTOFF) { heap_sort(a + lo, hi - lo); return; }\n"
    "    uint p = partition(a, lo, hi);\n"
    "    if (enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ task(q, a, lo, p, refused); })) {\n"
    "        atomic_inc(refused);\n"
    "        heap_sort(a + lo, p - lo);\n"
    "    }\n"
    "    if (enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ task(q, a, p, hi, refused); })) {\n"
    "        atomic_inc(refused);\n"
    "        heap_sort(a + p, hi - p);\n"
    "    }\n"
    "}\n"
    "kernel void sort_device(global uint *a, uint n, queue_t q, global int *refused) {\n"
    "    task(q, a, 0, n, refused);\n"
    "}\n"
    "kernel void sort_level(global uint *a, global const uint2 *ranges, global uint2 *next, global uint *count) {\n"
    "    uint2 r = ranges[get_global_id(0)];\n"
    "    if (r.y - r.x <= CUTOFF) { heap_sort(a + r.x, r.y - r.x); return; }\n"
    "    uint p = partition(a, r.x, r.y);\n"
    "    uint k = atomic_add(count, 2u);\n"
    "    next[k] = (uint2)(r.x, p);\n"
    "    next[k + 1] = (uint2)(p, r.y);\n"
    "}\n";

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int check(const cl_uint *sorted, const cl_uint *input, size_t n)
{
    uint64_t s0 = 0, s1 = 0, x0 = 0, x1 = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && sorted[i - 1] > sorted[i])
            return 0;
        s0 += input[i];
        s1 += sorted[i];
        x0 ^= input[i] * 2654435761u;
        x1 ^= sorted[i] * 2654435761u;
    }
    return s0 == s1 && x0 == x1;
}

#define TRY(call)                                                                  \
    do {                                                                           \
        cl_int e_ = (call);                                                        \
        if (e_ != CL_SUCCESS) {                                                    \
            fprintf(stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__, #call, e_);     \
            return -1;                                                             \
        }                                                                          \
    } while (0)

/* Sorts a copy of input both ways `runs` times on device d; the best times in ms. */
static int bench_device(cl_device_id d, const cl_uint *input, cl_uint n, int runs, double *dev_ms, double *host_ms)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    TRY(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
    TRY(err);
    cl_uint max_size = 0;
    clGetDeviceInfo(d, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof max_size, &max_size, NULL);
    cl_queue_properties dp[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                 CL_QUEUE_SIZE, max_size, 0 };
    cl_command_queue dq = clCreateCommandQueueWithProperties(ctx, d, dp, &err);
    TRY(err);
    const char *src = source;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    TRY(err);
    if (clBuildProgram(p, 1, &d, "-cl-std=CL2.0", NULL, NULL) != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed:\n%s\n", log);
        return -1;
    }
    cl_kernel kd = clCreateKernel(p, "sort_device", &err);
    TRY(err);
    cl_kernel kl = clCreateKernel(p, "sort_level", &err);
    TRY(err);
    size_t bytes = (size_t)n * sizeof(cl_uint), max_ranges = n / 512 + 16;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    TRY(err);
    cl_mem ranges[2], count, refused;
    for (int i = 0; i < 2; i++) {
        ranges[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, max_ranges * sizeof(cl_uint2), NULL, &err);
        TRY(err);
    }
    count = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
    TRY(err);
    refused = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_int), NULL, &err);
    TRY(err);
    cl_uint *out = malloc(bytes);
    *dev_ms = *host_ms = 1e30;
    for (int run = 0; run < runs; run++) {
        /* device-side enqueue */
        cl_int zero = 0;
        TRY(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, bytes, input, 0, NULL, NULL));
        TRY(clEnqueueWriteBuffer(q, refused, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL));
        TRY(clSetKernelArg(kd, 0, sizeof a, &a));
        TRY(clSetKernelArg(kd, 1, sizeof n, &n));
        TRY(clSetKernelArg(kd, 2, sizeof dq, &dq));
        TRY(clSetKernelArg(kd, 3, sizeof refused, &refused));
        size_t one = 1;
        double t0 = now_ms();
        TRY(clEnqueueNDRangeKernel(q, kd, 1, NULL, &one, &one, 0, NULL, NULL));
        TRY(clFinish(q));
        double t = now_ms() - t0;
        TRY(clEnqueueReadBuffer(q, a, CL_TRUE, 0, bytes, out, 0, NULL, NULL));
        cl_int refusals = 0;
        TRY(clEnqueueReadBuffer(q, refused, CL_TRUE, 0, sizeof refusals, &refusals, 0, NULL, NULL));
        if (!check(out, input, n)) {
            fprintf(stderr, "device-side quicksort: wrong result\n");
            return -1;
        }
        if (refusals)
            fprintf(stderr, "(%d enqueues refused: sorted in place)\n", refusals);
        if (t < *dev_ms)
            *dev_ms = t;

        /* host-driven, one launch per level */
        TRY(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, bytes, input, 0, NULL, NULL));
        cl_uint first[2] = { 0, n };
        TRY(clEnqueueWriteBuffer(q, ranges[0], CL_TRUE, 0, sizeof first, first, 0, NULL, NULL));
        t0 = now_ms();
        cl_uint live = 1;
        for (int level = 0; live; level++) {
            cl_mem cur = ranges[level & 1], next = ranges[(level + 1) & 1];
            cl_uint none = 0;
            TRY(clEnqueueWriteBuffer(q, count, CL_FALSE, 0, sizeof none, &none, 0, NULL, NULL));
            TRY(clSetKernelArg(kl, 0, sizeof a, &a));
            TRY(clSetKernelArg(kl, 1, sizeof cur, &cur));
            TRY(clSetKernelArg(kl, 2, sizeof next, &next));
            TRY(clSetKernelArg(kl, 3, sizeof count, &count));
            size_t global = live;
            TRY(clEnqueueNDRangeKernel(q, kl, 1, NULL, &global, &one, 0, NULL, NULL));
            TRY(clEnqueueReadBuffer(q, count, CL_TRUE, 0, sizeof live, &live, 0, NULL, NULL));
            if (live > max_ranges) {
                fprintf(stderr, "too many ranges\n");
                return -1;
            }
        }
        t = now_ms() - t0;
        TRY(clEnqueueReadBuffer(q, a, CL_TRUE, 0, bytes, out, 0, NULL, NULL));
        if (!check(out, input, n)) {
            fprintf(stderr, "host-driven quicksort: wrong result\n");
            return -1;
        }
        if (t < *host_ms)
            *host_ms = t;
    }
    free(out);
    clReleaseMemObject(a);
    clReleaseMemObject(ranges[0]);
    clReleaseMemObject(ranges[1]);
    clReleaseMemObject(count);
    clReleaseMemObject(refused);
    clReleaseKernel(kd);
    clReleaseKernel(kl);
    clReleaseProgram(p);
    clReleaseCommandQueue(dq);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}

int main(int argc, char **argv)
{
    cl_uint n = argc > 1 ? (cl_uint)strtoul(argv[1], NULL, 0) : 1u << 22;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    cl_uint *input = malloc((size_t)n * sizeof *input);
    uint64_t s = 88172645463325252ull;
    for (cl_uint i = 0; i < n; i++) { /* xorshift: the same data every run */
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        input[i] = (cl_uint)s;
    }
    cl_platform_id platforms[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, platforms, &np);
    printf("quicksort of %u uints, best of %d runs (ms)\n", n, runs);
    printf("%-24s %12s %12s %14s\n", "platform", "device-side", "host-driven", "host / device");
    for (cl_uint i = 0; i < np; i++) {
        char name[128] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        cl_device_id d;
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_CPU, 1, &d, NULL) != CL_SUCCESS)
            continue;
        cl_device_device_enqueue_capabilities caps = 0;
        clGetDeviceInfo(d, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof caps, &caps, NULL);
        if (!(caps & CL_DEVICE_QUEUE_SUPPORTED)) {
            printf("%-24s no device-side enqueue: skipped\n", name);
            continue;
        }
        double dev_ms, host_ms;
        if (bench_device(d, input, n, runs, &dev_ms, &host_ms) == 0)
            printf("%-24s %12.2f %12.2f %14.2f\n", name, dev_ms, host_ms, host_ms / dev_ms);
    }
    free(input);
    return 0;
}
