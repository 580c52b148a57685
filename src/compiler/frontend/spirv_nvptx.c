/*
 * SPIR-V programs on the GPU (spirv_nvptx.h): the SPIR-V translator writes
 * a module for spir64, which differs from what clang writes for OpenCL C on
 * nvptx64 (the GPU's triple, compiler/gpu/ptx.h) in five ways, each undone
 * here:
 *   - address spaces: SPIR's generic space is 4 and its constant space 2;
 *     NVPTX's generic space is 0 (where private pointers live too) and its
 *     constant space 4.  With opaque pointers a space is only ever written
 *     `addrspace(N)` in the module's text, so the text is rewritten and
 *     read back (mc_module_rewritten); a cast from private to generic then
 *     casts between one space and itself, which is a bitcast;
 *   - calling conventions: functions and calls are spir_func, which the
 *     GPU's built-ins (clang's, C's convention) are not;
 *   - kernels: clang lists them in nvvm.annotations as well;
 *   - divisions: clang marks each float `/` as allowed 2.5 ulp (!fpmath);
 *   - mangled names: the built-ins are called by their Itanium names, which
 *     spell pointers' address spaces (`PU3AS4f`, a generic float *).  For
 *     NVPTX the generic space is the default one, spelled not at all, and
 *     the constant space is AS4; with a qualifier gone the name's
 *     substitutions (S_, S0_, ...) count differently, so names are parsed and
 *     written again (remangle below), not edited.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "compiler/frontend/spirv_nvptx.h"
#include "compiler/ir/llvm.h"
#include "compiler/ir/log.h"

/* What clang writes as the data layout of nvptx64's modules. */
static const char nvptx_data_layout[] = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64";

/* ---- the module's text -------------------------------------------------------------- */

/* The address space of the `ptr` type at *p (advanced past it); -1 if none. */
static int pointer_space(const char **p)
{
    if (strncmp(*p, "ptr", 3))
        return -1;
    *p += 3;
    if (strncmp(*p, " addrspace(", 11))
        return 0;
    char *end;
    long n = strtol(*p + 11, &end, 10);
    *p = end;
    return (int)n;
}

/* An addrspacecast between a space and itself (after the rewrite: private
 * to generic) becomes a bitcast, padded to the same length. */
static void same_space_casts_bitcasts(char *text)
{
    static const char cast[] = "addrspacecast ";
    for (char *at = strstr(text, cast); at; at = strstr(at + 1, cast)) {
        const char *p = at + sizeof cast - 1;
        if (*p == '(')
            p++;
        int from = pointer_space(&p);
        if (from < 0)
            continue;
        int depth = 0; /* the operand: a name or a constant expression */
        for (; *p && !(depth == 0 && !strncmp(p, " to ", 4)); p++)
            if (strchr("([{<", *p))
                depth++;
            else if (strchr(")]}>", *p) && --depth < 0)
                break;
        if (strncmp(p, " to ", 4))
            continue;
        p += 4;
        if (pointer_space(&p) == from)
            memcpy(at, "bitcast      ", sizeof cast - 2);
    }
}

/* ---- mangled names ------------------------------------------------------------------ */

/* A parameter type of an Itanium name, as far as OpenCL's built-ins use them. */
typedef struct type_node {
    enum { T_BUILTIN, T_NAME, T_VECTOR, T_POINTER, T_QUALIFIED, T_ATOMIC } kind;
    char text[40];                  /* builtin code, source name, vector length, qualifiers */
    const struct type_node *of;     /* pointee, element, qualified or atomic type */
} type_node;

#define MAX_NODES 96
#define MAX_SUBSTITUTIONS 48

typedef struct remangle {
    const char *p;                  /* where the parse is */
    type_node nodes[MAX_NODES];
    size_t num_nodes;
    /* the old name's substitution candidates, as the types they are now */
    const type_node *old[MAX_SUBSTITUTIONS];
    size_t num_old;
    /* the new name's, by their spelling */
    char new_spelled[MAX_SUBSTITUTIONS][128];
    size_t num_new;
    char out[512];
    size_t len;
    bool bad;
} remangle;

