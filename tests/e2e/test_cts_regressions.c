/*
 * Regressions found by the Khronos conformance tests (OpenCL-CTS), one case
 * per bug, each named after the CTS test that revealed it.
 *
 *   usage: test_cts_regressions [case|--list]   (the cases: test_cts_regressions.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_cts_regressions.list"
#include "test.h"
#include "cl_test.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static cl_kernel kernel_from(const char *source, const char *name, const char *options, cl_program *program)
{
    cl_int err;
    *program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clBuildProgram(*program, 1, &device, options, NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(*program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
}

/* A new default device queue of the device's preferred size (no CL_QUEUE_SIZE). */
static cl_command_queue default_device_queue(void)
{
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE |
                                       CL_QUEUE_ON_DEVICE_DEFAULT,
                                   0};
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, props, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return q;
}

/* ---- test_api retain_mem_object_set_kernel_arg ------------------------------------
 * A kernel argument holds no reference to its buffer: releasing the user's last
 * reference destroys the buffer (and runs its destructor callbacks) at once,
 * while the buffer is still set as an argument.  A launch holds its buffers. */
static atomic_int destroyed;
static void CL_CALLBACK on_destroy(cl_mem m, void *data)
{
    (void)m, (void)data;
    atomic_fetch_add(&destroyed, 1);
}

TEST(release_buffer_set_as_arg)
{
    cl_int err;
    cl_program p;
    cl_kernel k = kernel_from("__kernel void k(__global int *a) { a[get_global_id(0)] = 5; }", "k", NULL, &p);
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clSetMemObjectDestructorCallback(m, on_destroy, NULL), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    cl_kernel clone = clCloneKernel(k, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clReleaseMemObject(m), CL_SUCCESS);
    CHECK(atomic_load(&destroyed) == 1);
    clReleaseKernel(clone);

    /* a launch keeps its buffer alive until it completes */
    atomic_store(&destroyed, 0);
    m = clCreateBuffer(context, CL_MEM_READ_WRITE, 16 * sizeof(int), NULL, &err);
    CHECK_ERR(clSetMemObjectDestructorCallback(m, on_destroy, NULL), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    cl_event user = clCreateUserEvent(context, &err);
    size_t global = 16;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 1, &user, NULL), CL_SUCCESS);
    int out[16] = { 0 };
    cl_event read;
    CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_FALSE, 0, sizeof out, out, 0, NULL, &read), CL_SUCCESS);
    CHECK_ERR(clReleaseMemObject(m), CL_SUCCESS);
    CHECK(atomic_load(&destroyed) == 0);
    CHECK_ERR(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &read), CL_SUCCESS);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    CHECK(out[0] == 5 && out[15] == 5);
    clReleaseEvent(read);
    clReleaseEvent(user);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* ---- test_basic kernel_numeric_constants --------------------------------------------
 * __IMAGE_SUPPORT__ is defined exactly when CL_DEVICE_IMAGE_SUPPORT is true. */
TEST(image_support_macro)
{
    cl_bool images = CL_TRUE;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL), CL_SUCCESS);
    const char *options[] = { NULL, "-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0" };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        cl_int err;
        const char *src = "__kernel void k(__global int *a) {\n"
                          "#ifdef __IMAGE_SUPPORT__\n a[0] = __IMAGE_SUPPORT__;\n#else\n a[0] = 0;\n#endif\n}\n";
        cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
        CHECK_ERR(clBuildProgram(p, 1, &device, options[i], NULL, NULL), CL_SUCCESS);
        cl_kernel k = clCreateKernel(p, "k", &err);
        CHECK_ERR(err, CL_SUCCESS);
        int out = -1;
        cl_mem m = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
        CHECK_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
        size_t one = 1;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL), CL_SUCCESS);
        CHECK(out == (images ? 1 : 0));
        clReleaseMemObject(m);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
}

/* ---- test_basic kernel_preprocessor_macros -------------------------------------------
 * __OPENCL_VERSION__ is defined, to the device's version (310 for OpenCL 3.1),
 * whatever -cl-std the program asks for; __OPENCL_C_VERSION__ follows -cl-std
 * (310 for OpenCL C 3.1, which clang 16 does not know). */
