/* A limit the device reports is a limit it enforces (issue 37): programs,
 * kernels and launches beyond CL_DEVICE_* limits fail with the code the
 * specification names and say why, where each once aborted the host, crashed
 * it or ran anyway; at the limit they work. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define TEST_LIST "test_limits.list"
#include "test.h"
#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static long max_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Does the log have a line with every one of the words? */
static bool log_line_has(const char *log, const char *const *words, size_t n)
{
    for (const char *line = log; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        bool all = true;
        for (size_t i = 0; i < n && all; i++)
            all = memmem(line, len, words[i], strlen(words[i])) != NULL;
        if (all)
            return true;
        line = end ? end + 1 : NULL;
    }
    return false;
}

/* Builds source with options: the build must fail with `expected` and its
 * log have a line with each of the n words. */
static void check_build_fails(const char *source, const char *options, cl_int expected, const char *const *words,
                              size_t n)
{
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clBuildProgram(program, 1, &device, options, NULL, NULL), expected);
    char *log = test_build_log(program, device);
    CHECK(log && log_line_has(log, words, n), "no line names %s and the limit in the log:\n%s", words[0],
          log ? log : "");
    cl_build_status status = CL_BUILD_NONE;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    CHECK(status == CL_BUILD_ERROR);
    free(log);
    clReleaseProgram(program);
}

static size_t device_size(cl_device_info what)
{
    size_t value = 0;
    CHECK_ERR(clGetDeviceInfo(device, what, sizeof value, &value, NULL), CL_SUCCESS);
    return value;
}

static cl_ulong device_ulong(cl_device_info what)
{
    cl_ulong value = 0;
    CHECK_ERR(clGetDeviceInfo(device, what, sizeof value, &value, NULL), CL_SUCCESS);
    return value;
}

/* Runs kernel `name` of `program` on `global` work-items with out (ints) as
 * its first argument; returns the status of the enqueue. */
static cl_int run_on(cl_program program, const char *name, cl_mem out, size_t global, const size_t *local)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!k)
        return err;
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        CHECK_ERR(clFinish(queue), CL_SUCCESS);
    clReleaseKernel(k);
    return err;
}

/* ---- program-scope variables ------------------------------------------------ */

/* A __global variable of 2^42 bytes once ended in "LLVM ERROR: Unable to
 * allocate section memory!" and SIGABRT inside the JIT. */
TEST(global_variable_too_big)
{
    static const char *source = "global int big[1L << 40];\n"
                                "kernel void k(global int *o) { big[get_global_id(0)] = 1; o[0] = big[5]; }\n";
    char limit[32];
    snprintf(limit, sizeof limit, "%zu", device_size(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE));
    const char *words[] = { "'big'", "4398046511104", limit, "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE" };
    check_build_fails(source, "-cl-std=CL3.0", CL_BUILD_PROGRAM_FAILURE, words, 4);
    check_build_fails(source, "-cl-std=CL2.0", CL_BUILD_PROGRAM_FAILURE, words, 4);
    /* a static variable of a function is one too */
    static const char *in_function = "kernel void k(global int *o) {\n"
                                     "    static global long twice[1L << 13 | 1];\n"
                                     "    twice[get_global_id(0)] = 1; o[0] = twice[5];\n"
                                     "}\n";
    const char *static_words[] = { "twice'", "65544", limit };
    check_build_fails(in_function, "-cl-std=CL2.0", CL_BUILD_PROGRAM_FAILURE, static_words, 3);
}

/* Variables of exactly CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE build and keep
 * their values from one launch to the next. */
