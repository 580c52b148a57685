/*
 * The checking-mode corpus (README.md here): kernels that each break one
 * rule of OpenCL's execution or memory model (`bug`) beside a correct twin
 * (`twin`), listed in corpus.list.  As ctest runs it on Mosaic's CPU device:
 * every twin builds and completes with CL_SUCCESS (twins), and every bug
 * kernel is run and the process survives it, whatever its status (bugs: a
 * bug is undefined behaviour; Mosaic's guard pages fail the out-of-bounds
 * ones, tests/e2e/test_kernel_faults.c).
 *
 * With checking on (the case `checked`, run with MOSAIC_CHECK=all and
 * MOSAIC_CHECK_FILE): nothing is reported on any twin, and each bug is
 * reported as its kind, but the ones listed in not_found_yet.
 *
 * As a tool, `test_check_corpus --run CASE bug|twin` runs one kernel of one
 * case on the first device of the first platform and prints its status:
 * tools/check-oclgrind.sh runs it under Oclgrind, whose plugins print what
 * they find.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEST_LIST "test_check_corpus.list"
#include "cl_test.h"

typedef struct check_case {
    const char *name, *kind, *options;
} check_case;

static const check_case cases[] = {
#define CHECK_CASE(name, kind, options) {#name, #kind, options},
#include "corpus.list"
#undef CHECK_CASE
};
enum { NUM_CASES = sizeof cases / sizeof cases[0], N = 256, LOCAL = 64 };

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

/* corpus/NAME.cl, malloc'd; NULL if it cannot be read */
static char *source_of(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.cl", CHECK_CORPUS_DIR, name);
    FILE *f = fopen(path, "rb");
    enum { MOST = 1 << 16 }; /* (a corpus kernel is a screenful) */
    char *text = f ? malloc(MOST) : NULL;
    if (text)
        text[fread(text, 1, MOST - 1, f)] = 0;
    if (f)
        fclose(f);
    return text;
}

/* Runs kernel `which` of case c over N work-items in groups of LOCAL, on
 * `a` (N ints from the host: 0, 1, 2...) and `b` (N ints nothing wrote);
 * its status (a build failure: CL_BUILD_PROGRAM_FAILURE). */
static cl_int run_case(const check_case *c, const char *which)
{
    char *source = source_of(c->name);
    CHECK(source != NULL, "no corpus/%s.cl", c->name);
    if (!source)
        return CL_INVALID_VALUE;
    cl_program program = test_build_program(context, device, source, c->options);
    free(source);
    if (!program)
        return CL_BUILD_PROGRAM_FAILURE;
    cl_int err, status = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, which, &err);
    CHECK_ERR(err, CL_SUCCESS);
    int host[N];
    for (int i = 0; i < N; i++)
        host[i] = i;
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    int n = N;
    clSetKernelArg(k, 0, sizeof a, &a);
    clSetKernelArg(k, 1, sizeof b, &b);
    clSetKernelArg(k, 2, sizeof n, &n);
    size_t global = N, local = LOCAL;
    cl_event done = NULL;
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, &done);
    if (err == CL_SUCCESS) {
        clWaitForEvents(1, &done);
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        clReleaseEvent(done);
    } else {
        status = err;
    }
    clFinish(queue);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(program);
    return status;
}

TEST(twins)
{
    for (int i = 0; i < NUM_CASES; i++) {
        cl_int status = run_case(&cases[i], "twin");
        CHECK(status == CL_SUCCESS, "%s's twin: status %d", cases[i].name, status);
    }
}

/* The lines of the file MOSAIC_CHECK_FILE names (malloc'd), "" when none. */
static char *check_file_text(void)
{
    const char *path = getenv("MOSAIC_CHECK_FILE");
    FILE *f = path ? fopen(path, "rb") : NULL;
    enum { MOST = 1 << 20 };
    char *text = calloc(1, MOST);
    if (f && text)
        text[fread(text, 1, MOST - 1, f)] = 0;
    if (f)
        fclose(f);
    return text;
}

/* How long the file MOSAIC_CHECK_FILE names is now, and the lines added
 * to it since it was `seen` bytes long (malloc'd). */
static size_t check_file_length(void)
{
    char *text = check_file_text();
    size_t seen = text ? strlen(text) : 0;
    free(text);
    return seen;
}

static char *check_file_since(size_t seen)
{
    char *after = check_file_text();
    char *added = strdup(after && strlen(after) >= seen ? after + seen : "");
    free(after);
    return added;
}

/* What checking mode does not find yet (docs/check.md, "Not yet"). */
static const char *const not_found_yet[] = {NULL};

static bool expected_to_find(const char *name)
{
    for (size_t i = 0; i < sizeof not_found_yet / sizeof not_found_yet[0]; i++)
        if (not_found_yet[i] && !strcmp(not_found_yet[i], name))
            return false;
    return true;
}

