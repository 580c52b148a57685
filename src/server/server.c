/*
 * mosaic-server: serves the devices of its machine to a program of its MPI
 * job whose Mosaic started it (MOSAIC_REMOTE=mpi, docs/remote.md).
 *
 * It is an OpenCL program over Mosaic's own platform (its local devices:
 * the CPU, and the GPUs it finds), linked with Mosaic's objects so that it
 * can describe a device and a kernel's table as the platform holds them.
 * Each request (src/devices/remote/protocol.h) becomes OpenCL calls on the
 * request's device, run to the end before the reply: the program's Mosaic
 * sends a command only once everything it waits for has completed, so no
 * request waits for another.
 *
 * One thread, which polls MPI (server_mpi.c says why).
 */
#define _GNU_SOURCE
#include "server/server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/objects.h"
#include "devices/remote/transport.h"

server_state the_server;

/* ---- the table of numbered objects ----------------------------------------------- */

uint64_t server_keep(server_table *t, void *object)
{
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        void **grown = realloc(t->items, cap * sizeof *grown);
        if (!grown)
            return 0;
        t->items = grown;
        t->cap = cap;
    }
    t->items[t->count++] = object;
    return t->count; /* numbers start at 1: 0 is none */
}

void *server_find(const server_table *t, uint64_t id)
{
    return id >= 1 && id <= t->count ? t->items[id - 1] : NULL;
}

void *server_forget(server_table *t, uint64_t id)
{
    void *object = server_find(t, id);
    if (object)
        t->items[id - 1] = NULL;
    return object;
}

/* ---- replies ------------------------------------------------------------------------ */

void server_reply_begin(remote_msg *m, cl_int status)
{
    memset(m, 0, sizeof *m);
    remote_reply reply = {.status = status};
    remote_put(m, &reply, sizeof reply);
}

remote_reply *server_reply_header(remote_msg *m)
{
    return (remote_reply *)m->data;
}

bool server_reply_end(int tag, remote_msg *m, const void *data, size_t data_size)
{
    if (m->oom) { /* the reply could not be made: say so in a small one */
        free(m->data);
        server_reply_begin(m, CL_OUT_OF_HOST_MEMORY);
        data_size = 0;
    }
    server_reply_header(m)->data_size = data_size;
    bool sent = server_send(tag, m->data, m->size) && (!data_size || server_send(tag, data, data_size));
    free(m->data);
    m->data = NULL;
    return sent;
}

bool server_reply_status(int tag, cl_int status)
{
    remote_msg m;
    server_reply_begin(&m, status);
    return server_reply_end(tag, &m, NULL, 0);
}

/* ---- HELLO and NOP ------------------------------------------------------------------ */

static bool hello(int tag, const remote_request *request)
{
    if (request->a[0] != REMOTE_PROTOCOL_VERSION || request->a[1] != sizeof(struct _cl_device_id)) {
        fprintf(stderr, "mosaic-server: the program's Mosaic is another version than this server's\n");
        return server_reply_status(tag, CL_INVALID_VALUE);
    }
    remote_msg m;
    server_reply_begin(&m, CL_SUCCESS);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    remote_put_str(&m, host);
    server_reply_header(&m)->r[0] = the_server.num_devices;
    for (cl_uint i = 0; i < the_server.num_devices; i++)
        remote_put_device(&m, the_server.devices[i]);
    return server_reply_end(tag, &m, NULL, 0);
}

char *server_scratch(size_t size)
{
    static char *scratch;
    static size_t scratch_size;
    if (size > scratch_size) {
        free(scratch);
        scratch_size = 0;
        if (!(scratch = malloc(size)))
            return NULL;
        memset(scratch, 0, size); /* its pages made now, not while MPI moves bytes */
        scratch_size = size;
    }
    return scratch;
}

/* Nothing but moving bytes: the request's data dropped, a[0] bytes of
 * scratch sent back (what MPI itself moves between program and server). */
static bool nop(int tag, const remote_request *request)
{
    char *into = request->data_size ? server_scratch(request->data_size) : NULL;
    if (request->data_size && !(into ? server_receive(tag, into, request->data_size)
                                     : server_drop_data(tag, request->data_size)))
        return false;
    size_t size = request->a[0];
    char *scratch = size ? server_scratch(size) : NULL;
    remote_msg m;
    server_reply_begin(&m, size && !scratch ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS);
    return server_reply_end(tag, &m, scratch, scratch ? size : 0);
}

static bool serve(int tag, const char *message, size_t size)
{
    remote_request request;
    if (size < sizeof request) {
        fprintf(stderr, "mosaic-server: a request too short to read (%zu bytes)\n", size);
        return server_reply_status(tag, CL_INVALID_VALUE);
    }
    memcpy(&request, message, sizeof request);
    remote_reader in = {.p = message + sizeof request, .end = message + size};
    if (request.op != REMOTE_HELLO && request.device >= the_server.num_devices) {
        server_drop_data(tag, request.data_size);
        return server_reply_status(tag, CL_INVALID_DEVICE);
    }
    switch (request.op) {
    case REMOTE_HELLO:
        return hello(tag, &request);
    case REMOTE_NOP:
        return nop(tag, &request);
    case REMOTE_ALLOC:
    case REMOTE_FREE:
    case REMOTE_READ:
    case REMOTE_WRITE:
    case REMOTE_COPY:
    case REMOTE_FILL:
    case REMOTE_SEND:
    case REMOTE_RECEIVE:
        return server_memory(tag, &request, &in);
    case REMOTE_COMPILE:
    case REMOTE_LINK:
    case REMOTE_CHECK_BINARY:
    case REMOTE_FINALIZE:
    case REMOTE_RELEASE_PROGRAM:
    case REMOTE_LAUNCH:
        return server_program(tag, &request, &in);
    default:
        server_drop_data(tag, request.data_size);
        return server_reply_status(tag, CL_INVALID_OPERATION);
    }
}

static bool open_devices(void)
{
    cl_platform_id platform;
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n) != CL_SUCCESS || n == 0)
        return false;
    if (n > SERVER_MAX_DEVICES)
        n = SERVER_MAX_DEVICES;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, the_server.devices, NULL);
    for (cl_uint i = 0; i < n; i++) {
        cl_int err;
        the_server.contexts[i] = clCreateContext(NULL, 1, &the_server.devices[i], NULL, NULL, &err);
        if (!the_server.contexts[i])
            return false;
        the_server.queues[i] = clCreateCommandQueueWithProperties(the_server.contexts[i], the_server.devices[i],
                                                                  NULL, &err);
        if (!the_server.queues[i])
            return false;
    }
    the_server.num_devices = n;
    return true;
}

int main(int argc, char **argv)
{
    /* this process serves its own devices; it is no client of other servers */
    unsetenv("MOSAIC_REMOTE");
    /* MPI's hwloc would load a second Mosaic through the ICD loader to list OpenCL devices */
    setenv("HWLOC_COMPONENTS", "-opencl", 0);
    if (!server_mpi_start(&argc, &argv))
        return 1;
    if (!open_devices()) {
        fprintf(stderr, "mosaic-server: this machine's Mosaic offers no device\n");
        the_server.num_devices = 0; /* HELLO answers with none */
    }
    for (;;) {
        int tag = 0;
        size_t size = 0;
        char *message = server_next_request(&tag, &size);
        if (!message)
            break; /* quit, or the program is gone */
        bool fine = serve(tag, message, size);
        free(message);
        if (!fine)
            break;
    }
    server_mpi_stop();
    return 0;
}
