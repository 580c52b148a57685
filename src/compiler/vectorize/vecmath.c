/*
 * Vector math for the loop vectoriser: glibc's libmvec.
 *
 * A math call in a work-item loop (expf, llvm.sin.f32, pow...) stays scalar
 * unless the vectoriser knows a vector version of it; LLVM would otherwise
 * widen it to llvm.exp.v16f32, which code generation splits back into
 * sixteen scalar calls.  This file gives every such call site the
 * "vector-function-abi-variant" attribute naming libmvec's versions for the
 * instruction sets the target has (_ZGVeN16v_expf for AVX-512, _ZGVdN8v_expf
 * for AVX2, _ZGVbN4v_expf for SSE), declares them, and keeps them alive
 * until the vectoriser has run (llvm.compiler.used, removed afterwards).
 * libmosaic links libmvec.so.1 and hands the variants' addresses to the JIT
 * (mc_libmvec_symbols, jit.c): no dlopen, nothing in the global scope.
 *
 * Only variants whose error is within OpenCL C's limits (OpenCL C 3.0,
 * section 7.4, full profile) are named.  Float variants were checked on
 * every float input (glibc 2.36, tools/libmvec_ulp.c; docs/compiler.md has
 * the table), double ones on millions of random inputs, keeping half an ulp
 * of margin.  So: exp10f and log10f without the AVX-512 variants (3.8 and 3.5
 * against 3); log1pf without the SSE one (2.1 against 2); no double exp,
 * expm1, log1p, cbrt, sin, cos (too close to the limit: the CTS found 3.73
 * ulp for sin against 4).  logf (3.9 against 3) and
 * cbrtf (2.9 against 2) are computed in double instead, through the double
 * variants (1.6 and 2.6 double ulps): rounded to float, that is within half
 * an ulp and a hair.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/settings.h"
#include "compiler/ir/llvm.h"
#include "compiler/vectorize/vecmath.h"

enum { ISA_E = 1, ISA_D = 2, ISA_B = 4, ALL = ISA_E | ISA_D | ISA_B };

typedef struct vm_fn {
    const char *name; /* the double function; the float one adds 'f' */
    unsigned char args;
    unsigned char isa_f, isa_d; /* which variants are accurate enough */
    unsigned char intrinsic;    /* LLVM has llvm.NAME.f32/.f64 */
} vm_fn;

static const vm_fn fns[] = {
    {"acos", 1, ALL, ALL, 0},   {"acosh", 1, ALL, ALL, 0}, {"asin", 1, ALL, ALL, 0},
    {"asinh", 1, ALL, ALL, 0},  {"atan", 1, ALL, ALL, 0},  {"atanh", 1, ALL, ALL, 0},
    {"cos", 1, ALL, 0, 1},    {"cosh", 1, ALL, ALL, 0},  {"erf", 1, ALL, ALL, 0},
    {"erfc", 1, ALL, ALL, 0},   {"exp", 1, ALL, 0, 1},     {"exp2", 1, ALL, ALL, 1},
    {"exp10", 1, ISA_D | ISA_B, ALL, 0},                   {"expm1", 1, ALL, 0, 0},
    {"log", 1, 0, ALL, 1},      {"log10", 1, ISA_D | ISA_B, ALL, 1},
    {"log1p", 1, ISA_E | ISA_D, 0, 0},                     {"log2", 1, ALL, ALL, 1},
    {"sin", 1, ALL, 0, 1},    {"sinh", 1, ALL, ALL, 0},  {"tan", 1, ALL, ALL, 0},
    {"tanh", 1, ALL, ALL, 0},   {"atan2", 2, ALL, ALL, 0}, {"hypot", 2, ALL, ALL, 0},
    {"pow", 2, ALL, ALL, 1},     {"cbrt", 1, 0, 0, 0}, /* cbrtf through double only */
};

/* Every variant the table can name: SSE, AVX2 and AVX-512, float and double.
 * (Declared with a dummy type: only their addresses are taken.) */
#define ISAS(X, p, name, dname)                                                                        \
    X(b, 4, p, name) X(d, 8, p, name) X(e, 16, p, name) X(b, 2, p, dname) X(d, 4, p, dname) X(e, 8, p, dname)
