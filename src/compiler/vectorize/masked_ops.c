/*
 * Masked vector memory operations, made cheaper after optimisation.
 *
 * One active lane.  In a vectorised loop of exactly one vector iteration (the
 * uniform copies of a sub-group region, regions.c), `if
 * (get_sub_group_local_id() == 0) ...` gives the loop vectoriser a constant
 * mask with one true lane, and it still emits llvm.masked.load/store/gather/
 * scatter: on x86 a scatter with one active lane costs a dozen
 * micro-operations where a scalar store costs one.  LLVM 16's InstCombine
 * folds only all-true and all-false masks, so this rewrites the one-lane
 * case: the lane's address (the vector pointer plus the lane's offset, or
 * the lane's pointer) is loaded or stored as a scalar, and a load's result is
 * the pass-through vector with that lane inserted.
 *
 * No active lane.  A gather or scatter costs about as much with an empty mask
 * as with a full one (on Zen 4 an empty 16-lane gather took some 30 cycles).
 * Empty masks are common where the vectoriser unrolled a work-item's short
 * loop: the tile loads of a stencil, `for (i = lid; i < 18 * 18; i += 256)`,
 * run a second iteration for the first 68 work-items only, so 11 of a 16x16
 * group's 32 gathers have no active lane.  Each gather or scatter whose mask
 * is not a constant is put under a branch on "any lane active", with the
 * masked operations of the same mask that follow it and the address
 * arithmetic only they use; a load's value on the other way is its
 * pass-through, which is what it returns with no active lane.
 *
 * Under that branch, a gather or scatter of the guard's mask whose lanes all
 * have one address (a splat: a value every work-item of a sub-group reads or
 * writes alike, under a mask of the lanes that run, as in the masked copies
 * of regions.c's active sets) is one scalar access: some lane is active, so
 * the address is read or written anyway; a gather's lanes get the value
 * loaded, a scatter stores its highest active lane's value (the last of the
 * writes, in LLVM's order of overlapping lanes).
 *
 * Every lane of a row.  The widener's rows (K.row, wfv.c) of a barrier
 * kernel load and store a tile that they transpose with gathers and
 * scatters whose lanes are all on: a BLAS library's direct SGEMM copies
 * A's slice into __local memory k-major, each work-item a float4 of a row
 * into four rows of the tile, which after joining (interleaved_access.c)
 * is two gathers of 8-byte elements and four scatters for each row of 8
 * work-items.  On Zen 4 a gather or scatter costs more than the loads and
 * stores of its lanes, and on Xeons whose microcode guards gathers (Gather
 * Data Sampling) much more.  So each scatter the widener marked as a row's
 * (mc_mark_row_access; joining keeps the mark), and each such gather from
 * memory other than __local, with every lane on and at most MAX_ROW_LANES
 * lanes, becomes a load or store a lane.  Gathers from a __local tile,
 * which a k loop reads column by column (CLBlast's XgemmDirectTN, joined
 * in pairs), stay; so do the loop vectoriser's gathers and those of
 * kernels widened whole (they run 64 lanes and more a step, rows 8 or 16).
 * Where the lanes' addresses lie at distances from lane 0 that are
 * constants or constant multiples of one scalar (mc_lane_addresses: a
 * float4 a work-item into a transposed tile, rows of a matrix), only lane
 * 0's is taken from the vector; the others are it plus their distance,
 * which an x86 address holds.
 *
 * The rewrites are exact, so they run on every kernel; a module without
 * such operations is left untouched.
 */
#include <string.h>

#include <llvm-c/Analysis.h>

#include "base/assert.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/vectorize.h"

typedef enum { M_LOAD, M_STORE, M_GATHER, M_SCATTER } masked_kind;

/* The most lanes of a row's gather or scatter done a lane at a time. */
#define MAX_ROW_LANES 16

/* The kind of a masked memory intrinsic call, and where its operands are. */
static bool masked_call(LLVMValueRef inst, masked_kind *kind)
{
    LLVMValueRef f = mc_called_function(inst);
    if (!f)
        return false;
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    static const struct { const char *prefix; masked_kind kind; } kinds[] = {
        { "llvm.masked.load.", M_LOAD },
        { "llvm.masked.store.", M_STORE },
        { "llvm.masked.gather.", M_GATHER },
        { "llvm.masked.scatter.", M_SCATTER },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strncmp(name, kinds[i].prefix, strlen(kinds[i].prefix))) {
            *kind = kinds[i].kind;
            return true;
        }
    return false;
}

/* Does a call of this kind load (masked load, gather)?  Its mask is then
 * operand 2 and its pass-through operand 3; a store's or scatter's mask is
 * operand 3. */
static bool loads_through(masked_kind kind) { return kind == M_LOAD || kind == M_GATHER; }

