/*
 * Programs, kernels and NDRange launches through the ICD loader: building
 * from source (options, failures and their logs), binaries, separate
 * compile and link, kernel arguments of every kind, launches in 1, 2 and 3
 * dimensions with offsets and chosen local sizes, and the error codes the
 * spec names for bad input.
 *
 *   usage: test_programs [case|--list]   (the cases: test_programs.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define TEST_LIST "test_programs.list"
#include "test.h"
#include "cl_test.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static cl_program build(const char *source, const char *options, cl_int *build_err)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    *build_err = clBuildProgram(p, 1, &device, options, NULL, NULL);
    return p;
}


static cl_mem buffer(size_t size, void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), size, host, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

/* ---- building ------------------------------------------------------------------ */

TEST(build_failures)
{
    cl_int err;
    /* line 3 has the error: the log must say so */
    cl_program p = build("__kernel void k(__global int *a)\n{\n  a[0] = undefined_name;\n}\n", NULL, &err);
    CHECK_ERR(err, CL_BUILD_PROGRAM_FAILURE);
    char *log = test_build_log(p, device);
    CHECK(strstr(log, ":3:") != NULL);
    CHECK(strstr(log, "undefined_name") != NULL);
    free(log);
    cl_build_status status;
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    CHECK(status == CL_BUILD_ERROR);
    CHECK(clCreateKernel(p, "k", &err) == NULL);
    CHECK_ERR(err, CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(p);

    p = build("__kernel void k(void) {}", "-not-an-option", &err);
    CHECK_ERR(err, CL_INVALID_BUILD_OPTIONS);
    clReleaseProgram(p);

    /* -D defines reach the source, -Werror turns warnings into failures */
    p = build("__kernel void k(__global int *a) { a[0] = VALUE; }", "-D VALUE=7 -cl-std=CL1.2", &err);
    CHECK_ERR(err, CL_SUCCESS);
    clReleaseProgram(p);
    p = build("__kernel void k(__global int *a) { int unused; a[0] = 1; }", "-Werror -Wunused-variable", &err);
    CHECK(err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS);
    clReleaseProgram(p);

    /* bad handles and arguments */
    CHECK_ERR(clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
    CHECK(clCreateProgramWithSource(context, 0, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    const char *null_string = NULL;
    CHECK(clCreateProgramWithSource(context, 1, &null_string, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    CHECK(clCreateProgramWithSource(NULL, 1, (const char *[]){ "x" }, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_CONTEXT);
    unsigned char junk[16] = "not a binary";
    const unsigned char *junk_ptr = junk;
    size_t junk_len = sizeof junk;
    cl_int binary_status = 0;
    CHECK(clCreateProgramWithBinary(context, 1, &device, &junk_len, &junk_ptr, &binary_status, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_BINARY);
    CHECK_ERR(binary_status, CL_INVALID_BINARY);
}

/* A program's binary can be read back and built again. */
TEST(binaries)
{
    cl_int err;
    cl_program p = build("__kernel void twice(__global int *a) { a[get_global_id(0)] *= 2; }", NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    size_t size = 0;
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL), CL_SUCCESS);
    CHECK(size > 0);
    unsigned char *bin = malloc(size);
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
    const unsigned char *cbin = bin;
    cl_int status;
    cl_program q = clCreateProgramWithBinary(context, 1, &device, &size, &cbin, &status, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(status, CL_SUCCESS);
    CHECK_ERR(clBuildProgram(q, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(q, "twice", &err);
    CHECK_ERR(err, CL_SUCCESS);
    int data[4] = { 1, 2, 3, 4 };
    cl_mem m = buffer(sizeof data, data);
    clSetKernelArg(k, 0, sizeof m, &m);
    size_t global = 4;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL), CL_SUCCESS);
    CHECK(data[0] == 2 && data[3] == 8);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(q);
    clReleaseProgram(p);
    free(bin);
}

/* clCompileProgram with a header, then clLinkProgram of two objects. */
TEST(compile_and_link)
{
    cl_int err;
    const char *header_src = "#define OFFSET 5\nint helper(int x);\n";
    const char *main_src = "#include \"helper.h\"\n__kernel void use(__global int *a) { a[0] = helper(a[0]) + OFFSET; }\n";
    const char *lib_src = "int helper(int x) { return x * 10; }\n";
    cl_program header = clCreateProgramWithSource(context, 1, &header_src, NULL, &err);
    cl_program main_prog = clCreateProgramWithSource(context, 1, &main_src, NULL, &err);
    cl_program lib_prog = clCreateProgramWithSource(context, 1, &lib_src, NULL, &err);
    const char *names[] = { "helper.h" };
    CHECK_ERR(clCompileProgram(main_prog, 1, &device, NULL, 1, &header, names, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clCompileProgram(lib_prog, 1, &device, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_program_binary_type type;
    clGetProgramBuildInfo(main_prog, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL);
    CHECK(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    cl_program library = clLinkProgram(context, 1, &device, "-create-library", 1, &lib_prog, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    clGetProgramBuildInfo(library, device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL);
    CHECK(type == CL_PROGRAM_BINARY_TYPE_LIBRARY);
    cl_program inputs[] = { main_prog, library };
    cl_program exe = clLinkProgram(context, 1, &device, NULL, 2, inputs, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = clCreateKernel(exe, "use", &err);
    CHECK_ERR(err, CL_SUCCESS);
    int value = 4;
    cl_mem m = buffer(sizeof value, &value);
    clSetKernelArg(k, 0, sizeof m, &m);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, (size_t[]){ 1 }, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL), CL_SUCCESS);
    CHECK(value == 45);
    /* linking an object with an unresolved function fails, with a log */
    cl_program alone = clLinkProgram(context, 1, &device, NULL, 1, &main_prog, NULL, NULL, &err);
    CHECK_ERR(err, CL_LINK_PROGRAM_FAILURE);
    if (alone) {
        char *log = test_build_log(alone, device);
        CHECK(strstr(log, "helper") != NULL);
        free(log);
        clReleaseProgram(alone);
    }
    /* a source program that was never compiled cannot be linked */
    cl_program raw = clCreateProgramWithSource(context, 1, &lib_src, NULL, &err);
    CHECK(clLinkProgram(context, 1, &device, NULL, 1, &raw, NULL, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_OPERATION);
    clReleaseProgram(raw);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(exe);
    clReleaseProgram(library);
    clReleaseProgram(header);
    clReleaseProgram(main_prog);
    clReleaseProgram(lib_prog);
}

/* ---- kernels and their arguments ------------------------------------------------- */

static const char *args_source =
    "typedef struct { int a; float b; long c; } pod;\n"
    "__kernel void many(__global int *out, __constant int *table, __local int *scratch, int scalar,\n"
    "                   float4 vec, pod s, uchar small)\n"
    "{\n"
    "  size_t l = get_local_id(0);\n"
    "  scratch[l] = table[l] + scalar;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  size_t n = get_local_size(0);\n"
    "  out[get_global_id(0)] = scratch[(l + 1) % n] + (int)vec.z + s.a + (int)s.b + (int)s.c + small;\n"
    "}\n"
    "__kernel void other(__global float *x) { x[0] = 1.0f; }\n";

typedef struct { cl_int a; cl_float b; cl_long c; } pod;

TEST(kernel_args)
{
    cl_int err;
    cl_program p = build(args_source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_uint n_kernels = 0;
    CHECK_ERR(clCreateKernelsInProgram(p, 0, NULL, &n_kernels), CL_SUCCESS);
    CHECK(n_kernels == 2);
    cl_kernel all[2];
    CHECK_ERR(clCreateKernelsInProgram(p, 1, all, NULL), CL_INVALID_VALUE);
    char names[64] = "";
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL), CL_SUCCESS);
    CHECK(strstr(names, "many") && strstr(names, "other") && strchr(names, ';'));

    cl_kernel k = clCreateKernel(p, "many", &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK(clCreateKernel(p, "nope", &err) == NULL);
    CHECK_ERR(err, CL_INVALID_KERNEL_NAME);
    CHECK(clCreateKernel(p, NULL, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_VALUE);
    cl_uint nargs = 0;
    CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL), CL_SUCCESS);
    CHECK(nargs == 7);

    /* argument info */
    cl_kernel_arg_address_qualifier aq;
    CHECK_ERR(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL), CL_SUCCESS);
    CHECK(aq == CL_KERNEL_ARG_ADDRESS_CONSTANT);
    CHECK_ERR(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL), CL_SUCCESS);
    CHECK(aq == CL_KERNEL_ARG_ADDRESS_LOCAL);
    char tname[32] = "";
    CHECK_ERR(clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_TYPE_NAME, sizeof tname, tname, NULL), CL_SUCCESS);
    CHECK(strcmp(tname, "float4") == 0);
    CHECK_ERR(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, sizeof tname, tname, NULL), CL_SUCCESS);
    CHECK(strcmp(tname, "scalar") == 0);
    CHECK_ERR(clGetKernelArgInfo(k, 7, CL_KERNEL_ARG_NAME, sizeof tname, tname, NULL), CL_INVALID_ARG_INDEX);

    /* argument errors */
    enum { N = 64, L = 16 };
    int table[L];
    for (int i = 0; i < L; i++)
        table[i] = i * 100;
    cl_mem out = buffer(N * sizeof(int), NULL), tab = buffer(sizeof table, table);
    int scalar = 3;
    CHECK_ERR(clSetKernelArg(k, 7, sizeof scalar, &scalar), CL_INVALID_ARG_INDEX);
    CHECK_ERR(clSetKernelArg(k, 3, 2, &scalar), CL_INVALID_ARG_SIZE);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof scalar, NULL), CL_INVALID_ARG_VALUE);
    CHECK_ERR(clSetKernelArg(k, 2, L * sizeof(int), &scalar), CL_INVALID_ARG_VALUE);
    CHECK_ERR(clSetKernelArg(k, 2, 0, NULL), CL_SUCCESS); /* OpenCL 3.1: a __local argument of no bytes */
    cl_mem not_mem = (cl_mem)k;
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), &not_mem), CL_INVALID_MEM_OBJECT);
    CHECK_ERR(clSetKernelArg(k, 0, 4, &out), CL_INVALID_ARG_SIZE);
    CHECK_ERR(clSetKernelArg(NULL, 0, sizeof out, &out), CL_INVALID_KERNEL);

    size_t global = N, local = L;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);

    cl_float4 vec = { { 0.5f, 1.5f, 7.0f, 9.0f } };
    pod s = { 1000, 20000.0f, 300000 };
    cl_uchar small = 9;
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof tab, &tab), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 2, L * sizeof(int), NULL), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof scalar, &scalar), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 4, sizeof vec, &vec), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 5, sizeof s, &s), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 6, sizeof small, &small), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    /* arguments are captured at enqueue: changing them now does not affect the launch */
    int other_scalar = -1000000;
    clSetKernelArg(k, 3, sizeof other_scalar, &other_scalar);
    int result[N];
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL), CL_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int l = i % L;
        int expect = table[(l + 1) % L] + scalar + 7 + 1000 + 20000 + 300000 + 9;
        bad += result[i] != expect;
    }
    CHECK(bad == 0);

    /* work-group info */
    size_t wg = 0;
    CHECK_ERR(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL), CL_SUCCESS);
    CHECK(wg >= 256);
    cl_ulong lmem = 0;
    CHECK_ERR(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL), CL_SUCCESS);
    CHECK(lmem >= L * sizeof(int));
    clReleaseMemObject(out);
    clReleaseMemObject(tab);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* ---- launches ------------------------------------------------------------------------ */

