/*
 * Helpers every benchmark uses: time, host memory and inputs, checks, and
 * thin OpenCL wrappers that say which call failed and with what code.
 */
#define _GNU_SOURCE
#include "runner.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int bench_fail(bench_ctx *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->why, sizeof b->why, fmt, ap);
    va_end(ap);
    return -1;
}

const char *bench_cl_error(cl_int err)
{
    switch (err) {
#define E(x) \
    case x: \
        return #x;
        E(CL_DEVICE_NOT_FOUND)
        E(CL_OUT_OF_RESOURCES)
        E(CL_OUT_OF_HOST_MEMORY)
        E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        E(CL_BUILD_PROGRAM_FAILURE)
        E(CL_INVALID_VALUE)
        E(CL_INVALID_BUFFER_SIZE)
        E(CL_INVALID_PROGRAM_EXECUTABLE)
        E(CL_INVALID_KERNEL_NAME)
        E(CL_INVALID_KERNEL_ARGS)
        E(CL_INVALID_ARG_INDEX)
        E(CL_INVALID_ARG_VALUE)
        E(CL_INVALID_ARG_SIZE)
        E(CL_INVALID_WORK_GROUP_SIZE)
        E(CL_INVALID_WORK_ITEM_SIZE)
        E(CL_INVALID_GLOBAL_WORK_SIZE)
        E(CL_INVALID_MEM_OBJECT)
        E(CL_INVALID_OPERATION)
#undef E
    default:
        return "error";
    }
}

/* ---- host memory and inputs ---- */

void *bench_alloc(bench_ctx *b, size_t bytes)
{
    size_t rounded = (bytes + 63) / 64 * 64;
    char *p = aligned_alloc(64, rounded ? rounded : 64);
    if (!p) {
        bench_fail(b, "out of host memory (%zu bytes)", bytes);
        return NULL;
    }
    /* First touch by the threads that will use the pages (one NUMA node or several). */
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < rounded; i += 4096)
        p[i] = 0;
    return p;
}

/* The last-level cache's bytes, from glibc (cpuid on x86) or else the
 * kernel's /sys; 0 if neither says.  `how` names the source. */
static size_t last_level_cache(const char **how)
{
    *how = "sysconf";
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l3 > 0 || l2 > 0)
        return (size_t)(l3 > 0 ? l3 : l2);
    *how = "/sys";
    size_t best = 0;
    int best_level = 0;
    for (int i = 0; i < 16; i++) {
        char path[96];
        int level = 0;
        size_t kib = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        int ok = fscanf(f, "%d", &level) == 1;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!ok || !(f = fopen(path, "r")))
            continue;
        ok = fscanf(f, "%zuK", &kib) == 1;
        fclose(f);
        if (ok && level >= best_level) {
            best_level = level;
            best = kib * 1024;
        }
    }
    return best;
}

size_t bench_cache_floats(bench_ctx *b, int arrays, size_t most)
{
    enum { FEWEST = 1 << 16 };
    const char *how;
    size_t cache = last_level_cache(&how), n = FEWEST;
    while (2 * n <= most && 2 * n * sizeof(float) * (size_t)arrays <= cache / 2)
        n *= 2;
    if (!cache) {
        n = most < (1 << 20) ? most : (1 << 20);
        snprintf(b->note, sizeof b->note, "%zuK floats an array: the last-level cache's size is unknown", n >> 10);
    } else
        snprintf(b->note, sizeof b->note, "%zuK floats an array, %d array%s: %.1f MiB, in a last-level cache of %.1f "
                 "MiB (%s)", n >> 10, arrays, arrays == 1 ? "" : "s",
                 (double)(n * sizeof(float) * (size_t)arrays) / (1 << 20), (double)cache / (1 << 20), how);
    return n;
}

uint64_t bench_hash(uint64_t i, uint32_t seed) /* splitmix64 of (seed, i) */
{
    uint64_t z = i + 0x9e3779b97f4a7c15ull * ((uint64_t)seed + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void bench_fill_uniform(float *x, size_t n, uint32_t seed, float lo, float hi)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        x[i] = lo + (hi - lo) * (float)(bench_hash(i, seed) >> 40) * (1.0f / 16777216.0f);
}

void bench_fill_int_floats(float *x, size_t n, uint32_t seed, int lo, int hi)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        x[i] = (float)(lo + (int)(bench_hash(i, seed) % (uint64_t)(hi - lo + 1)));
}

/* ---- checks ---- */

int bench_check_floats(bench_ctx *b, const char *what, const float *got, const float *want, size_t n, float abs_tol,
                       float rel_tol)
{
    for (size_t i = 0; i < n; i++) {
        float d = fabsf(got[i] - want[i]);
        if (!(d <= abs_tol + rel_tol * fabsf(want[i]))) /* NaN fails too */
            return bench_fail(b, "%s[%zu] is %.9g, expected %.9g", what, i, got[i], want[i]);
    }
    return 0;
}