static LLVMValueRef mask_of(LLVMValueRef call, masked_kind kind)
{
    return LLVMGetOperand(call, loads_through(kind) ? 2 : 3);
}

/* The one true lane of a constant mask, or -1 (not constant, none or several). */
static int one_true_lane(LLVMValueRef mask)
{
    if (!LLVMIsConstant(mask) || LLVMGetTypeKind(LLVMTypeOf(mask)) != LLVMVectorTypeKind)
        return -1;
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(mask));
    int lane = -1;
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef e = LLVMGetAggregateElement(mask, i);
        if (!e || !LLVMIsAConstantInt(e))
            return -1; /* undef or poison lanes: leave the call alone */
        if (LLVMConstIntGetZExtValue(e)) {
            if (lane >= 0)
                return -1;
            lane = (int)i;
        }
    }
    return lane;
}

/* The alignment of byte `offset` from an address aligned to `align`. */
static unsigned offset_alignment(unsigned align, unsigned long long offset)
{
    while (align > 1 && offset % align)
        align /= 2;
    return align ? align : 1;
}

/* ---- lanes at constant distances --------------------------------------------- */

/* How deep lane_form and byte_distances follow operands. */
#define MAX_FORM_DEPTH 12
/* Lane parts beyond this are not followed (products of them stay exact). */
#define MAX_LANE_PART (1LL << 40)

/* An integer vector whose lane l is s + k[l] + m[l] * u: s the same in
 * every lane, its low z bits known zero (z is the width where s is 0),
 * k[l] and m[l] constants, u a scalar every lane shares (a row's leading
 * dimension: rows of a matrix apart) or NULL.  When no m[l] is nonzero
 * and every k[l] is in [0, 2^z) the sum carries nothing: lane l is
 * s | k[l], bit for bit, which shifts and masks keep apart.  `splat` is
 * the scalar of a plain splat (s itself), else NULL. */
typedef struct {
    unsigned z, width;
    long long k[MAX_ROW_LANES], m[MAX_ROW_LANES];
    LLVMValueRef u, splat;
} lane_form;

static bool has_u(const lane_form *f, unsigned n)
{
    for (unsigned l = 0; l < n; l++)
        if (f->m[l])
            return true;
    return false;
}

/* Is every k[l] in [0, 2^z), below the sign bit, with no multiple of u? */
static bool disjoint(const lane_form *f, unsigned n)
{
    if (has_u(f, n))
        return false;
    unsigned top = f->z < f->width - 1 ? f->z : f->width - 1;
    for (unsigned l = 0; l < n; l++)
        if (f->k[l] < 0 || (top < 62 && f->k[l] >= 1LL << top))
            return false;
    return true;
}

/* Is every k[l] a value of a signed integer of `width` bits? */
static bool fits_signed(const lane_form *f, unsigned n, unsigned width)
{
    for (unsigned l = 0; l < n; l++)
        if (width < 64 && (f->k[l] >= 1LL << (width - 1) || f->k[l] < -(1LL << (width - 1))))
            return false;
    return true;
}

/* Is f the same constant c in every lane (s is 0)? */
static bool constant_splat(const lane_form *f, unsigned n, unsigned width, long long *c)
{
    if (has_u(f, n))
        return false;
    for (unsigned l = 1; l < n; l++)
        if (f->k[l] != f->k[0])
            return false;
    *c = f->k[0];
    return f->z >= width;
}

static bool lane_form_of(LLVMValueRef v, unsigned n, lane_form *f, int depth);

