/*
 * OpenCL 3.1: the versions the platform and device report, OpenCL C 3.1,
 * the SPIR-V queries, a __local argument of no bytes, the dispatch table's
 * 3.1 entry, and what 3.1 made core, as extensions the CPU device reports:
 * the device and driver UUIDs (cl_khr_device_uuid), the suggested local
 * work size (cl_khr_suggested_local_work_size), the integer dot products
 * (cl_khr_integer_dot_product) and the extended bit operations
 * (cl_khr_extended_bit_ops), each built-in checked against C on values
 * that include the edges (saturation, fields at either end of the type);
 * the kernel clocks (cl_khr_kernel_clock) and the work-group uniform
 * arithmetic (cl_khr_work_group_uniform_arithmetic).
 *
 *   usage: test_core_3_1 [case|--list]   (the cases: test_core_3_1.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include <stdint.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#define TEST_LIST "test_core_3_1.list"
#include "test.h"
#include "cl_test.h"
#include "../common/dot_ref.h"

static cl_platform_id platform;
static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static bool reports_extension(const char *name)
{
    char list[8192] = "";
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof list, list, NULL);
    size_t len = strlen(name);
    for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return true;
    return false;
}

static cl_version extension_version(const char *name)
{
    cl_name_version list[128];
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof list, list, &size), CL_SUCCESS);
    for (size_t i = 0; i < size / sizeof *list; i++)
        if (strcmp(list[i].name, name) == 0)
            return list[i].version;
    return 0;
}

static bool reports_feature(const char *name)
{
    cl_name_version list[128];
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, sizeof list, list, &size), CL_SUCCESS);
    for (size_t i = 0; i < size / sizeof *list; i++)
        if (strcmp(list[i].name, name) == 0)
            return true;
    return false;
}

static cl_mem buffer(size_t size, const void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), size, (void *)host,
                              &err);
    CHECK_ERR(err, CL_SUCCESS);
    return m;
}

/* xorshift: the same values in every run */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* ---- reported ------------------------------------------------------------------ */

TEST(reported)
{
    static const struct { const char *name; cl_version version; } extensions[] = {
        { "cl_khr_device_uuid", CL_MAKE_VERSION(1, 0, 0) },
        { "cl_khr_suggested_local_work_size", CL_MAKE_VERSION(1, 0, 0) },
        { "cl_khr_integer_dot_product", CL_MAKE_VERSION(2, 0, 0) },
        { "cl_khr_extended_bit_ops", CL_MAKE_VERSION(1, 0, 0) },
        { "cl_khr_expect_assume", CL_MAKE_VERSION(1, 0, 0) },
        { "cl_khr_spirv_queries", CL_MAKE_VERSION(1, 0, 0) },
        { "cl_khr_kernel_clock", CL_MAKE_VERSION(1, 0, 0) },
        { "cl_khr_work_group_uniform_arithmetic", CL_MAKE_VERSION(1, 0, 0) },
    };
    for (size_t i = 0; i < sizeof extensions / sizeof *extensions; i++) {
        CHECK(reports_extension(extensions[i].name), "%s not in CL_DEVICE_EXTENSIONS", extensions[i].name);
        CHECK(extension_version(extensions[i].name) == extensions[i].version, "%s: version 0x%x",
              extensions[i].name, extension_version(extensions[i].name));
    }
    CHECK(reports_feature("__opencl_c_integer_dot_product_input_4x8bit"));
    CHECK(reports_feature("__opencl_c_integer_dot_product_input_4x8bit_packed"));

    /* the kernel language sees the same: each macro defined */
    static const char source[] =
        "kernel void k(global int *out) {\n"
        "  int n = 0;\n"
        "#ifdef cl_khr_integer_dot_product\n n |= 1;\n#endif\n"
        "#ifdef __opencl_c_integer_dot_product_input_4x8bit\n n |= 2;\n#endif\n"
        "#ifdef __opencl_c_integer_dot_product_input_4x8bit_packed\n n |= 4;\n#endif\n"
        "#ifdef cl_khr_extended_bit_ops\n n |= 8;\n#endif\n"
        "#ifdef cl_khr_expect_assume\n n |= 16;\n#endif\n"
        "  __builtin_assume(n >= 0);\n"
        "  if (__builtin_expect(n == 31, 1)) n += 1;\n"
        "  out[0] = n;\n"
        "}\n";
    cl_program program = test_build_program(context, device, source, "-cl-std=CL3.0");
    if (!program)
        return;
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    cl_mem out = buffer(sizeof(cl_int), NULL);
    clSetKernelArg(kernel, 0, sizeof out, &out);
    size_t one = 1;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
    cl_int n = 0;
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof n, &n, 0, NULL, NULL), CL_SUCCESS);
    CHECK(n == 32, "macros defined: 0x%x (and 1 added)", n);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

/* ---- cl_khr_device_uuid ------------------------------------------------------------ */