TEST(global_variable_at_limit)
{
    size_t max = device_size(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE);
    CHECK(max >= 64 * 1024);
    char source[1024];
    snprintf(source, sizeof source,
             "global uchar a[%zu], b[%zu] = { 7 };\n"
             "kernel void fill(global int *o) { size_t i = get_global_id(0); a[i] = (uchar)i; b[i] += 1; }\n"
             "kernel void sum(global int *o) {\n"
             "    uint s = 0;\n"
             "    for (size_t i = 0; i < %zu; i++) s += a[i] + b[i];\n"
             "    o[0] = (int)s;\n"
             "}\n", max, max, max);
    cl_program program = test_build_program(context, device, source, "-cl-std=CL3.0");
    if (!program)
        return;
    size_t total = 0;
    CHECK_ERR(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof total,
                                    &total, NULL), CL_SUCCESS);
    CHECK(total >= 2 * max, "CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE %zu", total);
    cl_int err;
    int sum = 0;
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof sum, &sum, &err);
    CHECK_ERR(run_on(program, "fill", out, max, NULL), CL_SUCCESS);
    CHECK_ERR(run_on(program, "sum", out, 1, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof sum, &sum, 0, NULL, NULL), CL_SUCCESS);
    unsigned expected = 7 + (unsigned)max; /* b: 7 then 0s, each + 1 */
    for (size_t i = 0; i < max; i++)
        expected += (unsigned char)i;
    CHECK((unsigned)sum == expected, "sum %u, expected %u", (unsigned)sum, expected);
    clReleaseMemObject(out);
    clReleaseProgram(program);
}

/* A 256 MiB __constant array (the device reports 64 MiB) once built for
 * 45 s and grew the process by 856 MB; now it is refused before any code
 * is made of it. */
TEST(constant_variables_too_big)
{
    static const char *source = "constant int table[64 * 1024 * 1024] = { 1, 2, 3 };\n"
                                "kernel void k(global int *o) { o[0] = table[get_global_id(0) + 1]; }\n";
    char limit[32];
    snprintf(limit, sizeof limit, "%llu", (unsigned long long)device_ulong(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE));
    const char *words[] = { "'table'", "268435456", limit, "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE" };
    long rss_before = max_rss_kib();
    check_build_fails(source, "", CL_BUILD_PROGRAM_FAILURE, words, 4);
    long grown_mib = (max_rss_kib() - rss_before) / 1024;
    CHECK(grown_mib < 128, "the refused build grew the process by %ld MiB", grown_mib);

    /* each fits, both together do not: the device's __constant memory is for all of them */
    static const char *two = "constant int t1[10 * 1024 * 1024] = { 1 };\n"
                             "constant int t2[10 * 1024 * 1024] = { 2 };\n"
                             "kernel void k(global int *o) { size_t i = get_global_id(0); o[i] = t1[i] + t2[i]; }\n";
    const char *two_words[] = { "83886080", limit, "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE" };
    check_build_fails(two, "", CL_BUILD_PROGRAM_FAILURE, two_words, 3);
}

/* The limits hold for every way to an executable: a compiled object
 * (clCompileProgram checks nothing of the kind) linked with clLinkProgram,
 * or handed back as a binary and built. */