/* f for binary operator v of forms a and b (n lanes, `width` bits). */
static bool binary_form(LLVMValueRef v, unsigned n, unsigned width, lane_form *a, lane_form *b, lane_form *f)
{
    long long c;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    unsigned za = a->z, zb = b->z;
    if (op == LLVMMul && (constant_splat(a, n, width, &c) || a->splat)) { /* c * x, u * x: x on the left */
        lane_form t = *a;
        *a = *b, *b = t, za = a->z, zb = b->z;
    }
    f->z = za < zb ? za : zb;
    f->splat = NULL;
    f->u = has_u(a, n) ? a->u : b->u;
    memset(f->m, 0, sizeof f->m);
    if (has_u(a, n) && has_u(b, n) && a->u != b->u)
        return false;
    switch (op) {
    case LLVMAdd: case LLVMSub:
        for (unsigned l = 0; l < n; l++) {
            f->k[l] = op == LLVMAdd ? a->k[l] + b->k[l] : a->k[l] - b->k[l];
            f->m[l] = op == LLVMAdd ? a->m[l] + b->m[l] : a->m[l] - b->m[l];
        }
        return true;
    case LLVMMul: case LLVMShl:
        if (op == LLVMMul && b->splat && !constant_splat(b, n, width, &c) && !has_u(a, n)) {
            /* x * u: the lanes' parts become multiples of u */
            f->u = b->splat, f->z = za + zb;
            for (unsigned l = 0; l < n; l++)
                f->m[l] = a->k[l], f->k[l] = 0;
            return true;
        }
        if (!constant_splat(b, n, width, &c) || c < 0 || (op == LLVMShl ? c >= (long long)width : c > MAX_LANE_PART))
            return false;
        c = op == LLVMShl ? 1LL << c : c;
        f->z = c ? za + (unsigned)__builtin_ctzll((unsigned long long)c) : width;
        for (unsigned l = 0; l < n; l++)
            if (__builtin_mul_overflow(a->k[l], c, &f->k[l]) || __builtin_mul_overflow(a->m[l], c, &f->m[l]))
                return false;
        return true;
    case LLVMOr: /* a sum where the lanes' parts sit below s's zeros and miss each other */
        if (constant_splat(a, n, width, &c) && a->k[0] == 0)
            return *f = *b, true;
        if (!disjoint(a, n) || !disjoint(b, n) || (zb < width && za < width))
            return false;
        f->z = za < width ? za : zb;
        for (unsigned l = 0; l < n; l++) {
            if (a->k[l] & b->k[l] || (f->z < 62 && (a->k[l] | b->k[l]) >= 1LL << f->z))
                return false;
            f->k[l] = a->k[l] | b->k[l];
        }
        return true;
    case LLVMLShr: case LLVMAShr: case LLVMUDiv: /* (s | k) >> c = (s >> c) | (k >> c) */
        if (!constant_splat(b, n, width, &c) || c < 0 || !disjoint(a, n))
            return false;
        if (op == LLVMUDiv) {
            if (c <= 0 || c & (c - 1))
                return false;
            c = __builtin_ctzll((unsigned long long)c);
        }
        if (c > (long long)za && za < width)
            return false;
        f->z = za < width ? za - (unsigned)c : width;
        for (unsigned l = 0; l < n; l++)
            f->k[l] = a->k[l] >> c;
        return true;
    case LLVMAnd: case LLVMURem: /* (s | k) & m = k & m where m is below s's zeros */
        if (!constant_splat(b, n, width, &c) || c < 0 || !disjoint(a, n))
            return false;
        if (op == LLVMURem) {
            if (c <= 0 || c & (c - 1))
                return false;
            c -= 1;
        }
        if (za < 62 && c >= 1LL << za)
            return false;
        f->z = width;
        for (unsigned l = 0; l < n; l++)
            f->k[l] = a->k[l] & c;
        return true;
    default:
        return false;
    }
}

/* The lane form of integer vector v (n lanes), or false. */
static bool lane_form_of(LLVMValueRef v, unsigned n, lane_form *f, int depth)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind || LLVMGetTypeKind(LLVMGetElementType(t)) != LLVMIntegerTypeKind ||
        LLVMGetVectorSize(t) != n || depth > MAX_FORM_DEPTH)
        return false;
    unsigned width = LLVMGetIntTypeWidth(LLVMGetElementType(t));
    if (width > 64)
        return false;
    memset(f, 0, sizeof *f);
    f->width = width;
    if (LLVMIsAConstantDataVector(v) || LLVMIsAConstantVector(v) || LLVMIsAConstantAggregateZero(v)) {
        f->z = width;
        for (unsigned l = 0; l < n; l++) {
            LLVMValueRef e = LLVMGetAggregateElement(v, l);
            if (!e || !LLVMIsAConstantInt(e))
                return false; /* (poison) */
            f->k[l] = LLVMConstIntGetSExtValue(e);
        }
        return true;
    }
    if (!LLVMIsAInstruction(v))
        return false;
    LLVMValueRef s = mc_splat_scalar(v);
    if (s) {
        f->splat = s;
        f->z = LLVMIsAConstantInt(s) ? width : mc_known_trailing_zeros(s);
        if (LLVMIsAConstantInt(s))
            for (unsigned l = 0; l < n; l++)
                f->k[l] = LLVMConstIntGetSExtValue(s);
        return true;
    }
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    lane_form a, b;
    f->width = width;
    if (op == LLVMFreeze) /* (an address is no poison) */
        return lane_form_of(LLVMGetOperand(v, 0), n, f, depth + 1);
    if (op == LLVMZExt || op == LLVMSExt || op == LLVMTrunc) {
        LLVMTypeRef from = LLVMGetElementType(LLVMTypeOf(LLVMGetOperand(v, 0)));
        unsigned wa = LLVMGetIntTypeWidth(from);
        if (!lane_form_of(LLVMGetOperand(v, 0), n, &a, depth + 1))
            return false;
        /* a constant's lanes are its values; else s | k widens or narrows bit for bit */
        bool constant = a.z >= wa;
        if (constant ? (op == LLVMZExt && !disjoint(&a, n)) || (op == LLVMTrunc && !fits_signed(&a, n, width))
                     : !disjoint(&a, n) || (op == LLVMTrunc && a.z > width))
            return false;
        *f = a;
        f->z = constant ? width : a.z, f->width = width, f->splat = NULL;
        return true;
    }
    if (!LLVMIsABinaryOperator(v) || !lane_form_of(LLVMGetOperand(v, 0), n, &a, depth + 1) ||
        !lane_form_of(LLVMGetOperand(v, 1), n, &b, depth + 1) || !binary_form(v, n, width, &a, &b, f))
        return false;
    for (unsigned l = 0; l < n; l++)
        if (f->k[l] > MAX_LANE_PART || f->k[l] < -MAX_LANE_PART || f->m[l] > MAX_LANE_PART || f->m[l] < -MAX_LANE_PART)
            return false;
    f->z = f->z < width ? f->z : width;
    return true;
}

