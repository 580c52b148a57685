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

static char *build_log(cl_program program)
{
    size_t size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = calloc(size + 1, 1);
    if (log)
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    return log;
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
    char *log = build_log(program);
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
        char *log = build_log(linked);
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
        char *log = build_log(from_binary);
        CHECK(log && log_line_has(log, words, 3), "build log:\n%s", log ? log : "");
        free(log);
        clReleaseProgram(from_binary);
    }
    free(binary);
    clReleaseProgram(compiled);
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

int main(int argc, char **argv)
{
    return test_main_on_cpu_queue(argc, argv, &device, &context, &queue);
}
