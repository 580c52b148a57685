/*
 * Gathers and scatters that touch neighbouring elements, joined.
 *
 * Widened work-items read a float4 each as four accesses, one per component,
 * and a transposed tile as one gather per column: CLBlast's XgemmDirectTN
 * copies its tiles with four strided loads and four scatters a float4
 * (`alm[kg * 33 + mg * 4 + c] = avec.c`), and its k loop, unrolled by two,
 * reads column kg and column kg + 1 of A's tile with two gathers whose
 * lanes are 132 floats apart.  A gather costs about a load per lane, a
 * scatter more, however close the lanes' addresses are.
 *
 * After optimisation, the accesses of one block with all lanes on (gathers,
 * scatters, and the widener's loads of every k-th element) are grouped by
 * address: each lane's address is written as a sum of values times
 * constants (linear below), and members whose lanes differ by the same
 * constant, one element apart, make a run.  A run of k members becomes:
 *   - where each lane's k elements follow the last lane's (a float4 per
 *     work-item), one load of k times the lanes and k shuffles, or k
 *     shuffles that interleave the values and one store;
 *   - otherwise, for loads of 4-byte elements, one gather of 8-byte
 *     elements per two members, and two shuffles.
 * Loads are joined where the first member is, so no store may come between
 * them; stores where the last is, so no other access may.  InstCombine then
 * folds the shuffles of a copy (wide load, deinterleave, interleave, wide
 * store) into the load and store.
 *
 * Sums are split where they make addresses: 64-bit ones (addresses do not
 * wrap round), `or`s of bits known to be zero (mg * 4 | 1), and sums and
 * multiples inside a sign extension, which is OpenCL C's int arithmetic:
 * assumed, as in wfv.c, not to wrap (it would take an index past 2^31).
 * Inside a zero extension (unsigned arithmetic, which may wrap) only the
 * `or`s are split; other values stay whole, and two members match only if
 * they extend the same one.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>

#include "base/assert.h"
#include "compiler/ir/util.h"
#include "compiler/vectorize/vectorize.h"

/* ---- addresses as sums ------------------------------------------------------------- */

typedef enum { WIDE, SIGN_EXTENDED, ZERO_EXTENDED } extension;

/* coeff times `value` (its lane `lane` when it is a vector, else lane -1),
 * extended to 64 bits as `ext` says. */
typedef struct {
    LLVMValueRef value;
    int lane;
    extension ext;
    long long coeff;
} term;

#define MAX_TERMS 8
#define MAX_DEPTH 16
typedef struct {
    term t[MAX_TERMS];
    int n;
    long long constant;
    bool ok; /* false: more terms than fit */
} linear;

static void add_term(linear *l, LLVMValueRef v, int lane, extension ext, long long coeff)
{
    for (int i = 0; i < l->n; i++)
        if (l->t[i].value == v && l->t[i].lane == lane && l->t[i].ext == ext) {
            l->t[i].coeff += coeff;
            return;
        }
    if (l->n == MAX_TERMS) {
        l->ok = false;
        return;
    }
    l->t[l->n++] = (term){v, lane, ext, coeff};
}

static long long constant_value(LLVMValueRef c, extension ext)
{
    return ext == ZERO_EXTENDED ? (long long)LLVMConstIntGetZExtValue(c) : LLVMConstIntGetSExtValue(c);
}

static bool is_vector(LLVMValueRef v) { return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind; }

static long long type_bytes(LLVMTargetDataRef td, LLVMTypeRef t) { return (long long)LLVMABISizeOfType(td, t); }

static void linear_of(LLVMTargetDataRef td, LLVMValueRef v, int lane, extension ext, long long scale, linear *l,
                      int depth);

/* The constant element `lane` of a constant vector c, when it is one
 * from 0 up (below 2^62). */
static bool small_element(LLVMValueRef c, int lane, long long *e)
{
    if (!LLVMIsAConstantDataVector(c) && !LLVMIsAConstantVector(c) && !LLVMIsAConstantAggregateZero(c))
        return false;
    LLVMValueRef x = LLVMGetAggregateElement(c, (unsigned)lane);
    if (!x || !LLVMIsAConstantInt(x) || LLVMConstIntGetZExtValue(x) >= 1ull << 62)
        return false;
    *e = (long long)LLVMConstIntGetZExtValue(x);
    return true;
}

/* Lane `lane` of v = x >> k or x & m, where x = s + c (or s | c) is a value
 * every lane shares (a splat) plus constants c below s's known zero bits:
 * the lanes of a row, `(lid + lane) / 4` and `% 4` of a tile copied in steps
 * of the group (wfv_blocks.c).  Adding c carries nothing into s's bits, so
 * the lane's value is a part every lane shares (s >> k, s & m) plus c >> k
 * (c & m), with no carry between them: *part is the latter; returns 1 when
 * the shared part may be other than 0, 0 when it is 0, -1 when v is not
 * of that form. */
