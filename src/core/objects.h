/*
 * Mosaic's object model: every OpenCL handle is a pointer to one of the
 * structs below.  Each starts with the ICD dispatch pointer (cl_khr_icd: the
 * loader reads it to find our functions), then a mosaic_object header with a
 * type tag (to reject bad handles with the right CL_INVALID_* code) and two
 * reference counts.
 *
 * Reference counts: `refcount` is the user's (clRetainX / clReleaseX, and what
 * CL_X_REFERENCE_COUNT reports).  `internal` counts the runtime's own holds
 * (a command holding its queue and buffers, a kernel holding its program...)
 * plus one for all user references together.  The object is destroyed when
 * `internal` reaches zero, so a queue released by the user while commands are
 * pending lives until they complete.
 */
#ifndef MOSAIC_OBJECTS_H
#define MOSAIC_OBJECTS_H

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "core/cl_ext_compat.h"
#include "compiler/compiler.h"

typedef enum mosaic_object_type {
    MOSAIC_PLATFORM = 0x4d6f5031, /* readable tags help in a debugger */
    MOSAIC_DEVICE,
    MOSAIC_CONTEXT,
    MOSAIC_QUEUE,
    MOSAIC_EVENT,
    MOSAIC_MEM,
    MOSAIC_PROGRAM,
    MOSAIC_KERNEL,
    MOSAIC_SAMPLER,
    MOSAIC_COMMAND_BUFFER,  /* cl_khr_command_buffer: struct in api/command_buffer.c */
    MOSAIC_MUTABLE_COMMAND, /* cl_khr_command_buffer_mutable_dispatch: the same */
    MOSAIC_SEMAPHORE, /* cl_khr_semaphore */
    MOSAIC_DEAD = 0x44454144, /* written on destruction */
} mosaic_object_type;

typedef struct mosaic_object {
    mosaic_object_type type;
    atomic_uint refcount; /* the user's references */
    atomic_uint internal; /* the runtime's holds, +1 while refcount > 0 */
    void (*destroy)(void *self);
} mosaic_object;

#define MOSAIC_OBJECT_HEADER            \
    const cl_icd_dispatch *dispatch;    \
    mosaic_object obj

/* ---- generic helpers (core/object.c) ------------------------------------ */
/* Starts an object's life with one user reference.  `dispatch` is the ICD
 * table its handle carries: the API layer passes its own (api/icd.c); an
 * object made by core for another (a command's event) takes its parent's.
 * `destroy` runs when the last reference of either kind goes; NULL marks an
 * object that lives as long as the library (the platform, root devices):
 * user retains and releases of it only check the handle, and its count
 * stays 1. */
void mosaic_object_init(void *object, mosaic_object_type type, const cl_icd_dispatch *dispatch,
                        void (*destroy)(void *));
bool mosaic_object_is(const void *object, mosaic_object_type type);
void mosaic_retain(void *object);           /* user retain */
bool mosaic_release(void *object);          /* user release; false if released more often than retained */
void mosaic_retain_internal(void *object);
void mosaic_release_internal(void *object);
cl_uint mosaic_refcount(const void *object);

#define MOSAIC_IS(handle, TYPE) mosaic_object_is((handle), MOSAIC_##TYPE)

/* Device queues (CL_QUEUE_ON_DEVICE) by their handles, which kernels hold
 * as queue_t values that may be anything: a queue is registered once made
 * (false: out of memory) and unregistered by its destruction;
 * mosaic_device_queue_hold returns the live device queue `handle` is, with
 * an internal hold the caller releases, or NULL, and reads nothing through
 * a handle it does not find. */
bool mosaic_device_queue_register(cl_command_queue q);
void mosaic_device_queue_unregister(cl_command_queue q);
cl_command_queue mosaic_device_queue_hold(const void *handle);

/* ---- devices -------------------------------------------------------------- */
/* What each kind of device implements: core/device.h. */
typedef struct mosaic_device_ops mosaic_device_ops;

struct _cl_platform_id {
    MOSAIC_OBJECT_HEADER;
    cl_uint num_devices;
    cl_device_id *devices;
};

/* The scalar types whose vector widths a device reports. */
typedef enum mosaic_vector_type {
    MOSAIC_VECTOR_CHAR,
    MOSAIC_VECTOR_SHORT,
    MOSAIC_VECTOR_INT,
    MOSAIC_VECTOR_LONG,
    MOSAIC_VECTOR_FLOAT,
    MOSAIC_VECTOR_DOUBLE,
    MOSAIC_VECTOR_HALF,
    MOSAIC_VECTOR_TYPES
} mosaic_vector_type;

