/* Barrier kernels as work-group functions (src/compiler/workgroup/regions.c): every
 * kernel runs both through K.wg (regions between barriers, loops over the
 * work-items) and through K.wi with one thread per work-item and a real
 * barrier, and the two must agree (and agree with the host where a reference
 * is simple).  Also: K.wg must exist (no silent fallback to fibers), the
 * optimised and -cl-opt-disable builds, non-uniform trailing groups, 3D,
 * large per-work-item storage (on the heap), and barrier divergence reports.
 * usage: test_regions [case|--list]   (test_regions.list; none: all) */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_LIST "test_regions.list"
#include "test.h"
#include "compiler/compiler.h"
#include "compiler/workgroup/regions_internal.h" /* mc_regions_test_hook */

#define ARGS(...) ((void *[]){__VA_ARGS__})

static atomic_long barrier_calls; /* by K.wi's work-items (loops_in_step_only_where_needed) */
static void wi_barrier(mosaic_wg_ctx *ctx)
{
    atomic_fetch_add(&barrier_calls, 1);
    pthread_barrier_wait((pthread_barrier_t *)ctx->device_private);
}

static atomic_int divergence_reports;
static void divergence(mosaic_wg_ctx *ctx, const char *kernel)
{
    (void)ctx;
    (void)kernel;
    atomic_fetch_add(&divergence_reports, 1);
}

static const struct mosaic_runtime_symbol symbols[] = {
    {"__mosaic_barrier", (void *)wi_barrier},
    {"__mosaic_barrier_divergence", (void *)divergence},
};

static const mosaic_compiler_target target = {
    .clang_features = "-cl-ext=-all,+cl_khr_fp64,+__opencl_c_fp64,+__opencl_c_int64,"
                      "+cl_khr_global_int32_base_atomics,+cl_khr_global_int32_extended_atomics,"
                      "+cl_khr_local_int32_base_atomics,+cl_khr_local_int32_extended_atomics,"
                      "+cl_khr_byte_addressable_store,+__opencl_c_generic_address_space,"
                      "+__opencl_c_atomic_order_acq_rel,+__opencl_c_atomic_order_seq_cst,"
                      "+__opencl_c_atomic_scope_device,+__opencl_c_atomic_scope_all_devices,"
                      "+__opencl_c_work_group_collective_functions",
    .runtime_symbols = symbols,
    .num_runtime_symbols = 2,
};

static mosaic_executable *build(const char *source, const char *options)
{
    mosaic_bitcode obj = {0}, linked = {0};
    mosaic_executable *exe = NULL;
    char *log = NULL;
    cl_int r = mosaic_compile_source(&target, source, options, 0, NULL, &obj, &log);
    if (r == CL_SUCCESS) {
        free(log);
        r = mosaic_link_bitcode(&target, 1, &obj, "", 0, &linked, &log);
    }
    if (r == CL_SUCCESS) {
        free(log);
        r = mosaic_finalize(&target, &linked, options, &exe, &log);
    }
    if (r != CL_SUCCESS)
        TEST_FAIL("build failed (%d) with '%s':\n%s", r, options ? options : "", log ? log : "");
    free(log);
    mosaic_bitcode_free(&obj);
    mosaic_bitcode_free(&linked);
    return exe;
}

typedef struct range {
    unsigned dim;
    size_t global[3], local[3];
    size_t local_bytes; /* static __local variables and __local arguments */
} range;

typedef struct wi_job {
    const mosaic_kernel_info *k;
    void **args;
    mosaic_wg_ctx *ctx;
    uint64_t id[3];
} wi_job;

static void *wi_thread(void *p)
{
    wi_job *j = p;
    j->k->wi_fn((void *const *)j->args, j->ctx, j->id[0], j->id[1], j->id[2]);
    return NULL;
}

/* Runs every work-group in order: through wg_fn (use_wg) or one thread per work-item. */
static void run(const mosaic_kernel_info *k, void **args, const range *r, int use_wg)
{
    size_t groups[3] = {1, 1, 1};
    for (unsigned d = 0; d < r->dim; d++)
        groups[d] = (r->global[d] + r->local[d] - 1) / r->local[d];
    size_t bytes = (r->local_bytes + 127) / 128 * 128 + 128;
    char *local_mem = aligned_alloc(128, bytes);
    for (size_t gz = 0; gz < groups[2]; gz++)
        for (size_t gy = 0; gy < groups[1]; gy++)
            for (size_t gx = 0; gx < groups[0]; gx++) {
                mosaic_wg_ctx ctx;
                memset(&ctx, 0, sizeof ctx);
                size_t g[3] = {gx, gy, gz};
                ctx.work_dim = r->dim;
                for (int d = 0; d < 3; d++) {
                    if ((unsigned)d < r->dim) {
                        ctx.global_size[d] = r->global[d];
                        ctx.enqueued_local_size[d] = r->local[d];
                        ctx.num_groups[d] = groups[d];
                        ctx.group_id[d] = g[d];
                        size_t left = r->global[d] - g[d] * r->local[d];
                        ctx.local_size[d] = left < r->local[d] ? left : r->local[d];
                    } else {
                        ctx.global_size[d] = ctx.enqueued_local_size[d] = ctx.num_groups[d] = ctx.local_size[d] = 1;
                    }
                }
                memset(local_mem, 0xcd, bytes);
                ctx.local_mem = local_mem;
                if (use_wg) {
                    k->wg_fn((void *const *)args, &ctx);
                    continue;
                }
                size_t n = ctx.local_size[0] * ctx.local_size[1] * ctx.local_size[2], i = 0;
                pthread_barrier_t b;
                pthread_barrier_init(&b, NULL, (unsigned)n);
                ctx.device_private = &b;
                wi_job *jobs = calloc(n, sizeof *jobs);
                pthread_t *th = calloc(n, sizeof *th);
                pthread_attr_t attr;
                pthread_attr_init(&attr);
                pthread_attr_setstacksize(&attr, 256 * 1024);
                for (uint64_t z = 0; z < ctx.local_size[2]; z++)
                    for (uint64_t y = 0; y < ctx.local_size[1]; y++)
                        for (uint64_t x = 0; x < ctx.local_size[0]; x++, i++) {
                            jobs[i] = (wi_job){k, args, &ctx, {x, y, z}};
                            if (pthread_create(&th[i], &attr, wi_thread, &jobs[i]))
                                abort();
                        }
                for (i = 0; i < n; i++)
                    pthread_join(th[i], NULL);
                pthread_attr_destroy(&attr);
                pthread_barrier_destroy(&b);
                free(jobs);
                free(th);
            }
    free(local_mem);
}

/* The two kinds of build every kernel gets. */
static const char *const builds[] = {"-cl-std=CL2.0", "-cl-std=CL2.0 -cl-opt-disable"};
enum { NUM_BUILDS = 2 };

/* Runs kernel `name` through K.wg and through K.wi from the same initial
 * `out` contents; the results must match.  Leaves K.wg's result in out. */
/* Build o (builds[]) of a kernel the widener must take whole runs at least
 * min_lanes work-items at once; the unoptimised build widens nothing. */
static void check_widened(const mosaic_executable *exe, int o, const char *kernel, unsigned min_lanes,
                          const char *what)
{
    const mosaic_kernel_info *ki = mosaic_executable_find_kernel(exe, kernel);
    CHECK(o == 1 || (ki && ki->widened_lanes >= min_lanes), "%s (%s): %u lanes", what, builds[o],
          ki ? ki->widened_lanes : 0);
}

static void compare_wg_wi(const mosaic_executable *exe, const char *opts, const char *name, void **args,
                          const range *r, void *out, size_t out_bytes, bool barriers)
{
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, name);
    CHECK(k && k->uses_barriers == barriers && k->wg_fn && k->wi_fn, "%s (%s): a %s kernel with a work-group function",
          name, opts, barriers ? "barrier" : "barrier-free");
    if (!k || !k->wg_fn)
        return;
    void *initial = malloc(out_bytes), *by_wi = malloc(out_bytes);
    memcpy(initial, out, out_bytes);
    run(k, args, r, 0);
    memcpy(by_wi, out, out_bytes);
    memcpy(out, initial, out_bytes);
    run(k, args, r, 1);
    size_t first = 0;
    while (first < out_bytes && ((char *)by_wi)[first] == ((char *)out)[first])
        first++;
    CHECK(first == out_bytes, "%s (%s): the work-group function differs from the work-items at byte %zu", name,
          opts, first);
    free(initial);
    free(by_wi);
}

static void both(const mosaic_executable *exe, const char *opts, const char *name, void **args, const range *r,
                 void *out, size_t out_bytes)
{
    compare_wg_wi(exe, opts, name, args, r, out, out_bytes, true);
}

/* The K.wg built for r's local size (mosaic_executable_wg_for_size), or NULL. */
static mosaic_wg_fn wg_for_range(mosaic_executable *exe, const char *name, const range *r)
{
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, name);
    size_t local[3] = {1, 1, 1};
    for (unsigned d = 0; d < r->dim; d++)
        local[d] = r->local[d];
    mosaic_wg_fn fn = k ? mosaic_executable_wg_for_size(exe, k, local, 1, true).whole : NULL;
    CHECK(fn, "%s: a work-group function for groups of %zux%zux%zu", name, local[0], local[1], local[2]);
    return fn;
}

/* Kernel `name` of exe with its K.wg for r's local size in *one; false
 * (exe freed) when there is none. */
static bool one_size_kernel(mosaic_executable *exe, const char *name, const range *r, mosaic_kernel_info *one)
{
    mosaic_wg_fn fn = exe ? wg_for_range(exe, name, r) : NULL;
    if (!fn) {
        mosaic_executable_free(exe);
        return false;
    }
    *one = *mosaic_executable_find_kernel(exe, name);
    one->wg_fn = fn;
    return true;
}

/* Kernel `name` of source built with options, for r's local size: run as
 * work-items (threads) and as its K.wg, each from a zeroed out (which args
 * point to), the work-items' result left in by_wi.  false when there is no
 * such build (a check has failed). */
static bool build_and_run(const char *source, const char *options, const char *name, const range *r, void **args,
                          float *out, float *by_wi, size_t bytes)
{
    mosaic_kernel_info one;
    mosaic_executable *exe = build(source, options);
    if (!one_size_kernel(exe, name, r, &one))
        return false;
    memset(out, 0, bytes);
    run(&one, args, r, 0);
    memcpy(by_wi, out, bytes);
    memset(out, 0, bytes);
    run(&one, args, r, 1);
    mosaic_executable_free(exe);
    return true;
}

/* How many of the first `count` elements of out and by_wi differ from the
 * product of n x n matrices a b (element i at row i / n, column i % n, or
 * the other way round when `transposed`); the first in *first, else -1. */
static int sgemm_wrong(const float *a, const float *b, int n, const float *out, const float *by_wi, size_t count,
                       bool transposed, int *first)
{
    int bad = 0;
    *first = -1;
    for (size_t i = 0; i < count; i++) {
        size_t row = transposed ? i % (size_t)n : i / (size_t)n, col = transposed ? i / (size_t)n : i % (size_t)n;
        float want = 0.0f;
        for (int k = 0; k < n; k++)
            want += a[row * (size_t)n + (size_t)k] * b[(size_t)k * (size_t)n + col];
        if ((out[i] != want || by_wi[i] != want) && !bad++)
            *first = (int)i;
    }
    return bad;
}

/* x[i] = (i * mul) % mod - mod / 2: small integers of both signs, exact in
 * float through products and sums, whether or not a multiply-add is fused. */
static void small_integers(float *x, int n, int mul, int mod)
{
    for (int i = 0; i < n; i++)
        x[i] = (float)((i * mul) % mod - mod / 2);
}

/* ---- the kernels -------------------------------------------------------------------- */

TEST(loop_trips)
{
    /* a barrier loop whose (uniform) trip count changes from group to group,
     * a non-uniform trailing group, and a count of zero */
    const char *src =
        "kernel void k(global const int *in, global int *out, local int *tmp, int iters) {\n"
        "  size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);\n"
        "  int acc = in[get_global_id(0)];\n"
        "  int trips = iters + (int)g;\n"
        "  for (int t = 0; t < trips; t++) {\n"
        "    tmp[l] = acc;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    acc += tmp[(l + 1) % n] * (t + 1);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  out[get_global_id(0)] = acc;\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { N = 40, L = 16 };
        int in[N], out[N], ref[N];
        for (int i = 0; i < N; i++)
            in[i] = i * 3 - 7;
        for (int iters = 0; iters < 3; iters += 2) {
            int *pi = in, *po = out;
            uint64_t off = 0;
            range r = {1, {N}, {L}, L * sizeof(int)};
            memset(out, 0, sizeof out);
            both(exe, builds[o], "k", ARGS(&pi, &po, &off, &iters), &r, out, sizeof out);
            for (int g0 = 0; g0 < N; g0 += L) {
                int n = N - g0 < L ? N - g0 : L, acc[L], tmp[L];
                for (int l = 0; l < n; l++)
                    acc[l] = in[g0 + l];
                for (int t = 0; t < iters + g0 / L; t++) {
                    for (int l = 0; l < n; l++)
                        tmp[l] = acc[l];
                    for (int l = 0; l < n; l++)
                        acc[l] += tmp[(l + 1) % n] * (t + 1);
                }
                for (int l = 0; l < n; l++)
                    ref[g0 + l] = acc[l];
            }
            CHECK(!memcmp(out, ref, sizeof out), "loop_trips (%s, iters %d): out[0] %d, expected %d", builds[o],
                  iters, out[0], ref[0]);
        }
        mosaic_executable_free(exe);
    }
}

TEST(if_else)
{
    /* different barriers on the two sides of a uniform condition */
    const char *src = "kernel void k(global const int *in, global int *out, local int *tmp) {\n"
                      "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                      "  int v = in[get_global_id(0)];\n"
                      "  if (get_group_id(0) & 1) {\n"
                      "    tmp[l] = v * 2;\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    v = tmp[n - 1 - l] + 1;\n"
                      "  } else {\n"
                      "    tmp[l] = v * 3;\n"
                      "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    v = tmp[(l + 2) % n] - 1;\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    tmp[l] = v;\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    v += tmp[0];\n"
                      "  }\n"
                      "  out[get_global_id(0)] = v;\n"
                      "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { N = 60, L = 16 };
        int in[N], out[N], ref[N];
        for (int i = 0; i < N; i++)
            in[i] = i * i - 100;
        int *pi = in, *po = out;
        uint64_t off = 0;
        range r = {1, {N}, {L}, L * sizeof(int)};
        both(exe, builds[o], "k", ARGS(&pi, &po, &off), &r, out, sizeof out);
        for (int g0 = 0; g0 < N; g0 += L) {
            int n = N - g0 < L ? N - g0 : L, tmp[L], v[L];
            for (int l = 0; l < n; l++)
                v[l] = in[g0 + l];
            if ((g0 / L) & 1) {
                for (int l = 0; l < n; l++)
                    tmp[l] = v[l] * 2;
                for (int l = 0; l < n; l++)
                    v[l] = tmp[n - 1 - l] + 1;
            } else {
                for (int l = 0; l < n; l++)
                    tmp[l] = v[l] * 3;
                for (int l = 0; l < n; l++)
                    v[l] = tmp[(l + 2) % n] - 1;
                for (int l = 0; l < n; l++)
                    tmp[l] = v[l];
                for (int l = 0; l < n; l++)
                    v[l] += tmp[0];
            }
            for (int l = 0; l < n; l++)
                ref[g0 + l] = v[l];
        }
        CHECK(!memcmp(out, ref, sizeof out), "if_else (%s)", builds[o]);
        mosaic_executable_free(exe);
    }
}

TEST(nested_loops)
{
    /* barriers at two loop depths and in a conditional inside the outer loop */
    const char *src = "kernel void k(global uint *out, local uint *tmp, int a, int b) {\n"
                      "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                      "  uint s = (uint)l + 1;\n"
                      "  for (int i = 0; i < a; i++) {\n"
                      "    for (int j = 0; j <= i % b; j++) {\n"
                      "      tmp[l] = s + j;\n"
                      "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "      s = tmp[(l + j + 1) % n] ^ (s << 1);\n"
                      "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    }\n"
                      "    if (i % 2) {\n"
                      "      tmp[l] = s;\n"
                      "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "      s += tmp[n - 1 - l];\n"
                      "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    }\n"
                      "    s = s * 3 + i;\n"
                      "  }\n"
                      "  out[get_global_id(0)] = s;\n"
                      "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { N = 24, L = 8 };
        unsigned out[N], ref[N];
        int a = 5, b = 3;
        unsigned *po = out;
        uint64_t off = 0;
        range r = {1, {N}, {L}, L * sizeof(int)};
        both(exe, builds[o], "k", ARGS(&po, &off, &a, &b), &r, out, sizeof out);
        for (int g0 = 0; g0 < N; g0 += L) {
            unsigned s[L], tmp[L];
            for (int l = 0; l < L; l++)
                s[l] = (unsigned)l + 1;
            for (int i = 0; i < a; i++) {
                for (int j = 0; j <= i % b; j++) {
                    for (int l = 0; l < L; l++)
                        tmp[l] = s[l] + (unsigned)j;
                    for (int l = 0; l < L; l++)
                        s[l] = tmp[(l + j + 1) % L] ^ (s[l] << 1);
                }
                if (i % 2) {
                    for (int l = 0; l < L; l++)
                        tmp[l] = s[l];
                    for (int l = 0; l < L; l++)
                        s[l] += tmp[L - 1 - l];
                }
                for (int l = 0; l < L; l++)
                    s[l] = s[l] * 3 + (unsigned)i;
            }
            memcpy(ref + g0, s, sizeof s);
        }
        CHECK(!memcmp(out, ref, sizeof out), "nested (%s): out[0] %u, expected %u", builds[o], out[0], ref[0]);
        mosaic_executable_free(exe);
    }
}

TEST(private_array)
{
    /* a private array indexed at run time, live across barriers */
    const char *src = "kernel void k(global const float *in, global float *out, local float *tmp) {\n"
                      "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                      "  float p[8];\n"
                      "  for (int i = 0; i < 8; i++) p[i] = in[get_global_id(0)] * i;\n"
                      "  for (int r = 0; r < 3; r++) {\n"
                      "    tmp[l] = p[(r + l) % 8];\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    p[(l + r) % 8] += tmp[(l + 1) % n];\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  }\n"
                      "  float s = 0;\n"
                      "  for (int i = 0; i < 8; i++) s += p[i] * (i + 1);\n"
                      "  out[get_global_id(0)] = s;\n"
                      "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { N = 48, L = 16 };
        float in[N], out[N], ref[N];
        for (int i = 0; i < N; i++)
            in[i] = (float)i * 0.5f;
        float *pi = in, *po = out;
        uint64_t off = 0;
        range r = {1, {N}, {L}, L * sizeof(float)};
        both(exe, builds[o], "k", ARGS(&pi, &po, &off), &r, out, sizeof out);
        for (int g0 = 0; g0 < N; g0 += L) {
            float p[L][8], tmp[L];
            for (int l = 0; l < L; l++)
                for (int i = 0; i < 8; i++)
                    p[l][i] = in[g0 + l] * (float)i;
            for (int rr = 0; rr < 3; rr++) {
                for (int l = 0; l < L; l++)
                    tmp[l] = p[l][(rr + l) % 8];
                for (int l = 0; l < L; l++)
                    p[l][(l + rr) % 8] += tmp[(l + 1) % L];
            }
            for (int l = 0; l < L; l++) {
                float s = 0;
                for (int i = 0; i < 8; i++)
                    s += p[l][i] * (float)(i + 1);
                ref[g0 + l] = s;
            }
        }
        CHECK(!memcmp(out, ref, sizeof out), "private_array (%s): out[1] %g, expected %g", builds[o], out[1], ref[1]);
        mosaic_executable_free(exe);
    }
}

