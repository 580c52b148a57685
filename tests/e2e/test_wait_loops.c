/*
 * Loops that wait for other work-items, and loops that only look as if they
 * did (src/compiler/workgroup/spin_loops.c).  A loop waits when it leaves on
 * memory another work-item writes and that it does not move on itself: such
 * a kernel runs its work-items as fibers that yield every few iterations.  A
 * persistent-threads loop, which takes a ticket with atomic_inc on each
 * iteration, and a loop that reads a volatile __local array as data do not
 * wait: their kernels keep their work-group functions (regions), in the
 * optimised build and under -cl-opt-disable; ticket loops with loops of
 * their own inside are widened whole.  Each kernel's results are
 * checked; MOSAIC_DEBUG (set with MOSAIC_CACHE=0 by the list) says how each
 * ran.
 */
#include <CL/cl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEST_LIST "test_wait_loops.list"
#include "test.h"
#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

/* What the build of source with options printed on stderr (MOSAIC_DEBUG), in
 * text; the program, NULL if it did not build. */
static cl_program build_saying(const char *source, const char *options, char *text, size_t size)
{
    test_stderr_capture c;
    if (!test_capture_stderr(&c))
        return NULL;
    cl_program p = test_build_program(context, device, source, options);
    test_captured_stderr(&c, text, size);
    return p;
}

/* Does the summary of kernel `name` in text say it runs as `how`
 * ("work-group function", "fibers")? */
static bool runs_as(const char *text, const char *name, const char *how)
{
    char line[160];
    snprintf(line, sizeof line, "mosaic: kernel %s: %s", name, how);
    return strstr(text, line) != NULL;
}

static bool debugging(void)
{
    const char *debug = getenv("MOSAIC_DEBUG");
    return debug && *debug && strcmp(debug, "0");
}

/* Launches kernel `name` of p over items work-items in groups of group, its
 * arguments the buffers m[0..n); whether it ran. */
static bool launch(cl_program p, const char *name, cl_mem *m, int n, size_t items, size_t group)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!k)
        return false;
    for (int a = 0; a < n; a++)
        CHECK_ERR(clSetKernelArg(k, (cl_uint)a, sizeof m[a], &m[a]), CL_SUCCESS);
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &items, &group, 0, NULL, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clFinish(queue), CL_SUCCESS);
    clReleaseKernel(k);
    return err == CL_SUCCESS;
}

static cl_mem buffer_of(const void *host, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)host, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

static void read_back(cl_mem m, void *host, size_t bytes)
{
    CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL), CL_SUCCESS);
}

/* ---- persistent threads ------------------------------------------------------------- */
static const char persistent_source[] =
    /* work-items take elements from a global counter until none is left */
    "kernel void persistent(global const int *in, global int *out, global int *next, global const int *n) {\n"
    "  int i;\n"
    "  while ((i = atomic_inc(next)) < *n)\n"
    "    out[i] = in[i] * 3 + (i & 7);\n"
    "}\n"
    /* the same from a __local counter, over the group's own block */
    "kernel void persistent_local(global const int *in, global int *out, global int *taken) {\n"
    "  local int next;\n"
    "  int block = 1000, base = (int)get_group_id(0) * block;\n"
    "  if (get_local_id(0) == 0) next = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int i, mine = 0;\n"
    "  while ((i = atomic_add(&next, 1)) < block) {\n"
    "    out[base + i] = in[base + i] * 3 + (i & 7);\n"
    "    mine++;\n"
    "  }\n"
    "  taken[get_global_id(0)] = mine;\n"
    "}\n"
    /* a semaphore: a work-item that finds none gives its ticket back and
     * waits for the one that holds it (a loop that waits: fibers) */
    "kernel void semaphore(global int *sem, global int *count) {\n"
    "  while (1) {\n"
    "    if (atomic_dec(sem) > 0)\n"
    "      break;\n"
    "    atomic_inc(sem);\n"
    "  }\n"
    "  int c = *count;\n"
    "  *count = c + 1;\n"
    "  atomic_inc(sem);\n"
    "}\n";

