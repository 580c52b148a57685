/*
 * Buffers, sub-buffers and buffer commands (api/memory.c,
 * api/enqueue_memory.c), through the public API of libmosaic.so linked
 * directly: every error case the spec names for these functions, and data
 * checked against a host reference.
 */
#define _GNU_SOURCE
#include <CL/cl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_LIST "test_memory.list"
#include "test.h"

/* Under AddressSanitizer a failed allocation aborts unless told otherwise;
 * the allocation-failure test needs malloc to return NULL. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MOSAIC_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(MOSAIC_TEST_ASAN)
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
#endif

#define OK(expr) CHECK_ERR(expr, CL_SUCCESS)

static cl_platform_id platform;
static cl_device_id device;
static cl_context ctx;
static cl_command_queue queue;

static cl_mem buffer(cl_mem_flags flags, size_t size, void *host_ptr)
{
    cl_int err = -1;
    cl_mem m = clCreateBuffer(ctx, flags, size, host_ptr, &err);
    CHECK(err == CL_SUCCESS && m != NULL);
    return m;
}

static cl_int create_error(cl_context c, cl_mem_flags flags, size_t size, void *host_ptr)
{
    cl_int err = 12345;
    cl_mem m = clCreateBuffer(c, flags, size, host_ptr, &err);
    if (m)
        clReleaseMemObject(m);
    return m ? CL_SUCCESS : err;
}

static cl_int sub_error(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size)
{
    cl_buffer_region r = { origin, size };
    cl_int err = 12345;
    cl_mem m = clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    if (m)
        clReleaseMemObject(m);
    return m ? CL_SUCCESS : err;
}

static cl_mem sub(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size)
{
    cl_buffer_region r = { origin, size };
    cl_int err = -1;
    cl_mem m = clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK(err == CL_SUCCESS && m != NULL);
    return m;
}

static void fill_random(void *p, size_t n, unsigned seed)
{
    unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        b[i] = (unsigned char)(seed >> 16);
    }
}

/* ---- creation ------------------------------------------------------------------ */

