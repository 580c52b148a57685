/*
 * Host <-> device copy bandwidth: blocking clEnqueueWriteBuffer and
 * clEnqueueReadBuffer of 256 MiB (default buffer flags) on every platform the
 * ICD loader finds, against a plain memcpy of the same size on this machine.
 * Prints GB/s and each platform's ratio to memcpy (1.00 = as fast).
 *
 *   OCL_ICD_VENDORS=$PWD/build/bench/vendors build/bench/bandwidth [MiB] [repetitions]
 *
 * The build writes build/bench/vendors/: mosaic.icd plus the system's .icd
 * files, so `OCL_ICD_VENDORS=build/bench/vendors` shows the loader Mosaic and
 * every installed platform (PoCL...) in one run.  (Debian's ocl-icd 2.3.1
 * does not read OCL_ICD_FILENAMES; OCL_ICD_VENDORS=path/libmosaic.so gives
 * Mosaic alone.)
 *
 * Every buffer is written once before timing so page faults are not
 * measured; the best of the repetitions is reported, and the median next to
 * it.  The "memcpy on N threads" lines show what splitting one copy over
 * several cores could gain on this machine.
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct result {
    double best, median; /* seconds */
} result;

static result summarize(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return (result){ t[0], t[n / 2] };
}

static double gbps(size_t bytes, double seconds) { return (double)bytes / seconds / 1e9; }

/* ---- the host baseline -------------------------------------------------------------- */

typedef struct part { char *dst; const char *src; size_t n; } part;

static void *copy_part(void *p)
{
    part *q = p;
    memcpy(q->dst, q->src, q->n);
    return NULL;
}

/* memcpy split over `threads` threads (fresh threads each time: an upper
 * bound on what splitting a copy across a worker pool could give). */
static void parallel_memcpy(char *dst, const char *src, size_t n, int threads)
{
    pthread_t tid[256];
    part parts[256];
    size_t chunk = (n / (size_t)threads + 4095) & ~(size_t)4095;
    int started = 0;
    for (int i = 0; i < threads; i++) {
        size_t at = (size_t)i * chunk;
        if (at >= n)
            break;
        parts[i] = (part){ dst + at, src + at, at + chunk > n ? n - at : chunk };
        if (i == threads - 1 || pthread_create(&tid[i], NULL, copy_part, &parts[i]) != 0)
            copy_part(&parts[i]);
        else
            started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}

/* ---- one platform ----------------------------------------------------------------------- */

static void bench_platform(cl_platform_id platform, char *host, size_t bytes, int reps, double memcpy_best)
{
    char pname[256] = "?", dname[256] = "?";
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    cl_device_id device;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        printf("%-12.12s no device\n", pname);
        return;
    }
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof dname, dname, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        printf("%-12.12s clCreateContext failed (%d)\n", pname, err);
        return;
    }
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS) {
        printf("%-12.12s clCreateBuffer of %zu MiB failed (%d)\n", pname, bytes >> 20, err);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
        return;
    }
    /* warm up: fault in the buffer's pages, both directions once */
    clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL);

    double tw[64], tr[64];
    int ok = 1;
    for (int i = 0; i < reps; i++) {
        double t0 = now();
        ok &= clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL) == CL_SUCCESS;
        double t1 = now();
        ok &= clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL) == CL_SUCCESS;
        double t2 = now();
        tw[i] = t1 - t0;
        tr[i] = t2 - t1;
    }
    result w = summarize(tw, reps), r = summarize(tr, reps);
    printf("%-12.12s %-24.24s write  %6.2f GB/s (median %6.2f)  %.2f x memcpy\n", pname, dname,
           gbps(bytes, w.best), gbps(bytes, w.median), memcpy_best / w.best);
    printf("%-12.12s %-24.24s read   %6.2f GB/s (median %6.2f)  %.2f x memcpy%s\n", pname, dname,
           gbps(bytes, r.best), gbps(bytes, r.median), memcpy_best / r.best, ok ? "" : "  (ERRORS)");
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 10;
    if (mib == 0)
        mib = 256;
    if (reps < 1 || reps > 64)
        reps = 10;
    size_t bytes = mib << 20;

    char *a = aligned_alloc(4096, bytes), *b = aligned_alloc(4096, bytes);
    if (!a || !b) {
        fprintf(stderr, "cannot allocate 2 x %zu MiB\n", mib);
        return 1;
    }
    memset(a, 1, bytes);
    memset(b, 2, bytes);

    /* the baseline: one memcpy of the same size between two touched buffers */
    double tm[64];
    memcpy(b, a, bytes);
    for (int i = 0; i < reps; i++) {
        double t0 = now();
        memcpy(i & 1 ? a : b, i & 1 ? b : a, bytes);
        tm[i] = now() - t0;
    }
    result m = summarize(tm, reps);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("bandwidth: %zu MiB, best of %d, %ld cores\n", mib, reps, cores);
    printf("%-12s %-24s        %6.2f GB/s (median %6.2f)  1.00 x memcpy\n", "host", "memcpy",
           gbps(bytes, m.best), gbps(bytes, m.median));
    for (int threads = 2; threads <= cores && threads <= 256; threads *= 2) {
        double tp[64];
        for (int i = 0; i < reps; i++) {
            double t0 = now();
            parallel_memcpy(i & 1 ? a : b, i & 1 ? b : a, bytes, threads);
            tp[i] = now() - t0;
        }
        result p = summarize(tp, reps);
        char label[32];
        snprintf(label, sizeof label, "memcpy on %d threads", threads);
        printf("%-12s %-24s        %6.2f GB/s (median %6.2f)  %.2f x memcpy\n", "host", label,
               gbps(bytes, p.best), gbps(bytes, p.median), m.best / p.best);
    }

    cl_uint n = 0;
    if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0) {
        printf("no OpenCL platform found\n");
        return 0;
    }
    cl_platform_id *platforms = calloc(n, sizeof *platforms);
    clGetPlatformIDs(n, platforms, NULL);
    for (cl_uint i = 0; i < n; i++)
        bench_platform(platforms[i], a, bytes, reps, m.best);
    free(platforms);
    free(a);
    free(b);
    return 0;
}