/* Every element written once, the counter one past for each work-item. */
static void check_persistent(const char *options)
{
    static char text[65536];
    char opts[160];
    snprintf(opts, sizeof opts, "%s -D SALT=%d", options, (int)getpid()); /* a build of its own */
    cl_program p = build_saying(persistent_source, opts, text, sizeof text);
    if (!p)
        return;
    enum { N = 100000, ITEMS = 1024, GROUP = 64, BLOCKS = ITEMS / GROUP };
    int *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out), *taken = calloc(ITEMS, sizeof *taken);
    for (int i = 0; i < N; i++)
        in[i] = i * 7 - 500, out[i] = -1;
    int zero = 0, n = N, sem = 1;
    cl_mem m[4] = {buffer_of(in, N * sizeof *in), buffer_of(out, N * sizeof *out), buffer_of(&zero, sizeof zero),
                   buffer_of(&n, sizeof n)};
    if (launch(p, "persistent", m, 4, ITEMS, GROUP)) {
        int next = 0, bad = 0;
        read_back(m[1], out, N * sizeof *out);
        read_back(m[2], &next, sizeof next);
        for (int i = 0; i < N; i++)
            bad += out[i] != in[i] * 3 + (i & 7);
        CHECK(bad == 0, "persistent (%s): %d elements wrong", options, bad);
        CHECK(next == N + ITEMS, "persistent (%s): the counter ends at %d, not %d", options, next, N + ITEMS);
    }
    /* the __local counter: blocks of 1,000 */
    for (int i = 0; i < N; i++)
        out[i] = -1;
    cl_mem l[3] = {m[0], buffer_of(out, N * sizeof *out), buffer_of(taken, ITEMS * sizeof *taken)};
    if (launch(p, "persistent_local", l, 3, ITEMS, GROUP)) {
        int bad = 0, wrong_total = 0;
        read_back(l[1], out, N * sizeof *out);
        read_back(l[2], taken, ITEMS * sizeof *taken);
        for (int i = 0; i < BLOCKS * 1000; i++)
            bad += out[i] != in[i] * 3 + (i % 1000 & 7);
        for (int g = 0; g < BLOCKS; g++) {
            int total = 0;
            for (int w = 0; w < GROUP; w++)
                total += taken[g * GROUP + w];
            wrong_total += total != 1000;
        }
        CHECK(bad == 0 && wrong_total == 0, "persistent_local (%s): %d elements wrong, %d groups' tickets wrong",
              options, bad, wrong_total);
    }
    /* the semaphore: one work-item at a time in between */
    int count = 0;
    cl_mem s[2] = {buffer_of(&sem, sizeof sem), buffer_of(&count, sizeof count)};
    if (launch(p, "semaphore", s, 2, 256, 64)) {
        read_back(s[0], &sem, sizeof sem);
        read_back(s[1], &count, sizeof count);
        CHECK(sem == 1 && count == 256, "semaphore (%s): semaphore %d, count %d (256)", options, sem, count);
    }
    if (debugging()) {
        CHECK(runs_as(text, "persistent", "work-group function"), "persistent (%s) not in regions:\n%s", options,
              text);
        CHECK(runs_as(text, "persistent_local", "work-group function in regions"),
              "persistent_local (%s) not in regions:\n%s", options, text);
        CHECK(runs_as(text, "semaphore", "fibers"), "semaphore (%s) not as fibers:\n%s", options, text);
    }
    for (int i = 0; i < 4; i++)
        clReleaseMemObject(m[i]);
    clReleaseMemObject(l[1]), clReleaseMemObject(l[2]);
    clReleaseMemObject(s[0]), clReleaseMemObject(s[1]);
    clReleaseProgram(p);
    free(in), free(out), free(taken);
}

TEST(persistent_threads) { check_persistent("-cl-std=CL1.2"); }
TEST(persistent_threads_opt_disable) { check_persistent("-cl-std=CL1.2 -cl-opt-disable"); }

/* ---- persistent threads widened whole ------------------------------------------------ */
/* Work-items with loops of their own around a ticket loop run as one row of
 * lanes (src/compiler/vectorize/wfv.c): each ticket is one atomic operation
 * for the lanes that take one, the loops inside masked loops of their own.
 * Groups of 100: rows and a tail. */
