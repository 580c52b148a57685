/* Programs: creation from source or binary, build, compile, link, queries.
 * The building itself is the device's (core/device.h, "programs": the CPU
 * device calls the compiler); this file keeps each program's state.
 *
 * A program has one build (mosaic_program_build: status, log, binary,
 * executable) per root device among its devices: a context of the CPU and a
 * GPU builds every program twice, while the CPU's sub-devices share the
 * CPU's build. */
#include "api/context.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/objects.h"
#include "api/program.h"
#include "core/util.h"
#include "api/api.h"
#include "api/entry.h"
#include "base/assert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Frees a binary's bytes (malloc'd: core/device.h) and leaves it empty. */
static void drop_binary(mosaic_bitcode *binary)
{
    free(binary->data);
    binary->data = NULL;
    binary->size = 0;
}

static void destroy_program(void *p)
{
    cl_program program = p;
    for (mosaic_callback *cb = program->release_callbacks, *next; cb; cb = next) {
        next = cb->next;
        ((void (CL_CALLBACK *)(cl_program, void *))cb->fn)(program, cb->user_data);
        free(cb);
    }
    for (cl_uint b = 0; b < program->num_builds; b++) {
        mosaic_program_build *build = &program->builds[b];
        if (build->executable)
            mosaic_executable_free(build->executable);
        drop_binary(&build->binary);
        mosaic_strbuf_free(&build->log);
    }
    free(program->builds);
    free(program->build_of);
    free(program->source);
    free(program->il);
    free(program->spec_constants);
    free(program->options);
    free(program->devices);
    pthread_mutex_destroy(&program->lock);
    mosaic_release_internal(program->context);
    free(program);
}

static cl_program new_program(cl_context context, cl_uint num_devices, const cl_device_id *devices)
{
    cl_program program = mosaic_calloc(1, sizeof *program);
    if (!program)
        return NULL;
    size_t n = num_devices ? num_devices : 1;
    program->devices = malloc(n * sizeof *devices);
    program->build_of = malloc(n * sizeof *program->build_of);
    program->builds = mosaic_calloc(n, sizeof *program->builds);
    if (!program->devices || !program->build_of || !program->builds) {
        free(program->devices);
        free(program->build_of);
        free(program->builds);
        free(program);
        return NULL;
    }
    memcpy(program->devices, devices, num_devices * sizeof *devices);
    program->num_devices = num_devices;
    for (cl_uint i = 0; i < num_devices; i++) {
        cl_device_id root = mosaic_device_mem_domain(devices[i]);
        cl_uint b = 0;
        while (b < program->num_builds && program->builds[b].device != root)
            b++;
        if (b == program->num_builds)
            program->builds[program->num_builds++] =
                (mosaic_program_build){ .device = root, .status = CL_BUILD_NONE,
                                        .binary.type = CL_PROGRAM_BINARY_TYPE_NONE };
        program->build_of[i] = b;
    }
    mosaic_object_init(program, MOSAIC_PROGRAM, &mosaic_dispatch, destroy_program);
    pthread_mutex_init(&program->lock, NULL);
    program->context = context;
    mosaic_retain_internal(context);
    return program;
}

mosaic_program_build *mosaic_program_build_for(cl_program program, cl_device_id device)
{
    for (cl_uint i = 0; i < program->num_devices; i++)
        if (program->devices[i] == device)
            return &program->builds[program->build_of[i]];
    cl_device_id root = mosaic_device_mem_domain(device); /* a sub-device of one of the program's */
    for (cl_uint b = 0; b < program->num_builds; b++)
        if (program->builds[b].device == root)
            return &program->builds[b];
    return NULL;
}

/* Marks in `chosen` (one flag per build) the builds of a checked device
 * list: all of them when num_devices is 0. */
static void choose_builds(cl_program program, cl_uint num_devices, const cl_device_id *devices, bool *chosen)
{
    for (cl_uint b = 0; b < program->num_builds; b++)
        chosen[b] = num_devices == 0;
    for (cl_uint i = 0; i < num_devices; i++)
        chosen[mosaic_program_build_for(program, devices[i]) - program->builds] = true;
}

/* A device list given to clBuildProgram and friends: NULL means all of the
 * program's devices; otherwise each must belong to the program. */