struct _cl_device_id {
    MOSAIC_OBJECT_HEADER;
    cl_platform_id platform;
    cl_device_type type;
    const mosaic_device_ops *ops;
    void *impl; /* the device's own state (devices/cpu) */
    cl_device_id mem_domain; /* the device whose memory this one uses (mosaic_device_mem_domain):
                                describe sets it (a root device: itself); a sub-device, a copy of
                                its parent's description, keeps its parent's.  NULL: its own */
    bool runs_in_submission_order; /* its commands run one after another in the order submitted (a
                                      GPU's stream): the engine may submit an in-order queue's
                                      command while the one before it still runs (engine.c) */

    /* What the device reports; filled by the device at start-up. */
    cl_version version;                /* CL_DEVICE_NUMERIC_VERSION (3.0 or 3.1); CL_DEVICE_VERSION says it */
    char name[256];
    char vendor[64];                   /* CL_DEVICE_VENDOR (a CPU: docs/devices.md, "Identity") */
    cl_uint vendor_id;                 /* CL_DEVICE_VENDOR_ID: a PCI vendor ID, 0 when none is known */
    unsigned char uuid[16];            /* CL_DEVICE_UUID_KHR: the same in every process and after reboots */
    cl_uint compute_units;
    cl_ulong global_mem_size;
    cl_ulong max_mem_alloc_size;
    cl_ulong local_mem_size;
    cl_ulong max_constant_buffer_size; /* also the most all of a program's __constant variables may take */
    size_t max_global_variable_size;   /* each __global variable of program scope; 0 without the feature */
    size_t max_parameter_size;         /* a kernel's arguments together (at 1024, at most 128 of them) */
    cl_uint max_constant_args;         /* a kernel's __constant pointer arguments */
    cl_ulong global_mem_cache_size;
    cl_uint global_mem_cacheline_size;
    size_t max_work_group_size;
    size_t max_work_item_sizes[3];
    size_t sub_group_size;             /* work-items per sub-group; 0: no sub-groups */
    bool sub_group_forward_progress;   /* CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS */
    cl_uint max_clock_frequency;
    /* CL_DEVICE_PREFERRED_ and NATIVE_VECTOR_WIDTH_*, by mosaic_vector_type:
     * widths a kernel can declare (2 to 16; 1: no vector); double and half
     * are reported as 0 when the device lacks cl_khr_fp64 or cl_khr_fp16. */
    cl_uint preferred_vector_width[MOSAIC_VECTOR_TYPES], native_vector_width[MOSAIC_VECTOR_TYPES];
    size_t preferred_work_group_size_multiple; /* CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE */
    /* The processor: its addresses, byte order and arithmetic.  The
     * floating-point configurations are reported as 0 for double and half
     * when the device lacks cl_khr_fp64 or cl_khr_fp16. */
    cl_uint address_bits;              /* CL_DEVICE_ADDRESS_BITS: 32 or 64 */
    bool endian_little;                /* CL_DEVICE_ENDIAN_LITTLE */
    bool error_correction;             /* CL_DEVICE_ERROR_CORRECTION_SUPPORT */
    cl_device_fp_config single_fp_config, double_fp_config, half_fp_config;
    /* What it runs and how its memory and queues behave. */
    cl_device_exec_capabilities execution_capabilities; /* CL_EXEC_NATIVE_KERNEL only with ops->native_kernel */
    cl_command_queue_properties queue_on_host_properties;
    cl_device_local_mem_type local_mem_type; /* CL_LOCAL: a dedicated store; CL_GLOBAL: ordinary memory */
    bool host_unified_memory;          /* CL_DEVICE_HOST_UNIFIED_MEMORY: it shares the host's memory */
    size_t printf_buffer_size;                 /* CL_DEVICE_PRINTF_BUFFER_SIZE */
    cl_uint mem_base_addr_align_bits;
    cl_device_svm_capabilities svm_capabilities;
    /* Pipes (reported when opencl_c_features lists __opencl_c_pipes). */
    cl_uint pipe_max_packet_size, max_pipe_args, pipe_max_active_reservations;
    const char *extensions;            /* space separated */
    const char *il_version;            /* CL_DEVICE_IL_VERSION: "SPIR-V_1.0 ..."; "" or NULL: no IL programs */
    const char *opencl_c_features[64]; /* __opencl_c_* names the compiler enables */
    cl_uint num_opencl_c_features;
    mosaic_compiler_target compiler_target;

