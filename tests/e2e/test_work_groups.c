/*
 * Work-groups the CPU device chooses (src/devices/cpu/cpu_launch.c,
 * docs/devices.md "Launches"): a kernel that cannot observe how its NDRange
 * is split into work-groups (mosaic_kernel_info's regroupable: it reads
 * global ids and sizes only) runs in the device's groups whatever local size
 * the launch gives; every global id stays, in 1, 2 and 3 dimensions, with
 * offsets and non-uniform groups.  MOSAIC_DEBUG=launch (set by the list)
 * says so at the launch, which is how the cases see it; with
 * MOSAIC_KEEP_GROUPS the application's groups stay.  A kernel that can see
 * the split (local and group ids and sizes, __local memory, barriers,
 * sub-group and work-group functions, a helper that reads them) keeps the
 * application's groups: its results show them.  The API checks the
 * application's local size as before, a reqd_work_group_size included (a
 * kernel that declares one and cannot see its groups runs in the device's
 * too).
 */
#include <CL/cl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_work_groups.list"
#include "test.h"
#include "cl_test.h"

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

static const char source[] =
    "kernel void ids(global uint4 *out)\n"
    "{\n"
    "    size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);\n"
    "    size_t z = get_global_id(2) - get_global_offset(2);\n"
    "    size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;\n"
    "    out[i] = (uint4)((uint)get_global_id(0), (uint)get_global_id(1), (uint)get_global_id(2),\n"
    "                     (uint)get_global_linear_id());\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(2, 1, 1))) void required(global uint *out)\n"
    "{ out[get_global_id(0)] = (uint)get_global_id(0) * 3u; }\n"
    "";

/* Each kernel writes what its group looks like, a work-item an element. */
static const char observers_source[] =
    "__attribute__((noinline)) uint lid(void) { return (uint)get_local_id(0); }\n"
    /* each kernel below writes what its group looks like, a work-item an element */
    "kernel void local_id(global uint *out) { out[get_global_id(0)] = (uint)get_local_id(0); }\n"
    "kernel void group_id(global uint *out) { out[get_global_id(0)] = (uint)get_group_id(0); }\n"
    "kernel void local_size(global uint *out) { out[get_global_id(0)] = (uint)get_local_size(0); }\n"
    "kernel void enqueued(global uint *out) { out[get_global_id(0)] = (uint)get_enqueued_local_size(0); }\n"
    "kernel void groups(global uint *out) { out[get_global_id(0)] = (uint)get_num_groups(0); }\n"
    "kernel void helper(global uint *out) { out[get_global_id(0)] = lid(); }\n"
    "kernel void sub_group(global uint *out) { out[get_global_id(0)] = get_sub_group_local_id(); }\n"
    "kernel void reduce(global uint *out) { out[get_global_id(0)] = work_group_reduce_add(1u); }\n"
    "kernel void neighbour(global uint *out)\n"
    "{\n"
    "    local uint t[64];\n"
    "    size_t l = get_local_id(0);\n"
    "    t[l] = (uint)get_global_id(0);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[(l + 1) % get_local_size(0)];\n"
    "}\n"
    "kernel void neighbour_arg(global uint *out, local uint *t)\n"
    "{\n"
    "    size_t l = get_local_id(0);\n"
    "    t[l] = (uint)get_global_id(0);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = t[(l + 1) % get_local_size(0)];\n"
    "}\n";

static bool keep_groups(void)
{
    const char *keep = getenv("MOSAIC_KEEP_GROUPS");
    return keep && *keep && strcmp(keep, "0");
}

/* Builds src (with options), what MOSAIC_DEBUG printed in text. */
static cl_program build_saying(const char *src, const char *options, char *text, size_t size)
{
    test_stderr_capture c;
    if (!test_capture_stderr(&c))
        return NULL;
    cl_program p = test_build_program(context, device, src, options);
    test_captured_stderr(&c, text, size);
    return p;
}

