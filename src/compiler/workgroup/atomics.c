/*
 * Atomic library calls -> atomic instructions.
 *
 * The spir64 target tells clang it has no lock-free atomics, so the builtin
 * library's atomics (written with __atomic_* and __opencl_atomic_* builtins)
 * come out as calls such as
 *   i32 @__atomic_fetch_add_4(ptr addrspace(4) %p, i32 %v, i32 %order)
 *   i1  @__opencl_atomic_compare_exchange_4(ptr %p, ptr %expected, i32 %desired,
 *                                           i32 %success, i32 %failure, i32 %scope)
 * Once the program runs on the host, they become atomicrmw / cmpxchg /
 * atomic load and store instructions.  Orders are C11's (0 relaxed ... 5
 * seq_cst); a scope of 0 (work-item) is single-threaded, every other scope is
 * the whole system (a work-group runs on one thread; x86 knows no other scope).
 *
 * The GPU's code generator (LLVM 16's NVPTX) selects only relaxed atomics,
 * and ignores the order of a read-modify-write.  There every operation is
 * relaxed, with a fence (the caller's: membar at the scope) before it when
 * its order releases and after it when it acquires; seq_cst has both, so
 * each seq_cst operation sits between two sequentially consistent fences.
 * OpenCL 1.x's atomic_add and kin (the __atomic_* calls) are relaxed, as
 * OpenCL C says they are, and get no fence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/util.h"
#include "compiler/workgroup/passes.h"

static LLVMAtomicOrdering ordering(LLVMValueRef v)
{
    if (!v || !LLVMIsAConstantInt(v))
        return LLVMAtomicOrderingSequentiallyConsistent;
    switch (LLVMConstIntGetZExtValue(v)) {
    case 0: return LLVMAtomicOrderingMonotonic;
    case 1:
    case 2: return LLVMAtomicOrderingAcquire;
    case 3: return LLVMAtomicOrderingRelease;
    case 4: return LLVMAtomicOrderingAcquireRelease;
    default: return LLVMAtomicOrderingSequentiallyConsistent;
    }
}

static LLVMAtomicOrdering for_load(LLVMAtomicOrdering o)
{
    return o == LLVMAtomicOrderingRelease ? LLVMAtomicOrderingMonotonic
           : o == LLVMAtomicOrderingAcquireRelease ? LLVMAtomicOrderingAcquire : o;
}

static LLVMAtomicOrdering for_store(LLVMAtomicOrdering o)
{
    return o == LLVMAtomicOrderingAcquire ? LLVMAtomicOrderingMonotonic
           : o == LLVMAtomicOrderingAcquireRelease ? LLVMAtomicOrderingRelease : o;
}

static const struct {
    const char *name;
    LLVMAtomicRMWBinOp op;
} rmw_ops[] = {
    {"add", LLVMAtomicRMWBinOpAdd},   {"sub", LLVMAtomicRMWBinOpSub},   {"and", LLVMAtomicRMWBinOpAnd},
    {"or", LLVMAtomicRMWBinOpOr},     {"xor", LLVMAtomicRMWBinOpXor},   {"nand", LLVMAtomicRMWBinOpNand},
    {"min", LLVMAtomicRMWBinOpMin},   {"max", LLVMAtomicRMWBinOpMax},   {"umin", LLVMAtomicRMWBinOpUMin},
    {"umax", LLVMAtomicRMWBinOpUMax},
};

LLVMValueRef mc_rmw_result(LLVMBuilderRef b, LLVMAtomicRMWBinOp op, LLVMValueRef old, LLVMValueRef v)
{
    switch (op) {
    case LLVMAtomicRMWBinOpXchg: return v;
    case LLVMAtomicRMWBinOpAdd: return LLVMBuildAdd(b, old, v, "");
    case LLVMAtomicRMWBinOpSub: return LLVMBuildSub(b, old, v, "");
    case LLVMAtomicRMWBinOpAnd: return LLVMBuildAnd(b, old, v, "");
    case LLVMAtomicRMWBinOpOr: return LLVMBuildOr(b, old, v, "");
    case LLVMAtomicRMWBinOpXor: return LLVMBuildXor(b, old, v, "");
    case LLVMAtomicRMWBinOpNand: return LLVMBuildNot(b, LLVMBuildAnd(b, old, v, ""), "");
    case LLVMAtomicRMWBinOpMin: return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, old, v, ""), old, v, "");
    case LLVMAtomicRMWBinOpMax: return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, old, v, ""), old, v, "");
    case LLVMAtomicRMWBinOpUMin: return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, old, v, ""), old, v, "");
    case LLVMAtomicRMWBinOpUMax: return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, old, v, ""), old, v, "");
    case LLVMAtomicRMWBinOpFAdd: return LLVMBuildFAdd(b, old, v, "");
    case LLVMAtomicRMWBinOpFSub: return LLVMBuildFSub(b, old, v, "");
    default: return NULL;
    }
}

static bool is_op(LLVMValueRef v, LLVMOpcode op)
{
    return LLVMIsAInstruction(v) ? LLVMGetInstructionOpcode(v) == op
                                 : LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == op;
}

/* p without the casts that made a pointer of another address space into
 * it: addrspacecast, or inttoptr of ptrtoint. */
