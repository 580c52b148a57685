/*
 * Enqueue overhead per command: an empty kernel (`__kernel void empty(){}`,
 * one work-item) and a 64-byte clEnqueueWriteBuffer, on every CPU device of
 * every platform the ICD loader finds, side by side, with each platform's
 * ratio to Mosaic (time / Mosaic's time: above 1.00 Mosaic is faster).
 *
 *   OCL_ICD_VENDORS=$PWD/build/bench/vendors build/bench/enqueue_overhead [commands] [repetitions]
 *
 * For each kind of command, on an in-order queue:
 *   enqueue    the enqueue call alone: N calls in a row, time / N
 *   throughput N calls then clFinish: time until all ran / N
 *   +event     like throughput, each call asking for an event that is then released
 *   latency    one call then clFinish (a blocking write for writes), repeated: time / call
 * and, as CPU time (less disturbed by other processes on a shared machine):
 *   enq cpu    the enqueuing thread's CPU time in the enqueue loop / N
 *   thr cpu    the whole process's CPU time (every thread: the runtime's
 *              workers too) from the first call to the end of clFinish / N
 * Each is the best of the repetitions (the median is printed in brackets for
 * the enqueue column).  All commands are warmed up first (for PoCL that
 * includes compiling the kernel).
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double process_cpu(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { KERNEL, WRITE, KINDS };
enum { ENQUEUE, THROUGHPUT, WITH_EVENT, LATENCY, ENQUEUE_CPU, THROUGHPUT_CPU, MEASURES };
enum { TIMED = ENQUEUE_CPU }; /* measures that are runs of their own; the CPU ones come with them */
static const char *kind_names[KINDS] = { "empty kernel", "64-byte write" };
static const char *measure_names[MEASURES] = { "enqueue", "throughput", "+event", "latency", "enq cpu", "thr cpu" };

typedef struct row {
    char platform[64], device[64];
    int is_mosaic, ok;
    double us[KINDS][MEASURES];  /* best, microseconds per command */
    double enqueue_median_us[KINDS];
} row;

static const char *empty_source = "__kernel void empty(void) {}\n";

typedef struct target {
    cl_command_queue q;
    cl_kernel kernel;
    cl_mem buf;
    unsigned char src[64];
} target;

static cl_int one(target *t, int kind, cl_bool blocking, cl_event *event)
{
    static const size_t global = 1;
    if (kind == KERNEL)
        return clEnqueueNDRangeKernel(t->q, t->kernel, 1, NULL, &global, NULL, 0, NULL, event);
    return clEnqueueWriteBuffer(t->q, t->buf, blocking, 0, sizeof t->src, t->src, 0, NULL, event);
}

/* Runs one measure once; returns seconds per command, or -1 on an error.
 * ENQUEUE also gives the enqueuing thread's CPU time per command in *cpu,
 * THROUGHPUT the process's. */
static double measure(target *t, int kind, int what, int n, double *cpu)
{
    cl_int err = CL_SUCCESS;
    double t0 = now(), c0 = what == ENQUEUE ? thread_cpu() : process_cpu(), per;
    switch (what) {
    case ENQUEUE:
        for (int i = 0; i < n && !err; i++)
            err = one(t, kind, CL_FALSE, NULL);
        per = (now() - t0) / n;
        *cpu = (thread_cpu() - c0) / n;
        err |= clFinish(t->q);
        break;
    case THROUGHPUT:
        for (int i = 0; i < n && !err; i++)
            err = one(t, kind, CL_FALSE, NULL);
        err |= clFinish(t->q);
        per = (now() - t0) / n;
        *cpu = (process_cpu() - c0) / n;
        break;
    case WITH_EVENT:
        for (int i = 0; i < n && !err; i++) {
            cl_event e = NULL;
            err = one(t, kind, CL_FALSE, &e);
            if (e)
                clReleaseEvent(e);
        }
        err |= clFinish(t->q);
        per = (now() - t0) / n;
        break;
    default: /* latency: one at a time */
        n = n / 10 > 0 ? n / 10 : 1;
        for (int i = 0; i < n && !err; i++) {
            if (kind == KERNEL) {
                err = one(t, kind, CL_FALSE, NULL);
                err |= clFinish(t->q);
            } else {
                err = one(t, kind, CL_TRUE, NULL);
            }
        }
        per = (now() - t0) / n;
        break;
    }
    return err == CL_SUCCESS ? per : -1;
}