static const char widened_source[] =
    "kernel void tickets(global const int *cnt, global int *out, global int *next, int n) {\n"
    "  int i;\n"
    "  while ((i = atomic_inc(next)) < n) {\n"
    "    int k = 0, c = cnt[i];\n"
    "    while (k < c)\n"
    "      k += 3;\n"
    "    out[i] = k;\n"
    "  }\n"
    "}\n"
    /* four elements a ticket, taken before the loop and at its end */
    "kernel void chunks(global const int *cnt, global int *out, global int *next, int n) {\n"
    "  int i = atomic_add(next, 4);\n"
    "  while (i < n) {\n"
    "    for (int j = i; j < min(i + 4, n); j++) {\n"
    "      int k = 0, c = cnt[j];\n"
    "      while (k < c)\n"
    "        k += 2;\n"
    "      out[j] = k + j;\n"
    "    }\n"
    "    i = atomic_add(next, 4);\n"
    "  }\n"
    "}\n"
    /* counting down */
    "kernel void countdown(global const int *cnt, global int *out, global int *left) {\n"
    "  int i;\n"
    "  while ((i = atomic_dec(left)) > 0) {\n"
    "    int k = 0, c = cnt[i - 1];\n"
    "    while (k < c)\n"
    "      k += 5;\n"
    "    out[i - 1] = -k;\n"
    "  }\n"
    "}\n"
    /* no ticket: a loop in a loop, both left by the lanes in different iterations */
    "kernel void nested(global const int *cnt, global int *out) {\n"
    "  int g = get_global_id(0), s = 0, c = cnt[g];\n"
    "  for (int j = 0; j < c; j++) {\n"
    "    int k = 0;\n"
    "    while (k < j + (g & 3))\n"
    "      k++;\n"
    "    s += k * j;\n"
    "  }\n"
    "  out[g] = s;\n"
    "}\n";

/* The smallest multiple of step at least c (0 for c <= 0). */
static int round_up(int c, int step) { return c <= 0 ? 0 : (c + step - 1) / step * step; }

/* Kernel name over N elements (cnt: m[0], out: m[1], the counter from
 * `start` in m[2]); the elements wrong and the counter at the end. */
static int run_tickets(cl_program p, const char *name, cl_mem *m, int n, int start, int *out, int *counter)
{
    enum { ITEMS = 400, GROUP = 100 };
    cl_int err;
    int unset = -12345;
    CHECK_ERR(clEnqueueFillBuffer(queue, m[1], &unset, sizeof unset, 0, (size_t)n * sizeof *out, 0, NULL, NULL),
              CL_SUCCESS);
    CHECK_ERR(clEnqueueWriteBuffer(queue, m[2], CL_TRUE, 0, sizeof start, &start, 0, NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (!k)
        return -1;
    for (cl_uint a = 0; a < 3; a++)
        CHECK_ERR(clSetKernelArg(k, a, sizeof m[a], &m[a]), CL_SUCCESS);
    if (strcmp(name, "countdown"))
        CHECK_ERR(clSetKernelArg(k, 3, sizeof n, &n), CL_SUCCESS);
    size_t items = ITEMS, group = GROUP;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &items, &group, 0, NULL, NULL), CL_SUCCESS);
    read_back(m[1], out, (size_t)n * sizeof *out);
    read_back(m[2], counter, sizeof *counter);
    clReleaseKernel(k);
    return ITEMS;
}

