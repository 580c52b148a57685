/*
 * The one retain/release/get-info pattern (api/entry.h), for every object
 * type at once, linked with Mosaic's objects: a bad handle gets the type's
 * CL_INVALID_* code, a release past zero (the object kept alive by an
 * internal hold) gets it too, root devices and the platform are not counted,
 * and every clGet*Info answers a small buffer, a size query and an unknown
 * param_name the same way, with the same message (MOSAIC_DEBUG=1, stderr
 * captured).  Events take the ICD table of their context.
 */
#define _GNU_SOURCE
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEST_LIST "test_objects.list"
#include "test.h"
#include "core/objects.h"

static uint64_t junk[32]; /* readable memory that is no OpenCL object */

/* ---- stderr capture --------------------------------------------------------- */

static char captured[4096];
static int saved_stderr = -1;
static FILE *capture_file;

static void capture_start(void)
{
    fflush(stderr);
    capture_file = tmpfile();
    saved_stderr = dup(2);
    dup2(fileno(capture_file), 2);
}

static const char *capture_end(void)
{
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    rewind(capture_file);
    size_t n = fread(captured, 1, sizeof captured - 1, capture_file);
    captured[n] = 0;
    fclose(capture_file);
    return captured;
}

/* True when a line of the captured text has `a` and then `b`. */
static bool said(const char *text, const char *a, const char *b)
{
    for (const char *at = strstr(text, a); at; at = strstr(at + 1, a)) {
        const char *end = strchr(at, '\n');
        const char *bt = strstr(at, b);
        if (bt && (!end || bt < end))
            return true;
    }
    return false;
}

/* ---- every type as one table ---------------------------------------------------- */

typedef struct kind {
    const char *name;     /* "context": in "is not a valid context" */
    const char *retain_fn, *release_fn, *info_fn;
    cl_int invalid;
    cl_int (*retain)(void *);
    cl_int (*release)(void *);
    cl_int (*info)(void *, cl_uint, size_t, void *, size_t *);
    cl_uint refcount_param; /* 0: none */
    void *object;           /* a live one, or NULL */
} kind;

#define RETAIN_RELEASE(Name, T)                                                  \
    static cl_int retain_##Name(void *o) { return clRetain##Name((T)o); }        \
    static cl_int release_##Name(void *o) { return clRelease##Name((T)o); }
#define INFO(Fn, T, PT)                                                          \
    static cl_int info_##Fn(void *o, cl_uint p, size_t s, void *v, size_t *r)    \
    { return Fn((T)o, (PT)p, s, v, r); }

RETAIN_RELEASE(Device, cl_device_id)
RETAIN_RELEASE(Context, cl_context)
RETAIN_RELEASE(CommandQueue, cl_command_queue)
RETAIN_RELEASE(MemObject, cl_mem)
RETAIN_RELEASE(Program, cl_program)
RETAIN_RELEASE(Kernel, cl_kernel)
RETAIN_RELEASE(Event, cl_event)
RETAIN_RELEASE(Sampler, cl_sampler)
INFO(clGetPlatformInfo, cl_platform_id, cl_platform_info)
INFO(clGetDeviceInfo, cl_device_id, cl_device_info)
INFO(clGetContextInfo, cl_context, cl_context_info)
INFO(clGetCommandQueueInfo, cl_command_queue, cl_command_queue_info)
INFO(clGetMemObjectInfo, cl_mem, cl_mem_info)
INFO(clGetProgramInfo, cl_program, cl_program_info)
INFO(clGetKernelInfo, cl_kernel, cl_kernel_info)
INFO(clGetEventInfo, cl_event, cl_event_info)
INFO(clGetSamplerInfo, cl_sampler, cl_sampler_info)

