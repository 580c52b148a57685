/* What the GPU device's files share (cuda.h lists them): the driver, each
 * GPU's state, and the ops each file implements. */
#ifndef MOSAIC_CUDA_INTERNAL_H
#define MOSAIC_CUDA_INTERNAL_H

#include <pthread.h>

#include "core/serial.h"
#include "devices/cuda/cuda.h"
#include "devices/cuda/cuda_driver.h"

/* The driver, opened once (mosaic_cuda_device_count) and never closed:
 * the process may exit while a GPU still runs a command. */
extern mosaic_cuda_driver mosaic_cuda;

/* One GPU (device->impl).  Its commands run in the order they are
 * submitted, all on `stream`: the executor thread queues each, the
 * completer thread waits for each to end and completes it.  Kernels run on
 * while the executor goes on to the next command; the engine may submit an
 * in-order queue's next command before this one completes
 * (runs_in_submission_order), and the stream's order keeps the queue's
 * (docs/gpu.md, "How commands run"). */
typedef struct cuda_gpu {
    unsigned ordinal;
    CUdevice device;
    CUcontext context;          /* the GPU's primary context */
    CUstream stream;            /* non-blocking: no implicit order with the legacy stream */
    char sm[16];                /* "sm_90": what PTX is made for */
    size_t shared_per_block;    /* __local bytes a block has without asking */
    size_t shared_optin;        /* and with cuFuncSetAttribute: what the device reports */
    unsigned max_grid[3];
    bool sub_groups;            /* compute capability 7.0 or later: warps as sub-groups */
    char extensions[1024];      /* CL_DEVICE_EXTENSIONS */
    char clang_features[4096];  /* what the front end is told */
    pthread_mutex_t issue;      /* held while a command is queued on the stream: one at a time */
    mosaic_serial executor;     /* queues commands on the stream, one at a time (core/serial.h) */
    unsigned queued;            /* (atomic) commands given to the executor that it has not queued yet */
    mosaic_serial completer;    /* waits for them to end, in the same order, and completes them */
    unsigned unfinished;        /* (atomic) commands given to the completer that it has not completed */
    pthread_mutex_t spare_lock; /* guards the spare events */
    CUevent *spare;             /* events for the completer to wait on, ready for reuse */
    size_t num_spare, cap_spare;
    /* Pinned host memory that small reads and writes go through, a ring:
     * taken at the head when a command is queued (g->issue held), given
     * back at the tail when the completer completes it, in the same order
     * (cuda_memory.c).  Counters of bytes ever taken and given back. */
    char *staging;
    size_t staging_taken, staging_given; /* (atomic) */
} cuda_gpu;

static inline cuda_gpu *cuda_gpu_of(cl_device_id device)
{
    return (cuda_gpu *)device->impl;
}

/* Makes the GPU's context current on the calling thread (an op may run on
 * the executor or, for a blocking command, on the application's thread). */
cl_int mosaic_cuda_enter(cuda_gpu *g);

/* What a driver call returned, as OpenCL says it (mosaic_cuda_cl_error);
 * a failure is told on stderr with MOSAIC_DEBUG=device, naming the call.
 * CUDA_CALL(cuMemFree, address) calls mosaic_cuda.cuMemFree(address). */
cl_int mosaic_cuda_check(CUresult r, const char *call);
#define CUDA_CALL(function, ...) mosaic_cuda_check(mosaic_cuda.function(__VA_ARGS__), #function)

/* cuda_printf.c: a module's printf buffer (area is 0 where no kernel prints) */
typedef struct cuda_printf {
    CUdeviceptr area; /* the module's MOSAIC_GPU_PRINTF_SYMBOL */
    CUdeviceptr data; /* the records' buffer */
} cuda_printf;
size_t mosaic_cuda_printf_buffer_size(void);
cl_int mosaic_cuda_printf_setup(cuda_gpu *g, CUmodule module, cuda_printf *p, mosaic_strbuf *log);
void mosaic_cuda_printf_release(cuda_printf *p);
/* After a launch has finished: its output to stdout, the buffer emptied. */
cl_int mosaic_cuda_printf_flush(cuda_gpu *g, cuda_printf *p);

