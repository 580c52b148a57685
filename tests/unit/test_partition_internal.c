/*
 * Partitioning by affinity domain against made-up sysfs trees
 * (mosaic_cpu_topology_load), linked with Mosaic's objects: the machines the
 * tests run on may report no caches (virtual machines) and one NUMA node, so
 * the domains are described here, over the CPUs this process may use:
 *
 *   layout A: two NUMA nodes (first and second half of the CPUs), an L3 per
 *             node, an L2 per pair of neighbouring CPUs, an L1 per CPU
 *   layout B: no node directory (NUMA unknown), one L3 for all, L2 per pair,
 *             L1 per CPU, and one CPU whose cache files are missing (every
 *             cache domain unknown for a device holding it)
 *
 * For each: CL_DEVICE_PARTITION_AFFINITY_DOMAIN lists exactly the domains
 * whose keys split the device, each partition groups the units by key,
 * NEXT_PARTITIONABLE takes the first splitting domain (NUMA, L4, L3, L2, L1)
 * and reports it, sub-devices partition further, and the others fail with
 * CL_DEVICE_PARTITION_FAILED (or CL_INVALID_VALUE when none splits).
 */
#define _GNU_SOURCE
#include <CL/cl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TEST_LIST "test_partition_internal.list"
#include "test.h"
#include "devices/cpu/cpu.h"

static unsigned cpus[CPU_SETSIZE], ncpus; /* the CPUs this process may use */
static char layout;                        /* 'A' or 'B' */

static const cl_device_affinity_domain order[] = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA,     CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE,
};

static unsigned position(unsigned cpu)
{
    for (unsigned i = 0; i < ncpus; i++)
        if (cpus[i] == cpu)
            return i;
    return 0;
}

/* What the made-up tree says (-1: nothing). */
static long expected_key(unsigned cpu, cl_device_affinity_domain domain)
{
    unsigned pos = position(cpu), half = pos < ncpus / 2 ? 0 : 1;
    bool missing = layout == 'B' && ncpus >= 3 && pos == ncpus - 1; /* B: the last CPU has no cache files */
    switch (domain) {
    case CL_DEVICE_AFFINITY_DOMAIN_NUMA: return layout == 'A' ? (long)half : -1;
    case CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE:
        return missing ? -1 : layout == 'A' ? (long)cpus[half ? ncpus / 2 : 0] : (long)cpus[0];
    case CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE: return missing ? -1 : (long)cpus[pos & ~1u];
    case CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE: return missing ? -1 : (long)cpu;
    default: return -1;
    }
}

static void put(const char *dir, const char *path, const char *text)
{
    char full[1024];
    snprintf(full, sizeof full, "%s/%s", dir, path);
    for (char *p = full + strlen(dir) + 1; *p; p++) /* mkdir -p */
        if (*p == '/') {
            *p = '\0';
            mkdir(full, 0755);
            *p = '/';
        }
    FILE *f = fopen(full, "w");
    CHECK(f != NULL);
    if (f) {
        fprintf(f, "%s\n", text);
        fclose(f);
    }
}

/* The CPUs from first to last position, as a list "a,b,c". */
static void cpu_list(unsigned first, unsigned last, char *out, size_t size)
{
    out[0] = '\0';
    for (unsigned i = first; i <= last && i < ncpus; i++)
        snprintf(out + strlen(out), size - strlen(out), "%s%u", i > first ? "," : "", cpus[i]);
}

static void make_tree(const char *dir)
{
    char path[256], list[8192];
    if (layout == 'A')
        for (unsigned h = 0; h < 2; h++) {
            snprintf(path, sizeof path, "node/node%u/cpulist", h);
            cpu_list(h ? ncpus / 2 : 0, h ? ncpus - 1 : ncpus / 2 - 1, list, sizeof list);
            put(dir, path, list);
        }
    for (unsigned i = 0; i < ncpus; i++) {
        unsigned c = cpus[i];
        snprintf(path, sizeof path, "cpu/cpu%u/online", c);
        put(dir, path, "1");
        if (expected_key(c, CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE) < 0)
            continue;
        static const struct { int level; const char *type; } caches[] = {
            { 1, "Data" }, { 1, "Instruction" }, { 2, "Unified" }, { 3, "Unified" },
        };
        for (int k = 0; k < 4; k++) {
            char base[128];
            snprintf(base, sizeof base, "cpu/cpu%u/cache/index%d", c, k);
            snprintf(path, sizeof path, "%s/level", base);
            snprintf(list, sizeof list, "%d", caches[k].level);
            put(dir, path, list);
            snprintf(path, sizeof path, "%s/type", base);
            put(dir, path, caches[k].type);
            /* the instruction cache's list differs on purpose: it must be ignored */
            if (k == 0)
                snprintf(list, sizeof list, "%u", c);
            else if (k == 1)
                cpu_list(0, ncpus - 1, list, sizeof list);
            else if (k == 2)
                cpu_list(i & ~1u, (i & ~1u) + 1, list, sizeof list);
            else if (layout == 'A')
                cpu_list(i < ncpus / 2 ? 0 : ncpus / 2, i < ncpus / 2 ? ncpus / 2 - 1 : ncpus - 1, list, sizeof list);
            else
                cpu_list(0, ncpus - 1, list, sizeof list);
            snprintf(path, sizeof path, "%s/shared_cpu_list", base);
            put(dir, path, list);
        }
    }
}