#define ONE(X, n) ISAS(X, v, n##f, n)
#define TWO(X, n) ISAS(X, vv, n##f, n)
#define LIBMVEC(X)                                                                                     \
    ONE(X, acos) ONE(X, acosh) ONE(X, asin) ONE(X, asinh) ONE(X, atan) ONE(X, atanh) ONE(X, cbrt)      \
    ONE(X, cos) ONE(X, cosh) ONE(X, erf) ONE(X, erfc) ONE(X, exp) ONE(X, exp2) ONE(X, exp10)           \
    ONE(X, expm1) ONE(X, log) ONE(X, log10) ONE(X, log1p) ONE(X, log2) ONE(X, sin) ONE(X, sinh)        \
    ONE(X, tan) ONE(X, tanh) TWO(X, atan2) TWO(X, hypot) TWO(X, pow)
#define DECLARE(isa, lanes, p, name) void _ZGV##isa##N##lanes##p##_##name(void);
LIBMVEC(DECLARE)
#define ENTRY(isa, lanes, p, name) {"_ZGV" #isa "N" #lanes #p "_" #name, (void *)_ZGV##isa##N##lanes##p##_##name},
static const struct mosaic_runtime_symbol libmvec_symbols[] = {LIBMVEC(ENTRY)};

bool mc_libmvec_available(void)
{
    return !mosaic_settings()->no_libmvec;
}

size_t mc_libmvec_symbols(const struct mosaic_runtime_symbol **symbols)
{
    *symbols = libmvec_symbols;
    return sizeof libmvec_symbols / sizeof libmvec_symbols[0];
}

/* The instruction sets of the target machine that libmvec has variants for. */
static unsigned target_isas(LLVMTargetMachineRef tm)
{
    unsigned isas = 0;
    if (mc_target_has_feature(tm, "+avx512f"))
        isas |= ISA_E;
    if (mc_target_has_feature(tm, "+avx2"))
        isas |= ISA_D;
    if (mc_target_has_feature(tm, "+sse2") || isas)
        isas |= ISA_B;
    return isas;
}

/* Float functions whose float variants are not accurate enough, computed
 * through their double variants (error 1.6 and 2.6 double ulps). */
static const struct { const char *f, *intrinsic_f, *d, *intrinsic_d; } through_double[] = {
    {"logf", "llvm.log.f32", "log", "llvm.log.f64"},
    {"cbrtf", NULL, "cbrt", NULL},
};

/* Which entry of fns (and which type) the function called `name` is. */
static const vm_fn *lookup(const char *name, bool *is_double)
{
    char buf[64];
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        const vm_fn *f = &fns[i];
        for (int d = 0; d < 2; d++) {
            snprintf(buf, sizeof buf, "%s%s", f->name, d ? "" : "f");
            bool hit = !strcmp(name, buf);
            if (!hit && f->intrinsic) {
                snprintf(buf, sizeof buf, "llvm.%s.%s", f->name, d ? "f64" : "f32");
                hit = !strcmp(name, buf);
            }
            if (hit) {
                *is_double = d == 1;
                return f;
            }
        }
    }
    return NULL;
}

typedef struct used_list {
    LLVMValueRef *fns;
    size_t n, cap;
} used_list;

static void note_used(used_list *u, LLVMValueRef f)
{
    for (size_t i = 0; i < u->n; i++)
        if (u->fns[i] == f)
            return;
    if (u->n == u->cap) {
        size_t cap = u->cap ? 2 * u->cap : 16;
        LLVMValueRef *p = realloc(u->fns, cap * sizeof *p);
        if (!p)
            return;
        u->fns = p;
        u->cap = cap;
    }
    u->fns[u->n++] = f;
}

/* Rewrites float calls of through_double[] as fptrunc(double call(fpext x)),
 * marked so the attribute pass below gives them every double variant. */
