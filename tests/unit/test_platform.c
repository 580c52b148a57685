/*
 * The platform, its device and the ICD entry points (api/platform.c,
 * api/device.c, api/icd.c), through libmosaic.so linked directly: every
 * query answers, with the size it announces, and the answers agree with each
 * other and with the specification's requirements; bad handles and
 * arguments get the exact error codes.
 */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEST_LIST "test_platform.list"
#include "test.h"

static cl_platform_id platform;
static cl_device_id device;

/* Something that is not an OpenCL object: readable memory with no valid tag. */
static uint64_t junk[32];

/* ---- helpers ------------------------------------------------------------ */

static char *device_string(cl_device_info param)
{
    size_t size = 0;
    if (clGetDeviceInfo(device, param, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return NULL;
    char *s = malloc(size);
    if (clGetDeviceInfo(device, param, size, s, NULL) != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    return s;
}

static cl_ulong device_ulong(cl_device_info param, size_t size)
{
    cl_ulong v = 0; /* little-endian: smaller types land in the low bytes */
    CHECK_ERR(clGetDeviceInfo(device, param, size, &v, NULL), CL_SUCCESS);
    return v;
}
#define DEV_UINT(p) ((cl_uint)device_ulong((p), sizeof(cl_uint)))
#define DEV_BOOL(p) ((cl_bool)device_ulong((p), sizeof(cl_bool)))
#define DEV_SIZE(p) ((size_t)device_ulong((p), sizeof(size_t)))
#define DEV_ULONG(p) (device_ulong((p), sizeof(cl_ulong)))

static bool has_word(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = list; p && (p = strstr(p, word)); p += len)
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return true;
    return false;
}

/* The space-separated list `names` holds exactly the names of `list`, in order. */
static bool names_match(const char *names, const cl_name_version *list, size_t count)
{
    const char *p = names;
    for (size_t i = 0; i < count; i++) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (len == 0 || strlen(list[i].name) != len || strncmp(p, list[i].name, len) != 0)
            return false;
        p += len;
    }
    while (*p == ' ')
        p++;
    return *p == '\0';
}

/* ---- every device query ----------------------------------------------------- */

enum kind { SCALAR, STRING, ARRAY };
struct query { cl_device_info param; const char *name; enum kind kind; size_t size; };
#define Q(p, k, s) { p, #p, k, s }

static const struct query device_queries[] = {
    Q(CL_DEVICE_TYPE, SCALAR, sizeof(cl_device_type)),
    Q(CL_DEVICE_VENDOR_ID, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_COMPUTE_UNITS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_MAX_WORK_ITEM_SIZES, ARRAY, sizeof(size_t)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_CLOCK_FREQUENCY, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_ADDRESS_BITS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_READ_IMAGE_ARGS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, SCALAR, sizeof(cl_ulong)),
    Q(CL_DEVICE_IMAGE2D_MAX_WIDTH, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE2D_MAX_HEIGHT, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_WIDTH, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_HEIGHT, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_DEPTH, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE_SUPPORT, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_SAMPLERS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_PARAMETER_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_MEM_BASE_ADDR_ALIGN, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_SINGLE_FP_CONFIG, SCALAR, sizeof(cl_device_fp_config)),
    Q(CL_DEVICE_DOUBLE_FP_CONFIG, SCALAR, sizeof(cl_device_fp_config)),
    Q(CL_DEVICE_HALF_FP_CONFIG, SCALAR, sizeof(cl_device_fp_config)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, SCALAR, sizeof(cl_device_mem_cache_type)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, SCALAR, sizeof(cl_ulong)),
    Q(CL_DEVICE_GLOBAL_MEM_SIZE, SCALAR, sizeof(cl_ulong)),
    Q(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, SCALAR, sizeof(cl_ulong)),
    Q(CL_DEVICE_MAX_CONSTANT_ARGS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_LOCAL_MEM_TYPE, SCALAR, sizeof(cl_device_local_mem_type)),
    Q(CL_DEVICE_LOCAL_MEM_SIZE, SCALAR, sizeof(cl_ulong)),
    Q(CL_DEVICE_ERROR_CORRECTION_SUPPORT, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_HOST_UNIFIED_MEMORY, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_PROFILING_TIMER_RESOLUTION, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_ENDIAN_LITTLE, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_AVAILABLE, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_COMPILER_AVAILABLE, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_LINKER_AVAILABLE, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_EXECUTION_CAPABILITIES, SCALAR, sizeof(cl_device_exec_capabilities)),
    Q(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, SCALAR, sizeof(cl_command_queue_properties)),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, SCALAR, sizeof(cl_command_queue_properties)),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_ON_DEVICE_QUEUES, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_ON_DEVICE_EVENTS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_BUILT_IN_KERNELS, STRING, 0),
    Q(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, ARRAY, sizeof(cl_name_version)),
    Q(CL_DEVICE_PLATFORM, SCALAR, sizeof(cl_platform_id)),
    Q(CL_DEVICE_NAME, STRING, 0),
    Q(CL_DEVICE_VENDOR, STRING, 0),
    Q(CL_DRIVER_VERSION, STRING, 0),
    Q(CL_DEVICE_PROFILE, STRING, 0),
    Q(CL_DEVICE_VERSION, STRING, 0),
    Q(CL_DEVICE_NUMERIC_VERSION, SCALAR, sizeof(cl_version)),
    Q(CL_DEVICE_OPENCL_C_VERSION, STRING, 0),
    Q(CL_DEVICE_OPENCL_C_ALL_VERSIONS, ARRAY, sizeof(cl_name_version)),
    Q(CL_DEVICE_OPENCL_C_FEATURES, ARRAY, sizeof(cl_name_version)),
    Q(CL_DEVICE_EXTENSIONS, STRING, 0),
    Q(CL_DEVICE_EXTENSIONS_WITH_VERSION, ARRAY, sizeof(cl_name_version)),
    Q(CL_DEVICE_PRINTF_BUFFER_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_PARENT_DEVICE, SCALAR, sizeof(cl_device_id)),
    Q(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PARTITION_PROPERTIES, ARRAY, sizeof(cl_device_partition_property)),
    Q(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, SCALAR, sizeof(cl_device_affinity_domain)),
    Q(CL_DEVICE_PARTITION_TYPE, ARRAY, sizeof(cl_device_partition_property)),
    Q(CL_DEVICE_REFERENCE_COUNT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_SVM_CAPABILITIES, SCALAR, sizeof(cl_device_svm_capabilities)),
    Q(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_PIPE_ARGS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PIPE_MAX_PACKET_SIZE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PIPE_SUPPORT, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_IL_VERSION, STRING, 0),
    Q(CL_DEVICE_ILS_WITH_VERSION, ARRAY, sizeof(cl_name_version)),
    Q(CL_DEVICE_MAX_NUM_SUB_GROUPS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, SCALAR, sizeof(cl_device_atomic_capabilities)),
    Q(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, SCALAR, sizeof(cl_device_atomic_capabilities)),
    Q(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, SCALAR, sizeof(cl_device_device_enqueue_capabilities)),
    Q(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, STRING, 0),
};