    /* Partitioning (api/device.c).  A sub-device starts as a copy of its
     * parent's description, with its own compute units and executor (impl);
     * it holds an internal reference on its parent. */
    cl_device_id parent;                           /* NULL for a root device */
    cl_device_partition_property *partition_type;  /* sub-devices: the properties they were made with, 0-terminated */
    size_t partition_type_len;                     /* entries, the final 0 included */
    /* Device-side enqueue (OpenCL 2.x device queues); max_on_device_queues 0: not supported. */
    cl_uint max_on_device_queues;     /* per context */
    cl_uint max_on_device_events;     /* live clk_event_t at a time */
    cl_uint queue_on_device_preferred_size, queue_on_device_max_size; /* bytes */
    /* Images (docs/images.md); image_support false: none, and the limits are 0. */
    bool image_support;
    size_t image2d_max_width, image2d_max_height;
    size_t image3d_max_width, image3d_max_height, image3d_max_depth;
    size_t image_max_buffer_size;  /* pixels of a 1D buffer image */
    size_t image_max_array_size;
    cl_uint max_read_image_args, max_write_image_args, max_read_write_image_args, max_samplers;
    cl_uint image_pitch_alignment;        /* pixels (2D images from buffers) */
    cl_uint image_base_address_alignment; /* pixels (2D images from buffers) */
};


/* ---- contexts ------------------------------------------------------------- */
typedef struct mosaic_callback {
    struct mosaic_callback *next;
    void (*fn)(void);  /* cast to the right signature where called */
    void *user_data;
    cl_int when;       /* for event callbacks: the status that triggers it */
} mosaic_callback;

struct _cl_context {
    MOSAIC_OBJECT_HEADER;
    cl_uint num_devices;
    cl_device_id *devices;
    cl_context_properties *properties; /* copy, 0-terminated, NULL if none given */
    size_t num_properties;              /* entries including the final 0 */
    void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
    void *notify_data;
    pthread_mutex_t lock; /* what it guards: docs/architecture.md, "Locks" */
    mosaic_callback *destructor_callbacks; /* newest first: called in that order */
    /* Device queues: the default one of each device (same index as devices;
     * not held: a queue clears its entry when it is destroyed), and how many
     * live (CL_DEVICE_MAX_ON_DEVICE_QUEUES). */
    _Atomic(cl_command_queue) *default_device_queues;
    atomic_uint num_device_queues;
    cl_uint num_memories; /* memory domains among the devices (core/coherence.h when more than one) */
};

/* ---- command queues -------------------------------------------------------- */
struct _cl_command_queue {
    MOSAIC_OBJECT_HEADER;
    cl_context context;
    cl_device_id device;
    cl_command_queue_properties properties;
    cl_queue_properties *property_list; /* as given to ...WithProperties, or NULL */
    size_t num_property_list;
    cl_uint size; /* device queues only: CL_QUEUE_SIZE bytes */
    atomic_size_t device_queue_used; /* device queues: bytes taken by commands kernels enqueued, not complete */
    /* Guarded by the engine lock (docs/architecture.md, "Locks"): */
    cl_event last_command;   /* in-order succession edge */
    cl_event last_barrier;   /* every later command waits for it */
    cl_event pending_head, pending_tail; /* commands enqueued and not complete, oldest first */
    size_t num_pending;
    cl_command_queue busy_prev, busy_next; /* in the engine's list of queues with num_pending > 0 */
    pthread_cond_t drained;  /* broadcast when num_pending drops to 0 */
    /* Commands of the queue whose status is final and whose cleanup still
     * runs on the thread that completed them (engine.c): clFinish waits for
     * these too.  Atomic, not under the lock. */
    atomic_size_t settling;
    /* MOSAIC_TRACE (core/trace.c): the queue's number in the timeline (0:
     * not traced), and when each of its lanes is free again (the engine
     * lock guards them; UINT64_MAX: a command runs there). */
    unsigned trace_id;
    uint64_t *trace_lane_end;
    unsigned trace_num_lanes;
};

/* ---- memory objects ---------------------------------------------------------- */

/* A memory object's bytes on one memory domain (a device and its
 * sub-devices): given by that device's ops->mem_alloc, freed by its
 * ops->mem_free (core/device.h, docs/devices.md). */
typedef struct mosaic_mem_storage {
    cl_device_id device;  /* the domain: mosaic_device_mem_domain() of the context's devices */
    char *address;        /* the first byte as the device's kernels address it (the CPU: a host
                             address); fixed for the storage's life */
    void *allocation;     /* the device's own record of what to free; NULL for a view or the user's memory */
} mosaic_mem_storage;