static const char *index_source =
    "__kernel void ids(__global uint *out, uint w, uint h)\n"
    "{\n"
    "  size_t x = get_global_id(0) - get_global_offset(0);\n"
    "  size_t y = get_global_id(1) - get_global_offset(1);\n"
    "  size_t z = get_global_id(2) - get_global_offset(2);\n"
    "  size_t i = (z * h + y) * w + x;\n"
    "  out[i] = (uint)(get_global_id(0) + 1000 * get_global_id(1) + 1000000 * get_global_id(2));\n"
    "  if (get_work_dim() != WORK_DIM || get_global_size(0) != w) out[i] = 0xffffffffu;\n"
    "#if __OPENCL_C_VERSION__ >= 200\n" /* a trailing group may be smaller than the enqueued size */
    "  size_t group_stride = get_enqueued_local_size(0);\n"
    "#else\n"
    "  size_t group_stride = get_local_size(0);\n"
    "#endif\n"
    "  if (get_group_id(0) * group_stride + get_local_id(0) + get_global_offset(0) != get_global_id(0)) out[i] = 0xfffffffeu;\n"
    "}\n";

static void launch(cl_uint dims, const size_t *offset, const size_t *global, const size_t *local, const char *std)
{
    char options[64];
    snprintf(options, sizeof options, "-D WORK_DIM=%u %s", dims, std ? std : "");
    cl_int err;
    cl_program p = build(index_source, options, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "ids", &err);
    size_t g[3] = { 1, 1, 1 }, o[3] = { 0, 0, 0 };
    for (cl_uint d = 0; d < dims; d++) {
        g[d] = global[d];
        o[d] = offset ? offset[d] : 0;
    }
    size_t count = g[0] * g[1] * g[2];
    cl_mem out = buffer(count * sizeof(cl_uint), NULL);
    cl_uint w = (cl_uint)g[0], h = (cl_uint)g[1];
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(k, 1, sizeof w, &w);
    clSetKernelArg(k, 2, sizeof h, &h);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, dims, offset, global, local, 0, NULL, NULL), CL_SUCCESS);
    cl_uint *result = malloc(count * sizeof *result);
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, count * sizeof *result, result, 0, NULL, NULL), CL_SUCCESS);
    size_t bad = 0;
    for (size_t z = 0; z < g[2]; z++)
        for (size_t y = 0; y < g[1]; y++)
            for (size_t x = 0; x < g[0]; x++) {
                cl_uint expect = (cl_uint)((x + o[0]) + 1000 * (y + o[1]) + 1000000 * (z + o[2]));
                bad += result[(z * g[1] + y) * g[0] + x] != expect;
            }
    CHECK(bad == 0);
    if (bad)
        fprintf(stderr, "  launch dims=%u global=%zu,%zu,%zu: %zu wrong\n", dims, g[0], g[1], g[2], bad);
    free(result);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST(launches)
{
    launch(1, NULL, (size_t[]){ 1000 }, NULL, NULL);
    launch(1, (size_t[]){ 17 }, (size_t[]){ 96 }, (size_t[]){ 32 }, NULL);
    launch(2, (size_t[]){ 3, 5 }, (size_t[]){ 64, 48 }, (size_t[]){ 16, 16 }, NULL);
    launch(2, NULL, (size_t[]){ 37, 23 }, NULL, NULL); /* primes: Mosaic must pick a size that divides */
    launch(3, (size_t[]){ 1, 2, 3 }, (size_t[]){ 8, 6, 10 }, (size_t[]){ 4, 3, 5 }, NULL);
    launch(3, NULL, (size_t[]){ 16, 16, 16 }, NULL, NULL);
    /* non-uniform work-groups with OpenCL C 2.0+ */
    launch(2, NULL, (size_t[]){ 50, 30 }, (size_t[]){ 16, 8 }, "-cl-std=CL3.0");
}

TEST(launch_errors)
{
    cl_int err;
    cl_program p = build("__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }\n"
                         "__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void r(__global int *a) { a[get_global_id(0)] = 1; }\n",
                         NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "k", &err), r = clCreateKernel(p, "r", &err);
    cl_mem m = buffer(4096, NULL);
    clSetKernelArg(k, 0, sizeof m, &m);
    clSetKernelArg(r, 0, sizeof m, &m);
    size_t g = 64, l = 16, big = 1u << 20;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 0, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 4, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &big, 0, NULL, NULL), CL_INVALID_WORK_ITEM_SIZE);
    size_t g60 = 60;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g60, &l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    size_t huge_offset = SIZE_MAX - 10;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, &huge_offset, &g, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_OFFSET);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, r, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, r, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
    size_t compile_size[3];
    CHECK_ERR(clGetKernelWorkGroupInfo(r, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compile_size,
                                       compile_size, NULL), CL_SUCCESS);
    CHECK(compile_size[0] == 8 && compile_size[1] == 1 && compile_size[2] == 1);
    CHECK_ERR(clEnqueueNDRangeKernel(NULL, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, NULL, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    /* OpenCL 2.1+: a zero global size is a launch that does nothing */
    size_t zero = 0;
    cl_event e;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &zero, NULL, 0, NULL, &e), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &e), CL_SUCCESS);
    clReleaseEvent(e);
    /* a kernel cannot be built again while kernels are attached */
    CHECK_ERR(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_INVALID_OPERATION);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseKernel(r);
    clReleaseProgram(p);
}

