/* Host side of the compiler tests (see compiler_host.h). */
#define _GNU_SOURCE
#include "compiler_host.h"
#include "devices/cpu/cpu_runtime.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static void test_barrier(mosaic_wg_ctx *ctx) { pthread_barrier_wait((pthread_barrier_t *)ctx->device_private); }
/* kernels with spin loops run a thread per work-item here (no wg_fn) */
static void test_yield(mosaic_wg_ctx *ctx) { (void)ctx; sched_yield(); }

/* printf is the CPU device's (its output is flushed when a launch ends) */
static const struct mosaic_runtime_symbol test_symbols[] = {
    {"__mosaic_barrier", (void *)test_barrier},
    {"__mosaic_printf", (void *)mosaic_cpu_printf},
    {"__mosaic_yield", (void *)test_yield},
};

const mosaic_compiler_target test_target = {
    .clang_features = "-cl-ext=-all,+cl_khr_fp64,+__opencl_c_fp64,+__opencl_c_int64,"
                      "+cl_khr_global_int32_base_atomics,+cl_khr_global_int32_extended_atomics,"
                      "+cl_khr_local_int32_base_atomics,+cl_khr_local_int32_extended_atomics,"
                      "+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,"
                      "+cl_khr_byte_addressable_store,+__opencl_c_generic_address_space,"
                      "+__opencl_c_atomic_order_acq_rel,+__opencl_c_atomic_order_seq_cst,"
                      "+__opencl_c_atomic_scope_device,+__opencl_c_atomic_scope_all_devices,"
                      "+__opencl_c_program_scope_global_variables,+__opencl_c_work_group_collective_functions,"
                      "+__opencl_c_images,+__opencl_c_read_write_images,+__opencl_c_3d_image_writes,"
                      "+cl_khr_3d_image_writes,+cl_khr_depth_images",
    .runtime_symbols = test_symbols,
    .num_runtime_symbols = sizeof test_symbols / sizeof test_symbols[0],
};

cl_int build_program_status(const char *source, const char *options, mosaic_executable **exe, char **log)
{
    mosaic_bitcode obj = {0}, linked = {0};
    *exe = NULL;
    *log = NULL;
    cl_int r = mosaic_compile_source(&test_target, source, options, 0, NULL, &obj, log);
    if (r != CL_SUCCESS)
        return r;
    free(*log);
    r = mosaic_link_bitcode(&test_target, 1, &obj, "", 0, &linked, log);
    mosaic_bitcode_free(&obj);
    if (r != CL_SUCCESS)
        return r;
    free(*log);
    r = mosaic_finalize(&test_target, &linked, options, exe, log);
    mosaic_bitcode_free(&linked);
    return r;
}

mosaic_executable *build_program(const char *source, const char *options)
{
    mosaic_executable *exe;
    char *log;
    cl_int r = build_program_status(source, options, &exe, &log);
    if (r != CL_SUCCESS)
        TEST_FAIL("build failed (%d):\n%s", r, log ? log : "");
    free(log);
    return exe;
}

typedef struct wi_job {
    const mosaic_kernel_info *k;
    void **args;
    mosaic_wg_ctx *ctx;
    uint64_t id[3];
} wi_job;

static void *wi_thread(void *p)
{
    wi_job *j = p;
    j->k->wi_fn((void *const *)j->args, j->ctx, j->id[0], j->id[1], j->id[2]);
    mosaic_cpu_printf_flush();
    return NULL;
}

static int run_group(const mosaic_kernel_info *k, void **args, mosaic_wg_ctx *ctx, const ndrange *r)
{
    bool whole = true;
    for (int d = 0; d < 3; d++)
        whole &= ctx->local_size[d] == ((unsigned)d < r->dim ? r->local[d] : 1);
    if (r->whole && whole && !r->per_item) {
        r->whole((void *const *)args, ctx);
        return 0;
    }
    if (k->wg_fn && !r->per_item) {
        k->wg_fn((void *const *)args, ctx);
        return 0;
    }
    size_t n = ctx->local_size[0] * ctx->local_size[1] * ctx->local_size[2];
    pthread_barrier_t b;
    pthread_barrier_init(&b, NULL, (unsigned)n);
    ctx->device_private = &b;
    wi_job *jobs = calloc(n, sizeof *jobs);
    pthread_t *th = calloc(n, sizeof *th);
    /* The work-items' stacks in one block: the private range of to_private. */
    const size_t stack = 256 * 1024;
    char *stacks = aligned_alloc(4096, n * stack);
    ctx->private_lo[1] = stacks;
    ctx->private_hi[1] = stacks + n * stack;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    size_t i = 0;
    for (uint64_t z = 0; z < ctx->local_size[2]; z++)
        for (uint64_t y = 0; y < ctx->local_size[1]; y++)
            for (uint64_t x = 0; x < ctx->local_size[0]; x++, i++) {
                jobs[i] = (wi_job){k, args, ctx, {x, y, z}};
                pthread_attr_setstack(&attr, stacks + i * stack, stack);
                if (pthread_create(&th[i], &attr, wi_thread, &jobs[i])) {
                    fprintf(stderr, "cannot create a work-item thread\n");
                    abort();
                }
            }
    for (i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    pthread_attr_destroy(&attr);
    pthread_barrier_destroy(&b);
    free(stacks);
    free(jobs);
    free(th);
    return 0;
}

static void thread_stack(char **lo, char **hi)
{
    pthread_attr_t attr;
    void *addr = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        pthread_attr_getstack(&attr, &addr, &size);
        pthread_attr_destroy(&attr);
    }
    *lo = addr;
    *hi = (char *)addr + size;
}

