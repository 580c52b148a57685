/*
 * The per-work-item storage of K.wg: one array per value or private
 * variable kept across barriers ("slots"; pocl calls them context arrays),
 * indexed by the local linear id so the vectoriser sees consecutive
 * accesses.  A private array read and written whole elements at a time is
 * stored element-major (structure of arrays, region_liveness.c's
 * soa_element).
 *
 * Here: the arrays' layout (rg_add_slot; rg_share_phi_slots, where a loop's
 * phi and the value that comes round to it share one array, a form of
 * slot coalescing), their allocation in K.wg's entry, and the spills and
 * reloads a region's copy makes, with the alias scope that tells LLVM the
 * storage is apart from the kernel's own memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "compiler/workgroup/regions_internal.h"

/* Gives instruction k a per-work-item array of stride-byte elements. */
void rg_add_slot(region_fn *rf, int k, LLVMTypeRef ty, unsigned long long stride)
{
    int s = rf->store.nslots++;
    rf->store.slot_inst[s] = k;
    rf->store.slot_type[s] = ty;
    rf->store.slot_stride[s] = stride;
    rf->store.slot_off[s] = rf->store.slot_total;
    rf->store.slot_total += stride;
    rf->store.slot[k] = s;
}

/* A node !{self, ops...} (an alias scope or its domain): the cycle makes it
 * one of its kind. */
static LLVMMetadataRef self_node(LLVMContextRef c, LLVMMetadataRef *ops, unsigned n)
{
    LLVMMetadataRef all[3], temp = LLVMTemporaryMDNode(c, NULL, 0);
    all[0] = temp;
    for (unsigned i = 0; i < n && i < 2; i++)
        all[i + 1] = ops[i];
    LLVMMetadataRef node = LLVMMDNodeInContext2(c, all, n + 1);
    LLVMMetadataReplaceAllUsesWith(temp, node);
    return node;
}

/* The storage's alias scope: with it LLVM knows that a spill to the storage
 * does not change a tile in __local memory, so a tiled product's loads of a
 * tile row stay in registers across the rows of the group (LICM, GVN). */
void rg_make_storage_scope(region_fn *rf)
{
    LLVMContextRef c = rf->c;
    LLVMMetadataRef name = LLVMMDStringInContext2(c, "mosaic.storage", 14);
    LLVMMetadataRef domain = self_node(c, &name, 1);
    LLVMMetadataRef ops[2] = {domain, name};
    LLVMMetadataRef scope = self_node(c, ops, 2);
    rf->frame.storage_scope = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &scope, 1));
    rf->frame.scope_kind = LLVMGetMDKindIDInContext(c, "alias.scope", 11);
    rf->frame.noalias_kind = LLVMGetMDKindIDInContext(c, "noalias", 7);
}

/* A load or store of the per-work-item storage. */
static void in_storage(region_fn *rf, LLVMValueRef inst)
{
    LLVMSetMetadata(inst, rf->frame.scope_kind, rf->frame.storage_scope);
}

/* A copied load or store of the kernel's that cannot reach the storage: its
 * address is __global, __constant or __local (address spaces 1 to 3), and
 * the storage is private memory. */
void rg_beside_storage(region_fn *rf, LLVMValueRef inst)
{
    LLVMValueRef p = LLVMIsALoadInst(inst)    ? LLVMGetOperand(inst, 0)
                     : LLVMIsAStoreInst(inst) ? LLVMGetOperand(inst, 1)
                                              : NULL;
    unsigned as = p ? LLVMGetPointerAddressSpace(LLVMTypeOf(p)) : 0;
    if (as >= 1 && as <= 3)
        LLVMSetMetadata(inst, rf->frame.noalias_kind, rf->frame.storage_scope);
}

