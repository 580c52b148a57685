/* The CPU device: a persistent pool of worker threads, one per core. */
#ifndef MOSAIC_CPU_H
#define MOSAIC_CPU_H

#include "core/device.h"

/* The CPU device's ops (cpu_device.c): every op of core/device.h. */
extern const mosaic_device_ops mosaic_cpu_ops;

/* How many device events (clk_event_t) may be live at a time: the
 * device's CL_DEVICE_MAX_ON_DEVICE_EVENTS and the size of their table
 * (cpu_enqueue.c). */
#define MOSAIC_CPU_MAX_DEVICE_EVENTS 4096

/* ops->describe (cpu_info.c): fills the device's reported properties from
 * the machine: name, caches, memory sizes, extensions, OpenCL C features,
 * and the compiler target (clang -cl-ext flags, runtime symbols). */
void mosaic_cpu_describe(cl_device_id device);

/* What a processor says of itself, turned into what the device reports
 * (cpu_info.c; the reasons: docs/devices.md, "Identity" and "Vector
 * widths").  Separate from reading the machine, so tests can feed them. */

/* CL_DEVICE_VENDOR and CL_DEVICE_VENDOR_ID from the processor's vendor
 * identification (CPUID leaf 0: "GenuineIntel", "AuthenticAMD"...; NULL
 * when unknown): the identification without its padding, and the PCI vendor
 * ID of the company it names (0 for one not known). */
void mosaic_cpu_vendor(const char *identification, char *vendor, size_t size, cl_uint *vendor_id);

/* The SIMD extensions that decide the vector widths (x86; none elsewhere:
 * 16-byte vectors). */
typedef struct mosaic_cpu_isa {
    bool avx;      /* 32-byte float and double arithmetic */
    bool avx2;     /* 32-byte integer arithmetic */
    bool avx512f;  /* 64-byte float, double, int and long arithmetic */
    bool avx512bw; /* 64-byte char and short arithmetic */
} mosaic_cpu_isa;
/* The widths of each mosaic_vector_type (core/objects.h): the elements of
 * its type one register holds for its arithmetic, at most 16, OpenCL C's
 * widest vector.  Half runs in float lanes: the float width. */
void mosaic_cpu_vector_widths(mosaic_cpu_isa isa, cl_uint widths[MOSAIC_VECTOR_TYPES]);
/* Floats in one register: CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE. */
unsigned mosaic_cpu_float_lanes(mosaic_cpu_isa isa);

/* Does a command that touches `bytes` of memory write with non-temporal
 * stores, which bypass the caches (cpu_info.c)?  Kernel launches count
 * their memory objects (compiler.h, stream_stores), copies twice their size. */
bool mosaic_cpu_streams(cl_device_id device, size_t bytes);

/* The lowest memory limit, below `limit`, of the cgroups that /proc/self/cgroup's
 * text `self` names and of the cgroups above them, with cgroupfs at `root`
 * (v2's memory.max, at root or root/unified; v1's memory.limit_in_bytes at
 * root/memory); `limit` when none is lower.  CL_DEVICE_GLOBAL_MEM_SIZE. */
cl_ulong mosaic_cgroup_memory_limit(const char *root, const char *self, cl_ulong limit);

/* finalize (cpu_program.c): the JIT (mosaic_finalize); the other program
 * ops are core's (mosaic_target_*, core/device.h). */
cl_int mosaic_cpu_finalize(cl_device_id device, const mosaic_bitcode *executable, const char *options,
                           mosaic_executable **out, char **log);

/* Private memory of kernels (cpu_program.c, docs/limits.md).  Each worker
 * thread has a stack of MOSAIC_CPU_WORKER_STACK bytes.  A kernel run as
 * fibers gives each work-item a stack of mosaic_cpu_fiber_stack bytes (its
 * private variables and MOSAIC_FIBER_STACK_KIB for its calls); K.wg runs on
 * the worker's stack, or, when mosaic_cpu_wg_stack is not 0, on a stack of
 * the worker's of that many bytes: its frame is more than half the
 * worker's stack.  Each below a guard page.  ops->kernel_work_group_limit
 * bounds a group by what its private memory takes; a kernel not one
 * work-item of which fits fails to build. */
#define MOSAIC_CPU_WORKER_STACK ((size_t)8 << 20)
/* the processor's page size (sysconf's, asked once) */
size_t mosaic_cpu_page_size(void);
size_t mosaic_cpu_fiber_stack(const mosaic_kernel_info *kernel);
size_t mosaic_cpu_wg_stack(const mosaic_kernel_info *kernel);
size_t mosaic_cpu_kernel_work_group_limit(cl_device_id device, const mosaic_kernel_info *kernel);

