/*
 * svm_atomics: a producer and a consumer on either side of host and device,
 * talking through C11 atomics in fine-grained shared virtual memory (SVM).
 *
 * What it shows (OpenCL 3.0 API specification, "Shared Virtual Memory" and
 * "Memory Model"; OpenCL C, "Atomic Functions"):
 *  - Fine-grained SVM buffers (clSVMAlloc with CL_MEM_SVM_FINE_GRAIN_BUFFER): the
 *    host and a running kernel use the same pointers, with no map, unmap or copy.
 *    With CL_MEM_SVM_ATOMICS as well, atomic operations on the buffer are atomic
 *    for the host and the device together.
 *  - Release and acquire: a plain store followed by a store (or read-modify-write)
 *    with memory_order_release, and a load with memory_order_acquire that reads
 *    its value, make the plain store visible to the loading side.  That is the
 *    whole protocol: data first, then the flag with release; flag with acquire,
 *    then the data.
 *  - Scopes: the host is another "device" of the SVM, so the kernel's atomics use
 *    memory_scope_all_svm_devices; memory_scope_device would order them for the
 *    device's own work-items only.  The host's side is plain C11 <stdatomic.h>
 *    on the same memory (sequentially consistent unless an order is given).
 *
 * Two directions, each checked:
 *  1. device -> host: every work-item of `produce` writes its value, then adds 1
 *     to `ready` with release order.  The host does not wait for the kernel's
 *     event: it reads `ready` with acquire order until every work-item has
 *     counted itself, then checks every value (a release sequence: each add is a
 *     release, and the acquire that reads the last one sees every value before it).
 *  2. host -> device: `consume` (one work-item) says it is running (`started`),
 *     then waits for `go` with acquire order; the host writes the values only
 *     once the kernel runs, then stores `go` with release order; the kernel
 *     counts the values that differ from what the host wrote.
 * Every wait is bounded (10 s on the host, SPIN_LIMIT tries in the kernel), so a
 * bug fails instead of hanging.
 *
 * Prints "svm_atomics: OK (...)" and exits 0, or says what differed and exits 1;
 * exits 77 when no device has fine-grained SVM buffers with SVM atomics.
 *
 *   usage: svm_atomics
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 65536            /* values in each direction */
#define DEADLINE_S 10.0    /* the host's bound on each wait */
#define SPIN_LIMIT 100000000UL /* the kernel's: tries of its wait for `go` (about 10 s on Mosaic) */

/* The host's atomic_int and the kernel's must be the same 32-bit lock-free object. */
_Static_assert(sizeof(atomic_int) == sizeof(cl_int) && ATOMIC_INT_LOCK_FREE == 2,
               "the host's atomic_int must be a lock-free 32-bit int");

/* The flags shared by host and kernels, one atomic int each, in one SVM allocation. */
enum { READY, STARTED, GO, TIMED_OUT, MISMATCHES, N_FLAGS };

static const char source[] =
    "/* device -> host: the value, then a release add to ready */\n"
    "kernel void produce(global int *data, global atomic_int *flags)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    data[i] = (int)(i * 7 + 3);\n"
    "    atomic_fetch_add_explicit(&flags[READY], 1, memory_order_release, memory_scope_all_svm_devices);\n"
    "}\n"
    "\n"
    "/* host -> device, run by one work-item: wait for go (acquire), then read what the\n"
    "   host wrote before it */\n"
    "kernel void consume(global const int *data, global atomic_int *flags, int n)\n"
    "{\n"
    "    /* relaxed is enough: `started` publishes no data, it only says the kernel runs */\n"
    "    atomic_store_explicit(&flags[STARTED], 1, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "    /* bounded: a `go` never seen ends the kernel after SPIN_LIMIT tries */\n"
    "    ulong tries = 0;\n"
    "    while (atomic_load_explicit(&flags[GO], memory_order_acquire, memory_scope_all_svm_devices) == 0)\n"
    "        if (++tries == SPIN_LIMIT) {\n"
    "            atomic_store_explicit(&flags[TIMED_OUT], 1, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "            return;\n"
    "        }\n"
    "    /* a value the kernel read before the host wrote it would still be -1 */\n"
    "    int wrong = 0;\n"
    "    for (int k = 0; k < n; k++)\n"
    "        wrong += data[k] != k * 5 - 11;\n"
    "    atomic_fetch_add_explicit(&flags[MISMATCHES], wrong, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "}\n";

