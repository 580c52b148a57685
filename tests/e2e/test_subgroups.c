/*
 * Sub-groups (the OpenCL 3.0 feature __opencl_c_subgroups and
 * cl_khr_subgroup_extended_types; docs/subgroups.md): the device queries,
 * clGetKernelSubGroupInfo with every parameter and error,
 * and kernels checked against the host's answer on 1D, 2D and 3D ranges with
 * partial sub-groups (groups whose size is not a multiple of the sub-group
 * size, non-uniform trailing groups, groups smaller than one sub-group):
 * the work-item functions, sub_group_barrier, all/any/broadcast/reduce/scan
 * for every type, the extended types, and sub-groups that take different
 * paths between work-group barriers; the non-uniform extensions (vote,
 * ballot, arithmetic, clustered reduce, shuffles, rotate) with part of each
 * sub-group calling; forward progress: sub-groups and work-items that wait
 * in loops for others of their group, later in it.  The _fibers runs repeat the kernels
 * with MOSAIC_BARRIER_FIBERS=1.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEST_LIST "test_subgroups.list"
#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;
static size_t sg_size; /* CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE of a large group */

/* ---- NDRanges and the host's sub-groups ------------------------------------------ */
typedef struct range {
    cl_uint dim;
    size_t global[3], local[3];
} range;

static const range ranges[] = {
    {1, {300, 1, 1}, {64, 1, 1}}, /* the last group 44: a partial sub-group */
    {2, {21, 13, 1}, {8, 4, 1}},  /* groups 8x4, 5x4 (20: 8, 8, 4), 8x1, 5x1 */
    {3, {6, 5, 7}, {3, 2, 3}},    /* 18 per group: 8, 8, 2; partial groups */
    {1, {20, 1, 1}, {5, 1, 1}},   /* a group smaller than a sub-group */
    {2, {32, 4, 1}, {16, 2, 1}},  /* whole sub-groups */
};
#define NRANGES (sizeof ranges / sizeof ranges[0])

static size_t items(const range *r) { return r->global[0] * r->global[1] * r->global[2]; }

/* Every work-item (global linear id) with its group's size, local linear id
 * and the global linear ids of its group in local linear order. */
typedef struct wi_map {
    size_t n;
    size_t *group_items; /* [w]: work-items in w's group */
    size_t *enq_items;   /* [w]: work-items of an enqueued (full) group */
    size_t *lin;         /* [w]: local linear id */
    size_t **members;    /* [w]: the group's work-items by local linear id (shared by the group) */
} wi_map;

static wi_map map_range(const range *r)
{
    wi_map m = {items(r), NULL, NULL, NULL, NULL};
    m.group_items = calloc(m.n, sizeof *m.group_items);
    m.enq_items = calloc(m.n, sizeof *m.enq_items);
    m.lin = calloc(m.n, sizeof *m.lin);
    m.members = calloc(m.n, sizeof *m.members);
    const size_t *G = r->global, *L = r->local;
    size_t ng[3] = {(G[0] + L[0] - 1) / L[0], (G[1] + L[1] - 1) / L[1], (G[2] + L[2] - 1) / L[2]};
    for (size_t gz = 0; gz < ng[2]; gz++)
        for (size_t gy = 0; gy < ng[1]; gy++)
            for (size_t gx = 0; gx < ng[0]; gx++) {
                size_t a[3], g[3] = {gx, gy, gz};
                for (int d = 0; d < 3; d++)
                    a[d] = G[d] - g[d] * L[d] < L[d] ? G[d] - g[d] * L[d] : L[d];
                size_t cnt = a[0] * a[1] * a[2], *mem = calloc(cnt, sizeof *mem);
                for (size_t lz = 0; lz < a[2]; lz++)
                    for (size_t ly = 0; ly < a[1]; ly++)
                        for (size_t lx = 0; lx < a[0]; lx++) {
                            size_t l = (lz * a[1] + ly) * a[0] + lx;
                            size_t w = ((gz * L[2] + lz) * G[1] + gy * L[1] + ly) * G[0] + gx * L[0] + lx;
                            mem[l] = w;
                            m.lin[w] = l;
                            m.group_items[w] = cnt;
                            m.enq_items[w] = L[0] * L[1] * L[2];
                            m.members[w] = mem;
                        }
            }
    return m;
}

static void free_map(wi_map *m)
{
    for (size_t w = 0; w < m->n; w++)
        if (m->members[w] && m->lin[w] == 0)
            free(m->members[w]);
    free(m->group_items), free(m->enq_items), free(m->lin), free(m->members);
}

/* w's sub-group: its first member's local linear id and its size */
static size_t sg_first(const wi_map *m, size_t w) { return m->lin[w] / sg_size * sg_size; }
static size_t sg_count(const wi_map *m, size_t w)
{
    size_t first = sg_first(m, w), left = m->group_items[w] - first;
    return left < sg_size ? left : sg_size;
}
/* the global linear id of member j of w's sub-group */
static size_t sg_member(const wi_map *m, size_t w, size_t j) { return m->members[w][sg_first(m, w) + j]; }

static cl_program build(const char *source, const char *options)
{
    return test_build_program(context, device, source, options);
}

static cl_mem buffer(size_t size, const void *data)
{
    cl_int err;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), size, (void *)data, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return b;
}

/* Runs kernel `name` of p over r with (in, out[, local scratch]) and reads out back. */
static bool run(cl_program p, const char *name, const range *r, cl_mem in, cl_mem out, void *host_out,
                size_t out_size, size_t local_bytes)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_ERR(err, CL_SUCCESS);
    if (err != CL_SUCCESS)
        return false;
    cl_uint a = 0;
    if (in)
        clSetKernelArg(k, a++, sizeof in, &in);
    clSetKernelArg(k, a++, sizeof out, &out);
    if (local_bytes)
        clSetKernelArg(k, a++, local_bytes, NULL);
    err = clEnqueueNDRangeKernel(queue, k, r->dim, NULL, r->global, r->local, 0, NULL, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, out_size, host_out, 0, NULL, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    clReleaseKernel(k);
    return err == CL_SUCCESS;
}

/* ---- queries ---------------------------------------------------------------------- */
static bool has_word(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return true;
    return false;
}

TEST(device_queries)
{
    cl_uint max_sg = 0;
    size_t max_wg = 0;
    cl_bool ifp = CL_TRUE;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof max_sg, &max_sg, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof ifp, &ifp, NULL),
              CL_SUCCESS);
    CHECK(max_sg == (max_wg + sg_size - 1) / sg_size, "CL_DEVICE_MAX_NUM_SUB_GROUPS %u", max_sg);
    CHECK(ifp == CL_TRUE); /* spin loops yield (forward_progress below) */
    char ext[8192] = "";
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
    /* cl_khr_subgroups requires independent forward progress */
    CHECK(has_word(ext, "cl_khr_subgroups"));
    cl_platform_id platform;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL), CL_SUCCESS);
    CHECK(clGetExtensionFunctionAddressForPlatform(platform, "clGetKernelSubGroupInfoKHR") != NULL);
    CHECK(has_word(ext, "cl_khr_subgroup_extended_types"));
    /* the non-uniform ones: tested below */
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size), CL_SUCCESS);
    cl_name_version *f = malloc(size);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, f, NULL), CL_SUCCESS);
    bool found = false;
    for (size_t i = 0; i < size / sizeof *f; i++)
        found |= !strcmp(f[i].name, "__opencl_c_subgroups");
    CHECK(found, "__opencl_c_subgroups is not in CL_DEVICE_OPENCL_C_FEATURES");
    free(f);
    /* and the macros a kernel sees agree */
    cl_program p = build("kernel void k(global int *o) {\n"
                         "#if defined(__opencl_c_subgroups) && defined(cl_khr_subgroups) && "
                         "defined(cl_khr_subgroup_extended_types)\n"
                         "  o[0] = 1;\n"
                         "#endif\n"
                         "#if !defined(cl_khr_subgroup_ballot) || !defined(cl_khr_subgroup_shuffle) || "
                         "!defined(cl_khr_subgroup_non_uniform_vote)\n"
                         "  o[1] = 1;\n"
                         "#endif\n"
                         "}\n",
                         "-cl-std=CL3.0");
    if (p) {
        int out[2] = {0, 0};
        cl_mem ob = buffer(sizeof out, out);
        range one = {1, {1, 1, 1}, {1, 1, 1}};
        run(p, "k", &one, NULL, ob, out, sizeof out, 0);
        CHECK(out[0] == 1 && out[1] == 0, "macros %d %d", out[0], out[1]);
        clReleaseMemObject(ob);
        clReleaseProgram(p);
    }
    /* OpenCL C 2.0 has the sub-group functions through cl_khr_subgroups */
    p = build("#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
              "kernel void k(global int *o) {\n"
              "  o[get_global_id(0)] = sub_group_reduce_add(1) * 100 + (int)get_sub_group_size();\n"
              "}\n",
              "-cl-std=CL2.0");
    if (p) {
        int out[16] = {0};
        cl_mem ob = buffer(sizeof out, out);
        range r16 = {1, {16, 1, 1}, {16, 1, 1}};
        run(p, "k", &r16, NULL, ob, out, sizeof out, 0);
        CHECK(out[0] == (int)(sg_size * 100 + sg_size) && out[15] == out[0], "CL2.0: %d %d", out[0], out[15]);
        clReleaseMemObject(ob);
        clReleaseProgram(p);
    }
}