/* Integer division by zero and INT_MIN / -1 are undefined in OpenCL C, but
 * must not bring the program down (x86 traps on both). */
TEST(division_by_zero)
{
    cl_int err;
    cl_program p = build("__kernel void divide(__global const int *a, __global const int *b, __global int *q,\n"
                         "                     __global const long *la, __global const long *lb, __global long *lq)\n"
                         "{ size_t i = get_global_id(0);\n"
                         "  q[i] = a[i] / b[i] + a[i] % b[i];\n"
                         "  lq[i] = la[i] / lb[i] + la[i] % lb[i] + (long)((uint)a[i] / (uint)b[i]);\n"
                         "  if (i == 0) vstore4(vload4(0, a) / vload4(0, b), 0, q + get_global_size(0)); }\n",
                         NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "divide", &err);
    enum { N = 64 };
    int a[N], b[N];
    cl_long la[N], lb[N];
    for (int i = 0; i < N; i++) {
        a[i] = i % 3 == 0 ? INT32_MIN : 7 * i;
        b[i] = i % 2 == 0 ? 0 : -1;
        la[i] = i % 3 == 0 ? INT64_MIN : 7 * i;
        lb[i] = i % 2 == 0 ? 0 : -1;
    }
    /* (q: the work-items' N, then work-item 0's vector of 4) */
    cl_mem ba = buffer(sizeof a, a), bb = buffer(sizeof b, b), bq = buffer(sizeof a + 4 * sizeof(int), NULL);
    cl_mem bla = buffer(sizeof la, la), blb = buffer(sizeof lb, lb), blq = buffer(sizeof la, NULL);
    cl_mem args[] = { ba, bb, bq, bla, blb, blq };
    for (cl_uint i = 0; i < 6; i++)
        clSetKernelArg(k, i, sizeof(cl_mem), &args[i]);
    size_t global = N;
    cl_event e;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, &e), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &e), CL_SUCCESS);
    /* well-defined lanes still compute the right answer */
    int q[N + 4];
    CHECK_ERR(clEnqueueReadBuffer(queue, bq, CL_TRUE, 0, sizeof q, q, 0, NULL, NULL), CL_SUCCESS);
    CHECK(q[1] == -7 && q[5] == -35 && q[N + 1] == -7);
    clReleaseEvent(e);
    for (int i = 0; i < 6; i++)
        clReleaseMemObject(args[i]);
    clReleaseKernel(k);
    clReleaseProgram(p);
}
/* A private array that stays in memory (indexed by a run-time count) and
 * whose element's address, computed before a barrier, is used after it:
 * regions.c computes the address again in the later region, where the
 * array is stored element-major; the copy took the next work-item's
 * element (all but 2 of 1024 results were wrong). */
TEST(private_array_across_barrier)
{
    static const char source[] =
        "kernel void keeps(global const float *in, global float *out, int k)\n"
        "{\n"
        "    local float t[64];\n"
        "    int l = get_local_id(0), g = get_global_id(0);\n"
        "    float p[4];\n"
        "    p[0] = in[g]; p[1] = in[g] * 2.0f; p[2] = in[g] + 1.0f; p[3] = -in[g];\n"
        "    t[l] = p[1];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    float s = t[(l + 1) % 64];\n"
        "    for (int i = 0; i < k; i++) s += p[i];\n"
        "    out[g] = s * p[1] + p[2];\n"
        "}\n";
    enum { N = 1024 };
    static float in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)(i % 7) - 3.0f;
    cl_int err;
    cl_program p = build(source, "", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "keeps", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem mi = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem mo = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    for (cl_int count = 0; count <= 4; count++) {
        CHECK_ERR(clSetKernelArg(k, 0, sizeof mi, &mi), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof mo, &mo), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 2, sizeof count, &count), CL_SUCCESS);
        size_t global = N, local = 64;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
        int wrong = 0;
        for (int i = 0; i < N && wrong < 3; i++) {
            float x = in[i], pp[4] = {x, x * 2.0f, x + 1.0f, -x};
            float s = in[i - i % 64 + (i % 64 + 1) % 64] * 2.0f;
            for (int j = 0; j < count; j++)
                s += pp[j];
            float want = s * pp[1] + pp[2];
            if (fabsf(out[i] - want) > 1e-3f) {
                CHECK(0, "k = %d: element %d is %g, expected %g", count, i, out[i], want);
                wrong++;
            }
        }
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* A widened kernel (a loop of its own) reads a float4 per work-item: each
 * component's lanes are 16 bytes apart, read as one wide masked load and
 * every fourth element (src/compiler/vectorize/wfv.c, interleaved_load).  The
 * buffer ends where an inaccessible page starts, and the rows are partial
 * (37, 5 and 1 work-items; 64 and 69, where the widest pass runs too), so
 * a load touching anything past the last work-item's float4 would fault;
 * every result is checked. */
TEST(float4_lanes_at_buffer_end)
{
    static const char source[] =
        "kernel void sums(global const float4 *v, global float *out, int n)\n"
        "{\n"
        "    int g = get_global_id(0), size = get_global_size(0);\n"
        "    float s = 0.0f;\n"
        "    for (int k = 0; k < n; k++) {\n"
        "        float4 x = v[g + k * size];\n"
        "        s += x.x + x.y * 2.0f + x.z * 3.0f + x.w * 4.0f;\n"
        "    }\n"
        "    out[g] = s;\n"
        "}\n";
    long page = sysconf(_SC_PAGESIZE);
    cl_int err;
    cl_program p = build(source, "", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "sums", &err);
    CHECK_ERR(err, CL_SUCCESS);
    static const size_t sizes[] = {37, 5, 1, 64, 69};
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        size_t items = sizes[c], rounds = 3, bytes = items * rounds * 4 * sizeof(float);
        size_t span = (bytes + (size_t)page - 1) / (size_t)page * (size_t)page;
        char *map = mmap(NULL, span + (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        CHECK(map != MAP_FAILED, "mmap");
        if (map == MAP_FAILED)
            continue;
        CHECK(mprotect(map + span, (size_t)page, PROT_NONE) == 0, "mprotect");
        float *v = (float *)(map + span - bytes); /* its last float4 ends at the guard page */
        for (size_t i = 0; i < items * rounds * 4; i++)
            v[i] = (float)(i % 11) - 5.0f;
        cl_mem mv = clCreateBuffer(context, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, bytes, v, &err);
        CHECK_ERR(err, CL_SUCCESS);
        float out[128];
        cl_mem mo = clCreateBuffer(context, CL_MEM_WRITE_ONLY, items * sizeof(float), NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_int n = (cl_int)rounds;
        CHECK_ERR(clSetKernelArg(k, 0, sizeof mv, &mv), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof mo, &mo), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 2, sizeof n, &n), CL_SUCCESS);
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &items, &items, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, items * sizeof(float), out, 0, NULL, NULL), CL_SUCCESS);
        for (size_t g = 0; g < items; g++) {
            float want = 0.0f;
            for (size_t r = 0; r < rounds; r++) {
                const float *x = v + (g + r * items) * 4;
                want += x[0] + x[1] * 2.0f + x[2] * 3.0f + x[3] * 4.0f;
            }
            CHECK(fabsf(out[g] - want) < 1e-3f, "%zu work-items: %zu is %g, expected %g", items, g, out[g], want);
        }
        clReleaseMemObject(mv);
        clReleaseMemObject(mo);
        munmap(map, span + (size_t)page);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
}


/* Kernels that keep a tile in a private array indexed by the counters of
 * loops under `#pragma unroll` (CLBlast's GEMMs): the compiler unrolls
 * those loops before it builds the loops over work-items, so the array is
 * values (src/compiler/workgroup/pragma_unroll.c).  A register-tiled product with
 * barriers in its k loop (each work-item 4x4 outputs of a 32x32 tile, groups
 * of 8x8) and one without barriers; every element checked. */
