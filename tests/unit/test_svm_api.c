/*
 * The SVM entry points (api/svm.c), linked with Mosaic's objects: every
 * function and its error cases, the data that memcpy, fill and map leave,
 * the allocation registry behind CL_MEM_USES_SVM_POINTER, clEnqueueSVMFree
 * with and without a callback, what a device without SVM answers, and the
 * allocation limits.
 *
 *   usage: test_svm_api [case|group|--list]   (test_svm_api.list; none: all)
 *   group svm_api            every case but the one below
 *   group svm_alloc_failure  alloc_failure: clCreateBuffer / clSVMAlloc
 *                            under an address-space limit (RLIMIT_AS) fail
 *                            cleanly and the process carries on (it runs
 *                            in a process of its own under ctest)
 */
#define _GNU_SOURCE
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define TEST_LIST "test_svm_api.list"
#include "test.h"
#include "api/memory.h"
#include "core/objects.h"

#define OK(expr) CHECK_ERR(expr, CL_SUCCESS)

static cl_platform_id platform;
static cl_device_id device;
static cl_context context, other_context;
static cl_command_queue queue;

static const cl_svm_mem_flags valid_flags[] = {
    0,
    CL_MEM_READ_WRITE,
    CL_MEM_WRITE_ONLY,
    CL_MEM_READ_ONLY,
    CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
    CL_MEM_WRITE_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER,
    CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER,
    CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
    CL_MEM_WRITE_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
    CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static cl_ulong device_ulong(cl_device_info what)
{
    cl_ulong v = 0;
    OK(clGetDeviceInfo(device, what, sizeof v, &v, NULL));
    return v;
}

static cl_command_type command_type(cl_event e)
{
    cl_command_type t = 0;
    OK(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    return t;
}

static cl_bool uses_svm_pointer(void *host_ptr, size_t size)
{
    cl_int err = 0;
    cl_mem b = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, size, host_ptr, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!b)
        return CL_FALSE;
    cl_bool uses = 2;
    OK(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
    if (size >= 256) { /* a sub-buffer says what its parent says */
        cl_buffer_region r = { 128, 128 };
        cl_mem sub = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_bool sub_uses = 2;
        OK(clGetMemObjectInfo(sub, CL_MEM_USES_SVM_POINTER, sizeof sub_uses, &sub_uses, NULL));
        CHECK(sub_uses == uses);
        OK(clReleaseMemObject(sub));
    }
    OK(clReleaseMemObject(b));
    return uses;
}

/* ---- capabilities ---------------------------------------------------------------------- */

TEST(capabilities)
{
    cl_device_svm_capabilities caps = device_ulong(CL_DEVICE_SVM_CAPABILITIES);
    CHECK(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
    CHECK(caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER);
    CHECK(caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM);
    CHECK(!(caps & ~(cl_device_svm_capabilities)(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                                                  CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS)));
    /* SVM atomics need all-devices scope in kernels */
    if (caps & CL_DEVICE_SVM_ATOMICS) {
        cl_device_atomic_capabilities atomics = device_ulong(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
        CHECK(atomics & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
    }
}

/* ---- clSVMAlloc and clSVMFree ------------------------------------------------------------ */

TEST(alloc_and_free)
{
    cl_ulong max_alloc = device_ulong(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    cl_uint min_align = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, sizeof min_align, &min_align, NULL));
    CHECK(min_align == 128);

    /* every valid flag combination, default alignment: writable, 128-aligned */
    for (size_t i = 0; i < COUNT(valid_flags); i++) {
        unsigned char *p = clSVMAlloc(context, valid_flags[i], 1000, 0);
        CHECK(p != NULL);
        if (!p)
            continue;
        CHECK((uintptr_t)p % 128 == 0);
        memset(p, (int)i, 1000);
        CHECK(p[999] == (unsigned char)i);
        clSVMFree(context, p);
    }
    /* every power-of-two alignment up to long16 */
    for (cl_uint a = 1; a <= 128; a *= 2) {
        void *p = clSVMAlloc(context, CL_MEM_READ_WRITE, 3 * a + 1, a);
        CHECK(p != NULL && (uintptr_t)p % a == 0);
        clSVMFree(context, p);
    }
    /* failures: NULL, nothing else */
    CHECK(clSVMAlloc(NULL, 0, 64, 0) == NULL);
    CHECK(clSVMAlloc((cl_context)queue, 0, 64, 0) == NULL);
    CHECK(clSVMAlloc(context, CL_MEM_USE_HOST_PTR, 64, 0) == NULL);
    CHECK(clSVMAlloc(context, CL_MEM_ALLOC_HOST_PTR, 64, 0) == NULL);
    CHECK(clSVMAlloc(context, CL_MEM_HOST_READ_ONLY, 64, 0) == NULL);
    CHECK(clSVMAlloc(context, (cl_svm_mem_flags)1 << 40, 64, 0) == NULL);
    CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0) == NULL);
    CHECK(clSVMAlloc(context, CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 64, 0) == NULL);
    CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, 64, 0) == NULL);
    CHECK(clSVMAlloc(context, CL_MEM_SVM_ATOMICS, 64, 0) == NULL);
    CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 64, 0) == NULL);
    CHECK(clSVMAlloc(context, 0, 0, 0) == NULL);
    CHECK(clSVMAlloc(context, 0, (size_t)max_alloc + 1, 0) == NULL);
    CHECK(clSVMAlloc(context, 0, SIZE_MAX, 0) == NULL);
    CHECK(clSVMAlloc(context, 0, 64, 3) == NULL);
    CHECK(clSVMAlloc(context, 0, 64, 48) == NULL);
    CHECK(clSVMAlloc(context, 0, 64, 256) == NULL);
    CHECK(clSVMAlloc(context, 0, 64, 0x80000000u) == NULL);

    /* clSVMFree: NULL, a bad context, a pointer that is not an SVM allocation,
     * an allocation of another context: no action (and no crash) */
    clSVMFree(context, NULL);
    clSVMFree(NULL, NULL);
    int on_stack[4] = { 1, 2, 3, 4 };
    clSVMFree(context, on_stack);
    CHECK(on_stack[3] == 4);
    char *mine = clSVMAlloc(context, 0, 256, 0);
    clSVMFree(other_context, mine); /* not other_context's: ignored */
    clSVMFree(NULL, mine);          /* ignored */
    clSVMFree(context, mine + 1);   /* not the start: ignored */
    CHECK(uses_svm_pointer(mine, 256) == CL_TRUE);
    clSVMFree(context, mine);

    /* many allocations at once: each is its own range in the registry */
    enum { N = 300 };
    char *ptrs[N];
    for (int i = 0; i < N; i++) {
        ptrs[i] = clSVMAlloc(context, i % 2 ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0, 64 + (size_t)i * 8, 0);
        CHECK(ptrs[i] != NULL);
    }
    for (int i = 0; i < N; i += 3) /* free a third, in an order unlike allocation's */
        clSVMFree(context, ptrs[N - 1 - i]);
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        bool freed = (N - 1 - i) % 3 == 0;
        if (!freed) {
            const void *start = ptrs[i], *last = ptrs[i] + 64 + i * 8 - 1;
            size_t zero = 0;
            /* still registered: migrating its first and last byte is fine */
            const void *pp[2] = { start, last };
            size_t sizes[2] = { zero, 1 };
            wrong += clEnqueueSVMMigrateMem(queue, 2, pp, sizes, 0, 0, NULL, NULL) != CL_SUCCESS;
            clSVMFree(context, ptrs[i]);
        }
    }
    CHECK(wrong == 0);
    OK(clFinish(queue));
}