TEST(device_uuid)
{
    cl_uchar uuid[CL_UUID_SIZE_KHR], again[CL_UUID_SIZE_KHR], driver[CL_UUID_SIZE_KHR], luid[CL_LUID_SIZE_KHR];
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, sizeof uuid, uuid, &size), CL_SUCCESS);
    CHECK(size == CL_UUID_SIZE_KHR);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, sizeof again, again, NULL), CL_SUCCESS);
    CHECK(memcmp(uuid, again, sizeof uuid) == 0, "the UUID changed between two queries");
    CHECK_ERR(clGetDeviceInfo(device, CL_DRIVER_UUID_KHR, sizeof driver, driver, &size), CL_SUCCESS);
    CHECK(size == CL_UUID_SIZE_KHR);
    cl_uchar zero[CL_UUID_SIZE_KHR] = { 0 };
    CHECK(memcmp(uuid, zero, sizeof uuid) != 0 && memcmp(driver, zero, sizeof driver) != 0);
    CHECK(memcmp(uuid, driver, sizeof uuid) != 0, "the device and the driver have one UUID");
    CHECK((uuid[8] & 0xc0) == 0x80, "not an RFC 9562 variant: 0x%02x", uuid[8]);
    cl_bool valid = CL_TRUE;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_LUID_VALID_KHR, sizeof valid, &valid, NULL), CL_SUCCESS);
    CHECK(valid == CL_FALSE, "Linux has no LUIDs");
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_LUID_KHR, sizeof luid, luid, &size), CL_SUCCESS);
    CHECK(size == CL_LUID_SIZE_KHR);
    cl_uint mask = 1;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_NODE_MASK_KHR, sizeof mask, &mask, NULL), CL_SUCCESS);
    CHECK(mask == 0);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, CL_UUID_SIZE_KHR - 1, uuid, NULL), CL_INVALID_VALUE);

    /* sub-devices are devices of their own: UUIDs of their own */
    cl_uint units = 0;
    clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    if (units < 2)
        TEST_SKIP("one compute unit: no sub-devices");
    const cl_device_partition_property two[] = { CL_DEVICE_PARTITION_BY_COUNTS, 1, 1,
                                                 CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0 };
    cl_device_id subs[2];
    cl_int err = clCreateSubDevices(device, two, 2, subs, NULL);
    CHECK_ERR(err, CL_SUCCESS);
    if (err != CL_SUCCESS)
        return;
    cl_uchar u0[CL_UUID_SIZE_KHR], u1[CL_UUID_SIZE_KHR];
    CHECK_ERR(clGetDeviceInfo(subs[0], CL_DEVICE_UUID_KHR, sizeof u0, u0, NULL), CL_SUCCESS);
    CHECK_ERR(clGetDeviceInfo(subs[1], CL_DEVICE_UUID_KHR, sizeof u1, u1, NULL), CL_SUCCESS);
    CHECK(memcmp(u0, u1, sizeof u0) != 0 && memcmp(u0, uuid, sizeof u0) != 0, "sub-devices share a UUID");
    clReleaseDevice(subs[0]);
    clReleaseDevice(subs[1]);
}

/* ---- cl_khr_suggested_local_work_size ------------------------------------------------ */

static const char local_size_source[] =
    "kernel void sizes(global uint *out, int unused) {\n"
    "  if (get_global_id(0) == 0 && get_global_id(1) == 0 && get_global_id(2) == 0) {\n"
    "    out[0] = get_local_size(0); out[1] = get_local_size(1); out[2] = get_local_size(2);\n"
    "  }\n"
    "}\n"
    "__attribute__((reqd_work_group_size(4, 2, 1)))\n"
    "kernel void fixed(global uint *out) { out[get_global_id(0)] = 1; }\n";

TEST(suggested_local_work_size)
{
    clGetKernelSuggestedLocalWorkSizeKHR_fn suggest =
        (clGetKernelSuggestedLocalWorkSizeKHR_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clGetKernelSuggestedLocalWorkSizeKHR");
    CHECK(suggest != NULL);
    if (!suggest)
        return;
    cl_program program = test_build_program(context, device, local_size_source, "-cl-std=CL3.0");
    if (!program)
        return;
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, "sizes", &err), fixed = clCreateKernel(program, "fixed", &err);
    cl_mem out = buffer(3 * sizeof(cl_uint), NULL);
    size_t global[3] = { 1000, 30, 3 }, local[3] = { 0 };

    /* the arguments must be set, as for a launch */
    CHECK_ERR(suggest(queue, kernel, 1, NULL, global, local), CL_INVALID_KERNEL_ARGS);
    clSetKernelArg(kernel, 0, sizeof out, &out);
    cl_int unused = 0;
    clSetKernelArg(kernel, 1, sizeof unused, &unused);

    /* each shape: what a launch with a NULL local size runs */
    for (cl_uint dims = 1; dims <= 3; dims++) {
        size_t offset[3] = { 5, 6, 7 };
        CHECK_ERR(suggest(queue, kernel, dims, offset, global, local), CL_SUCCESS);
        CHECK_ERR(clEnqueueNDRangeKernel(queue, kernel, dims, NULL, global, NULL, 0, NULL, NULL), CL_SUCCESS);
        cl_uint ran[3] = { 0 };
        CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof ran, ran, 0, NULL, NULL), CL_SUCCESS);
        for (cl_uint d = 0; d < dims; d++)
            CHECK(local[d] == ran[d] && local[d] >= 1 && local[d] <= global[d],
                  "%u dimensions: suggested %zu in dimension %u, a launch ran %u", dims, local[d], d, ran[d]);
    }

    /* a required work-group size is the suggestion */
    clSetKernelArg(fixed, 0, sizeof out, &out);
    size_t fixed_global[2] = { 8, 4 };
    CHECK_ERR(suggest(queue, fixed, 2, NULL, fixed_global, local), CL_SUCCESS);
    CHECK(local[0] == 4 && local[1] == 2, "suggested %zu x %zu for reqd_work_group_size(4, 2, 1)", local[0],
          local[1]);

    /* the errors a launch would give */
    size_t zero[3] = { 1000, 0, 1 }, huge_offset[1] = { SIZE_MAX };
    CHECK_ERR(suggest(queue, kernel, 1, NULL, NULL, local), CL_INVALID_GLOBAL_WORK_SIZE);
    CHECK_ERR(suggest(queue, kernel, 2, NULL, zero, local), CL_INVALID_GLOBAL_WORK_SIZE);
    CHECK_ERR(suggest(queue, kernel, 0, NULL, global, local), CL_INVALID_WORK_DIMENSION);
    CHECK_ERR(suggest(queue, kernel, 4, NULL, global, local), CL_INVALID_WORK_DIMENSION);
    CHECK_ERR(suggest(queue, kernel, 1, huge_offset, global, local), CL_INVALID_GLOBAL_OFFSET);
    CHECK_ERR(suggest(queue, kernel, 1, NULL, global, NULL), CL_INVALID_VALUE);
    CHECK_ERR(suggest(NULL, kernel, 1, NULL, global, local), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(suggest(queue, NULL, 1, NULL, global, local), CL_INVALID_KERNEL);
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue other_queue = clCreateCommandQueueWithProperties(other, device, NULL, &err);
    CHECK_ERR(suggest(other_queue, kernel, 1, NULL, global, local), CL_INVALID_CONTEXT);
    clReleaseCommandQueue(other_queue);
    clReleaseContext(other);

    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseKernel(fixed);
    clReleaseProgram(program);
}

