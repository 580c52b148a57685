/* Barrier kernels built again for one local size
 * (mosaic_executable_wg_for_size; src/compiler/pipeline/one_size.c, local_size.c):
 * the request count, which kernels and programs get such a build, and that
 * the built K.wg computes what the general one does, for 1D, 2D and 3D
 * groups, rows of 8 and 16 work-items, non-square groups (a size read from
 * the wrong dimension shows) and launches whose trailing groups are
 * smaller (those run the general K.wg); builds made beside the program,
 * and a program released while its build is queued or running.
 * usage: test_one_size [case|--list]   (test_one_size.list; none: all) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TEST_LIST "test_one_size.list"
#include "compiler_host.h"
#include "compiler/pipeline/background.h"

#define ARGS(...) ((void *[]){__VA_ARGS__})

/* The K.wg built for `local` at the second request (the first gives NULL). */
static mosaic_wg_fn built_for(mosaic_executable *exe, const char *name, const size_t local[3])
{
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, name);
    CHECK(k && k->uses_barriers && k->wg_fn, "%s: a barrier kernel with a work-group function", name);
    if (!k || !k->wg_fn)
        return NULL;
    CHECK(!mosaic_executable_wg_for_size(exe, k, local, 2, true).whole, "%s: no build at the first of two requests", name);
    mosaic_wg_fn fn = mosaic_executable_wg_for_size(exe, k, local, 2, true).whole;
    CHECK(fn && fn != k->wg_fn, "%s: a build of its own for %zux%zux%zu at the second request", name, local[0],
          local[1], local[2]);
    CHECK(mosaic_executable_wg_for_size(exe, k, local, 2, true).whole == fn, "%s: the same build at the third request", name);
    return fn;
}

/* The operands of the mm kernels below (MM_N x MM_N): small integers and
 * halves, so every sum is exact whatever its order. */
enum { MM_N = 32 };
static void mm_operands(float *a, float *b)
{
    for (int i = 0; i < MM_N * MM_N; i++) {
        a[i] = (float)(i % 7 - 3);
        b[i] = (float)(i % 5 - 2) * 0.5f;
    }
}

/* The end of the mm kernels' tile loop, the tiles copied: their product
 * added to s, and C's element stored. */
#define MM_MULTIPLY                                                                                                   \
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                                                             \
    "    for (int k = 0; k < sx; k++)\n"                                                                              \
    "      s += ta[ly * sx + k] * tb[k * sx + lx];\n"                                                                 \
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                                                             \
    "  }\n"                                                                                                           \
    "  c[row * n + col] = s;\n"                                                                                       \
    "}\n"

/* ref = a times the matrix whose element (k, j) is b[b_index(k, j)]. */
static void mm_reference(const float *a, const float *b, float *ref, int (*b_index)(int k, int j))
{
    for (int i = 0; i < MM_N; i++)
        for (int j = 0; j < MM_N; j++) {
            float sum = 0;
            for (int k = 0; k < MM_N; k++)
                sum += a[i * MM_N + k] * b[b_index(k, j)];
            ref[i * MM_N + j] = sum;
        }
}

static int row_major(int k, int j) { return k * MM_N + j; }

/* tile_address_shared_operands's B: row k's element in column j at j * MM_N + u(k) */
static int hashed_column(int k, int j)
{
    uint32_t u = (uint32_t)k;
    for (int step = 0; step < 40; step++)
        u = (u ^ 0x5bd1e995u) + u;
    return j * MM_N + (int)(u & (MM_N - 1));
}

/* Kernel mm of exe (a, b, c, n, then two __local tiles of the group's width
 * squared) over MM_N x MM_N work-items in groups `local`, with its build for
 * that size: how many elements of c differ from ref. */