static void promote_to_double(LLVMModuleRef m, unsigned promoted_kind)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef f32 = LLVMFloatTypeInContext(c), f64 = LLVMDoubleTypeInContext(c);
    LLVMTypeRef dty = LLVMFunctionType(f64, &f64, 1, 0);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMValueRef empty = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0));
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
                next = LLVMGetNextInstruction(i);
                if (!LLVMIsACallInst(i) || LLVMTypeOf(i) != f32 || LLVMGetNumArgOperands(i) != 1)
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(i);
                if (!callee || !LLVMIsAFunction(callee) || !LLVMIsDeclaration(callee))
                    continue;
                const char *name = LLVMGetValueName(callee);
                for (size_t k = 0; k < sizeof through_double / sizeof through_double[0]; k++) {
                    bool intrinsic = through_double[k].intrinsic_f && !strcmp(name, through_double[k].intrinsic_f);
                    if (!intrinsic && strcmp(name, through_double[k].f))
                        continue;
                    const char *dname = intrinsic ? through_double[k].intrinsic_d : through_double[k].d;
                    LLVMValueRef df = LLVMGetNamedFunction(m, dname);
                    if (!df) {
                        df = LLVMAddFunction(m, dname, dty);
                        if (!intrinsic) /* like clang's declaration of the C function (no errno in OpenCL) */
                            LLVMAddAttributeAtIndex(df, LLVMAttributeFunctionIndex,
                                                    LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
                    }
                    LLVMPositionBuilderBefore(b, i);
                    LLVMValueRef x = LLVMBuildFPExt(b, LLVMGetOperand(i, 0), f64, "");
                    LLVMValueRef call = LLVMBuildCall2(b, dty, df, &x, 1, "");
                    if (!intrinsic) /* reads and writes no memory, so it may be vectorised */
                        LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                                                 LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName("memory", 6), 0));
                    LLVMSetMetadata(call, promoted_kind, empty);
                    LLVMValueRef r = LLVMBuildFPTrunc(b, call, f32, "");
                    LLVMReplaceAllUsesWith(i, r);
                    LLVMInstructionEraseFromParent(i);
                    break;
                }
            }
    LLVMDisposeBuilder(b);
}

unsigned mc_add_vector_math(LLVMModuleRef m, LLVMTargetMachineRef tm)
{
    if (!mc_libmvec_available())
        return 0;
    unsigned isas = target_isas(tm);
    if (!isas)
        return 0;
    LLVMContextRef c = LLVMGetModuleContext(m);
    unsigned promoted_kind = LLVMGetMDKindIDInContext(c, "mosaic.through_double", 21);
    promote_to_double(m, promoted_kind);
    static const struct { unsigned isa; char letter; unsigned lanes_f; } isa_info[] = {
        {ISA_E, 'e', 16}, {ISA_D, 'd', 8}, {ISA_B, 'b', 4}};
    used_list used = {0};
    unsigned count = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsACallInst(i))
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(i);
                if (!callee || !LLVMIsAFunction(callee) || !LLVMIsDeclaration(callee))
                    continue;
                bool is_double = false;
                const char *callee_name = LLVMGetValueName(callee);
                const vm_fn *f = lookup(callee_name, &is_double);
                if (!f)
                    continue;
                unsigned allowed = (is_double ? f->isa_d : f->isa_f) & isas;
                if (is_double && LLVMGetMetadata(i, promoted_kind))
                    allowed = ALL & isas; /* a float function computed in double */
                if (!allowed || LLVMGetCallSiteStringAttribute(i, LLVMAttributeFunctionIndex,
                                                               "vector-function-abi-variant", 27))
                    continue;
                LLVMTypeRef elem = is_double ? LLVMDoubleTypeInContext(c) : LLVMFloatTypeInContext(c);
                mosaic_strbuf variants = {0};
                for (size_t k = 0; k < sizeof isa_info / sizeof isa_info[0]; k++) {
                    if (!(allowed & isa_info[k].isa))
                        continue;
                    unsigned lanes = isa_info[k].lanes_f / (is_double ? 2 : 1);
                    char vname[64];
                    snprintf(vname, sizeof vname, "_ZGV%cN%u%s_%s%s", isa_info[k].letter, lanes,
                             f->args == 2 ? "vv" : "v", f->name, is_double ? "" : "f");
                    LLVMValueRef vf = LLVMGetNamedFunction(m, vname);
                    if (!vf) {
                        LLVMTypeRef vt = LLVMVectorType(elem, lanes), params[2] = {vt, vt};
                        vf = LLVMAddFunction(m, vname, LLVMFunctionType(vt, params, f->args, 0));
                        LLVMAddAttributeAtIndex(vf, LLVMAttributeFunctionIndex,
                                                LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
                    }
                    note_used(&used, vf);
                    mosaic_strbuf_printf(&variants, "%s_ZGV_LLVM_N%u%s_%s(%s)", variants.len ? "," : "", lanes,
                                         f->args == 2 ? "vv" : "v", callee_name, vname);
                }
                if (variants.len && !variants.oom) {
                    LLVMAddCallSiteAttribute(i, LLVMAttributeFunctionIndex,
                                             LLVMCreateStringAttribute(c, "vector-function-abi-variant", 27,
                                                                       variants.data, (unsigned)variants.len));
                    count++;
                }
                mosaic_strbuf_free(&variants);
            }
    if (used.n) {
        /* keep the declarations until the vectoriser has seen them */
        LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
        LLVMValueRef old = LLVMGetNamedGlobal(m, "llvm.compiler.used");
        if (old) {
            LLVMValueRef init = LLVMGetInitializer(old);
            int n = init ? LLVMGetNumOperands(init) : 0;
            for (int k = 0; k < n; k++)
                note_used(&used, LLVMGetOperand(init, (unsigned)k));
            LLVMDeleteGlobal(old);
        }
        LLVMValueRef arr = LLVMConstArray(ptr, used.fns, (unsigned)used.n);
        LLVMValueRef g = LLVMAddGlobal(m, LLVMTypeOf(arr), "llvm.compiler.used");
        LLVMSetInitializer(g, arr);
        LLVMSetLinkage(g, LLVMAppendingLinkage);
        LLVMSetSection(g, "llvm.metadata");
    }
    free(used.fns);
    return count;
}

