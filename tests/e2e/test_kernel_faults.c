/* Kernels that fault or run away on the CPU device (issue 43,
 * docs/faults.md): a null store, a wild store, a store into the page after
 * a buffer, a stack overflow, a trap and an endless loop each fail their
 * command (a negative status, a dependant failed, the context's pfn_notify
 * naming the kernel), and the process goes on: a correct kernel then gives
 * the right answer on the same queue and on another.  A fault of the host's
 * own code still reaches the host's handler, or kills it by default. */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TEST_LIST "test_kernel_faults.list"
#include "test.h"
#include "cl_test.h"

/* The status of a command stopped by MOSAIC_KERNEL_TIMEOUT_MS (src/core/device.h, README). */
#define MOSAIC_KERNEL_TIMED_OUT (-9801)

static cl_device_id device;
static cl_context context;
static cl_command_queue queue, other_queue;
static cl_program program;

static const char *source =
    /* the correct kernel run after each fault */
    "kernel void good(global int *out, int k) { size_t i = get_global_id(0); out[i] = (int)i * 3 + k; }\n"
    "kernel void null_store(global int *p, global int *out) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = 1;\n"
    "    if (i == 77) p[i] = 5;\n" /* p is NULL */
    "}\n"
    "kernel void null_store_barrier(global int *p, global int *out) {\n"
    "    local int t[64];\n"
    "    size_t i = get_global_id(0), l = get_local_id(0);\n"
    "    t[l] = (int)i;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[i] = t[63 - l];\n"
    "    if (i == 77) p[i] = t[0];\n"
    "}\n"
    "kernel void wild_store(global int *a, long shift) {\n"
    "    a[(long)(get_global_id(0) + 1) << shift] = 1;\n"
    "}\n"
    "kernel void wild_store_below(global int *a, long below) {\n"
    "    a[get_global_id(0) - below] = 1;\n"
    "}\n"
    "kernel void past_end(global int *a) { a[get_global_id(0)] = (int)get_global_id(0); }\n"
    "kernel void before_start(global int *a, int back) { a[(int)get_global_id(0) - back] = 1; }\n"
    /* a frame larger than the stack, touched a page at a time from its top
     * down: into the guard page below the stack */
    "kernel void stack_overflow(global int *out, long bytes) {\n"
    "    volatile char *p = (volatile char *)__builtin_alloca((size_t)bytes);\n"
    "    for (long at = bytes - 1; at >= 0; at -= 4096) p[at] = 1;\n"
    "    out[get_global_id(0)] = p[0];\n"
    "}\n"
    "kernel void stack_overflow_barrier(global int *out, long bytes) {\n"
    "    local int t[64];\n"
    "    t[get_local_id(0)] = 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    volatile char *p = (volatile char *)__builtin_alloca((size_t)bytes);\n"
    "    for (long at = bytes - 1; at >= 0; at -= 4096) p[at] = 1;\n"
    "    out[get_global_id(0)] = p[0] + t[0];\n"
    "}\n"
    /* a private array far larger than the worker's stack runs: the device
     * gives its frame a stack of its own */
    "kernel void big_private(global int *out) {\n"
    "    volatile char big[64 << 20];\n"
    "    big[0] = 1;\n"
    "    big[(64 << 20) - 1] = 2;\n"
    "    out[get_global_id(0)] = big[0] + big[(64 << 20) - 1];\n"
    "}\n"
    "kernel void trap(global int *out) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = 1;\n"
    "    if (i == 100) __builtin_trap();\n"
    "}\n"
    /* never ends: out holds no -12345 */
    "kernel void endless(global int *out) {\n"
    "    uint x = (uint)get_global_id(0);\n"
    "    while (out[x & 1023] != -12345)\n"
    "        x = x * 1103515245u + 12345u;\n"
    "    out[0] = (int)x;\n"
    "}\n"
    /* waits for a flag nothing sets (a loop that yields: fibers) */
    "kernel void endless_wait(volatile global int *flag, global int *out) {\n"
    "    local int t[64];\n"
    "    t[get_local_id(0)] = 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    while (flag[0] == 0)\n"
    "        ;\n"
    "    out[get_global_id(0)] = t[0];\n"
    "}\n";

/* ---- what the context's pfn_notify heard --------------------------------------- */