/* The launch ops (cpu_launch.c; core/device.h says what each must do). */
size_t mosaic_cpu_preferred_work_group_multiple(cl_device_id device, const mosaic_kernel_info *kernel);
void mosaic_cpu_choose_local_size(cl_device_id device, const mosaic_kernel_info *kernel, cl_uint work_dim,
                                  const size_t global[3], size_t max_group, size_t local[3]);
void mosaic_cpu_prepare_launch(cl_device_id device, mosaic_ndrange *nd);
/* The largest divisor of n that is at most limit (1 when none is more). */
size_t mosaic_cpu_largest_divisor(size_t n, size_t limit);

/* Memory (cpu_memory.c).  The CPU device is the host: a buffer's storage is
 * host memory at a fixed address, so maps and migrations move nothing. */
cl_int mosaic_cpu_mem_alloc(cl_device_id device, cl_mem mem, const void *initial, mosaic_mem_storage *storage);
void mosaic_cpu_mem_free(cl_device_id device, cl_mem mem, mosaic_mem_storage *storage);
void *mosaic_cpu_map_address(cl_device_id device, cl_mem mem, size_t offset, size_t size, cl_map_flags flags);
void *mosaic_cpu_svm_alloc(cl_device_id device, cl_svm_mem_flags flags, size_t size, cl_uint alignment);
void mosaic_cpu_svm_free(cl_device_id device, void *pointer);
cl_int mosaic_cpu_transfer(cl_event command);      /* ops->read, write and copy */
cl_int mosaic_cpu_fill(cl_event command);
/* Part `part` of `parts` of a command that several workers run at once. */
typedef cl_int (*mosaic_cpu_part_fn)(cl_event command, size_t part, size_t parts);
/* For a transfer or fill large enough to be worth it: the function that runs
 * one part, and how many parts for `workers` (*parts); else NULL. */
mosaic_cpu_part_fn mosaic_cpu_command_parts(cl_event command, unsigned workers, size_t *parts);
cl_int mosaic_cpu_fill_rect(cl_event command); /* ops->fill_rect (images) */
cl_int mosaic_cpu_native_kernel(cl_event command);

/* Functions generated kernel code may call (cpu_device.c). */
extern const struct mosaic_runtime_symbol mosaic_cpu_runtime_symbols[];
extern const size_t mosaic_cpu_num_runtime_symbols;

/* Number of worker threads (MOSAIC_NUM_THREADS, default: online cores). */
unsigned mosaic_cpu_num_workers(void);

/* ---- executors and partitioning (cpu_device.c) ------------------------------
 * Each CPU device, root or sub-device, has its own worker pool (device->impl):
 * one worker per compute unit, started at the device's first command.  A
 * compute unit stands for one CPU: the root device's units are the CPUs this
 * process may use (spread evenly when MOSAIC_NUM_THREADS asks for another
 * count) and its workers float over all of them; a sub-device's units are a
 * subset of its parent's, and its workers are pinned to those units' CPUs. */

/* The root device's executor, over device->compute_units units. */
cl_int mosaic_cpu_init_root(cl_device_id device);
/* A sub-device's executor: units[0..count) of parent's compute units (its
 * compute_units is set to count). */
cl_int mosaic_cpu_init_sub_device(cl_device_id sub, cl_device_id parent, const cl_uint *units, cl_uint count);
/* Frees a sub-device's executor (its workers exit; none may be busy for it). */
void mosaic_cpu_release_executor(cl_device_id device);
/* The CPU of each of the device's compute units (device->compute_units
 * entries); NULL if the device has no executor (out of memory at start-up). */
const unsigned *mosaic_cpu_unit_cpus(cl_device_id device);
/* ops->unit_domain_key: the domain key of the unit's CPU (below). */
long mosaic_cpu_unit_domain_key(cl_device_id device, cl_uint unit, cl_device_affinity_domain domain);

/* ---- the machine's layout (cpu_topology.c) -----------------------------------
 * The key of `cpu`'s affinity domain `domain` (CL_DEVICE_AFFINITY_DOMAIN_NUMA,
 * _L4_CACHE, _L3_CACHE, _L2_CACHE or _L1_CACHE), as sysfs reports it: the NUMA
 * node, or the lowest CPU that shares that level of data cache with it.  -1
 * when sysfs does not say. */
long mosaic_cpu_domain_key(unsigned cpu, cl_device_affinity_domain domain);
/* Reads the layout again from a tree shaped like /sys/devices/system (tests
 * give a made-up one); the first mosaic_cpu_domain_key reads the real one. */
void mosaic_cpu_topology_load(const char *sysfs_system_dir);

#endif
