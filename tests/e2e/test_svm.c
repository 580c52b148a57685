/*
 * Shared virtual memory in real programs, through the ICD loader:
 *
 *   coarse_kernel    a kernel reads and writes a coarse-grained SVM buffer
 *                    given with clSetKernelArgSVMPointer (also at an offset,
 *                    and through a cl_mem made over the SVM pointer); the
 *                    host touches it between SVMMap and SVMUnmap
 *   linked_list      a list whose nodes lie in three fine-grained SVM
 *                    allocations, made and linked on the host, walked by a
 *                    kernel (the two allocations not passed as arguments are
 *                    named with CL_KERNEL_EXEC_INFO_SVM_PTRS); the kernel
 *                    links nodes too, and the host follows its pointers
 *   system_svm       the same with malloc memory (fine-grained system SVM,
 *                    CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM)
 *   atomic_counters  THE acceptance test: two host threads and a running
 *                    kernel add to the same fine-grained SVM atomic counters
 *                    (32- and 64-bit fetch_add, compare-exchange loops) at
 *                    once; each side sees the other's progress while the
 *                    kernel runs, and every total is exact.  Then the same
 *                    on malloc memory (system SVM atomics).
 *   message_passing  release/acquire between the host and a running
 *                    single-work-item kernel, both ways (seed 002); every
 *                    wait is bounded, so a failure cannot hang
 *
 *   usage: test_svm [case|--list]   (the cases: test_svm.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEST_LIST "test_svm.list"
#include "test.h"
#include "cl_test.h"

#define OK(expr) CHECK_ERR(expr, CL_SUCCESS)

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static cl_program program;

static const char *source =
    /* coarse-grained buffers */
    "kernel void scale(global float *a, float k) { size_t i = get_global_id(0); a[i] = a[i] * k + 1.0f; }\n"
    /* a linked list whose nodes may sit anywhere in SVM */
    "typedef struct node { global struct node *next; global struct node *self; long value; } node;\n"
    "kernel void walk(global node *head, global long *sums) {\n"
    "    size_t i = get_global_id(0);\n"
    "    global node *n = head;\n"
    "    for (size_t k = 0; k < i && n; k++) n = n->next;\n"
    "    long s = 0;\n"
    "    for (; n; n = n->next) s += n->value;\n"
    "    sums[i] = s;\n"
    "}\n"
    "kernel void mark(global node *head) {\n" /* one work-item: every node points at itself, values double */
    "    for (global node *n = head; n; n = n->next) { n->self = n; n->value *= 2; }\n"
    "}\n"
    /* the acceptance test: counters shared with host threads while this runs */
    "kernel void count(global atomic_int *ints, global atomic_long *longs, global atomic_int *cas,\n"
    "                  global atomic_int *done, global atomic_int *host_progress, global atomic_int *watch,\n"
    "                  int iterations) {\n"
    "    size_t id = get_global_id(0);\n"
    "    int h0 = atomic_load_explicit(host_progress, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "    for (int i = 0; i < iterations; i++) {\n"
    "        atomic_fetch_add_explicit(&ints[(id + i) % 4], 1, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "        atomic_fetch_add_explicit(&longs[i % 2], 3, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "        if (i % 16 == 0) {\n"
    "            int old = atomic_load_explicit(cas, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "            while (!atomic_compare_exchange_weak_explicit(cas, &old, old + 1, memory_order_relaxed,\n"
    "                                                          memory_order_relaxed, memory_scope_all_svm_devices))\n"
    "                ;\n"
    "        }\n"
    "    }\n"
    /* what the kernel saw of the host: watch[0] = 1 + the host's count when
     * the first work-item ended, watch[1] = the host's count when the last
     * one ended minus that, watch[2] = work-items that saw the count move
     * during their own loop */
    "    int h1 = atomic_load_explicit(host_progress, memory_order_seq_cst, memory_scope_all_svm_devices);\n"
    "    if (h1 != h0) atomic_fetch_add_explicit(&watch[2], 1, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "    int unset = 0;\n"
    "    atomic_compare_exchange_strong_explicit(&watch[0], &unset, h1 + 1, memory_order_seq_cst,\n"
    "                                            memory_order_seq_cst, memory_scope_all_svm_devices);\n"
    "    int before = atomic_fetch_add_explicit(done, 1, memory_order_seq_cst, memory_scope_all_svm_devices);\n"
    "    if (before == (int)get_global_size(0) - 1)\n"
    "        atomic_store_explicit(&watch[1], h1 + 1 - atomic_load_explicit(&watch[0], memory_order_seq_cst,\n"
    "                              memory_scope_all_svm_devices), memory_order_seq_cst, memory_scope_all_svm_devices);\n"
    "}\n"
    /* message passing: one work-item, bounded spins */
    "kernel void messenger(global int *to_host, global atomic_int *to_host_flag, global const int *from_host,\n"
    "                      global atomic_int *from_host_flag, global long *result, long spin_limit) {\n"
    "    for (int i = 0; i < 1024; i++) to_host[i] = 3 * i + 1;\n"
    "    atomic_store_explicit(to_host_flag, 1, memory_order_release, memory_scope_all_svm_devices);\n"
    "    long spins = 0;\n"
    "    while (atomic_load_explicit(from_host_flag, memory_order_acquire, memory_scope_all_svm_devices) == 0)\n"
    "        if (++spins == spin_limit) { result[0] = -1; return; }\n"
    "    long s = 0;\n"
    "    for (int i = 0; i < 1024; i++) s += from_host[i];\n"
    "    result[0] = s;\n"
    "    result[1] = spins;\n"
    "}\n";

static cl_kernel kernel(const char *name)
{
    cl_int err = 0;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return k;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* ---- coarse-grained buffers ---------------------------------------------------------- */

TEST(coarse_kernel)
{
    enum { N = 1 << 16 };
    float *a = clSVMAlloc(context, CL_MEM_READ_WRITE, N * sizeof(float), 0);
    CHECK(a != NULL);
    if (!a)
        return;
    OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, a, N * sizeof(float), 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        a[i] = (float)i;
    OK(clEnqueueSVMUnmap(queue, a, 0, NULL, NULL));

    cl_kernel k = kernel("scale");
    float two = 2.0f, three = 3.0f;
    size_t n = N, quarter = N / 4;
    OK(clSetKernelArgSVMPointer(k, 0, a));
    OK(clSetKernelArg(k, 1, sizeof two, &two));
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    /* a pointer into the allocation is an SVM pointer too */
    OK(clSetKernelArgSVMPointer(k, 0, a + N / 2));
    OK(clSetKernelArg(k, 1, sizeof three, &three));
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &quarter, NULL, 0, NULL, NULL));
    OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, a, N * sizeof(float), 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float want = (float)i * 2.0f + 1.0f;
        if (i >= N / 2 && i < N / 2 + N / 4)
            want = want * 3.0f + 1.0f;
        bad += a[i] != want;
    }
    CHECK(bad == 0);
    OK(clEnqueueSVMUnmap(queue, a, 0, NULL, NULL));

    /* a buffer over the SVM pointer: zero copy, USES_SVM_POINTER */
    cl_int err = 0;
    cl_mem b = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, N * sizeof(float), a, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_bool uses = CL_FALSE;
    OK(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
    CHECK(uses == CL_TRUE);
    OK(clSetKernelArg(k, 0, sizeof b, &b));
    OK(clSetKernelArg(k, 1, sizeof two, &two));
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    float *mapped = clEnqueueMapBuffer(queue, b, CL_TRUE, CL_MAP_READ, 0, N * sizeof(float), 0, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK(mapped == a);
    CHECK(a[10] == (10.0f * 2.0f + 1.0f) * 2.0f + 1.0f);
    OK(clEnqueueUnmapMemObject(queue, b, mapped, 0, NULL, NULL));
    OK(clReleaseMemObject(b));

    /* results copied out with clEnqueueSVMMemcpy, then an ordered free */
    float out[4];
    OK(clEnqueueSVMMemcpy(queue, CL_TRUE, out, a + 100, sizeof out, 0, NULL, NULL));
    CHECK(out[0] == a[100] && out[3] == a[103]);
    void *list[1] = { a };
    OK(clEnqueueSVMFree(queue, 1, list, NULL, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
    OK(clReleaseKernel(k));
}

/* ---- pointer-chasing: a linked list shared by host and kernel ---------------------------------- */

typedef struct node {
    struct node *next;
    struct node *self;
    cl_long value;
} node;

/* Links `count` nodes taken round-robin from `pools` (node arrays) into one
 * list and returns its head; node k holds value k + 1. */
static node *build_list(node **pools, int num_pools, int count)
{
    node *head = NULL, **tail = &head;
    for (int k = 0; k < count; k++) {
        node *n = &pools[k % num_pools][k / num_pools];
        n->value = k + 1;
        n->self = NULL;
        n->next = NULL;
        *tail = n;
        tail = &n->next;
    }
    return head;
}

/* Runs walk and mark on the list and checks both sides' view. */
static void check_list(cl_kernel walk, cl_kernel mark, node *head, int count, cl_long *sums)
{
    size_t n = (size_t)count;
    OK(clSetKernelArgSVMPointer(walk, 0, head));
    OK(clSetKernelArgSVMPointer(walk, 1, sums));
    OK(clEnqueueNDRangeKernel(queue, walk, 1, NULL, &n, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
    /* fine-grained: no map needed; the sum from node i is i+1 + ... + count */
    int bad = 0;
    for (int i = 0; i < count; i++) {
        cl_long want = ((cl_long)count * (count + 1) - (cl_long)i * (i + 1)) / 2;
        bad += sums[i] != want;
    }
    CHECK(bad == 0);

    /* the kernel writes pointers, the host follows them */
    size_t one = 1;
    OK(clSetKernelArgSVMPointer(mark, 0, head));
    OK(clEnqueueNDRangeKernel(queue, mark, 1, NULL, &one, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
    bad = 0;
    int seen = 0;
    for (node *p = head; p; p = p->next, seen++)
        bad += p->self != p || p->value != 2 * (seen + 1);
    CHECK(bad == 0 && seen == count);
}

TEST(linked_list)
{
    enum { COUNT = 3000, POOLS = 3 };
    node *pools[POOLS];
    for (int i = 0; i < POOLS; i++) {
        pools[i] = clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
                              (COUNT / POOLS + 1) * sizeof(node), 0);
        CHECK(pools[i] != NULL);
        if (!pools[i])
            return;
    }
    cl_long *sums = clSVMAlloc(context, CL_MEM_SVM_FINE_GRAIN_BUFFER, COUNT * sizeof(cl_long), 0);
    node *head = build_list(pools, POOLS, COUNT);
    CHECK(head == &pools[0][0]);
    cl_kernel walk = kernel("walk"), mark = kernel("mark");
    /* the allocations reached only through pointers stored in SVM */
    void *others[POOLS - 1] = { pools[1], pools[2] };
    OK(clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof others, others));
    OK(clSetKernelExecInfo(mark, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof others, others));
    check_list(walk, mark, head, COUNT, sums);
    /* errors of clSetKernelExecInfo */
    CHECK_ERR(clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof others, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetKernelExecInfo(walk, 0x7fff, sizeof others, others), CL_INVALID_VALUE);
    CHECK_ERR(clSetKernelExecInfo(NULL, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof others, others), CL_INVALID_KERNEL);
    OK(clReleaseKernel(walk));
    OK(clReleaseKernel(mark));
    void *all[POOLS + 1] = { pools[0], pools[1], pools[2], sums };
    OK(clEnqueueSVMFree(queue, POOLS + 1, all, NULL, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
}

static void CL_CALLBACK free_system(cl_command_queue q, cl_uint n, void *pointers[], void *user_data)
{
    for (cl_uint i = 0; i < n; i++)
        free(pointers[i]);
    atomic_fetch_add((atomic_int *)user_data, (int)n);
}

TEST(system_svm)
{
    enum { COUNT = 2000, POOLS = 4 };
    cl_device_svm_capabilities caps = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL));
    CHECK(caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM);
    /* plain malloc memory: node pools, and the sums */
    node *pools[POOLS];
    for (int i = 0; i < POOLS; i++)
        pools[i] = malloc((COUNT / POOLS + 1) * sizeof(node));
    cl_long *sums = malloc(COUNT * sizeof(cl_long));
    node *head = build_list(pools, POOLS, COUNT);
    cl_kernel walk = kernel("walk"), mark = kernel("mark");
    cl_bool yes = CL_TRUE;
    OK(clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes));
    OK(clSetKernelExecInfo(mark, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes));
    check_list(walk, mark, head, COUNT, sums);

    /* a malloc'd array through a kernel, and SVM commands on malloc memory */
    enum { N = 10000 };
    float *data = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++)
        data[i] = (float)i;
    cl_kernel k = kernel("scale");
    float half = 0.5f;
    size_t n = N;
    OK(clSetKernelArgSVMPointer(k, 0, data));
    OK(clSetKernelArg(k, 1, sizeof half, &half));
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    float pattern = -1.0f;
    OK(clEnqueueSVMMemFill(queue, data + N - 100, &pattern, sizeof pattern, 100 * sizeof(float), 0, NULL, NULL));
    OK(clFinish(queue));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += data[i] != (i >= N - 100 ? -1.0f : (float)i * 0.5f + 1.0f);
    CHECK(bad == 0);
    OK(clReleaseKernel(k));
    OK(clReleaseKernel(walk));
    OK(clReleaseKernel(mark));
    /* clEnqueueSVMFree with a callback frees system memory in order */
    void *all[POOLS + 2] = { sums, data };
    for (int i = 0; i < POOLS; i++)
        all[2 + i] = pools[i];
    atomic_int freed = 0;
    OK(clEnqueueSVMFree(queue, POOLS + 2, all, free_system, &freed, 0, NULL, NULL));
    OK(clFinish(queue));
    CHECK(atomic_load(&freed) == POOLS + 2);
}

/* ---- the acceptance test: SVM atomics shared with host threads during a kernel ----------------- */

typedef struct counters {
    atomic_int ints[4];
    atomic_long longs[2];
    atomic_int cas;
    atomic_int done;          /* work-items finished (kernel, release) */
    atomic_int host_progress; /* host increments so far */
    atomic_int watch[3];      /* what the kernel saw of host_progress (see the kernel) */
} counters;

typedef struct host_thread {
    pthread_t thread;
    counters *c;
    int work_items;
    atomic_bool *go;
    /* tallies of what this thread added */
    long ints[4], longs[2], cas;
    long during_kernel;       /* increments made while 0 < done < work_items */
    int saw_partial;          /* a counter value with the kernel part way through */
    bool timed_out;
} host_thread;

static void *host_counter(void *arg)
{
    host_thread *t = arg;
    counters *c = t->c;
    while (!atomic_load(t->go))
        ;
    double deadline = now() + 60.0;
    for (long i = 0;; i++) {
        int d = atomic_load_explicit(&c->done, memory_order_acquire);
        atomic_fetch_add_explicit(&c->ints[i % 4], 1, memory_order_relaxed);
        t->ints[i % 4]++;
        atomic_fetch_add(&c->longs[i % 2], 5);
        t->longs[i % 2]++;
        int old = atomic_load(&c->cas);
        while (!atomic_compare_exchange_weak(&c->cas, &old, old + 1))
            ;
        t->cas++;
        atomic_fetch_add_explicit(&c->host_progress, 1, memory_order_relaxed);
        if (d > 0 && d < t->work_items) {
            t->during_kernel++;
            t->saw_partial = 1;
        }
        if (d == t->work_items)
            break;
        if ((i & 1023) == 0 && now() > deadline) {
            t->timed_out = true;
            break;
        }
    }
    return NULL;
}

/* Two host threads hammer the counters from before the kernel starts until
 * after it ends; `c` is fine-grained SVM with atomics, or malloc memory.
 * The totals must always be exact.  Returns whether the host and the kernel
 * were seen to overlap: on a loaded machine a host thread may sleep through
 * the whole kernel, so the caller tries again rather than fail. */
static bool counters_race(counters *c, bool system, const char *what, int work_items, int iterations)
{
    memset(c, 0, sizeof *c);
    cl_kernel k = kernel("count");
    if (!k)
        return false;
    cl_bool yes = CL_TRUE;
    if (system)
        OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes));
    OK(clSetKernelArgSVMPointer(k, 0, c->ints));
    OK(clSetKernelArgSVMPointer(k, 1, c->longs));
    OK(clSetKernelArgSVMPointer(k, 2, &c->cas));
    OK(clSetKernelArgSVMPointer(k, 3, &c->done));
    OK(clSetKernelArgSVMPointer(k, 4, &c->host_progress));
    OK(clSetKernelArgSVMPointer(k, 5, c->watch));
    OK(clSetKernelArg(k, 6, sizeof iterations, &iterations));

    enum { THREADS = 2 };
    atomic_bool go = false;
    host_thread threads[THREADS];
    memset(threads, 0, sizeof threads);
    for (int i = 0; i < THREADS; i++) {
        threads[i].c = c;
        threads[i].work_items = work_items;
        threads[i].go = &go;
        pthread_create(&threads[i].thread, NULL, host_counter, &threads[i]);
    }
    atomic_store(&go, true);
    size_t global = (size_t)work_items, local = 64;
    cl_event run = NULL;
    double t0 = now();
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, &run));
    OK(clFlush(queue));
    /* the main thread watches too: a value of a counter between its start
     * and its end while the kernel runs */
    int main_saw_partial = 0;
    while (atomic_load(&c->done) < work_items && now() - t0 < 60.0) {
        int d = atomic_load(&c->done);
        if (d > 0 && d < work_items)
            main_saw_partial = 1;
    }
    OK(clWaitForEvents(1, &run));
    double elapsed = now() - t0;
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i].thread, NULL);
    OK(clReleaseEvent(run));
    OK(clReleaseKernel(k));

    /* exact totals: the kernel's share plus every host tally */
    long want_ints[4], want_longs[2], want_cas = 0, during = 0;
    for (int j = 0; j < 4; j++)
        want_ints[j] = (long)work_items * iterations / 4;
    want_longs[0] = 3L * work_items * ((iterations + 1) / 2);
    want_longs[1] = 3L * work_items * (iterations / 2);
    want_cas = (long)work_items * ((iterations + 15) / 16);
    long host_total = 0;
    bool overlapped = true;
    for (int i = 0; i < THREADS; i++) {
        CHECK(!threads[i].timed_out);
        for (int j = 0; j < 4; j++)
            want_ints[j] += threads[i].ints[j];
        for (int j = 0; j < 2; j++)
            want_longs[j] += 5 * threads[i].longs[j];
        want_cas += threads[i].cas;
        during += threads[i].during_kernel;
        host_total += threads[i].cas;
        /* every host thread incremented while the kernel was part way */
        overlapped &= threads[i].saw_partial != 0;
    }
    for (int j = 0; j < 4; j++)
        CHECK(atomic_load(&c->ints[j]) == want_ints[j]);
    for (int j = 0; j < 2; j++)
        CHECK(atomic_load(&c->longs[j]) == want_longs[j]);
    CHECK(atomic_load(&c->cas) == want_cas);
    CHECK(atomic_load(&c->done) == work_items);
    CHECK(atomic_load(&c->host_progress) == host_total);
    overlapped &= main_saw_partial != 0;
    /* the kernel saw the host's increments while it ran: the host's count
     * moved between the first work-item's end and the last one's */
    overlapped &= atomic_load(&c->watch[0]) > 0 && atomic_load(&c->watch[1]) > 0;
    printf("%s: kernel %.3f s, %ld host increments (%ld while the kernel ran); the kernel saw %d of them between "
           "its first and last work-item, and %d of %d work-items saw the count move during their own loop\n",
           what, elapsed, host_total, during, atomic_load(&c->watch[1]), atomic_load(&c->watch[2]), work_items);
    return overlapped;
}