static cl_int check_devices(cl_program program, cl_uint num_devices, const cl_device_id *devices)
{
    if ((num_devices == 0) != (devices == NULL))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "num_devices (%u) and device_list disagree", num_devices);
    for (cl_uint i = 0; i < num_devices; i++) {
        bool found = false;
        for (cl_uint j = 0; j < program->num_devices; j++)
            found |= devices[i] == program->devices[j];
        if (!found)
            return MOSAIC_ERROR(CL_INVALID_DEVICE, "device_list[%u] is not a device of this program", i);
    }
    return CL_SUCCESS;
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings, const size_t *lengths,
                          cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    if (count == 0 || !strings) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "no source strings"));
        return NULL;
    }
    size_t total = 0;
    for (cl_uint i = 0; i < count; i++) {
        if (!strings[i]) {
            mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "strings[%u] is NULL", i));
            return NULL;
        }
        /* A length may count a trailing NUL (as the C++ bindings do): stop there. */
        total += lengths && lengths[i] ? strnlen(strings[i], lengths[i]) : strlen(strings[i]);
    }
    cl_program program = new_program(context, context->num_devices, context->devices);
    char *source = program ? malloc(total + 1) : NULL;
    if (!source) {
        if (program)
            mosaic_release(program);
        mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    size_t at = 0;
    for (cl_uint i = 0; i < count; i++) {
        size_t n = lengths && lengths[i] ? strnlen(strings[i], lengths[i]) : strlen(strings[i]);
        memcpy(source + at, strings[i], n);
        at += n;
    }
    source[at] = '\0';
    program->source = source;
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return program;
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                          const size_t *lengths, const unsigned char **binaries, cl_int *binary_status,
                          cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    if (num_devices == 0 || !device_list || !lengths || !binaries) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "device_list, lengths and binaries are required"));
        return NULL;
    }
    for (cl_uint i = 0; i < num_devices; i++) {
        if (!MOSAIC_IS(device_list[i], DEVICE) || !mosaic_context_has_device(context, device_list[i])) {
            mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_DEVICE, "device_list[%u] is not in the context", i));
            return NULL;
        }
        if (lengths[i] == 0 || !binaries[i]) {
            mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "binary %u is empty", i));
            return NULL;
        }
    }
    cl_int result = CL_SUCCESS;
    cl_program_binary_type *types = mosaic_calloc(num_devices, sizeof *types);
    if (!types) {
        mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    for (cl_uint i = 0; i < num_devices; i++) {
        char *log = NULL;
        cl_device_id device = device_list[i];
        cl_int status = device->ops->check_binary(device, binaries[i], lengths[i], &types[i], &log);
        if (binary_status)
            binary_status[i] = status;
        if (status != CL_SUCCESS) {
            /* the log's first line, less "error: ", for the context's callback too */
            const char *why = log && !strncmp(log, "error: ", 7) ? log + 7 : log ? log : "";
            int len = (int)strcspn(why, "\n");
            char message[512];
            snprintf(message, sizeof message, "clCreateProgramWithBinary: binary %u: %.*s", i, len, why);
            mosaic_context_notify(context, message);
            result = MOSAIC_ERROR(CL_INVALID_BINARY, "binary %u: %.*s", i, len, why);
        }
        free(log);
    }
    if (result != CL_SUCCESS) {
        free(types);
        mosaic_set_error(errcode_ret, result);
        return NULL;
    }
    cl_program program = new_program(context, num_devices, device_list);
    if (!program) {
        free(types);
        mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    /* each build takes the binary of its first device in the list */
    for (cl_uint i = 0; i < num_devices; i++) {
        mosaic_program_build *build = &program->builds[program->build_of[i]];
        if (build->binary.data)
            continue;
        void *copy = malloc(lengths[i]);
        if (!copy) {
            free(types);
            mosaic_release(program);
            mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
            return NULL;
        }
        memcpy(copy, binaries[i], lengths[i]);
        build->binary = (mosaic_bitcode){ types[i], copy, lengths[i] };
    }
    free(types);
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return program;
}

/* The context's first device that takes IL programs (CL_DEVICE_IL_VERSION),
 * or NULL. */
static cl_device_id il_device(cl_context context)
{
    for (cl_uint i = 0; i < context->num_devices; i++)
        if (context->devices[i]->il_version && context->devices[i]->il_version[0])
            return context->devices[i];
    return NULL;
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithIL(cl_context context, const void *il, size_t length, cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    if (!il || length == 0) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "il is NULL or length is 0"));
        return NULL;
    }
    cl_device_id device = il_device(context);
    if (!device) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_OPERATION, "no device of this context takes SPIR-V"));
        return NULL;
    }
    /* the device checks the module now: one that is not well-formed is
     * CL_INVALID_VALUE here, as the spec says, not a build failure later */
    mosaic_spec_constant *specs = NULL;
    size_t num_specs = 0;
    char *log = NULL;
    cl_int err = device->ops->check_il(device, il, length, &specs, &num_specs, &log);
    if (err != CL_SUCCESS) {
        const char *why = log && !strncmp(log, "error: ", 7) ? log + 7 : log ? log : "";
        char message[1024];
        snprintf(message, sizeof message, "clCreateProgramWithIL: %s", why);
        mosaic_context_notify(context, message);
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(err, "%s", why));
        free(log);
        return NULL;
    }
    free(log);
    cl_program program = new_program(context, context->num_devices, context->devices);
    void *copy = program ? malloc(length) : NULL;
    if (!copy) {
        if (program)
            mosaic_release(program);
        free(specs);
        mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    memcpy(copy, il, length);
    program->il = copy;
    program->il_size = length;
    program->spec_constants = specs;
    program->num_spec_constants = num_specs;
    mosaic_set_error(errcode_ret, CL_SUCCESS);
    return program;
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                                  const char *kernel_names, cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    if (num_devices == 0 || !device_list || !kernel_names) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "device_list and kernel_names are required"));
        return NULL;
    }
    for (cl_uint i = 0; i < num_devices; i++)
        if (!MOSAIC_IS(device_list[i], DEVICE) || !mosaic_context_has_device(context, device_list[i])) {
            mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_DEVICE, "device_list[%u] is not in the context", i));
            return NULL;
        }
    mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "Mosaic's devices have no built-in kernels"));
    return NULL;
}

