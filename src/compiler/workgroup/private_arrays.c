/*
 * Small private arrays made values, before the loops over work-items are
 * built (docs/compiler.md, "Finalize").
 *
 * SROA promotes a private array only when every access has a constant
 * index.  One read or written at an index known only at run time (a BLAS
 * library's epilogue: `float e[4] = {v.x, v.y, v.z, v.w}` stored element by
 * element up to a run-time bound, `acc[r]` in a loop over the tile's rows)
 * stays in memory, and then the whole kernel pays: the widener refuses any
 * alloca ("a private variable in memory"), so the kernel's other loops are
 * not widened either, and the accumulators it indexes live in memory
 * through the kernel's k loop.
 *
 * Here such an array, of at most MAX_SLOTS scalars of one type, whose
 * address only reaches loads, stores and memsets (through GEPs with any
 * indices), becomes one scalar variable a slot: an access at a constant
 * index touches its own slots; a load at a run-time index picks its value
 * from the slots it may read with a chain of selects on the index; a store
 * at a run-time index writes each slot it may hit, the stored value where
 * the index is that slot's and the slot's own value elsewhere.  mem2reg
 * then makes the variables values: the widener sees selects, and LLVM's
 * optimiser folds the chains where unrolling makes the index a constant.
 *
 * An index is known as far as its GEPs say: slot g * v + c (+ lane, for a
 * vector access), v the run-time part.  Only slots of that form are
 * candidates, so `acc[r]` of a float4 array compares r with each of its
 * rows once, not each element with 4r + lane.  An index outside the array
 * (undefined in C) reads the first candidate and writes nothing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "compiler/ir/llvm_passes.h"
#include "compiler/ir/log.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/passes.h"

/* The most scalars an array may have: a run-time index costs a select a
 * candidate slot, and a store at one as many stores. */
#define MAX_SLOTS 64
/* The most run-time indices one address may sum (a GEP chain's). */
#define MAX_TERMS 4

/* A place in the array: `offset` bytes plus index[k] * scale[k] bytes. */
typedef struct {
    int64_t offset;
    int nterms;
    LLVMValueRef index[MAX_TERMS];
    int64_t scale[MAX_TERMS];
} address;

typedef struct {
    LLVMValueRef inst; /* a load, a store or a memset */
    address at;
} access;

/* One array: its slots' type and size, its accesses, what goes with it. */
typedef struct {
    LLVMTargetDataRef td;
    LLVMTypeRef slot;
    int64_t slot_size, slots;
    access *acc;
    size_t nacc, cap_acc;
    LLVMValueRef *dead; /* GEPs and lifetime markers, in the order found */
    size_t ndead, cap_dead;
} array;

static bool push_access(array *a, LLVMValueRef inst, const address *at)
{
    if (a->nacc == a->cap_acc) {
        size_t cap = a->cap_acc ? 2 * a->cap_acc : 16;
        access *grown = realloc(a->acc, cap * sizeof *grown);
        if (!grown)
            return false;
        a->acc = grown, a->cap_acc = cap;
    }
    a->acc[a->nacc++] = (access){inst, *at};
    return true;
}

static bool push_dead(array *a, LLVMValueRef inst)
{
    if (a->ndead == a->cap_dead) {
        size_t cap = a->cap_dead ? 2 * a->cap_dead : 16;
        LLVMValueRef *grown = realloc(a->dead, cap * sizeof *grown);
        if (!grown)
            return false;
        a->dead = grown, a->cap_dead = cap;
    }
    a->dead[a->ndead++] = inst;
    return true;
}

/* A type a slot may have: a whole number of bytes, kept as one value. */
static bool slot_type(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: {
        unsigned bits = LLVMGetIntTypeWidth(t);
        return bits == 8 || bits == 16 || bits == 32 || bits == 64;
    }
    case LLVMHalfTypeKind: case LLVMFloatTypeKind: case LLVMDoubleTypeKind: case LLVMPointerTypeKind:
        return true;
    default:
        return false;
    }
}