typedef struct launch {
    const mosaic_kernel_info *k;
    void **args;
    const ndrange *r;
    size_t groups[3], total;
    atomic_size_t next;
} launch;

static void run_group_index(launch *l, size_t g)
{
    const ndrange *r = l->r;
    mosaic_wg_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    size_t gid[3] = {g % l->groups[0], g / l->groups[0] % l->groups[1], g / l->groups[0] / l->groups[1]};
    ctx.work_dim = r->dim;
    for (int d = 0; d < 3; d++) {
        if ((unsigned)d < r->dim) {
            ctx.global_offset[d] = r->offset[d];
            ctx.global_size[d] = r->global[d];
            ctx.enqueued_local_size[d] = r->local[d];
            ctx.num_groups[d] = l->groups[d];
            ctx.group_id[d] = gid[d];
            size_t left = r->global[d] - gid[d] * r->local[d];
            ctx.local_size[d] = left < r->local[d] ? left : r->local[d];
        } else {
            ctx.global_size[d] = ctx.enqueued_local_size[d] = ctx.num_groups[d] = ctx.local_size[d] = 1;
        }
    }
    size_t bytes = l->k->static_local_mem_size;
    bytes = (bytes + MOSAIC_LOCAL_MEM_ALIGNMENT - 1) / MOSAIC_LOCAL_MEM_ALIGNMENT * MOSAIC_LOCAL_MEM_ALIGNMENT;
    bytes += r->local_arg_bytes;
    bytes = (bytes + MOSAIC_LOCAL_MEM_ALIGNMENT - 1) / MOSAIC_LOCAL_MEM_ALIGNMENT * MOSAIC_LOCAL_MEM_ALIGNMENT;
    ctx.local_mem = aligned_alloc(MOSAIC_LOCAL_MEM_ALIGNMENT, bytes ? bytes : MOSAIC_LOCAL_MEM_ALIGNMENT);
    memset(ctx.local_mem, 0xcd, bytes);
    ctx.local_mem_size = bytes;
    size_t items = r->dim ? 1 : 0;
    for (unsigned d = 0; d < r->dim; d++)
        items *= r->local[d];
    ctx.wg_scratch = malloc(8 * (items ? items : 1));
    thread_stack(&ctx.private_lo[0], &ctx.private_hi[0]); /* work-group loops run on this thread */
    run_group(l->k, l->args, &ctx, r);
    free(ctx.wg_scratch);
    free(ctx.local_mem);
}

static void *launch_thread(void *p)
{
    launch *l = p;
    size_t g;
    while ((g = atomic_fetch_add(&l->next, 1)) < l->total)
        run_group_index(l, g);
    mosaic_cpu_printf_flush();
    return NULL;
}

int run_kernel(const mosaic_executable *exe, const char *name, void **args, const ndrange *r)
{
    const mosaic_kernel_info *k = mosaic_executable_find_kernel(exe, name);
    if (!k) {
        TEST_FAIL("no kernel %s", name);
        return -1;
    }
    launch l = {.k = k, .args = args, .r = r, .total = 1};
    for (int d = 0; d < 3; d++) {
        l.groups[d] = (unsigned)d < r->dim ? (r->global[d] + r->local[d] - 1) / r->local[d] : 1;
        l.total *= l.groups[d];
    }
    atomic_init(&l.next, 0);
    int n = r->threads > 1 ? r->threads : 1;
    if (n == 1) {
        launch_thread(&l);
        return 0;
    }
    pthread_t th[64];
    for (int i = 0; i < n && i < 64; i++)
        pthread_create(&th[i], NULL, launch_thread, &l);
    for (int i = 0; i < n && i < 64; i++)
        pthread_join(th[i], NULL);
    return 0;
}