static const char tiled_source[] =
    "#define T 32\n"
    "kernel void tiles(int n, global const float *a, global const float *b, global float *c)\n"
    "{\n"
    "    local float at[T * (T + 1)], bt[T * (T + 1)];\n"
    "    float acc[16];\n"
    "    #pragma unroll\n"
    "    for (int i = 0; i < 16; i++) acc[i] = 0.0f;\n"
    "    int lx = get_local_id(0), ly = get_local_id(1), gx = get_group_id(0), gy = get_group_id(1);\n"
    "    for (int k0 = 0; k0 < n; k0 += T) {\n"
    "        #pragma unroll\n"
    "        for (int u = 0; u < 16; u++) {\n"
    "            int t = ly * 8 + lx + u * 64, row = t / T, col = t % T;\n"
    "            at[row * (T + 1) + col] = a[(gx * T + row) * n + k0 + col];\n"
    "            bt[row * (T + 1) + col] = b[(k0 + row) * n + gy * T + col];\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int k = 0; k < T; k++) {\n"
    "            float ap[4], bp[4];\n"
    "            #pragma unroll\n"
    "            for (int m = 0; m < 4; m++) ap[m] = at[(lx * 4 + m) * (T + 1) + k];\n"
    "            #pragma unroll\n"
    "            for (int j = 0; j < 4; j++) bp[j] = bt[k * (T + 1) + ly * 4 + j];\n"
    "            #pragma unroll\n"
    "            for (int j = 0; j < 4; j++)\n"
    "                #pragma unroll\n"
    "                for (int m = 0; m < 4; m++) acc[j * 4 + m] += ap[m] * bp[j];\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    #pragma unroll\n"
    "    for (int j = 0; j < 4; j++)\n"
    "        #pragma unroll\n"
    "        for (int m = 0; m < 4; m++) c[(gx * T + lx * 4 + m) * n + gy * T + ly * 4 + j] = acc[j * 4 + m];\n"
    "}\n"
    "kernel void columns(int n, global const float *a, global const float *b, global float *c)\n"
    "{\n"
    "    int col = get_global_id(0), row = get_global_id(1) * 4;\n"
    "    float acc[4];\n"
    "    #pragma unroll\n"
    "    for (int m = 0; m < 4; m++) acc[m] = 0.0f;\n"
    "    for (int k = 0; k < n; k++) {\n"
    "        #pragma unroll\n"
    "        for (int m = 0; m < 4; m++) acc[m] += a[(row + m) * n + k] * b[k * n + col];\n"
    "    }\n"
    "    #pragma unroll\n"
    "    for (int m = 0; m < 4; m++) c[(row + m) * n + col] = acc[m];\n"
    "}\n";

TEST(unrolled_tiles)
{
    enum { N = 96 };
    static float a[N * N], b[N * N], got[N * N], want[N * N];
    for (int i = 0; i < N * N; i++) {
        a[i] = (float)(i % 7) * 0.5f - 1.0f;
        b[i] = (float)(i % 5) * 0.25f - 0.5f;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float s = 0.0f;
            for (int k = 0; k < N; k++)
                s += a[i * N + k] * b[k * N + j];
            want[i * N + j] = s;
        }
    cl_int err;
    cl_program p = build(tiled_source, "", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem ma = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    cl_mem mb = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
    cl_mem mc = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof got, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    static const struct {
        const char *name;
        size_t global[2], local[2];
    } runs[] = {{"tiles", {N / 4, N / 4}, {8, 8}}, {"columns", {N, N / 4}, {16, 4}}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        cl_kernel k = clCreateKernel(p, runs[r].name, &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_int n = N;
        CHECK_ERR(clSetKernelArg(k, 0, sizeof n, &n), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof ma, &ma), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 2, sizeof mb, &mb), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 3, sizeof mc, &mc), CL_SUCCESS);
        /* four launches: the last ones run the build for the local size (one_size.c) */
        for (int launch = 0; launch < 4; launch++) {
            float zero = 0.0f;
            CHECK_ERR(clEnqueueFillBuffer(queue, mc, &zero, sizeof zero, 0, sizeof got, 0, NULL, NULL), CL_SUCCESS);
            CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 2, NULL, runs[r].global, runs[r].local, 0, NULL, NULL),
                      CL_SUCCESS);
            CHECK_ERR(clEnqueueReadBuffer(queue, mc, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
            int wrong = 0;
            for (int i = 0; i < N * N && wrong < 3; i++)
                if (fabsf(got[i] - want[i]) > 1e-3f * (1.0f + fabsf(want[i]))) {
                    CHECK(0, "%s, launch %d: element %d is %g, expected %g", runs[r].name, launch, i, got[i], want[i]);
                    wrong++;
                }
        }
        clReleaseKernel(k);
    }
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseProgram(p);
}

/* Builds source with stderr going to a file, whose text (what MOSAIC_DEBUG
 * printed) ends up in text; whether it built. */
static bool build_saying(const char *source, char *text, size_t size)
{
    test_stderr_capture c;
    if (!test_capture_stderr(&c))
        return false;
    cl_int err;
    cl_program p = build(source, "", &err);
    test_captured_stderr(&c, text, size);
    CHECK_ERR(err, CL_SUCCESS);
    if (p)
        clReleaseProgram(p);
    return err == CL_SUCCESS;
}

/* Kernel `name` of a program built from source and a buffer of `bytes`,
 * each NULL (a failed check) when it could not be made. */
static void program_kernel_buffer(const char *source, const char *name, size_t bytes, cl_program *p, cl_kernel *k,
                                  cl_mem *m)
{
    cl_int err;
    *p = build(source, "", &err);
    CHECK_ERR(err, CL_SUCCESS);
    *k = *p ? clCreateKernel(*p, name, &err) : NULL;
    CHECK(*k, "kernel %s", name);
    *m = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
}

static void release_program_kernel_buffer(cl_program p, cl_kernel k, cl_mem m)
{
    if (m)
        clReleaseMemObject(m);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
}

/* Kernel `tiles` of `source` launched three times on 96x96 floats in 3x3
 * groups of group x group (the third launch builds it for that size,
 * one_size.c), saying. */
static void launch_tiles_saying(const char *source, size_t group, char *text, size_t size)
{
    enum { N = 96 };
    cl_program p;
    cl_kernel k;
    cl_mem m;
    program_kernel_buffer(source, "tiles", N * N * sizeof(float), &p, &k, &m);
    cl_int n = N;
    test_stderr_capture c;
    if (k && m && test_capture_stderr(&c)) {
        CHECK_ERR(clSetKernelArg(k, 0, sizeof n, &n), CL_SUCCESS);
        for (cl_uint a = 1; a <= 3; a++)
            CHECK_ERR(clSetKernelArg(k, a, sizeof m, &m), CL_SUCCESS);
        size_t global[2] = {3 * group, 3 * group}, local[2] = {group, group};
        for (int launch = 0; launch < 3; launch++)
            CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clFinish(queue), CL_SUCCESS);
        test_captured_stderr(&c, text, size);
    }
    release_program_kernel_buffer(p, k, m);
}

/* Does the summary line of `kernel` in text ("mosaic: kernel K: work-group
 * function...") say `what`? */
static bool summary_says(const char *text, const char *kernel, const char *what)
{
    char head[128];
    snprintf(head, sizeof head, "mosaic: kernel %s: work-group function", kernel);
    const char *line = strstr(text, head), *end = line ? strchr(line, '\n') : NULL, *at = line ? strstr(line, what) : NULL;
    return at && (!end || at < end);
}

/* MOSAIC_DEBUG (set for this case by its list entry) says for each kernel
 * built how it runs, and why LLVM left a loop of its work-group function
 * scalar (src/compiler/ir/remarks.c).  Kernels of this process's own (its pid
 * in their code): the cache's hits print no build's output. */