/* Runs the race until host and kernel overlap (a few tries at most). */
static void counters_race_overlapping(counters *c, bool system, const char *what, int work_items, int iterations)
{
    bool overlapped = false;
    for (int attempt = 0; attempt < 5 && !overlapped; attempt++)
        overlapped = counters_race(c, system, what, work_items, iterations);
    CHECK(overlapped);
}

TEST(atomic_counters)
{
    cl_device_svm_capabilities caps = 0;
    OK(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL));
    CHECK(caps & CL_DEVICE_SVM_ATOMICS);
    counters *c = clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                             sizeof *c, 0);
    CHECK(c != NULL);
    if (c)
        counters_race_overlapping(c, false, "fine-grained SVM buffer", 4096, 4000);
    clSVMFree(context, c);
    counters *sys = aligned_alloc(64, (sizeof *sys + 63) / 64 * 64);
    counters_race_overlapping(sys, true, "malloc (system SVM)", 4096, 2000);
    free(sys);
}

/* ---- message passing with release / acquire (seed 002) ------------------------------------------- */

typedef struct mailbox {
    int to_host[1024];
    int from_host[1024];
    atomic_int to_host_flag;
    atomic_int from_host_flag;
    cl_long result[2];
} mailbox;

TEST(message_passing)
{
    mailbox *m = clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                            sizeof *m, 0);
    CHECK(m != NULL);
    if (!m)
        return;
    memset(m, 0, sizeof *m);
    cl_kernel k = kernel("messenger");
    cl_long spin_limit = 4000000000LL; /* a few seconds: the kernel gives up rather than hang */
    OK(clSetKernelArgSVMPointer(k, 0, m->to_host));
    OK(clSetKernelArgSVMPointer(k, 1, &m->to_host_flag));
    OK(clSetKernelArgSVMPointer(k, 2, m->from_host));
    OK(clSetKernelArgSVMPointer(k, 3, &m->from_host_flag));
    OK(clSetKernelArgSVMPointer(k, 4, m->result));
    OK(clSetKernelArg(k, 5, sizeof spin_limit, &spin_limit));
    size_t one = 1;
    cl_event run = NULL;
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, &run));
    OK(clFlush(queue));

    /* kernel -> host: plain stores published by a release store */
    double deadline = now() + 30.0;
    bool got = false;
    while (!(got = atomic_load_explicit(&m->to_host_flag, memory_order_acquire)) && now() < deadline)
        ;
    CHECK(got);
    int bad = 0;
    for (int i = 0; i < 1024 && got; i++)
        bad += m->to_host[i] != 3 * i + 1;
    CHECK(bad == 0);
    cl_int status = 0;
    OK(clGetEventInfo(run, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_RUNNING); /* it is waiting for us */

    /* host -> kernel */
    long want = 0;
    for (int i = 0; i < 1024; i++) {
        m->from_host[i] = i * i - 7;
        want += i * i - 7;
    }
    atomic_store_explicit(&m->from_host_flag, 1, memory_order_release);
    OK(clWaitForEvents(1, &run));
    CHECK(m->result[0] == want);
    printf("message passing: the kernel spun %lld times for the host's message\n", (long long)m->result[1]);
    OK(clReleaseEvent(run));
    OK(clReleaseKernel(k));
    clSVMFree(context, m);
}

int main(int argc, char **argv)
{
    return test_main_with_program(argc, argv, source, "-cl-std=CL3.0", &device, &context, &queue, &program);
}