/* ---- vector-typed math calls ---------------------------------------------------------
 * The builtins' vector overloads (log(float4)...) and the SLP vectoriser
 * leave calls like llvm.log.v4f32, which code generation would split into
 * scalar calls: after optimisation they become calls of the libmvec variant
 * of the nearest width (lanes padded with copies of the first one, wider
 * vectors in pieces). */
typedef struct width_choice {
    char letter;
    unsigned lanes;
} width_choice;

/* The narrowest allowed variant holding n lanes, else the widest. */
static width_choice choose_width(unsigned allowed, bool is_double, unsigned n)
{
    static const struct { unsigned isa; char letter; unsigned lanes_f; } order[] = {
        {ISA_B, 'b', 4}, {ISA_D, 'd', 8}, {ISA_E, 'e', 16}};
    width_choice best = {0, 0};
    for (size_t k = 0; k < 3; k++) {
        if (!(allowed & order[k].isa))
            continue;
        unsigned lanes = order[k].lanes_f / (is_double ? 2 : 1);
        best.letter = order[k].letter;
        best.lanes = lanes;
        if (lanes >= n)
            break;
    }
    return best;
}

/* Lanes [first, first + count) of v (n lanes) as a vector of count lanes;
 * lanes past n repeat lane `first`. */
static LLVMValueRef lanes_of(LLVMBuilderRef b, LLVMContextRef c, LLVMValueRef v, unsigned n, unsigned first,
                             unsigned count)
{
    LLVMValueRef mask[32];
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    for (unsigned j = 0; j < count; j++)
        mask[j] = LLVMConstInt(i32, first + j < n ? first + j : first, 0);
    return LLVMBuildShuffleVector(b, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(mask, count), "");
}

/* Calls variant vf on v (n lanes of elem, and w for two-argument functions). */
static LLVMValueRef call_in_pieces(LLVMBuilderRef b, LLVMContextRef c, LLVMValueRef vf, unsigned lanes,
                                   LLVMValueRef v, LLVMValueRef w, unsigned n)
{
    LLVMTypeRef fty = LLVMGlobalGetValueType(vf);
    LLVMValueRef pieces[16];
    unsigned np = 0;
    for (unsigned first = 0; first < n && np < 16; first += lanes) {
        LLVMValueRef args[2] = {lanes_of(b, c, v, n, first, lanes), w ? lanes_of(b, c, w, n, first, lanes) : NULL};
        pieces[np++] = LLVMBuildCall2(b, fty, vf, args, w ? 2 : 1, "");
    }
    /* join pairwise (a power of two of pieces, the last ones repeated) */
    unsigned width = lanes;
    while (np > 1) {
        LLVMValueRef mask[32];
        LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
        for (unsigned j = 0; j < 2 * width; j++)
            mask[j] = LLVMConstInt(i32, j, 0);
        unsigned out = 0;
        for (unsigned k = 0; k < np; k += 2) {
            LLVMValueRef second = k + 1 < np ? pieces[k + 1] : pieces[k];
            pieces[out++] = LLVMBuildShuffleVector(b, pieces[k], second, LLVMConstVector(mask, 2 * width), "");
        }
        np = out;
        width *= 2;
    }
    return width == n ? pieces[0] : lanes_of(b, c, pieces[0], width, 0, n);
}