/* Does text say that kernel `name`'s groups of `local` ran as others? */
static bool says_regrouped(const char *text, const char *name, const size_t local[3])
{
    char line[160];
    snprintf(line, sizeof line, "mosaic: kernel %s: work-groups of %zux%zux%zu run as ", name, local[0], local[1],
             local[2]);
    return strstr(text, line) != NULL;
}

/* Launches k over dims dimensions (offset may be NULL) in groups of local,
 * its launch's MOSAIC_DEBUG lines in text; whether it ran. */
static bool launch_saying(cl_kernel k, cl_uint dims, const size_t *offset, const size_t *global, const size_t *local,
                          char *text, size_t size)
{
    test_stderr_capture c;
    if (!test_capture_stderr(&c))
        return false;
    cl_int err = clEnqueueNDRangeKernel(queue, k, dims, offset, global, local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(queue);
    test_captured_stderr(&c, text, size);
    CHECK_ERR(err, CL_SUCCESS);
    return err == CL_SUCCESS;
}

static cl_mem buffer(size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

/* The kernel of global ids, in groups of 2 (x 1 x 1): every work-item's
 * ids, and the message that its groups were the device's (said once per
 * kernel and pair of sizes: each launch's NDRange differs). */
TEST(global_ids)
{
    static char text[1 << 16];
    cl_program p = build_saying(source, "-cl-std=CL2.0", text, sizeof text); /* (non-uniform groups) */
    if (!p)
        return;
    CHECK(strstr(text, "mosaic: kernel ids: cannot observe its work-groups"), "the build says:\n%s", text);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "ids", &err);
    CHECK_ERR(err, CL_SUCCESS);
    /* odd sizes (the groups of 2 are non-uniform), offsets, 1 to 3 dimensions */
    static const struct {
        cl_uint dims;
        size_t global[3], offset[3];
        bool with_offset;
    } launches[] = {
        {1, {999, 1, 1}, {0, 0, 0}, false},
        {1, {1001, 1, 1}, {7, 0, 0}, true},
        {2, {37, 10, 1}, {3, 5, 0}, true},
        {3, {9, 5, 3}, {1, 2, 3}, true},
        {3, {64, 4, 2}, {0, 0, 0}, false},
    };
    for (size_t l = 0; k && l < sizeof launches / sizeof *launches; l++) {
        const size_t *g = launches[l].global, *o = launches[l].offset, local[3] = {2, 1, 1};
        size_t n = g[0] * g[1] * g[2];
        cl_mem m = buffer((n + 1) * 4 * sizeof(cl_uint));
        cl_uint *got = calloc((n + 1) * 4, sizeof *got);
        if (!m || !got) {
            free(got);
            break;
        }
        memset(got, 0xab, (n + 1) * 4 * sizeof *got); /* one element past the NDRange stays as it is */
        CHECK_ERR(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, (n + 1) * 4 * sizeof *got, got, 0, NULL, NULL),
                  CL_SUCCESS);
        CHECK_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
        if (launch_saying(k, launches[l].dims, launches[l].with_offset ? o : NULL, g, local, text, sizeof text)) {
            CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, (n + 1) * 4 * sizeof *got, got, 0, NULL, NULL),
                      CL_SUCCESS);
            size_t wrong = 0, first = n;
            for (size_t i = 0; i < n; i++) {
                size_t x = i % g[0], y = i / g[0] % g[1], z = i / (g[0] * g[1]);
                const cl_uint want[4] = {(cl_uint)(x + o[0]), (cl_uint)(y + o[1]), (cl_uint)(z + o[2]), (cl_uint)i};
                if (memcmp(&got[4 * i], want, sizeof want) && wrong++ == 0)
                    first = i;
            }
            CHECK(wrong == 0, "launch %zu: %zu work-items wrong, the first %zu: %u,%u,%u,%u", l, wrong, first,
                  got[4 * (first % n)], got[4 * (first % n) + 1], got[4 * (first % n) + 2],
                  got[4 * (first % n) + 3]);
            CHECK(got[4 * n] == 0xabababab, "launch %zu wrote past its NDRange", l);
            bool regrouped = says_regrouped(text, "ids", local);
            CHECK(regrouped == !keep_groups(), "launch %zu: %s in the device's groups; it says:\n%s", l,
                  regrouped ? "ran" : "did not run", text);
        }
        free(got);
        clReleaseMemObject(m);
    }
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(p);
}

