/*
 * cl_intel_unified_shared_memory through the ICD loader (its functions found
 * with clGetExtensionFunctionAddressForPlatform, as applications find them):
 *
 *   reported         the extension and its version in the device's lists,
 *                    the five capability queries, every entry point
 *   kernel_args      host, device and shared allocations (with allocation
 *                    flags) given to a kernel with clSetKernelArgMemPointerINTEL,
 *                    whole and from inside; device memory filled and read
 *                    back with clEnqueueMemcpyINTEL
 *   indirect         a kernel follows pointers stored in a device allocation
 *                    to host, device and shared allocations (indirect access
 *                    declared with clSetKernelExecInfo), and writes pointers
 *                    the host then follows
 *   commands         memcpy, memset and fill (every pattern size) held back
 *                    by a user event and chained by wait lists; migrate and
 *                    advise in order with them; the events' command types
 *   blocking_free    clMemBlockingFreeINTEL returns only once the kernel
 *                    using the allocation (held back by a user event another
 *                    thread sets) has ended; clMemFreeINTEL does not wait
 *   info             clGetMemAllocInfoINTEL for each kind, for pointers
 *                    inside and just past allocations, for malloc, SVM and
 *                    NULL pointers (the unknown kind), and its errors
 *   errors           the error codes of the allocation, free, command and
 *                    kernel functions for bad input
 *   buffer_over_usm  clCreateBuffer(CL_MEM_USE_HOST_PTR) over a USM
 *                    allocation: zero copy, and CL_INVALID_BUFFER_SIZE past
 *                    its end
 *   threads          four threads allocate, query and free at once
 *   context_release  allocations never freed go with their context, once
 *                    the last command using them has ended (the heap shrinks)
 *
 *   usage: test_usm [case|--list]   (the cases: test_usm.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEST_LIST "test_usm.list"
#include "test.h"
#include "cl_test.h"

#define OK(expr) CHECK_ERR(expr, CL_SUCCESS)

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program;

/* The extension's functions. */
static clHostMemAllocINTEL_fn host_alloc;
static clDeviceMemAllocINTEL_fn device_alloc;
static clSharedMemAllocINTEL_fn shared_alloc;
static clMemFreeINTEL_fn mem_free;
static clMemBlockingFreeINTEL_fn blocking_free;
static clGetMemAllocInfoINTEL_fn alloc_info;
static clSetKernelArgMemPointerINTEL_fn set_arg_pointer;
static clEnqueueMemFillINTEL_fn mem_fill;
static clEnqueueMemsetINTEL_fn mem_set;
static clEnqueueMemcpyINTEL_fn mem_copy;
static clEnqueueMigrateMemINTEL_fn migrate;
static clEnqueueMemAdviseINTEL_fn advise;

static const char *source =
    "kernel void axpy(global float *y, global const float *x, float a) {\n"
    "    size_t i = get_global_id(0);\n"
    "    y[i] = a * x[i] + y[i];\n"
    "}\n"
    /* refs: pointers to arrays anywhere in USM, read indirectly */
    "typedef struct ref { global long *data; long scale; } ref;\n"
    "kernel void gather(global const ref *refs, int count, global long *out) {\n"
    "    size_t i = get_global_id(0);\n"
    "    long s = 0;\n"
    "    for (int k = 0; k < count; k++) s += refs[k].data[i] * refs[k].scale;\n"
    "    out[i] = s;\n"
    "}\n"
    /* writes pointers: slots[i] = &base[2 * i] */
    "kernel void point(global long *global *slots, global long *base) {\n"
    "    size_t i = get_global_id(0);\n"
    "    slots[i] = base + 2 * i;\n"
    "}\n"
    "kernel void store(global long *out, long value) { out[get_global_id(0)] = value + get_global_id(0); }\n"
    "kernel void atomics(global atomic_int *counter) {\n"
    "    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);\n"
    "}\n";

static cl_kernel kernel(const char *name)
{
    cl_int err = 0;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
}

static void *function(const char *name)
{
    void *f = clGetExtensionFunctionAddressForPlatform(platform, name);
    CHECK(f != NULL, "%s not found", name);
    return f;
}

