/*
 * Damaged and hostile program binaries must never crash the process
 * (issue 7): mutants of a real binary with 1 to 4 flipped bits get
 * CL_INVALID_BINARY from clCreateProgramWithBinary (the binary's checksum),
 * and mutants whose checksum was recomputed (hostile bitcode with a valid
 * checksum) get CL_INVALID_BINARY or build, through the bitcode checker
 * that parses them in a child process first.
 *
 * The binary layout the test relies on (src/compiler/frontend/binary.c,
 * docs/compiler.md): a 32-byte header, then LLVM bitcode.  Header bytes
 * 24..31 are the checksum: the first 8 bytes of the BLAKE3 hash (LLVM's
 * llvm-c/blake3.h) of the header with those 8 bytes zero, followed by the
 * bitcode.
 *
 *   usage: test_binary_mutants [case|--list]   (the cases: test_binary_mutants.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/blake3.h>

#define TEST_LIST "test_binary_mutants.list"
#include "test.h"
#include "cl_test.h"

#define HEADER_SIZE 32
#define CHECKSUM_AT 24

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

/* Kernels with __local memory, barriers, a struct and vectors: their bitcode
 * has kernel argument metadata, types and constants to damage. */
static const char *source =
    "typedef struct { float scale; int offset; } params;\n"
    "__kernel void reduce(__global const float *in, __global float *out, __local float *scratch)\n"
    "{\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    scratch[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "        if (l < s)\n"
    "            scratch[l] += scratch[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0)\n"
    "        out[get_group_id(0)] = scratch[0];\n"
    "}\n"
    "__kernel void transpose(__global const float *in, __global float *out, int width)\n"
    "{\n"
    "    __local float tile[16][17];\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    tile[ly][lx] = in[y * width + x];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int ox = get_group_id(1) * 16 + lx, oy = get_group_id(0) * 16 + ly;\n"
    "    out[oy * width + ox] = tile[lx][ly];\n"
    "}\n"
    "__kernel void affine(__global float4 *v, params p, float4 bias)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    v[i] = v[i] * p.scale + bias + (float4)(p.offset);\n"
    "}\n";

/* splitmix64: a fixed seed gives the same mutants on every run. */
static uint64_t rng_state;
static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The program binary of source built with options. */
static unsigned char *get_binary(const char *options, size_t *size)
{
    cl_program p = test_build_program(context, device, source, options);
    if (!p)
        return NULL;
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL), CL_SUCCESS);
    unsigned char *bin = malloc(*size);
    CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
    clReleaseProgram(p);
    CHECK(*size > HEADER_SIZE + 4 && !memcmp(bin, "MOSAIC\0\0", 8));
    return bin;
}

static void set_checksum(unsigned char *bin, size_t size)
{
    memset(bin + CHECKSUM_AT, 0, 8);
    llvm_blake3_hasher h;
    llvm_blake3_hasher_init(&h);
    llvm_blake3_hasher_update(&h, bin, size);
    llvm_blake3_hasher_finalize(&h, bin + CHECKSUM_AT, 8);
}

/* Flips 1 to 4 random bits in bin[from, size). */
static void mutate(unsigned char *bin, size_t size, size_t from)
{
    int flips = 1 + (int)(rng_next() % 4);
    for (int i = 0; i < flips; i++) {
        uint64_t r = rng_next();
        bin[from + (r >> 3) % (size - from)] ^= (unsigned char)(1u << (r & 7));
    }
}

typedef struct outcome {
    int rejected, built, build_failed;
} outcome;

/* Offers a binary: it must be refused with CL_INVALID_BINARY (binary_status
 * too) or accepted; an accepted one is built, which may fail but must return. */
static void offer(const unsigned char *bin, size_t size, outcome *o)
{
    cl_int err = 12345, status = 12345;
    cl_program p = clCreateProgramWithBinary(context, 1, &device, &size, &bin, &status, &err);
    if (!p) {
        CHECK_ERR(err, CL_INVALID_BINARY);
        CHECK_ERR(status, CL_INVALID_BINARY);
        o->rejected++;
        return;
    }
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(status, CL_SUCCESS);
    if (clBuildProgram(p, 1, &device, NULL, NULL, NULL) == CL_SUCCESS) {
        cl_uint n = 0;
        clCreateKernelsInProgram(p, 0, NULL, &n);
        o->built++;
    } else {
        o->build_failed++;
    }
    clReleaseProgram(p);
}

