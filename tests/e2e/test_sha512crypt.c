/* A password cracker's kernel (issue 11: its sha512crypt kernel once spent
 * over 5 minutes and 2.5 GB in clLinkProgram): bench/sha512crypt.cl, built
 * as such programs build it (clCompileProgram, then clLinkProgram) and with
 * clBuildProgram, must build in seconds and give the hashes of the "$6$"
 * crypt: those of its specification's examples (Ulrich Drepper's, facts)
 * and, for passwords of every length it takes, those of a host
 * implementation (bench/sha512crypt.h).  The cache is off (CMake), so each
 * case compiles. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEST_LIST "test_sha512crypt.list"
#include "test.h"
#include "cl_test.h"
#include "sha512crypt.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Hashes passwords[0..n) with this salt and rounds on the device into
 * out[i] (HASH_CHARS + 1 each). */
static void device_crypt(cl_kernel k, const char *const *passwords, size_t n, const char *salt, unsigned rounds,
                         char (*out)[SHA512CRYPT_HASH_CHARS + 1])
{
    unsigned char *pw = calloc(n, SHA512CRYPT_PASSWORD_MAX);
    cl_uint *len = calloc(n, sizeof *len);
    char *hashes = calloc(n, SHA512CRYPT_HASH_CHARS);
    cl_uint salt_len = (cl_uint)strlen(salt), r = rounds;
    for (size_t i = 0; i < n; i++) {
        len[i] = (cl_uint)strlen(passwords[i]);
        memcpy(pw + i * SHA512CRYPT_PASSWORD_MAX, passwords[i], len[i]);
    }
    cl_int err;
    cl_mem b_pw = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, n * SHA512CRYPT_PASSWORD_MAX, pw, &err);
    cl_mem b_len = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, n * sizeof *len, len, &err);
    cl_mem b_salt = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, salt_len ? salt_len : 1, (void *)(salt_len ? salt : "-"), &err);
    cl_mem b_out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, n * SHA512CRYPT_HASH_CHARS, NULL, &err);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof b_pw, &b_pw), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof b_len, &b_len), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 2, sizeof b_salt, &b_salt), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 3, sizeof salt_len, &salt_len), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 4, sizeof r, &r), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 5, sizeof b_out, &b_out), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, b_out, CL_TRUE, 0, n * SHA512CRYPT_HASH_CHARS, hashes, 0, NULL, NULL),
              CL_SUCCESS);
    for (size_t i = 0; i < n; i++) {
        memcpy(out[i], hashes + i * SHA512CRYPT_HASH_CHARS, SHA512CRYPT_HASH_CHARS);
        out[i][SHA512CRYPT_HASH_CHARS] = 0;
    }
    clReleaseMemObject(b_pw);
    clReleaseMemObject(b_len);
    clReleaseMemObject(b_salt);
    clReleaseMemObject(b_out);
    free(pw);
    free(len);
    free(hashes);
}

/* The specification's examples whose password fits the kernel (salts cut
 * to 16 characters, as the scheme does). */
static const struct { const char *password, *salt; unsigned rounds; const char *hash; } examples[] = {
    {"Hello world!", "saltstring", 5000,
     "svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1"},
    {"Hello world!", "saltstringsaltst", 10000,
     "OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v."},
    {"This is just a test", "toolongsaltstrin", 5000,
     "lQ8jolhgVRVhY4b5pZKaysCLi0QBxGoNeKQzQ3glMhwllF7oGDZxUhx1yxdYcz/e1JSbq3y6JMxxl8audkUEm0"},
    {"we have a short salt string but not a short password", "short", 77777,
     "WuQyW2YR.hBNpjjRhpYD/ifIw05xdfeEyQoMxIXbkvr0gge1a1x3yRULJ5CCaUeOxFmtlcGZelFl5CxtgfiAc0"},
};