static pthread_mutex_t heard_lock = PTHREAD_MUTEX_INITIALIZER;
static char heard[16384];

static void CL_CALLBACK on_notify(const char *errinfo, const void *private_info, size_t cb, void *user_data)
{
    (void)private_info, (void)cb, (void)user_data;
    pthread_mutex_lock(&heard_lock);
    size_t len = strlen(heard);
    snprintf(heard + len, sizeof heard - len, "%s\n", errinfo);
    pthread_mutex_unlock(&heard_lock);
}

static void forget_notices(void)
{
    pthread_mutex_lock(&heard_lock);
    heard[0] = 0;
    pthread_mutex_unlock(&heard_lock);
}

/* Whether a notice containing each of the strings came (waits up to 10 s:
 * the callback runs on the callback thread). */
static bool notice_says(const char *const *words)
{
    for (int tries = 0; tries < 1000; tries++) {
        pthread_mutex_lock(&heard_lock);
        bool all = true;
        for (size_t i = 0; words[i]; i++)
            all &= strstr(heard, words[i]) != NULL;
        pthread_mutex_unlock(&heard_lock);
        if (all)
            return true;
        usleep(10000);
    }
    pthread_mutex_lock(&heard_lock);
    fprintf(stderr, "the notices were:\n%s", heard);
    pthread_mutex_unlock(&heard_lock);
    return false;
}

/* ---- helpers ------------------------------------------------------------------------ */

static cl_kernel kernel(const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
}

static cl_mem buffer(size_t size)
{
    cl_int err;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    int zero = 0;
    CHECK_ERR(clEnqueueFillBuffer(queue, b, &zero, sizeof zero, 0, size, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    return b;
}

static cl_int status_of(cl_event e)
{
    cl_int status = 1;
    CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    return status;
}

/* The correct kernel on q, its answer checked. */
static void run_good(cl_command_queue q, int k)
{
    enum { N = 4096 };
    cl_kernel good = kernel("good");
    cl_mem out = buffer(N * sizeof(int));
    CHECK_ERR(clSetKernelArg(good, 0, sizeof out, &out), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(good, 1, sizeof k, &k), CL_SUCCESS);
    size_t global = N;
    CHECK_ERR(clEnqueueNDRangeKernel(q, good, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    static int data[N];
    CHECK_ERR(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL), CL_SUCCESS);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += data[i] != i * 3 + k;
    CHECK(wrong == 0, "%d of %d wrong after a failed kernel", wrong, N);
    clReleaseMemObject(out);
    clReleaseKernel(good);
}

/* Runs k (its arguments set) over `global` work-items in groups of `local`
 * (0: the device's choice), which must fail with `want` and a notice
 * holding every string of `words` (the kernel's name first); a read waiting
 * for it must fail too.  Then correct kernels run on both queues. */
static void expect_failure(cl_kernel k, size_t global, size_t local, cl_int want, const char *const *words)
{
    forget_notices();
    cl_event run, read;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, &run), CL_SUCCESS);
    cl_mem scratch = buffer(64);
    int data[16];
    CHECK_ERR(clEnqueueReadBuffer(other_queue, scratch, CL_FALSE, 0, sizeof data, data, 1, &run, &read), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &run), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_ERR(status_of(run), want);
    CHECK_ERR(clWaitForEvents(1, &read), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_ERR(status_of(read), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(notice_says(words), "no notice saying %s", words[0]);
    clReleaseEvent(run);
    clReleaseEvent(read);
    clReleaseMemObject(scratch);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    run_good(queue, 7);
    run_good(other_queue, 11);
    run_good(queue, 13);
}

/* ---- the cases ------------------------------------------------------------------------ */

/* A store through a null pointer (a NULL buffer argument), in a kernel
 * without barriers and in one with (its work-items as fibers with
 * MOSAIC_BARRIER_FIBERS=1: null_store_fibers). */
TEST(null_store)
{
    cl_mem out = buffer(4096 * sizeof(int));
    const char *names[] = {"null_store", "null_store_barrier"};
    for (int n = 0; n < 2; n++) {
        cl_kernel k = kernel(names[n]);
        CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), NULL), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof out, &out), CL_SUCCESS);
        /* (the first kernel cannot observe its groups: it may run in the device's) */
        const char *words[] = {names[n], "SIGSEGV", "a null pointer", "CL_OUT_OF_RESOURCES",
                               n ? "work-group (1,0,0), work-items (64,0,0) to (127,0,0)" : NULL, NULL};
        expect_failure(k, 4096, 64, CL_OUT_OF_RESOURCES, words);
        clReleaseKernel(k);
    }
    clReleaseMemObject(out);
}

