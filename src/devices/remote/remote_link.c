/*
 * The remote device's link to its servers: the transport opened from
 * libmosaic-remote.so (transport.h), the servers started and asked what
 * they have (HELLO), and the calls every op makes (protocol.h).
 *
 * A call is synchronous on the calling thread: its request, then its
 * reply, both on a tag of its own, so that calls of several threads (the
 * devices' executors, the copy thread, an application's thread) share a
 * server without a lock.
 */
#define _GNU_SOURCE
#include "devices/remote/remote_internal.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/settings.h"
#include "core/objects.h"
#include "devices/remote/transport.h"

#define MAX_SERVERS 64
#define MAX_REMOTE_DEVICES 64

typedef struct remote_server {
    char host[256];
    atomic_bool failed;
} remote_server;

typedef struct described_device {
    struct _cl_device_id description;
    char *strings;
    unsigned server;
    uint32_t index;
} described_device;

static const mosaic_transport *transport;
static remote_server servers[MAX_SERVERS];
static described_device described[MAX_REMOTE_DEVICES];
static unsigned num_described;
static atomic_uint next_tag;
static pthread_once_t start_once = PTHREAD_ONCE_INIT;

static void say(const char *format, const char *what)
{
    if (mosaic_debugging(MOSAIC_DEBUG_DEVICE))
        fprintf(stderr, format, what);
}

/* A file beside libmosaic.so (this build's, or the installed one). */
static void beside_library(const char *name, char *out, size_t size)
{
    Dl_info info;
    char dir[PATH_MAX] = ".";
    if (dladdr((void *)mosaic_remote_device_count, &info) && info.dli_fname) {
        snprintf(dir, sizeof dir, "%s", info.dli_fname);
        char *d = dirname(dir);
        memmove(dir, d, strlen(d) + 1);
    }
    snprintf(out, size, "%s/%s", dir, name);
}

static bool open_transport(void)
{
    const struct mosaic_settings *s = mosaic_settings();
    char path[PATH_MAX];
    if (s->remote_transport)
        snprintf(path, sizeof path, "%s", s->remote_transport);
    else
        beside_library("libmosaic-remote.so", path, sizeof path);
    /* RTLD_GLOBAL: MPI's own plugins need libmpi's symbols */
    void *lib = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
        say("mosaic: remote: no remote devices: %s\n", dlerror());
        return false;
    }
    mosaic_transport_entry entry = (mosaic_transport_entry)dlsym(lib, MOSAIC_TRANSPORT_SYMBOL);
    const mosaic_transport *t = entry ? entry() : NULL;
    if (!t || t->version != MOSAIC_TRANSPORT_VERSION) {
        say("mosaic: remote: no remote devices: %s is not this Mosaic's transport\n", path);
        return false; /* (left open: nothing of it runs) */
    }
    transport = t;
    return true;
}

static void hello(unsigned server)
{
    remote_call c;
    memset(&c, 0, sizeof c);
    remote_request request = {.op = REMOTE_HELLO, .a = {REMOTE_PROTOCOL_VERSION, sizeof(struct _cl_device_id)}};
    remote_put(&c.request, &request, sizeof request);
    cl_int err = remote_call_run(server, &c);
    remote_reader *r = &c.inline_reply;
    snprintf(servers[server].host, sizeof servers[server].host, "%s", err == CL_SUCCESS ? remote_get_str(r) : "");
    uint64_t n = err == CL_SUCCESS ? c.reply.r[0] : 0;
    for (uint64_t i = 0; i < n && num_described < MAX_REMOTE_DEVICES; i++) {
        described_device *d = &described[num_described];
        if (!remote_get_device(r, &d->description, &d->strings)) {
            free(d->strings);
            say("mosaic: remote: a server's description of its devices is damaged (%s)\n", servers[server].host);
            break;
        }
        d->server = server;
        d->index = (uint32_t)i;
        num_described++;
    }
    if (err != CL_SUCCESS && mosaic_debugging(MOSAIC_DEBUG_DEVICE))
        fprintf(stderr, "mosaic: remote: server %u refused or did not answer (error %d): it is left out\n", server, err);
    remote_call_end(&c);
}