static int lane_split(LLVMValueRef v, int lane, long long *part)
{
    LLVMValueRef x = LLVMGetOperand(v, 0);
    long long kv, k0; /* the shift or mask: the same in every lane */
    if (!small_element(LLVMGetOperand(v, 1), lane, &kv) || !small_element(LLVMGetOperand(v, 1), 0, &k0) || kv != k0 ||
        !LLVMIsAInstruction(x) ||
        (LLVMGetInstructionOpcode(x) != LLVMAdd && LLVMGetInstructionOpcode(x) != LLVMOr))
        return -1; /* (an or is a sum below: its constants are below s's zero bits) */
    LLVMValueRef s = LLVMGetOperand(x, 0), c = LLVMGetOperand(x, 1);
    long long ce;
    if (!small_element(c, lane, &ce)) {
        LLVMValueRef t = s;
        s = c, c = t;
        if (!small_element(c, lane, &ce))
            return -1;
    }
    LLVMValueRef shared = mc_splat_scalar(s);
    if (!shared)
        return -1;
    unsigned z = mc_known_trailing_zeros(shared);
    if (z > 62 || ce >= 1ll << z)
        return -1;
    if (LLVMGetInstructionOpcode(v) == LLVMLShr) {
        if (kv >= 63)
            return -1;
        *part = ce >> kv;
        return 1;
    }
    *part = ce & kv;
    return kv >= 1ll << z; /* s & m is 0 where m is below s's zero bits */
}

/* The byte offset a getelementptr adds (its base not included). */
static void gep_offset(LLVMTargetDataRef td, LLVMValueRef gep, int lane, long long scale, linear *l, int depth)
{
    LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
    for (unsigned k = 1, n = (unsigned)LLVMGetNumOperands(gep); k < n && l->ok; k++) {
        LLVMValueRef idx = LLVMGetOperand(gep, k);
        unsigned width = LLVMGetIntTypeWidth(is_vector(idx) ? LLVMGetElementType(LLVMTypeOf(idx)) : LLVMTypeOf(idx));
        extension ext = width < 64 ? SIGN_EXTENDED : WIDE; /* indices are sign-extended */
        if (k > 1 && LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            if (!LLVMIsAConstantInt(idx)) {
                l->ok = false;
                return;
            }
            unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
            l->constant += scale * (long long)LLVMOffsetOfElement(td, t, field);
            t = LLVMStructGetTypeAtIndex(t, field);
            continue;
        }
        if (k > 1) {
            if (LLVMGetTypeKind(t) != LLVMArrayTypeKind && LLVMGetTypeKind(t) != LLVMVectorTypeKind) {
                l->ok = false;
                return;
            }
            t = LLVMGetElementType(t);
        }
        linear_of(td, idx, lane, ext, scale * type_bytes(td, t), l, depth + 1);
    }
}

/* Adds scale times v (lane `lane` of it), extended to 64 bits as ext says, to l. */
static void linear_of(LLVMTargetDataRef td, LLVMValueRef v, int lane, extension ext, long long scale, linear *l,
                      int depth)
{
    if (!l->ok || !scale)
        return;
    if (!is_vector(v))
        lane = -1;
    if (LLVMIsAConstantInt(v)) {
        l->constant += scale * constant_value(v, ext);
        return;
    }
    if (lane >= 0 && (LLVMIsAConstantDataVector(v) || LLVMIsAConstantVector(v) || LLVMIsAConstantAggregateZero(v))) {
        LLVMValueRef e = LLVMGetAggregateElement(v, (unsigned)lane);
        if (e && LLVMIsAConstantInt(e))
            l->constant += scale * constant_value(e, ext);
        else
            l->ok = false;
        return;
    }
    if (!LLVMIsAInstruction(v) || depth > MAX_DEPTH) {
        add_term(l, v, lane, ext, scale);
        return;
    }
    LLVMValueRef splat = mc_splat_scalar(v);
    if (splat) {
        linear_of(td, splat, -1, ext, scale, l, depth + 1);
        return;
    }
    LLVMValueRef a = LLVMGetNumOperands(v) > 0 ? LLVMGetOperand(v, 0) : NULL;
    LLVMValueRef b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMOr:
        if (!mc_or_is_add(v))
            break;
        linear_of(td, a, lane, ext, scale, l, depth + 1);
        linear_of(td, b, lane, ext, scale, l, depth + 1);
        return;
    /* 64-bit sums and multiples, and int ones (sign-extended) */
    case LLVMAdd: case LLVMSub:
        if (ext == ZERO_EXTENDED)
            break;
        linear_of(td, a, lane, ext, scale, l, depth + 1);
        linear_of(td, b, lane, ext, LLVMGetInstructionOpcode(v) == LLVMSub ? -scale : scale, l, depth + 1);
        return;
    case LLVMMul: case LLVMShl:
        if (ext == ZERO_EXTENDED || !LLVMIsAConstantInt(b) || LLVMConstIntGetSExtValue(b) < 0 ||
            LLVMConstIntGetSExtValue(b) > (LLVMGetInstructionOpcode(v) == LLVMShl ? 30 : 1LL << 30))
            break;
        linear_of(td, a, lane, ext,
                  LLVMGetInstructionOpcode(v) == LLVMShl ? scale * (1LL << LLVMConstIntGetSExtValue(b))
                                                         : scale * LLVMConstIntGetSExtValue(b),
                  l, depth + 1);
        return;
    case LLVMSExt: /* a zero-extended value is also its sign extension */
        if (ext == ZERO_EXTENDED)
            break;
        linear_of(td, a, lane, SIGN_EXTENDED, scale, l, depth + 1);
        return;
    case LLVMZExt:
        linear_of(td, a, lane, ZERO_EXTENDED, scale, l, depth + 1);
        return;
    case LLVMGetElementPtr:
        linear_of(td, a, lane, WIDE, scale, l, depth + 1);
        gep_offset(td, v, lane, scale, l, depth);
        return;
    case LLVMLShr: case LLVMAnd: {
        long long part;
        int common = lane >= 0 ? lane_split(v, lane, &part) : -1;
        if (common < 0)
            break;
        if (common)
            add_term(l, v, -1, ext, scale); /* the part every lane shares */
        l->constant += scale * part;
        return;
    }
    default:
        break;
    }
    add_term(l, v, lane, ext, scale);
}