static void bench_device(cl_platform_id platform, cl_device_id device, row *r, int n, int reps)
{
    cl_int err;
    r->ok = 0;
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof r->device, r->device, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "%s: clCreateContext failed (%d)\n", r->platform, err);
        return;
    }
    target t;
    memset(t.src, 7, sizeof t.src);
    t.q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cl_program program = clCreateProgramWithSource(ctx, 1, &empty_source, NULL, &err);
    err = clBuildProgram(program, 1, &device, NULL, NULL, NULL);
    t.kernel = clCreateKernel(program, "empty", &err);
    t.buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    if (!t.q || !t.kernel || !t.buf) {
        fprintf(stderr, "%s: setting up failed (%d)\n", r->platform, err);
        goto out;
    }
    /* warm up every path */
    double cpu;
    for (int kind = 0; kind < KINDS; kind++)
        for (int what = 0; what < TIMED; what++)
            if (measure(&t, kind, what, n / 10 > 100 ? n / 10 : 100, &cpu) < 0) {
                fprintf(stderr, "%s: %s %s failed\n", r->platform, kind_names[kind], measure_names[what]);
                goto out;
            }
    for (int kind = 0; kind < KINDS; kind++)
        for (int what = 0; what < TIMED; what++) {
            double times[64], cpus[64];
            for (int i = 0; i < reps; i++)
                times[i] = measure(&t, kind, what, n, &cpus[i]);
            qsort(times, (size_t)reps, sizeof times[0], cmp_double);
            qsort(cpus, (size_t)reps, sizeof cpus[0], cmp_double);
            r->us[kind][what] = times[0] * 1e6;
            if (what == ENQUEUE) {
                r->enqueue_median_us[kind] = times[reps / 2] * 1e6;
                r->us[kind][ENQUEUE_CPU] = cpus[0] * 1e6;
            } else if (what == THROUGHPUT) {
                r->us[kind][THROUGHPUT_CPU] = cpus[0] * 1e6;
            }
        }
    r->ok = 1;
out:
    if (t.buf)
        clReleaseMemObject(t.buf);
    if (t.kernel)
        clReleaseKernel(t.kernel);
    if (program)
        clReleaseProgram(program);
    if (t.q)
        clReleaseCommandQueue(t.q);
    clReleaseContext(ctx);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 10)
        n = 20000;
    if (reps < 1 || reps > 64)
        reps = 5;

    cl_uint num_platforms = 0;
    if (clGetPlatformIDs(0, NULL, &num_platforms) != CL_SUCCESS || num_platforms == 0) {
        printf("no OpenCL platform found\n");
        return 0;
    }
    cl_platform_id *platforms = calloc(num_platforms, sizeof *platforms);
    clGetPlatformIDs(num_platforms, platforms, NULL);
    row rows[32];
    int num_rows = 0, mosaic = -1;
    for (cl_uint p = 0; p < num_platforms; p++) {
        cl_device_id devices[8];
        cl_uint num_devices = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_CPU, 8, devices, &num_devices) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < num_devices && d < 8 && num_rows < 32; d++) {
            row *r = &rows[num_rows];
            memset(r, 0, sizeof *r);
            clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof r->platform, r->platform, NULL);
            r->is_mosaic = strstr(r->platform, "Mosaic") != NULL;
            bench_device(platforms[p], devices[d], r, n, reps);
            if (!r->ok)
                continue;
            if (r->is_mosaic && mosaic < 0)
                mosaic = num_rows;
            num_rows++;
        }
    }
    free(platforms);

    printf("enqueue overhead: %d commands per run, best of %d, microseconds per command "
           "(in brackets: ratio to Mosaic; > 1.00 means Mosaic is faster)\n", n, reps);
    for (int kind = 0; kind < KINDS; kind++) {
        printf("\n%s\n%-14s %-28s", kind_names[kind], "platform", "device");
        for (int what = 0; what < MEASURES; what++)
            printf(" %17s", measure_names[what]);
        printf("\n");
        for (int i = 0; i < num_rows; i++) {
            row *r = &rows[i];
            printf("%-14.14s %-20.20s", r->platform, r->device);
            for (int what = 0; what < MEASURES; what++) {
                char cell[64];
                if (mosaic >= 0)
                    snprintf(cell, sizeof cell, "%6.2f (%5.2fx)", r->us[kind][what],
                             r->us[kind][what] / rows[mosaic].us[kind][what]);
                else
                    snprintf(cell, sizeof cell, "%6.2f", r->us[kind][what]);
                printf(" %17s", cell);
            }
            printf("  [enq median %.2f]\n", r->enqueue_median_us[kind]);
        }
    }
    if (mosaic < 0)
        printf("\n(Mosaic was not among the platforms: no ratios)\n");
    return 0;
}
