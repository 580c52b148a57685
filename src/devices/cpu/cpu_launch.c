/* What the CPU device decides when a kernel is launched (the launch ops of
 * core/device.h, docs/devices.md "Launches"): a kernel's preferred
 * work-group multiple, the local size of a launch that gives none, the
 * groups of a kernel that cannot observe them, and a work-group function
 * built for one local size.  Each reads what the compiler made of the
 * kernel (compiler.h, mosaic_kernel_info): whether its work-group function
 * is vectorised, widened, or run in regions, and whether it can see its
 * groups. */
#include "devices/cpu/cpu.h"
#include "devices/cpu/cpu_counters.h"
#include "base/assert.h"
#include "base/settings.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The work-items a plain (not widened) work-group function runs at once:
 * the vector width of its work-item loops. */
#define WORK_ITEM_LOOP_LANES 8

size_t mosaic_cpu_preferred_work_group_multiple(cl_device_id device, const mosaic_kernel_info *kernel)
{
    (void)device;
    /* a row the work-group function runs at once */
    return kernel->widened_lanes ? kernel->widened_lanes : WORK_ITEM_LOOP_LANES;
}

size_t mosaic_cpu_largest_divisor(size_t n, size_t limit)
{
    for (size_t d = limit < n ? limit : n; d > 1; d--)
        if (n % d == 0)
            return d;
    return 1;
}

/* A local size when the user gave none: uniform (it divides the global
 * size) and long in dimension 0, so the loop over a row is vectorised.
 * At most 256 work-items, at most 64 (or what a widened kernel runs at once)
 * in dimension 0, except for kernels whose K.wg is one plain loop nest over
 * the work-items: up to 4096 while every compute unit keeps at least
 * GROUPS_PER_UNIT groups, so a group's fixed cost (its call, the way into
 * and out of its loops) is spread over more work-items (the stream rows on
 * the 16-core machine: one thread 24-36 ms against 29-46 with groups of 64,
 * 16 threads 2.7-3.7 ms against 3.4-4.4).  Not for widened kernels (nbody
 * on 16 threads: 43-46 ms against 35-36, fewer groups to share out), nor
 * for kernels run in regions, which keep per-work-item values between
 * them (chain_float16, whose loop is cut: 303 ms against 110 on one thread,
 * its values no longer in the cache). */
#define GROUPS_PER_UNIT 8
void mosaic_cpu_choose_local_size(cl_device_id device, const mosaic_kernel_info *kernel, cl_uint work_dim,
                                  const size_t global[3], size_t max_group, size_t local[3])
{
    MOSAIC_ASSERT(work_dim >= 1 && work_dim <= 3 && max_group >= 1);
    cl_uint units = device->compute_units;
    size_t budget = max_group < 256 ? max_group : 256;
    size_t longest = kernel->widened_lanes > 64 ? kernel->widened_lanes : 64;
    if (!kernel->keeps_item_state && !kernel->widened_lanes) {
        size_t items = 1;
        for (cl_uint d = 0; d < work_dim; d++)
            if (__builtin_mul_overflow(items, global[d], &items))
                items = SIZE_MAX;
        size_t spread = items / ((size_t)(units ? units : 1) * GROUPS_PER_UNIT); /* work-items a group may take */
        size_t most = max_group < 4096 ? max_group : 4096;
        if (spread > budget)
            budget = spread < most ? spread : most;
        if (budget > longest)
            longest = budget;
    }
    /* a kernel that runs several rows at once (row_coarsening.c) gets room
     * for that many rows of its widest row */
    size_t rows = kernel->widened_rows > 1 ? kernel->widened_rows : 1;
    if (rows > 1 && work_dim > 1 && budget < longest * rows)
        budget = longest * rows < max_group ? longest * rows : max_group;
    for (cl_uint d = 0; d < 3; d++)
        local[d] = 1;
    for (cl_uint d = 0; d < work_dim; d++) {
        size_t limit = budget < device->max_work_item_sizes[d] ? budget : device->max_work_item_sizes[d];
        if (d == 0 && limit > longest)
            limit = longest;
        /* (the search stays at most 256 steps, as a launch pays for it; past
         * 256, doublings that still divide) */
        local[d] = mosaic_cpu_largest_divisor(global[d], limit < 256 ? limit : 256);
        while (local[d] * 2 <= limit && global[d] % (local[d] * 2) == 0)
            local[d] *= 2;
        budget /= local[d];
        if (budget <= 1)
            break;
    }
}

/* With MOSAIC_DEBUG=launch: a line about a launch, once per `key` (a
 * kernel's name and what the line says of it) for the first MAX_SAID keys
 * of the process. */
#define MAX_SAID 64
static void say_once(const char *key, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void say_once(const char *key, const char *format, ...)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static char said[MAX_SAID][96];
    static size_t count;
    bool say = true;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < count && say; i++)
        say = strncmp(said[i], key, sizeof said[i] - 1) != 0;
    if (say && count < MAX_SAID)
        snprintf(said[count++], sizeof said[0], "%s", key);
    else
        say = false;
    pthread_mutex_unlock(&lock);
    if (say) {
        va_list ap;
        va_start(ap, format);
        vfprintf(stderr, format, ap);
        va_end(ap);
    }
}