/* Is a - b a constant (the same values times the same factors)?  It is *d. */
static bool constant_difference(const linear *a, const linear *b, long long *d)
{
    if (!a->ok || !b->ok)
        return false;
    int live_a = 0, live_b = 0;
    for (int i = 0; i < a->n; i++) {
        if (!a->t[i].coeff)
            continue;
        live_a++;
        bool found = false;
        for (int j = 0; j < b->n && !found; j++)
            found = b->t[j].value == a->t[i].value && b->t[j].lane == a->t[i].lane && b->t[j].ext == a->t[i].ext &&
                    b->t[j].coeff == a->t[i].coeff;
        if (!found)
            return false;
    }
    for (int j = 0; j < b->n; j++)
        live_b += b->t[j].coeff != 0;
    if (live_a != live_b)
        return false;
    *d = a->constant - b->constant;
    return true;
}

/* ---- the accesses ------------------------------------------------------------------ */

typedef enum { GATHER, STRIDED_LOAD, SCATTER } access_kind;

/* A gather, a scatter, or a masked load of every k-th element (wfv.c's
 * interleaved_load) and the shuffle that picks them. */
typedef struct {
    access_kind kind;
    LLVMValueRef inst, pick;
    LLVMValueRef value;  /* what a load gives, what a scatter stores */
    LLVMTypeRef elem;
    unsigned lanes, align;
    long long size;
    linear *lane;        /* each lane's address */
    int group, offset;   /* run (-1: none) and elements from its first member */
} access;


/* A masked load whose mask is on exactly at multiples of k, all lanes, read
 * only by a shuffle of those elements: its k. */
static unsigned strided_load(LLVMValueRef inst, LLVMValueRef *pick)
{
    if (!mc_calls_intrinsic(inst, "llvm.masked.load."))
        return 0;
    LLVMValueRef mask = LLVMGetOperand(inst, 2);
    LLVMUseRef u = LLVMGetFirstUse(inst);
    if (!u || LLVMGetNextUse(u) || !LLVMIsAShuffleVectorInst(LLVMGetUser(u)) || !LLVMIsConstant(mask))
        return 0;
    *pick = LLVMGetUser(u);
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(mask)), lanes = LLVMGetNumMaskElements(*pick);
    if (!lanes || n % lanes || LLVMGetOperand(*pick, 0) != inst || !LLVMIsUndef(LLVMGetOperand(*pick, 1)))
        return 0;
    unsigned k = n / lanes;
    for (unsigned j = 0; j < n; j++) {
        LLVMValueRef e = LLVMGetAggregateElement(mask, j);
        if (!e || !LLVMIsAConstantInt(e) || (LLVMConstIntGetZExtValue(e) != 0) != (j % k == 0))
            return 0;
    }
    for (unsigned i = 0; i < lanes; i++)
        if (LLVMGetMaskValue(*pick, i) != (int)(i * k))
            return 0;
    return k;
}

#define MAX_LANES 64
#define MAX_RUN 8
#define MAX_STRETCH 256 /* accesses compared with each other, at most */