static void start(void)
{
    const struct mosaic_settings *s = mosaic_settings();
    if (!s->remote)
        return;
    if (strcmp(s->remote, "mpi") != 0) {
        say("mosaic: remote: MOSAIC_REMOTE=%s is not a transport Mosaic has (mpi)\n", s->remote);
        return;
    }
    /* MPI's launcher (mpirun) may load Mosaic itself: its hwloc lists OpenCL
     * devices, in the environment of the job, MOSAIC_REMOTE included.  Only
     * a process the launcher started (it has a rank) has servers. */
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK") && !getenv("PMI_RANK")) {
        say("mosaic: remote: no remote devices: %s\n", "this process was not started by an MPI launcher (mpirun, srun)");
        return;
    }
    if (!open_transport())
        return;
    char path[PATH_MAX], why[512] = "";
    if (s->remote_server)
        snprintf(path, sizeof path, "%s", s->remote_server);
    else
        beside_library("mosaic-server", path, sizeof path);
    transport->set_timeout(s->remote_timeout);
    int wanted = (int)(s->remote_servers < MAX_SERVERS ? s->remote_servers : MAX_SERVERS);
    int started = transport->start(path, wanted, why, sizeof why);
    if (started <= 0) {
        /* the application asked for remote devices: say why there are none even without MOSAIC_DEBUG */
        fprintf(stderr, "mosaic: remote: no remote devices: %s\n", why);
        return;
    }
    for (int i = 0; i < started; i++)
        hello((unsigned)i);
}

unsigned mosaic_remote_device_count(void)
{
    pthread_once(&start_once, start);
    return num_described;
}

bool remote_description(unsigned index, struct _cl_device_id *out, char **strings, unsigned *server,
                        uint32_t *device_index, const char **host)
{
    if (index >= num_described)
        return false;
    described_device *d = &described[index];
    *out = d->description;
    *strings = d->strings;
    d->strings = NULL; /* the device's now */
    *server = d->server;
    *device_index = d->index;
    *host = servers[d->server].host;
    return true;
}

/* ---- calls -------------------------------------------------------------------------- */

void remote_begin(remote_call *c, cl_device_id device, remote_op op)
{
    memset(c, 0, sizeof *c);
    remote_request request = {.op = op, .device = remote_of(device)->index};
    remote_put(&c->request, &request, sizeof request);
}

static cl_int failed(unsigned server, const char *what)
{
    if (!atomic_exchange(&servers[server].failed, true))
        fprintf(stderr, "mosaic: remote: server %u (%s) %s: its devices fail every command from now on\n", server,
                servers[server].host, what);
    return CL_OUT_OF_RESOURCES;
}

cl_int remote_call_send(unsigned server, remote_call *c)
{
    if (server >= MAX_SERVERS || !transport || atomic_load(&servers[server].failed))
        return CL_OUT_OF_RESOURCES;
    if (c->request.oom || c->request.size < sizeof(remote_request))
        return CL_OUT_OF_HOST_MEMORY;
    remote_request *request = (remote_request *)c->request.data;
    c->tag = (int)(1 + atomic_fetch_add(&next_tag, 1) % MOSAIC_REMOTE_MAX_TAG);
    if (transport->send((int)server, c->tag, c->request.data, c->request.size) != 0 ||
        (request->data_size && transport->send((int)server, c->tag, c->data, request->data_size) != 0))
        return failed(server, "could not be reached");
    return CL_SUCCESS;
}

cl_int remote_call_wait(unsigned server, remote_call *c)
{
    size_t size = 0;
    if (transport->receive((int)server, c->tag, (void **)&c->reply_bytes, &size) != 0 || size < sizeof c->reply)
        return failed(server, "did not answer");
    memcpy(&c->reply, c->reply_bytes, sizeof c->reply);
    c->inline_reply = (remote_reader){.p = c->reply_bytes + sizeof c->reply, .end = c->reply_bytes + size};
    uint64_t n = c->reply.data_size;
    if (n) {
        void *to = c->into;
        if (!to) {
            to = c->reply_data = malloc(n);
            if (!to)
                return failed(server, "sent more than this process has memory for");
        } else if (n != c->into_size) {
            return failed(server, "answered with the wrong number of bytes");
        }
        if (transport->receive_into((int)server, c->tag, to, n) != 0)
            return failed(server, "stopped answering");
    }
    return c->reply.status;
}

cl_int remote_call_run(unsigned server, remote_call *c)
{
    cl_int err = remote_call_send(server, c);
    return err != CL_SUCCESS ? err : remote_call_wait(server, c);
}

void remote_call_end(remote_call *c)
{
    free(c->request.data);
    free(c->reply_bytes);
    c->request.data = NULL;
    c->reply_bytes = NULL;
}

cl_int remote_simple_call(cl_device_id device, remote_op op, uint64_t a0, uint64_t a1, uint64_t a2)
{
    remote_call c;
    remote_begin(&c, device, op);
    remote_request *request = (remote_request *)c.request.data;
    if (request) {
        request->a[0] = a0;
        request->a[1] = a1;
        request->a[2] = a2;
    }
    cl_int err = remote_call_run(remote_of(device)->server, &c);
    free(c.reply_data);
    remote_call_end(&c);
    return err;
}