MOSAIC_RETAIN_RELEASE(Program, cl_program, PROGRAM)

/* Appends `text` to a build's log (program->lock held). */
static void append_log(cl_program program, mosaic_program_build *build, const char *text)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&program->lock));
    if (text)
        mosaic_strbuf_puts(&build->log, text);
}

/* The program's options become `options`; the chosen builds start over
 * (program->lock held). */
static void reset_builds(cl_program program, const bool *chosen, const char *options)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&program->lock));
    free(program->options);
    program->options = mosaic_strdup(options ? options : "");
    for (cl_uint b = 0; b < program->num_builds; b++) {
        mosaic_program_build *build = &program->builds[b];
        if (!chosen[b])
            continue;
        mosaic_strbuf_free(&build->log);
        if (build->executable) {
            mosaic_executable_free(build->executable);
            build->executable = NULL;
        }
    }
}

/* Finalizes a build's executable binary into runnable kernels: the
 * device's back end does (ops->finalize; the CPU: the JIT).  program->lock
 * held. */
static cl_int finalize(cl_program program, mosaic_program_build *build, const char *options)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&program->lock));
    char *log = NULL;
    cl_device_id device = build->device;
    cl_int err = device->ops->finalize(device, &build->binary, options, &build->executable, &log);
    append_log(program, build, log);
    free(log);
    return err;
}

/* The program's source or IL (with the specialization constants set) as a
 * compiled object: the device's compile op.  The log goes to the build's.
 * program->lock held. */
static cl_int compile(cl_program program, mosaic_program_build *build, const char *options, size_t num_headers,
                      const mosaic_header *headers, mosaic_bitcode *out)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&program->lock));
    char *log = NULL;
    cl_device_id device = build->device;
    cl_int err = device->ops->compile(device, program, options, num_headers, headers, out, &log);
    append_log(program, build, log);
    free(log);
    return err;
}

/* count compiled objects or libraries linked into *out: the device's link
 * op.  The log goes to the build's.  program->lock held. */
static cl_int link_binaries(cl_program program, mosaic_program_build *build, size_t count,
                            const mosaic_bitcode *inputs, const char *options, bool create_library,
                            mosaic_bitcode *out)
{
    MOSAIC_ASSERT(mosaic_mutex_held(&program->lock));
    char *log = NULL;
    cl_device_id device = build->device;
    cl_int err = device->ops->link(device, count, inputs, options, create_library, out, &log);
    append_log(program, build, log);
    free(log);
    return err;
}