TEST(debug_says_why)
{
    const char *debug = getenv("MOSAIC_DEBUG");
    if (!debug || !*debug || !strcmp(debug, "0"))
        TEST_SKIP("runs with MOSAIC_DEBUG=1");
    char source[1024];
    snprintf(source, sizeof source,
             "kernel void calls(global int *a) { int i = get_global_id(0); printf(\"%%d\\n\", a[i] + %d); }\n"
             "kernel void scales(global float *a) { size_t i = get_global_id(0); a[i] = a[i] * 2.0f + %d.0f; }\n"
             "kernel void checks(global float *a, uint n)\n"
             "{ size_t i = get_global_id(0); if (i < n) a[i] = a[i] * 3.0f + %d.0f; }\n"
             "kernel void flags(global float *a, int f)\n"
             "{ size_t i = get_global_id(0); if (f & 1) a[i] = a[i] + %d.0f; else a[2 * i] = 1.0f; }\n"
             "kernel void counts(global float *a, global int *n)\n"
             "{ size_t i = get_global_id(0); a[i] = a[i] * 2.0f + %d.0f; atomic_inc(n); }\n",
             (int)getpid(), (int)getpid(), (int)getpid(), (int)getpid(), (int)getpid());
    static char text[65536];
    if (!build_saying(source, text, sizeof text))
        return;
    CHECK(strstr(text, "mosaic: kernel calls: a loop of its work-group function: loop not vectorized: call instruction "
                       "cannot be vectorized"),
          "no reason for the kernel that calls printf in:\n%s", text);
    CHECK(strstr(text, "mosaic: kernel calls: work-group function, 0 loops over work-items vectorised"),
          "no summary for kernel calls in:\n%s", text);
    /* how many loops: the vector loop, and an epilogue where LLVM's cost
     * model for the host's CPU vectorises one (2 on Zen 4; 1 on a Xeon that
     * LLVM 16 takes for a Rocket Lake) */
    CHECK(summary_says(text, "scales", " over work-items vectorised") && !summary_says(text, "scales", " 0 loops"),
          "no summary for kernel scales in:\n%s", text);
    CHECK(!strstr(text, "kernel scales: a loop"), "a reason for a vectorised kernel in:\n%s", text);
    CHECK(summary_says(text, "checks", ", 1 with a copy for rows that pass their bounds checks"),
          "no copy for the rows of kernel checks in:\n%s", text);
    /* stores of whole lines get a non-temporal version (nontemporal_stores.c):
     * a widened row of floats is one line with AVX-512; none in a kernel
     * with atomics */
    if (__builtin_cpu_supports("avx512f"))
        CHECK(summary_says(text, "scales", " stores of whole lines that may stream past the cache"),
              "no streaming stores in kernel scales in:\n%s", text);
    CHECK(summary_says(text, "counts", "vectorised") && !summary_says(text, "counts", "stream"),
          "streaming stores in a kernel with atomics in:\n%s", text);
    CHECK(strstr(text, "mosaic: kernel flags: work-group function, ") &&
              strstr(text, ", 1 with a version per answer of their uniform branches"),
          "no versions for the rows of kernel flags in:\n%s", text);

    /* loops under #pragma unroll are unrolled before the work-item loops
     * are built: the private tiles are values (the pid again: a build of
     * its own, not unrolled_tiles' from the cache) */
    static char tiled[sizeof tiled_source + 64];
    snprintf(tiled, sizeof tiled, "kernel void seed(global int *x) { x[0] = %d; }\n%s", (int)getpid(), tiled_source);
    if (!build_saying(tiled, text, sizeof text))
        return;
    CHECK(strstr(text, "mosaic: kernel columns.wi: widened whole"), "kernel columns not widened in:\n%s", text);
    CHECK(strstr(text, "mosaic: kernel tiles.wi: ") && strstr(text, ", 1 with copies for rows of 8 and 16"),
          "no copies for rows of one vector in kernel tiles in:\n%s", text);
    /* its build for 8x8 groups runs a row's work-items as vector lanes
     * between barriers (wfv.c, mc_wfv_rows) */
    launch_tiles_saying(tiled, 8, text, sizeof text);
    CHECK(strstr(text, "mosaic: kernel tiles.wi: rows of 8 widened, 8 work-items at once between barriers") &&
              strstr(text, ", cut from the widened rows"),
          "kernel tiles' rows not widened in its build for 8x8 groups:\n%s", text);
    /* the classic tiled SGEMM in 16x16 groups: a row's k loop is a chain
     * of 16 multiply-adds, and 8 or 4 rows run interleaved (unroll_and_jam.c) */
    static const char classic[] =
        "kernel void tiles(int n, global const float *a, global const float *b, global float *c) {\n"
        "  local float ta[16][16], tb[16][16];\n"
        "  int lx = get_local_id(0), ly = get_local_id(1), col = get_global_id(0), row = get_global_id(1);\n"
        "  float s = 0.0f;\n"
        "  for (int t = 0; t < n; t += 16) {\n"
        "    ta[ly][lx] = a[row * n + t + lx];\n"
        "    tb[ly][lx] = b[(t + ly) * n + col];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    for (int k = 0; k < 16; k++)\n"
        "      s += ta[ly][k] * tb[k][lx];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  c[row * n + col] = s + %d.0f;\n"
        "}\n";
    snprintf(tiled, sizeof tiled, classic, (int)getpid());
    launch_tiles_saying(tiled, 16, text, sizeof text);
    CHECK(strstr(text, "mosaic: kernel tiles: work-group function in regions between barriers, ") &&
              strstr(text, ", 1 row loop interleaved"),
          "kernel tiles' rows not interleaved in its build for 16x16 groups:\n%s", text);
    /* and its sum and the sum's next value share one array (regions.c, share_phi_slots) */
    CHECK(strstr(text, ", cut from the widened rows, 1 loop phi in the array of the value that comes round"),
          "kernel tiles' sum has two arrays in its build for 16x16 groups:\n%s", text);
}

/* Kernel `name` of p on `items` work-items in groups of `group`, its
 * arguments the buffers m[0..n) and then, when `local_bytes`, a __local one. */
