/*
 * SPIR-V programs through the ICD loader (docs/spirv.md): device and program
 * queries, kernels from SPIR-V that clang-15 and llvm-spirv-15 made at build
 * time (the .cl files of tests/e2e/spirv; math through the OpenCL.std instructions,
 * local memory and barriers, atomics, printf, images), specialization
 * constants of every scalar size, SPIR-V linked with OpenCL C both ways,
 * program-scope variables beyond the device's limits, and malformed,
 * truncated and unsupported modules.
 *
 *   usage: test_spirv [case|--list]   (the cases: test_spirv.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEST_LIST "test_spirv.list"
#include "test.h"
#include "cl_test.h"
#include "../common/dot_ref.h"

#ifndef SPIRV_DIR
#error "SPIRV_DIR: the folder of the SPIR-V files the build made"
#endif

static cl_platform_id platform;
static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

/* CHECK_ERR with a message saying which of several */
#define CHECK_ERR_AT(expression, expected, format, ...)                                                  \
    do {                                                                                                   \
        long got_ = (long)(expression);                                                                    \
        CHECK(got_ == (long)(expected), "%s is %ld, not %s; " format, #expression, got_, #expected,        \
              __VA_ARGS__);                                                                                \
    } while (0)

typedef struct module { unsigned char *data; size_t size; } module;

/* A SPIR-V file the build made (SPIRV_DIR/name.spv). */
static module load(const char *name)
{
    module m = {0};
    m.data = test_read_spirv(SPIRV_DIR, name, &m.size);
    return m;
}

static cl_program create(const void *il, size_t size, cl_int *err)
{
    return clCreateProgramWithIL(context, il, size, err);
}


/* The module built; NULL (log on stderr) when it failed. */
static cl_program build_module(const char *name, const char *options)
{
    module m = load(name);
    cl_int err;
    cl_program p = create(m.data, m.size, &err);
    free(m.data);
    CHECK_ERR(err, CL_SUCCESS);
    if (!p)
        return NULL;
    err = clBuildProgram(p, 1, &device, options, NULL, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    if (err != CL_SUCCESS) {
        char *log = test_build_log(p, device);
        fprintf(stderr, "build log of %s:\n%s\n", name, log);
        free(log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

static cl_mem buffer(size_t size, const void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), size, (void *)host,
                              &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

static cl_kernel kernel(cl_program p, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_ERR_AT(err, CL_SUCCESS, "kernel %s", name);
    return k;
}

/* ---- queries --------------------------------------------------------------------- */

TEST(device_queries)
{
    char text[8192] = "";
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, sizeof text, text, NULL), CL_SUCCESS);
    CHECK(!strcmp(text, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4"), "IL version '%s'", text);
    cl_name_version ils[16];
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_ILS_WITH_VERSION, sizeof ils, ils, &size), CL_SUCCESS);
    CHECK(size == 5 * sizeof(cl_name_version), "%zu bytes", size);
    for (unsigned i = 0; i < size / sizeof *ils; i++) {
        CHECK(!strcmp(ils[i].name, "SPIR-V"), "%s", ils[i].name);
        CHECK(ils[i].version == CL_MAKE_VERSION(1, i, 0), "entry %u: %x", i, ils[i].version);
    }
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof text, text, NULL), CL_SUCCESS);
    CHECK(strstr(text, "cl_khr_il_program") != NULL, "%s", text);
    CHECK_ERR(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof text, text, NULL), CL_SUCCESS);
    CHECK(strstr(text, "cl_khr_il_program") != NULL, "%s", text);
}

TEST(program_queries)
{
    module m = load("kernels");
    cl_int err;
    /* the extension's entry point, through the loader */
    clCreateProgramWithILKHR_fn khr =
        (clCreateProgramWithILKHR_fn)clGetExtensionFunctionAddressForPlatform(platform, "clCreateProgramWithILKHR");
    CHECK(khr != NULL);
    cl_program p = khr ? khr(context, m.data, m.size, &err) : create(m.data, m.size, &err);
    CHECK_ERR(err, CL_SUCCESS);
    /* CL_PROGRAM_IL gives the module back, byte for byte */
    size_t size = 0;
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &size), CL_SUCCESS);
    CHECK(size == m.size, "%zu bytes, not %zu", size, m.size);
    unsigned char *back = malloc(m.size);
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_IL, m.size, back, NULL), CL_SUCCESS);
    CHECK(!memcmp(back, m.data, m.size));
    free(back);
    cl_bool present = CL_TRUE;
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof present, &present, NULL),
              CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_ERR(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof present, &present, NULL), CL_SUCCESS);
    CHECK(present == CL_FALSE);
    present = CL_TRUE;
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof present, &present, NULL), CL_SUCCESS);
    CHECK(present == CL_FALSE);
    char names[256] = "";
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL), CL_SUCCESS);
    CHECK(strstr(names, "group_sum") && strstr(names, "math") && strstr(names, "atomics"), "%s", names);
    /* argument info is for programs from source (the spec) */
    cl_kernel k = kernel(p, "math");
    char arg[64];
    CHECK_ERR(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof arg, arg, NULL), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    CHECK_ERR(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof arg, arg, NULL),
              CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    cl_uint nargs = 0;
    CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL), CL_SUCCESS);
    CHECK(nargs == 3);
    clReleaseKernel(k);
    /* a program from source has no IL */
    cl_program src = test_build_program(context, device, "kernel void k(void) {}", NULL);
    size = 1;
    CHECK_ERR(clGetProgramInfo(src, CL_PROGRAM_IL, 0, NULL, &size), CL_SUCCESS);
    CHECK(size == 0);
    clReleaseProgram(src);
    clReleaseProgram(p);
    free(m.data);
}

/* ---- kernels ------------------------------------------------------------------------ */