TEST(every_device_query)
{
    for (size_t i = 0; i < sizeof device_queries / sizeof device_queries[0]; i++) {
        const struct query *q = &device_queries[i];
        size_t size = (size_t)-1;
        cl_int err = clGetDeviceInfo(device, q->param, 0, NULL, &size);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "%s: error %d\n", q->name, err);
            CHECK(!"every device query answers");
            continue;
        }
        switch (q->kind) {
        case SCALAR:
            if (size != q->size)
                fprintf(stderr, "%s: size %zu, expected %zu\n", q->name, size, q->size);
            CHECK(size == q->size);
            break;
        case STRING:
            CHECK(size >= 1);
            break;
        case ARRAY:
            if (size % q->size != 0)
                fprintf(stderr, "%s: size %zu is not a multiple of %zu\n", q->name, size, q->size);
            CHECK(size % q->size == 0);
            break;
        }
        /* the value: exactly the announced size, with a canary after it */
        unsigned char *buf = malloc(size + 16);
        memset(buf, 0xa5, size + 16);
        size_t got = 0;
        CHECK_ERR(clGetDeviceInfo(device, q->param, size, buf, &got), CL_SUCCESS);
        CHECK(got == size);
        CHECK(buf[size] == 0xa5 && buf[size + 15] == 0xa5);
        if (q->kind == STRING) {
            CHECK(size >= 1 && buf[size - 1] == '\0');
            CHECK(strlen((char *)buf) + 1 == size);
        }
        /* one byte short: CL_INVALID_VALUE */
        if (size > 0)
            CHECK_ERR(clGetDeviceInfo(device, q->param, size - 1, buf, NULL), CL_INVALID_VALUE);
        /* a larger buffer is fine; value_size_ret may be NULL */
        CHECK_ERR(clGetDeviceInfo(device, q->param, size + 16, buf, NULL), CL_SUCCESS);
        free(buf);
    }
}

/* ---- what the answers say, and whether they agree -------------------------- */

/* The vendor is the processor's, as it names itself (CPUID leaf 0, without
 * its padding), with its maker's PCI vendor ID, and never the string of a
 * vendor's GPU driver, which clients key code paths off (docs/devices.md,
 * "Identity"). */
static void check_vendor(const char *vendor, cl_uint vendor_id)
{
    static const char *const driver_vendors[] = {
        "Advanced Micro Devices, Inc.", "AMD", "Intel(R) Corporation", "Intel", "Intel Inc.", "NVIDIA Corporation",
    };
    for (size_t i = 0; vendor && i < sizeof driver_vendors / sizeof driver_vendors[0]; i++)
        CHECK(strcmp(vendor, driver_vendors[i]) != 0, "CL_DEVICE_VENDOR \"%s\" is a GPU driver's", vendor);
    CHECK(vendor_id != 0x1002 && vendor_id != 0x10de, "CL_DEVICE_VENDOR_ID 0x%x is a GPU maker's", vendor_id);
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax, ebx, ecx, edx;
    char id[13] = "";
    if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
        memcpy(id, &ebx, 4);
        memcpy(id + 4, &edx, 4);
        memcpy(id + 8, &ecx, 4);
    }
    const char *name = id;
    while (*name == ' ')
        name++;
    size_t len = strlen(name);
    while (len && name[len - 1] == ' ')
        len--;
    CHECK(vendor && strlen(vendor) == len && strncmp(vendor, name, len) == 0, "CL_DEVICE_VENDOR \"%s\", CPUID \"%s\"",
          vendor ? vendor : "(none)", id);
    if (!strcmp(id, "GenuineIntel"))
        CHECK(vendor_id == 0x8086, "an Intel processor, CL_DEVICE_VENDOR_ID 0x%x", vendor_id);
    if (!strcmp(id, "AuthenticAMD"))
        CHECK(vendor_id == 0x1022, "an AMD processor, CL_DEVICE_VENDOR_ID 0x%x", vendor_id);
#endif
}