#define CHECK(call)                                                                                          \
    do {                                                                                                     \
        cl_int err_ = (call);                                                                                \
        if (err_ != CL_SUCCESS) {                                                                            \
            fprintf(stderr, "svm_atomics: %s failed with error %d (line %d)\n", #call, err_, __LINE__);     \
            exit(EXIT_FAILURE);                                                                              \
        }                                                                                                    \
    } while (0)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Reads *flag with acquire order until it is at least `want`, at most DEADLINE_S;
 * returns the last value read.  sched_yield leaves the core to the kernel's
 * threads when there are few. */
static int wait_for(atomic_int *flag, int want)
{
    double end = now() + DEADLINE_S;
    int value;
    while ((value = atomic_load_explicit(flag, memory_order_acquire)) < want && now() < end)
        sched_yield();
    return value;
}

/* The first device whose SVM has fine-grained buffers and atomics. */
static cl_device_id find_device(void)
{
    cl_platform_id platforms[16];
    cl_uint n_platforms = 0;
    if (clGetPlatformIDs(16, platforms, &n_platforms) != CL_SUCCESS)
        return NULL;
    for (cl_uint p = 0; p < n_platforms && p < 16; p++) {
        cl_device_id devices[16];
        cl_uint n = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &n) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < n && d < 16; d++) {
            cl_device_svm_capabilities svm = 0;
            clGetDeviceInfo(devices[d], CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL);
            if ((svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) && (svm & CL_DEVICE_SVM_ATOMICS))
                return devices[d];
        }
    }
    return NULL;
}