static LLVMValueRef slot_ptr(region_fn *rf, LLVMBuilderRef b, int s)
{
    LLVMTypeRef t = rf->store.slot_type[s];
    LLVMTypeRef elem = lane_vector(rf, t) ? LLVMGetElementType(t) : t;
    return LLVMBuildInBoundsGEP2(b, elem, rf->frame.slot_base[s], &rf->copy.wi, 1, "");
}

/* A K.row vector is stored at its first lane's element: a multiple of the
 * lanes in a 64-byte aligned array. */
static unsigned slot_align(region_fn *rf, int s)
{
    LLVMTypeRef t = rf->store.slot_type[s];
    if (!lane_vector(rf, t))
        return LLVMABIAlignmentOfType(rf->td, t);
    unsigned long long a = rf->store.slot_stride[s] * rf->lanes;
    return a < 64 ? (unsigned)a : 64;
}

LLVMValueRef rg_reload(region_fn *rf, LLVMBuilderRef b, int k)
{
    int s = rf->store.slot[k];
    LLVMValueRef v = LLVMBuildLoad2(b, rf->store.slot_type[s], slot_ptr(rf, b, s), "");
    LLVMSetAlignment(v, slot_align(rf, s));
    mark_parallel(rf, v);
    in_storage(rf, v);
    return v;
}

/* A uniform value at the region's start: every work-item's copy is the
 * same, so work-item 0's is read once, before the loops over them. */
LLVMValueRef rg_reload_uniform(region_fn *rf, int k)
{
    if (!rf->copy.hoisted[k]) {
        LLVMBuilderRef h = LLVMCreateBuilderInContext(rf->c);
        LLVMPositionBuilderBefore(h, LLVMGetBasicBlockTerminator(rf->copy.cur_pre));
        int s = rf->store.slot[k];
        LLVMValueRef v = LLVMBuildLoad2(h, rf->store.slot_type[s], rf->frame.slot_base[s], "uniform");
        LLVMSetAlignment(v, slot_align(rf, s));
        in_storage(rf, v);
        mc_copy_name(v, rf->ins.insts[k]);
        rf->copy.hoisted[k] = v;
        LLVMDisposeBuilder(h);
    }
    return rf->copy.hoisted[k];
}

void rg_spill(region_fn *rf, LLVMBuilderRef b, int k, LLVMValueRef v)
{
    int s = rf->store.slot[k];
    /* a uniform value nothing reads per work-item: work-item 0's copy is
     * the one read (rg_reload_uniform), and every work-item stores the same */
    bool first_only = rf->unif.uniform_def[k] && !rf->unif.all_slots[k];
    LLVMValueRef st = LLVMBuildStore(b, v, first_only ? rf->frame.slot_base[s] : slot_ptr(rf, b, s));
    LLVMSetAlignment(st, slot_align(rf, s));
    mark_parallel(rf, st);
    in_storage(rf, st);
}

/* K.wg's entry, last: the per-work-item arrays, on the stack up to
 * MC_STORAGE_ON_STACK bytes, else on the heap (freed at the exit:
 * *exit_free is then the block that returns, after the free). */