TEST(variables_of_binaries)
{
    static const char *source = "global int big[1L << 40];\n"
                                "kernel void k(global int *o) { big[get_global_id(0)] = 1; o[0] = big[5]; }\n";
    const char *words[] = { "'big'", "4398046511104", "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE" };
    cl_int err;
    cl_program compiled = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(clCompileProgram(compiled, 1, &device, "-cl-std=CL3.0", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);

    cl_program linked = clLinkProgram(context, 1, &device, "", 1, &compiled, NULL, NULL, &err);
    CHECK_ERR(err, CL_LINK_PROGRAM_FAILURE);
    if (linked) {
        char *log = test_build_log(linked, device);
        CHECK(log && log_line_has(log, words, 3), "link log:\n%s", log ? log : "");
        free(log);
        clReleaseProgram(linked);
    }

    size_t size = 0;
    CHECK_ERR(clGetProgramInfo(compiled, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL), CL_SUCCESS);
    unsigned char *binary = malloc(size ? size : 1);
    CHECK_ERR(clGetProgramInfo(compiled, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL), CL_SUCCESS);
    const unsigned char *bin = binary;
    cl_int status;
    cl_program from_binary = clCreateProgramWithBinary(context, 1, &device, &size, &bin, &status, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (from_binary) {
        CHECK_ERR(clBuildProgram(from_binary, 1, &device, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
        char *log = test_build_log(from_binary, device);
        CHECK(log && log_line_has(log, words, 3), "build log:\n%s", log ? log : "");
        free(log);
        clReleaseProgram(from_binary);
    }
    free(binary);
    clReleaseProgram(compiled);
}

/* ---- private memory ------------------------------------------------------------- */

static size_t kernel_work_group_size(cl_kernel k)
{
    size_t n = 0;
    CHECK_ERR(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof n, &n, NULL), CL_SUCCESS);
    return n;
}

static cl_ulong kernel_private_mem(cl_kernel k)
{
    cl_ulong n = 0;
    CHECK_ERR(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof n, &n, NULL), CL_SUCCESS);
    return n;
}

/* The memory a work-group's private variables may take (docs/limits.md):
 * half the device's memory shared by its compute units. */
static size_t group_private_budget(void)
{
    cl_uint units = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL), CL_SUCCESS);
    return (size_t)(device_ulong(CL_DEVICE_GLOBAL_MEM_SIZE) / 2 / (units ? units : 1));
}

/* Runs kernel `name` (one argument, a buffer of `global` uints) on `global`
 * work-items in groups of `local` (NULL: Mosaic's choice); the uints it
 * wrote, malloc'd (NULL when it failed). */
static cl_uint *run_uints(cl_program program, const char *name, size_t global, const size_t *local)
{
    cl_int err;
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, global * sizeof(cl_uint), NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_uint *result = malloc(global * sizeof *result);
    err = run_on(program, name, out, global, local);
    CHECK_ERR(err, CL_SUCCESS);
    if (err == CL_SUCCESS)
        CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, global * sizeof *result, result, 0, NULL, NULL),
                  CL_SUCCESS);
    clReleaseMemObject(out);
    if (err != CL_SUCCESS) {
        free(result);
        return NULL;
    }
    return result;
}

/* What fill_then_sum (below) computes for work-item g. */
static cl_uint fill_then_sum(cl_uint g, cl_uint words)
{
    cl_uint s = 0;
    for (cl_uint i = 0; i < words; i += 1024)
        s += i ^ g;
    return s;
}

/* A work-item fills a private array of `words` uints (every 4 KiB page of
 * it), then, after a barrier (or a non-uniform sub-group function, or
 * nothing), adds up what it wrote. */
#define FILL_THEN_SUM(name, words, between)                                                                        \
    "kernel void " name "(global uint *out) {\n"                                                                   \
    "    private uint a[" #words "];\n"                                                                            \
    "    uint g = get_global_id(0);\n"                                                                             \
    "    for (uint i = 0; i < " #words "; i += 1024) a[i] = i ^ g;\n"                                              \
    "    " between "\n"                                                                                            \
    "    uint s = 0;\n"                                                                                            \
    "    for (uint i = 0; i < " #words "; i += 1024) s += a[i];\n"                                                 \
    "    out[g] = s;\n"                                                                                            \
    "}\n"

/* A barrier kernel with 1 MiB of private memory: as fibers
 * (MOSAIC_BARRIER_FIBERS=1, limits_private_array_across_barrier_fibers)
 * each work-item's once overflowed its 256 KiB stack and crashed the host;
 * now each stack is the kernel's private memory and MOSAIC_FIBER_STACK_KIB
 * more.  In regions (the default) the arrays are kept per work-item. */