static LLVMValueRef own_address_space(LLVMValueRef p)
{
    for (;;) {
        if (is_op(p, LLVMAddrSpaceCast))
            p = LLVMGetOperand(p, 0);
        else if (is_op(p, LLVMIntToPtr) && is_op(LLVMGetOperand(p, 0), LLVMPtrToInt))
            p = LLVMGetOperand(LLVMGetOperand(p, 0), 0);
        else
            return p;
    }
}

/* Replaces one use of `callee` (operation op on size bytes, the OpenCL C
 * flavour or C11's) by instructions; CL_BUILD_PROGRAM_FAILURE when it is not
 * a call this understands. */
/* The OpenCL memory scope of the call an atomic instruction was made of, as
 * metadata for checking mode (compiler/check/check.h). */
static void mark_scope(LLVMValueRef atomic, unsigned scope)
{
    if (!atomic)
        return;
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(atomic));
    LLVMValueRef v = LLVMConstInt(LLVMInt32TypeInContext(c), scope, 0);
    LLVMSetMetadata(atomic, LLVMGetMDKindIDInContext(c, MOSAIC_SCOPE_MD, sizeof MOSAIC_SCOPE_MD - 1),
                    LLVMMDNodeInContext(c, &v, 1));
}

static cl_int lower_call(LLVMBuilderRef b, LLVMValueRef call, const char *callee, const char *op, bool opencl,
                         unsigned size, mc_atomic_fence_fn fence, mosaic_strbuf *log)
{
    if (!LLVMIsACallInst(call) || LLVMGetNumArgOperands(call) > 8)
        goto not_understood;
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(call));
    unsigned n = LLVMGetNumArgOperands(call);
    LLVMValueRef a[8];
    for (unsigned i = 0; i < n; i++)
        a[i] = LLVMGetOperand(call, i);
    LLVMTypeRef ity = LLVMIntTypeInContext(c, size * 8);
    /* orders follow the value operands; the scope comes last */
    unsigned orders_at;
    if (!strcmp(op, "load"))
        orders_at = 1;
    else if (!strcmp(op, "compare_exchange"))
        orders_at = 3;
    else
        orders_at = 2;
    bool single = opencl && n > orders_at && LLVMIsAConstantInt(a[n - 1]) && LLVMConstIntGetZExtValue(a[n - 1]) == 0;
    LLVMAtomicOrdering ord = ordering(n > orders_at ? a[orders_at] : NULL);
    LLVMPositionBuilderBefore(b, call);
    /* fenced: relaxed instructions between the fences the order needs */
    unsigned scope = 3; /* all devices, where the call does not say */
    if (opencl && n > orders_at + 1 && LLVMIsAConstantInt(a[n - 1]))
        scope = (unsigned)LLVMConstIntGetZExtValue(a[n - 1]);
    bool fences = fence && opencl && !single && ord != LLVMAtomicOrderingMonotonic;
    bool releases = ord == LLVMAtomicOrderingRelease || ord == LLVMAtomicOrderingAcquireRelease ||
                    ord == LLVMAtomicOrderingSequentiallyConsistent;
    bool acquires = ord == LLVMAtomicOrderingAcquire || ord == LLVMAtomicOrderingAcquireRelease ||
                    ord == LLVMAtomicOrderingSequentiallyConsistent;
    if (fences && releases)
        fence(b, scope);
    if (fence) {
        /* The object's own address space, not the generic pointer the
         * library call took, which clang may have made with ptrtoint and
         * inttoptr: on the GPU a __local address is no generic address, so
         * a generic atom on it would reach the wrong memory. */
        a[0] = own_address_space(a[0]);
        ord = LLVMAtomicOrderingMonotonic;
        if (n > orders_at + 1 && !strcmp(op, "compare_exchange"))
            a[4] = LLVMConstInt(LLVMTypeOf(a[4]), 0, false); /* its failure order too */
    }
    LLVMValueRef r = NULL, atomic = NULL;
    if (!strcmp(op, "load") && n >= 2) {
        r = atomic = LLVMBuildLoad2(b, ity, a[0], "");
        LLVMSetOrdering(r, for_load(ord));
        LLVMSetAlignment(r, size);
        LLVMSetAtomicSingleThread(r, single);
    } else if (!strcmp(op, "store") && n >= 3) {
        LLVMValueRef s = atomic = LLVMBuildStore(b, a[1], a[0]);
        LLVMSetOrdering(s, for_store(ord));
        LLVMSetAlignment(s, size);
        LLVMSetAtomicSingleThread(s, single);
    } else if (!strcmp(op, "exchange") && n >= 3) {
        r = atomic = LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpXchg, a[0], a[1], ord, single);
    } else if (!strcmp(op, "compare_exchange") && n >= 5) {
        LLVMValueRef expected = LLVMBuildLoad2(b, ity, a[1], "");
        LLVMAtomicOrdering fail = for_load(ordering(a[4]));
        if (fail == LLVMAtomicOrderingNotAtomic || fail == LLVMAtomicOrderingUnordered)
            fail = LLVMAtomicOrderingMonotonic;
        LLVMValueRef pair = atomic = LLVMBuildAtomicCmpXchg(b, a[0], expected, a[2], ord, fail, single);
        LLVMValueRef old = LLVMBuildExtractValue(b, pair, 0, "");
        LLVMValueRef ok = LLVMBuildExtractValue(b, pair, 1, "");
        LLVMBuildStore(b, old, a[1]);
        r = ok;
        LLVMTypeRef rt = LLVMTypeOf(call);
        if (rt != LLVMTypeOf(ok))
            r = LLVMBuildZExt(b, ok, rt, "");
    } else {
        bool fetch_first = !strncmp(op, "fetch_", 6);
        size_t len = strlen(op);
        bool fetch_last = len > 6 && !strcmp(op + len - 6, "_fetch");
        char name[32] = "";
        if (fetch_first)
            snprintf(name, sizeof name, "%s", op + 6);
        else if (fetch_last && len - 6 < sizeof name)
            snprintf(name, sizeof name, "%.*s", (int)(len - 6), op);
        for (size_t i = 0; name[0] && i < sizeof rmw_ops / sizeof rmw_ops[0]; i++)
            if (!strcmp(name, rmw_ops[i].name) && n >= 3) {
                LLVMValueRef old = atomic = LLVMBuildAtomicRMW(b, rmw_ops[i].op, a[0], a[1], ord, single);
                r = fetch_first ? old : mc_rmw_result(b, rmw_ops[i].op, old, a[1]);
                break;
            }
        if (!r)
            goto not_understood;
    }
    if (fences && acquires)
        fence(b, scope);
    mark_scope(atomic, scope);
    if (r && LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind)
        LLVMReplaceAllUsesWith(call, r);
    LLVMInstructionEraseFromParent(call);
    return CL_SUCCESS;