void rg_allocate_storage(region_fn *rf, LLVMBuilderRef b, LLVMBasicBlockRef *exit_free)
{
    *exit_free = NULL;
    /* sub-group mode: 4 more bytes per work-item, the states uniform copies leave */
    unsigned long long per_item = rf->store.slot_total + (rf->cut.sg_mode || rf->cut.masked ? 4 : 0);
    rf->kb->item_bytes = (size_t)per_item;
    if (!per_item)
        return;
    /* n64 elements per array (the group's size rounded up to 64), so every array starts 64-byte aligned */
    const LLVMValueRef *size = rf->frame.nxyz;
    LLVMValueRef n = LLVMBuildNUWMul(b, LLVMBuildNUWMul(b, size[0], size[1], ""), size[2], "");
    LLVMValueRef n64 = LLVMBuildAnd(b, LLVMBuildNUWAdd(b, n, const64(rf, 63), ""), const64(rf, ~63ull), "n64");
    rf->frame.n64 = n64;
    LLVMValueRef total = LLVMBuildNUWMul(b, n64, const64(rf, per_item), "storage.size");
    LLVMBasicBlockRef stack = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "storage.stack");
    LLVMBasicBlockRef heap = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "storage.heap");
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "storage.none");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "storage");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULE, total, const64(rf, MC_STORAGE_ON_STACK), ""), stack, heap);
    LLVMPositionBuilderAtEnd(b, stack);
    LLVMValueRef on_stack = LLVMBuildArrayAlloca(b, rf->i8, total, "storage.stack");
    LLVMSetAlignment(on_stack, 64);
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, heap);
    LLVMTypeRef aa_params[2] = {rf->i64, rf->i64};
    LLVMTypeRef aa_ty = LLVMFunctionType(rf->ptr, aa_params, 2, 0);
    LLVMValueRef aa = LLVMGetNamedFunction(rf->m, "aligned_alloc");
    if (!aa)
        aa = LLVMAddFunction(rf->m, "aligned_alloc", aa_ty);
    LLVMValueRef aa_args[2] = {const64(rf, 64), total};
    LLVMValueRef on_heap = LLVMBuildCall2(b, aa_ty, aa, aa_args, 2, "storage.heap");
    LLVMBuildCondBr(b, LLVMBuildIsNull(b, on_heap, ""), fail, join);
    LLVMPositionBuilderAtEnd(b, fail);
    LLVMTypeRef trap_ty = LLVMFunctionType(LLVMVoidTypeInContext(rf->c), NULL, 0, 0);
    LLVMValueRef trap = LLVMGetNamedFunction(rf->m, "llvm.trap");
    if (!trap)
        trap = LLVMAddFunction(rf->m, "llvm.trap", trap_ty);
    LLVMBuildCall2(b, trap_ty, trap, NULL, 0, "");
    LLVMBuildUnreachable(b);
    LLVMPositionBuilderAtEnd(b, join);
    LLVMValueRef base = LLVMBuildPhi(b, rf->ptr, "storage");
    LLVMAddIncoming(base, &on_stack, &stack, 1);
    LLVMAddIncoming(base, &on_heap, &heap, 1);
    LLVMValueRef is_heap = LLVMBuildPhi(b, rf->i1, "");
    LLVMValueRef f = LLVMConstInt(rf->i1, 0, 0), t = LLVMConstInt(rf->i1, 1, 0);
    LLVMAddIncoming(is_heap, &f, &stack, 1);
    LLVMAddIncoming(is_heap, &t, &heap, 1);
    for (int s = 0; s < rf->store.nslots; s++) {
        LLVMValueRef off = LLVMBuildNUWMul(b, n64, const64(rf, rf->store.slot_off[s]), "");
        rf->frame.slot_base[s] = LLVMBuildInBoundsGEP2(b, rf->i8, base, &off, 1, "");
    }
    if (rf->cut.sg_mode || rf->cut.masked) {
        LLVMValueRef off = LLVMBuildNUWMul(b, n64, const64(rf, rf->store.slot_total), "");
        rf->frame.state_base = LLVMBuildInBoundsGEP2(b, rf->i8, base, &off, 1, "states");
    }
    /* the exit frees heap storage */
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(b);
    LLVMPositionBuilderAtEnd(b, rf->frame.exit);
    LLVMBasicBlockRef free_bb = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "storage.free");
    LLVMBasicBlockRef ret_bb = LLVMAppendBasicBlockInContext(rf->c, rf->frame.wg, "return");
    LLVMBuildCondBr(b, is_heap, free_bb, ret_bb);
    LLVMPositionBuilderAtEnd(b, free_bb);
    LLVMTypeRef free_ty = LLVMFunctionType(LLVMVoidTypeInContext(rf->c), &rf->ptr, 1, 0);
    LLVMValueRef free_fn = LLVMGetNamedFunction(rf->m, "free");
    if (!free_fn)
        free_fn = LLVMAddFunction(rf->m, "free", free_ty);
    LLVMBuildCall2(b, free_ty, free_fn, &base, 1, "");
    LLVMBuildBr(b, ret_bb);
    *exit_free = ret_bb;
    LLVMPositionBuilderAtEnd(b, cur);
}

