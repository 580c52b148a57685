/*
 * Build times: how long a program takes from source to its first results, on
 * every CPU device the ICD loader finds (Mosaic and PoCL side by side in one
 * run; a platform that is not installed is simply not listed).
 *
 *   OCL_ICD_VENDORS=$PWD/build/bench/vendors build/bench/builds [max_depth] [reps]
 *
 * Programs: one small kernel, 50 kernels, a fan-out call graph (the
 * kernel calls f<d>, each f<k> calls f<k-1> four times (different
 * arguments) and f0 is an 80-iteration loop, for depths 4 to max_depth
 * (default 7)), and a password cracker's sha512crypt kernel
 * (bench/sha512crypt.cl, built as such programs build it: clCompileProgram,
 * then clLinkProgram).  A build is clCreateProgramWithSource, clBuildProgram
 * (or compile and link), clCreateKernel and one small launch of every kernel
 * (PoCL generates code at the first launch), results checked against the
 * host.
 *   cold:   the source has a constant no earlier build had (a salt; the
 *           sha512crypt kernel's name), so no cache has it;
 *   cached: the same source again, right after a cold build of it.
 * And a password cracker's next start: after a cold build of the
 * sha512crypt kernel whose binary (CL_PROGRAM_BINARIES) is saved, a new
 * process (this program again, `builds --child`) builds it
 *   cached, new process: from the same source again (compile and link);
 *   binary, new process: from the saved binary (clCreateProgramWithBinary,
 *           clBuildProgram with the compile options), as crackers reload it;
 * each timed from the program's creation to its checked results (the
 * process's start and the platform's set-up are not in the time; its
 * first build's one-time costs are, for both alike).
 * Both caches start empty: MOSAIC_CACHE_DIR and POCL_CACHE_DIR point at a
 * fresh directory unless they are set.  Prints the median of `reps` builds
 * (default 5; 1 for the fan-out at depth 6 and more) in ms, and each
 * platform's time relative to Mosaic's (above 1.00 = Mosaic is faster).
 * `builds 7 5 sha512crypt` runs the sha512crypt case alone.
 *
 * Then the launches that follow a build: a tree reduction with a barrier
 * per level (groups of 256 over 4M floats), built cold, launched 6 times
 * and once more after half a second, each launch timed from its enqueue to
 * clFinish and its sums checked.  Mosaic builds such a kernel again for
 * its local size from its third launch, beside the program: the third
 * launch should cost what the fourth does.
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sha512crypt.h"

enum { MAX_PLATFORMS = 8, MAX_CASES = 16, MAX_REPS = 64, FANOUT_ITEMS = 16, SMALL_ITEMS = 64 };
#define NOT_MEASURED (-2.0) /* a row's cold column that has no figure */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the programs ---------------------------------------------------------------------- */
typedef enum { ONE, FIFTY, FANOUT, SHA512CRYPT, NEW_PROCESS_SOURCE, NEW_PROCESS_BINARY } kind;

typedef struct {
    kind kind;
    int depth;
    char name[32];
} bench_case;