/* Tens of thousands of allocations, freed in the order they were made (the
 * worst order for a sorted array): every byte of each is found while it
 * lives, the bytes just outside are not, and the whole run stays quick. */
TEST(many_allocations)
{
    enum { N = 50000 };
    char **p = malloc(N * sizeof *p);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int failed = 0, wrong = 0;
    for (int i = 0; i < N; i++)
        failed += !(p[i] = clSVMAlloc(context, i % 3 ? 0 : CL_MEM_SVM_FINE_GRAIN_BUFFER, 40 + i % 200, 0));
    CHECK(failed == 0);
    for (int i = 0; i < N && !failed; i++) {
        size_t size = 40 + i % 200;
        wrong += !mosaic_svm_contains(context, p[i]) || !mosaic_svm_contains(context, p[i] + size - 1) ||
                 !mosaic_svm_contains(context, p[i] + size / 2) || mosaic_svm_contains(other_context, p[i]);
        /* allocations are whole 128-byte blocks: the byte after an asked
         * size that is not a multiple of 128 is padding, no allocation's */
        if (size % 128)
            wrong += mosaic_svm_contains(context, p[i] + size);
    }
    CHECK(wrong == 0);
    for (int i = 0; i < N && !failed; i++)
        clSVMFree(context, p[i]);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    wrong = 0;
    for (int i = 0; i < N && !failed; i += 97)
        wrong += mosaic_svm_contains(context, p[i]);
    CHECK(wrong == 0);
    CHECK(!mosaic_svm_contains(context, NULL));
    printf("%d SVM allocations made, checked and freed in %.3f s\n", N,
           (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    free(p);
}

/* The registry behind CL_MEM_USES_SVM_POINTER. */
TEST(uses_svm_pointer_flag)
{
    char *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, 4096, 0);
    char *fine = clSVMAlloc(context, CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 0);
    char *theirs = clSVMAlloc(other_context, 0, 4096, 0);
    void *plain = aligned_alloc(128, 4096);
    CHECK(svm && fine && theirs && plain);
    CHECK(uses_svm_pointer(svm, 4096) == CL_TRUE);
    CHECK(uses_svm_pointer(svm + 1024, 1024) == CL_TRUE); /* inside the allocation */
    CHECK(uses_svm_pointer(svm + 4095, 1) == CL_TRUE);     /* its last byte */
    CHECK(uses_svm_pointer(fine, 4096) == CL_TRUE);
    CHECK(uses_svm_pointer(plain, 4096) == CL_FALSE);     /* malloc memory is not an SVM allocation */
    CHECK(uses_svm_pointer(theirs, 4096) == CL_FALSE);    /* another context's */
    /* a buffer over SVM memory sees the same bytes */
    cl_int err = 0;
    cl_mem b = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 4096, svm, &err);
    CHECK_ERR(err, CL_SUCCESS);
    memset(svm, 0x5a, 4096);
    char back[16] = { 0 };
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 100, sizeof back, back, 0, NULL, NULL));
    CHECK(back[0] == 0x5a && back[15] == 0x5a);
    void *host = NULL;
    OK(clGetMemObjectInfo(b, CL_MEM_HOST_PTR, sizeof host, &host, NULL));
    CHECK(host == svm);
    OK(clReleaseMemObject(b));
    clSVMFree(context, svm);
    clSVMFree(context, fine);
    clSVMFree(other_context, theirs);
    free(plain);
}