/* The scalar type that t (arrays and vectors of it) is made of, or NULL. */
static LLVMTypeRef scalar_of(LLVMTypeRef t)
{
    while (LLVMGetTypeKind(t) == LLVMArrayTypeKind || LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    return slot_type(t) ? t : NULL;
}

/* How many slots an access of type t covers (a scalar 1, a vector its
 * lanes), 0 when its elements are not the array's slots. */
static unsigned lanes_of(const array *a, LLVMTypeRef t)
{
    if (t == a->slot)
        return 1;
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMGetElementType(t) == a->slot)
        return LLVMGetVectorSize(t);
    return 0;
}

static bool add_term(address *at, LLVMValueRef index, int64_t scale)
{
    if (LLVMIsAConstantInt(index)) {
        at->offset += LLVMConstIntGetSExtValue(index) * scale;
        return true;
    }
    for (int k = 0; k < at->nterms; k++)
        if (at->index[k] == index) {
            at->scale[k] += scale;
            return true;
        }
    if (at->nterms == MAX_TERMS)
        return false;
    at->index[at->nterms] = index, at->scale[at->nterms++] = scale;
    return true;
}

/* The address gep computes from its base's `at`; false when it leaves
 * what a slot index can say (a struct's field, a vector of pointers). */
static bool gep_address(const array *a, LLVMValueRef gep, address *at)
{
    if (LLVMGetTypeKind(LLVMTypeOf(gep)) != LLVMPointerTypeKind)
        return false;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
    unsigned n = LLVMGetNumIndices(gep);
    for (unsigned k = 0; k < n; k++) {
        if (k > 0) { /* steps into t */
            if (LLVMGetTypeKind(t) != LLVMArrayTypeKind && LLVMGetTypeKind(t) != LLVMVectorTypeKind)
                return false;
            t = LLVMGetElementType(t);
        }
        LLVMValueRef index = LLVMGetOperand(gep, k + 1);
        if (LLVMGetTypeKind(LLVMTypeOf(index)) != LLVMIntegerTypeKind ||
            !add_term(at, index, (int64_t)LLVMABISizeOfType(a->td, t)))
            return false;
    }
    return true;
}

static bool is_intrinsic(LLVMValueRef inst, const char *prefix)
{
    LLVMValueRef f = mc_called_function(inst);
    return f && mc_intrinsic_named(f, &prefix, 1);
}

/* Records every use of p, which points `at` into the array; false when
 * one is not a load, store, memset or lifetime marker (the address
 * escapes, or is used in a way a slot cannot be). */
static bool find_accesses(array *a, LLVMValueRef p, const address *at)
{
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        switch (LLVMGetInstructionOpcode(user)) {
        case LLVMGetElementPtr: {
            address next = *at;
            if (LLVMGetOperand(user, 0) != p || !gep_address(a, user, &next) || !push_dead(a, user) ||
                !find_accesses(a, user, &next))
                return false;
            break;
        }
        case LLVMLoad:
            if (LLVMGetVolatile(user) || LLVMGetOrdering(user) != LLVMAtomicOrderingNotAtomic ||
                !lanes_of(a, LLVMTypeOf(user)) || !push_access(a, user, at))
                return false;
            break;
        case LLVMStore:
            if (LLVMGetOperand(user, 0) == p || LLVMGetVolatile(user) ||
                LLVMGetOrdering(user) != LLVMAtomicOrderingNotAtomic ||
                !lanes_of(a, LLVMTypeOf(LLVMGetOperand(user, 0))) || !push_access(a, user, at))
                return false;
            break;
        case LLVMCall:
            if (is_intrinsic(user, "llvm.lifetime.")) {
                if (!push_dead(a, user))
                    return false;
            } else if (!is_intrinsic(user, "llvm.memset.") || LLVMGetOperand(user, 0) != p ||
                       !LLVMIsAConstantInt(LLVMGetOperand(user, 1)) ||
                       LLVMConstIntGetZExtValue(LLVMGetOperand(user, 1)) != 0 ||
                       !LLVMIsAConstantInt(LLVMGetOperand(user, 2)) ||
                       LLVMConstIntGetZExtValue(LLVMGetOperand(user, 3)) != 0 || !push_access(a, user, at)) {
                return false; /* only memsets of zeros of a known length, not volatile */
            }
            break;
        default:
            return false;
        }
    }
    return true;
}