/* Each lane's address less lane 0's: d[l] + du[l] * u bytes (u a 64-bit
 * scalar every lane shares, or NULL). */
typedef struct {
    long long d[MAX_ROW_LANES], du[MAX_ROW_LANES];
    LLVMValueRef u;
} distances;

/* The distances of vector of pointers p (n lanes): a splat, or
 * getelementptr of one with indices whose lanes differ by constants, or by
 * constant multiples of one scalar.  False when some distance is neither. */
static bool byte_distances(LLVMTargetDataRef td, LLVMValueRef p, unsigned n, distances *dist, int depth)
{
    long long *d = dist->d, *du = dist->du;
    if (LLVMGetTypeKind(LLVMTypeOf(p)) != LLVMVectorTypeKind || mc_splat_scalar(p)) {
        memset(dist, 0, sizeof *dist);
        return true; /* one address (a getelementptr's scalar base) */
    }
    if (!LLVMIsAInstruction(p) || depth > MAX_FORM_DEPTH)
        return false;
    /* (the address spaces are one flat memory on the CPU: a cast keeps the distances) */
    if (LLVMGetInstructionOpcode(p) == LLVMFreeze || LLVMGetInstructionOpcode(p) == LLVMAddrSpaceCast)
        return byte_distances(td, LLVMGetOperand(p, 0), n, dist, depth + 1);
    if (LLVMGetInstructionOpcode(p) != LLVMGetElementPtr ||
        !byte_distances(td, LLVMGetOperand(p, 0), n, dist, depth + 1))
        return false;
    LLVMTypeRef cur = LLVMGetGEPSourceElementType(p);
    for (unsigned i = 1, nops = (unsigned)LLVMGetNumOperands(p); i < nops; i++) {
        LLVMValueRef idx = LLVMGetOperand(p, i);
        long long size;
        if (i > 1 && LLVMGetTypeKind(cur) == LLVMStructTypeKind) { /* a field: one constant for every lane */
            LLVMValueRef e = LLVMIsAConstantInt(idx) ? idx : mc_splat_scalar(idx);
            if (!e || !LLVMIsAConstantInt(e))
                return false;
            cur = LLVMStructGetTypeAtIndex(cur, (unsigned)LLVMConstIntGetZExtValue(e));
            continue;
        }
        if (i > 1) {
            if (LLVMGetTypeKind(cur) != LLVMArrayTypeKind)
                return false;
            cur = LLVMGetElementType(cur);
        }
        size = (long long)LLVMABISizeOfType(td, cur);
        if (LLVMGetTypeKind(LLVMTypeOf(idx)) != LLVMVectorTypeKind)
            continue; /* the same in every lane */
        lane_form f;
        unsigned width = LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(idx)));
        /* a narrower index is sign-extended: a constant's lanes are its values, s | k extends bit for bit */
        if (!lane_form_of(idx, n, &f, depth + 1) ||
            (width < 64 && (f.z >= width ? !fits_signed(&f, n, width) : !disjoint(&f, n))))
            return false;
        if (has_u(&f, n)) {
            if (dist->u && dist->u != f.u)
                return false;
            dist->u = f.u;
        }
        for (unsigned l = 0; l < n; l++)
            d[l] += (f.k[l] - f.k[0]) * size, du[l] += (f.m[l] - f.m[0]) * size;
    }
    return true;
}

