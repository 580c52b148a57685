/*
 * OpenCL C features on the CPU device, through the ICD loader: the generic
 * address space (to_global/to_local/to_private/get_fence), printf, the
 * work-group collective functions, and the feature macros the compiler
 * defines.
 *
 *   usage: test_language [case|--list]   (the cases: test_language.list; none: all)
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEST_LIST "test_language.list"
#include "test.h"
#include "cl_test.h"
#include "../common/collectives_ref.h"

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

/* Builds source with options; on failure prints the log and returns NULL. */
static cl_program build(const char *source, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    err = clBuildProgram(p, 1, &device, options, NULL, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    if (err != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
        char *log = calloc(size + 1, 1);
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
        fprintf(stderr, "build (%s) failed:\n%s\n", options ? options : "", log);
        free(log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

static cl_mem buffer(size_t size, void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), size, host, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

/* ---- generic address space ----------------------------------------------------------- */
/* Pointers to global, local and private memory (a buffer, a static __local
 * array, a __local argument, a private array, a program-scope variable) pass
 * through generic pointers to helper functions, which classify them. */
static const char generic_source[] =
    "global int gvar = 7;\n"
    "int classify(int *p) {\n"
    "  int r = (to_global(p) != 0) | (to_local(p) != 0) << 1 | (to_private(p) != 0) << 2;\n"
    "  if (to_local(p)) { *to_local(p) += 1; *p -= 1; }\n"
    "  if (to_private(p)) { *to_private(p) += 1; *p -= 1; }\n"
    "  return r;\n"
    "}\n"
    "uint fence(const int *p) { return get_fence(p); }\n"
    "kernel void k(global int *out, global int *buf, local int *larg) {\n"
    "  local int lvar[16];\n"
    "  int pv[3] = {1, 2, 3};\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  larg[l] = (int)l;\n"
    "  lvar[l] = 0;\n"
    "  int *ps[5] = {&buf[i], &lvar[l], &pv[2], &larg[l], &gvar};\n"
    "  for (int j = 0; j < 5; j++) {\n"
    "    out[i * 12 + 2 * j] = classify(ps[j]);\n"
    "    out[i * 12 + 2 * j + 1] = (int)fence(ps[j]);\n"
    "#ifdef BARRIER\n"
    "    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "#endif\n"
    "  }\n"
    "  out[i * 12 + 10] = pv[2] * 100 + larg[l];\n"
    "}\n";

TEST(generic_address_space)
{
    static const char *const options[] = {"-cl-std=CL2.0", "-cl-std=CL3.0", "-cl-std=CL2.0 -D BARRIER",
                                          "-cl-std=CL3.0 -D BARRIER"};
    cl_bool generic = CL_FALSE;
    clGetDeviceInfo(device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof generic, &generic, NULL);
    CHECK(generic == CL_TRUE);
    enum { N = 100, L = 16 }; /* a trailing group of 4 */
    for (size_t o = 0; o < sizeof options / sizeof options[0]; o++) {
        cl_program p = build(generic_source, options[o]);
        if (!p)
            continue;
        cl_int err;
        cl_kernel k = clCreateKernel(p, "k", &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_mem out = buffer(N * 12 * sizeof(cl_int), NULL), buf = buffer(N * sizeof(cl_int), NULL);
        clSetKernelArg(k, 0, sizeof out, &out);
        clSetKernelArg(k, 1, sizeof buf, &buf);
        clSetKernelArg(k, 2, L * sizeof(cl_int), NULL);
        size_t global = N, local = L;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        cl_int res[N * 12];
        CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof res, res, 0, NULL, NULL), CL_SUCCESS);
        /* class global 1, local 2, private 4; fence CLK_GLOBAL_MEM_FENCE 2, CLK_LOCAL_MEM_FENCE 1, none 0 */
        static const int want[5][2] = {{1, 2}, {2, 1}, {4, 0}, {2, 1}, {1, 2}};
        int bad = 0;
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < 5; j++)
                if (res[i * 12 + 2 * j] != want[j][0] || res[i * 12 + 2 * j + 1] != want[j][1]) {
                    if (bad++ < 5)
                        fprintf(stderr, "%s: item %d pointer %d: class %d fence %d\n", options[o], i, j,
                                res[i * 12 + 2 * j], res[i * 12 + 2 * j + 1]);
                }
            bad += res[i * 12 + 10] != 300 + i % L;
        }
        CHECK(bad == 0);
        clReleaseMemObject(out);
        clReleaseMemObject(buf);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
}

/* ---- printf ------------------------------------------------------------------------- */
/* Is every line of text one of want[0..n), each exactly once? */
static int same_lines(const char *text, char **want, size_t n)
{
    int bad = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        size_t i = 0;
        while (i < n && !(want[i] && strlen(want[i]) == len && !memcmp(want[i], p, len)))
            i++;
        if (i == n) {
            if (bad++ < 5)
                fprintf(stderr, "unexpected line: '%.*s'\n", (int)len, p);
        } else {
            free(want[i]);
            want[i] = NULL;
        }
        p += len + (nl ? 1 : 0);
    }
    for (size_t i = 0; i < n; i++)
        if (want[i]) {
            if (bad++ < 10)
                fprintf(stderr, "missing line: '%s'\n", want[i]);
            free(want[i]);
        }
    return bad;
}

static char *run_captured(cl_kernel k, size_t n, size_t l) { return test_run_captured(queue, k, n, l); }

static const char printf_source[] =
    "kernel void p(global const float4 *v, int base, global int *ret) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  float4 f = v[i];\n"
    "  ret[i] = printf(\"wi %d: %s %5d|%-4d|%#x|%05.1f|%v4hlf|%v2hhd|%c|%e|%v3d|%lu|%.2v4hlf|%v8lf|%#v4hhx|%+v2li|%%\\n\",\n"
    "      i, \"str\", base + i, i, 255 + i, 2.25f, f, (char2)(-1, 2), 'A' + i % 26, 1.5, (int3)(i, -i, 7),\n"
    "      (ulong)i * 1000000000000ul, f, (double8)(i, 0.5, 1, 2, 3, 4, 5, -6), (uchar4)(1, 0xab, 255, i),\n"
    "      (long2)(-5000000000l, i));\n"
    "#ifdef BARRIER\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  printf(\"after barrier %d\\n\", i);\n"
    "#endif\n"
    "}\n";

TEST(printf)
{
    enum { N = 1000, L = 64 }; /* a trailing group of 40 */
    for (int barrier = 0; barrier < 2; barrier++) {
        cl_program p = build(printf_source, barrier ? "-cl-std=CL3.0 -D BARRIER" : "-cl-std=CL3.0");
        if (!p)
            continue;
        cl_int err;
        cl_kernel k = clCreateKernel(p, "p", &err);
        CHECK_ERR(err, CL_SUCCESS);
        float *v = malloc(N * 4 * sizeof *v);
        for (int i = 0; i < N * 4; i++)
            v[i] = (float)i * 0.25f - 3.0f;
        cl_mem vb = buffer(N * 4 * sizeof *v, v), rb = buffer(N * sizeof(cl_int), NULL);
        cl_int base = 1000;
        clSetKernelArg(k, 0, sizeof vb, &vb);
        clSetKernelArg(k, 1, sizeof base, &base);
        clSetKernelArg(k, 2, sizeof rb, &rb);
        char *text = run_captured(k, N, L);
        size_t count = barrier ? 2 * N : N;
        char **want = calloc(count, sizeof *want);
        for (int i = 0; i < N; i++) {
            const float *f = &v[4 * i];
            char line[1024];
            snprintf(line, sizeof line,
                     "wi %d: %s %5d|%-4d|%#x|%05.1f|%f,%f,%f,%f|%hhd,%hhd|%c|%e|%d,%d,%d|%lu|%.2f,%.2f,%.2f,%.2f|"
                     "%f,%f,%f,%f,%f,%f,%f,%f|%#hhx,%#hhx,%#hhx,%#hhx|%+li,%+li|%%",
                     i, "str", base + i, i, 255 + i, 2.25, f[0], f[1], f[2], f[3], (char)-1, (char)2, 'A' + i % 26,
                     1.5, i, -i, 7, (unsigned long)i * 1000000000000ul, f[0], f[1], f[2], f[3], (double)i, 0.5, 1.0,
                     2.0, 3.0, 4.0, 5.0, -6.0, 1, 0xab, 255, (unsigned char)i, -5000000000l, (long)i);
            want[i] = strdup(line);
            if (barrier) {
                snprintf(line, sizeof line, "after barrier %d", i);
                want[N + i] = strdup(line);
            }
        }
        CHECK(same_lines(text, want, count) == 0);
        cl_int ret[N];
        CHECK_ERR(clEnqueueReadBuffer(queue, rb, CL_TRUE, 0, sizeof ret, ret, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += ret[i] != 0;
        CHECK(bad == 0);
        free(want);
        free(text);
        free(v);
        clReleaseMemObject(vb);
        clReleaseMemObject(rb);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
}

/* ---- work-group collective functions -------------------------------------------------- */
/* Every function and type against the host (tests/common/collectives_ref.h),
 * in 2D with trailing groups in both dimensions, in 3D for two types, and
 * in 1D as fibers for two types. */
TEST(work_group_collectives)
{
    cl_bool support = CL_FALSE;
    clGetDeviceInfo(device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, sizeof support, &support, NULL);
    CHECK(support == CL_TRUE);
    static const coll_range ranges[3] = {
        {2, {21, 13, 1}, {8, 4, 1}}, /* groups of 5x1 .. 8x4 */
        {3, {6, 5, 7}, {4, 2, 3}},
        {1, {300, 1, 1}, {64, 1, 1}},
    };
    /* the last one as fibers (FIBERS keeps it off the barrier regions) */
    static const char *const options[3] = {"-cl-std=CL3.0 -D DIM=2 -D ALL",
                                           "-cl-std=CL2.0 -D DIM=3 -D WITH_float -D WITH_long",
                                           "-cl-std=CL3.0 -D DIM=1 -D FIBERS -D WITH_uint -D WITH_double"};
    for (int d = 0; d < 3; d++) {
        cl_program p = build(collectives_kernels, options[d]);
        if (!p)
            continue;
        const coll_range *cr = &ranges[d];
        size_t n = cr->global[0] * cr->global[1] * cr->global[2];
        cl_mem fb = buffer(2 * n * sizeof(cl_int), NULL);
        int *flags = calloc(2 * n, sizeof *flags);
        cl_uint k = 10;
#define RUN(T)                                                                                     \
    do {                                                                                           \
        cl_int err;                                                                                \
        cl_kernel kern = clCreateKernel(p, "coll_" #T, &err);                                      \
        CHECK_ERR(err, CL_SUCCESS);                                                                \
        T *in = calloc(n, sizeof *in), *out = calloc(10 * n, sizeof *out);                         \
        coll_input_##T(in, n);                                                                     \
        cl_mem ib = buffer(n * sizeof *in, in), ob = buffer(10 * n * sizeof *out, NULL);           \
        clSetKernelArg(kern, 0, sizeof ib, &ib);                                                   \
        clSetKernelArg(kern, 1, sizeof ob, &ob);                                                   \
        clSetKernelArg(kern, 2, sizeof fb, &fb);                                                   \
        clSetKernelArg(kern, 3, sizeof k, &k);                                                     \
        CHECK_ERR(clEnqueueNDRangeKernel(queue, kern, cr->dim, NULL, cr->global, cr->local, 0, NULL, NULL), \
                  CL_SUCCESS);                                                                     \
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, 10 * n * sizeof *out, out, 0, NULL, NULL), \
                  CL_SUCCESS);                                                                     \
        CHECK_ERR(clEnqueueReadBuffer(queue, fb, CL_TRUE, 0, 2 * n * sizeof *flags, flags, 0, NULL, NULL), \
                  CL_SUCCESS);                                                                     \
        CHECK(collectives_check_##T(cr, in, out, flags, k, options[d]) == 0);                      \
        clReleaseMemObject(ib);                                                                    \
        clReleaseMemObject(ob);                                                                    \
        clReleaseKernel(kern);                                                                     \
        free(in);                                                                                  \
        free(out);                                                                                 \
    } while (0)
        if (d == 0) {
            RUN(int);
            RUN(uint);
            RUN(long);
            RUN(ulong);
            RUN(float);
            RUN(double);
        } else if (d == 1) {
            RUN(float);
            RUN(long);
        } else {
            RUN(uint);
            RUN(double);
        }
#undef RUN
        free(flags);
        clReleaseMemObject(fb);
        clReleaseProgram(p);
    }
}

/* ---- feature macros ----------------------------------------------------------------- */
/* The macros a kernel sees must agree with what the device reports: every
 * OpenCL C feature (CL_DEVICE_OPENCL_C_FEATURES) and language extension
 * defined, __IMAGE_SUPPORT__ as CL_DEVICE_IMAGE_SUPPORT, and nothing else of
 * the macros clang defines for SPIR by default. */
static const char *const macro_names[] = {
    "__IMAGE_SUPPORT__", "cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate",
    "cl_khr_extended_bit_ops", "cl_khr_integer_dot_product", "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed", "cl_ext_float_atomics",
    "__opencl_c_ext_fp32_global_atomic_add", "__opencl_c_ext_fp32_local_atomic_add",
    "__opencl_c_ext_fp32_global_atomic_min_max", "__opencl_c_ext_fp64_global_atomic_add",
    "__opencl_c_ext_fp64_local_atomic_min_max", "__opencl_c_pipes", "__opencl_c_generic_address_space",
    "__opencl_c_work_group_collective_functions", "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_device_enqueue", "__opencl_c_read_write_images", "__opencl_c_program_scope_global_variables",
    "__opencl_c_images", "__opencl_c_3d_image_writes", "__opencl_c_subgroups", "__opencl_c_fp64",
    "__opencl_c_int64", "__opencl_c_fp16", "cl_khr_fp64", "cl_khr_fp16", "cl_khr_subgroups", "cl_khr_3d_image_writes",
    "cl_khr_depth_images", "cl_khr_mipmap_image", "cl_khr_global_int32_base_atomics",
    "cl_khr_int64_base_atomics", "cl_khr_byte_addressable_store",
};

TEST(feature_macros)
{
    enum { M = sizeof macro_names / sizeof macro_names[0] };
    char features[8192] = "", extensions[8192] = "";
    cl_name_version fv[64];
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, sizeof fv, fv, &size), CL_SUCCESS);
    for (size_t i = 0; i < size / sizeof fv[0]; i++) {
        strcat(features, " ");
        strcat(features, fv[i].name);
    }
    strcat(features, " ");
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof extensions - 2, extensions + 1, NULL),
              CL_SUCCESS);
    extensions[0] = ' ';
    strcat(extensions, " ");
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);

    static char src[16384];
    size_t len = (size_t)snprintf(src, sizeof src, "kernel void m(global int *o) {\n");
    for (int i = 0; i < M; i++)
        len += (size_t)snprintf(src + len, sizeof src - len, "#ifdef %s\n  o[%d] = 1;\n#else\n  o[%d] = 0;\n#endif\n",
                                macro_names[i], i, i);
    snprintf(src + len, sizeof src - len, "}\n");

    static const char *const stds[] = {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"};
    for (int s = 0; s < 3; s++) {
        cl_program p = build(src, stds[s]);
        if (!p)
            continue;
        cl_int err;
        cl_kernel k = clCreateKernel(p, "m", &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_mem ob = buffer(M * sizeof(cl_int), NULL);
        clSetKernelArg(k, 0, sizeof ob, &ob);
        size_t one = 1;
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, &one, 0, NULL, NULL), CL_SUCCESS);
        cl_int defined[M];
        CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, sizeof defined, defined, 0, NULL, NULL), CL_SUCCESS);
        for (int i = 0; i < M; i++) {
            char word[256];
            snprintf(word, sizeof word, " %s ", macro_names[i]);
            int reported = i == 0 ? images == CL_TRUE : strstr(features, word) || strstr(extensions, word);
            int is_feature = !strncmp(macro_names[i], "__opencl_c_", 11);
            /* defined only if reported; in OpenCL C 3.0 every reported one is
             * defined, before 3.0 every reported extension */
            /* the sub-group extensions (cl_khr_subgroups and the cl_khr_subgroup_ ones)
             * are OpenCL C 2.0 ones: clang has them from 2.0 on, and before 3.0 only
             * with cl_khr_subgroups */
            int needs_sub_groups = !strncmp(macro_names[i], "cl_khr_subgroup", 15) &&
                                   (s == 0 || !strstr(extensions, " cl_khr_subgroups "));
            /* so are the bit operations and dot products (declared by clang from 2.0 on),
             * and the float atomics (OpenCL C 2.0's atomic types) */
            int from_2_0 = s == 0 && (!strcmp(macro_names[i], "cl_khr_extended_bit_ops") ||
                                      !strcmp(macro_names[i], "cl_khr_integer_dot_product") ||
                                      !strcmp(macro_names[i], "cl_ext_float_atomics"));
            int ok = defined[i] ? reported
                                : !reported || (s < 2 && (is_feature || needs_sub_groups)) || from_2_0;
            if (!ok)
                fprintf(stderr, "%s: %s is %sdefined, the device %s it\n", stds[s], macro_names[i],
                        defined[i] ? "" : "not ", reported ? "reports" : "does not report");
            CHECK(ok);
        }
        CHECK(defined[0] == (images == CL_TRUE)); /* #ifdef __IMAGE_SUPPORT__ follows CL_DEVICE_IMAGE_SUPPORT */
        clReleaseMemObject(ob);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
}


