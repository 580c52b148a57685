/*
 * Counter arguments: __global buffers a kernel only adds to.
 *
 * A histogram's kernel ends each work-group with an atomic_add per bin on
 * one small buffer that every group shares; on many cores those counters'
 * cache lines travel from core to core at each add (the runner's histogram
 * at 0.76-0.84 of its OpenMP twin on 16 threads).  When every use of a
 * buffer argument is an atomic add or subtract of integers of one width
 * whose old value nothing reads, no work-item can see the counters before
 * the kernel ends, and the adds commute: the device may let each worker add
 * into a zeroed copy of its own and add the copies into the buffer when its
 * groups are done (src/devices/cpu/counters.c), with the same result.
 *
 * This pass only finds such arguments (mosaic_kernel_info's counter_args);
 * the code is unchanged, its atomics stay atomics on whatever the argument
 * points to.  Any other use of the pointer (a load, a store of it or
 * through it, a call, a comparison, a phi) leaves the argument out.
 */
#include "compiler/workgroup/passes.h"

/* The width in bytes of the counters that the uses of p (the argument, or
 * an address made from it) add to, `width` when there are none beyond what
 * was seen, 0 when a use does anything else or two widths meet. */
static unsigned counter_width(LLVMValueRef p, unsigned width, int depth)
{
    if (depth > 32)
        return 0;
    for (LLVMUseRef u = LLVMGetFirstUse(p); u && width; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if ((LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == p) || LLVMIsABitCastInst(user) ||
            LLVMIsAAddrSpaceCastInst(user) || LLVMIsAIntToPtrInst(user)) {
            width = counter_width(user, width, depth + 1);
        } else if (LLVMIsAPtrToIntInst(user)) {
            /* the builtins' generic casts: ptrtoint then inttoptr, nothing else */
            for (LLVMUseRef v = LLVMGetFirstUse(user); v && width; v = LLVMGetNextUse(v))
                if (!LLVMIsAIntToPtrInst(LLVMGetUser(v)))
                    width = 0;
            if (width)
                width = counter_width(user, width, depth + 1);
        } else if (LLVMIsAAtomicRMWInst(user) && LLVMGetOperand(user, 0) == p && !LLVMGetFirstUse(user)) {
            LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(user);
            LLVMTypeRef t = LLVMTypeOf(user);
            unsigned bits = LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 0;
            bool add = op == LLVMAtomicRMWBinOpAdd || op == LLVMAtomicRMWBinOpSub;
            if (!add || (bits != 32 && bits != 64) || (width != ~0u && width != bits / 8))
                width = 0;
            else
                width = bits / 8;
        } else {
            width = 0;
        }
    }
    return width;
}

void mc_find_counter_args(const mc_kernel_build *kb, mosaic_kernel_info *info)
{
    info->counter_args = info->counter_args_wide = 0;
    if (!kb->arg_info)
        return;
    unsigned n = info->num_args < 64 ? info->num_args : 64;
    for (unsigned i = 0; i < n; i++) {
        if (kb->arg_info[i].kind != MOSAIC_ARG_GLOBAL_PTR)
            continue;
        LLVMValueRef param = LLVMGetParam(kb->body, i);
        if (!LLVMGetFirstUse(param))
            continue; /* an argument the kernel never uses has nothing to gain */
        unsigned width = counter_width(param, ~0u, 0);
        if (width == 4 || width == 8) {
            info->counter_args |= (uint64_t)1 << i;
            if (width == 8)
                info->counter_args_wide |= (uint64_t)1 << i;
        }
    }
}