static char *printf_alloc(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *printf_alloc(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s;
}

static void append(char **s, size_t *len, const char *t)
{
    size_t n = strlen(t);
    *s = realloc(*s, *len + n + 1);
    memcpy(*s + *len, t, n + 1);
    *len += n;
}

/* The fan-out functions, in OpenCL C and (the same text) in C on the host. */
#define F0_BODY                                                                                                       \
    "{ for (int i = 0; i < 80; i++) x = (x * 1664525u + 1013904223u) ^ (x >> 7); return x; }\n"
static uint32_t host_f(int d, uint32_t x)
{
    if (d == 0) {
        for (int i = 0; i < 80; i++)
            x = (x * 1664525u + 1013904223u) ^ (x >> 7);
        return x;
    }
    return host_f(d - 1, x) + 3u * host_f(d - 1, x + 1u) + (host_f(d - 1, x ^ 5u) ^ host_f(d - 1, x + (uint32_t)d));
}

static char *make_source(const bench_case *c, unsigned salt)
{
    char *s = NULL, *t;
    size_t len = 0;
    switch (c->kind) {
    case ONE:
        t = printf_alloc("__kernel void k(__global uint *out)\n"
                         "{ size_t i = get_global_id(0); out[i] = (uint)i * 3u + %uu; }\n", salt);
        append(&s, &len, t);
        free(t);
        break;
    case FIFTY:
        for (int k = 0; k < 50; k++) {
            t = printf_alloc("__kernel void k%d(__global uint *out, float scale)\n"
                             "{ size_t i = get_global_id(0); float v = (float)i * scale;\n"
                             "  out[i] = (uint)(v + %d.0f) + (uint)i * %du + %uu; }\n",
                             k, k, k + 1, salt);
            append(&s, &len, t);
            free(t);
        }
        break;
    case FANOUT:
        append(&s, &len, "uint f0(uint x)\n" F0_BODY);
        for (int d = 1; d <= c->depth; d++) {
            t = printf_alloc("uint f%d(uint x)\n{ return f%d(x) + 3u * f%d(x + 1u) + (f%d(x ^ 5u) ^ f%d(x + %du)); }\n",
                             d, d - 1, d - 1, d - 1, d - 1, d);
            append(&s, &len, t);
            free(t);
        }
        t = printf_alloc("__kernel void k(__global uint *out)\n"
                         "{ size_t i = get_global_id(0); out[i] = f%d((uint)i + %uu); }\n", c->depth, salt);
        append(&s, &len, t);
        free(t);
        break;
    case SHA512CRYPT: /* build_crypt */
    case NEW_PROCESS_SOURCE:
    case NEW_PROCESS_BINARY:
        break;
    }
    return s;
}

static uint32_t expected(const bench_case *c, int kernel, unsigned salt, uint32_t i)
{
    switch (c->kind) {
    case ONE:
        return i * 3u + salt;
    case FIFTY:
        return (uint32_t)((float)i * 1.0f + (float)kernel) + i * (uint32_t)(kernel + 1) + salt;
    default:
        return host_f(c->depth, i + salt);
    }
}

/* ---- sha512crypt: 8 passwords of 0 to 63 bytes, rounds=1000, a 16-byte salt ------------- */
enum { CRYPT_ITEMS = 8, CRYPT_ROUNDS = 1000 };
static const char crypt_salt[] = "0123456789abcdef";

static void crypt_password(int i, char *pw, unsigned *len)
{
    *len = (unsigned)(i * 9) % SHA512CRYPT_PASSWORD_MAX;
    for (unsigned k = 0; k < *len; k++)
        pw[k] = (char)('!' + (i * 31 + (int)k * 7) % 90);
}

/* The host's hashes, once. */
static const char *crypt_reference(void)
{
    static char ref[CRYPT_ITEMS][SHA512CRYPT_HASH_CHARS + 1];
    static int done;
    for (int i = 0; i < CRYPT_ITEMS && !done; i++) {
        char pw[SHA512CRYPT_PASSWORD_MAX];
        unsigned len;
        crypt_password(i, pw, &len);
        host_sha512crypt(pw, len, crypt_salt, 16, CRYPT_ROUNDS, ref[i]);
    }
    done = 1;
    return ref[0];
}

/* The kernel's program: compiled with a -D option and linked with none, as
 * password crackers build it; or, given a binary (saved from such a build,
 * CL_PROGRAM_BINARIES), created from it and built with the compile options
 * again, as they reload it at their next start.  *name: the kernel's. */
static cl_program crypt_program(cl_context ctx, cl_device_id dev, unsigned salt, const unsigned char *binary,
                                size_t binary_size, char name[48], cl_int *err)
{
    char options[96];
    snprintf(name, 48, "sha512crypt_%u", salt);
    snprintf(options, sizeof options, "-DSHA512CRYPT_KERNEL=%s", name);
    cl_program p, linked = NULL;
    if (binary) {
        p = clCreateProgramWithBinary(ctx, 1, &dev, &binary_size, &binary, NULL, err);
        if (*err == CL_SUCCESS)
            *err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    } else {
        const char *src = sha512crypt_cl;
        p = clCreateProgramWithSource(ctx, 1, &src, NULL, err);
        if (*err == CL_SUCCESS)
            *err = clCompileProgram(p, 1, &dev, options, 0, NULL, NULL, NULL, NULL);
        if (*err == CL_SUCCESS)
            linked = clLinkProgram(ctx, 1, &dev, "", 1, &p, NULL, NULL, err);
    }
    if (*err != CL_SUCCESS) {
        char log[4096] = "";
        if (linked || p)
            clGetProgramBuildInfo(linked ? linked : p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "sha512crypt: %s failed (%d): %s\n", binary ? "building the binary" : "compile or link",
                *err, log);
    }
    if (linked && p)
        clReleaseProgram(p);
    return linked ? linked : p;
}

/* Builds the kernel (named sha512crypt_<salt>; from `binary` when it is not
 * NULL), runs it once and checks the hashes: CL_SUCCESS or the first error.
 * With `save`, the program's binary goes to *save (malloc'd) and *save_size. */
static cl_int build_crypt(cl_context ctx, cl_device_id dev, cl_command_queue q, unsigned salt,
                          const unsigned char *binary, size_t binary_size, unsigned char **save, size_t *save_size)
{
    char name[48];
    cl_int err;
    cl_program p = crypt_program(ctx, dev, salt, binary, binary_size, name, &err);
    cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, name, &err) : NULL;
    unsigned char pw[CRYPT_ITEMS * SHA512CRYPT_PASSWORD_MAX] = {0};
    cl_uint len[CRYPT_ITEMS], salt_len = 16, rounds = CRYPT_ROUNDS;
    for (int i = 0; i < CRYPT_ITEMS; i++) {
        unsigned n;
        crypt_password(i, (char *)pw + i * SHA512CRYPT_PASSWORD_MAX, &n);
        len[i] = n;
    }
    cl_mem b[4] = {NULL};
    b[0] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof pw, pw, NULL);
    b[1] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof len, len, NULL);
    b[2] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 16, (void *)crypt_salt, NULL);
    b[3] = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, CRYPT_ITEMS * SHA512CRYPT_HASH_CHARS, NULL, NULL);
    char out[CRYPT_ITEMS * SHA512CRYPT_HASH_CHARS];
    size_t items = CRYPT_ITEMS;
    for (cl_uint a = 0; a < 3 && err == CL_SUCCESS; a++)
        err = clSetKernelArg(k, a, sizeof b[a], &b[a]);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 3, sizeof salt_len, &salt_len);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 4, sizeof rounds, &rounds);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 5, sizeof b[3], &b[3]);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &items, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, b[3], CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    const char *ref = crypt_reference();
    for (int i = 0; i < CRYPT_ITEMS && err == CL_SUCCESS; i++)
        if (memcmp(out + i * SHA512CRYPT_HASH_CHARS, ref + i * (SHA512CRYPT_HASH_CHARS + 1), SHA512CRYPT_HASH_CHARS)) {
            fprintf(stderr, "sha512crypt: password %d: %.86s, expected %s\n", i, out + i * SHA512CRYPT_HASH_CHARS,
                    ref + i * (SHA512CRYPT_HASH_CHARS + 1));
            err = -9999;
        }
    if (save && err == CL_SUCCESS) {
        *save = NULL;
        err = clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *save_size, save_size, NULL);
        *save = err == CL_SUCCESS ? malloc(*save_size ? *save_size : 1) : NULL;
        if (*save)
            err = clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof *save, save, NULL);
    }
    for (int i = 0; i < 4; i++)
        if (b[i])
            clReleaseMemObject(b[i]);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
    return err;
}