int main(void)
{
    cl_device_id device = find_device();
    if (!device) {
        printf("svm_atomics: no OpenCL device with fine-grained SVM buffers and SVM atomics\n");
        return 77;
    }
    char name[256] = "";
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("svm_atomics on %s\n", name);

    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK(err);
    /* OpenCL C 2.0 for atomic_int and memory_scope_all_svm_devices; the flags'
     * places and the kernel's bound on its wait (about seconds) come as -D. */
    char options[256];
    snprintf(options, sizeof options,
             "-cl-std=CL2.0 -D READY=%d -D STARTED=%d -D GO=%d -D TIMED_OUT=%d -D MISMATCHES=%d "
             "-D SPIN_LIMIT=%luUL",
             READY, STARTED, GO, TIMED_OUT, MISMATCHES, SPIN_LIMIT);
    const char *text = source;
    cl_program program = clCreateProgramWithSource(context, 1, &text, NULL, &err);
    CHECK(err);
    if (clBuildProgram(program, 1, &device, options, NULL, NULL) != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "svm_atomics: the kernels did not build:\n%s\n", log);
        return EXIT_FAILURE;
    }
    cl_kernel produce = clCreateKernel(program, "produce", &err);
    CHECK(err);
    cl_kernel consume = clCreateKernel(program, "consume", &err);
    CHECK(err);

    /* The data needs fine grain only (plain loads and stores, ordered by the flags);
     * the flags need atomics that hold between host and device. */
    int *data = clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(int), 0);
    atomic_int *flags = clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                                   N_FLAGS * sizeof(atomic_int), 0);
    if (!data || !flags) {
        fprintf(stderr, "svm_atomics: clSVMAlloc failed\n");
        return EXIT_FAILURE;
    }
    for (int i = 0; i < N; i++)
        data[i] = -1;
    for (int f = 0; f < N_FLAGS; f++)
        atomic_init(&flags[f], 0);
    int failed = 0;

    /* 1. device -> host */
    CHECK(clSetKernelArgSVMPointer(produce, 0, data));
    CHECK(clSetKernelArgSVMPointer(produce, 1, flags));
    size_t global = N;
    cl_event produced;
    CHECK(clEnqueueNDRangeKernel(queue, produce, 1, NULL, &global, NULL, 0, NULL, &produced));
    /* The host is about to wait on memory, not on an event: clFlush makes sure the
     * kernel has been handed to the device, or it might never start. */
    CHECK(clFlush(queue));
    int ready = wait_for(&flags[READY], N);
    int wrong = 0, first_wrong = -1;
    for (int i = 0; ready == N && i < N; i++)
        if (data[i] != i * 7 + 3 && wrong++ == 0)
            first_wrong = i;
    cl_int produced_status = CL_QUEUED;
    CHECK(clGetEventInfo(produced, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof produced_status, &produced_status,
                         NULL));
    if (ready != N) {
        printf("  FAILED device -> host: `ready` is %d after %.0f s, expected %d\n", ready, DEADLINE_S, N);
        failed = 1;
    } else if (wrong) {
        printf("  FAILED device -> host: the host acquired ready = %d but %d value(s) differ, the first "
               "data[%d] = %d, expected %d\n",
               ready, wrong, first_wrong, data[first_wrong], first_wrong * 7 + 3);
        failed = 1;
    } else {
        printf("  ok     device -> host: %d work-items wrote a value each, then released `ready`; the host "
               "acquired ready = %d and read them all (the kernel's event was %s then)\n",
               N, ready, produced_status == CL_COMPLETE ? "complete" : "not yet complete");
    }
    CHECK(clWaitForEvents(1, &produced));
    clReleaseEvent(produced);

    /* 2. host -> device: the values the kernel must not see yet stay -1 */
    for (int i = 0; i < N; i++)
        data[i] = -1;
    cl_int n = N;
    CHECK(clSetKernelArgSVMPointer(consume, 0, data));
    CHECK(clSetKernelArgSVMPointer(consume, 1, flags));
    CHECK(clSetKernelArg(consume, 2, sizeof n, &n));
    size_t one = 1;
    cl_event consumed;
    CHECK(clEnqueueNDRangeKernel(queue, consume, 1, NULL, &one, &one, 0, NULL, &consumed));
    CHECK(clFlush(queue));
    int started = wait_for(&flags[STARTED], 1);
    for (int i = 0; i < N; i++)
        data[i] = i * 5 - 11; /* plain stores ... */
    atomic_store_explicit(&flags[GO], 1, memory_order_release); /* ... published by the release */
    CHECK(clWaitForEvents(1, &consumed));
    clReleaseEvent(consumed);
    /* after the kernel's event, plain (relaxed) reads see its last values */
    int timed_out = atomic_load_explicit(&flags[TIMED_OUT], memory_order_relaxed);
    int mismatches = atomic_load_explicit(&flags[MISMATCHES], memory_order_relaxed);
    if (!started) {
        printf("  FAILED host -> device: the kernel did not say it had started within %.0f s\n", DEADLINE_S);
        failed = 1;
    } else if (timed_out) {
        printf("  FAILED host -> device: the kernel tried %lu times to read `go` set, in vain\n", SPIN_LIMIT);
        failed = 1;
    } else if (mismatches) {
        printf("  FAILED host -> device: the kernel acquired `go` but read %d value(s) other than the host's\n",
               mismatches);
        failed = 1;
    } else {
        printf("  ok     host -> device: while the kernel ran, the host wrote %d values, then released `go`; "
               "the kernel acquired it and read them all\n",
               N);
    }

    clSVMFree(context, data);
    clSVMFree(context, flags);
    clReleaseKernel(produce), clReleaseKernel(consume);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    if (failed) {
        printf("svm_atomics: FAILED\n");
        return EXIT_FAILURE;
    }
    printf("svm_atomics: OK (release/acquire at memory_scope_all_svm_devices, both directions, %d values each)\n",
           N);
    return EXIT_SUCCESS;
}
