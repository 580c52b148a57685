/*
 * What the CPU device reports, read from the machine: CPUID for the vendor
 * and the vector widths, /proc/cpuinfo for the name and clock, /sys for
 * caches and the maximum clock, sysconf and the cgroup limit for memory.
 * Also what it supports: the extension list, the OpenCL C 3.0 features, and
 * the clang flags that make the compiler agree with both.  Why each answer is
 * what it is: docs/devices.md, "What the CPU device reports".
 */
#include "devices/cpu/cpu.h"
#include "devices/cpu/cpu_runtime.h"
#include "base/assert.h"
#include "base/settings.h"
#include "core/util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define MIB ((cl_ulong)1024 * 1024)

/* OpenCL C language extensions (each also a clang -cl-ext name). */
static const char *const language_extensions[] = {
    "cl_khr_byte_addressable_store",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_fp64",
    /* half arithmetic and built-ins (builtins/half*.cl, docs/half.md) */
    "cl_khr_fp16",
    /* images (builtins/images.cl): writes to 3D images, CL_DEPTH images (docs/images.md) */
    "cl_khr_3d_image_writes",
    "cl_khr_depth_images",
    /* also the OpenCL 3.0 feature __opencl_c_subgroups; the extension
     * requires independent forward progress of sub-groups; for the
     * non-uniform ones, fibers find the active work-items (docs/subgroups.md) */
    MOSAIC_SUB_GROUP_EXTENSIONS,
    /* builtins/bit_ops.cl and builtins/dot_product.cl (core in OpenCL 3.1) */
    "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product",
    /* clang's __builtin_expect and __builtin_assume; SPIR-V's OpExpectKHR and
     * OpAssumeTrueKHR (docs/spirv.md) */
    "cl_khr_expect_assume",
    /* clock_read_* (builtins/kernel_clock.cl): one clock for the three scopes */
    "cl_khr_kernel_clock",
    /* and, or, xor, mul and the logical ones over the work-group (builtins/collectives.cl) */
    "cl_khr_work_group_uniform_arithmetic",
    /* atomic add, sub, min and max on half, float and double (builtins/float_atomics.cl);
     * the features below say which (all of them), CL_DEVICE_*_FP_ATOMIC_CAPABILITIES_EXT too */
    "cl_ext_float_atomics",
};

/* Extensions of the runtime only (no OpenCL C side). */
static const char *const runtime_extensions[] = {
    "cl_khr_icd",
    "cl_khr_image2d_from_buffer", /* api/image.c */
    "cl_khr_il_program", /* SPIR-V programs (compiler/frontend/spirv.c, docs/spirv.md) */
    /* SPIR-V extensions llvm-spirv-15 translates */
    "cl_khr_spirv_no_integer_wrap_decoration",
    "cl_khr_spirv_linkonce_odr",
    /* CL_DEVICE_SPIRV_* (compiler/frontend/spirv_support.c; core in OpenCL 3.1) */
    "cl_khr_spirv_queries",
    "cl_khr_device_uuid", /* device_uuid() below; the driver's: api/device.c */
    "cl_khr_suggested_local_work_size", /* api/enqueue_kernel.c */
    /* api/queue.c: the hints are kept, every queue runs alike (docs/events.md) */
    "cl_khr_create_command_queue",
    "cl_khr_priority_hints",
    "cl_khr_throttle_hints",
    /* api/usm.c over the SVM allocations (cpu_memory.c, docs/memory.md) */
    "cl_intel_unified_shared_memory",
    /* api/command_buffer.c: recorded commands replayed through the engine (docs/command-buffers.md) */
    "cl_khr_command_buffer",
    "cl_khr_command_buffer_mutable_dispatch",
    "cl_khr_semaphore", /* binary semaphores on the event engine (api/semaphore.c, core/semaphore.c) */
};