/* ---- barrier kernels built for their local size ----------------------------------- */
/* A tree reduction launched again and again: from the third launch with one
 * local size (MOSAIC_SPECIALISE_AFTER's default) its whole groups run a
 * K.wg built for that size, and a trailing smaller group the general one.
 * Each group writes its sum and the sizes it read; every launch is checked. */
static const char tree_source[] =
    "kernel void tree(global const int *x, global int *out, local int *t) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);\n"
    "  t[l] = x[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = 1; s < n; s *= 2) {\n"
    "    int v = (l % (2 * s) == 0 && l + s < n) ? t[l + s] : 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    t[l] += v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) {\n"
    "    out[2 * g] = t[0];\n"
    "    out[2 * g + 1] = (int)(n * 1000 + get_enqueued_local_size(0));\n"
    "  }\n"
    "}\n";

TEST(barrier_kernel_sizes)
{
    enum { N = 1000, LAUNCHES = 5 };
    cl_program p = build(tree_source, "-cl-std=CL2.0");
    if (!p)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "tree", &err);
    CHECK_ERR(err, CL_SUCCESS);
    int x[N], out[2 * N];
    for (int i = 0; i < N; i++)
        x[i] = i % 13 - 6;
    cl_mem in = buffer(sizeof x, x), res = buffer(sizeof out, NULL);
    const size_t locals[] = {64, 16, 128}; /* 1000 = 15 x 64 + 40, 62 x 16 + 8, 7 x 128 + 104 */
    for (unsigned s = 0; s < sizeof locals / sizeof *locals; s++) {
        size_t local = locals[s], global = N, groups = (N + local - 1) / local;
        CHECK_ERR(clSetKernelArg(k, 0, sizeof in, &in), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 1, sizeof res, &res), CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 2, local * sizeof(int), NULL), CL_SUCCESS);
        for (int launch = 0; launch < LAUNCHES; launch++) {
            memset(out, 0, sizeof out);
            CHECK_ERR(clEnqueueWriteBuffer(queue, res, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
            CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
            CHECK_ERR(clEnqueueReadBuffer(queue, res, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
            int bad = 0;
            for (size_t g = 0; g < groups; g++) {
                size_t n = N - g * local < local ? N - g * local : local;
                int sum = 0;
                for (size_t i = 0; i < n; i++)
                    sum += x[g * local + i];
                bad += out[2 * g] != sum || out[2 * g + 1] != (int)(n * 1000 + local);
            }
            CHECK(!bad, "groups of %zu, launch %d: %d of %zu groups wrong (group 0: %d, %d)", local, launch + 1, bad,
                  groups, out[0], out[1]);
        }
    }
    clReleaseMemObject(in);
    clReleaseMemObject(res);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* ---- inline functions ------------------------------------------------------------------ */
/* A function declared `inline` only is a C99 inline definition: no
 * external definition comes with it, and a call may use the inline one.
 * Libraries' kernels are written so (CLBlast's INLINE_FUNC, FFT
 * generators).  It must build and run with and without -cl-opt-disable,
 * and two units that share it from a header must link without a clash. */
static const char inline_header[] = "inline int twice_plus(int x, int y) { return 2 * x + y; }\n";

TEST(inline_functions)
{
    static const char *const options[] = {"", "-cl-opt-disable", "-cl-std=CL2.0 -cl-opt-disable",
                                          "-cl-std=CL3.0"};
    static const char src[] = "inline int twice_plus(int x, int y) { return 2 * x + y; }\n"
                              "kernel void k(global int *p) { size_t i = get_global_id(0); p[i] = twice_plus(p[i], (int)i); }\n";
    for (size_t o = 0; o < sizeof options / sizeof *options; o++) {
        cl_program p = build(src, options[o]);
        if (!p)
            continue;
        cl_int err;
        cl_kernel k = clCreateKernel(p, "k", &err);
        CHECK_ERR(err, CL_SUCCESS);
        int v[64];
        for (int i = 0; i < 64; i++)
            v[i] = i - 20;
        cl_mem m = buffer(sizeof v, v);
        size_t global = 64;
        CHECK_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
        CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL), CL_SUCCESS);
        int bad = 0;
        for (int i = 0; i < 64; i++)
            bad += v[i] != 2 * (i - 20) + i;
        CHECK(!bad, "'%s': %d wrong", options[o], bad);
        clReleaseMemObject(m);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    /* two units, each with the header's inline function, linked */
    static const char *const units_src[] = {
        "#include \"twice.h\"\nint first(int x) { return twice_plus(x, 1); }\n",
        "#include \"twice.h\"\nint first(int x);\n"
        "kernel void both(global int *p) { p[0] = first(p[0]) + twice_plus(p[1], 0); }\n",
    };
    for (int o = 0; o < 2; o++) {
        cl_int err;
        const char *header = inline_header, *name = "twice.h";
        cl_program h = clCreateProgramWithSource(context, 1, &header, NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
        cl_program units[2];
        for (int u = 0; u < 2; u++) {
            const char *text = units_src[u];
            units[u] = clCreateProgramWithSource(context, 1, &text, NULL, &err);
            CHECK_ERR(err, CL_SUCCESS);
            CHECK_ERR(clCompileProgram(units[u], 1, &device, o ? "-cl-opt-disable" : "", 1, &h, &name, NULL, NULL),
                      CL_SUCCESS);
        }
        cl_program linked = clLinkProgram(context, 1, &device, "", 2, units, NULL, NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
        if (linked) {
            cl_kernel k = clCreateKernel(linked, "both", &err);
            CHECK_ERR(err, CL_SUCCESS);
            int v[2] = {5, 7};
            cl_mem m = buffer(sizeof v, v);
            size_t one = 1;
            CHECK_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
            CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
            CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL), CL_SUCCESS);
            CHECK(v[0] == 11 + 14, "linked units (%s): %d, expected 25", o ? "-cl-opt-disable" : "optimised", v[0]);
            clReleaseMemObject(m);
            clReleaseKernel(k);
            clReleaseProgram(linked);
        }
        for (int u = 0; u < 2; u++)
            clReleaseProgram(units[u]);
        clReleaseProgram(h);
    }
}

int main(int argc, char **argv)
{
    return test_main_on_cpu_queue(argc, argv, &device, &context, &queue);
}