bool mc_lane_addresses(LLVMBuilderRef b, LLVMTargetDataRef td, LLVMValueRef ptrs, LLVMValueRef *out)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(ptrs));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(ptrs));
    distances dist;
    if (n > MAX_ROW_LANES || !byte_distances(td, ptrs, n, &dist, 0) || (dist.u && LLVMTypeOf(dist.u) != i64))
        return false;
    for (unsigned lane = 0; lane < n; lane++) {
        if (!lane) {
            out[lane] = LLVMBuildExtractElement(b, ptrs, LLVMConstInt(i32, lane, 0), "lane.ptr");
            continue;
        }
        LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)dist.d[lane], 1);
        if (dist.u && dist.du[lane])
            off = LLVMBuildAdd(b, LLVMBuildMul(b, dist.u, LLVMConstInt(i64, (unsigned long long)dist.du[lane], 1), ""),
                               off, "");
        out[lane] = LLVMBuildGEP2(b, LLVMInt8TypeInContext(c), out[0], &off, 1, "lane.ptr");
    }
    return true;
}

/* Lanes first .. last of call (all of them on) as scalar accesses; a
 * load's other lanes are its pass-through's. */
static void scalarize(LLVMBuilderRef b, LLVMTargetDataRef td, LLVMValueRef call, masked_kind kind, int first,
                      int last)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(call));
    LLVMPositionBuilderBefore(b, call);
    /* operands: load (ptr, align, mask, passthru), store (value, ptr, align, mask),
     * gather (ptrs, align, mask, passthru), scatter (values, ptrs, align, mask) */
    bool loads = loads_through(kind);
    LLVMValueRef value = loads ? NULL : LLVMGetOperand(call, 0), r = loads ? LLVMGetOperand(call, 3) : NULL;
    LLVMValueRef where = LLVMGetOperand(call, loads ? 0 : 1);
    LLVMTypeRef vec = LLVMTypeOf(loads ? call : value), elem = LLVMGetElementType(vec);
    LLVMValueRef lanes[MAX_ROW_LANES];
    bool every = (kind == M_GATHER || kind == M_SCATTER) && first < last && /* (a row's: every lane) */
                 mc_lane_addresses(b, td, where, lanes);
    for (int lane = first; lane <= last; lane++) {
        LLVMValueRef k = LLVMConstInt(LLVMInt32TypeInContext(c), (unsigned long long)lane, 0), ptr;
        unsigned align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(call, loads ? 1 : 2));
        if (every) {
            ptr = lanes[lane];
        } else if (kind == M_GATHER || kind == M_SCATTER) {
            ptr = LLVMBuildExtractElement(b, where, k, "lane.ptr");
        } else {
            ptr = LLVMBuildGEP2(b, elem, where, &k, 1, "lane.ptr");
            align = offset_alignment(align, (unsigned long long)lane * LLVMABISizeOfType(td, elem));
        }
        if (loads) {
            LLVMValueRef v = LLVMBuildLoad2(b, elem, ptr, "lane");
            LLVMSetAlignment(v, align);
            r = LLVMBuildInsertElement(b, r, v, k, "");
        } else {
            LLVMValueRef s = LLVMBuildStore(b, LLVMBuildExtractElement(b, value, k, "lane"), ptr);
            LLVMSetAlignment(s, align);
        }
    }
    if (loads)
        LLVMReplaceAllUsesWith(call, r);
    LLVMInstructionEraseFromParent(call);
}

bool mc_scalarize_one_lane_masked_ops(LLVMModuleRef m)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    bool changed = false;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb), next; inst; inst = next) {
                next = LLVMGetNextInstruction(inst);
                masked_kind kind;
                if (!LLVMIsACallInst(inst) || !masked_call(inst, &kind))
                    continue;
                int lane = one_true_lane(mask_of(inst, kind));
                if (lane < 0)
                    continue;
                scalarize(b, td, inst, kind, lane, lane);
                changed = true;
            }
    LLVMDisposeBuilder(b);
    return changed;
}

/* ---- every lane of a row ----------------------------------------------------- */

#define ROW_ACCESS "mosaic.row.access"

static unsigned row_access_kind(LLVMValueRef inst)
{
    return LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(inst)), ROW_ACCESS, strlen(ROW_ACCESS));
}

void mc_mark_row_access(LLVMValueRef call)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(call));
    LLVMSetMetadata(call, row_access_kind(call), LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0)));
}

bool mc_row_access(LLVMValueRef call) { return LLVMGetMetadata(call, row_access_kind(call)) != NULL; }