/* Checking is on and its file empty; false (a failed check) when the
 * test runs without MOSAIC_CHECK and MOSAIC_CHECK_FILE. */
static bool check_file_emptied(void)
{
    const char *path = getenv("MOSAIC_CHECK_FILE");
    CHECK(path && getenv("MOSAIC_CHECK"), "run with MOSAIC_CHECK and MOSAIC_CHECK_FILE set");
    if (!path)
        return false;
    remove(path);
    return true;
}

/* Each twin runs without a report, each bug with its own. */
static void check_corpus(void)
{
    if (!check_file_emptied())
        return;
    for (int i = 0; i < NUM_CASES; i++) {
        cl_int status = run_case(&cases[i], "twin");
        CHECK(status == CL_SUCCESS, "%s's twin: status %d", cases[i].name, status);
    }
    char *text = check_file_text();
    CHECK(text && !*text, "checking mode reported problems in the twins:\n%s", text ? text : "");
    size_t seen = text ? strlen(text) : 0;
    free(text);
    for (int i = 0; i < NUM_CASES; i++) {
        run_case(&cases[i], "bug");
        text = check_file_text();
        const char *added = text && strlen(text) >= seen ? text + seen : "";
        char kind[64];
        snprintf(kind, sizeof kind, "{\"kind\":\"%s\",\"kernel\":\"bug\"", cases[i].kind);
        bool found = strstr(added, kind) != NULL;
        if (expected_to_find(cases[i].name))
            CHECK(found, "%s: no %s problem reported; the file has:\n%s", cases[i].name, cases[i].kind, added);
        else
            CHECK(!found, "%s is found now: take it off not_found_yet", cases[i].name);
        seen = text ? strlen(text) : 0;
        free(text);
    }
}

TEST(checked) { check_corpus(); }

/* The same where each barrier kernel runs its build for the launch's
 * local size (its rows widened: compiler/vectorize/wfv_check.c) */
TEST(sized) { check_corpus(); }

/* ---- races between commands ----------------------------------------------------------------------------
 * A native kernel that holds its worker until the test lets it go: a
 * command that starts meanwhile runs beside it. */
static atomic_int native_started, native_release;

static void hold_native(void *args)
{
    (void)args;
    atomic_store(&native_started, 1);
    for (int i = 0; i < 10000 && !atomic_load(&native_release); i++) /* at most 10 s */
        usleep(1000);
}

/* Runs the native kernel on `mem`, then, while it runs, writes mem waiting
 * for it (ordered) or not; the lines MOSAIC_CHECK_FILE got meanwhile. */
static char *native_then_write(cl_mem mem, bool ordered)
{
    size_t seen = check_file_length();
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, props, &err);
    CHECK_ERR(err, CL_SUCCESS);
    atomic_store(&native_started, 0);
    atomic_store(&native_release, 0);
    struct { cl_mem mem; } args = {mem};
    const void *at = &args.mem;
    cl_event native = NULL, write = NULL;
    CHECK_ERR(clEnqueueNativeKernel(q, hold_native, &args, sizeof args, 1, &mem, &at, 0, NULL, &native), CL_SUCCESS);
    for (int i = 0; i < 10000 && !atomic_load(&native_started); i++)
        usleep(1000);
    int value = 7;
    CHECK_ERR(clEnqueueWriteBuffer(q, mem, CL_FALSE, 0, sizeof value, &value, ordered ? 1 : 0,
                                   ordered ? &native : NULL, &write), CL_SUCCESS);
    if (!ordered)
        clWaitForEvents(1, &write);
    atomic_store(&native_release, 1);
    clFinish(q);
    clReleaseEvent(native);
    clReleaseEvent(write);
    clReleaseCommandQueue(q);
    return check_file_since(seen);
}

TEST(commands_race)
{
    CHECK(getenv("MOSAIC_CHECK_FILE") && getenv("MOSAIC_CHECK"), "run with MOSAIC_CHECK and MOSAIC_CHECK_FILE set");
    cl_device_exec_capabilities caps = 0;
    clGetDeviceInfo(device, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, NULL);
    if (!(caps & CL_EXEC_NATIVE_KERNEL))
        return;
    int host[64] = {0};
    cl_int err;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    CHECK_ERR(err, CL_SUCCESS);
    char *ordered = native_then_write(mem, true);
    CHECK(ordered && !*ordered, "a write that waits for the native kernel was reported:\n%s", ordered);
    free(ordered);
    char *racing = native_then_write(mem, false);
    CHECK(racing && strstr(racing, "{\"kind\":\"races\",\"kernel\":\"write buffer\"") &&
              strstr(racing, "while native kernel (writing it) was running"),
          "a write beside the running native kernel, on an out-of-order queue, was not reported:\n%s", racing);
    free(racing);
    clReleaseMemObject(mem);
}