TEST(local_size_loop)
{
    /* an inclusive scan whose loop runs log2(local size) times: shorter in
     * the trailing group */
    const char *src = "kernel void k(global const int *in, global int *out, local int *tmp) {\n"
                      "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                      "  tmp[l] = in[get_global_id(0)];\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  for (size_t s = 1; s < n; s *= 2) {\n"
                      "    int v = l >= s ? tmp[l - s] : 0;\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    tmp[l] += v;\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  }\n"
                      "  out[get_global_id(0)] = tmp[l];\n"
                      "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { N = 50, L = 16 };
        int in[N], out[N], ref[N];
        for (int i = 0; i < N; i++)
            in[i] = i % 7 - 2;
        int *pi = in, *po = out;
        uint64_t off = 0;
        range r = {1, {N}, {L}, L * sizeof(int)};
        both(exe, builds[o], "k", ARGS(&pi, &po, &off), &r, out, sizeof out);
        for (int i = 0; i < N; i++)
            ref[i] = (i % L ? ref[i - 1] : 0) + in[i];
        CHECK(!memcmp(out, ref, sizeof out), "scan (%s): out[49] %d, expected %d", builds[o], out[49], ref[49]);
        mosaic_executable_free(exe);
    }
}

TEST(3d)
{
    /* 3D groups, non-uniform in every dimension */
    const char *src = "kernel void k(global int *out, local int *tmp) {\n"
                      "  size_t x = get_local_id(0), y = get_local_id(1), z = get_local_id(2);\n"
                      "  size_t nx = get_local_size(0), ny = get_local_size(1), nz = get_local_size(2);\n"
                      "  size_t li = get_local_linear_id();\n"
                      "  tmp[li] = (int)(x + 10 * y + 100 * z);\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  size_t mirror = ((nz - 1 - z) * ny + (ny - 1 - y)) * nx + (nx - 1 - x);\n"
                      "  int v = tmp[mirror];\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  tmp[li] = v * 2;\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  out[get_global_linear_id()] = tmp[mirror] + 1000 * (int)get_group_id(2);\n"
                      "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { GX = 6, GY = 5, GZ = 4, LX = 4, LY = 2, LZ = 3 };
        int out[GX * GY * GZ], ref[GX * GY * GZ];
        int *po = out;
        uint64_t off = 0;
        range r = {3, {GX, GY, GZ}, {LX, LY, LZ}, LX * LY * LZ * sizeof(int)};
        memset(out, 0, sizeof out);
        both(exe, builds[o], "k", ARGS(&po, &off), &r, out, sizeof out);
        for (int gz = 0; gz < GZ; gz++)
            for (int gy = 0; gy < GY; gy++)
                for (int gx = 0; gx < GX; gx++) {
                    int x = gx % LX, y = gy % LY, z = gz % LZ;
                    int nx = gx / LX * LX + LX <= GX ? LX : GX % LX, ny = gy / LY * LY + LY <= GY ? LY : GY % LY;
                    int nz = gz / LZ * LZ + LZ <= GZ ? LZ : GZ % LZ;
                    /* tmp[mirror] after the second phase = 2 * (value at the mirror of the mirror) */
                    ref[(gz * GY + gy) * GX + gx] = 2 * (x + 10 * y + 100 * z) + 1000 * (gz / LZ);
                    (void)nx, (void)ny, (void)nz;
                }
        CHECK(!memcmp(out, ref, sizeof out), "3d (%s): out[0] %d, expected %d", builds[o], out[0], ref[0]);
        mosaic_executable_free(exe);
    }
}

TEST(scopes_and_helpers)
{
    /* work_group_barrier with scopes, global memory exchanged across a
     * barrier, a helper function with barriers called twice, and a uniform
     * early return */
    const char *src =
        "void exchange(local int *tmp, int *v) {\n"
        "  size_t l = get_local_id(0);\n"
        "  tmp[l] = *v;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  *v = tmp[get_local_size(0) - 1 - l];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "}\n"
        "kernel void k(global int *out, local int *tmp, int skip) {\n"
        "  size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);\n"
        "  if ((int)g == skip) return;\n"
        "  tmp[l] = (int)l;\n"
        "  work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);\n"
        "  int a = tmp[(l + 1) % n];\n"
        "  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_scope_device);\n"
        "  out[get_global_id(0)] = a;\n"
        "  work_group_barrier(CLK_GLOBAL_MEM_FENCE);\n"
        "  int b = out[g * n + (n - 1 - l)];\n"
        "  exchange(tmp, &b);\n"
        "  b = b * 3 + a;\n"
        "  exchange(tmp, &b);\n"
        "  out[get_global_id(0)] = b;\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { N = 32, L = 8 };
        int out[N], ref[N];
        int *po = out, skip = 2;
        uint64_t off = 0;
        range r = {1, {N}, {L}, L * sizeof(int)};
        for (int i = 0; i < N; i++)
            out[i] = -5;
        both(exe, builds[o], "k", ARGS(&po, &off, &skip), &r, out, sizeof out);
        for (int i = 0; i < N; i++) /* 4 * (the neighbour's id) of the mirrored work-item */
            ref[i] = i / L == skip ? -5 : 4 * ((L - i % L) % L);
        CHECK(!memcmp(out, ref, sizeof out), "scopes (%s): out[0] %d, expected %d", builds[o], out[0], ref[0]);
        mosaic_executable_free(exe);
    }
}

TEST(async_copy)
{
    /* async_work_group_copy in both directions and a strided copy: each
     * wait_group_events is a barrier */
    const char *src =
        "kernel void k(global const float *in, global float *out, global float *col, local float *buf) {\n"
        "  size_t n = get_local_size(0), g = get_group_id(0), l = get_local_id(0);\n"
        "  event_t e = async_work_group_copy(buf, in + g * n, n, 0);\n"
        "  wait_group_events(1, &e);\n"
        "  float v = buf[n - 1 - l] * 2.0f;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  buf[l] = v;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  e = async_work_group_copy(out + g * n, buf, n, 0);\n"
        "  wait_group_events(1, &e);\n"
        "  e = async_work_group_strided_copy(col + g, buf, n, get_num_groups(0), 0);\n"
        "  wait_group_events(1, &e);\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { N = 64, L = 16, G = N / L };
        float in[N], out[2 * N];
        for (int i = 0; i < N; i++)
            in[i] = (float)i;
        float *pi = in, *po = out, *pc = out + N;
        uint64_t off = 0;
        range r = {1, {N}, {L}, L * sizeof(float)};
        memset(out, 0, sizeof out);
        both(exe, builds[o], "k", ARGS(&pi, &po, &pc, &off), &r, out, sizeof out);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            int g = i / L, l = i % L;
            bad += out[i] != 2.0f * in[g * L + L - 1 - l];
            bad += out[N + l * G + g] != out[i];
        }
        CHECK(bad == 0, "async (%s): %d wrong", builds[o], bad);
        mosaic_executable_free(exe);
    }
}

TEST(vectors_structs_switch)
{
    /* vector and struct values live across barriers; barriers in the cases of
     * a (uniform) switch */
    const char *src = "typedef struct { float4 a; int b; } S;\n"
                      "kernel void k(global const float4 *in, global float4 *out, local float4 *tmp, S s, int mode) {\n"
                      "  size_t l = get_local_id(0), n = get_local_size(0), gid = get_global_id(0);\n"
                      "  float4 v = in[gid] * s.a;\n"
                      "  int k = s.b + (int)l;\n"
                      "  S mine = s;\n"
                      "  mine.b += (int)l;\n"
                      "  switch ((mode + (int)get_group_id(0)) % 3) {\n"
                      "  case 0:\n"
                      "    tmp[l] = v;\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    v = tmp[(l + (size_t)k) % n] + v;\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    break;\n"
                      "  case 1:\n"
                      "    v += 5.0f;\n"
                      "    break;\n"
                      "  default:\n"
                      "    for (int i = 0; i < 2; i++) {\n"
                      "      tmp[l] = v.wzyx + (float)i;\n"
                      "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "      v += tmp[(l + 1) % n];\n"
                      "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    }\n"
                      "  }\n"
                      "  tmp[l] = v.wzyx;\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  out[gid] = tmp[(l + 1) % n] + (float4)((float)mine.b, mine.a.x, 0.0f, (float)k);\n"
                      "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { N = 40, L = 8 };
        float in[N * 4], out[N * 4];
        for (int i = 0; i < N * 4; i++)
            in[i] = (float)(i % 13) - 4.0f;
        struct {
            float a[4];
            int b;
            int pad[3];
        } s = {{1.0f, 2.0f, -1.0f, 0.5f}, 3, {0}};
        float *pi = in, *po = out;
        uint64_t off = 0;
        int mode = 1;
        range r = {1, {N}, {L}, L * 4 * sizeof(float)};
        memset(out, 0, sizeof out);
        both(exe, builds[o], "k", ARGS(&pi, &po, &off, &s, &mode), &r, out, sizeof out);
        mosaic_executable_free(exe);
    }
}

TEST(local_atomics)
{
    /* a histogram in __local memory with atomics between barriers */
    const char *src = "kernel void k(global const int *in, global int *out, local int *bins) {\n"
                      "  size_t l = get_local_id(0);\n"
                      "  if (l < 8) bins[l] = 0;\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  atomic_add(&bins[in[get_global_id(0)] & 7], 1);\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  if (l < 8) out[get_group_id(0) * 8 + l] = bins[l];\n"
                      "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { N = 64, L = 32 };
        int in[N], out[16] = {0}, ref[16] = {0};
        for (int i = 0; i < N; i++) {
            in[i] = i * 5 + i / 3;
            ref[(i / L) * 8 + (in[i] & 7)]++;
        }
        int *pi = in, *po = out;
        uint64_t off = 0;
        range r = {1, {N}, {L}, 8 * sizeof(int)};
        both(exe, builds[o], "k", ARGS(&pi, &po, &off), &r, out, sizeof out);
        CHECK(!memcmp(out, ref, sizeof out), "histogram (%s)", builds[o]);
        mosaic_executable_free(exe);
    }
}

TEST(large_private)
{
    /* 2400 bytes per work-item live across a barrier: with 1024 work-items
     * the storage is on the heap */
    const char *src = "kernel void k(global const int *in, global int *out, local int *tmp) {\n"
                      "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                      "  int p[600];\n"
                      "  for (int i = 0; i < 600; i++) p[i] = in[get_global_id(0)] + i;\n"
                      "  tmp[l] = p[l % 600];\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  out[get_global_id(0)] = p[(l * 7) % 600] + tmp[(l + 1) % n];\n"
                      "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "k");
        CHECK(k && k->wg_fn, "large_private (%s): a work-group function", builds[o]);
        enum { N = 2048, L = 1024 };
        int *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
        for (int i = 0; i < N; i++)
            in[i] = i * 11;
        int *pi = in, *po = out;
        uint64_t off = 0;
        range r = {1, {N}, {L}, L * sizeof(int)};
        if (k && k->wg_fn)
            run(k, ARGS(&pi, &po, &off), &r, 1);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            int l = i % L, g0 = i - l;
            bad += out[i] != in[i] + (l * 7) % 600 + in[g0 + (l + 1) % L] + (l + 1) % L % 600;
        }
        CHECK(bad == 0, "large_private (%s): %d wrong", builds[o], bad);
        free(in);
        free(out);
        mosaic_executable_free(exe);
    }
}

TEST(divergence)
{
    /* a barrier only some work-items reach: undefined in OpenCL; the
     * work-group function must end and report it */
    const char *src = "kernel void k(global int *out, local int *tmp) {\n"
                      "  size_t l = get_local_id(0);\n"
                      "  if (l < 3) {\n"
                      "    tmp[l] = 1;\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  }\n"
                      "  out[get_global_id(0)] = 1;\n"
                      "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "k");
        CHECK(k && k->wg_fn, "divergence (%s): a work-group function", builds[o]);
        int out[16] = {0}, *po = out;
        uint64_t off = 0;
        range r = {1, {16}, {8}, 8 * sizeof(int)};
        atomic_store(&divergence_reports, 0);
        if (k && k->wg_fn)
            run(k, ARGS(&po, &off), &r, 1);
        CHECK(atomic_load(&divergence_reports) == 2, "divergence (%s): %d reports for 2 groups", builds[o],
              atomic_load(&divergence_reports));
        mosaic_executable_free(exe);
    }
}

/* Sub-groups: K.wg runs each region for the whole group while every
 * sub-group is at the same place, else one sub-group at a time from where
 * its work-items stopped.  Sub-groups may reach different sub-group
 * functions (or none); work-items of one sub-group that disagree are
 * reported.  Groups of 16 (whole sub-groups in each row: the uniform copies,
 * then the fallback) and of 12 (a partial sub-group: one at a time). */
static void sg_barrier(mosaic_wg_ctx *ctx) { (void)ctx; }

static const struct mosaic_runtime_symbol sg_symbols[] = {
    {"__mosaic_barrier", (void *)wi_barrier},
    {"__mosaic_sub_group_barrier", (void *)sg_barrier},
    {"__mosaic_barrier_divergence", (void *)divergence},
};

TEST(sub_group_divergence)
{
    mosaic_compiler_target sg_target = target;
    sg_target.clang_features = "-cl-ext=-all,+__opencl_c_subgroups,+__opencl_c_int64";
    sg_target.runtime_symbols = sg_symbols;
    sg_target.num_runtime_symbols = 3;
    const char *src = "kernel void k(global int *out, int split) {\n"
                      "  int v = -1;\n"
                      "  if (split == 2 || (split ? get_sub_group_local_id() < 3 : get_sub_group_id() == 1))\n"
                      "    v = sub_group_reduce_add((int)get_local_id(0));\n"
                      "  out[get_global_id(0)] = v;\n"
                      "}\n";
    const char *opts[2] = {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"};
    for (int o = 0; o < 2; o++) {
        mosaic_bitcode obj = {0}, linked = {0};
        mosaic_executable *exe = NULL;
        char *log = NULL;
        cl_int r = mosaic_compile_source(&sg_target, src, opts[o], 0, NULL, &obj, &log);
        if (r == CL_SUCCESS) {
            free(log);
            r = mosaic_link_bitcode(&sg_target, 1, &obj, "", 0, &linked, &log);
        }
        if (r == CL_SUCCESS) {
            free(log);
            r = mosaic_finalize(&sg_target, &linked, opts[o], &exe, &log);
        }
        CHECK(r == CL_SUCCESS, "sub_group_divergence (%s): build failed (%d):\n%s", opts[o], r, log ? log : "");
        free(log);
        mosaic_bitcode_free(&obj);
        mosaic_bitcode_free(&linked);
        const mosaic_kernel_info *k = exe ? mosaic_executable_find_kernel(exe, "k") : NULL;
        CHECK(k && k->wg_fn, "sub_group_divergence (%s): a work-group function", opts[o]);
        for (int split = 0; split < 3 && k && k->wg_fn; split++)
            for (size_t local = 12; local <= 16; local += 4) {
                int out[32], *po = out;
                memset(out, 0x55, sizeof out);
                char *scratch = malloc(MOSAIC_WG_SCRATCH_SIZE(local));
                atomic_store(&divergence_reports, 0);
                for (size_t g = 2; g-- > 0;) { /* the last group first: the first must not write past its own */
                    mosaic_wg_ctx ctx;
                    memset(&ctx, 0, sizeof ctx);
                    ctx.work_dim = 1;
                    for (int d = 0; d < 3; d++)
                        ctx.global_size[d] = ctx.enqueued_local_size[d] = ctx.local_size[d] = ctx.num_groups[d] = 1;
                    ctx.global_size[0] = 2 * local;
                    ctx.enqueued_local_size[0] = ctx.local_size[0] = local;
                    ctx.num_groups[0] = 2;
                    ctx.group_id[0] = g;
                    ctx.wg_scratch = scratch;
                    k->wg_fn(ARGS(&po, &split), &ctx);
                }
                free(scratch);
                int reports = atomic_load(&divergence_reports);
                if (split == 1) {
                    CHECK(reports >= 2, "sub_group_divergence (%s): groups of %zu, %d reports for 2 groups", opts[o],
                          local, reports);
                    continue;
                }
                CHECK(reports == 0, "sub_group_divergence (%s): groups of %zu, %d reports", opts[o], local, reports);
                for (size_t w = 0; w < 2 * local; w++) {
                    size_t l = w % local;
                    /* split 0: sub-group 1 reduces, the others keep -1; split 2: all reduce */
                    int want = 0;
                    for (size_t j = l / 8 * 8; j < local && j < l / 8 * 8 + 8; j++)
                        want += (int)j;
                    want = split == 2 || l / 8 == 1 ? want : -1;
                    CHECK(out[w] == want, "sub_group_divergence (%s): groups of %zu, work-item %zu: %d, want %d",
                          opts[o], local, w, out[w], want);
                }
            }
        mosaic_executable_free(exe);
    }
}

TEST(odd_shapes)
{
    /* a barrier first and last, two in a row, a loop left by a break after
     * its barrier, and a loop whose exit is read from __local memory */
    const char *src = "kernel void k(global int *out, local int *tmp, local int *flag, int limit) {\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  size_t l = get_local_id(0), n = get_local_size(0);\n"
                      "  int v = (int)get_global_id(0);\n"
                      "  tmp[l] = v;\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
                      "  v += tmp[(l + 3) % n];\n"
                      "  int i = 0;\n"
                      "  while (1) {\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    tmp[l] = v + i;\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    if (++i >= limit) break;\n"
                      "    v ^= tmp[(l + i) % n];\n"
                      "  }\n"
                      "  int rounds = 0;\n"
                      "  do {\n"
                      "    if (l == 0) *flag = rounds >= 3 || tmp[rounds] > 1000;\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    rounds++;\n"
                      "    v += rounds;\n"
                      "    int stop = *flag;\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    if (stop) break;\n"
                      "  } while (1);\n"
                      "  out[get_global_id(0)] = v * 100 + rounds;\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "k");
        enum { N = 36, L = 12 };
        int out[N], *po = out, limit = 4;
        uint64_t off = 0, flag = L * sizeof(int) + 128 - L * sizeof(int) % 128;
        (void)k;
        range r = {1, {N}, {L}, flag + 4};
        memset(out, 0, sizeof out);
        both(exe, builds[o], "k", ARGS(&po, &off, &flag, &limit), &r, out, sizeof out);
        CHECK(out[0] % 100 == 4, "odd_shapes (%s): out[0] %d", builds[o], out[0]);
        mosaic_executable_free(exe);
    }
}

TEST(uniform_loops)
{
    /* Loops every work-item of a group stays in or leaves together, without
     * barriers: their control runs once per group (regions.c cuts), their
     * bodies as loops over the work-items.  Trip counts from an argument
     * (zero too), from the group id, nested, a uniform break, a divergent
     * branch inside, the counter used after the loop, a private array. */
    const char *src =
        "kernel void k(global const float *in, global float *out, int iters, int stop) {\n"
        "  size_t i = get_global_id(0), l = get_local_id(0);\n"
        "  float v = in[i], c = 0.25f + 0.001f * (float)l, acc[3] = {0, 0, 0};\n"
        "  int t = 0;\n"
        "  for (; t < iters + (int)get_group_id(0); t++) {\n"
        "    if (t == stop) break;\n"
        "    v = v * 0.5f + c;\n"
        "    if (l & 1) v += 1.0f;\n"
        "    for (int u = 0; u < iters; u++)\n"
        "      acc[u % 3] += v * (float)u;\n"
        "  }\n"
        "  out[i] = v + (float)t + acc[0] - acc[1] + 2.0f * acc[2];\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "k");
        /* cut, the loop over work-items is innermost and vectorised (without -cl-opt-disable) */
        CHECK(o == 1 || (k && k->vectorised_loops > 0), "uniform_loops (%s): %u loops vectorised", builds[o],
              k ? k->vectorised_loops : 0);
        enum { N = 53, L = 20 };
        float in[N], out[N], ref[N];
        for (int i = 0; i < N; i++)
            in[i] = (float)(i % 7) - 3.0f;
        int cases[][2] = {{0, 100}, {5, 100}, {37, 100}, {37, 9}, {3, 0}};
        for (unsigned c = 0; c < sizeof cases / sizeof *cases; c++) {
            int iters = cases[c][0], stop = cases[c][1];
            float *pi = in, *po = out;
            range r = {1, {N}, {L}, 0};
            memset(out, 0, sizeof out);
            compare_wg_wi(exe, builds[o], "k", ARGS(&pi, &po, &iters, &stop), &r, out, sizeof out, false);
            for (int i = 0; i < N; i++) {
                int l = i % L, t = 0;
                float v = in[i], cc = 0.25f + 0.001f * (float)l, acc[3] = {0, 0, 0};
                for (; t < iters + i / L; t++) {
                    if (t == stop)
                        break;
                    v = v * 0.5f + cc;
                    if (l & 1)
                        v += 1.0f;
                    for (int u = 0; u < iters; u++)
                        acc[u % 3] += v * (float)u;
                }
                ref[i] = v + (float)t + acc[0] - acc[1] + 2.0f * acc[2];
            }
            int bad = -1;
            for (int i = 0; i < N && bad < 0; i++)
                if (fabsf(out[i] - ref[i]) > 1e-3f * (1.0f + fabsf(ref[i])))
                    bad = i;
            CHECK(bad < 0, "uniform_loops (%s, iters %d, stop %d): out[%d] %g, expected %g", builds[o], iters, stop,
                  bad, bad < 0 ? 0.0 : (double)out[bad], bad < 0 ? 0.0 : (double)ref[bad]);
        }
        mosaic_executable_free(exe);
    }
}