static void call_notify(void (CL_CALLBACK *notify)(cl_program, void *), cl_program program, void *data)
{
    if (notify)
        notify(program, data);
}

/* What clBuildProgram and clCompileProgram check first: the device list,
 * user_data only with a callback, no kernels attached. */
static cl_int check_build_call(cl_program program, cl_uint num_devices, const cl_device_id *devices, bool notify,
                               const void *user_data)
{
    cl_int err = check_devices(program, num_devices, devices);
    if (err != CL_SUCCESS)
        return err;
    if (!notify && user_data)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "user_data without pfn_notify");
    if (atomic_load(&program->num_kernels) > 0)
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "kernels are attached to this program");
    return CL_SUCCESS;
}

/* clBuildProgram for one build: source or IL compiled and linked, or a
 * compiled object linked, then finalized.  program->lock held. */
static cl_int build_one(cl_program program, mosaic_program_build *build, const char *options)
{
    cl_int err = CL_SUCCESS;
    if (program->source || program->il) {
        mosaic_bitcode compiled = { 0 };
        err = compile(program, build, options, 0, NULL, &compiled);
        if (err == CL_SUCCESS) {
            mosaic_bitcode linked = { 0 };
            /* the build options are compile options: the link step takes none of them */
            err = link_binaries(program, build, 1, &compiled, NULL, false, &linked);
            drop_binary(&compiled);
            if (err == CL_SUCCESS) {
                drop_binary(&build->binary);
                build->binary = linked;
            }
        }
    } else if (build->binary.type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT) {
        mosaic_bitcode linked = { 0 };
        err = link_binaries(program, build, 1, &build->binary, NULL, false, &linked);
        if (err == CL_SUCCESS) {
            drop_binary(&build->binary);
            build->binary = linked;
        }
    }
    if (err == CL_SUCCESS)
        err = finalize(program, build, options);
    if (err == CL_COMPILE_PROGRAM_FAILURE || err == CL_LINK_PROGRAM_FAILURE)
        err = CL_BUILD_PROGRAM_FAILURE;
    if (err == CL_INVALID_COMPILER_OPTIONS || err == CL_INVALID_LINKER_OPTIONS)
        err = CL_INVALID_BUILD_OPTIONS;
    build->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    if (err != CL_SUCCESS)
        mosaic_debug("clBuildProgram", "build for %s failed (%d):\n%s", build->device->name, err,
                     build->log.data ? build->log.data : "");
    return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
               void (CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    MOSAIC_CHECK_HANDLE(program, PROGRAM);
    cl_int err = check_build_call(program, num_devices, device_list, pfn_notify != NULL, user_data);
    if (err != CL_SUCCESS)
        return err;
    bool chosen[program->num_builds];
    choose_builds(program, num_devices, device_list, chosen);
    if (!program->source && !program->il)
        for (cl_uint b = 0; b < program->num_builds; b++) {
            cl_program_binary_type type = program->builds[b].binary.type;
            if (!chosen[b])
                continue;
            if (type == CL_PROGRAM_BINARY_TYPE_NONE)
                return MOSAIC_ERROR(CL_INVALID_OPERATION, "the program has neither source nor binary for %s",
                                    program->builds[b].device->name);
            if (type == CL_PROGRAM_BINARY_TYPE_LIBRARY)
                return MOSAIC_ERROR(CL_INVALID_BINARY, "a library binary cannot be built into an executable; link it");
        }

    pthread_mutex_lock(&program->lock);
    reset_builds(program, chosen, options);
    for (cl_uint b = 0; b < program->num_builds; b++)
        if (chosen[b])
            program->builds[b].status = CL_BUILD_IN_PROGRESS;
    for (cl_uint b = 0; b < program->num_builds; b++) {
        if (!chosen[b])
            continue;
        cl_int e = build_one(program, &program->builds[b], options);
        if (err == CL_SUCCESS)
            err = e;
    }
    pthread_mutex_unlock(&program->lock);
    call_notify(pfn_notify, program, user_data);
    return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
                 cl_uint num_input_headers, const cl_program *input_headers, const char **header_include_names,
                 void (CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    MOSAIC_CHECK_HANDLE(program, PROGRAM);
    cl_int err = check_build_call(program, num_devices, device_list, pfn_notify != NULL, user_data);
    if (err != CL_SUCCESS)
        return err;
    if ((num_input_headers == 0) != (input_headers == NULL) || (num_input_headers && !header_include_names))
        return MOSAIC_ERROR(CL_INVALID_VALUE, "input headers and their names disagree");
    for (cl_uint i = 0; i < num_input_headers; i++)
        if (!MOSAIC_IS(input_headers[i], PROGRAM) || !input_headers[i]->source)
            return MOSAIC_ERROR(CL_INVALID_PROGRAM, "input_headers[%u] is not a program created from source", i);
    if (!program->source && !program->il)
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "only programs created from source or IL can be compiled");

    mosaic_header *headers = mosaic_calloc(num_input_headers, sizeof *headers);
    if (!headers)
        return CL_OUT_OF_HOST_MEMORY;
    for (cl_uint i = 0; i < num_input_headers; i++)
        headers[i] = (mosaic_header){ header_include_names[i], input_headers[i]->source };

    bool chosen[program->num_builds];
    choose_builds(program, num_devices, device_list, chosen);
    pthread_mutex_lock(&program->lock);
    reset_builds(program, chosen, options);
    for (cl_uint b = 0; b < program->num_builds; b++) {
        mosaic_program_build *build = &program->builds[b];
        if (!chosen[b])
            continue;
        build->status = CL_BUILD_IN_PROGRESS;
        mosaic_bitcode compiled = { 0 };
        cl_int e = compile(program, build, options, num_input_headers, headers, &compiled);
        if (e == CL_SUCCESS) {
            drop_binary(&build->binary);
            build->binary = compiled;
        }
        build->status = e == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
        if (err == CL_SUCCESS)
            err = e;
    }
    pthread_mutex_unlock(&program->lock);
    free(headers);
    call_notify(pfn_notify, program, user_data);
    return err;
}

/* The binaries of input programs for one build of a program being linked:
 * each input's build for the same device, which must be a compiled object
 * or a library.  CL_SUCCESS or CL_INVALID_OPERATION. */
static cl_int link_inputs(cl_device_id device, cl_uint count, const cl_program *programs, mosaic_bitcode *inputs)
{
    for (cl_uint i = 0; i < count; i++) {
        const mosaic_program_build *in = mosaic_program_build_for(programs[i], device);
        if (!in || (in->binary.type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
                    in->binary.type != CL_PROGRAM_BINARY_TYPE_LIBRARY))
            return MOSAIC_ERROR(CL_INVALID_OPERATION, "input_programs[%u] has no compiled object or library for %s", i,
                                device->name);
        inputs[i] = in->binary;
    }
    return CL_SUCCESS;
}

CL_API_ENTRY cl_program CL_API_CALL
clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list, const char *options,
              cl_uint num_input_programs, const cl_program *input_programs,
              void (CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data, cl_int *errcode_ret)
{
    MOSAIC_CHECK_HANDLE_RET(context, CONTEXT, errcode_ret);
    if ((num_devices == 0) != (device_list == NULL) || num_input_programs == 0 || !input_programs ||
        (!pfn_notify && user_data)) {
        mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_VALUE, "invalid device list, input programs or user_data"));
        return NULL;
    }
    for (cl_uint i = 0; i < num_devices; i++)
        if (!MOSAIC_IS(device_list[i], DEVICE) || !mosaic_context_has_device(context, device_list[i])) {
            mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_DEVICE, "device_list[%u] is not in the context", i));
            return NULL;
        }
    for (cl_uint i = 0; i < num_input_programs; i++)
        if (!MOSAIC_IS(input_programs[i], PROGRAM) || input_programs[i]->context != context) {
            mosaic_set_error(errcode_ret, MOSAIC_ERROR(CL_INVALID_PROGRAM, "input_programs[%u] is not a program of this context", i));
            return NULL;
        }
    cl_program program = num_devices ? new_program(context, num_devices, device_list)
                                     : new_program(context, context->num_devices, context->devices);
    mosaic_bitcode *inputs = program ? mosaic_calloc(num_input_programs, sizeof *inputs) : NULL;
    if (!inputs) {
        if (program)
            mosaic_release(program);
        mosaic_set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY);
        return NULL;
    }
    cl_int err = CL_SUCCESS;
    for (cl_uint b = 0; b < program->num_builds && err == CL_SUCCESS; b++)
        err = link_inputs(program->builds[b].device, num_input_programs, input_programs, inputs);
    if (err != CL_SUCCESS) {
        free(inputs);
        mosaic_release(program);
        mosaic_set_error(errcode_ret, err);
        return NULL;
    }
    bool library = options && strstr(options, "-create-library");
    bool all[program->num_builds];
    choose_builds(program, 0, NULL, all);
    pthread_mutex_lock(&program->lock);
    reset_builds(program, all, options);
    for (cl_uint b = 0; b < program->num_builds; b++) {
        mosaic_program_build *build = &program->builds[b];
        link_inputs(build->device, num_input_programs, input_programs, inputs);
        cl_int e = link_binaries(program, build, num_input_programs, inputs, options, library, &build->binary);
        if (e == CL_SUCCESS && !library)
            e = finalize(program, build, options);
        if (e == CL_BUILD_PROGRAM_FAILURE)
            e = CL_LINK_PROGRAM_FAILURE;
        build->status = e == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
        if (err == CL_SUCCESS)
            err = e;
    }
    free(inputs);
    pthread_mutex_unlock(&program->lock);
    call_notify(pfn_notify, program, user_data);
    mosaic_set_error(errcode_ret, err);
    if (err == CL_SUCCESS || err == CL_LINK_PROGRAM_FAILURE)
        return program; /* a failed link still hands back the program, for its log */
    mosaic_release(program);
    return NULL;
}