/* The first slot an access covers when it has no run-time index: false
 * when its slots are not all in the array. */
static bool constant_slot(const array *a, const address *at, int64_t covered, int64_t *first)
{
    if (at->offset % a->slot_size)
        return false;
    *first = at->offset / a->slot_size;
    return *first >= 0 && *first + covered <= a->slots;
}

/* Is every access of the array one that slots can take? */
static bool accesses_fit(const array *a)
{
    for (size_t i = 0; i < a->nacc; i++) {
        const access *x = &a->acc[i];
        LLVMValueRef inst = x->inst;
        int64_t first;
        if (LLVMIsACallInst(inst)) { /* a memset: constant place and length */
            int64_t bytes = (int64_t)LLVMConstIntGetZExtValue(LLVMGetOperand(inst, 2));
            if (x->at.nterms || bytes % a->slot_size || !constant_slot(a, &x->at, bytes / a->slot_size, &first))
                return false;
            continue;
        }
        LLVMTypeRef t = LLVMIsALoadInst(inst) ? LLVMTypeOf(inst) : LLVMTypeOf(LLVMGetOperand(inst, 0));
        if (!x->at.nterms) {
            if (!constant_slot(a, &x->at, lanes_of(a, t), &first))
                return false;
            continue;
        }
        if (lanes_of(a, t) > a->slots || x->at.offset % a->slot_size)
            return false;
        for (int k = 0; k < x->at.nterms; k++)
            if (x->at.scale[k] <= 0 || x->at.scale[k] % a->slot_size)
                return false;
    }
    return true;
}

/* ---- the rewrite ----------------------------------------------------------------- */

static int64_t gcd(int64_t x, int64_t y)
{
    while (y) {
        int64_t r = x % y;
        x = y, y = r;
    }
    return x;
}

static int64_t floor_div(int64_t x, int64_t y) { return x / y - (x % y != 0 && (x < 0) != (y < 0)); }

/* Where an access with a run-time index is: slot g * v + first (+ lane);
 * is[q - qlo] caches the test v == q.  An access covers at most the
 * array's slots, so q takes fewer than 2 * MAX_SLOTS + 2 values. */
typedef struct {
    LLVMValueRef v;
    int64_t g, first, qlo;
    LLVMValueRef is[2 * MAX_SLOTS + 2];
    size_t nis;
} run_time_slot;

/* v and g of `at`, v built before the access (b is there). */
static void run_time_place(LLVMBuilderRef b, const array *a, const address *at, unsigned lanes, run_time_slot *r)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(a->slot));
    r->g = 0;
    for (int k = 0; k < at->nterms; k++)
        r->g = gcd(r->g, at->scale[k] / a->slot_size);
    r->first = at->offset / a->slot_size;
    r->v = NULL;
    for (int k = 0; k < at->nterms; k++) {
        /* a GEP's index is sign-extended (or truncated) to the pointer's width */
        LLVMValueRef x = at->index[k];
        unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(x));
        if (bits != 64)
            x = bits < 64 ? LLVMBuildSExt(b, x, i64, "") : LLVMBuildTrunc(b, x, i64, "");
        int64_t times = at->scale[k] / a->slot_size / r->g;
        if (times != 1)
            x = LLVMBuildMul(b, x, LLVMConstInt(i64, (unsigned long long)times, 0), "");
        r->v = r->v ? LLVMBuildAdd(b, r->v, x, "") : x;
    }
    r->qlo = floor_div(-r->first - (int64_t)(lanes - 1), r->g);
    int64_t qhi = floor_div(a->slots - 1 - r->first, r->g);
    r->nis = qhi >= r->qlo ? (size_t)(qhi - r->qlo + 1) : 0;
    MOSAIC_ASSERT(r->nis <= sizeof r->is / sizeof *r->is);
    memset(r->is, 0, sizeof r->is);
}