/* An image's shape and layout (docs/images.md).  Its bytes are its
 * storage, like a buffer's: rows of row_pitch bytes, slices (3D) or layers
 * (arrays) of slice_pitch bytes; the pitches are the ones the application
 * gave (USE_HOST_PTR: zero copy; COPY_HOST_PTR: one flat copy; an image
 * from a buffer), else packed.  An image made from a buffer or another image
 * is a view of its storage: mem->parent is that object (offset 0). */
typedef struct mosaic_image {
    cl_image_format format;
    size_t width, height, depth, array_size; /* as clGetImageInfo reports them: 0 where unused */
    size_t row_pitch, slice_pitch;           /* slice_pitch 0 for 1D, 1D buffer and 2D images */
    size_t pixel_size;
    cl_uint num_channels;
    cl_mem buffer;                           /* CL_IMAGE_BUFFER: the buffer it was made from, or NULL */
} mosaic_image;

struct _cl_mem {
    MOSAIC_OBJECT_HEADER;
    cl_context context;
    cl_mem_object_type mem_type;
    cl_mem_flags flags;
    size_t size;
    void *host_ptr;      /* what the user passed (USE_HOST_PTR keeps using it) */
    cl_mem parent;       /* sub-buffers: the buffer they view */
    size_t offset;       /* sub-buffers: the origin in the parent */
    cl_mem_properties *properties; size_t num_properties;
    atomic_uint map_count;
    pthread_mutex_t lock; /* what it guards: docs/architecture.md, "Locks" */
    mosaic_callback *destructor_callbacks;
    struct mosaic_mapping *mappings; /* active maps: pointer -> region */
    bool is_svm_backed;  /* USE_HOST_PTR with an SVM pointer */
    cl_uint pipe_packet_size, pipe_max_packets; /* pipes (mem_type CL_MEM_OBJECT_PIPE) */
    mosaic_image image;  /* images (mem_type CL_MEM_OBJECT_IMAGE*) */
    /* Which storages are current, where the context has several memories
     * (root buffers only; NULL otherwise): core/coherence.h. */
    struct mosaic_coherence *coherence;
    /* Checking mode's `uninit`: which bytes something wrote (root buffers
     * created without host data; core/check_written.h), or NULL. */
    struct mosaic_check_written *written;
    /* One storage per memory domain of the context, allocated with the
     * object (core/memory.h: mosaic_mem_storage_on). */
    cl_uint num_storages;
    mosaic_mem_storage storages[];
};

typedef struct mosaic_mapping {
    struct mosaic_mapping *next;
    void *pointer;
    size_t offset, size;
    cl_map_flags flags;
} mosaic_mapping;

/* ---- programs and kernels --------------------------------------------------- */

/* What a program is for one root device (api/program.c). */
typedef struct mosaic_program_build {
    cl_device_id device;       /* the root device: the builds ops are called on */
    cl_build_status status;
    mosaic_strbuf log;
    mosaic_bitcode binary;     /* type NONE when empty */
    mosaic_executable *executable;
} mosaic_program_build;

struct _cl_program {
    MOSAIC_OBJECT_HEADER;
    cl_context context;
    cl_uint num_devices;
    cl_device_id *devices;
    char *source;              /* NULL for binaries */
    char *il; size_t il_size;  /* SPIR-V (clCreateProgramWithIL), NULL otherwise */
    mosaic_spec_constant *spec_constants; /* the module's; their values set under lock */
    size_t num_spec_constants;
    pthread_mutex_t lock; /* what it guards: docs/architecture.md, "Locks" */
    char *options;             /* of the last build, compile or link */
    /* One build per root device among the program's devices (a device and
     * its sub-devices run the same code): builds[build_of[i]] is devices[i]'s. */
    cl_uint num_builds;
    mosaic_program_build *builds;
    cl_uint *build_of;
    atomic_uint num_kernels;   /* kernels attached: rebuilding is refused while > 0 */
    mosaic_callback *release_callbacks;
};

typedef struct mosaic_arg_value {
    bool set;
    cl_mem mem;         /* for buffer, image and pipe args (not retained: enqueues hold it) */
    void *svm;          /* SVM pointer args */
    uint64_t sampler_bits; /* sampler args: the cl_sampler's MOSAIC_SAMPLER_* bits, taken by clSetKernelArg */
    size_t local_size;  /* for __local args */
    /* by-value bytes live in kernel->arg_bytes at arg_offsets[i] */
} mosaic_arg_value;