static void launch_1d(cl_program p, const char *name, cl_mem *m, int n, size_t local_bytes, size_t items, size_t group)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!k)
        return;
    for (int a = 0; a < n; a++)
        CHECK_ERR(clSetKernelArg(k, (cl_uint)a, sizeof m[a], &m[a]), CL_SUCCESS);
    if (local_bytes)
        CHECK_ERR(clSetKernelArg(k, (cl_uint)n, local_bytes, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &items, &group, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    clReleaseKernel(k);
}

/* Barrier kernels prefetch, at a group's start, the lines that the group
 * two ahead reads before its first barrier, when the addresses come from
 * the arguments and the ids (src/compiler/workgroup/group_prefetch.c): a tree sum's
 * element per work-item, a work-item's block read in a short loop, the
 * indices of a gather (not the gathered values: their addresses come from
 * memory), no tile of a tile loop, no row of a 2D group.  MOSAIC_DEBUG says which; with
 * MOSAIC_NO_PREFETCH (the second run of this case) none.  The results are
 * the same either way, the last groups' included, whose group two ahead
 * lies past the buffers. */
TEST(prefetch_ahead)
{
    enum { GROUP = 64, GROUPS = 37, N = GROUP * GROUPS };
    bool off = getenv("MOSAIC_NO_PREFETCH") && strcmp(getenv("MOSAIC_NO_PREFETCH"), "0");
    static char source[4096];
    snprintf(source, sizeof source,
             "kernel void seed(global int *x) { x[0] = %d; }\n" /* a build of this process's own */
             "kernel void sums(global const float *x, global float *out, local float *s)\n"
             "{\n"
             "    size_t l = get_local_id(0);\n"
             "    s[l] = x[get_global_id(0)];\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    for (size_t k = get_local_size(0) / 2; k > 0; k /= 2) {\n"
             "        if (l < k)\n"
             "            s[l] += s[l + k];\n"
             "        barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    }\n"
             "    if (l == 0)\n"
             "        out[get_group_id(0)] = s[0];\n"
             "}\n"
             "kernel void blocks(global const uint *in, global uint *out)\n"
             "{\n"
             "    local uint t[%d];\n"
             "    size_t l = get_local_id(0), base = get_global_id(0) * 4;\n"
             "    uint v = 0;\n"
             "    for (int k = 0; k < 4; k++)\n"
             "        v += in[base + k] * (k + 1);\n"
             "    t[l] = v;\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    out[get_global_id(0)] = t[(l + 1) %% get_local_size(0)];\n"
             "}\n"
             "kernel void gathers(global const int *idx, global const float *x, global float *out)\n"
             "{\n"
             "    local float t[%d];\n"
             "    size_t l = get_local_id(0);\n"
             "    t[l] = x[idx[get_global_id(0)]];\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    out[get_global_id(0)] = t[get_local_size(0) - 1 - l];\n"
             "}\n"
             "kernel void rows(global const float *in, global float *out, int w)\n"
             "{\n"
             "    local float t[8][8];\n"
             "    size_t lx = get_local_id(0), ly = get_local_id(1), i = get_global_id(1) * w + get_global_id(0);\n"
             "    t[ly][lx] = in[i];\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    out[i] = t[lx][ly];\n"
             "}\n"
             "kernel void tiles(global const float *a, global float *out, int n)\n"
             "{\n"
             "    local float t[%d];\n"
             "    size_t l = get_local_id(0);\n"
             "    float s = 0.0f;\n"
             "    for (int k = 0; k < n; k += get_local_size(0)) {\n"
             "        t[l] = a[k + l];\n"
             "        barrier(CLK_LOCAL_MEM_FENCE);\n"
             "        s += t[get_local_size(0) - 1 - l] * (float)get_group_id(0);\n"
             "        barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    }\n"
             "    out[get_global_id(0)] = s;\n"
             "}\n",
             (int)getpid(), GROUP, GROUP, GROUP);
    static char text[65536];
    if (!build_saying(source, text, sizeof text))
        return;
    static const char said[] = ", 1 read before the first barrier prefetched two groups ahead";
    if (off) {
        CHECK(!strstr(text, "prefetched"), "prefetches with MOSAIC_NO_PREFETCH set:\n%s", text);
    } else {
        CHECK(summary_says(text, "sums", said), "the tree sum's read not prefetched:\n%s", text);
        CHECK(summary_says(text, "blocks", " before the first barrier prefetched two groups ahead"),
              "the block's reads not prefetched:\n%s", text);
        CHECK(summary_says(text, "gathers", said), "the indices not prefetched, or the values too:\n%s", text);
        CHECK(summary_says(text, "tiles", "vectorised") && !summary_says(text, "tiles", "prefetched"),
              "a tile loop's first tile prefetched:\n%s", text);
        CHECK(summary_says(text, "rows", "vectorised") && !summary_says(text, "rows", "prefetched"),
              "the rows of a 2D group prefetched:\n%s", text);
    }

    cl_int err;
    cl_program p = build(source, "", &err);
    CHECK_ERR(err, CL_SUCCESS);
    static float x[N], sums[GROUPS], gathered[N];
    static cl_uint in[4 * N], blocks[N];
    static cl_int idx[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 97);
        idx[i] = (int)(((unsigned)i * 7919u) % N);
    }
    for (int i = 0; i < 4 * N; i++)
        in[i] = (cl_uint)(i * 2654435761u >> 7);
    cl_mem mx = buffer(sizeof x, x), ms = buffer(sizeof sums, NULL), min = buffer(sizeof in, in);
    cl_mem mb = buffer(sizeof blocks, NULL), mi = buffer(sizeof idx, idx), mg = buffer(sizeof gathered, NULL);
    launch_1d(p, "sums", (cl_mem[]){mx, ms}, 2, GROUP * sizeof(float), N, GROUP);
    launch_1d(p, "blocks", (cl_mem[]){min, mb}, 2, 0, N, GROUP);
    launch_1d(p, "gathers", (cl_mem[]){mi, mx, mg}, 3, 0, N, GROUP);
    CHECK_ERR(clEnqueueReadBuffer(queue, ms, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, mb, CL_TRUE, 0, sizeof blocks, blocks, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, mg, CL_TRUE, 0, sizeof gathered, gathered, 0, NULL, NULL), CL_SUCCESS);
    int wrong = 0;
    for (int g = 0; g < GROUPS; g++) { /* small integers: exact in any order */
        float want = 0.0f;
        for (int l = 0; l < GROUP; l++)
            want += x[g * GROUP + l];
        wrong += sums[g] != want;
    }
    for (int i = 0; i < N; i++) {
        int g = i / GROUP, l = i % GROUP, from = g * GROUP + (l + 1) % GROUP, mirror = g * GROUP + GROUP - 1 - l;
        cl_uint v = 0;
        for (int k = 0; k < 4; k++)
            v += in[4 * from + k] * (cl_uint)(k + 1);
        wrong += blocks[i] != v;
        wrong += gathered[i] != x[idx[mirror]];
    }
    CHECK(wrong == 0, "%d results wrong", wrong);
    cl_mem ms_all[] = {mx, ms, min, mb, mi, mg};
    for (size_t i = 0; i < sizeof ms_all / sizeof *ms_all; i++)
        clReleaseMemObject(ms_all[i]);
    clReleaseProgram(p);
}

/* Groups of a column run four at a time (src/compiler/workgroup/coarsening.c): a
 * kernel whose groups all read tiles down one table's columns between
 * barriers, launched three
 * times over 60x68 work-items in 8x8 groups (the third launch builds it
 * for that size); the last column of groups is 4 wide and the last row 4
 * tall, so each column runs groups 0-3 and 4-7 together and group 8
 * alone, and the narrow column one group at a time.  MOSAIC_DEBUG says it
 * runs them together; with MOSAIC_NO_FUSE (the second run of this case)
 * it does not, and the results are the same. */
TEST(fused_columns)
{
    enum { W = 60, H = 68, N = 32 };
    bool off = getenv("MOSAIC_NO_FUSE") && strcmp(getenv("MOSAIC_NO_FUSE"), "0");
    static char source[2048];
    snprintf(source, sizeof source,
             "kernel void table_rows(global const float *table, global float *out, int n)\n"
             "{\n"
             "    local float t[64];\n"
             "    size_t lx = get_local_id(0), ly = get_local_id(1);\n"
             "    float s = %d.0f;\n" /* this process's own build */
             "    for (int k = 0; k < n; k += 8) {\n"
             "        t[ly * 8 + lx] = table[(k + ly) * n + lx];\n"
             "        barrier(CLK_LOCAL_MEM_FENCE);\n"
             "        s += t[(ly + 1) %% get_local_size(1) * 8 + (lx + 1) %% get_local_size(0)] *\n"
             "             (float)(get_global_id(1) + 1);\n"
             "        barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    }\n"
             "    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = s;\n"
             "}\n",
             (int)getpid() % 1000);
    cl_int err;
    cl_program p = build(source, "-cl-std=CL2.0", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = p ? clCreateKernel(p, "table_rows", &err) : NULL;
    static float table[N * N], out[W * H];
    for (int i = 0; i < N * N; i++)
        table[i] = (float)(i % 11 - 5);
    cl_mem mt = buffer(sizeof table, table), mo = buffer(sizeof out, NULL);
    cl_int n = N;
    test_stderr_capture c;
    static char text[65536];
    if (k && test_capture_stderr(&c)) {
        CHECK_ERR(clSetKernelArg(k, 0, sizeof mt, &mt), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof mo, &mo), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 2, sizeof n, &n), CL_SUCCESS);
        size_t global[2] = {W, H}, local[2] = {8, 8};
        for (int launch = 0; launch < 3; launch++)
            CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clFinish(queue), CL_SUCCESS);
        test_captured_stderr(&c, text, sizeof text);
    }
    bool said = strstr(text, "mosaic: kernel table_rows: groups of a column run 4 at a time") != NULL;
    CHECK(said != off, "MOSAIC_DEBUG %s that groups of a column run together:\n%s", said ? "says" : "does not say",
          text);
    CHECK_ERR(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    int wrong = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int width = x / 8 * 8 + 8 <= W ? 8 : W % 8, height = y / 8 * 8 + 8 <= H ? 8 : H % 8;
            int lx = x % 8, ly = y % 8;
            float s = (float)((int)getpid() % 1000);
            for (int kk = 0; kk < N; kk += 8)
                s += table[(kk + (ly + 1) % height) * N + (lx + 1) % width] * (float)(y + 1);
            wrong += out[y * W + x] != s;
        }
    CHECK(wrong == 0, "%d results wrong", wrong);
    clReleaseMemObject(mt);
    clReleaseMemObject(mo);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
}

/* A byte image's median of 3x3 through a __local tile in groups of
 * 16x16, 8x8 and 4x16 (rows of 16, 8 and 4 bytes): each group's build for
 * its size runs several rows at once between the barriers, 64 bytes a
 * vector (docs/compiler.md, "Rows widened between barriers"), and says so;
 * an image whose sides no group divides.  Again with MOSAIC_NO_WIDEN: the
 * same results, one work-item at a time. */