/* inst as an access of the given kinds (loads or stores), or false. */
static bool read_access(LLVMTargetDataRef td, LLVMValueRef inst, bool stores, access *a)
{
    memset(a, 0, sizeof *a);
    a->group = -1;
    unsigned k = 0;
    LLVMValueRef ptrs = NULL, scalar = NULL;
    if (!stores && mc_calls_intrinsic(inst, "llvm.masked.gather.") && mc_mask_all_on(LLVMGetOperand(inst, 2))) {
        a->kind = GATHER, a->value = inst, ptrs = LLVMGetOperand(inst, 0);
        a->align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(inst, 1));
    } else if (!stores && (k = strided_load(inst, &a->pick)) > 1) {
        a->kind = STRIDED_LOAD, a->value = a->pick, scalar = LLVMGetOperand(inst, 0);
        a->align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(inst, 1));
    } else if (stores && mc_calls_intrinsic(inst, "llvm.masked.scatter.") && mc_mask_all_on(LLVMGetOperand(inst, 3))) {
        a->kind = SCATTER, a->value = LLVMGetOperand(inst, 0), ptrs = LLVMGetOperand(inst, 1);
        a->align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(inst, 2));
    } else {
        return false;
    }
    a->inst = inst;
    a->elem = LLVMGetElementType(LLVMTypeOf(a->value));
    a->lanes = LLVMGetVectorSize(LLVMTypeOf(a->value));
    a->size = type_bytes(td, a->elem);
    LLVMTypeKind tk = LLVMGetTypeKind(a->elem);
    if (a->lanes < 2 || a->lanes > MAX_LANES || a->align == 0 || (a->size != 4 && a->size != 8) ||
        (tk != LLVMFloatTypeKind && tk != LLVMDoubleTypeKind && tk != LLVMIntegerTypeKind) ||
        type_bytes(td, a->elem) * 8 != (long long)LLVMSizeOfTypeInBits(td, a->elem))
        return false;
    a->lane = calloc(a->lanes, sizeof *a->lane);
    if (!a->lane)
        return false;
    for (unsigned i = 0; i < a->lanes; i++) {
        a->lane[i].ok = true;
        if (ptrs) {
            linear_of(td, ptrs, (int)i, WIDE, 1, &a->lane[i], 0);
        } else {
            linear_of(td, scalar, -1, WIDE, 1, &a->lane[i], 0);
            a->lane[i].constant += (long long)i * k * a->size;
        }
    }
    return true;
}

/* Does b lie d bytes after a in every lane? */
static bool lies_after(const access *a, const access *b, long long *d)
{
    if (a->elem != b->elem || a->lanes != b->lanes)
        return false;
    for (unsigned i = 0; i < a->lanes; i++) {
        long long di;
        if (!constant_difference(&b->lane[i], &a->lane[i], &di) || (i && di != *d))
            return false;
        *d = di;
    }
    return true;
}

/* Is each lane of a exactly `stride` bytes after the one before? */
static bool lanes_apart(const access *a, long long stride)
{
    for (unsigned i = 1; i < a->lanes; i++) {
        long long d;
        if (!constant_difference(&a->lane[i], &a->lane[i - 1], &d) || d != stride)
            return false;
    }
    return true;
}

/* ---- rewriting ---------------------------------------------------------------------- */

typedef struct {
    LLVMBuilderRef b;
    LLVMContextRef c;
    LLVMModuleRef m;
    LLVMTypeRef i32, i64;
} rewriter;

static LLVMValueRef constant_mask(rewriter *r, const unsigned *idx, unsigned n)
{
    LLVMValueRef e[2 * MAX_LANES * 4];
    for (unsigned i = 0; i < n; i++)
        e[i] = LLVMConstInt(r->i32, idx[i], 0);
    return LLVMConstVector(e, n);
}

/* The mask of a masked access of n lanes with every lane on. */
static LLVMValueRef all_lanes_on(rewriter *r, unsigned n)
{
    LLVMValueRef on[MAX_LANES];
    for (unsigned i = 0; i < n; i++)
        on[i] = LLVMConstInt(LLVMInt1TypeInContext(r->c), 1, 0);
    return LLVMConstVector(on, n);
}

/* Every k-th element of w from element j: n of them. */
static LLVMValueRef every_kth(rewriter *r, LLVMValueRef w, unsigned j, unsigned k, unsigned n)
{
    unsigned idx[MAX_LANES];
    for (unsigned i = 0; i < n; i++)
        idx[i] = j + i * k;
    return LLVMBuildShuffleVector(r->b, w, LLVMGetPoison(LLVMTypeOf(w)), constant_mask(r, idx, n), "");
}

/* The address of lane 0 of the run's first member, from member a (offset elements in). */
static LLVMValueRef run_start(rewriter *r, const access *a)
{
    LLVMValueRef p = a->kind == STRIDED_LOAD ? LLVMGetOperand(a->inst, 0)
                     : LLVMBuildExtractElement(r->b, LLVMGetOperand(a->inst, a->kind == SCATTER ? 1 : 0),
                                               LLVMConstInt(r->i32, 0, 0), "");
    if (!a->offset)
        return p;
    LLVMValueRef back = LLVMConstInt(r->i64, (unsigned long long)(-(long long)a->offset * a->size), 1);
    return LLVMBuildGEP2(r->b, LLVMInt8TypeInContext(r->c), p, &back, 1, "");
}

