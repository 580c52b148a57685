/*
 * The PTX back end (src/compiler/gpu/ptx.c) without a GPU: OpenCL C through
 * Mosaic's front end for nvptx64, then PTX, checked as text: the kernel is an
 * entry, its barrier and __local array are there, and every built-in it
 * calls (work-item functions, sin, fract with a private pointer) came from
 * libclc, so nothing is left for the driver to find; a __local argument is
 * an offset into the block's dynamic shared memory.  A CPU program's
 * bitcode and a call of a function nobody defines are refused with a
 * message.  Skipped where libclc's NVPTX library is missing.  Running the
 * PTX is tests/gpu's.
 *
 * mosaic_finalize_ptx, after the front end and the link for the GPU: the
 * kernels' table (names, arguments, static __local bytes) and the PTX,
 * whose work-item functions read each field of MOSAIC_GPU_LAUNCH_SYMBOL at
 * mosaic_gpu_launch's offsets (get_global_offset is no constant 0), answer
 * dimensions past 3 as OpenCL says without it, and leave it out where
 * nothing reads it; the feature set a GPU device gives the front end builds.
 *
 * The kernel cache's .ptx entries (ptx_cache): a second finalize of the same
 * executable is a hit (MOSAIC_DEBUG=cache) with the same table and PTX; a
 * damaged, truncated or ill-formed entry is a miss and is built and stored
 * again; another compute capability is another entry; MOSAIC_CACHE=0 asks
 * no cache.  The program's cases run with a private cache directory.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/IRReader.h>
#include <llvm-c/TargetMachine.h>

#define TEST_LIST "test_ptx.list"
#include "test.h"
#include "gpu_kernels.h"
#include "base/settings.h"
#include "compiler/cache/cache.h"
#include "compiler/compiler.h"
#include "compiler/frontend/spirv_nvptx.h"
#include "compiler/gpu/ptx.h"
#include "compiler/ir/llvm.h"
#include "compiler/pipeline/pipeline.h"

static const mosaic_compiler_target gpu_target = {.triple = MC_PTX_TRIPLE};
static const mosaic_compiler_target cpu_target = {.clang_features = "-cl-ext=-all"};

static const char *const kernel_source = WAVES_SOURCE;

/* PTX of `source` built with `options` for sm_90, or NULL with the reason
 * checked against `expect` (NULL: must succeed). */
static char *ptx_with(const mosaic_compiler_target *target, const char *source, const char *options,
                      const char *expect)
{
    mosaic_bitcode obj = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(target, source, options, 0, NULL, &obj, &log);
    CHECK(r == CL_SUCCESS, "front end: %d %s", r, log ? log : "");
    free(log);
    if (r != CL_SUCCESS)
        return NULL;
    mosaic_strbuf ptx_log = {0};
    char *ptx = NULL;
    size_t size = 0;
    r = mc_ptx_from_program(&obj, "sm_90", &ptx, &size, &ptx_log);
    if (!expect) {
        CHECK(r == CL_SUCCESS && ptx && size == strlen(ptx), "%d: %s", r, ptx_log.data ? ptx_log.data : "");
    } else {
        CHECK(r == CL_BUILD_PROGRAM_FAILURE && !ptx, "%d", r);
        CHECK(ptx_log.data && strstr(ptx_log.data, expect), "log: %s", ptx_log.data ? ptx_log.data : "(none)");
    }
    mosaic_strbuf_free(&ptx_log);
    mosaic_bitcode_free(&obj);
    return ptx;
}

static char *ptx_of(const mosaic_compiler_target *target, const char *source, const char *expect)
{
    return ptx_with(target, source, "", expect);
}

#define NEED_LIBCLC()                                                                                \
    do {                                                                                             \
        if (!mc_ptx_available())                                                                     \
            TEST_SKIP("no libclc NVPTX library (Debian's libclc-16)");                               \
    } while (0)

TEST(kernel_to_ptx)
{
    NEED_LIBCLC();
    char *ptx = ptx_of(&gpu_target, kernel_source, NULL);
    if (!ptx)
        return;
    CHECK(strstr(ptx, ".target sm_90"), "no .target sm_90");
    /* sm_90's PTX is 7.8 or later, whatever clang found installed */
    const char *version = strstr(ptx, ".version ");
    int major = 0, minor = 0;
    CHECK(version && sscanf(version, ".version %d.%d", &major, &minor) == 2 && major * 10 + minor >= 78,
          "PTX %d.%d for sm_90", major, minor);
    CHECK(strstr(ptx, ".entry waves("), "the kernel is no entry");
    CHECK(strstr(ptx, "bar.sync"), "no barrier");
    CHECK(strstr(ptx, ".shared"), "no shared memory for the __local array");
    CHECK(strstr(ptx, "%tid.x") && strstr(ptx, "%ctaid.x"), "the work-item functions read no special registers");
    CHECK(!strstr(ptx, ".extern"), "something is left for the driver to find:\n%s", strstr(ptx, ".extern"));
    CHECK(!strstr(ptx, "call.uni") || !strstr(ptx, "_Z"), "a built-in is called, not inlined");
    free(ptx);
}

TEST(local_argument_as_offset)
{
    NEED_LIBCLC();
    char *ptx = ptx_of(&gpu_target, GROUP_SUMS_SOURCE, NULL);
    if (!ptx)
        return;
    CHECK(strstr(ptx, ".extern .shared .align 128 .b8 " MC_PTX_DYNAMIC_SHARED "[]"),
          "no dynamic shared memory:\n%s", ptx);
    const char *entry = strstr(ptx, ".entry group_sums(");
    CHECK(entry != NULL, "the kernel is no entry");
    /* its parameters: a, t's offset (32 bits), c */
    CHECK(entry && strstr(entry, "group_sums_param_1") && strstr(entry, ".param .u32 group_sums_param_1"),
          "the __local argument is not a 32-bit offset:\n%.600s", entry ? entry : "");
    CHECK(entry && strstr(entry, ".param .u64 group_sums_param_2"), "c is not the third parameter");
    free(ptx);
}

/* __constant is global memory on the GPU: a buffer's address is no
 * address in the .const bank, so nothing reads through ld.const, and a
 * program-scope __constant table is data in global memory. */
TEST(constant_is_global)
{
    NEED_LIBCLC();
    char *ptx = ptx_of(&gpu_target,
                       "__constant float table[4] = {1, 2, 3, 4};\n"
                       "__kernel void k(__constant float *c, __global float *o, int n) {\n"
                       "    size_t i = get_global_id(0);\n"
                       "    o[i] = c[i] * table[i & 3] + vload4(0, c + n).y;\n"
                       "}\n",
                       NULL);
    if (!ptx)
        return;
    CHECK(!strstr(ptx, ".const") && !strstr(ptx, "ld.const"), "the .const bank is used:\n%s", ptx);
    CHECK(strstr(ptx, ".global .align 4 .b8 table[16]"), "no table in global memory:\n%s", ptx);
    free(ptx);
}

/* Single-precision division and rsqrt as OpenCL C allows them (2.5 and 2
 * ulp): the GPU's div.full.f32, and its rsqrt.approx.f32 with a Newton
 * step, not the correctly rounded sequences; correctly rounded division
 * when the program asks for it (-cl-fp32-correctly-rounded-divide-sqrt). */
static const char division_source[] = "__kernel void k(__global float *a, __global float4 *b) {\n"
                                      "    size_t i = get_global_id(0);\n"
                                      "    a[i] = a[i] / a[i + 1] + rsqrt(a[i + 2]);\n"
                                      "    b[i] = b[i] / b[i + 1];\n"
                                      "}\n";

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (const char *at = text; (at = strstr(at, what)) != NULL; at++)
        n++;
    return n;
}

TEST(division_within_ulps)
{
    NEED_LIBCLC();
    char *ptx = ptx_of(&gpu_target, division_source, NULL);
    if (ptx) {
        CHECK(count_of(ptx, "div.full.f32") == 5, "not 5 div.full.f32 (one per element):\n%s", ptx);
        CHECK(!strstr(ptx, "div.rn.f32") && !strstr(ptx, "rcp.rn.f32"), "a correctly rounded division:\n%s", ptx);
        CHECK(strstr(ptx, "rsqrt.approx.f32"), "rsqrt is not the GPU's:\n%s", ptx);
        free(ptx);
    }
    ptx = ptx_with(&gpu_target, division_source, "-cl-fp32-correctly-rounded-divide-sqrt", NULL);
    if (ptx) {
        CHECK(count_of(ptx, "div.rn.f32") == 5 && !strstr(ptx, "div.full"), "not correctly rounded:\n%s", ptx);
        free(ptx);
    }
}

/* A small loop of run-time trip count is unrolled, by O2 or four times by
 * small_loops_unrolled (its calls of intrinsics, which the front end marks
 * convergent, are no obstacle): at least two copies of its body and a
 * remainder; one the program asked to keep rolled (#pragma unroll 1) is
 * not. */