/* Is slot j where lane `lane` of the access may be (v == *q then)? */
static bool candidate(const run_time_slot *r, int64_t j, unsigned lane, int64_t *q)
{
    int64_t d = j - r->first - (int64_t)lane;
    *q = d / r->g;
    return d % r->g == 0 && *q >= r->qlo && (size_t)(*q - r->qlo) < r->nis;
}

/* The test v == q (made once an access). */
static LLVMValueRef index_is(LLVMBuilderRef b, run_time_slot *r, int64_t q)
{
    LLVMValueRef *is = &r->is[q - r->qlo];
    if (!*is)
        *is = LLVMBuildICmp(b, LLVMIntEQ, r->v, LLVMConstInt(LLVMTypeOf(r->v), (unsigned long long)q, 1), "at");
    return *is;
}

/* Lane `lane` of a load: its slot's value (the first candidate's unless
 * the index names another). */
static LLVMValueRef read_lane(LLVMBuilderRef b, const array *a, LLVMValueRef *slot, run_time_slot *r, int64_t first,
                              unsigned lane)
{
    if (!r)
        return LLVMBuildLoad2(b, a->slot, slot[first + lane], "");
    LLVMValueRef pick = NULL;
    int64_t q;
    for (int64_t j = 0; j < a->slots; j++) {
        if (!candidate(r, j, lane, &q))
            continue;
        LLVMValueRef e = LLVMBuildLoad2(b, a->slot, slot[j], "");
        pick = pick ? LLVMBuildSelect(b, index_is(b, r, q), e, pick, "") : e;
    }
    return pick ? pick : LLVMGetPoison(a->slot);
}

/* Lane `lane` of a store: x into its slot. */
static void write_lane(LLVMBuilderRef b, const array *a, LLVMValueRef *slot, run_time_slot *r, int64_t first,
                       unsigned lane, LLVMValueRef x)
{
    if (!r) {
        LLVMBuildStore(b, x, slot[first + lane]);
        return;
    }
    int64_t q;
    for (int64_t j = 0; j < a->slots; j++)
        if (candidate(r, j, lane, &q))
            LLVMBuildStore(b, LLVMBuildSelect(b, index_is(b, r, q), x, LLVMBuildLoad2(b, a->slot, slot[j], ""), ""),
                           slot[j]);
}

/* One access made accesses of the slots, before it; it is deleted. */
static void rewrite_access(LLVMBuilderRef b, const array *a, LLVMValueRef *slot, const access *x)
{
    LLVMValueRef inst = x->inst;
    LLVMPositionBuilderBefore(b, inst);
    int64_t first = 0;
    if (LLVMIsACallInst(inst)) { /* a memset of zeros */
        constant_slot(a, &x->at, 0, &first);
        int64_t n = (int64_t)LLVMConstIntGetZExtValue(LLVMGetOperand(inst, 2)) / a->slot_size;
        for (int64_t j = 0; j < n; j++)
            LLVMBuildStore(b, LLVMConstNull(a->slot), slot[first + j]);
        LLVMInstructionEraseFromParent(inst);
        return;
    }
    bool load = LLVMIsALoadInst(inst);
    LLVMTypeRef t = load ? LLVMTypeOf(inst) : LLVMTypeOf(LLVMGetOperand(inst, 0));
    unsigned lanes = lanes_of(a, t);
    run_time_slot place, *r = NULL;
    if (x->at.nterms) {
        run_time_place(b, a, &x->at, lanes, &place);
        r = &place;
    } else {
        constant_slot(a, &x->at, lanes, &first);
    }
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(t));
    if (load) {
        LLVMValueRef v = lanes == 1 && t == a->slot ? NULL : LLVMGetPoison(t);
        for (unsigned l = 0; l < lanes; l++) {
            LLVMValueRef e = read_lane(b, a, slot, r, first, l);
            v = v ? LLVMBuildInsertElement(b, v, e, LLVMConstInt(i32, l, 0), "") : e;
        }
        if (LLVMIsAInstruction(v))
            mc_copy_name(v, inst);
        LLVMReplaceAllUsesWith(inst, v);
    } else {
        LLVMValueRef stored = LLVMGetOperand(inst, 0);
        for (unsigned l = 0; l < lanes; l++) {
            LLVMValueRef e = t == a->slot ? stored : LLVMBuildExtractElement(b, stored, LLVMConstInt(i32, l, 0), "");
            write_lane(b, a, slot, r, first, l, e);
        }
    }
    LLVMInstructionEraseFromParent(inst);
}

