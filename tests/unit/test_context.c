/*
 * Contexts and samplers (api/context.c, api/sampler.c), through
 * libmosaic.so linked directly: creation from a device list and from a
 * type, every argument error with its exact code, properties returned as
 * given, reference counts, destructor callbacks (newest first, at
 * destruction), and samplers.
 */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_context.list"
#include "test.h"

static cl_platform_id platform;
static cl_device_id device;
static uint64_t junk[32]; /* readable memory that is no OpenCL object */

static void CL_CALLBACK notify(const char *errinfo, const void *private_info, size_t cb, void *user_data)
{
    (void)errinfo, (void)private_info, (void)cb, (void)user_data;
}

static void CL_CALLBACK destructor_dummy(cl_context ctx, void *user_data)
{
    (void)ctx, (void)user_data;
}

static cl_uint refcount(cl_context ctx)
{
    cl_uint n = 0;
    CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL), CL_SUCCESS);
    return n;
}

/* ---- creation and queries ------------------------------------------------- */

static void check_devices(cl_context ctx)
{
    cl_uint n = 0;
    size_t size = 0;
    CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, &size), CL_SUCCESS);
    CHECK(n == 1 && size == sizeof n);
    cl_device_id d[4] = { NULL };
    CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof d, d, &size), CL_SUCCESS);
    CHECK(size == sizeof d[0] && d[0] == device);
}

TEST(create_from_list)
{
    cl_int err = 1;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK(ctx != NULL);
    check_devices(ctx);
    CHECK(refcount(ctx) == 1);
    size_t size = 99;
    CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
    CHECK(size == 0); /* NULL given: nothing */
    CHECK_ERR(clRetainContext(ctx), CL_SUCCESS);
    CHECK(refcount(ctx) == 2);
    CHECK_ERR(clReleaseContext(ctx), CL_SUCCESS);
    CHECK(refcount(ctx) == 1);
    CHECK_ERR(clReleaseContext(ctx), CL_SUCCESS);

    /* duplicated devices are ignored; errcode_ret may be NULL */
    cl_device_id twice[2] = { device, device };
    ctx = clCreateContext(NULL, 2, twice, notify, &err, NULL);
    CHECK(ctx != NULL);
    if (ctx) {
        check_devices(ctx);
        clReleaseContext(ctx);
    }

    /* with properties: returned exactly as given */
    cl_context_properties props[] = { CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE,
                                      CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0 };
    ctx = clCreateContext(props, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (ctx) {
        cl_context_properties got[8];
        memset(got, 0x77, sizeof got);
        CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof got, got, &size), CL_SUCCESS);
        CHECK(size == sizeof props && memcmp(got, props, sizeof props) == 0);
        CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof props - 1, got, NULL), CL_INVALID_VALUE);
        clReleaseContext(ctx);
    }

    /* an empty list is a list: one 0 comes back */
    cl_context_properties empty[] = { 0 };
    ctx = clCreateContext(empty, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (ctx) {
        cl_context_properties got[2] = { 5, 5 };
        CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof got, got, &size), CL_SUCCESS);
        CHECK(size == sizeof got[0] && got[0] == 0);
        clReleaseContext(ctx);
    }
}