TEST(opencl_version_macro)
{
    const char *options[] = { NULL, "-cl-std=CL1.2", "-cl-std=CL3.0", "-cl-std=CL3.1" };
    const int c_version[] = { 120, 120, 300, 310 };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        cl_int err;
        const char *src = "__kernel void k(__global int *a) {\n"
                          "#ifdef __OPENCL_VERSION__\n a[0] = __OPENCL_VERSION__;\n#else\n a[0] = -1;\n#endif\n"
                          " a[1] = __OPENCL_C_VERSION__;\n}\n";
        cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
        CHECK_ERR(clBuildProgram(p, 1, &device, options[i], NULL, NULL), CL_SUCCESS);
        cl_kernel k = clCreateKernel(p, "k", &err);
        CHECK_ERR(err, CL_SUCCESS);
        int out[2] = { 0, 0 };
        cl_mem m = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
        CHECK_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
        size_t one = 1;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
        CHECK(out[0] == 310);
        CHECK(out[1] == c_version[i]);
        clReleaseMemObject(m);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
}

/* ---- test_svm svm_allocate_shared_buffer_negative --------------------------------------
 * A CL_MEM_USE_HOST_PTR buffer over an SVM allocation must fit in it. */
TEST(svm_buffer_too_big)
{
    cl_device_svm_capabilities caps = 0;
    clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
    if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        printf("no SVM: nothing to check\n");
        return;
    }
    size_t size = 4096;
    char *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, size, 0);
    CHECK(svm != NULL);
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 2 * size, svm, &err);
    CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
    CHECK(m == NULL);
    m = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, size / 2 + 1, svm + size / 2, &err);
    CHECK_ERR(err, CL_INVALID_BUFFER_SIZE);
    /* what fits is accepted */
    m = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, size, svm, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_bool uses_svm = CL_FALSE;
    CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof uses_svm, &uses_svm, NULL), CL_SUCCESS);
    CHECK(uses_svm == CL_TRUE);
    clReleaseMemObject(m);
    m = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, size / 2, svm + size / 2, &err);
    CHECK_ERR(err, CL_SUCCESS);
    clReleaseMemObject(m);
    clSVMFree(context, svm);
}

/* ---- test_svm svm_set_kernel_exec_info_svm_ptrs ----------------------------------------
 * clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL) clears the list. */
TEST(svm_ptrs_cleared)
{
    cl_device_svm_capabilities caps = 0;
    clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
    if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        printf("no SVM: nothing to check\n");
        return;
    }
    cl_program p;
    cl_kernel k = kernel_from("__kernel void k(__global int *a) { a[0] = 1; }", "k", NULL, &p);
    int *svm = clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 0);
    void *ptrs[] = { svm };
    CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs), CL_SUCCESS);
    CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL), CL_SUCCESS);
    /* a size without a value, or a value without a size, is still wrong */
    CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 0, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetKernelArgSVMPointer(k, 0, svm), CL_SUCCESS);
    size_t one = 1;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    CHECK(svm[0] == 1);
    clSVMFree(context, svm);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* ---- test_bruteforce remquo, rootn ----------------------------------------------------
 * remquo must give at least 7 bits of the quotient (the C library gives 3), and
 * rootn of -0 with an even n is +0 or +inf, never negative. */