TEST(uniform_loops_with_barriers)
{
    /* A tree reduction and a doubling scan whose step lives across barriers
     * (read once per region), the step and a uniform sum used after the
     * loops, a uniform loop without barriers between two barriers, and a
     * 2D group with a partial last one. */
    const char *src =
        "kernel void k(global const int *in, global int *out, local int *tmp, int rounds) {\n"
        "  size_t lx = get_local_id(0), ly = get_local_id(1), nx = get_local_size(0), ny = get_local_size(1);\n"
        "  size_t l = ly * nx + lx, n = nx * ny;\n"
        "  int v = in[get_global_id(1) * get_global_size(0) + get_global_id(0)], s = 1, total = 0;\n"
        "  for (int r = 0; r < rounds; r++) {\n"
        "    tmp[l] = v;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    for (s = 1; s < (int)n; s *= 2) {\n"
        "      int x = l >= (size_t)s ? tmp[l - s] : 0;\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      tmp[l] += x;\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    }\n"
        "    int sum = 0;\n"
        "    for (int j = 0; j < rounds * 3 + 1; j++)\n"
        "      sum += tmp[(l + (size_t)j) % n];\n"
        "    total += r;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    v = sum - tmp[l];\n"
        "  }\n"
        "  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = v * 8 + s + total;\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { W = 12, H = 7, LX = 4, LY = 3 };
        int in[W * H], out[W * H], ref[W * H];
        for (int i = 0; i < W * H; i++)
            in[i] = (i * 5) % 11 - 4;
        for (int rounds = 0; rounds < 4; rounds += 3) {
            int *pi = in, *po = out;
            uint64_t off = 0;
            range r = {2, {W, H}, {LX, LY}, LX * LY * sizeof(int)};
            memset(out, 0, sizeof out);
            both(exe, builds[o], "k", ARGS(&pi, &po, &off, &rounds), &r, out, sizeof out);
            for (int gy = 0; gy < H; gy += LY)
                for (int gx = 0; gx < W; gx += LX) {
                    int ny = H - gy < LY ? H - gy : LY, nx = LX, n = nx * ny, s = 1, total = 0;
                    int v[LX * LY], tmp[LX * LY], next[LX * LY];
                    for (int l = 0; l < n; l++)
                        v[l] = in[(gy + l / nx) * W + gx + l % nx];
                    for (int rr = 0; rr < rounds; rr++) {
                        memcpy(tmp, v, sizeof tmp);
                        for (s = 1; s < n; s *= 2) {
                            memcpy(next, tmp, sizeof next);
                            for (int l = s; l < n; l++)
                                next[l] += tmp[l - s];
                            memcpy(tmp, next, sizeof tmp);
                        }
                        for (int l = 0; l < n; l++) {
                            int sum = 0;
                            for (int j = 0; j < rr * 0 + rounds * 3 + 1; j++)
                                sum += tmp[(l + j) % n];
                            v[l] = sum - tmp[l];
                        }
                        total += rr;
                    }
                    for (int l = 0; l < n; l++)
                        ref[(gy + l / nx) * W + gx + l % nx] = v[l] * 8 + s + total;
                }
            CHECK(!memcmp(out, ref, sizeof out), "uniform_loops_with_barriers (%s, rounds %d): out[0] %d, expected %d",
                  builds[o], rounds, out[0], ref[0]);
        }
        mosaic_executable_free(exe);
    }
}

/* Host twin of the divergent_loops kernel. */
static int divergent_ref(int v, int l, int limit, int *extra)
{
    int n = 0, x = v;
    while (n < limit && x != 1) { /* Collatz steps: a different count per work-item */
        x = (x & 1) ? 3 * x + 1 : x / 2;
        n++;
        if (x == 40)
            break;
    }
    int e = 0;
    for (int r = 0; r < 3; r++) /* a uniform loop around a divergent one */
        for (int k = 0; k < (l + r) % 5; k++)
            e += k * r;
    *extra = e;
    return n * 100 + x;
}

TEST(divergent_loops)
{
    /* Loops that work-items leave in different iterations run in masked
     * mode: each pass over the group runs the work-items still in the loop.
     * A while loop with a data-dependent count and a break, a divergent loop
     * inside a uniform one, an early return, zero iterations; 2D groups
     * whose rows are not a multiple of the vector width. */
    const char *src =
        "kernel void k(global const int *in, global int *out, global int *extra, int limit) {\n"
        "  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
        "  int l = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));\n"
        "  int v = in[i];\n"
        "  if (v < 0) { out[i] = -1; return; }\n"
        "  int n = 0, x = v;\n"
        "  while (n < limit && x != 1) {\n"
        "    x = (x & 1) ? 3 * x + 1 : x / 2;\n"
        "    n++;\n"
        "    if (x == 40) break;\n"
        "  }\n"
        "  int e = 0;\n"
        "  for (int r = 0; r < 3; r++)\n"
        "    for (int k = 0; k < (l + r) % 5; k++)\n"
        "      e += k * r;\n"
        "  extra[i] = e;\n"
        "  out[i] = n * 100 + x;\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { W = 21, H = 5, LX = 7, LY = 5, N = W * H };
        int in[N], out[N], extra[N], ref[N], ref_extra[N];
        for (int i = 0; i < N; i++)
            in[i] = i % 13 == 5 ? -3 : (i * 37) % 97 + 1;
        for (int limit = 0; limit < 200; limit += 150) {
            int *pi = in, *po = out, *pe = extra;
            range r = {2, {W, H}, {LX, LY}, 0};
            memset(out, 0, sizeof out);
            memset(extra, 0, sizeof extra);
            compare_wg_wi(exe, builds[o], "k", ARGS(&pi, &po, &pe, &limit), &r, out, sizeof out, false);
            /* extra[] too, from the K.wg run that compare_wg_wi left */
            for (int i = 0; i < N; i++) {
                int gx = i % W, gy = i / W, l = (gy % LY) * LX + gx % LX, e = 0;
                if (in[i] < 0) {
                    ref[i] = -1;
                    ref_extra[i] = 0;
                    continue;
                }
                int lim = limit, v = in[i];
                ref[i] = divergent_ref(v, l, lim, &e);
                ref_extra[i] = e;
            }
            CHECK(!memcmp(out, ref, sizeof out), "divergent_loops (%s, limit %d): out[0] %d, expected %d", builds[o],
                  limit, out[0], ref[0]);
            CHECK(!memcmp(extra, ref_extra, sizeof extra), "divergent_loops (%s, limit %d): extra differs", builds[o],
                  limit);
        }
        mosaic_executable_free(exe);
    }
}

TEST(loop_few_enter)
{
    /* A loop only the work-items equal to a shared value enter (the CTS's
     * image allocation kernel: each row written by the work-item whose id
     * the row is) stays inside the loop over work-items: cut (masked mode),
     * each of its iterations would be a pass over the whole group for the
     * one work-item in it (implicit_barriers.c, entered_by_few).  A loop
     * under a bounds check (< instead of ==) is still cut. */
    const char *src =
        "kernel void rows(global uint *out, uint stride, int h, int w) {\n"
        "  for (int y = 0; y < h; y++)\n"
        "    if (y % stride == get_global_id(0))\n"
        "      for (int x = 0; x < w; x++)\n"
        "        out[y * w + x] = x * y + 1;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "}\n"
        "kernel void guarded(global uint *out, uint stride, int h, int w) {\n"
        "  if (get_global_id(0) < stride / 2)\n"
        "    for (int x = 0; x < w + (int)get_global_id(0) % 3; x++)\n"
        "      out[get_global_id(0) * (w + 2) + x] = x + 1;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        char said[8192];
        test_stderr_capture c;
        bool capturing = o == 0 && test_capture_stderr(&c);
        if (capturing) { /* what the build says, made now: not from the cache */
            setenv("MOSAIC_DEBUG", "build", 1);
            setenv("MOSAIC_CACHE", "0", 1);
            mosaic_settings_reload();
        }
        mosaic_executable *exe = build(src, builds[o]);
        if (capturing) {
            test_captured_stderr(&c, said, sizeof said);
            unsetenv("MOSAIC_DEBUG");
            unsetenv("MOSAIC_CACHE");
            mosaic_settings_reload();
            const char *rows = strstr(said, "kernel rows.wi: "), *guarded = strstr(said, "kernel guarded.wi: ");
            const char *rows_end = rows ? strchr(rows, '\n') : NULL;
            CHECK(rows && rows_end, "no summary of rows: %s", said);
            CHECK(!rows || !rows_end || !memmem(rows, (size_t)(rows_end - rows), "masked", 6),
                  "the loop few enter was cut: %.*s", rows_end ? (int)(rows_end - rows) : 0, rows ? rows : "");
            CHECK(guarded && strstr(guarded, "masked"), "the guarded loop was not cut: %s", said);
        }
        if (!exe)
            continue;
        enum { H = 40, W = 37, G = 16, L = 8 };
        unsigned out[H * W];
        unsigned stride = G;
        int h = H, w = W;
        void *po = out;
        range r = {1, {G}, {L}, 0};
        memset(out, 0, sizeof out);
        compare_wg_wi(exe, builds[o], "rows", ARGS(&po, &stride, &h, &w), &r, out, sizeof out, true);
        int bad = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                bad += out[y * W + x] != (unsigned)(x * y + 1); /* every row is some work-item's */
        CHECK(!bad, "rows (%s): %d wrong", builds[o], bad);
        mosaic_executable_free(exe);
    }
}

TEST(divergent_loops_with_barriers)
{
    /* Divergent loops between barriers, with values that live across both
     * the barriers and the loops, inside a uniform loop. */
    const char *src =
        "kernel void k(global const int *in, global int *out, local int *tmp, int rounds) {\n"
        "  size_t l = get_local_id(0), n = get_local_size(0);\n"
        "  int v = in[get_global_id(0)], acc = 0;\n"
        "  for (int r = 0; r < rounds; r++) {\n"
        "    int x = v + r, steps = 0;\n"
        "    while (x > 1 && steps < 60) { x = (x & 1) ? 3 * x + 1 : x / 2; steps++; }\n"
        "    tmp[l] = steps;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    int m = tmp[(l + 1) % n];\n"
        "    for (int k = (int)l; k < m; k += 3) acc += k;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    acc += m * 2 + steps;\n"
        "  }\n"
        "  out[get_global_id(0)] = acc;\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { N = 45, L = 15 };
        int in[N], out[N], ref[N];
        for (int i = 0; i < N; i++)
            in[i] = (i * 29) % 53;
        for (int rounds = 0; rounds < 5; rounds += 4) {
            int *pi = in, *po = out;
            uint64_t off = 0;
            range r = {1, {N}, {L}, L * sizeof(int)};
            memset(out, 0, sizeof out);
            both(exe, builds[o], "k", ARGS(&pi, &po, &off, &rounds), &r, out, sizeof out);
            for (int g0 = 0; g0 < N; g0 += L) {
                int acc[L] = {0}, steps[L];
                for (int rr = 0; rr < rounds; rr++) {
                    for (int l = 0; l < L; l++) {
                        int x = in[g0 + l] + rr, s = 0;
                        while (x > 1 && s < 60) {
                            x = (x & 1) ? 3 * x + 1 : x / 2;
                            s++;
                        }
                        steps[l] = s;
                    }
                    for (int l = 0; l < L; l++) {
                        int m = steps[(l + 1) % L];
                        for (int k = l; k < m; k += 3)
                            acc[l] += k;
                        acc[l] += m * 2 + steps[l];
                    }
                }
                for (int l = 0; l < L; l++)
                    ref[g0 + l] = acc[l];
            }
            CHECK(!memcmp(out, ref, sizeof out), "divergent_loops_with_barriers (%s, rounds %d): out[0] %d, expected %d",
                  builds[o], rounds, out[0], ref[0]);
        }
        mosaic_executable_free(exe);
    }
}

TEST(narrowed_x_range)
{
    /* "if (lx < u)" at a region's start, u uniform: the region's x loops
     * stop at min(size, u) (regions.c, narrow_x_range); u of 0, inside the
     * group and beyond it, on groups of 2D rows, the tree reduction, and
     * "if (lx == 0)" too. */
    const char *src =
        "kernel void k(global const int *in, global int *out, local int *tmp, int extra) {\n"
        "  size_t lx = get_local_id(0), ly = get_local_id(1), nx = get_local_size(0);\n"
        "  size_t l = ly * nx + lx;\n"
        "  size_t gid = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
        "  uint u = (uint)get_group_id(0) * 2 + (uint)extra;\n"
        "  tmp[l] = in[gid];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  if (lx < u)\n"
        "    tmp[l] += 100 * (int)u;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  for (size_t s = nx / 2; s > 0; s /= 2) {\n"
        "    if (lx < s)\n"
        "      tmp[l] += tmp[l + s];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  if (lx == 0)\n"
        "    tmp[l] = tmp[l] * 3 + 1;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  out[gid] = tmp[l] + (l == 0 ? 7 : 0);\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { W = 24, H = 4, LX = 8, LY = 2, N = W * H };
        int in[N], out[N], ref[N];
        for (int i = 0; i < N; i++)
            in[i] = (i * 7) % 19 - 9;
        for (int extra = 0; extra < 12; extra += 5) {
            int *pi = in, *po = out;
            uint64_t off = 0;
            range r = {2, {W, H}, {LX, LY}, LX * LY * sizeof(int)};
            memset(out, 0, sizeof out);
            both(exe, builds[o], "k", ARGS(&pi, &po, &off, &extra), &r, out, sizeof out);
            for (int gy = 0; gy < H / LY; gy++)
                for (int gx = 0; gx < W / LX; gx++) {
                    int tmp[LX * LY], n = LX * LY;
                    unsigned u = (unsigned)gx * 2 + (unsigned)extra;
                    for (int l = 0; l < n; l++) {
                        int x = gx * LX + l % LX, y = gy * LY + l / LX;
                        tmp[l] = in[y * W + x] + ((unsigned)(l % LX) < u ? 100 * (int)u : 0);
                    }
                    for (int s2 = LX / 2; s2 > 0; s2 /= 2)
                        for (int l = 0; l < n; l++)
                            if (l % LX < s2)
                                tmp[l] += tmp[l + s2];
                    for (int l = 0; l < n; l += LX)
                        tmp[l] = tmp[l] * 3 + 1;
                    for (int l = 0; l < n; l++) {
                        int x = gx * LX + l % LX, y = gy * LY + l / LX;
                        ref[y * W + x] = tmp[l] + (l == 0 ? 7 : 0);
                    }
                }
            CHECK(!memcmp(out, ref, sizeof out), "narrowed_x_range (%s, extra %d): out[0] %d, expected %d",
                  builds[o], extra, out[0], ref[0]);
        }
        mosaic_executable_free(exe);
    }
}

TEST(barriers_make_uniform)
{
    /* A branch on a test of the local id whose both ways hold barriers: the
     * work-items must all take the same way (OpenCL), so the loops behind it
     * are uniform (uniformity.c, barrier_on_every_way) and their control runs
     * once.  The test holds for the whole group here, as such kernels ensure
     * (a tile-size check). */
    const char *src =
        "kernel void k(global const int *in, global int *out, local int *tmp, int limit, int rounds) {\n"
        "  size_t l = get_local_id(0), n = get_local_size(0);\n"
        "  int v = in[get_global_id(0)];\n"
        "  if ((int)l < limit) {\n"
        "    for (int r = 0; r < rounds; r++) {\n"
        "      tmp[l] = v;\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      v += tmp[(l + 1) % n] * (r + 1);\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    }\n"
        "  } else {\n"
        "    for (int r = 0; r < rounds; r++) {\n"
        "      tmp[l] = v;\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      v -= tmp[(l + n - 1) % n];\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    }\n"
        "  }\n"
        "  out[get_global_id(0)] = v;\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { N = 48, L = 16 };
        int in[N], out[N], ref[N];
        for (int i = 0; i < N; i++)
            in[i] = (i * 5) % 17 - 6;
        for (int c = 0; c < 2; c++) {
            int limit = c ? 0 : 1000, rounds = 37; /* every work-item one way, then the other */
            int *pi = in, *po = out;
            uint64_t off = 0;
            range r = {1, {N}, {L}, L * sizeof(int)};
            memset(out, 0, sizeof out);
            both(exe, builds[o], "k", ARGS(&pi, &po, &off, &limit, &rounds), &r, out, sizeof out);
            for (int g0 = 0; g0 < N; g0 += L) {
                int v[L], tmp[L];
                for (int l = 0; l < L; l++)
                    v[l] = in[g0 + l];
                for (int rr = 0; rr < rounds; rr++) {
                    memcpy(tmp, v, sizeof tmp);
                    for (int l = 0; l < L; l++)
                        v[l] += c ? -tmp[(l + L - 1) % L] : tmp[(l + 1) % L] * (rr + 1);
                }
                memcpy(&ref[g0], v, sizeof v);
            }
            CHECK(!memcmp(out, ref, sizeof out), "barriers_make_uniform (%s, limit %d): out[0] %d, expected %d",
                  builds[o], limit, out[0], ref[0]);
        }
        mosaic_executable_free(exe);
    }
}

TEST(vector_rows)
{
    /* A region with a floating-point chain in a loop (regions.c,
     * build_vector_rows) has copies for groups whose rows are 8 or 16
     * work-items: 16x4 and 16x1 groups take one, 8x2 groups the other, 5x3
     * groups the ordinary loops.  The chain reads other work-items' __local values, its
     * result crosses two more barriers; the loop's trip count is a constant
     * (a loop of the kernel's own would be cut at its iterations).  The
     * values are small integers and halves, exact in float whether or not
     * the multiply-add is fused. */
    const char *src =
        "kernel void rows(global const float *in, global float *out, local float *t, int k) {\n"
        "  int lx = get_local_id(0), ly = get_local_id(1), sx = get_local_size(0), sy = get_local_size(1);\n"
        "  int g = get_group_id(1) * get_num_groups(0) + get_group_id(0), l = ly * sx + lx;\n"
        "  t[l] = in[(g * 13 + l) % 97];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  float s = 1.0f;\n"
        "  for (int j = 0; j < 7; j++)\n"
        "    s = s * 0.5f + t[ly * sx + (lx + j) % sx] * t[((ly + j) % sy) * sx + lx] * k;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  t[l] = s;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  out[g * sx * sy + l] = s + t[((ly + 1) % sy) * sx + lx];\n"
        "}\n";
    float in[97];
    small_integers(in, 97, 29, 21);
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        size_t shapes[][4] = {{16, 4, 32, 8}, {16, 1, 32, 3}, {8, 2, 32, 8}, {5, 3, 15, 9}};
        for (unsigned c = 0; c < sizeof shapes / sizeof *shapes; c++)
            for (int k = 1; k <= 3; k += 2) {
                enum { MAX = 32 * 9 };
                size_t lx = shapes[c][0], ly = shapes[c][1], gx = shapes[c][2], gy = shapes[c][3];
                float out[MAX], ref[MAX];
                memset(out, 0, sizeof out);
                memset(ref, 0, sizeof ref);
                const float *pi = in;
                float *po = out;
                uint64_t t_offset = 0;
                int kk = k;
                range r = {2, {gx, gy}, {lx, ly}, lx * ly * sizeof(float)};
                both(exe, builds[o], "rows", ARGS(&pi, &po, &t_offset, &kk), &r, out, sizeof out);
                size_t ngx = gx / lx, ngy = gy / ly;
                for (size_t g = 0; g < ngx * ngy; g++) {
                    float t[64], s[64];
                    for (size_t l = 0; l < lx * ly; l++)
                        t[l] = in[(g * 13 + l) % 97];
                    for (size_t y = 0; y < ly; y++)
                        for (size_t x = 0; x < lx; x++) {
                            float v = 1.0f;
                            for (int j = 0; j < 7; j++)
                                v = v * 0.5f + t[y * lx + (x + j) % lx] * t[((y + j) % ly) * lx + x] * k;
                            s[y * lx + x] = v;
                        }
                    for (size_t y = 0; y < ly; y++)
                        for (size_t x = 0; x < lx; x++)
                            ref[g * lx * ly + y * lx + x] = s[y * lx + x] + s[((y + 1) % ly) * lx + x];
                }
                CHECK(!memcmp(out, ref, sizeof out), "vector_rows (%s, %zux%zu groups, k %d): out[1] %g, expected %g",
                      builds[o], lx, ly, k, out[1], ref[1]);
            }
        mosaic_executable_free(exe);
    }
}