TEST(create_from_type)
{
    static const cl_device_type found[] = { CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL,
                                            CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU };
    for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
        cl_int err = 1;
        cl_context ctx = clCreateContextFromType(NULL, found[i], NULL, NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
        CHECK(ctx != NULL);
        if (ctx) {
            check_devices(ctx);
            clReleaseContext(ctx);
        }
    }
    cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0 };
    cl_int err = 1;
    cl_context ctx = clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, notify, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (ctx) {
        cl_context_properties got[4];
        size_t size = 0;
        CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof got, got, &size), CL_SUCCESS);
        CHECK(size == sizeof props && memcmp(got, props, sizeof props) == 0);
        clReleaseContext(ctx);
    }

    static const cl_device_type missing[] = { CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM };
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
        err = 1;
        CHECK(clCreateContextFromType(NULL, missing[i], NULL, NULL, &err) == NULL);
        CHECK_ERR(err, CL_DEVICE_NOT_FOUND);
    }
    CHECK(clCreateContextFromType(NULL, 0, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_DEVICE_TYPE);
    CHECK(clCreateContextFromType(NULL, (cl_device_type)1 << 33, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_DEVICE_TYPE);
    int user_data = 1;
    CHECK(clCreateContextFromType(NULL, CL_DEVICE_TYPE_DEFAULT, NULL, &user_data, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);

    cl_context_properties bad_platform[] = { CL_CONTEXT_PLATFORM, 0, 0 };
    CHECK(clCreateContextFromType(bad_platform, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PLATFORM);
    bad_platform[1] = (cl_context_properties)device; /* an object, not a platform */
    CHECK(clCreateContextFromType(bad_platform, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PLATFORM);
    cl_context_properties twice[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
                                      CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0 };
    CHECK(clCreateContextFromType(twice, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROPERTY);
    cl_context_properties unknown[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
                                        (cl_context_properties) "INVALID_PROPERTY", 0, 0 };
    CHECK(clCreateContextFromType(unknown, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROPERTY);
}

TEST(create_errors)
{
    cl_int err = 1;
    CHECK(clCreateContext(NULL, 1, NULL, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    CHECK(clCreateContext(NULL, 0, &device, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    int user_data = 1;
    CHECK(clCreateContext(NULL, 1, &device, NULL, &user_data, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_device_id bad[2] = { device, NULL };
    CHECK(clCreateContext(NULL, 2, bad, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_DEVICE);
    bad[1] = (cl_device_id)junk;
    CHECK(clCreateContext(NULL, 2, bad, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_DEVICE);
    bad[1] = (cl_device_id)platform;
    CHECK(clCreateContext(NULL, 2, bad, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_DEVICE);

    cl_context_properties props[5] = { CL_CONTEXT_PLATFORM, 0, 0 };
    CHECK(clCreateContext(props, 1, &device, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PLATFORM);
    props[1] = (cl_context_properties)junk;
    CHECK(clCreateContext(props, 1, &device, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PLATFORM);
    props[0] = (cl_context_properties) "INVALID_PROPERTY";
    props[1] = 0;
    CHECK(clCreateContext(props, 1, &device, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROPERTY);
    props[0] = CL_CONTEXT_INTEROP_USER_SYNC;
    props[1] = -1;
    CHECK(clCreateContext(props, 1, &device, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROPERTY);
    cl_context_properties dup[] = { CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0 };
    CHECK(clCreateContext(dup, 1, &device, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROPERTY);
    cl_context_properties gl[] = { 0x2008 /* CL_GL_CONTEXT_KHR */, 1, 0 };
    CHECK(clCreateContext(gl, 1, &device, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROPERTY);
}

TEST(handle_errors)
{
    cl_uint n;
    CHECK_ERR(clRetainContext(NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clReleaseContext(NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clRetainContext((cl_context)junk), CL_INVALID_CONTEXT);
    CHECK_ERR(clReleaseContext((cl_context)device), CL_INVALID_CONTEXT);
    CHECK_ERR(clGetContextInfo(NULL, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clGetContextInfo((cl_context)junk, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL),
              CL_INVALID_CONTEXT);
    CHECK_ERR(clSetContextDestructorCallback(NULL, destructor_dummy, NULL),
              CL_INVALID_CONTEXT);

    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(clGetContextInfo(ctx, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetContextInfo(ctx, CL_DEVICE_NAME, sizeof n, &n, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof n - 1, &n, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof(cl_device_id) - 1, &n, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetContextDestructorCallback(ctx, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clReleaseContext(ctx), CL_SUCCESS);
}

/* ---- destructor callbacks --------------------------------------------------------- */

static int order[8];
static int calls;
static cl_context seen_context;

static void CL_CALLBACK destructor(cl_context ctx, void *user_data)
{
    seen_context = ctx;
    if (calls < 8)
        order[calls] = (int)(intptr_t)user_data;
    calls++;
}

TEST(destructor_callbacks)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    calls = 0;
    for (intptr_t i = 1; i <= 3; i++)
        CHECK_ERR(clSetContextDestructorCallback(ctx, destructor, (void *)i), CL_SUCCESS);
    CHECK_ERR(clRetainContext(ctx), CL_SUCCESS);
    CHECK_ERR(clReleaseContext(ctx), CL_SUCCESS);
    CHECK(calls == 0); /* still alive */
    CHECK_ERR(clReleaseContext(ctx), CL_SUCCESS);
    /* destroyed by the last release: callbacks ran, newest first */
    CHECK(calls == 3);
    CHECK(order[0] == 3 && order[1] == 2 && order[2] == 1);
    CHECK(seen_context == ctx);
}

/* ---- samplers (the device supports images: docs/images.md) ------------------------- */

TEST(samplers)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);

    err = 1;
    CHECK(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_CONTEXT);
    CHECK(clCreateSampler((cl_context)junk, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_CONTEXT);
    CHECK(clCreateSampler(ctx, CL_TRUE, 0x1234, CL_FILTER_NEAREST, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    CHECK(clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x1234, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    CHECK(clCreateSampler(ctx, 7, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);

    /* every combination is made and answers what it was made with */
    static const cl_addressing_mode modes[] = { CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                                CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT };
    for (int norm = 0; norm < 2; norm++)
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
            for (int lin = 0; lin < 2; lin++) {
                cl_filter_mode f = lin ? CL_FILTER_LINEAR : CL_FILTER_NEAREST;
                cl_sampler s = clCreateSampler(ctx, norm ? CL_TRUE : CL_FALSE, modes[m], f, &err);
                CHECK_ERR(err, CL_SUCCESS);
                if (!s)
                    continue;
                cl_bool nb = 9;
                cl_addressing_mode am = 0;
                cl_filter_mode fm = 0;
                cl_context c = NULL;
                size_t size = 99;
                CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof nb, &nb, NULL), CL_SUCCESS);
                CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL), CL_SUCCESS);
                CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL), CL_SUCCESS);
                CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
                CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
                CHECK(nb == (norm ? CL_TRUE : CL_FALSE) && am == modes[m] && fm == f && c == ctx && size == 0);
                CHECK_ERR(clReleaseSampler(s), CL_SUCCESS);
            }

    cl_sampler_properties props[] = { CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_ADDRESSING_MODE,
                                      CL_ADDRESS_CLAMP_TO_EDGE, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0 };
    CHECK(clCreateSamplerWithProperties(NULL, props, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_CONTEXT);
    cl_sampler s = clCreateSamplerWithProperties(ctx, props, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_sampler_properties got[8] = { 0 };
    size_t size = 0;
    cl_uint n = 0;
    CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof got, got, &size), CL_SUCCESS);
    CHECK(size == sizeof props && memcmp(got, props, sizeof props) == 0);
    CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 8, got, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clRetainSampler(s), CL_SUCCESS);
    CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof n, &n, NULL), CL_SUCCESS);
    CHECK(n == 2);
    CHECK(refcount(ctx) == 1); /* a sampler holds its context internally only */
    CHECK_ERR(clReleaseSampler(s), CL_SUCCESS);
    CHECK_ERR(clReleaseSampler(s), CL_SUCCESS);

    /* the defaults: normalized, clamp, nearest */
    s = clCreateSamplerWithProperties(ctx, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_bool nb = 0;
    cl_addressing_mode am = 0;
    cl_filter_mode fm = 0;
    CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof nb, &nb, NULL), CL_SUCCESS);
    CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL), CL_SUCCESS);
    CHECK_ERR(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL), CL_SUCCESS);
    CHECK(nb == CL_TRUE && am == CL_ADDRESS_CLAMP && fm == CL_FILTER_NEAREST);
    CHECK_ERR(clGetSamplerInfo(s, 0x7777, sizeof n, &n, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clReleaseSampler(s), CL_SUCCESS);

    cl_sampler_properties unknown[] = { 0x7777, 1, 0 };
    CHECK(clCreateSamplerWithProperties(ctx, unknown, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_sampler_properties twice[] = { CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
                                      CL_FILTER_LINEAR, 0 };
    CHECK(clCreateSamplerWithProperties(ctx, twice, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_sampler_properties bad_bool[] = { CL_SAMPLER_NORMALIZED_COORDS, 5, 0 };
    CHECK(clCreateSamplerWithProperties(ctx, bad_bool, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);

    CHECK_ERR(clRetainSampler(NULL), CL_INVALID_SAMPLER);
    CHECK_ERR(clReleaseSampler((cl_sampler)junk), CL_INVALID_SAMPLER);
    CHECK_ERR(clReleaseSampler((cl_sampler)ctx), CL_INVALID_SAMPLER);
    CHECK_ERR(clGetSamplerInfo(NULL, CL_SAMPLER_REFERENCE_COUNT, sizeof n, &n, NULL), CL_INVALID_SAMPLER);
    CHECK_ERR(clGetSamplerInfo((cl_sampler)junk, CL_SAMPLER_REFERENCE_COUNT, sizeof n, &n, NULL),
              CL_INVALID_SAMPLER);

    CHECK(refcount(ctx) == 1); /* released samplers left no reference behind */
    clReleaseContext(ctx);
}

int main(int argc, char **argv)
{
    memset(junk, 0x5a, sizeof junk);
    CHECK_ERR(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), CL_SUCCESS);
    if (!platform || !device)
        return test_summary();
    test_run(argc, argv);
    return test_summary();
}