TEST(remquo_and_rootn)
{
    static const char *source =
        "__kernel void k(__global const float *x, __global const float *y, __global int *q,\n"
        "                __global const double *dx, __global const double *dy, __global int *dq, __global float *root)\n"
        "{ size_t i = get_global_id(0); int t;\n"
        "  remquo(x[i], y[i], &t); q[i] = t; remquo(dx[i], dy[i], &t); dq[i] = t;\n"
        "  if (i == 0) { root[0] = rootn(-0.0f, 2); root[1] = rootn(-0.0f, -2); root[2] = rootn(-0.0f, 3);\n"
        "                root[3] = (float)rootn(-0.0, 4); } }\n";
    cl_program program;
    cl_kernel k = kernel_from(source, "k", NULL, &program);
    enum { N = 4 };
    float x[N] = { 58.5f, -58.5f, 1000.5f, 5.0f }, y[N] = { 1.5f, 1.5f, 1.0f, 2.0f };
    double dx[N] = { 58.5, -58.5, 1000.5, 5.0 }, dy[N] = { 1.5, 1.5, 1.0, 2.0 };
    int want[N] = { 39, -39, 1000 % 128, 2 }; /* 1000.5 rounds to the even 1000 */
    void *init[7] = { x, y, NULL, dx, dy, NULL, NULL };
    size_t sizes[7] = { sizeof x, sizeof y, sizeof want, sizeof dx, sizeof dy, sizeof want, 4 * sizeof(float) };
    cl_mem m[7];
    for (cl_uint i = 0; i < 7; i++) {
        m[i] = clCreateBuffer(context, CL_MEM_READ_WRITE | (init[i] ? CL_MEM_COPY_HOST_PTR : 0), sizes[i], init[i], NULL);
        clSetKernelArg(k, i, sizeof m[i], &m[i]);
    }
    size_t global = N;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    int q[N], dq[N];
    float root[4];
    CHECK_ERR(clEnqueueReadBuffer(queue, m[2], CL_TRUE, 0, sizeof q, q, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, m[5], CL_TRUE, 0, sizeof dq, dq, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, m[6], CL_TRUE, 0, sizeof root, root, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        CHECK(q[i] == want[i]);
        CHECK(dq[i] == want[i]);
    }
    CHECK(root[0] == 0.0f && !signbit(root[0]));
    CHECK(isinf(root[1]) && root[1] > 0);
    CHECK(root[2] == 0.0f && signbit(root[2]));
    CHECK(root[3] == 0.0f && !signbit(root[3]));
    for (int i = 0; i < 7; i++)
        clReleaseMemObject(m[i]);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

/* ---- test_geometrics geom_length ------------------------------------------------------
 * length, distance, normalize (float and double) and the fast_ variants at the edges:
 * denormals, magnitudes near FLT_MAX / DBL_MAX, a huge element beside a tiny one, zeros,
 * infinities and NaNs, for widths 1 to 4, against a long double reference within the spec's
 * ulp limits (OpenCL C 3.0, 7.4 and 7.5).  Double length of a denormal was inf: the scaling
 * by 1 / max|p| overflowed. */
static const char *geometric_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define LD1(p) (p)[0]\n#define LD2(p) vload2(0, p)\n#define LD3(p) vload3(0, p)\n#define LD4(p) vload4(0, p)\n"
    "#define ST1(v, p) ((p)[0] = (v))\n#define ST2(v, p) vstore2(v, 0, p)\n"
    "#define ST3(v, p) vstore3(v, 0, p)\n#define ST4(v, p) vstore4(v, 0, p)\n"
    "#define FAST_float(W) o[2] = fast_length(p); o[3] = fast_distance(p, q); ST##W(fast_normalize(p), o + 8);\n"
    "#define FAST_double(W)\n"
    "#define GEOM(T, W, VT) __kernel void g_##T##W(__global const T *a, __global const T *b, __global T *out)\\\n"
    "{ size_t i = get_global_id(0); __global T *o = out + 12 * i;\\\n"
    "  VT p = LD##W(a + 4 * i), q = LD##W(b + 4 * i);\\\n"
    "  o[0] = length(p); o[1] = distance(p, q); ST##W(normalize(p), o + 4); FAST_##T(W) }\n"
    "GEOM(float, 1, float) GEOM(float, 2, float2) GEOM(float, 3, float3) GEOM(float, 4, float4)\n"
    "GEOM(double, 1, double) GEOM(double, 2, double2) GEOM(double, 3, double3) GEOM(double, 4, double4)\n";

/* The size of one ulp at x in a type with `mant` mantissa bits and smallest denormal 2^`tiny`. */
static long double ulp_at(long double x, int mant, int tiny)
{
    int e = x == 0 ? tiny : ilogbl(x) - (mant - 1);
    return ldexpl(1.0L, e < tiny ? tiny : e);
}

/* got is within tol ulps of the exact ref, rounded to the type (max: its largest value). */
static bool geom_close(long double ref, double got, double tol, int mant, int tiny, long double max)
{
    if (isnan(ref))
        return isnan(got);
    if (fabsl(ref) > max * (1 + ldexpl(1, -mant - 1))) /* rounds to inf */
        return isinf(got) && (got > 0) == (ref > 0);
    return !isnan(got) && fabsl(got - ref) <= tol * ulp_at(ref, mant, tiny);
}

static long double ref_length(const long double *x, int n)
{
    long double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return sqrtl(s); /* long double: no overflow or underflow for float or double inputs */
}

/* The spec's normalize: v if all zero, NaNs if any NaN, infinities to +-1 and the rest to 0 * v. */
static void ref_normalize(const long double *x, int n, long double *r)
{
    bool inf = false, nan = false, zero = true;
    for (int i = 0; i < n; i++)
        inf |= isinf(x[i]), nan |= isnan(x[i]), zero &= x[i] == 0;
    long double v[4];
    for (int i = 0; i < n; i++)
        v[i] = !inf ? x[i] : isinf(x[i]) ? copysignl(1, x[i]) : 0 * x[i];
    long double l = ref_length(v, n);
    for (int i = 0; i < n; i++)
        r[i] = zero ? x[i] : nan ? NAN : v[i] / l;
}

typedef struct {
    double a[4], b[4];
} geom_case;

static void geometric_type(bool is_double, const geom_case *cases, size_t count)
{
    int mant = is_double ? 53 : 24, tiny = is_double ? -1074 : -149;
    long double max = is_double ? DBL_MAX : FLT_MAX;
    size_t elem = is_double ? sizeof(double) : sizeof(float);
    cl_int err;
    cl_program program = test_build_program(context, device, geometric_source, NULL);
    CHECK(program != NULL);
    if (!program)
        return;
    char in_a[64 * 4 * 8], in_b[64 * 4 * 8], out[64 * 12 * 8];
    CHECK(count <= 64);
    for (size_t c = 0; c < count; c++)
        for (int j = 0; j < 4; j++) {
            if (is_double) {
                ((double *)in_a)[4 * c + j] = cases[c].a[j], ((double *)in_b)[4 * c + j] = cases[c].b[j];
            } else {
                ((float *)in_a)[4 * c + j] = (float)cases[c].a[j], ((float *)in_b)[4 * c + j] = (float)cases[c].b[j];
            }
        }
    cl_mem ma = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, count * 4 * elem, in_a, &err);
    cl_mem mb = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, count * 4 * elem, in_b, &err);
    cl_mem mo = clCreateBuffer(context, CL_MEM_READ_WRITE, count * 12 * elem, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    for (int n = 1; n <= 4; n++) {
        char name[32];
        snprintf(name, sizeof name, "g_%s%d", is_double ? "double" : "float", n);
        cl_kernel k = clCreateKernel(program, name, &err);
        CHECK_ERR(err, CL_SUCCESS);
        clSetKernelArg(k, 0, sizeof ma, &ma);
        clSetKernelArg(k, 1, sizeof mb, &mb);
        clSetKernelArg(k, 2, sizeof mo, &mo);
        memset(out, 0, sizeof out);
        CHECK_ERR(clEnqueueWriteBuffer(queue, mo, CL_TRUE, 0, count * 12 * elem, out, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &count, NULL, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, count * 12 * elem, out, 0, NULL, NULL), CL_SUCCESS);
        for (size_t c = 0; c < count; c++) {
            long double a[4], b[4], d[4], r[4], fd[4];
            bool inf = false, nan = false;
            float fa[4];
            for (int j = 0; j < n; j++) {
                a[j] = is_double ? ((double *)in_a)[4 * c + j] : ((float *)in_a)[4 * c + j];
                b[j] = is_double ? ((double *)in_b)[4 * c + j] : ((float *)in_b)[4 * c + j];
                d[j] = a[j] - b[j];
                inf |= isinf(a[j]), nan |= isnan(a[j]);
                fa[j] = (float)a[j];
                fd[j] = (float)((float)a[j] - (float)b[j]); /* fast_distance subtracts in float */
            }
            double got[12];
            for (int j = 0; j < 12; j++)
                got[j] = is_double ? ((double *)out)[12 * c + j] : ((float *)out)[12 * c + j];
            bool ok = true;
            /* with an infinity and a NaN, length may be either (the spec says nothing) */
            if (!(inf && nan))
                ok &= geom_close(ref_length(a, n), got[0], is_double ? 5.5 + n : 2.75 + 0.5 * n, mant, tiny, max);
            bool dnan = false, dinf = false;
            for (int j = 0; j < n; j++)
                dnan |= isnan(d[j]), dinf |= isinf(d[j]);
            if (!(dinf && dnan))
                ok &= geom_close(ref_length(d, n), got[1], is_double ? 5.5 + 2 * n : 2.5 + 2 * n, mant, tiny, max);
            ref_normalize(a, n, r);
            bool zero = true;
            for (int j = 0; j < n; j++)
                zero &= a[j] == 0;
            for (int j = 0; j < n; j++) {
                ok &= geom_close(r[j], got[4 + j], is_double ? 4.5 + n : 2 + n, mant, tiny, max);
                if (zero) /* normalize returns p itself, signs of zeros included */
                    ok &= !signbit(got[4 + j]) == !signbit(a[j]);
            }
            if (!is_double) {
                /* fast_length and fast_distance are sqrt of the float sum of squares: checked where
                 * that sum neither overflows nor underflows */
                long double s = ref_length(a, n) * ref_length(a, n), sd = ref_length(fd, n) * ref_length(fd, n);
                if (!inf && !nan && s >= FLT_MIN && s <= FLT_MAX)
                    ok &= geom_close(ref_length(a, n), got[2], 8191.5 + n, mant, tiny, max);
                if (!isnan(sd) && sd >= FLT_MIN && sd <= FLT_MAX)
                    ok &= geom_close(ref_length(fd, n), got[3], 8191.5 + 2 * n, mant, tiny, max);
                /* fast_normalize: undefined above FLT_MAX, may return p below FLT_MIN */
                if (!inf && !nan && s <= FLT_MAX) {
                    bool near = true, same = true;
                    for (int j = 0; j < n; j++) {
                        near &= geom_close(r[j], got[8 + j], 8192 + n, mant, tiny, max);
                        same &= (float)got[8 + j] == fa[j] && !signbit(got[8 + j]) == !signbit(fa[j]);
                    }
                    ok &= zero ? same : near || (s < FLT_MIN && same);
                }
            }
            if (!ok) {
                fprintf(stderr, "%s case %zu width %d: a = (", name, c, n);
                for (int j = 0; j < n; j++)
                    fprintf(stderr, "%s%La", j ? ", " : "", a[j]);
                fprintf(stderr, "); got length %a distance %a normalize (", got[0], got[1]);
                for (int j = 0; j < n; j++)
                    fprintf(stderr, "%s%a", j ? ", " : "", got[4 + j]);
                if (!is_double) {
                    fprintf(stderr, "); fast: length %a distance %a normalize (", got[2], got[3]);
                    for (int j = 0; j < n; j++)
                        fprintf(stderr, "%s%a", j ? ", " : "", got[8 + j]);
                }
                fprintf(stderr, ")\n");
            }
            CHECK(ok);
        }
        clReleaseKernel(k);
    }
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mo);
    clReleaseProgram(program);
}