/* OpenCL C 3.0 optional features. */
static const char *const opencl_c_features[] = {
    "__opencl_c_int64",
    "__opencl_c_fp64",
    "__opencl_c_fp16", /* with cl_khr_fp16 (docs/half.md) */
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_generic_address_space",
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_pipes", /* cpu_pipe.c, builtins/pipes.cl */
    "__opencl_c_device_enqueue", /* cpu_enqueue.c, builtins/enqueue.cl */
    "__opencl_c_subgroups",
    "__opencl_c_images", /* builtins/images.cl (docs/image_builtins.md) */
    "__opencl_c_3d_image_writes",
    "__opencl_c_read_write_images",
    /* with cl_khr_integer_dot_product (builtins/dot_product.cl) */
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    /* with cl_khr_kernel_clock */
    "__opencl_c_kernel_clock_scope_device",
    "__opencl_c_kernel_clock_scope_work_group",
    "__opencl_c_kernel_clock_scope_sub_group",
    /* with cl_ext_float_atomics (builtins/float_atomics.cl) */
    "__opencl_c_ext_fp16_global_atomic_load_store",
    "__opencl_c_ext_fp16_local_atomic_load_store",
    "__opencl_c_ext_fp16_global_atomic_add",
    "__opencl_c_ext_fp16_local_atomic_add",
    "__opencl_c_ext_fp16_global_atomic_min_max",
    "__opencl_c_ext_fp16_local_atomic_min_max",
    "__opencl_c_ext_fp32_global_atomic_add",
    "__opencl_c_ext_fp32_local_atomic_add",
    "__opencl_c_ext_fp32_global_atomic_min_max",
    "__opencl_c_ext_fp32_local_atomic_min_max",
    "__opencl_c_ext_fp64_global_atomic_add",
    "__opencl_c_ext_fp64_local_atomic_add",
    "__opencl_c_ext_fp64_global_atomic_min_max",
    "__opencl_c_ext_fp64_local_atomic_min_max",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static char extensions_string[2048]; /* every extension, with room for more */
static char clang_features[4096];

static void append(char *buf, size_t size, const char *sep, const char *word)
{
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s", used ? sep : "", word);
}

/* ---- reading the machine ---------------------------------------------------- */

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    size_t start = strspn(s, " \t");
    memmove(s, s + start, n - start + 1);
}

/* The value of the first "key : value" line of /proc/cpuinfo, or false. */
static bool cpuinfo_field(const char *key, char *out, size_t size)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return false;
    char line[512];
    bool found = false;
    size_t klen = strlen(key);
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0)
            continue;
        const char *rest = line + klen;
        while (*rest == ' ' || *rest == '\t')
            rest++;
        if (*rest != ':')
            continue;
        snprintf(out, size, "%s", rest + 1);
        trim(out);
        found = *out != '\0';
    }
    fclose(f);
    return found;
}

static bool read_line(const char *path, char *out, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(out, (int)size, f) != NULL;
    fclose(f);
    if (ok)
        trim(out);
    return ok;
}

/* "32K", "1024K", "8M", "12345" -> bytes */
static cl_ulong parse_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    switch (*end) {
    case 'K': case 'k': v *= 1024; break;
    case 'M': case 'm': v *= 1024 * 1024; break;
    case 'G': case 'g': v *= 1024ull * 1024 * 1024; break;
    default: break;
    }
    return v;
}

/* The last-level data (or unified) cache of cpu0: size and line size. */
static void read_caches(cl_ulong *size, cl_uint *line)
{
    int best_level = 0;
    for (int i = 0; i < 16; i++) {
        char path[128], buf[64];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (!read_line(path, buf, sizeof buf))
            break;
        if (strcmp(buf, "Instruction") == 0)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        int level = read_line(path, buf, sizeof buf) ? atoi(buf) : 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
        if (read_line(path, buf, sizeof buf) && atoi(buf) > 0 && (*line == 0 || level == 1))
            *line = (cl_uint)atoi(buf);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (level > best_level && read_line(path, buf, sizeof buf)) {
            best_level = level;
            *size = parse_size(buf);
        }
    }
    if (*line == 0) {
        long l = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
        *line = l > 0 ? (cl_uint)l : 64;
    }
    if (*size == 0) {
        long s = sysconf(_SC_LEVEL3_CACHE_SIZE);
        if (s <= 0)
            s = sysconf(_SC_LEVEL2_CACHE_SIZE);
        *size = s > 0 ? (cl_ulong)s : 0;
    }
}