/* A small launch in the device's groups still keeps every compute unit busy
 * (the list runs it with MOSAIC_NUM_THREADS=4): 64 work-items in groups of
 * 2 would be one group of 64, which is split until there are 4 (rows of 16
 * at least: no machine runs more of this kernel at once). */
TEST(small_launch_spread)
{
    static char text[1 << 16];
    cl_program p = build_saying(source, "-cl-std=CL2.0", text, sizeof text);
    CHECK(p, "it built; it says:\n%s", text);
    if (!p)
        return;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "required", &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_mem m = buffer(64 * sizeof(cl_uint));
    size_t global = 64, local[3] = {2, 1, 1};
    cl_uint units = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL), CL_SUCCESS);
    CHECK(units == 4, "%u compute units (MOSAIC_NUM_THREADS=4 expected)", units);
    if (k && m) {
        CHECK_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
        if (launch_saying(k, 1, NULL, &global, local, text, sizeof text)) {
            cl_uint got[64];
            CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
            int wrong = 0;
            for (cl_uint i = 0; i < 64; i++)
                wrong += got[i] != i * 3u;
            CHECK(wrong == 0, "%d wrong", wrong);
            size_t x = 0, y = 0, z = 0;
            const char *as = strstr(text, "run as ");
            CHECK(as && sscanf(as, "run as %zux%zux%zu", &x, &y, &z) == 3 && x >= 16 && 64 / x >= 4,
                  "it says:\n%s", text);
        }
    }
    if (m)
        clReleaseMemObject(m);
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(p);
}

/* What work-item g of n writes in kernel `name` of observers_source, in
 * groups of l. */
static cl_uint seen_in_group(const char *name, cl_uint g, cl_uint l, cl_uint n)
{
    cl_uint lid = g % l;
    if (!strcmp(name, "group_id"))
        return g / l;
    if (!strcmp(name, "groups"))
        return n / l;
    if (!strcmp(name, "local_size") || !strcmp(name, "enqueued") || !strcmp(name, "reduce"))
        return l;
    if (!strncmp(name, "neighbour", 9))
        return g - lid + (lid + 1) % l; /* the next work-item of its group */
    return lid; /* local_id, helper, sub_group (one sub-group a group) */
}

/* Each kernel that can see its group, launched over 16 work-items in groups
 * of 2 (4 for the sub-group one, which needs whole sub-groups to tell), writes
 * what the application's groups give, and no launch says it ran in others. */
