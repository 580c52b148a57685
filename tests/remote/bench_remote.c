/*
 * The remote device's figures (docs/remote.md, "Measured"), run under
 * mpirun with two servers on this machine (run_under_mpi.sh):
 *   - an empty kernel enqueued and finished, one at a time;
 *   - a write, a read and a server-to-server move of one buffer
 *     (bench_remote [MiB], 256 by default; the test runs 64), each beside
 *     what MPI itself moves over the same connection in the same run
 *     (mosaic_remote_measure_mpi), measured in turns with it, and the ratio.
 * Each figure is the best of several runs (a shared machine's other work
 * shows in the rest).  Linked with Mosaic's objects to reach the baseline;
 * prints a table and fails only when something does not work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/objects.h"
#include "devices/remote/remote.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int failures;
#define MUST(call)                                                                                    \
    do {                                                                                              \
        cl_int must_err = (call);                                                                     \
        if (must_err != CL_SUCCESS) {                                                                 \
            fprintf(stderr, "%s:%d: %s: error %d\n", __FILE__, __LINE__, #call, must_err);           \
            failures++;                                                                               \
        }                                                                                             \
    } while (0)

static void row(const char *what, size_t bytes, double mosaic_s, double mpi_s)
{
    double gb = (double)bytes / 1e9;
    printf("| %-34s | %8.2f GB/s | %8.2f GB/s | %5.0f%% |\n", what, gb / mosaic_s, gb / mpi_s,
           100.0 * mpi_s / mosaic_s);
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 256;
    size_t size = mib << 20;
    cl_platform_id platform;
    cl_device_id all[16], remote[2];
    cl_uint n = 0, found = 0;
    MUST(clGetPlatformIDs(1, &platform, NULL));
    MUST(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 16, all, &n));
    for (cl_uint i = 0; i < n && found < 2; i++)
        if (all[i]->ops == &mosaic_remote_ops)
            remote[found++] = all[i];
    if (found < 2) {
        fprintf(stderr, "bench_remote: %u remote devices; it needs two servers (run_under_mpi.sh)\n", found);
        return 1;
    }
    cl_int err;
    cl_context context = clCreateContext(NULL, 2, remote, NULL, NULL, &err);
    cl_command_queue q0 = clCreateCommandQueueWithProperties(context, remote[0], NULL, &err);
    cl_command_queue q1 = clCreateCommandQueueWithProperties(context, remote[1], NULL, &err);

    /* an empty kernel, one at a time */
    const char *source = "kernel void empty(void) {}";
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    MUST(clBuildProgram(program, 1, &remote[0], "", NULL, NULL));
    cl_kernel empty = clCreateKernel(program, "empty", &err);
    size_t one = 1;
    for (int i = 0; i < 50; i++)
        MUST(clEnqueueNDRangeKernel(q0, empty, 1, NULL, &one, NULL, 0, NULL, NULL));
    MUST(clFinish(q0));
    /* the best of 5 batches: the machine's other work shows in the rest */
    enum { RUNS = 400, BATCHES = 5 };
    double kernel_us = 1e9, call_us = 1e9, ignored[3];
    for (int b = 0; b < BATCHES; b++) {
        double t0 = now_s();
        for (int i = 0; i < RUNS; i++) {
            MUST(clEnqueueNDRangeKernel(q0, empty, 1, NULL, &one, NULL, 0, NULL, NULL));
            MUST(clFinish(q0));
        }
        double us = (now_s() - t0) * 1e6 / RUNS;
        kernel_us = us < kernel_us ? us : kernel_us;
        /* a call that does nothing on the server: the round trip alone (four a measure) */
        t0 = now_s();
        for (int i = 0; i < RUNS / 4; i++)
            MUST(mosaic_remote_measure_mpi(remote[0], NULL, 0, ignored));
        us = (now_s() - t0) * 1e6 / RUNS;
        call_us = us < call_us ? us : call_us;
    }

    /* MPI's own and Mosaic's, round after round (the machine's load moves
     * both alike): a write, a read, a move to the other server */
    double mpi[3] = {1e9, 1e9, 1e9};
    char *host = malloc(size), *want = malloc(size);
    for (size_t i = 0; i < size; i++) /* (bytes that tell each piece's place: a piece out of order shows) */
        want[i] = (char)(i * 131 % 251);
    memcpy(host, want, size);
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &err);
    MUST(err);
    MUST(clEnqueueWriteBuffer(q0, buffer, CL_TRUE, 0, size, host, 0, NULL, NULL)); /* warm: first touch */
    /* each the best of 4 rounds of 3, as the baseline's (3 a call) */
    double write_s = 1e9, read_s = 1e9, move_s = 1e9;
    for (int round = 0; round < 4; round++) {
        double base[3];
        MUST(mosaic_remote_measure_mpi(remote[0], remote[1], size, base));
        for (int k = 0; k < 3; k++)
            mpi[k] = base[k] < mpi[k] ? base[k] : mpi[k];
        for (int again = 0; again < 3; again++) {
            double t0 = now_s();
            MUST(clEnqueueWriteBuffer(q0, buffer, CL_TRUE, 0, size, host, 0, NULL, NULL));
            double t1 = now_s();
            MUST(clEnqueueReadBuffer(q0, buffer, CL_TRUE, 0, size, host, 0, NULL, NULL));
            double t2 = now_s();
            /* the buffer is current on server 0 alone: migrating it to server 1 copies it there */
            MUST(clEnqueueMigrateMemObjects(q1, 1, &buffer, 0, 0, NULL, NULL));
            MUST(clFinish(q1));
            double t3 = now_s();
            write_s = t1 - t0 < write_s ? t1 - t0 : write_s;
            read_s = t2 - t1 < read_s ? t2 - t1 : read_s;
            if (round || again) /* (the first move makes the pages on server 1) */
                move_s = t3 - t2 < move_s ? t3 - t2 : move_s;
        }
    }
    memset(host, 0, size);
    MUST(clEnqueueReadBuffer(q1, buffer, CL_TRUE, 0, size, host, 0, NULL, NULL));
    if (memcmp(host, want, size)) {
        fprintf(stderr, "bench_remote: the buffer, written, read, moved and read again, is not what was written\n");
        failures++;
    }
    free(want);

    printf("\nRemote devices on this machine, two servers, %zu MiB per transfer\n\n", mib);
    printf("| empty kernel, enqueued and finished | %.1f us |\n", kernel_us);
    printf("| a call the server does nothing for  | %.1f us |\n\n", call_us);
    printf("| %-34s | %13s | %13s | %6s |\n", "transfer", "Mosaic", "MPI alone", "ratio");
    printf("| %-34s | %13s | %13s | %6s |\n", "---", "---", "---", "---");
    row("write (program to server)", size, write_s, mpi[0]);
    row("read (server to program)", size, read_s, mpi[1]);
    row("move (server to server)", size, move_s, mpi[2]);
    free(host);
    clReleaseMemObject(buffer);
    clReleaseKernel(empty);
    clReleaseProgram(program);
    clReleaseCommandQueue(q0);
    clReleaseCommandQueue(q1);
    clReleaseContext(context);
    return failures ? 1 : 0;
}