TEST(private_array_across_barrier)
{
    static const char *source = FILL_THEN_SUM("across", 262144, "barrier(CLK_LOCAL_MEM_FENCE);");
    cl_program program = test_build_program(context, device, source, "");
    if (!program)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(program, "across", &err);
    CHECK(kernel_private_mem(k) >= 1024 * 1024, "CL_KERNEL_PRIVATE_MEM_SIZE %llu",
          (unsigned long long)kernel_private_mem(k));
    clReleaseKernel(k);
    size_t local = 16;
    cl_uint *out = run_uints(program, "across", 64, &local);
    for (cl_uint g = 0; out && g < 64; g++)
        CHECK(out[g] == fill_then_sum(g, 262144), "work-item %u: %u", g, out[g]);
    free(out);
    clReleaseProgram(program);
}

/* A kernel calling a non-uniform sub-group function runs as fibers by
 * default: with a 1 MiB private array it once crashed the host. */
TEST(private_array_non_uniform)
{
    static const char *source =
        "kernel void vote(global uint *out) {\n"
        "    private uint a[262144];\n"
        "    uint g = get_global_id(0);\n"
        "    for (uint i = 0; i < 262144; i += 1024) a[i] = i ^ g;\n"
        "    uint s = 0, odd = 0;\n"
        "    for (uint i = 0; i < 262144; i += 1024) s += a[i];\n"
        "    if (g & 1) odd = sub_group_non_uniform_reduce_add(s & 0xff);\n"
        "    out[g] = s + odd;\n"
        "}\n";
    cl_program program = test_build_program(context, device, source, "-cl-std=CL3.0");
    if (!program)
        return;
    size_t local = 16;
    cl_uint *out = run_uints(program, "vote", 64, &local);
    for (cl_uint g = 0; out && g < 64; g++) {
        cl_uint odd = 0; /* the odd work-items of g's sub-group of 8 */
        for (cl_uint j = g / 8 * 8 + 1; g & 1 && j < g / 8 * 8 + 8; j += 2)
            odd += fill_then_sum(j, 262144) & 0xff;
        CHECK(out[g] == fill_then_sum(g, 262144) + odd, "work-item %u: %u", g, out[g]);
    }
    free(out);
    clReleaseProgram(program);
}

/* A kernel without loops or barriers runs its work-items one after another
 * in one frame on the worker's stack (8 MiB): a 16 MiB private array once
 * reached past it and crashed the host; now such a frame runs on a stack
 * of the worker's sized for it. */
TEST(private_array_on_worker_stack)
{
    static const char *source = "kernel void spread(global uint *out, global const uint *at) {\n"
                                "    private uint a[4 * 1024 * 1024];\n"
                                "    uint g = get_global_id(0);\n"
                                "    a[at[0] + g] = g; a[at[1] + g] = 2 * g; a[at[2] + g] = 3 * g;\n"
                                "    out[g] = a[at[0] + g] + a[at[1] + g] + a[at[2] + g] + a[at[3] + g];\n"
                                "}\n";
    cl_program program = test_build_program(context, device, source, "");
    if (!program)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(program, "spread", &err);
    CHECK(kernel_private_mem(k) >= 16 << 20, "CL_KERNEL_PRIVATE_MEM_SIZE %llu",
          (unsigned long long)kernel_private_mem(k));
    enum { N = 256 };
    cl_uint at[4] = { 0, 2 << 20, (4 << 20) - N, 0 }, result[N];
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof result, NULL, &err);
    cl_mem atb = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof at, at, &err);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof atb, &atb), CL_SUCCESS);
    size_t global = N;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL), CL_SUCCESS);
    for (cl_uint g = 0; g < N; g++)
        CHECK(result[g] == 7 * g, "work-item %u: %u", g, result[g]);
    clReleaseMemObject(out);
    clReleaseMemObject(atb);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

/* Work-items whose private arrays take memory side by side (fibers, and
 * arrays kept across a barrier) bound the work-group: 16 MiB each once
 * reported CL_KERNEL_WORK_GROUP_SIZE 4096 (64 GiB) and ran until memory
 * ran out.  Now the group's private memory stays within the device's
 * budget; beyond CL_KERNEL_WORK_GROUP_SIZE a launch fails with
 * CL_INVALID_WORK_GROUP_SIZE, within it (or with no local size) it runs. */