static type_node *new_node(remangle *r, int kind, const char *text, size_t n, const type_node *of)
{
    if (r->num_nodes == MAX_NODES || n >= sizeof r->nodes[0].text) {
        r->bad = true;
        return NULL;
    }
    type_node *t = &r->nodes[r->num_nodes++];
    t->kind = kind;
    memcpy(t->text, text, n);
    t->text[n] = '\0';
    t->of = of;
    return t;
}

static void old_candidate(remangle *r, const type_node *t)
{
    if (r->num_old == MAX_SUBSTITUTIONS)
        r->bad = true;
    else
        r->old[r->num_old++] = t;
}

/* <number><identifier>: its length in *n, the text after the number returned */
static const char *source_name(remangle *r, size_t *n)
{
    char *end;
    long len = strtol(r->p, &end, 10);
    if (end == r->p || len <= 0 || strlen(end) < (size_t)len) {
        r->bad = true;
        return NULL;
    }
    *n = (size_t)len;
    r->p = end + len;
    return end;
}

static const type_node *parse_type(remangle *r);

/* Vendor qualifiers (U3AS<n>) then [r][V][K], and the type they qualify:
 * one substitution candidate, after that type.  SPIR's AS4 (generic) is
 * dropped and its AS2 (constant) becomes AS4. */
static const type_node *parse_qualified(remangle *r)
{
    char quals[40] = "";
    size_t nq = 0;
    bool any = false;
    while (!strncmp(r->p, "U3AS", 4) && r->p[4] >= '0' && r->p[4] <= '9') {
        char space = r->p[4];
        r->p += 5;
        any = true;
        if (space == '4')
            continue;
        if (nq + 5 >= sizeof quals)
            return r->bad = true, NULL;
        memcpy(quals + nq, "U3AS", 4);
        quals[nq + 4] = space == '2' ? '4' : space;
        nq += 5;
    }
    while (*r->p == 'r' || *r->p == 'V' || *r->p == 'K') {
        any = true;
        if (nq + 1 >= sizeof quals)
            return r->bad = true, NULL;
        quals[nq++] = *r->p++;
    }
    const type_node *of = parse_type(r);
    if (!any || !of)
        return of;
    const type_node *t = nq ? new_node(r, T_QUALIFIED, quals, nq, of) : of;
    old_candidate(r, t);
    return t;
}

static const type_node *parse_type(remangle *r)
{
    const char *p = r->p;
    if (r->bad || !*p)
        return r->bad = true, NULL;
    if (strchr("vwbcahstijlmxynofdegz", *p)) {
        r->p++;
        return new_node(r, T_BUILTIN, p, 1, NULL);
    }
    if (p[0] == 'D' && p[1] && strchr("hdfenasiu", p[1])) {
        r->p += 2;
        return new_node(r, T_BUILTIN, p, 2, NULL);
    }
    if (p[0] == 'U' && !strncmp(p, "U3AS", 4))
        return parse_qualified(r);
    if (*p == 'r' || *p == 'V' || *p == 'K')
        return parse_qualified(r);
    const type_node *t = NULL;
    if (!strncmp(p, "U7_Atomic", 9)) {
        r->p += 9;
        const type_node *of = parse_type(r);
        t = of ? new_node(r, T_ATOMIC, "", 0, of) : NULL;
    } else if (*p == 'P') {
        r->p++;
        const type_node *of = parse_type(r);
        t = of ? new_node(r, T_POINTER, "", 0, of) : NULL;
    } else if (!strncmp(p, "Dv", 2)) {
        char *end;
        long n = strtol(p + 2, &end, 10);
        if (end == p + 2 || *end != '_' || n <= 0)
            return r->bad = true, NULL;
        r->p = end + 1;
        const type_node *of = parse_type(r);
        t = of ? new_node(r, T_VECTOR, p + 2, (size_t)(end - (p + 2)), of) : NULL;
    } else if (*p == 'S' && (p[1] == '_' || (p[1] && strchr("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", p[1])))) {
        size_t index = 0;
        const char *q = p + 1;
        if (*q != '_') {
            for (; *q && *q != '_'; q++)
                index = index * 36 + (size_t)(*q <= '9' ? *q - '0' : *q - 'A' + 10);
            index++;
        }
        if (*q != '_' || index >= r->num_old)
            return r->bad = true, NULL;
        r->p = q + 1;
        return r->old[index]; /* no new candidate */
    } else if (*p >= '1' && *p <= '9') {
        size_t n = 0;
        const char *name = source_name(r, &n);
        t = name ? new_node(r, T_NAME, name, n, NULL) : NULL;
    } else {
        return r->bad = true, NULL;
    }
    if (t)
        old_candidate(r, t);
    return t;
}