TEST(strided_loops)
{
    /* Loops in which each work-item strides from its own start (strided_loops.c)
     * go round as often as the first work-item's, each running the body
     * while its own test holds.  A group loading a tile from a 2D linear id
     * plus an offset (some work-items never enter), with a count carried
     * round; a grid-stride loop whose index is used after it; an unsigned
     * loop over bins.  Groups that are not full, bounds below the group. */
    const char *src =
        "kernel void tile(global const int *in, global int *out, local int *t, int n, int off) {\n"
        "  int lx = get_local_id(0), ly = get_local_id(1), sx = get_local_size(0), sy = get_local_size(1);\n"
        "  int g = get_group_id(1) * get_num_groups(0) + get_group_id(0), l = ly * sx + lx, count = 0;\n"
        "  for (int i = ly * sx + lx + off; i < n; i += sx * sy) {\n"
        "    t[i - off] = in[(g * 7 + i) % 101] * 3 + i;\n"
        "    count++;\n"
        "  }\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  int s = 0;\n"
        "  for (int j = 0; j < n - off; j++)\n"
        "    s += t[j] * (j + 1);\n"
        "  out[g * sx * sy + l] = s + count * 100000;\n"
        "}\n"
        "kernel void grid(global const float *in, global float *out, global int *last, int n) {\n"
        "  int i = get_global_id(0);\n"
        "  float acc = 0.0f;\n"
        "  for (; i < n; i += get_global_size(0))\n"
        "    acc += in[i] * 0.5f;\n"
        "  out[get_global_id(0)] = acc;\n"
        "  last[get_global_id(0)] = i;\n"
        "}\n"
        "kernel void bins(global uint *out, uint n) {\n"
        "  uint l = get_local_id(0), base = get_group_id(0) * n;\n"
        "  for (uint b = l; b < n; b += get_local_size(0))\n"
        "    out[base + b] = b * b + l;\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        /* in step, the loops over work-items are innermost and vectorised */
        const char *names[] = {"tile", "grid", "bins"};
        for (int k = 0; k < 3; k++) {
            const mosaic_kernel_info *ki = mosaic_executable_find_kernel(exe, names[k]);
            CHECK(o == 1 || (ki && ki->vectorised_loops > 0), "strided_loops %s (%s): %u loops vectorised", names[k],
                  builds[o], ki ? ki->vectorised_loops : 0);
        }
        int in[101];
        for (int i = 0; i < 101; i++)
            in[i] = (i * 37) % 23 - 11;
        /* tile: 2D groups of 5x3 (the last row of groups 2 high) */
        int cases[][2] = {{40, 0}, {40, 7}, {9, 4}, {15, 0}, {3, 5}};
        for (unsigned c = 0; c < sizeof cases / sizeof *cases; c++) {
            enum { W = 10, H = 8, LX = 5, LY = 3, GX = 2, GY = 3 };
            int n = cases[c][0], off = cases[c][1], out[GX * GY * LX * LY], ref[GX * GY * LX * LY];
            int *pi = in, *po = out;
            uint64_t t_offset = 0; /* the __local argument's place in the group's local memory */
            range r = {2, {W, H}, {LX, LY}, 64 * sizeof(int)};
            memset(out, 0, sizeof out);
            memset(ref, 0, sizeof ref);
            both(exe, builds[o], "tile", ARGS(&pi, &po, &t_offset, &n, &off), &r, out, sizeof out);
            for (int gy = 0; gy < GY; gy++)
                for (int gx = 0; gx < GX; gx++) {
                    int sy = gy == GY - 1 ? H - gy * LY : LY, g = gy * GX + gx, t[64] = {0}, count[LX * LY] = {0};
                    for (int l = 0; l < LX * sy; l++)
                        for (int i = l + off; i < n; i += LX * sy)
                            t[i - off] = in[(g * 7 + i) % 101] * 3 + i, count[l]++;
                    int s = 0;
                    for (int j = 0; j < n - off; j++)
                        s += t[j] * (j + 1);
                    for (int l = 0; l < LX * sy; l++)
                        ref[g * LX * sy + l] = s + count[l] * 100000;
                }
            CHECK(!memcmp(out, ref, sizeof out), "strided_loops tile (%s, n %d, off %d): out[0] %d, expected %d",
                  builds[o], n, off, out[0], ref[0]);
        }
        /* grid: 3 groups of 8, the last of 5 */
        for (int n = 0; n < 120; n += 37) {
            enum { N = 21, L = 8 };
            float fin[120], out[N], ref[N];
            int last[N], ref_last[N];
            for (int i = 0; i < 120; i++)
                fin[i] = (float)(i % 9) - 4.0f;
            float *pi = fin, *po = out;
            int *pl = last;
            range r = {1, {N}, {L}, 0};
            memset(last, 0, sizeof last);
            compare_wg_wi(exe, builds[o], "grid", ARGS(&pi, &po, &pl, &n), &r, out, sizeof out, false);
            for (int g = 0; g < N; g++) {
                int i = g;
                ref[g] = 0.0f;
                for (; i < n; i += N)
                    ref[g] += fin[i] * 0.5f;
                ref_last[g] = i;
            }
            CHECK(!memcmp(out, ref, sizeof out), "strided_loops grid (%s, n %d): out[0] %g, expected %g", builds[o], n,
                  (double)out[0], (double)ref[0]);
            CHECK(!memcmp(last, ref_last, sizeof last), "strided_loops grid (%s, n %d): last[0] %d, expected %d",
                  builds[o], n, last[0], ref_last[0]);
        }
        /* bins: groups of 6, bounds below, at and above the group */
        for (unsigned n = 0; n < 30; n += 7) {
            enum { N = 18, L = 6 };
            unsigned out[3 * 30], ref[3 * 30];
            unsigned *po = out;
            range r = {1, {N}, {L}, 0};
            memset(out, 0, sizeof out);
            memset(ref, 0, sizeof ref);
            compare_wg_wi(exe, builds[o], "bins", ARGS(&po, &n), &r, out, sizeof out, false);
            for (unsigned g = 0; g < N / L; g++)
                for (unsigned b = 0; b < n; b++)
                    ref[g * n + b] = b * b + b % L;
            CHECK(!memcmp(out, ref, sizeof out), "strided_loops bins (%s, n %u): out[1] %u, expected %u", builds[o], n,
                  out[1], ref[1]);
        }
        mosaic_executable_free(exe);
    }
}

TEST(widened)
{
    /* Kernels with loops of their own and control flow the work-items of a
     * row share are widened whole (wfv.c): K.vec runs a row's work-items
     * as lanes, K.vec1 a machine vector of them, K.body the rest.  Rows of 5,
     * 21, 128 and 130 work-items (every path, and a row K.vec ends); consecutive, strided, gathered and
     * scattered accesses; a store of all lanes to one place; uniform branches
     * in the loop; selects and compares on varying values; float, double,
     * int and long; intrinsics. */
    const char *src =
        "typedef struct { float x, y; } pair;\n"
        "kernel void k(global const float *in, global const int *idx, global float *out, global double *dout,\n"
        "              global long *lout, global pair *pairs, global float *last, int iters) {\n"
        "  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
        "  int l = (int)get_local_id(0);\n"
        "  float v = in[i], k = 0.25f + 0.001f * (float)l, g = 0.0f;\n"
        "  double d = (double)v;\n"
        "  long acc = (long)i * 3;\n"
        "  for (int n = 0; n < iters; n++) {\n"
        "    v = fma(v, 0.5f, k) + sqrt(fabs(v)) * 0.125f;\n"
        "    if (n % 3 == 1) v = fmin(v, 4.0f) - 0.5f;\n"
        "    g += in[idx[i] + n % 4] * (float)(n + 1);\n"
        "    d = d * 0.75 + (double)in[(2 * i + (size_t)n) % 64];\n"
        "    acc += abs(l - 7) + ((acc >> 2) & 15) * (n + 1);\n"
        "    v = v > 2.0f ? v * 0.5f : v;\n"
        "  }\n"
        "  out[i] = v + g;\n"
        "  dout[i] = d;\n"
        "  lout[i] = min(acc, (long)1000000);\n"
        "  pairs[i].y = v - pairs[i].x;\n"
        "  last[(i * 7) % 64 + 64] = (float)l;\n"
        "  if (iters > 2) last[0] = v;\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        check_widened(exe, o, "k", 16, "widened");
        int rows[] = {5, 21, 128, 130};
        for (int c = 0; c < 4; c++)
            for (int iters = 0; iters < 8; iters += 7) {
                enum { MAXN = 2 * 130 };
                int lx = rows[c], n = 2 * lx;
                float in[MAXN + 64], out[MAXN], last[128], ref[MAXN], ref_last[128];
                int idx[MAXN];
                double dout[MAXN], ref_d[MAXN];
                long long lout[MAXN], ref_l[MAXN];
                float pairs[2 * MAXN], ref_pairs[2 * MAXN];
                for (int i = 0; i < MAXN + 64; i++)
                    in[i] = (float)((i * 37) % 19) * 0.25f - 2.0f;
                for (int i = 0; i < MAXN; i++) {
                    idx[i] = (i * 13) % 50;
                    pairs[2 * i] = ref_pairs[2 * i] = (float)i;
                    pairs[2 * i + 1] = ref_pairs[2 * i + 1] = 0.0f;
                }
                memset(last, 0, sizeof last);
                memset(ref_last, 0, sizeof ref_last);
                const float *pi = in;
                const int *px = idx;
                float *po = out, *pp = pairs, *pl = last;
                double *pd = dout;
                long long *pn = lout;
                range r = {2, {(size_t)lx, 2}, {(size_t)lx, 1}, 0};
                compare_wg_wi(exe, builds[o], "k", ARGS(&pi, &px, &po, &pd, &pn, &pp, &pl, &iters), &r, out,
                              sizeof out, false);
                for (int i = 0; i < n; i++) {
                    int l = i % lx;
                    float v = in[i], k = 0.25f + 0.001f * (float)l, g = 0.0f;
                    double d = (double)v;
                    long long acc = (long long)i * 3;
                    for (int t = 0; t < iters; t++) {
                        v = fmaf(v, 0.5f, k) + sqrtf(fabsf(v)) * 0.125f;
                        if (t % 3 == 1)
                            v = fminf(v, 4.0f) - 0.5f;
                        g += in[idx[i] + t % 4] * (float)(t + 1);
                        d = d * 0.75 + (double)in[(2 * i + t) % 64];
                        acc += abs(l - 7) + ((acc >> 2) & 15) * (t + 1);
                        v = v > 2.0f ? v * 0.5f : v;
                    }
                    ref[i] = v + g;
                    ref_d[i] = d;
                    ref_l[i] = acc < 1000000 ? acc : 1000000;
                    ref_pairs[2 * i + 1] = v - ref_pairs[2 * i];
                    ref_last[(i * 7) % 64 + 64] = (float)l;
                    if (iters > 2)
                        ref_last[0] = v;
                }
                int bad = -1;
                for (int i = 0; i < n && bad < 0; i++)
                    if (fabsf(out[i] - ref[i]) > 1e-4f * (1.0f + fabsf(ref[i])) || fabs(dout[i] - ref_d[i]) > 1e-9 ||
                        lout[i] != ref_l[i] || pairs[2 * i + 1] != ref_pairs[2 * i + 1])
                        bad = i;
                CHECK(bad < 0, "widened (%s, row %d, iters %d): work-item %d: %g %g %lld %g, expected %g %g %lld %g",
                      builds[o], lx, iters, bad, bad < 0 ? 0.0 : (double)out[bad], bad < 0 ? 0.0 : dout[bad],
                      bad < 0 ? 0LL : lout[bad], bad < 0 ? 0.0 : (double)pairs[2 * bad + 1],
                      bad < 0 ? 0.0 : (double)ref[bad], bad < 0 ? 0.0 : ref_d[bad], bad < 0 ? 0LL : ref_l[bad],
                      bad < 0 ? 0.0 : (double)ref_pairs[2 * bad + 1]);
                CHECK(!memcmp(last, ref_last, sizeof last), "widened (%s, row %d, iters %d): last[0] %g, expected %g",
                      builds[o], lx, iters, (double)last[0], (double)ref_last[0]);
            }
        mosaic_executable_free(exe);
    }
}

TEST(widened_wide_vectors)
{
    /* A kernel whose loop carries a float16 and a float8 is widened whole
     * once they are split into their elements (finalize.c,
     * scalarize_short_vectors): halves, odd elements, a swizzle, a select
     * and vload/vstore of both widths, run through K.wg and against the
     * host.  Rows of 5, 21 and 128 work-items. */
    const char *src =
        "kernel void k(global const float *in, global float *out, int iters) {\n"
        "  size_t i = get_global_id(0);\n"
        "  float16 v = vload16(i, in);\n"
        "  float8 h = v.lo * 0.5f + v.hi;\n"
        "  float16 c = (float16)(0.25f + (float)(i % 7) * 0.01f);\n"
        "  for (int n = 0; n < iters; n++) {\n"
        "    v = v * v * 0.5f + c;\n"
        "    v.s0 = v.s0 + v.sf * 0.125f;\n"
        "    h = fmax(h, v.odd) - 0.0625f;\n"
        "    h = select(h, -h, h > (float8)(0.5f));\n"
        "    if (n % 2) v = v.s1032547698badcfe;\n"
        "  }\n"
        "  vstore16(v, 0, out + 24 * i);\n"
        "  vstore8(h, 0, out + 24 * i + 16);\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        check_widened(exe, o, "k", 8, "wide vectors");
        int rows[] = {5, 21, 128};
        for (int c = 0; c < 3; c++)
            for (int iters = 0; iters < 8; iters += 7) {
                enum { MAXN = 128 };
                int n = rows[c];
                float in[16 * MAXN], out[24 * MAXN], ref[24 * MAXN];
                for (int i = 0; i < 16 * n; i++)
                    in[i] = (float)((i * 37) % 19) * 0.1f - 0.9f;
                memset(out, 0, sizeof out);
                const float *pi = in;
                float *po = out;
                range r = {1, {(size_t)n, 1, 1}, {(size_t)n, 1, 1}, 0};
                compare_wg_wi(exe, builds[o], "k", ARGS(&pi, &po, &iters), &r, out, sizeof out, false);
                for (int i = 0; i < n; i++) {
                    float v[16], h[8], cc = 0.25f + (float)(i % 7) * 0.01f;
                    for (int j = 0; j < 16; j++)
                        v[j] = in[16 * i + j];
                    for (int j = 0; j < 8; j++)
                        h[j] = v[j] * 0.5f + v[8 + j];
                    for (int t = 0; t < iters; t++) {
                        for (int j = 0; j < 16; j++)
                            v[j] = v[j] * v[j] * 0.5f + cc;
                        v[0] += v[15] * 0.125f;
                        for (int j = 0; j < 8; j++) {
                            h[j] = fmaxf(h[j], v[2 * j + 1]) - 0.0625f;
                            h[j] = h[j] > 0.5f ? -h[j] : h[j];
                        }
                        if (t % 2)
                            for (int j = 0; j < 16; j += 2) {
                                float x = v[j];
                                v[j] = v[j + 1], v[j + 1] = x;
                            }
                    }
                    memcpy(ref + 24 * i, v, sizeof v);
                    memcpy(ref + 24 * i + 16, h, sizeof h);
                }
                int bad = -1;
                for (int i = 0; i < 24 * n && bad < 0; i++)
                    if (fabsf(out[i] - ref[i]) > 1e-5f * (1.0f + fabsf(ref[i])))
                        bad = i;
                CHECK(bad < 0, "wide vectors (%s, row %d, iters %d): element %d of work-item %d: %g, expected %g",
                      builds[o], n, iters, bad % 24, bad / 24, bad < 0 ? 0.0 : (double)out[bad],
                      bad < 0 ? 0.0 : (double)ref[bad]);
            }
        mosaic_executable_free(exe);
    }
}

TEST(widened_masked_loops)
{
    /* A loop that work-items leave in different iterations, in a widened
     * kernel (wfv.c): it goes round while any lane is in it, each lane's
     * carried values kept from its last iteration, its loads and stores
     * masked.  A while loop with a data-dependent count whose counter is
     * used after it, gathered loads and a store in it, a uniform loop inside
     * it, the whole entered again by a uniform loop around it, lanes that
     * never enter it. */
    const char *src =
        "kernel void k(global const int *in, global int *out, global int *trace, int rounds, int limit) {\n"
        "  size_t i = get_global_id(0);\n"
        "  int total = 0;\n"
        "  for (int r = 0; r < rounds; r++) {\n"
        "    int x = in[i] + r, n = 0;\n"
        "    while (x != 1 && n < limit) {\n"
        "      x = (x & 1) ? 3 * x + 1 : x / 2;\n"
        "      for (int u = 0; u < 2; u++)\n"
        "        x += in[(x + u) & 63] & u;\n"
        "      trace[i * 4 + (n & 3)] = x;\n"
        "      n++;\n"
        "    }\n"
        "    total += n * 1000 + x;\n"
        "  }\n"
        "  out[i] = total;\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        check_widened(exe, o, "k", 16, "widened_masked_loops");
        int rows[] = {5, 21, 128, 130};
        for (int c = 0; c < 4; c++)
            for (int rounds = 1; rounds < 4; rounds += 2) {
                enum { MAXN = 130 };
                int n = rows[c], limit = 40, in[MAXN + 64], out[MAXN], trace[4 * MAXN], ref[MAXN], ref_trace[4 * MAXN];
                for (int i = 0; i < MAXN + 64; i++)
                    in[i] = i % 7 == 3 ? 1 : (i * 29) % 97 + 1; /* some start at 1: no iteration */
                memset(trace, 0, sizeof trace);
                memset(ref_trace, 0, sizeof ref_trace);
                const int *pi = in;
                int *po = out, *pt = trace;
                range r = {1, {(size_t)n}, {(size_t)n}, 0};
                compare_wg_wi(exe, builds[o], "k", ARGS(&pi, &po, &pt, &rounds, &limit), &r, out, sizeof out, false);
                for (int i = 0; i < n; i++) {
                    int total = 0;
                    for (int rr = 0; rr < rounds; rr++) {
                        int x = in[i] + rr, cnt = 0;
                        while (x != 1 && cnt < limit) {
                            x = (x & 1) ? 3 * x + 1 : x / 2;
                            for (int u = 0; u < 2; u++)
                                x += in[(x + u) & 63] & u;
                            ref_trace[i * 4 + (cnt & 3)] = x;
                            cnt++;
                        }
                        total += cnt * 1000 + x;
                    }
                    ref[i] = total;
                }
                CHECK(!memcmp(out, ref, (size_t)n * sizeof *out),
                      "widened_masked_loops (%s, row %d, rounds %d): out[0] %d, expected %d", builds[o], n, rounds,
                      out[0], ref[0]);
                CHECK(!memcmp(trace, ref_trace, sizeof trace), "widened_masked_loops (%s, row %d, rounds %d): trace",
                      builds[o], n, rounds);
            }
        mosaic_executable_free(exe);
    }
}