unsigned mc_row_accesses_by_lane(LLVMValueRef f)
{
    LLVMModuleRef m = LLVMGetGlobalParent(f);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb), next; inst; inst = next) {
            next = LLVMGetNextInstruction(inst);
            masked_kind kind;
            if (!LLVMIsACallInst(inst) || !masked_call(inst, &kind) || (kind != M_GATHER && kind != M_SCATTER) ||
                !mc_row_access(inst) || !mc_mask_all_on(mask_of(inst, kind)))
                continue;
            unsigned lanes = LLVMGetVectorSize(LLVMTypeOf(mask_of(inst, kind)));
            LLVMTypeRef ptrs = LLVMTypeOf(LLVMGetOperand(inst, kind == M_GATHER ? 0 : 1));
            if (lanes > MAX_ROW_LANES || (kind == M_GATHER && LLVMGetPointerAddressSpace(LLVMGetElementType(ptrs)) == 3))
                continue; /* (a tile's columns read in a k loop stay gathers) */
            scalarize(b, td, inst, kind, 0, (int)lanes - 1);
            n++;
        }
    LLVMDisposeBuilder(b);
    return n;
}

/* ---- no active lane ---------------------------------------------------------- */

/* Is inst a masked memory operation whose mask is `mask`? */
static bool under_mask(LLVMValueRef inst, LLVMValueRef mask)
{
    masked_kind kind;
    return inst && LLVMIsACallInst(inst) && masked_call(inst, &kind) && mask_of(inst, kind) == mask;
}

/* How far a guard reaches past its gather: what it looks at below is
 * quadratic in this (a block of an unrolled loop may hold thousands). */
enum { MAX_GUARDED = 64 };

/* The last instruction under gather's guard: the last operation under its
 * mask before anything with a side effect, reached through instructions
 * that compute only.  One of those whose value is needed after the guard
 * moves above it, or the guard ends before it when it needs a guarded value. */
static LLVMValueRef guarded_end(LLVMBuilderRef b, LLVMValueRef gather, LLVMValueRef mask)
{
    LLVMValueRef last = gather;
    int seen = 0;
    for (LLVMValueRef i = LLVMGetNextInstruction(gather); i && !LLVMIsATerminatorInst(i) && seen++ < MAX_GUARDED;
         i = LLVMGetNextInstruction(i)) {
        if (under_mask(i, mask))
            last = i;
        else if (!mc_computes_only(i))
            break;
    }
    /* a shorter guard leaves more values needed after it: look again */
    for (bool shortened = true; shortened;) {
        shortened = false;
        for (LLVMValueRef i = LLVMGetNextInstruction(gather), next; i && mc_in_range(i, gather, last); i = next) {
            next = LLVMGetNextInstruction(i);
            if (under_mask(i, mask) || !mc_used_outside(i, gather, last))
                continue;
            bool needs_guarded = false;
            for (int k = 0; k < LLVMGetNumOperands(i); k++)
                needs_guarded |= mc_in_range(LLVMGetOperand(i, k), gather, last);
            if (!needs_guarded) {
                mc_move_before(b, i, gather);
                continue;
            }
            while (!under_mask(LLVMGetPreviousInstruction(i), mask))
                i = LLVMGetPreviousInstruction(i);
            last = LLVMGetPreviousInstruction(i);
            shortened = true;
            break;
        }
    }
    return last;
}

/* v, when nothing uses it, and then the casts and masked load it came from. */
static void drop_if_unused(LLVMValueRef v)
{
    masked_kind kind;
    while (v && LLVMIsAInstruction(v) && !LLVMGetFirstUse(v) &&
           (LLVMIsACastInst(v) || (LLVMIsACallInst(v) && masked_call(v, &kind) && kind == M_LOAD))) {
        LLVMValueRef from = LLVMIsACastInst(v) ? LLVMGetOperand(v, 0) : NULL;
        LLVMInstructionEraseFromParent(v);
        v = from;
    }
}

/* The masked load under `mask` that vec is, through casts lane by lane, or NULL. */
static LLVMValueRef masked_load_of(LLVMValueRef vec, LLVMValueRef mask)
{
    while (LLVMIsACastInst(vec) && LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(vec, 0))) == LLVMVectorTypeKind)
        vec = LLVMGetOperand(vec, 0);
    masked_kind kind;
    return under_mask(vec, mask) && masked_call(vec, &kind) && kind == M_LOAD ? vec : NULL;
}

/* Where a scalar load of one active lane of masked load `load` reads what
 * the load read and only runs when some lane is active: after it in `body`
 * (the guarded block), or at body's start when the load is in the block
 * that branches there and nothing after it there writes memory; else NULL. */
static LLVMValueRef lane_load_place(LLVMValueRef load, LLVMBasicBlockRef body)
{
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(load);
    if (bb == body)
        return LLVMGetNextInstruction(load);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    bool to_body = false;
    for (unsigned s = 0; term && s < LLVMGetNumSuccessors(term); s++)
        to_body |= LLVMGetSuccessor(term, s) == body;
    if (!to_body || LLVMGetFirstInstruction(body) == NULL || LLVMIsAPHINode(LLVMGetFirstInstruction(body)))
        return NULL;
    masked_kind kind;
    for (LLVMValueRef i = LLVMGetNextInstruction(load); i != term; i = LLVMGetNextInstruction(i))
        if (!mc_computes_only(i) && !LLVMIsALoadInst(i) && !(masked_call(i, &kind) && loads_through(kind)))
            return NULL;
    return LLVMGetFirstInstruction(body);
}

