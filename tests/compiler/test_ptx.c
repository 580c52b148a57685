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
 */
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

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