TEST(geometric_edges)
{
    cl_device_fp_config fp64 = 0;
    clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
    CHECK(fp64 != 0);
    static const geom_case doubles[] = {
        { { -0x0.28c0ce4bada6p-1022 }, { 0x1p-1074 } }, /* the CTS's sample */
        { { -0x1p-1074, 0x1p-1074, -0x1p-1074, 0x1p-1074 }, { 0x1p-1074, -0x1p-1074 } },
        { { 0x1p-1022, 0x1.8p-1023, 0x1p-1060, 0x0.fffffffffffffp-1022 }, { -0x1p-1022, 0, 0x1p-1061 } },
        { { 0, 0x1p-1074, 0, 0 }, { 0, 0, 0x1p-1074 } },
        { { DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX }, { 0 } },
        { { DBL_MAX / 2, -DBL_MAX / 2, 0x1p1000, 1 }, { -DBL_MAX / 2, DBL_MAX / 2, -0x1p1000 } },
        { { 0x1p501, 0x1p-480, 3, 0x1p-1074 }, { 0x1p-480, 0x1p501 } },
        { { 0x1.fffffffffffffp511, 0x1.fffffffffffffp-511, 0x1p-1000, 0x1p512 }, { 0 } },
        { { 1e300, 1e-300, -1e300, 1e-300 }, { -1e300, 1e300 } },
        { { 3, 4, 12, 84 }, { 0, 0, 0, 0 } },
        { { 0.0, -0.0, 0.0, -0.0 }, { -0.0, 0.0 } },
        { { INFINITY, 1, -INFINITY, NAN }, { 1, INFINITY } },
        { { -INFINITY, -0.0, 0x1p-1074, DBL_MAX }, { 0 } },
        { { NAN, 1, 2, 3 }, { 0 } },
        { { 0.0, NAN, 0.0, 0.0 }, { 0 } },
    };
    static const geom_case floats[] = {
        { { 0x1p-149, 0, 0, 0 }, { -0x1p-149 } },
        { { -0x1.8p-140, 0x1p-149, -0x1.4p-130, 0x1p-127 }, { 0x1p-149, -0x1p-149 } },
        { { 0x1.6a09e6p-73, 0, 0x1.2p-75, 0 }, { 0 } }, /* sum of squares denormal: fast_normalize */
        { { 0x1p-80, -0x1p-81, 0x1p-90, 0 }, { 0 } },   /* sum of squares 0 in float */
        { { 0, 0x1p-149, 0, 0 }, { 0, 0, 0x1p-149 } },
        { { FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX }, { 0 } },
        { { FLT_MAX / 2, -FLT_MAX / 2, 0x1p100, 1 }, { -FLT_MAX / 2, FLT_MAX / 2, -0x1p100 } },
        { { 0x1p63, 0x1p-60, 3, 0x1p-149 }, { 0x1p-60, 0x1p63 } },
        { { 0x1.8p62, -0x1p61, 0x1p-62, 5 }, { 1, 2, 3, 4 } },
        { { 3, 4, 12, 84 }, { 0, 0, 0, 0 } },
        { { 0.0, -0.0, 0.0, -0.0 }, { -0.0, 0.0 } },
        { { INFINITY, 1, -INFINITY, NAN }, { 1, INFINITY } },
        { { -INFINITY, -0.0, 0x1p-149, FLT_MAX }, { 0 } },
        { { NAN, 1, 2, 3 }, { 0 } },
        { { 0.0, NAN, 0.0, 0.0 }, { 0 } },
    };
    geometric_type(false, floats, sizeof floats / sizeof floats[0]);
    if (fp64)
        geometric_type(true, doubles, sizeof doubles / sizeof doubles[0]);
}

