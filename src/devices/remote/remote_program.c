/*
 * The remote device's programs and launches.  Every step of a build runs
 * on the server, by its own device (its compiler, its kernel cache): a
 * compile sends the source (or the SPIR-V, checked here, with the
 * specialization constants set) and gets back the server's compiled binary, a
 * link sends binaries and gets one back, and finalize has the server load
 * the executable binary and answer with its kernels' table (names,
 * arguments, attributes, work-group limits), which is all clSetKernelArg
 * and clGetKernelInfo need here.  The binaries are the server device's
 * own (clGetProgramInfo hands them out; clCreateProgramWithBinary takes
 * them back, checked by the server).
 *
 * A launch sends the program's number on the server, the kernel's, the
 * NDRange and each argument: bytes for a value, a remote address for a
 * buffer (protocol.h), a size for __local memory.
 */
#include "devices/remote/remote_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ndrange.h"

/* What the server built (attached to the executable). */
typedef struct remote_program {
    cl_device_id device;
    uint64_t id;              /* the program's number on the server */
    size_t num_kernels;
    uint64_t work_group_limit[]; /* by the executable's kernel index */
} remote_program;

static void program_release(void *data)
{
    remote_program *p = data;
    remote_simple_call(p->device, REMOTE_RELEASE_PROGRAM, p->id, 0, 0);
    free(p);
}

/* The call's log (inline), malloc'd, into *log. */
static void take_log(remote_call *c, char **log, const char *fallback)
{
    const char *text = c->reply_bytes ? remote_get_str(&c->inline_reply) : "";
    if (!c->reply_bytes && fallback)
        text = fallback;
    *log = strdup(text);
}

static const char unreachable[] = "error: the server of this device could not be reached\n";

/* The binary a COMPILE or LINK answered with, into *out. */
static cl_int take_binary(remote_call *c, cl_int err, mosaic_bitcode *out)
{
    if (err == CL_SUCCESS) {
        if (!c->reply_data)
            err = CL_OUT_OF_HOST_MEMORY;
        out->type = (cl_program_binary_type)c->reply.r[0];
        out->data = c->reply_data;
        out->size = c->reply.data_size;
        c->reply_data = NULL;
    }
    free(c->reply_data);
    return err;
}

cl_int remote_compile(cl_device_id device, cl_program program, const char *options, size_t num_headers,
                      const mosaic_header *headers, mosaic_bitcode *out, char **log)
{
    if (!program->source && !program->il) {
        *log = strdup("error: the program has neither source nor IL\n");
        return CL_COMPILE_PROGRAM_FAILURE;
    }
    remote_call c;
    remote_begin(&c, device, REMOTE_COMPILE);
    remote_put_str(&c.request, options);
    uint64_t specs = 0;
    if (program->source) {
        remote_put_str(&c.request, program->source);
    } else { /* SPIR-V, and the specialization constants the application set */
        remote_put_blob(&c.request, program->il, program->il_size);
        for (size_t i = 0; i < program->num_spec_constants; i++) {
            const mosaic_spec_constant *k = &program->spec_constants[i];
            if (!k->set)
                continue;
            remote_put_u64(&c.request, k->id);
            remote_put_u64(&c.request, k->size);
            remote_put_u64(&c.request, k->value);
            specs++;
        }
    }
    for (size_t i = 0; i < num_headers; i++) {
        remote_put_str(&c.request, headers[i].include_name);
        remote_put_str(&c.request, headers[i].source);
    }
    if (c.request.data) {
        ((remote_request *)c.request.data)->a[0] = num_headers;
        ((remote_request *)c.request.data)->a[1] = program->source == NULL;
        ((remote_request *)c.request.data)->a[2] = specs;
    }
    cl_int err = remote_call_run(remote_of(device)->server, &c);
    take_log(&c, log, unreachable);
    err = take_binary(&c, err, out);
    remote_call_end(&c);
    return err;
}