TEST(persistent_widened)
{
    static char text[65536];
    char opts[160];
    snprintf(opts, sizeof opts, "-D SALT=%d", (int)getpid());
    cl_program p = build_saying(widened_source, opts, text, sizeof text);
    if (!p)
        return;
    enum { N = 10007 };
    int *cnt = malloc(N * sizeof *cnt), *out = malloc(N * sizeof *out);
    for (int i = 0; i < N; i++)
        cnt[i] = (int)((i * 2654435761u) >> 26) - 8; /* -8 .. 55 */
    int zero = 0;
    cl_mem m[3] = {buffer_of(cnt, N * sizeof *cnt), buffer_of(out, N * sizeof *out), buffer_of(&zero, sizeof zero)};
    int counter = 0, items = run_tickets(p, "tickets", m, N, 0, out, &counter), bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != round_up(cnt[i], 3);
    CHECK(bad == 0 && counter == N + items, "tickets: %d wrong, the counter at %d (%d)", bad, counter, N + items);
    items = run_tickets(p, "chunks", m, N, 0, out, &counter), bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != round_up(cnt[i], 2) + i;
    CHECK(bad == 0 && counter == 4 * ((N + 3) / 4 + items), "chunks: %d wrong, the counter at %d (%d)", bad, counter,
          4 * ((N + 3) / 4 + items));
    items = run_tickets(p, "countdown", m, N, N, out, &counter), bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != -round_up(cnt[i], 5);
    CHECK(bad == 0 && counter == -items, "countdown: %d wrong, the counter at %d (%d)", bad, counter, -items);
    /* nested: 400 work-items, one element each */
    for (int i = 0; i < 400; i++)
        cnt[i] &= 31;
    CHECK_ERR(clEnqueueWriteBuffer(queue, m[0], CL_TRUE, 0, 400 * sizeof *cnt, cnt, 0, NULL, NULL), CL_SUCCESS);
    if (launch(p, "nested", m, 2, 400, 100)) {
        read_back(m[1], out, 400 * sizeof *out);
        bad = 0;
        for (int g = 0; g < 400; g++) {
            int s = 0;
            for (int j = 0; j < cnt[g]; j++)
                s += (j + (g & 3)) * j;
            bad += out[g] != s;
        }
        CHECK(bad == 0, "nested: %d wrong", bad);
    }
    if (debugging()) {
        static const char *const names[] = {"tickets", "chunks", "countdown", "nested"};
        for (int i = 0; i < 4; i++) {
            char line[96];
            snprintf(line, sizeof line, "mosaic: kernel %s.wi: widened whole", names[i]);
            CHECK(strstr(text, line), "%s not widened whole:\n%s", names[i], text);
        }
    }
    for (int i = 0; i < 3; i++)
        clReleaseMemObject(m[i]);
    clReleaseProgram(p);
    free(cnt), free(out);
}

/* ---- volatile __local data ---------------------------------------------------------- */
static const char volatile_source[] =
    /* each work-item sums its group's tile, read through a volatile pointer:
     * data, not something to wait for */
    "kernel void tile_sums(global const int *in, global int *out, local volatile int *t) {\n"
    "  int l = get_local_id(0), n = get_local_size(0);\n"
    "  t[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int s = 0;\n"
    "  for (int k = 0; k < n; k++)\n"
    "    s += t[k] * (k + 1);\n"
    "  out[get_global_id(0)] = s + l;\n"
    "}\n"
    /* work-item 0 waits for the others of its group, through a volatile flag
     * (a loop that waits: fibers) */
    "kernel void wait_volatile(volatile global int *count, global int *out) {\n"
    "  int lid = get_local_id(0), n = get_local_size(0);\n"
    "  volatile global int *c = count + get_group_id(0);\n"
    "  if (lid == 0) {\n"
    "    while (*c != n - 1)\n"
    "      ;\n"
    "    out[get_global_id(0)] = -1;\n"
    "  } else {\n"
    "    out[get_global_id(0)] = lid;\n"
    "    atomic_inc(c);\n"
    "  }\n"
    "}\n";