/* That a launch of `name` with groups of `from` runs in groups of `to`. */
static void say_regrouped(const char *name, const size_t from[3], const size_t to[3])
{
    char key[96];
    snprintf(key, sizeof key, "%.60s %zu %zu %zu %zu %zu %zu", name, from[0], from[1], from[2], to[0], to[1], to[2]);
    say_once(key, "mosaic: kernel %s: work-groups of %zux%zux%zu run as %zux%zux%zu (the kernel cannot "
             "observe its groups)\n", name, from[0], from[1], from[2], to[0], to[1], to[2]);
}

/* That the workers of a launch of `name` add into copies of its counters. */
static void say_counters(const mosaic_ndrange *nd)
{
    char key[96];
    for (cl_uint i = 0; i < nd->num_counters; i++) {
        const mosaic_counter_arg *a = &nd->counters[i];
        snprintf(key, sizeof key, "%.60s counter %u", nd->info->name, a->arg);
        say_once(key, "mosaic: kernel %s: argument %u, a buffer of %zu bytes the kernel only adds to, is "
                 "added into a copy per worker, folded in at the end\n", nd->info->name, a->arg, a->size);
    }
}

static size_t groups_of(const size_t global[3], const size_t local[3])
{
    return global[0] / local[0] * (global[1] / local[1]) * (global[2] / local[2]);
}

static size_t smallest_factor(size_t n)
{
    for (size_t p = 2; p * p <= n; p++)
        if (n % p == 0)
            return p;
    return n;
}

/* Groups (uniform: local divides global) that leave compute units idle,
 * made smaller until each unit has one: z, then y, then x while a row stays
 * as long as the work-items the kernel's code runs at once.  The choice for
 * a launch without a local size counts the units only for a plain loop
 * nest; an application's groups of a small launch did keep them busy. */
static void spread_groups(cl_device_id device, const mosaic_kernel_info *kernel, const size_t global[3],
                          size_t local[3])
{
    size_t lanes = mosaic_cpu_preferred_work_group_multiple(device, kernel);
    for (int d = 2; d >= 0; d--)
        while (groups_of(global, local) < device->compute_units && local[d] > 1) {
            size_t p = smallest_factor(local[d]);
            if (d == 0 && local[0] / p < lanes)
                break;
            local[d] /= p;
        }
}

/* A kernel that cannot observe its work-groups (mosaic_kernel_info's
 * regroupable: it reads global ids and sizes only) runs in the groups this
 * device picks for a launch without a local size, whatever size the launch
 * gave (the API checked it as always; the global ids do not change), split
 * further when they are fewer than the compute units: an ML compiler's
 * groups of 8x8, or 2x8x4, left most of the 16 lanes of a kernel widened
 * whole idle (ml_matmul and ml_conv2d at 14-19% of OpenBLAS on 16 cores).
 * The application's groups stay when their rows are the longer (a global
 * size with few divisors), and with MOSAIC_KEEP_GROUPS. */
static void regroup(cl_device_id device, mosaic_ndrange *nd)
{
    MOSAIC_ASSERT(nd->info->regroupable && nd->total_groups > 0);
    size_t global[3], local[3];
    for (int d = 0; d < 3; d++)
        global[d] = nd->global_size[d];
    size_t limit = mosaic_cpu_kernel_work_group_limit(device, nd->info);
    mosaic_cpu_choose_local_size(device, nd->info, nd->work_dim, global, limit ? limit : 1, local);
    if (groups_of(global, local) < nd->total_groups)
        spread_groups(device, nd->info, global, local);
    if (local[0] < nd->local_size[0] || !memcmp(local, nd->local_size, sizeof local))
        return;
    if (mosaic_debugging(MOSAIC_DEBUG_LAUNCH))
        say_regrouped(nd->info->name, nd->local_size, local);
    nd->total_groups = 1;
    for (int d = 0; d < 3; d++) {
        nd->given_local_size[d] = nd->local_size[d];
        nd->local_size[d] = local[d];
        nd->num_groups[d] = global[d] / local[d]; /* (local[d] divides it) */
        nd->total_groups *= nd->num_groups[d];
    }
}

/* A kernel that cannot observe its work-groups runs in the device's
 * (regroup); a barrier kernel launched often with one local size gets a
 * K.wg built for it (mosaic_executable_wg_for_size: from the
 * MOSAIC_SPECIALISE_AFTER-th launch of that size, beside the program;
 * launches run the general K.wg until it is ready, or wait for it with
 * MOSAIC_SPECIALISE_WAIT), for the size the launch runs. */
void mosaic_cpu_prepare_launch(cl_device_id device, mosaic_ndrange *nd)
{
    const struct mosaic_settings *settings = mosaic_settings();
    if (nd->info->regroupable && nd->total_groups && !settings->keep_groups)
        regroup(device, nd);
    if (mosaic_debugging(MOSAIC_DEBUG_LAUNCH) && mosaic_cpu_counters_pay(nd, device->compute_units))
        say_counters(nd);
    if (settings->check_shuffle) /* (a build for one size runs its rows in order) */
        return;
    nd->sized = mosaic_executable_wg_for_size(nd->executable, nd->info, nd->local_size,
                                              settings->specialise_after, settings->specialise_wait);
}