/* From half the last-level cache, and no more than 4 MiB a compute unit
 * (about the L2 and L3 of one core of a current server): a virtual machine
 * of a few cores reports its host's whole cache (532 MB on a 2-core one
 * here).  No cache known: 4 MiB a unit.  MOSAIC_STREAM_STORES, when set,
 * decides instead. */
bool mosaic_cpu_streams(cl_device_id device, size_t bytes)
{
    int setting = mosaic_settings()->stream_stores;
    if (setting >= 0)
        return setting;
    size_t per_units = (size_t)4 << 20;
    per_units *= device->compute_units ? device->compute_units : 1;
    size_t half_cache = (size_t)(device->global_mem_cache_size / 2);
    return bytes >= (half_cache && half_cache < per_units ? half_cache : per_units);
}

static cl_uint read_max_clock_mhz(void)
{
    char buf[128];
    if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", buf, sizeof buf)) {
        unsigned long khz = strtoul(buf, NULL, 10);
        if (khz)
            return (cl_uint)(khz / 1000);
    }
    if (cpuinfo_field("cpu MHz", buf, sizeof buf)) {
        double mhz = strtod(buf, NULL);
        if (mhz > 0)
            return (cl_uint)(mhz + 0.5);
    }
    return 0;
}

/* The lowest memory limit in `dir` and the folders above it up to `root`
 * (a parent's limit bounds its children), of the file `name` (cgroup v2's
 * memory.max, v1's memory.limit_in_bytes); `limit` when none is lower. */
static cl_ulong lowest_limit(const char *root, char *dir, const char *name, cl_ulong limit)
{
    size_t top = strlen(root);
    for (;;) {
        char path[PATH_MAX], buf[64];
        if (snprintf(path, sizeof path, "%s/%s", dir, name) < (int)sizeof path && read_line(path, buf, sizeof buf) &&
            buf[0] >= '0' && buf[0] <= '9') { /* else missing, or "max" */
            cl_ulong value = strtoull(buf, NULL, 10);
            if (value > 0 && value < limit)
                limit = value;
        }
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < top)
            return limit;
        *slash = 0;
    }
}

/* lowest_limit for the cgroup `path` of the hierarchy mounted at root + mount. */
static cl_ulong limit_in(const char *root, const char *mount, const char *path, const char *name, cl_ulong limit)
{
    char base[PATH_MAX], dir[PATH_MAX];
    if (snprintf(base, sizeof base, "%s%s", root, mount) >= (int)sizeof base ||
        snprintf(dir, sizeof dir, "%s%s", base, path) >= (int)sizeof dir)
        return limit;
    return lowest_limit(base, dir, name, limit);
}

cl_ulong mosaic_cgroup_memory_limit(const char *root, const char *self, cl_ulong limit)
{
    MOSAIC_ASSERT(root && self);
    /* each line of /proc/self/cgroup is hierarchy:controllers:path; v2's
     * hierarchy is 0 with no controllers, mounted at root (or at
     * root/unified beside v1's), v1's memory controller at root/memory */
    for (const char *line = self; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char text[PATH_MAX];
        if (len < sizeof text) {
            memcpy(text, line, len);
            text[len] = 0;
            char *colon1 = strchr(text, ':'), *colon2 = colon1 ? strchr(colon1 + 1, ':') : NULL;
            if (colon2 && colon2[1] == '/') {
                *colon2 = 0;
                const char *controllers = colon1 + 1, *path = colon2 + 1;
                bool v2 = !*controllers, v1_memory = false;
                for (const char *c = controllers; *c;) {
                    size_t k = strcspn(c, ",");
                    v1_memory |= k == 6 && strncmp(c, "memory", 6) == 0;
                    c += k + (c[k] == ',');
                }
                if (v2) {
                    limit = limit_in(root, "", path, "memory.max", limit);
                    limit = limit_in(root, "/unified", path, "memory.max", limit);
                }
                if (v1_memory)
                    limit = limit_in(root, "/memory", path, "memory.limit_in_bytes", limit);
            }
        }
        line += len + (end != NULL);
    }
    return limit;
}