TEST(volatile_local_opt_disable)
{
    static char text[65536];
    char opts[160];
    snprintf(opts, sizeof opts, "-cl-opt-disable -D SALT=%d", (int)getpid());
    cl_program p = build_saying(volatile_source, opts, text, sizeof text);
    if (!p)
        return;
    enum { G = 512, L = 64 };
    int in[G], out[G], counts[G / L] = {0};
    for (int i = 0; i < G; i++)
        in[i] = (i * 37) % 101 - 50;
    cl_mem m[2] = {buffer_of(in, sizeof in), buffer_of(out, sizeof out)};
    cl_int err;
    cl_kernel k = clCreateKernel(p, "tile_sums", &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (k) {
        size_t g = G, l = L;
        CHECK_ERR(clSetKernelArg(k, 0, sizeof m[0], &m[0]), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof m[1], &m[1]), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 2, L * sizeof(int), NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
        read_back(m[1], out, sizeof out);
        int bad = 0;
        for (int i = 0; i < G; i++) {
            int s = 0, base = i / L * L;
            for (int j = 0; j < L; j++)
                s += in[base + j] * (j + 1);
            bad += out[i] != s + i % L;
        }
        CHECK(bad == 0, "tile_sums: %d wrong", bad);
        clReleaseKernel(k);
    }
    cl_mem w[2] = {buffer_of(counts, sizeof counts), m[1]};
    if (launch(p, "wait_volatile", w, 2, G, L)) {
        read_back(m[1], out, sizeof out);
        int bad = 0;
        for (int i = 0; i < G; i++)
            bad += out[i] != (i % L ? i % L : -1);
        CHECK(bad == 0, "wait_volatile: %d wrong", bad);
    }
    if (debugging()) {
        CHECK(runs_as(text, "tile_sums", "work-group function in regions"), "tile_sums not in regions:\n%s", text);
        CHECK(runs_as(text, "wait_volatile", "fibers"), "wait_volatile not as fibers:\n%s", text);
    }
    clReleaseMemObject(m[0]), clReleaseMemObject(m[1]), clReleaseMemObject(w[0]);
    clReleaseProgram(p);
}

/* ---- a compare-exchange retried until it wins -------------------------------------------
 * The loop of the CTS's c11_atomics compare-exchange tests: it leaves on what
 * the compare-exchange returns, so it waits for other work-items and runs as
 * fibers.  Each work-item must still win ITERS times (no one spins forever;
 * the sum is the counter's end), and a fiber yields only every few
 * iterations: while it runs alone its compare-exchange wins at once, so at
 * most a few of its tries fail, once for each time the others ran in
 * between.  When every iteration switched to each of the group's fibers, all
 * but one of the group's tries failed, and a launch of 1024 work-items of
 * 10000 iterations took 0.41 s of CPU instead of 0.065.  One worker (the
 * list entry): workers running groups at once fail each other's tries too,
 * as many as 28% under load. */
static const char retry_source[] =
    "kernel void retry(global atomic_int *counter, global int *wins, global int *fails, int iters) {\n"
    "    int expected = atomic_load_explicit(counter, memory_order_relaxed), won = 0, failed = 0;\n"
    "    while (won < iters) {\n"
    "        if (atomic_compare_exchange_strong(counter, &expected, expected + 1)) {\n"
    "            won++;\n"
    "            expected++;\n"
    "        } else {\n"
    "            failed++;\n"
    "        }\n"
    "    }\n"
    "    wins[get_global_id(0)] = won;\n"
    "    fails[get_global_id(0)] = failed;\n"
    "}\n";

TEST(compare_exchange_retry)
{
    static char text[65536];
    cl_program p = build_saying(retry_source, "-cl-std=CL2.0", text, sizeof text);
    if (!p)
        return;
    enum { G = 256, L = 64, ITERS = 200 };
    int zero = 0, wins[G] = {0}, fails[G] = {0};
    cl_int err;
    cl_mem m[3] = {buffer_of(&zero, sizeof zero), buffer_of(wins, sizeof wins), buffer_of(fails, sizeof fails)};
    cl_kernel k = clCreateKernel(p, "retry", &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (k) {
        int iters = ITERS;
        size_t g = G, l = L;
        for (int a = 0; a < 3; a++)
            CHECK_ERR(clSetKernelArg(k, (cl_uint)a, sizeof m[a], &m[a]), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 3, sizeof iters, &iters), CL_SUCCESS);
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
        int counter = 0;
        read_back(m[0], &counter, sizeof counter);
        read_back(m[1], wins, sizeof wins);
        read_back(m[2], fails, sizeof fails);
        long won = 0, failed = 0;
        for (int i = 0; i < G; i++)
            won += wins[i], failed += fails[i];
        CHECK(counter == G * ITERS && won == G * ITERS, "counter %d, wins %ld, expected %d", counter, won,
              G * ITERS);
        /* yielding on each iteration failed some G * ITERS * (L - 1) tries */
        CHECK(failed * 4 < (long)G * ITERS, "%ld tries of %d failed: the fibers switch on every iteration",
              failed, G * ITERS);
        clReleaseKernel(k);
    }
    if (debugging())
        CHECK(runs_as(text, "retry", "fibers"), "retry not as fibers:\n%s", text);
    for (int a = 0; a < 3; a++)
        clReleaseMemObject(m[a]);
    clReleaseProgram(p);
}

int main(int argc, char **argv) { return test_main_on_cpu_queue(argc, argv, &device, &context, &queue); }
