/*
 * Sub-devices (clCreateSubDevices) through the ICD loader: every partition
 * type and its errors, the partition queries of root and sub-devices,
 * sub-devices of sub-devices, reference counts, a kernel split over two
 * sub-devices of one context (an event of one queue in the other's wait
 * list), programs built for the parent run on sub-devices and the other way
 * round, a check that a sub-device's workers run only on its CPUs, and a
 * forked child using a sub-device.
 *
 * A device of one compute unit cannot be partitioned: every case but
 * one_unit then skips (exit 77), and one_unit (run with
 * MOSAIC_NUM_THREADS=1) checks what such a device reports.
 *
 *   usage: test_subdevices [case|--list]   (the cases: test_subdevices.list; none: all)
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dirent.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_LIST "test_subdevices.list"
#include "test.h"
#include "cl_test.h"

static cl_platform_id platform;
static cl_device_id root;
static cl_context root_context;
static cl_uint root_units;
static cpu_set_t process_cpus; /* the CPUs this process may use */

typedef cl_device_partition_property prop;

/* The first line of every case but one_unit. */
#define SKIP_UNLESS_PARTITIONABLE()                                                                   \
    do {                                                                                              \
        if (root_units < 2)                                                                           \
            TEST_SKIP("the device has %u compute unit and cannot be partitioned", root_units);       \
    } while (0)

static cl_uint dev_uint(cl_device_id d, cl_device_info param)
{
    cl_uint v = 0xdeadbeef;
    CHECK_ERR(clGetDeviceInfo(d, param, sizeof v, &v, NULL), CL_SUCCESS);
    return v;
}

static cl_device_affinity_domain dev_domains(cl_device_id d)
{
    cl_device_affinity_domain v = 0xdeadbeef;
    CHECK_ERR(clGetDeviceInfo(d, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof v, &v, NULL), CL_SUCCESS);
    return v;
}

static cl_device_id dev_parent(cl_device_id d)
{
    cl_device_id v = (cl_device_id)1;
    CHECK_ERR(clGetDeviceInfo(d, CL_DEVICE_PARENT_DEVICE, sizeof v, &v, NULL), CL_SUCCESS);
    return v;
}

/* A list-valued partition query: its entries (at most max). */
static size_t dev_props(cl_device_id d, cl_device_info param, prop *out, size_t max)
{
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(d, param, 0, NULL, &size), CL_SUCCESS);
    CHECK(size % sizeof(prop) == 0 && size / sizeof(prop) <= max);
    if (size / sizeof(prop) > max)
        return 0;
    CHECK_ERR(clGetDeviceInfo(d, param, size, out, NULL), CL_SUCCESS);
    return size / sizeof(prop);
}

static bool lists_type(cl_device_id d, prop type)
{
    prop types[8];
    size_t n = dev_props(d, CL_DEVICE_PARTITION_PROPERTIES, types, 8);
    for (size_t i = 0; i < n; i++)
        if (types[i] == type)
            return true;
    return false;
}

/* clCreateSubDevices: the count first, then the devices; `expected` for both. */
static cl_uint create(cl_device_id d, const prop *props, cl_device_id *out, cl_uint max, cl_int expected)
{
    cl_uint count = 12345;
    cl_int err = clCreateSubDevices(d, props, 0, NULL, &count);
    CHECK_ERR(err, expected);
    if (err != CL_SUCCESS) {
        CHECK(count == 12345); /* untouched on failure */
        return 0;
    }
    CHECK(count >= 1 && count <= max);
    if (count > max)
        return 0;
    cl_uint again = 0;
    CHECK_ERR(clCreateSubDevices(d, props, count, out, &again), CL_SUCCESS);
    CHECK(again == count);
    return count;
}

static void release_all(cl_device_id *devices, cl_uint n)
{
    for (cl_uint i = 0; i < n; i++)
        CHECK_ERR(clReleaseDevice(devices[i]), CL_SUCCESS);
}