/* ---- cl_khr_integer_dot_product --------------------------------------------------------- */

static const char dot_source[] =
    "kernel void dots(global const uint *a, global const uint *b, global const int *acc, global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  uint x = a[i], y = b[i]; int c = acc[i];\n"
    "  uchar4 ux = as_uchar4(x), uy = as_uchar4(y); char4 sx = as_char4(x), sy = as_char4(y);\n"
    "  global int *o = out + 16 * i;\n"
    "  o[0] = (int)dot(ux, uy); o[1] = dot(sx, sy); o[2] = dot(ux, sy); o[3] = dot(sx, uy);\n"
    "  o[4] = (int)dot_acc_sat(ux, uy, (uint)c); o[5] = dot_acc_sat(sx, sy, c);\n"
    "  o[6] = dot_acc_sat(ux, sy, c); o[7] = dot_acc_sat(sx, uy, c);\n"
    "  o[8] = (int)dot_4x8packed_uu_uint(x, y); o[9] = dot_4x8packed_ss_int(x, y);\n"
    "  o[10] = dot_4x8packed_us_int(x, y); o[11] = dot_4x8packed_su_int(x, y);\n"
    "  o[12] = (int)dot_acc_sat_4x8packed_uu_uint(x, y, (uint)c); o[13] = dot_acc_sat_4x8packed_ss_int(x, y, c);\n"
    "  o[14] = dot_acc_sat_4x8packed_us_int(x, y, c); o[15] = dot_acc_sat_4x8packed_su_int(x, y, c);\n"
    "}\n";

TEST(integer_dot_product)
{
    cl_device_integer_dot_product_capabilities_khr caps = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, sizeof caps, &caps, NULL),
              CL_SUCCESS);
    CHECK(caps == (CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR | CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR),
          "capabilities 0x%llx", (unsigned long long)caps);
    cl_device_integer_dot_product_acceleration_properties_khr accel;
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR, sizeof accel,
                              &accel, &size), CL_SUCCESS);
    CHECK(size == sizeof accel);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR,
                              sizeof accel, &accel, &size), CL_SUCCESS);

    enum { N = 4096 };
    uint32_t *a = malloc(N * 4), *b = malloc(N * 4);
    int32_t *acc = malloc(N * 4), *out = malloc(N * 16 * 4);
    uint64_t state = 0x9e3779b97f4a7c15ull;
    static const uint32_t edges[] = { 0, 0xffffffffu, 0x80808080u, 0x7f7f7f7fu, 0x01010101u, 0xff00ff00u };
    static const int32_t edge_acc[] = { 0, INT32_MAX, INT32_MIN, -1, INT32_MAX - 1000, INT32_MIN + 1000 };
    for (int i = 0; i < N; i++) {
        a[i] = (uint32_t)next_random(&state);
        b[i] = (uint32_t)next_random(&state);
        acc[i] = (int32_t)next_random(&state);
        if (i < 216) { /* every pair of edge values, with every edge accumulator */
            a[i] = edges[i % 6];
            b[i] = edges[i / 6 % 6];
            acc[i] = edge_acc[i / 36];
        }
    }
    cl_program program = test_build_program(context, device, dot_source, "-cl-std=CL3.0");
    if (!program)
        goto done;
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, "dots", &err);
    cl_mem ma = buffer(N * 4, a), mb = buffer(N * 4, b), mc = buffer(N * 4, acc), mo = buffer(N * 64, NULL);
    clSetKernelArg(kernel, 0, sizeof ma, &ma);
    clSetKernelArg(kernel, 1, sizeof mb, &mb);
    clSetKernelArg(kernel, 2, sizeof mc, &mc);
    clSetKernelArg(kernel, 3, sizeof mo, &mo);
    size_t n = N;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, NULL, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, N * 64, out, 0, NULL, NULL), CL_SUCCESS);
    int failures = 0;
    for (int i = 0; i < N && failures < 10; i++) {
        static const bool sa[4] = { false, true, false, true }, sb[4] = { false, true, true, false };
        for (int f = 0; f < 4; f++) {
            int64_t d = dot_ref(a[i], b[i], sa[f], sb[f]);
            int64_t sat = dot_acc_sat_ref(d, acc[i], f == 0);
            int64_t want[4] = { d, sat, d, sat }; /* vector, vector acc_sat, packed, packed acc_sat */
            int slot[4] = { f, 4 + f, 8 + f, 12 + f };
            for (int k = 0; k < 4; k++) {
                int64_t got = f == 0 ? (int64_t)(uint32_t)out[16 * i + slot[k]] : (int64_t)out[16 * i + slot[k]];
                if (got != want[k]) {
                    failures++;
                    CHECK(got == want[k], "a 0x%08x b 0x%08x acc %d: result %d is %lld, not %lld", a[i], b[i],
                          acc[i], slot[k], (long long)got, (long long)want[k]);
                }
            }
        }
    }
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseMemObject(mo);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
done:
    free(a);
    free(b);
    free(acc);
    free(out);
}