static int run_mm(mosaic_executable *exe, const size_t local[3], const float *a, const float *b, const float *ref)
{
    static float c[MM_N * MM_N];
    mosaic_wg_fn fn = built_for(exe, "mm", local);
    memset(c, 0, sizeof c);
    float *pc = c;
    int n = MM_N;
    uint64_t ta = 0, tb = local[0] * local[0] * sizeof(float);
    ndrange r = {.dim = 2, .global = {MM_N, MM_N}, .local = {local[0], local[1]}, .local_arg_bytes = 2 * tb,
                 .whole = fn};
    run_kernel(exe, "mm", ARGS(&a, &b, &pc, &n, &ta, &tb), &r);
    int bad = 0;
    for (int i = 0; i < MM_N * MM_N; i++)
        bad += c[i] != ref[i];
    return bad;
}

TEST(tree_reduce)
{
    /* The tree reduction of the benchmarks; each group also writes the sizes
     * it read (get_local_size and get_enqueued_local_size, which differ in
     * a trailing group). */
    const char *src =
        "kernel void reduce(global const float *x, global float *partial, global int *sizes, local float *t) {\n"
        "  size_t l = get_local_id(0), n = get_local_size(0);\n"
        "  t[l] = x[get_global_id(0)];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  for (size_t s = n / 2; s > 0; s /= 2) {\n"
        "    if (l < s && l + s < n)\n"
        "      t[l] += t[l + s];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  if (l == 0) {\n"
        "    partial[get_group_id(0)] = t[0];\n"
        "    sizes[get_group_id(0)] = (int)(n * 1000 + get_enqueued_local_size(0));\n"
        "  }\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    enum { N = 1000 };
    static float x[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)(i % 17);
    /* 256 (3 whole groups and one of 232), 64, 16 and 8 (whole groups only) */
    size_t shapes[][2] = {{256, 1000}, {64, 960}, {16, 1000}, {8, 1000}};
    for (unsigned c = 0; c < 4; c++) {
        size_t l = shapes[c][0], g = shapes[c][1], groups = (g + l - 1) / l;
        size_t local[3] = {l, 1, 1};
        mosaic_wg_fn fn = built_for(exe, "reduce", local);
        float partial[N];
        int sizes[N];
        memset(partial, 0, sizeof partial);
        memset(sizes, 0, sizeof sizes);
        const float *px = x;
        float *pp = partial;
        int *ps = sizes;
        uint64_t t_offset = 0;
        ndrange r = {.dim = 1, .global = {g}, .local = {l}, .local_arg_bytes = l * sizeof(float), .whole = fn};
        run_kernel(exe, "reduce", ARGS(&px, &pp, &ps, &t_offset), &r);
        for (size_t grp = 0; grp < groups; grp++) {
            size_t n = g - grp * l < l ? g - grp * l : l;
            /* the tree adds in its own order; small integers are exact in float */
            float ref = 0;
            for (size_t i = 0; i < n; i++)
                ref += x[grp * l + i];
            if (n & (n - 1)) /* a trailing group of 232: the tree leaves out what no pair reaches */
                continue;
            CHECK(partial[grp] == ref, "reduce, groups of %zu: group %zu sums to %g, expected %g", l, grp,
                  partial[grp], ref);
        }
        for (size_t grp = 0; grp < groups; grp++) {
            size_t n = g - grp * l < l ? g - grp * l : l;
            CHECK(sizes[grp] == (int)(n * 1000 + l), "reduce, groups of %zu: group %zu read sizes %d, expected %zu",
                  l, grp, sizes[grp], n * 1000 + l);
        }
    }
    mosaic_executable_free(exe);
}