/* Distinct keys among the device's units in `domain` (0 if one is unknown). */
static cl_uint expected_groups(cl_device_id d, cl_device_affinity_domain domain)
{
    const unsigned *unit_cpus = mosaic_cpu_unit_cpus(d);
    long seen[CPU_SETSIZE];
    cl_uint n = 0;
    for (cl_uint i = 0; i < d->compute_units; i++) {
        long key = expected_key(unit_cpus[i], domain);
        if (key < 0)
            return 0;
        cl_uint g = 0;
        while (g < n && seen[g] != key)
            g++;
        if (g == n)
            seen[n++] = key;
    }
    return n;
}

static cl_device_affinity_domain expected_domains(cl_device_id d)
{
    cl_device_affinity_domain domains = 0;
    for (int i = 0; i < 5 && d->compute_units >= 2; i++)
        if (expected_groups(d, order[i]) >= 2)
            domains |= order[i];
    return domains ? domains | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE : 0;
}

/* Checks every domain on `d`, then goes down into the sub-devices of the
 * first splitting one.  Returns how many sub-devices were made. */
static int check_device(cl_device_id d, int depth)
{
    int made = 0;
    cl_device_affinity_domain domains = 0, want = expected_domains(d);
    CHECK_ERR(clGetDeviceInfo(d, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof domains, &domains, NULL), CL_SUCCESS);
    CHECK(domains == want);
    cl_device_partition_property types[4];
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(d, CL_DEVICE_PARTITION_PROPERTIES, sizeof types, types, &size), CL_SUCCESS);
    bool listed = false;
    for (size_t i = 0; i < size / sizeof types[0]; i++)
        listed |= types[i] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
    CHECK(listed == (want != 0));
    cl_device_affinity_domain first = 0;
    for (int i = 0; i < 6; i++) {
        cl_device_affinity_domain domain = i < 5 ? order[i] : CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
        cl_device_partition_property props[] = { CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, domain, 0 };
        cl_uint count = 0;
        cl_int err = clCreateSubDevices(d, props, 0, NULL, &count);
        if (!(want & domain)) {
            CHECK_ERR(err, d->compute_units < 2 ? CL_DEVICE_PARTITION_FAILED
                           : listed             ? CL_DEVICE_PARTITION_FAILED
                                                : CL_INVALID_VALUE);
            continue;
        }
        CHECK_ERR(err, CL_SUCCESS);
        cl_device_affinity_domain used = domain;
        if (i == 5)
            used = first;
        else if (!first)
            first = domain;
        CHECK(count == expected_groups(d, used));
        cl_device_id *subs = calloc(count ? count : 1, sizeof *subs);
        CHECK_ERR(clCreateSubDevices(d, props, count, subs, NULL), CL_SUCCESS);
        cl_uint total = 0;
        for (cl_uint k = 0; k < count; k++) {
            cl_device_partition_property type[3] = { 0 };
            CHECK_ERR(clGetDeviceInfo(subs[k], CL_DEVICE_PARTITION_TYPE, sizeof type, type, &size), CL_SUCCESS);
            CHECK(size == sizeof type && type[0] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN &&
                  type[1] == (cl_device_partition_property)used && type[2] == 0);
            /* one key per sub-device, a different one for each */
            const unsigned *unit_cpus = mosaic_cpu_unit_cpus(subs[k]);
            long key = expected_key(unit_cpus[0], used);
            for (cl_uint u = 0; u < subs[k]->compute_units; u++)
                CHECK(expected_key(unit_cpus[u], used) == key);
            for (cl_uint j = 0; j < k; j++)
                CHECK(expected_key(mosaic_cpu_unit_cpus(subs[j])[0], used) != key);
            total += subs[k]->compute_units;
        }
        CHECK(total == d->compute_units);
        if (i == 5) {
            printf("%*slayout %c: %u units, NEXT_PARTITIONABLE -> 0x%llx, %u sub-devices\n", 2 * depth, "", layout,
                   d->compute_units, (unsigned long long)used, count);
            made += (int)count;
            for (cl_uint k = 0; k < count; k++)
                made += check_device(subs[k], depth + 1);
        }
        for (cl_uint k = 0; k < count; k++)
            CHECK_ERR(clReleaseDevice(subs[k]), CL_SUCCESS);
        free(subs);
    }
    return made;
}

/* Layouts A and B, then an empty tree. */
TEST(layouts)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    for (unsigned c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            cpus[ncpus++] = c;
    cl_platform_id platform;
    cl_device_id root;
    CHECK_ERR(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &root, NULL), CL_SUCCESS);
    if (ncpus < 2 || root->compute_units < 2)
        TEST_SKIP("%u CPU(s), %u compute unit(s): nothing to partition", ncpus, root->compute_units);
    for (layout = 'A'; layout <= 'B'; layout++) {
        char dir[] = "/tmp/mosaic-sysfs-XXXXXX";
        CHECK(mkdtemp(dir) != NULL);
        make_tree(dir);
        mosaic_cpu_topology_load(dir);
        int made = check_device(root, 0);
        CHECK(layout == 'B' || made >= 2); /* A splits any device of 2 CPUs or more by NUMA */
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        CHECK(system(cmd) == 0);
    }
    /* a tree with nothing in it: no domain */
    mosaic_cpu_topology_load("/nonexistent");
    cl_device_affinity_domain domains = 1;
    CHECK_ERR(clGetDeviceInfo(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof domains, &domains, NULL), CL_SUCCESS);
    CHECK(domains == 0);
    }

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