TEST(small_loops_unrolled)
{
    NEED_LIBCLC();
    char *ptx = ptx_of(&gpu_target,
                       "__kernel void k(__global float *a, __global const float *b, int n) {\n"
                       "    float s = 0;\n"
                       "    for (int j = 0; j < n; j++) s = fma(s, b[j], rsqrt(b[j + 1]));\n"
                       "    a[get_global_id(0)] = s;\n"
                       "}\n"
                       "__kernel void rolled(__global float *a, __global const float *b, int n) {\n"
                       "    float s = 0;\n"
                       "    #pragma unroll 1\n"
                       "    for (int j = 0; j < n; j++) s = fma(s, b[j], rsqrt(b[j + 1]));\n"
                       "    a[get_global_id(0)] = s;\n"
                       "}\n",
                       NULL);
    if (!ptx)
        return;
    const char *rolled = strstr(ptx, ".entry rolled(");
    CHECK(rolled, "no kernel rolled:\n%s", ptx);
    if (rolled) {
        int in_k = 0, in_rolled = count_of(rolled, "rsqrt.approx.f32");
        for (const char *at = ptx; (at = strstr(at, "rsqrt.approx.f32")) != NULL && at < rolled; at++)
            in_k++;
        CHECK(in_k >= 3, "k's loop is not unrolled: %d rsqrt in it:\n%s", in_k, ptx);
        CHECK(in_rolled == 1, "the loop kept rolled has %d rsqrt:\n%s", in_rolled, ptx);
    }
    free(ptx);
}

/* A loop of 16 steps whose body O2 finds too large to copy 16 times (a
 * tile's k loop: loads and FMAs into 8 accumulators) is unrolled whole;
 * one of 100 steps is not. */
TEST(constant_loops_unrolled_whole)
{
    NEED_LIBCLC();
    static const char body[] =
        "        float4 x = vload4(p, a), y = vload4(p + 1, a);\n"
        "        s0 = fma(x, y.x, s0); s1 = fma(x, y.y, s1); s2 = fma(x, y.z, s2); s3 = fma(x, y.w, s3);\n"
        "        s4 = fma(y, x.x, s4); s5 = fma(y, x.y, s5); s6 = fma(y, x.z, s6); s7 = fma(y, x.w, s7);\n"
        "    }\n"
        "    b[get_global_id(0)] = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;\n"
        "}\n";
    char source[2048];
    snprintf(source, sizeof source,
             "__kernel void k(__global const float *a, __global float4 *b) {\n"
             "    float4 s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;\n"
             "    for (int p = 0; p < 16; p++) {\n%s"
             "__kernel void long_loop(__global const float *a, __global float4 *b) {\n"
             "    float4 s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;\n"
             "    for (int p = 0; p < 100; p++) {\n%s",
             body, body);
    char *ptx = ptx_of(&gpu_target, source, NULL);
    if (!ptx)
        return;
    const char *long_loop = strstr(ptx, ".entry long_loop(");
    CHECK(long_loop, "no kernel long_loop:\n%s", ptx);
    if (long_loop) {
        int in_k = 0, in_long = count_of(long_loop, "fma.rn.f32");
        for (const char *at = ptx; (at = strstr(at, "fma.rn.f32")) != NULL && at < long_loop; at++)
            in_k++;
        CHECK(in_k == 16 * 32, "k's loop is not unrolled whole: %d FMAs", in_k);
        CHECK(in_long < 100 * 32, "the loop of 100 steps is unrolled whole: %d FMAs", in_long);
    }
    free(ptx);
}

TEST(cpu_bitcode_refused)
{
    NEED_LIBCLC();
    free(ptx_of(&cpu_target, kernel_source, "not for the GPU"));
}

TEST(missing_builtin)
{
    NEED_LIBCLC();
    free(ptx_of(&gpu_target,
                "float nowhere(float);\n"
                "kernel void k(global float *x) { x[get_global_id(0)] = nowhere(x[0]); }\n",
                "the GPU has no built-in 'nowhere'"));
}

/* ---- mosaic_finalize_ptx ------------------------------------------------------ */

/* What a GPU device gives the front end: OpenCL C 1.2's extensions and 3.0's
 * fp64 and int64, as libclc's NVPTX library has them. */
#define GPU_FEATURES                                                                                 \
    "-cl-ext=-all,+cl_khr_fp64,+__opencl_c_fp64,+cl_khr_global_int32_base_atomics,"                   \
    "+cl_khr_global_int32_extended_atomics,+cl_khr_local_int32_base_atomics,"                         \
    "+cl_khr_local_int32_extended_atomics,+cl_khr_byte_addressable_store,+__opencl_c_int64"
static const mosaic_compiler_target gpu_device = {.triple = MC_PTX_TRIPLE, .clang_features = GPU_FEATURES};

/* `source` compiled (with `options`), linked into an executable and finalized
 * for sm_90; NULL (checked) when a stage fails, or, with `expect`, the
 * finalize's failure checked against it. */
static mosaic_executable *finalized(const mosaic_compiler_target *target, mosaic_bitcode *obj, const char *expect);

static mosaic_executable *gpu_executable(const char *source, const char *options, const char *expect)
{
    mosaic_bitcode obj = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&gpu_device, source, options, 0, NULL, &obj, &log);
    CHECK(r == CL_SUCCESS, "front end: %d %s", r, log ? log : "");
    free(log);
    return r == CL_SUCCESS ? finalized(&gpu_device, &obj, expect) : NULL;
}

/* A compiled object (freed here) linked into an executable and finalized
 * for sm_90 with `target`; NULL (checked) when a stage fails, or, with
 * `expect`, the finalize's failure checked against it. */
static mosaic_executable *finalized(const mosaic_compiler_target *target, mosaic_bitcode *obj, const char *expect)
{
    mosaic_bitcode exe_bc = {0};
    mosaic_executable *exe = NULL;
    char *log = NULL;
    cl_int r = mosaic_link_bitcode(target, 1, obj, "", false, &exe_bc, &log);
    CHECK(r == CL_SUCCESS && exe_bc.type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "link: %d %s", r, log ? log : "");
    free(log);
    log = NULL;
    if (r == CL_SUCCESS) {
        r = mosaic_finalize_ptx(target, &exe_bc, "", "sm_90", &exe, &log);
        if (!expect) {
            CHECK(r == CL_SUCCESS && exe, "finalize: %d %s", r, log ? log : "");
        } else {
            CHECK(r == CL_BUILD_PROGRAM_FAILURE && !exe, "finalize: %d", r);
            CHECK(log && strstr(log, expect), "log: %s", log ? log : "(none)");
        }
        free(log);
    }
    mosaic_bitcode_free(obj);
    mosaic_bitcode_free(&exe_bc);
    return exe;
}

/* Two kernels: a __local argument and a barrier in one, static __local
 * arrays, a __constant argument, work-item functions of 2.0 in the other. */
static const char two_kernels_source[] =
    "kernel void scale(global float *a, float f, local float *t)\n"
    "{\n"
    "    size_t l = get_local_id(0);\n"
    "    t[l] = a[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    a[get_global_id(0)] = t[(l + 1) % get_local_size(0)] * f;\n"
    "}\n"
    "kernel void where(constant int *c, global int *out)\n"
    "{\n"
    "    local int seen[64];\n"
    "    local double more[3];\n"
    "    seen[get_local_id(0) % 64] = c[0];\n"
    "    more[get_local_id(0) % 3] = c[1];\n"
    "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_linear_id()] = seen[1] + get_work_dim() + more[2];\n"
    "}\n";

TEST(finalize_ptx)
{
    NEED_LIBCLC();
    mosaic_executable *exe = gpu_executable(two_kernels_source, "-cl-std=CL3.0", NULL);
    if (!exe)
        return;
    CHECK(mosaic_executable_num_kernels(exe) == 2, "%zu kernels", mosaic_executable_num_kernels(exe));
    const mosaic_kernel_info *scale = mosaic_executable_find_kernel(exe, "scale");
    const mosaic_kernel_info *where = mosaic_executable_find_kernel(exe, "where");
    CHECK(scale && scale == mosaic_executable_kernel(exe, 0), "scale is not the first kernel");
    CHECK(where && where == mosaic_executable_kernel(exe, 1), "where is not the second kernel");
    if (scale) {
        CHECK(scale->num_args == 3, "scale: %u arguments", scale->num_args);
        CHECK(scale->num_args == 3 && scale->args[0].address_qualifier == CL_KERNEL_ARG_ADDRESS_GLOBAL &&
                  scale->args[0].kind == MOSAIC_ARG_GLOBAL_PTR &&
                  scale->args[1].address_qualifier == CL_KERNEL_ARG_ADDRESS_PRIVATE &&
                  scale->args[1].kind == MOSAIC_ARG_BY_VALUE && scale->args[1].size == sizeof(float) &&
                  scale->args[2].address_qualifier == CL_KERNEL_ARG_ADDRESS_LOCAL &&
                  scale->args[2].kind == MOSAIC_ARG_LOCAL_PTR && !strcmp(scale->args[2].name, "t"),
              "scale's arguments");
        CHECK(scale->static_local_mem_size == 0, "scale: %zu bytes of __local variables",
              scale->static_local_mem_size);
        CHECK(!scale->wg_fn && !scale->wi_fn, "the GPU's kernels have no CPU functions");
    }
    if (where) {
        CHECK(where->num_args == 2 && where->args[0].address_qualifier == CL_KERNEL_ARG_ADDRESS_CONSTANT &&
                  where->args[0].kind == MOSAIC_ARG_CONSTANT_PTR &&
                  where->args[1].address_qualifier == CL_KERNEL_ARG_ADDRESS_GLOBAL,
              "where's arguments");
        CHECK(where->static_local_mem_size == 64 * 4 + 3 * 8, "where: %zu bytes of __local variables",
              where->static_local_mem_size);
    }
    size_t size = 0;
    const char *ptx = mosaic_executable_ptx(exe, &size);
    CHECK(ptx && size == strlen(ptx), "no PTX, or not of its size");
    if (ptx) {
        CHECK(strstr(ptx, ".visible .entry scale(") && strstr(ptx, ".visible .entry where("),
              "the kernels are no entries");
        /* the launch's values are each kernel's last parameter, after the
         * OpenCL arguments; inlined, nothing reads the module's copy */
        char launch[128];
        snprintf(launch, sizeof launch, ".param .align 8 .b8 scale_param_3[%zu]", sizeof(mosaic_gpu_launch));
        CHECK(strstr(ptx, launch), "no %s in the PTX:\n%s", launch, ptx);
        snprintf(launch, sizeof launch, ".param .align 8 .b8 where_param_2[%zu]", sizeof(mosaic_gpu_launch));
        CHECK(strstr(ptx, launch), "no %s in the PTX:\n%s", launch, ptx);
        CHECK(strstr(ptx, "ld.param.u64") && strstr(ptx, "%ctaid.x"), "no launch values read");
        CHECK(!strstr(ptx, MOSAIC_GPU_LAUNCH_SYMBOL), "the module's launch is read:\n%s", ptx);
        CHECK(!strstr(ptx, ".extern .global"), "something global is left for the driver to find");
    }
    CHECK(mosaic_executable_global_variables_size(exe) == 0, "global variables");
    mosaic_sized_wg none = mosaic_executable_wg_for_size(exe, scale, (size_t[3]){64, 1, 1}, 1, true);
    CHECK(!none.whole && !none.pending, "a build for one size of a GPU kernel");
    mosaic_executable_free(exe);
}