/* Lane `lane` of vec, a masked load `load` through casts lane by lane, as a
 * scalar load and the casts, built where the builder is. */
static LLVMValueRef loaded_lane(LLVMBuilderRef b, LLVMValueRef vec, LLVMValueRef load, LLVMValueRef lane)
{
    LLVMTypeRef elem = LLVMGetElementType(LLVMTypeOf(vec));
    if (vec != load)
        return LLVMBuildCast(b, LLVMGetInstructionOpcode(vec), loaded_lane(b, LLVMGetOperand(vec, 0), load, lane), elem,
                             "");
    LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(load)));
    unsigned align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(load, 1));
    LLVMValueRef p = LLVMBuildGEP2(b, elem, LLVMGetOperand(load, 0), &lane, 1, "last.lane.ptr");
    LLVMValueRef v = LLVMBuildLoad2(b, elem, p, "last.lane.value");
    LLVMSetAlignment(v, offset_alignment(align, LLVMABISizeOfType(LLVMGetModuleDataLayout(m), elem)));
    return v;
}

/* In a block reached only when some lane of `mask` is active: gathers and
 * scatters of that mask to one address (a splat of pointers) become a scalar
 * load, broadcast to the lanes, or a scalar store of the highest active
 * lane's value (loaded alone when it was loaded under that mask). */
static void one_address_accesses(LLVMBuilderRef b, LLVMBasicBlockRef body, LLVMValueRef mask)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(mask));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    unsigned lanes = LLVMGetVectorSize(LLVMTypeOf(mask));
    for (LLVMValueRef i = LLVMGetFirstInstruction(body), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        masked_kind kind;
        if (!under_mask(i, mask) || !masked_call(i, &kind) || (kind != M_GATHER && kind != M_SCATTER))
            continue;
        LLVMValueRef ptr = mc_splat_scalar(LLVMGetOperand(i, kind == M_GATHER ? 0 : 1));
        if (!ptr)
            continue;
        unsigned align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(i, kind == M_GATHER ? 1 : 2));
        LLVMPositionBuilderBefore(b, i);
        if (kind == M_GATHER) {
            LLVMTypeRef vec = LLVMTypeOf(i);
            LLVMValueRef v = LLVMBuildLoad2(b, LLVMGetElementType(vec), ptr, "one.address");
            LLVMSetAlignment(v, align);
            LLVMValueRef all = LLVMBuildInsertElement(b, LLVMGetPoison(vec), v, LLVMConstInt(i32, 0, 0), "");
            all = LLVMBuildShuffleVector(b, all, LLVMGetPoison(vec), LLVMConstNull(LLVMVectorType(i32, lanes)), "");
            LLVMValueRef passthru = LLVMGetOperand(i, 3);
            if (!LLVMIsAUndefValue(passthru) && !LLVMIsAPoisonValue(passthru))
                all = LLVMBuildSelect(b, mask, all, passthru, "");
            LLVMReplaceAllUsesWith(i, all);
        } else {
            /* the highest active lane: lanes - 1 - (leading zeros of the mask's bits) */
            LLVMTypeRef bits = LLVMIntTypeInContext(c, lanes);
            unsigned ctlz_id = LLVMLookupIntrinsicID("llvm.ctlz", 9);
            LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(body));
            LLVMValueRef ctlz = LLVMGetIntrinsicDeclaration(m, ctlz_id, &bits, 1);
            LLVMTypeRef ctlz_ty = LLVMIntrinsicGetType(c, ctlz_id, &bits, 1);
            /* a value loaded under this mask: that lane alone is loaded */
            LLVMValueRef value = LLVMGetOperand(i, 0), load = masked_load_of(value, mask);
            LLVMValueRef place = load ? lane_load_place(load, body) : NULL;
            LLVMPositionBuilderBefore(b, place ? place : i);
            LLVMValueRef args[2] = {LLVMBuildBitCast(b, mask, bits, ""), LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0)};
            LLVMValueRef lead = LLVMBuildCall2(b, ctlz_ty, ctlz, args, 2, "");
            LLVMValueRef lane = LLVMBuildSub(b, LLVMConstInt(bits, lanes - 1, 0), lead, "last.lane");
            LLVMValueRef v = place ? loaded_lane(b, value, load, lane) : LLVMBuildExtractElement(b, value, lane, "");
            LLVMPositionBuilderBefore(b, i);
            LLVMSetAlignment(LLVMBuildStore(b, v, ptr), align);
            LLVMInstructionEraseFromParent(i);
            drop_if_unused(value);
            continue;
        }
        LLVMInstructionEraseFromParent(i);
    }
}

