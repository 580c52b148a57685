/*
 * What each instruction of K.body becomes in K.wg, and the values live
 * across barriers (regions.c, steps after the cut).
 *
 * In the field's terms: a value live at the start of some region it is not
 * defined in is "live across a barrier".  It is either rematerialised
 * ("remat": computed again where used, when it is a short pure function of
 * what a work-item keeps for the whole kernel) or demoted to memory
 * ("demote": one element per work-item of an array, pocl's "context
 * array", here a slot: region_storage.c).  A private variable used on both
 * sides of a barrier is privatised (K_PERWI: a copy per work-item); other
 * allocas stay one for the group (K_SHARED).  K_HOIST is loop-invariant
 * code motion out of the work-item loops, into K.wg's entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/workgroup/regions_internal.h"

static bool intrinsic_prefix(LLVMValueRef inst, const char *prefix)
{
    LLVMValueRef f = mc_called_function(inst);
    return f && LLVMGetIntrinsicID(f) && !strncmp(LLVMGetValueName(f), prefix, strlen(prefix));
}

/* Is inst a load of a field of the work-group context (K.body's ctx at a
 * constant offset inside it)?  It can be made anywhere: ctx always points to
 * a whole mosaic_wg_ctx. */
static bool context_field_load(region_fn *rf, LLVMValueRef inst)
{
    LLVMValueRef ctx = LLVMGetParam(rf->body, rf->nparams - 4);
    int64_t off = mc_offset_from(LLVMGetOperand(inst, 0), ctx, rf->td);
    return off >= 0 && (uint64_t)off + LLVMStoreSizeOfType(rf->td, LLVMTypeOf(inst)) <= sizeof(mosaic_wg_ctx);
}

/* Can instruction inst (of the entry block, or of block `block` when it
 * cannot trap) be computed once for the work-group?  Out of the entry block
 * only what cannot trap when its block would not have run: no division, and
 * of the invariant loads only the context's fields (the builtins' reads of
 * the group's size or scratch, which LLVM sinks into the branches that use
 * them; hoisted, they are K.wg's values, and what derives from them can be
 * computed again after a barrier instead of kept per work-item). */
static bool hoistable(region_fn *rf, LLVMValueRef inst, int block)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    if (block != 0 && (op == LLVMUDiv || op == LLVMSDiv || op == LLVMURem || op == LLVMSRem ||
                       (op == LLVMLoad && !context_field_load(rf, inst))))
        return false;
    switch (op) {
    case LLVMGetElementPtr: case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI:
    case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub:
    case LLVMMul: case LLVMFMul: case LLVMUDiv: case LLVMSDiv: case LLVMFDiv: case LLVMURem: case LLVMSRem:
    case LLVMFRem: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMICmp: case LLVMFCmp: case LLVMSelect: case LLVMExtractElement: case LLVMInsertElement:
    case LLVMShuffleVector: case LLVMExtractValue: case LLVMInsertValue: case LLVMFNeg: case LLVMFreeze:
        break;
    case LLVMLoad:
        /* the work-group context and argument bytes: never written while the kernel runs */
        if (LLVMGetVolatile(inst) || LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic ||
            !LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(rf->c, "invariant.load", 14)))
            return false;
        break;
    default:
        return false;
    }
    int n = LLVMGetNumOperands(inst);
    for (int i = 0; i < n; i++) {
        LLVMValueRef o = LLVMGetOperand(inst, i);
        if (LLVMIsAInstruction(o)) {
            int k = pmap_get(&rf->ins.iidx, o);
            if (k < 0 || rf->ins.kind[k] != K_HOIST)
                return false;
        } else if (LLVMIsAArgument(o)) {
            int p = param_index(rf, o);
            if (p < 0 || (unsigned)p > rf->nparams - 4) /* the local id is not uniform */
                return false;
        } else if (LLVMIsABlockAddress(o) || LLVMValueIsBasicBlock(o)) {
            return false;
        }
    }
    return true;
}