TEST(tiles)
{
    /* A tiled matrix product whose tile is the group (get_local_size), and
     * a 3D kernel that reads every dimension's size: 16x16, 8x8, 16x4 and
     * 4x2 groups; 4x2x3 groups. */
    const char *src =
        "kernel void mm(global const float *a, global const float *b, global float *c, int n,\n"
        "               local float *ta, local float *tb) {\n"
        "  int lx = get_local_id(0), ly = get_local_id(1), sx = get_local_size(0), sy = get_local_size(1);\n"
        "  int col = get_global_id(0), row = get_global_id(1);\n"
        "  float s = 0.0f;\n"
        "  for (int t = 0; t < n; t += sx) {\n"
        "    for (int k = ly; k < sx; k += sy) {\n"
        "      ta[ly * sx + lx] = a[row * n + t + lx];\n"
        "      tb[k * sx + lx] = b[(t + k) * n + col];\n"
        "    }\n"
        MM_MULTIPLY
        "kernel void cube(global int *out, local int *t) {\n"
        "  size_t x = get_local_id(0), y = get_local_id(1), z = get_local_id(2);\n"
        "  size_t sx = get_local_size(0), sy = get_local_size(1), sz = get_local_size(2);\n"
        "  size_t l = (z * sy + y) * sx + x, n = sx * sy * sz;\n"
        "  t[l] = (int)(x + 10 * y + 100 * z);\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  size_t g = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);\n"
        "  out[g * n + l] = t[n - 1 - l] + (int)(1000 * sx + 10000 * sy + 100000 * sz);\n"
        "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    enum { N = MM_N };
    static float a[N * N], b[N * N], ref[N * N];
    mm_operands(a, b);
    mm_reference(a, b, ref, row_major);
    size_t shapes[][2] = {{16, 16}, {8, 8}, {16, 4}, {4, 2}};
    for (unsigned s = 0; s < 4; s++) {
        size_t local[3] = {shapes[s][0], shapes[s][1], 1};
        int bad = run_mm(exe, local, a, b, ref);
        CHECK(!bad, "mm, %zux%zu groups: %d wrong of %d", local[0], local[1], bad, N * N);
    }
    size_t local[3] = {4, 2, 3};
    mosaic_wg_fn fn = built_for(exe, "cube", local);
    enum { ITEMS = 8 * 4 * 6 };
    int out[ITEMS];
    memset(out, 0, sizeof out);
    int *po = out;
    uint64_t t_offset = 0;
    ndrange r = {.dim = 3, .global = {8, 4, 6}, .local = {4, 2, 3}, .local_arg_bytes = 24 * sizeof(int), .whole = fn};
    run_kernel(exe, "cube", ARGS(&po, &t_offset), &r);
    int bad = 0;
    for (int g = 0; g < ITEMS / 24; g++)
        for (int l = 0; l < 24; l++) {
            int m = 23 - l, x = m % 4, y = m / 4 % 2, z = m / 8;
            bad += out[g * 24 + l] != x + 10 * y + 100 * z + 1000 * 4 + 10000 * 2 + 100000 * 3;
        }
    CHECK(!bad, "cube, 4x2x3 groups: %d wrong of %d (out[0] %d)", bad, ITEMS, out[0]);
    mosaic_executable_free(exe);
}

TEST(tile_address_shared_operands)
{
    /* A tiled product whose B element comes from the loop's counter through
     * 40 steps that each use the step before twice (u = (u ^ c) + u), with
     * no multiplication by a row on the way: the next tile's prefetch
     * (tile_prefetch.c) looks at each value once, so the build ends (looked
     * at once per path, it took 2^40 steps), and the product is right. */
    char src[4096];
    int at = snprintf(src, sizeof src,
                      "kernel void mm(global const float *a, global const float *b, global float *c, int n,\n"
                      "               local float *ta, local float *tb) {\n"
                      "  int lx = get_local_id(0), ly = get_local_id(1), sx = get_local_size(0);\n"
                      "  int col = get_global_id(0), row = get_global_id(1);\n"
                      "  float s = 0.0f;\n"
                      "  for (int t = 0; t < n; t += sx) {\n"
                      "    uint u = (uint)(t + ly);\n");
    for (int i = 0; i < 40; i++)
        at += snprintf(src + at, sizeof src - (size_t)at, "    u = (u ^ 0x5bd1e995u) + u;\n");
    snprintf(src + at, sizeof src - (size_t)at,
             "    ta[ly * sx + lx] = a[row * n + t + lx];\n"
             "    tb[ly * sx + lx] = b[col * n + (int)(u & (uint)(n - 1))];\n"
             MM_MULTIPLY);
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    enum { N = MM_N, L = 8 };
    static float a[N * N], b[N * N], ref[N * N];
    mm_operands(a, b);
    mm_reference(a, b, ref, hashed_column);
    size_t local[3] = {L, L, 1};
    int bad = run_mm(exe, local, a, b, ref);
    CHECK(!bad, "mm, 8x8 groups: %d wrong of %d", bad, N * N);
    mosaic_executable_free(exe);
}