/* Physical memory, or less when a cgroup of this process (or one above it)
 * limits it: a systemd unit's MemoryMax, a container's limit. */
static cl_ulong read_memory_size(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    cl_ulong mem = pages > 0 && page > 0 ? (cl_ulong)pages * (cl_ulong)page : 1024 * MIB;
    char self[4096];
    FILE *f = fopen("/proc/self/cgroup", "r");
    size_t n = f ? fread(self, 1, sizeof self - 1, f) : 0;
    if (f)
        fclose(f);
    self[n] = 0;
    return mosaic_cgroup_memory_limit("/sys/fs/cgroup", n ? self : "0::/\n", mem);
}

/* ---- what the processor is ---------------------------------------------------- */

/* The vendor identifications of x86 processors (CPUID leaf 0) and the PCI
 * vendor ID of the company each names. */
static const struct {
    const char *identification; /* without the padding some have ("  Shanghai  ") */
    cl_uint pci_vendor_id;
} processor_makers[] = {
    { "GenuineIntel", 0x8086 }, /* Intel */
    { "AuthenticAMD", 0x1022 }, /* AMD (its GPUs are 0x1002, ATI's) */
    { "HygonGenuine", 0x1d94 }, /* Hygon */
    { "CentaurHauls", 0x1106 }, /* Centaur, VIA's */
    { "Shanghai", 0x1d17 },     /* Zhaoxin */
};

/* The name a processor gives itself is the vendor, as CPU implementations
 * other than a vendor's own runtime report it: it names the maker and is
 * never the string of a vendor's GPU driver, which clients take for that
 * driver ("Advanced Micro Devices, Inc.", "Intel(R) Corporation"). */
void mosaic_cpu_vendor(const char *identification, char *vendor, size_t size, cl_uint *vendor_id)
{
    MOSAIC_ASSERT(vendor && size > 0 && vendor_id);
    const char *id = identification ? identification : "";
    while (*id == ' ')
        id++;
    size_t len = strlen(id);
    while (len && id[len - 1] == ' ')
        len--;
    /* printable characters only: it is shown as text */
    size_t n = 0;
    for (size_t i = 0; i < len && n + 1 < size; i++)
        vendor[n++] = id[i] >= 0x20 && id[i] < 0x7f ? id[i] : '?';
    vendor[n] = '\0';
    if (n == 0)
        snprintf(vendor, size, "%s", "Unknown");

    *vendor_id = 0; /* no maker known: no PCI vendor ID to give */
    for (size_t i = 0; i < COUNT(processor_makers); i++)
        if (strlen(processor_makers[i].identification) == len &&
            memcmp(processor_makers[i].identification, id, len) == 0)
            *vendor_id = processor_makers[i].pci_vendor_id;
}

/* The processor's vendor identification: CPUID leaf 0 on x86, else the
 * "vendor_id" line of /proc/cpuinfo. */
static bool read_identification(char *out, size_t size)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
        char id[13];
        memcpy(id, &ebx, 4);
        memcpy(id + 4, &edx, 4);
        memcpy(id + 8, &ecx, 4);
        id[12] = '\0';
        snprintf(out, size, "%s", id);
        return true;
    }
#endif
    return cpuinfo_field("vendor_id", out, size);
}

/* Bytes in the widest register each kind of arithmetic uses. */
static unsigned float_bytes(mosaic_cpu_isa isa) { return isa.avx512f ? 64 : isa.avx ? 32 : 16; }
static unsigned int_bytes(mosaic_cpu_isa isa) { return isa.avx512f ? 64 : isa.avx2 ? 32 : 16; }
static unsigned narrow_int_bytes(mosaic_cpu_isa isa) { return isa.avx512bw ? 64 : isa.avx2 ? 32 : 16; }