not_understood:
    mosaic_strbuf_printf(log, "error: cannot lower the atomic operation %s\n", callee);
    return CL_BUILD_PROGRAM_FAILURE;
}

static cl_int lower_calls(LLVMModuleRef m, mc_atomic_fence_fn fence, mosaic_strbuf *log)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    cl_int r = CL_SUCCESS;
    for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
        next = LLVMGetNextFunction(f);
        const char *name = LLVMGetValueName(f);
        bool opencl = !strncmp(name, "__opencl_atomic_", 16);
        if (!LLVMIsDeclaration(f) || (!opencl && strncmp(name, "__atomic_", 9)))
            continue;
        const char *op = name + (opencl ? 16 : 9);
        const char *us = strrchr(op, '_');
        if (!us)
            continue;
        unsigned size = (unsigned)atoi(us + 1);
        if (size != 1 && size != 2 && size != 4 && size != 8)
            continue;
        char opname[32];
        snprintf(opname, sizeof opname, "%.*s", (int)(us - op), op);
        LLVMUseRef u;
        while ((u = LLVMGetFirstUse(f))) {
            cl_int lowered = lower_call(b, LLVMGetUser(u), name, opname, opencl, size, fence, log);
            if (lowered != CL_SUCCESS) {
                r = lowered; /* the next functions are still lowered, or reported */
                break;
            }
        }
        if (!LLVMGetFirstUse(f))
            LLVMDeleteFunction(f);
    }
    LLVMDisposeBuilder(b);
    return r;
}

cl_int mc_lower_atomic_calls(LLVMModuleRef m, mosaic_strbuf *log)
{
    return lower_calls(m, NULL, log);
}

cl_int mc_lower_atomic_calls_fenced(LLVMModuleRef m, mc_atomic_fence_fn fence, mosaic_strbuf *log)
{
    return lower_calls(m, fence, log);
}