TEST(which_kernels)
{
    /* Never built: a kernel without barriers, a size past the fourth of a
     * kernel, any request with `after` 0; nor anything of a program built
     * with -cl-opt-disable, or with a program-scope variable (a second
     * build would have its own copy). */
    const char *src = "kernel void plain(global int *o) { o[get_global_id(0)] = 1; }\n"
                      "kernel void bar(global int *o, local int *t) {\n"
                      "  t[get_local_id(0)] = 1;\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  o[get_global_id(0)] = t[0];\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    const mosaic_kernel_info *plain = mosaic_executable_find_kernel(exe, "plain");
    const mosaic_kernel_info *bar = mosaic_executable_find_kernel(exe, "bar");
    size_t sizes[5][3] = {{8, 1, 1}, {16, 1, 1}, {32, 1, 1}, {64, 1, 1}, {128, 1, 1}};
    CHECK(plain && !mosaic_executable_wg_for_size(exe, plain, sizes[0], 1, true).whole, "no build for a kernel without barriers");
    CHECK(bar && !mosaic_executable_wg_for_size(exe, bar, sizes[0], 0, true).whole, "no build when `after` is 0");
    for (int i = 0; i < 4; i++)
        CHECK(mosaic_executable_wg_for_size(exe, bar, sizes[i], 1, true).whole != NULL, "a build for the size %zu", sizes[i][0]);
    CHECK(!mosaic_executable_wg_for_size(exe, bar, sizes[4], 1, true).whole, "no build for a fifth size");
    mosaic_executable_free(exe);

    exe = build_program(src, "-cl-std=CL2.0 -cl-opt-disable"); /* nothing to gain */
    if (!exe)
        return;
    bar = mosaic_executable_find_kernel(exe, "bar");
    CHECK(bar && bar->wg_fn && !mosaic_executable_wg_for_size(exe, bar, sizes[0], 1, true).whole,
          "no build for a program built with -cl-opt-disable");
    mosaic_executable_free(exe);

    const char *globals = "global int counter;\n"
                          "kernel void bar(global int *o, local int *t) {\n"
                          "  t[get_local_id(0)] = counter;\n"
                          "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                          "  o[get_global_id(0)] = t[0];\n"
                          "}\n";
    exe = build_program(globals, "-cl-std=CL2.0");
    if (!exe)
        return;
    bar = mosaic_executable_find_kernel(exe, "bar");
    CHECK(bar && bar->wg_fn && !mosaic_executable_wg_for_size(exe, bar, sizes[0], 1, true).whole,
          "no build in a program with a program-scope variable");
    mosaic_executable_free(exe);
}

/* The request that starts a build in the background returns at once with
 * none but the build pending, which gives the build once it is ready
 * without a new request (a launch that began before takes it for its
 * later groups); later requests get the build too; an executable freed
 * while its builds are queued or running is freed by the last of them
 * (LSan sees a leak otherwise, and the test's exit waits for them). */