TEST(kernel_sub_group_info)
{
    cl_program p = build("kernel void k(global int *o) { o[0] = get_sub_group_size(); }\n"
                         "__attribute__((reqd_work_group_size(24, 1, 1))) kernel void r(global int *o) { o[0] = 1; }\n",
                         "-cl-std=CL3.0");
    if (!p)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err), kr = clCreateKernel(p, "r", &err);
    size_t v = 0, ret = 0, local[3] = {20, 3, 1};
    /* the local size as 1, 2 or 3 size_t */
    for (size_t d = 1; d <= 3; d++) {
        size_t n = d == 1 ? 20 : 60;
        CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, d * sizeof(size_t),
                                          local, sizeof v, &v, &ret), CL_SUCCESS);
        CHECK(v == sg_size && ret == sizeof(size_t), "max size %zu for %zu items", v, n);
        CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, d * sizeof(size_t), local,
                                          sizeof v, &v, &ret), CL_SUCCESS);
        CHECK(v == (n + sg_size - 1) / sg_size, "count %zu for %zu items", v, n);
    }
    size_t small[1] = {3};
    CHECK_ERR(clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof small, small,
                                      sizeof v, &v, NULL), CL_SUCCESS);
    CHECK(v == 3, "a group of 3: max sub-group size %zu", v);
    /* local size for a sub-group count: one dimension, the others 1; 0s when impossible */
    size_t count = 5, out3[3] = {9, 9, 9};
    CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count, &count,
                                      sizeof out3, out3, &ret), CL_SUCCESS);
    CHECK(out3[0] == 5 * sg_size && out3[1] == 1 && out3[2] == 1 && ret == sizeof out3);
    count = 1u << 30;
    CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count, &count,
                                      sizeof out3, out3, NULL), CL_SUCCESS);
    CHECK(out3[0] == 0 && out3[1] == 0 && out3[2] == 0);
    count = 4; /* 4 sub-groups do not fit reqd_work_group_size(24) */
    CHECK_ERR(clGetKernelSubGroupInfo(kr, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count, &count,
                                      sizeof(size_t), out3, NULL), CL_SUCCESS);
    CHECK(out3[0] == 0);
    CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL),
              CL_SUCCESS);
    size_t max_wg = 0;
    clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL);
    CHECK(v == (max_wg + sg_size - 1) / sg_size);
    CHECK_ERR(clGetKernelSubGroupInfo(kr, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL),
              CL_SUCCESS);
    CHECK(v == (24 + sg_size - 1) / sg_size);
    CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL),
              CL_SUCCESS);
    CHECK(v == 0);
    /* errors */
    CHECK_ERR(clGetKernelSubGroupInfo(NULL, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL),
              CL_INVALID_KERNEL);
    CHECK_ERR(clGetKernelSubGroupInfo(k, (cl_device_id)context, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v,
                                      NULL), CL_INVALID_DEVICE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, device, 0x1234, 0, NULL, sizeof v, &v, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, 4, &v, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local, NULL, sizeof v,
                                      &v, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 5, local, sizeof v, &v, NULL),
              CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 4 * sizeof(size_t), local,
                                      sizeof v, &v, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, 2 * sizeof(size_t), local,
                                      sizeof out3, out3, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetKernelSubGroupInfo(k, device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count, NULL,
                                      sizeof out3, out3, NULL), CL_INVALID_VALUE);
    clReleaseKernel(k);
    clReleaseKernel(kr);
    clReleaseProgram(p);
}

/* ---- work-item functions ------------------------------------------------------------ */
static const char *const workitem_source =
    "kernel void wi(global uint *o) {\n"
    "  size_t w = get_global_linear_id();\n"
    "  o[6 * w + 0] = get_sub_group_size();\n"
    "  o[6 * w + 1] = get_sub_group_id();\n"
    "  o[6 * w + 2] = get_sub_group_local_id();\n"
    "  o[6 * w + 3] = get_num_sub_groups();\n"
    "  o[6 * w + 4] = get_enqueued_num_sub_groups();\n"
    "  o[6 * w + 5] = get_max_sub_group_size();\n"
    "}\n";

TEST(work_item_functions)
{
    {
        cl_program p = build(workitem_source, "-cl-std=CL3.0");
        if (!p)
            return;
        for (size_t ri = 0; ri < NRANGES; ri++) {
            const range *r = &ranges[ri];
            wi_map m = map_range(r);
            cl_uint *out = calloc(6 * m.n, sizeof *out);
            cl_mem ob = buffer(6 * m.n * sizeof *out, NULL);
            if (run(p, "wi", r, NULL, ob, out, 6 * m.n * sizeof *out, 0)) {
                int bad = 0;
                for (size_t w = 0; w < m.n && bad < 5; w++) {
                    size_t n = m.group_items[w], e = m.enq_items[w];
                    cl_uint want[6] = {(cl_uint)sg_count(&m, w), (cl_uint)(m.lin[w] / sg_size),
                                       (cl_uint)(m.lin[w] % sg_size), (cl_uint)((n + sg_size - 1) / sg_size),
                                       (cl_uint)((e + sg_size - 1) / sg_size), (cl_uint)(e < sg_size ? e : sg_size)};
                    if (memcmp(want, out + 6 * w, sizeof want)) {
                        bad++;
                        TEST_FAIL("range %zu work-item %zu: got %u %u %u %u %u %u, want %u %u %u %u %u %u", ri, w,
                                  out[6 * w], out[6 * w + 1], out[6 * w + 2], out[6 * w + 3], out[6 * w + 4],
                                  out[6 * w + 5], want[0], want[1], want[2], want[3], want[4], want[5]);
                    }
                }
            }
            clReleaseMemObject(ob);
            free(out);
            free_map(&m);
        }
        clReleaseProgram(p);
    }
}

/* ---- all, any, broadcast, reduce, scan -------------------------------------------------
 * 12 answers per work-item: reduce add/min/max, inclusive scans, exclusive
 * scans, broadcast from a lane that differs per sub-group, all, any. */
static const char *const collectives_source =
    "#define COLL(T) kernel void coll_##T(global const T *in, global T *o) {\\\n"
    "  size_t w = get_global_linear_id(); T x = in[w]; global T *r = o + 12 * w;\\\n"
    "  r[0] = sub_group_reduce_add(x); r[1] = sub_group_reduce_min(x); r[2] = sub_group_reduce_max(x);\\\n"
    "  r[3] = sub_group_scan_inclusive_add(x); r[4] = sub_group_scan_inclusive_min(x);\\\n"
    "  r[5] = sub_group_scan_inclusive_max(x); r[6] = sub_group_scan_exclusive_add(x);\\\n"
    "  r[7] = sub_group_scan_exclusive_min(x); r[8] = sub_group_scan_exclusive_max(x);\\\n"
    "  r[9] = sub_group_broadcast(x, (get_sub_group_id() * 5 + 3) % get_sub_group_size());\\\n"
    "  r[10] = (T)sub_group_all(x != (T)0); r[11] = (T)sub_group_any(x > (T)90);\\\n"
    "}\n"
    "COLL(int) COLL(uint) COLL(long) COLL(ulong) COLL(float) COLL(double)\n"
    "#ifdef EXTENDED\n"
    "COLL(char) COLL(uchar) COLL(short) COLL(ushort)\n"
    "#endif\n";

/* the values: small integers (exact in float), with zeros; a group with none */
#define VALUE(T, w) ((T)((w) % 37 == 5 ? 0 : (T)(((w) * 7919u) % 201u) - (T)((T)-1 > (T)0 ? 0 : 100)))
#define MIN2(a, b) ((a) < (b) ? (a) : (b))
#define MAX2(a, b) ((a) > (b) ? (a) : (b))