cl_int rg_classify_instructions(region_fn *rf)
{
    int n = 0;
    for (int b = 0; b < rf->cut.nb; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(rf->cut.bbs[b]); i; i = LLVMGetNextInstruction(i))
            n++;
    rf->ins.ni = n;
    rf->ins.insts = rf_calloc(rf, (size_t)n, sizeof *rf->ins.insts);
    rf->ins.iblock = rf_calloc(rf, (size_t)n, sizeof *rf->ins.iblock);
    rf->ins.kind = rf_calloc(rf, (size_t)n, 1);
    rf->live.demote = rf_calloc(rf, (size_t)n, 1);
    rf->store.slot = rf_calloc(rf, (size_t)n, sizeof *rf->store.slot);
    if (rf->oom || !pmap_init(&rf->ins.iidx, (size_t)n))
        return out_of_memory(rf);
    n = 0;
    for (int b = 0; b < rf->cut.nb; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(rf->cut.bbs[b]); i; i = LLVMGetNextInstruction(i)) {
            rf->ins.insts[n] = i;
            rf->ins.iblock[n] = b;
            rf->store.slot[n] = -1;
            pmap_put(&rf->ins.iidx, i, n);
            n++;
        }
    for (int k = 0; k < rf->ins.ni; k++) {
        LLVMValueRef i = rf->ins.insts[k];
        int b = rf->ins.iblock[k];
        if (!rf->cut.reach[b] || mc_ends_region(i) || intrinsic_prefix(i, "llvm.dbg.") ||
            intrinsic_prefix(i, "llvm.lifetime."))
            rf->ins.kind[k] = K_SKIP;
        else if (LLVMIsAAllocaInst(i)) {
            if (b != 0 || !LLVMIsAConstantInt(LLVMGetOperand(i, 0)))
                return give_up(rf, "a variable-sized alloca or one outside the entry block");
            rf->ins.kind[k] = K_SHARED; /* for now */
        } else if (hoistable(rf, i, b))
            rf->ins.kind[k] = K_HOIST;
        else
            rf->ins.kind[k] = K_NORMAL;
        if (LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMTokenTypeKind)
            return give_up(rf, "a token value");
    }
    return CL_SUCCESS;
}

/* Must this alloca have one copy per work-item?  Yes when it is used (through
 * any pointer derived from it) both before some barrier and after it, or when
 * a pointer to it escapes where this cannot follow it. */
static bool needs_copies(region_fn *rf, LLVMValueRef a, unsigned char *used, unsigned char *seen, int *work)
{
    memset(used, 0, (size_t)rf->cut.nb);
    memset(seen, 0, (size_t)rf->ins.ni);
    int sp = 0;
    work[sp++] = pmap_get(&rf->ins.iidx, a);
    seen[work[0]] = 1;
    while (sp) {
        LLVMValueRef p = rf->ins.insts[work[--sp]];
        for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            int k = pmap_get(&rf->ins.iidx, user);
            if (k < 0)
                return true;
            if (rf->ins.kind[k] == K_SKIP)
                continue;
            used[rf->ins.iblock[k]] = 1;
            LLVMOpcode op = LLVMGetInstructionOpcode(user);
            switch (op) {
            case LLVMGetElementPtr:
            case LLVMBitCast:
            case LLVMAddrSpaceCast:
            case LLVMPHI:
            case LLVMSelect:
            case LLVMFreeze:
                if (op == LLVMGetElementPtr && LLVMGetOperand(user, 0) != p)
                    return true;
                if (!seen[k]) {
                    seen[k] = 1;
                    work[sp++] = k;
                }
                break;
            case LLVMLoad:
                break;
            case LLVMStore:
                if (LLVMGetOperand(user, 0) == p)
                    return true; /* the address itself is stored */
                break;
            case LLVMAtomicRMW:
            case LLVMAtomicCmpXchg:
                if (LLVMGetOperand(user, 0) != p)
                    return true;
                break;
            case LLVMCall:
                if (!intrinsic_prefix(user, "llvm.memcpy") && !intrinsic_prefix(user, "llvm.memmove") &&
                    !intrinsic_prefix(user, "llvm.memset"))
                    return true;
                break;
            default:
                return true;
            }
        }
    }
    for (int i = 1; i < rf->cut.nreg; i++) {
        bool before = false, after = false;
        for (int b = 0; b < rf->cut.nb; b++)
            if (used[b]) {
                before |= rf->cut.to_b[i][b];
                after |= rf->cut.from_e[i][b];
            }
        if (before && after)
            return true;
    }
    return false;
}

/* Is `user` of address p a load or store of one whole element of type elem
 * through it (or something the regions skip)? */
static bool whole_element_access(region_fn *rf, LLVMValueRef user, LLVMValueRef p, LLVMTypeRef elem)
{
    int k = pmap_get(&rf->ins.iidx, user);
    if (k >= 0 && rf->ins.kind[k] == K_SKIP)
        return true;
    if (LLVMIsALoadInst(user))
        return LLVMTypeOf(user) == elem;
    return LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p && LLVMGetOperand(user, 0) != p &&
           LLVMTypeOf(LLVMGetOperand(user, 0)) == elem;
}