TEST(widened_guards)
{
    /* Early returns in a widened kernel (wfv.c): the lanes that stay run
     * the rest of the kernel, the others write nothing.  "if (i >= n)
     * return;" and an if around the rest, with a loop, a masked loop and a
     * one-block if after the guard, and a store of one value to one place. */
    const char *src =
        "kernel void ret(global const float *in, global float *out, global int *flag, int n, int iters) {\n"
        "  int i = get_global_id(0);\n"
        "  if (i >= n) return;\n"
        "  float v = in[i];\n"
        "  for (int k = 0; k < iters; k++)\n"
        "    v = v * 0.5f + (float)k;\n"
        "  int m = 0;\n"
        "  while (v > 1.0f && m < 20) { v = v * 0.75f; m++; }\n"
        "  out[i] = (m & 1) ? v + 100.0f : v;\n"
        "  flag[0] = 7;\n"
        "}\n"
        "kernel void around(global const float *in, global float *out, int n, int iters) {\n"
        "  int i = get_global_id(0);\n"
        "  if (i < n) {\n"
        "    float v = in[i];\n"
        "    for (int k = 0; k < iters; k++)\n"
        "      v = fma(v, 0.25f, 1.0f);\n"
        "    out[i] = v;\n"
        "  }\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        const char *names[] = {"ret", "around"};
        for (int k = 0; k < 2; k++) {
            char what[64];
            snprintf(what, sizeof what, "widened_guards %s", names[k]);
            check_widened(exe, o, names[k], 16, what);
        }
        int rows[] = {5, 21, 128, 130};
        for (int c = 0; c < 4; c++)
            for (int n = 0; n <= rows[c] + 1; n += rows[c] / 3 + 1) {
                enum { MAXN = 130 };
                int lx = rows[c], iters = 5, flag = 0;
                float in[MAXN], out[MAXN], ref[MAXN];
                for (int i = 0; i < MAXN; i++)
                    in[i] = (float)((i * 37) % 23) - 4.0f;
                const float *pi = in;
                float *po = out;
                int *pf = &flag;
                range r = {1, {(size_t)lx}, {(size_t)lx}, 0};
                for (int i = 0; i < MAXN; i++)
                    out[i] = -1.0f;
                compare_wg_wi(exe, builds[o], "ret", ARGS(&pi, &po, &pf, &n, &iters), &r, out, sizeof out, false);
                for (int i = 0; i < MAXN; i++) {
                    ref[i] = -1.0f;
                    if (i >= n || i >= lx)
                        continue;
                    float v = in[i];
                    for (int t = 0; t < iters; t++)
                        v = v * 0.5f + (float)t;
                    int m = 0;
                    while (v > 1.0f && m < 20) {
                        v = v * 0.75f;
                        m++;
                    }
                    ref[i] = (m & 1) ? v + 100.0f : v;
                }
                CHECK(!memcmp(out, ref, sizeof out), "widened_guards ret (%s, row %d, n %d): out[0] %g, expected %g",
                      builds[o], lx, n, (double)out[0], (double)ref[0]);
                CHECK(flag == ((n > 0) ? 7 : 0), "widened_guards ret (%s, row %d, n %d): flag %d", builds[o], lx, n, flag);
                for (int i = 0; i < MAXN; i++)
                    out[i] = -1.0f;
                compare_wg_wi(exe, builds[o], "around", ARGS(&pi, &po, &n, &iters), &r, out, sizeof out, false);
                for (int i = 0; i < MAXN; i++) {
                    ref[i] = -1.0f;
                    if (i >= n || i >= lx)
                        continue;
                    float v = in[i];
                    for (int t = 0; t < iters; t++)
                        v = fmaf(v, 0.25f, 1.0f);
                    ref[i] = v;
                }
                CHECK(!memcmp(out, ref, sizeof out), "widened_guards around (%s, row %d, n %d): out[0] %g, expected %g",
                      builds[o], lx, n, (double)out[0], (double)ref[0]);
            }
        mosaic_executable_free(exe);
    }
}

TEST(widened_ifs)
{
    /* ifs that work-items take different ways through, in a widened kernel
     * (wfv.c): the blocks between run one after the other under masks.
     * Nested ifs, an else-if chain whose ways meet in one phi, a uniform
     * branch between, stores and gathers on some ways only, all inside a
     * loop the lanes leave in different iterations and after a uniform one. */
    const char *src =
        "kernel void k(global const int *in, global int *out, global int *side, int rounds, int mode) {\n"
        "  size_t i = get_global_id(0);\n"
        "  int acc = 0;\n"
        "  for (int r = 0; r < rounds; r++) {\n"
        "    int x = in[i] + r, n = 0;\n"
        "    while (x > 3 && n < 30) {\n"
        "      int y;\n"
        "      if (x % 3 == 0) {\n"
        "        y = x / 3;\n"
        "        if (y & 1) { y += in[(y + 5) & 63]; side[i] = y; }\n"
        "      } else if (x % 3 == 1) {\n"
        "        y = x - 1;\n"
        "        if (mode) y ^= 2;\n"
        "      } else {\n"
        "        y = x * 2 - (x >> 2);\n"
        "      }\n"
        "      x = y;\n"
        "      n++;\n"
        "    }\n"
        "    acc += x * 100 + n;\n"
        "  }\n"
        "  if (acc & 4) acc = -acc; else if (acc & 8) acc += in[acc & 63];\n"
        "  out[i] = acc;\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        check_widened(exe, o, "k", 16, "widened_ifs");
        int rows[] = {5, 21, 128, 130};
        for (int c = 0; c < 4; c++)
            for (int mode = 0; mode < 2; mode++) {
                enum { MAXN = 130 };
                int n = rows[c], rounds = 2, in[MAXN + 64], out[MAXN], side[MAXN], ref[MAXN], ref_side[MAXN];
                for (int i = 0; i < MAXN + 64; i++)
                    in[i] = (i * 53) % 211 + (i % 9 == 4 ? -300 : 0);
                memset(side, 0, sizeof side);
                memset(ref_side, 0, sizeof ref_side);
                const int *pi = in;
                int *po = out, *ps = side;
                range r = {1, {(size_t)n}, {(size_t)n}, 0};
                compare_wg_wi(exe, builds[o], "k", ARGS(&pi, &po, &ps, &rounds, &mode), &r, out, sizeof out, false);
                for (int i = 0; i < n; i++) {
                    int acc = 0;
                    for (int rr = 0; rr < rounds; rr++) {
                        int x = in[i] + rr, cnt = 0;
                        while (x > 3 && cnt < 30) {
                            int y;
                            if (x % 3 == 0) {
                                y = x / 3;
                                if (y & 1) {
                                    y += in[(y + 5) & 63];
                                    ref_side[i] = y;
                                }
                            } else if (x % 3 == 1) {
                                y = x - 1;
                                if (mode)
                                    y ^= 2;
                            } else {
                                y = x * 2 - (x >> 2);
                            }
                            x = y;
                            cnt++;
                        }
                        acc += x * 100 + cnt;
                    }
                    if (acc & 4)
                        acc = -acc;
                    else if (acc & 8)
                        acc += in[acc & 63];
                    ref[i] = acc;
                }
                CHECK(!memcmp(out, ref, (size_t)n * sizeof *out),
                      "widened_ifs (%s, row %d, mode %d): out[0] %d, expected %d", builds[o], n, mode, out[0], ref[0]);
                CHECK(!memcmp(side, ref_side, sizeof side), "widened_ifs (%s, row %d, mode %d): side", builds[o], n,
                      mode);
            }
        mosaic_executable_free(exe);
    }
}

TEST(classic_kernels)
{
    /* a work-efficient (Blelloch) exclusive scan and a bitonic sort in
     * __local memory: nested loops of barriers with uniform bounds */
    const char *src =
        "kernel void scan(global const int *in, global int *out, local int *t) {\n"
        "  size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);\n"
        "  t[l] = in[g * n + l];\n"
        "  size_t off = 1;\n"
        "  for (size_t d = n >> 1; d > 0; d >>= 1) {\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    if (l < d) { size_t a = off * (2 * l + 1) - 1, b = off * (2 * l + 2) - 1; t[b] += t[a]; }\n"
        "    off *= 2;\n"
        "  }\n"
        "  if (l == 0) t[n - 1] = 0;\n"
        "  for (size_t d = 1; d < n; d *= 2) {\n"
        "    off >>= 1;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    if (l < d) { size_t a = off * (2 * l + 1) - 1, b = off * (2 * l + 2) - 1;\n"
        "      int v = t[a]; t[a] = t[b]; t[b] += v; }\n"
        "  }\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  out[g * n + l] = t[l];\n"
        "}\n"
        "kernel void bitonic(global int *data, local int *t) {\n"
        "  size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);\n"
        "  t[l] = data[g * n + l];\n"
        "  for (size_t k = 2; k <= n; k <<= 1)\n"
        "    for (size_t j = k >> 1; j > 0; j >>= 1) {\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      size_t p = l ^ j;\n"
        "      if (p > l) {\n"
        "        int a = t[l], b = t[p];\n"
        "        int up = (l & k) == 0;\n"
        "        if ((a > b) == up) { t[l] = b; t[p] = a; }\n"
        "      }\n"
        "    }\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  data[g * n + l] = t[l];\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        enum { N = 256, L = 64 };
        int in[N], out[N], data[N];
        for (int i = 0; i < N; i++) {
            in[i] = (i * 37) % 11 - 3;
            data[i] = (i * 7919) % 1000 - 500;
        }
        int *pi = in, *po = out, *pd = data;
        uint64_t off = 0;
        range r = {1, {N}, {L}, L * sizeof(int)};
        both(exe, builds[o], "scan", ARGS(&pi, &po, &off), &r, out, sizeof out);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            int want = 0;
            for (int j = i / L * L; j < i; j++)
                want += in[j];
            bad += out[i] != want;
        }
        CHECK(bad == 0, "scan (%s): %d wrong", builds[o], bad);
        both(exe, builds[o], "bitonic", ARGS(&pd, &off), &r, data, sizeof data);
        bad = 0;
        for (int i = 0; i < N; i++)
            bad += i % L && data[i - 1] > data[i];
        CHECK(bad == 0, "bitonic (%s): %d out of order", builds[o], bad);
        mosaic_executable_free(exe);
    }
}

/* ---- barrier kernels in the shapes of public libraries' ------------------------------ */

/* Kernels written here in the shapes of the barrier kernels of public
 * OpenCL libraries and SDK samples (docs/compiler.md, "Barrier kernels of
 * libraries"): each must run as regions, in both builds and as built for
 * its local size, and agree with the work-items and with the host.  The
 * shapes: FFTs (a Stockham radix-2 loop of stages; clFFT's generated
 * radix-4 passes, functions with barriers inside, several transforms a
 * group and a guard for the last group's missing ones), a radix sort's
 * split by bits (a scan of barriers inside a loop of barriers), a
 * transpose through a padded tile, an N-body step over tiles of bodies.
 * The scan, the bitonic sort (classic_kernels) and CLBlast's GEMMs
 * (neighbour_gathers, widened_rows) are the corpus's other shapes. */

/* Runs kernel `name` as library_shapes asks: through K.wg against K.wi
 * (both), and for the optimised build through its K.wg for r's local size
 * from the same initial `out`, which must give the same bytes. */
static void corpus_kernel(mosaic_executable *exe, int o, const char *name, void **args, const range *r, void *out,
                          size_t bytes)
{
    void *initial = malloc(bytes), *general = malloc(bytes);
    memcpy(initial, out, bytes);
    both(exe, builds[o], name, args, r, out, bytes);
    memcpy(general, out, bytes);
    if (o == 0) {
        mosaic_kernel_info one = *mosaic_executable_find_kernel(exe, name);
        if ((one.wg_fn = wg_for_range(exe, name, r))) {
            memcpy(out, initial, bytes);
            run(&one, args, r, 1);
            CHECK(!memcmp(out, general, bytes), "%s: its build for groups of %zu differs", name, r->local[0]);
        }
    }
    free(initial);
    free(general);
}

/* exp(-2 pi i m / n), m < n, as (re, im) pairs. */
static void twiddles(float *tw, int n)
{
    for (int m = 0; m < n; m++) {
        tw[2 * m] = (float)cos(-2.0 * M_PI * m / n);
        tw[2 * m + 1] = (float)sin(-2.0 * M_PI * m / n);
    }
}

/* How many of `count` transforms of n points (re, im pairs) differ from
 * the DFT of in by more than a rounding error's worth. */
static int dft_wrong(const float *in, const float *out, int n, int count)
{
    int bad = 0;
    for (int t = 0; t < count; t++) {
        const float *x = in + 2 * t * n, *y = out + 2 * t * n;
        double err = 0;
        for (int k = 0; k < n; k++) {
            double re = 0, im = 0;
            for (int j = 0; j < n; j++) {
                double a = -2.0 * M_PI * (double)((long)j * k % n) / n;
                re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);
                im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);
            }
            err = fmax(err, fmax(fabs(re - y[2 * k]), fabs(im - y[2 * k + 1])));
        }
        bad += err > 1e-3 * n;
    }
    return bad;
}

TEST(library_shapes_fft)
{
    const char *src =
        /* Stockham radix 2, 256 points a group, a butterfly a work-item per stage */
        "#define N 256\n"
        "kernel void fft_stockham(global const float2 *in, global float2 *out, constant float2 *tw) {\n"
        "  local float2 buf[2][N];\n"
        "  int l = get_local_id(0), g = get_group_id(0), src = 0;\n"
        "  buf[0][l] = in[g * N + l];\n"
        "  buf[0][l + N / 2] = in[g * N + l + N / 2];\n"
        "  for (int ns = 1; ns < N; ns *= 2) {\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    int k = l & (ns - 1);\n"
        "    float2 a = buf[src][l], b = buf[src][l + N / 2], w = tw[k * (N / (2 * ns))];\n"
        "    float2 bw = (float2)(b.x * w.x - b.y * w.y, b.x * w.y + b.y * w.x);\n"
        "    int at = (l - k) * 2 + k;\n"
        "    buf[src ^ 1][at] = a + bw;\n"
        "    buf[src ^ 1][at + ns] = a - bw;\n"
        "    src ^= 1;\n"
        "  }\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  out[g * N + l] = buf[src][l];\n"
        "  out[g * N + l + N / 2] = buf[src][l + N / 2];\n"
        "}\n"
        /* clFFT's shape: 64 points by radix 4, 16 work-items a transform, 4
         * transforms a group, each pass a function that reads __local
         * memory, waits, writes it back in place and waits; `rw` guards the
         * memory of the last group's missing transforms, never a barrier */
        "#define M 64\n"
        "inline float2 cmul(float2 a, float2 b) { return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }\n"
        "inline void bfly4(float2 *r) {\n"
        "  float2 t0 = r[0] + r[2], t1 = r[0] - r[2], t2 = r[1] + r[3], t3 = r[1] - r[3];\n"
        "  float2 mj = (float2)(t3.y, -t3.x);\n"
        "  r[0] = t0 + t2; r[1] = t1 + mj; r[2] = t0 - t2; r[3] = t1 - mj;\n"
        "}\n"
        "void fwd_pass(uint p, uint me, local float2 *b, constant float2 *tw, bool rw) {\n"
        "  float2 x[4];\n"
        "  uint k = me & (p - 1);\n"
        "  if (rw)\n"
        "    for (int r = 0; r < 4; r++) x[r] = cmul(b[me + r * (M / 4)], tw[r * k * (M / (4 * p))]);\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  if (rw) {\n"
        "    bfly4(x);\n"
        "    for (int r = 0; r < 4; r++) b[(me - k) * 4 + k + r * p] = x[r];\n"
        "  }\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "}\n"
        "kernel void fft_clfft(global const float2 *in, global float2 *out, constant float2 *tw, uint count) {\n"
        "  local float2 lds[4 * M];\n"
        "  uint me = get_local_id(0) % 16, t = get_local_id(0) / 16, batch = get_group_id(0) * 4 + t;\n"
        "  bool rw = batch < count;\n"
        "  local float2 *b = lds + t * M;\n"
        "  float2 x[4];\n"
        "  if (rw) {\n"
        "    for (int r = 0; r < 4; r++) x[r] = in[batch * M + me + r * (M / 4)];\n"
        "    bfly4(x);\n"
        "    for (int r = 0; r < 4; r++) b[me * 4 + r] = x[r];\n"
        "  }\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  fwd_pass(4, me, b, tw, rw);\n"
        "  fwd_pass(16, me, b, tw, rw);\n"
        "  if (rw)\n"
        "    for (int r = 0; r < 4; r++) out[batch * M + me + r * (M / 4)] = b[me + r * (M / 4)];\n"
        "}\n";
    enum { N = 256, GROUPS = 3, M = 64, COUNT = 9, BATCH_GROUPS = (COUNT + 3) / 4 };
    float *in = malloc(sizeof(float) * 2 * N * GROUPS), *out = malloc(sizeof(float) * 2 * N * GROUPS);
    float tw[2 * N], tw64[2 * M];
    small_integers(in, 2 * N * GROUPS, 13, 17);
    twiddles(tw, N);
    twiddles(tw64, M);
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        float *pi = in, *po = out, *pt = tw, *pt64 = tw64;
        memset(out, 0, sizeof(float) * 2 * N * GROUPS);
        range r = {1, {N / 2 * GROUPS}, {N / 2}, 2 * N * 8};
        corpus_kernel(exe, o, "fft_stockham", ARGS(&pi, &po, &pt), &r, out, sizeof(float) * 2 * N * GROUPS);
        int bad = dft_wrong(in, out, N, GROUPS);
        CHECK(!bad, "fft_stockham (%s): %d of %d transforms wrong", builds[o], bad, GROUPS);
        uint32_t count = COUNT;
        memset(out, 0, sizeof(float) * 2 * N * GROUPS);
        range rc = {1, {64 * BATCH_GROUPS}, {64}, 4 * M * 8};
        corpus_kernel(exe, o, "fft_clfft", ARGS(&pi, &po, &pt64, &count), &rc, out, sizeof(float) * 2 * M * 12);
        bad = dft_wrong(in, out, M, COUNT);
        CHECK(!bad, "fft_clfft (%s): %d of %d transforms wrong", builds[o], bad, COUNT);
        int stray = 0;
        for (int i = 2 * M * COUNT; i < 2 * M * 12; i++)
            stray += out[i] != 0.0f;
        CHECK(!stray, "fft_clfft (%s): %d values written for the missing transforms", builds[o], stray);
        mosaic_executable_free(exe);
    }
    free(in);
    free(out);
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