/* Lane pointers of the run's first member, from member a. */
static LLVMValueRef run_pointers(rewriter *r, const access *a)
{
    LLVMTypeRef i8 = LLVMInt8TypeInContext(r->c);
    if (a->kind == STRIDED_LOAD) {
        long long stride = 0;
        (void)constant_difference(&a->lane[1], &a->lane[0], &stride); /* k elements: read_access */
        LLVMValueRef p = run_start(r, a), e[MAX_LANES];
        for (unsigned i = 0; i < a->lanes; i++)
            e[i] = LLVMConstInt(r->i64, (unsigned long long)(i * stride), 0);
        LLVMValueRef one = LLVMBuildInsertElement(r->b, LLVMGetPoison(LLVMVectorType(LLVMTypeOf(p), a->lanes)), p,
                                                  LLVMConstInt(r->i32, 0, 0), "");
        LLVMValueRef splat = LLVMBuildShuffleVector(r->b, one, LLVMGetPoison(LLVMTypeOf(one)),
                                                    LLVMConstNull(LLVMVectorType(r->i32, a->lanes)), "");
        LLVMValueRef off = LLVMConstVector(e, a->lanes);
        return LLVMBuildGEP2(r->b, i8, splat, &off, 1, "");
    }
    LLVMValueRef ptrs = LLVMGetOperand(a->inst, 0);
    if (!a->offset)
        return ptrs;
    LLVMValueRef back = LLVMConstInt(r->i64, (unsigned long long)(-(long long)a->offset * a->size), 1);
    return LLVMBuildGEP2(r->b, i8, ptrs, &back, 1, "");
}

static void replace_load(access *a, LLVMValueRef v)
{
    LLVMReplaceAllUsesWith(a->value, v);
    if (a->pick)
        LLVMInstructionEraseFromParent(a->pick);
    LLVMInstructionEraseFromParent(a->inst);
}

/* members[0..k) in address order, `first` the earliest in the block: one
 * load of k * lanes elements, each member's lanes every k-th of them. */
static void join_interleaved_loads(rewriter *r, access **members, unsigned k, access *first)
{
    unsigned lanes = members[0]->lanes;
    LLVMPositionBuilderBefore(r->b, first->inst);
    LLVMValueRef p = run_start(r, first);
    LLVMValueRef w = LLVMBuildLoad2(r->b, LLVMVectorType(members[0]->elem, k * lanes), p, "");
    LLVMSetAlignment(w, members[0]->align);
    LLVMValueRef parts[MAX_RUN];
    for (unsigned j = 0; j < k; j++) /* all built before the builder's place goes */
        parts[j] = every_kth(r, w, j, k, lanes);
    for (unsigned j = 0; j < k; j++)
        replace_load(members[j], parts[j]);
}

/* Two members of 4-byte elements, b one element after a: one gather of
 * 8-byte elements, its low and high halves. */
static void join_pair(rewriter *r, access *a, access *b, access *first)
{
    unsigned lanes = a->lanes;
    LLVMPositionBuilderBefore(r->b, first->inst);
    LLVMValueRef ptrs = run_pointers(r, first);
    LLVMTypeRef wide = LLVMVectorType(r->i64, lanes), ptr_vec = LLVMTypeOf(ptrs);
    LLVMTypeRef types[2] = {wide, ptr_vec};
    unsigned id = LLVMLookupIntrinsicID("llvm.masked.gather", 18);
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(r->m, id, types, 2);
    LLVMValueRef args[4] = {ptrs, LLVMConstInt(r->i32, a->align, 0), all_lanes_on(r, lanes), LLVMGetPoison(wide)};
    LLVMValueRef g = LLVMBuildCall2(r->b, LLVMGlobalGetValueType(f), f, args, 4, "");
    if (mc_row_access(first->inst))
        mc_mark_row_access(g); /* a row's still (masked_ops.c) */
    LLVMValueRef both = LLVMBuildBitCast(r->b, g, LLVMVectorType(a->elem, 2 * lanes), "");
    LLVMValueRef low = every_kth(r, both, 0, 2, lanes), high = every_kth(r, both, 1, 2, lanes);
    replace_load(a, low); /* little-endian: the lower address is the low half */
    replace_load(b, high);
}

