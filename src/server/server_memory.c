/*
 * mosaic-server's buffers.  A buffer belongs to the context of the device
 * the request names; the program addresses its bytes by remote addresses
 * (protocol.h).  Reads and writes go through a map of the buffer, so that
 * on a device whose memory is the host's (the CPU) the bytes travel
 * between MPI and the buffer itself, with no copy on the way.
 */
#include "server/server.h"

#include <stdlib.h>
#include <string.h>

server_buffer *server_buffer_at(uint64_t address, uint32_t device, size_t size, size_t *offset)
{
    server_buffer *b = server_find(&the_server.buffers, REMOTE_ADDRESS_ID(address));
    *offset = REMOTE_ADDRESS_OFFSET(address);
    if (!b || b->device != device || *offset > b->size || size > b->size - *offset)
        return NULL;
    return b;
}

static bool alloc(int tag, const remote_request *request)
{
    uint32_t d = request->device;
    size_t size = request->a[0];
    server_buffer *b = calloc(1, sizeof *b);
    cl_int err = b ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (b) {
        b->device = d;
        b->size = size;
        b->mem = clCreateBuffer(the_server.contexts[d], CL_MEM_READ_WRITE, size ? size : 1, NULL, &err);
    }
    if (request->data_size && err == CL_SUCCESS && request->data_size == size) {
        void *p = clEnqueueMapBuffer(the_server.queues[d], b->mem, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, size,
                                     0, NULL, NULL, &err);
        bool got = p ? server_receive(tag, p, size) : server_drop_data(tag, size);
        if (p)
            clEnqueueUnmapMemObject(the_server.queues[d], b->mem, p, 0, NULL, NULL);
        cl_int finished = clFinish(the_server.queues[d]);
        if (err == CL_SUCCESS)
            err = finished;
        if (!got)
            return false;
    } else if (request->data_size && !server_drop_data(tag, request->data_size)) {
        return false;
    }
    uint64_t id = 0;
    if (err == CL_SUCCESS && !(id = server_keep(&the_server.buffers, b)))
        err = CL_OUT_OF_HOST_MEMORY;
    if (err != CL_SUCCESS) {
        if (b && b->mem)
            clReleaseMemObject(b->mem);
        free(b);
    }
    remote_msg m;
    server_reply_begin(&m, err);
    server_reply_header(&m)->r[0] = id;
    return server_reply_end(tag, &m, NULL, 0);
}

static bool release(int tag, const remote_request *request)
{
    server_buffer *b = server_find(&the_server.buffers, request->a[0]);
    if (!b || b->device != request->device)
        return server_reply_status(tag, CL_INVALID_MEM_OBJECT);
    server_forget(&the_server.buffers, request->a[0]);
    clReleaseMemObject(b->mem);
    free(b);
    return server_reply_status(tag, CL_SUCCESS);
}

static bool read_buffer(int tag, const remote_request *request)
{
    size_t offset, size = request->a[1];
    uint32_t d = request->device;
    server_buffer *b = server_buffer_at(request->a[0], d, size, &offset);
    if (!b)
        return server_reply_status(tag, CL_INVALID_VALUE);
    cl_int err = CL_SUCCESS;
    void *p = size ? clEnqueueMapBuffer(the_server.queues[d], b->mem, CL_TRUE, CL_MAP_READ, offset, size, 0, NULL,
                                        NULL, &err)
                   : NULL;
    remote_msg m;
    server_reply_begin(&m, p || !size ? CL_SUCCESS : err);
    bool sent = server_reply_end(tag, &m, p, p ? size : 0);
    if (p) {
        clEnqueueUnmapMemObject(the_server.queues[d], b->mem, p, 0, NULL, NULL);
        clFinish(the_server.queues[d]);
    }
    return sent;
}