/* ---- cl_khr_extended_bit_ops ------------------------------------------------------------- */

/* One program per type: the four functions on vectors of W elements (W = 1:
 * a scalar), one offset and count per work-item for all its elements. */
static const char bit_ops_source[] =
    "#if W == 1\n#define LOAD(p, i) (p)[i]\n#define STORE(v, p, i) (p)[i] = (v)\n"
    "#else\n#define LOAD(p, i) CAT(vload, W)(i, p)\n#define STORE(v, p, i) CAT(vstore, W)(v, i, p)\n#endif\n"
    "#define CAT(a, b) CAT2(a, b)\n#define CAT2(a, b) a##b\n"
    "kernel void bits(global const U *base, global const U *ins, global const uint *off, global const uint *cnt,\n"
    "                 global U *inserted, global S *signed_field, global U *unsigned_field, global U *reversed,\n"
    "                 global U *inserted_s, global S *signed_s, global U *unsigned_s, global U *reversed_s) {\n"
    "  size_t i = get_global_id(0);\n"
    "  UW b = LOAD(base, i), n = LOAD(ins, i); uint o = off[i], c = cnt[i];\n"
    "  STORE(bitfield_insert(b, n, o, c), inserted, i);\n"
    "  STORE(bitfield_extract_signed(b, o, c), signed_field, i);\n"
    "  STORE(bitfield_extract_unsigned(b, o, c), unsigned_field, i);\n"
    "  STORE(bit_reverse(b), reversed, i);\n"
    "  SW sb = CAT(as_, SW)(b), sn = CAT(as_, SW)(n);\n" /* the signed overloads */
    "  STORE(CAT(as_, UW)(bitfield_insert(sb, sn, o, c)), inserted_s, i);\n"
    "  STORE(bitfield_extract_signed(sb, o, c), signed_s, i);\n"
    "  STORE(bitfield_extract_unsigned(sb, o, c), unsigned_s, i);\n"
    "  STORE(CAT(as_, UW)(bit_reverse(sb)), reversed_s, i);\n"
    "}\n";

static uint64_t low_bits(unsigned count) { return count >= 64 ? ~0ull : (1ull << count) - 1; }

static uint64_t reverse_ref(uint64_t x, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned k = 0; k < bits; k++)
        r |= ((x >> k) & 1) << (bits - 1 - k);
    return r;
}

static uint64_t load_element(const unsigned char *p, size_t size)
{
    uint64_t v = 0;
    memcpy(&v, p, size); /* little-endian host */
    return v;
}