static cl_uint elements(unsigned bytes, size_t element_size)
{
    size_t n = bytes / element_size;
    return (cl_uint)(n > 16 ? 16 : n); /* OpenCL C's widest vector */
}

void mosaic_cpu_vector_widths(mosaic_cpu_isa isa, cl_uint widths[MOSAIC_VECTOR_TYPES])
{
    widths[MOSAIC_VECTOR_CHAR] = elements(narrow_int_bytes(isa), sizeof(cl_char));
    widths[MOSAIC_VECTOR_SHORT] = elements(narrow_int_bytes(isa), sizeof(cl_short));
    widths[MOSAIC_VECTOR_INT] = elements(int_bytes(isa), sizeof(cl_int));
    widths[MOSAIC_VECTOR_LONG] = elements(int_bytes(isa), sizeof(cl_long));
    widths[MOSAIC_VECTOR_FLOAT] = elements(float_bytes(isa), sizeof(cl_float));
    widths[MOSAIC_VECTOR_DOUBLE] = elements(float_bytes(isa), sizeof(cl_double));
    /* half arithmetic runs in float lanes (docs/half.md) */
    widths[MOSAIC_VECTOR_HALF] = widths[MOSAIC_VECTOR_FLOAT];
}

unsigned mosaic_cpu_float_lanes(mosaic_cpu_isa isa)
{
    return float_bytes(isa) / sizeof(cl_float);
}

/* The host's SIMD extensions, those the operating system keeps the registers
 * of (the JIT compiles for the host: compiler_target.cpu_features NULL). */
static mosaic_cpu_isa read_isa(void)
{
    mosaic_cpu_isa isa = { 0 };
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    isa.avx = __builtin_cpu_supports("avx");
    isa.avx2 = __builtin_cpu_supports("avx2");
    isa.avx512f = __builtin_cpu_supports("avx512f");
    isa.avx512bw = __builtin_cpu_supports("avx512bw");
#endif
    return isa;
}

/* CL_DEVICE_UUID_KHR: a hash of the machine (systemd's machine-id, written
 * once when the system is installed; the host name where there is none) and
 * of the processor's name, so the same device has the same UUID in every
 * process, after a reboot and in every Mosaic version, and two machines'
 * devices differ. */
static void device_uuid(cl_device_id device)
{
    char text[512] = "Mosaic CPU device\n", machine[128] = "";
    if (!read_line("/etc/machine-id", machine, sizeof machine) &&
        !read_line("/var/lib/dbus/machine-id", machine, sizeof machine))
        gethostname(machine, sizeof machine - 1);
    append(text, sizeof text, "", machine);
    append(text, sizeof text, "\n", device->name);
    mosaic_uuid_of(text, strlen(text), device->uuid);
}

/* ---- the description -------------------------------------------------------- */

/* What the device is because it is the host: the host's processor runs
 * the kernels (its vectors, addresses, byte order and floating-point
 * arithmetic, and host functions as native kernels) in the host's memory. */