TEST(device_identity)
{
    CHECK(DEV_ULONG(CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU);
    cl_platform_id p = NULL;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof p, &p, NULL), CL_SUCCESS);
    CHECK(p == platform);
    cl_device_id parent = (cl_device_id)junk;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL), CL_SUCCESS);
    CHECK(parent == NULL);
    CHECK(DEV_UINT(CL_DEVICE_REFERENCE_COUNT) == 1);
    CHECK(DEV_BOOL(CL_DEVICE_AVAILABLE) == CL_TRUE);
    CHECK(DEV_BOOL(CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE);
    CHECK(DEV_BOOL(CL_DEVICE_LINKER_AVAILABLE) == CL_TRUE);

    char *name = device_string(CL_DEVICE_NAME);
    CHECK(name && name[0] != '\0');
    char *vendor = device_string(CL_DEVICE_VENDOR);
    CHECK(vendor && vendor[0] != '\0');
    check_vendor(vendor, DEV_UINT(CL_DEVICE_VENDOR_ID));
    char *profile = device_string(CL_DEVICE_PROFILE);
    CHECK(profile && strcmp(profile, "FULL_PROFILE") == 0);
    char *version = device_string(CL_DEVICE_VERSION);
    CHECK(version && strncmp(version, "OpenCL 3.1 ", 11) == 0);
    CHECK(DEV_UINT(CL_DEVICE_NUMERIC_VERSION) == CL_MAKE_VERSION(3, 1, 0));
    char *c_version = device_string(CL_DEVICE_OPENCL_C_VERSION);
    /* 2.0: the device has every feature OpenCL C 2.0 requires (pipes and device-side enqueue included) */
    CHECK(c_version && strncmp(c_version, "OpenCL C 2.0 ", 13) == 0);
    char *driver = device_string(CL_DRIVER_VERSION);
    CHECK(driver && driver[0] != '\0');
    char *conformance = device_string(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED);
    int y, m, d, n;
    char tail;
    CHECK(conformance && sscanf(conformance, "v%4d-%2d-%2d-%2d%c", &y, &m, &d, &n, &tail) == 4);
    char *builtins = device_string(CL_DEVICE_BUILT_IN_KERNELS);
    CHECK(builtins && builtins[0] == '\0');
    /* SPIR-V 1.0 to 1.4 (docs/spirv.md) */
    char *il = device_string(CL_DEVICE_IL_VERSION);
    CHECK(il && !strcmp(il, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4"));
    size_t size = 1;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_ILS_WITH_VERSION, 0, NULL, &size), CL_SUCCESS);
    CHECK(size == 5 * sizeof(cl_name_version));
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, 0, NULL, &size), CL_SUCCESS);
    CHECK(size == 0);

    /* OpenCL C versions: 1.0, 1.1, 1.2, 2.0, 3.0 and 3.1 */
    cl_name_version versions[16];
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof versions, versions, &size), CL_SUCCESS);
    size_t count = size / sizeof versions[0];
    bool v12 = false, v20 = false, v30 = false, v31 = false;
    for (size_t i = 0; i < count; i++) {
        CHECK(strcmp(versions[i].name, "OpenCL C") == 0);
        v12 |= versions[i].version == CL_MAKE_VERSION(1, 2, 0);
        v20 |= versions[i].version == CL_MAKE_VERSION(2, 0, 0);
        v30 |= versions[i].version == CL_MAKE_VERSION(3, 0, 0);
        v31 |= versions[i].version == CL_MAKE_VERSION(3, 1, 0);
    }
    CHECK(count == 6 && v12 && v20 && v30 && v31);
    free(name), free(vendor), free(profile), free(version), free(c_version), free(driver);
    free(conformance), free(builtins), free(il);
}

