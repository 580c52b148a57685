/*
 * What MPI itself moves, measured over the remote device's own connection
 * (remote.h, mosaic_remote_measure_mpi): the baseline the benchmark sets
 * remote writes, reads and server-to-server copies against.
 */
#include "devices/remote/remote_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "devices/remote/transport.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One transfer of the baseline, timed: to the server (NOP with data),
 * back from it (NOP answered with data), or server to server. */
static cl_int once(int which, cl_device_id a, cl_device_id b, char *host, size_t size, double *seconds)
{
    unsigned server = remote_of(a)->server;
    double t0 = now_s();
    cl_int err;
    if (which < 2) {
        remote_call c;
        remote_begin(&c, a, REMOTE_NOP);
        if (c.request.data && which == 0)
            ((remote_request *)c.request.data)->data_size = size;
        else if (c.request.data)
            ((remote_request *)c.request.data)->a[0] = size;
        c.data = which == 0 ? host : NULL;
        c.into = which == 1 ? host : NULL;
        c.into_size = which == 1 ? size : 0;
        err = remote_call_run(server, &c);
        remote_call_end(&c);
    } else {
        unsigned other = remote_of(b)->server;
        remote_call send, receive;
        remote_begin(&send, a, REMOTE_SEND);
        remote_begin(&receive, b, REMOTE_RECEIVE);
        remote_request *s = (remote_request *)send.request.data, *r = (remote_request *)receive.request.data;
        if (!s || !r) {
            remote_call_end(&send);
            remote_call_end(&receive);
            return CL_OUT_OF_HOST_MEMORY;
        }
        s->a[1] = r->a[1] = size; /* address 0: scratch memory */
        s->a[2] = other;
        r->a[2] = server;
        s->a[3] = r->a[3] = MOSAIC_REMOTE_MAX_TAG; /* (the copies' tags cycle below it) */
        cl_int sent = remote_call_send(server, &send);
        cl_int received = sent == CL_SUCCESS ? remote_call_send(other, &receive) : sent;
        if (sent == CL_SUCCESS)
            sent = remote_call_wait(server, &send);
        if (received == CL_SUCCESS)
            received = remote_call_wait(other, &receive);
        remote_call_end(&send);
        remote_call_end(&receive);
        err = sent != CL_SUCCESS ? sent : received;
    }
    *seconds = now_s() - t0;
    return err;
}

cl_int mosaic_remote_measure_mpi(cl_device_id a, cl_device_id b, size_t size, double seconds[3])
{
    if (a->ops != &mosaic_remote_ops || (b && b->ops != &mosaic_remote_ops))
        return CL_INVALID_DEVICE;
    char *host = malloc(size ? size : 1);
    if (!host)
        return CL_OUT_OF_HOST_MEMORY;
    memset(host, 0, size); /* its pages made before the clock starts, as an application's buffer's are */
    bool between = b && remote_of(b)->server != remote_of(a)->server;
    cl_int err = CL_SUCCESS;
    for (int which = 0; which < 3; which++) {
        seconds[which] = 0;
        if (which == 2 && !between)
            break;
        /* three times, the fastest kept: the first sets up what MPI keeps for a buffer */
        for (int round = 0; round < 3 && err == CL_SUCCESS; round++) {
            double s = 0;
            err = once(which, a, b, host, size, &s);
            if (round == 0 || s < seconds[which])
                seconds[which] = s;
        }
    }
    free(host);
    return err;
}
