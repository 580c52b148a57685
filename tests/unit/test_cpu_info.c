/*
 * What the CPU device makes of what the processor says of itself
 * (devices/cpu/cpu_info.c), linked with Mosaic's objects: the vendor and
 * vendor ID from made-up CPUID vendor identifications, the vector widths from
 * made-up SIMD extensions, and the device's answers for double and half when
 * it lacks those types, and its global memory from made-up cgroup trees.
 * The reasons: docs/devices.md, "What the CPU device reports".
 */
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TEST_LIST "test_cpu_info.list"
#include "test.h"
#include "core/objects.h"
#include "devices/cpu/cpu.h"

/* Vendor strings that clients take for a vendor's GPU driver (OpenCV's
 * Device::isAMD/isIntel/isNVidia, hashcat's table of vendors): a CPU device
 * must not report one. */
static const char *const driver_vendors[] = {
    "Advanced Micro Devices, Inc.", "AMD", "Intel(R) Corporation", "Intel", "Intel Inc.", "NVIDIA Corporation",
};

static void check_vendor(const char *identification, const char *vendor, cl_uint vendor_id)
{
    char got[64];
    cl_uint id = 0xdead;
    mosaic_cpu_vendor(identification, got, sizeof got, &id);
    CHECK(strcmp(got, vendor) == 0, "\"%s\" gives vendor \"%s\", not \"%s\"", identification ? identification : "(null)",
          got, vendor);
    CHECK(id == vendor_id, "\"%s\" gives vendor ID 0x%x, not 0x%x", identification ? identification : "(null)", id,
          vendor_id);
    for (size_t i = 0; i < sizeof driver_vendors / sizeof driver_vendors[0]; i++)
        CHECK(strcmp(got, driver_vendors[i]) != 0, "\"%s\" is a GPU driver's vendor string", got);
    CHECK(id != 0x1002 && id != 0x10de, "0x%x is a GPU maker's PCI vendor ID", id); /* AMD/ATI's, NVIDIA's */
}

TEST(vendor_of_identifications)
{
    /* the makers' identifications and their PCI vendor IDs */
    check_vendor("GenuineIntel", "GenuineIntel", 0x8086);
    check_vendor("AuthenticAMD", "AuthenticAMD", 0x1022);
    check_vendor("HygonGenuine", "HygonGenuine", 0x1d94);
    check_vendor("CentaurHauls", "CentaurHauls", 0x1106);
    check_vendor("  Shanghai  ", "Shanghai", 0x1d17); /* Zhaoxin pads it to 12 characters */
    /* anything else: the identification as given, and no PCI vendor ID */
    check_vendor("GenuineIotel", "GenuineIotel", 0);
    check_vendor("AuthenticAMDX", "AuthenticAMDX", 0);
    check_vendor("Authentic", "Authentic", 0);
    check_vendor("VirtualApple", "VirtualApple", 0);
    /* none, or nothing readable */
    check_vendor(NULL, "Unknown", 0);
    check_vendor("", "Unknown", 0);
    check_vendor("            ", "Unknown", 0);
    check_vendor("Odd\x01\tName", "Odd??Name", 0);

    /* a buffer too short: cut, still a string */
    char small[5];
    cl_uint id = 0;
    mosaic_cpu_vendor("AuthenticAMD", small, sizeof small, &id);
    CHECK(strcmp(small, "Auth") == 0 && id == 0x1022, "got \"%s\", 0x%x", small, id);
}

/* One row: the extensions, then char, short, int, long, float, double and
 * half widths, and the floats in one register. */
typedef struct {
    const char *what;
    mosaic_cpu_isa isa;
    cl_uint widths[MOSAIC_VECTOR_TYPES];
    unsigned float_lanes;
} isa_row;

TEST(vector_widths_of_isas)
{
    static const isa_row rows[] = {
        /* SSE2, every x86-64: 16-byte registers */
        { "SSE", { false, false, false, false }, { 16, 8, 4, 2, 4, 2, 4 }, 4 },
        /* AVX: 32-byte float arithmetic, integers still 16 bytes */
        { "AVX", { true, false, false, false }, { 16, 8, 4, 2, 8, 4, 8 }, 8 },
        /* AVX2: 32-byte integers too; 32 chars is beyond char16 */
        { "AVX2", { true, true, false, false }, { 16, 16, 8, 4, 8, 4, 8 }, 8 },
        /* AVX-512F without BW: 64-byte float, int and long; chars and shorts in 32 bytes */
        { "AVX-512F", { true, true, true, false }, { 16, 16, 16, 8, 16, 8, 16 }, 16 },
        /* AVX-512BW: 64 chars and 32 shorts, capped at OpenCL C's 16 */
        { "AVX-512BW", { true, true, true, true }, { 16, 16, 16, 8, 16, 8, 16 }, 16 },
    };
    static const char *const names[MOSAIC_VECTOR_TYPES] = { "char", "short", "int", "long", "float", "double", "half" };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        cl_uint widths[MOSAIC_VECTOR_TYPES];
        memset(widths, 0xff, sizeof widths);
        mosaic_cpu_vector_widths(rows[r].isa, widths);
        for (int t = 0; t < MOSAIC_VECTOR_TYPES; t++) {
            CHECK(widths[t] == rows[r].widths[t], "%s: %s width %u, not %u", rows[r].what, names[t], widths[t],
                  rows[r].widths[t]);
            /* a width a kernel can declare: 2, 4, 8 or 16 (3 is not a native width) */
            CHECK(widths[t] >= 2 && widths[t] <= 16 && (widths[t] & (widths[t] - 1)) == 0, "%s: %s width %u",
                  rows[r].what, names[t], widths[t]);
        }
        CHECK(mosaic_cpu_float_lanes(rows[r].isa) == rows[r].float_lanes, "%s: %u float lanes", rows[r].what,
              mosaic_cpu_float_lanes(rows[r].isa));
    }
}