TEST(rows_at_once)
{
    enum { W = 70, H = 37 };
    bool off = getenv("MOSAIC_NO_WIDEN") && strcmp(getenv("MOSAIC_NO_WIDEN"), "0");
    int salt = (int)getpid() % 251; /* this process's own build */
    static char source[2048];
    snprintf(source, sizeof source,
             "#define CE(a, b) { uchar t_ = min(a, b); b = max(a, b); a = t_; }\n"
             "#define EVEN CE(p0, p1) CE(p2, p3) CE(p4, p5) CE(p6, p7)\n"
             "#define ODD CE(p1, p2) CE(p3, p4) CE(p5, p6) CE(p7, p8)\n"
             "kernel void median9(global const uchar *src, global uchar *dst, int w, int h)\n"
             "{\n"
             "    local uchar t[18][18];\n"
             "    int lx = get_local_id(0), ly = get_local_id(1), nx = get_local_size(0), ny = get_local_size(1);\n"
             "    int x0 = get_group_id(0) * nx - 1, y0 = get_group_id(1) * ny - 1;\n"
             "    for (int ty = ly; ty < ny + 2; ty += ny)\n"
             "        for (int tx = lx; tx < nx + 2; tx += nx)\n"
             "            t[ty][tx] = src[clamp(y0 + ty, 0, h - 1) * w + clamp(x0 + tx, 0, w - 1)];\n"
             "    barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    int x = get_global_id(0), y = get_global_id(1);\n"
             "    if (x >= w || y >= h)\n"
             "        return;\n"
             "    uchar p0 = t[ly][lx], p1 = t[ly][lx + 1], p2 = t[ly][lx + 2];\n"
             "    uchar p3 = t[ly + 1][lx], p4 = t[ly + 1][lx + 1], p5 = t[ly + 1][lx + 2];\n"
             "    uchar p6 = t[ly + 2][lx], p7 = t[ly + 2][lx + 1], p8 = t[ly + 2][lx + 2];\n"
             "    EVEN ODD EVEN ODD EVEN ODD EVEN ODD EVEN\n" /* sorted */
             "    dst[y * w + x] = p4 + %d;\n"
             "}\n",
             salt);
    cl_int err, w = W, h = H;
    cl_program p = build(source, "", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = p ? clCreateKernel(p, "median9", &err) : NULL;
    static unsigned char in[W * H], out[W * H], ref[W * H];
    for (int i = 0; i < W * H; i++)
        in[i] = (unsigned char)((i * 2654435761u) >> 13);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            unsigned char v[9];
            for (int n = 0; n < 9; n++) { /* insertion sort */
                int yy = y + n / 3 - 1, xx = x + n % 3 - 1;
                unsigned char e = in[(yy < 0 ? 0 : yy >= H ? H - 1 : yy) * W + (xx < 0 ? 0 : xx >= W ? W - 1 : xx)];
                int j = n;
                for (; j > 0 && v[j - 1] > e; j--)
                    v[j] = v[j - 1];
                v[j] = e;
            }
            ref[y * W + x] = (unsigned char)(v[4] + salt);
        }
    cl_mem mi = buffer(sizeof in, in), mo = buffer(sizeof out, NULL);
    const struct { size_t x, y; const char *says; } groups[] = {
        {16, 16, "mosaic: kernel median9.wi: rows of 16 widened, 4 rows (64 work-items) at once between barriers"},
        {8, 8, "mosaic: kernel median9.wi: rows of 8 widened, 8 rows (64 work-items) at once between barriers"},
        {4, 16, "mosaic: kernel median9.wi: rows of 4 widened, 16 rows (64 work-items) at once between barriers"},
    };
    for (unsigned g = 0; k && g < sizeof groups / sizeof *groups; g++) {
        test_stderr_capture c;
        static char text[65536];
        text[0] = 0;
        CHECK_ERR(clSetKernelArg(k, 0, sizeof mi, &mi), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof mo, &mo), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 2, sizeof w, &w), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 3, sizeof h, &h), CL_SUCCESS);
        size_t local[2] = {groups[g].x, groups[g].y};
        size_t global[2] = {(W + local[0] - 1) / local[0] * local[0], (H + local[1] - 1) / local[1] * local[1]};
        if (!test_capture_stderr(&c))
            break;
        for (int launch = 0; launch < 3; launch++) { /* the third runs the build for its size */
            memset(out, 0xee, sizeof out);
            CHECK_ERR(clEnqueueWriteBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
            CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL, NULL), CL_SUCCESS);
            CHECK_ERR(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
            int wrong = 0, first = -1;
            for (int i = 0; i < W * H; i++)
                if (out[i] != ref[i] && !wrong++)
                    first = i;
            CHECK(wrong == 0, "groups of %zux%zu, launch %d: %d bytes wrong (first %d: %u, want %u)", local[0],
                  local[1], launch, wrong, first, first >= 0 ? out[first] : 0, first >= 0 ? ref[first] : 0);
        }
        test_captured_stderr(&c, text, sizeof text);
        bool said = strstr(text, groups[g].says) != NULL;
        CHECK(said != off, "MOSAIC_DEBUG %s \"%s\":\n%s", said ? "says" : "does not say", groups[g].says, text);
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
}

/* x -> a x + c, n times, modulo 2^32 (the affine map raised to n by squaring). */
static uint32_t lcg_after(uint32_t x, uint32_t a, uint32_t c, uint64_t n)
{
    uint32_t pa = a, pc = c; /* the map raised to the power of 2 reached */
    for (; n; n >>= 1) {
        if (n & 1)
            x = pa * x + pc;
        pc = pa * pc + pc, pa *= pa;
    }
    return x;
}

/* Waits up to a minute for stderr, captured by c, to say `said` (a build
 * on the background thread), then ends the capture with its text in text;
 * whether it was said. */
static bool captured_saying(test_stderr_capture *c, const char *said, char *text, size_t size)
{
    bool found = false;
    for (double until = test_now_ms() + 60000; !found && test_now_ms() < until; usleep(20000)) {
        fflush(stderr);
        ssize_t r = pread(c->fd, text, size - 1, 0);
        text[r > 0 ? r : 0] = 0;
        found = strstr(text, said) != NULL;
    }
    test_captured_stderr(c, text, size);
    return found;
}

/* A kernel with reqd_work_group_size and barriers is built for that size
 * as soon as the program is (one_size.c, mc_one_size_build_required),
 * before any launch; its launches give the right results. */
TEST(required_size_built_at_once)
{
    static const char *source =
        "kernel __attribute__((reqd_work_group_size(32, 2, 1)))\n"
        "void flips(global int *out)\n"
        "{\n"
        "    local int t[2][32];\n"
        "    int x = get_local_id(0), y = get_local_id(1);\n"
        "    t[y][x] = (int)get_global_id(1) * 1000 + (int)get_global_id(0);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = t[1 - y][31 - x];\n"
        "}\n";
    enum { W = 64, H = 4 };
    test_stderr_capture c;
    if (!test_capture_stderr(&c))
        return;
    cl_program p;
    cl_kernel k;
    cl_mem m;
    program_kernel_buffer(source, "flips", W * H * sizeof(cl_int), &p, &k, &m);
    static char text[16384];
    bool built = captured_saying(&c, "mosaic: kernel flips: built for work-groups of 32x2x1", text, sizeof text);
    CHECK(built, "no build for the required size in:\n%s", text);
    if (k && m) {
        CHECK_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
        size_t global[2] = {W, H}, local[2] = {32, 2};
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL, NULL), CL_SUCCESS);
        cl_int got[W * H];
        CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int gy = y / 2 * 2 + (1 - y % 2), gx = x / 32 * 32 + (31 - x % 32);
                if (got[y * W + x] != gy * 1000 + gx) {
                    CHECK(0, "(%d, %d) is %d, expected %d", x, y, got[y * W + x], gy * 1000 + gx);
                    y = H;
                    break;
                }
            }
    }
    release_program_kernel_buffer(p, k, m);
}

/* A barrier kernel launched once, whose groups each run far longer than
 * HURRY_AFTER_NS (cpu_device.c), gets its build for its local size without
 * the launches that would start it (MOSAIC_SPECIALISE_AFTER, set out of
 * reach by this case's list entry): MOSAIC_DEBUG says it was built. */
TEST(long_launch_builds_its_size)
{
    enum { GROUP = 64, GROUPS = 2 };
    const cl_int n = 1 << 26;
    static const char *source =
        "kernel void chains(global uint *out, int n)\n"
        "{\n"
        "    local uint t[64];\n"
        "    uint l = get_local_id(0), s = l;\n"
        "    for (int i = 0; i < n; i++)\n"
        "        s = s * 1664525u + 1013904223u;\n"
        "    t[l] = s;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[get_global_id(0)] = t[63 - l];\n"
        "}\n";
    cl_program p;
    cl_kernel k;
    cl_mem m;
    program_kernel_buffer(source, "chains", GROUP * GROUPS * sizeof(cl_uint), &p, &k, &m);
    test_stderr_capture c;
    if (k && m && test_capture_stderr(&c)) {
        CHECK_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof n, &n), CL_SUCCESS);
        size_t global = GROUP * GROUPS, local = GROUP;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        cl_uint got[GROUP * GROUPS];
        CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
        static char text[16384];
        bool built = captured_saying(&c, "mosaic: kernel chains: built for work-groups of 64x1x1", text, sizeof text);
        CHECK(built, "no build for the launch's size in:\n%s", text);
        for (int i = 0; i < GROUP * GROUPS; i++) {
            cl_uint want = lcg_after((cl_uint)(GROUP - 1 - i % GROUP), 1664525u, 1013904223u, (uint64_t)n);
            if (got[i] != want) {
                CHECK(0, "element %d is %u, expected %u", i, got[i], want);
                break;
            }
        }
    }
    release_program_kernel_buffer(p, k, m);
}