static bool write_buffer(int tag, const remote_request *request)
{
    size_t offset, size = request->a[1];
    uint32_t d = request->device;
    server_buffer *b = server_buffer_at(request->a[0], d, size, &offset);
    if (!b || request->data_size != size)
        return server_drop_data(tag, request->data_size) && server_reply_status(tag, CL_INVALID_VALUE);
    if (!size)
        return server_reply_status(tag, CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    void *p = clEnqueueMapBuffer(the_server.queues[d], b->mem, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, offset, size,
                                 0, NULL, NULL, &err);
    if (!p)
        return server_drop_data(tag, size) && server_reply_status(tag, err);
    bool got = server_receive(tag, p, size);
    clEnqueueUnmapMemObject(the_server.queues[d], b->mem, p, 0, NULL, NULL);
    err = clFinish(the_server.queues[d]);
    return got && server_reply_status(tag, err);
}

static bool copy_buffer(int tag, const remote_request *request)
{
    size_t from, to, size = request->a[2];
    uint32_t d = request->device;
    server_buffer *src = server_buffer_at(request->a[0], d, size, &from);
    server_buffer *dst = server_buffer_at(request->a[1], d, size, &to);
    if (!src || !dst)
        return server_reply_status(tag, CL_INVALID_VALUE);
    cl_int err = size ? clEnqueueCopyBuffer(the_server.queues[d], src->mem, dst->mem, from, to, size, 0, NULL, NULL)
                      : CL_SUCCESS;
    cl_int finished = clFinish(the_server.queues[d]);
    return server_reply_status(tag, err != CL_SUCCESS ? err : finished);
}

static bool fill_buffer(int tag, const remote_request *request, remote_reader *in)
{
    size_t offset, size = request->a[1], pattern_size = request->a[2];
    uint32_t d = request->device;
    unsigned char pattern[128];
    server_buffer *b = server_buffer_at(request->a[0], d, size, &offset);
    if (!b || pattern_size == 0 || pattern_size > sizeof pattern || !remote_get(in, pattern, pattern_size))
        return server_reply_status(tag, CL_INVALID_VALUE);
    cl_int err = size ? clEnqueueFillBuffer(the_server.queues[d], b->mem, pattern, pattern_size, offset, size, 0,
                                            NULL, NULL)
                      : CL_SUCCESS;
    cl_int finished = clFinish(the_server.queues[d]);
    return server_reply_status(tag, err != CL_SUCCESS ? err : finished);
}

/* SEND and RECEIVE: a buffer's bytes to or from another server, through a
 * map of them; address 0 is no buffer but scratch memory, for measuring
 * what MPI itself moves between the two (the benchmark's baseline). */
static bool peer(int tag, const remote_request *request, bool sending)
{
    size_t offset = 0, size = request->a[1];
    uint32_t d = request->device;
    int other = (int)request->a[2], peer_tag = (int)request->a[3];
    server_buffer *b = request->a[0] ? server_buffer_at(request->a[0], d, size, &offset) : NULL;
    if (request->a[0] && !b)
        return server_reply_status(tag, CL_INVALID_VALUE);
    cl_int err = CL_SUCCESS;
    void *p = !size ? NULL
              : b   ? clEnqueueMapBuffer(the_server.queues[d], b->mem, CL_TRUE,
                                         sending ? CL_MAP_READ : CL_MAP_WRITE_INVALIDATE_REGION, offset, size, 0,
                                         NULL, NULL, &err)
                    : server_scratch(size);
    if (size && !p)
        return server_reply_status(tag, err != CL_SUCCESS ? err : CL_OUT_OF_HOST_MEMORY);
    bool moved = !size || (sending ? server_peer_send(other, peer_tag, p, size)
                                   : server_peer_receive(other, peer_tag, p, size));
    if (b && p) {
        clEnqueueUnmapMemObject(the_server.queues[d], b->mem, p, 0, NULL, NULL);
        clFinish(the_server.queues[d]);
    }
    return server_reply_status(tag, moved ? CL_SUCCESS : CL_OUT_OF_RESOURCES);
}

bool server_memory(int tag, const remote_request *request, remote_reader *in)
{
    switch (request->op) {
    case REMOTE_SEND:
        return peer(tag, request, true);
    case REMOTE_RECEIVE:
        return peer(tag, request, false);
    case REMOTE_ALLOC:
        return alloc(tag, request);
    case REMOTE_FREE:
        return release(tag, request);
    case REMOTE_READ:
        return read_buffer(tag, request);
    case REMOTE_WRITE:
        return write_buffer(tag, request);
    case REMOTE_COPY:
        return copy_buffer(tag, request);
    default:
        return fill_buffer(tag, request, in);
    }
}