TEST(extensions_and_features)
{
    char *ext = device_string(CL_DEVICE_EXTENSIONS);
    CHECK(ext != NULL);
    if (!ext)
        return;
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &size), CL_SUCCESS);
    cl_name_version *list = malloc(size + 1);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list, NULL), CL_SUCCESS);
    CHECK(names_match(ext, list, size / sizeof *list));
    for (size_t i = 0; i < size / sizeof *list; i++)
        CHECK(list[i].version != 0 && strlen(list[i].name) < CL_NAME_VERSION_MAX_NAME_SIZE);
    free(list);

    /* what must and must not be there */
    CHECK(has_word(ext, "cl_khr_icd"));
    CHECK(has_word(ext, "cl_khr_byte_addressable_store"));
    CHECK(has_word(ext, "cl_khr_global_int32_base_atomics"));
    CHECK(has_word(ext, "cl_khr_local_int32_extended_atomics"));
    /* 3D image writes come with images (builtins/images.cl) */
    CHECK(has_word(ext, "cl_khr_3d_image_writes") == (DEV_BOOL(CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE));
    CHECK(has_word(ext, "cl_khr_fp16")); /* docs/half.md */
    CHECK(!has_word(ext, "cl_khr_gl_sharing"));
    CHECK(has_word(ext, "cl_khr_subgroups")); /* with forward progress (docs/subgroups.md) */
    CHECK(has_word(ext, "cl_khr_il_program")); /* docs/spirv.md */

    /* features */
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size), CL_SUCCESS);
    cl_name_version *features = malloc(size + 1);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, features, NULL), CL_SUCCESS);
    size_t nf = size / sizeof *features;
    bool f_fp64 = false, f_int64 = false, f_generic = false, f_globals = false, f_acq_rel = false;
    bool f_seq_cst = false, f_scope_device = false, f_scope_all = false, f_images = false, f_pipes = false;
    bool f_subgroups = false, f_enqueue = false, f_collective = false, f_rw_images = false, f_fp16 = false;
    for (size_t i = 0; i < nf; i++) {
        const char *f = features[i].name;
        CHECK(strncmp(f, "__opencl_c_", 11) == 0);
        CHECK(features[i].version == CL_MAKE_VERSION(3, 0, 0));
        f_fp64 |= !strcmp(f, "__opencl_c_fp64");
        f_fp16 |= !strcmp(f, "__opencl_c_fp16");
        f_int64 |= !strcmp(f, "__opencl_c_int64");
        f_generic |= !strcmp(f, "__opencl_c_generic_address_space");
        f_globals |= !strcmp(f, "__opencl_c_program_scope_global_variables");
        f_acq_rel |= !strcmp(f, "__opencl_c_atomic_order_acq_rel");
        f_seq_cst |= !strcmp(f, "__opencl_c_atomic_order_seq_cst");
        f_scope_device |= !strcmp(f, "__opencl_c_atomic_scope_device");
        f_scope_all |= !strcmp(f, "__opencl_c_atomic_scope_all_devices");
        f_images |= !strcmp(f, "__opencl_c_images") || !strcmp(f, "__opencl_c_3d_image_writes");
        f_rw_images |= !strcmp(f, "__opencl_c_read_write_images");
        f_pipes |= !strcmp(f, "__opencl_c_pipes");
        f_subgroups |= !strcmp(f, "__opencl_c_subgroups");
        f_enqueue |= !strcmp(f, "__opencl_c_device_enqueue");
        f_collective |= !strcmp(f, "__opencl_c_work_group_collective_functions");
    }
    free(features);
    CHECK(f_int64); /* required by the full profile */

    /* features <-> device queries */
    cl_device_fp_config dbl = DEV_ULONG(CL_DEVICE_DOUBLE_FP_CONFIG);
    CHECK(f_fp64 == has_word(ext, "cl_khr_fp64"));
    CHECK(f_fp64 == (dbl != 0));
    CHECK(f_fp16 && f_fp16 == has_word(ext, "cl_khr_fp16") && DEV_ULONG(CL_DEVICE_HALF_FP_CONFIG) != 0);
    if (dbl) {
        /* the spec's minimum plus OpenCL 1.0's rounding modes, which the CTS
         * requires (test_api min_max_double_fp_config) */
        cl_device_fp_config need = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                                   CL_FP_INF_NAN | CL_FP_DENORM;
        CHECK((dbl & need) == need);
        CHECK(DEV_UINT(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) != 0);
        CHECK(DEV_UINT(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE) != 0);
    }
    CHECK(f_generic == DEV_BOOL(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT));
    CHECK(f_globals == (DEV_SIZE(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) != 0));
    CHECK(f_globals == (DEV_SIZE(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE) != 0));
    if (f_globals)
        CHECK(DEV_SIZE(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) >= 64 * 1024);
    CHECK(f_images == DEV_BOOL(CL_DEVICE_IMAGE_SUPPORT));
    CHECK(f_rw_images == (DEV_UINT(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) != 0));
    CHECK(f_pipes == DEV_BOOL(CL_DEVICE_PIPE_SUPPORT));
    CHECK(f_subgroups == (DEV_UINT(CL_DEVICE_MAX_NUM_SUB_GROUPS) != 0));
    CHECK(f_enqueue == (DEV_ULONG(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) != 0));
    CHECK(f_collective == DEV_BOOL(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT));

    cl_device_atomic_capabilities mem = DEV_ULONG(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
    cl_device_atomic_capabilities fence = DEV_ULONG(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
    CHECK((mem & (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP)) ==
          (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
    cl_device_atomic_capabilities fence_min =
        CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
    CHECK((fence & fence_min) == fence_min);
    CHECK(f_acq_rel == ((mem & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) != 0));
    CHECK(f_seq_cst == ((mem & CL_DEVICE_ATOMIC_ORDER_SEQ_CST) != 0));
    CHECK(f_scope_device == ((mem & CL_DEVICE_ATOMIC_SCOPE_DEVICE) != 0));
    CHECK(f_scope_all == ((mem & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) != 0));
    cl_device_atomic_capabilities caps[2] = { mem, fence };
    for (int i = 0; i < 2; i++) { /* the implications the CTS checks */
        cl_device_atomic_capabilities c = caps[i];
        CHECK(!(c & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) || (c & CL_DEVICE_ATOMIC_SCOPE_DEVICE));
        CHECK(!(c & CL_DEVICE_ATOMIC_SCOPE_DEVICE) || (c & CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
        CHECK(!(c & CL_DEVICE_ATOMIC_ORDER_SEQ_CST) || (c & CL_DEVICE_ATOMIC_ORDER_ACQ_REL));
        CHECK(!(c & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) || (c & CL_DEVICE_ATOMIC_ORDER_RELAXED));
    }
    CHECK(!(mem & CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM)); /* work-item scope is for fences only */
    free(ext);
}

TEST(unsupported_features)
{
    /* images (supported: at least OpenCL 3.0's full-profile minimums; tests/unit/test_image_objects.c) */
    CHECK(DEV_BOOL(CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE);
    CHECK(DEV_UINT(CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
    CHECK(DEV_UINT(CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 64);
    CHECK(DEV_UINT(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) >= 64);
    CHECK(DEV_UINT(CL_DEVICE_MAX_SAMPLERS) >= 16);
    CHECK(DEV_UINT(CL_DEVICE_IMAGE_PITCH_ALIGNMENT) >= 1);
    CHECK(DEV_UINT(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT) >= 1);
    CHECK(DEV_SIZE(CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 16384 && DEV_SIZE(CL_DEVICE_IMAGE2D_MAX_HEIGHT) >= 16384);
    CHECK(DEV_SIZE(CL_DEVICE_IMAGE3D_MAX_WIDTH) >= 2048 && DEV_SIZE(CL_DEVICE_IMAGE3D_MAX_HEIGHT) >= 2048);
    CHECK(DEV_SIZE(CL_DEVICE_IMAGE3D_MAX_DEPTH) >= 2048);
    CHECK(DEV_SIZE(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) >= 65536 && DEV_SIZE(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) >= 2048);
    /* pipes (supported: the limits OpenCL requires at least) */
    CHECK(DEV_BOOL(CL_DEVICE_PIPE_SUPPORT) == CL_TRUE);
    CHECK(DEV_UINT(CL_DEVICE_MAX_PIPE_ARGS) >= 16);
    CHECK(DEV_UINT(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS) >= 1);
    CHECK(DEV_UINT(CL_DEVICE_PIPE_MAX_PACKET_SIZE) >= 1024);
    /* device-side enqueue is supported (tests/e2e/test_device_enqueue.c) */
    CHECK(DEV_ULONG(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) ==
          (CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT));
    CHECK(DEV_ULONG(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES) ==
          (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
    CHECK(DEV_UINT(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE) >= 16 * 1024);
    CHECK(DEV_UINT(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE) >= 256 * 1024);
    CHECK(DEV_UINT(CL_DEVICE_MAX_ON_DEVICE_QUEUES) >= 1);
    CHECK(DEV_UINT(CL_DEVICE_MAX_ON_DEVICE_EVENTS) >= 1024);
    /* sub-groups of 8 with forward progress (docs/subgroups.md); work-group collective functions */
    CHECK(DEV_UINT(CL_DEVICE_MAX_NUM_SUB_GROUPS) == (DEV_SIZE(CL_DEVICE_MAX_WORK_GROUP_SIZE) + 7) / 8);
    CHECK(DEV_BOOL(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS) == CL_TRUE);
    CHECK(DEV_BOOL(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE);
    /* half (docs/half.md): the spec's minimum is INF_NAN and one of nearest
     * or toward zero; Mosaic adds denormals and a correctly rounded fma */
    CHECK(DEV_ULONG(CL_DEVICE_HALF_FP_CONFIG) ==
          (CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA));
    CHECK(DEV_UINT(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) == DEV_UINT(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT));
    CHECK(DEV_UINT(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) == DEV_UINT(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT));
    /* partitioning (tests/e2e/test_subdevices.c goes further): a root
     * device; with two compute units or more, split equally or by counts */
    cl_uint units = DEV_UINT(CL_DEVICE_MAX_COMPUTE_UNITS);
    CHECK(DEV_UINT(CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == (units >= 2 ? units : 0));
    cl_device_partition_property props[4] = { 1, 1, 1, 1 };
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_PARTITION_PROPERTIES, sizeof props, props, &size), CL_SUCCESS);
    if (units >= 2)
        CHECK(size >= 2 * sizeof props[0] && props[0] == CL_DEVICE_PARTITION_EQUALLY &&
              props[1] == CL_DEVICE_PARTITION_BY_COUNTS);
    else
        CHECK(size == sizeof props[0] && props[0] == 0);
    CHECK((DEV_ULONG(CL_DEVICE_PARTITION_AFFINITY_DOMAIN) != 0) == (size == 3 * sizeof props[0]));
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_PARTITION_TYPE, sizeof props, props, &size), CL_SUCCESS);
    CHECK(size == 0 || (size == sizeof props[0] && props[0] == 0));
    /* SVM: every kind, host and device sharing one memory (api/svm.c) */
    CHECK(DEV_ULONG(CL_DEVICE_SVM_CAPABILITIES) ==
          (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_SYSTEM |
           CL_DEVICE_SVM_ATOMICS));
}

TEST(device_limits)
{
    cl_uint dims = DEV_UINT(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    CHECK(dims >= 3);
    size_t sizes[8] = { 0 };
    size_t size = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, &size), CL_SUCCESS);
    CHECK(size == dims * sizeof(size_t));
    size_t wg = DEV_SIZE(CL_DEVICE_MAX_WORK_GROUP_SIZE);
    CHECK(wg >= 1);
    for (cl_uint i = 0; i < dims && i < 8; i++)
        CHECK(sizes[i] >= 1 && sizes[i] <= wg);
    CHECK(sizes[0] >= 1 && sizes[1] >= 1 && sizes[2] >= 1);

    cl_uint cu = DEV_UINT(CL_DEVICE_MAX_COMPUTE_UNITS);
    CHECK(cu >= 1);
    CHECK(DEV_UINT(CL_DEVICE_ADDRESS_BITS) == sizeof(void *) * 8);
    CHECK(DEV_BOOL(CL_DEVICE_ENDIAN_LITTLE) == CL_TRUE);
    CHECK(DEV_BOOL(CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_TRUE);
    CHECK(DEV_BOOL(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT) == CL_TRUE);
    /* profiling reads CLOCK_MONOTONIC, as clGetHostTimer does */
    struct timespec res;
    CHECK(clock_getres(CLOCK_MONOTONIC, &res) == 0);
    size_t res_ns = (size_t)res.tv_sec * 1000000000u + (size_t)res.tv_nsec;
    CHECK(DEV_SIZE(CL_DEVICE_PROFILING_TIMER_RESOLUTION) == (res_ns ? res_ns : 1));
    CHECK(DEV_ULONG(CL_DEVICE_EXECUTION_CAPABILITIES) == (CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL));
    cl_command_queue_properties qp = DEV_ULONG(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    CHECK(qp == (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
    CHECK(DEV_SIZE(CL_DEVICE_PRINTF_BUFFER_SIZE) >= 1024 * 1024);
    size_t multiple = DEV_SIZE(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
    CHECK(multiple >= 1 && multiple <= wg);

    /* memory: the full profile minimums */
    cl_ulong global = DEV_ULONG(CL_DEVICE_GLOBAL_MEM_SIZE);
    cl_ulong alloc = DEV_ULONG(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    CHECK(global > 0 && alloc > 0 && alloc <= global);
    cl_ulong min_alloc = global / 4 > 128ull * 1024 * 1024 ? global / 4 : 128ull * 1024 * 1024;
    CHECK(alloc >= (min_alloc < global ? min_alloc : global));
    CHECK(DEV_ULONG(CL_DEVICE_LOCAL_MEM_SIZE) >= 32 * 1024);
    CHECK(DEV_ULONG(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) >= 64 * 1024);
    CHECK(DEV_UINT(CL_DEVICE_MAX_CONSTANT_ARGS) >= 8);
    CHECK(DEV_SIZE(CL_DEVICE_MAX_PARAMETER_SIZE) >= 1024);
    CHECK(DEV_UINT(CL_DEVICE_MEM_BASE_ADDR_ALIGN) >= 8 * sizeof(cl_long16));
    CHECK(DEV_UINT(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE) >= sizeof(cl_long16));
    cl_uint line = DEV_UINT(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
    CHECK(line >= 16 && (line & (line - 1)) == 0);
    cl_ulong cache = DEV_ULONG(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
    cl_device_mem_cache_type cache_type = (cl_device_mem_cache_type)DEV_UINT(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE);
    CHECK(cache_type == (cache ? CL_READ_WRITE_CACHE : CL_NONE));
    CHECK(DEV_UINT(CL_DEVICE_LOCAL_MEM_TYPE) == CL_GLOBAL);
    CHECK(DEV_BOOL(CL_DEVICE_ERROR_CORRECTION_SUPPORT) == CL_FALSE);

    /* floating point: the full-profile minimum for single precision */
    cl_device_fp_config sp = DEV_ULONG(CL_DEVICE_SINGLE_FP_CONFIG);
    CHECK((sp & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) == (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
    CHECK(!(sp & CL_FP_SOFT_FLOAT));

    /* vector widths: ones a kernel can declare (1, 2, 4, 8, 16), for each
     * type at least those of the wider types, which fill the same registers */
    static const cl_device_info widths[2][7] = {
        { CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
          CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
          CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
          CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF },
        { CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
          CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
          CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF },
    };
    for (int k = 0; k < 2; k++) {
        cl_uint w[7];
        for (int t = 0; t < 7; t++) {
            w[t] = DEV_UINT(widths[k][t]);
            CHECK(w[t] >= 1 && w[t] <= 16 && (w[t] & (w[t] - 1)) == 0, "vector width 0x%x: %u", widths[k][t], w[t]);
        }
        CHECK(w[0] >= w[1] && w[1] >= w[2] && w[2] >= w[3], "char %u short %u int %u long %u", w[0], w[1], w[2], w[3]);
        CHECK(w[4] >= w[5], "float %u double %u", w[4], w[5]);
        CHECK(w[6] == w[4], "half %u float %u (half runs in float lanes)", w[6], w[4]);
    }
    /* the work-group multiple: a whole number of float vectors */
    CHECK(multiple % DEV_UINT(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT) == 0);
}

TEST(device_errors)
{
    cl_device_type type;
    CHECK_ERR(clGetDeviceInfo(NULL, CL_DEVICE_TYPE, sizeof type, &type, NULL), CL_INVALID_DEVICE);
    CHECK_ERR(clGetDeviceInfo((cl_device_id)junk, CL_DEVICE_TYPE, sizeof type, &type, NULL), CL_INVALID_DEVICE);
    CHECK_ERR(clGetDeviceInfo((cl_device_id)platform, CL_DEVICE_TYPE, sizeof type, &type, NULL), CL_INVALID_DEVICE);
    CHECK_ERR(clGetDeviceInfo(device, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceInfo(device, 0x7fffffff, sizeof type, &type, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceInfo(device, CL_PLATFORM_NAME, sizeof type, &type, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_TYPE, 0, &type, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type - 1, &type, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_TYPE, 0, NULL, NULL), CL_SUCCESS);

    /* retain / release: root devices, no effect */
    CHECK_ERR(clRetainDevice(device), CL_SUCCESS);
    CHECK_ERR(clReleaseDevice(device), CL_SUCCESS);
    CHECK_ERR(clReleaseDevice(device), CL_SUCCESS);
    CHECK(DEV_UINT(CL_DEVICE_REFERENCE_COUNT) == 1);
    CHECK_ERR(clRetainDevice(NULL), CL_INVALID_DEVICE);
    CHECK_ERR(clReleaseDevice((cl_device_id)junk), CL_INVALID_DEVICE);

    /* sub-devices: invalid devices and properties (the rest: tests/e2e/test_subdevices.c) */
    cl_device_partition_property equally[] = { CL_DEVICE_PARTITION_EQUALLY, 1, 0 };
    cl_device_partition_property bogus[] = { 0x4321, 1, 0 };
    cl_device_id out[64];
    cl_uint n = 77, units = 0;
    CHECK_ERR(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL), CL_SUCCESS);
    CHECK_ERR(clCreateSubDevices(NULL, equally, 64, out, &n), CL_INVALID_DEVICE);
    CHECK_ERR(clCreateSubDevices((cl_device_id)junk, equally, 64, out, &n), CL_INVALID_DEVICE);
    CHECK_ERR(clCreateSubDevices(device, NULL, 64, out, &n), CL_INVALID_VALUE);
    CHECK_ERR(clCreateSubDevices(device, bogus, 64, out, &n), CL_INVALID_VALUE);
    CHECK(n == 77);
    if (units >= 2 && units <= 64) {
        CHECK_ERR(clCreateSubDevices(device, equally, 64, out, &n), CL_SUCCESS);
        CHECK(n == units);
        for (cl_uint i = 0; i < n; i++) {
            cl_device_id parent = NULL;
            CHECK_ERR(clGetDeviceInfo(out[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL), CL_SUCCESS);
            CHECK(parent == device);
            CHECK_ERR(clReleaseDevice(out[i]), CL_SUCCESS);
        }
    } else if (units < 2) {
        CHECK_ERR(clCreateSubDevices(device, equally, 64, out, &n), CL_DEVICE_PARTITION_FAILED);
    }

    /* timers: one clock for device and host */
    cl_ulong dev_t = 0, host_t = 0, host2 = 0;
    CHECK_ERR(clGetDeviceAndHostTimer(device, &dev_t, &host_t), CL_SUCCESS);
    CHECK(dev_t != 0 && dev_t == host_t);
    CHECK_ERR(clGetHostTimer(device, &host2), CL_SUCCESS);
    CHECK(host2 >= host_t);
    CHECK_ERR(clGetDeviceAndHostTimer(NULL, &dev_t, &host_t), CL_INVALID_DEVICE);
    CHECK_ERR(clGetDeviceAndHostTimer((cl_device_id)junk, &dev_t, &host_t), CL_INVALID_DEVICE);
    CHECK_ERR(clGetDeviceAndHostTimer(device, NULL, &host_t), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceAndHostTimer(device, &dev_t, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetHostTimer(NULL, &host_t), CL_INVALID_DEVICE);
    CHECK_ERR(clGetHostTimer(device, NULL), CL_INVALID_VALUE);
    cl_ulong res = 0;
    CHECK_ERR(clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof res, &res, NULL), CL_SUCCESS);
    CHECK(res >= 1 && res == DEV_SIZE(CL_DEVICE_PROFILING_TIMER_RESOLUTION)); /* one clock */

    /* a default device queue must be a device queue of the device */
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_ERR(err, CL_SUCCESS);
    CHECK_ERR(clSetDefaultDeviceCommandQueue(ctx, device, NULL), CL_INVALID_COMMAND_QUEUE);
    CHECK_ERR(clSetDefaultDeviceCommandQueue(NULL, device, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clSetDefaultDeviceCommandQueue(ctx, (cl_device_id)junk, NULL), CL_INVALID_DEVICE);
    clReleaseContext(ctx);
}

TEST(get_device_ids)
{
    cl_device_id d[4] = { NULL };
    cl_uint n = 0;
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 4, d, &n), CL_SUCCESS);
    CHECK(n == 1 && d[0] == device);
    n = 0;
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 0, NULL, &n), CL_SUCCESS);
    CHECK(n == 1);
    d[0] = NULL;
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, d, NULL), CL_SUCCESS);
    CHECK(d[0] == device);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU, 1, d, &n), CL_SUCCESS);
    CHECK(n == 1 && d[0] == device);
    n = 5;
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, d, &n), CL_DEVICE_NOT_FOUND);
    CHECK(n == 0);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ACCELERATOR, 1, d, &n), CL_DEVICE_NOT_FOUND);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CUSTOM, 1, d, &n), CL_DEVICE_NOT_FOUND);
    CHECK_ERR(clGetDeviceIDs(platform, 0, 1, d, &n), CL_INVALID_DEVICE_TYPE);
    CHECK_ERR(clGetDeviceIDs(platform, (cl_device_type)1 << 40, 1, d, &n), CL_INVALID_DEVICE_TYPE);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU | ((cl_device_type)1 << 20), 1, d, &n),
              CL_INVALID_DEVICE_TYPE);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 0, d, &n), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetDeviceIDs(NULL, CL_DEVICE_TYPE_ALL, 1, d, &n), CL_INVALID_PLATFORM);
    CHECK_ERR(clGetDeviceIDs((cl_platform_id)junk, CL_DEVICE_TYPE_ALL, 1, d, &n), CL_INVALID_PLATFORM);
    CHECK_ERR(clGetDeviceIDs((cl_platform_id)device, CL_DEVICE_TYPE_ALL, 1, d, &n), CL_INVALID_PLATFORM);
}

/* ---- platform ------------------------------------------------------------ */

static char *platform_string(cl_platform_info param)
{
    size_t size = 0;
    CHECK_ERR(clGetPlatformInfo(platform, param, 0, NULL, &size), CL_SUCCESS);
    if (size == 0)
        return NULL;
    char *s = malloc(size + 8);
    memset(s, 0x5a, size + 8);
    size_t got = 0;
    CHECK_ERR(clGetPlatformInfo(platform, param, size, s, &got), CL_SUCCESS);
    CHECK(got == size && s[size - 1] == '\0' && strlen(s) + 1 == size && s[size] == 0x5a);
    CHECK_ERR(clGetPlatformInfo(platform, param, size - 1, s, NULL), CL_INVALID_VALUE);
    return s;
}

TEST(platform_info)
{
    cl_platform_id p[3] = { NULL, NULL, NULL };
    cl_uint n = 0;
    CHECK_ERR(clGetPlatformIDs(0, NULL, &n), CL_SUCCESS);
    CHECK(n == 1);
    CHECK_ERR(clGetPlatformIDs(3, p, &n), CL_SUCCESS);
    CHECK(n == 1 && p[0] == platform && p[1] == NULL);
    CHECK_ERR(clGetPlatformIDs(0, p, &n), CL_INVALID_VALUE);
    CHECK_ERR(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);

    char *profile = platform_string(CL_PLATFORM_PROFILE);
    CHECK(profile && strcmp(profile, "FULL_PROFILE") == 0);
    char *version = platform_string(CL_PLATFORM_VERSION);
    CHECK(version && strncmp(version, "OpenCL 3.1 Mosaic ", 18) == 0);
    char *name = platform_string(CL_PLATFORM_NAME);
    CHECK(name && strcmp(name, "Mosaic") == 0);
    char *vendor = platform_string(CL_PLATFORM_VENDOR);
    CHECK(vendor && vendor[0] != '\0');
    char *suffix = platform_string(CL_PLATFORM_ICD_SUFFIX_KHR);
    CHECK(suffix && strcmp(suffix, "MOSAIC") == 0);
    char *ext = platform_string(CL_PLATFORM_EXTENSIONS);
    CHECK(ext && has_word(ext, "cl_khr_icd"));

    cl_version num = 0;
    size_t size = 0;
    CHECK_ERR(clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, sizeof num, &num, &size), CL_SUCCESS);
    CHECK(size == sizeof num && num == CL_MAKE_VERSION(3, 1, 0));
    cl_ulong res = 0;
    CHECK_ERR(clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof res, &res, &size), CL_SUCCESS);
    CHECK(size == sizeof res && res >= 1);

    CHECK_ERR(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, NULL, &size), CL_SUCCESS);
    CHECK(size % sizeof(cl_name_version) == 0 && size > 0);
    cl_name_version *list = malloc(size + 1);
    CHECK_ERR(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, size, list, NULL), CL_SUCCESS);
    if (ext)
        CHECK(names_match(ext, list, size / sizeof *list));
    /* every platform extension is a device extension */
    char *dev_ext = device_string(CL_DEVICE_EXTENSIONS);
    for (size_t i = 0; i < size / sizeof *list; i++)
        CHECK(has_word(dev_ext, list[i].name));
    free(list);
    free(dev_ext);

    /* errors */
    char buf[64];
    CHECK_ERR(clGetPlatformInfo(NULL, CL_PLATFORM_VERSION, sizeof buf, buf, NULL), CL_INVALID_PLATFORM);
    CHECK_ERR(clGetPlatformInfo((cl_platform_id)junk, CL_PLATFORM_VERSION, sizeof buf, buf, NULL),
              CL_INVALID_PLATFORM);
    CHECK_ERR(clGetPlatformInfo((cl_platform_id)device, CL_PLATFORM_VERSION, sizeof buf, buf, NULL),
              CL_INVALID_PLATFORM);
    CHECK_ERR(clGetPlatformInfo(platform, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetPlatformInfo(platform, CL_DEVICE_NAME, sizeof buf, buf, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, 0, buf, NULL), CL_INVALID_VALUE);

    CHECK_ERR(clUnloadCompiler(), CL_SUCCESS);
    CHECK_ERR(clUnloadPlatformCompiler(platform), CL_SUCCESS);
    CHECK_ERR(clUnloadPlatformCompiler(NULL), CL_INVALID_PLATFORM);
    CHECK_ERR(clUnloadPlatformCompiler((cl_platform_id)junk), CL_INVALID_PLATFORM);
    free(profile), free(version), free(name), free(vendor), free(suffix), free(ext);
}

/* ---- ICD ----------------------------------------------------------------- */

TEST(icd)
{
    /* the entry point the loader looks up, exported */
    cl_int (*icd_get)(cl_uint, cl_platform_id *, cl_uint *) =
        (cl_int (*)(cl_uint, cl_platform_id *, cl_uint *))dlsym(RTLD_DEFAULT, "clIcdGetPlatformIDsKHR");
    CHECK(icd_get != NULL);
    if (icd_get) {
        cl_platform_id p = NULL;
        cl_uint n = 0;
        CHECK_ERR(icd_get(1, &p, &n), CL_SUCCESS);
        CHECK(p == platform && n == 1);
        CHECK_ERR(icd_get(0, &p, NULL), CL_INVALID_VALUE);
        CHECK_ERR(icd_get(0, NULL, NULL), CL_INVALID_VALUE);
    }
    /* internal symbols are not exported */
    CHECK(dlsym(RTLD_DEFAULT, "mosaic_platform") == NULL);
    CHECK(dlsym(RTLD_DEFAULT, "mosaic_dispatch") == NULL);
    CHECK(dlsym(RTLD_DEFAULT, "mosaic_cpu_describe") == NULL);
    /* the standard entry points are */
    CHECK(dlsym(RTLD_DEFAULT, "clGetDeviceInfo") != NULL);
    CHECK(dlsym(RTLD_DEFAULT, "clCreateContextFromType") != NULL);
    CHECK(dlsym(RTLD_DEFAULT, "clSetContextDestructorCallback") != NULL);

    /* extension functions by name */
    CHECK(clGetExtensionFunctionAddress("clIcdGetPlatformIDsKHR") == (void *)icd_get);
    CHECK(clGetExtensionFunctionAddressForPlatform(platform, "clIcdGetPlatformIDsKHR") == (void *)icd_get);
    CHECK(clGetExtensionFunctionAddress("clCreateFromGLBuffer") == NULL);
    CHECK(clGetExtensionFunctionAddress("clNoSuchFunctionKHR") == NULL);
    CHECK(clGetExtensionFunctionAddress(NULL) == NULL);
    CHECK(clGetExtensionFunctionAddressForPlatform(NULL, "clIcdGetPlatformIDsKHR") == NULL);
    CHECK(clGetExtensionFunctionAddressForPlatform((cl_platform_id)junk, "clIcdGetPlatformIDsKHR") == NULL);
    CHECK(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionKHR") == NULL);

    /* every handle starts with the dispatch table, which leads back to us */
    const cl_icd_dispatch *dispatch = *(const cl_icd_dispatch *const *)platform;
    CHECK(dispatch != NULL && dispatch == *(const cl_icd_dispatch *const *)device);
    if (dispatch) {
        CHECK(dispatch->clGetPlatformInfo == clGetPlatformInfo);
        CHECK(dispatch->clGetDeviceInfo == clGetDeviceInfo);
        CHECK(dispatch->clCreateContext == clCreateContext);
        CHECK(dispatch->clSetContextDestructorCallback == clSetContextDestructorCallback);
        CHECK(dispatch->clCreateSamplerWithProperties == clCreateSamplerWithProperties);
        CHECK(dispatch->clGetExtensionFunctionAddressForPlatform == clGetExtensionFunctionAddressForPlatform);
        CHECK(dispatch->clGetDeviceAndHostTimer == clGetDeviceAndHostTimer);
        /* the core entries of every version are filled */
        CHECK(dispatch->clCreateBuffer && dispatch->clEnqueueNDRangeKernel && dispatch->clBuildProgram);
        CHECK(dispatch->clCreateCommandQueueWithProperties && dispatch->clSVMAlloc);
        CHECK(dispatch->clCloneKernel && dispatch->clCreateProgramWithIL && dispatch->clGetHostTimer);
        CHECK(dispatch->clSetProgramReleaseCallback && dispatch->clCreateBufferWithProperties);
        CHECK(dispatch->clCreateImageWithProperties);
        /* GL entries answer an error instead of crashing */
        CHECK(dispatch->clCreateFromGLBuffer != NULL);
        if (dispatch->clCreateFromGLBuffer) {
            cl_int err = 0;
            CHECK(dispatch->clCreateFromGLBuffer(NULL, CL_MEM_READ_WRITE, 1, &err) == NULL);
            CHECK_ERR(err, CL_INVALID_CONTEXT);
        }
        if (dispatch->clGetGLObjectInfo)
            CHECK_ERR(dispatch->clGetGLObjectInfo(NULL, NULL, NULL), CL_INVALID_MEM_OBJECT);
        if (dispatch->clGetGLContextInfoKHR)
            CHECK_ERR(dispatch->clGetGLContextInfoKHR(NULL, 0x2006, 0, NULL, NULL), CL_INVALID_OPERATION);
    }
}

int main(int argc, char **argv)
{
    memset(junk, 0x5a, sizeof junk);
    cl_uint n = 0;
    CHECK_ERR(clGetPlatformIDs(1, &platform, &n), CL_SUCCESS);
    CHECK_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), CL_SUCCESS);
    if (!platform || !device)
        return test_summary();

    test_run(argc, argv);
    return test_summary();
}
