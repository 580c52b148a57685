/* Shared declarations for the builtin library sources (OpenCL C). */
#ifndef MOSAIC_BUILTINS_H
#define MOSAIC_BUILTINS_H

/* Mirror of mosaic_wg_ctx in src/compiler/compiler.h: keep the two in step. */
typedef struct {
    ulong work_dim;
    ulong global_offset[3];
    ulong global_size[3];
    ulong enqueued_local_size[3];
    ulong local_size[3];
    ulong num_groups[3];
    ulong group_id[3];
    char *local_mem;
    void *device_private;
} __mosaic_wg_ctx;

/* Replaced by the compiler, after inlining, with the work-group context and
 * the work-item's local id (see src/compiler). Never defined. */
const __mosaic_wg_ctx *__mosaic_get_ctx(void);
ulong __mosaic_get_local_id(uint dim);
/* Provided by the device: returns once every work-item of the group has called
 * it (called as __mosaic_barrier(__mosaic_get_ctx())). */
void __mosaic_barrier(const __mosaic_wg_ctx *ctx);

#define OVLD __attribute__((overloadable))
#define CONST_FN __attribute__((overloadable, const))

#endif