static void put(remangle *r, const char *s, size_t n)
{
    if (r->len + n >= sizeof r->out) {
        r->bad = true;
        return;
    }
    memcpy(r->out + r->len, s, n);
    r->len += n;
    r->out[r->len] = '\0';
}

/* The type in full, with no substitutions: the key of the new candidates. */
static void spell(const type_node *t, char *out, size_t cap)
{
    char inner[128] = "";
    if (t->of)
        spell(t->of, inner, sizeof inner);
    switch (t->kind) {
    case T_BUILTIN: snprintf(out, cap, "%s", t->text); break;
    case T_NAME: snprintf(out, cap, "%zu%s", strlen(t->text), t->text); break;
    case T_VECTOR: snprintf(out, cap, "Dv%s_%s", t->text, inner); break;
    case T_POINTER: snprintf(out, cap, "P%s", inner); break;
    case T_QUALIFIED: snprintf(out, cap, "%s%s", t->text, inner); break;
    case T_ATOMIC: snprintf(out, cap, "U7_Atomic%s", inner); break;
    }
}

/* Writes t, by substitution where the new name has had it already. */
static void emit(remangle *r, const type_node *t)
{
    char spelled[128];
    spell(t, spelled, sizeof spelled);
    if (t->kind != T_BUILTIN)
        for (size_t i = 0; i < r->num_new; i++)
            if (!strcmp(r->new_spelled[i], spelled)) {
                char ref[16] = "S_";
                if (i) { /* S<seq-id>_: i - 1 in base 36 */
                    char digits[12];
                    size_t nd = 0;
                    for (size_t v = i - 1; nd == 0 || v; v /= 36)
                        digits[nd++] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % 36];
                    size_t k = 0;
                    ref[k++] = 'S';
                    while (nd)
                        ref[k++] = digits[--nd];
                    ref[k++] = '_';
                    ref[k] = '\0';
                }
                put(r, ref, strlen(ref));
                return;
            }
    switch (t->kind) {
    case T_BUILTIN: put(r, t->text, strlen(t->text)); return;
    case T_NAME: put(r, spelled, strlen(spelled)); break;
    case T_VECTOR:
        put(r, "Dv", 2), put(r, t->text, strlen(t->text)), put(r, "_", 1);
        emit(r, t->of);
        break;
    case T_POINTER: put(r, "P", 1), emit(r, t->of); break;
    case T_QUALIFIED: put(r, t->text, strlen(t->text)), emit(r, t->of); break;
    case T_ATOMIC: put(r, "U7_Atomic", 9), emit(r, t->of); break;
    }
    if (r->num_new == MAX_SUBSTITUTIONS)
        r->bad = true;
    else
        snprintf(r->new_spelled[r->num_new++], sizeof r->new_spelled[0], "%s", spelled);
}

/* `name` (an Itanium name _Z<n><identifier><parameter types>) with NVPTX's
 * address spaces, into r->out; false where it is not of that form. */
static bool remangled(const char *name, remangle *r)
{
    memset(r, 0, sizeof *r);
    if (strncmp(name, "_Z", 2))
        return false;
    r->p = name + 2;
    size_t n = 0;
    const char *identifier = source_name(r, &n);
    if (!identifier)
        return false;
    put(r, name, (size_t)(r->p - name));
    const type_node *params[32];
    size_t np = 0;
    while (*r->p && !r->bad && np < 32)
        params[np++] = parse_type(r);
    if (r->bad || *r->p)
        return false;
    for (size_t i = 0; i < np; i++)
        emit(r, params[i]);
    return !r->bad;
}

