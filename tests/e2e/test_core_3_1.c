/*
 * What OpenCL 3.1 made core, as extensions the CPU device reports: the
 * device and driver UUIDs (cl_khr_device_uuid), the suggested local work
 * size (cl_khr_suggested_local_work_size), the integer dot products
 * (cl_khr_integer_dot_product) and the extended bit operations
 * (cl_khr_extended_bit_ops), each built-in checked against C on values
 * that include the edges (saturation, fields at either end of the type).
 *
 *   usage: test_core_3_1 [case|--list]   (the cases: test_core_3_1.list; none: all)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdint.h>
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