/* Four members of 4-byte elements, each one element after the one before,
 * whose lanes are apart (a float4 a work-item, work-items' pixels not
 * consecutive): each lane's four elements as one load of a vector, and the
 * loads transposed.  Four gathers cost about a load per element; this
 * costs a load per lane and two shuffles per member and lane quad.  For
 * lanes quad q (lanes 4q..4q+3), z_j holds lane 4q+j's four elements in
 * its q-th 4-element chunk; interleaving z_0 with z_1 and z_2 with z_3,
 * then those two-element pairs, gives member c's four lanes in chunk q
 * (the unpack shuffles within 128-bit lanes of x86). */
static void join_transposed(rewriter *r, access **members, access *first)
{
    unsigned lanes = members[0]->lanes;
    MOSAIC_ASSERT(lanes >= 4 && lanes % 4 == 0);
    LLVMTypeRef quad = LLVMVectorType(members[0]->elem, 4);
    LLVMPositionBuilderBefore(r->b, first->inst);
    LLVMValueRef ptrs = run_pointers(r, first); /* members[0]'s: offsets count from it */
    LLVMValueRef z[4], at[MAX_LANES];
    unsigned idx[MAX_LANES];
    bool known = lanes <= 16 && mc_lane_addresses(r->b, LLVMGetModuleDataLayout(r->m), ptrs, at); /* one extraction */
    for (unsigned j = 0; j < 4; j++) {
        LLVMValueRef parts[MAX_LANES / 4] = {NULL};
        unsigned n = lanes / 4;
        for (unsigned q = 0; q < n; q++) {
            LLVMValueRef p = known ? at[4 * q + j]
                                         : LLVMBuildExtractElement(r->b, ptrs, LLVMConstInt(r->i32, 4 * q + j, 0), "");
            parts[q] = LLVMBuildLoad2(r->b, quad, p, "");
            LLVMSetAlignment(parts[q], members[0]->align);
        }
        for (unsigned width = 4; n > 1; n /= 2, width *= 2) { /* concatenate pairs */
            for (unsigned i = 0; i < 2 * width; i++)
                idx[i] = i;
            for (unsigned q = 0; q < n / 2; q++)
                parts[q] = LLVMBuildShuffleVector(r->b, parts[2 * q], parts[2 * q + 1],
                                                  constant_mask(r, idx, 2 * width), "");
        }
        z[j] = parts[0];
    }
    /* t0 = unpacklo(z0, z1), t1 = unpackhi(z0, z1), likewise z2, z3; then c0 = the
     * low pairs of t0 and t2, c1 their high pairs, c2 and c3 those of t1 and t3 */
    static const unsigned ps[4][4] = {{0, 0, 1, 1}, {2, 2, 3, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}};
    static const unsigned from_b[4][4] = {{0, 1, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}};
    LLVMValueRef t[4], c[4];
    for (int step = 0; step < 2; step++)
        for (unsigned h = 0; h < 4; h++) { /* h: which output of the step */
            unsigned pattern = step == 0 ? h % 2 : 2 + h % 2;
            for (unsigned q = 0; q < lanes / 4; q++)
                for (unsigned e = 0; e < 4; e++)
                    idx[4 * q + e] = 4 * q + ps[pattern][e] + (from_b[pattern][e] ? lanes : 0);
            LLVMValueRef a = step == 0 ? z[h < 2 ? 0 : 2] : t[h < 2 ? 0 : 1];
            LLVMValueRef b = step == 0 ? z[h < 2 ? 1 : 3] : t[h < 2 ? 2 : 3];
            LLVMValueRef v = LLVMBuildShuffleVector(r->b, a, b, constant_mask(r, idx, lanes), "");
            if (step == 0)
                t[h] = v;
            else
                c[h] = v;
        }
    for (unsigned j = 0; j < 4; j++)
        replace_load(members[j], c[j]);
}

/* members[0..k) in address order, `last` the latest in the block: their
 * values interleaved, one store. */
static void join_interleaved_stores(rewriter *r, access **members, unsigned k, access *last)
{
    unsigned lanes = members[0]->lanes, n = lanes;
    LLVMPositionBuilderBefore(r->b, last->inst);
    LLVMValueRef parts[8];
    for (unsigned j = 0; j < k; j++)
        parts[j] = members[j]->value;
    for (unsigned count = k; count > 1; count /= 2, n *= 2) { /* concatenate pairs */
        unsigned idx[MAX_LANES * 8];
        for (unsigned i = 0; i < 2 * n; i++)
            idx[i] = i;
        for (unsigned j = 0; j < count / 2; j++)
            parts[j] = LLVMBuildShuffleVector(r->b, parts[2 * j], parts[2 * j + 1], constant_mask(r, idx, 2 * n), "");
    }
    unsigned idx[MAX_LANES * 8];
    for (unsigned i = 0; i < lanes; i++)
        for (unsigned j = 0; j < k; j++)
            idx[i * k + j] = j * lanes + i;
    LLVMValueRef w = LLVMBuildShuffleVector(r->b, parts[0], LLVMGetPoison(LLVMTypeOf(parts[0])),
                                            constant_mask(r, idx, k * lanes), "");
    LLVMValueRef s = LLVMBuildStore(r->b, w, run_start(r, last));
    LLVMSetAlignment(s, members[0]->align);
    for (unsigned j = 0; j < k; j++)
        LLVMInstructionEraseFromParent(members[j]->inst);
}