struct _cl_kernel {
    MOSAIC_OBJECT_HEADER;
    cl_program program;
    /* The kernel in each of the program's builds (NULL where that build has
     * none); `info` is the first of them, whose arguments the API checks
     * (every build comes from the same source). */
    const mosaic_kernel_info **infos;
    const mosaic_kernel_info *info;
    mosaic_arg_value *args;
    size_t *arg_offsets;             /* where by-value bytes sit in arg_bytes */
    char *arg_bytes;
    size_t arg_bytes_size;
    void **svm_pointers; size_t num_svm_pointers;
    bool fine_grain_system_svm;
    /* cl_intel_unified_shared_memory's clSetKernelExecInfo (api/usm.c): the
     * USM allocations reached through memory, and the kinds reached at will
     * (MOSAIC_USM_INDIRECT_* bits of api/svm.h) */
    void **usm_pointers; size_t num_usm_pointers;
    unsigned usm_indirect;
};

/* ---- events: every enqueued command is one ------------------------------------ */
typedef struct mosaic_command_payload mosaic_command_payload;

struct _cl_event {
    MOSAIC_OBJECT_HEADER;
    cl_context context;
    cl_command_queue queue;          /* NULL for user events */
    cl_command_type command_type;
    /* Guarded by the engine lock (docs/architecture.md, "Locks"): */
    cl_int status;                   /* CL_QUEUED..CL_COMPLETE, or negative */
    cl_int dependency_error;         /* a dependency failed: this command fails too */
    size_t waiting_for;              /* incomplete dependencies (+1 while being enqueued) */
    void *dependents; size_t num_dependents, cap_dependents; /* outgoing edges (engine.c) */
    cl_event pending_prev, pending_next; /* in queue->pending list */
    cl_event ready_next;             /* in the starting thread's list of ready commands (engine.c) */
    mosaic_callback *callbacks;
    pthread_cond_t completed;        /* broadcast when settled, if there are sleepers */
    int sleepers;                    /* threads waiting on `completed` (atomic; changed under the lock) */
    bool settled;                    /* (atomic) complete, and done with its payload: what a wait waits for */
    /* profiling, nanoseconds of mosaic_now_ns() */
    cl_ulong time_queued, time_submit, time_start, time_end, time_complete;
    /* what to run: set by the enqueue function, run by the device (core/device.h) */
    cl_int (*run)(cl_event self);    /* does the work (usually the device's op for the command);
                                        returns CL_COMPLETE or a negative error.  NULL: the device
                                        knows the command (kernels), or nothing to do (markers) */
    void (*cleanup)(cl_event self);  /* frees the payload's holds; called once after completion */
    void *payload;
    void *owner;                     /* a payload that is another object's (a command buffer's, for
                                        its replays): that object, which cleanup releases */
    bool run_inline;                 /* blocking command: may run on the enqueuing thread */
    bool handed_over;                /* (atomic) its device's submit returned; only set on a device
                                        that runs_in_submission_order */
    /* MOSAIC_TRACE (core/trace.c): the command's number in the timeline (0:
     * not traced) and its lane on its queue's track (-1: none yet; the
     * engine lock guards it). */
    uint64_t trace_id;
    int trace_lane;
};

/* ---- samplers ------------------------------------------------------------------ */
struct _cl_sampler {
    MOSAIC_OBJECT_HEADER;
    cl_context context;
    cl_bool normalized_coords;
    cl_addressing_mode addressing_mode;
    cl_filter_mode filter_mode;
    cl_sampler_properties *properties; size_t num_properties;
    uint32_t bits; /* what a kernel's sampler_t argument receives: MOSAIC_SAMPLER_* (compiler.h) */
};

/* ---- semaphores (cl_khr_semaphore; core/semaphore.c) --------------------------- */
/* A binary semaphore: signalled or not.  A wait command that finds it
 * unsignalled waits for a gate, a user event of the engine that the next
 * signal completes (docs/events.md, "Semaphores"). */
typedef struct mosaic_semaphore_waiter {
    struct mosaic_semaphore_waiter *next;
    cl_event gate;                       /* holds its user reference */
} mosaic_semaphore_waiter;

struct _cl_semaphore_khr {
    MOSAIC_OBJECT_HEADER;
    cl_context context;
    cl_device_id device;                 /* CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR's one device; NULL: all of the context's */
    cl_semaphore_properties_khr *properties; size_t num_properties; /* as given, 0 included */
    pthread_mutex_t lock;                /* guards the two below */
    bool signalled;
    mosaic_semaphore_waiter *waiters_head, *waiters_tail; /* waits not yet signalled, oldest first */
};

#endif