/* The kernel of program p: the examples, then passwords of 0 to 63 bytes
 * with three salts (16 bytes, 1 byte, none) against the host. */
static void check_hashes(cl_program p)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, "sha512crypt", &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (err != CL_SUCCESS)
        return;
    char got[64][SHA512CRYPT_HASH_CHARS + 1], want[SHA512CRYPT_HASH_CHARS + 1];
    for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++) {
        device_crypt(k, &examples[e].password, 1, examples[e].salt, examples[e].rounds, got);
        CHECK(!strcmp(got[0], examples[e].hash), "example %zu: %s, expected %s", e, got[0], examples[e].hash);
        host_sha512crypt(examples[e].password, strlen(examples[e].password), examples[e].salt,
                         strlen(examples[e].salt), examples[e].rounds, want);
        CHECK(!strcmp(want, examples[e].hash), "the host's example %zu: %s", e, want);
    }
    static char text[64][SHA512CRYPT_PASSWORD_MAX];
    const char *passwords[64];
    for (int i = 0; i < 64; i++) {
        for (int c = 0; c < i; c++)
            text[i][c] = (char)(' ' + (i * 37 + c * 11) % 95);
        text[i][i] = 0;
        passwords[i] = text[i];
    }
    static const char *const salts[] = {"0123456789abcdef", "x", ""};
    for (int s = 0; s < 3; s++) {
        device_crypt(k, passwords, 64, salts[s], 1000, got);
        int wrong = 0;
        for (int i = 0; i < 64; i++) {
            host_sha512crypt(passwords[i], strlen(passwords[i]), salts[s], strlen(salts[s]), 1000, want);
            if (strcmp(got[i], want) && wrong++ < 3)
                CHECK(0, "salt '%s', password of %d bytes: %s, expected %s", salts[s], i, got[i], want);
        }
        CHECK(wrong == 0, "salt '%s': %d of 64 hashes wrong", salts[s], wrong);
    }
    clReleaseKernel(k);
}

static void print_log(cl_program p)
{
    char log[8192] = "";
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    if (*log)
        fprintf(stderr, "build log:\n%s\n", log);
}

/* As the cracker builds it: clCompileProgram, then clLinkProgram. */
TEST(compile_and_link)
{
    const char *src = sha512crypt_cl;
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    double t0 = now_s();
    err = clCompileProgram(p, 1, &device, "", 0, NULL, NULL, NULL, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    double t1 = now_s();
    cl_program linked = err == CL_SUCCESS ? clLinkProgram(context, 1, &device, "", 1, &p, NULL, NULL, &err) : NULL;
    double t2 = now_s();
    CHECK_ERR(err, CL_SUCCESS);
    if (err != CL_SUCCESS)
        print_log(linked ? linked : p);
    fprintf(stderr, "sha512crypt: clCompileProgram %.2f s, clLinkProgram %.2f s\n", t1 - t0, t2 - t1);
    /* with every function inlined into the kernel it took 87 s (2 loaded cores) */
    CHECK(t2 - t1 < 60, "clLinkProgram took %.0f s", t2 - t1);
    if (linked)
        check_hashes(linked);
    if (linked)
        clReleaseProgram(linked);
    clReleaseProgram(p);
}

TEST(build)
{
    const char *src = sha512crypt_cl;
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &src, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    double t0 = now_s();
    err = clBuildProgram(p, 1, &device, "", NULL, NULL);
    double t1 = now_s();
    CHECK_ERR(err, CL_SUCCESS);
    if (err != CL_SUCCESS)
        print_log(p);
    fprintf(stderr, "sha512crypt: clBuildProgram %.2f s\n", t1 - t0);
    CHECK(t1 - t0 < 60, "clBuildProgram took %.0f s", t1 - t0);
    if (err == CL_SUCCESS)
        check_hashes(p);
    clReleaseProgram(p);
}

int main(int argc, char **argv)
{
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    cl_int err;
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    test_run(argc, argv);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return test_summary();
}
