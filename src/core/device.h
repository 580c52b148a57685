/*
 * The device interface: what each kind of device (the CPU today; a GPU or a
 * remote device later) implements, what the commands it runs carry, and what
 * the runtime promises it.  docs/devices.md is the long version.
 *
 * Layering: src/api checks arguments and builds commands; it calls a
 * device only through these ops and never touches the bytes of a buffer.
 * The engine (core/engine.c) hands ready commands to `submit`.  A device
 * calls core (mosaic_command_running / mosaic_command_complete, the helpers
 * of core/memory.h) and the compiler, never src/api.
 *
 * Commands.  Every command is a cl_event (objects.h) whose `payload` is one
 * of the structs below, chosen by its command_type.  The API sets the
 * command's `run` to the device's op for it (e.g. ops->read), or leaves it
 * NULL when the op is NULL: such a command is a synchronisation point only
 * and the engine completes it without the device (markers and barriers are
 * the same).  Kernels have `run` NULL and a mosaic_ndrange payload.  A few
 * commands carry a host function of the API's as `run` (clEnqueueSVMFree);
 * a device runs those like its own ops, on a host thread.
 *
 * A command op (`cl_int op(cl_event command)`) carries the command out
 * synchronously on the calling thread and returns CL_COMPLETE or a negative
 * error code; it takes no lock of the engine's and may take as long as it
 * needs.  It is called by the device's executor after `submit`, or by the
 * engine on the enqueuing thread for a blocking command that is ready at
 * once (run_inline).  The device is command->queue->device.
 */
#ifndef MOSAIC_DEVICE_H
#define MOSAIC_DEVICE_H

#include "core/ndrange.h"
#include "core/objects.h"

/* cl_khr_subgroups and the cl_khr_subgroup_* extensions, which a device with
 * sub-groups (the CPU, the GPU from compute capability 7.0) gives in full. */
#define MOSAIC_SUB_GROUP_EXTENSIONS                                                                             \
    "cl_khr_subgroups", "cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_vote",                \
        "cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle",        \
        "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate"
#define MOSAIC_NUM_SUB_GROUP_EXTENSIONS 9

/* The status of a kernel command that ran longer than MOSAIC_KERNEL_TIMEOUT_MS
 * and was stopped (docs/faults.md): Mosaic's own, a code no OpenCL header
 * names.  A kernel that faults fails with CL_OUT_OF_RESOURCES. */
#define MOSAIC_KERNEL_TIMED_OUT (-9801)

/* ---- command payloads -------------------------------------------------------- */

/* One end of a transfer: a region of a buffer (or sub-buffer) or of host
 * memory.  Offsets are bytes from the buffer's first byte (or from `host`)
 * to the rectangle's origin. */
typedef struct mosaic_endpoint {
    cl_mem mem;      /* internal reference (dropped by the API's cleanup), or NULL for host memory */
    char *host;      /* host memory when mem is NULL */
    size_t offset;
    size_t row_pitch, slice_pitch;
} mosaic_endpoint;

/* clEnqueueRead/Write/CopyBuffer and their Rect variants (read: buffer to
 * host, write: host to buffer, copy: buffer to buffer).  Every transfer is a
 * rectangle: region = {bytes per row, rows, slices}; a flat transfer is
 * {size, 1, 1} with both pitches = size.  The API checked every bound, and
 * that two regions of one buffer do not overlap; a read of a
 * CL_MEM_USE_HOST_PTR buffer into its own host_ptr (which the specification
 * allows) may have src and dst at the same bytes. */
typedef struct mosaic_transfer {
    mosaic_endpoint src, dst;
    size_t region[3];
} mosaic_transfer;

/* clEnqueueFillBuffer: size bytes at offset (both multiples of pattern_size,
 * a power of two up to 128), the pattern repeated. */
typedef struct mosaic_fill {
    cl_mem mem;      /* internal reference */
    size_t offset, size, pattern_size;
    _Alignas(16) unsigned char pattern[128];
} mosaic_fill;

/* clEnqueueFillImage: a rectangle of mem's storage, region = {bytes per
 * row, rows, slices} from `offset` with the image's row and slice pitches
 * (like one end of a mosaic_transfer), filled with `pattern` (one pixel,
 * pattern_size = 1, 2, 4, 8 or 16 bytes) repeated; region[0] is a multiple
 * of pattern_size and `offset` and the pitches are too. */
typedef struct mosaic_fill_rect {
    cl_mem mem;      /* internal reference */
    size_t offset, row_pitch, slice_pitch;
    size_t region[3];
    size_t pattern_size;
    _Alignas(16) unsigned char pattern[16];
} mosaic_fill_rect;