/* The byte offsets into the launch's values that the PTX loads from,
 * marked in seen[]: `ld.param... [symbol+N]` (symbol: the kernel's launch
 * parameter), or through a register set to its address (`mov.b64 %rdA,
 * symbol;` or `mov.u64`, copies, `add.s64 %rdB, %rdA, N;`, then `[%rdB]`
 * or `[%rdA+N]`).  The number of such loads. */
static int launch_loads(const char *ptx, const char *symbol, bool seen[sizeof(mosaic_gpu_launch)])
{
    struct { char name[32]; long offset; } regs[256];
    int nregs = 0, loads = 0;
    for (const char *line = ptx; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        while (*line == ' ' || *line == '\t')
            line++;
        char op[32], a[32], b[64], c[32];
        bool mov = sscanf(line, "%31s %31[^,], %63[^,;], %31[^;];", op, a, b, c) >= 3 &&
                   (!strcmp(op, "mov.u64") || !strcmp(op, "mov.b64"));
        if (mov && !strcmp(b, symbol) && nregs < 256) {
            snprintf(regs[nregs].name, sizeof regs[nregs].name, "%s", a);
            regs[nregs++].offset = 0;
        } else if (mov) {
            for (int i = 0; i < nregs; i++)
                if (!strcmp(regs[i].name, b) && nregs < 256) {
                    snprintf(regs[nregs].name, sizeof regs[nregs].name, "%s", a);
                    regs[nregs++].offset = regs[i].offset;
                    break;
                }
        } else if (sscanf(line, "%31s %31[^,], %63[^,;], %31[^;];", op, a, b, c) == 4 && !strcmp(op, "add.s64")) {
            for (int i = 0; i < nregs; i++)
                if (!strcmp(regs[i].name, b) && nregs < 256) {
                    snprintf(regs[nregs].name, sizeof regs[nregs].name, "%s", a);
                    regs[nregs++].offset = regs[i].offset + strtol(c, NULL, 10);
                    break;
                }
        } else if (!strncmp(line, "ld.param", 8) && strchr(line, '[')) {
            char base[64] = "";
            long offset = 0;
            sscanf(strchr(line, '[') + 1, "%63[^]+]+%ld", base, &offset);
            long at = -1;
            if (!strcmp(base, symbol))
                at = offset;
            for (int i = 0; i < nregs && at < 0; i++)
                if (!strcmp(regs[i].name, base))
                    at = regs[i].offset + offset;
            if (at >= 0 && at < (long)sizeof(mosaic_gpu_launch)) {
                seen[at] = true;
                loads++;
            }
        }
    }
    return loads;
}

/* Every value a work-item function takes from the launch, each written
 * where the host can tell them apart. */
static const char launch_source[] =
    "kernel void launch(global ulong *out)\n"
    "{\n"
    "    for (uint d = 0; d < 3; d++) {\n"
    "        out[d] = get_global_offset(d);\n"
    "        out[3 + d] = get_global_size(d);\n"
    "        out[6 + d] = get_enqueued_local_size(d);\n"
    "        out[9 + d] = get_num_groups(d);\n"
    "        out[12 + d] = get_group_id(d);\n"
    "    }\n"
    "    out[15] = get_work_dim();\n"
    "}\n";

TEST(launch_fields)
{
    NEED_LIBCLC();
    mosaic_executable *exe = gpu_executable(launch_source, "-cl-std=CL3.0", NULL);
    if (!exe)
        return;
    const char *ptx = mosaic_executable_ptx(exe, NULL);
    bool seen[sizeof(mosaic_gpu_launch)] = {0};
    int loads = launch_loads(ptx, "launch_param_1", seen);
    static const struct { const char *what; size_t offset; } fields[] = {
        {"global_offset", offsetof(mosaic_gpu_launch, global_offset)},
        {"global_size", offsetof(mosaic_gpu_launch, global_size)},
        {"enqueued_local_size", offsetof(mosaic_gpu_launch, enqueued_local_size)},
        {"num_groups", offsetof(mosaic_gpu_launch, num_groups)},
        {"group_base", offsetof(mosaic_gpu_launch, group_base)},
    };
    for (size_t f = 0; f < sizeof fields / sizeof *fields; f++)
        for (size_t d = 0; d < 3; d++)
            CHECK(seen[fields[f].offset + 8 * d], "%s[%zu] (byte %zu) is not read", fields[f].what, d,
                  fields[f].offset + 8 * d);
    CHECK(seen[offsetof(mosaic_gpu_launch, work_dim)], "work_dim is not read");
    CHECK(seen[0], "get_global_offset(0) reads nothing: a constant 0?");
    CHECK(loads >= 16, "%d loads of the launch:\n%s", loads, ptx);
    CHECK(strstr(ptx, "%ctaid.z"), "get_group_id reads no block index");
    mosaic_executable_free(exe);
}

/* Past the third dimension the answers are constants (ids and offsets 0,
 * sizes 1), and a program that reads nothing of the launch has none. */
TEST(launch_out_of_range)
{
    NEED_LIBCLC();
    mosaic_executable *exe = gpu_executable(
        "kernel void k(global int *out, uint d)\n"
        "{\n"
        "    out[d] = get_global_size(3) == 1 && get_local_size(3) == 1 && get_enqueued_local_size(4) == 1 &&\n"
        "             get_num_groups(3) == 1 && get_global_offset(3) == 0 && get_global_id(3) == 0 &&\n"
        "             get_local_id(3) == 0 && get_group_id(5) == 0 ? 7 : 13;\n"
        "}\n",
        "-cl-std=CL3.0", NULL);
    if (!exe)
        return;
    const char *ptx = mosaic_executable_ptx(exe, NULL);
    CHECK(strstr(ptx, ", 7;") && !strstr(ptx, "13;"), "not folded to 7:\n%s", ptx);
    CHECK(!strstr(ptx, MOSAIC_GPU_LAUNCH_SYMBOL), "the launch is there, unread:\n%s", ptx);
    CHECK(!strstr(ptx, "%tid") && !strstr(ptx, "%ctaid") && !strstr(ptx, "%ntid"), "registers read");
    mosaic_executable_free(exe);
}

/* The OpenCL C the GPU device's feature set takes and libclc (or Mosaic's
 * builtins/nvptx) has: doubles, 32-bit atomics on global and local memory,
 * 2.0's barrier and fence, async copies, half loads.  The link does not ask
 * the CPU's built-ins; a function nobody defines is refused at finalize. */