/* ---- one build ------------------------------------------------------------------------- */
typedef struct {
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    cl_mem out;
} device_run;

/* Builds and launches c with this salt; the time in s, or a negative value
 * on failure (wrong results included). */
static double build_once(device_run *r, const bench_case *c, unsigned salt, uint32_t **reference)
{
    if (c->kind == SHA512CRYPT) {
        double t = now();
        cl_int e = build_crypt(r->ctx, r->dev, r->q, salt, NULL, 0, NULL, NULL);
        return e == CL_SUCCESS ? now() - t : -1.0;
    }
    char *src = make_source(c, salt);
    int nk = c->kind == FIFTY ? 50 : 1;
    size_t items = c->kind == FANOUT ? FANOUT_ITEMS : SMALL_ITEMS;
    double t0 = now();
    cl_int err;
    const char *srcs[1] = {src};
    cl_program p = clCreateProgramWithSource(r->ctx, 1, srcs, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(p, 1, &r->dev, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(p, r->dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "%s: build failed (%d): %s\n", c->name, err, log);
    }
    uint32_t *host = malloc(items * sizeof *host);
    for (int k = 0; k < nk && err == CL_SUCCESS; k++) {
        char name[16];
        snprintf(name, sizeof name, c->kind == FIFTY ? "k%d" : "k", k);
        cl_kernel kern = clCreateKernel(p, name, &err);
        if (err != CL_SUCCESS)
            break;
        float scale = 1.0f;
        err = clSetKernelArg(kern, 0, sizeof r->out, &r->out);
        if (err == CL_SUCCESS && c->kind == FIFTY)
            err = clSetKernelArg(kern, 1, sizeof scale, &scale);
        if (err == CL_SUCCESS)
            err = clEnqueueNDRangeKernel(r->q, kern, 1, NULL, &items, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(r->q, r->out, CL_TRUE, 0, items * sizeof *host, host, 0, NULL, NULL);
        clReleaseKernel(kern);
        /* the check is outside the time when it is the host's fan-out */
        double h0 = now();
        for (size_t i = 0; i < items && err == CL_SUCCESS; i++) {
            uint32_t want = c->kind == FANOUT && reference && *reference ? (*reference)[i]
                                                                          : expected(c, k, salt, (uint32_t)i);
            if (host[i] != want) {
                fprintf(stderr, "%s: kernel %d, item %zu: %u, expected %u\n", c->name, k, i, host[i], want);
                err = -9999;
            }
        }
        t0 += now() - h0;
    }
    double t = now() - t0;
    free(host);
    if (p)
        clReleaseProgram(p);
    free(src);
    return err == CL_SUCCESS ? t : -1.0;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median cold and cached times of case c on one device (ms; -1: failed). */
static void time_case(device_run *r, const bench_case *c, int reps, unsigned *salt, double *cold, double *cached)
{
    double tc[MAX_REPS], th[MAX_REPS];
    *cold = *cached = -1;
    for (int i = 0; i < reps; i++) {
        unsigned s = (*salt)++;
        /* the fan-out's reference is computed once per salt, outside the timing */
        uint32_t *ref = NULL;
        if (c->kind == FANOUT) {
            ref = malloc(FANOUT_ITEMS * sizeof *ref);
            for (uint32_t w = 0; w < FANOUT_ITEMS; w++)
                ref[w] = host_f(c->depth, w + s);
        }
        tc[i] = build_once(r, c, s, &ref);
        th[i] = tc[i] < 0 ? -1 : build_once(r, c, s, &ref);
        free(ref);
        if (tc[i] < 0 || th[i] < 0)
            return;
    }
    *cold = median(tc, reps) * 1e3;
    *cached = median(th, reps) * 1e3;
}

/* ---- a new process: a password cracker's next start ------------------------------------
 * `builds --child P source|binary SALT [FILE]`: on platform P (its index in
 * clGetPlatformIDs' list) builds the sha512crypt kernel of this salt from
 * its source or from the binary in FILE, runs and checks it, and prints the
 * time in ms (or FAILED). */
static int child_main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    cl_uint index = (cl_uint)atoi(argv[0]), np = 0;
    bool binary = !strcmp(argv[1], "binary");
    unsigned salt = (unsigned)strtoul(argv[2], NULL, 10);
    unsigned char *bytes = NULL;
    size_t size = 0;
    FILE *f = binary && argc > 3 ? fopen(argv[3], "rb") : NULL;
    if (f && !fseek(f, 0, SEEK_END) && ftell(f) > 0) {
        size = (size_t)ftell(f);
        bytes = malloc(size);
        fseek(f, 0, SEEK_SET);
        if (bytes && fread(bytes, 1, size, f) != size) {
            free(bytes);
            bytes = NULL;
        }
    }
    if (f)
        fclose(f);
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_device_id dev;
    clGetPlatformIDs(MAX_PLATFORMS, platforms, &np);
    if ((binary && !bytes) || index >= np || clGetDeviceIDs(platforms[index], CL_DEVICE_TYPE_CPU, 1, &dev, NULL)) {
        printf("FAILED\n");
        return 1;
    }
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, NULL);
    double t = now();
    cl_int err = build_crypt(ctx, dev, q, salt, bytes, size, NULL, NULL);
    t = now() - t;
    printf(err == CL_SUCCESS ? "%.3f\n" : "FAILED\n", t * 1e3);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(bytes);
    return err != CL_SUCCESS;
}

/* This program as a child: its time in ms, or -1. */
static double in_new_process(cl_uint platform, const char *from, unsigned salt, const char *file)
{
    char self[4096], command[4400];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = 0;
    snprintf(command, sizeof command, "'%s' --child %u %s %u '%s'", self, platform, from, salt, file);
    FILE *child = popen(command, "r");
    double ms = -1;
    if (child && fscanf(child, "%lf", &ms) != 1)
        ms = -1;
    if (child && pclose(child))
        ms = -1;
    return ms;
}

/* Median times (ms; -1: failed) of the sha512crypt kernel built in a new
 * process from its saved binary and from its source (cached), each
 * repetition after a cold build here of a new salt: the binary's first
 * reload, as at a cracker's next start (a second reload may find what the
 * first stored). */
static void time_new_process(device_run *r, cl_uint platform, int reps, unsigned *salt, double *source,
                             double *binary)
{
    double ts[MAX_REPS], tb[MAX_REPS];
    char file[] = "/tmp/mosaic-bench-binary-XXXXXX";
    int fd = mkstemp(file);
    bool ok = fd >= 0;
    *source = *binary = -1;
    for (int i = 0; i < reps && ok; i++) {
        unsigned s = (*salt)++;
        unsigned char *bytes = NULL;
        size_t size = 0;
        ok = build_crypt(r->ctx, r->dev, r->q, s, NULL, 0, &bytes, &size) == CL_SUCCESS && bytes &&
             !ftruncate(fd, 0) && pwrite(fd, bytes, size, 0) == (ssize_t)size;
        free(bytes);
        tb[i] = ok ? in_new_process(platform, "binary", s, file) : -1;
        ts[i] = ok ? in_new_process(platform, "source", s, file) : -1;
        ok = ts[i] >= 0 && tb[i] >= 0;
    }
    if (ok) {
        *source = median(ts, reps);
        *binary = median(tb, reps);
    }
    if (fd >= 0) {
        close(fd);
        unlink(file);
    }
}

static void fresh_cache_dir(const char *var)
{
    if (getenv(var))
        return;
    char tmpl[] = "/tmp/mosaic-bench-builds-XXXXXX";
    if (mkdtemp(tmpl))
        setenv(var, tmpl, 1);
}

/* ---- the launches after a build ------------------------------------------------------- */
enum { LAUNCHES = 7, REDUCE_ITEMS = 1 << 22, REDUCE_GROUP = 256 };

/* Times LAUNCHES launches of a fresh tree-reduction kernel on r (the last
 * after a pause) in ms; false when one failed or summed wrong. */
static bool time_launches(device_run *r, unsigned salt, double ms[LAUNCHES])
{
    char *src = printf_alloc(
        "kernel void reduce(global const float *x, global float *sums, local float *t) {\n"
        "  size_t l = get_local_id(0);\n"
        "  t[l] = x[get_global_id(0)] + %u.0f * 0.0f;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
        "    if (l < s) t[l] += t[l + s];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  if (l == 0) sums[get_group_id(0)] = t[0];\n"
        "}\n",
        salt);
    size_t groups = REDUCE_ITEMS / REDUCE_GROUP, global = REDUCE_ITEMS, local = REDUCE_GROUP;
    float *x = malloc(REDUCE_ITEMS * sizeof *x), *sums = malloc(groups * sizeof *sums);
    for (size_t i = 0; i < REDUCE_ITEMS; i++)
        x[i] = (float)(i % 7); /* small integers: every order of adding is exact */
    cl_int err;
    const char *srcs[1] = {src};
    cl_program p = clCreateProgramWithSource(r->ctx, 1, srcs, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(p, 1, &r->dev, "", NULL, NULL);
    cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, "reduce", &err) : NULL;
    cl_mem bx = err == CL_SUCCESS ? clCreateBuffer(r->ctx, CL_MEM_COPY_HOST_PTR, REDUCE_ITEMS * sizeof *x, x, &err)
                                  : NULL;
    cl_mem bs = err == CL_SUCCESS ? clCreateBuffer(r->ctx, CL_MEM_READ_WRITE, groups * sizeof *sums, NULL, &err)
                                  : NULL;
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 0, sizeof bx, &bx);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 1, sizeof bs, &bs);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 2, REDUCE_GROUP * sizeof(float), NULL);
    for (int n = 0; n < LAUNCHES && err == CL_SUCCESS; n++) {
        if (n == LAUNCHES - 1) {
            struct timespec pause = {0, 500 * 1000 * 1000};
            nanosleep(&pause, NULL);
        }
        double t0 = now();
        err = clEnqueueNDRangeKernel(r->q, k, 1, NULL, &global, &local, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(r->q);
        ms[n] = (now() - t0) * 1e3;
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(r->q, bs, CL_TRUE, 0, groups * sizeof *sums, sums, 0, NULL, NULL);
        for (size_t g = 0; g < groups && err == CL_SUCCESS; g++) {
            float want = 0;
            for (size_t i = g * REDUCE_GROUP; i < (g + 1) * REDUCE_GROUP; i++)
                want += x[i];
            if (sums[g] != want) {
                fprintf(stderr, "launch %d: group %zu sums to %g, expected %g\n", n + 1, g, sums[g], want);
                err = -9999;
            }
        }
    }
    if (err != CL_SUCCESS)
        fprintf(stderr, "reduce: launches failed (%d)\n", err);
    if (bs)
        clReleaseMemObject(bs);
    if (bx)
        clReleaseMemObject(bx);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
    free(src), free(x), free(sums);
    return err == CL_SUCCESS;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--child"))
        return child_main(argc - 2, argv + 2);
    int max_depth = argc > 1 ? atoi(argv[1]) : 7, reps = argc > 2 ? atoi(argv[2]) : 5;
    const char *only = argc > 3 ? argv[3] : NULL;
    if (reps < 1)
        reps = 1;
    if (reps > MAX_REPS)
        reps = MAX_REPS;
    fresh_cache_dir("MOSAIC_CACHE_DIR");
    fresh_cache_dir("POCL_CACHE_DIR");

    bench_case cases[MAX_CASES];
    int nc = 0;
    if (!only) {
        cases[nc++] = (bench_case){ONE, 0, "one kernel"};
        cases[nc++] = (bench_case){FIFTY, 0, "50 kernels"};
        for (int d = 4; d <= max_depth && nc < MAX_CASES - 3; d++) {
            cases[nc] = (bench_case){FANOUT, d, ""};
            snprintf(cases[nc].name, sizeof cases[nc].name, "fan-out depth %d", d);
            nc++;
        }
    }
    cases[nc++] = (bench_case){SHA512CRYPT, 0, "sha512crypt"};
    cases[nc++] = (bench_case){NEW_PROCESS_SOURCE, 0, "  cached, new process"};
    cases[nc++] = (bench_case){NEW_PROCESS_BINARY, 0, "  binary, new process"};

    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint np = 0;
    clGetPlatformIDs(MAX_PLATFORMS, platforms, &np);
    char names[MAX_PLATFORMS][64];
    double cold[MAX_PLATFORMS][MAX_CASES], cached[MAX_PLATFORMS][MAX_CASES], first[MAX_PLATFORMS];
    double launches[MAX_PLATFORMS][LAUNCHES];
    bool launched[MAX_PLATFORMS];
    int mosaic = -1, count = 0;
    unsigned salt = (unsigned)time(NULL) * 1000u; /* no earlier run's cache entry matches */
    for (cl_uint p = 0; p < np && p < MAX_PLATFORMS; p++) {
        device_run r;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_CPU, 1, &r.dev, NULL) != CL_SUCCESS)
            continue;
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof names[count], names[count], NULL);
        if (strstr(names[count], "Mosaic"))
            mosaic = count;
        r.ctx = clCreateContext(NULL, 1, &r.dev, NULL, NULL, NULL);
        r.q = clCreateCommandQueueWithProperties(r.ctx, r.dev, NULL, NULL);
        r.out = clCreateBuffer(r.ctx, CL_MEM_READ_WRITE, SMALL_ITEMS * sizeof(uint32_t), NULL, NULL);
        /* the first build of the process: what starting up costs on top */
        first[count] = build_once(&r, &cases[0], salt++, NULL) * 1e3;
        for (int c = 0; c < nc; c++) {
            int n = cases[c].kind == FANOUT && cases[c].depth >= 6 ? 1 : reps;
            if (cases[c].kind >= SHA512CRYPT && n > 3)
                n = 3; /* about 1 to 3 s a cold build */
            if (cases[c].kind == NEW_PROCESS_BINARY)
                continue; /* measured with NEW_PROCESS_SOURCE, the row before */
            if (cases[c].kind == NEW_PROCESS_SOURCE) {
                cold[count][c] = cold[count][c + 1] = NOT_MEASURED;
                time_new_process(&r, p, n, &salt, &cached[count][c], &cached[count][c + 1]);
                fprintf(stderr, "%s: sha512crypt in a new process: cached %.1f ms, from its binary %.1f ms\n",
                        names[count], cached[count][c], cached[count][c + 1]);
                continue;
            }
            time_case(&r, &cases[c], n, &salt, &cold[count][c], &cached[count][c]);
            fprintf(stderr, "%s: %s: cold %.1f ms, cached %.1f ms\n", names[count], cases[c].name, cold[count][c],
                    cached[count][c]);
        }
        launched[count] = !only && time_launches(&r, salt++, launches[count]);
        clReleaseMemObject(r.out);
        clReleaseCommandQueue(r.q);
        clReleaseContext(r.ctx);
        count++;
    }

    printf("%-22s", "build (ms)");
    for (int p = 0; p < count; p++)
        printf(" %10.10s cold %10.10s cached", names[p], names[p]);
    if (mosaic >= 0 && count > 1)
        printf("  ratio cold  ratio cached");
    printf("\n");
    printf("%-22s", "first in process");
    for (int p = 0; p < count; p++)
        printf(" %15.1f %17s", first[p], "");
    printf("\n");
    for (int c = 0; c < nc; c++) {
        printf("%-22s", cases[c].name);
        for (int p = 0; p < count; p++) {
            for (int h = 0; h < 2; h++) {
                double v = h ? cached[p][c] : cold[p][c];
                if (v == NOT_MEASURED)
                    printf(h ? " %17s" : " %15s", "");
                else if (v < 0)
                    printf(h ? " %17s" : " %15s", "FAILED");
                else
                    printf(h ? " %17.1f" : " %15.1f", v);
            }
        }
        if (mosaic >= 0)
            for (int p = 0; p < count; p++)
                if (p != mosaic)
                    for (int h = 0; h < 2; h++) {
                        double m = h ? cached[mosaic][c] : cold[mosaic][c], o = h ? cached[p][c] : cold[p][c];
                        if (m > 0 && o > 0)
                            printf(" %12.2f", o / m);
                        else
                            printf(" %12s", "-");
                    }
        printf("\n");
    }
    if (mosaic >= 0 && count > 1)
        printf("ratio = other platform's time / Mosaic's time (above 1: Mosaic is faster)\n");
    if (only)
        return 0;
    printf("\n%-22s", "reduce launch (ms)");
    for (int p = 0; p < count; p++)
        printf(" %17.17s", names[p]);
    printf("\n");
    for (int n = 0; n < LAUNCHES; n++) {
        char label[32];
        snprintf(label, sizeof label, n < LAUNCHES - 1 ? "launch %d" : "launch %d, 0.5 s later", n + 1);
        printf("%-22s", label);
        for (int p = 0; p < count; p++)
            if (launched[p])
                printf(" %17.2f", launches[p][n]);
            else
                printf(" %17s", "FAILED");
        printf("\n");
    }
    return 0;
}