TEST(private_memory_bounds_work_group)
{
    static const char *source =
        FILL_THEN_SUM("fibers", 4194304, "if (g & 1) g += sub_group_non_uniform_reduce_add(0u);")
        FILL_THEN_SUM("regions", 4194304, "barrier(CLK_LOCAL_MEM_FENCE);");
    cl_program program = test_build_program(context, device, source, "-cl-std=CL3.0");
    if (!program)
        return;
    size_t budget = group_private_budget(), max_wg = device_size(CL_DEVICE_MAX_WORK_GROUP_SIZE);
    const char *names[2] = { "fibers", "regions" };
    const cl_uint words[2] = { 4194304, 4194304 };
    for (int i = 0; i < 2; i++) {
        cl_int err;
        cl_kernel k = clCreateKernel(program, names[i], &err);
        size_t wg = kernel_work_group_size(k), each = (size_t)kernel_private_mem(k);
        CHECK(each >= words[i] * sizeof(cl_uint), "%s: CL_KERNEL_PRIVATE_MEM_SIZE %zu", names[i], each);
        size_t fit = budget / each < max_wg ? budget / each : max_wg;
        if (i == 0) /* fibers: a stack each, the private arrays what fills it */
            CHECK(wg == fit, "%s: CL_KERNEL_WORK_GROUP_SIZE %zu, expected %zu", names[i], wg, fit);
        else /* K.wg: its frame once, the arrays kept per work-item */
            CHECK(wg >= 1 && wg <= fit && wg >= fit / 2, "%s: CL_KERNEL_WORK_GROUP_SIZE %zu, at most %zu", names[i],
                  wg, fit);
        if (wg < max_wg) {
            size_t over = wg + 1, global = over;
            CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), &(cl_mem){ NULL }), CL_SUCCESS);
            CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &over, 0, NULL, NULL),
                      CL_INVALID_WORK_GROUP_SIZE);
        }
        clReleaseKernel(k);
        size_t local = wg < 4 ? wg : 4;
        for (int chosen = 0; chosen < 2; chosen++) {
            cl_uint *out = run_uints(program, names[i], 8, chosen ? NULL : &local);
            for (cl_uint g = 0; out && g < 8; g++)
                CHECK(out[g] == fill_then_sum(g, words[i]), "%s, work-item %u: %u", names[i], g, out[g]);
            free(out);
        }
    }
    clReleaseProgram(program);
}

/* A kernel not one work-item of which fits fails to build, and says so
 * (before, it built, and its launch took the host's memory or its stack). */
TEST(private_memory_beyond_device)
{
    size_t words = group_private_budget() / sizeof(cl_uint) + (16 << 20);
    char source[512];
    snprintf(source, sizeof source,
             "kernel void huge(global uint *out, global const uint *at) {\n"
             "    private uint a[%zuL];\n"
             "    uint g = get_global_id(0);\n"
             "    a[at[0] + g] = g;\n"
             "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
             "    out[g] = a[at[1] + g];\n"
             "}\n", words);
    const char *words_in_log[] = { "'huge'", "private memory" };
    check_build_fails(source, "", CL_BUILD_PROGRAM_FAILURE, words_in_log, 2);
}

/* ---- kernel arguments ----------------------------------------------------------- */

/* A __constant buffer argument above CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE once
 * ran (the check read a limit nothing set); at the limit it runs. */