/* Can private array `a` (one copy per work-item) be stored element-major,
 * element i of every work-item's copy side by side, so work-items reading
 * the same element read consecutive addresses?  Yes when it is only read and
 * written whole elements at a time: directly, or through a GEP that indexes
 * it as an array.  Returns the element's size, or 0. */
static unsigned long long soa_element(region_fn *rf, LLVMValueRef a)
{
    LLVMTypeRef t = LLVMGetAllocatedType(a);
    LLVMTypeRef elem = LLVMGetTypeKind(t) == LLVMArrayTypeKind ? LLVMGetElementType(t) : t;
    LLVMTypeKind ek = LLVMGetTypeKind(elem);
    if ((ek != LLVMIntegerTypeKind && ek != LLVMFloatTypeKind && ek != LLVMDoubleTypeKind &&
         ek != LLVMHalfTypeKind && ek != LLVMPointerTypeKind) ||
        LLVMConstIntGetZExtValue(LLVMGetOperand(a, 0)) != 1)
        return 0;
    unsigned long long e = LLVMABISizeOfType(rf->td, elem);
    if (e != LLVMStoreSizeOfType(rf->td, elem))
        return 0;
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (whole_element_access(rf, user, a, elem))
            continue;
        if (!LLVMIsAGetElementPtrInst(user) || LLVMGetOperand(user, 0) != a || LLVMGetNumOperands(user) != 3 ||
            LLVMGetGEPSourceElementType(user) != t || LLVMGetTypeKind(t) != LLVMArrayTypeKind ||
            !LLVMIsAConstantInt(LLVMGetOperand(user, 1)) || LLVMConstIntGetZExtValue(LLVMGetOperand(user, 1)))
            return 0;
        for (LLVMUseRef g = LLVMGetFirstUse(user); g; g = LLVMGetNextUse(g))
            if (!whole_element_access(rf, LLVMGetUser(g), user, elem))
                return 0;
    }
    return e;
}

/* Is instruction k's value needed at the start of some E_i?  Walks back from
 * its uses to its definition. */
static bool live_across(region_fn *rf, int k, unsigned char *live, int *work)
{
    LLVMValueRef v = rf->ins.insts[k];
    int def = rf->ins.iblock[k], sp = 0;
    memset(live, 0, (size_t)rf->cut.nb);
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        int ku = pmap_get(&rf->ins.iidx, user);
        if (ku < 0 || rf->ins.kind[ku] == K_SKIP)
            continue;
        if (LLVMIsAPHINode(user)) {
            unsigned n = LLVMCountIncoming(user);
            for (unsigned j = 0; j < n; j++) {
                if (LLVMGetIncomingValue(user, j) != v)
                    continue;
                int p = block_of(rf, LLVMGetIncomingBlock(user, j));
                if (p != def && rf->cut.reach[p] && !live[p]) {
                    live[p] = 1;
                    work[sp++] = p;
                }
            }
        } else {
            int b = rf->ins.iblock[ku];
            if (b != def && !live[b]) {
                live[b] = 1;
                work[sp++] = b;
            }
        }
    }
    while (sp) {
        int x = work[--sp];
        for (int j = 0; j < rf->cut.npred[x]; j++) {
            int y = rf->cut.pred[x][j];
            if (y != def && rf->cut.reach[y] && !live[y]) {
                live[y] = 1;
                work[sp++] = y;
            }
        }
    }
    for (int i = 1; i < rf->cut.nreg; i++)
        if (live[rf->cut.bar_entry[i]])
            return true;
    return false;
}

/* Can instruction k be computed again anywhere from what every work-item
 * keeps for the whole kernel (arguments, its local id, values of the entry,
 * private variables' addresses)?  Pure, non-trapping operations only; the
 * cost is the number of instructions to copy. */