/* clEnqueueMapBuffer, clEnqueueMapImage and clEnqueueUnmapMemObject: the
 * region [offset, offset + size) of mem mapped at `pointer` (what
 * ops->map_address gave the map) with `flags`.  For an image the range is
 * the bytes from the mapped rectangle's first pixel to its last, laid out
 * with the image's own row and slice pitches (what clEnqueueMapImage
 * returns as the pitches).  An unmap carries the flags of the map it
 * undoes. */
typedef struct mosaic_map {
    cl_mem mem;      /* internal reference */
    void *pointer;
    size_t offset, size;
    cl_map_flags flags;
} mosaic_map;

/* clEnqueueMigrateMemObjects: move `mems` to the queue's device (or to the
 * host with CL_MIGRATE_MEM_OBJECT_HOST); CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED
 * allows moving nothing but the ownership. */
typedef struct mosaic_migration {
    cl_mem_migration_flags flags;
    cl_uint count;
    cl_mem mems[];   /* internal references */
} mosaic_migration;

/* clEnqueueNativeKernel: fn(args), where args is the API's copy of the
 * user's argument block; before the call the device writes, at each
 * mem_offsets[i] of args, the host address of mems[i]'s bytes (a
 * pointer-sized slot that may be unaligned). */
typedef struct mosaic_native_call {
    void (CL_CALLBACK *fn)(void *);
    void *args;
    cl_uint num_mems;
    cl_mem *mems;        /* internal references */
    size_t *mem_offsets;
} mosaic_native_call;

/* clEnqueueSVMMemcpy: size bytes, any host or SVM addresses, not overlapping. */
typedef struct mosaic_svm_copy {
    void *dst;
    const void *src;
    size_t size;
} mosaic_svm_copy;

/* clEnqueueSVMMemFill: ptr is aligned to pattern_size, size a multiple of it. */
typedef struct mosaic_svm_fill {
    unsigned char *ptr;
    size_t size, pattern_size;
    _Alignas(16) unsigned char pattern[128];
} mosaic_svm_fill;

/* clEnqueueSVMMap (flags as given) and clEnqueueSVMUnmap (flags 0, size 0:
 * the whole region the pointer was mapped with). */
typedef struct mosaic_svm_region {
    void *pointer;
    size_t size;
    cl_map_flags flags;
} mosaic_svm_region;

/* clEnqueueSVMMigrateMem: sizes[i] 0 means the whole allocation holding
 * pointers[i]. */
typedef struct mosaic_svm_migration {
    cl_mem_migration_flags flags;
    cl_uint count;
    const void **pointers; /* both arrays live in the same allocation as this struct */
    size_t *sizes;
} mosaic_svm_migration;

/* ---- the ops ------------------------------------------------------------------ */

struct mosaic_device_ops {
    /* ---- queries ---- */

    /* Fills the device's reported properties (struct _cl_device_id: name,
     * limits, memory sizes, extensions, OpenCL C features, compiler target)
     * and its mem_domain (the device itself when its memory is its own)
     * once, when the platform starts.  clGetDeviceInfo answers from them. */
    void (*describe)(cl_device_id device);

    /* ---- programs ----
     * How a program is built is the device's: the API checks arguments,
     * keeps the program's state and calls these.  A binary (mosaic_bitcode)
     * is bytes of the device's binary format and their type (COMPILED_OBJECT,
     * LIBRARY or EXECUTABLE): what clGetProgramInfo(CL_PROGRAM_BINARIES)
     * hands out and clCreateProgramWithBinary takes back.  Its data is
     * malloc'd: a binary compile or link makes (nothing when they fail) is
     * the caller's, who frees it with free().  Each op returns CL_SUCCESS or the error the API call
     * must return; *log always receives a malloc'd log (possibly empty)
     * that the caller frees and appends to the program's build log. */

    /* clCompileProgram (and the first step of clBuildProgram): program's
     * source (program->source, with the headers clCompileProgram names
     * for #include), or its SPIR-V (program->il, with the specialization
     * constants the application set), to a COMPILED_OBJECT binary in *out.
     * The caller holds program->lock. */
    cl_int (*compile)(cl_device_id device, cl_program program, const char *options, size_t num_headers,
                      const mosaic_header *headers, mosaic_bitcode *out, char **log);

    /* clLinkProgram (and the second step of clBuildProgram): count
     * COMPILED_OBJECT or LIBRARY binaries to a LIBRARY (create_library:
     * -create-library was given) or EXECUTABLE binary in *out. */
    cl_int (*link)(cl_device_id device, size_t count, const mosaic_bitcode *inputs, const char *options,
                   bool create_library, mosaic_bitcode *out, char **log);