unsigned mc_lower_vector_math_calls(LLVMModuleRef m, LLVMTargetMachineRef tm)
{
    if (!mc_libmvec_available())
        return 0;
    unsigned isas = target_isas(tm);
    if (!isas)
        return 0;
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(c);
    unsigned count = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
                next = LLVMGetNextInstruction(i);
                if (!LLVMIsACallInst(i) || LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVectorTypeKind)
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(i);
                if (!callee || !LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee))
                    continue;
                /* llvm.NAME.vNf32 / vNf64 */
                const char *name = LLVMGetValueName(callee);
                char base[32];
                const char *dot = strrchr(name, '.');
                if (strncmp(name, "llvm.", 5) || !dot || dot - name - 5 <= 0 || dot - name - 5 >= (long)sizeof base)
                    continue;
                memcpy(base, name + 5, (size_t)(dot - name - 5));
                base[dot - name - 5] = 0;
                LLVMTypeRef vt = LLVMTypeOf(i), elem = LLVMGetElementType(vt);
                unsigned n = LLVMGetVectorSize(vt);
                bool is_double = LLVMGetTypeKind(elem) == LLVMDoubleTypeKind;
                if ((!is_double && LLVMGetTypeKind(elem) != LLVMFloatTypeKind) || n < 2 || n > 16)
                    continue;
                const vm_fn *f = NULL;
                for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++)
                    if (fns[k].intrinsic && !strcmp(fns[k].name, base))
                        f = &fns[k];
                if (!f || (unsigned)LLVMGetNumArgOperands(i) != f->args)
                    continue;
                bool through = false;
                unsigned allowed = (is_double ? f->isa_d : f->isa_f) & isas;
                for (size_t k = 0; k < sizeof through_double / sizeof through_double[0]; k++)
                    if (!is_double && through_double[k].intrinsic_d && !strcmp(through_double[k].d, f->name))
                        through = true, allowed = f->isa_d & isas;
                if (!allowed)
                    continue;
                bool dbl = is_double || through;
                width_choice wc = choose_width(allowed, dbl, n);
                char vname[64];
                snprintf(vname, sizeof vname, "_ZGV%cN%u%s_%s%s", wc.letter, wc.lanes, f->args == 2 ? "vv" : "v",
                         f->name, dbl ? "" : "f");
                LLVMTypeRef ve = dbl ? f64 : elem;
                LLVMTypeRef vty = LLVMVectorType(ve, wc.lanes), params[2] = {vty, vty};
                LLVMValueRef vf = LLVMGetNamedFunction(m, vname);
                if (!vf) {
                    vf = LLVMAddFunction(m, vname, LLVMFunctionType(vty, params, f->args, 0));
                    LLVMAddAttributeAtIndex(vf, LLVMAttributeFunctionIndex,
                                            LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
                }
                LLVMPositionBuilderBefore(b, i);
                LLVMValueRef x = LLVMGetOperand(i, 0), y = f->args == 2 ? LLVMGetOperand(i, 1) : NULL;
                if (through) {
                    x = LLVMBuildFPExt(b, x, LLVMVectorType(f64, n), "");
                    y = y ? LLVMBuildFPExt(b, y, LLVMVectorType(f64, n), "") : NULL;
                }
                LLVMValueRef r = call_in_pieces(b, c, vf, wc.lanes, x, y, n);
                if (through)
                    r = LLVMBuildFPTrunc(b, r, vt, "");
                LLVMReplaceAllUsesWith(i, r);
                LLVMInstructionEraseFromParent(i);
                count++;
            }
    LLVMDisposeBuilder(b);
    return count;
}

void mc_drop_vector_math_uses(LLVMModuleRef m)
{
    LLVMValueRef g = LLVMGetNamedGlobal(m, "llvm.compiler.used");
    if (!g)
        return;
    /* only the vector functions' entries (OpenCL C makes no others) */
    LLVMValueRef init = LLVMGetInitializer(g);
    int n = init ? LLVMGetNumOperands(init) : 0;
    for (int k = 0; k < n; k++) {
        LLVMValueRef v = LLVMGetOperand(init, (unsigned)k);
        if (!LLVMIsAFunction(v) || strncmp(LLVMGetValueName(v), "_ZGV", 4))
            return;
    }
    LLVMDeleteGlobal(g);
    /* declarations the vectoriser did not call */
    for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
        next = LLVMGetNextFunction(f);
        if (LLVMIsDeclaration(f) && !LLVMGetFirstUse(f) && !strncmp(LLVMGetValueName(f), "_ZGV", 4))
            LLVMDeleteFunction(f);
    }
}
