/*
 * Regressions found by the Khronos conformance tests (OpenCL-CTS), one case
 * per bug, each named after the CTS test that revealed it.
 *
 *   usage: test_cts_regressions [case]
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/runner.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static cl_kernel kernel_from(const char *source, const char *name, cl_program *program)
{
    cl_int err;
    *program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clBuildProgram(*program, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(*program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
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

static void release_buffer_set_as_arg(void)
{
    cl_int err;
    cl_program p;
    cl_kernel k = kernel_from("__kernel void k(__global int *a) { a[get_global_id(0)] = 5; }", "k", &p);
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
static void image_support_macro(void)
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
 * __OPENCL_VERSION__ is defined, to the device's version (300 for OpenCL 3.0),
 * whatever -cl-std the program asks for; __OPENCL_C_VERSION__ follows -cl-std. */
static void opencl_version_macro(void)
{
    const char *options[] = { NULL, "-cl-std=CL1.2", "-cl-std=CL3.0" };
    const int c_version[] = { 120, 120, 300 };
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
        CHECK(out[0] == 300);
        CHECK(out[1] == c_version[i]);
        clReleaseMemObject(m);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
}

/* ---- test_svm svm_allocate_shared_buffer_negative --------------------------------------
 * A CL_MEM_USE_HOST_PTR buffer over an SVM allocation must fit in it. */
static void svm_buffer_too_big(void)
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
static void svm_ptrs_cleared(void)
{
    cl_device_svm_capabilities caps = 0;
    clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
    if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        printf("no SVM: nothing to check\n");
        return;
    }
    cl_program p;
    cl_kernel k = kernel_from("__kernel void k(__global int *a) { a[0] = 1; }", "k", &p);
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
static void remquo_and_rootn(void)
{
    static const char *source =
        "__kernel void k(__global const float *x, __global const float *y, __global int *q,\n"
        "                __global const double *dx, __global const double *dy, __global int *dq, __global float *root)\n"
        "{ size_t i = get_global_id(0); int t;\n"
        "  remquo(x[i], y[i], &t); q[i] = t; remquo(dx[i], dy[i], &t); dq[i] = t;\n"
        "  if (i == 0) { root[0] = rootn(-0.0f, 2); root[1] = rootn(-0.0f, -2); root[2] = rootn(-0.0f, 3);\n"
        "                root[3] = (float)rootn(-0.0, 4); } }\n";
    cl_program program;
    cl_kernel k = kernel_from(source, "k", &program);
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

static const named_test tests[] = {
    { "release_buffer_set_as_arg", release_buffer_set_as_arg },
    { "image_support_macro", image_support_macro },
    { "opencl_version_macro", opencl_version_macro },
    { "svm_buffer_too_big", svm_buffer_too_big },
    { "svm_ptrs_cleared", svm_ptrs_cleared },
    { "remquo_and_rootn", remquo_and_rootn },
};

int main(int argc, char **argv)
{
    cl_platform_id platform;
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    queue = clCreateCommandQueueWithProperties(context, device, NULL, NULL);
    test_run_cases(tests, sizeof tests / sizeof tests[0], argc, argv);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return check_summary();
}