/* Stores far from any buffer: terabytes past it, so far that the address
 * is not canonical on x86-64 (a fault without an address), and 256 GiB
 * before it. */
TEST(wild_store)
{
    cl_mem a = buffer(4096);
    cl_kernel k = kernel("wild_store");
    CHECK_ERR(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
    long shift = 40;
    CHECK_ERR(clSetKernelArg(k, 1, sizeof shift, &shift), CL_SUCCESS);
    const char *words[] = {"wild_store", "SIGSEGV", NULL};
    expect_failure(k, 256, 0, CL_OUT_OF_RESOURCES, words);
    shift = 45; /* 2^47 bytes and more past it */
    CHECK_ERR(clSetKernelArg(k, 1, sizeof shift, &shift), CL_SUCCESS);
#if defined(__x86_64__)
    const char *words_far[] = {"wild_store", "SIGSEGV", "the address is not known", NULL};
#else
    const char *words_far[] = {"wild_store", "SIGSEGV", NULL};
#endif
    expect_failure(k, 256, 0, CL_OUT_OF_RESOURCES, words_far);
    clReleaseKernel(k);

    k = kernel("wild_store_below");
    long below = 1l << 36;
    CHECK_ERR(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof below, &below), CL_SUCCESS);
    const char *words_below[] = {"wild_store_below", "SIGSEGV", NULL};
    expect_failure(k, 64, 64, CL_OUT_OF_RESOURCES, words_below);
    clReleaseKernel(k);
    clReleaseMemObject(a);
}

/* A store into the page after a buffer: the buffer is the application's
 * (CL_MEM_USE_HOST_PTR, which the device uses in place) and ends where a
 * page without access begins.  The report names the argument. */
TEST(past_buffer_end)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *mem = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(mem != MAP_FAILED);
    if (mem == MAP_FAILED)
        return;
    CHECK(mprotect(mem + page, page, PROT_NONE) == 0);
    cl_int err;
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, page, mem, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_kernel k = kernel("past_end");
    CHECK_ERR(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
    const char *words[] = {"past_end", "SIGSEGV", "a store to", "past the end of argument 0's buffer", NULL};
    expect_failure(k, page / sizeof(int) + 64, 64, CL_OUT_OF_RESOURCES, words);
    /* nothing is rolled back: each int holds what the kernel wrote (its
     * group ran) or what was there (its group was skipped) */
    int *ints = (int *)mem, odd = 0;
    for (int i = 0; i < (int)(page / sizeof(int)); i++)
        odd += ints[i] != i && ints[i] != 0;
    CHECK(odd == 0, "%d ints hold neither", odd);
    clReleaseKernel(k);
    clReleaseMemObject(a);
    munmap(mem, 2 * page);
}

/* The same with Mosaic's own storage (cpu_memory.c's guard pages): a store
 * 128 bytes or more past the end of a buffer of any size, or into the page
 * before its start, fails the command and writes nothing of Mosaic's;
 * within the last 128-byte line it is the buffer's own slack. */
TEST(past_own_buffer)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t sizes[] = {page, 3 * page + 40, 4};
    for (int n = 0; n < 3; n++) {
        size_t ints = sizes[n] / sizeof(int);
        cl_mem a = buffer(sizes[n]);
        cl_kernel k = kernel("past_end");
        CHECK_ERR(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
        /* work-items up to 32 ints (128 bytes) past the end's line */
        size_t lines = (ints + 31) / 32 * 32;
        const char *words[] = {"past_end", "SIGSEGV", "a store to", "past the end of argument 0's buffer", NULL};
        expect_failure(k, lines + 32, 1, CL_OUT_OF_RESOURCES, words);
        clReleaseKernel(k);
        k = kernel("before_start");
        int back = (int)(page / sizeof(int));
        CHECK_ERR(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof back, &back), CL_SUCCESS);
        const char *before[] = {"before_start", "SIGSEGV", "a store to", "before the start of argument 0's buffer", NULL};
        expect_failure(k, 1, 1, CL_OUT_OF_RESOURCES, before);
        clReleaseKernel(k);
        clReleaseMemObject(a);
    }
}