const mosaic_executable *mosaic_program_any_executable(cl_program program)
{
    for (cl_uint b = 0; b < program->num_builds; b++)
        if (program->builds[b].executable)
            return program->builds[b].executable;
    return NULL;
}

static cl_int check_executable(cl_program program)
{
    return mosaic_program_any_executable(program)
               ? CL_SUCCESS
               : MOSAIC_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, "the program has no built executable");
}

CL_API_ENTRY cl_int CL_API_CALL
clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size, void *param_value,
                 size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(program, PROGRAM);
    cl_int err;
    const mosaic_executable *exe = mosaic_program_any_executable(program);
    switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT: MOSAIC_INFO_SCALAR(cl_uint, mosaic_refcount(program));
    case CL_PROGRAM_CONTEXT: MOSAIC_INFO_SCALAR(cl_context, program->context);
    case CL_PROGRAM_NUM_DEVICES: MOSAIC_INFO_SCALAR(cl_uint, program->num_devices);
    case CL_PROGRAM_DEVICES: MOSAIC_INFO_ARRAY(program->devices, program->num_devices);
    case CL_PROGRAM_SOURCE: MOSAIC_INFO_STRING(program->source ? program->source : "");
    case CL_PROGRAM_IL:
        MOSAIC_INFO_ARRAY(program->il, program->il_size);
    case CL_PROGRAM_BINARY_SIZES: {
        size_t *sizes = mosaic_calloc(program->num_devices, sizeof *sizes);
        if (!sizes)
            return CL_OUT_OF_HOST_MEMORY;
        for (cl_uint i = 0; i < program->num_devices; i++)
            sizes[i] = program->builds[program->build_of[i]].binary.size;
        err = mosaic_info(param_value_size, param_value, param_value_size_ret, sizes,
                          program->num_devices * sizeof *sizes);
        free(sizes);
        return err;
    }
    case CL_PROGRAM_BINARIES: {
        /* The answer is the array of pointers the application gave: the
         * binaries are written where they point. */
        err = mosaic_info_size(param_value_size, param_value, param_value_size_ret,
                               program->num_devices * sizeof(unsigned char *));
        if (err == CL_SUCCESS && param_value) {
            unsigned char **out = param_value;
            for (cl_uint i = 0; i < program->num_devices; i++) {
                const mosaic_bitcode *binary = &program->builds[program->build_of[i]].binary;
                if (out[i] && binary->size)
                    memcpy(out[i], binary->data, binary->size);
            }
        }
        return err;
    }
    case CL_PROGRAM_NUM_KERNELS:
        if ((err = check_executable(program)) != CL_SUCCESS)
            return err;
        MOSAIC_INFO_SCALAR(size_t, mosaic_executable_num_kernels(exe));
    case CL_PROGRAM_KERNEL_NAMES: {
        if ((err = check_executable(program)) != CL_SUCCESS)
            return err;
        size_t n = mosaic_executable_num_kernels(exe), len = 1;
        for (size_t i = 0; i < n; i++)
            len += strlen(mosaic_executable_kernel(exe, i)->name) + 1;
        char *names = mosaic_calloc(len, 1);
        if (!names)
            return CL_OUT_OF_HOST_MEMORY;
        for (size_t i = 0; i < n; i++) {
            if (i)
                strcat(names, ";");
            strcat(names, mosaic_executable_kernel(exe, i)->name);
        }
        err = mosaic_info_string(param_value_size, param_value, param_value_size_ret, names);
        free(names);
        return err;
    }
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
        /* no device runs constructors or destructors of program-scope variables */
        if ((err = check_executable(program)) != CL_SUCCESS)
            return err;
        MOSAIC_INFO_SCALAR(cl_bool, CL_FALSE);
    default:
        MOSAIC_INFO_UNKNOWN(param_name);
    }
}