static bool find_functions(void)
{
    host_alloc = (clHostMemAllocINTEL_fn)function("clHostMemAllocINTEL");
    device_alloc = (clDeviceMemAllocINTEL_fn)function("clDeviceMemAllocINTEL");
    shared_alloc = (clSharedMemAllocINTEL_fn)function("clSharedMemAllocINTEL");
    mem_free = (clMemFreeINTEL_fn)function("clMemFreeINTEL");
    blocking_free = (clMemBlockingFreeINTEL_fn)function("clMemBlockingFreeINTEL");
    alloc_info = (clGetMemAllocInfoINTEL_fn)function("clGetMemAllocInfoINTEL");
    set_arg_pointer = (clSetKernelArgMemPointerINTEL_fn)function("clSetKernelArgMemPointerINTEL");
    mem_fill = (clEnqueueMemFillINTEL_fn)function("clEnqueueMemFillINTEL");
    mem_set = (clEnqueueMemsetINTEL_fn)function("clEnqueueMemsetINTEL");
    mem_copy = (clEnqueueMemcpyINTEL_fn)function("clEnqueueMemcpyINTEL");
    migrate = (clEnqueueMigrateMemINTEL_fn)function("clEnqueueMigrateMemINTEL");
    advise = (clEnqueueMemAdviseINTEL_fn)function("clEnqueueMemAdviseINTEL");
    return host_alloc && device_alloc && shared_alloc && mem_free && blocking_free && alloc_info &&
           set_arg_pointer && mem_fill && mem_set && mem_copy && migrate && advise;
}

#define ALL_CAPS                                                                                   \
    (CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |       \
     CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL)

/* ---- what the device reports --------------------------------------------------------- */

TEST(reported)
{
    char extensions[4096] = "";
    OK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL));
    CHECK(strstr(extensions, "cl_intel_unified_shared_memory") != NULL);
    size_t size = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &size));
    cl_name_version *list = malloc(size);
    OK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list, NULL));
    bool listed = false;
    for (size_t i = 0; i < size / sizeof *list; i++)
        if (strcmp(list[i].name, "cl_intel_unified_shared_memory") == 0) {
            listed = true;
            CHECK(list[i].version == CL_MAKE_VERSION(1, 2, 0), "version 0x%x", list[i].version);
        }
    CHECK(listed);
    free(list);

    /* one coherent memory: every kind, every access, atomics, at the same time */
    static const cl_device_info queries[] = {
        CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL, CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL,
    };
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        cl_device_unified_shared_memory_capabilities_intel caps = 0;
        size_t ret = 0;
        OK(clGetDeviceInfo(device, queries[i], sizeof caps, &caps, &ret));
        CHECK(ret == sizeof caps);
        CHECK(caps == ALL_CAPS, "query 0x%x: 0x%llx", queries[i], (unsigned long long)caps);
    }
    CHECK(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionINTEL") == NULL);
}

/* ---- kernels with USM arguments --------------------------------------------------------- */