#define COLL_CHECK(T, TMIN, TMAX)                                                                  \
    static int check_coll_##T(const range *r, const wi_map *m, const T *in, const T *out, size_t ri) \
    {                                                                                              \
        int bad = 0;                                                                               \
        for (size_t w = 0; w < m->n && bad < 5; w++) {                                             \
            size_t n = sg_count(m, w), me = m->lin[w] % sg_size, sgid = m->lin[w] / sg_size;       \
            T want[12];                                                                            \
            T sum = 0, mn = TMAX, mx = TMIN;                                                       \
            int all = 1, any = 0;                                                                  \
            for (size_t j = 0; j < n; j++) {                                                       \
                T v = in[sg_member(m, w, j)];                                                      \
                if (j == me) {                                                                     \
                    want[6] = sum, want[7] = mn, want[8] = mx;                                     \
                }                                                                                  \
                sum = (T)(sum + v), mn = MIN2(mn, v), mx = MAX2(mx, v);                            \
                if (j == me) {                                                                     \
                    want[3] = sum, want[4] = mn, want[5] = mx;                                     \
                }                                                                                  \
                all &= v != 0, any |= v > (T)90;                                                   \
            }                                                                                      \
            want[0] = sum, want[1] = mn, want[2] = mx;                                             \
            want[9] = in[sg_member(m, w, (sgid * 5 + 3) % n)];                                     \
            want[10] = (T)all, want[11] = (T)any;                                                  \
            for (int i = 0; i < 12; i++)                                                           \
                if (want[i] != out[12 * w + i] && bad++ < 5)                                       \
                    TEST_FAIL(#T " range %zu work-item %zu answer %d: got %.17g, want %.17g", ri, w, i, \
                              (double)out[12 * w + i], (double)want[i]);                           \
        }                                                                                          \
        (void)r;                                                                                   \
        return bad;                                                                                \
    }
COLL_CHECK(cl_int, INT32_MIN, INT32_MAX)
COLL_CHECK(cl_uint, 0, UINT32_MAX)
COLL_CHECK(cl_long, INT64_MIN, INT64_MAX)
COLL_CHECK(cl_ulong, 0, UINT64_MAX)
COLL_CHECK(cl_float, -INFINITY, INFINITY)
COLL_CHECK(cl_double, -INFINITY, INFINITY)
COLL_CHECK(cl_char, INT8_MIN, INT8_MAX)
COLL_CHECK(cl_uchar, 0, UINT8_MAX)
COLL_CHECK(cl_short, INT16_MIN, INT16_MAX)
COLL_CHECK(cl_ushort, 0, UINT16_MAX)