static void describe_processor(cl_device_id device)
{
    /* Vectors, preferred and native alike: a kernel written with vectors of
     * these widths fills the registers; one written with scalars does too
     * when the compiler widens it across work-items (src/compiler/vectorize/wfv.c),
     * which not every kernel allows. */
    mosaic_cpu_isa isa = read_isa();
    mosaic_cpu_vector_widths(isa, device->native_vector_width);
    memcpy(device->preferred_vector_width, device->native_vector_width, sizeof device->preferred_vector_width);
    device->preferred_work_group_size_multiple = mosaic_cpu_float_lanes(isa);

    device->address_bits = sizeof(void *) * 8;
    device->endian_little = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
    device->error_correction = false;
    /* Hardware IEEE single precision: denormals, infinities and NaNs,
     * round to nearest even by default, fma() exact (hardware or libm),
     * division and sqrt correctly rounded (divss / sqrtss). */
    device->single_fp_config = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA |
                               CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
    /* The spec's minimum is FMA, nearest, inf/NaN and denormals; the CTS
     * (test_api min_max_double_fp_config) holds doubles to OpenCL 1.0's,
     * which adds round to zero and to +-infinity: the hardware has all
     * four rounding modes, as every CPU platform reports. */
    device->double_fp_config = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                               CL_FP_INF_NAN | CL_FP_DENORM;
    /* cl_khr_fp16 (docs/half.md): each operation rounds once to nearest
     * even (computed in float, whose 24 bits make that one rounding),
     * denormals and infinities kept, fma() correctly rounded.  Only
     * round to nearest: no directed rounding of arithmetic. */
    device->half_fp_config = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA;
    /* clEnqueueNativeKernel runs host functions on the device's queue
     * (ops->native_kernel); its queues may run out of order and be profiled */
    device->execution_capabilities = CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL;
    device->queue_on_host_properties = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
    /* __local is an ordinary per-worker arena in the host's memory */
    device->local_mem_type = CL_GLOBAL;
    device->host_unified_memory = true;
}