/* head: ..., gather..last, rest  becomes
 *   head: ..., br (any lane of mask), body, join
 *   body: gather..last (and what only they use), br join
 *   join: phis of the loads (their pass-through from head), rest
 * and returns join. */
static LLVMBasicBlockRef guard(LLVMBuilderRef b, LLVMValueRef gather, LLVMValueRef last, LLVMValueRef mask)
{
    LLVMBasicBlockRef head = LLVMGetInstructionParent(gather);
    LLVMValueRef f = LLVMGetBasicBlockParent(head);
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(gather));
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c, f, "any.lane");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c, f, "any.lane.done");
    LLVMMoveBasicBlockAfter(body, head);
    LLVMMoveBasicBlockAfter(join, body);

    LLVMValueRef after = LLVMGetNextInstruction(last);
    mc_move_to_end(b, gather, after, body);
    mc_move_to_end(b, after, NULL, join);
    LLVMPositionBuilderAtEnd(b, body);
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, head);
    unsigned lanes = LLVMGetVectorSize(LLVMTypeOf(mask));
    LLVMTypeRef bits = LLVMIntTypeInContext(c, lanes);
    LLVMValueRef any = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildBitCast(b, mask, bits, "mask.bits"),
                                     LLVMConstNull(bits), "any.lane");
    LLVMBuildCondBr(b, any, body, join);
    /* after the test is built: the mask may be a phi that this rebuilds (a
     * block that is its own loop) */
    LLVMValueRef term = LLVMGetBasicBlockTerminator(join);
    for (unsigned s = 0; term && s < LLVMGetNumSuccessors(term); s++)
        mc_retarget_phis(b, LLVMGetSuccessor(term, s), head, join);

    /* loads under the mask: their pass-through where no lane was active */
    LLVMValueRef first_after = LLVMGetFirstInstruction(join);
    for (LLVMValueRef i = LLVMGetFirstInstruction(body); i; i = LLVMGetNextInstruction(i)) {
        masked_kind kind;
        if (!LLVMIsACallInst(i) || !masked_call(i, &kind) || !loads_through(kind))
            continue;
        bool outside = false;
        for (LLVMUseRef u = LLVMGetFirstUse(i); u && !outside; u = LLVMGetNextUse(u))
            outside = LLVMGetInstructionParent(LLVMGetUser(u)) != body;
        if (!outside)
            continue;
        LLVMPositionBuilderBefore(b, first_after);
        LLVMValueRef phi = LLVMBuildPhi(b, LLVMTypeOf(i), "");
        LLVMValueRef values[2] = {i, LLVMGetOperand(i, 3)};
        LLVMBasicBlockRef from[2] = {body, head};
        LLVMAddIncoming(phi, values, from, 2);
        mc_replace_uses_outside(i, body, phi);
    }

    one_address_accesses(b, body, mask);

    /* what only the guarded operations use goes under the guard with them */
    LLVMValueRef stop = LLVMGetFirstInstruction(body);
    for (LLVMValueRef i = LLVMGetPreviousInstruction(LLVMGetBasicBlockTerminator(head)), prev; i; i = prev) {
        prev = LLVMGetPreviousInstruction(i);
        if (LLVMIsAPHINode(i) || !mc_computes_only(i) || !LLVMGetFirstUse(i))
            continue;
        bool only_body = true;
        for (LLVMUseRef u = LLVMGetFirstUse(i); u && only_body; u = LLVMGetNextUse(u))
            only_body = LLVMGetInstructionParent(LLVMGetUser(u)) == body;
        if (only_body) {
            mc_move_before(b, i, stop);
            stop = i;
        }
    }
    return join;
}

unsigned mc_skip_empty_gathers(LLVMValueRef f)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(f)));
    unsigned guarded = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f), next; bb; bb = next) {
        next = LLVMGetNextBasicBlock(bb);
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            masked_kind kind;
            if (!LLVMIsACallInst(i) || !masked_call(i, &kind) || (kind != M_GATHER && kind != M_SCATTER))
                continue;
            LLVMValueRef mask = mask_of(i, kind);
            if (LLVMIsConstant(mask) || LLVMGetTypeKind(LLVMTypeOf(mask)) != LLVMVectorTypeKind)
                continue;
            next = guard(b, i, guarded_end(b, i, mask), mask);
            guarded++;
            break;
        }
    }
    LLVMDisposeBuilder(b);
    MOSAIC_ASSERT(!guarded || !LLVMVerifyFunction(f, LLVMReturnStatusAction));
    return guarded;
}