TEST(math)
{
    cl_program p = build_module("kernels", NULL);
    if (!p)
        return;
    enum { N = 256 };
    float a[N], out[N];
    for (int i = 0; i < N; i++)
        a[i] = (float)(i - 128) / 16.0f;
    cl_mem ab = buffer(sizeof a, a), ob = buffer(sizeof out, NULL);
    float s = 0.75f;
    cl_kernel k = kernel(p, "math");
    clSetKernelArg(k, 0, sizeof ab, &ab);
    clSetKernelArg(k, 1, sizeof ob, &ob);
    clSetKernelArg(k, 2, sizeof s, &s);
    size_t global = N;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int c = (int)a[i] < -2 ? -2 : (int)a[i] > 2 ? 2 : (int)a[i];
        double want = fma(a[i], s, 1.0) + sqrt(fabs(a[i])) + sin(a[i]) * cos(a[i]) + fmax(a[i], 0.5) + c;
        if (fabs(out[i] - want) > 1e-4 * (1 + fabs(want)) && bad++ < 5)
            CHECK(0, "math(%g) = %g, not %g", a[i], out[i], want);
    }
    CHECK(bad == 0, "%d wrong", bad);
    clReleaseMemObject(ab);
    clReleaseMemObject(ob);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* A struct passed by value, as llvm-spirv writes it: a pointer to Function
 * memory decorated FuncParamAttr ByVal, which the kernel check refused as a
 * private pointer (AdaptiveCpp's SYCL kernels all take their lambda so). */
typedef struct {
    cl_int a;
    cl_float b;
    cl_long c;
    cl_char d;
    cl_float4 v;
} by_value_t;

TEST(struct_by_value)
{
    cl_program p = build_module("kernels", NULL);
    if (!p)
        return;
    enum { N = 64 };
    float out[N];
    cl_mem ob = buffer(sizeof out, NULL);
    by_value_t s = {.a = 3, .b = 0.5f, .c = 1000, .d = -7, .v = {{1.0f, 2.0f, 3.0f, 4.0f}}};
    cl_int k3 = 3;
    cl_kernel k = kernel(p, "by_value");
    CHECK_ERR(clSetKernelArg(k, 0, sizeof ob, &ob), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof s, &s), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof s - 8, &s), CL_INVALID_ARG_SIZE);
    CHECK_ERR(clSetKernelArg(k, 2, sizeof k3, &k3), CL_SUCCESS);
    size_t global = N;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != 3.0f + 0.5f + 1000.0f - 7.0f + 1.0f + 4.0f + (float)(3 * i);
    CHECK(bad == 0, "%d wrong (out[1] %g)", bad, out[1]);
    clReleaseMemObject(ob);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST(local_memory_and_barriers)
{
    cl_program p = build_module("kernels", NULL);
    if (!p)
        return;
    enum { N = 512, L = 64 };
    int in[N], sums[N / L], data[N];
    for (int i = 0; i < N; i++)
        in[i] = data[i] = i * 3 - 100;
    cl_mem ib = buffer(sizeof in, in), sb = buffer(sizeof sums, NULL), db = buffer(sizeof data, data);
    cl_kernel k = kernel(p, "group_sum");
    clSetKernelArg(k, 0, sizeof ib, &ib);
    clSetKernelArg(k, 1, sizeof sb, &sb);
    clSetKernelArg(k, 2, L * sizeof(int), NULL);
    size_t global = N, local = L;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, sb, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL), CL_SUCCESS);
    for (int g = 0; g < N / L; g++) {
        int want = 0;
        for (int i = 0; i < L; i++)
            want += in[g * L + i];
        CHECK(sums[g] == want, "group %d: %d, not %d", g, sums[g], want);
    }
    cl_kernel r = kernel(p, "reverse_in_group");
    clSetKernelArg(r, 0, sizeof db, &db);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, r, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, db, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < N; i++)
        if (data[i] != in[(i / L) * L + L - 1 - i % L]) {
            CHECK(0, "reverse: data[%d] = %d", i, data[i]);
            break;
        }
    size_t static_local = 0;
    CHECK_ERR(clGetKernelWorkGroupInfo(r, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof static_local, &static_local, NULL),
              CL_SUCCESS);
    CHECK(static_local >= 64 * sizeof(int), "%zu bytes of local memory", static_local);
    clReleaseMemObject(ib);
    clReleaseMemObject(sb);
    clReleaseMemObject(db);
    clReleaseKernel(k);
    clReleaseKernel(r);
    clReleaseProgram(p);
}

TEST(atomics)
{
    cl_program p = build_module("kernels", NULL);
    if (!p)
        return;
    enum { N = 4096 };
    int counters[3] = {0, 0, -1}, c11 = 5;
    cl_mem cb = buffer(sizeof counters, counters), c11b = buffer(sizeof c11, &c11);
    cl_kernel k = kernel(p, "atomics");
    clSetKernelArg(k, 0, sizeof cb, &cb);
    clSetKernelArg(k, 1, sizeof c11b, &c11b);
    size_t global = N, local = 64;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, cb, CL_TRUE, 0, sizeof counters, counters, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, c11b, CL_TRUE, 0, sizeof c11, &c11, 0, NULL, NULL), CL_SUCCESS);
    CHECK(counters[0] == N, "atomic_inc: %d", counters[0]);
    CHECK(counters[1] == N * (N - 1) / 2, "atomic_add: %d", counters[1]);
    CHECK(counters[2] == N - 1, "atomic_max: %d", counters[2]);
    CHECK(c11 == 5 + 2 * N, "atomic_fetch_add_explicit: %d", c11);
    clReleaseMemObject(cb);
    clReleaseMemObject(c11b);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* a function SPIR-V says not to inline (DontInline) */