/* The array `alloca` made a variable a slot. */
static void rewrite(LLVMBuilderRef b, array *a, LLVMValueRef alloca)
{
    LLVMValueRef slot[MAX_SLOTS];
    LLVMPositionBuilderBefore(b, alloca);
    const char *name = LLVMGetValueName(alloca);
    for (int64_t j = 0; j < a->slots; j++) {
        slot[j] = LLVMBuildAlloca(b, a->slot, name);
        LLVMSetAlignment(slot[j], LLVMABIAlignmentOfType(a->td, a->slot));
    }
    for (size_t i = 0; i < a->nacc; i++)
        rewrite_access(b, a, slot, &a->acc[i]);
    /* users before what they use: markers and GEPs were found from the alloca outwards */
    for (size_t i = a->ndead; i-- > 0;)
        LLVMInstructionEraseFromParent(a->dead[i]);
    LLVMInstructionEraseFromParent(alloca);
}

/* Can `alloca` be slots: a static array of at most MAX_SLOTS scalars of
 * one type, accessed only in ways slots can take?  Fills a. */
static bool takes_slots(array *a, LLVMValueRef alloca)
{
    LLVMValueRef count = LLVMGetOperand(alloca, 0);
    LLVMTypeRef t = LLVMGetAllocatedType(alloca);
    LLVMTypeRef s = scalar_of(t);
    if (!LLVMIsAConstantInt(count) || LLVMConstIntGetZExtValue(count) != 1 || !s ||
        LLVMABISizeOfType(a->td, s) != LLVMStoreSizeOfType(a->td, s))
        return false;
    a->slot = s;
    a->slot_size = (int64_t)LLVMABISizeOfType(a->td, s);
    a->slots = (int64_t)LLVMABISizeOfType(a->td, t) / a->slot_size;
    if (a->slots > MAX_SLOTS || (int64_t)LLVMABISizeOfType(a->td, t) % a->slot_size)
        return false;
    return find_accesses(a, alloca, &(address){0}) && accesses_fit(a);
}

/* The arrays of fn's entry block made slots; how many.  (When memory runs
 * out while an array's accesses are listed, the array stays as it is.) */
static unsigned arrays_to_slots(LLVMTargetDataRef td, LLVMValueRef fn)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(fn)));
    unsigned n = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(entry), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (!LLVMIsAAllocaInst(i))
            continue;
        array a = {.td = td};
        if (takes_slots(&a, i))
            rewrite(b, &a, i), n++;
        free(a.acc);
        free(a.dead);
    }
    LLVMDisposeBuilder(b);
    return n;
}

cl_int mc_private_arrays_to_values(LLVMModuleRef m, LLVMTargetMachineRef tm, mc_kernel_build *kbs, size_t nk,
                                   unsigned *arrays, mosaic_strbuf *log)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    LLVMValueRef *changed = malloc((nk ? nk : 1) * sizeof *changed);
    size_t n = 0;
    if (!changed)
        return mc_out_of_memory(log);
    for (size_t k = 0; k < nk; k++) {
        arrays[k] = arrays_to_slots(td, kbs[k].body);
        if (arrays[k])
            changed[n++] = kbs[k].body;
    }
    cl_int r = n ? mc_run_passes_on(m, tm, changed, n, "function(mem2reg)", log) : CL_SUCCESS;
    free(changed);
    return r;
}