TEST(library_shapes_sort_transpose_nbody)
{
    const char *src =
        /* a radix sort's split by bits (GPU Gems 3, CUDPP, vendors' samples):
         * each bit a Hillis-Steele scan of the zeros, then a scatter */
        "#define B 128\n"
        "kernel void radix_split(global uint *keys) {\n"
        "  local uint k[B], s[2][B];\n"
        "  uint l = get_local_id(0), g = get_group_id(0);\n"
        "  k[l] = keys[g * B + l];\n"
        "  for (uint bit = 0; bit < 16; bit++) {\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    uint key = k[l], zero = ((key >> bit) & 1) == 0;\n"
        "    int cur = 0;\n"
        "    s[0][l] = zero;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    for (uint off = 1; off < B; off <<= 1) {\n"
        "      uint v = s[cur][l] + (l >= off ? s[cur][l - off] : 0);\n"
        "      s[cur ^ 1][l] = v;\n"
        "      cur ^= 1;\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    }\n"
        "    uint before = s[cur][l] - zero, zeros = s[cur][B - 1];\n"
        "    k[zero ? before : zeros + l - before] = key;\n"
        "  }\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  keys[g * B + l] = k[l];\n"
        "}\n"
        /* a transpose through a tile padded by a column (the SDKs' sample) */
        "#define T 16\n"
        "kernel void transpose(global float *out, global const float *in, int w, int h) {\n"
        "  local float tile[T][T + 1];\n"
        "  int x = get_global_id(0), y = get_global_id(1), lx = get_local_id(0), ly = get_local_id(1);\n"
        "  if (x < w && y < h) tile[ly][lx] = in[y * w + x];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  x = get_group_id(1) * T + lx;\n"
        "  y = get_group_id(0) * T + ly;\n"
        "  if (x < h && y < w) out[y * h + x] = tile[lx][ly];\n"
        "}\n"
        /* an N-body step over tiles of bodies in a __local argument (the SDKs' sample) */
        "kernel void nbody(global const float4 *pos, global float4 *acc, int n, float eps2, local float4 *tile) {\n"
        "  int i = get_global_id(0), l = get_local_id(0), L = get_local_size(0);\n"
        "  float4 p = pos[i], a = (float4)(0.0f);\n"
        "  for (int t = 0; t < n; t += L) {\n"
        "    tile[l] = pos[t + l];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    for (int j = 0; j < L; j++) {\n"
        "      float4 d = tile[j] - p;\n"
        "      float r2 = d.x * d.x + d.y * d.y + d.z * d.z + eps2, inv = 1.0f / sqrt(r2);\n"
        "      float s = tile[j].w * inv * inv * inv;\n"
        "      a.xyz += s * d.xyz;\n"
        "    }\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  acc[i] = a;\n"
        "}\n";
    enum { B = 128, SORT_GROUPS = 3, W = 40, H = 24, BODIES = 128, L = 32 };
    uint32_t keys[B * SORT_GROUPS], want[B * SORT_GROUPS];
    float in[W * H], out[W * H], pos[4 * BODIES], acc[4 * BODIES];
    for (int i = 0; i < B * SORT_GROUPS; i++)
        keys[i] = (uint32_t)(i * 2654435761u) >> 16;
    memcpy(want, keys, sizeof keys);
    for (int g = 0; g < SORT_GROUPS; g++)
        qsort(want + g * B, B, sizeof *want, compare_u32);
    small_integers(in, W * H, 7, 101);
    for (int i = 0; i < BODIES; i++) {
        pos[4 * i] = (float)(i % 7) - 3.0f;
        pos[4 * i + 1] = (float)(i % 5) * 0.5f;
        pos[4 * i + 2] = (float)(i % 11) * 0.25f - 1.0f;
        pos[4 * i + 3] = 1.0f + (float)(i % 3);
    }
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        uint32_t sorted[B * SORT_GROUPS], *ps = sorted;
        memcpy(sorted, keys, sizeof keys);
        range rs = {1, {B * SORT_GROUPS}, {B}, B * 4 * 3};
        corpus_kernel(exe, o, "radix_split", ARGS(&ps), &rs, sorted, sizeof sorted);
        CHECK(!memcmp(sorted, want, sizeof want), "radix_split (%s): blocks not sorted", builds[o]);

        float *po = out, *pi = in;
        int w = W, h = H;
        memset(out, 0, sizeof out);
        range rt = {2, {48, 32}, {16, 16}, 16 * 17 * 4};
        corpus_kernel(exe, o, "transpose", ARGS(&po, &pi, &w, &h), &rt, out, sizeof out);
        int bad = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                bad += out[x * H + y] != in[y * W + x];
        CHECK(!bad, "transpose (%s): %d wrong", builds[o], bad);

        float *pp = pos, *pa = acc, eps2 = 0.01f;
        int n = BODIES;
        uint64_t tile_at = 0;
        memset(acc, 0, sizeof acc);
        range rn = {1, {BODIES}, {L}, L * 16};
        corpus_kernel(exe, o, "nbody", ARGS(&pp, &pa, &n, &eps2, &tile_at), &rn, acc, sizeof acc);
        bad = 0;
        for (int i = 0; i < BODIES; i++)
            for (int c = 0; c < 3; c++) {
                double a = 0;
                for (int j = 0; j < BODIES; j++) {
                    double d[3], r2 = eps2;
                    for (int e = 0; e < 3; e++)
                        d[e] = (double)pos[4 * j + e] - pos[4 * i + e], r2 += d[e] * d[e];
                    a += pos[4 * j + 3] / (r2 * sqrt(r2)) * d[c];
                }
                bad += fabs(a - acc[4 * i + c]) > 1e-3 * (1.0 + fabs(a));
            }
        CHECK(!bad, "nbody (%s): %d wrong components", builds[o], bad);
        mosaic_executable_free(exe);
    }
}

TEST(empty_masks)
{
    /* Gathers and scatters under a mask that is not a constant run under a
     * test for an active lane (masked_ops.c, mc_skip_empty_gathers).  A
     * halo tile loaded by `for (i = l; i < (sx+2)*(sy+2); i += sx*sy)`: in
     * a build for one size the vectoriser unrolls the two rounds, and the
     * second round's gathers have no active lane in most rows (groups of
     * 16x16, 8x8, 4x4, 16x4, 8x2).  Clamped reads at the image's edges. */
    const char *halo =
        "kernel void halo(global const float *in, global float *out, int w, int h) {\n"
        "  local float t[TY + 2][TX + 2];\n"
        "  int lx = get_local_id(0), ly = get_local_id(1);\n"
        "  int x0 = get_group_id(0) * TX - 1, y0 = get_group_id(1) * TY - 1;\n"
        "  for (int i = ly * TX + lx; i < (TX + 2) * (TY + 2); i += TX * TY) {\n"
        "    int x = clamp(x0 + i % (TX + 2), 0, w - 1), y = clamp(y0 + i / (TX + 2), 0, h - 1);\n"
        "    t[i / (TX + 2)][i % (TX + 2)] = in[y * w + x];\n"
        "  }\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  out[get_global_id(1) * w + get_global_id(0)] = 4.0f * t[ly + 1][lx + 1] + t[ly][lx + 1] +\n"
        "                                                t[ly + 2][lx + 1] + t[ly + 1][lx] + t[ly + 1][lx + 2];\n"
        "}\n";
    enum { W = 32, H = 32 };
    float in[W * H];
    small_integers(in, W * H, 5, 13);
    size_t shapes[][2] = {{16, 16}, {8, 8}, {4, 4}, {16, 4}, {8, 2}};
    for (unsigned c = 0; c < sizeof shapes / sizeof *shapes; c++) {
        size_t lx = shapes[c][0], ly = shapes[c][1];
        range r = {2, {W, H}, {lx, ly}, (lx + 2) * (ly + 2) * sizeof(float)};
        char options[64];
        snprintf(options, sizeof options, "%s -DTX=%zu -DTY=%zu", builds[0], lx, ly);
        mosaic_executable *exe = build(halo, options);
        mosaic_kernel_info one;
        if (!one_size_kernel(exe, "halo", &r, &one))
            continue;
        float out[W * H], ref[W * H];
        const float *pi = in;
        float *po = out;
        int w = W, h = H;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
#define AT(xx, yy) in[((yy) < 0 ? 0 : (yy) >= H ? H - 1 : (yy)) * W + ((xx) < 0 ? 0 : (xx) >= W ? W - 1 : (xx))]
                ref[y * W + x] = 4.0f * AT(x, y) + AT(x, y - 1) + AT(x, y + 1) + AT(x - 1, y) + AT(x + 1, y);
#undef AT
            }
        memset(out, 0, sizeof out);
        run(&one, ARGS(&pi, &po, &w, &h), &r, 1);
        int bad = 0, first = -1;
        for (int i = 0; i < W * H; i++)
            if (out[i] != ref[i] && !bad++)
                first = i;
        CHECK(!bad, "empty_masks halo, groups of %zux%zu: %d differ (first %d: %g, want %g)", lx, ly, bad, first,
              first >= 0 ? out[first] : 0.0, first >= 0 ? ref[first] : 0.0);
        mosaic_executable_free(exe);
    }

    /* Gathers and scatters under data-dependent masks: rows where every
     * work-item takes the branch, none does, or some do; a gathered value
     * used after the branch, where the lanes that did not load keep theirs. */
    const char *picks =
        "kernel void picks(global const int *sel, global const float *in, global const int *idx,\n"
        "                  global float *out, global float *spill) {\n"
        "  int i = get_global_id(0);\n"
        "  float v = (float)i;\n"
        "  if (sel[i] > 0) {\n"
        "    v = in[idx[i]] * 2.0f;\n"
        "    spill[idx[i]] = v + 1.0f;\n"
        "  }\n"
        "  out[i] = v;\n"
        "}\n";
    enum { N = 256 };
    int sel[N], idx[N];
    float src[N], out[N], spill[N];
    for (int i = 0; i < N; i++) {
        int row = i / 32; /* whole rows on, whole rows off, rows in part */
        sel[i] = row % 3 == 0 ? 1 : row % 3 == 1 ? 0 : (i * 7) % 5 == 0;
        idx[i] = (i * 37) % N; /* a permutation: no two work-items store to one place */
        src[i] = (float)((i * 11) % 17);
    }
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(picks, builds[o]);
        if (!exe)
            continue;
        const int *ps = sel, *px = idx;
        const float *pi = src;
        float *po = out, *pp = spill;
        for (int i = 0; i < N; i++)
            out[i] = spill[i] = -1.0f;
        range r = {1, {N}, {32}, 0};
        const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "picks");
        CHECK(k && k->wg_fn, "empty_masks picks (%s): a work-group function", builds[o]);
        if (k && k->wg_fn)
            run(k, ARGS(&ps, &pi, &px, &po, &pp), &r, 1);
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += out[i] != (sel[i] > 0 ? src[idx[i]] * 2.0f : (float)i) ||
                   spill[idx[i]] != (sel[i] > 0 ? src[idx[i]] * 2.0f + 1.0f : -1.0f);
        CHECK(!bad, "empty_masks picks (%s): %d of %d wrong", builds[o], bad, N);
        mosaic_executable_free(exe);
    }
}

TEST(phis_sharing_arrays)
{
    /* A loop's phi that crosses a barrier and the value that comes round to
     * it share one per-work-item array where neither is live while the
     * other is stored (regions.c, share_phi_slots): a sum (shared), the
     * same with its value also read after the next barrier (shared), an
     * inner loop's sum (shared, the value coming round is a phi), two
     * values that swap every iteration, and an old value read after the
     * new one is stored (neither may share).  Through the general K.wg,
     * against the work-items run as threads, and (optimised) the K.wg
     * built for groups of 16, whose rows are widened. */
    const char *src =
        "#define L 16\n"
        "kernel void sum(global const float *a, global float *out, local float *t, int n) {\n"
        "  int l = get_local_id(0), g = get_global_id(0);\n"
        "  float s = 0.0f;\n"
        "  for (int i = 0; i < n; i++) {\n"
        "    t[l] = a[(g * n + i) % 61];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    s += t[(l + 1) % L] * (float)(i + 1);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  out[g] = s;\n"
        "}\n"
        "kernel void sum_read(global const float *a, global float *out, local float *t, int n) {\n"
        "  int l = get_local_id(0), g = get_global_id(0);\n"
        "  float s = 1.0f;\n"
        "  for (int i = 0; i < n; i++) {\n"
        "    t[l] = a[(g + i) % 61];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    s = s * 0.5f + t[(l + 3) % L];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[g + 64 * (i % 2)] += s;\n"
        "  }\n"
        "  out[g] += 2.0f * s;\n"
        "}\n"
        "kernel void inner(global const float *a, global float *out, local float *t, int n) {\n"
        "  int l = get_local_id(0), g = get_global_id(0);\n"
        "  float s = (float)l;\n"
        "  for (int i = 0; i < 3; i++) {\n"
        "    t[l] = a[(g * 3 + i) % 61];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    for (int k = 0; k < n; k++)\n"
        "      s += t[(l + k) % L];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  out[g] = s;\n"
        "}\n"
        "kernel void swap(global const float *a, global float *out, local float *t, int n) {\n"
        "  int l = get_local_id(0), g = get_global_id(0);\n"
        "  float x = a[g % 61], y = -a[(g + 5) % 61];\n"
        "  for (int i = 0; i < n; i++) {\n"
        "    t[l] = x;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    float old = x;\n"
        "    x = y + t[(l + 3) % L];\n"
        "    y = old;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  out[g] = x * 3.0f + y;\n"
        "}\n"
        "kernel void old_after(global const float *a, global float *out, local float *t, int n) {\n"
        "  int l = get_local_id(0), g = get_global_id(0);\n"
        "  float s = a[g % 61], acc = 0.0f;\n"
        "  for (int i = 0; i < n; i++) {\n"
        "    t[l] = s;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    float next = t[(l + 1) % L] + s;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    acc += s * 2.0f;\n"
        "    s = next;\n"
        "  }\n"
        "  out[g] = acc + s;\n"
        "}\n";
    enum { N = 48, L = 16, OUT = 128 };
    static const char *const names[] = {"sum", "sum_read", "inner", "swap", "old_after"};
    float a[61];
    small_integers(a, 61, 7, 9);
    for (int o = 0; o < NUM_BUILDS; o++)
        for (unsigned kn = 0; kn < sizeof names / sizeof *names; kn++)
            for (int n = 1; n <= 5; n += 4) {
                mosaic_executable *exe = build(src, builds[o]);
                if (!exe)
                    continue;
                float out[OUT], general[OUT];
                const float *pa = a;
                float *po = out;
                uint64_t off = 0;
                range r = {1, {N}, {L}, L * sizeof(float)};
                void **args = ARGS(&pa, &po, &off, &n);
                for (int i = 0; i < OUT; i++)
                    out[i] = (float)(i % 5);
                both(exe, builds[o], names[kn], args, &r, out, sizeof out);
                memcpy(general, out, sizeof out);
                mosaic_kernel_info one;
                if (o > 0) { /* no builds for one size without optimisation */
                    mosaic_executable_free(exe);
                    continue;
                }
                if (!one_size_kernel(exe, names[kn], &r, &one))
                    continue;
                for (int i = 0; i < OUT; i++)
                    out[i] = (float)(i % 5);
                run(&one, args, &r, 1);
                int bad = 0, first = -1;
                for (int i = 0; i < OUT; i++)
                    if (out[i] != general[i] && !bad++)
                        first = i;
                CHECK(!bad, "phis_sharing_arrays, %s (%s), n = %d, built for groups of 16: %d wrong (first %d: %g, not %g)",
                      names[kn], builds[o], n, bad, first, first >= 0 ? out[first] : 0.0, first >= 0 ? general[first] : 0.0);
                mosaic_executable_free(exe);
            }
}

TEST(interleaved_rows)
{
    /* The y loop of a widened region whose row is one block with a long
     * floating-point chain runs 8, 4 or 2 rows an iteration, interleaved
     * (unroll_and_jam.c): the classic tiled SGEMM, whose k loop is 16 (or
     * 8) dependent multiply-adds once unrolled.  Groups of 16x16, 16x24,
     * 16x8 and 8x8 (8 rows an iteration with 32 vector registers, else 4),
     * 16x12 and 16x4 (4), 16x2 and 16x6 (2), 16x3 and 16x1 (odd: left
     * alone); every result exact and the same as the work-items'. */
    const char *src =
        "kernel void tiled(global const float *a, global const float *b, global float *c, int n) {\n"
        "  local float ta[TY][TX], tb[TX][TX];\n"
        "  int lx = get_local_id(0), ly = get_local_id(1), col = get_global_id(0), row = get_global_id(1);\n"
        "  float s = 0.0f;\n"
        "  for (int t = 0; t < n; t += TX) {\n"
        "    ta[ly][lx] = a[row * n + t + lx];\n"
        "    for (int r = ly; r < TX; r += TY)\n"
        "      tb[r][lx] = b[(t + r) * n + col];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    for (int k = 0; k < TX; k++)\n"
        "      s += ta[ly][k] * tb[k][lx];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  c[row * n + col] = s;\n"
        "}\n";
    enum { N = 48 };
    float a[N * N], bm[N * N];
    small_integers(a, N * N, 7, 9);
    small_integers(bm, N * N, 5, 7);
    size_t shapes[][2] = {{16, 16}, {16, 24}, {16, 12}, {16, 4}, {8, 8}, {16, 8}, {16, 2}, {16, 6}, {16, 3}, {16, 1}};
    for (unsigned c = 0; c < sizeof shapes / sizeof *shapes; c++) {
        size_t lx = shapes[c][0], ly = shapes[c][1];
        range r = {2, {N, N / ly * ly}, {lx, ly}, (ly * lx + lx * lx) * sizeof(float)};
        char options[64];
        snprintf(options, sizeof options, "%s -DTX=%zu -DTY=%zu", builds[0], lx, ly);
        static float out[N * N], by_wi[N * N];
        const float *pa = a, *pb = bm;
        float *po = out;
        int n = N;
        if (!build_and_run(src, options, "tiled", &r, ARGS(&pa, &pb, &po, &n), out, by_wi, sizeof out))
            continue;
        int first, bad = sgemm_wrong(a, bm, N, out, by_wi, (size_t)N * r.global[1], false, &first);
        CHECK(!bad, "interleaved_rows, groups of %zux%zu: %d wrong (first %d: %g, work-items %g)", lx, ly, bad, first,
              first >= 0 ? out[first] : 0.0, first >= 0 ? by_wi[first] : 0.0);
    }
}

TEST(neighbour_gathers)
{
    /* Accesses of neighbouring elements joined after optimisation
     * (interleaved_access.c), in the shape of CLBlast's XgemmDirectTN built
     * for its groups: tiles copied from float4 (or float2) loads into a
     * local tile, component by component (strided loads and scatters whose
     * lanes are a vector apart: one wide load and one wide store); A's tile
     * stored transposed and read by a k loop unrolled by two (two gathers
     * one element apart: one gather of pairs); the result stored with each
     * work-item's values side by side (scatters: one interleaved store).
     * A's columns are the same for every row of the group, so row 0 reads
     * them for all rows (redundant_loads.c: the other rows load row 0's
     * copy; those that depend on the row, B's, each row reads itself).
     * Groups of 8x8 with 4x4 and 2x2 values a work-item, and 4x4 with 4x4;
     * every result exact and the same as the work-items'. */
    const char *tn =
        "kernel void tn(int n, global const VT *a, global const VT *b, global float *c) {\n"
        "  local float at[WG][WG + 1], bt[WG][WG + 1];\n"
        "  int lx = get_local_id(0), ly = get_local_id(1), v = WG / L; /* values a work-item, each way */\n"
        "  float acc[WG / L][WG / L];\n"
        "  #pragma unroll\n"
        "  for (int i = 0; i < WG / L; i++)\n"
        "    #pragma unroll\n"
        "    for (int j = 0; j < WG / L; j++)\n"
        "      acc[i][j] = 0.0f;\n"
        "  for (int kw = 0; kw < n; kw += WG) {\n"
        "    #pragma unroll\n"
        "    for (int r = 0; r < WG / L; r++) {\n"
        "      int kk = ly * v + r;\n"
        "      VT x = a[(get_group_id(0) * WG + kk) * (n / W) + kw / W + lx];\n"
        "      VT y = b[(kw + kk) * (n / W) + get_group_id(1) * (WG / W) + lx];\n"
        "      at[kk][lx * W + 0] = x.s0; at[kk][lx * W + 1] = x.s1;\n"
        "      bt[kk][lx * W + 0] = y.s0; bt[kk][lx * W + 1] = y.s1;\n"
        "#if W == 4\n"
        "      at[kk][lx * W + 2] = x.s2; at[kk][lx * W + 3] = x.s3;\n"
        "      bt[kk][lx * W + 2] = y.s2; bt[kk][lx * W + 3] = y.s3;\n"
        "#endif\n"
        "    }\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    for (int k = 0; k < WG; k += 2) {\n"
        "      #pragma unroll\n"
        "      for (int p = 0; p < 2; p++) {\n"
        "        float ap[WG / L], bp[WG / L];\n"
        "        #pragma unroll\n"
        "        for (int i = 0; i < WG / L; i++) {\n"
        "          ap[i] = at[lx * v + i][k + p];\n"
        "          bp[i] = bt[k + p][ly * v + i];\n"
        "        }\n"
        "        #pragma unroll\n"
        "        for (int j = 0; j < WG / L; j++)\n"
        "          #pragma unroll\n"
        "          for (int i = 0; i < WG / L; i++)\n"
        "            acc[j][i] += ap[i] * bp[j];\n"
        "      }\n"
        "    }\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  #pragma unroll\n"
        "  for (int j = 0; j < WG / L; j++)\n"
        "    #pragma unroll\n"
        "    for (int i = 0; i < WG / L; i++)\n"
        "      c[(get_group_id(1) * WG + ly * v + j) * n + get_group_id(0) * WG + lx * v + i] = acc[j][i];\n"
        "}\n";
    enum { N = 64 };
    float a[N * N], bm[N * N];
    small_integers(a, N * N, 7, 9);
    small_integers(bm, N * N, 5, 7);
    static const struct { int group, tile, width; } shapes[] = {{8, 32, 4}, {8, 16, 2}, {4, 16, 4}};
    for (unsigned c = 0; c < sizeof shapes / sizeof *shapes; c++) {
        int l = shapes[c].group, wg = shapes[c].tile, w = shapes[c].width;
        range r = {2, {(size_t)(N / wg * l), (size_t)(N / wg * l)}, {(size_t)l, (size_t)l},
                   2 * (size_t)wg * (wg + 1) * sizeof(float)};
        char options[96];
        snprintf(options, sizeof options, "%s -DL=%d -DWG=%d -DW=%d -DVT=float%d", builds[0], l, wg, w, w);
        static float out[N * N], by_wi[N * N];
        const float *pa = a, *pb = bm;
        float *po = out;
        int n = N;
        if (!build_and_run(tn, options, "tn", &r, ARGS(&n, &pa, &pb, &po), out, by_wi, sizeof out))
            continue;
        int first, bad = sgemm_wrong(a, bm, N, out, by_wi, N * N, true, &first); /* c[col][row] */
        CHECK(!bad, "neighbour_gathers tn, groups of %dx%d, tile %d, float%d: %d wrong (first %d: %g, work-items %g)",
              l, l, wg, w, bad, first, first >= 0 ? out[first] : 0.0, first >= 0 ? by_wi[first] : 0.0);
    }

    /* Accesses that must not be joined: a work-item's .y read back (at an
     * index only known when it runs) between its .y and .z stores, which
     * would move past the load; and a load of .z after a store there, which
     * would move before it.  The loop that carries a float makes the build
     * for one size widen its rows, so the accesses are gathers and scatters. */
    const char *order =
        "kernel void order(global const float4 *in, global float *out, int n, int m) {\n"
        "  local float t[4 * 64];\n"
        "  int l = get_local_id(0);\n"
        "  float4 v = in[get_global_id(0)];\n"
        "  float s = 0.0f;\n"
        "  for (int k = 0; k < n; k++)\n"
        "    s = s * 0.5f + v.x;\n"
        "  t[l * 4 + 0] = -1.0f; t[l * 4 + 1] = -1.0f; t[l * 4 + 2] = -1.0f; t[l * 4 + 3] = -1.0f;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  t[l * 4 + 0] = v.x + s; t[l * 4 + 1] = v.y;\n"
        "  float peek = t[l * 4 + m];\n"
        "  t[l * 4 + 2] = v.z + peek; t[l * 4 + 3] = v.w;\n"
        "  float y = t[l * 4 + n];\n"
        "  t[l * 4 + n + m] = y * 3.0f;\n"
        "  float q = t[l * 4 + n + 1];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  out[get_global_id(0)] = t[l * 4] + 10.0f * peek + 100.0f * q + 1000.0f * t[(l + 1) % (int)get_local_size(0) * 4 + 3];\n"
        "}\n";
    enum { M = 128 };
    float in[4 * M], out[M], by_wi[M];
    small_integers(in, 4 * M, 3, 5);
    for (size_t group = 16; group <= 64; group *= 2) {
        range r = {1, {M}, {group}, 4 * 64 * sizeof(float)};
        const float *pi = in;
        float *po = out;
        int n = 1, m = 1;
        if (!build_and_run(order, builds[0], "order", &r, ARGS(&pi, &po, &n, &m), out, by_wi, sizeof out))
            continue;
        int bad = 0;
        for (int i = 0; i < M; i++) {
            const float *v = &in[4 * i];
            int next = i / (int)group * (int)group + (i % (int)group + 1) % (int)group;
            float want = 2.0f * v[0] + 10.0f * v[1] + 100.0f * (3.0f * v[1]) + 1000.0f * in[4 * next + 3];
            bad += out[i] != want || by_wi[i] != want;
        }
        CHECK(!bad, "neighbour_gathers order, groups of %zu: %d wrong", group, bad);
    }
}