/* A sub-device reports its parent, its units and the properties it was made with. */
static void check_sub_device(cl_device_id sub, cl_device_id parent, const prop *props, size_t props_len)
{
    CHECK(dev_parent(sub) == parent);
    CHECK(dev_uint(sub, CL_DEVICE_REFERENCE_COUNT) == 1);
    cl_device_type type = 0;
    CHECK_ERR(clGetDeviceInfo(sub, CL_DEVICE_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    CHECK(type == CL_DEVICE_TYPE_CPU);
    cl_platform_id p = NULL;
    CHECK_ERR(clGetDeviceInfo(sub, CL_DEVICE_PLATFORM, sizeof p, &p, NULL), CL_SUCCESS);
    CHECK(p == platform);
    prop got[80];
    size_t n = dev_props(sub, CL_DEVICE_PARTITION_TYPE, got, 80);
    CHECK(n == props_len);
    if (n == props_len) {
        bool same = true;
        for (size_t i = 0; i < n; i++)
            same &= got[i] == props[i];
        CHECK(same);
    }
    cl_uint units = dev_uint(sub, CL_DEVICE_MAX_COMPUTE_UNITS);
    CHECK(units >= 1 && units < dev_uint(parent, CL_DEVICE_MAX_COMPUTE_UNITS));
    CHECK(dev_uint(sub, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == (units >= 2 ? units : 0));
    if (units < 2) { /* one unit: cannot be partitioned */
        n = dev_props(sub, CL_DEVICE_PARTITION_PROPERTIES, got, 80);
        CHECK(n == 1 && got[0] == 0);
        CHECK(dev_domains(sub) == 0);
    }
}

/* ---- queries and one-unit devices ------------------------------------------------ */

TEST(queries)
{
    SKIP_UNLESS_PARTITIONABLE();
    /* the root device */
    CHECK(dev_parent(root) == NULL);
    CHECK(dev_uint(root, CL_DEVICE_REFERENCE_COUNT) == 1);
    CHECK(dev_uint(root, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == root_units);
    prop types[8];
    size_t n = dev_props(root, CL_DEVICE_PARTITION_PROPERTIES, types, 8);
    CHECK(n >= 2 && types[0] == CL_DEVICE_PARTITION_EQUALLY && types[1] == CL_DEVICE_PARTITION_BY_COUNTS);
    cl_device_affinity_domain domains = dev_domains(root);
    CHECK(lists_type(root, CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN) == (domains != 0));
    CHECK(domains == 0 || (domains & CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE));
    CHECK((domains & ~(cl_device_affinity_domain)0x3f) == 0);
    n = dev_props(root, CL_DEVICE_PARTITION_TYPE, types, 8);
    CHECK(n == 0 || (n == 1 && types[0] == 0));
    printf("root: %u compute units, affinity domains 0x%llx\n", root_units, (unsigned long long)domains);

    /* a sub-device: its own answers; the rest is its parent's */
    prop counts[] = { CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    cl_device_id sub;
    if (create(root, counts, &sub, 1, CL_SUCCESS) != 1)
        return;
    check_sub_device(sub, root, counts, 4);
    CHECK(dev_uint(sub, CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
    char a[256], b[256];
    CHECK_ERR(clGetDeviceInfo(root, CL_DEVICE_NAME, sizeof a, a, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(sub, CL_DEVICE_NAME, sizeof b, b, NULL), CL_SUCCESS);
    CHECK(strcmp(a, b) == 0);
    cl_ulong ra = 0, rb = 1;
    CHECK_ERR(clGetDeviceInfo(root, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof ra, &ra, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(sub, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof rb, &rb, NULL), CL_SUCCESS);
    CHECK(ra == rb);
    /* a one-unit sub-device cannot be partitioned */
    prop equally[] = { CL_DEVICE_PARTITION_EQUALLY, 1, 0 };
    cl_device_id none;
    CHECK_ERR(clCreateSubDevices(sub, equally, 1, &none, NULL), CL_DEVICE_PARTITION_FAILED);
    CHECK_ERR(clCreateSubDevices(sub, counts, 1, &none, NULL), CL_DEVICE_PARTITION_FAILED);
    CHECK_ERR(clReleaseDevice(sub), CL_SUCCESS);
}

/* Run with MOSAIC_NUM_THREADS=1: a root device of one compute unit. */
TEST(one_unit)
{
    if (root_units != 1)
        TEST_SKIP("needs a device of one compute unit (MOSAIC_NUM_THREADS=1)");
    CHECK(dev_uint(root, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == 0);
    prop types[8];
    size_t n = dev_props(root, CL_DEVICE_PARTITION_PROPERTIES, types, 8);
    CHECK(n == 1 && types[0] == 0);
    CHECK(dev_domains(root) == 0);
    prop equally[] = { CL_DEVICE_PARTITION_EQUALLY, 1, 0 };
    prop counts[] = { CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    prop affinity[] = { CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0 };
    cl_device_id out[4];
    cl_uint count = 77;
    CHECK_ERR(clCreateSubDevices(root, equally, 4, out, &count), CL_DEVICE_PARTITION_FAILED);
    CHECK_ERR(clCreateSubDevices(root, counts, 4, out, &count), CL_DEVICE_PARTITION_FAILED);
    CHECK_ERR(clCreateSubDevices(root, affinity, 4, out, &count), CL_DEVICE_PARTITION_FAILED);
    CHECK(count == 77);
    prop bogus[] = { 0x7777, 1, 0 };
    CHECK_ERR(clCreateSubDevices(root, bogus, 4, out, &count), CL_INVALID_VALUE);
}

/* ---- the partition types ------------------------------------------------------------ */

TEST(errors)
{
    SKIP_UNLESS_PARTITIONABLE();
    prop equally[] = { CL_DEVICE_PARTITION_EQUALLY, 1, 0 };
    cl_device_id out[2];
    cl_uint count = 77;
    /* (invalid devices: test_platform, without the loader, which would dereference them) */
    CHECK_ERR(clCreateSubDevices(root, NULL, 2, out, &count), CL_INVALID_VALUE);
    prop unknown[] = { -1, 1, 0 };
    CHECK_ERR(clCreateSubDevices(root, unknown, 2, out, &count), CL_INVALID_VALUE);
    prop empty[] = { 0 };
    CHECK_ERR(clCreateSubDevices(root, empty, 2, out, &count), CL_INVALID_VALUE);
    /* out_devices too small for the partition */
    CHECK_ERR(clCreateSubDevices(root, equally, 0, out, &count), CL_INVALID_VALUE);
    CHECK_ERR(clCreateSubDevices(root, equally, root_units - 1, out, &count), CL_INVALID_VALUE);
    CHECK(count == 77);
    /* two schemes in one list */
    prop two[] = { CL_DEVICE_PARTITION_EQUALLY, 1, CL_DEVICE_PARTITION_BY_COUNTS, 1,
                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    CHECK_ERR(clCreateSubDevices(root, two, 2, out, &count), CL_INVALID_VALUE);
    /* neither out_devices nor num_devices_ret: nothing to do */
    CHECK_ERR(clCreateSubDevices(root, equally, 0, NULL, NULL), CL_SUCCESS);
    /* retain and release of a root device do nothing */
    CHECK_ERR(clRetainDevice(root), CL_SUCCESS);
    CHECK_ERR(clReleaseDevice(root), CL_SUCCESS);
    CHECK_ERR(clReleaseDevice(root), CL_SUCCESS);
    CHECK(dev_uint(root, CL_DEVICE_REFERENCE_COUNT) == 1);
}

TEST(equally)
{
    SKIP_UNLESS_PARTITIONABLE();
    /* one unit each: as many sub-devices as units */
    prop ones[] = { CL_DEVICE_PARTITION_EQUALLY, 1, 0 };
    cl_device_id *subs = calloc(root_units, sizeof *subs);
    cl_uint n = create(root, ones, subs, root_units, CL_SUCCESS);
    CHECK(n == root_units);
    for (cl_uint i = 0; i < n; i++) {
        check_sub_device(subs[i], root, ones, 3);
        CHECK(dev_uint(subs[i], CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
        for (cl_uint j = 0; j < i; j++)
            CHECK(subs[i] != subs[j]);
    }
    release_all(subs, n);
    free(subs);

    /* units that do not divide evenly are left out */
    if (root_units >= 3) {
        prop two[] = { CL_DEVICE_PARTITION_EQUALLY, 2, 0 };
        cl_device_id halves[64];
        n = create(root, two, halves, 64, CL_SUCCESS);
        CHECK(n == root_units / 2);
        for (cl_uint i = 0; i < n; i++)
            CHECK(dev_uint(halves[i], CL_DEVICE_MAX_COMPUTE_UNITS) == 2);
        release_all(halves, n);
    }
    /* more than half: one smaller device */
    if (root_units >= 3) {
        prop most[] = { CL_DEVICE_PARTITION_EQUALLY, root_units - 1, 0 };
        cl_device_id one;
        CHECK(create(root, most, &one, 1, CL_SUCCESS) == 1);
        CHECK(dev_uint(one, CL_DEVICE_MAX_COMPUTE_UNITS) == root_units - 1);
        CHECK_ERR(clReleaseDevice(one), CL_SUCCESS);
    }

    cl_device_id out[4];
    prop zero[] = { CL_DEVICE_PARTITION_EQUALLY, 0, 0 };
    create(root, zero, out, 4, CL_INVALID_VALUE);
    prop whole[] = { CL_DEVICE_PARTITION_EQUALLY, root_units, 0 };
    create(root, whole, out, 4, CL_DEVICE_PARTITION_FAILED);
    prop too_many[] = { CL_DEVICE_PARTITION_EQUALLY, root_units + 1, 0 };
    create(root, too_many, out, 4, CL_INVALID_DEVICE_PARTITION_COUNT);
    prop negative[] = { CL_DEVICE_PARTITION_EQUALLY, -1, 0 };
    create(root, negative, out, 4, CL_INVALID_DEVICE_PARTITION_COUNT);
}

TEST(by_counts)
{
    SKIP_UNLESS_PARTITIONABLE();
    prop split[] = { CL_DEVICE_PARTITION_BY_COUNTS, 1, root_units - 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    cl_device_id subs[2];
    CHECK(create(root, split, subs, 2, CL_SUCCESS) == 2);
    check_sub_device(subs[0], root, split, 5);
    check_sub_device(subs[1], root, split, 5);
    CHECK(dev_uint(subs[0], CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
    CHECK(dev_uint(subs[1], CL_DEVICE_MAX_COMPUTE_UNITS) == root_units - 1);
    release_all(subs, 2);

    /* fewer units than the device has */
    prop one[] = { CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    CHECK(create(root, one, subs, 1, CL_SUCCESS) == 1);
    release_all(subs, 1);

    cl_device_id out[4];
    prop none[] = { CL_DEVICE_PARTITION_BY_COUNTS, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    create(root, none, out, 4, CL_INVALID_DEVICE_PARTITION_COUNT);
    prop negative[] = { CL_DEVICE_PARTITION_BY_COUNTS, -1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    create(root, negative, out, 4, CL_INVALID_DEVICE_PARTITION_COUNT);
    prop too_big[] = { CL_DEVICE_PARTITION_BY_COUNTS, root_units + 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    create(root, too_big, out, 4, CL_INVALID_DEVICE_PARTITION_COUNT);
    prop sum_too_big[] = { CL_DEVICE_PARTITION_BY_COUNTS, 1, root_units, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    create(root, sum_too_big, out, 4, CL_INVALID_DEVICE_PARTITION_COUNT);
    /* more sub-devices than CL_DEVICE_PARTITION_MAX_SUB_DEVICES */
    prop *many = calloc(root_units + 4, sizeof *many);
    many[0] = CL_DEVICE_PARTITION_BY_COUNTS;
    for (cl_uint i = 1; i <= root_units + 1; i++)
        many[i] = 1;
    create(root, many, out, 4, CL_INVALID_DEVICE_PARTITION_COUNT);
    free(many);
    prop whole[] = { CL_DEVICE_PARTITION_BY_COUNTS, root_units, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    create(root, whole, out, 4, CL_DEVICE_PARTITION_FAILED);
    prop unterminated[] = { CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
                            CL_DEVICE_PARTITION_EQUALLY, 1, 0 };
    create(root, unterminated, out, 4, CL_INVALID_VALUE);
}

TEST(by_affinity_domain)
{
    SKIP_UNLESS_PARTITIONABLE();
    static const cl_device_affinity_domain order[] = {
        CL_DEVICE_AFFINITY_DOMAIN_NUMA,     CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE,
    };
    cl_device_affinity_domain domains = dev_domains(root);
    bool listed = lists_type(root, CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
    cl_device_id *subs = calloc(root_units, sizeof *subs);
    cl_device_affinity_domain first = 0;
    for (size_t i = 0; i < 5; i++) {
        prop props[] = { CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, order[i], 0 };
        if (!(domains & order[i])) { /* does not split it, or sysfs does not say */
            create(root, props, subs, root_units, listed ? CL_DEVICE_PARTITION_FAILED : CL_INVALID_VALUE);
            continue;
        }
        if (!first)
            first = order[i];
        cl_uint n = create(root, props, subs, root_units, CL_SUCCESS);
        CHECK(n >= 2);
        cl_uint total = 0;
        for (cl_uint k = 0; k < n; k++) {
            check_sub_device(subs[k], root, props, 3);
            total += dev_uint(subs[k], CL_DEVICE_MAX_COMPUTE_UNITS);
        }
        CHECK(total == root_units);
        printf("affinity domain 0x%llx: %u sub-devices\n", (unsigned long long)order[i], n);
        release_all(subs, n);
    }
    prop next[] = { CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0 };
    if (listed) {
        cl_uint n = create(root, next, subs, root_units, CL_SUCCESS);
        CHECK(n >= 2);
        /* the sub-devices report the domain used: the first that splits */
        prop used[] = { CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, first, 0 };
        for (cl_uint k = 0; k < n; k++)
            check_sub_device(subs[k], root, used, 3);
        release_all(subs, n);
    } else {
        printf("no affinity domain splits this device (as sysfs reports them)\n");
        CHECK(domains == 0);
        create(root, next, subs, root_units, CL_INVALID_VALUE);
    }
    /* not an affinity domain */
    prop bad[][3] = {
        { CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 0, 0 },
        { CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE | CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, 0 },
        { CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 1 << 10, 0 },
    };
    for (size_t i = 0; i < 3; i++)
        create(root, bad[i], subs, root_units, CL_INVALID_VALUE);
    free(subs);
}

/* Sub-devices of sub-devices, down to single units: how many. */
static cl_uint partition_down(cl_device_id d)
{
    cl_uint units = dev_uint(d, CL_DEVICE_MAX_COMPUTE_UNITS);
    if (units < 2)
        return 1;
    prop halves[] = { CL_DEVICE_PARTITION_BY_COUNTS, units / 2, units - units / 2,
                      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    cl_device_id subs[2];
    if (create(d, halves, subs, 2, CL_SUCCESS) != 2)
        return 0;
    cl_uint leaves = 0;
    for (int k = 0; k < 2; k++) {
        check_sub_device(subs[k], d, halves, 5);
        leaves += partition_down(subs[k]);
    }
    release_all(subs, 2);
    return leaves;
}

TEST(nested)
{
    SKIP_UNLESS_PARTITIONABLE();
    CHECK(partition_down(root) == root_units);
    /* a sub-device's sub-device in one context with both ancestors */
    prop halves[] = { CL_DEVICE_PARTITION_EQUALLY, root_units / 2, 0 };
    cl_device_id mid[64];
    cl_uint n = create(root, halves, mid, 64, CL_SUCCESS);
    CHECK(n == 2 || (root_units >= 3 && n >= 1));
    cl_device_id leaf = NULL;
    prop one[] = { CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    if (dev_uint(mid[0], CL_DEVICE_MAX_COMPUTE_UNITS) >= 2) {
        CHECK(create(mid[0], one, &leaf, 1, CL_SUCCESS) == 1);
        CHECK(dev_parent(leaf) == mid[0]);
        CHECK(dev_parent(dev_parent(leaf)) == root);
    }
    cl_device_id all[3] = { root, mid[0], leaf };
    cl_int err;
    cl_context ctx = clCreateContext(NULL, leaf ? 3 : 2, all, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    /* the context holds them: released by the user (parents first), they go
     * on working; released once more, they are not the user's any more */
    release_all(mid, n);
    if (leaf) {
        CHECK(dev_parent(leaf) == mid[0]);
        CHECK_ERR(clReleaseDevice(leaf), CL_SUCCESS);
        CHECK_ERR(clReleaseDevice(leaf), CL_INVALID_DEVICE);
    }
    CHECK_ERR(clReleaseDevice(mid[0]), CL_INVALID_DEVICE);
    static const char *source = "kernel void inc(global int *x) { x[get_global_id(0)] += 1; }\n";
    cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    CHECK_ERR(clBuildProgram(program, 0, NULL, "", NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(program, "inc", &err);
    CHECK_ERR(err, CL_SUCCESS);
    int data[64] = { 0 };
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
    for (int i = 0; i < (leaf ? 3 : 2); i++) {
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, all[i], NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
        size_t global = 64;
        CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clFinish(q), CL_SUCCESS);
        clReleaseCommandQueue(q);
    }
    cl_command_queue rq = clCreateCommandQueueWithProperties(ctx, root, NULL, &err);
    CHECK_ERR(clEnqueueReadBuffer(rq, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL), CL_SUCCESS);
    clReleaseCommandQueue(rq);
    CHECK(data[0] == (leaf ? 3 : 2) && data[63] == (leaf ? 3 : 2));
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(program);
    clReleaseContext(ctx);
}

/* ---- reference counts and the workers' lifetime ----------------------------------------- */

static int count_threads(void)
{
    DIR *dir = opendir("/proc/self/task");
    int n = 0;
    struct dirent *e;
    while (dir && (e = readdir(dir)))
        n += e->d_name[0] != '.';
    if (dir)
        closedir(dir);
    return n;
}

/* Waits up to 5 s for the thread count to come down to `want`. */
static bool threads_back_to(int want)
{
    for (int i = 0; i < 500 && count_threads() > want; i++)
        usleep(10000);
    return count_threads() == want;
}

static atomic_int native_done;

static void CL_CALLBACK slow_native(void *args)
{
    (void)args;
    usleep(50000);
    atomic_fetch_add(&native_done, 1);
}

TEST(refcounts)
{
    SKIP_UNLESS_PARTITIONABLE();
    /* the root's workers and the callback thread, started before counting */
    cl_int err;
    cl_command_queue rq = clCreateCommandQueueWithProperties(root_context, root, NULL, &err);
    cl_event e;
    CHECK_ERR(clEnqueueNativeKernel(rq, slow_native, NULL, 0, 0, NULL, NULL, 0, NULL, &e), CL_SUCCESS);
    CHECK_ERR(clWaitForEvents(1, &e), CL_SUCCESS);
    clReleaseEvent(e);
    clReleaseCommandQueue(rq);
    int baseline = count_threads();

    prop split[] = { CL_DEVICE_PARTITION_BY_COUNTS, 1, root_units - 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    cl_device_id subs[2];
    if (create(root, split, subs, 2, CL_SUCCESS) != 2)
        return;
    CHECK_ERR(clRetainDevice(subs[0]), CL_SUCCESS);
    CHECK(dev_uint(subs[0], CL_DEVICE_REFERENCE_COUNT) == 2);
    CHECK_ERR(clReleaseDevice(subs[0]), CL_SUCCESS);
    CHECK(dev_uint(subs[0], CL_DEVICE_REFERENCE_COUNT) == 1);
    /* a sub-device without commands has no workers */
    CHECK(count_threads() == baseline);

    /* released while its command runs: the command completes, then the
     * worker that completed it is the last to hold the device, and exits */
    cl_context ctx = clCreateContext(NULL, 2, subs, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, subs[0], NULL, &err);
    atomic_store(&native_done, 0);
    CHECK_ERR(clEnqueueNativeKernel(q, slow_native, NULL, 0, 0, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK(count_threads() == baseline + 1); /* one unit: one worker */
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    release_all(subs, 2);
    CHECK(threads_back_to(baseline));
    CHECK(atomic_load(&native_done) == 1);
}

/* ---- kernels over sub-devices ----------------------------------------------------------- */

/* The second half of the range reads what the first half wrote. */
static const char *split_source =
    "kernel void split(global int *a, int n) {\n"
    "    int i = (int)get_global_id(0);\n"
    "    if (i < n / 2) a[i] = 3 * i + 1;\n"
    "    else a[i] = a[i - n / 2] * 2 + (int)get_global_offset(0);\n"
    "}\n";

TEST(split_kernel)
{
    SKIP_UNLESS_PARTITIONABLE();
    prop halves[] = { CL_DEVICE_PARTITION_BY_COUNTS, root_units / 2, root_units - root_units / 2,
                      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    cl_device_id subs[2];
    if (create(root, halves, subs, 2, CL_SUCCESS) != 2)
        return;
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 2, subs, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    cl_program program = clCreateProgramWithSource(ctx, 1, &split_source, NULL, &err);
    CHECK_ERR(clBuildProgram(program, 0, NULL, "", NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(program, "split", &err);
    CHECK_ERR(err, CL_SUCCESS);
    enum { N = 4096 };
    int n = N;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    int zero = 0;
    cl_command_queue q[2];
    for (int i = 0; i < 2; i++) {
        q[i] = clCreateCommandQueueWithProperties(ctx, subs[i], NULL, &err);
        CHECK_ERR(err, CL_SUCCESS);
    }
    CHECK_ERR(clEnqueueFillBuffer(q[0], buf, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clFinish(q[0]), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof n, &n), CL_SUCCESS);
    /* the first half waits for a user event, so that without the edge from
     * it the second half would run first and read zeros */
    cl_event gate = clCreateUserEvent(ctx, &err), first, second;
    size_t offset[2] = { 0, N / 2 }, global = N / 2, local = 64;
    CHECK_ERR(clEnqueueNDRangeKernel(q[0], k, 1, &offset[0], &global, &local, 1, &gate, &first), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(q[1], k, 1, &offset[1], &global, &local, 1, &first, &second), CL_SUCCESS);
    usleep(20000);
    cl_int status = 0;
    CHECK_ERR(clGetEventInfo(second, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    CHECK(status == CL_QUEUED);
    CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    int *out = malloc(N * sizeof(int));
    CHECK_ERR(clEnqueueReadBuffer(q[0], buf, CL_TRUE, 0, N * sizeof(int), out, 1, &second, NULL), CL_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int want = i < N / 2 ? 3 * i + 1 : (3 * (i - N / 2) + 1) * 2 + N / 2;
        bad += out[i] != want;
    }
    CHECK(bad == 0);
    free(out);
    clReleaseEvent(gate);
    clReleaseEvent(first);
    clReleaseEvent(second);
    for (int i = 0; i < 2; i++)
        clReleaseCommandQueue(q[i]);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(program);
    clReleaseContext(ctx);
    release_all(subs, 2);
}

/* Runs kernel `split` over the whole range on `q`, then checks. */
static void run_half(cl_context ctx, cl_program program, cl_command_queue q)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, "split", &err);
    CHECK_ERR(err, CL_SUCCESS);
    enum { N = 256 };
    int n = N, out[N];
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    CHECK_ERR(clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(k, 1, sizeof n, &n), CL_SUCCESS);
    size_t offset = 0, global = N / 2, offset2 = N / 2;
    CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, &offset, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, &offset2, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    CHECK(out[0] == 1 && out[N / 2 - 1] == 3 * (N / 2 - 1) + 1 && out[N - 1] == (3 * (N / 2 - 1) + 1) * 2 + N / 2);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
}

static cl_build_status build_status(cl_program program, cl_device_id d)
{
    cl_build_status status = 12345;
    CHECK_ERR(clGetProgramBuildInfo(program, d, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    return status;
}

/* Programs built for a parent run on its sub-devices and the other way round;
 * a binary of one device loads on the other. */
TEST(programs)
{
    SKIP_UNLESS_PARTITIONABLE();
    prop ones[] = { CL_DEVICE_PARTITION_EQUALLY, 1, 0 };
    cl_uint n = root_units;
    cl_device_id *all = calloc(n + 1, sizeof *all); /* the sub-devices, then the root */
    if (create(root, ones, all, n, CL_SUCCESS) != n)
        return;
    all[n] = root;
    cl_int err;
    cl_context ctx = clCreateContext(NULL, n + 1, all, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);

    /* built for the parent alone: every sub-device of the context runs it */
    cl_program program = clCreateProgramWithSource(ctx, 1, &split_source, NULL, &err);
    CHECK_ERR(clBuildProgram(program, 1, &root, "", NULL, NULL), CL_SUCCESS);
    for (cl_uint i = 0; i <= n; i++) {
        CHECK(build_status(program, all[i]) == CL_BUILD_SUCCESS);
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, all[i], NULL, &err);
        run_half(ctx, program, q);
        clReleaseCommandQueue(q);
    }
    /* one binary per device, however many devices (13 in the 12-unit run) */
    size_t *sizes = calloc(n + 1, sizeof *sizes);
    size_t size_ret = 0;
    CHECK_ERR(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, (n + 1) * sizeof *sizes, sizes, &size_ret),
              CL_SUCCESS);
    CHECK(size_ret == (n + 1) * sizeof *sizes);
    CHECK(sizes[0] > 0 && sizes[n] == sizes[0]);
    unsigned char *binary = malloc(sizes[0]);
    unsigned char **binaries = calloc(n + 1, sizeof *binaries);
    binaries[0] = binary;
    CHECK_ERR(clGetProgramInfo(program, CL_PROGRAM_BINARIES, (n + 1) * sizeof *binaries, binaries, NULL), CL_SUCCESS);
    clReleaseProgram(program);

    /* built for a sub-device alone: the parent runs it */
    program = clCreateProgramWithSource(ctx, 1, &split_source, NULL, &err);
    CHECK_ERR(clBuildProgram(program, 1, &all[0], "", NULL, NULL), CL_SUCCESS);
    CHECK(build_status(program, root) == CL_BUILD_SUCCESS);
    cl_command_queue rq = clCreateCommandQueueWithProperties(ctx, root, NULL, &err);
    run_half(ctx, program, rq);
    clReleaseCommandQueue(rq);
    clReleaseProgram(program);

    /* the parent's binary, loaded in a context of one sub-device */
    cl_context sub_ctx = clCreateContext(NULL, 1, &all[n - 1], NULL, NULL, &err);
    size_t length = sizes[0];
    const unsigned char *bin = binary;
    cl_int bin_status = 1;
    program = clCreateProgramWithBinary(sub_ctx, 1, &all[n - 1], &length, &bin, &bin_status, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK(bin_status == CL_SUCCESS);
    CHECK_ERR(clBuildProgram(program, 0, NULL, "", NULL, NULL), CL_SUCCESS);
    cl_command_queue sq = clCreateCommandQueueWithProperties(sub_ctx, all[n - 1], NULL, &err);
    run_half(sub_ctx, program, sq);
    clReleaseCommandQueue(sq);
    clReleaseProgram(program);
    clReleaseContext(sub_ctx);

    free(binary);
    free(binaries);
    free(sizes);
    clReleaseContext(ctx);
    release_all(all, n);
    free(all);
}

/* ---- where the workers run ---------------------------------------------------------------- */

typedef struct placement {
    cpu_set_t mask; /* the worker thread's affinity */
    int cpu;        /* where it ran */
} placement;

static void CL_CALLBACK where_am_i(void *args)
{
    placement *p = *(placement **)args;
    CPU_ZERO(&p->mask);
    sched_getaffinity(0, sizeof p->mask, &p->mask); /* 0: the calling thread */
    p->cpu = sched_getcpu();
}

/* Runs `count` native kernels on a queue of `d`; their placements. */
static void placements(cl_device_id d, placement *out, int count)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    for (int i = 0; i < count; i++) {
        placement *p = &out[i];
        CHECK_ERR(clEnqueueNativeKernel(q, where_am_i, &p, sizeof p, 0, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
    }
    CHECK_ERR(clFinish(q), CL_SUCCESS);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

TEST(pinning)
{
    SKIP_UNLESS_PARTITIONABLE();
    enum { RUNS = 8 };
    placement r[RUNS];
    /* the root device's workers float over every CPU the process may use */
    placements(root, r, RUNS);
    for (int i = 0; i < RUNS; i++)
        CHECK(CPU_EQUAL(&r[i].mask, &process_cpus));

    prop halves[] = { CL_DEVICE_PARTITION_BY_COUNTS, root_units / 2, root_units - root_units / 2,
                      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    cl_device_id subs[2];
    if (create(root, halves, subs, 2, CL_SUCCESS) != 2)
        return;
    cpu_set_t seen[2];
    for (int k = 0; k < 2; k++) {
        placement p[RUNS];
        placements(subs[k], p, RUNS);
        cl_uint units = dev_uint(subs[k], CL_DEVICE_MAX_COMPUTE_UNITS);
        seen[k] = p[0].mask;
        for (int i = 0; i < RUNS; i++) {
            cpu_set_t outside;
            CPU_AND(&outside, &p[i].mask, &process_cpus);
            CHECK(CPU_EQUAL(&outside, &p[i].mask));               /* allowed CPUs only */
            CHECK(CPU_COUNT(&p[i].mask) >= 1 && (cl_uint)CPU_COUNT(&p[i].mask) <= units); /* its units' */
            CHECK(CPU_EQUAL(&p[i].mask, &seen[k]));               /* every worker the same */
            CHECK(p[i].cpu >= 0 && CPU_ISSET(p[i].cpu, &p[i].mask)); /* and it ran there */
        }
        printf("sub-device %d (%u units): workers on %d CPU(s), ran on CPU %d\n", k, units, CPU_COUNT(&seen[k]),
               p[0].cpu);
    }
    /* one unit per CPU (no MOSAIC_NUM_THREADS): the halves share no CPU */
    if ((cl_uint)CPU_COUNT(&process_cpus) == root_units) {
        cpu_set_t both;
        CPU_AND(&both, &seen[0], &seen[1]);
        CHECK(CPU_COUNT(&both) == 0);
        CHECK((cl_uint)CPU_COUNT(&seen[0]) == root_units / 2);
    }
    release_all(subs, 2);
}

/* ---- fork() ---------------------------------------------------------------------------------- */

TEST(fork_child)
{
    SKIP_UNLESS_PARTITIONABLE();
    prop split[] = { CL_DEVICE_PARTITION_BY_COUNTS, 1, root_units - 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    cl_device_id subs[2];
    if (create(root, split, subs, 2, CL_SUCCESS) != 2)
        return;
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 2, subs, NULL, NULL, &err);
    cl_program program = clCreateProgramWithSource(ctx, 1, &split_source, NULL, &err);
    CHECK_ERR(clBuildProgram(program, 0, NULL, "", NULL, NULL), CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, subs[1], NULL, &err);
    run_half(ctx, program, q); /* the sub-device's workers run */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(60); /* a hang fails the test instead of blocking it */
        int failed = test_failed;
        run_half(ctx, program, q); /* a pool of the child's own */
        cl_command_queue q0 = clCreateCommandQueueWithProperties(ctx, subs[0], NULL, &err);
        run_half(ctx, program, q0); /* a sub-device not used before the fork */
        clReleaseCommandQueue(q0);
        prop one[] = { CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
        cl_device_id leaf;
        if (root_units >= 3 && create(subs[1], one, &leaf, 1, CL_SUCCESS) >= 1) /* a new one */
            CHECK_ERR(clReleaseDevice(leaf), CL_SUCCESS);
        _exit(test_failed == failed ? 0 : 1);
    }
    CHECK(pid > 0);
    run_half(ctx, program, q); /* the parent goes on */
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    if (WIFSIGNALED(status))
        fprintf(stderr, "the child was killed by signal %d (SIGALRM: it hung)\n", WTERMSIG(status));
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    clReleaseCommandQueue(q);
    clReleaseProgram(program);
    clReleaseContext(ctx);
    release_all(subs, 2);
}

int main(int argc, char **argv)
{
    CPU_ZERO(&process_cpus);
    sched_getaffinity(0, sizeof process_cpus, &process_cpus);
    if (!test_open_cpu_device(&platform, &root, &root_context))
        return 1;
    root_units = dev_uint(root, CL_DEVICE_MAX_COMPUTE_UNITS);
    test_run(argc, argv);
    clReleaseContext(root_context);
    return test_summary();
}