TEST(noinline_function)
{
    cl_program p = build_module("kernels", NULL);
    if (!p)
        return;
    int a[8] = {0, 1, 2, 3, 4, 5, 6, -7};
    cl_mem ab = buffer(sizeof a, a);
    cl_kernel k = kernel(p, "use_helper");
    clSetKernelArg(k, 0, sizeof ab, &ab);
    size_t global = 8;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    int out[8];
    CHECK_ERR(clEnqueueReadBuffer(queue, ab, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 8; i++)
        CHECK(out[i] == a[i] * 3 + 1, "helper(%d) = %d", a[i], out[i]);
    clReleaseMemObject(ab);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* printf's output: fd 1 goes to a file while the kernel runs */
TEST(printf)
{
    cl_program p = build_module("kernels", NULL);
    if (!p)
        return;
    int x = 42;
    cl_mem xb = buffer(sizeof x, &x);
    cl_kernel k = kernel(p, "say");
    clSetKernelArg(k, 0, sizeof xb, &xb);
    size_t global = 1;
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(1);
    dup2(fileno(tmp), 1);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    char text[256] = "";
    ssize_t n = pread(fileno(tmp), text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = 0;
    dup2(saved, 1);
    close(saved);
    fclose(tmp);
    CHECK(!strcmp(text, "spirv printf 42 1.50 ok 1,2,3,4\n"), "printed '%s'", text);
    clReleaseMemObject(xb);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST(images)
{
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images)
        TEST_SKIP("no image support");
    cl_program p = build_module("images", NULL);
    if (!p)
        return;
    enum { W = 13, H = 7 };
    float pixels[W * H * 4], out[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        pixels[i] = (float)i / 8.0f;
    cl_image_format format = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
    cl_int err;
    cl_mem src = clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc, pixels, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem dst = clCreateImage(context, CL_MEM_WRITE_ONLY, &format, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = kernel(p, "copy_image");
    clSetKernelArg(k, 0, sizeof src, &src);
    clSetKernelArg(k, 1, sizeof dst, &dst);
    size_t global[2] = {W, H}, origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < W * H * 4; i++)
        if (out[i] != 2 * pixels[i]) {
            CHECK(0, "pixel value %d: %g, not %g", i, out[i], 2 * pixels[i]);
            break;
        }
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* ---- specialization constants ---------------------------------------------------- */

/* Runs spec(l, d) of p. */
static void run_spec(cl_program p, int64_t l[5], double d[2])
{
    cl_mem lb = buffer(5 * sizeof *l, NULL), db = buffer(2 * sizeof *d, NULL);
    cl_kernel k = kernel(p, "spec");
    clSetKernelArg(k, 0, sizeof lb, &lb);
    clSetKernelArg(k, 1, sizeof db, &db);
    size_t global = 1;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, lb, CL_TRUE, 0, 5 * sizeof *l, l, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, db, CL_TRUE, 0, 2 * sizeof *d, d, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(lb);
    clReleaseMemObject(db);
    clReleaseKernel(k);
}

TEST(specialization_constants)
{
    module m = load("spec");
    cl_int err;
    cl_program p = create(m.data, m.size, &err);
    CHECK_ERR(err, CL_SUCCESS);
    /* the defaults */
    CHECK_ERR(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    int64_t l[5];
    double d[2];
    run_spec(p, l, d);
    CHECK(l[0] == 22 && l[1] == -3 && l[2] == 300 && l[3] == 70000 && l[4] == 5000000000LL,
          "defaults: %lld %lld %lld %lld %lld", (long long)l[0], (long long)l[1], (long long)l[2], (long long)l[3],
          (long long)l[4]);
    CHECK(d[0] == 1.25 && d[1] == 2.5, "defaults: %g %g", d[0], d[1]);

    /* every size, with values the translator's own option refuses
     * (negative numbers, 64-bit values over 2^62) */
    cl_uchar b = 7; /* any non-zero value is true */
    cl_char c = -100;
    cl_short s = -32768;
    cl_int i = -123456789;
    cl_long lg = INT64_MIN + 5;
    cl_float f = -0.0625f;
    cl_double db = 1e300;
    CHECK_ERR(clSetProgramSpecializationConstant(p, 1, 1, &b), CL_SUCCESS);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 2, 1, &c), CL_SUCCESS);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 3, 2, &s), CL_SUCCESS);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 4, 4, &i), CL_SUCCESS);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 5, 8, &lg), CL_SUCCESS);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 6, 4, &f), CL_SUCCESS);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 7, 8, &db), CL_SUCCESS);
    CHECK_ERR(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    run_spec(p, l, d);
    CHECK(l[0] == 11 && l[1] == -100 && l[2] == -32768 && l[3] == -123456789 && l[4] == INT64_MIN + 5,
          "set: %lld %lld %lld %lld %lld", (long long)l[0], (long long)l[1], (long long)l[2], (long long)l[3],
          (long long)l[4]);
    CHECK(d[0] == -0.0625 && d[1] == 1e300, "set: %g %g", d[0], d[1]);

    /* the last value set wins; false is zero */
    b = 0;
    lg = INT64_MAX;
    CHECK_ERR(clSetProgramSpecializationConstant(p, 1, 1, &b), CL_SUCCESS);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 5, 8, &lg), CL_SUCCESS);
    CHECK_ERR(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    run_spec(p, l, d);
    CHECK(l[0] == 22 && l[4] == INT64_MAX && l[3] == -123456789, "again: %lld %lld %lld", (long long)l[0],
          (long long)l[4], (long long)l[3]);

    /* errors */
    CHECK_ERR(clSetProgramSpecializationConstant(p, 99, 4, &i), CL_INVALID_SPEC_ID);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 4, 8, &lg), CL_INVALID_VALUE);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 1, 4, &i), CL_INVALID_VALUE);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 4, 4, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetProgramSpecializationConstant(NULL, 4, 4, &i), CL_INVALID_PROGRAM);
    cl_program src = test_build_program(context, device, "kernel void k(void) {}", NULL);
    CHECK_ERR(clSetProgramSpecializationConstant(src, 4, 4, &i), CL_INVALID_PROGRAM);
    clReleaseProgram(src);
    clReleaseProgram(p);
    free(m.data);
}

/* ---- linking with OpenCL C ------------------------------------------------------ */