TEST(widened_rows)
{
    /* A barrier kernel built for one local size whose rows are a multiple
     * of 4 work-items runs between barriers as K.row, a row's work-items as
     * the lanes of vectors (wfv.c, mc_wfv_rows), when it has a loop that
     * carries a floating-point value.  Here: a branch on a test of the
     * global id with barriers on both ways, which the group takes as one
     * (barriers decide it); a tile loop whose sum crosses its barriers; an
     * inner loop with an if that only odd work-items take (masked lanes);
     * an early return after the last barrier.  Rows of 8, 16, 4, 32, 64
     * and 12 (4 lanes at a time); rows of 6 keep the scalar regions.  Every
     * value is a small integer, exact in float. */
    const char *src =
        "kernel void rows(global const float *a, global float *out, local float *t, int n, int split) {\n"
        "  int lx = get_local_id(0), ly = get_local_id(1), sx = get_local_size(0);\n"
        "  int gx = get_global_id(0), gy = get_global_id(1);\n"
        "  float s = 0.0f, m = -1.0f;\n"
        "  if (gx < split) {\n"
        "    for (int t0 = 0; t0 < n; t0 += sx) {\n"
        "      t[ly * sx + lx] = a[(gy * n + t0 + lx) % 61];\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      for (int k = 0; k < sx; k++) {\n"
        "        float v = t[ly * sx + k] * (float)(lx + 1);\n"
        "        s += v;\n"
        "        if (lx & 1)\n"
        "          m = fmax(m, v);\n"
        "      }\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    }\n"
        "  } else {\n"
        "    t[ly * sx + lx] = (float)(lx * 3 + ly);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    s = t[ly * sx + (sx - 1 - lx)];\n"
        "  }\n"
        "  if (gx >= n)\n"
        "    return;\n"
        "  out[gy * n + gx] = s + 1000.0f * m;\n"
        "}\n";
    float a[61];
    small_integers(a, 61, 7, 9);
    /* local x, y; global x, y */
    size_t shapes[][4] = {{8, 2, 32, 4}, {16, 2, 48, 4}, {4, 4, 16, 8}, {32, 1, 64, 2},
                          {64, 1, 128, 2}, {12, 2, 36, 4}, {6, 2, 36, 4}};
    for (unsigned c = 0; c < sizeof shapes / sizeof *shapes; c++) {
        enum { MAX = 128 * 8 };
        size_t lx = shapes[c][0], ly = shapes[c][1], gx = shapes[c][2], gy = shapes[c][3];
        int n = (int)(gx - lx), split = (int)(gx / lx / 2 * lx); /* the last column of groups returns early */
        float out[MAX];
        for (int i = 0; i < MAX; i++)
            out[i] = -7.0f;
        const float *pa = a;
        float *po = out;
        uint64_t t_offset = 0;
        range r = {2, {gx, gy}, {lx, ly}, lx * ly * sizeof(float)};
        mosaic_executable *exe = build(src, builds[0]); /* a build for each size (at most 4 a kernel) */
        mosaic_kernel_info one;
        if (!one_size_kernel(exe, "rows", &r, &one))
            continue;
        float by_wi[MAX];
        void **args = ARGS(&pa, &po, &t_offset, &n, &split);
        run(&one, args, &r, 0);
        memcpy(by_wi, out, sizeof out);
        for (int i = 0; i < MAX; i++)
            out[i] = -7.0f;
        run(&one, args, &r, 1);
        int bad = 0, first = -1;
        for (int i = 0; i < MAX; i++)
            if (out[i] != by_wi[i] && !bad++)
                first = i;
        CHECK(!bad, "widened_rows, groups of %zux%zu: %d of %d differ from the work-items' (first %d: %g, want %g)",
              lx, ly, bad, MAX, first, first >= 0 ? out[first] : 0.0, first >= 0 ? by_wi[first] : 0.0);
        CHECK(by_wi[0] != -7.0f && by_wi[n - 1] != -7.0f && by_wi[n] != -7.0f && out[n] != -7.0f,
              "widened_rows, groups of %zux%zu: rows not written", lx, ly);
        mosaic_executable_free(exe);
    }

    /* A row whose work-items disagree about such a branch (undefined in
     * OpenCL) takes its first work-item's way and is reported. */
    const char *disagree = "kernel void k(global float *out, local float *t) {\n"
                           "  int lx = get_local_id(0);\n"
                           "  float s = 0.0f;\n"
                           "  for (int k = 0; k < 5; k++)\n"
                           "    s += (float)(k * lx);\n"
                           "  if (lx < 3) {\n"
                           "    t[lx] = s;\n"
                           "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                           "    s += t[0];\n"
                           "  } else {\n"
                           "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                           "    s -= 1.0f;\n"
                           "  }\n"
                           "  out[get_global_id(0)] = s;\n"
                           "}\n";
    mosaic_executable *exe = build(disagree, builds[0]);
    if (!exe)
        return;
    range r = {1, {16}, {8}, 8 * sizeof(float)};
    mosaic_wg_fn fn = wg_for_range(exe, "k", &r);
    if (fn) {
        mosaic_kernel_info one = *mosaic_executable_find_kernel(exe, "k");
        one.wg_fn = fn;
        float out[16], *po = out;
        uint64_t off = 0;
        atomic_store(&divergence_reports, 0);
        run(&one, ARGS(&po, &off), &r, 1);
        CHECK(atomic_load(&divergence_reports) == 2, "widened_rows: %d divergence reports for 2 groups",
              atomic_load(&divergence_reports));
    }
    mosaic_executable_free(exe);
}

/* ---- K.wg that is invalid IR (src/compiler/regions.c, verify_wg) ------------------------- */

#define INVALID_WG_CHILD "--invalid-wg-child"

/* A block with no terminator: the verifier refuses the function. */
static void break_wg(LLVMValueRef wg)
{
    LLVMAppendBasicBlockInContext(LLVMGetModuleContext(LLVMGetGlobalParent(wg)), wg, "broken");
}

/* test_regions --invalid-wg-child: builds a barrier kernel whose K.wg is
 * broken just before it is verified.  With assertions that aborts; without,
 * it exits 0 when the kernel was left to the fibers (no wg_fn), else 1. */
static int invalid_wg_child(void)
{
    const char *src = "kernel void k(global int *out, local int *tmp) {\n"
                      "  size_t l = get_local_id(0);\n"
                      "  tmp[l] = (int)l;\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  out[get_global_id(0)] = tmp[get_local_size(0) - 1 - l];\n"
                      "}\n";
    mc_regions_test_hook = break_wg;
    mosaic_executable *exe = build(src, NULL);
    if (!exe)
        return 2;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "k");
    int status = k && !k->wg_fn ? 0 : 1;
    mosaic_executable_free(exe);
    return status;
}

TEST(invalid_ir_aborts)
{
    /* invalid IR built for K.wg is a bug, not a kernel to leave to the
     * fibers: with assertions (MOSAIC_ASSERTIONS) the build aborts with the
     * verifier's message; without, the kernel runs as fibers.  In a child
     * process (this program again), without the cache, which would skip
     * the build */
    size_t n = 0, m = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    int fds[2];
    if (!env || pipe(fds)) {
        free(env);
        TEST_FAIL("no memory or no pipe");
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "MOSAIC_CACHE=", 13))
            env[m++] = environ[i];
    env[m] = "MOSAIC_CACHE=0";
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        char *args[] = {"test_regions", INVALID_WG_CHILD, NULL};
        execve("/proc/self/exe", args, env);
        _exit(127);
    }
    close(fds[1]);
    char out[16384];
    size_t len = 0;
    ssize_t got;
    while ((got = read(fds[0], out + len, sizeof out - 1 - len)) > 0)
        len += (size_t)got;
    out[len] = 0;
    close(fds[0]);
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    free(env);
#if MOSAIC_ASSERTIONS
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "the child should abort; its status %#x, stderr:\n%s",
          status, out);
    CHECK(strstr(out, "does not have terminator"), "the verifier's message on stderr:\n%s", out);
    CHECK(strstr(out, "assertion failed"), "the assertion on stderr:\n%s", out);
#else
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the kernel should run as fibers; status %#x, stderr:\n%s",
          status, out);
#endif
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], INVALID_WG_CHILD))
        return invalid_wg_child();
    test_run(argc, argv);
    return test_summary();
}

/* ---- groups of a column run together (src/compiler/workgroup/coarsening.c) --------------------------- */

/* ctx for group g of r's launch, its arena at local_mem (scratch after r->local_bytes). */
static void group_ctx(const range *r, const size_t groups[3], const size_t g[3], char *local_mem,
                      mosaic_wg_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->work_dim = r->dim;
    for (int d = 0; d < 3; d++) {
        bool in = (unsigned)d < r->dim;
        ctx->global_size[d] = in ? r->global[d] : 1;
        ctx->enqueued_local_size[d] = in ? r->local[d] : 1;
        ctx->num_groups[d] = groups[d];
        ctx->group_id[d] = g[d];
        size_t left = ctx->global_size[d] - g[d] * ctx->enqueued_local_size[d];
        ctx->local_size[d] = left < ctx->enqueued_local_size[d] ? left : ctx->enqueued_local_size[d];
    }
    ctx->local_mem = local_mem;
    ctx->local_mem_size = r->local_bytes;
    ctx->wg_scratch = local_mem + (r->local_bytes + 127) / 128 * 128;
}

/* Runs r's launch as the CPU device does a job whose groups run fused_groups
 * at a time: each whole column of that many groups through sized.fused
 * (arenas equally spaced, a byte pattern in each), the others one by one
 * through sized.whole or k->wg_fn.  How many columns went through K.fused. */
static int run_fused(const mosaic_kernel_info *k, mosaic_sized_wg sized, void **args, const range *r)
{
    size_t groups[3] = {1, 1, 1}, items = 1;
    for (unsigned d = 0; d < r->dim; d++) {
        groups[d] = (r->global[d] + r->local[d] - 1) / r->local[d];
        items *= r->local[d];
    }
    unsigned f = sized.fused_groups;
    size_t arena = ((r->local_bytes + 127) / 128 * 128 + MOSAIC_WG_SCRATCH_SIZE(items) + 127) / 128 * 128;
    char *mem = aligned_alloc(128, f * arena);
    mosaic_wg_ctx ctx[MOSAIC_MAX_FUSED_GROUPS];
    int fused = 0;
    for (size_t gz = 0; gz < groups[2]; gz++)
        for (size_t gy = 0; gy < groups[1]; gy += f)
            for (size_t gx = 0; gx < groups[0]; gx++) {
                bool whole = gy + f <= groups[1];
                for (unsigned i = 0; i < f && whole; i++) {
                    size_t g[3] = {gx, gy + i, gz};
                    group_ctx(r, groups, g, mem + i * arena, &ctx[i]);
                    for (int d = 0; d < 3; d++)
                        whole &= ctx[i].local_size[d] == ctx[i].enqueued_local_size[d];
                }
                memset(mem, 0xcd, f * arena);
                if (whole) {
                    sized.fused((void *const *)args, ctx);
                    fused++;
                    continue;
                }
                for (size_t i = 0; i < f && gy + i < groups[1]; i++) {
                    size_t g[3] = {gx, gy + i, gz};
                    group_ctx(r, groups, g, mem, &ctx[0]);
                    bool one = true;
                    for (int d = 0; d < 3; d++)
                        one &= ctx[0].local_size[d] == ctx[0].enqueued_local_size[d];
                    (one ? sized.whole : k->wg_fn)((void *const *)args, &ctx[0]);
                }
            }
    free(mem);
    return fused;
}

/* Kernel `name` built for r's local size: K.fused, checked to be there (or
 * not, as `want` says). */
static mosaic_sized_wg sized_for(mosaic_executable *exe, const char *name, const range *r, bool want)
{
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, name);
    size_t local[3] = {1, 1, 1};
    for (unsigned d = 0; d < r->dim; d++)
        local[d] = r->local[d];
    mosaic_sized_wg none = {NULL, NULL, 0};
    mosaic_sized_wg s = k ? mosaic_executable_wg_for_size(exe, k, local, 1, true) : none;
    CHECK(s.whole && !!s.fused == want && (!want || s.fused_groups > 1), "%s: %s K.fused (groups %u)", name,
          want ? "a" : "no", s.fused_groups);
    return s;
}

TEST(fused_columns)
{
    /* Tiled matrix product with a static __local tile and a __local
     * argument (both moved to each group's arena), what each work-item sees
     * of its group written beside it; 8 columns of 8x8 groups, 5 groups a
     * column: one column of 4 through K.fused, the fifth group alone. */
    const char *mm = "kernel void mm(global const float *a, global const float *b, global float *c,\n"
                     "               global int *seen, int n, local float *tb) {\n"
                     "  local float ta[8][8];\n"
                     "  int lx = get_local_id(0), ly = get_local_id(1);\n"
                     "  int col = get_global_id(0), row = get_global_id(1);\n"
                     "  float s = 0.0f;\n"
                     "  for (int t = 0; t < n; t += 8) {\n"
                     "    ta[ly][lx] = a[row * n + t + lx];\n"
                     "    tb[ly * 8 + lx] = b[(t + ly) * n + col];\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    for (int k = 0; k < 8; k++) s += ta[ly][k] * tb[k * 8 + lx];\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "  }\n"
                     "  c[row * n + col] = s;\n"
                     "  seen[row * n + col] = (int)get_group_id(1) * 100000 + (int)get_local_size(1) * 1000 +\n"
                     "      (int)get_enqueued_local_size(1) * 10 + (int)get_local_id(1) +\n"
                     "      (int)get_num_groups(1) * 1000000;\n"
                     "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(mm, builds[o]);
        if (!exe)
            continue;
        if (o == 1) { /* -cl-opt-disable: no builds for one size, so none for columns */
            const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, "mm");
            size_t local[3] = {8, 8, 1};
            CHECK(k && !mosaic_executable_wg_for_size(exe, k, local, 1, true).fused, "mm: K.fused with -cl-opt-disable");
            mosaic_executable_free(exe);
            continue;
        }
        enum { N = 64, ROWS = 40 };
        float *a = malloc(sizeof(float) * N * N), *b = malloc(sizeof(float) * N * N);
        float *c = calloc(N * N, sizeof(float));
        int *seen = calloc(N * N, sizeof(int));
        small_integers(a, N * N, 7, 9);
        small_integers(b, N * N, 5, 7);
        int n = N;
        uint64_t tb_at = 256; /* after ta */
        range r = {2, {N, ROWS}, {8, 8}, 512};
        mosaic_sized_wg s = sized_for(exe, "mm", &r, true);
        if (s.fused) {
            int columns =
                run_fused(mosaic_executable_find_kernel(exe, "mm"), s, ARGS(&a, &b, &c, &seen, &n, &tb_at), &r);
            CHECK(columns == 8, "mm: %d columns through K.fused, expected 8", columns);
            int first, bad = sgemm_wrong(a, b, N, c, c, (size_t)N * ROWS, false, &first);
            CHECK(!bad, "mm: %d wrong elements of C, the first at %d (%g)", bad, first, first >= 0 ? c[first] : 0.0);
            int wrong = 0;
            for (int i = 0; i < N * ROWS; i++)
                wrong += seen[i] != (i / N) / 8 * 100000 + 8 * 1000 + 80 + (i / N) % 8 + 5 * 1000000;
            CHECK(!wrong, "mm: %d work-items saw the wrong group or size", wrong);
        }
        free(a), free(b), free(c), free(seen);
        mosaic_executable_free(exe);
    }

    /* 3D groups of 4x2x2 (the deep group is 4x2x8), a work-group reduction
     * (its scratch moved too), and reads down the columns of a table the
     * groups of a column share */
    const char *k3 = "kernel void k3(global const int *in, global int *out, int w) {\n"
                     "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
                     "  int acc = 0;\n"
                     "  for (int t = 0; t < 3; t++) {\n"
                     "    int v = in[(t * 4 + (int)get_local_id(0)) * w + z];\n"
                     "    acc += work_group_reduce_add(v + (int)get_local_id(1) + 10 * (int)get_local_id(2));\n"
                     "  }\n"
                     "  out[(z * 16 + y) * 8 + x] = acc * 1000 + (int)get_group_id(1) * 100 +\n"
                     "      (int)get_local_size(2) * 10 + (int)get_local_id(2);\n"
                     "}\n";
    mosaic_executable *exe = build(k3, builds[0]);
    if (exe) {
        int in[64], out[8 * 16 * 4], want[8 * 16 * 4];
        for (int i = 0; i < 64; i++)
            in[i] = i * 3 - 50;
        range r = {3, {8, 16, 4}, {4, 2, 2}, 0};
        mosaic_sized_wg s = sized_for(exe, "k3", &r, true);
        int *pi = in, *po = out, w = 4;
        if (s.fused) {
            memset(out, 0, sizeof out);
            int columns = run_fused(mosaic_executable_find_kernel(exe, "k3"), s, ARGS(&pi, &po, &w), &r);
            CHECK(columns == 2 * 2 * 2, "k3: %d columns through K.fused, expected 8", columns);
            for (int z = 0; z < 4; z++)
                for (int y = 0; y < 16; y++)
                    for (int x = 0; x < 8; x++) {
                        int acc = 0, gx = x / 4 * 4, gz = z / 2 * 2;
                        for (int t = 0; t < 3; t++)
                            for (int lz = 0; lz < 2; lz++)
                                for (int ly = 0; ly < 2; ly++)
                                    for (int lx = 0; lx < 4; lx++)
                                        acc += in[(t * 4 + lx) * 4 + gz + lz] + ly + 10 * lz;
                        (void)gx;
                        want[(z * 16 + y) * 8 + x] = acc * 1000 + y / 2 * 100 + 20 + z % 2;
                    }
            int first = -1;
            for (int i = 0; i < 8 * 16 * 4 && first < 0; i++)
                if (out[i] != want[i])
                    first = i;
            CHECK(first < 0, "k3: out[%d] = %d, expected %d", first, first >= 0 ? out[first] : 0,
                  first >= 0 ? want[first] : 0);
        }
        mosaic_executable_free(exe);
    }

    /* Not run together: the number of barriers a group reaches depends on
     * its y; no read the groups of a column share */
    const char *no = "kernel void trips(global int *out, local int *tmp) {\n"
                     "  size_t l = get_local_id(0);\n"
                     "  int acc = out[get_global_id(1) * get_global_size(0) + get_global_id(0)];\n"
                     "  for (int t = 0; t < (int)get_group_id(1); t++) {\n"
                     "    tmp[l] = acc + out[t];\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    acc += tmp[(l + 1) % get_local_size(0)];\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "  }\n"
                     "  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = acc;\n"
                     "}\n"
                     "kernel void own(global int *out, local int *tmp) {\n"
                     "  size_t l = get_local_id(0), i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
                     "  int acc = 0;\n"
                     "  for (int t = 0; t < 4; t++) {\n"
                     "    tmp[l] = out[i] + t;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    acc += tmp[(l + 1) % get_local_size(0)];\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "  }\n"
                     "  out[i] = acc;\n"
                     "}\n";
    exe = build(no, builds[0]);
    if (exe) {
        range r = {2, {16, 16}, {8, 2}, 64};
        sized_for(exe, "trips", &r, false);
        sized_for(exe, "own", &r, false);
        mosaic_executable_free(exe);
    }
}

