/*
 * What SVM (api/svm.c) shares with Intel's unified shared memory
 * (api/usm.c): one registry of pointer allocations and the commands that
 * copy, fill and migrate them.  Both kinds of memory come from the devices'
 * ops->svm_alloc and are plain memory on the CPU device (docs/memory.md).
 */
#ifndef MOSAIC_API_SVM_H
#define MOSAIC_API_SVM_H

#include "core/objects.h"

/* The default and largest alignment of an allocation: the size of the
 * largest built-in data type, long16 (CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE);
 * also the largest fill pattern. */
#define MOSAIC_SVM_MAX_ALIGN ((cl_uint)sizeof(cl_long16))

typedef enum mosaic_allocation_kind {
    MOSAIC_ALLOC_SVM,        /* clSVMAlloc */
    MOSAIC_ALLOC_USM_HOST,   /* clHostMemAllocINTEL */
    MOSAIC_ALLOC_USM_DEVICE, /* clDeviceMemAllocINTEL */
    MOSAIC_ALLOC_USM_SHARED, /* clSharedMemAllocINTEL */
} mosaic_allocation_kind;

/* kernel->usm_indirect: the kinds of USM allocation a kernel may reach
 * through memory (CL_KERNEL_EXEC_INFO_INDIRECT_*_ACCESS_INTEL). */
#define MOSAIC_USM_INDIRECT_HOST 1u
#define MOSAIC_USM_INDIRECT_DEVICE 2u
#define MOSAIC_USM_INDIRECT_SHARED 4u

typedef struct mosaic_allocation {
    uintptr_t base;
    size_t size;               /* as asked for (at least 1) */
    mosaic_allocation_kind kind;
    cl_bitfield flags;         /* SVM: cl_svm_mem_flags; USM: cl_mem_alloc_flags_intel */
    cl_context context;        /* SVM: an internal hold; USM: none (freed with the context) */
    cl_device_id allocator;    /* whose ops->svm_alloc made it, and will free it */
    cl_device_id device;       /* USM device and shared allocations: the device named, or NULL */
} mosaic_allocation;

/* Allocates desc->size bytes aligned to `alignment` (a power of two, already
 * checked) from desc->allocator's ops->svm_alloc (asking for `svm_flags`)
 * and registers the allocation as *desc describes it.  NULL when out of
 * memory (reported to the context's callback). */
void *mosaic_allocation_new(const mosaic_allocation *desc, cl_svm_mem_flags svm_flags, cl_uint alignment);

/* Copies out the allocation of context that holds ptr (any byte of it);
 * false when none does. */
bool mosaic_allocation_lookup(cl_context context, const void *ptr, mosaic_allocation *out);

/* Frees the allocation of context that starts at ptr, if it is of the USM
 * kinds (`usm`) or SVM (!usm); false when there is none (left alone). */
bool mosaic_allocation_free(cl_context context, void *ptr, bool usm);

/* Frees every USM allocation of a context being destroyed (api/context.c). */
void mosaic_allocations_free_context(cl_context context);

/* The smallest CL_DEVICE_MAX_MEM_ALLOC_SIZE of the context's devices. */
cl_ulong mosaic_context_min_alloc(cl_context context);

/* The commands, checked past their queue (the caller checks it takes host
 * commands and has the memory's support; `function` names the entry point
 * in messages):
 *   mosaic_enqueue_host_copy: size bytes from src to dst, any host or
 *     shared addresses, not overlapping (CL_MEM_COPY_OVERLAP);
 *   mosaic_enqueue_host_fill: the pattern over size bytes from ptr (named
 *     `ptr_name`), pattern_size a power of two up to 128 that divides size
 *     and ptr's address;
 *   mosaic_enqueue_migration: the device's ops->svm_migrate over the
 *     pointers (sizes NULL or 0: the whole allocation), or an ordering-only
 *     command where it has none (the CPU);
 *   mosaic_enqueue_ordering: a command that does nothing but take its place
 *     in the command graph (a hint the device has no use for). */
cl_int mosaic_enqueue_host_copy(const char *function, cl_command_queue queue, cl_command_type type, bool blocking,
                                void *dst, const void *src, size_t size, cl_uint num_events,
                                const cl_event *wait_list, cl_event *event);
cl_int mosaic_enqueue_host_fill(const char *function, cl_command_queue queue, cl_command_type type, void *ptr,
                                const char *ptr_name, const void *pattern, size_t pattern_size, size_t size,
                                cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int mosaic_enqueue_migration(cl_command_queue queue, cl_command_type type, cl_uint count, const void **pointers,
                                const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events,
                                const cl_event *wait_list, cl_event *event);
cl_int mosaic_enqueue_ordering(cl_command_queue queue, cl_command_type type, cl_uint num_events,
                               const cl_event *wait_list, cl_event *event);

/* A host queue's checks shared by the SVM and USM commands: the handle,
 * not a device queue, its device `supports` the memory (CL_INVALID_OPERATION
 * naming `memory`), and the wait list. */
cl_int mosaic_check_pointer_queue(const char *function, cl_command_queue queue, bool (*supports)(cl_device_id),
                                  const char *memory, cl_uint num_events, const cl_event *wait_list);

#endif