#define REMAT_MAX_COST 12
static bool rematerializable(region_fn *rf, int k, int depth)
{
    if (rf->live.remat_state[k] == 1 || rf->live.remat_state[k] == 2)
        return rf->live.remat_state[k] == 1;
    if (rf->live.remat_state[k] == 3 || depth > 32)
        return false;
    LLVMValueRef inst = rf->ins.insts[k];
    bool ok = rf->ins.kind[k] == K_NORMAL;
    switch (ok ? LLVMGetInstructionOpcode(inst) : LLVMUnreachable) {
    case LLVMGetElementPtr: case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI:
    case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub:
    case LLVMMul: case LLVMFMul: case LLVMFDiv: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd:
    case LLVMOr: case LLVMXor: case LLVMICmp: case LLVMFCmp: case LLVMSelect: case LLVMExtractElement:
    case LLVMInsertElement: case LLVMShuffleVector: case LLVMExtractValue: case LLVMInsertValue: case LLVMFNeg:
        break;
    case LLVMCall:
        ok = is_sub_group_first(inst);
        break;
    case LLVMLoad: /* a field of a work-group context (coarsening.c: one per group of a column) */
        ok = !LLVMGetVolatile(inst) && LLVMGetOrdering(inst) == LLVMAtomicOrderingNotAtomic &&
             LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(rf->c, "invariant.load", 14));
        break;
    default:
        ok = false;
    }
    int cost = 1;
    rf->live.remat_state[k] = 3;
    int n = ok ? LLVMGetNumOperands(inst) : 0;
    for (int i = 0; i < n && ok; i++) {
        LLVMValueRef o = LLVMGetOperand(inst, i);
        if (LLVMIsAInstruction(o)) {
            int ko = pmap_get(&rf->ins.iidx, o);
            if (ko < 0)
                ok = false;
            else if (rf->ins.kind[ko] == K_NORMAL) {
                ok = rematerializable(rf, ko, depth + 1);
                cost += ok ? rf->live.remat_cost[ko] : 0;
            } else if (rf->ins.kind[ko] == K_SKIP) {
                ok = false;
            }
        } else if (LLVMIsABlockAddress(o) || LLVMValueIsBasicBlock(o)) {
            ok = false;
        }
    }
    if (cost > REMAT_MAX_COST)
        ok = false;
    rf->live.remat_cost[k] = cost;
    rf->live.remat_state[k] = ok ? 1 : 2;
    return ok;
}

/* Which allocas need a copy per work-item, which values live across a
 * barrier and whether each is kept in an array or computed again. */
cl_int rg_find_live_values(region_fn *rf)
{
    unsigned char *used = rf_calloc(rf, (size_t)rf->cut.nb, 1), *seen = rf_calloc(rf, (size_t)rf->ins.ni, 1);
    int *work = rf_calloc(rf, (size_t)(rf->ins.ni > rf->cut.nb ? rf->ins.ni : rf->cut.nb) + 1, sizeof *work);
    rf->store.slot_inst = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *rf->store.slot_inst);
    rf->store.slot_type = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *rf->store.slot_type);
    rf->store.slot_stride = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *rf->store.slot_stride);
    rf->store.slot_off = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *rf->store.slot_off);
    rf->live.live_index = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *rf->live.live_index);
    rf->live.live_inst = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *rf->live.live_inst);
    rf->live.remat = rf_calloc(rf, (size_t)rf->ins.ni, 1);
    rf->live.remat_state = rf_calloc(rf, (size_t)rf->ins.ni, 1);
    rf->live.remat_cost = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *rf->live.remat_cost);
    rf->store.soa = rf_calloc(rf, (size_t)rf->ins.ni, sizeof *rf->store.soa);
    cl_int r = CL_OUT_OF_HOST_MEMORY;
    if (rf->oom)
        goto done;
    for (int k = 0; k < rf->ins.ni; k++) {
        LLVMValueRef i = rf->ins.insts[k];
        if (rf->ins.kind[k] == K_SHARED && needs_copies(rf, i, used, seen, work)) {
            LLVMTypeRef t = LLVMGetAllocatedType(i);
            unsigned long long size = LLVMABISizeOfType(rf->td, t) * LLVMConstIntGetZExtValue(LLVMGetOperand(i, 0));
            unsigned long long align = LLVMGetAlignment(i);
            if (align < 1)
                align = 1;
            if (align > 64) {
                r = give_up(rf, "a private variable aligned to more than 64 bytes");
                goto done;
            }
            rf->ins.kind[k] = K_PERWI;
            rg_add_slot(rf, k, NULL, (size + align - 1) / align * align);
            if ((rf->store.soa[k] = soa_element(rf, i)))
                rf->store.slot_stride[rf->store.slot[k]] = size; /* the same bytes in all, element-major */
        } else if (rf->ins.kind[k] == K_NORMAL && LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind &&
                   live_across(rf, k, used, work)) {
            rf->live.live_inst[rf->live.nlive] = k;
            rf->live.live_index[k] = rf->live.nlive++;
            if (rematerializable(rf, k, 0)) {
                rf->live.remat[k] = 1;
                continue;
            }
            LLVMTypeRef t = LLVMTypeOf(i);
            if (!LLVMTypeIsSized(t) || (!lane_vector(rf, t) && LLVMABIAlignmentOfType(rf->td, t) > 64)) {
                r = give_up(rf, "a value that cannot be kept in memory");
                goto done;
            }
            rf->live.demote[k] = 1;
            rg_add_slot(rf, k, t, LLVMABISizeOfType(rf->td, lane_vector(rf, t) ? LLVMGetElementType(t) : t));
        }
    }
    /* room for the answers of rg_reached_without_def and rg_def_reaches */
    rf->live.avoid = rf_calloc(rf, (size_t)(rf->live.nlive * rf->cut.nreg), sizeof *rf->live.avoid);
    rf->live.def_reach = rf_calloc(rf, (size_t)(rf->live.nlive * rf->cut.nreg), sizeof *rf->live.def_reach);
    r = rf_status(rf);