TEST(create)
{
    cl_ulong max_alloc = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL));
    cl_uint align_bits = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
    CHECK(align_bits == 1024);

    char host[256] = { 0 };
    CHECK_ERR(create_error(NULL, 0, 64, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(create_error((cl_context)queue, 0, 64, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(create_error(ctx, 0, 0, NULL), CL_INVALID_BUFFER_SIZE);
    if (max_alloc < SIZE_MAX)
        CHECK_ERR(create_error(ctx, 0, (size_t)max_alloc + 1, NULL), CL_INVALID_BUFFER_SIZE);
    CHECK_ERR(create_error(ctx, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, NULL), CL_INVALID_VALUE);
    CHECK_ERR(create_error(ctx, CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 64, NULL), CL_INVALID_VALUE);
    CHECK_ERR(create_error(ctx, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, NULL), CL_INVALID_VALUE);
    CHECK_ERR(create_error(ctx, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 64, NULL), CL_INVALID_VALUE);
    CHECK_ERR(create_error(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host), CL_INVALID_VALUE);
    CHECK_ERR(create_error(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host), CL_INVALID_VALUE);
    CHECK_ERR(create_error(ctx, (cl_mem_flags)1 << 40, 64, NULL), CL_INVALID_VALUE);
    CHECK_ERR(create_error(ctx, CL_MEM_USE_HOST_PTR, 64, NULL), CL_INVALID_HOST_PTR);
    CHECK_ERR(create_error(ctx, CL_MEM_COPY_HOST_PTR, 64, NULL), CL_INVALID_HOST_PTR);
    CHECK_ERR(create_error(ctx, 0, 64, host), CL_INVALID_HOST_PTR);
    CHECK_ERR(create_error(ctx, CL_MEM_ALLOC_HOST_PTR, 64, host), CL_INVALID_HOST_PTR);
    /* every legal combination is accepted */
    CHECK_ERR(create_error(ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY |
                           CL_MEM_HOST_NO_ACCESS, 64, host), CL_SUCCESS);
    CHECK_ERR(create_error(ctx, CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY, 1, NULL), CL_SUCCESS);

    /* properties: only the terminator exists in OpenCL 3.0 */
    cl_int err = 0;
    cl_mem_properties bad[] = { 0x4242, 1, 0 };
    CHECK(clCreateBufferWithProperties(ctx, bad, 0, 64, NULL, &err) == NULL && err == CL_INVALID_PROPERTY);
    CHECK(clCreateBufferWithProperties(NULL, NULL, 0, 64, NULL, &err) == NULL && err == CL_INVALID_CONTEXT);
    cl_mem_properties empty[] = { 0 };
    cl_mem withp = clCreateBufferWithProperties(ctx, empty, CL_MEM_READ_ONLY, 100, NULL, &err);
    CHECK(withp && err == CL_SUCCESS);
    size_t sz = 99;
    OK(clGetMemObjectInfo(withp, CL_MEM_PROPERTIES, 0, NULL, &sz));
    CHECK(sz == sizeof(cl_mem_properties));
    cl_mem_properties got[2] = { 7, 7 };
    OK(clGetMemObjectInfo(withp, CL_MEM_PROPERTIES, sizeof got, got, NULL));
    CHECK(got[0] == 0);
    cl_mem nullp = clCreateBufferWithProperties(ctx, NULL, 0, 100, NULL, &err);
    CHECK(nullp && err == CL_SUCCESS);
    OK(clGetMemObjectInfo(nullp, CL_MEM_PROPERTIES, 0, NULL, &sz));
    CHECK(sz == 0);

    /* queries of a plain buffer */
    cl_mem b = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host);
    cl_mem_object_type type = 0;
    OK(clGetMemObjectInfo(b, CL_MEM_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_MEM_OBJECT_BUFFER);
    cl_mem_flags flags = 0;
    OK(clGetMemObjectInfo(b, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags == (CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR));
    size_t size = 0, offset = 99;
    OK(clGetMemObjectInfo(b, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK(size == sizeof host);
    OK(clGetMemObjectInfo(b, CL_MEM_OFFSET, sizeof offset, &offset, NULL));
    CHECK(offset == 0);
    void *hp = (void *)1;
    OK(clGetMemObjectInfo(b, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
    CHECK(hp == NULL); /* only USE_HOST_PTR reports it */
    cl_uint count = 0;
    OK(clGetMemObjectInfo(b, CL_MEM_REFERENCE_COUNT, sizeof count, &count, NULL));
    CHECK(count == 1);
    OK(clRetainMemObject(b));
    OK(clGetMemObjectInfo(b, CL_MEM_REFERENCE_COUNT, sizeof count, &count, NULL));
    CHECK(count == 2);
    OK(clReleaseMemObject(b));
    OK(clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK(count == 0);
    cl_context c = NULL;
    OK(clGetMemObjectInfo(b, CL_MEM_CONTEXT, sizeof c, &c, NULL));
    CHECK(c == ctx);
    cl_mem assoc = (cl_mem)1;
    OK(clGetMemObjectInfo(b, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(assoc == NULL);
    cl_bool svm = CL_TRUE;
    OK(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof svm, &svm, NULL));
    CHECK(svm == CL_FALSE);
    OK(clGetMemObjectInfo(b, CL_MEM_PROPERTIES, 0, NULL, &sz));
    CHECK(sz == 0);
    CHECK_ERR(clGetMemObjectInfo(b, CL_MEM_SIZE, 1, &size, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetMemObjectInfo(b, 0x7777, sizeof size, &size, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof size, &size, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetMemObjectInfo((cl_mem)ctx, CL_MEM_SIZE, sizeof size, &size, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clRetainMemObject(NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);

    /* COPY_HOST_PTR copied the bytes at creation */
    char back[256];
    memset(host, 0x5a, sizeof host);
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    char zero[256] = { 0 };
    CHECK(memcmp(back, zero, sizeof back) == 0);

    /* USE_HOST_PTR reports the pointer */
    static _Alignas(128) char use[512];
    cl_mem u = buffer(CL_MEM_USE_HOST_PTR, sizeof use, use);
    OK(clGetMemObjectInfo(u, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
    CHECK(hp == use);

    /* allocations are 128-byte aligned (seen through a map) */
    for (size_t s = 1; s < 5000; s = s * 3 + 1) {
        cl_mem a = buffer(0, s, NULL);
        void *p = clEnqueueMapBuffer(queue, a, CL_TRUE, CL_MAP_READ, 0, s, 0, NULL, NULL, &err);
        CHECK(err == CL_SUCCESS && ((uintptr_t)p % 128) == 0);
        OK(clEnqueueUnmapMemObject(queue, a, p, 0, NULL, NULL));
        OK(clFinish(queue));
        OK(clReleaseMemObject(a));
    }
    OK(clReleaseMemObject(u));
    OK(clReleaseMemObject(b));
    OK(clReleaseMemObject(withp));
    OK(clReleaseMemObject(nullp));
}

/* Allocation failure is an error code, never a crash: run in a child with a
 * small address-space limit. */
TEST(allocation_failure)
{
    cl_ulong max_alloc = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL));
    if (max_alloc < ((cl_ulong)1 << 30))
        return;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit lim;
        getrlimit(RLIMIT_AS, &lim);
        /* current usage plus 512 MiB: a max-size buffer cannot fit */
        FILE *f = fopen("/proc/self/statm", "r");
        unsigned long pages = 0;
        if (f) {
            if (fscanf(f, "%lu", &pages) != 1)
                pages = 0;
            fclose(f);
        }
        lim.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)512 << 20);
        setrlimit(RLIMIT_AS, &lim);
        cl_int err = 0;
        cl_mem m = clCreateBuffer(ctx, 0, (size_t)max_alloc, NULL, &err);
        _exit(m == NULL && err == CL_MEM_OBJECT_ALLOCATION_FAILURE ? 0 : 1);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---- sub-buffers --------------------------------------------------------------- */

TEST(sub_buffers)
{
    enum { N = 4096 };
    cl_mem parent = buffer(CL_MEM_READ_WRITE, N, NULL);
    CHECK_ERR(sub_error(parent, 0, 100, 64), CL_MISALIGNED_SUB_BUFFER_OFFSET);
    CHECK_ERR(sub_error(parent, 0, 64, 64), CL_MISALIGNED_SUB_BUFFER_OFFSET);
    CHECK_ERR(sub_error(parent, 0, 128, 0), CL_INVALID_BUFFER_SIZE);
    CHECK_ERR(sub_error(parent, 0, 0, N + 1), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(parent, 0, N - 128, 129), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(parent, 0, N + 128, 1), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(parent, 0, (size_t)-128, 256), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(parent, CL_MEM_USE_HOST_PTR, 0, 64), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(parent, CL_MEM_ALLOC_HOST_PTR, 0, 64), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(parent, CL_MEM_COPY_HOST_PTR, 0, 64), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(parent, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 0, 64), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(NULL, 0, 0, 64), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(sub_error(parent, 0, N - 128, 128), CL_SUCCESS);
    CHECK_ERR(sub_error(parent, 0, 0, N), CL_SUCCESS);

    cl_int err = 0;
    cl_buffer_region r = { 0, 64 };
    CHECK(clCreateSubBuffer(parent, 0, 0x9999, &r, &err) == NULL && err == CL_INVALID_VALUE);
    CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err) == NULL && err == CL_INVALID_VALUE);

    /* no sub-buffer of a sub-buffer */
    cl_mem s1 = sub(parent, 0, 1024, 1024);
    CHECK_ERR(sub_error(s1, 0, 0, 128), CL_INVALID_MEM_OBJECT);

    /* access flag inheritance and conflicts */
    cl_mem ro = buffer(CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, N, NULL);
    CHECK_ERR(sub_error(ro, CL_MEM_READ_WRITE, 0, 128), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(ro, CL_MEM_WRITE_ONLY, 0, 128), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(ro, CL_MEM_READ_ONLY, 0, 128), CL_SUCCESS);
    CHECK_ERR(sub_error(ro, CL_MEM_HOST_WRITE_ONLY, 0, 128), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(ro, CL_MEM_HOST_NO_ACCESS, 0, 128), CL_SUCCESS);
    cl_mem wo = buffer(CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY, N, NULL);
    CHECK_ERR(sub_error(wo, CL_MEM_READ_WRITE, 0, 128), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(wo, CL_MEM_READ_ONLY, 0, 128), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(wo, CL_MEM_HOST_READ_ONLY, 0, 128), CL_INVALID_VALUE);
    cl_mem na = buffer(CL_MEM_HOST_NO_ACCESS, N, NULL);
    CHECK_ERR(sub_error(na, CL_MEM_HOST_READ_ONLY, 0, 128), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(na, CL_MEM_HOST_WRITE_ONLY, 0, 128), CL_INVALID_VALUE);
    CHECK_ERR(sub_error(parent, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, 0, 128), CL_SUCCESS);

    cl_mem ros = sub(ro, 0, 128, 256);
    cl_mem_flags flags = 0;
    OK(clGetMemObjectInfo(ros, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags == (CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY));
    cl_mem ros2 = sub(ro, CL_MEM_HOST_NO_ACCESS, 128, 256);
    OK(clGetMemObjectInfo(ros2, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags == (CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
    /* host access of a sub-buffer is enforced like a buffer's */
    char tmp[256];
    CHECK_ERR(clEnqueueReadBuffer(queue, ros2, CL_TRUE, 0, 16, tmp, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueWriteBuffer(queue, ros, CL_TRUE, 0, 16, tmp, 0, NULL, NULL), CL_INVALID_OPERATION);
    OK(clEnqueueReadBuffer(queue, ros, CL_TRUE, 0, 16, tmp, 0, NULL, NULL));

    /* queries */
    cl_mem assoc = NULL;
    size_t off = 0, size = 0;
    OK(clGetMemObjectInfo(s1, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(assoc == parent);
    OK(clGetMemObjectInfo(s1, CL_MEM_OFFSET, sizeof off, &off, NULL));
    CHECK(off == 1024);
    OK(clGetMemObjectInfo(s1, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK(size == 1024);
    size_t psize = 1;
    OK(clGetMemObjectInfo(s1, CL_MEM_PROPERTIES, 0, NULL, &psize));
    CHECK(psize == 0);

    /* USE_HOST_PTR: the sub-buffer's host pointer is host_ptr + origin */
    static _Alignas(128) unsigned char host[N];
    cl_mem u = buffer(CL_MEM_USE_HOST_PTR, N, host);
    cl_mem us = sub(u, 0, 512, 512);
    void *hp = NULL;
    OK(clGetMemObjectInfo(us, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
    CHECK(hp == host + 512);
    OK(clGetMemObjectInfo(us, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags & CL_MEM_USE_HOST_PTR);

    /* views: writes through the parent are seen by the sub-buffer and back */
    unsigned char data[N], got[N];
    fill_random(data, N, 1);
    OK(clEnqueueWriteBuffer(queue, parent, CL_TRUE, 0, N, data, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, s1, CL_TRUE, 0, 1024, got, 0, NULL, NULL));
    CHECK(memcmp(got, data + 1024, 1024) == 0);
    unsigned char patch[100];
    fill_random(patch, sizeof patch, 2);
    OK(clEnqueueWriteBuffer(queue, s1, CL_TRUE, 10, sizeof patch, patch, 0, NULL, NULL));
    memcpy(data + 1024 + 10, patch, sizeof patch);
    OK(clEnqueueReadBuffer(queue, parent, CL_TRUE, 0, N, got, 0, NULL, NULL));
    CHECK(memcmp(got, data, N) == 0);
    /* a sub-buffer outlives the user's release of its parent */
    OK(clReleaseMemObject(parent));
    OK(clEnqueueReadBuffer(queue, s1, CL_TRUE, 0, 1024, got, 0, NULL, NULL));
    CHECK(memcmp(got, data + 1024, 1024) == 0);
    /* reads past the sub-buffer's end are refused even inside the parent */
    CHECK_ERR(clEnqueueReadBuffer(queue, s1, CL_TRUE, 1000, 100, got, 0, NULL, NULL), CL_INVALID_VALUE);

    /* host writes into a USE_HOST_PTR buffer are seen through its sub-buffer */
    memset(host, 0, N);
    host[600] = 42;
    OK(clEnqueueReadBuffer(queue, us, CL_TRUE, 88, 1, got, 0, NULL, NULL));
    CHECK(got[0] == 42);

    OK(clReleaseMemObject(s1));
    OK(clReleaseMemObject(ros));
    OK(clReleaseMemObject(ros2));
    OK(clReleaseMemObject(ro));
    OK(clReleaseMemObject(wo));
    OK(clReleaseMemObject(na));
    OK(clReleaseMemObject(us));
    OK(clReleaseMemObject(u));
}

/* ---- destructor callbacks ---------------------------------------------------------- */

static int order[8];
static atomic_int nslot, norder; /* slots taken; callbacks finished (read after order[]) */

static void CL_CALLBACK record(cl_mem m, void *data)
{
    int i = atomic_fetch_add(&nslot, 1);
    if (i < 8)
        order[i] = (int)(intptr_t)data;
    atomic_fetch_add(&norder, 1);
}

static bool wait_for_count(int n)
{
    for (int i = 0; i < 2000 && atomic_load(&norder) < n; i++)
        usleep(1000);
    return atomic_load(&norder) >= n;
}

TEST(destructor_callbacks)
{
    cl_mem b = buffer(0, 64, NULL);
    CHECK_ERR(clSetMemObjectDestructorCallback(b, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetMemObjectDestructorCallback(NULL, record, NULL), CL_INVALID_MEM_OBJECT);
    atomic_store(&norder, 0);
    atomic_store(&nslot, 0);
    OK(clSetMemObjectDestructorCallback(b, record, (void *)1));
    OK(clSetMemObjectDestructorCallback(b, record, (void *)2));
    OK(clSetMemObjectDestructorCallback(b, record, (void *)3));
    OK(clRetainMemObject(b));
    OK(clReleaseMemObject(b));
    CHECK(atomic_load(&norder) == 0);
    OK(clReleaseMemObject(b));
    /* nothing else holds it: the callbacks ran, newest first, before the release returned */
    CHECK(atomic_load(&norder) == 3);
    CHECK(order[0] == 3 && order[1] == 2 && order[2] == 1);

    /* a parent lives while its sub-buffer does */
    atomic_store(&norder, 0);
    atomic_store(&nslot, 0);
    cl_mem p = buffer(0, 1024, NULL);
    cl_mem s = sub(p, 0, 128, 128);
    OK(clSetMemObjectDestructorCallback(p, record, (void *)10));
    OK(clSetMemObjectDestructorCallback(s, record, (void *)20));
    OK(clReleaseMemObject(p));
    CHECK(atomic_load(&norder) == 0);
    OK(clReleaseMemObject(s));
    CHECK(atomic_load(&norder) == 2);
    CHECK(order[0] == 20 && order[1] == 10);

    /* a pending command holds the memory: the callback waits for it */
    atomic_store(&norder, 0);
    atomic_store(&nslot, 0);
    cl_int err = 0;
    cl_event gate = clCreateUserEvent(ctx, &err);
    CHECK(err == CL_SUCCESS);
    cl_mem w = buffer(0, 4096, NULL);
    static char src[4096];
    memset(src, 7, sizeof src);
    cl_event wr = NULL;
    OK(clEnqueueWriteBuffer(queue, w, CL_FALSE, 0, sizeof src, src, 1, &gate, &wr));
    OK(clSetMemObjectDestructorCallback(w, record, (void *)30));
    OK(clReleaseMemObject(w));
    usleep(20000);
    CHECK(atomic_load(&norder) == 0);
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clWaitForEvents(1, &wr));
    OK(clFinish(queue));
    CHECK(wait_for_count(1));
    CHECK(order[0] == 30);
    OK(clReleaseEvent(wr));
    OK(clReleaseEvent(gate));
}

/* ---- read and write -------------------------------------------------------------- */

TEST(read_write)
{
    enum { N = 1 << 16 };
    static unsigned char data[N], got[N];
    fill_random(data, N, 3);
    cl_mem b = buffer(0, N, NULL);
    char p[16];

    CHECK_ERR(clEnqueueWriteBuffer(NULL, b, CL_TRUE, 0, 16, p, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueWriteBuffer((cl_command_queue)b, b, CL_TRUE, 0, 16, p, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueWriteBuffer(queue, NULL, CL_TRUE, 0, 16, p, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueReadBuffer(queue, (cl_mem)queue, CL_TRUE, 0, 16, p, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueWriteBuffer(queue, b, CL_TRUE, 0, 16, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, 16, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBuffer(queue, b, CL_TRUE, N - 8, 16, p, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBuffer(queue, b, CL_TRUE, N, 1, p, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBuffer(queue, b, CL_TRUE, 8, (size_t)-4, p, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueWriteBuffer(queue, b, CL_TRUE, N - 8, 16, p, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, 0, p, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, 16, p, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event none = NULL;
    CHECK_ERR(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, 16, p, 1, &none, NULL), CL_INVALID_EVENT_WAIT_LIST);

    /* host access flags */
    cl_mem hw = buffer(CL_MEM_HOST_WRITE_ONLY, 64, NULL);
    cl_mem hr = buffer(CL_MEM_HOST_READ_ONLY, 64, NULL);
    cl_mem hn = buffer(CL_MEM_HOST_NO_ACCESS, 64, NULL);
    CHECK_ERR(clEnqueueReadBuffer(queue, hw, CL_TRUE, 0, 16, p, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueReadBuffer(queue, hn, CL_TRUE, 0, 16, p, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueWriteBuffer(queue, hr, CL_TRUE, 0, 16, p, 0, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clEnqueueWriteBuffer(queue, hn, CL_TRUE, 0, 16, p, 0, NULL, NULL), CL_INVALID_OPERATION);
    OK(clEnqueueWriteBuffer(queue, hw, CL_TRUE, 0, 16, p, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, hr, CL_TRUE, 0, 16, p, 0, NULL, NULL));
    /* device-side commands ignore host access flags */
    OK(clEnqueueCopyBuffer(queue, hn, hn, 0, 32, 16, 0, NULL, NULL));
    OK(clEnqueueFillBuffer(queue, hn, p, 4, 0, 64, 0, NULL, NULL));

    /* another context's buffer */
    cl_int err = 0;
    cl_context ctx2 = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS);
    cl_mem other = clCreateBuffer(ctx2, 0, 64, NULL, &err);
    CHECK(err == CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, other, CL_TRUE, 0, 16, p, 0, NULL, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clEnqueueCopyBuffer(queue, b, other, 0, 0, 16, 0, NULL, NULL), CL_INVALID_CONTEXT);
    cl_event foreign = clCreateUserEvent(ctx2, &err);
    CHECK_ERR(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, 16, p, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    OK(clSetUserEventStatus(foreign, CL_COMPLETE));
    OK(clReleaseEvent(foreign));
    OK(clReleaseMemObject(other));
    OK(clReleaseContext(ctx2));

    /* data: blocking and non-blocking, in pieces at odd offsets */
    OK(clEnqueueWriteBuffer(queue, b, CL_TRUE, 0, N, data, 0, NULL, NULL));
    memset(got, 0, N);
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, N, got, 0, NULL, NULL));
    CHECK(memcmp(got, data, N) == 0);
    memset(got, 0, N);
    cl_event ev[3];
    OK(clEnqueueReadBuffer(queue, b, CL_FALSE, 0, 1001, got, 0, NULL, &ev[0]));
    OK(clEnqueueReadBuffer(queue, b, CL_FALSE, 1001, 30000, got + 1001, 0, NULL, &ev[1]));
    OK(clEnqueueReadBuffer(queue, b, CL_FALSE, 31001, N - 31001, got + 31001, 0, NULL, &ev[2]));
    OK(clWaitForEvents(3, ev));
    CHECK(memcmp(got, data, N) == 0);
    cl_command_type ct = 0;
    OK(clGetEventInfo(ev[0], CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    CHECK(ct == CL_COMMAND_READ_BUFFER);
    for (int i = 0; i < 3; i++)
        OK(clReleaseEvent(ev[i]));

    /* a non-blocking write behind a user event lands once the event completes;
     * a blocking read waiting on it sees the new bytes */
    cl_event gate = clCreateUserEvent(ctx, &err), wr = NULL;
    static unsigned char second[N];
    fill_random(second, N, 4);
    OK(clEnqueueWriteBuffer(queue, b, CL_FALSE, 0, N, second, 1, &gate, &wr));
    cl_int status = 0;
    OK(clGetEventInfo(wr, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status > CL_COMPLETE);
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, N, got, 1, &wr, NULL));
    CHECK(memcmp(got, second, N) == 0);
    OK(clReleaseEvent(wr));
    OK(clReleaseEvent(gate));

    /* a blocking read waiting on a failed event reports it and copies nothing */
    cl_event bad = clCreateUserEvent(ctx, &err);
    memset(got, 0xee, 64);
    cl_event rd = NULL;
    OK(clEnqueueReadBuffer(queue, b, CL_FALSE, 0, 64, got, 1, &bad, &rd));
    OK(clSetUserEventStatus(bad, -1234));
    CHECK_ERR(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, 64, got, 1, &bad, NULL),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(clWaitForEvents(1, &rd) != CL_SUCCESS);
    OK(clGetEventInfo(rd, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status < 0);
    CHECK(got[0] == 0xee && got[63] == 0xee);
    OK(clReleaseEvent(rd));
    OK(clReleaseEvent(bad));
    OK(clFinish(queue));

    OK(clReleaseMemObject(hw));
    OK(clReleaseMemObject(hr));
    OK(clReleaseMemObject(hn));
    OK(clReleaseMemObject(b));
}

/* ---- copy ----------------------------------------------------------------------------- */

TEST(copy)
{
    enum { N = 8192 };
    static unsigned char data[N], got[N];
    fill_random(data, N, 5);
    cl_mem a = buffer(CL_MEM_COPY_HOST_PTR, N, data);
    cl_mem b = buffer(0, N, NULL);

    CHECK_ERR(clEnqueueCopyBuffer(NULL, a, b, 0, 0, 16, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueCopyBuffer(queue, NULL, b, 0, 0, 16, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueCopyBuffer(queue, a, NULL, 0, 0, 16, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueCopyBuffer(queue, a, b, N - 8, 0, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyBuffer(queue, a, b, 0, N - 8, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyBuffer(queue, a, b, 0, 0, N + 1, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyBuffer(queue, a, b, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyBuffer(queue, a, a, 0, 8, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clEnqueueCopyBuffer(queue, a, a, 100, 100, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clEnqueueCopyBuffer(queue, a, a, 16, 0, 17, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clEnqueueCopyBuffer(queue, a, b, 0, 0, 16, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);

    /* overlap through sub-buffers of one parent, and a sub-buffer with its parent */
    cl_mem s0 = sub(a, 0, 0, 1024), s1 = sub(a, 0, 512, 1024), s2 = sub(a, 0, 1024, 1024);
    CHECK_ERR(clEnqueueCopyBuffer(queue, s0, s1, 600, 0, 100, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    CHECK_ERR(clEnqueueCopyBuffer(queue, s1, a, 0, 600, 100, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    OK(clEnqueueCopyBuffer(queue, s0, s2, 0, 0, 1024, 0, NULL, NULL)); /* adjacent, disjoint */
    memcpy(data + 1024, data, 1024);

    /* copies within one buffer that do not overlap, then across buffers */
    OK(clEnqueueCopyBuffer(queue, a, a, 0, 4096, 4096, 0, NULL, NULL));
    memcpy(data + 4096, data, 4096);
    OK(clEnqueueCopyBuffer(queue, a, b, 0, 0, N, 0, NULL, NULL));
    OK(clEnqueueCopyBuffer(queue, a, b, 3, 5001, 777, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, N, got, 0, NULL, NULL));
    unsigned char ref[N];
    memcpy(ref, data, N);
    memmove(ref + 5001, data + 3, 777);
    CHECK(memcmp(got, ref, N) == 0);

    OK(clReleaseMemObject(s0));
    OK(clReleaseMemObject(s1));
    OK(clReleaseMemObject(s2));
    OK(clReleaseMemObject(a));
    OK(clReleaseMemObject(b));
}

/* ---- fill ------------------------------------------------------------------------------ */

TEST(fill)
{
    enum { N = 3 * 4096 + 512 };
    static unsigned char got[N], ref[N];
    cl_mem b = buffer(0, N, NULL);
    unsigned char pattern[256];
    fill_random(pattern, sizeof pattern, 6);

    CHECK_ERR(clEnqueueFillBuffer(NULL, b, pattern, 4, 0, 64, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueFillBuffer(queue, NULL, pattern, 4, 0, 64, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueFillBuffer(queue, b, NULL, 4, 0, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    size_t bad_sizes[] = { 0, 3, 5, 12, 24, 48, 127, 256 };
    for (size_t i = 0; i < sizeof bad_sizes / sizeof *bad_sizes; i++)
        CHECK_ERR(clEnqueueFillBuffer(queue, b, pattern, bad_sizes[i], 0, 768, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(queue, b, pattern, 8, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(queue, b, pattern, 8, 0, 60, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(queue, b, pattern, 4, N - 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueFillBuffer(queue, b, pattern, 4, N + 4, 4, 0, NULL, NULL), CL_INVALID_VALUE);

    /* every pattern size, over a range with a head and a tail untouched */
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        unsigned char background = (unsigned char)ps;
        memset(ref, background, N);
        OK(clEnqueueFillBuffer(queue, b, &background, 1, 0, N, 0, NULL, NULL));
        size_t offset = ps * 3, size = ((N - offset - 200) / ps) * ps;
        unsigned char pat[128];
        fill_random(pat, ps, (unsigned)ps * 7);
        OK(clEnqueueFillBuffer(queue, b, pat, ps, offset, size, 0, NULL, NULL));
        for (size_t i = 0; i < size; i++)
            ref[offset + i] = pat[i % ps];
        OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, N, got, 0, NULL, NULL));
        if (memcmp(got, ref, N) != 0)
            fprintf(stderr, "fill with a %zu-byte pattern differs\n", ps);
        CHECK(memcmp(got, ref, N) == 0);
    }

    /* the pattern is copied at enqueue time */
    cl_int err = 0;
    cl_event gate = clCreateUserEvent(ctx, &err);
    cl_uint word = 0x11223344;
    OK(clEnqueueFillBuffer(queue, b, &word, sizeof word, 0, 4096, 1, &gate, NULL));
    word = 0xdeadbeef;
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    cl_uint words[1024];
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof words, words, 0, NULL, NULL));
    bool all = true;
    for (int i = 0; i < 1024; i++)
        all &= words[i] == 0x11223344;
    CHECK(all);
    OK(clReleaseEvent(gate));

    /* fill through a sub-buffer touches only its range */
    cl_mem s = sub(b, 0, 4096, 256);
    OK(clEnqueueFillBuffer(queue, b, "\0", 1, 0, N, 0, NULL, NULL));
    cl_ushort h = 0xabcd;
    OK(clEnqueueFillBuffer(queue, s, &h, 2, 0, 256, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, N, got, 0, NULL, NULL));
    memset(ref, 0, N);
    for (int i = 0; i < 256; i += 2)
        memcpy(ref + 4096 + i, &h, 2);
    CHECK(memcmp(got, ref, N) == 0);
    OK(clReleaseMemObject(s));
    OK(clReleaseMemObject(b));
}

/* ---- rectangles ---------------------------------------------------------------------------- */

static size_t rect_offset(const size_t *o, size_t rp, size_t sp) { return o[2] * sp + o[1] * rp + o[0]; }

static void ref_rect_copy(unsigned char *dst, const size_t *dorigin, size_t drp, size_t dsp,
                          const unsigned char *src, const size_t *sorigin, size_t srp, size_t ssp,
                          const size_t *region)
{
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            for (size_t x = 0; x < region[0]; x++)
                dst[(dorigin[2] + z) * dsp + (dorigin[1] + y) * drp + dorigin[0] + x] =
                    src[(sorigin[2] + z) * ssp + (sorigin[1] + y) * srp + sorigin[0] + x];
}

static size_t rnd(unsigned *seed, size_t n)
{
    *seed = *seed * 1103515245u + 12345u;
    return (size_t)((*seed >> 8) % n);
}

TEST(rect)
{
    enum { N = 64 * 1024 };
    static unsigned char bufdata[N], host[N], hostref[N], got[N], ref[N];
    fill_random(bufdata, N, 8);
    cl_mem b = buffer(CL_MEM_COPY_HOST_PTR, N, bufdata);
    cl_mem c = buffer(0, N, NULL);
    size_t o0[3] = { 0, 0, 0 }, r1[3] = { 8, 4, 2 };

    /* argument errors */
    CHECK_ERR(clEnqueueReadBufferRect(NULL, b, CL_TRUE, o0, o0, r1, 0, 0, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueReadBufferRect(queue, NULL, CL_TRUE, o0, o0, r1, 0, 0, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueReadBufferRect(queue, b, CL_TRUE, o0, o0, r1, 0, 0, 0, 0, NULL, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBufferRect(queue, b, CL_TRUE, NULL, o0, r1, 0, 0, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    size_t rz[3] = { 8, 0, 1 };
    CHECK_ERR(clEnqueueReadBufferRect(queue, b, CL_TRUE, o0, o0, rz, 0, 0, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    /* buffer row pitch below region[0] */
    CHECK_ERR(clEnqueueReadBufferRect(queue, b, CL_TRUE, o0, o0, r1, 4, 0, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    /* host row pitch below region[0] */
    CHECK_ERR(clEnqueueReadBufferRect(queue, b, CL_TRUE, o0, o0, r1, 0, 0, 7, 0, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    /* slice pitch below region[1] * row pitch, or not a multiple of it */
    CHECK_ERR(clEnqueueReadBufferRect(queue, b, CL_TRUE, o0, o0, r1, 16, 48, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadBufferRect(queue, b, CL_TRUE, o0, o0, r1, 16, 72, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueWriteBufferRect(queue, b, CL_TRUE, o0, o0, r1, 0, 0, 16, 40, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    /* out of range: the last byte is one past the end */
    size_t rbig[3] = { 64, 32, 32 }, obig[3] = { 1, 0, 0 };
    CHECK_ERR(clEnqueueReadBufferRect(queue, b, CL_TRUE, obig, o0, rbig, 0, 0, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_VALUE);
    OK(clEnqueueReadBufferRect(queue, b, CL_TRUE, o0, o0, rbig, 0, 0, 0, 0, host, 0, NULL, NULL));
    CHECK(memcmp(host, bufdata, N) == 0);
    size_t ofar[3] = { 0, 0, 2 };
    CHECK_ERR(clEnqueueReadBufferRect(queue, b, CL_TRUE, ofar, o0, r1, 1024, 32 * 1024, 0, 0, host, 0, NULL,
                                      NULL), CL_INVALID_VALUE);
    /* host access */
    cl_mem hw = buffer(CL_MEM_HOST_WRITE_ONLY, 4096, NULL);
    CHECK_ERR(clEnqueueReadBufferRect(queue, hw, CL_TRUE, o0, o0, r1, 0, 0, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_OPERATION);
    OK(clEnqueueWriteBufferRect(queue, hw, CL_TRUE, o0, o0, r1, 0, 0, 0, 0, host, 0, NULL, NULL));
    OK(clReleaseMemObject(hw));

    /* random rectangles: read, write, copy against a host reference */
    unsigned seed = 99;
    for (int iter = 0; iter < 200; iter++) {
#define RND(n) rnd(&seed, (n))
        size_t region[3] = { 1 + RND(40), 1 + RND(12), 1 + RND(5) };
        size_t brp = region[0] + RND(3) * RND(20), bsp = region[1] * brp + RND(2) * brp * RND(4);
        size_t hrp = region[0] + RND(30), hsp = (region[1] + RND(3)) * hrp;
        if (RND(4) == 0) { brp = 0; bsp = 0; }
        if (RND(4) == 0) { hrp = 0; hsp = 0; }
        size_t ebrp = brp ? brp : region[0], ebsp = bsp ? bsp : region[1] * ebrp;
        size_t ehrp = hrp ? hrp : region[0], ehsp = hsp ? hsp : region[1] * ehrp;
        size_t bo[3] = { RND(20), RND(10), RND(3) }, ho[3] = { RND(20), RND(10), RND(3) };
        if (rect_offset(bo, ebrp, ebsp) + (region[2] - 1) * ebsp + (region[1] - 1) * ebrp + region[0] > N ||
            rect_offset(ho, ehrp, ehsp) + (region[2] - 1) * ehsp + (region[1] - 1) * ehrp + region[0] > N)
            continue;
        int op = iter % 3;
        if (op == 0) { /* read */
            fill_random(host, N, seed);
            memcpy(hostref, host, N);
            ref_rect_copy(hostref, ho, ehrp, ehsp, bufdata, bo, ebrp, ebsp, region);
            OK(clEnqueueReadBufferRect(queue, b, CL_TRUE, bo, ho, region, brp, bsp, hrp, hsp, host, 0, NULL, NULL));
            CHECK(memcmp(host, hostref, N) == 0);
        } else if (op == 1) { /* write */
            fill_random(host, N, seed);
            ref_rect_copy(bufdata, bo, ebrp, ebsp, host, ho, ehrp, ehsp, region);
            OK(clEnqueueWriteBufferRect(queue, b, iter & 4 ? CL_TRUE : CL_FALSE, bo, ho, region, brp, bsp,
                                        hrp, hsp, host, 0, NULL, NULL));
            OK(clFinish(queue));
            OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, N, got, 0, NULL, NULL));
            CHECK(memcmp(got, bufdata, N) == 0);
        } else { /* copy b -> c */
            OK(clEnqueueReadBuffer(queue, c, CL_TRUE, 0, N, ref, 0, NULL, NULL));
            ref_rect_copy(ref, ho, ehrp, ehsp, bufdata, bo, ebrp, ebsp, region);
            OK(clEnqueueCopyBufferRect(queue, b, c, bo, ho, region, brp, bsp, hrp, hsp, 0, NULL, NULL));
            OK(clEnqueueReadBuffer(queue, c, CL_TRUE, 0, N, got, 0, NULL, NULL));
            CHECK(memcmp(got, ref, N) == 0);
        }
#undef RND
    }

    /* copy within one buffer: interleaved rows do not overlap, shifted ones do */
    size_t reg[3] = { 16, 8, 1 }, so[3] = { 0, 0, 0 }, dox[3] = { 16, 0, 0 }, doy[3] = { 8, 0, 0 };
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, N, ref, 0, NULL, NULL));
    OK(clEnqueueCopyBufferRect(queue, b, b, so, dox, reg, 32, 0, 32, 0, 0, NULL, NULL));
    ref_rect_copy(ref, dox, 32, 256, ref, so, 32, 256, reg);
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, N, got, 0, NULL, NULL));
    CHECK(memcmp(got, ref, N) == 0);
    CHECK_ERR(clEnqueueCopyBufferRect(queue, b, b, so, doy, reg, 32, 0, 32, 0, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    size_t down[3] = { 0, 7, 0 };
    CHECK_ERR(clEnqueueCopyBufferRect(queue, b, b, so, down, reg, 32, 0, 32, 0, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    size_t below[3] = { 0, 8, 0 };
    OK(clEnqueueCopyBufferRect(queue, b, b, so, below, reg, 32, 0, 32, 0, 0, NULL, NULL));
    /* same buffer with different row and slice pitches */
    size_t reg3[3] = { 4, 2, 2 }, far[3] = { 0, 0, 20 };
    CHECK_ERR(clEnqueueCopyBufferRect(queue, b, b, so, far, reg3, 8, 16, 16, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    /* overlap through two sub-buffers of one parent */
    cl_mem sa = sub(b, 0, 0, 4096), sb = sub(b, 0, 1024, 4096);
    size_t o32[3] = { 0, 32, 0 };
    CHECK_ERR(clEnqueueCopyBufferRect(queue, sa, sb, o32, o0, reg, 32, 0, 32, 0, 0, NULL, NULL),
              CL_MEM_COPY_OVERLAP);
    OK(clEnqueueCopyBufferRect(queue, sa, sb, o0, o0, reg, 32, 0, 32, 0, 0, NULL, NULL));
    OK(clFinish(queue));
    OK(clReleaseMemObject(sa));
    OK(clReleaseMemObject(sb));
    OK(clReleaseMemObject(b));
    OK(clReleaseMemObject(c));
}

/* ---- map and unmap ---------------------------------------------------------------------------- */

TEST(map)
{
    enum { N = 16384 };
    cl_int err = 0;
    static _Alignas(128) unsigned char host[N];
    fill_random(host, N, 11);
    cl_mem u = buffer(CL_MEM_USE_HOST_PTR, N, host);

    /* zero copy: the map returns the user's memory */
    void *p = clEnqueueMapBuffer(queue, u, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 1000, 2000, 0, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS && p == host + 1000);
    cl_uint count = 0;
    OK(clGetMemObjectInfo(u, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK(count == 1);
    void *q = clEnqueueMapBuffer(queue, u, CL_TRUE, CL_MAP_READ, 1000, 16, 0, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS && q == p);
    OK(clGetMemObjectInfo(u, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK(count == 2);
    ((unsigned char *)p)[5] = 0x77;
    CHECK_ERR(clEnqueueUnmapMemObject(queue, u, host + 1, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueUnmapMemObject(NULL, u, p, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueUnmapMemObject(queue, NULL, p, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    OK(clEnqueueUnmapMemObject(queue, u, p, 0, NULL, NULL));
    OK(clEnqueueUnmapMemObject(queue, u, q, 0, NULL, NULL));
    CHECK_ERR(clEnqueueUnmapMemObject(queue, u, p, 0, NULL, NULL), CL_INVALID_VALUE); /* mapped twice, unmapped twice */
    OK(clFinish(queue));
    OK(clGetMemObjectInfo(u, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK(count == 0);
    unsigned char byte = 0;
    OK(clEnqueueReadBuffer(queue, u, CL_TRUE, 1005, 1, &byte, 0, NULL, NULL));
    CHECK(byte == 0x77);
    /* a sub-buffer map returns the same bytes; the pointer belongs to the sub-buffer */
    cl_mem us = sub(u, 0, 2048, 1024);
    void *sp = clEnqueueMapBuffer(queue, us, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 16, 32, 0, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS && sp == host + 2048 + 16);
    CHECK_ERR(clEnqueueUnmapMemObject(queue, u, sp, 0, NULL, NULL), CL_INVALID_VALUE);
    OK(clEnqueueUnmapMemObject(queue, us, sp, 0, NULL, NULL));
    OK(clReleaseMemObject(us));
    /* reading a USE_HOST_PTR buffer into its own host_ptr (and writing from
     * it) is allowed and changes nothing */
    unsigned char keep[1000];
    memcpy(keep, host + 3000, sizeof keep);
    OK(clEnqueueReadBuffer(queue, u, CL_TRUE, 3000, sizeof keep, host + 3000, 0, NULL, NULL));
    OK(clEnqueueWriteBuffer(queue, u, CL_TRUE, 3000, sizeof keep, host + 3000, 0, NULL, NULL));
    CHECK(memcmp(keep, host + 3000, sizeof keep) == 0);

    /* errors */
    cl_mem b = buffer(0, N, NULL);
    CHECK(clEnqueueMapBuffer(NULL, b, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_COMMAND_QUEUE);
    CHECK(clEnqueueMapBuffer(queue, NULL, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ, N - 8, 16, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_VALUE);
    CHECK(clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_VALUE);
    CHECK(clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, NULL, NULL,
                             &err) == NULL && err == CL_INVALID_VALUE);
    CHECK(clEnqueueMapBuffer(queue, b, CL_TRUE, 1 << 5, 0, 16, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_VALUE);
    CHECK(clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ, 0, 16, 1, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_EVENT_WAIT_LIST);
    cl_mem hw = buffer(CL_MEM_HOST_WRITE_ONLY, 64, NULL), hr = buffer(CL_MEM_HOST_READ_ONLY, 64, NULL);
    cl_mem hn = buffer(CL_MEM_HOST_NO_ACCESS, 64, NULL);
    CHECK(clEnqueueMapBuffer(queue, hw, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_OPERATION);
    CHECK(clEnqueueMapBuffer(queue, hr, CL_TRUE, CL_MAP_WRITE, 0, 16, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_OPERATION);
    CHECK(clEnqueueMapBuffer(queue, hr, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, NULL, NULL, &err) == NULL
          && err == CL_INVALID_OPERATION);
    CHECK(clEnqueueMapBuffer(queue, hn, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_OPERATION);
    void *ok1 = clEnqueueMapBuffer(queue, hw, CL_TRUE, CL_MAP_WRITE, 0, 16, 0, NULL, NULL, &err);
    CHECK(ok1 && err == CL_SUCCESS);
    void *ok2 = clEnqueueMapBuffer(queue, hr, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
    CHECK(ok2 && err == CL_SUCCESS);
    OK(clEnqueueUnmapMemObject(queue, hw, ok1, 0, NULL, NULL));
    OK(clEnqueueUnmapMemObject(queue, hr, ok2, 0, NULL, NULL));

    /* write through a map, read back through a command; a non-blocking map
     * behind a write sees the write once its event completes */
    unsigned char *m = clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_WRITE, 0, N, 0, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS);
    for (int i = 0; i < N; i++)
        m[i] = (unsigned char)(i * 7);
    cl_event un = NULL;
    OK(clEnqueueUnmapMemObject(queue, b, m, 0, NULL, &un));
    cl_command_type ct = 0;
    OK(clGetEventInfo(un, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    CHECK(ct == CL_COMMAND_UNMAP_MEM_OBJECT);
    OK(clReleaseEvent(un));
    unsigned char got[64];
    OK(clEnqueueReadBuffer(queue, b, CL_TRUE, 100, 64, got, 0, NULL, NULL));
    bool same = true;
    for (int i = 0; i < 64; i++)
        same &= got[i] == (unsigned char)((100 + i) * 7);
    CHECK(same);
    cl_event gate = clCreateUserEvent(ctx, &err), wr = NULL, mp = NULL;
    unsigned char five[64];
    memset(five, 5, sizeof five);
    OK(clEnqueueWriteBuffer(queue, b, CL_FALSE, 0, 64, five, 1, &gate, &wr));
    unsigned char *m2 = clEnqueueMapBuffer(queue, b, CL_FALSE, CL_MAP_READ, 0, 64, 1, &wr, &mp, &err);
    CHECK(err == CL_SUCCESS && m2 != NULL);
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clWaitForEvents(1, &mp));
    CHECK(m2[0] == 5 && m2[63] == 5);
    OK(clGetEventInfo(mp, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    CHECK(ct == CL_COMMAND_MAP_BUFFER);
    OK(clEnqueueUnmapMemObject(queue, b, m2, 0, NULL, NULL));
    OK(clFinish(queue));
    OK(clReleaseEvent(gate));
    OK(clReleaseEvent(wr));
    OK(clReleaseEvent(mp));

    /* a blocking map waiting on a failed event returns NULL and maps nothing */
    cl_event bad = clCreateUserEvent(ctx, &err);
    OK(clSetUserEventStatus(bad, -55));
    void *none = clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ, 0, 64, 1, &bad, NULL, &err);
    CHECK(none == NULL && err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    OK(clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK(count == 0);
    OK(clReleaseEvent(bad));
    OK(clFinish(queue));

    OK(clReleaseMemObject(hw));
    OK(clReleaseMemObject(hr));
    OK(clReleaseMemObject(hn));
    OK(clReleaseMemObject(b));
    OK(clReleaseMemObject(u));
}

/* ---- migration, images, pipes ------------------------------------------------------------------ */

TEST(migrate)
{
    cl_mem a = buffer(0, 256, NULL), b = buffer(0, 256, NULL);
    cl_mem both[2] = { a, b }, withnull[2] = { a, NULL };
    CHECK_ERR(clEnqueueMigrateMemObjects(NULL, 2, both, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueMigrateMemObjects(queue, 0, both, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueMigrateMemObjects(queue, 2, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueMigrateMemObjects(queue, 2, withnull, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueMigrateMemObjects(queue, 2, both, 1 << 4, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueMigrateMemObjects(queue, 2, both, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    unsigned char data[256], got[256];
    fill_random(data, sizeof data, 12);
    OK(clEnqueueWriteBuffer(queue, a, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
    cl_event ev = NULL;
    OK(clEnqueueMigrateMemObjects(queue, 2, both, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &ev));
    OK(clWaitForEvents(1, &ev));
    cl_command_type ct = 0;
    OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL));
    CHECK(ct == CL_COMMAND_MIGRATE_MEM_OBJECTS);
    OK(clReleaseEvent(ev));
    OK(clEnqueueMigrateMemObjects(queue, 1, &b, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CHECK(memcmp(got, data, sizeof got) == 0); /* migration never loses bytes */
    OK(clReleaseMemObject(a));
    OK(clReleaseMemObject(b));
}

TEST(images_and_pipes)
{
    /* A buffer is not an image (tests/unit/test_image_objects.c has the images). */
    cl_int err = 0;
    cl_mem b = buffer(0, 64, NULL);
    size_t o[3] = { 0 }, r[3] = { 1, 1, 1 };
    char px[16];
    CHECK_ERR(clEnqueueReadImage(queue, b, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueReadImage(NULL, b, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueWriteImage(queue, b, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueCopyImageToBuffer(queue, b, b, o, r, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clEnqueueCopyBufferToImage(queue, b, b, 0, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    size_t rp = 0;
    CHECK(clEnqueueMapImage(queue, b, CL_TRUE, CL_MAP_READ, o, r, &rp, NULL, 0, NULL, NULL, &err) == NULL &&
          err == CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clGetImageInfo(b, CL_IMAGE_WIDTH, sizeof rp, &rp, NULL), CL_INVALID_MEM_OBJECT);
    /* pipes exist (tests/e2e/test_pipes.c has the rest): a buffer is not one */
    CHECK(clCreatePipe(NULL, 0, 4, 16, NULL, &err) == NULL && err == CL_INVALID_CONTEXT);
    cl_mem p = clCreatePipe(ctx, 0, 4, 16, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_uint v;
    CHECK_ERR(clGetPipeInfo(b, CL_PIPE_PACKET_SIZE, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
    OK(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof v, &v, NULL));
    CHECK(v == 4);
    CHECK_ERR(clGetImageInfo(p, CL_IMAGE_WIDTH, sizeof rp, &rp, NULL), CL_INVALID_MEM_OBJECT);
    OK(clReleaseMemObject(p));
    OK(clReleaseMemObject(b));
}

int main(int argc, char **argv)
{
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0 ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "no Mosaic platform or device\n");
        return 1;
    }
    cl_int err = 0;
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return fprintf(stderr, "clCreateContext: %d\n", err), 1;
    queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    if (err != CL_SUCCESS)
        return fprintf(stderr, "clCreateCommandQueueWithProperties: %d\n", err), 1;

    test_run(argc, argv);

    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return test_summary();
}