TEST(kernel_args)
{
    enum { N = 4096 };
    cl_int err = 0;
    cl_mem_properties_intel wc[] = { CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_WRITE_COMBINED_INTEL, 0 };
    cl_mem_properties_intel on_device[] = { CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL, 0 };
    float *h = host_alloc(context, wc, N * sizeof(float), 0, &err);
    CHECK_ERR(err, CL_SUCCESS);
    float *d = device_alloc(context, device, NULL, N * sizeof(float), 64, &err);
    CHECK_ERR(err, CL_SUCCESS);
    float *s = shared_alloc(context, device, on_device, N * sizeof(float), 128, &err);
    CHECK_ERR(err, CL_SUCCESS);
    float *s2 = shared_alloc(context, NULL, NULL, N * sizeof(float), 0, &err); /* no device */
    CHECK_ERR(err, CL_SUCCESS);
    if (!h || !d || !s || !s2)
        return;
    CHECK((uintptr_t)d % 64 == 0 && (uintptr_t)s % 128 == 0 && (uintptr_t)h % 128 == 0);

    float *x = malloc(N * sizeof(float)), *want = malloc(N * sizeof(float)), *got = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++) {
        h[i] = (float)(i % 97);
        s[i] = (float)(i % 13) - 6.0f;
        s2[i] = 0.5f * (float)i;
        x[i] = (float)(i % 7);
    }
    OK(mem_copy(queue, CL_TRUE, d, x, N * sizeof(float), 0, NULL, NULL));

    cl_kernel k = kernel("axpy");
    float a = 2.0f, b = -1.0f;
    size_t n = N, half = N / 2;
    /* d = 2 * h + d over everything */
    OK(set_arg_pointer(k, 0, d));
    OK(set_arg_pointer(k, 1, h));
    OK(clSetKernelArg(k, 2, sizeof a, &a));
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    /* s[N/2..] = -1 * d[N/4..] + s[N/2..]: pointers inside allocations */
    OK(set_arg_pointer(k, 0, s + N / 2));
    OK(set_arg_pointer(k, 1, d + N / 4));
    OK(clSetKernelArg(k, 2, sizeof b, &b));
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &half, NULL, 0, NULL, NULL));
    /* s2 = 2 * s + s2 (shared with no device) */
    OK(set_arg_pointer(k, 0, s2));
    OK(set_arg_pointer(k, 1, s));
    OK(clSetKernelArg(k, 2, sizeof a, &a));
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    OK(clFinish(queue));

    /* the host's answer */
    float *dd = malloc(N * sizeof(float)), *ss = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++)
        dd[i] = 2.0f * (float)(i % 97) + x[i];
    for (int i = 0; i < N; i++) {
        ss[i] = (float)(i % 13) - 6.0f;
        if (i >= N / 2)
            ss[i] += -1.0f * dd[i - N / 2 + N / 4];
    }
    for (int i = 0; i < N; i++)
        want[i] = 2.0f * ss[i] + 0.5f * (float)i;
    OK(mem_copy(queue, CL_TRUE, got, d, N * sizeof(float), 0, NULL, NULL));
    int bad_d = 0, bad_s = 0, bad_s2 = 0;
    for (int i = 0; i < N; i++) {
        bad_d += got[i] != dd[i];
        bad_s += s[i] != ss[i];
        bad_s2 += s2[i] != want[i];
    }
    CHECK(bad_d == 0 && bad_s == 0 && bad_s2 == 0, "%d %d %d wrong", bad_d, bad_s, bad_s2);

    /* device atomics on a shared allocation, host reads at once after */
    int *counter = shared_alloc(context, device, NULL, sizeof(int), sizeof(int), &err);
    CHECK_ERR(err, CL_SUCCESS);
    *counter = 5;
    cl_kernel ka = kernel("atomics");
    OK(set_arg_pointer(ka, 0, counter));
    size_t many = 10000;
    OK(clEnqueueNDRangeKernel(queue, ka, 1, NULL, &many, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
    CHECK(*counter == 10005, "%d", *counter);

    OK(clReleaseKernel(ka));
    OK(clReleaseKernel(k));
    OK(mem_free(context, counter));
    OK(mem_free(context, h));
    OK(mem_free(context, d));
    OK(mem_free(context, s));
    OK(mem_free(context, s2));
    free(x);
    free(want);
    free(got);
    free(dd);
    free(ss);
}

/* ---- indirect access: pointers kept in memory ------------------------------------------------ */

typedef struct ref {
    cl_long *data;
    cl_long scale;
} ref;

TEST(indirect)
{
    enum { N = 1000 };
    cl_int err = 0;
    cl_long *h = host_alloc(context, NULL, N * sizeof(cl_long), 0, &err);
    cl_long *d = device_alloc(context, device, NULL, N * sizeof(cl_long), 0, &err);
    cl_long *s = shared_alloc(context, device, NULL, (N + 10) * sizeof(cl_long), 0, &err);
    ref *refs = device_alloc(context, device, NULL, 3 * sizeof(ref), 0, &err);
    cl_long *out = shared_alloc(context, NULL, NULL, N * sizeof(cl_long), 0, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!h || !d || !s || !refs || !out)
        return;
    cl_long *init = malloc(N * sizeof(cl_long));
    for (int i = 0; i < N; i++) {
        h[i] = i;
        init[i] = 1000 - i;
        s[i + 10] = i * i;
    }
    OK(mem_copy(queue, CL_FALSE, d, init, N * sizeof(cl_long), 0, NULL, NULL));
    /* the table lives in device memory: written with a memcpy; one entry
     * points inside an allocation */
    ref table[3] = { { h, 3 }, { d, -2 }, { s + 10, 1 } };
    OK(mem_copy(queue, CL_FALSE, refs, table, sizeof table, 0, NULL, NULL));

    cl_kernel k = kernel("gather");
    cl_bool yes = CL_TRUE;
    OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, sizeof yes, &yes));
    OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL, sizeof yes, &yes));
    OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL, sizeof yes, &yes));
    void *named[] = { h, d, s };
    OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof named, named));
    int count = 3;
    OK(set_arg_pointer(k, 0, refs));
    OK(clSetKernelArg(k, 1, sizeof count, &count));
    OK(set_arg_pointer(k, 2, out));
    size_t n = N;
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != 3 * (cl_long)i - 2 * (1000 - (cl_long)i) + (cl_long)i * i;
    CHECK(bad == 0, "%d wrong", bad);

    /* the clone keeps the declarations; the set can be emptied */
    cl_kernel clone = clCloneKernel(k, &err);
    CHECK_ERR(err, CL_SUCCESS);
    OK(clEnqueueNDRangeKernel(queue, clone, 1, NULL, &n, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
    CHECK(out[7] == 3 * 7 - 2 * 993 + 49);
    OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, 0, NULL));
    OK(clReleaseKernel(clone));

    /* the kernel writes pointers into shared memory; the host follows them */
    cl_long **slots = shared_alloc(context, device, NULL, 16 * sizeof(cl_long *), 0, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel p = kernel("point");
    OK(set_arg_pointer(p, 0, slots));
    OK(set_arg_pointer(p, 1, h));
    size_t sixteen = 16;
    OK(clEnqueueNDRangeKernel(queue, p, 1, NULL, &sixteen, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
    int wrong = 0;
    for (int i = 0; i < 16; i++)
        wrong += slots[i] != h + 2 * i || *slots[i] != 2 * i;
    CHECK(wrong == 0);

    OK(clReleaseKernel(p));
    OK(clReleaseKernel(k));
    cl_long *all[] = { h, d, s, (cl_long *)refs, out, (cl_long *)slots };
    for (int i = 0; i < 6; i++)
        OK(mem_free(context, all[i]));
    free(init);
}

/* ---- memcpy, memset, fill, migrate, advise ------------------------------------------------ */

static cl_command_type command_type(cl_event e)
{
    cl_command_type t = 0;
    OK(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    return t;
}

static cl_int status(cl_event e)
{
    cl_int s = 0;
    OK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL));
    return s;
}

TEST(commands)
{
    enum { SIZE = 1 << 16 };
    cl_int err = 0;
    cl_uchar *d = device_alloc(context, device, NULL, SIZE, 0, &err);
    cl_uchar *s = shared_alloc(context, device, NULL, SIZE, 0, &err);
    cl_uchar *h = host_alloc(context, NULL, SIZE, 0, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!d || !s || !h)
        return;
    memset(s, 0xee, SIZE);
    memset(h, 0x11, SIZE);

    /* gate -> memset(d) -> fill(d + 4096, 16-byte pattern) -> memcpy(s <- d) */
    cl_event gate = clCreateUserEvent(context, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_event set, fill, copy, mig, adv;
    OK(mem_set(queue, d, 0x5a + 0x300, SIZE, 1, &gate, &set)); /* only the low byte counts */
    cl_uchar pattern[16];
    for (int i = 0; i < 16; i++)
        pattern[i] = (cl_uchar)(i * 7 + 1);
    OK(mem_fill(queue, d + 4096, pattern, sizeof pattern, 8192, 1, &set, &fill));
    memset(pattern, 0, sizeof pattern); /* the command kept its own copy */
    OK(mem_copy(queue, CL_FALSE, s, d, SIZE, 1, &fill, &copy));
    OK(migrate(queue, s, SIZE, 0, 1, &copy, &mig));
    OK(advise(queue, s, SIZE, 0, 1, &mig, &adv));
    CHECK(command_type(set) == CL_COMMAND_MEMFILL_INTEL);
    CHECK(command_type(fill) == CL_COMMAND_MEMFILL_INTEL);
    CHECK(command_type(copy) == CL_COMMAND_MEMCPY_INTEL);
    CHECK(command_type(mig) == CL_COMMAND_MIGRATEMEM_INTEL);
    CHECK(command_type(adv) == CL_COMMAND_MEMADVISE_INTEL);
    /* nothing has run: the gate is closed */
    struct timespec ms = { 0, 20 * 1000 * 1000 };
    nanosleep(&ms, NULL);
    CHECK(status(adv) > CL_COMPLETE && status(copy) > CL_COMPLETE);
    CHECK(s[0] == 0xee && s[SIZE - 1] == 0xee);
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clWaitForEvents(1, &adv));
    CHECK(status(copy) == CL_COMPLETE && status(mig) == CL_COMPLETE);
    int bad = 0;
    for (int i = 0; i < SIZE; i++) {
        cl_uchar want = i >= 4096 && i < 4096 + 8192 ? (cl_uchar)(((i - 4096) % 16) * 7 + 1) : 0x5a;
        bad += s[i] != want;
    }
    CHECK(bad == 0, "%d bytes wrong", bad);

    /* every pattern size, into host memory, checked against the host */
    cl_uchar big[128];
    for (int i = 0; i < 128; i++)
        big[i] = (cl_uchar)(255 - 3 * i);
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        size_t offset = 256, size = 1024;
        memset(h, 0x11, SIZE);
        OK(mem_fill(queue, h + offset, big, ps, size, 0, NULL, NULL));
        OK(clFinish(queue));
        int wrong = 0;
        for (size_t i = 0; i < 2048; i++)
            wrong += h[i] != (i >= offset && i < offset + size ? big[(i - offset) % ps] : 0x11);
        CHECK(wrong == 0, "pattern size %zu: %d bytes wrong", ps, wrong);
    }

    /* a blocking copy between USM and malloc memory; migrate to the host */
    cl_uchar *plain = malloc(SIZE);
    OK(migrate(queue, s + 100, 1000, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    OK(mem_copy(queue, CL_TRUE, plain, s, SIZE, 0, NULL, NULL));
    CHECK(memcmp(plain, s, SIZE) == 0);
    OK(migrate(queue, d, SIZE, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL));
    OK(advise(queue, d + 1, 10, 0, 0, NULL, NULL));
    OK(clFinish(queue));

    cl_event all[] = { gate, set, fill, copy, mig, adv };
    for (int i = 0; i < 6; i++)
        OK(clReleaseEvent(all[i]));
    free(plain);
    OK(mem_free(context, d));
    OK(mem_free(context, s));
    OK(mem_free(context, h));
}

/* ---- blocking free ---------------------------------------------------------------------- */

static void *open_gate_later(void *gate)
{
    struct timespec t = { 0, 200 * 1000 * 1000 };
    nanosleep(&t, NULL);
    clSetUserEventStatus(gate, CL_COMPLETE);
    return NULL;
}

TEST(blocking_free)
{
    enum { N = 256 };
    cl_int err = 0;
    cl_long *d = device_alloc(context, device, NULL, N * sizeof(cl_long), 0, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_long *result = host_alloc(context, NULL, N * sizeof(cl_long), 0, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!d || !result)
        return;
    cl_event gate = clCreateUserEvent(context, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = kernel("store");
    cl_long value = 77;
    OK(set_arg_pointer(k, 0, d));
    OK(clSetKernelArg(k, 1, sizeof value, &value));
    size_t n = N;
    cl_event run, copied;
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 1, &gate, &run));
    OK(mem_copy(queue, CL_FALSE, result, d, N * sizeof(cl_long), 1, &run, &copied));

    pthread_t opener;
    pthread_create(&opener, NULL, open_gate_later, gate);
    double start = test_now_ms();
    OK(blocking_free(context, d)); /* waits for the kernel and the copy that use d */
    double waited = test_now_ms() - start;
    CHECK(status(run) == CL_COMPLETE && status(copied) == CL_COMPLETE);
    CHECK(waited >= 150, "returned after %.0f ms, before the gate opened", waited);
    pthread_join(opener, NULL);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += result[i] != 77 + i;
    CHECK(bad == 0);
    /* it is gone: a second free is an error */
    CHECK_ERR(mem_free(context, d), CL_INVALID_VALUE);
    CHECK_ERR(blocking_free(context, d), CL_INVALID_VALUE);

    /* clMemFreeINTEL does not wait (for an allocation nothing uses) */
    cl_event gate2 = clCreateUserEvent(context, &err);
    cl_long *other = shared_alloc(context, NULL, NULL, 64, 0, &err);
    cl_event held;
    OK(clEnqueueMarkerWithWaitList(queue, 1, &gate2, &held));
    OK(mem_free(context, other));
    CHECK(status(held) > CL_COMPLETE);
    OK(clSetUserEventStatus(gate2, CL_COMPLETE));
    OK(clFinish(queue));
    /* NULL is nothing to free, blocking or not */
    OK(mem_free(context, NULL));
    OK(blocking_free(context, NULL));

    cl_event all[] = { gate, run, copied, gate2, held };
    for (int i = 0; i < 5; i++)
        OK(clReleaseEvent(all[i]));
    OK(clReleaseKernel(k));
    OK(mem_free(context, result));
}

/* ---- clGetMemAllocInfoINTEL ------------------------------------------------------------- */

typedef struct alloc_facts {
    cl_unified_shared_memory_type_intel type;
    void *base;
    size_t size;
    cl_device_id device;
    cl_mem_alloc_flags_intel flags;
} alloc_facts;

static alloc_facts facts(const void *ptr)
{
    alloc_facts f;
    memset(&f, 0xab, sizeof f);
    size_t ret = 0;
    OK(alloc_info(context, ptr, CL_MEM_ALLOC_TYPE_INTEL, sizeof f.type, &f.type, &ret));
    CHECK(ret == sizeof f.type);
    OK(alloc_info(context, ptr, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof f.base, &f.base, &ret));
    CHECK(ret == sizeof f.base);
    OK(alloc_info(context, ptr, CL_MEM_ALLOC_SIZE_INTEL, sizeof f.size, &f.size, &ret));
    CHECK(ret == sizeof f.size);
    OK(alloc_info(context, ptr, CL_MEM_ALLOC_DEVICE_INTEL, sizeof f.device, &f.device, &ret));
    CHECK(ret == sizeof f.device);
    OK(alloc_info(context, ptr, CL_MEM_ALLOC_FLAGS_INTEL, sizeof f.flags, &f.flags, &ret));
    CHECK(ret == sizeof f.flags);
    return f;
}

static void check_facts(const void *ptr, cl_unified_shared_memory_type_intel type, const void *base, size_t size,
                        cl_device_id dev, cl_mem_alloc_flags_intel flags)
{
    alloc_facts f = facts(ptr);
    CHECK(f.type == type, "%p: type 0x%x, not 0x%x", ptr, f.type, type);
    CHECK(f.base == base, "%p: base %p, not %p", ptr, f.base, base);
    CHECK(f.size == size, "%p: size %zu, not %zu", ptr, f.size, size);
    CHECK(f.device == dev, "%p: device %p", ptr, (void *)f.device);
    CHECK(f.flags == flags, "%p: flags 0x%llx", ptr, (unsigned long long)f.flags);
}

TEST(info)
{
    cl_int err = 0;
    cl_mem_properties_intel wc[] = { CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_WRITE_COMBINED_INTEL, 0 };
    cl_mem_properties_intel host_first[] = { CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL, 0 };
    char *h = host_alloc(context, wc, 1000, 0, &err);
    char *d = device_alloc(context, device, NULL, 333, 8, &err);
    char *s = shared_alloc(context, device, host_first, 4096, 0, &err);
    char *s0 = shared_alloc(context, NULL, NULL, 1, 0, &err);
    CHECK_ERR(err, CL_SUCCESS);
    check_facts(h, CL_MEM_TYPE_HOST_INTEL, h, 1000, NULL, CL_MEM_ALLOC_WRITE_COMBINED_INTEL);
    check_facts(h + 999, CL_MEM_TYPE_HOST_INTEL, h, 1000, NULL, CL_MEM_ALLOC_WRITE_COMBINED_INTEL);
    check_facts(d, CL_MEM_TYPE_DEVICE_INTEL, d, 333, device, 0);
    check_facts(d + 100, CL_MEM_TYPE_DEVICE_INTEL, d, 333, device, 0);
    check_facts(s + 4095, CL_MEM_TYPE_SHARED_INTEL, s, 4096, device, CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL);
    check_facts(s0, CL_MEM_TYPE_SHARED_INTEL, s0, 1, NULL, 0);
    /* not USM: past the end, malloc, the stack, NULL, SVM */
    char *plain = malloc(64);
    int local = 0;
    void *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, 256, 0);
    CHECK(svm != NULL);
    const void *unknown[] = { plain, &local, NULL, svm, (char *)svm + 10 };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        check_facts(unknown[i], CL_MEM_TYPE_UNKNOWN_INTEL, NULL, 0, NULL, 0);
    /* just past the end of h is not h (it may be another allocation) */
    alloc_facts past = facts(h + 1000);
    CHECK(past.base != h);

    /* only the size, then errors */
    size_t ret = 0;
    OK(alloc_info(context, s, CL_MEM_ALLOC_BASE_PTR_INTEL, 0, NULL, &ret));
    CHECK(ret == sizeof(void *));
    cl_uint small = 0;
    CHECK_ERR(alloc_info(context, s, CL_MEM_ALLOC_SIZE_INTEL, sizeof small, &small, NULL), CL_INVALID_VALUE);
    CHECK_ERR(alloc_info(context, s, 0x4321, sizeof ret, &ret, NULL), CL_INVALID_VALUE);
    CHECK_ERR(alloc_info(NULL, s, CL_MEM_ALLOC_SIZE_INTEL, sizeof ret, &ret, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(alloc_info((cl_context)queue, s, CL_MEM_ALLOC_SIZE_INTEL, sizeof ret, &ret, NULL), CL_INVALID_CONTEXT);

    /* another context does not see this one's allocations */
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_unified_shared_memory_type_intel type = 0;
    OK(alloc_info(other, h, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL));
    CHECK(type == CL_MEM_TYPE_UNKNOWN_INTEL);
    CHECK_ERR(mem_free(other, h), CL_INVALID_VALUE);
    OK(clReleaseContext(other));

    /* freed: unknown again */
    OK(mem_free(context, d));
    check_facts(d, CL_MEM_TYPE_UNKNOWN_INTEL, NULL, 0, NULL, 0);
    clSVMFree(context, svm);
    free(plain);
    OK(mem_free(context, h));
    OK(mem_free(context, s));
    OK(mem_free(context, s0));
}

/* ---- error codes ------------------------------------------------------------------------- */

TEST(errors)
{
    cl_int err = 0;
    cl_ulong max_alloc = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL));

    /* context, device */
    CHECK(host_alloc(NULL, NULL, 64, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_CONTEXT);
    CHECK(device_alloc(context, NULL, NULL, 64, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_DEVICE);
    CHECK(shared_alloc(context, (cl_device_id)context, NULL, 64, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_DEVICE);
    CHECK(device_alloc((cl_context)device, device, NULL, 64, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_CONTEXT);
    /* alignment: 0 or a power of two up to the largest type, 128 bytes */
    CHECK(host_alloc(context, NULL, 64, 3, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    CHECK(device_alloc(context, device, NULL, 64, 256, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    CHECK(shared_alloc(context, NULL, NULL, 64, 48, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    /* size */
    CHECK(host_alloc(context, NULL, 0, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
    CHECK(device_alloc(context, device, NULL, (size_t)max_alloc + 1, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
    CHECK(shared_alloc(context, NULL, NULL, SIZE_MAX, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
    /* properties */
    cl_mem_properties_intel unknown[] = { 0x1234, 0, 0 };
    cl_mem_properties_intel twice[] = { CL_MEM_ALLOC_FLAGS_INTEL, 0, CL_MEM_ALLOC_FLAGS_INTEL, 0, 0 };
    cl_mem_properties_intel bad_bits[] = { CL_MEM_ALLOC_FLAGS_INTEL, 1 << 9, 0 };
    cl_mem_properties_intel placed[] = { CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL, 0 };
    cl_mem_properties_intel both[] = { CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL |
                                       CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL, 0 };
    CHECK(host_alloc(context, unknown, 64, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROPERTY);
    CHECK(device_alloc(context, device, twice, 64, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROPERTY);
    CHECK(shared_alloc(context, device, bad_bits, 64, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROPERTY);
    CHECK(host_alloc(context, placed, 64, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROPERTY);
    CHECK(device_alloc(context, device, placed, 64, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROPERTY);
    CHECK(shared_alloc(context, device, both, 64, 0, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROPERTY);
    /* errcode_ret may be NULL */
    CHECK(host_alloc(context, NULL, 0, 0, NULL) == NULL);

    /* frees: only the start of a USM allocation of the context */
    char *p = shared_alloc(context, device, NULL, 256, 0, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(mem_free(NULL, p), CL_INVALID_CONTEXT);
    CHECK_ERR(mem_free(context, p + 1), CL_INVALID_VALUE);
    char plain[16];
    CHECK_ERR(mem_free(context, plain), CL_INVALID_VALUE);
    void *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 0);
    CHECK_ERR(mem_free(context, svm), CL_INVALID_VALUE); /* SVM is freed by clSVMFree */
    clSVMFree(context, svm);

    /* commands */
    CHECK_ERR(mem_copy(NULL, CL_TRUE, p, plain, 16, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(mem_copy(queue, CL_TRUE, NULL, plain, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(mem_copy(queue, CL_TRUE, p, NULL, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(mem_copy(queue, CL_TRUE, p, p + 8, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(mem_copy(queue, CL_TRUE, p, plain, 16, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event none = NULL;
    CHECK_ERR(mem_copy(queue, CL_TRUE, p, plain, 16, 0, &none, NULL), CL_INVALID_EVENT_WAIT_LIST);
    int pattern = 0;
    CHECK_ERR(mem_fill(queue, p, &pattern, 3, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(mem_fill(queue, p, &pattern, 256, 256, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(mem_fill(queue, p + 2, &pattern, 4, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(mem_fill(queue, p, &pattern, 4, 10, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(mem_fill(queue, p, NULL, 4, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(mem_fill(queue, NULL, &pattern, 4, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(mem_set(queue, NULL, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(mem_set((cl_command_queue)context, p, 0, 12, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(migrate(queue, p, 256, 0x100, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(migrate(queue, NULL, 256, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(migrate(NULL, p, 256, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(advise(queue, NULL, 256, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(advise(NULL, p, 256, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    /* a wait-list event of another context */
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_event foreign = clCreateUserEvent(other, &err);
    CHECK_ERR(mem_copy(queue, CL_FALSE, p, plain, 16, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(advise(queue, p, 16, 0, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    OK(clReleaseEvent(foreign));
    OK(clReleaseContext(other));

    /* kernels */
    cl_kernel k = kernel("axpy");
    CHECK_ERR(set_arg_pointer(NULL, 0, p), CL_INVALID_KERNEL);
    CHECK_ERR(set_arg_pointer(k, 3, p), CL_INVALID_ARG_INDEX);
    CHECK_ERR(set_arg_pointer(k, 2, p), CL_INVALID_ARG_VALUE); /* a float, not a pointer */
    OK(set_arg_pointer(k, 0, plain)); /* any pointer value is valid (1.1.0) */
    OK(set_arg_pointer(k, 0, NULL));
    cl_bool yes = CL_TRUE;
    CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, 1, &yes), CL_INVALID_VALUE);
    CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL, sizeof yes, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, 3, &p), CL_INVALID_VALUE);
    CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof p, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetKernelExecInfo(NULL, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof p, &p), CL_INVALID_KERNEL);
    OK(clReleaseKernel(k));
    OK(mem_free(context, p));
}

/* ---- buffers over USM ------------------------------------------------------------------- */

TEST(buffer_over_usm)
{
    enum { N = 1024 };
    cl_int err = 0;
    float *s = shared_alloc(context, device, NULL, N * sizeof(float), 0, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!s)
        return;
    for (int i = 0; i < N; i++)
        s[i] = (float)i;
    /* the second half, as a buffer: the kernel's writes land in s */
    cl_mem b = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, N / 2 * sizeof(float), s + N / 2, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_bool uses = CL_TRUE;
    OK(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
    CHECK(uses == CL_FALSE); /* a USM pointer is not an SVM pointer */
    cl_kernel k = kernel("axpy");
    float three = 3.0f;
    OK(clSetKernelArg(k, 0, sizeof b, &b));
    OK(set_arg_pointer(k, 1, s));
    OK(clSetKernelArg(k, 2, sizeof three, &three));
    size_t half = N / 2;
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &half, NULL, 0, NULL, NULL));
    float *mapped = clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ, 0, N / 2 * sizeof(float), 0, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK(mapped == s + N / 2);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += s[i] != (i < N / 2 ? (float)i : 3.0f * (float)(i - N / 2) + (float)i);
    CHECK(bad == 0, "%d wrong", bad);
    OK(clEnqueueUnmapMemObject(queue, b, mapped, 0, NULL, NULL));
    OK(clReleaseMemObject(b));
    /* one byte past the allocation */
    cl_mem too_big = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, N / 2 * sizeof(float) + 1, s + N / 2, &err);
    CHECK(too_big == NULL);
    CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
    OK(clFinish(queue));
    OK(clReleaseKernel(k));
    OK(mem_free(context, s));
}

/* ---- threads ------------------------------------------------------------------------------ */

static void *churn(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg;
    enum { ROUNDS = 300, LIVE = 16 };
    void *live[LIVE] = { 0 };
    size_t sizes[LIVE] = { 0 };
    int bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        int slot = rand_r(&seed) % LIVE;
        if (live[slot]) {
            size_t size = 0;
            void *base = NULL;
            char *inside = (char *)live[slot] + sizes[slot] - 1;
            bad += alloc_info(context, inside, CL_MEM_ALLOC_SIZE_INTEL, sizeof size, &size, NULL) != CL_SUCCESS ||
                   size != sizes[slot];
            bad += alloc_info(context, inside, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof base, &base, NULL) != CL_SUCCESS ||
                   base != live[slot];
            bad += mem_free(context, live[slot]) != CL_SUCCESS;
            live[slot] = NULL;
        } else {
            cl_int err;
            size_t size = 1 + (size_t)(rand_r(&seed) % 5000);
            int kind = rand_r(&seed) % 3;
            live[slot] = kind == 0   ? host_alloc(context, NULL, size, 0, &err)
                         : kind == 1 ? device_alloc(context, device, NULL, size, 0, &err)
                                     : shared_alloc(context, NULL, NULL, size, 0, &err);
            bad += err != CL_SUCCESS;
            if (live[slot])
                memset(live[slot], slot, size);
            sizes[slot] = size;
        }
    }
    for (int i = 0; i < LIVE; i++)
        if (live[i])
            bad += mem_free(context, live[i]) != CL_SUCCESS;
    return (void *)(intptr_t)bad;
}

TEST(threads)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, churn, (void *)(uintptr_t)(i + 1));
    int bad = 0;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(t[i], &r);
        bad += (int)(intptr_t)r;
    }
    CHECK(bad == 0, "%d wrong answers", bad);
}

/* ---- allocations left to the context ----------------------------------------------------- */

/* Bytes the process's malloc has handed out (the CPU device's allocations
 * are the process's heap). */
static size_t heap_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

TEST(context_release)
{
    enum { SIZE = 8 << 20 };
    cl_int err = 0;
    cl_context own = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(own, device, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    char *h = host_alloc(own, NULL, SIZE, 0, &err);
    char *d = device_alloc(own, device, NULL, SIZE, 0, &err);
    char *s = shared_alloc(own, NULL, NULL, SIZE, 0, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!h || !d || !s)
        return;
    /* a copy still pending when the application lets go of the context:
     * the queue holds the context, so the memory outlives the command */
    cl_event gate = clCreateUserEvent(own, &err);
    OK(mem_fill(q, d, "abcd", 4, SIZE, 1, &gate, NULL));
    OK(mem_copy(q, CL_FALSE, s, d, SIZE, 0, NULL, NULL));
    size_t before = heap_in_use();
    OK(clReleaseCommandQueue(q));
    OK(clReleaseContext(own));
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clReleaseEvent(gate));
    /* h, d and s go once the queue's commands end (on a worker: poll) */
    size_t after = heap_in_use();
    for (int i = 0; i < 500 && after + 3 * (size_t)SIZE > before + SIZE / 2; i++) {
        struct timespec t = { 0, 10 * 1000 * 1000 };
        nanosleep(&t, NULL);
        after = heap_in_use();
    }
    CHECK(after + 3 * (size_t)SIZE <= before + SIZE / 2, "heap %zu bytes before, %zu after", before, after);
    /* this context's allocations remain */
    char *mine = host_alloc(context, NULL, 64, 0, &err);
    CHECK_ERR(err, CL_SUCCESS);
    size_t size = 0;
    OK(alloc_info(context, mine, CL_MEM_ALLOC_SIZE_INTEL, sizeof size, &size, NULL));
    CHECK(size == 64);
    OK(mem_free(context, mine));
}

int main(int argc, char **argv)
{
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    queue = clCreateCommandQueueWithProperties(context, device, NULL, NULL);
    program = test_build_program(context, device, source, "-cl-std=CL3.0");
    if (program && find_functions())
        test_run(argc, argv);
    if (program)
        clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return test_summary();
}