/* ---- clEnqueueSVMMemcpy ---------------------------------------------------------------------- */

TEST(memcpy_cases)
{
    enum { N = 1 << 16 };
    unsigned char *a = clSVMAlloc(context, 0, N, 0);
    unsigned char *f = clSVMAlloc(context, CL_MEM_SVM_FINE_GRAIN_BUFFER, N, 0);
    unsigned char *host = malloc(N), *back = malloc(N);
    for (int i = 0; i < N; i++)
        host[i] = (unsigned char)(i * 7 + 3);

    /* host -> coarse SVM (blocking), coarse -> fine (event), fine -> host */
    OK(clEnqueueSVMMemcpy(queue, CL_TRUE, a, host, N, 0, NULL, NULL));
    CHECK(memcmp(a, host, N) == 0);
    cl_event e = NULL;
    OK(clEnqueueSVMMemcpy(queue, CL_FALSE, f, a, N, 0, NULL, &e));
    OK(clWaitForEvents(1, &e));
    CHECK(command_type(e) == CL_COMMAND_SVM_MEMCPY);
    OK(clReleaseEvent(e));
    memset(back, 0, N);
    OK(clEnqueueSVMMemcpy(queue, CL_TRUE, back, f, N, 0, NULL, NULL));
    CHECK(memcmp(back, host, N) == 0);
    /* within one allocation, not overlapping: touching ranges are fine */
    OK(clEnqueueSVMMemcpy(queue, CL_TRUE, a + 1000, a, 1000, 0, NULL, NULL));
    CHECK(memcmp(a + 1000, host, 1000) == 0);
    OK(clEnqueueSVMMemcpy(queue, CL_TRUE, a, a + 1000, 1000, 0, NULL, NULL));
    /* plain host memory on both sides is allowed too (fine-grained system SVM) */
    memset(back, 0, N);
    OK(clEnqueueSVMMemcpy(queue, CL_TRUE, back, host, 4096, 0, NULL, NULL));
    CHECK(memcmp(back, host, 4096) == 0);
    /* size 0: nothing happens */
    OK(clEnqueueSVMMemcpy(queue, CL_TRUE, back, a, 0, 0, NULL, NULL));

    /* ordering: a non-blocking copy waits for its wait list */
    cl_int err = 0;
    cl_event gate = clCreateUserEvent(context, &err);
    CHECK_ERR(err, CL_SUCCESS);
    memset(back, 0, 64);
    OK(clEnqueueSVMMemcpy(queue, CL_FALSE, back, host, 64, 1, &gate, &e));
    usleep(20000);
    CHECK(back[10] == 0); /* not yet */
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clWaitForEvents(1, &e));
    CHECK(back[10] == host[10]);
    OK(clReleaseEvent(e));
    OK(clReleaseEvent(gate));
    /* a blocking copy after a failed event */
    gate = clCreateUserEvent(context, &err);
    back[5] = 0;
    OK(clSetUserEventStatus(gate, -42));
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, back, host, 64, 1, &gate, NULL),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(back[5] == 0); /* it did not run */
    OK(clReleaseEvent(gate));

    /* errors */
    CHECK_ERR(clEnqueueSVMMemcpy(NULL, CL_TRUE, back, a, 64, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueSVMMemcpy((cl_command_queue)context, CL_TRUE, back, a, 64, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, NULL, a, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, back, NULL, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, a, a, 64, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, a + 10, a, 64, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, a, a + 63, 64, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, host + 1, host, 2, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, back, (void *)(UINTPTR_MAX - 8), 64, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, back, a, 64, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event bogus = (cl_event)queue;
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, back, a, 64, 0, &bogus, NULL), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, back, a, 64, 1, &bogus, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event foreign = clCreateUserEvent(other_context, &err);
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, back, a, 64, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    OK(clSetUserEventStatus(foreign, CL_COMPLETE)); /* else the graph keeps it */
    OK(clReleaseEvent(foreign));

    clSVMFree(context, a);
    clSVMFree(context, f);
    free(host);
    free(back);
}

/* ---- clEnqueueSVMMemFill ---------------------------------------------------------------------- */

TEST(fill_cases)
{
    enum { N = 1 << 14 };
    unsigned char *p = clSVMAlloc(context, 0, N, 0);
    unsigned char pattern[128];
    for (int i = 0; i < 128; i++)
        pattern[i] = (unsigned char)(i + 1);
    int bad = 0;
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        memset(p, 0xee, N);
        size_t offset = 3 * ps, size = ps * (N / ps / 2 + 1);
        cl_event e = NULL;
        OK(clEnqueueSVMMemFill(queue, p + offset, pattern, ps, size, 0, NULL, &e));
        OK(clWaitForEvents(1, &e));
        CHECK(command_type(e) == CL_COMMAND_SVM_MEMFILL);
        OK(clReleaseEvent(e));
        for (size_t i = 0; i < N; i++) {
            unsigned char want = i < offset || i >= offset + size ? 0xee : pattern[(i - offset) % ps];
            bad += p[i] != want;
        }
    }
    CHECK(bad == 0);
    /* a uniform pattern, and a fill of plain host memory */
    unsigned int ones = 0x01010101u;
    unsigned int *host = malloc(4096);
    OK(clEnqueueSVMMemFill(queue, host, &ones, sizeof ones, 4096, 0, NULL, NULL));
    OK(clEnqueueSVMMemFill(queue, p, pattern, 16, 0, 0, NULL, NULL)); /* size 0: nothing */
    OK(clFinish(queue));
    CHECK(host[0] == 0x01010101u && host[1023] == 0x01010101u);
    /* the pattern is copied at enqueue time */
    cl_int err = 0;
    cl_event gate = clCreateUserEvent(context, &err);
    unsigned short word = 0x1234;
    OK(clEnqueueSVMMemFill(queue, p, &word, sizeof word, 64, 1, &gate, NULL));
    word = 0;
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clFinish(queue));
    CHECK(((unsigned short *)p)[31] == 0x1234);
    OK(clReleaseEvent(gate));

    /* errors */
    CHECK_ERR(clEnqueueSVMMemFill(NULL, p, pattern, 4, 64, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueSVMMemFill(queue, NULL, pattern, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemFill(queue, p, NULL, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemFill(queue, p, pattern, 0, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemFill(queue, p, pattern, 3, 63, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemFill(queue, p, pattern, 256, 256, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMemFill(queue, p + 2, pattern, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE); /* misaligned */
    CHECK_ERR(clEnqueueSVMMemFill(queue, p, pattern, 4, 66, 0, NULL, NULL), CL_INVALID_VALUE);     /* not a multiple */
    CHECK_ERR(clEnqueueSVMMemFill(queue, p, pattern, 4, 64, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event foreign = clCreateUserEvent(other_context, &err);
    CHECK_ERR(clEnqueueSVMMemFill(queue, p, pattern, 4, 64, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    OK(clSetUserEventStatus(foreign, CL_COMPLETE)); /* else the graph keeps it */
    OK(clReleaseEvent(foreign));
    free(host);
    clSVMFree(context, p);
}

/* ---- clEnqueueSVMMap and clEnqueueSVMUnmap ------------------------------------------------------ */

TEST(map_cases)
{
    enum { N = 8192 };
    int *p = clSVMAlloc(context, CL_MEM_READ_WRITE, N * sizeof(int), 0);
    cl_event e = NULL;
    /* write through a map, read back through a map */
    OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, p, N * sizeof(int), 0, NULL, &e));
    CHECK(command_type(e) == CL_COMMAND_SVM_MAP);
    OK(clReleaseEvent(e));
    for (int i = 0; i < N; i++)
        p[i] = i * i;
    OK(clEnqueueSVMUnmap(queue, p, 0, NULL, &e));
    OK(clWaitForEvents(1, &e));
    CHECK(command_type(e) == CL_COMMAND_SVM_UNMAP);
    OK(clReleaseEvent(e));
    int *copy = malloc(N * sizeof(int));
    OK(clEnqueueSVMMemcpy(queue, CL_TRUE, copy, p, N * sizeof(int), 0, NULL, NULL));
    CHECK(copy[N - 1] == (N - 1) * (N - 1) && copy[77] == 77 * 77);
    /* a map after a fill sees the fill (in-order queue, non-blocking map + event) */
    int seven = 7;
    OK(clEnqueueSVMMemFill(queue, p + 1024, &seven, sizeof seven, 1024 * sizeof(int), 0, NULL, NULL));
    OK(clEnqueueSVMMap(queue, CL_FALSE, CL_MAP_READ, p + 1024, 1024 * sizeof(int), 0, NULL, &e));
    OK(clWaitForEvents(1, &e));
    OK(clReleaseEvent(e));
    CHECK(p[1024] == 7 && p[2047] == 7 && p[2048] == 2048 * 2048);
    OK(clEnqueueSVMUnmap(queue, p + 1024, 0, NULL, NULL));
    /* a map waits for its wait list; a blocking one reports a failed event */
    cl_int err = 0;
    cl_event gate = clCreateUserEvent(context, &err);
    OK(clEnqueueSVMMap(queue, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, p, 64, 1, &gate, &e));
    usleep(10000);
    cl_int status = 0;
    OK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status > CL_COMPLETE);
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clWaitForEvents(1, &e));
    OK(clReleaseEvent(e));
    OK(clReleaseEvent(gate));
    OK(clEnqueueSVMUnmap(queue, p, 0, NULL, NULL));
    gate = clCreateUserEvent(context, &err);
    OK(clSetUserEventStatus(gate, -5));
    CHECK_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, p, 64, 1, &gate, NULL),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    OK(clReleaseEvent(gate));
    OK(clFinish(queue));

    /* errors */
    CHECK_ERR(clEnqueueSVMMap(NULL, CL_TRUE, CL_MAP_READ, p, 64, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, NULL, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, p, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, p, 64, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMap(queue, CL_TRUE, (cl_map_flags)1 << 20, p, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, p, 64, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_ERR(clEnqueueSVMUnmap(NULL, p, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueSVMUnmap(queue, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMUnmap(queue, p, 0, (cl_event *)&p, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event foreign = clCreateUserEvent(other_context, &err);
    CHECK_ERR(clEnqueueSVMUnmap(queue, p, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, p, 64, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    OK(clSetUserEventStatus(foreign, CL_COMPLETE)); /* else the graph keeps it */
    OK(clReleaseEvent(foreign));
    free(copy);
    clSVMFree(context, p);
}

/* ---- clEnqueueSVMMigrateMem --------------------------------------------------------------------- */

TEST(migrate_cases)
{
    char *a = clSVMAlloc(context, 0, 4096, 0);
    char *b = clSVMAlloc(context, CL_MEM_SVM_FINE_GRAIN_BUFFER, 1024, 0);
    char *theirs = clSVMAlloc(other_context, 0, 1024, 0);
    const void *ptrs[3] = { a, b + 100, a + 4000 };
    size_t sizes[3] = { 4096, 0, 96 };
    cl_event e = NULL;
    OK(clEnqueueSVMMigrateMem(queue, 3, ptrs, sizes, 0, 0, NULL, &e));
    OK(clWaitForEvents(1, &e));
    CHECK(command_type(e) == CL_COMMAND_SVM_MIGRATE_MEM);
    OK(clReleaseEvent(e));
    OK(clEnqueueSVMMigrateMem(queue, 3, ptrs, NULL, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    OK(clEnqueueSVMMigrateMem(queue, 1, ptrs, NULL,
                              CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL));
    /* errors */
    CHECK_ERR(clEnqueueSVMMigrateMem(NULL, 1, ptrs, NULL, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueSVMMigrateMem(queue, 0, ptrs, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMigrateMem(queue, 1, NULL, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMigrateMem(queue, 1, ptrs, NULL, (cl_mem_migration_flags)1 << 9, 0, NULL, NULL),
              CL_INVALID_VALUE);
    size_t too_long[1] = { 4097 };
    CHECK_ERR(clEnqueueSVMMigrateMem(queue, 1, ptrs, too_long, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    const void *past_end[1] = { a + 4000 };
    size_t ninety_seven[1] = { 97 };
    CHECK_ERR(clEnqueueSVMMigrateMem(queue, 1, past_end, ninety_seven, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    int local = 0;
    const void *not_svm[1] = { &local };
    CHECK_ERR(clEnqueueSVMMigrateMem(queue, 1, not_svm, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    const void *null_entry[2] = { a, NULL };
    CHECK_ERR(clEnqueueSVMMigrateMem(queue, 2, null_entry, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    const void *foreign_ptr[1] = { theirs };
    CHECK_ERR(clEnqueueSVMMigrateMem(queue, 1, foreign_ptr, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMMigrateMem(queue, 1, ptrs, NULL, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    OK(clFinish(queue));
    clSVMFree(context, a);
    clSVMFree(context, b);
    clSVMFree(other_context, theirs);
}

/* ---- clEnqueueSVMFree --------------------------------------------------------------------------- */

static atomic_int free_calls;
static cl_command_queue free_seen_queue;
static void *free_seen_ptrs[4];
static cl_uint free_seen_count;
static void *free_seen_data;

static void CL_CALLBACK free_callback(cl_command_queue q, cl_uint n, void *ptrs[], void *user_data)
{
    free_seen_queue = q;
    free_seen_count = n;
    for (cl_uint i = 0; i < n && i < 4; i++)
        free_seen_ptrs[i] = ptrs[i];
    free_seen_data = user_data;
    /* the callback frees: SVM allocations with clSVMFree, system memory with free */
    for (cl_uint i = 0; i < n; i++) {
        if (i == n - 1)
            free(ptrs[i]);
        else
            clSVMFree(context, ptrs[i]);
    }
    atomic_fetch_add(&free_calls, 1);
}

static bool is_registered(void *p)
{
    const void *pp[1] = { p };
    return clEnqueueSVMMigrateMem(queue, 1, pp, NULL, 0, 0, NULL, NULL) == CL_SUCCESS;
}

TEST(enqueue_free_cases)
{
    /* default free, after a gate */
    cl_int err = 0;
    void *p = clSVMAlloc(context, 0, 512, 0), *q = clSVMAlloc(context, CL_MEM_SVM_FINE_GRAIN_BUFFER, 512, 0);
    cl_event gate = clCreateUserEvent(context, &err), e = NULL;
    void *list[3] = { p, NULL, q }; /* NULL entries are skipped, as by clSVMFree */
    OK(clEnqueueSVMFree(queue, 3, list, NULL, NULL, 1, &gate, &e));
    list[0] = list[2] = NULL; /* the list was copied */
    usleep(10000);
    CHECK(is_registered(p) && is_registered(q)); /* not yet */
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clWaitForEvents(1, &e));
    CHECK(command_type(e) == CL_COMMAND_SVM_FREE);
    CHECK(!is_registered(p) && !is_registered(q));
    OK(clReleaseEvent(e));
    OK(clReleaseEvent(gate));

    /* with a callback: called once, with the queue, a copy of the list, user_data */
    void *a = clSVMAlloc(context, 0, 64, 0), *b = clSVMAlloc(context, 0, 64, 0), *sys = malloc(64);
    void *list2[3] = { a, b, sys };
    int tag = 0;
    OK(clEnqueueSVMFree(queue, 3, list2, free_callback, &tag, 0, NULL, &e));
    list2[0] = NULL;
    OK(clWaitForEvents(1, &e));
    OK(clReleaseEvent(e));
    CHECK(atomic_load(&free_calls) == 1);
    CHECK(free_seen_queue == queue && free_seen_count == 3 && free_seen_data == &tag);
    CHECK(free_seen_ptrs[0] == a && free_seen_ptrs[1] == b && free_seen_ptrs[2] == sys);
    CHECK(!is_registered(a) && !is_registered(b));

    /* nothing to free is a valid command */
    OK(clEnqueueSVMFree(queue, 0, NULL, NULL, NULL, 0, NULL, &e));
    OK(clWaitForEvents(1, &e));
    OK(clReleaseEvent(e));
    /* a failed wait list: the command fails and frees nothing */
    void *kept = clSVMAlloc(context, 0, 64, 0);
    gate = clCreateUserEvent(context, &err);
    OK(clEnqueueSVMFree(queue, 1, &kept, NULL, NULL, 1, &gate, &e));
    OK(clSetUserEventStatus(gate, -1));
    CHECK_ERR(clWaitForEvents(1, &e), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(is_registered(kept));
    OK(clReleaseEvent(e));
    OK(clReleaseEvent(gate));

    /* errors */
    CHECK_ERR(clEnqueueSVMFree(NULL, 1, &kept, NULL, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueSVMFree(queue, 0, &kept, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMFree(queue, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueSVMFree(queue, 1, &kept, NULL, NULL, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    void *plain = malloc(16); /* not an SVM allocation, and no callback to free it */
    CHECK_ERR(clEnqueueSVMFree(queue, 1, &plain, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    void *inner = (char *)kept + 8; /* not the start of an allocation */
    CHECK_ERR(clEnqueueSVMFree(queue, 1, &inner, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    void *theirs = clSVMAlloc(other_context, 0, 64, 0);
    CHECK_ERR(clEnqueueSVMFree(queue, 1, &theirs, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_event foreign = clCreateUserEvent(other_context, &err);
    CHECK_ERR(clEnqueueSVMFree(queue, 1, &kept, NULL, NULL, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    OK(clSetUserEventStatus(foreign, CL_COMPLETE)); /* else the graph keeps it */
    OK(clReleaseEvent(foreign));
    CHECK(is_registered(kept));
    free(plain);
    clSVMFree(other_context, theirs);
    /* the ordered way to free: the last command of the queue */
    OK(clEnqueueSVMFree(queue, 1, &kept, NULL, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
    CHECK(!is_registered(kept));
}

/* ---- the registry from many threads ------------------------------------------------------------ */

enum { RACE_THREADS = 4, RACE_ROUNDS = 2000 };
static atomic_int race_errors;

static void *registry_racer(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg;
    char *mine[8] = { 0 };
    for (int round = 0; round < RACE_ROUNDS; round++) {
        int slot = (int)(rand_r(&seed) % 8);
        if (mine[slot]) {
            /* still ours, byte for byte, and registered at both ends */
            size_t size = 64 + (size_t)slot * 40;
            if (mine[slot][0] != (char)slot || mine[slot][size - 1] != (char)slot ||
                !uses_svm_pointer(mine[slot] + size - 1, 1))
                atomic_fetch_add(&race_errors, 1);
            clSVMFree(context, mine[slot]);
            mine[slot] = NULL;
        } else {
            size_t size = 64 + (size_t)slot * 40;
            mine[slot] = clSVMAlloc(context, slot % 2 ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0, size, 0);
            if (!mine[slot]) {
                atomic_fetch_add(&race_errors, 1);
                continue;
            }
            memset(mine[slot], slot, size);
        }
    }
    for (int i = 0; i < 8; i++)
        clSVMFree(context, mine[i]);
    return NULL;
}

TEST(registry_threads)
{
    pthread_t threads[RACE_THREADS];
    for (int i = 0; i < RACE_THREADS; i++)
        pthread_create(&threads[i], NULL, registry_racer, (void *)(uintptr_t)(i + 1));
    for (int i = 0; i < RACE_THREADS; i++)
        pthread_join(threads[i], NULL);
    CHECK(atomic_load(&race_errors) == 0);
}

/* An SVM allocation keeps its context alive: released by the user first, the
 * context is destroyed by the clSVMFree of its last allocation. */
static atomic_int context_destroyed;
static void CL_CALLBACK on_context_destroyed(cl_context c, void *data)
{
    atomic_fetch_add(&context_destroyed, 1);
}

TEST(context_lifetime)
{
    cl_int err = 0;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    OK(clSetContextDestructorCallback(ctx, on_context_destroyed, NULL));
    int *p = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 0);
    CHECK(p != NULL);
    OK(clReleaseContext(ctx));
    usleep(10000);
    CHECK(atomic_load(&context_destroyed) == 0);
    p[1023] = 1; /* still memory */
    clSVMFree(ctx, p);
    for (int i = 0; i < 2000 && atomic_load(&context_destroyed) == 0; i++)
        usleep(1000);
    CHECK(atomic_load(&context_destroyed) == 1);
}

/* ---- a device without SVM: what the API answers ------------------------------------------------ */

TEST(no_svm_device)
{
    cl_device_svm_capabilities saved = device->svm_capabilities;
    void *p = clSVMAlloc(context, 0, 64, 0); /* made while SVM is on */
    device->svm_capabilities = 0;
    CHECK(clSVMAlloc(context, 0, 64, 0) == NULL);
    const void *pp[1] = { p };
    int pattern = 0;
    char host[64];
    CHECK_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, host, p, 64, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueSVMMemFill(queue, p, &pattern, 4, 64, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, p, 64, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueSVMUnmap(queue, p, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueSVMFree(queue, 1, &p, NULL, NULL, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueSVMMigrateMem(queue, 1, pp, NULL, 0, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueSVMMemcpy(NULL, CL_TRUE, host, p, 64, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    /* fine-grained or atomic allocations need every device to support them */
    device->svm_capabilities = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
    void *coarse = clSVMAlloc(context, 0, 64, 0);
    CHECK(coarse != NULL);
    CHECK(clSVMAlloc(context, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0) == NULL);
    device->svm_capabilities = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER;
    void *fine = clSVMAlloc(context, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0);
    CHECK(fine != NULL);
    CHECK(clSVMAlloc(context, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 64, 0) == NULL);
    device->svm_capabilities = saved;
    clSVMFree(context, coarse);
    clSVMFree(context, fine);
    clSVMFree(context, p);
}

/* ---- allocation limits ------------------------------------------------------------------------- */

TEST(limits)
{
    cl_ulong global = device_ulong(CL_DEVICE_GLOBAL_MEM_SIZE);
    cl_ulong max_alloc = device_ulong(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    cl_ulong physical = (cl_ulong)pages * (cl_ulong)page;
    /* the machine's memory (or less, under a cgroup limit), never more */
    CHECK(global > 0 && global <= physical);
    /* the spec's minimum for a full-profile, non-custom device:
     * max(min(1 GiB, global / 4), 32 MiB), and at most the global size */
    cl_ulong quarter = global / 4, gib = (cl_ulong)1 << 30, floor = quarter < gib ? quarter : gib;
    if (floor < ((cl_ulong)32 << 20))
        floor = (cl_ulong)32 << 20;
    CHECK(max_alloc >= floor);
    CHECK(max_alloc <= global);
    printf("global memory %llu MiB, largest allocation %llu MiB\n", (unsigned long long)(global >> 20),
           (unsigned long long)(max_alloc >> 20));

    /* above the limit: CL_INVALID_BUFFER_SIZE and NULL, nothing allocated */
    cl_int err = 0;
    CHECK(clCreateBuffer(context, CL_MEM_READ_WRITE, (size_t)max_alloc + 1, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
    CHECK(clCreateBuffer(context, CL_MEM_READ_WRITE, SIZE_MAX, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
    CHECK(clSVMAlloc(context, CL_MEM_READ_WRITE, (size_t)max_alloc + 1, 0) == NULL);
    CHECK(clSVMAlloc(context, CL_MEM_SVM_FINE_GRAIN_BUFFER, (size_t)max_alloc + 1, 0) == NULL);
}

/* Under an address-space limit a few tens of MiB above what the process
 * already uses, an allocation of CL_DEVICE_MAX_MEM_ALLOC_SIZE bytes (valid
 * by size, impossible in fact) fails with CL_MEM_OBJECT_ALLOCATION_FAILURE
 * or NULL, the context is told, and small allocations still work. */
static atomic_int notified;
static void CL_CALLBACK notify(const char *errinfo, const void *info, size_t cb, void *data)
{
    atomic_fetch_add(&notified, 1);
}

static atomic_int warm_callbacks;
static void CL_CALLBACK warmed_up(cl_event e, cl_int status, void *data)
{
    atomic_fetch_add(&warm_callbacks, 1);
}

static size_t address_space_in_use(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %zu kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib * 1024;
}

TEST(alloc_failure)
{
#if defined(__SANITIZE_ADDRESS__)
    TEST_SKIP("AddressSanitizer aborts on a failed allocation");
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    TEST_SKIP("AddressSanitizer aborts on a failed allocation");
#endif
#endif
    cl_int err = 0;
    cl_context ctx = clCreateContext(NULL, 1, &device, notify, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_ulong max_alloc = device_ulong(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    /* start the workers and the callback thread before the limit */
    int warm = 0;
    cl_event e = NULL;
    OK(clEnqueueSVMMemFill(q, &warm, &warm, sizeof warm, sizeof warm, 0, NULL, &e));
    OK(clSetEventCallback(e, CL_COMPLETE, warmed_up, NULL));
    OK(clWaitForEvents(1, &e));
    OK(clReleaseEvent(e));
    for (int i = 0; i < 2000 && atomic_load(&warm_callbacks) == 0; i++)
        usleep(1000);
    CHECK(atomic_load(&warm_callbacks) == 1);
    size_t used = address_space_in_use();
    const size_t headroom = (size_t)64 << 20;
    CHECK(used > 0 && max_alloc > 2 * headroom);
    /* the soft limit only, set back at the end (when the cases run in one process) */
    struct rlimit old, rl;
    getrlimit(RLIMIT_AS, &old);
    rl = (struct rlimit){ used + headroom, old.rlim_max };
    if (setrlimit(RLIMIT_AS, &rl) != 0) {
        perror("setrlimit");
        CHECK(0);
        return;
    }
    size_t huge = (size_t)max_alloc;
    CHECK(clCreateBuffer(ctx, CL_MEM_READ_WRITE, huge, NULL, &err) == NULL);
    CHECK_ERR(err, CL_MEM_OBJECT_ALLOCATION_FAILURE);
    CHECK(clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, huge, NULL, &err) == NULL);
    CHECK_ERR(err, CL_MEM_OBJECT_ALLOCATION_FAILURE);
    CHECK(clSVMAlloc(ctx, CL_MEM_READ_WRITE, huge, 0) == NULL);
    CHECK(clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, huge, 0) == NULL);
    for (int i = 0; i < 2000 && atomic_load(&notified) == 0; i++)
        usleep(1000);
    CHECK(atomic_load(&notified) > 0); /* pfn_notify heard of the failed SVM allocation */

    /* the process carries on: small allocations and commands work */
    cl_mem small = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    int *svm = clSVMAlloc(ctx, 0, 1 << 20, 0);
    CHECK(svm != NULL);
    int five = 5;
    if (svm) {
        OK(clEnqueueSVMMemFill(q, svm, &five, sizeof five, 1 << 20, 0, NULL, NULL));
        OK(clFinish(q));
        CHECK(svm[(1 << 18) - 1] == 5);
        OK(clEnqueueWriteBuffer(q, small, CL_TRUE, 0, 1 << 20, svm, 0, NULL, NULL));
    }
    clSVMFree(ctx, svm);
    if (small)
        OK(clReleaseMemObject(small));
    OK(clReleaseCommandQueue(q));
    OK(clReleaseContext(ctx));
    CHECK(setrlimit(RLIMIT_AS, &old) == 0);
}

int main(int argc, char **argv)
{
    OK(clGetPlatformIDs(1, &platform, NULL));
    OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_int err = 0;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    other_context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!context || !other_context || !queue)
        return test_summary();

    test_run(argc, argv);

    OK(clReleaseCommandQueue(queue));
    OK(clReleaseContext(context));
    OK(clReleaseContext(other_context));
    return test_summary();
}
