/*
 * The remote device's memory: a buffer is a buffer of the server's device
 * (ALLOC), named here by its remote address (protocol.h), which is the
 * storage's address; a sub-buffer's is its parent's plus its offset, as on
 * any device.  Transfers with host memory move the bytes in the call's
 * messages; a copy and a fill run on the server.  A map goes through host
 * memory: the application's own for CL_MEM_USE_HOST_PTR, else a copy of
 * the buffer made at the first map and kept until the buffer goes.
 */
#include "devices/remote/remote_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/memory.h"
#include "devices/remote/transport.h"

/* What a root buffer's storage->allocation holds. */
typedef struct remote_buffer {
    uint64_t id;          /* the server's number for it */
    _Atomic(char *) host; /* the copy maps go through; NULL until the first map */
} remote_buffer;

static uint64_t address_of(const char *address)
{
    return (uint64_t)(uintptr_t)address;
}

cl_int remote_mem_alloc(cl_device_id device, cl_mem mem, const void *initial, mosaic_mem_storage *storage)
{
    if (mem->parent) { /* a view of the parent's bytes */
        storage->address = mosaic_mem_storage_on(mem->parent, device)->address + mem->offset;
        storage->allocation = NULL;
        return CL_SUCCESS;
    }
    remote_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return CL_OUT_OF_HOST_MEMORY;
    remote_call c;
    remote_begin(&c, device, REMOTE_ALLOC);
    remote_request *request = (remote_request *)c.request.data;
    if (request) {
        request->a[0] = mem->size;
        request->data_size = initial ? mem->size : 0;
    }
    c.data = initial;
    cl_int err = remote_call_run(remote_of(device)->server, &c);
    b->id = c.reply.r[0];
    free(c.reply_data);
    remote_call_end(&c);
    if (err != CL_SUCCESS) {
        free(b);
        return err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY ? err : CL_MEM_OBJECT_ALLOCATION_FAILURE;
    }
    storage->address = (char *)(uintptr_t)REMOTE_ADDRESS(b->id, 0);
    storage->allocation = b;
    return CL_SUCCESS;
}

void remote_mem_free(cl_device_id device, cl_mem mem, mosaic_mem_storage *storage)
{
    (void)mem;
    remote_buffer *b = storage->allocation;
    if (!b)
        return;
    remote_simple_call(device, REMOTE_FREE, b->id, 0, 0); /* (a server that is gone has freed it) */
    free(atomic_load(&b->host));
    free(b);
    storage->allocation = NULL;
}

/* size bytes at a remote address into host memory, or from it. */
static cl_int read_bytes(cl_device_id device, uint64_t address, void *host, size_t size)
{
    remote_call c;
    remote_begin(&c, device, REMOTE_READ);
    remote_request *request = (remote_request *)c.request.data;
    if (request) {
        request->a[0] = address;
        request->a[1] = size;
    }
    c.into = host;
    c.into_size = size;
    cl_int err = remote_call_run(remote_of(device)->server, &c);
    remote_call_end(&c);
    return err;
}

static cl_int write_bytes(cl_device_id device, uint64_t address, const void *host, size_t size)
{
    remote_call c;
    remote_begin(&c, device, REMOTE_WRITE);
    remote_request *request = (remote_request *)c.request.data;
    if (request) {
        request->a[0] = address;
        request->a[1] = size;
        request->data_size = size;
    }
    c.data = host;
    cl_int err = remote_call_run(remote_of(device)->server, &c);
    free(c.reply_data);
    remote_call_end(&c);
    return err;
}

cl_int remote_storage_read(cl_device_id device, const mosaic_mem_storage *storage, size_t offset, void *host,
                           size_t size)
{
    return read_bytes(device, address_of(storage->address) + offset, host, size);
}

cl_int remote_storage_write(cl_device_id device, const mosaic_mem_storage *storage, size_t offset, const void *host,
                            size_t size)
{
    return write_bytes(device, address_of(storage->address) + offset, host, size);
}

/* ---- transfers ---------------------------------------------------------------------- */

enum { READ_ROW, WRITE_ROW, COPY_ROW };

static cl_int row(cl_device_id device, int kind, char *src, char *dst, size_t n)
{
    switch (kind) {
    case READ_ROW:
        return read_bytes(device, address_of(src), dst, n);
    case WRITE_ROW:
        return write_bytes(device, address_of(dst), src, n);
    default:
        return remote_simple_call(device, REMOTE_COPY, address_of(src), address_of(dst), n);
    }
}

/* A rectangle: one call when its rows are packed on both sides, else one a row. */
static cl_int transfer(cl_event command, int kind)
{
    cl_device_id device = command->queue->device;
    mosaic_transfer *t = command->payload;
    char *src = mosaic_endpoint_address(&t->src, device), *dst = mosaic_endpoint_address(&t->dst, device);
    size_t flat = 0;
    if (mosaic_transfer_flat(t, &flat))
        return flat ? row(device, kind, src, dst, flat) : CL_COMPLETE;
    for (size_t z = 0; z < t->region[2]; z++)
        for (size_t y = 0; y < t->region[1]; y++) {
            cl_int err = row(device, kind, src + z * t->src.slice_pitch + y * t->src.row_pitch,
                             dst + z * t->dst.slice_pitch + y * t->dst.row_pitch, t->region[0]);
            if (err != CL_SUCCESS)
                return err;
        }
    return CL_COMPLETE;
}

