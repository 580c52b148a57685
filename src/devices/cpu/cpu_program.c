/* The CPU device's programs: built by the compiler for this machine
 * (device->compiler_target, filled by mosaic_cpu_describe): OpenCL C or
 * SPIR-V to bitcode, bitcode linked, executable bitcode to native code
 * through the JIT; and where its kernels' private memory lives, which
 * bounds their work-groups (docs/limits.md, "Private memory"). */
#include "devices/cpu/cpu.h"
#include "base/assert.h"
#include "base/settings.h"
#include "base/strbuf.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KIB ((size_t)1024)

static size_t round_up(size_t n, size_t step) { return (n + step - 1) / step * step; }

/* What a work-item's calls (into the C library: printf, libm) and its
 * spills may take beyond its private variables: MOSAIC_FIBER_STACK_KIB.
 * (Asked for every work-group run_wg runs.) */
static size_t call_headroom(void)
{
    return round_up((size_t)mosaic_settings()->fiber_stack_kib * KIB, mosaic_cpu_page_size());
}

size_t mosaic_cpu_fiber_stack(const mosaic_kernel_info *kernel)
{
    /* private memory in steps of 64 KiB: kernels of about the same needs
     * share a worker's stacks instead of mapping them again */
    return call_headroom() + round_up(kernel->private_mem_size, 64 * KIB);
}

size_t mosaic_cpu_wg_stack(const mosaic_kernel_info *kernel)
{
    size_t need = call_headroom() + round_up(kernel->wg_stack_size, 64 * KIB);
    return need > MOSAIC_CPU_WORKER_STACK / 2 ? need : 0;
}

/* The most one work-group's private memory may take: every compute unit
 * runs a group at once, and together they may have half the device's
 * memory. */
static size_t group_private_budget(cl_device_id device)
{
    return (size_t)(device->global_mem_size / 2 / (device->compute_units ? device->compute_units : 1));
}

/* What a group of `kernel` takes whatever its size, and what each of its
 * work-items adds.  Fibers: a stack each, of which the private variables
 * are what a work-item may fill (the headroom for calls is mapped, rarely
 * touched).  K.wg: its frame once (the work-items of a region run one
 * after another in it), and what it keeps per work-item between regions. */
static void group_private_memory(const mosaic_kernel_info *kernel, size_t *fixed, size_t *each)
{
    *fixed = kernel->wg_fn ? kernel->wg_stack_size : 0;
    *each = kernel->wg_fn ? kernel->item_state_size : kernel->private_mem_size;
}

size_t mosaic_cpu_kernel_work_group_limit(cl_device_id device, const mosaic_kernel_info *kernel)
{
    size_t budget = group_private_budget(device), fixed, each;
    group_private_memory(kernel, &fixed, &each);
    if (fixed > budget || each > budget - fixed)
        return 0;
    size_t fit = each ? (budget - fixed) / each : SIZE_MAX;
    return fit < device->max_work_group_size ? fit : device->max_work_group_size;
}

/* A kernel none of whose work-groups fits fails the build, saying why in
 * the log: it could never run. */
static bool check_private_memory(cl_device_id device, const mosaic_kernel_info *kernel, mosaic_strbuf *log)
{
    if (mosaic_cpu_kernel_work_group_limit(device, kernel))
        return true;
    size_t fixed, each;
    group_private_memory(kernel, &fixed, &each);
    mosaic_strbuf_printf(log, "error: kernel '%s' needs %zu bytes of private memory for one work-item (its "
                         "CL_KERNEL_PRIVATE_MEM_SIZE: %zu), more than a work-group may have on this device: %zu "
                         "bytes (half its CL_DEVICE_GLOBAL_MEM_SIZE shared by its %u compute units)\n",
                         kernel->name, fixed + each, kernel->private_mem_size, group_private_budget(device),
                         device->compute_units);
    return false;
}

/* ---- finalize: the JIT, and kernels that cannot run refused -------------------------------- */

cl_int mosaic_cpu_finalize(cl_device_id device, const mosaic_bitcode *executable, const char *options,
                           mosaic_executable **out, char **log)
{
    cl_int err = mosaic_finalize(&device->compiler_target, executable, options, out, log);
    if (err != CL_SUCCESS)
        return err;
    mosaic_strbuf text = {0}; /* the log, and why a kernel cannot run */
    mosaic_strbuf_puts(&text, *log ? *log : "");
    bool fits = true;
    for (size_t k = 0; k < mosaic_executable_num_kernels(*out); k++)
        fits &= check_private_memory(device, mosaic_executable_kernel(*out, k), &text);
    for (uint64_t h = MOSAIC_BLOCK_HANDLE(0); mosaic_executable_block_kernel(*out, h); h++)
        fits &= check_private_memory(device, mosaic_executable_block_kernel(*out, h), &text);
    if (fits) {
        mosaic_strbuf_free(&text);
        return CL_SUCCESS;
    }
    mosaic_executable_free(*out);
    *out = NULL;
    if (!text.oom) {
        free(*log);
        *log = mosaic_strbuf_take(&text);
    }
    mosaic_strbuf_free(&text);
    return CL_BUILD_PROGRAM_FAILURE;
}
