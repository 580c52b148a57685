/*
 * mosaic-server's programs and launches: each build step of the program's
 * remote device (src/devices/remote/remote_program.c) done with the
 * OpenCL calls that do it here, on the request's device; the binaries are
 * this device's own.  A finalized program keeps a kernel object of each of
 * its kernels, by the index of the kernel's table the program was sent.
 */
#include "server/server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/objects.h"

typedef struct served_program {
    cl_program program;
    uint32_t device;
    size_t num_kernels;
    cl_kernel kernels[];
} served_program;

static char *build_log(cl_program program, cl_device_id device)
{
    size_t size = 0;
    if (!program || clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS)
        return strdup("");
    char *log = calloc(1, size + 1);
    if (log)
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    return log ? log : strdup("");
}

/* The program's binary for its one device (malloc'd), and its type. */
static void *binary_of(cl_program program, cl_device_id device, size_t *size, cl_program_binary_type *type)
{
    *size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BINARY_TYPE, sizeof *type, type, NULL);
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL) != CL_SUCCESS || !*size)
        return NULL;
    unsigned char *data = malloc(*size);
    if (data && clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof data, &data, NULL) != CL_SUCCESS) {
        free(data);
        data = NULL;
    }
    return data;
}

/* Reply of COMPILE and LINK: the status, the log and the binary. */
static bool reply_built(int tag, cl_int err, cl_program program, cl_device_id device, const char *fallback_log)
{
    char *log = program ? build_log(program, device) : strdup(fallback_log);
    size_t size = 0;
    cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
    void *binary = err == CL_SUCCESS ? binary_of(program, device, &size, &type) : NULL;
    if (err == CL_SUCCESS && !binary)
        err = CL_OUT_OF_HOST_MEMORY;
    remote_msg m;
    server_reply_begin(&m, err);
    server_reply_header(&m)->r[0] = type;
    remote_put_str(&m, log);
    bool sent = server_reply_end(tag, &m, binary, binary ? size : 0);
    free(log);
    free(binary);
    return sent;
}

static bool compile(int tag, const remote_request *request, remote_reader *in)
{
    uint32_t d = request->device;
    cl_device_id device = the_server.devices[d];
    const char *options = remote_get_str(in), *source = NULL;
    size_t il_size = 0;
    const void *il = NULL;
    bool from_il = request->a[1] != 0;
    if (from_il)
        il = remote_get_blob(in, &il_size);
    else
        source = remote_get_str(in);
    uint64_t specs[3 * 64];
    size_t num_specs = request->a[2] < 64 ? request->a[2] : 0;
    for (size_t i = 0; from_il && i < 3 * num_specs; i++)
        specs[i] = remote_get_u64(in);
    size_t num_headers = request->a[0] < 4096 ? request->a[0] : 0;
    cl_program *headers = calloc(num_headers ? num_headers : 1, sizeof *headers);
    const char **names = calloc(num_headers ? num_headers : 1, sizeof *names);
    cl_int err = headers && names ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; err == CL_SUCCESS && i < num_headers; i++) {
        names[i] = remote_get_str(in);
        const char *text = remote_get_str(in);
        headers[i] = clCreateProgramWithSource(the_server.contexts[d], 1, &text, NULL, &err);
    }
    if (in->bad)
        err = CL_INVALID_VALUE;
    if (from_il && request->a[2] >= 64)
        err = CL_INVALID_VALUE;
    cl_program program = NULL;
    if (err == CL_SUCCESS && from_il)
        program = clCreateProgramWithIL(the_server.contexts[d], il, il_size, &err);
    else if (err == CL_SUCCESS)
        program = clCreateProgramWithSource(the_server.contexts[d], 1, &source, NULL, &err);
    for (size_t i = 0; program && err == CL_SUCCESS && i < num_specs; i++) {
        uint64_t value = specs[3 * i + 2];
        err = clSetProgramSpecializationConstant(program, (cl_uint)specs[3 * i], (size_t)specs[3 * i + 1], &value);
    }
    if (program && err == CL_SUCCESS)
        err = clCompileProgram(program, 1, &device, options, (cl_uint)num_headers, num_headers ? headers : NULL,
                               num_headers ? names : NULL, NULL, NULL);
    bool sent = reply_built(tag, err, program, device, "error: the server could not take the program\n");
    for (size_t i = 0; headers && i < num_headers; i++)
        if (headers[i])
            clReleaseProgram(headers[i]);
    free(headers);
    free(names);
    if (program)
        clReleaseProgram(program);
    return sent;
}