cl_int remote_read(cl_event command)
{
    return transfer(command, READ_ROW);
}

cl_int remote_write(cl_event command)
{
    return transfer(command, WRITE_ROW);
}

cl_int remote_copy(cl_event command)
{
    return transfer(command, COPY_ROW);
}

cl_int remote_fill(cl_event command)
{
    cl_device_id device = command->queue->device;
    mosaic_fill *f = command->payload;
    remote_call c;
    remote_begin(&c, device, REMOTE_FILL);
    remote_put(&c.request, f->pattern, f->pattern_size);
    remote_request *request = (remote_request *)c.request.data;
    if (request) {
        request->a[0] = address_of(mosaic_mem_storage_on(f->mem, device)->address) + f->offset;
        request->a[1] = f->size;
        request->a[2] = f->pattern_size;
    }
    cl_int err = remote_call_run(remote_of(device)->server, &c);
    free(c.reply_data);
    remote_call_end(&c);
    return err == CL_SUCCESS ? CL_COMPLETE : err;
}

/* ---- maps ------------------------------------------------------------------------------ */

void *remote_map_address(cl_device_id device, cl_mem mem, size_t offset, size_t size, cl_map_flags flags)
{
    (void)size, (void)flags;
    if (mem->flags & CL_MEM_USE_HOST_PTR)
        return (char *)mem->host_ptr + offset;
    cl_mem root = mosaic_mem_root(mem);
    remote_buffer *b = mosaic_mem_storage_on(root, device)->allocation;
    char *host = atomic_load(&b->host);
    if (!host) { /* the first map: made once, whichever thread gets there first */
        char *made = malloc(root->size ? root->size : 1);
        if (!made)
            return NULL;
        if (!atomic_compare_exchange_strong(&b->host, &host, made))
            free(made); /* another thread's was first: host is it */
        else
            host = made;
    }
    return host + mosaic_mem_root_offset(mem) + offset;
}

cl_int remote_map(cl_event command)
{
    mosaic_map *m = command->payload;
    if ((m->flags & CL_MAP_WRITE_INVALIDATE_REGION) || !m->size)
        return CL_COMPLETE;
    cl_device_id device = command->queue->device;
    cl_int err = read_bytes(device, address_of(mosaic_mem_storage_on(m->mem, device)->address) + m->offset,
                            m->pointer, m->size);
    return err == CL_SUCCESS ? CL_COMPLETE : err;
}

cl_int remote_unmap(cl_event command)
{
    mosaic_map *m = command->payload;
    if (!(m->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) || !m->size)
        return CL_COMPLETE;
    cl_device_id device = command->queue->device;
    cl_int err = write_bytes(device, address_of(mosaic_mem_storage_on(m->mem, device)->address) + m->offset,
                             m->pointer, m->size);
    return err == CL_SUCCESS ? CL_COMPLETE : err;
}

/* ---- server to server ------------------------------------------------------------------ */

/* One copy between servers at a time, from this process: a server serves
 * one request at a time, so two copies in opposite directions between the
 * same two servers, each server sending first, would wait for each other. */
static pthread_mutex_t server_copies = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint next_peer_tag;

cl_int remote_storage_copy_from(cl_device_id device, const mosaic_mem_storage *dst, cl_device_id from,
                                const mosaic_mem_storage *src, size_t offset, size_t size)
{
    if (from->ops != &mosaic_remote_ops || remote_of(from)->server == remote_of(device)->server)
        return CL_INVALID_OPERATION; /* (two devices of one server: through here, as any two memories) */
    unsigned to = remote_of(device)->server, source = remote_of(from)->server;
    uint64_t tag = 1 + atomic_fetch_add(&next_peer_tag, 1) % (MOSAIC_REMOTE_MAX_TAG - 1); /* (the top one: remote_measure.c) */
    remote_call send, receive;
    remote_begin(&send, from, REMOTE_SEND);
    remote_begin(&receive, device, REMOTE_RECEIVE);
    remote_request *s = (remote_request *)send.request.data, *r = (remote_request *)receive.request.data;
    if (s && r) {
        *s = (remote_request){.op = REMOTE_SEND, .device = remote_of(from)->index,
                              .a = {address_of(src->address) + offset, size, to, tag}};
        *r = (remote_request){.op = REMOTE_RECEIVE, .device = remote_of(device)->index,
                              .a = {address_of(dst->address) + offset, size, source, tag}};
    }
    pthread_mutex_lock(&server_copies);
    cl_int sent = remote_call_send(source, &send);
    cl_int received = sent == CL_SUCCESS ? remote_call_send(to, &receive) : sent;
    if (sent == CL_SUCCESS)
        sent = remote_call_wait(source, &send);
    if (received == CL_SUCCESS)
        received = remote_call_wait(to, &receive);
    pthread_mutex_unlock(&server_copies);
    free(send.reply_data);
    free(receive.reply_data);
    remote_call_end(&send);
    remote_call_end(&receive);
    return sent != CL_SUCCESS ? sent : received;
}