TEST(observers_keep_groups)
{
    enum { N = 16 };
    static char text[1 << 16];
    cl_program p = build_saying(observers_source, "-cl-std=CL2.0", text, sizeof text);
    if (!p)
        return;
    static const struct {
        const char *name;
        size_t group;
    } kernels[] = {{"local_id", 2}, {"group_id", 2}, {"local_size", 2}, {"enqueued", 2}, {"groups", 2},
                   {"helper", 2},   {"sub_group", 4}, {"reduce", 2},    {"neighbour", 2}, {"neighbour_arg", 2}};
    cl_mem m = buffer(N * sizeof(cl_uint));
    for (size_t i = 0; m && i < sizeof kernels / sizeof *kernels; i++) {
        const char *name = kernels[i].name;
        char line[128];
        snprintf(line, sizeof line, "mosaic: kernel %s: keeps the application's work-groups", name);
        CHECK(strstr(text, line), "the build of %s says:\n%s", name, text);
        cl_int err;
        cl_kernel k = clCreateKernel(p, name, &err);
        CHECK_ERR(err, CL_SUCCESS);
        if (!k)
            continue;
        CHECK_ERR(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
        if (!strcmp(name, "neighbour_arg"))
            CHECK_ERR(clSetKernelArg(k, 1, 64 * sizeof(cl_uint), NULL), CL_SUCCESS);
        size_t global[3] = {N, 1, 1}, local[3] = {kernels[i].group, 1, 1}, L = kernels[i].group;
        static char said[1 << 12];
        cl_uint got[N];
        if (launch_saying(k, 1, NULL, global, local, said, sizeof said)) {
            CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
            int wrong = 0;
            for (cl_uint g = 0; g < N; g++)
                wrong += got[g] != seen_in_group(name, g, (cl_uint)L, N);
            CHECK(wrong == 0, "%s: %d work-items saw other groups (got[1] = %u)", name, wrong, got[1]);
            CHECK(!says_regrouped(said, name, local), "%s ran in the device's groups:\n%s", name, said);
        }
        clReleaseKernel(k);
    }
    if (m)
        clReleaseMemObject(m);
    clReleaseProgram(p);
}

/* The application's local size is checked as before: a size that does not
 * divide the NDRange (-cl-uniform-work-group-size), a size of 0 and a
 * required size not met fail with the specification's codes, and
 * CL_KERNEL_WORK_GROUP_SIZE is the required size.  A kernel with
 * reqd_work_group_size that cannot see its groups runs in the device's once
 * the launch meets the attribute. */
TEST(local_size_checked)
{
    static char text[1 << 14];
    cl_program p = build_saying(source, "-cl-std=CL2.0 -cl-uniform-work-group-size", text, sizeof text);
    CHECK(p, "it built; it says:\n%s", text);
    if (!p)
        return;
    cl_int err;
    cl_kernel ids = clCreateKernel(p, "ids", &err), required = clCreateKernel(p, "required", &err);
    CHECK(ids && required, "the kernels");
    cl_mem m = buffer(64 * 4 * sizeof(cl_uint));
    if (!ids || !required || !m)
        goto done;
    CHECK_ERR(clSetKernelArg(ids, 0, sizeof m, &m), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(required, 0, sizeof m, &m), CL_SUCCESS);
    size_t global = 64, three = 3, four = 4, two = 2, zero = 0, wg = 0, compiled[3] = {0};
    CHECK_ERR(clEnqueueNDRangeKernel(queue, ids, 1, NULL, &global, &three, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, ids, 1, NULL, &global, &zero, 0, NULL, NULL), CL_INVALID_WORK_ITEM_SIZE);
    CHECK_ERR(clEnqueueNDRangeKernel(queue, required, 1, NULL, &global, &four, 0, NULL, NULL),
              CL_INVALID_WORK_GROUP_SIZE);
    CHECK_ERR(clGetKernelWorkGroupInfo(required, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL), CL_SUCCESS);
    CHECK_ERR(clGetKernelWorkGroupInfo(required, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled, compiled,
                                       NULL),
              CL_SUCCESS);
    CHECK(wg == 2 && compiled[0] == 2 && compiled[1] == 1 && compiled[2] == 1,
          "work-group size %zu, compiled %zu,%zu,%zu", wg, compiled[0], compiled[1], compiled[2]);
    const size_t local[3] = {2, 1, 1};
    if (launch_saying(required, 1, NULL, &global, &two, text, sizeof text)) {
        cl_uint got[64];
        CHECK_ERR(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
        int wrong = 0;
        for (cl_uint i = 0; i < 64; i++)
            wrong += got[i] != i * 3u;
        CHECK(wrong == 0, "%d wrong", wrong);
        CHECK(says_regrouped(text, "required", local) == !keep_groups(), "it says:\n%s", text);
    }
done:
    if (m)
        clReleaseMemObject(m);
    if (ids)
        clReleaseKernel(ids);
    if (required)
        clReleaseKernel(required);
    clReleaseProgram(p);
}

int main(int argc, char **argv) { return test_main_on_cpu_queue(argc, argv, &device, &context, &queue); }