/* Does a way from block `from` reach block `to` without entering block
 * `avoid` (nor, with stop_at_barriers, a barrier's block)?  With from ==
 * to: a way round, back to it.  seen[]: room for nb; stack[]: for as many
 * entries as there are edges.  (A walk of the graph with blocks taken out:
 * no analysis of the function's answers it.) */
static bool reaches_without(region_fn *rf, int from, int to, int avoid, bool stop_at_barriers, unsigned char *seen,
                            int *stack)
{
    memset(seen, 0, (size_t)rf->cut.nb);
    int sp = 0;
    for (int j = 0; j < rf->cut.nsucc[from]; j++)
        stack[sp++] = rf->cut.succ[from][j];
    while (sp) {
        int x = stack[--sp];
        if (x == to)
            return true;
        if (seen[x] || x == avoid || (stop_at_barriers && rf->cut.bar_of_block[x]))
            continue;
        seen[x] = 1;
        for (int j = 0; j < rf->cut.nsucc[x]; j++)
            stack[sp++] = rf->cut.succ[x][j];
    }
    return false;
}

/* Where instruction `user` uses value `val`: its block, for a phi the
 * incoming blocks that bring val (at their ends).  Fills at[] (room for
 * the phi's incoming count) and returns how many. */
static unsigned use_blocks(region_fn *rf, LLVMValueRef user, LLVMValueRef val, int ku, int *at)
{
    if (!LLVMIsAPHINode(user))
        return at[0] = rf->ins.iblock[ku], 1;
    unsigned n = 0;
    for (unsigned j = 0; j < LLVMCountIncoming(user); j++)
        if (LLVMGetIncomingValue(user, j) == val)
            at[n++] = block_of(rf, LLVMGetIncomingBlock(user, j));
    return n;
}

/* The value of phi p that comes round its loop, when that value (v) and p
 * may share one array, or -1.  v is stored once defined (a phi of an inner
 * loop: at that loop's exits), p where it is defined, and either is
 * reloaded where used, so they may share when neither is live where the
 * other is stored:
 *  - no use of p is reached from v's block without passing p's block (a
 *    use in v's block itself comes before v, v not being a phi);
 *  - v is not live in p's block: v dominates its uses, so a way from p's
 *    block to one passes v's block, unless the use is another phi of p's
 *    block (refused);
 *  - no way comes round to p's block without a barrier (a region would
 *    store p at its loop's exits instead, loop_exit_targets);
 *  - neither is uniform (work-item 0's copy stands for all).
 * use_at[]: room for the largest phi's incoming count. */