/* A frame larger than the worker's stack (or a fiber's: stack_overflow_fibers)
 * overflows it; a 64 MiB private array does not (the device sizes a stack
 * for it). */
TEST(stack_overflow)
{
    cl_mem out = buffer(4096 * sizeof(int));
    const char *names[] = {"stack_overflow", "stack_overflow_barrier"};
    for (int n = 0; n < 2; n++) {
        cl_kernel k = kernel(names[n]);
        long bytes = 64l << 20;
        CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof bytes, &bytes), CL_SUCCESS);
        const char *words[] = {names[n], "SIGSEGV", "stack overflow", NULL};
        expect_failure(k, 64, 64, CL_OUT_OF_RESOURCES, words);
        clReleaseKernel(k);
    }
    cl_kernel k = kernel("big_private");
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    size_t global = 64;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    int data[64];
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL), CL_SUCCESS);
    CHECK(data[0] == 3 && data[63] == 3);
    clReleaseKernel(k);
    clReleaseMemObject(out);
}

/* __builtin_trap(): an illegal instruction on x86-64, a breakpoint on AArch64. */
TEST(trap)
{
    cl_mem out = buffer(4096 * sizeof(int));
    cl_kernel k = kernel("trap");
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
#if defined(__x86_64__)
    const char *words[] = {"trap", "SIGILL", NULL};
#else
    const char *words[] = {"trap", NULL};
#endif
    expect_failure(k, 4096, 64, CL_OUT_OF_RESOURCES, words);
    clReleaseKernel(k);
    clReleaseMemObject(out);
}

/* An endless loop, with MOSAIC_KERNEL_TIMEOUT_MS set (the list sets it):
 * on every worker at once (many groups), and in a loop that waits for a
 * flag (its work-items as fibers, which yield at each turn).  The thread
 * that starts the workers blocks SIGURG, the watchdog's signal: they
 * unblock it. */
TEST(endless_loop)
{
    sigset_t urg;
    sigemptyset(&urg);
    sigaddset(&urg, SIGURG);
    CHECK(pthread_sigmask(SIG_BLOCK, &urg, NULL) == 0);
    cl_mem out = buffer(4096 * sizeof(int));
    cl_kernel k = kernel("endless");
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    const char *words[] = {"endless", "MOSAIC_KERNEL_TIMEOUT_MS", "MOSAIC_KERNEL_TIMED_OUT", NULL};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    expect_failure(k, 4096, 64, MOSAIC_KERNEL_TIMED_OUT, words);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK(seconds < 20, "the timed-out kernel took %.1f s to stop", seconds);
    clReleaseKernel(k);

    cl_mem flag = buffer(sizeof(int));
    k = kernel("endless_wait");
    CHECK_ERR(clSetKernelArg(k, 0, sizeof flag, &flag), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof out, &out), CL_SUCCESS);
    const char *wait_words[] = {"endless_wait", "MOSAIC_KERNEL_TIMEOUT_MS", NULL};
    expect_failure(k, 256, 64, MOSAIC_KERNEL_TIMED_OUT, wait_words);
    clReleaseKernel(k);
    clReleaseMemObject(flag);
    clReleaseMemObject(out);
}

/* The process ends (returns from main) while a kernel runs for ever: with
 * the timeout set (exit_during_endless_kernel) and without it
 * (exit_during_endless_kernel_no_timeout); neither hangs.  clReleaseContext
 * does not wait for the kernel. */