#define RUN_COLL(T)                                                                                \
    do {                                                                                           \
        for (size_t ri = 0; ri < NRANGES; ri++) {                                                  \
            const range *r = &ranges[ri];                                                          \
            wi_map m = map_range(r);                                                               \
            cl_##T *in = calloc(m.n, sizeof *in), *out = calloc(12 * m.n, sizeof *out);            \
            for (size_t w = 0; w < m.n; w++)                                                       \
                in[w] = VALUE(cl_##T, w);                                                          \
            cl_mem ib = buffer(m.n * sizeof *in, in), ob = buffer(12 * m.n * sizeof *out, NULL);   \
            if (run(p, "coll_" #T, r, ib, ob, out, 12 * m.n * sizeof *out, 0))                     \
                check_coll_cl_##T(r, &m, in, out, ri);                                             \
            clReleaseMemObject(ib);                                                                \
            clReleaseMemObject(ob);                                                                \
            free(in), free(out);                                                                   \
            free_map(&m);                                                                          \
        }                                                                                          \
    } while (0)

TEST(collectives)
{
    {
        cl_program p = build(collectives_source, "-cl-std=CL3.0");
        if (!p)
            return;
        RUN_COLL(int);
        RUN_COLL(uint);
        RUN_COLL(long);
        RUN_COLL(ulong);
        RUN_COLL(float);
        RUN_COLL(double);
        clReleaseProgram(p);
    }
}

/* cl_khr_subgroup_extended_types: reduce and scans for 8- and 16-bit
 * integers (wrapping sums), broadcast for vectors up to a double16. */
static const char *const vector_source =
    "kernel void vb(global const double16 *in, global double16 *o) {\n"
    "  size_t w = get_global_linear_id(); uint id = get_sub_group_size() - 1;\n"
    "  o[w] = sub_group_broadcast(in[w], id);\n"
    "  char3 c = sub_group_broadcast(convert_char3(in[w].s012), 0);\n"
    "  int8 i = sub_group_broadcast(convert_int8(in[w].s01234567), id / 2);\n"
    "  o[w].s0 = c.x; o[w].s1 = c.z; o[w].s2 = i.s0; o[w].s3 = i.s7;\n"
    "}\n";

TEST(extended_types)
{
    cl_program p = build(collectives_source, "-cl-std=CL3.0 -D EXTENDED");
    if (!p)
        return;
    RUN_COLL(char);
    RUN_COLL(uchar);
    RUN_COLL(short);
    RUN_COLL(ushort);
    clReleaseProgram(p);
    p = build(vector_source, "-cl-std=CL3.0");
    if (!p)
        return;
    for (size_t ri = 0; ri < NRANGES; ri++) {
        const range *r = &ranges[ri];
        wi_map m = map_range(r);
        cl_double *in = calloc(16 * m.n, sizeof *in), *out = calloc(16 * m.n, sizeof *out);
        for (size_t i = 0; i < 16 * m.n; i++)
            in[i] = (double)((i * 31) % 101);
        cl_mem ib = buffer(16 * m.n * sizeof *in, in), ob = buffer(16 * m.n * sizeof *out, NULL);
        if (run(p, "vb", r, ib, ob, out, 16 * m.n * sizeof *out, 0)) {
            int bad = 0;
            for (size_t w = 0; w < m.n && bad < 5; w++) {
                size_t n = sg_count(&m, w);
                const double *last = in + 16 * sg_member(&m, w, n - 1), *first = in + 16 * sg_member(&m, w, 0);
                const double *mid = in + 16 * sg_member(&m, w, (n - 1) / 2);
                double want[16];
                memcpy(want, last, sizeof want);
                want[0] = first[0], want[1] = first[2], want[2] = mid[0], want[3] = mid[7];
                if (memcmp(want, out + 16 * w, sizeof want) && bad++ < 5)
                    TEST_FAIL("range %zu work-item %zu: vector broadcast differs (%g %g %g %g, want %g %g %g %g)", ri,
                              w, out[16 * w], out[16 * w + 1], out[16 * w + 2], out[16 * w + 15], want[0], want[1],
                              want[2], want[15]);
            }
        }
        clReleaseMemObject(ib);
        clReleaseMemObject(ob);
        free(in), free(out);
        free_map(&m);
    }
    clReleaseProgram(p);
}

/* ---- sub_group_barrier: values exchanged through __local memory ------------------------ */
static const char *const barrier_source =
    "kernel void sgb(global int *o, local int *t) {\n"
    "  uint l = get_local_linear_id(), s = get_sub_group_local_id(), n = get_sub_group_size();\n"
    "  t[l] = (int)(l * 3 + 1);\n"
    "  sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int v = t[l - s + (s + 1) % n];\n"
    "  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);\n"
    "  t[l] = v * 2;\n"
    "  sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  o[get_global_linear_id()] = t[l - s + (s + n - 1) % n];\n"
    "}\n";

TEST(sub_group_barrier)
{
    cl_program p = build(barrier_source, "-cl-std=CL3.0");
    if (!p)
        return;
    for (size_t ri = 0; ri < NRANGES; ri++) {
        const range *r = &ranges[ri];
        wi_map m = map_range(r);
        cl_int *out = calloc(m.n, sizeof *out);
        cl_mem ob = buffer(m.n * sizeof *out, NULL);
        if (run(p, "sgb", r, NULL, ob, out, m.n * sizeof *out, 4 * r->local[0] * r->local[1] * r->local[2])) {
            int bad = 0;
            for (size_t w = 0; w < m.n && bad < 5; w++) {
                size_t n = sg_count(&m, w), s = m.lin[w] % sg_size, first = sg_first(&m, w);
                size_t prev = first + (s + n - 1) % n;            /* whose t[] is read at the end */
                size_t src = first + ((prev - first) + 1) % n;    /* what it read first: our own slot */
                int want = (int)(src * 3 + 1) * 2;
                if (out[w] != want && bad++ < 5)
                    TEST_FAIL("range %zu work-item %zu: %d, want %d", ri, w, out[w], want);
            }
        }
        clReleaseMemObject(ob);
        free(out);
        free_map(&m);
    }
    clReleaseProgram(p);
}

/* ---- sub-groups on different paths between work-group barriers ----------------------------
 * Even sub-groups reduce, odd ones scan; each sub-group loops a number of
 * times of its own over a broadcast; then a work-group barrier, and a
 * sub-group function of what another sub-group wrote to __local memory. */
static const char *const divergent_source =
    "kernel void dv(global const int *in, global int *o, local int *t) {\n"
    "  size_t w = get_global_linear_id(); int x = in[w]; uint sg = get_sub_group_id();\n"
    "  uint l = get_local_linear_id(), n = get_local_size(0) * get_local_size(1) * get_local_size(2);\n"
    "  int r;\n"
    "  if (sg % 2 == 0)\n"
    "    r = sub_group_reduce_add(x);\n"
    "  else\n"
    "    r = sub_group_scan_inclusive_max(x);\n"
    "  int acc = 0;\n"
    "  for (uint i = 0; i <= sg % 3; i++)\n"
    "    acc += sub_group_broadcast(x + (int)i, i % get_sub_group_size());\n"
    "  t[l] = r + acc;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int other = t[(l + get_max_sub_group_size()) % n];\n"
    "  o[3 * w] = r; o[3 * w + 1] = acc; o[3 * w + 2] = sub_group_reduce_min(other);\n"
    "}\n";

/* Code only one work-item of each sub-group runs (lane 0, lane 3), storing
 * a 64-bit sum at its sub-group's slot: in the uniform copies of the regions
 * path that is one vector of 8 lanes whose one-lane masked accesses become
 * scalar ones (src/compiler/vectorize/masked_ops.c); partial sub-groups and groups
 * whose x size is not a multiple of 8 take the per-sub-group path. */
static const char *const one_lane_source =
    "size_t slot(void) {\n"
    "  size_t g = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);\n"
    "  return g * get_enqueued_num_sub_groups() + get_sub_group_id();\n"
    "}\n"
    "kernel void lane0(global const long *in, global long *out) {\n"
    "  long s = sub_group_reduce_add(in[get_global_linear_id()]);\n"
    "  if (get_sub_group_local_id() == 0) out[2 * slot()] = s;\n"
    "}\n"
    "kernel void lane3(global const long *in, global long *out) {\n"
    "  long s = sub_group_reduce_add(in[get_global_linear_id()]);\n"
    "  if (get_sub_group_local_id() == 3) out[2 * slot() + 1] = 3 * s;\n"
    "}\n";

/* The group linear id of global linear id w in r. */
static size_t group_of(const range *r, size_t w)
{
    size_t x = w % r->global[0], y = w / r->global[0] % r->global[1], z = w / r->global[0] / r->global[1];
    size_t ngx = (r->global[0] + r->local[0] - 1) / r->local[0], ngy = (r->global[1] + r->local[1] - 1) / r->local[1];
    return (z / r->local[2] * ngy + y / r->local[1]) * ngx + x / r->local[0];
}

TEST(one_lane_results)
{
    cl_program p = build(one_lane_source, "-cl-std=CL3.0");
    if (!p)
        return;
    for (size_t ri = 0; ri < NRANGES; ri++) {
        const range *r = &ranges[ri];
        wi_map m = map_range(r);
        size_t enq_sgs = (m.enq_items[0] + sg_size - 1) / sg_size, slots = 2 * (group_of(r, m.n - 1) + 1) * enq_sgs;
        cl_long *in = calloc(m.n, sizeof *in), *out = malloc(slots * sizeof *out), *want = malloc(slots * sizeof *want);
        for (size_t w = 0; w < m.n; w++)
            in[w] = VALUE(cl_long, w) * 1000000007LL;
        for (size_t i = 0; i < slots; i++)
            out[i] = want[i] = -1;
        for (size_t w = 0; w < m.n; w++) {
            size_t n = sg_count(&m, w), me = m.lin[w] % sg_size, slot = group_of(r, w) * enq_sgs + m.lin[w] / sg_size;
            cl_long sum = 0;
            for (size_t j = 0; j < n; j++)
                sum += in[sg_member(&m, w, j)];
            if (me == 0)
                want[2 * slot] = sum;
            if (me == 3)
                want[2 * slot + 1] = 3 * sum;
        }
        cl_mem ib = buffer(m.n * sizeof *in, in), ob = buffer(slots * sizeof *out, out);
        if (run(p, "lane0", r, ib, ob, out, slots * sizeof *out, 0) &&
            run(p, "lane3", r, ib, ob, out, slots * sizeof *out, 0)) {
            int bad = 0;
            for (size_t i = 0; i < slots; i++)
                if (out[i] != want[i] && bad++ < 5)
                    TEST_FAIL("range %zu slot %zu (lane %d): %lld, want %lld", ri, i / 2, i % 2 ? 3 : 0,
                              (long long)out[i], (long long)want[i]);
        }
        clReleaseMemObject(ib);
        clReleaseMemObject(ob);
        free(in);
        free(out);
        free(want);
        free_map(&m);
    }
    clReleaseProgram(p);
}

TEST(divergent_sub_groups)
{
    cl_program p = build(divergent_source, "-cl-std=CL3.0");
    if (!p)
        return;
    for (size_t ri = 0; ri < NRANGES; ri++) {
        const range *r = &ranges[ri];
        wi_map m = map_range(r);
        cl_int *in = calloc(m.n, sizeof *in), *out = calloc(3 * m.n, sizeof *out), *t = calloc(m.n, sizeof *t);
        for (size_t w = 0; w < m.n; w++)
            in[w] = VALUE(cl_int, w);
        cl_mem ib = buffer(m.n * sizeof *in, in), ob = buffer(3 * m.n * sizeof *out, NULL);
        /* the host: r and acc of every work-item first (t, indexed by global id) */
        int *rr = calloc(m.n, sizeof *rr), *aa = calloc(m.n, sizeof *aa);
        for (size_t w = 0; w < m.n; w++) {
            size_t n = sg_count(&m, w), me = m.lin[w] % sg_size, sg = m.lin[w] / sg_size;
            int sum = 0, mx = INT32_MIN;
            for (size_t j = 0; j < n; j++) {
                int v = in[sg_member(&m, w, j)];
                sum += v;
                if (j <= me)
                    mx = MAX2(mx, v);
            }
            rr[w] = sg % 2 == 0 ? sum : mx;
            for (size_t i = 0; i <= sg % 3; i++)
                aa[w] += in[sg_member(&m, w, i % n)] + (int)i;
            t[w] = rr[w] + aa[w];
        }
        if (run(p, "dv", r, ib, ob, out, 3 * m.n * sizeof *out, 4 * r->local[0] * r->local[1] * r->local[2])) {
            int bad = 0;
            for (size_t w = 0; w < m.n && bad < 5; w++) {
                size_t n = sg_count(&m, w), gn = m.group_items[w];
                size_t maxsg = m.enq_items[w] < sg_size ? m.enq_items[w] : sg_size;
                int mn = INT32_MAX;
                for (size_t j = 0; j < n; j++) {
                    size_t u = sg_member(&m, w, j);
                    mn = MIN2(mn, t[m.members[w][(m.lin[u] + maxsg) % gn]]);
                }
                int want[3] = {rr[w], aa[w], mn};
                if (memcmp(want, out + 3 * w, sizeof want) && bad++ < 5)
                    TEST_FAIL("range %zu work-item %zu: %d %d %d, want %d %d %d", ri, w, out[3 * w], out[3 * w + 1],
                              out[3 * w + 2], want[0], want[1], want[2]);
            }
        }
        clReleaseMemObject(ib);
        clReleaseMemObject(ob);
        free(in), free(out), free(t), free(rr), free(aa);
        free_map(&m);
    }
    clReleaseProgram(p);
}

/* ---- cl_khr_subgroup_non_uniform_vote ---------------------------------------------------
 * Only part of each sub-group calls (a bit of its input picks which), the
 * rest calls from the other branch, then a loop each work-item runs a
 * number of times of its own (the active ones of iteration i: those with
 * more than i), then all together again.  The host's answer for each call:
 * the active work-items are the sub-group's members that took the branch. */
static const char *const vote_source =
    "kernel void vote(global const int *in, global int *o) {\n"
    "  size_t w = get_global_linear_id(); int x = in[w];\n"
    "  int a = -1, b = -1, c = -1, d = -1, e = -1, f = -1;\n"
    "  if ((x >> 4) & 1) {\n"
    "    a = sub_group_elect();\n"
    "    b = sub_group_non_uniform_all(x & 1);\n"
    "    c = sub_group_non_uniform_any(x & 2);\n"
    "    d = sub_group_non_uniform_all_equal((long)((x >> 6) & 1));\n"
    "  } else {\n"
    "    e = sub_group_non_uniform_any(x & 8) + 2 * sub_group_non_uniform_all_equal((double)((x >> 5) & 1));\n"
    "  }\n"
    "  int g = 0;\n"
    "  for (int i = 0; i < (x & 3); i++)\n"
    "    g += sub_group_elect() << i;\n"
    "  f = sub_group_elect();\n"
    "  int *r = o + 7 * w;\n"
    "  r[0] = a; r[1] = b; r[2] = c; r[3] = d; r[4] = e; r[5] = f; r[6] = g;\n"
    "}\n";

TEST(non_uniform_vote)
{
    char ext[8192] = "";
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
    CHECK(has_word(ext, "cl_khr_subgroup_non_uniform_vote"));
    cl_program p = build(vote_source, "-cl-std=CL3.0");
    if (!p)
        return;
    for (size_t ri = 0; ri < NRANGES; ri++) {
        const range *r = &ranges[ri];
        wi_map m = map_range(r);
        cl_int *in = calloc(m.n, sizeof *in), *out = calloc(7 * m.n, sizeof *out), want[7];
        for (size_t w = 0; w < m.n; w++)
            in[w] = (cl_int)((w * 2654435761u) >> 7 & 0x7fff);
        cl_mem ib = buffer(m.n * sizeof *in, in), ob = buffer(7 * m.n * sizeof *out, NULL);
        if (run(p, "vote", r, ib, ob, out, 7 * m.n * sizeof *out, 0)) {
            int bad = 0;
            for (size_t w = 0; w < m.n && bad < 5; w++) {
                size_t n = sg_count(&m, w), me = m.lin[w] % sg_size;
                int x = in[w], side = (x >> 4) & 1;
                /* over the members on w's side: first one, all/any of bits, all equal */
                int first = -1, all = 1, any = 0, eq = 1, any8 = 0, eq5 = 1, v6 = -1, v5 = -1;
                for (size_t j = 0; j < n; j++) {
                    int y = in[sg_member(&m, w, j)];
                    if (((y >> 4) & 1) != side)
                        continue;
                    if (first < 0)
                        first = (int)j, v6 = (y >> 6) & 1, v5 = (y >> 5) & 1;
                    all &= (y & 1) != 0, any |= (y & 2) != 0, eq &= ((y >> 6) & 1) == v6;
                    any8 |= (y & 8) != 0, eq5 &= ((y >> 5) & 1) == v5;
                }
                want[0] = side ? first == (int)me : -1;
                want[1] = side ? all : -1;
                want[2] = side ? any : -1;
                want[3] = side ? eq : -1;
                want[4] = side ? -1 : any8 + 2 * eq5;
                want[5] = me == 0;
                want[6] = 0;
                for (int i = 0; i < (x & 3); i++) { /* the lowest member with more iterations than i */
                    size_t j = 0;
                    while ((in[sg_member(&m, w, j)] & 3) <= i)
                        j++;
                    want[6] |= (j == me) << i;
                }
                if (memcmp(want, out + 7 * w, sizeof want) && bad++ < 5) {
                    const cl_int *o = out + 7 * w;
                    TEST_FAIL("range %zu work-item %zu: %d %d %d %d %d %d %d, want %d %d %d %d %d %d %d", ri, w,
                              o[0], o[1], o[2], o[3], o[4], o[5], o[6], want[0], want[1], want[2], want[3], want[4],
                              want[5], want[6]);
                }
            }
        }
        clReleaseMemObject(ib);
        clReleaseMemObject(ob);
        free(in), free(out);
        free_map(&m);
    }
    clReleaseProgram(p);
}

/* ---- cl_khr_subgroup_ballot -----------------------------------------------------------
 * Both branches make the same calls (they must stay two calls: each branch's
 * work-items are the active ones of its own), a non-uniform broadcast of a
 * vector from the highest active work-item, then the bit functions and the
 * masks, which need no active work-items. */
static const char *const ballot_source =
    "kernel void ballot(global const int *in, global int *o) {\n"
    "  size_t w = get_global_linear_id(); int x = in[w]; uint l = get_sub_group_local_id();\n"
    "  int f; uint4 b; double4 v;\n"
    "  if ((x >> 4) & 1) {\n"
    "    f = sub_group_broadcast_first(x); b = sub_group_ballot(x & 1);\n"
    "    v = sub_group_non_uniform_broadcast((double4)(x, x + 1, x + 2, -x), sub_group_ballot_find_msb(sub_group_ballot(1)));\n"
    "  } else {\n"
    "    f = sub_group_broadcast_first(x); b = sub_group_ballot(x & 1);\n"
    "    v = sub_group_non_uniform_broadcast((double4)(x, x + 1, x + 2, -x), sub_group_ballot_find_msb(sub_group_ballot(1)));\n"
    "  }\n"
    "  global int *r = o + 8 * w;\n"
    "  r[0] = f; r[1] = b.x; r[2] = b.y | b.z | b.w; r[3] = (int)v.s1; r[4] = (int)v.s3;\n"
    "  r[5] = sub_group_ballot_bit_count(b) | sub_group_ballot_inclusive_scan(b) << 8 |\n"
    "         sub_group_ballot_exclusive_scan(b) << 16 | sub_group_inverse_ballot(b) << 24;\n"
    "  r[6] = get_sub_group_ge_mask().x | get_sub_group_gt_mask().x << 8 | get_sub_group_le_mask().x << 16 |\n"
    "         get_sub_group_lt_mask().x << 24;\n"
    "  r[7] = get_sub_group_eq_mask().x | sub_group_ballot_bit_extract(b, (l + 1) % 8) << 8 |\n"
    "         sub_group_ballot_find_lsb(b | get_sub_group_eq_mask()) << 16;\n"
    "}\n";

static int popcount32(unsigned v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

TEST(ballot)
{
    char ext[8192] = "";
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
    CHECK(has_word(ext, "cl_khr_subgroup_ballot"));
    cl_program p = build(ballot_source, "-cl-std=CL3.0");
    if (!p)
        return;
    for (size_t ri = 0; ri < NRANGES; ri++) {
        const range *r = &ranges[ri];
        wi_map m = map_range(r);
        cl_int *in = calloc(m.n, sizeof *in), *out = calloc(8 * m.n, sizeof *out), want[8];
        for (size_t w = 0; w < m.n; w++)
            in[w] = (cl_int)((w * 2654435761u) >> 9 & 0x7fff);
        cl_mem ib = buffer(m.n * sizeof *in, in), ob = buffer(8 * m.n * sizeof *out, NULL);
        if (run(p, "ballot", r, ib, ob, out, 8 * m.n * sizeof *out, 0)) {
            int bad = 0;
            for (size_t w = 0; w < m.n && bad < 5; w++) {
                size_t n = sg_count(&m, w), me = m.lin[w] % sg_size;
                size_t max = m.enq_items[w] < sg_size ? m.enq_items[w] : sg_size;
                unsigned maxmask = (1u << max) - 1, b = 0;
                int side = (in[w] >> 4) & 1, first = -1, last = -1;
                for (size_t j = 0; j < n; j++) {
                    int y = in[sg_member(&m, w, j)];
                    if (((y >> 4) & 1) != side)
                        continue;
                    first = first < 0 ? y : first;
                    last = y;
                    b |= (unsigned)(y & 1) << j;
                }
                unsigned eq = 1u << me, lsb = 0;
                while (!(((b | eq) >> lsb) & 1))
                    lsb++;
                want[0] = first, want[1] = (cl_int)b, want[2] = 0, want[3] = last + 1, want[4] = -last;
                want[5] = popcount32(b & maxmask) | popcount32(b & ((2u << me) - 1)) << 8 |
                          popcount32(b & (eq - 1)) << 16 | (int)((b >> me) & 1) << 24;
                want[6] = (int)(maxmask & ~(eq - 1)) | (int)(maxmask & ~((eq << 1) - 1)) << 8 |
                          (int)((eq << 1) - 1) << 16 | (int)(eq - 1) << 24;
                want[7] = (int)eq | (int)((b >> ((me + 1) % 8)) & 1) << 8 | (int)lsb << 16;
                if (memcmp(want, out + 8 * w, sizeof want) && bad++ < 5) {
                    const cl_int *o = out + 8 * w;
                    TEST_FAIL("range %zu work-item %zu: %d %x %x %d %d %x %x %x, want %d %x %x %d %d %x %x %x", ri, w,
                              o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], want[0], want[1], want[2], want[3],
                              want[4], want[5], want[6], want[7]);
                }
            }
        }
        clReleaseMemObject(ib);
        clReleaseMemObject(ob);
        free(in), free(out);
        free_map(&m);
    }
    clReleaseProgram(p);
}

/* ---- cl_khr_subgroup_non_uniform_arithmetic, _clustered_reduce, _shuffle,
 * _shuffle_relative, _rotate ------------------------------------------------------------
 * Reductions and scans by the work-items a bit of the input picks (the
 * others scan in the other branch); shuffles and rotations by the even
 * sub-group local ids, checked where the work-item read from is active (an
 * inactive or absent one gives an undefined value). */
static const char *const arith_source =
    "kernel void arith(global const int *in, global int *o) {\n"
    "  size_t w = get_global_linear_id(); int x = in[w]; uint l = get_sub_group_local_id();\n"
    "  global int *r = o + 12 * w;\n"
    "  if ((x >> 4) & 1) {\n"
    "    r[0] = sub_group_non_uniform_reduce_add(x);\n"
    "    r[1] = sub_group_non_uniform_scan_inclusive_max(x);\n"
    "    r[2] = sub_group_non_uniform_scan_exclusive_xor(x);\n"
    "    r[3] = sub_group_non_uniform_reduce_logical_or(x & 1);\n"
    "    r[4] = sub_group_clustered_reduce_min(x, 4);\n"
    "    r[5] = (int)(sub_group_non_uniform_reduce_mul((long)(x & 7) + 1) % 1000003);\n"
    "  } else {\n"
    "    r[0] = sub_group_non_uniform_scan_inclusive_add(x);\n"
    "    r[1] = r[2] = r[3] = r[4] = r[5] = -1;\n"
    "  }\n"
    "  if (l % 2 == 0) {\n"
    "    r[6] = sub_group_shuffle(x, 0); r[7] = sub_group_shuffle_xor(x, 2);\n"
    "    r[8] = sub_group_shuffle_up(x, 2); r[9] = sub_group_shuffle_down(x, 2);\n"
    "    r[10] = sub_group_rotate(x, 2); r[11] = sub_group_clustered_rotate(x, 2, 4);\n"
    "  } else {\n"
    "    r[6] = r[7] = r[8] = r[9] = r[10] = r[11] = -1;\n"
    "  }\n"
    "}\n";

TEST(non_uniform_arithmetic_and_shuffles)
{
    char ext[8192] = "";
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
    static const char *const names[] = {"cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_clustered_reduce",
                                        "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
                                        "cl_khr_subgroup_rotate"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        CHECK(has_word(ext, names[i]), "%s not reported", names[i]);
    cl_program p = build(arith_source, "-cl-std=CL3.0");
    if (!p)
        return;
    for (size_t ri = 0; ri < NRANGES; ri++) {
        const range *r = &ranges[ri];
        wi_map m = map_range(r);
        cl_int *in = calloc(m.n, sizeof *in), *out = calloc(12 * m.n, sizeof *out), want[12];
        for (size_t w = 0; w < m.n; w++)
            in[w] = (cl_int)((w * 2654435761u) >> 11 & 0x7fff);
        cl_mem ib = buffer(m.n * sizeof *in, in), ob = buffer(12 * m.n * sizeof *out, NULL);
        if (run(p, "arith", r, ib, ob, out, 12 * m.n * sizeof *out, 0)) {
            int bad = 0;
            for (size_t w = 0; w < m.n && bad < 5; w++) {
                size_t n = sg_count(&m, w), me = m.lin[w] % sg_size;
                size_t max = m.enq_items[w] < sg_size ? m.enq_items[w] : sg_size;
                int side = (in[w] >> 4) & 1, sum = 0, mx = INT32_MIN, xr = 0, lor = 0, cmin = INT32_MAX;
                long long mul = 1;
                for (size_t j = 0; j < n; j++) {
                    int y = in[sg_member(&m, w, j)];
                    if (((y >> 4) & 1) != side)
                        continue;
                    if (side) {
                        sum += y, lor |= y & 1, mul *= (y & 7) + 1;
                        mx = j <= me ? MAX2(mx, y) : mx;
                        xr ^= j < me ? y : 0;
                        cmin = j / 4 == me / 4 ? MIN2(cmin, y) : cmin;
                    } else {
                        sum += j <= me ? y : 0;
                    }
                }
                bool check[12] = {true, true, true, true, true, true};
                want[0] = sum;
                want[1] = side ? mx : -1, want[2] = side ? xr : -1, want[3] = side ? lor : -1;
                want[4] = side ? cmin : -1, want[5] = side ? (int)(mul % 1000003) : -1;
                /* the shuffles: from src when it is an even id of the sub-group */
                long src[6] = {0, (long)(me ^ 2), (long)me - 2, (long)me + 2, (long)((me + 2) % max),
                               (long)(me / 4 * 4 + (me % 4 + 2) % 4)};
                for (int k = 0; k < 6; k++) {
                    bool odd = me % 2 != 0, ok = src[k] >= 0 && (size_t)src[k] < n && src[k] % 2 == 0;
                    check[6 + k] = odd || ok;
                    want[6 + k] = odd ? -1 : ok ? in[sg_member(&m, w, (size_t)src[k])] : 0;
                }
                const cl_int *o = out + 12 * w;
                for (int k = 0; k < 12; k++)
                    if (check[k] && o[k] != want[k] && bad++ < 5)
                        TEST_FAIL("range %zu work-item %zu (id %zu of %zu): result %d is %d, want %d", ri, w, me, n, k,
                                  o[k], want[k]);
            }
        }
        clReleaseMemObject(ib);
        clReleaseMemObject(ob);
        free(in), free(out);
        free_map(&m);
    }
    clReleaseProgram(p);
}

int main(int argc, char **argv)
{
    cl_platform_id platform;
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    queue = clCreateCommandQueueWithProperties(context, device, NULL, NULL);
    /* the device's sub-group size, as the API reports it for a large group */
    cl_program p = test_build_program(context, device, "kernel void k(global int *o) { o[0] = 0; }", "-cl-std=CL3.0");
    if (p) {
        cl_kernel k = clCreateKernel(p, "k", NULL);
        size_t local = 1024;
        clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                sizeof sg_size, &sg_size, NULL);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    if (!sg_size || sg_size > 128) {
        fprintf(stderr, "the device reports sub-group size %zu\n", sg_size);
        sg_size = 8;
        CHECK(false, "no usable sub-group size");
    }
    test_run(argc, argv);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return test_summary();
}

/* ---- independent forward progress ---------------------------------------------------- */
/* Each waits for work-items that come later in its group: run one after
 * another without yielding, they would spin forever (src/compiler/workgroup/spin_loops.c). */
static const char *const progress_source =
    /* sub-groups pass a local counter down from the last to the first, with
     * work-group and sub-group barriers around (the CTS's ifp pattern) */
    "kernel void relay(global int *out, local atomic_int *flag) {\n"
    "  if (get_local_id(0) == 0) atomic_init(flag, 0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int sg = (int)get_sub_group_id(), n = (int)get_num_sub_groups();\n"
    "  int order = -1;\n"
    "  if (get_sub_group_local_id() == 0) {\n"
    "    while (atomic_load(flag) != n - 1 - sg)\n"
    "      ;\n"
    "    order = atomic_fetch_add(flag, 1);\n"
    "  }\n"
    "  sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  order = sub_group_broadcast(order, 0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = order * 1000 + atomic_load(flag);\n"
    "}\n"
    /* no barrier at all: work-item 0 waits on a global counter the others raise */
    "kernel void gather(global atomic_int *count, global int *out) {\n"
    "  int lid = (int)get_local_id(0), n = (int)get_local_size(0);\n"
    "  global atomic_int *c = count + get_group_id(0);\n"
    "  if (lid == 0) {\n"
    "    while (atomic_load_explicit(c, memory_order_acquire) != n - 1)\n"
    "      ;\n"
    "    out[get_global_id(0)] = -1;\n"
    "  } else {\n"
    "    out[get_global_id(0)] = lid;\n"
    "    atomic_fetch_add_explicit(c, 1, memory_order_release);\n"
    "  }\n"
    "}\n"
    /* a lock taken with compare-exchange, released by the work-item after it */
    "kernel void handoff(global int *out, local int *turn) {\n"
    "  int lid = (int)get_local_id(0), n = (int)get_local_size(0);\n"
    "  if (lid == 0) *turn = n - 1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  while (atomic_cmpxchg((volatile local int *)turn, lid, -2) != lid)\n"
    "    ;\n"
    "  out[get_global_id(0)] = n - 1 - lid;\n"
    "  atomic_xchg((volatile local int *)turn, lid - 1);\n"
    "}\n";

TEST(forward_progress)
{
    cl_program p = build(progress_source, "-cl-std=CL3.0");
    if (!p)
        return;
    enum { G = 960, L = 96 }; /* 12 sub-groups per group */
    int *out = malloc(G * sizeof *out);
    cl_mem ob = buffer(G * sizeof *out, NULL);
    range r = {1, {G, 1, 1}, {L, 1, 1}};
    if (run(p, "relay", &r, NULL, ob, out, G * sizeof *out, sizeof(cl_int))) {
        int bad = 0, n = L / (int)sg_size;
        for (int i = 0; i < G; i++) {
            int sg = (i % L) / (int)sg_size;
            bad += out[i] != (n - 1 - sg) * 1000 + n;
        }
        CHECK(bad == 0, "relay: %d wrong, out[0] = %d", bad, out[0]);
    }
    int *zeros = calloc(G, sizeof *zeros);
    cl_mem counts = buffer(G * sizeof *zeros, zeros);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "gather", &err);
    CHECK_ERR(err, CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof counts, &counts);
    clSetKernelArg(k, 1, sizeof ob, &ob);
    size_t g = G, l = L;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, ob, CL_TRUE, 0, G * sizeof *out, out, 0, NULL, NULL), CL_SUCCESS);
    int bad = 0;
    for (int i = 0; i < G; i++)
        bad += out[i] != (i % L ? i % L : -1);
    CHECK(bad == 0, "gather: %d wrong", bad);
    clReleaseKernel(k);
    if (run(p, "handoff", &r, NULL, ob, out, G * sizeof *out, sizeof(cl_int))) {
        bad = 0;
        for (int i = 0; i < G; i++)
            bad += out[i] != L - 1 - i % L;
        CHECK(bad == 0, "handoff: %d wrong", bad);
    }
    clReleaseMemObject(counts);
    clReleaseMemObject(ob);
    clReleaseProgram(p);
    free(zeros);
    free(out);
}

/* ---- active sets in the regions --------------------------------------------------------
 * Every kind of non-uniform function under three masks that differ within
 * each sub-group (odd sub-group local ids, the first half, the one with id
 * 2), on every range (partial sub-groups too).  These kernels run in the
 * vectorised regions, the active set of each call a masked copy of the
 * region after it (src/compiler/workgroup/region_active_sets.c); with
 * MOSAIC_DEBUG set (the _debug run) the test also checks that the build
 * says so rather than "fibers".  The host's answer: the active work-items
 * are the sub-group's members for which the mask holds. */
#define ACTIVE_RESULTS 17
static const char *const active_source =
    "#define SETS(NAME, ON)\\\n"
    "kernel void NAME(global const int *in, global int *o) {\\\n"
    "  size_t w = get_global_linear_id(); int x = in[w]; uint l = get_sub_group_local_id();\\\n"
    "  global int *r = o + 17 * w;\\\n"
    "  for (int i = 0; i < 17; i++) r[i] = -1;\\\n"
    "  if (ON) {\\\n"
    "    r[0] = sub_group_elect();\\\n"
    "    r[1] = sub_group_non_uniform_all(x & 1);\\\n"
    "    r[2] = sub_group_non_uniform_any(x & 2);\\\n"
    "    r[3] = sub_group_non_uniform_all_equal((x >> 3) & 1);\\\n"
    "    r[4] = (int)sub_group_ballot(x & 1).x;\\\n"
    "    r[5] = sub_group_broadcast_first(x);\\\n"
    "    r[6] = sub_group_non_uniform_broadcast(x, sub_group_ballot_find_lsb(sub_group_ballot(1)));\\\n"
    "    r[7] = sub_group_non_uniform_reduce_add(x);\\\n"
    "    r[8] = sub_group_non_uniform_reduce_max(x);\\\n"
    "    r[9] = sub_group_non_uniform_scan_inclusive_add(x);\\\n"
    "    r[10] = sub_group_non_uniform_scan_exclusive_add(x);\\\n"
    "    r[11] = sub_group_non_uniform_reduce_logical_xor(x & 1);\\\n"
    "    r[12] = sub_group_clustered_reduce_add(x, 4);\\\n"
    "    r[13] = sub_group_shuffle(x, sub_group_ballot_find_msb(sub_group_ballot(1)));\\\n"
    "    r[14] = (int)sub_group_non_uniform_scan_inclusive_add((float)x);\\\n"
    "    r[15] = as_int(sub_group_non_uniform_reduce_add((float)(x * 37 - 4000) * (x & 4 ? 1048576.0f : 1.0f)));\\\n"
    "    r[16] = as_int(sub_group_non_uniform_reduce_mul((float)(x + 256) * 0.00390625f));\\\n"
    "  }\\\n"
    "}\n"
    "SETS(odd_lanes, l & 1)\n"
    "SETS(first_half, l < 4)\n"
    "SETS(one_lane, l == 2)\n";

static const char *const active_kernels[] = {"odd_lanes", "first_half", "one_lane"};

static bool active_on(int mode, size_t l)
{
    return mode == 0 ? (l & 1) != 0 : mode == 1 ? l < 4 : l == 2;
}

/* The host's 17 results for work-item w (-1 where it is not active); the
 * float sum and product in sub-group local id order, rounded at each step
 * (their values of very different sizes, so another order rounds
 * otherwise). */
static void active_want(int mode, const wi_map *m, const cl_int *in, size_t w, cl_int *want)
{
    size_t n = sg_count(m, w), me = m->lin[w] % sg_size;
    for (int i = 0; i < ACTIVE_RESULTS; i++)
        want[i] = -1;
    if (!active_on(mode, me))
        return;
    int first = -1, last = -1, all = 1, any = 0, eq = 1, bits = 0, sum = 0, max = INT32_MIN, xr = 0;
    int incl = 0, excl = 0, cluster = 0;
    float fsum = -0.0f, fprod = 1.0f;
    for (size_t j = 0; j < n; j++) {
        if (!active_on(mode, j))
            continue;
        int y = in[sg_member(m, w, j)];
        if (first < 0)
            first = (int)j;
        last = (int)j;
        all &= (y & 1) != 0, any |= (y & 2) != 0, eq &= ((y >> 3) & 1) == ((in[sg_member(m, w, (size_t)first)] >> 3) & 1);
        bits |= (y & 1) << j, sum += y, max = y > max ? y : max, xr ^= y & 1;
        incl += j <= me ? y : 0, excl += j < me ? y : 0, cluster += j / 4 == me / 4 ? y : 0;
        fsum = fsum + (float)(y * 37 - 4000) * (y & 4 ? 1048576.0f : 1.0f);
        fprod = fprod * ((float)(y + 256) * 0.00390625f);
    }
    cl_int fsum_bits, fprod_bits;
    memcpy(&fsum_bits, &fsum, 4), memcpy(&fprod_bits, &fprod, 4);
    int xf = in[sg_member(m, w, (size_t)first)], xl = in[sg_member(m, w, (size_t)last)];
    cl_int v[ACTIVE_RESULTS] = {first == (int)me, all, any, eq, bits, xf, xf, sum, max, incl, excl, xr, cluster, xl,
                                incl, fsum_bits, fprod_bits};
    memcpy(want, v, sizeof v);
}

TEST(active_sets)
{
    /* this process's own kernels (its pid in their code): a cached build would say nothing */
    char source[4096];
    snprintf(source, sizeof source, "kernel void pid_%d(global int *o) { o[0] = %d; }\n%s", (int)getpid(),
             (int)getpid(), active_source);
    const char *debug = getenv("MOSAIC_DEBUG");
    bool debugging = debug && *debug && strcmp(debug, "0");
    static char text[65536];
    test_stderr_capture c;
    if (debugging && !test_capture_stderr(&c))
        return;
    cl_program p = build(source, "-cl-std=CL3.0");
    if (debugging) {
        test_captured_stderr(&c, text, sizeof text);
        for (int k = 0; k < 3; k++) {
            char said[96];
            snprintf(said, sizeof said, "mosaic: kernel %s: work-group function in regions between barriers",
                     active_kernels[k]);
            CHECK(strstr(text, said) != NULL, "MOSAIC_DEBUG does not say \"%s\":\n%.4000s", said, text);
        }
    }
    if (!p)
        return;
    for (int mode = 0; mode < 3; mode++)
        for (size_t ri = 0; ri < NRANGES; ri++) {
            const range *r = &ranges[ri];
            wi_map m = map_range(r);
            cl_int *in = calloc(m.n, sizeof *in), *out = calloc(ACTIVE_RESULTS * m.n, sizeof *out);
            for (size_t w = 0; w < m.n; w++)
                in[w] = (cl_int)((w * 2654435761u) >> 9 & 0xff);
            cl_mem ib = buffer(m.n * sizeof *in, in), ob = buffer(ACTIVE_RESULTS * m.n * sizeof *out, NULL);
            if (run(p, active_kernels[mode], r, ib, ob, out, ACTIVE_RESULTS * m.n * sizeof *out, 0)) {
                int bad = 0;
                for (size_t w = 0; w < m.n; w++) {
                    cl_int want[ACTIVE_RESULTS];
                    active_want(mode, &m, in, w, want);
                    const cl_int *o = out + ACTIVE_RESULTS * w;
                    for (int i = 0; i < ACTIVE_RESULTS; i++)
                        if (o[i] != want[i] && bad++ < 8)
                            TEST_FAIL("%s, range %zu, work-item %zu (sub-group local id %zu): result %d is %d, want %d",
                                      active_kernels[mode], ri, w, m.lin[w] % sg_size, i, o[i], want[i]);
                }
            }
            clReleaseMemObject(ib);
            clReleaseMemObject(ob);
            free(in), free(out);
            free_map(&m);
        }
    clReleaseProgram(p);
}

/* ---- an active set that joins others, and elect's store of a kept value --------------------
 * The odd members sum alone (a masked copy that leaves for one barrier
 * only: the mask of states after it is the one before with that barrier),
 * then every member sums x plus its first sum there, where the even ones
 * already wait (so the next call runs for all of them); then the members
 * with bit 1 of their sub-group local id sum alone and the elected one
 * stores that sum, each work-item's kept value, at the sub-group's place
 * after the work-items' results: a scatter of one address whose value was
 * loaded under the same mask (masked_ops.c), in the masked copies and, for
 * partial sub-groups, the fallback.  On every range. */
static const char *const join_source =
    "kernel void join(global const int *in, global int *o) {\n"
    "  size_t w = get_global_linear_id(); int x = in[w]; uint l = get_sub_group_local_id();\n"
    "  int s = 0;\n"
    "  if (l & 1) s = sub_group_non_uniform_reduce_add(x);\n"
    "  o[3 * w] = s;\n"
    "  o[3 * w + 1] = sub_group_non_uniform_reduce_add(x + s);\n"
    "  if (l & 2) {\n"
    "    int u = sub_group_non_uniform_reduce_add(x);\n"
    "    size_t g = get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2));\n"
    "    size_t n = get_global_size(0) * get_global_size(1) * get_global_size(2);\n"
    "    if (sub_group_elect()) o[3 * n + g * get_enqueued_num_sub_groups() + get_sub_group_id()] = u;\n"
    "  }\n"
    "}\n";

TEST(active_sets_join)
{
    cl_program p = build(join_source, "-cl-std=CL3.0");
    if (!p)
        return;
    for (size_t ri = 0; ri < NRANGES; ri++) {
        const range *r = &ranges[ri];
        wi_map m = map_range(r);
        const size_t *G = r->global, *L = r->local;
        size_t ng[3] = {(G[0] + L[0] - 1) / L[0], (G[1] + L[1] - 1) / L[1], (G[2] + L[2] - 1) / L[2]};
        size_t sgs = (m.enq_items[0] + sg_size - 1) / sg_size, len = 3 * m.n + ng[0] * ng[1] * ng[2] * sgs;
        cl_int *in = calloc(m.n, sizeof *in), *out = malloc(len * sizeof *out);
        for (size_t w = 0; w < m.n; w++)
            in[w] = (cl_int)((w * 2654435761u) >> 9 & 0xff);
        memset(out, 0xff, len * sizeof *out); /* -1: the sub-groups' places nobody stores */
        cl_mem ib = buffer(m.n * sizeof *in, in), ob = buffer(len * sizeof *out, out);
        if (run(p, "join", r, ib, ob, out, len * sizeof *out, 0)) {
            int bad = 0;
            for (size_t w = 0; w < m.n; w++) {
                size_t n = sg_count(&m, w), me = m.lin[w] % sg_size;
                size_t x = w % G[0], y = w / G[0] % G[1], z = w / (G[0] * G[1]);
                size_t g = x / L[0] + ng[0] * (y / L[1] + ng[1] * (z / L[2]));
                cl_int odd = 0, all = 0, two = 0;
                for (size_t j = 0; j < n; j++) {
                    cl_int v = in[sg_member(&m, w, j)];
                    odd += j & 1 ? v : 0;
                    two += j & 2 ? v : 0;
                }
                for (size_t j = 0; j < n; j++)
                    all += in[sg_member(&m, w, j)] + (j & 1 ? odd : 0);
                cl_int want[3] = {me & 1 ? odd : 0, all, n > 2 ? two : -1};
                cl_int got[3] = {out[3 * w], out[3 * w + 1], out[3 * m.n + g * sgs + m.lin[w] / sg_size]};
                if (memcmp(want, got, sizeof want) && bad++ < 5)
                    TEST_FAIL("range %zu work-item %zu (sub-group local id %zu): %d %d %d, want %d %d %d", ri, w, me,
                              got[0], got[1], got[2], want[0], want[1], want[2]);
            }
        }
        clReleaseMemObject(ib);
        clReleaseMemObject(ob);
        free(in), free(out);
        free_map(&m);
    }
    clReleaseProgram(p);
}

/* ---- values of every size in flight at once ----------------------------------------------
 * Each work-item's own 8 bytes of its sub-group's slots are two words, its
 * low word at its sub-group local id and its high word after the sub-group's
 * low words (builtins/subgroups.cl).  Here the work-items of one sub-group
 * split by their data: one side calls 8-byte functions (a long sum whose
 * high half differs from its low half, a double scan), the other 1- and
 * 2-byte ones, so values of both sides wait in the slots at the same time,
 * on every range (partial sub-groups, where the high words start sooner).
 * The host's answer: each side's members fold alone. */
static const char *const types_source =
    "kernel void types(global const int *in, global long *o) {\n"
    "  size_t w = get_global_linear_id(); int x = in[w];\n"
    "  global long *r = o + 4 * w;\n"
    "  r[0] = r[1] = r[2] = r[3] = -1;\n"
    "  if ((x >> 2) & 1) {\n"
    "    r[0] = sub_group_non_uniform_reduce_add(((long)x << 32) + 3 * x);\n"
    "    r[1] = (long)sub_group_non_uniform_scan_inclusive_add((double)x + 0.5);\n"
    "  } else {\n"
    "    r[2] = sub_group_non_uniform_reduce_max((char)(x - 128));\n"
    "    r[3] = sub_group_non_uniform_scan_exclusive_add((ushort)(x * 301));\n"
    "  }\n"
    "}\n";

TEST(active_sets_types)
{
    cl_program p = build(types_source, "-cl-std=CL3.0");
    if (!p)
        return;
    for (size_t ri = 0; ri < NRANGES; ri++) {
        const range *r = &ranges[ri];
        wi_map m = map_range(r);
        cl_int *in = calloc(m.n, sizeof *in);
        cl_long *out = calloc(4 * m.n, sizeof *out);
        for (size_t w = 0; w < m.n; w++)
            in[w] = (cl_int)((w * 2654435761u) >> 9 & 0xff);
        cl_mem ib = buffer(m.n * sizeof *in, in), ob = buffer(4 * m.n * sizeof *out, NULL);
        if (run(p, "types", r, ib, ob, out, 4 * m.n * sizeof *out, 0)) {
            int bad = 0;
            for (size_t w = 0; w < m.n && bad < 5; w++) {
                size_t n = sg_count(&m, w), me = m.lin[w] % sg_size;
                int side = (in[w] >> 2) & 1;
                cl_long sum = 0, max = -128;
                double incl = 0;
                unsigned excl = 0;
                for (size_t j = 0; j < n; j++) {
                    int y = in[sg_member(&m, w, j)];
                    if (((y >> 2) & 1) != side)
                        continue;
                    sum += ((cl_long)y << 32) + 3 * y;
                    incl += j <= me ? y + 0.5 : 0;
                    max = y - 128 > max ? y - 128 : max;
                    excl += j < me ? (unsigned)(y * 301) & 0xffff : 0;
                }
                cl_long want[4] = {side ? sum : -1, side ? (cl_long)incl : -1, side ? -1 : max,
                                   side ? -1 : (cl_long)(excl & 0xffff)};
                if (memcmp(want, out + 4 * w, sizeof want) && bad++ < 5) {
                    const cl_long *o = out + 4 * w;
                    TEST_FAIL("range %zu work-item %zu: %lld %lld %lld %lld, want %lld %lld %lld %lld", ri, w,
                              (long long)o[0], (long long)o[1], (long long)o[2], (long long)o[3],
                              (long long)want[0], (long long)want[1], (long long)want[2], (long long)want[3]);
                }
            }
        }
        clReleaseMemObject(ib);
        clReleaseMemObject(ob);
        free(in), free(out);
        free_map(&m);
    }
    clReleaseProgram(p);
}