bool mc_nvptx_name(const char *spir_name, char *out, size_t cap)
{
    remangle r;
    if (!remangled(spir_name, &r) || r.len >= cap)
        return false;
    memcpy(out, r.out, r.len + 1);
    return true;
}

/* Every function whose name spells a SPIR address space is renamed; a
 * declaration whose new name is taken by another of the same type (a
 * private and a generic fract, both `_Z5fractfPf` now) is that other. */
static void rename_functions(LLVMModuleRef m)
{
    remangle r;
    for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
        next = LLVMGetNextFunction(f);
        size_t len = 0;
        const char *name = LLVMGetValueName2(f, &len);
        if (!strstr(name, "U3AS") || !remangled(name, &r) || !strcmp(name, r.out))
            continue;
        LLVMValueRef taken = LLVMGetNamedFunction(m, r.out);
        if (!taken) {
            LLVMSetValueName2(f, r.out, r.len);
        } else if (LLVMGlobalGetValueType(taken) == LLVMGlobalGetValueType(f) && LLVMIsDeclaration(f)) {
            LLVMReplaceAllUsesWith(f, taken);
            LLVMDeleteFunction(f);
        }
    }
}

/* ---- the module ---------------------------------------------------------------------- */

/* Each spir_kernel function in nvvm.annotations, as clang lists them. */
static void annotate_kernels(LLVMModuleRef m)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || LLVMGetFunctionCallConv(f) != LLVMSPIRKERNELCallConv)
            continue;
        LLVMMetadataRef fields[3] = {
            LLVMValueAsMetadata(f),
            LLVMMDStringInContext2(c, "kernel", 6),
            LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c), 1, 0)),
        };
        LLVMAddNamedMetadataOperand(m, "nvvm.annotations",
                                    LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, fields, 3)));
    }
}

/* The text's SPIR address spaces and conventions as NVPTX's: generic first,
 * so that constant's new number is not taken for generic. */
static void nvptx_spaces(char *text)
{
    mc_text_replace(text, "ptr addrspace(4)", "ptr");
    mc_text_replace(text, "addrspace(2)", "addrspace(4)");
    mc_text_replace(text, "spir_func ", "");
    same_space_casts_bitcasts(text);
}

/* OpenCL C's `/` on float is allowed 2.5 ulp, and so is SPIR-V's OpFDiv
 * (the SPIR-V environment's full profile); clang says so on each division
 * (!fpmath), the translator does not.  Marked here as clang marks them, the
 * GPU divides a SPIR-V program's floats as it does OpenCL C's
 * (per_element_rewrites, compiler/gpu/ptx.c). */
static void divisions_allowed_ulps(LLVMModuleRef m)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    unsigned fpmath = LLVMGetMDKindIDInContext(c, "fpmath", 6);
    LLVMMetadataRef ulps = LLVMValueAsMetadata(LLVMConstReal(LLVMFloatTypeInContext(c), 2.5));
    LLVMValueRef bound = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &ulps, 1));
    LLVMTypeRef f32 = LLVMFloatTypeInContext(c);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                LLVMTypeRef t = LLVMTypeOf(i);
                if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
                    t = LLVMGetElementType(t);
                if (LLVMGetInstructionOpcode(i) == LLVMFDiv && t == f32 && !LLVMGetMetadata(i, fpmath))
                    LLVMSetMetadata(i, fpmath, bound);
            }
}

LLVMModuleRef mc_nvptx_from_spir(LLVMContextRef c, LLVMModuleRef m, const char *triple, bool exact_division,
                                 mosaic_strbuf *log)
{
    LLVMModuleRef out = mc_module_rewritten(c, m, nvptx_spaces, "the SPIR-V module could not be made a GPU program", log);
    if (!out)
        return NULL;
    LLVMSetTarget(out, triple);
    LLVMSetDataLayout(out, nvptx_data_layout);
    rename_functions(out);
    annotate_kernels(out);
    if (!exact_division)
        divisions_allowed_ulps(out);
    return out;
}