/* No work-item starts an iteration of a loop with barriers before its whole
 * group has finished the previous one, as on GPUs (docs/compiler.md,
 * "Kernels with barriers"): work-item 0 resets a __local counter at the
 * top of the loop with no barrier before it, and every work-item reads the
 * counter after the loop's last barrier, strictly a data race that
 * OpenCV's face detector has.  reset: the plain loop; stages: a tile loop
 * with a `continue` around a stage loop with a `break` (OpenCV's shape);
 * rows: each row of an 8x8 group writes its slot at the top and reads the
 * next row's at the end (rows widened in a build for one size).  Three
 * launches each: the third (MOSAIC_SPECIALISE_AFTER=1: every one) runs a
 * build for the local size; the test runs again as fibers. */
TEST(loop_iterations_in_step)
{
    static const char source[] =
        "kernel void reset(global int *out, local int *cnt) {\n"
        "  int l = get_local_id(0);\n"
        "  for (int it = 0; it < 3; it++) {\n"
        "    if (l == 0) cnt[0] = 0;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    atomic_inc(cnt);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[get_global_id(0) * 3 + it] = cnt[0];\n"
        "  }\n"
        "}\n"
        "kernel void stages(global const int *in, global int *out, local int *cnt, int tiles) {\n"
        "  int l = get_local_id(0), n = get_local_size(0);\n"
        "  for (int t = get_group_id(0); t < tiles; t += get_num_groups(0)) {\n"
        "    if (t % 3 == 2)\n"
        "      continue;\n"
        "    if (l == 0) cnt[0] = 0;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    int v = in[t * n + l];\n"
        "    if (v > 0) atomic_inc(cnt);\n"
        "    for (int s = 1; s < 4; s++) {\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      if (cnt[0] == 0) break;\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      if (l == 0) cnt[0] = 0;\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      if (v > s) atomic_inc(cnt);\n"
        "    }\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[t * n + l] = cnt[0];\n"
        "  }\n"
        "}\n"
        "kernel void rows(global const float *b, global float *out, int n) {\n"
        "  local float t[64];\n"
        "  local int m[8];\n"
        "  int lx = get_local_id(0), ly = get_local_id(1), col = get_global_id(0), row = get_global_id(1);\n"
        "  float s = 0.0f;\n"
        "  for (int i = 0; i < n; i += 8) {\n"
        "    m[ly] = i;\n"
        "    t[ly * 8 + lx] = b[(i + ly) * n + col];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    for (int k = 0; k < 8; k++)\n"
        "      s += t[k * 8 + lx] * (float)(row % 5 + 1);\n"
        "    m[ly] = i + 1000;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    s += (float)m[(ly + 1) % 8];\n"
        "  }\n"
        "  out[row * n + col] = s;\n"
        "}\n";
    enum { G = 256, L = 64, TILES = 9, C = 64, ROWS = 40 };
    cl_int err;
    cl_program p = build(source, "", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel kr = clCreateKernel(p, "reset", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel ks = clCreateKernel(p, "stages", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel kw = clCreateKernel(p, "rows", &err);
    CHECK_ERR(err, CL_SUCCESS);
    static int in[TILES * L], out[G * 3], want[TILES * L];
    static float b[C * C], fout[C * ROWS], fwant[C * ROWS];
    for (int i = 0; i < TILES * L; i++) {
        in[i] = i / L == 4 ? -(i % 3) : (i * 7 + i / L) % 9 - 2; /* tile 4: a break at once */
        want[i] = -1;
    }
    for (int t = 0; t < TILES; t++) {
        if (t % 3 == 2)
            continue;
        int c = 0;
        for (int l = 0; l < L; l++)
            c += in[t * L + l] > 0;
        for (int s = 1; s < 4 && c; s++) {
            c = 0;
            for (int l = 0; l < L; l++)
                c += in[t * L + l] > s;
        }
        for (int l = 0; l < L; l++)
            want[t * L + l] = c;
    }
    for (int i = 0; i < C * C; i++)
        b[i] = (float)(i * 5 % 7 - 3);
    for (int row = 0; row < ROWS; row++)
        for (int col = 0; col < C; col++) {
            float s = 0.0f;
            for (int i = 0; i < C; i += 8) {
                for (int k = 0; k < 8; k++)
                    s += b[(i + k) * C + col] * (float)(row % 5 + 1);
                s += (float)(i + 1000);
            }
            fwant[row * C + col] = s;
        }
    cl_mem mo = buffer(sizeof out, NULL), mi = buffer(sizeof in, in), mb = buffer(sizeof b, b);
    cl_mem mf = buffer(sizeof fout, NULL);
    cl_int tiles = TILES, n = C;
    CHECK_ERR(clSetKernelArg(kr, 0, sizeof mo, &mo), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(kr, 1, sizeof(cl_int), NULL), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(ks, 0, sizeof mi, &mi), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(ks, 1, sizeof mo, &mo), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(ks, 2, sizeof(cl_int), NULL), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(ks, 3, sizeof tiles, &tiles), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(kw, 0, sizeof mb, &mb), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(kw, 1, sizeof mf, &mf), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(kw, 2, sizeof n, &n), CL_SUCCESS);
    for (int launch = 0; launch < 3; launch++) {
        /* reset: 4 groups of 64 */
        int minus_one = -1;
        CHECK_ERR(clEnqueueFillBuffer(queue, mo, &minus_one, sizeof minus_one, 0, sizeof out, 0, NULL, NULL),
                  CL_SUCCESS);
        size_t global = G, local = L;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, kr, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
        int wrong = 0, first = -1;
        for (int i = 0; i < G * 3; i++)
            if (out[i] != L && !wrong++)
                first = i;
        CHECK(!wrong, "reset, launch %d: %d work-items read what the next iteration wrote (first %d: %d, not %d)",
              launch, wrong, first, first >= 0 ? out[first] : 0, L);

        /* stages: 2 groups of 64 over 9 tiles, every third skipped */
        CHECK_ERR(clEnqueueFillBuffer(queue, mo, &minus_one, sizeof minus_one, 0, sizeof out, 0, NULL, NULL),
                  CL_SUCCESS);
        global = 2 * L;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, ks, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
        wrong = 0, first = -1;
        for (int i = 0; i < TILES * L; i++)
            if (out[i] != want[i] && !wrong++)
                first = i;
        CHECK(!wrong, "stages, launch %d: %d wrong (first %d: %d, not %d)", launch, wrong, first,
              first >= 0 ? out[first] : 0, first >= 0 ? want[first] : 0);

        /* rows: 64 columns, 40 rows of 8x8 groups */
        size_t global2[2] = {C, ROWS}, local2[2] = {8, 8};
        CHECK_ERR(clEnqueueNDRangeKernel(queue, kw, 2, NULL, global2, local2, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, mf, CL_TRUE, 0, sizeof fout, fout, 0, NULL, NULL), CL_SUCCESS);
        wrong = 0, first = -1;
        for (int i = 0; i < C * ROWS; i++)
            if (fout[i] != fwant[i] && !wrong++)
                first = i;
        CHECK(!wrong, "rows, launch %d: %d wrong (first %d: %g, not %g)", launch, wrong, first,
              first >= 0 ? fout[first] : 0.0, first >= 0 ? fwant[first] : 0.0);
    }
    clReleaseMemObject(mo);
    clReleaseMemObject(mi);
    clReleaseMemObject(mb);
    clReleaseMemObject(mf);
    clReleaseKernel(kr);
    clReleaseKernel(ks);
    clReleaseKernel(kw);
    clReleaseProgram(p);
}

int main(int argc, char **argv)
{
    return test_main_on_cpu_queue(argc, argv, &device, &context, &queue);
}