/* ---- test_device_execution enqueue_flags ------------------------------------------
 * Each group clears its own results, then its first work-item starts a chain
 * of children with CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP whose last one sets the
 * result of the group; the chain of a group whose work-items' results another
 * group clears (group 1 clears results 16..31, group 16's among them) must
 * not end before that group has run.  Groups were dealt out one range a
 * worker, so the second worker's first group and its whole chain could end
 * before the first worker began group 0; a program that enqueues kernels
 * now starts its groups in order. */
enum { FLAGS_GROUPS = 32, FLAGS_LOCAL = 16, FLAGS_DEPTH = 6 };

TEST(enqueue_flags_wait_work_group)
{
    static const char *source =
        "void link(global int *res, int depth, int group)\n"
        "{\n"
        "    if (depth < 6) {\n"
        "        if (get_local_id(0) == 0)\n"
        "            enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP,\n"
        "                           ndrange_1D(get_local_size(0), get_local_size(0)),\n"
        "                           ^{ link(res, depth + 1, group); });\n"
        "    } else if (get_local_id(0) == 0) {\n"
        "        res[group] = 1;\n"
        "    }\n"
        "}\n"
        "kernel void flags(global int *res)\n"
        "{\n"
        "    res[get_global_id(0)] = 0;\n"
        "    if (get_local_id(0) == 0) {\n"
        "        int group = (int)get_group_id(0);\n"
        "        enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP,\n"
        "                       ndrange_1D(get_local_size(0), get_local_size(0)), ^{ link(res, 1, group); });\n"
        "    }\n"
        "}\n";
    cl_int err;
    cl_command_queue device_queue = default_device_queue();
    cl_program p;
    cl_kernel k = kernel_from(source, "flags", "-cl-std=CL2.0", &p);
    cl_mem res = clCreateBuffer(context, CL_MEM_READ_WRITE, FLAGS_GROUPS * FLAGS_LOCAL * sizeof(cl_int), NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof res, &res), CL_SUCCESS);
    size_t global = FLAGS_GROUPS * FLAGS_LOCAL, local = FLAGS_LOCAL;
    int wrong_runs = 0;
    for (int run = 0; run < 20; run++) {
        cl_int got[FLAGS_GROUPS * FLAGS_LOCAL];
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, res, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
        int wrong = 0;
        for (int i = 0; i < FLAGS_GROUPS * FLAGS_LOCAL; i++)
            wrong += got[i] != (i < FLAGS_GROUPS);
        wrong_runs += wrong != 0;
    }
    CHECK(wrong_runs == 0, "%d of 20 runs with a group's result cleared after its chain ended", wrong_runs);
    clReleaseMemObject(res);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(device_queue);
}