CL_API_ENTRY cl_int CL_API_CALL
clGetProgramBuildInfo(cl_program program, cl_device_id device, cl_program_build_info param_name,
                      size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    MOSAIC_CHECK_HANDLE(program, PROGRAM);
    cl_int err = check_devices(program, 1, &device);
    if (err != CL_SUCCESS)
        return err;
    pthread_mutex_lock(&program->lock);
    const mosaic_program_build *build = mosaic_program_build_for(program, device);
    switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS:
        err = mosaic_info(param_value_size, param_value, param_value_size_ret, &build->status,
                          sizeof(cl_build_status));
        break;
    case CL_PROGRAM_BUILD_OPTIONS:
        err = mosaic_info_string(param_value_size, param_value, param_value_size_ret,
                                 program->options ? program->options : "");
        break;
    case CL_PROGRAM_BUILD_LOG:
        err = mosaic_info_string(param_value_size, param_value, param_value_size_ret, build->log.data);
        break;
    case CL_PROGRAM_BINARY_TYPE: {
        cl_program_binary_type type = build->binary.type;
        err = mosaic_info(param_value_size, param_value, param_value_size_ret, &type, sizeof type);
        break;
    }
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
        size_t size = build->executable ? mosaic_executable_global_variables_size(build->executable) : 0;
        err = mosaic_info(param_value_size, param_value, param_value_size_ret, &size, sizeof size);
        break;
    }
    default:
        err = mosaic_info_unknown(param_name);
    }
    pthread_mutex_unlock(&program->lock);
    return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetProgramReleaseCallback(cl_program program, void (CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    MOSAIC_CHECK_HANDLE(program, PROGRAM);
    if (!pfn_notify)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "pfn_notify is NULL");
    return MOSAIC_ERROR(CL_INVALID_OPERATION, "no device supports destructors of program-scope variables");
}