TEST(constant_argument_size)
{
    static const char *source = "kernel void k(global int *o, constant int *c, ulong n) { o[0] = c[0] + c[n - 1]; }\n";
    cl_program program = test_build_program(context, device, source, "");
    if (!program)
        return;
    cl_ulong max = device_ulong(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE);
    CHECK(max >= 64 * 1024);
    cl_int err;
    cl_kernel k = clCreateKernel(program, "k", &err);
    int result = 0;
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof result, &result, &err);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    for (int over = 0; over < 2; over++) {
        size_t size = (size_t)max + (over ? sizeof(int) : 0);
        int *data = calloc(size / sizeof(int), sizeof(int));
        data[0] = 3;
        data[size / sizeof(int) - 1] = 4;
        cl_mem c = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, size, data, &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_ulong n = size / sizeof(int);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof c, &c), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 2, sizeof n, &n), CL_SUCCESS);
        size_t one = 1;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL),
                  over ? CL_OUT_OF_RESOURCES : CL_SUCCESS);
        if (!over) {
            CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof result, &result, 0, NULL, NULL), CL_SUCCESS);
            CHECK(result == 7);
        }
        clReleaseMemObject(c);
        free(data);
    }
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

/* A kernel `k(global int *out, P0, P1, ...)` of n parameters after out,
 * parameter i declared by printf(param, i), whose body is `body`; NULL
 * (the log on stderr) when it does not build. */
static cl_kernel kernel_with(const char *param, unsigned n, const char *body, const char *options)
{
    size_t cap = 256 + (size_t)n * 64 + strlen(body), len = 0;
    char *source = malloc(cap);
    len += (size_t)snprintf(source, cap, "kernel void k(global int *out");
    for (unsigned i = 0; i < n; i++) {
        len += (size_t)snprintf(source + len, cap - len, ", ");
        len += (size_t)snprintf(source + len, cap - len, param, i);
    }
    snprintf(source + len, cap - len, ") { %s }\n", body);
    cl_program program = test_build_program(context, device, source, options);
    free(source);
    if (!program)
        return NULL;
    cl_int err;
    cl_kernel k = clCreateKernel(program, "k", &err);
    CHECK_ERR(err, CL_SUCCESS);
    clReleaseProgram(program); /* the kernel holds it */
    return k;
}

/* Sets argument 0 (out) and arguments 1..n to `value` (size bytes), runs k
 * on one work-item; the enqueue's status, and what out[0] became. */
static cl_int launch_with(cl_kernel k, unsigned n, size_t size, const void *value, int *out0)
{
    cl_int err;
    int zero = 0;
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    for (unsigned i = 1; i <= n; i++)
        CHECK_ERR(clSetKernelArg(k, i, size, value), CL_SUCCESS);
    size_t one = 1;
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL);
    *out0 = -1;
    if (err == CL_SUCCESS)
        CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof *out0, out0, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(out);
    return err;
}

/* n + 1 parameters, the last n declared by `param`, set to `value`: with
 * n = ok it runs (out[0] becomes `expected`), with more the launch fails
 * with CL_OUT_OF_RESOURCES. */
static void check_argument_limit(const char *what, const char *param, unsigned ok, unsigned over, const char *body,
                                 const char *options, size_t size, const void *value, int expected)
{
    for (int beyond = 0; beyond < 2; beyond++) {
        unsigned n = beyond ? over : ok;
        cl_kernel k = kernel_with(param, n, body, options);
        if (!k)
            continue;
        int out0;
        cl_int err = launch_with(k, n, size, value, &out0);
        CHECK(err == (beyond ? CL_OUT_OF_RESOURCES : CL_SUCCESS), "%s, %u of them: the launch gave %d", what, n, err);
        if (!beyond)
            CHECK(out0 == expected, "%s, %u of them: out[0] %d, expected %d", what, n, out0, expected);
        clReleaseKernel(k);
    }
}

static cl_uint device_uint(cl_device_info what)
{
    cl_uint value = 0;
    CHECK_ERR(clGetDeviceInfo(device, what, sizeof value, &value, NULL), CL_SUCCESS);
    return value;
}

/* Kernels with more arguments than the device reports it takes once ran:
 * CL_DEVICE_MAX_PARAMETER_SIZE (and its 128 arguments), _MAX_CONSTANT_ARGS,
 * _MAX_WRITE_IMAGE_ARGS, _MAX_READ_WRITE_IMAGE_ARGS, _MAX_SAMPLERS,
 * _MAX_PIPE_ARGS.  At each limit the kernel runs; one more fails the launch
 * with CL_OUT_OF_RESOURCES. */
