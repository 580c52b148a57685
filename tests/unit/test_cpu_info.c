/*
 * What the CPU device makes of what the processor says of itself
 * (devices/cpu/cpu_info.c), linked with Mosaic's objects: the vendor and
 * vendor ID from made-up CPUID vendor identifications.  The reasons:
 * docs/devices.md, "What the CPU device reports".
 */
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

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

int main(int argc, char **argv)
{
    test_run(argc, argv);
    return test_summary();
}
