/*
 * Checking mode on the CPU device (MOSAIC_CHECK, docs/check.md): the run-time
 * half of what compiler/check/instrument.c adds to kernels.  A launch gets
 * shadow memory for the buffers its arguments reach; each worker keeps the
 * state of the work-group it runs (each work-item's barriers, the shadow of
 * the group's __local memory).
 */
#ifndef MOSAIC_CPU_CHECK_H
#define MOSAIC_CPU_CHECK_H

#include "compiler/compiler.h"
#include "core/ndrange.h"

typedef struct cpu_check_launch cpu_check_launch;
typedef struct cpu_check_group cpu_check_group;

/* The state of a launch of nd on `device` under checking, or NULL (checking
 * off, or no memory: the launch then runs unchecked). */
cpu_check_launch *mosaic_cpu_check_launch(cl_device_id device, const mosaic_ndrange *nd);
void mosaic_cpu_check_launch_free(cpu_check_launch *l);

/* A worker's group state (*g, made at its first use) set for the group of
 * ctx, `items` work-items, of launch l; the group ended: what only its end
 * shows (work-items that passed fewer barriers than others). */
bool mosaic_cpu_check_group_begin(cpu_check_group **g, cpu_check_launch *l, const mosaic_wg_ctx *ctx, size_t items);
void mosaic_cpu_check_group_end(cpu_check_group *g);
void mosaic_cpu_check_group_free(cpu_check_group *g);

/* MOSAIC_CHECK_SHUFFLE: the order a launch of `groups` work-groups runs
 * them in, as {a, b}: the i-th to run is (a * i + b) % groups, a prime to
 * groups ({0, 0} for one group); and out[2], the seed of the orders of its
 * groups' sub-groups; made from the seed and the count of launches so far
 * (the same program with the same seed runs the same orders). */
void mosaic_cpu_check_shuffle(uint64_t seed, size_t groups, uint64_t out[3]);
/* The order the sub-groups of group `group` (linear) run in, the same way,
 * from the launch's out[2]. */
void mosaic_cpu_check_shuffle_items(uint64_t seed, size_t group, size_t sub_groups, uint64_t out[2]);

/* The windows (compiler.h, mosaic_check_window) of the group g began:
 * what the device puts in its context. */
const mosaic_check_window *mosaic_cpu_check_group_windows(const cpu_check_group *g);
/* Its bits of __local bytes written (ctx->check_local_written). */
uint64_t *mosaic_cpu_check_group_written(const cpu_check_group *g);

/* The runtime functions instrumented kernels call (compiler.h). */
void mosaic_cpu_check_access(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz, const void *address,
                             const void *base, uint64_t bytes, uint64_t how, const mosaic_check_site *site);
void mosaic_cpu_check_row(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz, uint64_t lanes,
                          const uint8_t *running, const char *first, int64_t stride, const void *const *addresses,
                          const void *base, uint64_t bytes, uint64_t how, const mosaic_check_site *site);
void mosaic_cpu_check_barrier(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz,
                              const mosaic_check_site *site);
void mosaic_cpu_check_barrier_row(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz, uint64_t count,
                                  const mosaic_check_site *site);
void mosaic_cpu_check_sub_group_barrier(const mosaic_wg_ctx *ctx, uint64_t lx, uint64_t ly, uint64_t lz,
                                        const mosaic_check_site *site);

#endif