CL_API_ENTRY cl_int CL_API_CALL
clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size, const void *spec_value)
{
    MOSAIC_CHECK_HANDLE(program, PROGRAM);
    if (!il_device(program->context))
        return MOSAIC_ERROR(CL_INVALID_OPERATION, "no device of the program's context takes SPIR-V");
    if (!program->il)
        return MOSAIC_ERROR(CL_INVALID_PROGRAM, "the program was not created from SPIR-V");
    mosaic_spec_constant *c = NULL;
    for (size_t i = 0; i < program->num_spec_constants; i++)
        if (program->spec_constants[i].id == spec_id)
            c = &program->spec_constants[i];
    if (!c)
        return MOSAIC_ERROR(CL_INVALID_SPEC_ID, "the module has no specialization constant %u", spec_id);
    if (!spec_value)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "spec_value is NULL");
    if (spec_size != c->size)
        return MOSAIC_ERROR(CL_INVALID_VALUE, "specialization constant %u takes %u bytes, not %zu", spec_id,
                            c->size, spec_size);
    uint64_t value = 0;
    memcpy(&value, spec_value, spec_size); /* little-endian, as the host */
    pthread_mutex_lock(&program->lock);
    c->value = value;
    c->set = true;
    pthread_mutex_unlock(&program->lock);
    return CL_SUCCESS;
}

/* The value of -cl-std= in the options, or NULL. */
static const char *cl_std(const char *options)
{
    const char *at = options ? strstr(options, "-cl-std=") : NULL;
    return at ? at + strlen("-cl-std=") : NULL;
}

bool mosaic_program_allows_non_uniform(cl_program program)
{
    const char *options = program->options;
    const char *std = cl_std(options);
    if (!std || strncmp(std, "CL1", 3) == 0)
        return false;
    return !strstr(options, "-cl-uniform-work-group-size");
}