/* A kernel that cannot observe its work-groups runs in the device's
 * (cpu_launch.c's regroup) under checking too, and its reports name the
 * application's: from work-item 500 on, halves races between work-items
 * 2k and 2k + 1, of one group of 10 from group 50 on (the device's are
 * wider: its groups' numbers there are smaller). */
TEST(regrouped)
{
    if (!check_file_emptied())
        return;
    const char *source = "kernel void halves(global int *a) {\n"
                         "  size_t i = get_global_id(0);\n"
                         "  a[i < 500 ? i : 500 + (i - 500) / 2] = (int)i;\n"
                         "}\n";
    cl_program program = test_build_program(context, device, source, "");
    if (!program)
        return;
    static int host[1000];
    cl_int err;
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    cl_kernel k = clCreateKernel(program, "halves", &err);
    CHECK_ERR(err, CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof a, &a);
    size_t global = 1000, local = 10;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    clFinish(queue);
    char *found = check_file_since(0);
    const char *at = found ? strstr(found, "\"work_group\":[") : NULL, *other = at ? strstr(at + 1, "\"work_group\":[") : NULL;
    size_t g[2] = {0, 0}, i[2] = {0, 0};
    CHECK(at && other && strstr(found, "work-items of one work-group") &&
              sscanf(at, "\"work_group\":[%zu,0,0],\"work_item\":[%zu,0,0]", &g[0], &i[0]) == 2 &&
              sscanf(other, "\"work_group\":[%zu,0,0],\"work_item\":[%zu,0,0]", &g[1], &i[1]) == 2,
          "halves' race was not reported as one of a group:\n%s", found);
    CHECK(g[0] == g[1] && g[0] >= 50 && g[0] < 100 && i[0] < 10 && i[1] < 10 && i[0] / 2 == i[1] / 2 && i[0] != i[1],
          "halves' race named groups %zu and %zu, work-items %zu and %zu, not two of one group of 10:\n%s", g[0],
          g[1], i[0], i[1], found);
    free(found);
    clReleaseKernel(k);
    clReleaseMemObject(a);
    clReleaseProgram(program);
}

/* MOSAIC_CHECK_SHUFFLE (run with a seed and one worker): a launch's
 * work-groups run in another order than their linear one, each once, and
 * the next launch's order is another again; so do the work-items of one
 * group (a sub-group, 8 work-items, at a time, and those of a sub-group in
 * an order of their own). */