done:
    free(used);
    free(seen);
    free(work);
    return r;
}

/* Adds to `set` the blocks a region reaches from the sp blocks on the stack
 * (marked already), not going past barrier blocks nor into block `avoid`.
 * (A walk of the graph cut at barriers and at `avoid`: no analysis of the
 * function's answers it.) */
static void walk_in_region(region_fn *rf, unsigned char *set, int *stack, int sp, int avoid)
{
    while (sp) {
        int x = stack[--sp];
        if (rf->cut.bar_of_block[x])
            continue;
        for (int j = 0; j < rf->cut.nsucc[x]; j++) {
            int y = rf->cut.succ[x][j];
            if (y != avoid && !set[y]) {
                set[y] = 1;
                stack[sp++] = y;
            }
        }
    }
}

/* Is block b reached in region r, from its start, without passing the block
 * that defines live value li? (Then a use there must reload or recompute it.) */
bool rg_reached_without_def(region_fn *rf, int li, int r, int b)
{
    unsigned char **set = &rf->live.avoid[li * rf->cut.nreg + r];
    if (!*set) {
        int def = rf->ins.iblock[rf->live.live_inst[li]];
        int start = r ? rf->cut.bar_entry[r] : 0;
        *set = rf_calloc(rf, (size_t)rf->cut.nb, 1);
        int *stack = rf_calloc(rf, (size_t)rf->cut.nb, sizeof *stack);
        if (rf->oom) {
            free(stack);
            return true;
        }
        if (start != def) {
            (*set)[start] = 1;
            stack[0] = start;
            walk_in_region(rf, *set, stack, 1, def);
        }
        free(stack);
    }
    return (*set)[b];
}

/* Is block b reached in region r from the definition of live value li
 * (after it, without crossing a barrier)?  Where it is, and also reached
 * without the definition, a work-item's value there is the region's or the
 * one it had before, so it is read from that work-item's own storage. */
bool rg_def_reaches(region_fn *rf, int li, int r, int b)
{
    unsigned char **set = &rf->live.def_reach[li * rf->cut.nreg + r];
    if (!*set) {
        int def = rf->ins.iblock[rf->live.live_inst[li]];
        *set = rf_calloc(rf, (size_t)rf->cut.nb, 1);
        int *stack = rf_calloc(rf, (size_t)rf->cut.nb, sizeof *stack), sp = 0;
        if (rf->oom) {
            free(stack);
            return true;
        }
        if (rf->cut.inreg[r][def] && !rf->cut.bar_of_block[def])
            for (int j = 0; j < rf->cut.nsucc[def]; j++)
                if (!(*set)[rf->cut.succ[def][j]])
                    (*set)[rf->cut.succ[def][j]] = 1, stack[sp++] = rf->cut.succ[def][j];
        walk_in_region(rf, *set, stack, sp, -1);
        free(stack);
    }
    return (*set)[b];
}

/* Each region copies its blocks: refuse what would grow too much. */
cl_int rg_check_copied_size(region_fn *rf)
{
    long copied = 0;
    for (int k = 0; k < rf->ins.ni; k++)
        for (int r = 0; r < rf->cut.nreg; r++)
            copied += rf->cut.inreg[r][rf->ins.iblock[k]];
    return copied > MAX_COPIED_INSTRUCTIONS ? give_up(rf, "too much code to copy into each region") : CL_SUCCESS;
}
