/*
 * The remote device's life: what it reports (the server's description of
 * its device, less what cannot work from here), and the executor thread
 * that runs its commands.
 *
 * The engine submits a command once its dependencies are complete (the
 * device does not run in submission order), so every command a server
 * receives can run at once: the executor sends it, waits for the server's
 * answer and completes it, one command at a time per device.  A kernel's
 * request is sent by the thread that submits it, before the executor
 * wakes: its few hundred bytes are on their way (and the kernel running)
 * while the executor thread is woken to wait for the answer, which is
 * what an empty kernel's round trip is made of.  Whatever
 * waits on it (another queue, another device, a user event's dependents,
 * callbacks) is the engine's business as for a local device, which is what
 * keeps every ordering rule of docs/events.md across machines.
 */
#include "devices/remote/remote_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/util.h"

/* What the remote device offers of its server's extensions: those of the
 * kernel language, which the server's compiler and device do, and those
 * the runtime here does whatever the device.  Images, SVM, pipes,
 * sub-groups and device-side enqueue are not offered yet
 * (docs/remote.md, "Not yet"). */
static const char *const offered_extensions[] = {
    "cl_khr_icd",
    "cl_khr_fp64",
    "cl_khr_fp16",
    "cl_khr_byte_addressable_store",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product",
    "cl_khr_expect_assume",
    "cl_khr_extended_versioning",
    "cl_khr_device_uuid",
    /* SPIR-V programs: checked here, built by the server */
    "cl_khr_il_program",
    "cl_khr_spirv_no_integer_wrap_decoration",
    "cl_khr_spirv_linkonce_odr",
    "cl_khr_spirv_queries",
};

static bool offered(const char *name, size_t len, void *unused)
{
    (void)unused;
    for (size_t i = 0; i < sizeof offered_extensions / sizeof offered_extensions[0]; i++)
        if (strlen(offered_extensions[i]) == len && !memcmp(offered_extensions[i], name, len))
            return true;
    return false;
}

static void filter_extensions(remote_device *r, const char *from)
{
    mosaic_filter_words(from, offered, NULL, r->extensions, sizeof r->extensions);
}

/* OpenCL C features that need what is not offered. */
static bool feature_offered(const char *name)
{
    static const char *const not_offered[] = {"image", "pipe", "device_enqueue", "subgroup", "svm"};
    for (size_t i = 0; i < sizeof not_offered / sizeof not_offered[0]; i++)
        if (strstr(name, not_offered[i]))
            return false;
    return true;
}

/* The server's description, made true for a device that is reached from here. */
static void describe(cl_device_id device)
{
    remote_device *r = remote_of(device);
    filter_extensions(r, device->extensions);
    device->extensions = r->extensions;
    cl_uint kept = 0;
    for (cl_uint i = 0; i < device->num_opencl_c_features; i++)
        if (feature_offered(device->opencl_c_features[i]))
            device->opencl_c_features[kept++] = device->opencl_c_features[i];
    device->num_opencl_c_features = kept;
    device->mem_domain = device;
    device->runs_in_submission_order = false;
    device->host_unified_memory = false;
    device->execution_capabilities &= ~(cl_device_exec_capabilities)CL_EXEC_NATIVE_KERNEL;
    device->svm_capabilities = 0;
    device->max_on_device_queues = device->max_on_device_events = 0;
    device->queue_on_device_preferred_size = device->queue_on_device_max_size = 0;
    device->pipe_max_packet_size = device->max_pipe_args = device->pipe_max_active_reservations = 0;
    device->sub_group_size = 0;
    device->sub_group_forward_progress = false;
    device->image_support = false;
    device->image2d_max_width = device->image2d_max_height = 0;
    device->image3d_max_width = device->image3d_max_height = device->image3d_max_depth = 0;
    device->image_max_buffer_size = device->image_max_array_size = 0;
    device->max_read_image_args = device->max_write_image_args = device->max_read_write_image_args = 0;
    device->max_samplers = 0;
    device->image_pitch_alignment = device->image_base_address_alignment = 0;
    /* another device than the server's own, for anyone comparing UUIDs: the
     * same device seen from here, told apart by its server */
    device->uuid[15] ^= (unsigned char)(0x80u | r->server);
}