/* Does lane i + lanes / 2 of scatter a store one element after lane i, for
 * every i of the lower half, and do the pairs not overlap (lanes of the
 * lower half at least two elements apart: lanes that write one place keep
 * the scatter's order, the highest lane's value)? */
static bool halves_paired(const access *a)
{
    unsigned h = a->lanes / 2;
    if (a->lanes % 2 || h < 2)
        return false;
    for (unsigned i = 0; i < h; i++) {
        long long d;
        if (!constant_difference(&a->lane[i + h], &a->lane[i], &d) || d != a->size)
            return false;
        for (unsigned j = 0; j < i; j++)
            if (!constant_difference(&a->lane[i], &a->lane[j], &d) || (d < 2 * a->size && d > -2 * a->size))
                return false;
    }
    return true;
}

/* Scatter a of 4-byte elements whose halves pair up (halves_paired): a
 * 4x4 block of a row's float4s stored transposed, lanes 0-3 and 4-7 into
 * neighbouring columns.  One scatter of half the lanes of 8-byte elements,
 * lane i's element and lane i + h's side by side: half the stores once it
 * is done a lane at a time (masked_ops.c). */
static void join_lane_pairs(rewriter *r, access *a)
{
    unsigned h = a->lanes / 2, idx[MAX_LANES];
    LLVMPositionBuilderBefore(r->b, a->inst);
    for (unsigned i = 0; i < h; i++)
        idx[2 * i] = i, idx[2 * i + 1] = i + h;
    LLVMValueRef both = LLVMBuildShuffleVector(r->b, a->value, LLVMGetPoison(LLVMTypeOf(a->value)),
                                               constant_mask(r, idx, a->lanes), "");
    LLVMTypeRef wide = LLVMVectorType(r->i64, h);
    LLVMValueRef pairs = LLVMBuildBitCast(r->b, both, wide, "");
    for (unsigned i = 0; i < h; i++)
        idx[i] = i;
    LLVMValueRef ptrs = LLVMGetOperand(a->inst, 1), at[MAX_LANES], low;
    if (a->lanes <= 16 && mc_lane_addresses(r->b, LLVMGetModuleDataLayout(r->m), ptrs, at)) {
        /* lane 0's address and the others at their distances from it, as
         * the lanes' stores will take them (the upper half's go unused) */
        low = LLVMGetPoison(LLVMVectorType(LLVMTypeOf(at[0]), h));
        for (unsigned i = 0; i < h; i++)
            low = LLVMBuildInsertElement(r->b, low, at[i], LLVMConstInt(r->i32, i, 0), "");
    } else {
        low = LLVMBuildShuffleVector(r->b, ptrs, LLVMGetPoison(LLVMTypeOf(ptrs)), constant_mask(r, idx, h), "");
    }
    LLVMTypeRef types[2] = {wide, LLVMTypeOf(low)};
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(r->m, LLVMLookupIntrinsicID("llvm.masked.scatter", 19), types, 2);
    LLVMValueRef args[4] = {pairs, low, LLVMConstInt(r->i32, a->align, 0), all_lanes_on(r, h)};
    LLVMValueRef sc = LLVMBuildCall2(r->b, LLVMGlobalGetValueType(f), f, args, 4, "");
    if (mc_row_access(a->inst))
        mc_mark_row_access(sc); /* a row's still (masked_ops.c) */
    LLVMInstructionEraseFromParent(a->inst);
}

/* ---- runs within a block ------------------------------------------------------------ */

/* Does inst, not an access of the stretch, end a stretch of joinable loads
 * (it may write memory) or of joinable stores (it may touch memory)? */
static bool ends_stretch(LLVMValueRef inst, bool stores)
{
    switch (LLVMGetInstructionOpcode(inst)) {
    case LLVMStore: case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMFence: case LLVMVAArg:
        return true;
    case LLVMLoad:
        return stores;
    case LLVMCall: /* (a prefetch changes no byte any access sees) */
        if (mc_pure_intrinsic(mc_called_function(inst)) || mc_calls_intrinsic(inst, "llvm.prefetch."))
            return false;
        return stores ||
               !(mc_calls_intrinsic(inst, "llvm.masked.gather.") || mc_calls_intrinsic(inst, "llvm.masked.load."));
    default:
        return false;
    }
}