static void check_bit_ops(const char *unsigned_name, const char *signed_name, unsigned bits, unsigned width)
{
    enum { N = 512 };
    size_t esize = bits / 8, count = (size_t)N * width;
    unsigned char *base = malloc(count * esize), *ins = malloc(count * esize), *res[8];
    uint32_t off[N], cnt[N];
    uint64_t state = 0x2545f4914f6cdd1dull + bits * 31 + width;
    for (size_t i = 0; i < count * esize; i++) {
        base[i] = (unsigned char)next_random(&state);
        ins[i] = (unsigned char)next_random(&state);
    }
    for (int i = 0; i < N; i++) { /* fields anywhere, of every length, the edges included */
        cnt[i] = (uint32_t)(next_random(&state) % (bits + 1));
        off[i] = cnt[i] == bits ? 0 : (uint32_t)(next_random(&state) % (bits - cnt[i] + 1));
        if (i < 4) {
            static const uint32_t edge_count[4] = { 0, 1, 1, 0 };
            cnt[i] = i == 3 ? bits : edge_count[i];
            off[i] = i == 2 ? bits - 1 : 0;
        }
    }
    char options[256];
    if (width == 1)
        snprintf(options, sizeof options, "-cl-std=CL3.0 -DW=1 -DU=%s -DS=%s -DUW=%s -DSW=%s", unsigned_name,
                 signed_name, unsigned_name, signed_name);
    else
        snprintf(options, sizeof options, "-cl-std=CL3.0 -DW=%u -DU=%s -DS=%s -DUW=%s%u -DSW=%s%u", width,
                 unsigned_name, signed_name, unsigned_name, width, signed_name, width);
    cl_program program = test_build_program(context, device, bit_ops_source, options);
    if (!program) {
        free(base);
        free(ins);
        return;
    }
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, "bits", &err);
    cl_mem mem[12] = { buffer(count * esize, base), buffer(count * esize, ins), buffer(sizeof off, off),
                       buffer(sizeof cnt, cnt) };
    for (int k = 0; k < 8; k++) {
        mem[4 + k] = buffer(count * esize, NULL);
        res[k] = malloc(count * esize);
    }
    for (cl_uint k = 0; k < 12; k++)
        clSetKernelArg(kernel, k, sizeof mem[k], &mem[k]);
    size_t n = N;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, NULL, 0, NULL, NULL), CL_SUCCESS);
    for (int k = 0; k < 8; k++)
        CHECK_ERR(clEnqueueReadBuffer(queue, mem[4 + k], CL_TRUE, 0, count * esize, res[k], 0, NULL, NULL),
                  CL_SUCCESS);
    int failures = 0;
    uint64_t type_mask = low_bits(bits);
    for (size_t e = 0; e < count && failures < 5; e++) {
        size_t i = e / width;
        uint64_t b = load_element(base + e * esize, esize), in = load_element(ins + e * esize, esize);
        uint64_t field = low_bits(cnt[i]) << off[i];
        uint64_t unsigned_field = (b >> off[i]) & low_bits(cnt[i]);
        uint64_t signed_field = unsigned_field; /* sign-extended from the field's top bit */
        if (cnt[i] && (unsigned_field >> (cnt[i] - 1)) & 1)
            signed_field |= ~low_bits(cnt[i]);
        uint64_t want[4] = { ((b & ~field) | ((in << off[i]) & field)) & type_mask, signed_field & type_mask,
                             unsigned_field, reverse_ref(b, bits) };
        for (int k = 0; k < 8; k++) {
            uint64_t got = load_element(res[k] + e * esize, esize);
            if (got != want[k % 4]) {
                failures++;
                static const char *const names[4] = { "bitfield_insert", "bitfield_extract_signed",
                                                      "bitfield_extract_unsigned", "bit_reverse" };
                CHECK(got == want[k % 4], "%s%u %s (%s overload), base 0x%llx insert 0x%llx offset %u count %u: "
                      "0x%llx, not 0x%llx", unsigned_name, width, names[k % 4], k < 4 ? "unsigned" : "signed",
                      (unsigned long long)b, (unsigned long long)in, off[i], cnt[i], (unsigned long long)got,
                      (unsigned long long)want[k % 4]);
            }
        }
    }
    for (int k = 0; k < 12; k++)
        clReleaseMemObject(mem[k]);
    for (int k = 0; k < 8; k++)
        free(res[k]);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    free(base);
    free(ins);
}

TEST(extended_bit_ops)
{
    static const struct { const char *u, *s; unsigned bits; } types[] = {
        { "uchar", "char", 8 }, { "ushort", "short", 16 }, { "uint", "int", 32 }, { "ulong", "long", 64 },
    };
    static const unsigned widths[] = { 1, 2, 3, 4, 8, 16 };
    for (size_t t = 0; t < 4; t++)
        for (size_t w = 0; w < 6; w++)
            if ((t + w) % 2 == 0 || widths[w] == 1) /* every type as a scalar; half of the vectors */
                check_bit_ops(types[t].u, types[t].s, types[t].bits, widths[w]);
}

/* ---- printf's z and t length modifiers (OpenCL C 3.1) --------------------------------------- */

TEST(printf_size_modifiers)
{
    static const char source[] =
        "kernel void p(long d) {\n"
        "  size_t i = get_global_id(0);\n"
        "  printf(\"%zu %zx %td %zd|\\n\", i * 1000000007ul, i, (ptrdiff_t)(d - (long)i), (ptrdiff_t)-(long)i);\n"
        "}\n";
    cl_program program = test_build_program(context, device, source, "-cl-std=CL3.0");
    if (!program)
        return;
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, "p", &err);
    cl_long d = -7;
    clSetKernelArg(kernel, 0, sizeof d, &d);
    char *text = test_run_captured(queue, kernel, 4, 4);
    for (size_t i = 0; i < 4; i++) {
        char line[256];
        snprintf(line, sizeof line, "%zu %zx %td %zd|\n", i * 1000000007ul, i, (ptrdiff_t)(d - (long)i),
                 -(ptrdiff_t)i);
        CHECK(text && strstr(text, line), "missing line '%s' in:\n%s", line, text ? text : "");
    }
    free(text);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

/* ---- the versions, OpenCL C 3.1 ------------------------------------------------------ */

/* The names of OpenCL 3.1 that Debian's headers lack (the Khronos headers' values). */
#define SPIRV_EXTENDED_INSTRUCTION_SETS 0x12B9
#define SPIRV_EXTENSIONS 0x12BA
#define SPIRV_CAPABILITIES 0x12BB
#define KERNEL_CLOCK_CAPABILITIES 0x1076

TEST(versions)
{
    cl_version v = 0;
    CHECK_ERR(clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, sizeof v, &v, NULL), CL_SUCCESS);
    CHECK(v == CL_MAKE_VERSION(3, 1, 0), "platform: 0x%x", v);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_NUMERIC_VERSION, sizeof v, &v, NULL), CL_SUCCESS);
    CHECK(v == CL_MAKE_VERSION(3, 1, 0), "device: 0x%x", v);
    char text[256] = "";
    CHECK_ERR(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof text, text, NULL), CL_SUCCESS);
    CHECK(strncmp(text, "OpenCL 3.1 ", 11) == 0, "platform: '%s'", text);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof text, text, NULL), CL_SUCCESS);
    CHECK(strncmp(text, "OpenCL 3.1 ", 11) == 0, "device: '%s'", text);
    /* sub-groups are required in 3.1 */
    cl_uint sub_groups = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof sub_groups, &sub_groups, NULL),
              CL_SUCCESS);
    CHECK(sub_groups > 0);
}