TEST(in_background)
{
    const char *src = "kernel void bar(global int *o, local int *t) {\n"
                      "  t[get_local_id(0)] = (int)get_local_id(0);\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  o[get_global_id(0)] = t[get_local_size(0) - 1 - get_local_id(0)];\n"
                      "}\n";
    mosaic_executable *exe = build_program(src, "-cl-std=CL2.0");
    if (!exe)
        return;
    const mosaic_kernel_info *bar = mosaic_executable_find_kernel(exe, "bar");
    size_t local[3] = {16, 1, 1};
    CHECK(bar && !mosaic_executable_wg_for_size(exe, bar, local, 2, false).whole, "none at the first request");
    mosaic_sized_wg started = mosaic_executable_wg_for_size(exe, bar, local, 2, false);
    CHECK(!started.whole && started.pending, "none at the request that starts the build, which is pending: "
                                             "the build is not waited for");
    mosaic_wg_fn fn = NULL, pending = NULL;
    struct timespec pause = {0, 5 * 1000 * 1000};
    for (int i = 0; i < 24000 && !pending; i++) { /* 2 minutes at most */
        pending = mosaic_sized_wg_whole(&started);
        if (!pending)
            nanosleep(&pause, NULL);
    }
    fn = mosaic_executable_wg_for_size(exe, bar, local, 2, false).whole;
    CHECK(fn && fn != bar->wg_fn, "the build for 16 once it is ready");
    CHECK(pending == fn, "the pending build gave the same K.wg once ready");
    if (fn) {
        int out[64] = {0};
        int *po = out;
        uint64_t t_offset = 0;
        ndrange r = {.dim = 1, .global = {64}, .local = {16}, .local_arg_bytes = 16 * sizeof(int), .whole = fn};
        run_kernel(exe, "bar", ARGS(&po, &t_offset), &r);
        for (int i = 0; i < 64; i++)
            CHECK(out[i] == 15 - i % 16, "bar's item %d wrote %d, expected %d", i, out[i], 15 - i % 16);
    }
    /* A child forked while a build may be queued or running: it has no
     * background thread, so its requests start one (a deadlock or a lost
     * queue shows as no build within the time). */
    size_t in_child[3] = {32, 1, 1};
    CHECK(!mosaic_executable_wg_for_size(exe, bar, in_child, 1, false).whole, "none for 32 at first");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        size_t other[3] = {8, 1, 1};
        mosaic_wg_fn child_fn = NULL;
        for (int i = 0; i < 24000 && !child_fn; i++) {
            child_fn = mosaic_executable_wg_for_size(exe, bar, other, 1, false).whole;
            if (!child_fn)
                nanosleep(&pause, NULL);
        }
        _exit(child_fn ? 0 : 1);
    }
    int status = -1;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "a forked child builds for 8 in its own background thread (status %d)", status);
    /* builds for three more sizes queued, then the executable let go */
    size_t sizes[3][3] = {{8, 1, 1}, {64, 1, 1}, {128, 1, 1}};
    for (int i = 0; i < 3; i++)
        CHECK(!mosaic_executable_wg_for_size(exe, bar, sizes[i], 1, false).whole, "none for %zu at first",
              sizes[i][0]);
    mosaic_executable_free(exe);
}

/* Exit waits for a running build 5 seconds at most: a child whose
 * background job never ends still exits, its queued job dropped. */
static void sleep_forever(void *arg)
{
    (void)arg;
    for (;;)
        pause();
}
static void count_drop(void *arg) { (*(int *)arg)++; }

TEST(exit_does_not_hang)
{
    fflush(NULL);
    double t0 = test_now_ms();
    pid_t pid = fork();
    if (pid == 0) {
        static int dropped;
        bool queued = mc_background_run(sleep_forever, count_drop, &dropped) &&
                      mc_background_run(sleep_forever, count_drop, &dropped);
        struct timespec pause_ms = {0, 100 * 1000 * 1000};
        nanosleep(&pause_ms, NULL); /* the first job running */
        exit(queued ? 0 : 3);
    }
    int status = -1;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "the child exits while its build runs (status %d)", status);
    double ms = test_now_ms() - t0;
    CHECK(ms > 4000 && ms < 30000, "it waited %.0f ms for the build (5 s expected)", ms);
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