static int phi_partner(region_fn *rf, int p, unsigned char *seen, int *stack, int *use_at)
{
    LLVMValueRef phi = rf->ins.insts[p];
    int h = rf->ins.iblock[p], v = -1;
    for (unsigned j = 0; j < LLVMCountIncoming(phi); j++) {
        int k = pmap_get(&rf->ins.iidx, LLVMGetIncomingValue(phi, j));
        if (k < 0 || !rf->live.demote[k])
            continue;
        if (v >= 0 && v != k)
            return -1; /* two values come round */
        v = k;
    }
    if (v < 0 || v == p || rf->unif.uniform_def[v] || rf->unif.uniform_def[p] || rf->ins.kind[v] != K_NORMAL ||
        rf->store.slot_type[rf->store.slot[v]] != rf->store.slot_type[rf->store.slot[p]])
        return -1;
    int b = rf->ins.iblock[v];
    bool v_phi = LLVMIsAPHINode(rf->ins.insts[v]);
    if (reaches_without(rf, h, h, -1, true, seen, stack))
        return -1;
    for (LLVMUseRef u = LLVMGetFirstUse(phi); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        int ku = pmap_get(&rf->ins.iidx, user);
        if (ku < 0 || rf->ins.kind[ku] == K_SKIP)
            continue;
        unsigned n = use_blocks(rf, user, phi, ku, use_at);
        for (unsigned j = 0; j < n; j++) {
            if (use_at[j] < 0)
                return -1;
            if (use_at[j] == b && (LLVMIsAPHINode(user) || v_phi || ku > v))
                return -1;
            if (reaches_without(rf, b, use_at[j], h, false, seen, stack))
                return -1;
        }
    }
    for (LLVMUseRef u = LLVMGetFirstUse(rf->ins.insts[v]); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        int ku = pmap_get(&rf->ins.iidx, user);
        if (ku < 0 || ku == p || rf->ins.kind[ku] == K_SKIP)
            continue;
        unsigned n = use_blocks(rf, user, rf->ins.insts[v], ku, use_at);
        for (unsigned j = 0; j < n; j++)
            if (use_at[j] < 0 || use_at[j] == h)
                return -1;
    }
    return v;
}

/* A value that crosses a barrier is stored after its definition and
 * reloaded where a region uses it.  A loop's phi and the value that comes
 * round to it (a sum, s += ...) each had an array, so the region with the
 * loop's back edge copied one into the other every iteration: a load and a
 * store a work-item.  Where they may share one (phi_partner), the phi's
 * store stores what was just loaded there, which LLVM drops.  The arrays
 * are then laid out again without those no value uses.  Not in masked or
 * sub-group mode. */
cl_int rg_share_phi_slots(region_fn *rf)
{
    if (rf->cut.masked || rf->cut.sg_mode || !rf->store.nslots)
        return CL_SUCCESS;
    size_t edges = 1;
    for (int x = 0; x < rf->cut.nb; x++)
        edges += (size_t)rf->cut.nsucc[x];
    unsigned char *seen = rf_calloc(rf, (size_t)rf->cut.nb, 1), *taken = rf_calloc(rf, (size_t)rf->store.nslots, 1);
    unsigned most = 1; /* incoming values of the largest phi */
    for (int k = 0; k < rf->ins.ni; k++)
        if (LLVMIsAPHINode(rf->ins.insts[k]) && LLVMCountIncoming(rf->ins.insts[k]) > most)
            most = LLVMCountIncoming(rf->ins.insts[k]);
    int *stack = rf_calloc(rf, edges, sizeof *stack), *use_at = rf_calloc(rf, most, sizeof *use_at);
    bool changed = false;
    for (int p = 0; p < rf->ins.ni && !rf->oom; p++) {
        if (!rf->live.demote[p] || rf->ins.kind[p] != K_NORMAL || !LLVMIsAPHINode(rf->ins.insts[p]))
            continue;
        int v = phi_partner(rf, p, seen, stack, use_at);
        if (v >= 0 && !taken[rf->store.slot[v]]) {
            taken[rf->store.slot[v]] = 1;
            rf->store.slot[p] = rf->store.slot[v];
            rf->store.shared_phis++;
            changed = true;
        }
    }
    if (changed && !rf->oom) {
        memset(taken, 0, (size_t)rf->store.nslots);
        for (int k = 0; k < rf->ins.ni; k++)
            if (rf->store.slot[k] >= 0)
                taken[rf->store.slot[k]] = 1;
        rf->store.slot_total = 0;
        for (int t = 0; t < rf->store.nslots; t++) {
            if (!taken[t])
                rf->store.slot_stride[t] = 0; /* the phi's own array, now unused */
            rf->store.slot_off[t] = rf->store.slot_total;
            rf->store.slot_total += rf->store.slot_stride[t];
        }
    }
    free(seen), free(taken), free(stack), free(use_at);
    return rf_status(rf);
}