/* OpenCL C 3.1: its version macros, and what it made core usable as such */
TEST(opencl_c_3_1)
{
    static const char source[] =
        "kernel void k(global int *out) {\n"
        "  uint lane = get_sub_group_local_id();\n"
        "  out[get_global_id(0)] = sub_group_rotate((int)lane, 1);\n"
        "  if (get_global_id(0) == 0) {\n"
        "    out[64] = __OPENCL_C_VERSION__;\n"
        "    out[65] = CL_VERSION_3_1;\n"
        "    out[66] = (int)bitfield_extract_unsigned(0xf0u, 4, 4);\n"
        "    out[67] = dot((uchar4)(1, 2, 3, 4), (uchar4)(5, 6, 7, 8));\n"
        "  }\n"
        "}\n";
    cl_program program = test_build_program(context, device, source, "-cl-std=CL3.1");
    if (!program)
        return;
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    cl_mem out = buffer(68 * sizeof(cl_int), NULL);
    clSetKernelArg(kernel, 0, sizeof out, &out);
    size_t global = 64, local = 64, size = 0;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    cl_int r[68];
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL), CL_SUCCESS);
    CHECK(r[64] == 310 && r[65] == 310, "__OPENCL_C_VERSION__ %d, CL_VERSION_3_1 %d", r[64], r[65]);
    CHECK(r[66] == 15 && r[67] == 70, "bitfield_extract_unsigned %d, dot %d", r[66], r[67]);
    CHECK_ERR(clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                      sizeof size, &size, NULL), CL_SUCCESS);
    for (size_t i = 0; size && i < 64; i++) { /* lane l gets lane l + 1's id, the last lane lane 0's */
        size_t lane = i % size, in_group = size < 64 - (i - lane) ? size : 64 - (i - lane);
        CHECK(r[i] == (int)((lane + 1) % in_group), "work-item %zu: %d", i, r[i]);
    }
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

/* ---- the SPIR-V queries (cl_khr_spirv_queries, core in 3.1) ---------------------------------- */

static size_t query_list(cl_device_info param, void *out, size_t size)
{
    size_t got = 0;
    CHECK_ERR(clGetDeviceInfo(device, param, 0, NULL, &got), CL_SUCCESS);
    CHECK(got <= size, "param 0x%x: %zu bytes", param, got);
    CHECK_ERR(clGetDeviceInfo(device, param, size, out, NULL), CL_SUCCESS);
    return got;
}

static bool has_name(const char *const *names, size_t count, const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (names[i] && strcmp(names[i], name) == 0)
            return true;
    return false;
}

TEST(spirv_queries)
{
    const char *names[64];
    size_t n = query_list(SPIRV_EXTENDED_INSTRUCTION_SETS, names, sizeof names) / sizeof *names;
    CHECK(n == 1 && has_name(names, n, "OpenCL.std"));
    n = query_list(SPIRV_EXTENSIONS, names, sizeof names) / sizeof *names;
    /* one for each extension the device reports that has a SPIR-V side */
    static const struct { const char *extension, *spirv; } pairs[] = {
        { "cl_khr_subgroup_rotate", "SPV_KHR_subgroup_rotate" },
        { "cl_khr_integer_dot_product", "SPV_KHR_integer_dot_product" },
        { "cl_khr_extended_bit_ops", "SPV_KHR_bit_instructions" },
        { "cl_khr_expect_assume", "SPV_KHR_expect_assume" },
        { "cl_khr_kernel_clock", "SPV_KHR_shader_clock" },
        { "cl_khr_spirv_linkonce_odr", "SPV_KHR_linkonce_odr" },
        { "cl_khr_spirv_no_integer_wrap_decoration", "SPV_KHR_no_integer_wrap_decoration" },
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        CHECK(reports_extension(pairs[i].extension) == has_name(names, n, pairs[i].spirv), "%s and %s",
              pairs[i].extension, pairs[i].spirv);
    cl_uint caps[128];
    n = query_list(SPIRV_CAPABILITIES, caps, sizeof caps) / sizeof *caps;
    /* Addresses, Linkage, Kernel, Vector16, Float16Buffer, Int16, Int8, Int64,
     * Groups, GenericPointer, ImageBasic, GroupNonUniformRotateKHR, ShaderClockKHR */
    static const cl_uint required[] = { 4, 5, 6, 7, 8, 22, 39, 11, 18, 38, 13, 6026, 5055 };
    for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
        bool found = false;
        for (size_t j = 0; j < n; j++)
            found |= caps[j] == required[i];
        CHECK(found, "capability %u not reported", required[i]);
    }
    /* a short buffer */
    CHECK_ERR(clGetDeviceInfo(device, SPIRV_CAPABILITIES, sizeof(cl_uint), caps, NULL), CL_INVALID_VALUE);
}

/* ---- a __local argument of no bytes ------------------------------------------------ */