    /* clCreateProgramWithBinary: is data one of this device's binaries,
     * undamaged and safe to read?  CL_SUCCESS with its type in *type, or
     * CL_INVALID_BINARY (or CL_OUT_OF_HOST_MEMORY) with why in the log's
     * first line ("error: why"). */
    cl_int (*check_binary)(cl_device_id device, const void *data, size_t size, cl_program_binary_type *type,
                           char **log);

    /* clCreateProgramWithIL, on a device that reports an il_version: is il
     * a SPIR-V module the device can build?  CL_SUCCESS with its
     * specialization constants (*specs malloc'd, NULL when none), or
     * CL_INVALID_VALUE with why in the log ("error: why"). */
    cl_int (*check_il)(cl_device_id device, const void *il, size_t size, mosaic_spec_constant **specs,
                       size_t *num_specs, char **log);

    /* Turns an EXECUTABLE binary (as link made it, or one the application
     * gave) into kernels this device can run.  Returns CL_SUCCESS or what
     * clBuildProgram must return. */
    cl_int (*finalize)(cl_device_id device, const mosaic_bitcode *executable, const char *options,
                       mosaic_executable **out, char **log);

    /* The most work-items a work-group of `kernel` (one of `exe`'s, an
     * executable finalize made) may have on this device: what the memory
     * for its work-items' private variables allows (the CPU), or its
     * registers (a GPU), at most max_work_group_size.
     * CL_KERNEL_WORK_GROUP_SIZE is the smaller of it and a required size;
     * 0: not even one work-item fits (a launch fails with
     * CL_OUT_OF_RESOURCES).  NULL: max_work_group_size for every kernel. */
    size_t (*kernel_work_group_limit)(cl_device_id device, const mosaic_executable *exe,
                                      const mosaic_kernel_info *kernel);

    /* ---- launches: what only the device knows about running a kernel ---- */

    /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of `kernel` (one of an
     * executable finalize made): the work-items its code runs at once, so
     * that a group of a multiple of it leaves no lane idle.  At least 1. */
    size_t (*kernel_preferred_multiple)(cl_device_id device, const mosaic_kernel_info *kernel);

    /* The local size of a launch whose application gave none and whose
     * kernel requires none.  global[0..3) is the NDRange, each entry at
     * least 1 (1 beyond work_dim and for a global size of 0); max_group is
     * the kernel's CL_KERNEL_WORK_GROUP_SIZE on this device (at least 1).
     * Fills local[0..3): 1 beyond work_dim, each local[d] a divisor of
     * global[d] (the work-groups are uniform) and at most
     * max_work_item_sizes[d], their product at most max_group.  Called on
     * the enqueuing thread, on every such launch: it must be cheap. */
    void (*choose_local_size)(cl_device_id device, const mosaic_kernel_info *kernel, cl_uint work_dim,
                              const size_t global[3], size_t max_group, size_t local[3]);

    /* Called once for each kernel launch (a mosaic_ndrange, core/ndrange.h)
     * on the enqueuing thread, after the API has checked it and filled in
     * its kernel, sizes and arguments, before the command can run: the
     * device may give the launch code made for its shape (the CPU device:
     * nd->sized, a work-group function built for exactly this local size,
     * which it may build here).  When nd->info->regroupable it may also
     * split the NDRange into work-groups of its own choosing: change
     * local_size, num_groups and total_groups (every global id the same;
     * the application's local size was checked before).  It may take the
     * time of a build; it cannot fail (without code of its own the launch
     * runs the kernel's general code).  NULL: nothing to prepare. */
    void (*prepare_launch)(cl_device_id device, mosaic_ndrange *nd);

    /* ---- storage ---- */

    /* Gives mem its storage in this device's memory (called on the
     * domain's device: see mosaic_device_mem_domain) and fills
     * storage->address (what kernels receive, fixed for the storage's
     * life) and storage->allocation (the device's own, for mem_free).
     * Called once per domain of the context when the buffer or sub-buffer
     * is created, before any command can use it.
     *   - a buffer (mem->parent NULL): mem->size bytes aligned to the
     *     device's CL_DEVICE_MEM_BASE_ADDR_ALIGN.  `initial` is the bytes it
     *     starts with (host_ptr for CL_MEM_COPY_HOST_PTR and
     *     CL_MEM_USE_HOST_PTR), or NULL (undefined contents).  With
     *     CL_MEM_USE_HOST_PTR a device that addresses host memory may use
     *     mem->host_ptr itself as its storage (the CPU does: zero copy).
     *   - a sub-buffer: a view of its parent's storage on this device at
     *     mem->offset (the parent's storages exist already).
     * Returns CL_SUCCESS, CL_MEM_OBJECT_ALLOCATION_FAILURE,
     * CL_OUT_OF_RESOURCES or CL_OUT_OF_HOST_MEMORY (then nothing is kept). */
    cl_int (*mem_alloc)(cl_device_id device, cl_mem mem, const void *initial, mosaic_mem_storage *storage);

