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
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_ptx.list"
#include "test.h"
#include "gpu_kernels.h"
#include "compiler/compiler.h"
#include "compiler/gpu/ptx.h"

static const mosaic_compiler_target gpu_target = {.triple = MC_PTX_TRIPLE};
static const mosaic_compiler_target cpu_target = {.clang_features = "-cl-ext=-all"};

static const char *const kernel_source = WAVES_SOURCE;

/* PTX of `source` for sm_90, or NULL with the reason checked against `expect`
 * (NULL: must succeed). */
static char *ptx_of(const mosaic_compiler_target *target, const char *source, const char *expect)
{
    mosaic_bitcode obj = {0};
    char *log = NULL;
    cl_int r = mosaic_compile_source(target, source, "", 0, NULL, &obj, &log);
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
static mosaic_executable *gpu_executable(const char *source, const char *options, const char *expect)
{
    mosaic_bitcode obj = {0}, exe_bc = {0};
    mosaic_executable *exe = NULL;
    char *log = NULL;
    cl_int r = mosaic_compile_source(&gpu_device, source, options, 0, NULL, &obj, &log);
    CHECK(r == CL_SUCCESS, "front end: %d %s", r, log ? log : "");
    free(log);
    log = NULL;
    if (r == CL_SUCCESS) {
        r = mosaic_link_bitcode(&gpu_device, 1, &obj, "", false, &exe_bc, &log);
        CHECK(r == CL_SUCCESS && exe_bc.type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "link: %d %s", r,
              log ? log : "");
        free(log);
        log = NULL;
    }
    if (r == CL_SUCCESS) {
        r = mosaic_finalize_ptx(&gpu_device, &exe_bc, "", "sm_90", &exe, &log);
        if (!expect) {
            CHECK(r == CL_SUCCESS && exe, "finalize: %d %s", r, log ? log : "");
        } else {
            CHECK(r == CL_BUILD_PROGRAM_FAILURE && !exe, "finalize: %d", r);
            CHECK(log && strstr(log, expect), "log: %s", log ? log : "(none)");
        }
        free(log);
    }
    mosaic_bitcode_free(&obj);
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
        char launch[128];
        snprintf(launch, sizeof launch, ".visible .global .align 8 .b8 " MOSAIC_GPU_LAUNCH_SYMBOL "[%zu];",
                 sizeof(mosaic_gpu_launch));
        CHECK(strstr(ptx, launch), "no %s in the PTX:\n%s", launch, ptx);
        CHECK(strstr(ptx, "ld.global") && strstr(ptx, "%ctaid.x"), "no launch values read");
        CHECK(!strstr(ptx, ".extern .global"), "something global is left for the driver to find");
    }
    CHECK(mosaic_executable_global_variables_size(exe) == 0, "global variables");
    mosaic_sized_wg none = mosaic_executable_wg_for_size(exe, scale, (size_t[3]){64, 1, 1}, 1, true);
    CHECK(!none.whole && !none.pending, "a build for one size of a GPU kernel");
    mosaic_executable_free(exe);
}

/* The byte offsets into MOSAIC_GPU_LAUNCH_SYMBOL the PTX loads from, marked
 * in seen[]: `ld.global... [__mosaic_launch+N]`, or through a register set
 * to its address (`mov.u64 %rdA, __mosaic_launch;`, `add.s64 %rdB, %rdA, N;`,
 * then `[%rdB]` or `[%rdA+N]`).  The number of such loads. */
static int launch_loads(const char *ptx, bool seen[sizeof(mosaic_gpu_launch)])
{
    struct { char name[32]; long offset; } regs[256];
    int nregs = 0, loads = 0;
    for (const char *line = ptx; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        while (*line == ' ' || *line == '\t')
            line++;
        char op[32], a[32], b[64], c[32];
        if (sscanf(line, "%31s %31[^,], %63[^,;], %31[^;];", op, a, b, c) >= 3 && !strcmp(op, "mov.u64") &&
            !strcmp(b, MOSAIC_GPU_LAUNCH_SYMBOL) && nregs < 256) {
            snprintf(regs[nregs].name, sizeof regs[nregs].name, "%s", a);
            regs[nregs++].offset = 0;
        } else if (sscanf(line, "%31s %31[^,], %63[^,;], %31[^;];", op, a, b, c) == 4 && !strcmp(op, "add.s64")) {
            for (int i = 0; i < nregs; i++)
                if (!strcmp(regs[i].name, b) && nregs < 256) {
                    snprintf(regs[nregs].name, sizeof regs[nregs].name, "%s", a);
                    regs[nregs++].offset = regs[i].offset + strtol(c, NULL, 10);
                    break;
                }
        } else if (!strncmp(line, "ld.global", 9) && strchr(line, '[')) {
            char base[64] = "";
            long offset = 0;
            sscanf(strchr(line, '[') + 1, "%63[^]+]+%ld", base, &offset);
            long at = -1;
            if (!strcmp(base, MOSAIC_GPU_LAUNCH_SYMBOL))
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
    int loads = launch_loads(ptx, seen);
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
        "}\n",
        "-cl-std=CL3.0", NULL);
    if (exe) {
        const char *ptx = mosaic_executable_ptx(exe, NULL);
        CHECK(strstr(ptx, "atom.shared.add") || strstr(ptx, "atom.shared.inc") || strstr(ptx, "red.shared"),
              "no atomic on shared memory:\n%s", ptx);
        CHECK(strstr(ptx, "membar.gl") && strstr(ptx, "bar.sync"), "no fence or barrier");
        CHECK(mosaic_executable_kernel(exe, 0)->static_local_mem_size == 4 + 8 * 64 + 4 ||
                  mosaic_executable_kernel(exe, 0)->static_local_mem_size == 8 * 64 + 4,
              "%zu bytes of __local variables", mosaic_executable_kernel(exe, 0)->static_local_mem_size);
    }
    mosaic_executable_free(exe);
    free(gpu_executable("float nowhere(float);\n"
                        "kernel void k(global float *x) { x[get_global_id(0)] = nowhere(x[0]); }\n",
                        "", "the GPU has no built-in 'nowhere'"));
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

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