TEST(shuffled_groups)
{
    CHECK(getenv("MOSAIC_CHECK_SHUFFLE") != NULL, "run with MOSAIC_CHECK_SHUFFLE set");
    enum { GROUPS = 64 };
    cl_program program = test_build_program(context, device,
                                            "kernel void order(global int *next, global int *at) {\n"
                                            "  if (get_local_id(0) == 0) at[get_group_id(0)] = atomic_inc(next);\n"
                                            "}\n"
                                            "kernel void items(global int *next, global int *at) {\n"
                                            "  at[get_local_id(0)] = atomic_inc(next);\n"
                                            "}\n",
                                            "");
    if (!program)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(program, "order", &err);
    cl_mem next = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
    cl_mem at = clCreateBuffer(context, CL_MEM_READ_WRITE, GROUPS * sizeof(int), NULL, &err);
    clSetKernelArg(k, 0, sizeof next, &next);
    clSetKernelArg(k, 1, sizeof at, &at);
    int orders[2][GROUPS];
    for (int launch = 0; launch < 2; launch++) {
        int zero = 0;
        clEnqueueWriteBuffer(queue, next, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL);
        size_t global = GROUPS * 4, local = 4;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        clEnqueueReadBuffer(queue, at, CL_TRUE, 0, sizeof orders[launch], orders[launch], 0, NULL, NULL);
        bool seen[GROUPS] = {false}, linear = true;
        for (int g = 0; g < GROUPS; g++) {
            int i = orders[launch][g];
            CHECK(i >= 0 && i < GROUPS && !seen[i], "launch %d: group %d ran as the %d-th", launch, g, i);
            if (i >= 0 && i < GROUPS)
                seen[i] = true;
            linear &= i == g;
        }
        CHECK(!linear, "launch %d: the groups ran in their linear order", launch);
    }
    CHECK(memcmp(orders[0], orders[1], sizeof orders[0]) != 0, "two launches ran their groups in the same order");
    cl_kernel items = clCreateKernel(program, "items", &err);
    clSetKernelArg(items, 0, sizeof next, &next);
    clSetKernelArg(items, 1, sizeof at, &at);
    int zero = 0, order[GROUPS];
    clEnqueueWriteBuffer(queue, next, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL);
    size_t one_group = GROUPS; /* one group of 64 work-items */
    CHECK_ERR(clEnqueueNDRangeKernel(queue, items, 1, NULL, &one_group, &one_group, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadBuffer(queue, at, CL_TRUE, 0, sizeof order, order, 0, NULL, NULL);
    bool linear = true, seen[GROUPS] = {false};
    for (int l = 0; l < GROUPS; l++) {
        CHECK(order[l] >= 0 && order[l] < GROUPS && !seen[order[l]], "work-item %d ran as the %d-th", l, order[l]);
        if (order[l] >= 0 && order[l] < GROUPS)
            seen[order[l]] = true;
        linear &= order[l] == l;
    }
    CHECK(!linear, "the work-items of a group ran in their linear order");
    /* and within a sub-group (8 work-items, MOSAIC_SUB_GROUP_SIZE), too: some sub-group's out of order */
    bool in_order = true;
    for (int l = 0; l < GROUPS; l++)
        if (l % 8 && order[l] < order[l - 1])
            in_order = false;
    CHECK(!in_order, "the work-items of each sub-group ran in their linear order");
    clReleaseKernel(items);
    clReleaseMemObject(next);
    clReleaseMemObject(at);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

TEST(bugs)
{
    for (int i = 0; i < NUM_CASES; i++)
        printf("%s's bug (%s): status %d\n", cases[i].name, cases[i].kind, run_case(&cases[i], "bug"));
}

static int run_one(const char *name, const char *which)
{
    for (int i = 0; i < NUM_CASES; i++)
        if (!strcmp(cases[i].name, name)) {
            cl_int status = run_case(&cases[i], which);
            printf("%s %s: status %d\n", name, which, status);
            return status == CL_SUCCESS ? 0 : 1;
        }
    fprintf(stderr, "no case %s in corpus.list\n", name);
    return 2;
}

int main(int argc, char **argv)
{
    bool tool = argc == 4 && !strcmp(argv[1], "--run");
    cl_platform_id platform;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceIDs(platform, tool ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_CPU, 1, &device, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    int r;
    if (tool) {
        r = run_one(argv[2], argv[3]);
    } else {
        test_run(argc, argv);
        r = test_summary();
    }
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return r;
}

/* ---- accesses checking mode need not track --------------------------------------------------------------
 * A read through an argument the kernel only reads, and an access at
 * get_global_id(0) through an argument reached only there, cannot race and
 * are not tracked (docs/check.md, "How it works")... but only where no
 * other argument reaches the same buffer and, for the second, the launch
 * has one dimension.  Each kernel runs in a row wide enough to be widened
 * (K.vec) and a tail.  A read of a __local array where nothing writes it
 * between the same two barriers cannot race either, and once the group
 * wrote all of the array it needs no call (its window)... inside the
 * array: tile_past_end reads one int past it, into the group's __local
 * memory still (its argument `after`, placed after the array, is 256
 * bytes).  In loop_race the neighbour's
 * slot is read after the loop comes round, where the write before it runs
 * too (loop_twin has a barrier between).  In slots each work-item writes
 * t[ly][lx], its own slot where a group is at most 4 wide: 8 wide,
 * work-items of both rows write t[1][0..3] (and that only once t is all
 * written, so the checker must not skip those writes then).  rows writes
 * a[get_global_id(1) * w + get_global_id(0)], each work-item's own
 * element where w is at least the launch's width (1000), not where it is
 * 500; so does row_loop over its two rows from 2 * get_global_id(1) (rows
 * 0 and 1: the second row of work-items has none left; row_loop_1d, the
 * same kernel, in a launch of one dimension, where 500 wide work-items 0
 * and 500 meet: its window is not the one a launch of one dimension opens
 * for own elements), and row_back,
 * which writes them backwards (500 wide it would write before the
 * buffer).  tree is a tree reduction, `if (l < s) t[l] += t[l + s]`
 * between barriers: no access of it can race (the work-items below s
 * write, those from s on are read); tree_race leaves the loop's barrier
 * out (tree32 and tree32_race: the same counting in uint, whose halved
 * group size is a truncated one).  rows_twice runs a 4x2 group's two rows
 * through two barriers twice (each row reads the other's slots between
 * them), rows_twice_race leaves
 * the second barrier out, and in rows_skip the second row returns before
 * the barrier.  counts is a histogram, __local atomic increments between two
 * barriers and nothing else there: they cannot race; counts_race reads a
 * bin beside its increments, counts_item increments with
 * memory_scope_work_item.  strided loads a tile in loops that step 8
 * elements from each work-item's own (a filter's halo): its own slots in
 * groups 8 wide, two work-items' in groups 16 wide; counter writes
 * t[ly][lx + 8 * c] over c = 0, 1, the same way (a loop's counter is not
 * one value for the group: in groups 16 wide lx 8 at c 0 and lx 0 at c 1
 * meet).  divided loads t[i / 20][i % 20] for i from the work-item's
 * linear id (ly * 8 + lx) by 16, split writes two ints of padded rows,
 * t[v / 8][v % 8 * 2] and the next: their own in groups 8 wide, in groups
 * 16 wide work-items (8, 0) and (0, 1) start at the same i.  padded
 * writes 16 of each row's 17 ints, which keeps the array's window shut:
 * its reads test their bytes' written bits themselves, and in padded_past
 * the row's last work-item reads the one nothing wrote.  planes is a
 * double-buffered scan (Hillis-Steele): each pass reads plane cur of
 * s[2][256] at l and l - off and writes plane cur ^ 1 at l; planes_same
 * writes plane cur itself, which work-item l + off reads (before the
 * flip); planes_wide's
 * planes, s[3][128], are narrower than its groups of 200, whose work-items
 * from 128 on read plane 0 where work-items below 72 write plane 1.
 * blocks writes each work-item's two elements of its group's 400
 * (a buffer argument's blocks, own_blocks.c), blocks_over three, the last
 * its neighbour's first; block_loop writes a group's 400 from each local id
 * 200 apart, block_loop_race 100 apart (local ids 0 and 100 meet).
 * private_loop writes a private array in a loop its bound keeps inside
 * (no call: instrument.c), private_past steps past its end.  shapes
 * writes a group's tile by rows or by columns, as its argument says: the
 * same for the whole group, each way's work-items at slots of their own
 * (local_objects.c: a pair of windows a shape); shapes_race takes the
 * shape by the local id (work-items 1 and 2 meet at t[1][2]). */
static const char *skipped_source =
    "kernel void shift(global const int *in, global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i + 1 < get_global_size(0)) out[i + 1] = in[i] + 1;\n"
    "}\n"
    "kernel void own(global int *a) {\n"
    "  a[get_global_id(0)] = (int)get_global_id(1);\n"
    "}\n"
    "kernel void tile_past_end(global int *a, local int *after) {\n"
    "  local int t[200];\n"
    "  int l = get_local_id(0);\n"
    "  t[l] = l;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  a[get_global_id(0)] = t[l + 1];\n"
    "}\n"
    "#define LOOP(name, BARRIER) \\\n"
    "kernel void name(global int *a) { \\\n"
    "  local int t[200]; \\\n"
    "  int l = get_local_id(0), v = 0; \\\n"
    "  t[l] = l; \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  for (int i = 0; i < 3; i++) { \\\n"
    "    v += t[(l + 1) % 200]; \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "    t[l] = v; \\\n"
    "    BARRIER \\\n"
    "  } \\\n"
    "  a[get_global_id(0)] = v; \\\n"
    "}\n"
    "LOOP(loop_race, )\n"
    "LOOP(loop_twin, barrier(CLK_LOCAL_MEM_FENCE);)\n"
    "kernel void slots(global int *a) {\n"
    "  local int t[4][4];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1), v = 0;\n"
    "  if (lx == 0 && ly == 0)\n"
    "    for (int k = 0; k < 16; k++) t[k / 4][k % 4] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int i = 0; i < 2; i++) {\n"
    "    t[ly][lx] = lx;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v += t[ly][0];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  a[get_global_id(1) * get_global_size(0) + get_global_id(0)] = v;\n"
    "}\n"
    "kernel void rows(global int *a, int w) {\n"
    "  a[get_global_id(1) * w + get_global_id(0)] = (int)get_global_id(1);\n"
    "}\n"
    "#define ROW_LOOP(name) \\\n"
    "kernel void name(global int *a, int w) { \\\n"
    "  int x = get_global_id(0), y0 = get_global_id(1) * 2; \\\n"
    "  for (int y = y0; y < min(y0 + 2, 2); y++) \\\n"
    "    a[y * w + x] = y; \\\n"
    "}\n"
    "ROW_LOOP(row_loop)\n"
    "ROW_LOOP(row_loop_1d)\n"
    "#define TREE(name, BARRIER, T) \\\n"
    "kernel void name(global int *a, local int *t) { \\\n"
    "  T l = get_local_id(0); \\\n"
    "  t[l] = a[get_global_id(0)]; \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  for (T s = get_local_size(0) / 2; s > 0; s /= 2) { \\\n"
    "    if (l < s) \\\n"
    "      t[l] += t[l + s]; \\\n"
    "    BARRIER \\\n"
    "  } \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  a[get_global_id(0)] = t[0]; \\\n"
    "}\n"
    "TREE(tree, barrier(CLK_LOCAL_MEM_FENCE);, size_t)\n"
    "TREE(tree_race, , size_t)\n"
    "TREE(tree32, barrier(CLK_LOCAL_MEM_FENCE);, uint)\n"
    "TREE(tree32_race, , uint)\n"
    "#define COUNTS(name, INCREMENT, BESIDE) \\\n"
    "kernel void name(global int *a) { \\\n"
    "  local int h[16]; \\\n"
    "  size_t l = get_local_id(0); \\\n"
    "  if (l < 16) \\\n"
    "    h[l] = 0; \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  INCREMENT; \\\n"
    "  BESIDE; \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  a[get_global_id(0)] = h[l % 16]; \\\n"
    "}\n"
    "#define ROWS_TWICE(name, SECOND) \\\n"
    "kernel void name(global int *a) { \\\n"
    "  local int t[2][4]; \\\n"
    "  int lx = get_local_id(0), ly = get_local_id(1); \\\n"
    "  for (int k = 0; k < 2; k++) { \\\n"
    "    t[ly][lx] = k; \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "    a[get_global_id(1) * 16 + get_global_id(0)] = t[1 - ly][lx]; \\\n"
    "    SECOND \\\n"
    "  } \\\n"
    "}\n"
    "ROWS_TWICE(rows_twice, barrier(CLK_LOCAL_MEM_FENCE);)\n"
    "ROWS_TWICE(rows_twice_race, )\n"
    "kernel void rows_skip(global int *a) {\n"
    "  local int t[2][4];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  t[ly][lx] = lx;\n"
    "  if (ly == 1)\n"
    "    return;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  a[get_global_id(1) * 16 + get_global_id(0)] = t[0][3 - lx];\n"
    "}\n"
    "COUNTS(counts, atomic_inc(&h[a[get_global_id(0)] & 15]), )\n"
    "COUNTS(counts_race, atomic_inc(&h[a[get_global_id(0)] & 15]), a[get_global_id(0)] = h[(l + 1) % 16])\n"
    "COUNTS(counts_item, atomic_fetch_add_explicit((volatile local atomic_int *)&h[l % 2], 1, memory_order_relaxed, \\\n"
    "                                             memory_scope_work_item), )\n"
    "kernel void strided(global int *a) {\n"
    "  local int t[6][20];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  for (int ty = ly; ty < 6; ty += 2)\n"
    "    for (int tx = lx; tx < 20; tx += 8)\n"
    "      t[ty][tx] = tx;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  a[get_global_id(1) * 16 + get_global_id(0)] = t[ly][lx] + t[ly + 4][lx + 4];\n"
    "}\n"
    "kernel void counter(global int *a) {\n"
    "  local int t[2][32];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  for (int c = 0; c < 2; c++)\n"
    "    t[ly][lx + 8 * c] = c;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  a[get_global_id(1) * 16 + get_global_id(0)] = t[ly][lx];\n"
    "}\n"
    "kernel void divided(global int *a) {\n"
    "  local int t[6][20];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  for (int i = ly * 8 + lx; i < 6 * 20; i += 16)\n"
    "    t[i / 20][i % 20] = i;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  a[get_global_id(1) * 16 + get_global_id(0)] = t[ly][lx];\n"
    "}\n"
    "kernel void split(global int *a) {\n"
    "  local int t[8][24];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  for (int v = ly * 8 + lx; v < 64; v += 16) {\n"
    "    t[v / 8][v % 8 * 2] = v;\n"
    "    t[v / 8][v % 8 * 2 + 1] = -v;\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  a[get_global_id(1) * 16 + get_global_id(0)] = t[ly][lx];\n"
    "}\n"
    "#define PADDED(name, COLUMN) \\\n"
    "kernel void name(global int *a) { \\\n"
    "  local int t[2][17]; \\\n"
    "  int lx = get_local_id(0), ly = get_local_id(1); \\\n"
    "  t[ly][lx] = lx; \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  a[get_global_id(1) * 16 + get_global_id(0)] = t[ly][COLUMN]; \\\n"
    "}\n"
    "PADDED(padded, lx)\n"
    "PADDED(padded_past, lx == 15 ? 16 : lx)\n"
    "#define SCAN(name, PLANES, WIDE, WRITE) \\\n"
    "kernel void name(global int *a) { \\\n"
    "  local int s[PLANES][WIDE]; \\\n"
    "  uint l = get_local_id(0); \\\n"
    "  int cur = 0; \\\n"
    "  s[0][l] = l; \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  for (uint off = 1; off < 200; off *= 2) { \\\n"
    "    int x = s[cur][l]; \\\n"
    "    if (l >= off) \\\n"
    "      x += s[cur][l - off]; \\\n"
    "    s[WRITE][l] = x; \\\n"
    "    cur ^= 1; \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  } \\\n"
    "  a[get_global_id(0)] = s[cur][l]; \\\n"
    "}\n"
    "SCAN(planes, 2, 256, cur ^ 1)\n"
    "SCAN(planes_same, 2, 256, cur)\n"
    "SCAN(planes_wide, 3, 128, cur ^ 1)\n"
    "#define BLOCKS(name, PER) \\\n"
    "kernel void name(global int *a) { \\\n"
    "  size_t base = get_group_id(0) * 400 + get_local_id(0) * 2; \\\n"
    "  for (int k = 0; k < PER; k++) \\\n"
    "    if (base + k < 2000) \\\n"
    "      a[base + k] = k; \\\n"
    "}\n"
    "BLOCKS(blocks, 2)\n"
    "BLOCKS(blocks_over, 3)\n"
    "#define BLOCK_LOOP(name, STEP) \\\n"
    "kernel void name(global int *a) { \\\n"
    "  for (int j = get_local_id(0); j < 400; j += STEP) \\\n"
    "    a[get_group_id(0) * 400 + j] = j; \\\n"
    "}\n"
    "BLOCK_LOOP(block_loop, 200)\n"
    "BLOCK_LOOP(block_loop_race, 100)\n"
    "#define PRIVATE(name, END, STEP) \\\n"
    "kernel void name(global int *a) { \\\n"
    "  int p[4] = {0, 0, 0, 0}; \\\n"
    "  for (int k = 0; k < END; k += STEP) \\\n"
    "    p[k] = k + (int)get_global_id(0); \\\n"
    "  a[get_global_id(0)] = p[0] + p[1] + p[2] + p[3]; \\\n"
    "}\n"
    "PRIVATE(private_loop, 4, 1)\n"
    "PRIVATE(private_past, 6, 2)\n"
    "#define SHAPES(name, COND) \\\n"
    "kernel void name(global int *a, int flip) { \\\n"
    "  local int t[16][16]; \\\n"
    "  int l = get_local_id(0); \\\n"
    "  for (int v = l; v < 256; v += 16) { \\\n"
    "    if (COND) \\\n"
    "      t[v % 16][v / 16] = v; \\\n"
    "    else \\\n"
    "      t[v / 16][v % 16] = -v; \\\n"
    "  } \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); \\\n"
    "  a[get_global_id(0)] = t[l][l]; \\\n"
    "}\n"
    "SHAPES(shapes, flip)\n"
    "SHAPES(shapes_race, l < 8)\n"
    "kernel void row_back(global int *a, int w) {\n"
    "  int x = get_global_id(0), y0 = get_global_id(1) * 2;\n"
    "  for (int y = y0; y < min(y0 + 2, 2); y++)\n"
    "    a[y * w + w - 1 - x] = y;\n"
    "}\n";

/* Runs `name` over `dims` dimensions of (1000, 2) work-items on (a, b) in
 * groups of (200, 1), or of (16, 2) in groups of (local_x, 2) when
 * local_x is not 0; b NULL for a one-argument kernel, or for tile_past_end
 * (256 bytes of __local memory), or for rows (w its second argument); the
 * lines MOSAIC_CHECK_FILE got. */
static char *run_skipped(cl_program program, const char *name, cl_uint dims, cl_mem a, cl_mem b, size_t local_x,
                         cl_int w)
{
    size_t seen = check_file_length();
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof a, &a);
    if (b)
        clSetKernelArg(k, 1, sizeof b, &b);
    if (!strcmp(name, "tile_past_end") || !strncmp(name, "tree", 4))
        clSetKernelArg(k, 1, !strncmp(name, "tree", 4) ? 200 * sizeof(cl_int) : 256, NULL);
    if (!strcmp(name, "rows") || !strncmp(name, "row_loop", 8) || !strcmp(name, "row_back") || !strncmp(name, "shapes", 6))
        clSetKernelArg(k, 1, sizeof w, &w);
    size_t global[2] = {1000, 2}, local[2] = {200, 1};
    if (local_x)
        global[0] = 16, local[0] = local_x, local[1] = 2;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, dims, NULL, global, local, 0, NULL, NULL), CL_SUCCESS);
    clFinish(queue);
    clReleaseKernel(k);
    return check_file_since(seen);
}

TEST(skipped_accesses)
{
    if (!check_file_emptied())
        return;
    cl_program program = test_build_program(context, device, skipped_source, "-cl-std=CL2.0");
    if (!program)
        return;
    static int host[2000];
    cl_int err;
    cl_mem x = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    cl_mem y = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    /* each kernel where nothing is wrong, then where it is: the kind of problem */
    const struct {
        const char *kernel;
        cl_uint dims;
        cl_mem a, b;
        size_t local_x;
        cl_int w;
        const char *kind, *what;
    } runs[] = {
        {"shift", 1, x, y, 0, 0, NULL, "shift on two buffers"},
        {"shift", 1, x, x, 0, 0, "races", "shift reading the buffer it writes"},
        {"own", 1, y, NULL, 0, 0, NULL, "own in one dimension"},
        {"own", 2, y, NULL, 0, 0, "races", "own in two dimensions (two work-items a word)"},
        {"tile_past_end", 1, y, NULL, 0, 0, "bounds", "a read past a __local array all written"},
        {"loop_race", 1, y, NULL, 0, 0, "races", "a read of __local memory written after the loop comes round"},
        {"loop_twin", 1, y, NULL, 0, 0, NULL, "loop_race with a barrier after the write"},
        {"slots", 2, y, NULL, 4, 0, NULL, "slots in groups 4 wide"},
        {"slots", 2, y, NULL, 8, 0, "races", "slots in groups 8 wide (two work-items a slot)"},
        {"rows", 2, y, NULL, 0, 1000, NULL, "rows 1000 wide"},
        {"rows", 2, y, NULL, 0, 500, "races", "rows 500 wide in a launch 1000 wide (two work-items a word)"},
        {"row_loop", 2, y, NULL, 0, 1000, NULL, "row_loop 1000 wide"},
        {"row_loop", 2, y, NULL, 0, 500, "races", "row_loop 500 wide in a launch 1000 wide"},
        {"row_loop_1d", 1, y, NULL, 0, 1000, NULL, "row_loop 1000 wide in one dimension"},
        {"row_loop_1d", 1, y, NULL, 0, 500, "races", "row_loop 500 wide in a launch of one dimension 1000 wide"},
        {"row_back", 2, y, NULL, 0, 1000, NULL, "row_back 1000 wide"},
        {"tree", 1, y, NULL, 0, 0, NULL, "a tree reduction"},
        {"tree_race", 1, y, NULL, 0, 0, "races", "a tree reduction without a barrier in its loop"},
        {"tree32", 1, y, NULL, 0, 0, NULL, "a tree reduction counting in uint"},
        {"tree32_race", 1, y, NULL, 0, 0, "races", "the same without a barrier in its loop"},
        {"rows_twice", 2, y, NULL, 4, 0, NULL, "rows of a 4x2 group through two barriers, twice"},
        {"rows_twice_race", 2, y, NULL, 4, 0, "races", "rows_twice without its second barrier"},
        {"rows_skip", 2, y, NULL, 4, 0, "barriers", "a row of the group that skips the barrier"},
        {"counts", 1, y, NULL, 0, 0, NULL, "a histogram of __local atomics"},
        {"counts_race", 1, y, NULL, 0, 0, "races", "a bin read beside the increments"},
        {"counts_item", 1, y, NULL, 0, 0, "scopes", "increments of work-item scope"},
        {"strided", 2, y, NULL, 8, 0, NULL, "a tile loaded in strided loops, groups 8 wide"},
        {"strided", 2, y, NULL, 16, 0, "races", "the same, groups 16 wide (two work-items an element)"},
        {"counter", 2, y, NULL, 8, 0, NULL, "a loop's counter in the slot, groups 8 wide"},
        {"counter", 2, y, NULL, 16, 0, "races", "the same, groups 16 wide"},
        {"divided", 2, y, NULL, 8, 0, NULL, "a tile loaded through i / w and i % w, groups 8 wide"},
        {"divided", 2, y, NULL, 16, 0, "races", "the same, groups 16 wide"},
        {"split", 2, y, NULL, 8, 0, NULL, "two elements of padded rows through v / 8 and v % 8, groups 8 wide"},
        {"split", 2, y, NULL, 16, 0, "races", "the same, groups 16 wide"},
        {"padded", 2, y, NULL, 16, 0, NULL, "reads of the written part of a padded array"},
        {"padded_past", 2, y, NULL, 16, 0, "uninit", "a read of its padding"},
        {"planes", 1, y, NULL, 0, 0, NULL, "a double-buffered scan"},
        {"planes_same", 1, y, NULL, 0, 0, "races", "the scan writing the plane it reads"},
        {"planes_wide", 1, y, NULL, 0, 0, "races", "the scan in planes narrower than its groups"},
        {"blocks", 1, y, NULL, 0, 0, NULL, "two elements a work-item, its block of a group's 400"},
        {"blocks_over", 1, y, NULL, 0, 0, "races", "three elements a work-item, two apart"},
        {"block_loop", 1, y, NULL, 0, 0, NULL, "a group's 400 elements from each local id, 200 apart"},
        {"block_loop_race", 1, y, NULL, 0, 0, "races", "the same 100 apart, in groups of 200"},
        {"private_loop", 1, y, NULL, 0, 0, NULL, "a private array written in a loop inside its bounds"},
        {"private_past", 1, y, NULL, 0, 0, "bounds", "the loop past its end"},
        {"shapes", 1, y, NULL, 16, 1, NULL, "a tile written in one of two shapes, by an argument"},
        {"shapes_race", 1, y, NULL, 16, 1, "races", "the shapes chosen by the local id"},
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        char *found = run_skipped(program, runs[r].kernel, runs[r].dims, runs[r].a, runs[r].b, runs[r].local_x,
                                  runs[r].w),
             want[80];
        snprintf(want, sizeof want, "{\"kind\":\"%s\",\"kernel\":\"%s\"", runs[r].kind ? runs[r].kind : "",
                 runs[r].kernel);
        if (runs[r].kind)
            CHECK(found && strstr(found, want), "%s: no problem of kind %s reported:\n%s", runs[r].what,
                  runs[r].kind, found);
        else
            CHECK(found && !*found, "%s was reported:\n%s", runs[r].what, found);
        free(found);
    }
    clReleaseMemObject(x);
    clReleaseMemObject(y);
    clReleaseProgram(program);
}