/* cuda_memory.c */
cl_int mosaic_cuda_mem_alloc(cl_device_id device, cl_mem mem, const void *initial, mosaic_mem_storage *storage);
void mosaic_cuda_mem_free(cl_device_id device, cl_mem mem, mosaic_mem_storage *storage);
cl_int mosaic_cuda_storage_read(cl_device_id device, const mosaic_mem_storage *storage, size_t offset, void *host,
                                size_t size);
cl_int mosaic_cuda_storage_write(cl_device_id device, const mosaic_mem_storage *storage, size_t offset,
                                 const void *host, size_t size);
void *mosaic_cuda_map_address(cl_device_id device, cl_mem mem, size_t offset, size_t size, cl_map_flags flags);
cl_int mosaic_cuda_read(cl_event command);
cl_int mosaic_cuda_write(cl_event command);
cl_int mosaic_cuda_copy(cl_event command);
cl_int mosaic_cuda_fill(cl_event command);
void *mosaic_cuda_svm_alloc(cl_device_id device, cl_svm_mem_flags flags, size_t size, cl_uint alignment);
void mosaic_cuda_svm_free(cl_device_id device, void *pointer);
cl_int mosaic_cuda_map(cl_event command);
cl_int mosaic_cuda_unmap(cl_event command);
/* What the completer does once a command queued by mosaic_cuda_queue has
 * ended: a read's bytes copied from the staging memory to the application's
 * (size 0: nothing), and the staging bytes given back. */
typedef struct cuda_after_end {
    void *to;
    const void *from;
    size_t size;
    size_t staged;
} cuda_after_end;
/* Can the command (a fill, copy, read or write) be queued on the stream
 * with nothing for a thread to wait for: a memset, a copy between two
 * buffers, a flat read or write small enough for the staging memory?
 * Cheap, and no promise: mosaic_cuda_queue may still say no. */
bool mosaic_cuda_queueable(cl_event command);
/* Queues such a command on the GPU's stream (with g->issue held) and says
 * true: *status its result, *in_flight as mosaic_cuda_launch's, *after what
 * the completer does at its end.  false: it is not one, or the staging
 * memory has no room now; nothing was done, and command->run does it. */
bool mosaic_cuda_queue(cl_event command, cl_int *status, bool *in_flight, cuda_after_end *after);
/* After the completer has waited for a command's end (ended: it did end;
 * else it failed, and the bytes are left alone). */
void mosaic_cuda_after_end(cuda_gpu *g, const cuda_after_end *after, bool ended);

/* Host bytes into the GPU's memory, on the GPU's stream, waited for
 * (cuda_memory.c says why not cuMemcpyHtoD). */
cl_int mosaic_cuda_copy_to_gpu(cuda_gpu *g, CUdeviceptr to, const void *from, size_t size);

/* cuda_kernels.c */
size_t mosaic_cuda_kernel_work_group_limit(cl_device_id device, const mosaic_executable *exe,
                                           const mosaic_kernel_info *kernel);
cl_int mosaic_cuda_finalize(cl_device_id device, const mosaic_bitcode *executable, const char *options,
                            mosaic_executable **out, char **log);
size_t mosaic_cuda_preferred_multiple(cl_device_id device, const mosaic_kernel_info *kernel);
void mosaic_cuda_choose_local_size(cl_device_id device, const mosaic_kernel_info *kernel, cl_uint work_dim,
                                   const size_t global[3], size_t max_group, size_t local[3]);
/* Queues a launch (the command's payload, a mosaic_ndrange) on the GPU's
 * stream.  *in_flight: it may still run, and the caller waits for it;
 * otherwise it has ended (a kernel that prints is waited for here, and its
 * output written) or failed to start. */
cl_int mosaic_cuda_launch(cl_event command, bool *in_flight);
/* Does the launch's kernel print (and so wait for its end in
 * mosaic_cuda_launch)? */
bool mosaic_cuda_kernel_prints(const mosaic_ndrange *nd);

#endif