/* A program of one of the binaries this server made. */
static cl_program from_binary(uint32_t d, const void *data, size_t size, cl_int *err)
{
    cl_int status = CL_SUCCESS;
    const unsigned char *bytes = data;
    cl_program p = clCreateProgramWithBinary(the_server.contexts[d], 1, &the_server.devices[d], &size, &bytes,
                                             &status, err);
    if (p && status != CL_SUCCESS) {
        clReleaseProgram(p);
        *err = status;
        return NULL;
    }
    return p;
}

static bool link_binaries(int tag, const remote_request *request, remote_reader *in)
{
    uint32_t d = request->device;
    cl_device_id device = the_server.devices[d];
    const char *options = remote_get_str(in);
    size_t count = request->a[0] < 4096 ? request->a[0] : 0;
    cl_program *inputs = calloc(count ? count : 1, sizeof *inputs);
    cl_int err = inputs ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; err == CL_SUCCESS && i < count; i++) {
        size_t size = 0;
        const void *data = remote_get_blob(in, &size);
        inputs[i] = data ? from_binary(d, data, size, &err) : NULL;
        if (!data)
            err = CL_INVALID_VALUE;
    }
    cl_program linked = NULL;
    if (err == CL_SUCCESS) {
        /* (-create-library, when given, is in the options) */
        linked = clLinkProgram(the_server.contexts[d], 1, &device, options, (cl_uint)count, inputs, NULL, NULL, &err);
        if (linked && err == CL_SUCCESS) {
            cl_build_status status = CL_BUILD_NONE;
            clGetProgramBuildInfo(linked, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
            if (status != CL_BUILD_SUCCESS)
                err = CL_LINK_PROGRAM_FAILURE;
        }
    }
    bool sent = reply_built(tag, err, linked, device, "error: the server could not link the program\n");
    for (size_t i = 0; inputs && i < count; i++)
        if (inputs[i])
            clReleaseProgram(inputs[i]);
    free(inputs);
    if (linked)
        clReleaseProgram(linked);
    return sent;
}

static bool check_binary(int tag, const remote_request *request, remote_reader *in)
{
    uint32_t d = request->device;
    size_t size = 0;
    const void *data = remote_get_blob(in, &size);
    cl_int err = CL_INVALID_BINARY;
    cl_program p = data ? from_binary(d, data, size, &err) : NULL;
    cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
    if (p)
        clGetProgramBuildInfo(p, the_server.devices[d], CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL);
    remote_msg m;
    server_reply_begin(&m, p ? CL_SUCCESS : err);
    server_reply_header(&m)->r[0] = type;
    char line[128];
    snprintf(line, sizeof line, p ? "" : "error: the server's device does not take this binary (error %d)\n", err);
    remote_put_str(&m, line);
    if (p)
        clReleaseProgram(p);
    return server_reply_end(tag, &m, NULL, 0);
}

static void program_free(served_program *sp)
{
    for (size_t i = 0; i < sp->num_kernels; i++)
        if (sp->kernels[i])
            clReleaseKernel(sp->kernels[i]);
    clReleaseProgram(sp->program);
    free(sp);
}

static bool finalize(int tag, const remote_request *request, remote_reader *in)
{
    uint32_t d = request->device;
    cl_device_id device = the_server.devices[d];
    const char *options = remote_get_str(in);
    size_t size = 0;
    const void *data = remote_get_blob(in, &size);
    cl_int err = CL_INVALID_BINARY;
    cl_program program = data ? from_binary(d, data, size, &err) : NULL;
    if (program)
        err = clBuildProgram(program, 1, &device, options, NULL, NULL);
    /* the kernels' table, as this platform holds it (the program has one build: this device's) */
    const mosaic_executable *exe = err == CL_SUCCESS ? program->builds[0].executable : NULL;
    size_t n = mosaic_executable_num_kernels(exe);
    served_program *sp = err == CL_SUCCESS ? calloc(1, sizeof *sp + n * sizeof sp->kernels[0]) : NULL;
    if (err == CL_SUCCESS && !sp)
        err = CL_OUT_OF_HOST_MEMORY;
    remote_msg m;
    server_reply_begin(&m, CL_SUCCESS);
    char *log = build_log(program, device);
    remote_put_str(&m, log);
    free(log);
    if (sp) {
        sp->program = program;
        sp->device = d;
        sp->num_kernels = n;
        for (size_t i = 0; i < n && err == CL_SUCCESS; i++) {
            const mosaic_kernel_info *k = mosaic_executable_kernel(exe, i);
            sp->kernels[i] = clCreateKernel(program, k->name, &err);
            size_t limit = 0;
            if (sp->kernels[i])
                clGetKernelWorkGroupInfo(sp->kernels[i], device, CL_KERNEL_WORK_GROUP_SIZE, sizeof limit, &limit,
                                         NULL);
            remote_put_kernel(&m, k, limit);
        }
        uint64_t id = err == CL_SUCCESS ? server_keep(&the_server.programs, sp) : 0;
        if (err == CL_SUCCESS && !id)
            err = CL_OUT_OF_HOST_MEMORY;
        if (err != CL_SUCCESS)
            program_free(sp);
        server_reply_header(&m)->r[0] = id;
        server_reply_header(&m)->r[1] = n;
    } else if (program) {
        clReleaseProgram(program);
    }
    server_reply_header(&m)->status = err;
    return server_reply_end(tag, &m, NULL, 0);
}