TEST(gpu_features)
{
    NEED_LIBCLC();
    mosaic_executable *exe = gpu_executable(
        "kernel void k(global double *x, global int *n, global half *h)\n"
        "{\n"
        "    local int count;\n"
        "    local double t[64];\n"
        "    if (get_local_id(0) == 0)\n"
        "        count = 0;\n"
        "    event_t e = async_work_group_copy(t, x, 64, 0);\n"
        "    wait_group_events(1, &e);\n"
        "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    atomic_inc(&count);\n"
        "    atomic_max(&count, 5);\n"
        "    work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);\n"
        "    atomic_add(n, count);\n"
        "    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);\n"
        "    x[get_global_id(0)] = sin(t[get_local_id(0) % 64]) + sqrt(x[0]) + vload_half(1, h);\n"
        "    local float3 v[16];\n" /* 3-element copies and prefetch, which libclc lacks */
        "    prefetch((global float3 *)x, 16);\n"
        "    e = async_work_group_strided_copy(v, (global float3 *)x, 16, 2, 0);\n"
        "    e = async_work_group_copy((global float3 *)x, v, 16, e);\n"
        "    wait_group_events(1, &e);\n"
        "}\n",
        "-cl-std=CL3.0", NULL);
    if (exe) {
        const char *ptx = mosaic_executable_ptx(exe, NULL);
        CHECK(strstr(ptx, "atom.shared.add") || strstr(ptx, "atom.shared.inc") || strstr(ptx, "red.shared"),
              "no atomic on shared memory:\n%s", ptx);
        CHECK(strstr(ptx, "membar.gl") && strstr(ptx, "bar.sync"), "no fence or barrier");
        /* count, t and v, with what their alignments add */
        size_t shared = mosaic_executable_kernel(exe, 0)->static_local_mem_size;
        CHECK(shared >= 4 + 8 * 64 + 16 * 16 && shared <= 4 + 8 * 64 + 16 * 16 + 24, "%zu bytes of __local variables",
              shared);
    }
    mosaic_executable_free(exe);
    free(gpu_executable("float nowhere(float);\n"
                        "kernel void k(global float *x) { x[get_global_id(0)] = nowhere(x[0]); }\n",
                        "", "the GPU has no built-in 'nowhere'"));
}

/* OpenCL 2.0's atomics on the GPU: relaxed atom/ld/st instructions, with
 * membar at the scope asked for where the order needs it, and no library
 * call left over. */
TEST(c11_atomics)
{
    NEED_LIBCLC();
    static const mosaic_compiler_target target = {
        .triple = MC_PTX_TRIPLE,
        .clang_features = "-cl-ext=+__opencl_c_atomic_order_acq_rel,+__opencl_c_atomic_order_seq_cst,"
                          "+__opencl_c_atomic_scope_device,+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics"};
    char *ptx = ptx_with(&target,
                         "kernel void k(global atomic_int *flag, global int *data, global atomic_long *count,\n"
                         "              local atomic_int *l, global long *old) {\n"
                         "    if (get_global_id(0) == 0) {\n"
                         "        data[0] = 42;\n"
                         "        atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);\n"
                         "    }\n"
                         "    int seen = atomic_load_explicit(flag, memory_order_acquire, memory_scope_device);\n"
                         "    atomic_fetch_add_explicit(count, (long)seen, memory_order_relaxed, memory_scope_device);\n"
                         "    atomic_fetch_max_explicit(l, 3, memory_order_acq_rel, memory_scope_work_group);\n"
                         "    int e = 0;\n"
                         "    atomic_compare_exchange_strong_explicit(flag, &e, 2, memory_order_seq_cst, memory_order_relaxed, memory_scope_device);\n"
                         "    atom_add(old, 1L);\n"
                         "    atom_add((local long *)l + 1, 1L);\n"
                         "}\n",
                         "-cl-std=CL3.0", NULL);
    if (!ptx)
        return;
    CHECK(strstr(ptx, "membar.gl"), "no device-scope fence for release and acquire:\n%s", ptx);
    CHECK(strstr(ptx, "membar.cta"), "no work-group fence for acq_rel:\n%s", ptx);
    CHECK(strstr(ptx, "atom.global.add.u64"), "no 64-bit atomic add:\n%s", ptx);
    CHECK(strstr(ptx, "atom.shared.max.s32"), "no atomic max on shared memory:\n%s", ptx);
    CHECK(strstr(ptx, "atom.global.cas.b32"), "no compare-exchange:\n%s", ptx);
    /* __local is no generic address: a generic atom on it reaches other memory */
    CHECK(strstr(ptx, "atom.shared.add.u64"), "the 64-bit __local atomic is not on shared memory:\n%s", ptx);
    CHECK(!strstr(ptx, "__opencl_atomic") && !strstr(ptx, "__atomic_"), "a library call is left:\n%s", ptx);
    free(ptx);
}

/* half (cl_khr_fp16): arithmetic in the GPU's f16 instructions, the maths
 * and conversions from builtins/half.cl and half_convert.cl, linked in only
 * where a program calls one. */