bool mosaic_remote_init_device(cl_device_id device, unsigned index)
{
    remote_device *r = calloc(1, sizeof *r);
    if (!r)
        return false;
    struct _cl_device_id description;
    const char *host = "";
    if (!remote_description(index, &description, &r->strings, &r->server, &r->index, &host) ||
        !mosaic_serial_init(&r->executor, "remote executor", false)) {
        free(r->strings);
        free(r);
        return false;
    }
    /* the server's values, under the platform's header */
    const cl_icd_dispatch *dispatch = device->dispatch;
    mosaic_object obj = device->obj;
    cl_platform_id platform = device->platform;
    cl_device_type type = description.type;
    *device = description;
    device->dispatch = dispatch;
    device->obj = obj;
    device->platform = platform;
    device->type = type;
    device->ops = &mosaic_remote_ops;
    device->impl = r;
    char name[sizeof device->name];
    snprintf(name, sizeof name, "%s", description.name);
    snprintf(device->name, sizeof device->name, "%.160s (%.64s, server %u)", name, host, r->server);
    describe(device);
    return true;
}

/* ---- commands ---------------------------------------------------------------------- */

static void run_job(void *data)
{
    cl_event command = data;
    mosaic_command_running(command);
    mosaic_command_complete(command, command->run(command));
}

/* A kernel whose request is on its way: the executor waits for its answer. */
typedef struct sent_launch {
    cl_event command;
    remote_call call;
    cl_int sent; /* what remote_launch_send returned */
} sent_launch;

static void finish_launch(void *data)
{
    sent_launch *l = data;
    cl_int status = remote_launch_finish(l->command, &l->call, l->sent);
    mosaic_command_complete(l->command, status);
    free(l);
}

static void submit(cl_device_id device, cl_event command)
{
    mosaic_serial *executor = &remote_of(device)->executor;
    if (command->run) {
        if (!mosaic_serial_post(executor, run_job, command))
            mosaic_command_complete(command, CL_OUT_OF_RESOURCES); /* no memory, or no thread */
        return;
    }
    sent_launch *l = malloc(sizeof *l);
    if (!l) {
        mosaic_command_complete(command, CL_OUT_OF_HOST_MEMORY);
        return;
    }
    l->command = command;
    mosaic_command_running(command);
    l->sent = remote_launch_send(command, &l->call);
    if (!mosaic_serial_post(executor, finish_launch, l))
        finish_launch(l); /* no memory or no thread for the job: waited for here */
}

const mosaic_device_ops mosaic_remote_ops = {
    .describe = describe,
    .compile = remote_compile,
    .link = remote_link,
    .check_binary = remote_check_binary,
    .check_il = mosaic_target_check_il, /* (the SPIR-V check needs no device) */
    .finalize = remote_finalize,
    .kernel_work_group_limit = remote_kernel_work_group_limit,
    .kernel_preferred_multiple = remote_kernel_preferred_multiple,
    .choose_local_size = remote_choose_local_size,
    .mem_alloc = remote_mem_alloc,
    .mem_free = remote_mem_free,
    .storage_read = remote_storage_read,
    .storage_write = remote_storage_write,
    .storage_copy_from = remote_storage_copy_from,
    .map_address = remote_map_address,
    .submit = submit,
    .read = remote_read,
    .write = remote_write,
    .copy = remote_copy,
    .fill = remote_fill,
    .map = remote_map,
    .unmap = remote_unmap,
    /* between host pointers only: the device reports no SVM of its own */
    .svm_copy = mosaic_host_svm_copy,
    .svm_fill = mosaic_host_svm_fill,
};