/* The unchanged binaries load and run (so the mutants start from a good one). */
TEST(originals)
{
    size_t size;
    unsigned char *bin = get_binary(NULL, &size);
    if (!bin)
        return;
    const unsigned char *cbin = bin;
    cl_int err, status;
    cl_program p = clCreateProgramWithBinary(context, 1, &device, &size, &cbin, &status, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(status, CL_SUCCESS);
    CHECK_ERR(clBuildProgram(p, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "reduce", &err);
    CHECK_ERR(err, CL_SUCCESS);
    float in[64], out[4] = {0};
    for (int i = 0; i < 64; i++)
        in[i] = (float)i;
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem b = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
    clSetKernelArg(k, 0, sizeof a, &a);
    clSetKernelArg(k, 1, sizeof b, &b);
    clSetKernelArg(k, 2, 16 * sizeof(float), NULL);
    size_t global = 64, local = 16;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    CHECK(out[0] == 120.0f && out[3] == 888.0f);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
    free(bin);
}

/* 1,000 mutants with bits flipped in the bitcode (half of them of a binary
 * with debug information: much more metadata), 100 with flips anywhere, the
 * header included: the checksum refuses every one before LLVM reads it. */
TEST(flipped_bits)
{
    const char *options[2] = {NULL, "-g"};
    outcome o = {0};
    rng_state = 20240607;
    for (int v = 0; v < 2; v++) {
        size_t size;
        unsigned char *bin = get_binary(options[v], &size);
        if (!bin)
            return;
        unsigned char *m = malloc(size);
        for (int i = 0; i < 550; i++) {
            memcpy(m, bin, size);
            mutate(m, size, i < 500 ? HEADER_SIZE : 0);
            offer(m, size, &o);
        }
        free(m);
        free(bin);
    }
    printf("flipped bits: %d refused, %d built, %d failed to build\n", o.rejected, o.built, o.build_failed);
    /* no flip can be harmless: the checksum covers every byte */
    CHECK(o.rejected == 1100);
}

/* Mutants whose checksum was recomputed: LLVM's bitcode reader sees them,
 * in the checker's child process first. */
TEST(valid_checksum)
{
    const char *options[2] = {NULL, "-g"};
    outcome o = {0};
    rng_state = 7;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int v = 0; v < 2; v++) {
        size_t size;
        unsigned char *bin = get_binary(options[v], &size);
        if (!bin)
            return;
        unsigned char *m = malloc(size);
        for (int i = 0; i < 20; i++) {
            memcpy(m, bin, size);
            mutate(m, size, HEADER_SIZE);
            set_checksum(m, size);
            offer(m, size, &o);
        }
        /* the header's own fields, with a valid checksum: a wrong type, a
         * bitcode size that is not the rest of the binary, another version */
        static const size_t at[3] = {12, 16, 8};
        for (int i = 0; i < 3; i++) {
            memcpy(m, bin, size);
            m[at[i]] ^= 0x40;
            set_checksum(m, size);
            offer(m, size, &o);
        }
        /* the bitcode cut short, header and checksum made to match */
        size_t cut = HEADER_SIZE + (size - HEADER_SIZE) / 2;
        memcpy(m, bin, cut);
        uint64_t bc = cut - HEADER_SIZE;
        memcpy(m + 16, &bc, 8);
        set_checksum(m, cut);
        offer(m, cut, &o);
        free(m);
        free(bin);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("valid checksum: %d refused, %d built, %d failed to build (%.0f ms)\n", o.rejected, o.built,
           o.build_failed, (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
    CHECK(o.rejected + o.built + o.build_failed == 48);
    CHECK(o.rejected >= 8); /* the header mutants and the cut ones, at least */
}

/* The reason reaches the context's callback. */
static char notified[1024];
static volatile int notified_count;
static void CL_CALLBACK notify(const char *errinfo, const void *info, size_t cb, void *data)
{
    (void)info, (void)cb, (void)data;
    snprintf(notified, sizeof notified, "%s", errinfo);
    __atomic_store_n(&notified_count, 1, __ATOMIC_RELEASE);
}

TEST(message)
{
    size_t size;
    unsigned char *bin = get_binary(NULL, &size);
    if (!bin)
        return;
    cl_int err, status;
    cl_context c = clCreateContext(NULL, 1, &device, notify, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    bin[size - 9] ^= 1;
    const unsigned char *cbin = bin;
    CHECK(clCreateProgramWithBinary(c, 1, &device, &size, &cbin, &status, &err) == NULL);
    CHECK_ERR(err, CL_INVALID_BINARY);
    CHECK_ERR(status, CL_INVALID_BINARY);
    for (int i = 0; i < 500 && !__atomic_load_n(&notified_count, __ATOMIC_ACQUIRE); i++)
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    CHECK(__atomic_load_n(&notified_count, __ATOMIC_ACQUIRE) && strstr(notified, "checksum"));
    printf("message: %s\n", notified);
    clReleaseContext(c);
    free(bin);
}


int main(int argc, char **argv)
{
    return test_main_on_cpu_queue(argc, argv, &device, &context, &queue);
}