TEST(kernel_argument_limits)
{
    size_t bytes = device_size(CL_DEVICE_MAX_PARAMETER_SIZE);
    CHECK(bytes == 1024, "CL_DEVICE_MAX_PARAMETER_SIZE %zu (the test counts 128 arguments at 1024)", bytes);
    cl_long seven = 7;
    /* out and 127 longs: 1024 bytes, 128 arguments */
    check_argument_limit("long arguments", "long a%u", (unsigned)(bytes / 8 - 1), (unsigned)(bytes / 8),
                         "out[0] = (int)(a0 + a126);", "", sizeof seven, &seven, 14);
    char one = 1;
    check_argument_limit("char arguments", "char c%u", 127, 128, "out[0] = c0 + c126;", "", 1, &one, 2);
    static const char *big_struct = "typedef struct { long v[128]; } big;\n"
                                    "kernel void k(global int *out, big b) { out[0] = (int)b.v[127]; }\n";
    cl_program program = test_build_program(context, device, big_struct, "");
    if (program) {
        cl_int err;
        cl_kernel k = clCreateKernel(program, "k", &err);
        cl_long values[128] = { [127] = 5 };
        int out0;
        CHECK_ERR(launch_with(k, 1, sizeof values, values, &out0), CL_OUT_OF_RESOURCES);
        clReleaseKernel(k);
        clReleaseProgram(program);
    }

    cl_uint constants = device_uint(CL_DEVICE_MAX_CONSTANT_ARGS);
    CHECK(constants >= 8);
    int three = 3;
    cl_int err;
    cl_mem c = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof three, &three, &err);
    check_argument_limit("__constant arguments", "constant int *c%u", constants, constants + 1,
                         "out[0] = c0[0] + c1[0];", "", sizeof c, &c, 6);
    clReleaseMemObject(c);

    cl_image_format format = { CL_RGBA, CL_UNSIGNED_INT8 };
    cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4 };
    cl_mem image = clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_uint writes = device_uint(CL_DEVICE_MAX_WRITE_IMAGE_ARGS), read_writes = device_uint(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS);
    check_argument_limit("write_only images", "write_only image2d_t w%u", writes, writes + 1,
                         "write_imageui(w0, (int2)(0, 0), (uint4)(1)); out[0] = get_image_width(w1);", "",
                         sizeof image, &image, 4);
    check_argument_limit("read_write images", "read_write image2d_t w%u", read_writes, read_writes + 1,
                         "out[0] = get_image_width(w0) + get_image_height(w1);", "-cl-std=CL3.0", sizeof image,
                         &image, 8);
    cl_uint samplers = device_uint(CL_DEVICE_MAX_SAMPLERS);
    cl_sampler_properties props[] = { CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0 };
    cl_sampler sampler = clCreateSamplerWithProperties(context, props, &err);
    CHECK_ERR(err, CL_SUCCESS);
    check_argument_limit("sampler arguments", "sampler_t s%u", samplers, samplers + 1, "out[0] = 9;", "",
                         sizeof sampler, &sampler, 9);
    clReleaseSampler(sampler);
    clReleaseMemObject(image);

    cl_uint pipes = device_uint(CL_DEVICE_MAX_PIPE_ARGS);
    if (pipes) {
        cl_mem pipe = clCreatePipe(context, 0, sizeof(int), 4, NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
        check_argument_limit("pipe arguments", "read_only pipe int p%u", pipes, pipes + 1,
                             "out[0] = (int)get_pipe_max_packets(p0);", "-cl-std=CL3.0", sizeof pipe, &pipe, 4);
        clReleaseMemObject(pipe);
    }
}

int main(int argc, char **argv)
{
    return test_main_on_cpu_queue(argc, argv, &device, &context, &queue);
}