TEST(zero_size_local_argument)
{
    static const char source[] =
        "kernel void k(local int *nothing, local int *t, global int *out) {\n"
        "  t[get_local_id(0)] = (int)get_global_id(0);\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  out[get_global_id(0)] = t[get_local_size(0) - 1 - get_local_id(0)];\n"
        "}\n";
    cl_program program = test_build_program(context, device, source, NULL);
    if (!program)
        return;
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    cl_mem out = buffer(64 * sizeof(cl_int), NULL);
    CHECK_ERR(clSetKernelArg(kernel, 0, 0, NULL), CL_SUCCESS); /* OpenCL 3.1: no memory for it */
    CHECK_ERR(clSetKernelArg(kernel, 1, 16 * sizeof(cl_int), NULL), CL_SUCCESS);
    CHECK_ERR(clSetKernelArg(kernel, 2, sizeof out, &out), CL_SUCCESS);
    size_t global = 64, local = 16, used = 1;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    cl_int r[64];
    CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 64; i++)
        CHECK(r[i] == (i / 16) * 16 + 15 - i % 16, "out[%d] = %d", i, r[i]);
    CHECK_ERR(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used, NULL),
              CL_SUCCESS);
    CHECK(used >= 16 * sizeof(cl_int) && used < 16 * sizeof(cl_int) + 256, "local memory %zu bytes", used);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

/* ---- the dispatch table's OpenCL 3.1 entry ------------------------------------------------ */

typedef cl_int(CL_API_CALL *suggest_fn)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                                        size_t *);

/* A loader of OpenCL 3.1 calls clGetKernelSuggestedLocalWorkSize through the
 * entry after the 3.0 ones of the table every handle points to. */
TEST(dispatch_3_1)
{
    const cl_icd_dispatch *table = *(const cl_icd_dispatch *const *)queue;
    suggest_fn suggest = *(const suggest_fn *)(table + 1);
    CHECK(suggest != NULL);
    if (!suggest)
        return;
    cl_program program = test_build_program(context, device, local_size_source, "-cl-std=CL3.0");
    if (!program)
        return;
    cl_int err, unused = 0;
    cl_kernel kernel = clCreateKernel(program, "sizes", &err);
    cl_mem out = buffer(3 * sizeof(cl_uint), NULL);
    clSetKernelArg(kernel, 0, sizeof out, &out);
    clSetKernelArg(kernel, 1, sizeof unused, &unused);
    size_t global[2] = { 1000, 30 }, local[2] = { 0 }, local_khr[2] = { 0 };
    clGetKernelSuggestedLocalWorkSizeKHR_fn khr = (clGetKernelSuggestedLocalWorkSizeKHR_fn)
        clGetExtensionFunctionAddressForPlatform(platform, "clGetKernelSuggestedLocalWorkSizeKHR");
    CHECK_ERR(suggest(queue, kernel, 2, NULL, global, local), CL_SUCCESS);
    CHECK_ERR(khr(queue, kernel, 2, NULL, global, local_khr), CL_SUCCESS);
    CHECK(local[0] == local_khr[0] && local[1] == local_khr[1] && local[0] >= 1);
    CHECK_ERR(suggest(queue, NULL, 2, NULL, global, local), CL_INVALID_KERNEL);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

/* ---- cl_khr_kernel_clock ------------------------------------------------------------ */

static uint64_t host_clock_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Each clock, read twice by every work-item, never goes back; the CPU
 * device's is the host's CLOCK_MONOTONIC in nanoseconds (docs/opencl-3.1.md),
 * so its readings lie between the host's before and after the launch. */
TEST(kernel_clock)
{
    cl_bitfield caps = 0;
    CHECK_ERR(clGetDeviceInfo(device, KERNEL_CLOCK_CAPABILITIES, sizeof caps, &caps, NULL), CL_SUCCESS);
    CHECK(caps == 7, "scopes 0x%llx (device, work-group and sub-group: 7)", (unsigned long long)caps);
    CHECK(reports_feature("__opencl_c_kernel_clock_scope_device"));
    static const char source[] =
        "kernel void k(global ulong *out) {\n"
        "  size_t i = get_global_id(0) * 8;\n"
        "#if defined(cl_khr_kernel_clock) && defined(__opencl_c_kernel_clock_scope_device) && \\\n"
        "    defined(__opencl_c_kernel_clock_scope_work_group) && defined(__opencl_c_kernel_clock_scope_sub_group)\n"
        "  out[i + 0] = clock_read_device();\n"
        "  uint2 h = clock_read_hilo_device();\n"
        "  out[i + 1] = as_ulong(h);\n"
        "  out[i + 2] = clock_read_work_group();\n"
        "  out[i + 3] = as_ulong(clock_read_hilo_work_group());\n"
        "  out[i + 4] = clock_read_sub_group();\n"
        "  out[i + 5] = as_ulong(clock_read_hilo_sub_group());\n"
        "  out[i + 6] = (ulong)h.hi << 32 | h.lo;\n"
        "  out[i + 7] = clock_read_device();\n"
        "#endif\n"
        "}\n";
    const char *stds[] = { NULL, "-cl-std=CL3.0" };
    for (size_t s = 0; s < 2; s++) {
        cl_program program = test_build_program(context, device, source, stds[s]);
        if (!program)
            return;
        cl_int err;
        cl_kernel kernel = clCreateKernel(program, "k", &err);
        enum { N = 256 };
        cl_mem out = buffer(N * 8 * sizeof(cl_ulong), NULL);
        clSetKernelArg(kernel, 0, sizeof out, &out);
        size_t global = N;
        cl_ulong *r = calloc(N * 8, sizeof *r);
        uint64_t before = host_clock_ns();
        CHECK_ERR(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, N * 8 * sizeof *r, r, 0, NULL, NULL), CL_SUCCESS);
        uint64_t after = host_clock_ns();
        for (size_t i = 0; i < N; i++) {
            const cl_ulong *w = r + i * 8;
            CHECK(w[0] >= before && w[7] <= after, "work-item %zu: %llu..%llu outside the launch %llu..%llu", i,
                  (unsigned long long)w[0], (unsigned long long)w[7], (unsigned long long)before,
                  (unsigned long long)after);
            for (int k = 1; k < 6; k++)
                CHECK(w[k] >= w[k - 1], "work-item %zu: reading %d (%llu) before reading %d", i, k,
                      (unsigned long long)w[k], k - 1);
            CHECK(w[6] == w[1] && w[7] >= w[5], "work-item %zu: hilo %llu, read as ulong %llu", i,
                  (unsigned long long)w[6], (unsigned long long)w[1]);
        }
        free(r);
        clReleaseMemObject(out);
        clReleaseKernel(kernel);
        clReleaseProgram(program);
    }
}