/* ---- loops with barriers run in step (src/compiler/workgroup/barrier_loops.c) -------------------------- */

/* The first int (or float) of `bytes` at which got differs from want, or -1. */
static int first_difference(const void *got, const void *want, size_t bytes)
{
    for (size_t i = 0; i < bytes / 4; i++)
        if (memcmp((const char *)got + 4 * i, (const char *)want + 4 * i, 4))
            return (int)i;
    return -1;
}

/* Kernel `name` of exe run from `initial` (bytes of it, which args' out
 * points to) through K.wi as threads and K.wg (both(): they must agree),
 * and, built for r's local size (the optimised build; whole groups only),
 * through that K.wg and its K.fused when it has one: each result must be
 * `want` (ints, or floats when `floats`). */
static void check_in_step(mosaic_executable *exe, int o, const char *name, void **args, const range *r, void *out,
                          const void *initial, const void *want, size_t bytes, bool floats)
{
    static const char *const ways[] = {"K.wg", "K.wg built for its local size", "K.fused"};
    bool whole = true;
    for (unsigned d = 0; d < r->dim; d++)
        whole &= r->global[d] % r->local[d] == 0;
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, name);
    size_t local[3] = {1, 1, 1};
    for (unsigned d = 0; d < r->dim; d++)
        local[d] = r->local[d];
    mosaic_sized_wg s = {NULL, NULL, 0};
    if (k && o == 0 && whole) /* (no builds for one size without optimisation) */
        s = mosaic_executable_wg_for_size(exe, k, local, 1, true);
    for (int way = 0; way < 3; way++) {
        memcpy(out, initial, bytes);
        mosaic_kernel_info one = k ? *k : (mosaic_kernel_info){0};
        if (way == 0) {
            both(exe, builds[o], name, args, r, out, bytes);
        } else if (way == 1 && s.whole) {
            one.wg_fn = s.whole;
            run(&one, args, r, 1);
        } else if (way == 2 && s.fused) {
            run_fused(k, s, args, r);
        } else {
            CHECK(way > 1 || !whole || o > 0, "%s: a work-group function for its local size", name);
            continue;
        }
        int i = first_difference(out, want, bytes);
        if (floats)
            CHECK(i < 0, "%s (%s), %s: element %d is %g, expected %g", name, builds[o], ways[way], i,
                  i >= 0 ? ((float *)out)[i] : 0.0, i >= 0 ? ((const float *)want)[i] : 0.0);
        else
            CHECK(i < 0, "%s (%s), %s: element %d is %d, expected %d", name, builds[o], ways[way], i,
                  i >= 0 ? ((int *)out)[i] : 0, i >= 0 ? ((const int *)want)[i] : 0);
    }
}

TEST(loops_in_step)
{
    /* No work-item starts an iteration of a loop with barriers before the
     * whole group has finished the previous one, as on GPUs: work-item 0
     * resets a __local counter at the top of the loop with no barrier
     * before it, and every work-item reads the counter after the loop's
     * last barrier (OpenCV's face detector does so).  Cut into regions, the
     * region from the last barrier round to the first ran work-item 0's
     * read and its reset before work-item 1's read, which saw 0.  reset: the
     * plain loop; dowhile: its latch also leaves the loop (the barrier goes
     * in a block of its own on the back edge); twice: a `continue` beside
     * the loop's end, both one switch of clang's with two cases to the
     * header; latches: two blocks that go round, each its own back edge;
     * unrolled: the same under `#pragma unroll`; stages: a tile
     * loop with a `continue`, around a stage loop with a `break` (OpenCV's
     * shape); columns: each row of an 8x8 group writes its slot at the top
     * and reads the next row's at the end (the last row read row 0's next
     * iteration), without ifs, so that the one-size build widens its rows
     * and runs four groups of a column at a time. */
    const char *src =
        "kernel void reset(global int *out, local int *cnt, int n) {\n"
        "  int l = get_local_id(0);\n"
        "  for (int it = 0; it < n; it++) {\n"
        "    if (l == 0) cnt[0] = 0;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    atomic_inc(cnt);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[get_global_id(0) * 4 + it] = cnt[0];\n"
        "  }\n"
        "}\n"
        "kernel void dowhile(global int *out, local int *cnt, int n) {\n"
        "  int l = get_local_id(0), it = 0;\n"
        "  do {\n"
        "    if (l == 0) cnt[0] = it * 100;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    atomic_inc(cnt);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[get_global_id(0) * 4 + it] = cnt[0];\n"
        "  } while (++it < n);\n"
        "}\n"
        "kernel void twice(global int *out, local int *cnt, int n) {\n"
        "  int l = get_local_id(0), it = 0;\n"
        "  for (;;) {\n"
        "    if (l == 0) cnt[0] = it * 100;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    atomic_inc(cnt);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    int v = cnt[0];\n"
        "    if (++it >= n) break;\n"
        "    if (it & 1) {\n"
        "      out[get_global_id(0) * 4 + it - 1] = v;\n"
        "      continue;\n"
        "    }\n"
        "    out[get_global_id(0) * 4 + it - 1] = v + 1;\n"
        "  }\n"
        "}\n"
        "kernel void latches(global int *out, local int *cnt, int n) {\n"
        "  int l = get_local_id(0), it = 0;\n"
        "  for (;;) {\n"
        "    if (l == 0) cnt[0] = it * 100;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    atomic_inc(cnt);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    it++;\n"
        "    if (it & 1) {\n"
        "      out[get_global_id(0) * 4 + it - 1] = cnt[0];\n"
        "      if (it >= n) break;\n"
        "      continue;\n"
        "    }\n"
        "    out[get_global_id(0) * 4 + it - 1] = cnt[0] + 1;\n"
        "    if (it >= n) break;\n"
        "  }\n"
        "}\n"
        "kernel void unrolled(global int *out, local int *cnt, int n) {\n"
        "  int l = get_local_id(0);\n"
        "  #pragma unroll\n"
        "  for (int it = 0; it < 3; it++) {\n"
        "    if (l == 0) cnt[0] = it * 1000;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    atomic_add(cnt, l + 1);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[get_global_id(0) * 4 + it] = cnt[0];\n"
        "  }\n"
        "}\n"
        "kernel void stages(global const int *in, global int *out, local int *cnt, int tiles) {\n"
        "  int l = get_local_id(0), n = get_local_size(0);\n"
        "  for (int t = get_group_id(0); t < tiles; t += get_num_groups(0)) {\n"
        "    if (t % 3 == 2)\n"
        "      continue;\n"
        "    if (l == 0) cnt[0] = 0;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    int v = in[t * n + l];\n"
        "    if (v > 0) atomic_inc(cnt);\n"
        "    for (int s = 1; s < 4; s++) {\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      if (cnt[0] == 0) break;\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      if (l == 0) cnt[0] = 0;\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      if (v > s) atomic_inc(cnt);\n"
        "    }\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[t * n + l] = cnt[0];\n"
        "  }\n"
        "}\n"
        "kernel void columns(global const float *b, global float *out, local float *t, local int *m, int n) {\n"
        "  int lx = get_local_id(0), ly = get_local_id(1), col = get_global_id(0), row = get_global_id(1);\n"
        "  float s = 0.0f;\n"
        "  for (int i = 0; i < n; i += 8) {\n"
        "    m[ly] = i;\n"
        "    t[ly * 8 + lx] = b[(i + ly) * n + col];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    for (int k = 0; k < 8; k++)\n"
        "      s += t[k * 8 + lx] * (float)(row % 5 + 1);\n"
        "    m[ly] = i + 1000;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    s += (float)m[(ly + 1) % 8];\n"
        "  }\n"
        "  out[row * n + col] = s;\n"
        "}\n";
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        uint64_t off = 0, m_at = 256; /* (columns: m after t) */

        /* reset and unrolled: 48 work-items in groups of 16, and 40 (the last group 8) */
        enum { N = 48, L = 16 };
        int out[N * 4], initial[N * 4], want[N * 4];
        for (int i = 0; i < N * 4; i++)
            initial[i] = -1;
        for (size_t items = N - 8; items <= N; items += 8)
            for (int n = 1; n <= 3; n++) {
                size_t bytes = items * 4 * sizeof(int);
                int last = (int)(items % L ? items % L : L); /* the last group's size */
                for (size_t i = 0; i < items * 4; i++)
                    want[i] = (int)i % 4 < n ? (i / 4 < items - (size_t)last ? L : last) : -1;
                range r = {1, {items}, {L}, 4};
                int *po = out;
                check_in_step(exe, o, "reset", ARGS(&po, &off, &n), &r, out, initial, want, bytes, false);
                for (size_t i = 0; i < items * 4; i++) {
                    int size = i / 4 < items - (size_t)last ? L : last;
                    want[i] = i % 4 < 3 ? (int)(i % 4) * 1000 + size * (size + 1) / 2 : -1;
                }
                check_in_step(exe, o, "unrolled", ARGS(&po, &off, &n), &r, out, initial, want, bytes, false);
                for (size_t i = 0; i < items * 4; i++) {
                    int size = i / 4 < items - (size_t)last ? L : last, it = (int)(i % 4);
                    want[i] = it < n ? it * 100 + size : -1;
                }
                check_in_step(exe, o, "dowhile", ARGS(&po, &off, &n), &r, out, initial, want, bytes, false);
                for (size_t i = 0; i < items * 4; i++) {
                    int size = i / 4 < items - (size_t)last ? L : last, it = (int)(i % 4);
                    want[i] = it < n - 1 ? it * 100 + size + it % 2 : -1;
                }
                check_in_step(exe, o, "twice", ARGS(&po, &off, &n), &r, out, initial, want, bytes, false);
                for (size_t i = 0; i < items * 4; i++) {
                    int size = i / 4 < items - (size_t)last ? L : last, it = (int)(i % 4);
                    want[i] = it < n ? it * 100 + size + it % 2 : -1;
                }
                check_in_step(exe, o, "latches", ARGS(&po, &off, &n), &r, out, initial, want, bytes, false);
            }

        /* stages: 2 groups of 16 over 9 tiles, every third skipped */
        enum { TILES = 9 };
        int in[TILES * L], sout[TILES * L], sinit[TILES * L], swant[TILES * L];
        for (int i = 0; i < TILES * L; i++) {
            in[i] = i / L == 4 ? -(i % 3) : (i * 7 + i / L) % 9 - 2; /* tile 4: a break at once */
            sinit[i] = swant[i] = -1;
        }
        for (int t = 0; t < TILES; t++) {
            if (t % 3 == 2)
                continue;
            int c = 0;
            for (int l = 0; l < L; l++)
                c += in[t * L + l] > 0;
            for (int s = 1; s < 4 && c; s++) {
                c = 0;
                for (int l = 0; l < L; l++)
                    c += in[t * L + l] > s;
            }
            for (int l = 0; l < L; l++)
                swant[t * L + l] = c;
        }
        range rs = {1, {2 * L}, {L}, 4};
        int tiles = TILES, *pin = in, *pso = sout;
        check_in_step(exe, o, "stages", ARGS(&pin, &pso, &off, &tiles), &rs, sout, sinit, swant, sizeof sout,
                      false);

        /* columns: 64 columns, 40 rows of 8x8 groups */
        enum { C = 64, ROWS = 40 };
        static float b[C * C], cout[C * ROWS], cinit[C * ROWS], cwant[C * ROWS];
        small_integers(b, C * C, 5, 7);
        for (int row = 0; row < ROWS; row++)
            for (int col = 0; col < C; col++) {
                float s = 0.0f;
                for (int i = 0; i < C; i += 8) {
                    for (int k = 0; k < 8; k++)
                        s += b[(i + k) * C + col] * (float)(row % 5 + 1);
                    s += (float)(i + 1000);
                }
                cwant[row * C + col] = s;
                cinit[row * C + col] = -1.0f;
            }
        range rc = {2, {C, ROWS}, {8, 8}, 256 + 32};
        float *pb = b, *pco = cout;
        int n = C;
        check_in_step(exe, o, "columns", ARGS(&pb, &pco, &off, &m_at, &n), &rc, cout, cinit, cwant, sizeof cout,
                      true);
        if (o == 0) /* (so K.fused did run) */
            sized_for(exe, "columns", &rc, true);
        mosaic_executable_free(exe);
    }
}

TEST(loops_in_step_only_where_needed)
{
    /* A loop whose iterations end with a barrier (only its counter's update
     * after it), or start with one, gets no barrier on its back edge, so no
     * region more: a tiled product, a tree reduction, a scan of two
     * buffers, and a scan whose loop starts with its barrier reach as many
     * barriers, run as work-items (threads), as their source says; the
     * counter reset of loops_in_step gets one more an iteration, and so
     * does a tiled loop in an outer loop that stores after it. */
    const char *src =
        "kernel void tiled(global const float *a, global const float *b, global float *c, int n) {\n"
        "  local float ta[8][8], tb[8][8];\n"
        "  int lx = get_local_id(0), ly = get_local_id(1), col = get_global_id(0), row = get_global_id(1);\n"
        "  float s = 0.0f;\n"
        "  for (int t = 0; t < n; t += 8) {\n"
        "    ta[ly][lx] = a[row * n + t + lx];\n"
        "    tb[ly][lx] = b[(t + ly) * n + col];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    for (int k = 0; k < 8; k++)\n"
        "      s += ta[ly][k] * tb[k][lx];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  c[row * n + col] = s;\n"
        "}\n"
        "kernel void reduce(global const float *x, global float *out, local float *t) {\n"
        "  size_t l = get_local_id(0);\n"
        "  t[l] = x[get_global_id(0)];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
        "    if (l < s)\n"
        "      t[l] += t[l + s];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  if (l == 0)\n"
        "    out[get_group_id(0)] = t[0];\n"
        "}\n"
        "kernel void scan(global const float *x, global float *out, local float *t) {\n"
        "  int l = get_local_id(0), n = get_local_size(0), cur = 0;\n"
        "  t[l] = x[get_global_id(0)];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  for (int off = 1; off < n; off *= 2) {\n"
        "    float v = t[cur * n + l];\n"
        "    if (l >= off)\n"
        "      v += t[cur * n + l - off];\n"
        "    t[(cur ^ 1) * n + l] = v;\n"
        "    cur ^= 1;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  }\n"
        "  out[get_global_id(0)] = t[cur * n + l];\n"
        "}\n"
        "kernel void starts(global const float *x, global float *out, local float *t) {\n"
        "  int l = get_local_id(0);\n"
        "  t[l] = x[get_global_id(0)];\n"
        "  for (int off = 1; off < get_local_size(0); off *= 2) {\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    float v = l >= off ? t[l - off] : 0.0f;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    t[l] += v;\n"
        "  }\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  out[get_global_id(0)] = t[l];\n"
        "}\n"
        "kernel void reset(global const float *x, global float *out, local int *cnt) {\n"
        "  int l = get_local_id(0);\n"
        "  for (int it = 0; it < 4; it++) {\n"
        "    if (l == 0) cnt[0] = 0;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    atomic_inc(cnt);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    out[get_global_id(0)] += (float)cnt[0];\n"
        "  }\n"
        "}\n"
        "kernel void outer(global const float *x, global float *out, local float *t) {\n"
        "  int l = get_local_id(0), n = get_local_size(0);\n"
        "  for (int it = 0; it < 4; it++) {\n"
        "    float s = 0.0f;\n"
        "    for (int j = 0; j < 4; j++) {\n"
        "      t[l] = x[(it * 4 + j + get_global_id(0)) % 64];\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      s += t[(l + 1) % n];\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    }\n"
        "    out[get_global_id(0) + 64 * it] = s;\n"
        "  }\n"
        "}\n";
    enum { L = 16, N = 16 };
    static float a[N * N], b[N * N], c[4 * 64];
    small_integers(a, N * N, 7, 9);
    small_integers(b, N * N, 5, 7);
    for (int o = 0; o < NUM_BUILDS; o++) {
        mosaic_executable *exe = build(src, builds[o]);
        if (!exe)
            continue;
        struct {
            const char *name;
            long barriers; /* per work-item, as written */
            bool more;     /* it needs more (a barrier on a back edge) */
        } kernels[] = {{"tiled", 2 * N / 8, false}, {"reduce", 5, false}, {"scan", 5, false},
                       {"starts", 9, false},        {"reset", 8, true},   {"outer", 32, true}};
        for (size_t kn = 0; kn < sizeof kernels / sizeof *kernels; kn++) {
            const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, kernels[kn].name);
            CHECK(k, "%s: built", kernels[kn].name);
            if (!k)
                continue;
            const float *pa = a, *pb = b;
            float *pc = c;
            int n = N;
            uint64_t off = 0;
            bool tiled = kn == 0;
            range r = tiled ? (range){2, {8, 8}, {8, 8}, 2 * 64 * sizeof(float)} /* ta, tb */
                            : (range){1, {L}, {L}, 2 * L * sizeof(float)};
            void **args = tiled ? ARGS(&pa, &pb, &pc, &n) : ARGS(&pa, &pc, &off);
            memset(c, 0, sizeof c);
            atomic_store(&barrier_calls, 0);
            run(k, args, &r, 0);
            long items = (long)(r.global[0] * (tiled ? r.global[1] : 1)), calls = atomic_load(&barrier_calls);
            CHECK(kernels[kn].more ? calls > kernels[kn].barriers * items : calls == kernels[kn].barriers * items,
                  "%s (%s): %ld barriers a work-item, %s %ld", kernels[kn].name, builds[o], calls / items,
                  kernels[kn].more ? "expected more than" : "expected", kernels[kn].barriers);
            memset(c, 0, sizeof c);
            both(exe, builds[o], kernels[kn].name, args, &r, c, sizeof c);
        }
        mosaic_executable_free(exe);
    }
}