    /* Bytes [offset, offset + size) of a root buffer's storage on this
     * device copied to host memory, or from it, synchronously on the
     * calling thread (any thread, no lock of the engine's held): how a
     * buffer's bytes move between the memories of a context's devices
     * (core/coherence.h).  NULL, both: the storage is host memory at
     * storage->address, which anyone may copy with memcpy (the CPU). */
    cl_int (*storage_read)(cl_device_id device, const mosaic_mem_storage *storage, size_t offset, void *host,
                           size_t size);
    cl_int (*storage_write)(cl_device_id device, const mosaic_mem_storage *storage, size_t offset,
                            const void *host, size_t size);

    /* Bytes [offset, offset + size) of a root buffer's storage `src` on
     * another device, `from`, copied into this device's storage `dst` at the
     * same offset without passing through this process: where the two can
     * reach each other (two remote devices: their servers, over MPI).
     * Same terms as storage_write.  CL_INVALID_OPERATION: they cannot, and
     * the copy goes through host memory (core/coherence.c).  NULL: never. */
    cl_int (*storage_copy_from)(cl_device_id device, const mosaic_mem_storage *dst, cl_device_id from,
                                const mosaic_mem_storage *src, size_t offset, size_t size);

    /* Frees what mem_alloc (and map_address) kept for mem.  Called once,
     * when no command and no sub-buffer can use mem any more (sub-buffers
     * are freed before their parent). */
    void (*mem_free)(cl_device_id device, cl_mem mem, mosaic_mem_storage *storage);

    /* The host address clEnqueueMapBuffer returns for [offset, offset +
     * size) of mem; called at enqueue time (the pointer is returned before
     * the map command runs).  A device whose storage is host memory returns
     * it (zero copy).  A device with memory of its own returns host memory
     * that the map command fills and the unmap command writes back:
     * mem->host_ptr + offset for CL_MEM_USE_HOST_PTR (the specification
     * requires it), else a host copy it keeps until mem_free.  NULL:
     * clEnqueueMapBuffer fails with CL_MAP_FAILURE. */
    void *(*map_address)(cl_device_id device, cl_mem mem, size_t offset, size_t size, cl_map_flags flags);

    /* Shared virtual memory (when the device reports SVM capabilities): an
     * allocation of size bytes (alignment a power of two up to 128, already
     * checked) at one address valid on the host and in the kernels of every
     * device of the context, or NULL.  The API keeps the registry of
     * allocations and calls svm_free once for each. */
    void *(*svm_alloc)(cl_device_id device, cl_svm_mem_flags flags, size_t size, cl_uint alignment);
    void (*svm_free)(cl_device_id device, void *pointer);

    /* ---- partitioning (clCreateSubDevices; NULL: the device cannot be
     * partitioned) ---- */

    /* The key of compute unit `unit`'s affinity domain `domain`
     * (CL_DEVICE_AFFINITY_DOMAIN_NUMA, ..._L1_CACHE): units with the same
     * key share it.  -1 when the device does not know. */
    long (*unit_domain_key)(cl_device_id device, cl_uint unit, cl_device_affinity_domain domain);

    /* Makes `sub` (a copy of parent's description, its handle initialised)
     * run on units[0..count) of parent's compute units: its own executor.
     * Returns CL_SUCCESS or CL_OUT_OF_HOST_MEMORY / CL_OUT_OF_RESOURCES. */
    cl_int (*init_sub_device)(cl_device_id sub, cl_device_id parent, const cl_uint *units, cl_uint count);

    /* Ends what init_sub_device started, when the sub-device is destroyed
     * (its commands have all completed). */
    void (*release_sub_device)(cl_device_id sub);

    /* ---- commands ---- */

    /* Starts a command whose dependencies are all complete: a kernel
     * (run NULL, payload mosaic_ndrange) or any command with a run.  On a
     * device that runs_in_submission_order (objects.h) one dependency may
     * still be incomplete: the command before it on its in-order queue,
     * which was submitted to this device already; the device runs it after
     * that one and completes it after that one completes.  The
     * device must call mosaic_command_complete(command, status) exactly
     * once, from any thread, with no engine lock held, possibly before
     * submit returns; it may call mosaic_command_running first (the
     * profiling START time).  submit must not wait for another command:
     * it is called with no lock held, from the enqueuing thread or from
     * whichever thread completed the command's last dependency (a worker,
     * a callback). */
    void (*submit)(cl_device_id device, cl_event command);