#define KIND(label, Name, Info, INVALID, REFCOUNT)                                            \
    { label, "clRetain" #Name, "clRelease" #Name, #Info, INVALID, retain_##Name, release_##Name, \
      info_##Info, REFCOUNT, NULL }

static kind kinds[] = {
    KIND("device", Device, clGetDeviceInfo, CL_INVALID_DEVICE, CL_DEVICE_REFERENCE_COUNT),
    KIND("context", Context, clGetContextInfo, CL_INVALID_CONTEXT, CL_CONTEXT_REFERENCE_COUNT),
    KIND("command queue", CommandQueue, clGetCommandQueueInfo, CL_INVALID_COMMAND_QUEUE, CL_QUEUE_REFERENCE_COUNT),
    KIND("memory object", MemObject, clGetMemObjectInfo, CL_INVALID_MEM_OBJECT, CL_MEM_REFERENCE_COUNT),
    KIND("program", Program, clGetProgramInfo, CL_INVALID_PROGRAM, CL_PROGRAM_REFERENCE_COUNT),
    KIND("kernel", Kernel, clGetKernelInfo, CL_INVALID_KERNEL, CL_KERNEL_REFERENCE_COUNT),
    KIND("event", Event, clGetEventInfo, CL_INVALID_EVENT, CL_EVENT_REFERENCE_COUNT),
    KIND("sampler", Sampler, clGetSamplerInfo, CL_INVALID_SAMPLER, CL_SAMPLER_REFERENCE_COUNT),
};
#define NUM_KINDS (sizeof kinds / sizeof kinds[0])

static cl_uint refcount(const kind *k)
{
    cl_uint n = 0;
    CHECK_ERR(k->info(k->object, k->refcount_param, sizeof n, &n, NULL), CL_SUCCESS);
    return n;
}

/* ---- the checks ------------------------------------------------------------------- */

static void check_bad_handles(const kind *k)
{
    void *bad[] = { NULL, junk };
    for (int i = 0; i < 2; i++) {
        capture_start();
        cl_int r1 = k->retain(bad[i]), r2 = k->release(bad[i]);
        cl_uint n;
        cl_int r3 = k->info(bad[i], k->refcount_param, sizeof n, &n, NULL);
        const char *text = capture_end();
        CHECK_ERR(r1, k->invalid);
        CHECK_ERR(r2, k->invalid);
        CHECK_ERR(r3, k->invalid);
        char what[64];
        snprintf(what, sizeof what, "is not a valid %s", k->name);
        CHECK(said(text, k->retain_fn, what));
        CHECK(said(text, k->release_fn, what));
        CHECK(said(text, k->info_fn, what));
    }
}

static void check_counting(const kind *k)
{
    if (!k->object)
        return;
    if (k->invalid == CL_INVALID_DEVICE) { /* a root device: not counted */
        CHECK_ERR(k->retain(k->object), CL_SUCCESS);
        for (int i = 0; i < 3; i++)
            CHECK_ERR(k->release(k->object), CL_SUCCESS);
        CHECK(refcount(k) == 1);
        CHECK(MOSAIC_IS((cl_device_id)k->object, DEVICE));
        return;
    }
    CHECK(refcount(k) == 1);
    CHECK_ERR(k->retain(k->object), CL_SUCCESS);
    CHECK(refcount(k) == 2);
    CHECK_ERR(k->release(k->object), CL_SUCCESS);
    CHECK(refcount(k) == 1);
    /* An internal hold keeps it alive past the user's last release: a
     * second release is refused with the type's code. */
    mosaic_retain_internal(k->object);
    CHECK_ERR(k->release(k->object), CL_SUCCESS);
    CHECK(refcount(k) == 0);
    capture_start();
    cl_int again = k->release(k->object);
    const char *text = capture_end();
    CHECK_ERR(again, k->invalid);
    CHECK(said(text, k->release_fn, "was released more often than retained"));
}

static void check_info_copy_out(const char *fn, cl_int (*info)(void *, cl_uint, size_t, void *, size_t *),
                                void *object, cl_uint param)
{
    size_t size = 0;
    CHECK_ERR(info(object, param, 0, NULL, &size), CL_SUCCESS);
    CHECK(size > 0);
    char buf[256];
    memset(buf, 0x5a, sizeof buf);
    size_t untouched = 12345;
    capture_start();
    cl_int small = info(object, param, size - 1, buf, &untouched);
    cl_int unknown = info(object, 0x7fff0000u, sizeof buf, buf, &untouched);
    const char *text = capture_end();
    CHECK_ERR(small, CL_INVALID_VALUE);
    CHECK_ERR(unknown, CL_INVALID_VALUE);
    CHECK(untouched == 12345);
    CHECK((unsigned char)buf[0] == 0x5a);
    char expect[96];
    snprintf(expect, sizeof expect, "param_value_size %zu is smaller than the %zu bytes of the answer", size - 1, size);
    CHECK(said(text, fn, expect));
    CHECK(said(text, fn, "unknown param_name 0x7fff0000"));
    size_t got = 0;
    CHECK(size <= sizeof buf);
    CHECK_ERR(info(object, param, size, buf, &got), CL_SUCCESS);
    CHECK(got == size);
}

static const char *source = "kernel void k(global int *p) { p[0] = 1; }";

/* Every object type through the one pattern. */
TEST(every_type)
{
    setenv("MOSAIC_DEBUG", "1", 1); /* before the first call reads it */

    cl_platform_id platform;
    cl_device_id device;
    CHECK_ERR(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), CL_SUCCESS);
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clBuildProgram(program, 1, &device, "", NULL, NULL), CL_SUCCESS);
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_event event = clCreateUserEvent(context, &err);
    CHECK_ERR(err, CL_SUCCESS);
    /* An object core made takes its parent's ICD table. */
    CHECK(event->dispatch == context->dispatch && context->dispatch == platform->dispatch);

    void *objects[] = { device, context, queue, mem, program, kernel, event, NULL /* no sampler without images */ };
    for (size_t i = 0; i < NUM_KINDS; i++)
        kinds[i].object = objects[i];

    /* Every query of every type through the same copy-out. */
    check_info_copy_out("clGetPlatformInfo", info_clGetPlatformInfo, platform, CL_PLATFORM_NAME);
    for (size_t i = 0; i < NUM_KINDS; i++)
        if (kinds[i].object)
            check_info_copy_out(kinds[i].info_fn, kinds[i].info, kinds[i].object, kinds[i].refcount_param);
    capture_start();
    cl_uint n;
    cl_int bad_platform = clGetPlatformInfo((cl_platform_id)junk, CL_PLATFORM_NAME, sizeof n, &n, NULL);
    CHECK(said(capture_end(), "clGetPlatformInfo", "is not a valid platform"));
    CHECK_ERR(bad_platform, CL_INVALID_PLATFORM);

    for (size_t i = 0; i < NUM_KINDS; i++) {
        check_bad_handles(&kinds[i]);
        check_counting(&kinds[i]);
    }

    /* The internal holds taken by check_counting go, dependants first. */
    CHECK_ERR(clSetUserEventStatus(event, CL_COMPLETE), CL_SUCCESS);
    mosaic_release_internal(event);
    mosaic_release_internal(kernel);
    mosaic_release_internal(program);
    mosaic_release_internal(mem);
    mosaic_release_internal(queue);
    mosaic_release_internal(context);
    }

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