static cl_uint query_uint(cl_device_id device, cl_device_info param)
{
    cl_uint v = 0xdead;
    CHECK_ERR(clGetDeviceInfo(device, param, sizeof v, &v, NULL), CL_SUCCESS);
    return v;
}

/* The device's answers: its own widths, and 0 for double and half (preferred
 * and native) once its extensions lack cl_khr_fp64 and cl_khr_fp16. */
TEST(device_vector_widths)
{
    cl_platform_id platform;
    cl_device_id device;
    CHECK_ERR(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL), CL_SUCCESS);

    static const cl_device_info preferred[MOSAIC_VECTOR_TYPES] = {
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,  CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,   CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
    };
    static const cl_device_info native[MOSAIC_VECTOR_TYPES] = {
        CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR,  CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
        CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,  CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
        CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
    };
    for (int t = 0; t < MOSAIC_VECTOR_TYPES; t++) {
        CHECK(query_uint(device, preferred[t]) == device->preferred_vector_width[t]);
        CHECK(query_uint(device, native[t]) == device->native_vector_width[t]);
    }

    /* the same device without the optional types */
    const char *extensions = device->extensions;
    device->extensions = "cl_khr_icd cl_khr_byte_addressable_store";
    for (int t = 0; t < MOSAIC_VECTOR_TYPES; t++) {
        bool optional = t == MOSAIC_VECTOR_DOUBLE || t == MOSAIC_VECTOR_HALF;
        CHECK((query_uint(device, preferred[t]) == 0) == optional, "preferred width %d", t);
        CHECK((query_uint(device, native[t]) == 0) == optional, "native width %d", t);
    }
    device->extensions = extensions;
}

/* ---- global memory: the cgroups' limits ----------------------------------- */
static char tree[64];

/* Writes `text` to tree/path, making the folders on the way. */
static void put(const char *path, const char *text)
{
    char full[512];
    snprintf(full, sizeof full, "%s/%s", tree, path);
    for (char *slash = strchr(full + strlen(tree) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = 0;
        mkdir(full, 0700);
        *slash = '/';
    }
    FILE *f = fopen(full, "w");
    CHECK(f != NULL, "%s", full);
    if (f)
        fputs(text, f), fclose(f);
}

TEST(memory_of_cgroups)
{
    strcpy(tree, "/tmp/mosaic-cgroups-XXXXXX");
    CHECK(mkdtemp(tree) != NULL);
    const cl_ulong ram = 64ull << 30;
    /* v2: the process's own limit, a lower one above it, "max" beside them */
    put("user.slice/memory.max", "max\n");
    put("user.slice/app.scope/memory.max", "8589934592\n");
    put("user.slice/app.scope/inner/memory.max", "max\n");
    CHECK(mosaic_cgroup_memory_limit(tree, "0::/user.slice/app.scope/inner\n", ram) == 8ull << 30);
    put("user.slice/memory.max", "4294967296\n");
    CHECK(mosaic_cgroup_memory_limit(tree, "0::/user.slice/app.scope/inner\n", ram) == 4ull << 30,
          "a parent's limit bounds its children");
    CHECK(mosaic_cgroup_memory_limit(tree, "0::/user.slice/app.scope/inner\n", 2ull << 30) == 2ull << 30,
          "a limit above the machine's memory changes nothing");
    /* v1 (its memory controller at tree/memory, v2's at tree/unified), among other controllers */
    put("memory/jobs/memory.limit_in_bytes", "9223372036854771712\n"); /* v1's "no limit" */
    put("memory/jobs/42/memory.limit_in_bytes", "3221225472\n");
    put("unified/jobs/42/memory.max", "max\n");
    CHECK(mosaic_cgroup_memory_limit(tree, "12:pids:/jobs/42\n4:cpuset,memory:/jobs/42\n0::/jobs/42\n", ram) ==
          3ull << 30);
    CHECK(mosaic_cgroup_memory_limit(tree, "4:memoryx:/jobs/42\n", ram) == ram, "only the memory controller counts");
    /* a container's own cgroup is the root; no cgroup file at all */
    put("memory.max", "1073741824\n");
    CHECK(mosaic_cgroup_memory_limit(tree, "0::/\n", ram) == 1ull << 30);
    CHECK(mosaic_cgroup_memory_limit(tree, "0::/no/such/group\n", ram) == 1ull << 30, "the root's limit still holds");
    CHECK(mosaic_cgroup_memory_limit("/nonexistent", "0::/a\n1:memory:/a\n", ram) == ram);
    CHECK(mosaic_cgroup_memory_limit(tree, "", ram) == ram);
    CHECK(mosaic_cgroup_memory_limit(tree, "garbage without colons\n::\n", ram) == ram);
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", tree);
    CHECK(system(command) == 0);
}

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
