/* Pipe built-ins (OpenCL C 3.0 section 6.15.17, feature __opencl_c_pipes)
 * that are not calls into the device.
 *
 * For read_pipe, write_pipe, reserve_*_pipe, commit_*_pipe and
 * get_pipe_num/max_packets, clang's spir64 code calls __read_pipe_2,
 * __reserve_write_pipe, ... with the pipe (a global pointer: the pipe's
 * storage), the packet size and alignment; the device provides those as
 * runtime symbols (the CPU device: src/devices/cpu/cpu_pipe.c), since the
 * pipe's layout and its lock are the device's.  What is here:
 *
 *   - is_valid_reserve_id: a reserve id is a 64-bit value, all ones when not
 *     valid (clang's CLK_NULL_RESERVE_ID);
 *   - the work-group forms, which every work-item of the group calls with the
 *     same arguments: work-item 0 reserves once for the group and the others
 *     get its id through ctx->wg_scratch between work-group barriers (like
 *     collectives.cl); a commit waits at a barrier for every work-item's
 *     read_pipe/write_pipe, then work-item 0 commits.  After inlining these
 *     are barriers like any other (regions or fibers);
 *   - the sub-group forms, the same within a sub-group (its first work-item
 *     reserves, sub_group_broadcast hands the id on; a commit waits at a
 *     sub-group barrier), declared by clang only with sub-groups.
 *
 * clang names these functions without mangling; a reserve_id_t is a private
 * pointer in its IR, which `__private void *` matches. */
#include "builtins.h"

#define CTX __mosaic_get_ctx()
#define WG_BARRIER() __mosaic_barrier(CTX)
#define NO_RESERVATION ((ulong)-1)

/* Provided by the device (runtime symbols). */
__private void *__reserve_read_pipe(__global void *p, uint num_packets, uint size, uint align);
__private void *__reserve_write_pipe(__global void *p, uint num_packets, uint size, uint align);
void __commit_read_pipe(__global void *p, __private void *reserve_id, uint size, uint align);
void __commit_write_pipe(__global void *p, __private void *reserve_id, uint size, uint align);

/* bool is_valid_reserve_id(reserve_id_t) under its mangled name: OpenCL C
 * cannot look inside a reserve_id_t, so the definition takes the pointer the
 * IR passes. */
bool __mosaic_is_valid_reserve_id(__private void *reserve_id) __asm__("_Z19is_valid_reserve_id13ocl_reserveid");
bool __mosaic_is_valid_reserve_id(__private void *reserve_id)
{
    return (ulong)reserve_id != NO_RESERVATION;
}

/* Work-item 0's reservation, handed to the whole group. */
static __private void *__mosaic_wg_share(__private void *mine)
{
    __private void **s = (__private void **)CTX->wg_scratch;
    if (get_local_linear_id() == 0)
        s[0] = mine;
    WG_BARRIER();
    __private void *r = s[0];
    WG_BARRIER(); /* the next work-group function may write the scratch again */
    return r;
}

__private void *__work_group_reserve_read_pipe(__global void *p, uint num_packets, uint size, uint align)
{
    __private void *mine = (__private void *)NO_RESERVATION;
    if (get_local_linear_id() == 0)
        mine = __reserve_read_pipe(p, num_packets, size, align);
    return __mosaic_wg_share(mine);
}

__private void *__work_group_reserve_write_pipe(__global void *p, uint num_packets, uint size, uint align)
{
    __private void *mine = (__private void *)NO_RESERVATION;
    if (get_local_linear_id() == 0)
        mine = __reserve_write_pipe(p, num_packets, size, align);
    return __mosaic_wg_share(mine);
}

void __work_group_commit_read_pipe(__global void *p, __private void *reserve_id, uint size, uint align)
{
    WG_BARRIER(); /* every work-item has read its packet */
    if (get_local_linear_id() == 0)
        __commit_read_pipe(p, reserve_id, size, align);
}

void __work_group_commit_write_pipe(__global void *p, __private void *reserve_id, uint size, uint align)
{
    WG_BARRIER(); /* every work-item has written its packet */
    if (get_local_linear_id() == 0)
        __commit_write_pipe(p, reserve_id, size, align);
}

#ifdef __opencl_c_subgroups
/* The sub-group's first work-item reserves for the sub-group. */
static __private void *__mosaic_sg_reserve(__global void *p, uint num_packets, uint size, uint align, bool read)
{
    ulong mine = NO_RESERVATION;
    if (get_sub_group_local_id() == 0)
        mine = (ulong)(read ? __reserve_read_pipe(p, num_packets, size, align)
                            : __reserve_write_pipe(p, num_packets, size, align));
    return (__private void *)sub_group_broadcast(mine, 0);
}

__private void *__sub_group_reserve_read_pipe(__global void *p, uint num_packets, uint size, uint align)
{
    return __mosaic_sg_reserve(p, num_packets, size, align, true);
}

__private void *__sub_group_reserve_write_pipe(__global void *p, uint num_packets, uint size, uint align)
{
    return __mosaic_sg_reserve(p, num_packets, size, align, false);
}

void __sub_group_commit_read_pipe(__global void *p, __private void *reserve_id, uint size, uint align)
{
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE); /* every work-item of the sub-group has read its packet */
    if (get_sub_group_local_id() == 0)
        __commit_read_pipe(p, reserve_id, size, align);
}

void __sub_group_commit_write_pipe(__global void *p, __private void *reserve_id, uint size, uint align)
{
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE); /* every work-item of the sub-group has written its packet */
    if (get_sub_group_local_id() == 0)
        __commit_write_pipe(p, reserve_id, size, align);
}
#endif