void mosaic_cpu_describe(cl_device_id device)
{
    char buf[256];

    if (cpuinfo_field("model name", buf, sizeof buf))
        snprintf(device->name, sizeof device->name, "%s", buf);
    else
        snprintf(device->name, sizeof device->name, "%s", "CPU");

    mosaic_cpu_vendor(read_identification(buf, sizeof buf) ? buf : NULL, device->vendor, sizeof device->vendor,
                      &device->vendor_id);
    device_uuid(device);

    unsigned workers = mosaic_cpu_num_workers();
    device->compute_units = workers ? workers : 1;

    device->global_mem_size = read_memory_size();
    cl_ulong alloc = device->global_mem_size / 4;
    if (alloc < 128 * MIB)
        alloc = 128 * MIB;
    if (alloc > device->global_mem_size)
        alloc = device->global_mem_size;
    struct rlimit rl; /* an address-space limit bounds what malloc can give */
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (cl_ulong)rl.rlim_cur / 2 < alloc)
        alloc = (cl_ulong)rl.rlim_cur / 2;
    device->max_mem_alloc_size = alloc;

    device->local_mem_size = 512 * 1024; /* an ordinary per-worker arena */
    /* __constant is ordinary memory too: a __constant buffer argument may
     * be as large as this, and all of a program's __constant variables
     * together (their initial values are object code: a build pays for
     * every byte).  Kept where "allocate the maximum" tests stay quick. */
    device->max_constant_buffer_size = alloc < 64 * MIB ? alloc : 64 * MIB;
    /* Each __global variable of program scope: OpenCL's minimum, as a
     * build pays for an initialised one byte by byte (all of them together
     * may take what one buffer may: max_mem_alloc_size). */
    device->max_global_variable_size = 64 * 1024;
    /* A kernel's arguments (checked at launch, docs/limits.md): OpenCL's
     * minimums.  Beyond 1024 bytes a kernel may have 255 arguments only,
     * fewer than the 8-byte ones the bytes would hold, which the
     * conformance tests pass (api's min_max_parameter_size). */
    device->max_parameter_size = 1024;
    device->max_constant_args = 16;
    device->global_mem_cache_size = 0;
    device->global_mem_cacheline_size = 0;
    read_caches(&device->global_mem_cache_size, &device->global_mem_cacheline_size);
    device->max_clock_frequency = read_max_clock_mhz();

    describe_processor(device);
    device->printf_buffer_size = MOSAIC_CPU_PRINTF_BUFFER;

    device->max_work_group_size = MOSAIC_MAX_LOCAL_SIZE;
    device->sub_group_size = MOSAIC_SUB_GROUP_SIZE; /* docs/subgroups.md */
    /* loops that wait for other work-items yield (src/compiler/workgroup/spin_loops.c) */
    device->sub_group_forward_progress = true;
    device->max_work_item_sizes[0] = MOSAIC_MAX_LOCAL_SIZE;
    device->max_work_item_sizes[1] = MOSAIC_MAX_LOCAL_SIZE;
    device->max_work_item_sizes[2] = MOSAIC_MAX_LOCAL_SIZE;
    device->mem_base_addr_align_bits = 1024; /* 128 bytes: a long16 */
    /* Device-side enqueue (cpu_enqueue.c): each command a kernel enqueues
     * takes CPU_DEVICE_QUEUE_ENTRY bytes of its queue's CL_QUEUE_SIZE until
     * it completes.  The size is an account, not memory set aside (each
     * command is allocated by itself): 4 MiB holds some 20,000 commands,
     * one child for each work-item of a launch of 16,384 that all wait for
     * their parent (the CTS's command-buffer `device_enqueue`). */
    device->max_on_device_queues = 4;
    device->max_on_device_events = MOSAIC_CPU_MAX_DEVICE_EVENTS;
    device->queue_on_device_preferred_size = 4 * 1024 * 1024;
    device->queue_on_device_max_size = 8 * 1024 * 1024;

    /* Images (docs/images.md): the full-profile minimums of OpenCL 3.0,
     * except 1D buffer images, whose only limit on a CPU is memory (2^27
     * pixels: 2 GiB of RGBA floats).  Rows and base addresses need no
     * alignment beyond a pixel's. */
    device->image_support = true;
    device->image2d_max_width = device->image2d_max_height = 16384;
    device->image3d_max_width = device->image3d_max_height = device->image3d_max_depth = 2048;
    device->image_max_buffer_size = (size_t)1 << 27;
    device->image_max_array_size = 2048;
    device->max_read_image_args = 128;
    device->max_write_image_args = 64;
    device->max_read_write_image_args = 64;
    device->max_samplers = 16;
    device->image_pitch_alignment = 1;
    device->image_base_address_alignment = 1;
    /* Its memory is its own (core/device.h): a buffer has one storage for
     * this device, and its sub-devices (copies of this description) keep
     * pointing here, so they share it. */
    device->mem_domain = device;
    /* Host and device are one processor with coherent caches: every kind of
     * SVM is plain host memory, and SVM atomics are its atomic instructions
     * (cpu_memory.c, docs/memory.md). */
    device->svm_capabilities = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                               CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS;

    /* Pipes (cpu_pipe.c, docs/pipes.md): a packet is copied under the pipe's
     * lock by the 2-argument read_pipe/write_pipe, so its size is bounded
     * (1 MiB); any number of pipe arguments and of open reservations work
     * (a reservation costs nothing but its packets): report the minimum
     * OpenCL asks for the first and a round number for the second. */
    device->pipe_max_packet_size = 1024 * 1024;
    device->max_pipe_args = 16;
    device->pipe_max_active_reservations = 65536;

    /* the versions llvm-spirv-15 reads whole (1.4 in part: compiler.h) */
    /* OpenCL 3.1: what it makes mandatory (SPIR-V 1.4, the sub-group
     * extensions, dot products, bit operations, the UUID, SPIR-V and local
     * size queries) is all here (docs/opencl-3.1.md) */
    device->version = CL_MAKE_VERSION(3, 1, 0);
    device->il_version = "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4";
    /* Extensions, features, and the compiler flags that agree with them. */
    mosaic_device_set_extensions(device, runtime_extensions, COUNT(runtime_extensions), language_extensions,
                                 COUNT(language_extensions), opencl_c_features, COUNT(opencl_c_features),
                                 extensions_string, sizeof extensions_string, clang_features, sizeof clang_features);
    device->compiler_target.cpu_name = NULL;     /* the host */
    device->compiler_target.cpu_features = NULL; /* the host */
    device->compiler_target.runtime_symbols = mosaic_cpu_runtime_symbols;
    device->compiler_target.num_runtime_symbols = mosaic_cpu_num_runtime_symbols;
    device->compiler_target.max_global_variable_size = device->max_global_variable_size;
    device->compiler_target.max_global_variables_total = (size_t)device->max_mem_alloc_size;
    device->compiler_target.max_constant_variables = (size_t)device->max_constant_buffer_size;
}