TEST(link_with_opencl_c)
{
    module m = load("linked");
    cl_int err;
    cl_program il = create(m.data, m.size, &err);
    CHECK_ERR(err, CL_SUCCESS);
    free(m.data);
    const char *source = "int twice(int x);\n"
                         "int offset(int x) { return x + 1000; }\n"
                         "kernel void from_c(global int *a) { a[get_global_id(0)] = twice(a[get_global_id(0)]); }\n";
    cl_program c = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clCompileProgram(il, 1, &device, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clCompileProgram(c, 1, &device, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_program_binary_type type = 0;
    clGetProgramBuildInfo(il, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL);
    CHECK(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    cl_program inputs[2] = {il, c};
    cl_program linked = clLinkProgram(context, 1, &device, NULL, 2, inputs, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (linked) {
        int a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4};
        cl_mem ab = buffer(sizeof a, a), bb = buffer(sizeof b, b);
        cl_kernel ks = kernel(linked, "from_spirv"), kc = kernel(linked, "from_c");
        clSetKernelArg(ks, 0, sizeof ab, &ab);
        clSetKernelArg(kc, 0, sizeof bb, &bb);
        size_t global = 4;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, ks, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueNDRangeKernel(queue, kc, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
        clEnqueueReadBuffer(queue, ab, CL_TRUE, 0, sizeof a, a, 0, NULL, NULL);
        clEnqueueReadBuffer(queue, bb, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL);
        for (int i = 0; i < 4; i++) {
            CHECK(a[i] == i + 1 + 1000, "from_spirv: a[%d] = %d", i, a[i]);
            CHECK(b[i] == 2 * (i + 1), "from_c: b[%d] = %d", i, b[i]);
        }
        clReleaseMemObject(ab);
        clReleaseMemObject(bb);
        clReleaseKernel(ks);
        clReleaseKernel(kc);
        clReleaseProgram(linked);
    }
    /* alone, the SPIR-V program lacks `offset`: the build says so */
    CHECK_ERR(clBuildProgram(il, 1, &device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char *log = test_build_log(il, device);
    CHECK(strstr(log, "offset") != NULL, "log: %s", log);
    free(log);
    clReleaseProgram(il);
    clReleaseProgram(c);
}

/* The build log of module `name`, whose build must fail with
 * CL_BUILD_PROGRAM_FAILURE (malloc'd; NULL when it could not be made); the
 * program in *program when it was created (the caller releases it). */
static char *failed_build_log(const char *name, cl_program *program)
{
    module m = load(name);
    cl_int err;
    cl_program p = create(m.data, m.size, &err);
    free(m.data);
    CHECK_ERR(err, CL_SUCCESS);
    *program = p;
    if (!p)
        return NULL;
    CHECK_ERR(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    return test_build_log(p, device);
}

/* Program-scope variables beyond the device's limits (spirv/big_variables.cl):
 * a __global one of 2^42 bytes once aborted the host in the JIT.  The
 * build fails before any code is made of them and says which. */
TEST(program_scope_limits)
{
    cl_program p;
    char *log = failed_build_log("big_variables", &p);
    if (!p)
        return;
    CHECK(log && strstr(log, "'big' takes 4398046511104 bytes") && strstr(log, "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE") &&
              strstr(log, "268435456") && strstr(log, "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE"),
          "log: %s", log);
    free(log);
    clReleaseProgram(p);
}

/* ---- bad modules ------------------------------------------------------------------- */

static cl_int create_error(const void *il, size_t size)
{
    cl_int err = CL_SUCCESS;
    cl_program p = create(il, size, &err);
    CHECK(p == NULL);
    if (p)
        clReleaseProgram(p);
    return err;
}

static char last_notice[2048];
static void CL_CALLBACK notice(const char *errinfo, const void *info, size_t cb, void *user)
{
    (void)info, (void)cb, (void)user;
    snprintf(last_notice + 1, sizeof last_notice - 1, "%s", errinfo + (*errinfo != 0));
    __atomic_store_n(&last_notice[0], *errinfo, __ATOMIC_RELEASE);
}

TEST(malformed)
{
    module m = load("kernels");
    uint32_t *w = malloc(m.size);
    memcpy(w, m.data, m.size);
    CHECK_ERR(create_error(NULL, m.size), CL_INVALID_VALUE);
    CHECK_ERR(create_error(m.data, 0), CL_INVALID_VALUE);
    cl_int err;
    CHECK(clCreateProgramWithIL(NULL, m.data, m.size, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_CONTEXT);
    /* not SPIR-V at all: OpenCL C, garbage */
    const char *text = "kernel void k(global int *a) { a[0] = 1; }";
    CHECK_ERR(create_error(text, strlen(text)), CL_INVALID_VALUE);
    /* truncated: inside the header, at every instruction boundary and in between */
    for (size_t cut = 0; cut < m.size; cut += cut < 64 ? 1 : 97)
        CHECK_ERR_AT(create_error(m.data, cut), CL_INVALID_VALUE, "cut at %zu", cut);
    /* a length that is not whole words */
    CHECK_ERR(create_error(m.data, m.size - 1), CL_INVALID_VALUE);
    /* the magic number wrong */
    w[0] ^= 1;
    CHECK_ERR(create_error(w, m.size), CL_INVALID_VALUE);
    w[0] ^= 1;
    /* an instruction's word count running past the end */
    uint32_t saved = w[5];
    w[5] = 0xffff0000u | (saved & 0xffffu);
    CHECK_ERR(create_error(w, m.size), CL_INVALID_VALUE);
    /* a word count of zero */
    w[5] = saved & 0xffffu;
    CHECK_ERR(create_error(w, m.size), CL_INVALID_VALUE);
    w[5] = saved;
    /* garbage after a valid header */
    uint32_t *g = malloc(m.size);
    memcpy(g, w, 20);
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 5; i < m.size / 4; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        g[i] = (uint32_t)x;
    }
    CHECK_ERR(create_error(g, m.size), CL_INVALID_VALUE);
    free(g);
    /* an id beyond the header's bound */
    uint32_t bound = w[3];
    w[3] = 2;
    CHECK_ERR(create_error(w, m.size), CL_INVALID_VALUE);
    w[3] = bound;
    /* the reason reaches the context's callback */
    cl_context ctx = clCreateContext(NULL, 1, &device, notice, NULL, &err);
    last_notice[0] = 0;
    CHECK(clCreateProgramWithIL(ctx, m.data, 12, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    /* (the callback runs on another thread) */
    for (int i = 0; i < 200 && !__atomic_load_n(&last_notice[0], __ATOMIC_ACQUIRE); i++)
        usleep(10000);
    CHECK(strstr(last_notice, "SPIR-V module is 12 bytes") != NULL, "notice: '%s'", last_notice);
    clReleaseContext(ctx);
    /* and the intact module is still fine */
    cl_program p = create(w, m.size, &err);
    CHECK_ERR(err, CL_SUCCESS);
    clReleaseProgram(p);
    free(w);
    free(m.data);
}

/* Kernels from SPIR-V call only the builtins and their module's functions:
 * a module importing system, exit or getpid from the host does not build
 * (it once ran a shell, ended the host, read its pid). */
TEST(host_calls)
{
    rmdir("/tmp/mosaic-spirv-host-call");
    cl_program p;
    cl_int err;
    char *log = failed_build_log("host_calls", &p);
    if (!p)
        return;
    const char *names[] = {"system", "exit", "getpid"};
    for (int i = 0; i < 3; i++)
        CHECK(log && strstr(log, names[i]), "the log does not name %s: %s", names[i], log ? log : "");
    free(log);
    cl_kernel k = clCreateKernel(p, "run_shell", &err);
    CHECK(k == NULL);
    CHECK_ERR(err, CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(p);
    CHECK(access("/tmp/mosaic-spirv-host-call", F_OK) != 0, "a kernel ran a shell");
}

static uint32_t swap32(uint32_t v)
{
    return v >> 24 | (v >> 8 & 0xff00u) | (v << 8 & 0xff0000u) | v << 24;
}

TEST(versions)
{
    module m = load("kernels");
    uint32_t *w = malloc(m.size);
    memcpy(w, m.data, m.size);
    cl_int err14;
    /* 1.0 to 1.3 build (the module uses nothing newer than 1.0; 1.4 asks
     * more of it: its entry points must list every global variable) */
    for (unsigned minor = 0; minor <= 3; minor++) {
        w[1] = 0x10000u | minor << 8;
        cl_int err;
        cl_program p = create(w, m.size, &err);
        CHECK_ERR_AT(err, CL_SUCCESS, "SPIR-V 1.%u", minor);
        if (p) {
            CHECK_ERR_AT(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS, "SPIR-V 1.%u", minor);
            clReleaseProgram(p);
        }
    }
    /* a real 1.4 module (llvm-spirv-15's default); what the translator lacks
     * of 1.4 is rewritten first (spirv14_lowering) */
    module m14 = load("kernels14");
    CHECK(m14.size > 8 && m14.data[4] == 0 && m14.data[5] == 4 && m14.data[6] == 1, "kernels14.spv is not 1.4");
    cl_program p14 = create(m14.data, m14.size, &err14);
    CHECK_ERR(err14, CL_SUCCESS);
    if (p14) {
        CHECK_ERR(clBuildProgram(p14, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
        clReleaseProgram(p14);
    }
    free(m14.data);
    /* newer than the translator reads, and nonsense */
    const uint32_t refused[] = {0x10500u, 0x10600u, 0x20000u, 0x00000u, 0x10001u};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        w[1] = refused[i];
        CHECK_ERR_AT(create_error(w, m.size), CL_INVALID_VALUE, "version word 0x%x", refused[i]);
    }
    /* the other byte order */
    w[1] = 0x10000u;
    for (size_t i = 0; i < m.size / 4; i++)
        w[i] = swap32(w[i]);
    cl_int err;
    cl_program p = create(w, m.size, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (p) {
        CHECK_ERR(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
        cl_kernel k = kernel(p, "group_sum");
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    free(w);
    free(m.data);
}

/* Options: those of the compiler are accepted, the code generation ones
 * used; an unknown one is refused as for source. */
TEST(build_options)
{
    module m = load("kernels");
    cl_int err;
    cl_program p = create(m.data, m.size, &err);
    CHECK_ERR(clBuildProgram(p, 1, &device, "-cl-fast-relaxed-math -D UNUSED=1", NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clBuildProgram(p, 1, &device, "-cl-opt-disable", NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clBuildProgram(p, 1, &device, "-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    clReleaseProgram(p);
    free(m.data);
}

/* ---- kernel signatures: modules written word by word ----------------------------
 * Each module has one kernel, k(p), whose parameter's type the case declares;
 * spirv-val takes them all, the OpenCL SPIR-V environment only some. */

enum {
    OP_NAME = 5, OP_MEMORY_MODEL = 14, OP_ENTRY_POINT = 15, OP_CAPABILITY = 17, OP_TYPE_VOID = 19,
    OP_TYPE_BOOL = 20, OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22, OP_TYPE_VECTOR = 23, OP_TYPE_ARRAY = 28,
    OP_TYPE_STRUCT = 30, OP_TYPE_POINTER = 32, OP_TYPE_FUNCTION = 33, OP_TYPE_EVENT = 34,
    OP_TYPE_DEVICE_EVENT = 35, OP_TYPE_RESERVE_ID = 36, OP_TYPE_QUEUE = 37, OP_CONSTANT = 43, OP_FUNCTION = 54,
    OP_FUNCTION_PARAMETER = 55, OP_FUNCTION_END = 56, OP_STORE = 62, OP_DECORATE = 71, OP_LABEL = 248,
    OP_RETURN = 253, DECORATION_FUNC_PARAM_ATTR = 38, FUNC_PARAM_ATTR_BY_VAL = 2,
    SC_UNIFORM_CONSTANT = 0, SC_WORKGROUP = 4, SC_CROSS_WORKGROUP = 5, SC_FUNCTION = 7,
    SC_GENERIC = 8,
};
/* one instruction: its first word (word count, opcode), then its operands */
#define INS(op, ...) ((uint32_t)(1 + sizeof((uint32_t[]){__VA_ARGS__}) / 4) << 16 | (op)), __VA_ARGS__

/* Ids: the module's own below 10, the case's types from 10 (%10 is always
 * a 32-bit integer, %11 the constant 7 of it: the case adds after them). */
enum { ID_KERNEL = 1, ID_VOID = 2, ID_PARAM = 3, ID_FN_TYPE = 4, ID_LABEL = 5, ID_INT = 10, ID_SEVEN = 11 };

typedef struct signature {
    const char *what;
    uint32_t types[16]; /* the case's type declarations (INS), 0-terminated */
    uint32_t param;     /* the parameter's type */
    bool store;         /* the kernel stores 7 through p (p points to an int) */
    const char *refusal; /* what the build log says, NULL: it builds */
    bool by_val;         /* the parameter is decorated FuncParamAttr ByVal */
} signature;

/* The module of case c; *size its bytes. */
static uint32_t *signature_module(const signature *c, size_t *size)
{
    static const uint32_t head[] = {
        0x07230203u, 0x00010000u, 0, 64, 0,
        /* (every capability a case may need) */
        INS(OP_CAPABILITY, 4 /* Addresses */), INS(OP_CAPABILITY, 6 /* Kernel */),
        INS(OP_CAPABILITY, 9 /* Float16 */), INS(OP_CAPABILITY, 10 /* Float64 */),
        INS(OP_CAPABILITY, 11 /* Int64 */), INS(OP_CAPABILITY, 17 /* Pipes */),
        INS(OP_CAPABILITY, 19 /* DeviceEnqueue */), INS(OP_CAPABILITY, 38 /* GenericPointer */),
        INS(OP_MEMORY_MODEL, 2 /* Physical64 */, 2 /* OpenCL */),
        INS(OP_ENTRY_POINT, 6 /* Kernel */, ID_KERNEL, 'k'),
        INS(OP_NAME, ID_PARAM, 'p'),
    };
    static const uint32_t by_val[] = {INS(OP_DECORATE, ID_PARAM, DECORATION_FUNC_PARAM_ATTR, FUNC_PARAM_ATTR_BY_VAL)};
    static const uint32_t common_types[] = {
        INS(OP_TYPE_VOID, ID_VOID),
        INS(OP_TYPE_INT, ID_INT, 32, 0),
        INS(OP_CONSTANT, ID_INT, ID_SEVEN, 7),
    };
    size_t ntypes = 0;
    while (ntypes < 16 && c->types[ntypes])
        ntypes += c->types[ntypes] >> 16;
    const uint32_t function[] = {
        INS(OP_TYPE_FUNCTION, ID_FN_TYPE, ID_VOID, c->param),
        INS(OP_FUNCTION, ID_VOID, ID_KERNEL, 0, ID_FN_TYPE),
        INS(OP_FUNCTION_PARAMETER, c->param, ID_PARAM),
        INS(OP_LABEL, ID_LABEL),
    };
    const uint32_t store[] = {INS(OP_STORE, ID_PARAM, ID_SEVEN)};
    const uint32_t end[] = {(1u << 16) | OP_RETURN, (1u << 16) | OP_FUNCTION_END};
    uint32_t tail[sizeof function / 4 + sizeof store / 4 + sizeof end / 4];
    size_t ntail = 0;
    memcpy(tail, function, sizeof function);
    ntail += sizeof function / 4;
    if (c->store) {
        memcpy(tail + ntail, store, sizeof store);
        ntail += sizeof store / 4;
    }
    memcpy(tail + ntail, end, sizeof end);
    ntail += sizeof end / 4;
    size_t ndecorations = c->by_val ? sizeof by_val / 4 : 0, at = 0;
    *size = sizeof head + sizeof common_types + (ndecorations + ntypes + ntail) * 4;
    uint32_t *w = malloc(*size);
    memcpy(w, head, sizeof head);
    at += sizeof head / 4;
    memcpy(w + at, by_val, ndecorations * 4);
    at += ndecorations;
    memcpy(w + at, common_types, sizeof common_types);
    at += sizeof common_types / 4;
    memcpy(w + at, c->types, ntypes * 4);
    memcpy(w + at + ntypes, tail, ntail * 4);
    return w;
}

TEST(kernel_signatures)
{
    char extensions[4096] = "";
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL);
    bool fp16 = strstr(extensions, "cl_khr_fp16") != NULL, fp64 = strstr(extensions, "cl_khr_fp64") != NULL;
    const signature cases[] = {
        /* what the environment allows */
        {"a global pointer", {INS(OP_TYPE_POINTER, 12, SC_CROSS_WORKGROUP, ID_INT)}, 12, true, NULL},
        {"a constant pointer", {INS(OP_TYPE_POINTER, 12, SC_UNIFORM_CONSTANT, ID_INT)}, 12, false, NULL},
        {"a local pointer", {INS(OP_TYPE_POINTER, 12, SC_WORKGROUP, ID_INT)}, 12, true, NULL},
        {"an int", {0}, ID_INT, false, NULL},
        {"a float4", {INS(OP_TYPE_FLOAT, 12, 32), INS(OP_TYPE_VECTOR, 13, 12, 4)}, 13, false, NULL},
        {"a half", {INS(OP_TYPE_FLOAT, 12, 16)}, 12, false, fp16 ? NULL : "16-bit OpTypeFloat"},
        {"a double", {INS(OP_TYPE_FLOAT, 12, 64)}, 12, false, fp64 ? NULL : "64-bit OpTypeFloat"},
        {"a struct of an int and a global pointer",
         {INS(OP_TYPE_POINTER, 12, SC_CROSS_WORKGROUP, ID_INT), INS(OP_TYPE_STRUCT, 13, ID_INT, 12)}, 13, false,
         NULL},
        {"a queue", {INS(OP_TYPE_QUEUE, 12)}, 12, false, NULL},
        {"a struct by value (a ByVal Function pointer)",
         {INS(OP_TYPE_STRUCT, 12, ID_INT, ID_INT), INS(OP_TYPE_POINTER, 13, SC_FUNCTION, 12)}, 13, false, NULL,
         .by_val = true},
        /* what it does not: a pointer to private memory got the host's cl_mem handle */
        {"a private (Function) pointer", {INS(OP_TYPE_POINTER, 12, SC_FUNCTION, ID_INT)}, 12, true,
         "is a pointer to Function memory"},
        {"a generic pointer", {INS(OP_TYPE_POINTER, 12, SC_GENERIC, ID_INT)}, 12, true,
         "is a pointer to Generic memory"},
        {"a bool", {INS(OP_TYPE_BOOL, 12)}, 12, false, "is an OpTypeBool"},
        {"a struct holding a bool by value",
         {INS(OP_TYPE_BOOL, 12), INS(OP_TYPE_STRUCT, 13, ID_INT, 12), INS(OP_TYPE_POINTER, 14, SC_FUNCTION, 13)}, 14,
         false, "is a struct passed by value (ByVal) holding an OpTypeBool", .by_val = true},
        {"an int by value", {INS(OP_TYPE_POINTER, 12, SC_FUNCTION, ID_INT)}, 12, false,
         "is a ByVal pointer to a 32-bit OpTypeInt; what a kernel takes by value through a pointer is a struct",
         .by_val = true},
        {"a bool4", {INS(OP_TYPE_BOOL, 12), INS(OP_TYPE_VECTOR, 13, 12, 4)}, 13, false,
         "is a vector holding an OpTypeBool"},
        {"an event_t", {INS(OP_TYPE_EVENT, 12)}, 12, false, "is an OpTypeEvent"},
        {"a clk_event_t", {INS(OP_TYPE_DEVICE_EVENT, 12)}, 12, false, "is an OpTypeDeviceEvent"},
        {"a reserve_id_t", {INS(OP_TYPE_RESERVE_ID, 12)}, 12, false, "is an OpTypeReserveId"},
        {"an int[4]", {INS(OP_TYPE_ARRAY, 12, ID_INT, ID_SEVEN)}, 12, false, "is an array"},
        {"a struct holding a bool", {INS(OP_TYPE_BOOL, 12), INS(OP_TYPE_STRUCT, 13, ID_INT, 12)}, 13, false,
         "is a struct holding an OpTypeBool"},
        {"a struct holding a struct holding a clk_event_t",
         {INS(OP_TYPE_DEVICE_EVENT, 12), INS(OP_TYPE_STRUCT, 13, 12), INS(OP_TYPE_STRUCT, 14, ID_INT, 13)}, 14,
         false, "is a struct holding an OpTypeDeviceEvent"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const signature *c = &cases[i];
        size_t size;
        uint32_t *w = signature_module(c, &size);
        cl_int err;
        cl_program p = create(w, size, &err);
        free(w);
        CHECK_ERR_AT(err, CL_SUCCESS, "%s: spirv-val takes the module", c->what);
        if (!p)
            continue;
        err = clBuildProgram(p, 1, &device, NULL, NULL, NULL);
        char *log = test_build_log(p, device);
        if (!c->refusal) {
            CHECK_ERR_AT(err, CL_SUCCESS, "%s: log %s", c->what, log);
            cl_kernel k = err == CL_SUCCESS ? kernel(p, "k") : NULL;
            /* a queue argument is checked as OpenCL C's queue_t is */
            cl_ulong garbage = 0x4141414141414141ull;
            if (k && c->param == 12 && (c->types[0] & 0xffffu) == OP_TYPE_QUEUE)
                CHECK_ERR(clSetKernelArg(k, 0, sizeof garbage, &garbage), CL_INVALID_DEVICE_QUEUE);
            if (k)
                clReleaseKernel(k);
        } else {
            CHECK_ERR_AT(err, CL_BUILD_PROGRAM_FAILURE, "%s", c->what);
            CHECK(strstr(log, "kernel 'k': parameter 0 ('p')") && strstr(log, c->refusal),
                  "%s: the log says '%s'", c->what, log);
            /* no kernel from the failed build */
            CHECK(clCreateKernel(p, "k", &err) == NULL);
            CHECK_ERR_AT(err, CL_INVALID_PROGRAM_EXECUTABLE, "%s", c->what);
            /* clCompileProgram refuses it too */
            CHECK_ERR_AT(clCompileProgram(p, 1, &device, NULL, 0, NULL, NULL, NULL, NULL),
                         CL_COMPILE_PROGRAM_FAILURE, "%s", c->what);
        }
        free(log);
        clReleaseProgram(p);
    }
    /* the global pointer's kernel runs: 7 stored where p points */
    size_t size;
    uint32_t *w = signature_module(&cases[0], &size);
    cl_int err;
    cl_program p = create(w, size, &err);
    free(w);
    CHECK_ERR(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel k = kernel(p, "k");
    int zero = 0, got = 0;
    cl_mem out = buffer(sizeof zero, &zero);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    size_t one = 1;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL), CL_SUCCESS);
    CHECK(got == 7, "got %d", got);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* The dot products and bit operations as SPIR-V instructions (the translator
 * writes OpSDot & co. as __spirv_ calls, builtins/dot_product.cl), against C. */
TEST(dot_product_and_bit_ops)
{
    enum { N = 1024 };
    uint32_t a[N], b[N];
    int32_t acc[N], *out = malloc(sizeof(int32_t) * 12 * N);
    uint64_t state = 88172645463325252ull;
    for (int i = 0; i < N; i++) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        a[i] = (uint32_t)state;
        b[i] = (uint32_t)(state >> 32);
        acc[i] = i % 3 == 0 ? INT32_MAX - (int32_t)(state % 70000) : i % 3 == 1 ? INT32_MIN + 5 : (int32_t)state;
    }
    cl_program p = build_module("dot_bits", NULL);
    if (!p) {
        free(out);
        return;
    }
    cl_int err;
    cl_kernel k = clCreateKernel(p, "dot_bits", &err);
    cl_mem ma = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    cl_mem mb = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
    cl_mem mc = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof acc, acc, &err);
    cl_mem mo = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(int32_t) * 12 * N, NULL, &err);
    clSetKernelArg(k, 0, sizeof ma, &ma);
    clSetKernelArg(k, 1, sizeof mb, &mb);
    clSetKernelArg(k, 2, sizeof mc, &mc);
    clSetKernelArg(k, 3, sizeof mo, &mo);
    size_t n = N;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof(int32_t) * 12 * N, out, 0, NULL, NULL), CL_SUCCESS);
    int failures = 0;
    for (int i = 0; i < N && failures < 5; i++) {
        int64_t uu = dot_ref(a[i], b[i], false, false), ss = dot_ref(a[i], b[i], true, true),
                su = dot_ref(a[i], b[i], true, false);
        int64_t uu_sat = dot_acc_sat_ref(uu, acc[i], true), ss_sat = dot_acc_sat_ref(ss, acc[i], false),
                su_sat = dot_acc_sat_ref(su, acc[i], false);
        uint32_t offset = b[i] % 32, count = (b[i] >> 8) % (33 - offset);
        uint32_t field = count == 32 ? ~0u : ((1u << count) - 1) << offset;
        uint32_t ufield = count == 0 ? 0 : (a[i] >> offset) & (count == 32 ? ~0u : (1u << count) - 1);
        uint32_t sfield = count && (ufield >> (count - 1)) & 1 ? ufield | ~(count == 32 ? ~0u : (1u << count) - 1)
                                                               : ufield;
        uint32_t rev = 0, rev16 = 0;
        for (int j = 0; j < 32; j++)
            rev |= ((a[i] >> j) & 1) << (31 - j);
        for (int j = 0; j < 16; j++)
            rev16 |= ((b[i] >> j) & 1) << (15 - j);
        int64_t want[12] = { uu, ss, su, uu_sat, ss_sat, su_sat, ss, (a[i] & ~field) | ((b[i] << offset) & field),
                             (int32_t)sfield, ufield, rev, rev16 };
        for (int j = 0; j < 12; j++) {
            int64_t got = j == 0 || j == 3 || (j >= 7 && j != 8) ? (int64_t)(uint32_t)out[12 * i + j]
                                                               : (int64_t)out[12 * i + j];
            if (got != want[j]) {
                failures++;
                CHECK(got == want[j], "a 0x%08x b 0x%08x acc %d: result %d is %lld, not %lld", a[i], b[i], acc[i],
                      j, (long long)got, (long long)want[j]);
            }
        }
    }
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    free(out);
}

/* SPIR-V 1.4's instructions that the translator aborts on, and the others
 * spirv_lower.c rewrites, in one module written by hand (spirv/lower14.spvasm). */
TEST(spirv14_lowering)
{
    cl_program p = build_module("lower14", NULL);
    if (!p)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "lower14", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_uint in[8] = { 10, 11, 12, 13, 14, 15, 16, 17 }, out[13];
    memset(out, 0xff, sizeof out);
    cl_mem mi = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem mo = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
    clSetKernelArg(k, 0, sizeof mo, &mo);
    clSetKernelArg(k, 1, sizeof mi, &mi);
    size_t one = 1;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    const cl_uint want[13] = { 1, 1, 3, 11, 14, 15, 0, 0, 14, 15, 16, 17, 12 };
    for (int i = 0; i < 13; i++)
        CHECK(out[i] == want[i], "out[%d] is %u, not %u", i, out[i], want[i]);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* SPV_KHR_subgroup_rotate (the translator's) and SPV_KHR_shader_clock
 * (rewritten by spirv_lower.c into calls of the clock built-ins), in one
 * module written by hand (spirv/rotate_clock.spvasm). */
TEST(rotate_and_clock)
{
    cl_program p = build_module("rotate_clock", NULL);
    if (!p)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "rotate_clock", &err);
    CHECK_ERR(err, CL_SUCCESS);
    enum { N = 64 };
    cl_uint n = N, rot[2 * N];
    cl_ulong *clk = calloc(4 * N, sizeof *clk);
    cl_mem mr = buffer(sizeof rot, NULL), mc = buffer(4 * N * sizeof *clk, NULL);
    clSetKernelArg(k, 0, sizeof mr, &mr);
    clSetKernelArg(k, 1, sizeof mc, &mc);
    clSetKernelArg(k, 2, sizeof n, &n);
    size_t global = N, local = N, size = 0;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, mr, CL_TRUE, 0, sizeof rot, rot, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, mc, CL_TRUE, 0, 4 * N * sizeof *clk, clk, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                      sizeof size, &size, NULL), CL_SUCCESS);
    for (size_t i = 0; size && i < N; i++) {
        size_t lane = i % size, first = i - lane, in_group = size < N - first ? size : N - first;
        CHECK(rot[i] == (lane + 1) % in_group, "rotate: work-item %zu got %u", i, rot[i]);
        CHECK(rot[N + i] == (lane / 4) * 4 + (lane + 1) % 4, "clustered rotate: work-item %zu got %u", i, rot[N + i]);
        const cl_ulong *c = clk + 4 * i;
        CHECK(c[0] > 0 && c[1] >= c[0] && c[2] >= c[1] && c[3] >= c[2], "clocks of work-item %zu: %llu %llu %llu %llu",
              i, (unsigned long long)c[0], (unsigned long long)c[1], (unsigned long long)c[2],
              (unsigned long long)c[3]);
    }
    free(clk);
    clReleaseMemObject(mr);
    clReleaseMemObject(mc);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* SPV_KHR_uniform_group_instructions, arriving as calls of the work-group
 * functions of cl_khr_work_group_uniform_arithmetic (spirv/uniform_group.spvasm). */
TEST(uniform_group)
{
    cl_program p = build_module("uniform_group", NULL);
    if (!p)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "uniform_group", &err);
    CHECK_ERR(err, CL_SUCCESS);
    enum { N = 16 };
    cl_uint io[3 * N];
    cl_float f[N];
    cl_uint mul = 1, and = ~0u;
    cl_float fmul = 1;
    for (int i = 0; i < N; i++) {
        io[i] = 0xf0f0f0f1u ^ (cl_uint)(i << 4);
        f[i] = i % 3 ? 1.5f : 0.5f;
        mul *= io[i];
        fmul *= f[i];
    }
    cl_ulong n = N;
    cl_mem mio = buffer(sizeof io, io), mf = buffer(sizeof f, f);
    clSetKernelArg(k, 0, sizeof mio, &mio);
    clSetKernelArg(k, 1, sizeof mf, &mf);
    clSetKernelArg(k, 2, sizeof n, &n);
    size_t global = N;
    cl_uint in[N];
    memcpy(in, io, sizeof in);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &global, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, mio, CL_TRUE, 0, sizeof io, io, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, mf, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        and &= in[i];
        CHECK(io[i] == mul && io[N + i] == and && io[2 * N + i] == 0 && f[i] == fmul,
              "work-item %d: product %u (%u), and %u (%u), any zero %u, float product %g (%g)", i, io[i], mul,
              io[N + i], and, io[2 * N + i], f[i], fmul);
    }
    clReleaseMemObject(mio);
    clReleaseMemObject(mf);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* A module that declares a capability the device does not report
 * (CL_DEVICE_SPIRV_CAPABILITIES) does not build, and the log names it. */
TEST(unsupported_capability)
{
    cl_program p;
    char *log = failed_build_log("mipmaps", &p);
    if (!p)
        return;
    CHECK(log && strstr(log, "capability 15") && strstr(log, "CL_DEVICE_SPIRV_CAPABILITIES"), "log: %s",
          log ? log : "");
    free(log);
    clReleaseProgram(p);
}

int main(int argc, char **argv)
{
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    queue = clCreateCommandQueueWithProperties(context, device, NULL, NULL);
    test_run(argc, argv);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return test_summary();
}