TEST(exit_during_endless_kernel)
{
    cl_mem out = buffer(4096 * sizeof(int));
    cl_kernel k = kernel("endless");
    CHECK_ERR(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    size_t global = 4096, local = 64;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    usleep(100000); /* it runs */
    clReleaseKernel(k);
    clReleaseMemObject(out);
    /* main releases the queues, program and context, then returns */
}

/* The host's own faults: with a handler the program installed before
 * Mosaic's (here, before the first command starts the workers), a fault of
 * host code reaches it, before and after kernels faulted; without one, it
 * kills the process as it would have (a child, forked after Mosaic
 * installed its handlers).  So does the timeout signal's: a SIGURG the
 * program raises reaches its handler. */
static sigjmp_buf host_jump;
static volatile sig_atomic_t host_faults, host_urgs;

static void host_segv(int sig, siginfo_t *info, void *uc)
{
    (void)sig, (void)info, (void)uc;
    host_faults++;
    siglongjmp(host_jump, 1);
}

static void host_urg(int sig) { (void)sig, host_urgs++; }

/* A page no access is allowed to: reading it faults (a null pointer's
 * read would too, but the undefined behaviour sanitizer stops at it first). */
static volatile int *no_access(void)
{
    static void *page;
    if (!page) {
        page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        CHECK(page != MAP_FAILED);
    }
    return page;
}

static void host_fault(void)
{
    volatile int *volatile nowhere = no_access();
    if (sigsetjmp(host_jump, 1) == 0) {
        (void)*nowhere;
        TEST_FAIL("reading a page without access did not fault");
    }
}

static void CL_CALLBACK native_fault(void *args)
{
    (void)args;
    host_fault();
}

TEST(host_signals)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = host_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGSEGV, &sa, NULL) == 0);
    struct sigaction urg;
    memset(&urg, 0, sizeof urg);
    urg.sa_handler = host_urg;
    sigemptyset(&urg.sa_mask);
    CHECK(sigaction(SIGURG, &urg, NULL) == 0);

    run_good(queue, 1); /* the workers start: Mosaic's handlers go in, over the program's */
    struct sigaction now;
    CHECK(sigaction(SIGSEGV, NULL, &now) == 0 && now.sa_sigaction != host_segv, "Mosaic installed no handler");
    host_fault();
    CHECK(host_faults == 1);
    /* host code on a worker: a native kernel's fault is the program's too */
    cl_device_exec_capabilities caps = 0;
    clGetDeviceInfo(device, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, NULL);
    if (caps & CL_EXEC_NATIVE_KERNEL) {
        CHECK_ERR(clEnqueueNativeKernel(queue, native_fault, NULL, 0, 0, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clFinish(queue), CL_SUCCESS);
        CHECK(host_faults == 2);
        host_faults = 1;
    }

    cl_mem out = buffer(4096 * sizeof(int));
    cl_kernel k = kernel("null_store");
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), NULL), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof out, &out), CL_SUCCESS);
    const char *words[] = {"null_store", "SIGSEGV", NULL};
    expect_failure(k, 4096, 64, CL_OUT_OF_RESOURCES, words);
    CHECK(host_faults == 1, "the kernel's fault reached the program's handler");
    host_fault();
    CHECK(host_faults == 2);
    raise(SIGURG);
    CHECK(host_urgs == 1);

    clReleaseKernel(k);
    clReleaseMemObject(out);
}

/* Without a handler of the program's, a fault of host code kills the
 * process with SIGSEGV, as it would without Mosaic: a child forked after
 * Mosaic installed its handlers reads a page without access.  (Under
 * AddressSanitizer, whose handler was there first, the sanitizer reports
 * it and exits with 1, as it would without Mosaic.) */
TEST(host_fault_default)
{
    cl_mem out = buffer(4096 * sizeof(int));
    cl_kernel k = kernel("null_store");
    CHECK_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), NULL), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof out, &out), CL_SUCCESS);
    const char *words[] = {"null_store", NULL};
    expect_failure(k, 4096, 64, CL_OUT_OF_RESOURCES, words);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none); /* no core file */
        volatile int *volatile nowhere = no_access();
        _exit(*nowhere == 12345 ? 2 : 3);
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
#if defined(__SANITIZE_ADDRESS__)
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1, "the child's status: 0x%x", status);
#else
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "the child's status: 0x%x", status);
#endif
    clReleaseKernel(k);
    clReleaseMemObject(out);
}

int main(int argc, char **argv)
{
    cl_platform_id platform;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL CPU device\n");
        return 1;
    }
    cl_int err;
    context = clCreateContext(NULL, 1, &device, on_notify, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    other_queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    /* OpenCL C 3.0: __builtin_alloca's generic pointer */
    program = test_build_program(context, device, source, "-cl-std=CL3.0");
    if (program) {
        test_run(argc, argv);
        clReleaseProgram(program);
    }
    clReleaseCommandQueue(other_queue);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return test_summary();
}