/* Joins the runs among accesses[0..n) (in block order); how many accesses went. */
static unsigned join_runs(rewriter *r, access *acc, unsigned n, bool stores)
{
    unsigned joined = 0;
    for (unsigned s = 0; s < n; s++) {
        if (acc[s].group >= 0)
            continue;
        /* s starts a run when nothing lies one element before it (one
         * element apart is never the same access, nor one already in the run) */
        bool has_before = false;
        for (unsigned t = 0; t < n && !has_before; t++) {
            long long d;
            has_before = acc[t].group < 0 && lies_after(&acc[t], &acc[s], &d) && d == acc[s].size;
        }
        if (has_before)
            continue;
        access *members[MAX_RUN] = {&acc[s]};
        unsigned k = 1;
        for (bool grew = true; grew && k < MAX_RUN;) {
            grew = false;
            for (unsigned t = 0; t < n && !grew; t++) {
                long long d;
                if (acc[t].group < 0 && lies_after(members[k - 1], &acc[t], &d) && d == acc[s].size)
                    members[k++] = &acc[t], grew = true;
            }
        }
        if (k < 2)
            continue;
        access *first = members[0], *last = members[0];
        for (unsigned j = 0; j < k; j++) {
            members[j]->offset = (int)j;
            first = members[j] < first ? members[j] : first; /* acc is in block order */
            last = members[j] > last ? members[j] : last;
        }
        long long size = members[0]->size;
        bool interleaved = (k == 2 || k == 4 || k == 8) && lanes_apart(members[0], (long long)k * size);
        if (stores) /* the stores move to the last one: no other may come between */
            for (access *x = first; x <= last && interleaved; x++) {
                bool member = false;
                for (unsigned j = 0; j < k; j++)
                    member |= members[j] == x;
                interleaved = member;
            }
        if (interleaved) {
            for (unsigned j = 0; j < k; j++)
                members[j]->group = (int)s;
            if (stores)
                join_interleaved_stores(r, members, k, last);
            else
                join_interleaved_loads(r, members, k, first);
            joined += k;
        } else if (!stores && size == 4) {
            unsigned j = 0;
            for (; members[0]->lanes % 4 == 0 && j + 3 < k; j += 4) { /* float4s: loads, transposed */
                access *early = members[j];
                for (unsigned e = 0; e < 4; e++) {
                    members[j + e]->group = (int)s;
                    members[j + e]->offset = (int)e;
                    early = members[j + e] < early ? members[j + e] : early;
                }
                join_transposed(r, &members[j], early);
                joined += 4;
            }
            for (; j + 1 < k; j += 2) {
                access *a = members[j], *b = members[j + 1], *early = a < b ? a : b;
                a->group = b->group = (int)s;
                a->offset = 0, b->offset = 1;
                join_pair(r, a, b, early);
                joined += 2;
            }
        }
    }
    for (unsigned s = 0; stores && s < n; s++) /* scatters left whose lanes pair up */
        if (acc[s].group < 0 && acc[s].size == 4 && halves_paired(&acc[s])) {
            acc[s].group = (int)s;
            join_lane_pairs(r, &acc[s]);
            joined++;
        }
    return joined;
}

/* The loads (or stores) of one block, stretch by stretch. */
static unsigned join_block(rewriter *r, LLVMTargetDataRef td, LLVMBasicBlockRef bb, bool stores)
{
    unsigned joined = 0, n = 0, cap = 0;
    access *acc = NULL;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next;; i = next) {
        next = i ? LLVMGetNextInstruction(i) : NULL;
        access a;
        bool is_access = i && LLVMIsACallInst(i) && read_access(td, i, stores, &a);
        if (!i || (!is_access && ends_stretch(i, stores)) || n == MAX_STRETCH) {
            if (n > 1)
                joined += join_runs(r, acc, n, stores);
            for (unsigned k = 0; k < n; k++)
                free(acc[k].lane);
            n = 0;
            if (!i)
                break;
            if (!is_access)
                continue;
        }
        if (!is_access)
            continue;
        if (n == cap) {
            unsigned more = cap ? 2 * cap : 16;
            access *bigger = realloc(acc, more * sizeof *acc);
            if (!bigger) { /* out of memory: this access stays as it is */
                free(a.lane);
                continue;
            }
            acc = bigger, cap = more;
        }
        acc[n++] = a;
    }
    free(acc);
    return joined;
}

unsigned mc_group_interleaved_accesses(LLVMValueRef f)
{
    LLVMModuleRef m = LLVMGetGlobalParent(f);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    rewriter r = {.c = LLVMGetModuleContext(m), .m = m};
    r.b = LLVMCreateBuilderInContext(r.c);
    r.i32 = LLVMInt32TypeInContext(r.c), r.i64 = LLVMInt64TypeInContext(r.c);
    unsigned joined = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        joined += join_block(&r, td, bb, false);
        joined += join_block(&r, td, bb, true);
    }
    LLVMDisposeBuilder(r.b);
    MOSAIC_ASSERT(!joined || !LLVMVerifyFunction(f, LLVMReturnStatusAction));
    return joined;
}