cl_int remote_link(cl_device_id device, size_t count, const mosaic_bitcode *inputs, const char *options,
                   bool create_library, mosaic_bitcode *out, char **log)
{
    remote_call c;
    remote_begin(&c, device, REMOTE_LINK);
    remote_put_str(&c.request, options);
    for (size_t i = 0; i < count; i++)
        remote_put_blob(&c.request, inputs[i].data, inputs[i].size);
    if (c.request.data) {
        ((remote_request *)c.request.data)->a[0] = count;
        ((remote_request *)c.request.data)->a[1] = create_library;
    }
    cl_int err = remote_call_run(remote_of(device)->server, &c);
    take_log(&c, log, unreachable);
    err = take_binary(&c, err, out);
    remote_call_end(&c);
    return err;
}

cl_int remote_check_binary(cl_device_id device, const void *data, size_t size, cl_program_binary_type *type,
                           char **log)
{
    remote_call c;
    remote_begin(&c, device, REMOTE_CHECK_BINARY);
    remote_put_blob(&c.request, data, size);
    cl_int err = remote_call_run(remote_of(device)->server, &c);
    *type = (cl_program_binary_type)c.reply.r[0];
    take_log(&c, log, unreachable);
    free(c.reply_data);
    remote_call_end(&c);
    return err == CL_SUCCESS || err == CL_OUT_OF_HOST_MEMORY ? err : CL_INVALID_BINARY;
}

cl_int remote_finalize(cl_device_id device, const mosaic_bitcode *executable, const char *options,
                       mosaic_executable **out, char **log)
{
    *out = NULL;
    remote_call c;
    remote_begin(&c, device, REMOTE_FINALIZE);
    remote_put_str(&c.request, options);
    remote_put_blob(&c.request, executable->data, executable->size);
    cl_int err = remote_call_run(remote_of(device)->server, &c);
    take_log(&c, log, unreachable);
    free(c.reply_data);
    uint64_t id = c.reply.r[0], n = c.reply.r[1];
    if (err != CL_SUCCESS) {
        remote_call_end(&c);
        return err;
    }
    mosaic_kernel_info *kernels = n <= 4096 ? calloc(n ? n : 1, sizeof *kernels) : NULL;
    remote_program *p = kernels ? calloc(1, sizeof *p + n * sizeof p->work_group_limit[0]) : NULL;
    mosaic_executable *exe = NULL;
    bool fine = p != NULL;
    for (uint64_t i = 0; fine && i < n; i++)
        fine = remote_get_kernel(&c.inline_reply, &kernels[i], &p->work_group_limit[i]);
    if (fine && (exe = mosaic_executable_of_table(kernels, n)) != NULL) {
        p->device = device; /* (work_group_limit, beyond the struct, is filled) */
        p->id = id;
        p->num_kernels = n;
        mosaic_executable_attach(exe, p, program_release);
        *out = exe;
    } else {
        /* what a damaged answer left: the table, and the program on the server */
        if (kernels) {
            mosaic_executable *table = mosaic_executable_of_table(kernels, n);
            if (table)
                mosaic_executable_free(table);
            else
                free(kernels);
        }
        free(p);
        remote_simple_call(device, REMOTE_RELEASE_PROGRAM, id, 0, 0);
        err = fine ? CL_OUT_OF_HOST_MEMORY : CL_BUILD_PROGRAM_FAILURE;
    }
    remote_call_end(&c);
    return err;
}

/* ---- launches ----------------------------------------------------------------------- */

static size_t kernel_index(const mosaic_executable *exe, const mosaic_kernel_info *kernel)
{
    return (size_t)(kernel - mosaic_executable_kernel(exe, 0));
}

size_t remote_kernel_work_group_limit(cl_device_id device, const mosaic_executable *exe,
                                      const mosaic_kernel_info *kernel)
{
    const remote_program *p = mosaic_executable_attached(exe);
    size_t i = kernel_index(exe, kernel);
    if (!p || i >= p->num_kernels)
        return device->max_work_group_size;
    return p->work_group_limit[i] < device->max_work_group_size ? p->work_group_limit[i] : device->max_work_group_size;
}

size_t remote_kernel_preferred_multiple(cl_device_id device, const mosaic_kernel_info *kernel)
{
    (void)kernel;
    return device->preferred_work_group_size_multiple ? device->preferred_work_group_size_multiple : 1;
}