static bool release_program(int tag, const remote_request *request)
{
    served_program *sp = server_find(&the_server.programs, request->a[0]);
    if (!sp || sp->device != request->device)
        return server_reply_status(tag, CL_INVALID_PROGRAM);
    server_forget(&the_server.programs, request->a[0]);
    program_free(sp);
    return server_reply_status(tag, CL_SUCCESS);
}

static bool launch(int tag, const remote_request *request, remote_reader *in)
{
    uint32_t d = request->device;
    served_program *sp = server_find(&the_server.programs, request->a[0]);
    cl_uint work_dim = (cl_uint)request->a[2];
    if (!sp || sp->device != d || request->a[1] >= sp->num_kernels || work_dim < 1 || work_dim > 3)
        return server_reply_status(tag, CL_INVALID_KERNEL);
    cl_kernel kernel = sp->kernels[request->a[1]];
    size_t offset[3], global[3], local[3];
    for (int i = 0; i < 3; i++)
        offset[i] = remote_get_u64(in);
    for (int i = 0; i < 3; i++)
        global[i] = remote_get_u64(in);
    for (int i = 0; i < 3; i++)
        local[i] = remote_get_u64(in);
    cl_uint num_args = 0;
    clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof num_args, &num_args, NULL);
    /* buffers at an offset become sub-buffers, released once the launch holds them */
    cl_mem views[64];
    size_t num_views = 0;
    cl_int err = in->bad ? CL_INVALID_VALUE : CL_SUCCESS;
    for (cl_uint i = 0; i < num_args && err == CL_SUCCESS; i++) {
        uint64_t kind = remote_get_u64(in);
        if (kind == REMOTE_ARG_VALUE) {
            size_t size = 0;
            const void *bytes = remote_get_blob(in, &size);
            err = bytes ? clSetKernelArg(kernel, i, size, bytes) : CL_INVALID_ARG_VALUE;
        } else if (kind == REMOTE_ARG_BUFFER) {
            uint64_t address = remote_get_u64(in);
            size_t at = 0;
            server_buffer *b = address ? server_buffer_at(address, d, 0, &at) : NULL;
            cl_mem mem = b ? b->mem : NULL;
            if (address && !b) {
                err = CL_INVALID_MEM_OBJECT;
            } else if (b && at) {
                cl_buffer_region region = {at, b->size - at};
                mem = num_views < sizeof views / sizeof views[0]
                          ? clCreateSubBuffer(b->mem, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err)
                          : NULL;
                if (mem)
                    views[num_views++] = mem;
                else if (err == CL_SUCCESS)
                    err = CL_OUT_OF_RESOURCES;
            }
            if (err == CL_SUCCESS)
                err = clSetKernelArg(kernel, i, sizeof mem, &mem);
        } else if (kind == REMOTE_ARG_LOCAL) {
            err = clSetKernelArg(kernel, i, remote_get_u64(in), NULL);
        } else {
            err = CL_INVALID_KERNEL_ARGS;
        }
    }
    if (in->bad && err == CL_SUCCESS)
        err = CL_INVALID_VALUE;
    cl_event done = NULL;
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(the_server.queues[d], kernel, work_dim, offset, global, local, 0, NULL, &done);
    for (size_t i = 0; i < num_views; i++)
        clReleaseMemObject(views[i]);
    if (done) {
        clWaitForEvents(1, &done);
        cl_int status = CL_COMPLETE;
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        err = status < 0 ? status : CL_SUCCESS;
        clReleaseEvent(done);
    }
    return server_reply_status(tag, err);
}

bool server_program(int tag, const remote_request *request, remote_reader *in)
{
    switch (request->op) {
    case REMOTE_COMPILE:
        return compile(tag, request, in);
    case REMOTE_LINK:
        return link_binaries(tag, request, in);
    case REMOTE_CHECK_BINARY:
        return check_binary(tag, request, in);
    case REMOTE_FINALIZE:
        return finalize(tag, request, in);
    case REMOTE_RELEASE_PROGRAM:
        return release_program(tag, request);
    default:
        return launch(tag, request, in);
    }
}
