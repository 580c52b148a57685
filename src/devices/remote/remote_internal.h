/* What the remote device's files share (remote.h lists them). */
#ifndef MOSAIC_REMOTE_INTERNAL_H
#define MOSAIC_REMOTE_INTERNAL_H

#include <stdatomic.h>

#include "core/serial.h"
#include "devices/remote/protocol.h"
#include "devices/remote/remote.h"

/* One remote device (device->impl): a device of one server. */
typedef struct remote_device {
    unsigned server;          /* the server's number in the transport */
    uint32_t index;           /* the device's index in the server's platform */
    char *strings;            /* what the description's strings point at */
    char extensions[1024];    /* CL_DEVICE_EXTENSIONS: the server's that work from here */
    mosaic_serial executor;   /* runs its commands, one at a time, in the order submitted */
} remote_device;

static inline remote_device *remote_of(cl_device_id device)
{
    return (remote_device *)device->impl;
}

/* One call to a server (protocol.h): the request (its header, then inline
 * bytes), the data that follows it, and where the reply goes. */
typedef struct remote_call {
    remote_msg request;       /* starts with a remote_request (remote_begin) */
    const void *data;         /* request->data_size bytes, or NULL */
    void *into;               /* the reply's data goes here when not NULL (into_size bytes) */
    size_t into_size;
    /* filled by remote_call_run: */
    remote_reply reply;
    char *reply_bytes;        /* the whole reply message (malloc'd; remote_call_end frees it) */
    remote_reader inline_reply; /* its inline bytes */
    void *reply_data;         /* the reply's data when `into` is NULL (malloc'd; the caller's) */
    int tag;                  /* the call's (remote_call_send) */
} remote_call;

/* Starts a call of `op` to the device's server. */
void remote_begin(remote_call *c, cl_device_id device, remote_op op);
/* Sends it and waits for the reply: CL_SUCCESS, reply.status, or
 * CL_OUT_OF_RESOURCES when the server cannot be reached (or
 * CL_OUT_OF_HOST_MEMORY).  A server that failed once is not called again:
 * every later call on its devices fails at once. */
cl_int remote_call_run(unsigned server, remote_call *c);
/* remote_call_run in two halves, for calls to two servers that must be
 * in flight together (a copy from one to the other). */
cl_int remote_call_send(unsigned server, remote_call *c);
cl_int remote_call_wait(unsigned server, remote_call *c);
/* Frees what the call holds (not reply_data). */
void remote_call_end(remote_call *c);
/* remote_begin, remote_call_run and remote_call_end with request numbers only. */
cl_int remote_simple_call(cl_device_id device, remote_op op, uint64_t a0, uint64_t a1, uint64_t a2);

/* The description a server gave of its device number `index` of the list
 * mosaic_remote_device_count counts, its server, and the server's host. */
bool remote_description(unsigned index, struct _cl_device_id *out, char **strings, unsigned *server,
                        uint32_t *device_index, const char **host);

/* Ops of remote_memory.c and remote_program.c. */
cl_int remote_mem_alloc(cl_device_id device, cl_mem mem, const void *initial, mosaic_mem_storage *storage);
void remote_mem_free(cl_device_id device, cl_mem mem, mosaic_mem_storage *storage);
cl_int remote_storage_read(cl_device_id device, const mosaic_mem_storage *storage, size_t offset, void *host,
                           size_t size);
cl_int remote_storage_write(cl_device_id device, const mosaic_mem_storage *storage, size_t offset, const void *host,
                            size_t size);
void *remote_map_address(cl_device_id device, cl_mem mem, size_t offset, size_t size, cl_map_flags flags);
cl_int remote_storage_copy_from(cl_device_id device, const mosaic_mem_storage *dst, cl_device_id from,
                                const mosaic_mem_storage *src, size_t offset, size_t size);
cl_int remote_read(cl_event command);
cl_int remote_write(cl_event command);
cl_int remote_copy(cl_event command);
cl_int remote_fill(cl_event command);
cl_int remote_map(cl_event command);
cl_int remote_unmap(cl_event command);

cl_int remote_compile(cl_device_id device, cl_program program, const char *options, size_t num_headers,
                      const mosaic_header *headers, mosaic_bitcode *out, char **log);
cl_int remote_link(cl_device_id device, size_t count, const mosaic_bitcode *inputs, const char *options,
                   bool create_library, mosaic_bitcode *out, char **log);
cl_int remote_check_binary(cl_device_id device, const void *data, size_t size, cl_program_binary_type *type,
                           char **log);
cl_int remote_finalize(cl_device_id device, const mosaic_bitcode *executable, const char *options,
                       mosaic_executable **out, char **log);
size_t remote_kernel_work_group_limit(cl_device_id device, const mosaic_executable *exe,
                                      const mosaic_kernel_info *kernel);
size_t remote_kernel_preferred_multiple(cl_device_id device, const mosaic_kernel_info *kernel);
void remote_choose_local_size(cl_device_id device, const mosaic_kernel_info *kernel, cl_uint work_dim,
                              const size_t global[3], size_t max_group, size_t local[3]);
/* A kernel command (run NULL, a mosaic_ndrange) on the server, in two
 * halves: its request sent (c made, to end with the second half whatever
 * the first returns), then its reply waited for; `sent` is what the first
 * returned.  The second returns the command's status. */
cl_int remote_launch_send(cl_event command, remote_call *c);
cl_int remote_launch_finish(cl_event command, remote_call *c, cl_int sent);

#endif