/* ---- test_cl_khr_command_buffer device_enqueue -----------------------------------
 * Each of 16,384 work-items enqueues a child that waits for the parent to
 * end, on a default device queue of the preferred size: all 16,384 are
 * pending at once and must fit.  With 256 KiB preferred, some hundreds did
 * and the rest got CLK_DEVICE_QUEUE_FULL, which the kernel does not look at. */
#define CHILDREN 16384
#define CHILD_ITEMS 4

TEST(device_enqueue_preferred_queue)
{
    static const char *source =
        "kernel void parents(global const int *in, global int *out, global int *status)\n"
        "{\n"
        "    size_t id = get_global_id(0);\n"
        "    int first = (int)id * 4;\n"
        "    status[id] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(4),\n"
        "                                ^{ out[first + get_global_id(0)] = in[first + get_global_id(0)] + 1; });\n"
        "}\n";
    cl_int err;
    cl_command_queue device_queue = default_device_queue();
    cl_program p;
    cl_kernel k = kernel_from(source, "parents", "-cl-std=CL2.0", &p);
    size_t n = CHILDREN * CHILD_ITEMS;
    cl_int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *status = malloc(CHILDREN * sizeof *status);
    CHECK(in && out && status);
    for (size_t i = 0; i < n; i++)
        in[i] = (cl_int)i;
    cl_mem b_in = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, n * sizeof *in, in, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem b_out = clCreateBuffer(context, CL_MEM_READ_WRITE, n * sizeof *out, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem b_status = clCreateBuffer(context, CL_MEM_READ_WRITE, CHILDREN * sizeof *status, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_int zero = 0;
    CHECK_ERR(clEnqueueFillBuffer(queue, b_out, &zero, sizeof zero, 0, n * sizeof *out, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof b_in, &b_in), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof b_out, &b_out), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 2, sizeof b_status, &b_status), CL_SUCCESS);
    size_t global = CHILDREN;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, b_out, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, b_status, CL_TRUE, 0, CHILDREN * sizeof *status, status, 0, NULL, NULL),
              CL_SUCCESS);
    int refused = 0, wrong = 0;
    for (size_t i = 0; i < CHILDREN; i++)
        refused += status[i] != 0;
    for (size_t i = 0; i < n; i++)
        wrong += out[i] != in[i] + 1;
    CHECK(refused == 0, "%d of %d enqueues refused", refused, CHILDREN);
    CHECK(wrong == 0, "%d of %zu elements not written by a child", wrong, n);
    clReleaseMemObject(b_in), clReleaseMemObject(b_out), clReleaseMemObject(b_status);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(device_queue);
    free(in), free(out), free(status);
}