/* The largest divisor of n that is at most limit: divisors come in pairs
 * (i, n / i) with i <= sqrt(n), so at most min(sqrt(n), limit) tries (a
 * count down from the limit took thousands of divisions for a launch of
 * one work-item, which is on every empty kernel's path). */
static size_t largest_divisor(size_t n, size_t limit)
{
    size_t best = 1;
    for (size_t i = 1; i <= limit && i <= n / i; i++) {
        if (n % i)
            continue;
        if (i > best)
            best = i;
        if (n / i <= limit && n / i > best)
            best = n / i;
    }
    return best;
}

/* The largest divisor of global[d] that fits, dimension by dimension. */
void remote_choose_local_size(cl_device_id device, const mosaic_kernel_info *kernel, cl_uint work_dim,
                              const size_t global[3], size_t max_group, size_t local[3])
{
    (void)kernel;
    size_t room = max_group;
    for (cl_uint d = 0; d < 3; d++) {
        size_t limit = d < work_dim ? device->max_work_item_sizes[d] : 1;
        if (limit > room)
            limit = room;
        size_t best = d < work_dim ? largest_divisor(global[d], limit) : 1;
        local[d] = best;
        room /= best;
    }
}

/* The __local bytes of argument i: from its offset to the next one's (the
 * API lays them out in order after the kernel's own), or to the end. */
static uint64_t local_size_of(const mosaic_ndrange *nd, cl_uint i)
{
    uint64_t at = *(const uint64_t *)nd->args[i], next = nd->local_mem_size;
    for (cl_uint j = 0; j < nd->info->num_args; j++) {
        if (j == i || nd->info->args[j].kind != MOSAIC_ARG_LOCAL_PTR)
            continue; /* (only a __local argument's slot is an offset) */
        uint64_t other = *(const uint64_t *)nd->args[j];
        if (other > at && other < next)
            next = other;
    }
    return next - at;
}

cl_int remote_launch_send(cl_event command, remote_call *c)
{
    mosaic_ndrange *nd = command->payload;
    cl_device_id device = command->queue->device;
    const remote_program *p = mosaic_executable_attached(nd->executable);
    remote_begin(c, device, REMOTE_LAUNCH);
    if (!p)
        return CL_INVALID_PROGRAM_EXECUTABLE;
    for (int d = 0; d < 3; d++)
        remote_put_u64(&c->request, nd->global_offset[d]);
    for (int d = 0; d < 3; d++)
        remote_put_u64(&c->request, nd->global_size[d]);
    for (int d = 0; d < 3; d++)
        remote_put_u64(&c->request, nd->local_size[d]);
    for (cl_uint i = 0; i < nd->info->num_args; i++) {
        const mosaic_kernel_arg *a = &nd->info->args[i];
        switch (a->kind) {
        case MOSAIC_ARG_BY_VALUE:
            remote_put_u64(&c->request, REMOTE_ARG_VALUE);
            remote_put_blob(&c->request, nd->args[i], a->size);
            break;
        case MOSAIC_ARG_GLOBAL_PTR:
        case MOSAIC_ARG_CONSTANT_PTR:
            remote_put_u64(&c->request, REMOTE_ARG_BUFFER);
            remote_put_u64(&c->request, *(const uint64_t *)nd->args[i]);
            break;
        case MOSAIC_ARG_LOCAL_PTR:
            remote_put_u64(&c->request, REMOTE_ARG_LOCAL);
            remote_put_u64(&c->request, local_size_of(nd, i));
            break;
        default: /* images, samplers and pipes: the device reports none */
            return CL_INVALID_KERNEL_ARGS;
        }
    }
    remote_request *request = (remote_request *)c->request.data;
    if (request) {
        request->a[0] = p->id;
        request->a[1] = kernel_index(nd->executable, nd->info);
        request->a[2] = nd->work_dim;
    }
    return remote_call_send(remote_of(device)->server, c);
}

cl_int remote_launch_finish(cl_event command, remote_call *c, cl_int sent)
{
    cl_int err = sent == CL_SUCCESS ? remote_call_wait(remote_of(command->queue->device)->server, c) : sent;
    free(c->reply_data);
    remote_call_end(c);
    return err == CL_SUCCESS ? CL_COMPLETE : err;
}