int bench_check_u32(bench_ctx *b, const char *what, const uint32_t *got, const uint32_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            return bench_fail(b, "%s[%zu] is %u, expected %u", what, i, got[i], want[i]);
    return 0;
}

/* ---- OpenCL ---- */

static cl_program program_of(bench_ctx *b, bench_platform *p, const char *source)
{
    for (int i = 0; i < p->nprograms; i++)
        if (p->programs[i].source == source) {
            if (!p->programs[i].program)
                bench_fail(b, "the program did not build (see above)");
            return p->programs[i].program;
        }
    if (p->nprograms == MAX_PROGRAMS) {
        bench_fail(b, "more than %d programs: raise MAX_PROGRAMS", MAX_PROGRAMS);
        return NULL;
    }
    cl_int err;
    double t0 = bench_now();
    cl_program prog = clCreateProgramWithSource(p->ctx, 1, &source, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(prog, 1, &p->device, "-cl-std=CL1.2", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        if (prog)
            clGetProgramBuildInfo(prog, p->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fprintf(stderr, "%s: build failed (%s): %s\n", p->name, bench_cl_error(err), log);
        bench_fail(b, "build failed: %s", bench_cl_error(err));
        if (prog)
            clReleaseProgram(prog);
        prog = NULL;
    }
    p->programs[p->nprograms].source = source;
    p->programs[p->nprograms].program = prog;
    p->programs[p->nprograms].build_ms = (bench_now() - t0) * 1e3;
    p->nprograms++;
    return prog;
}

cl_kernel bench_kernel(bench_ctx *b, bench_platform *p, const char *source, const char *name)
{
    cl_program prog = program_of(b, p, source);
    if (!prog)
        return NULL;
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    if (err != CL_SUCCESS) {
        bench_fail(b, "clCreateKernel(%s): %s (%d)", name, bench_cl_error(err), err);
        return NULL;
    }
    return k;
}

cl_mem bench_buffer(bench_ctx *b, bench_platform *p, cl_mem_flags flags, size_t bytes, const void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(p->ctx, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes, (void *)host, &err);
    if (err != CL_SUCCESS) {
        bench_fail(b, "clCreateBuffer(%zu bytes): %s (%d)", bytes, bench_cl_error(err), err);
        return NULL;
    }
    return m;
}

int bench_args(bench_ctx *b, cl_kernel k, const bench_arg *args, int n)
{
    for (int i = 0; i < n; i++) {
        cl_int err = clSetKernelArg(k, (cl_uint)i, args[i].size, args[i].value);
        if (err != CL_SUCCESS)
            return bench_fail(b, "clSetKernelArg(%d): %s (%d)", i, bench_cl_error(err), err);
    }
    return 0;
}

int bench_launch(bench_ctx *b, bench_platform *p, cl_kernel k, cl_uint dims, const size_t *global, const size_t *local)
{
    cl_int err = clEnqueueNDRangeKernel(p->queue, k, dims, NULL, global, local, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return bench_fail(b, "clEnqueueNDRangeKernel: %s (%d)", bench_cl_error(err), err);
    return 0;
}

int bench_finish(bench_ctx *b, bench_platform *p)
{
    cl_int err = clFinish(p->queue);
    if (err != CL_SUCCESS)
        return bench_fail(b, "clFinish: %s (%d)", bench_cl_error(err), err);
    return 0;
}

int bench_read(bench_ctx *b, bench_platform *p, cl_mem m, size_t bytes, void *dst)
{
    cl_int err = clEnqueueReadBuffer(p->queue, m, CL_TRUE, 0, bytes, dst, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return bench_fail(b, "clEnqueueReadBuffer: %s (%d)", bench_cl_error(err), err);
    if (b->fault && bytes >= 4) /* --inject-fault: a wrong result the check must catch */
        ((unsigned char *)dst)[3] ^= 0x40;
    return 0;
}

int bench_needs_group(bench_ctx *b, bench_platform *p, size_t size)
{
    if (p->max_work_group < size)
        return bench_fail(b, "needs work-groups of %zu, the device allows %zu", size, p->max_work_group);
    return 0;
}

bench_simple *bench_simple_new(bench_ctx *b)
{
    bench_simple *s = calloc(1, sizeof *s);
    if (!s)
        bench_fail(b, "out of host memory");
    return s;
}

void bench_simple_release(bench_ctx *b, bench_platform *p, void *dev)
{
    bench_simple *s = dev;
    if (!s)
        return;
    for (int i = 0; i < 4; i++)
        if (s->k[i])
            clReleaseKernel(s->k[i]);
    for (int i = 0; i < 8; i++)
        if (s->m[i])
            clReleaseMemObject(s->m[i]);
    free(s);
}