/* ---- test_bruteforce divide (relaxed) ---------------------------------------------
 * Under -cl-fast-relaxed-math x / y may be 2.5 ulp off (for x and y of
 * magnitude 2^-62 to 2^62).  x86's code generator had replaced the
 * division by the reciprocal estimate and one Newton step without a fused
 * multiply-add: 3 ulp off for some inputs of the vector widths it runs on
 * 128 and 256 bits (float3 in the CTS; finalize.c). */
#define DIVIDE_N (1 << 20)

static float random_magnitude(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t bits = (uint32_t)(*state >> 32);
    int exponent = (int)((bits >> 23) % 120) - 60; /* 2^-60 .. 2^59 */
    float m = 1.0f + (float)(bits & 0x7fffff) / (float)(1 << 23);
    return ldexpf(bits & 0x80000000u ? -m : m, exponent);
}

/* |got - exact| in ulps of the float nearest exact */
static double ulps_off(float got, double exact)
{
    float nearest = (float)exact;
    int e;
    frexpf(nearest, &e);
    double ulp = ldexp(1.0, e - 24);
    return fabs((double)got - exact) / ulp;
}

TEST(relaxed_divide)
{
    static const char *source =
        "kernel void d1(global const float *x, global const float *y, global float *o)\n"
        "{ size_t i = get_global_id(0); o[i] = x[i] / y[i]; }\n"
        /* the CTS's float3 kernel: the last work-item divides what is left */
        "kernel void d3(global const float *x, global const float *y, global float *o)\n"
        "{ size_t i = get_global_id(0);\n"
        "  if (i + 1 < get_global_size(0)) {\n"
        "    vstore3(vload3(0, x + 3 * i) / vload3(0, y + 3 * i), 0, o + 3 * i);\n"
        "    return;\n"
        "  }\n"
        "  float3 a = (float3)(x[3 * i], x[3 * i + 1], NAN), b = (float3)(y[3 * i], y[3 * i + 1], NAN), q = a / b;\n"
        "  o[3 * i] = q.x; o[3 * i + 1] = q.y; }\n"
        "kernel void d4(global const float4 *x, global const float4 *y, global float4 *o)\n"
        "{ size_t i = get_global_id(0); o[i] = x[i] / y[i]; }\n"
        "kernel void d8(global const float8 *x, global const float8 *y, global float8 *o)\n"
        "{ size_t i = get_global_id(0); o[i] = x[i] / y[i]; }\n"
        "kernel void d16(global const float16 *x, global const float16 *y, global float16 *o)\n"
        "{ size_t i = get_global_id(0); o[i] = x[i] / y[i]; }\n";
    static const struct { const char *name; size_t width; } kernels[] = {
        { "d1", 1 }, { "d3", 3 }, { "d4", 4 }, { "d8", 8 }, { "d16", 16 },
    };
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clBuildProgram(p, 1, &device, "-cl-fast-relaxed-math", NULL, NULL), CL_SUCCESS);
    size_t n = DIVIDE_N / 48 * 48; /* a multiple of every width */
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *o = malloc(n * sizeof *o);
    CHECK(x && y && o);
    uint64_t state = 12345;
    for (size_t i = 0; i < n; i++)
        x[i] = random_magnitude(&state), y[i] = random_magnitude(&state);
    x[187657] = 0x1.081e54p+3f, y[187657] = 0x1.0c2e92p-4f; /* where the CTS saw it: 2.52 ulp before */
    cl_mem bx = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, n * sizeof *x, x, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem by = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, n * sizeof *y, y, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem bo = clCreateBuffer(context, CL_MEM_WRITE_ONLY, n * sizeof *o, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        cl_kernel kd = clCreateKernel(p, kernels[k].name, &err);
        CHECK_ERR(err, CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(kd, 0, sizeof bx, &bx), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(kd, 1, sizeof by, &by), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(kd, 2, sizeof bo, &bo), CL_SUCCESS);
        size_t global = n / kernels[k].width, checked = kernels[k].width == 3 ? n - 1 : n; /* d3's last: 2 */
        CHECK_ERR(clEnqueueNDRangeKernel(queue, kd, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, bo, CL_TRUE, 0, n * sizeof *o, o, 0, NULL, NULL), CL_SUCCESS);
        double worst = 0;
        size_t at = 0;
        for (size_t i = 0; i < checked; i++) {
            double off = ulps_off(o[i], (double)x[i] / (double)y[i]);
            if (off > worst)
                worst = off, at = i;
        }
        CHECK(worst <= 2.5, "%s: %a / %a gave %a, %.2f ulp off (2.5 allowed)", kernels[k].name, x[at], y[at], o[at],
              worst);
        clReleaseKernel(kd);
    }
    clReleaseMemObject(bx), clReleaseMemObject(by), clReleaseMemObject(bo);
    clReleaseProgram(p);
    free(x), free(y), free(o);
}

int main(int argc, char **argv)
{
    return test_main_on_cpu_queue(argc, argv, &device, &context, &queue);
}