    /* Command ops (see the top of this file); payload in brackets. */
    cl_int (*read)(cl_event command);          /* (mosaic_transfer) buffer -> host */
    cl_int (*write)(cl_event command);         /* (mosaic_transfer) host -> buffer */
    cl_int (*copy)(cl_event command);          /* (mosaic_transfer) buffer -> buffer */
    cl_int (*fill)(cl_event command);          /* (mosaic_fill) */
    cl_int (*fill_rect)(cl_event command);     /* (mosaic_fill_rect) clEnqueueFillImage; required
                                                  with image_support */
    cl_int (*map)(cl_event command);           /* (mosaic_map) make the region readable at pointer,
                                                  unless CL_MAP_WRITE_INVALIDATE_REGION; NULL: nothing to do */
    cl_int (*unmap)(cl_event command);         /* (mosaic_map) write back a region mapped for writing;
                                                  NULL: nothing to do */
    cl_int (*migrate)(cl_event command);       /* (mosaic_migration) NULL: nothing to do */
    cl_int (*native_kernel)(cl_event command); /* (mosaic_native_call) NULL: no native kernels
                                                  (clEnqueueNativeKernel fails with CL_INVALID_OPERATION) */
    cl_int (*svm_copy)(cl_event command);      /* (mosaic_svm_copy) */
    cl_int (*svm_fill)(cl_event command);      /* (mosaic_svm_fill) */
    cl_int (*svm_map)(cl_event command);       /* (mosaic_svm_region) NULL: nothing to do */
    cl_int (*svm_unmap)(cl_event command);     /* (mosaic_svm_region) NULL: nothing to do */
    cl_int (*svm_migrate)(cl_event command);   /* (mosaic_svm_migration) NULL: nothing to do */
};

/* For describe: device->extensions (`runtime` then `language`, separated
 * by spaces), its OpenCL C features (`features`) and
 * compiler_target.clang_features, the clang flags that agree with them:
 * "-cl-ext=-all,+<language>...,+<feature>..." and __OPENCL_VERSION__ from
 * device->version (set it first; clang does not define it).  `language`
 * are the extensions with an OpenCL C side, `runtime` those without.  The
 * two strings are written into ext_buf and clang_buf, which must outlive
 * the device. */
void mosaic_device_set_extensions(cl_device_id device, const char *const *runtime, size_t num_runtime,
                                  const char *const *language, size_t num_language, const char *const *features,
                                  size_t num_features, char *ext_buf, size_t ext_size, char *clang_buf,
                                  size_t clang_size);

/* The program ops of a device whose binaries are Mosaic's compiler's bitcode
 * for its compiler_target (core/program_ops.c): compile, link and check_binary
 * are the compiler's steps with that target, check_il the SPIR-V front end's
 * check.  The CPU's and the GPU's ops are these; their finalize is their own. */
cl_int mosaic_target_compile(cl_device_id device, cl_program program, const char *options, size_t num_headers,
                             const mosaic_header *headers, mosaic_bitcode *out, char **log);
cl_int mosaic_target_link(cl_device_id device, size_t count, const mosaic_bitcode *inputs, const char *options,
                          bool create_library, mosaic_bitcode *out, char **log);
cl_int mosaic_target_check_binary(cl_device_id device, const void *data, size_t size, cl_program_binary_type *type,
                                  char **log);
cl_int mosaic_target_check_il(cl_device_id device, const void *il, size_t size, mosaic_spec_constant **specs,
                              size_t *num_specs, char **log);

/* The svm_copy and svm_fill ops of a device whose SVM is host memory its
 * executing thread may touch (core/svm_ops.c): memcpy and memset.  The
 * CPU's ops are these, and the GPU's (its managed memory, once the commands
 * before have completed). */
cl_int mosaic_host_svm_copy(cl_event command);
cl_int mosaic_host_svm_fill(cl_event command);

/* The device whose memory `device` uses: itself, or for a sub-device the
 * root device it was partitioned from (sub-devices share their parent's
 * memory, so a buffer has one storage for a device and all its
 * sub-devices).  A device's describe op sets device->mem_domain to the
 * device itself; a sub-device made as a copy of its parent's description
 * keeps the parent's value, which is what makes it share. */
static inline cl_device_id mosaic_device_mem_domain(cl_device_id device)
{
    return device->mem_domain ? device->mem_domain : device;
}

#endif