/* ---- cl_khr_work_group_uniform_arithmetic ------------------------------------------------ */

TEST(work_group_uniform_arithmetic)
{
    CHECK(reports_extension("cl_khr_work_group_uniform_arithmetic"));
    static const char source[] =
        "kernel void k(global const uint *in, global uint *out, global float *f) {\n"
        "#ifdef cl_khr_work_group_uniform_arithmetic\n"
        "  size_t i = get_global_id(0), n = get_global_size(0);\n"
        "  uint x = in[i];\n"
        "  out[0 * n + i] = work_group_reduce_and(x);\n"
        "  out[1 * n + i] = work_group_scan_inclusive_or(x);\n"
        "  out[2 * n + i] = work_group_scan_exclusive_xor(x);\n"
        "  out[3 * n + i] = work_group_reduce_mul(x | 1);\n"
        "  out[4 * n + i] = (uint)work_group_scan_exclusive_mul((long)(x & 3) + 1);\n"
        "  out[5 * n + i] = work_group_scan_inclusive_logical_and((int)(x & 7));\n"
        "  out[6 * n + i] = work_group_reduce_logical_or((int)(i == 17)) != 0;\n"
        "  out[7 * n + i] = work_group_scan_exclusive_logical_xor((int)(x & 1)) != 0;\n"
        "  f[i] = work_group_scan_inclusive_mul(1.0f + (float)(i % 2));\n"
        "#endif\n"
        "}\n";
    cl_program program = test_build_program(context, device, source, "-cl-std=CL2.0");
    if (!program)
        return;
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    enum { N = 32 };
    cl_uint in[N], out[8 * N];
    cl_float f[N];
    uint64_t state = 99;
    for (int i = 0; i < N; i++)
        in[i] = (cl_uint)next_random(&state) | (i == 5 ? 0 : 0x10000000u);
    cl_mem min = buffer(sizeof in, in), mout = buffer(sizeof out, NULL), mf = buffer(sizeof f, NULL);
    clSetKernelArg(kernel, 0, sizeof min, &min);
    clSetKernelArg(kernel, 1, sizeof mout, &mout);
    clSetKernelArg(kernel, 2, sizeof mf, &mf);
    size_t global = N;
    CHECK_ERR(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &global, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, mout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(queue, mf, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL), CL_SUCCESS);
    cl_uint all_and = ~0u, or = 0, xor = 0, mul = 1;
    uint64_t lmul = 1;
    int land = 1, lxor = 0;
    float fmul = 1;
    for (int i = 0; i < N; i++) {
        all_and &= in[i];
        mul *= in[i] | 1;
    }
    for (int i = 0; i < N; i++) {
        or |= in[i];
        land = land && (in[i] & 7);
        fmul *= 1.0f + (float)(i % 2);
        CHECK(out[i] == all_and, "reduce_and at %d", i);
        CHECK(out[N + i] == or, "scan_inclusive_or at %d", i);
        CHECK(out[2 * N + i] == xor, "scan_exclusive_xor at %d", i);
        CHECK(out[3 * N + i] == mul, "reduce_mul at %d", i);
        CHECK(out[4 * N + i] == (cl_uint)lmul, "scan_exclusive_mul (long) at %d", i);
        CHECK((out[5 * N + i] != 0) == land, "scan_inclusive_logical_and at %d", i);
        CHECK(out[6 * N + i] == 1, "reduce_logical_or at %d", i);
        CHECK(out[7 * N + i] == (cl_uint)lxor, "scan_exclusive_logical_xor at %d", i);
        CHECK(f[i] == fmul, "scan_inclusive_mul (float) at %d: %g, not %g", i, f[i], fmul);
        xor ^= in[i];
        lmul *= (uint64_t)(in[i] & 3) + 1;
        lxor ^= (int)(in[i] & 1);
    }
    clReleaseMemObject(min);
    clReleaseMemObject(mout);
    clReleaseMemObject(mf);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

int main(int argc, char **argv)
{
    if (!test_open_cpu_device(&platform, &device, &context))
        return 1;
    queue = clCreateCommandQueueWithProperties(context, device, NULL, NULL);
    test_run(argc, argv);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return test_summary();
}