TEST(half_precision)
{
    NEED_LIBCLC();
    static const mosaic_compiler_target target = {
        .triple = MC_PTX_TRIPLE, .clang_features = "-cl-ext=+cl_khr_fp16,+__opencl_c_fp16,+cl_khr_fp64"};
    char *ptx = ptx_with(&target,
                         "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                         "kernel void k(global half *h, global half4 *v, global float *f, half s) {\n"
                         "    size_t i = get_global_id(0);\n"
                         "    h[i] = h[i] * s + h[i + 1];\n"
                         "    v[i] = sin(v[i]) + fma(v[i], v[i], (half4)s) + convert_half4_rtz(vload4(i, f));\n"
                         "    f[i] = (float)clamp(h[i], (half)0, s) + (float)nan((ushort)1);\n"
                         "}\n",
                         "-cl-std=CL3.0", NULL);
    if (ptx) {
        CHECK(strstr(ptx, ".f16") && (strstr(ptx, "mul.rn.f16") || strstr(ptx, "fma.rn.f16")),
              "no f16 arithmetic:\n%s", ptx);
        CHECK(strstr(ptx, "cvt.f32.f16"), "no widening of half:\n%s", ptx);
        CHECK(!strstr(ptx, "call"), "a call is left:\n%s", ptx);
    }
    free(ptx);
    /* a program without half links none of it: no f16 instruction */
    ptx = ptx_with(&target, "kernel void k(global float *f) { f[0] = sin(f[1]); }\n", "-cl-std=CL3.0", NULL);
    CHECK(!ptx || !strstr(ptx, ".f16"), "half code in a program without half:\n%s", ptx ? ptx : "");
    free(ptx);
}

/* vloadn and vstoren of half in every address space, and the async copies
 * of half, which libclc's NVPTX library lacks (nvptx/half_vectors.cl,
 * nvptx/async_copies.cl): the program builds, with no call left. */
TEST(half_vectors)
{
    NEED_LIBCLC();
    static const mosaic_compiler_target target = {
        .triple = MC_PTX_TRIPLE, .clang_features = "-cl-ext=+cl_khr_fp16,+__opencl_c_fp16"};
    char *ptx = ptx_with(&target,
                         "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                         "kernel void k(constant half *c, global half *g, local half *l, global half3 *o) {\n"
                         "    half p[8];\n"
                         "    vstore8(vload8(0, c), 0, p);\n"
                         "    event_t e = async_work_group_copy(l, g, 16, 0);\n"
                         "    wait_group_events(1, &e);\n"
                         "    o[0] = vload3(1, p) + vload3(0, l) + vload3(0, g);\n"
                         "    vstore3(o[1], 1, g);\n"
                         "    vstore2(vload2(0, g), 0, l);\n"
                         "    e = async_work_group_strided_copy(g, l, 4, 2, 0);\n"
                         "    wait_group_events(1, &e);\n"
                         "    prefetch(o, 1);\n"
                         "}\n",
                         "-cl-std=CL3.0", NULL);
    CHECK(!ptx || !strstr(ptx, "call"), "a call is left:\n%s", ptx ? ptx : "");
    free(ptx);
}

/* A loaded half8 (and float4) widened: each element converted (cvt), never
 * loaded as 16 bits straight into a float register, which LLVM 16's NVPTX
 * back end did for a widening of a vector wider than 2 (ld.v4.b16 {%f..}). */
TEST(vector_widenings)
{
    NEED_LIBCLC();
    static const mosaic_compiler_target target = {
        .triple = MC_PTX_TRIPLE, .clang_features = "-cl-ext=+cl_khr_fp16,+__opencl_c_fp16"};
    char *ptx = ptx_with(&target,
                         "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                         "kernel void h(global float8 *o, global const half8 *a) {\n"
                         "    o[get_global_id(0)] = convert_float8(a[get_global_id(0)]);\n"
                         "}\n"
                         "kernel void d(global double16 *o, global const half16 *a, global const float16 *b) {\n"
                         "    o[get_global_id(0)] = convert_double16(a[get_global_id(0)]) +\n"
                         "                          convert_double16(b[get_global_id(0)]);\n"
                         "}\n",
                         "-cl-std=CL3.0", NULL);
    if (ptx) {
        CHECK(count_of(ptx, "cvt.f32.f16") == 8, "half8 to float8: %d conversions:\n%s", count_of(ptx, "cvt.f32.f16"),
              ptx);
        CHECK(count_of(ptx, "cvt.f64.f16") == 16 && count_of(ptx, "cvt.f64.f32") == 16,
              "to double16: %d conversions of halves, %d of floats:\n%s", count_of(ptx, "cvt.f64.f16"),
              count_of(ptx, "cvt.f64.f32"), ptx);
        for (const char *at = ptx; (at = strstr(at, ".b16")) != NULL; at++) {
            const char *end = strchr(at, '\n');
            const char *f = strstr(at, "%f");
            CHECK(!f || (end && f > end), "16 bits loaded into a float register: %.60s", at);
        }
    }
    free(ptx);
}

/* A kernel the program calls as a function: an .entry cannot be called, so
 * the call reaches the kernel's body as a function (kernel_callable), and
 * both kernels stay entries. */
TEST(kernel_called_as_function)
{
    NEED_LIBCLC();
    char *ptx = ptx_of(&gpu_target,
                       "kernel void add_up(global int *out, global const int *in, int n) {\n"
                       "    for (int b = 0; b < n; b++) out[get_global_id(0)] += in[b];\n"
                       "}\n"
                       "kernel void caller(global int *src, global int *dst, int times) {\n"
                       "    for (int a = 0; a < times; a++) add_up(dst, src, get_global_id(0));\n"
                       "}\n",
                       NULL);
    if (ptx) {
        CHECK(strstr(ptx, ".entry add_up(") && strstr(ptx, ".entry caller("), "a kernel is no entry:\n%s", ptx);
        const char *call = strstr(ptx, "call");
        CHECK(!call || !strstr(call, "add_up,") || strstr(ptx, ".func add_up_$_body"),
              "an entry is called:\n%s", ptx);
    }
    free(ptx);
}

/* The CPU's bit operations and integer dot products, built for the GPU,
 * and the GPU's clocks, each linked only into a program that calls one. */
static const char integer_extensions_source[] =
    "kernel void k(global uint *u, global ulong *t) {\n"
    "    size_t g = get_global_id(0);\n"
    "    uint x = u[g];\n"
    "    if (__builtin_expect(x == 7, 0))\n"
    "        x = 8;\n"
    "    u[4 * g] = bitfield_extract_unsigned(x, 4u, 8u);\n"
    "    u[4 * g + 1] = bit_reverse(x);\n"
    "    u[4 * g + 2] = dot(as_uchar4(x), (uchar4)(1, 2, 3, 4));\n"
    "    u[4 * g + 3] = dot_4x8packed_uu_uint(x, 0x01010101u);\n"
    "    t[2 * g] = clock_read_device();\n"
    "    t[2 * g + 1] = clock_read_work_group();\n"
    "}\n";
#define INTEGER_EXTENSIONS                                                                           \
    "-cl-ext=+cl_khr_extended_bit_ops,+cl_khr_integer_dot_product,"                                   \
    "+__opencl_c_integer_dot_product_input_4x8bit,+__opencl_c_integer_dot_product_input_4x8bit_packed," \
    "+cl_khr_kernel_clock,+__opencl_c_kernel_clock_scope_device,+__opencl_c_kernel_clock_scope_work_group," \
    "+cl_khr_expect_assume,+__opencl_c_int64"

TEST(integer_extensions)
{
    NEED_LIBCLC();
    static const mosaic_compiler_target target = {.triple = MC_PTX_TRIPLE, .clang_features = INTEGER_EXTENSIONS};
    char *ptx = ptx_with(&target, integer_extensions_source, "-cl-std=CL3.0", NULL);
    if (ptx) {
        CHECK(strstr(ptx, "%globaltimer") && strstr(ptx, "%clock64"), "no clock read:\n%s", ptx);
        CHECK(strstr(ptx, "brev.b32") || strstr(ptx, "bfe.u32") || strstr(ptx, "dp4a"),
              "none of the GPU's bit or dot instructions:\n%s", ptx);
        CHECK(!strstr(ptx, "call"), "a call is left:\n%s", ptx);
    }
    free(ptx);
}

/* Work-group collectives: the CPU's builtins/collectives.cl over a shared
 * scratch array that ptx.c defines, with the block's barriers. */
TEST(work_group_collectives)
{
    NEED_LIBCLC();
    static const mosaic_compiler_target target = {
        .triple = MC_PTX_TRIPLE,
        .clang_features = "-cl-ext=+__opencl_c_work_group_collective_functions,+cl_khr_work_group_uniform_arithmetic,"
                          "+__opencl_c_int64,+__opencl_c_generic_address_space"};
    mosaic_bitcode obj = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&target,
                                     "kernel void k(global int *x, global long *y) {\n"
                                     "    size_t i = get_global_id(0);\n"
                                     "    x[i] = work_group_reduce_add(x[i]) + work_group_scan_exclusive_max(x[i]) +\n"
                                     "           work_group_broadcast(x[i], 3) + work_group_all(x[i] > 0);\n"
                                     "    y[i] = work_group_reduce_xor(y[i]);\n"
                                     "}\n",
                                     "-cl-std=CL3.0", 0, NULL, &obj, &log);
    CHECK(r == CL_SUCCESS, "front end: %d %s", r, log ? log : "");
    free(log);
    if (r != CL_SUCCESS)
        return;
    mosaic_strbuf ptx_log = {0};
    mc_ptx_program out = {0};
    r = mc_ptx_build(&obj, "sm_90", &out, &ptx_log);
    CHECK(r == CL_SUCCESS, "%d: %s", r, ptx_log.data ? ptx_log.data : "");
    if (r == CL_SUCCESS) {
        CHECK(strstr(out.ptx, ".shared") && strstr(out.ptx, "bar.sync"), "no shared scratch or barrier:\n%s", out.ptx);
        CHECK(out.num_kernels == 1 && out.kernels[0].static_local_mem_size >= 8 * 1024,
              "the scratch is not counted: %zu bytes", out.num_kernels ? out.kernels[0].static_local_mem_size : 0);
    }
    mc_ptx_program_clear(&out);
    mosaic_strbuf_free(&ptx_log);
    mosaic_bitcode_free(&obj);
}

/* SPIR's mangled names as NVPTX's: the generic space spelled not at all,
 * the constant space AS4, and the substitutions counted again (clang's names
 * of the same declarations for each triple). */
TEST(spir_names)
{
    static const char *const pairs[][2] = {
        {"_Z5fractfPU3AS4f", "_Z5fractfPf"},
        {"_Z6sincosDv4_fPU3AS4S_", "_Z6sincosDv4_fPS_"},
        {"_Z6vload4mPU3AS4Kf", "_Z6vload4mPKf"},
        {"_Z6vload4mPU3AS2Kf", "_Z6vload4mPU3AS4Kf"},
        {"_Z6vload4mPU3AS1Kf", "_Z6vload4mPU3AS1Kf"},
        {"_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope",
         "_Z25atomic_fetch_add_explicitPVU7_Atomicii12memory_order12memory_scope"},
        {"_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_orderS4_12memory_scope",
         "_Z39atomic_compare_exchange_strong_explicitPVU7_AtomiciPii12memory_orderS3_12memory_scope"},
        {"_Z3fooPiPU3AS4i", "_Z3fooPiS_"},
        {"_Z13get_global_idj", "_Z13get_global_idj"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        char out[256] = "";
        CHECK(mc_nvptx_name(pairs[i][0], out, sizeof out) && !strcmp(out, pairs[i][1]), "%s: %s, not %s",
              pairs[i][0], out, pairs[i][1]);
    }
    char out[256];
    CHECK(!mc_nvptx_name("_Z3fooPU3AS4", out, sizeof out), "a name cut short was taken");
    CHECK(!mc_nvptx_name("_Z3fooS0_", out, sizeof out), "a substitution of nothing was taken");
    CHECK(!mc_nvptx_name("printf", out, sizeof out), "an unmangled name was taken");
}

/* The SPIR-V module SPIRV_DIR/<name>.spv built for the GPU with `options`;
 * NULL (checked) when a stage fails. */
static mosaic_executable *spirv_executable(const char *name, const char *options)
{
    size_t size = 0;
    void *il = test_read_spirv(SPIRV_DIR, name, &size);
    if (!il)
        return NULL;
    static const struct mosaic_runtime_symbol printf_symbol[] = {{"__mosaic_printf", NULL}};
    static const mosaic_compiler_target target = {
        .triple = MC_PTX_TRIPLE,
        .clang_features = "-cl-ext=+__opencl_c_atomic_order_acq_rel,+__opencl_c_atomic_order_seq_cst,"
                          "+__opencl_c_atomic_scope_device,+__opencl_c_generic_address_space,+cl_khr_fp64,"
                          "+__opencl_c_fp64,+__opencl_c_int64",
        .runtime_symbols = printf_symbol,
        .num_runtime_symbols = 1};
    mosaic_bitcode obj = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_spirv(&target, il, size, options, 0, NULL, &obj, &log);
    free(il);
    CHECK(r == CL_SUCCESS, "SPIR-V: %d %s", r, log ? log : "");
    free(log);
    return r == CL_SUCCESS ? finalized(&target, &obj, NULL) : NULL;
}

/* A SPIR-V module (tests/e2e/spirv/kernels.cl) built for the GPU: its
 * kernels, atomics on generic pointers, barriers. */
TEST(spirv_to_ptx)
{
    NEED_LIBCLC();
    mosaic_executable *exe = spirv_executable("kernels", "");
    if (exe) {
        const char *ptx = mosaic_executable_ptx(exe, NULL);
        static const char *const entries[] = {".entry math(", ".entry group_sum(", ".entry atomics(", ".entry say("};
        for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
            CHECK(strstr(ptx, entries[i]), "no %s in:\n%s", entries[i], ptx);
        CHECK(strstr(ptx, "atom.global.add") || strstr(ptx, "red.global.add") || strstr(ptx, "atom.add"),
              "no atomic add:\n%s", ptx);
        CHECK(strstr(ptx, "bar.sync"), "no barrier:\n%s", ptx);
    }
    mosaic_executable_free(exe);
}

/* OpFDiv divides as OpenCL C's `/` does: div.full.f32 (2 ulp), or the
 * correctly rounded division with -cl-fp32-correctly-rounded-divide-sqrt;
 * a saturating conversion tests for NaN (nvptx/convert_sat.cl). */
TEST(spirv_divisions)
{
    NEED_LIBCLC();
    mosaic_executable *exe = spirv_executable("gpu", "");
    if (exe) {
        const char *ptx = mosaic_executable_ptx(exe, NULL);
        CHECK(strstr(ptx, "div.full.f32") && !strstr(ptx, "div.rn.f32"), "not div.full.f32:\n%s", ptx);
        CHECK(strstr(ptx, "setp.nan.f64") || strstr(ptx, "setp.num.f64") || strstr(ptx, "setp.equ.f64") ||
                  strstr(ptx, "setp.neu.f64"),
              "no NaN test of the double:\n%s", ptx);
    }
    mosaic_executable_free(exe);
    exe = spirv_executable("gpu", "-cl-fp32-correctly-rounded-divide-sqrt");
    if (exe)
        CHECK(strstr(mosaic_executable_ptx(exe, NULL), "div.rn.f32"), "not div.rn.f32:\n%s",
              mosaic_executable_ptx(exe, NULL));
    mosaic_executable_free(exe);
}

/* Sub-groups are warps: their functions exchange values with shfl.sync
 * (uniform ones over the sub-group's lanes, non-uniform ones over the active
 * lanes), vote with vote.sync, and join at bar.warp.sync. */
TEST(sub_groups)
{
    NEED_LIBCLC();
    static const mosaic_compiler_target target = {
        .triple = MC_PTX_TRIPLE,
        .clang_features = "-cl-ext=+__opencl_c_subgroups,+cl_khr_subgroups,+cl_khr_fp64,+cl_khr_subgroup_ballot,"
                          "+cl_khr_subgroup_non_uniform_arithmetic,+cl_khr_subgroup_rotate,"
                          "+cl_khr_subgroup_extended_types"};
    char *ptx = ptx_with(&target,
                         "kernel void k(global long *l, global double4 *d, global uint4 *b, global char *c) {\n"
                         "    size_t i = get_global_id(0);\n"
                         "    l[i] = sub_group_reduce_add(l[i]) + sub_group_scan_exclusive_max(l[i]);\n"
                         "    d[i] = sub_group_broadcast(d[i], 3);\n"
                         "    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "    if (i & 1)\n"
                         "        c[i] = sub_group_non_uniform_scan_inclusive_mul(c[i]) + sub_group_rotate(c[i], 2);\n"
                         "    b[i] = sub_group_ballot(sub_group_all(c[i] > 0)) + get_sub_group_id() + get_sub_group_size();\n"
                         "}\n",
                         "-cl-std=CL3.0", NULL);
    if (!ptx)
        return;
    CHECK(strstr(ptx, "shfl.sync.idx.b32"), "no warp shuffle:\n%s", ptx);
    CHECK(strstr(ptx, "activemask.b32"), "no active lanes asked for the non-uniform scan:\n%s", ptx);
    CHECK(strstr(ptx, "vote.sync.all") && strstr(ptx, "vote.sync.ballot"), "no warp vote:\n%s", ptx);
    CHECK(strstr(ptx, "bar.warp.sync") && strstr(ptx, "membar.cta"), "no sub-group barrier:\n%s", ptx);
    CHECK(strstr(ptx, "%laneid"), "the lane is not the sub-group local id:\n%s", ptx);
    CHECK(strstr(ptx, ".version 7.8"), "not PTX 7.8:\n%.200s", ptx);
    free(ptx);
    /* a non-uniform call in each arm of an if stays two calls (the lanes of
     * each arm are the active ones) */
    ptx = ptx_with(&target,
                   "kernel void k(global int *x) {\n"
                   "    if (x[get_global_id(0)] > 0)\n"
                   "        x[get_global_id(0)] = sub_group_non_uniform_reduce_add(x[0]);\n"
                   "    else\n"
                   "        x[get_global_id(0)] = sub_group_non_uniform_reduce_add(x[0]);\n"
                   "}\n",
                   "-cl-std=CL3.0", NULL);
    const char *first = ptx ? strstr(ptx, "call.uni") : NULL;
    CHECK(first && strstr(first + 1, "call.uni"), "the two arms' reductions were merged:\n%s", ptx ? ptx : "");
    free(ptx);
}

/* printf: each call appends a record to the module's printf buffer
 * (__mosaic_printf, builtins/nvptx/printf.cl), which stays an external
 * global for the device to find; a program that prints nothing has none. */
TEST(printf_records)
{
    NEED_LIBCLC();
    static const struct mosaic_runtime_symbol symbols[] = {{"__mosaic_printf", NULL}};
    static const mosaic_compiler_target target = {
        .triple = MC_PTX_TRIPLE, .clang_features = GPU_FEATURES, .runtime_symbols = symbols,
        .num_runtime_symbols = 1};
    char *ptx = ptx_with(&target,
                         "kernel void k(global float4 *x) {\n"
                         "    printf(\"%d %v4hlf %s\\n\", (int)get_global_id(0), x[0], \"done\");\n"
                         "}\n",
                         "", NULL);
    if (!ptx)
        return;
    CHECK(strstr(ptx, ".visible .global .align 8 .b8 __mosaic_printf_area[16]"), "no printf buffer:\n%s", ptx);
    CHECK(strstr(ptx, "atom.global.add.u32"), "no record reserved:\n%s", ptx);
    CHECK(!strstr(ptx, "vprintf") && !strstr(ptx, ".extern .func"), "a call left outside the module:\n%s", ptx);
    free(ptx);
    ptx = ptx_with(&target, "kernel void k(global int *x) { x[0] = 1; }\n", "", NULL);
    CHECK(ptx && !strstr(ptx, "__mosaic_printf_area"), "a printf buffer where nothing prints");
    free(ptx);
}

/* The generic address space: to_global, to_local and to_private ask the
 * address (isspacep) and convert it opaquely (cvta.to), so that a __local
 * pointer given to to_global builds (LLVM would fold it into a cast the
 * back end refuses, stopping the process); get_fence too. */
TEST(generic_address_space)
{
    NEED_LIBCLC();
    static const mosaic_compiler_target target = {
        .triple = MC_PTX_TRIPLE, .clang_features = "-cl-ext=+__opencl_c_generic_address_space"};
    char *ptx = ptx_with(&target,
                         "int twice(int *p) { return *p * 2; }\n"
                         "kernel void k(global int *g, local int *l) {\n"
                         "    int priv = 3;\n"
                         "    l[get_local_id(0)] = 1;\n"
                         "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "    int *gp = g, *lp = l, *pp = &priv;\n"
                         "    g[get_global_id(0)] = twice(gp) + twice(lp) + twice(pp)\n"
                         "        + (to_global(gp) != 0) + (to_local(lp) != 0) + (to_private(pp) != 0)\n"
                         "        + (to_global(lp) != 0) + (get_fence(lp) == CLK_LOCAL_MEM_FENCE);\n"
                         "}\n",
                         "-cl-std=CL3.0", NULL);
    if (!ptx)
        return;
    CHECK(strstr(ptx, "isspacep.global") && strstr(ptx, "isspacep.shared") && strstr(ptx, "isspacep.local"),
          "the address spaces are not asked:\n%s", ptx);
    CHECK(strstr(ptx, "cvta.to.global") && strstr(ptx, "cvta.to.shared"), "no conversion out of generic:\n%s", ptx);
    free(ptx);
    /* null pointers of two spaces compared as generic ones: the optimiser
     * folds the two casts into one from __local to __global, which must not
     * reach the back end (the CTS's generic_address_space compare_pointers) */
    ptx = ptx_with(&target,
                   "kernel void k(global uint *results) {\n"
                   "    int *ptr = NULL;\n"
                   "    local int *lptr = NULL;\n"
                   "    global int *gptr = NULL;\n"
                   "    ptr = lptr;\n"
                   "    results[get_global_id(0)] = (gptr == ptr) && (lptr == ptr);\n"
                   "}\n",
                   "-cl-std=CL3.0", NULL);
    CHECK(ptx && strstr(ptx, "cvta.shared.u64") && strstr(ptx, "cvta.to.global.u64"),
          "the cast does not go through the generic space:\n%s", ptx ? ptx : "");
    free(ptx);
}

/* What NVPTX cannot select (an acquire load, which LLVM 16 stops the
 * process on) under mc_guard_fatal: the call fails with LLVM's reason, and
 * the process builds on. */
typedef struct stopped_emission {
    LLVMTargetMachineRef tm;
    LLVMModuleRef m;
} stopped_emission;

static void emit_stopped(void *arg)
{
    stopped_emission *e = arg;
    char *message = NULL;
    LLVMMemoryBufferRef text = NULL;
    LLVMTargetMachineEmitToMemoryBuffer(e->tm, e->m, LLVMAssemblyFile, &message, &text);
    CHECK(0, "the code generator went on");
}

TEST(code_generator_stops)
{
    NEED_LIBCLC();
    free(ptx_of(&gpu_target, kernel_source, NULL)); /* NVPTX set up */
    static const char ir[] = "target triple = \"nvptx64-nvidia-cuda\"\n"
                             "define i32 @f(ptr addrspace(1) %p) {\n"
                             "  %v = load atomic i32, ptr addrspace(1) %p acquire, align 4\n"
                             "  ret i32 %v\n"
                             "}\n";
    LLVMContextRef c = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, sizeof ir - 1, "stops");
    stopped_emission e = {NULL, NULL};
    char *error = NULL;
    CHECK(!LLVMParseIRInContext(c, buf, &e.m, &error), "%s", error ? error : "");
    LLVMTargetRef target = NULL;
    CHECK(!LLVMGetTargetFromTriple("nvptx64-nvidia-cuda", &target, &error), "%s", error ? error : "");
    if (!e.m || !target)
        return;
    e.tm = LLVMCreateTargetMachine(target, "nvptx64-nvidia-cuda", "sm_90", "", LLVMCodeGenLevelDefault,
                                   LLVMRelocDefault, LLVMCodeModelDefault);
    mosaic_strbuf log = {0};
    bool finished = mc_guard_fatal(emit_stopped, &e, &log);
    CHECK(!finished, "no fatal error");
    CHECK(log.data && strstr(log.data, "Cannot select"), "log: %s", log.data ? log.data : "(none)");
    mosaic_strbuf_free(&log);
    /* (e's objects are left: LLVM stopped half way through them) */
    char *ptx = ptx_of(&gpu_target, kernel_source, NULL);
    CHECK(ptx != NULL, "no build after the stop");
    free(ptx);
}

/* A CPU executable has no PTX. */
TEST(cpu_executable_no_ptx)
{
    mosaic_bitcode obj = {0}, exe_bc = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&cpu_target, "kernel void k(global int *x) { x[get_global_id(0)] = 1; }", "",
                                     0, NULL, &obj, &log);
    free(log);
    log = NULL;
    if (r == CL_SUCCESS)
        r = mosaic_link_bitcode(&cpu_target, 1, &obj, "", false, &exe_bc, &log);
    free(log);
    log = NULL;
    mosaic_executable *exe = NULL;
    if (r == CL_SUCCESS)
        r = mosaic_finalize(&cpu_target, &exe_bc, "", &exe, &log);
    CHECK(r == CL_SUCCESS, "%d: %s", r, log ? log : "");
    free(log);
    size_t size = 1;
    CHECK(exe && !mosaic_executable_ptx(exe, &size) && size == 0, "a CPU executable has PTX");
    mosaic_executable_free(exe);
    mosaic_bitcode_free(&obj);
    mosaic_bitcode_free(&exe_bc);
}

/* ---- the kernel cache (mosaic_finalize_ptx's .ptx entries) ------------------------ */

static void set_setting(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    mosaic_settings_reload();
}

/* mosaic_finalize_ptx of `bc` for `sm` with MOSAIC_DEBUG=cache, what it
 * printed on stderr into said; NULL (checked) on failure. */
static mosaic_executable *finalize_saying(const mosaic_bitcode *bc, const char *sm, char *said, size_t size)
{
    set_setting("MOSAIC_DEBUG", "cache");
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(STDERR_FILENO);
    if (tmp && saved >= 0)
        dup2(fileno(tmp), STDERR_FILENO);
    mosaic_executable *exe = NULL;
    char *log = NULL;
    cl_int r = mosaic_finalize_ptx(&gpu_device, bc, "", sm, &exe, &log);
    fflush(stderr);
    size_t len = 0;
    if (tmp && saved >= 0) {
        dup2(saved, STDERR_FILENO);
        rewind(tmp);
        len = fread(said, 1, size - 1, tmp);
    }
    said[len] = 0;
    if (saved >= 0)
        close(saved);
    if (tmp)
        fclose(tmp);
    set_setting("MOSAIC_DEBUG", NULL);
    CHECK(r == CL_SUCCESS && exe, "finalize: %d %s", r, log ? log : "");
    CHECK(!log || !*log, "a log: %s", log);
    free(log);
    return exe;
}

typedef struct entry_path {
    char *path;
    size_t size;
} entry_path;

static void keep_path(const char *path, void *data)
{
    entry_path *p = data;
    snprintf(p->path, p->size, "%s", path);
}

/* The .ptx entries under the cache directory `dir`; the last one's path in
 * `path`. */
static int ptx_entries(const char *dir, char *path, size_t size)
{
    entry_path p = {path, size};
    return test_each_cache_entry(dir, "ptx", keep_path, &p);
}

static bool same_text(const char *a, const char *b) { return (!a && !b) || (a && b && !strcmp(a, b)); }

/* Every field of the executables the API reads is the same in both. */
static void same_executable(const mosaic_executable *a, const mosaic_executable *b, const char *when)
{
    if (!a || !b)
        return;
    size_t na = 0, nb = 0;
    const char *pa = mosaic_executable_ptx(a, &na), *pb = mosaic_executable_ptx(b, &nb);
    CHECK(pa && pb && na == nb && na == strlen(pa) && !memcmp(pa, pb, na + 1), "%s: not the same PTX (%zu, %zu bytes)",
          when, na, nb);
    CHECK(mosaic_executable_global_variables_size(a) == mosaic_executable_global_variables_size(b),
          "%s: global variables %zu, %zu", when, mosaic_executable_global_variables_size(a),
          mosaic_executable_global_variables_size(b));
    CHECK(!mosaic_executable_block_kernel(a, MOSAIC_BLOCK_HANDLE(0)) &&
              !mosaic_executable_block_kernel(b, MOSAIC_BLOCK_HANDLE(0)),
          "%s: block kernels", when);
    CHECK(!mosaic_executable_attached(a) && !mosaic_executable_attached(b), "%s: attached", when);
    size_t n = mosaic_executable_num_kernels(a);
    CHECK(n == mosaic_executable_num_kernels(b), "%s: %zu and %zu kernels", when, n, mosaic_executable_num_kernels(b));
    for (size_t k = 0; k < n && n == mosaic_executable_num_kernels(b); k++) {
        const mosaic_kernel_info *x = mosaic_executable_kernel(a, k), *y = mosaic_executable_kernel(b, k);
        const char *name = x->name ? x->name : "?";
        CHECK(same_text(x->name, y->name) && same_text(x->attributes, y->attributes), "%s: %s: name, attributes",
              when, name);
        CHECK(mosaic_executable_find_kernel(b, name) == y, "%s: %s not found by name", when, name);
        CHECK(x->num_args == y->num_args, "%s: %s: %u and %u arguments", when, name, x->num_args, y->num_args);
        for (cl_uint i = 0; i < x->num_args && x->num_args == y->num_args; i++) {
            const mosaic_kernel_arg *g = &x->args[i], *h = &y->args[i];
            CHECK(g->kind == h->kind && g->size == h->size && g->alignment == h->alignment &&
                      g->address_qualifier == h->address_qualifier && g->access_qualifier == h->access_qualifier &&
                      g->type_qualifier == h->type_qualifier && same_text(g->type_name, h->type_name) &&
                      same_text(g->name, h->name),
                  "%s: %s: argument %u", when, name, i);
        }
        CHECK(!memcmp(x->reqd_work_group_size, y->reqd_work_group_size, sizeof x->reqd_work_group_size) &&
                  !memcmp(x->work_group_size_hint, y->work_group_size_hint, sizeof x->work_group_size_hint),
              "%s: %s: required or hinted sizes", when, name);
        CHECK(x->static_local_mem_size == y->static_local_mem_size && x->private_mem_size == y->private_mem_size &&
                  x->wg_stack_size == y->wg_stack_size && x->item_state_size == y->item_state_size,
              "%s: %s: memory sizes (local %zu, %zu)", when, name, x->static_local_mem_size,
              y->static_local_mem_size);
        CHECK(x->uses_barriers == y->uses_barriers && x->vectorised_loops == y->vectorised_loops &&
                  x->widened_lanes == y->widened_lanes && x->widened_rows == y->widened_rows &&
                  x->keeps_item_state == y->keeps_item_state && x->regroupable == y->regroupable &&
                  x->counter_args == y->counter_args && x->counter_args_wide == y->counter_args_wide,
              "%s: %s: what finalize found", when, name);
        CHECK(!x->wg_fn && !y->wg_fn && !x->wi_fn && !y->wi_fn && !x->fused_fn && !y->fused_fn &&
                  !x->fused_groups && !y->fused_groups,
              "%s: %s: CPU functions", when, name);
    }
}

/* Every kind of table entry: attributes, a struct by value, qualifiers,
 * __local arguments and variables, a program-scope variable. */
static const char cached_source[] =
    "typedef struct { float x; int n; } pair;\n"
    "global int total = 3;\n"
    "__attribute__((reqd_work_group_size(64, 1, 1)))\n"
    "kernel void first(global float *restrict a, const global int *b, pair p, local float *t)\n"
    "{\n"
    "    local int seen[32];\n"
    "    size_t l = get_local_id(0);\n"
    "    seen[l % 32] = b[l];\n"
    "    t[l] = a[get_global_id(0)] * p.x;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    a[get_global_id(0)] = t[(l + 1) % 64] + seen[p.n & 31] + total;\n"
    "}\n"
    "__attribute__((work_group_size_hint(8, 4, 1))) __attribute__((vec_type_hint(float4)))\n"
    "kernel void second(volatile global uint *c, constant float4 *k, uchar u)\n"
    "{\n"
    "    atomic_add(c, u + (uint)k[get_group_id(1)].y);\n"
    "    total = 4;\n"
    "}\n";

/* A well-formed entry (its checksum right) under the key of the entry at
 * `path` holding `payload` instead. */
static void replace_entry(const char *path, const mosaic_strbuf *payload)
{
    FILE *f = fopen(path, "rb");
    unsigned char head[48];
    bool read = f && fread(head, 1, sizeof head, f) == sizeof head;
    if (f)
        fclose(f);
    CHECK(read, "cannot read %s", path);
    mc_cache_key key;
    memcpy(key.bytes, head + 16, sizeof key.bytes); /* magic, kind, 0, key: cache.c */
    CHECK(!payload->oom && payload->data);
    mc_cache_store(MC_CACHE_PTX, &key, payload->data, payload->len);
}

TEST(ptx_cache)
{
    NEED_LIBCLC();
    char dir[] = "/tmp/mosaic-test-ptx-cache-XXXXXX";
    if (!mkdtemp(dir)) {
        TEST_FAIL("mkdtemp");
        return;
    }
    char *saved_dir = getenv("MOSAIC_CACHE_DIR") ? strdup(getenv("MOSAIC_CACHE_DIR")) : NULL;
    char *saved_cache = getenv("MOSAIC_CACHE") ? strdup(getenv("MOSAIC_CACHE")) : NULL;
    set_setting("MOSAIC_CACHE", NULL);
    set_setting("MOSAIC_CACHE_DIR", dir);
    mosaic_bitcode obj = {0}, exe_bc = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(&gpu_device, cached_source, "-cl-std=CL2.0", 0, NULL, &obj, &log);
    CHECK(r == CL_SUCCESS, "front end: %d %s", r, log ? log : "");
    free(log);
    log = NULL;
    if (r == CL_SUCCESS) {
        r = mosaic_link_bitcode(&gpu_device, 1, &obj, "", false, &exe_bc, &log);
        CHECK(r == CL_SUCCESS, "link: %d %s", r, log ? log : "");
        free(log);
    }
    static char said[1 << 16];
    char path[8400] = "";
    mosaic_executable *built = r == CL_SUCCESS ? finalize_saying(&exe_bc, "sm_90", said, sizeof said) : NULL;
    if (!built)
        goto done;
    CHECK(strstr(said, "mosaic: PTX cache miss\n") && !strstr(said, "hit"), "a new cache: %s", said);
    CHECK(ptx_entries(dir, path, sizeof path) == 1, "%d .ptx entries", ptx_entries(dir, path, sizeof path));
    /* the table has what the entry must keep */
    const mosaic_kernel_info *first = mosaic_executable_find_kernel(built, "first");
    const mosaic_kernel_info *second = mosaic_executable_find_kernel(built, "second");
    CHECK(mosaic_executable_num_kernels(built) == 2 && first && second, "the kernels");
    CHECK(mosaic_executable_global_variables_size(built) == sizeof(int), "%zu bytes of global variables",
          mosaic_executable_global_variables_size(built));
    if (first && second) {
        CHECK(first->reqd_work_group_size[0] == 64 && first->static_local_mem_size == 32 * sizeof(int) &&
                  first->num_args == 4 && first->args[2].kind == MOSAIC_ARG_BY_VALUE &&
                  first->args[2].size == 8 && first->args[0].type_qualifier == CL_KERNEL_ARG_TYPE_RESTRICT &&
                  first->args[1].type_qualifier == CL_KERNEL_ARG_TYPE_CONST,
              "first's table");
        CHECK(second->work_group_size_hint[1] == 4 && second->attributes && strstr(second->attributes, "float4") &&
                  second->args[0].type_qualifier == CL_KERNEL_ARG_TYPE_VOLATILE &&
                  !strcmp(second->args[1].type_name, "float4*"),
              "second's table (attributes %s)", second->attributes ? second->attributes : "none");
    }

    /* the same executable again: a hit, and the same executable */
    mosaic_executable *again = finalize_saying(&exe_bc, "sm_90", said, sizeof said);
    CHECK(strstr(said, "mosaic: PTX cache hit\n") && !strstr(said, "miss"), "the second finalize: %s", said);
    same_executable(built, again, "a hit");
    mosaic_executable_free(again);

    /* a damaged entry, then a truncated one, then well-formed ones (their
     * checksums right) that hold no whole entry of the GPU's: each is a
     * miss, built and stored again, then a hit */
    size_t ptx_size = 0;
    const char *ptx = mosaic_executable_ptx(built, &ptx_size);
    mc_ptx_program lie = {.ptx = (char *)ptx, .num_kernels = mosaic_executable_num_kernels(built),
                          .kernels = (mosaic_kernel_info *)mosaic_executable_kernel(built, 0),
                          .global_variables_size = mosaic_executable_global_variables_size(built)};
    unsigned char has_wg[2] = {1, 0}, fused[2] = {0, 0};
    static const char *const damage[] = {"damaged", "truncated", "cut short", "no NUL", "with K.wg",
                                         "block kernels"};
    for (size_t d = 0; d < sizeof damage / sizeof *damage; d++) {
        struct stat st;
        CHECK(ptx_entries(dir, path, sizeof path) == 1 && !stat(path, &st), "%s: the entry", damage[d]);
        mosaic_strbuf payload = {0};
        if (d == 0) {
            FILE *f = fopen(path, "r+b");
            if (f) {
                fseek(f, st.st_size / 2, SEEK_SET);
                fputs("garbage garbage garbage", f);
                fclose(f);
            }
        } else if (d == 1) {
            CHECK(!truncate(path, st.st_size / 2), "truncate");
        } else if (d == 2) {
            lie.ptx_size = ptx_size;
            mc_ptx_serialize(&lie, &payload);
            payload.len -= 8; /* the last kernel's last field gone */
        } else if (d == 3) {
            lie.ptx_size = ptx_size - 1; /* its last character where the NUL was */
            mc_ptx_serialize(&lie, &payload);
        } else {
            mc_object o = {.code = (char *)ptx, .code_size = ptx_size + 1, .num_kernels = lie.num_kernels,
                           .num_block_kernels = d == 5, .kernels = lie.kernels, .has_wg = d == 4 ? has_wg : NULL,
                           .fused_groups = fused, .global_variables_size = lie.global_variables_size};
            mc_object_serialize(&o, &payload);
        }
        if (d >= 2)
            replace_entry(path, &payload);
        mosaic_strbuf_free(&payload);
        mosaic_executable *rebuilt = finalize_saying(&exe_bc, "sm_90", said, sizeof said);
        CHECK(strstr(said, "mosaic: PTX cache miss\n") && !strstr(said, "hit"), "%s: %s", damage[d], said);
        same_executable(built, rebuilt, damage[d]);
        mosaic_executable_free(rebuilt);
        rebuilt = finalize_saying(&exe_bc, "sm_90", said, sizeof said);
        CHECK(strstr(said, "mosaic: PTX cache hit\n"), "%s, stored again: %s", damage[d], said);
        same_executable(built, rebuilt, damage[d]);
        mosaic_executable_free(rebuilt);
    }

    /* another compute capability is another entry */
    mosaic_executable *other = finalize_saying(&exe_bc, "sm_80", said, sizeof said);
    CHECK(strstr(said, "mosaic: PTX cache miss\n"), "sm_80: %s", said);
    CHECK(ptx_entries(dir, path, sizeof path) == 2, "%d .ptx entries", ptx_entries(dir, path, sizeof path));
    const char *ptx80 = other ? mosaic_executable_ptx(other, NULL) : NULL;
    CHECK(ptx80 && strstr(ptx80, ".target sm_80"), "not PTX for sm_80");
    mosaic_executable_free(other);

    /* MOSAIC_CACHE=0: no cache asked, nothing stored, the same executable */
    set_setting("MOSAIC_CACHE", "0");
    mosaic_executable *uncached = finalize_saying(&exe_bc, "sm_90", said, sizeof said);
    CHECK(!strstr(said, "PTX cache"), "MOSAIC_CACHE=0: %s", said);
    same_executable(built, uncached, "MOSAIC_CACHE=0");
    mosaic_executable_free(uncached);
    set_setting("MOSAIC_CACHE", NULL);
    CHECK(ptx_entries(dir, path, sizeof path) == 2, "%d .ptx entries", ptx_entries(dir, path, sizeof path));
    mosaic_executable_free(built);
done:
    mosaic_bitcode_free(&obj);
    mosaic_bitcode_free(&exe_bc);
    set_setting("MOSAIC_CACHE", saved_cache);
    set_setting("MOSAIC_CACHE_DIR", saved_dir);
    free(saved_cache);
    free(saved_dir);
    test_remove_tree(dir);
}

int main(int argc, char **argv)
{
    /* a private kernel cache, removed at the end (the GPU's PTX is cached) */
    const char *cache = test_private_cache();
    test_run(argc, argv);
    if (cache)
        test_remove_tree(cache);
    return test_summary();
}
