/*
 * SPIR-V for a translator that aborts on parts of it (docs/spirv.md,
 * "Versions"): llvm-spirv-15 reads 1.0 to 1.4 modules but fails an assertion
 * or crashes on a few of 1.4's instructions and on some older constructs.
 * This pass rewrites those, over the module's words, into instructions it
 * reads that mean the same:
 *
 *   OpPtrEqual / OpPtrNotEqual a b   ->  OpConvertPtrToU each, OpIEqual / OpINotEqual
 *   OpPtrDiff a b                    ->  (OpConvertPtrToU a - OpConvertPtrToU b) / sizeof(*a)
 *   OpCopyLogical T x                ->  OpCompositeExtract of each member, copied
 *                                        again where its type differs, then built as below
 *   OpCompositeConstruct T a b ...   ->  OpUndef T, an OpCompositeInsert per member (the
 *                                        translator takes the construct for a constant)
 *   OpVectorShuffle of vectors of two lengths -> the shorter widened first (a
 *                                        shuffle of itself)
 *   OpExpectKHR of a vector (the translator crashes on it) -> OpCopyObject of
 *                                        the value: the expectation is a hint
 *   OpCopyMemory t s [operands]     ->  OpLoad of s, OpStore to t (the translator
 *                                        aborts on any OpCopyMemory)
 *   OpCopyMemorySized with the source's memory operands after the target's
 *                                    ->  the target's only (the source's are hints)
 *   OpDecorateString, OpMemberDecorateString (UserSemantic: no effect on a kernel) -> dropped
 *   OpConstantNull of an integer, a float, a bool or a vector of them
 *                                    ->  OpConstant 0, OpConstantFalse, OpConstantComposite
 *   OpReadClockKHR T scope (SPV_KHR_shader_clock, which the translator does not know)
 *                                    ->  OpFunctionCall of the OpenCL C built-in of the scope
 *                                        and type (clock_read_device, clock_read_hilo_sub_group...,
 *                                        builtins/kernel_clock.cl), declared as an import; the
 *                                        extension and its capability go (Linkage in its place)
 *   OpExtension "SPV_EXT_shader_atomic_float16_add", OpCapability AtomicFloat16AddEXT
 *                                    ->  SPV_EXT_shader_atomic_float_add's, AtomicFloat32AddEXT
 *                                        (the translator knows no float16_add, but reads
 *                                        OpAtomicFAddEXT on a half: cl_ext_float_atomics)
 *
 * New types and constants go at the end of the declarations (before the first
 * OpFunction), new ids after the module's bound.  A module without any of
 * these is returned unchanged.
 */
#include "compiler/frontend/spirv_lower.h"
#include "compiler/ir/log.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>

/* the header's definition, emitted here (C99 inline: one external definition) */
extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

#define HEADER_WORDS 5u

typedef struct words {
    uint32_t *w;
    size_t n, cap;
} words;

typedef struct lower {
    const uint32_t *in;
    size_t nin;
    uint32_t bound;            /* the next fresh id */
    uint32_t *type_of;         /* a value's type; 0: not a value (ids below the module's bound) */
    size_t *def;               /* where each id's declaring instruction starts in `in`; 0: none */
    uint32_t module_bound;
    uint32_t pointer_bits;     /* 32 or 64: the addressing model's */
    bool has_int64;            /* OpCapability Int64 */
    uint32_t uint_ptr;         /* the integer type of a pointer's width, once made or found */
    words head, decls, body;   /* before the first OpFunction, new declarations, the rest */
    words imports;             /* functions declared without a body, after decls */
    /* the clock built-ins (OpReadClockKHR), by scope (device, work-group,
     * sub-group) and result (ulong, uint2): their function ids, 0 when
     * unused, and the result types; their Linkage decorations go in before
     * the module's first type */
    uint32_t clock_fn[3][2], clock_type[3][2];
    bool clock_names_out;
    bool oom, failed;
    mosaic_strbuf *log;
} lower;

static void put(lower *s, words *to, const uint32_t *ins, uint32_t count)
{
    if (to->n + count > to->cap) {
        size_t cap = to->cap ? to->cap * 2 : 1024;
        while (cap < to->n + count)
            cap *= 2;
        uint32_t *w = realloc(to->w, cap * sizeof *w);
        if (!w) {
            s->oom = true;
            return;
        }
        to->w = w;
        to->cap = cap;
    }
    memcpy(to->w + to->n, ins, count * sizeof *ins);
    to->n += count;
}

/* An instruction of up to 8 operand words. */
static void emit(lower *s, words *to, SpvOp op, uint32_t count, const uint32_t *operands)
{
    uint32_t ins[9];
    ins[0] = count << 16 | (uint32_t)op;
    if (count > 1)
        memcpy(ins + 1, operands, (count - 1) * sizeof *ins);
    put(s, to, ins, count);
}

static uint32_t fresh_id(lower *s) { return s->bound++; }

static const uint32_t *declaration(const lower *s, uint32_t id)
{
    return id < s->module_bound && s->def[id] ? s->in + s->def[id] : NULL;
}

static SpvOp opcode_at(const uint32_t *ins) { return (SpvOp)(ins[0] & 0xffff); }

/* The unsigned integer type as wide as a pointer (found or declared). */
static uint32_t pointer_int(lower *s)
{
    if (s->uint_ptr)
        return s->uint_ptr;
    for (uint32_t id = 1; id < s->module_bound; id++) {
        const uint32_t *d = declaration(s, id);
        if (d && opcode_at(d) == SpvOpTypeInt && d[2] == s->pointer_bits && d[3] == 0)
            return s->uint_ptr = id;
    }
    s->uint_ptr = fresh_id(s);
    emit(s, &s->decls, SpvOpTypeInt, 4, (uint32_t[]){ s->uint_ptr, s->pointer_bits, 0 });
    return s->uint_ptr;
}

static uint32_t pointer_constant(lower *s, uint64_t value)
{
    uint32_t id = fresh_id(s), type = pointer_int(s);
    if (s->pointer_bits == 64)
        emit(s, &s->decls, SpvOpConstant, 5, (uint32_t[]){ type, id, (uint32_t)value, (uint32_t)(value >> 32) });
    else
        emit(s, &s->decls, SpvOpConstant, 4, (uint32_t[]){ type, id, (uint32_t)value });
    return id;
}

/* The integer value of a constant declared with OpConstant; false for any other id. */
static bool constant_value(const lower *s, uint32_t id, uint64_t *value)
{
    const uint32_t *d = declaration(s, id);
    if (!d || opcode_at(d) != SpvOpConstant)
        return false;
    uint32_t count = d[0] >> 16;
    *value = d[3] | (count > 4 ? (uint64_t)d[4] << 32 : 0);
    return true;
}

/* A type's size and alignment in bytes as OpenCL lays it out (a 3-vector
 * as a 4-vector, struct members at their natural alignment); false for a
 * type without one here (opaque types, runtime arrays). */
static bool type_layout(const lower *s, uint32_t type, uint64_t *size, uint64_t *align, int depth)
{
    const uint32_t *d = declaration(s, type);
    if (!d || depth > 16)
        return false;
    uint64_t n, esize, ealign;
    switch (opcode_at(d)) {
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        *size = *align = d[2] / 8;
        return *size > 0;
    case SpvOpTypeBool:
        *size = *align = 1;
        return true;
    case SpvOpTypePointer:
        *size = *align = s->pointer_bits / 8;
        return true;
    case SpvOpTypeVector:
        if (!type_layout(s, d[2], &esize, &ealign, depth + 1))
            return false;
        *size = *align = esize * (d[3] == 3 ? 4 : d[3]);
        return true;
    case SpvOpTypeArray:
        if (!constant_value(s, d[3], &n) || !type_layout(s, d[2], &esize, align, depth + 1))
            return false;
        *size = esize * n;
        return true;
    case SpvOpTypeStruct: {
        uint64_t at = 0, max_align = 1;
        for (uint32_t i = 2; i < d[0] >> 16; i++) {
            if (!type_layout(s, d[i], &esize, &ealign, depth + 1))
                return false;
            at = (at + ealign - 1) / ealign * ealign + esize;
            max_align = ealign > max_align ? ealign : max_align;
        }
        *size = (at + max_align - 1) / max_align * max_align;
        *align = max_align;
        return true;
    }
    default:
        return false;
    }
}

static void fail(lower *s, const char *what)
{
    if (!s->failed)
        mosaic_strbuf_printf(s->log, "error: SPIR-V 1.4: %s\n", what);
    s->failed = true;
}

/* OpPtrEqual, OpPtrNotEqual, OpPtrDiff: the addresses as integers. */
static void lower_pointer_op(lower *s, const uint32_t *ins)
{
    uint32_t type = ins[1], result = ins[2], a = ins[3], b = ins[4], uint_ptr = pointer_int(s);
    uint32_t ia = fresh_id(s), ib = fresh_id(s);
    emit(s, &s->body, SpvOpConvertPtrToU, 4, (uint32_t[]){ uint_ptr, ia, a });
    emit(s, &s->body, SpvOpConvertPtrToU, 4, (uint32_t[]){ uint_ptr, ib, b });
    if (opcode_at(ins) != SpvOpPtrDiff) {
        SpvOp compare = opcode_at(ins) == SpvOpPtrEqual ? SpvOpIEqual : SpvOpINotEqual;
        emit(s, &s->body, compare, 5, (uint32_t[]){ type, result, ia, ib });
        return;
    }
    /* in elements of the pointee: the byte difference over its size */
    const uint32_t *ptr = declaration(s, a < s->module_bound ? s->type_of[a] : 0);
    uint64_t size = 0, align;
    if (!ptr || opcode_at(ptr) != SpvOpTypePointer || !type_layout(s, ptr[3], &size, &align, 0) || size == 0) {
        fail(s, "OpPtrDiff of pointers to a type without a size");
        return;
    }
    uint32_t bytes = fresh_id(s), size_id = pointer_constant(s, size);
    emit(s, &s->body, SpvOpISub, 5, (uint32_t[]){ uint_ptr, bytes, ia, ib });
    const uint32_t *rt = declaration(s, type);
    bool same_width = rt && opcode_at(rt) == SpvOpTypeInt && rt[2] == s->pointer_bits;
    uint32_t quotient = same_width ? result : fresh_id(s);
    emit(s, &s->body, SpvOpSDiv, 5, (uint32_t[]){ same_width ? type : uint_ptr, quotient, bytes, size_id });
    if (!same_width)
        emit(s, &s->body, SpvOpSConvert, 4, (uint32_t[]){ type, result, quotient });
}

/* `result`, of composite type `type`, made of the n values as
 * OpCompositeConstruct would, as OpUndef and one OpCompositeInsert per
 * member: llvm-spirv-15 reads OpCompositeConstruct as a constant and crashes
 * when its operands are not.  A vector's operands may be vectors, whose
 * components each fill a member. */
static void build_composite(lower *s, words *to, uint32_t type, uint32_t result, const uint32_t *values, uint32_t n)
{
    const uint32_t *t = declaration(s, type);
    bool vector = t && opcode_at(t) == SpvOpTypeVector;
    uint32_t members = 0, *ids = malloc((n * 16 + 1) * sizeof *ids); /* the members' values, in order */
    if (!ids) {
        s->oom = true;
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t *vt = vector && values[i] < s->module_bound ? declaration(s, s->type_of[values[i]]) : NULL;
        if (vt && opcode_at(vt) == SpvOpTypeVector) {
            for (uint32_t j = 0; j < vt[3] && j < 16; j++) {
                ids[members] = fresh_id(s);
                emit(s, to, SpvOpCompositeExtract, 5, (uint32_t[]){ vt[2], ids[members++], values[i], j });
            }
        } else {
            ids[members++] = values[i];
        }
    }
    uint32_t current = fresh_id(s);
    emit(s, to, SpvOpUndef, 3, (uint32_t[]){ type, current });
    for (uint32_t i = 0; i < members; i++) {
        uint32_t next = i + 1 == members ? result : fresh_id(s);
        emit(s, to, SpvOpCompositeInsert, 6, (uint32_t[]){ type, next, ids[i], current, i });
        current = next;
    }
    free(ids);
}

/* A copy of value x (of type `from`) as type `to`, which has the same
 * members; result: the id to use (`into` when given). */
static uint32_t copy_logical(lower *s, uint32_t to, uint32_t from, uint32_t x, uint32_t into, int depth)
{
    if (to == from && !into)
        return x;
    const uint32_t *dt = declaration(s, to), *df = declaration(s, from);
    if (!dt || !df || opcode_at(dt) != opcode_at(df) || depth > 16) {
        fail(s, "OpCopyLogical between types that do not match");
        return x;
    }
    uint32_t n = 0;
    uint64_t len = 0;
    if (opcode_at(dt) == SpvOpTypeStruct && (dt[0] >> 16) == (df[0] >> 16)) {
        n = (dt[0] >> 16) - 2;
    } else if (opcode_at(dt) == SpvOpTypeArray && constant_value(s, dt[3], &len) && len <= 4096) {
        n = (uint32_t)len;
    } else if (to == from) { /* into a new id: a copy of a scalar */
        emit(s, &s->body, SpvOpCopyObject, 4, (uint32_t[]){ to, into, x });
        return into;
    } else {
        fail(s, "OpCopyLogical between types that do not match");
        return x;
    }
    uint32_t *parts = malloc((n ? n : 1) * sizeof *parts);
    if (!parts) {
        s->oom = true;
        return x;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t member_to = opcode_at(dt) == SpvOpTypeStruct ? dt[2 + i] : dt[2];
        uint32_t member_from = opcode_at(df) == SpvOpTypeStruct ? df[2 + i] : df[2];
        uint32_t part = fresh_id(s);
        emit(s, &s->body, SpvOpCompositeExtract, 5, (uint32_t[]){ member_from, part, x, i });
        parts[i] = copy_logical(s, member_to, member_from, part, 0, depth + 1);
    }
    uint32_t result = into ? into : fresh_id(s);
    build_composite(s, &s->body, to, result, parts, n);
    free(parts);
    return result;
}

/* The words of memory operands (a mask and its parameters) at ins[at]. */
static uint32_t memory_operand_words(uint32_t mask)
{
    return 1 + ((mask & SpvMemoryAccessAlignedMask) != 0) + ((mask & SpvMemoryAccessMakePointerAvailableMask) != 0) +
           ((mask & SpvMemoryAccessMakePointerVisibleMask) != 0);
}

/* A zero of an integer, float or bool type, or of a vector of one, as
 * OpConstant / OpConstantFalse (a vector: OpConstantComposite of one such
 * zero, declared just before it); false for other types, kept as they are. */
static bool lower_constant_null(lower *s, uint32_t type, uint32_t result, words *to)
{
    const uint32_t *t = declaration(s, type);
    if (t && opcode_at(t) == SpvOpTypeVector && t[3] <= 16) {
        uint32_t zero = fresh_id(s), parts[19] = { (3 + t[3]) << 16 | SpvOpConstantComposite, type, result };
        if (!lower_constant_null(s, t[2], zero, to))
            return false;
        for (uint32_t i = 0; i < t[3]; i++)
            parts[3 + i] = zero;
        put(s, to, parts, 3 + t[3]);
        return true;
    }
    if (t && opcode_at(t) == SpvOpTypeBool) {
        emit(s, to, SpvOpConstantFalse, 3, (uint32_t[]){ type, result });
        return true;
    }
    if (t && (opcode_at(t) == SpvOpTypeInt || opcode_at(t) == SpvOpTypeFloat)) {
        emit(s, to, SpvOpConstant, t[2] > 32 ? 5 : 4, (uint32_t[]){ type, result, 0, 0 });
        return true;
    }
    return false;
}

/* OpVectorShuffle of two vectors of different lengths (SPIR-V allows it;
 * the translator asserts they are alike, and crashes on a vector built by
 * OpCompositeConstruct): the shorter one widened to the longer one's type
 * by a shuffle of itself, then the shuffle of two alike, its indices into
 * the second moved up.  false when the shuffle is not of that kind. */
static bool lower_vector_shuffle(lower *s, const uint32_t *ins, uint32_t count, words *to)
{
    if (count < 6 || count - 5 > 16 || ins[3] >= s->module_bound || ins[4] >= s->module_bound)
        return false;
    uint32_t t1 = s->type_of[ins[3]], t2 = s->type_of[ins[4]];
    const uint32_t *v1 = declaration(s, t1), *v2 = declaration(s, t2);
    if (t1 == t2 || !v1 || !v2 || opcode_at(v1) != SpvOpTypeVector || opcode_at(v2) != SpvOpTypeVector ||
        v1[2] != v2[2])
        return false;
    uint32_t n1 = v1[3], n2 = v2[3], wide = n1 > n2 ? n1 : n2, wide_type = n1 > n2 ? t1 : t2;
    uint32_t a = ins[3], b = ins[4];
    uint32_t widen[21] = { (5 + wide) << 16 | SpvOpVectorShuffle, wide_type, fresh_id(s) };
    uint32_t short_one = n1 < n2 ? a : b, short_len = n1 < n2 ? n1 : n2;
    widen[3] = widen[4] = short_one;
    for (uint32_t i = 0; i < wide; i++) /* the short vector's components, then its first again */
        widen[5 + i] = i < short_len ? i : 0;
    put(s, to, widen, 5 + wide);
    if (n1 < n2)
        a = widen[2];
    else
        b = widen[2];
    uint32_t shuffle[21] = { count << 16 | SpvOpVectorShuffle, ins[1], ins[2], a, b };
    for (uint32_t i = 5; i < count; i++) {
        uint32_t k = ins[i];
        shuffle[i] = k == 0xffffffffu ? 0 : k < n1 ? k : wide + (k - n1);
    }
    put(s, to, shuffle, count);
    return true;
}

/* OpCopyMemory target source [target's operands [source's operands]]: the
 * translator aborts on it at any version, so a load of the source's type
 * and a store (one set of operands applies to both). */
static bool lower_copy_memory(lower *s, const uint32_t *ins, uint32_t count, words *to)
{
    const uint32_t *ptr = count >= 3 && ins[2] < s->module_bound ? declaration(s, s->type_of[ins[2]]) : NULL;
    if (!ptr || opcode_at(ptr) != SpvOpTypePointer)
        return false;
    uint32_t first = count > 3 ? memory_operand_words(ins[3]) : 0;
    uint32_t second = count > 3 + first ? memory_operand_words(ins[3 + first]) : 0;
    if (3 + first + second != count || first > 4 || second > 4)
        return false;
    uint32_t value = fresh_id(s), load[8] = { 0, ptr[3], value, ins[2] }, store[8] = { 0, ins[1], value };
    const uint32_t *source_ops = second ? ins + 3 + first : ins + 3;
    memcpy(load + 4, source_ops, (second ? second : first) * sizeof *load);
    load[0] = (4 + (second ? second : first)) << 16 | SpvOpLoad;
    memcpy(store + 3, ins + 3, first * sizeof *store);
    store[0] = (3 + first) << 16 | SpvOpStore;
    put(s, to, load, load[0] >> 16);
    put(s, to, store, store[0] >> 16);
    return true;
}

/* ---- SPV_EXT_shader_atomic_float16_add ---------------------------------------- */

static const char float16_add[] = "SPV_EXT_shader_atomic_float16_add";

/* OpExtension "SPV_EXT_shader_atomic_float16_add" (its string, nul-padded to whole words) */
static bool is_float16_add(const uint32_t *ins, uint32_t count)
{
    return opcode_at(ins) == SpvOpExtension && (count - 1) * 4 >= sizeof float16_add &&
           memcmp(ins + 1, float16_add, sizeof float16_add) == 0;
}

static bool is_float16_add_capability(const uint32_t *ins, uint32_t count)
{
    return opcode_at(ins) == SpvOpCapability && count == 2 && ins[1] == SpvCapabilityAtomicFloat16AddEXT;
}

/* ---- OpReadClockKHR -------------------------------------------------------- */

static const char *const clock_names[3][2] = {
    { "_Z17clock_read_devicev", "_Z22clock_read_hilo_devicev" },
    { "_Z21clock_read_work_groupv", "_Z26clock_read_hilo_work_groupv" },
    { "_Z20clock_read_sub_groupv", "_Z25clock_read_hilo_sub_groupv" },
};

/* Which built-in an OpReadClockKHR calls: false when its scope is not a
 * constant Device, Workgroup or Subgroup or its type neither a 64-bit
 * integer nor a vector of two 32-bit ones (spirv-val allows no other). */
static bool clock_builtin(const lower *s, const uint32_t *ins, uint32_t count, int *scope, int *hilo)
{
    uint64_t value;
    const uint32_t *t = count == 4 ? declaration(s, ins[1]) : NULL;
    if (!t || !constant_value(s, ins[3], &value))
        return false;
    *scope = value == SpvScopeDevice ? 0 : value == SpvScopeWorkgroup ? 1 : value == SpvScopeSubgroup ? 2 : -1;
    *hilo = opcode_at(t) == SpvOpTypeVector;
    return *scope >= 0;
}

/* A literal string's words (NUL-terminated, padded with zeros). */
static uint32_t string_words(const char *text, uint32_t *out, uint32_t max)
{
    uint32_t n = (uint32_t)(strlen(text) / 4 + 1);
    if (n > max)
        return 0;
    memset(out, 0, n * sizeof *out);
    memcpy(out, text, strlen(text));
    return n;
}

/* Before the module's first type: each clock built-in's import decoration. */
static void put_clock_names(lower *s, words *to)
{
    s->clock_names_out = true;
    for (int scope = 0; scope < 3; scope++)
        for (int hilo = 0; hilo < 2; hilo++) {
            if (!s->clock_fn[scope][hilo])
                continue;
            uint32_t ins[16] = { 0, s->clock_fn[scope][hilo], SpvDecorationLinkageAttributes };
            uint32_t n = string_words(clock_names[scope][hilo], ins + 3, 12);
            ins[3 + n] = SpvLinkageTypeImport;
            ins[0] = (4 + n) << 16 | SpvOpDecorate;
            put(s, to, ins, 4 + n);
        }
}

/* After the declarations: each clock built-in's function type and body-less function. */
static void put_clock_functions(lower *s)
{
    for (int scope = 0; scope < 3; scope++)
        for (int hilo = 0; hilo < 2; hilo++) {
            uint32_t fn = s->clock_fn[scope][hilo], type = s->clock_type[scope][hilo], fn_type = fresh_id(s);
            if (!fn)
                continue;
            emit(s, &s->decls, SpvOpTypeFunction, 3, (uint32_t[]){ fn_type, type });
            emit(s, &s->imports, SpvOpFunction, 5, (uint32_t[]){ type, fn, SpvFunctionControlMaskNone, fn_type });
            emit(s, &s->imports, SpvOpFunctionEnd, 1, NULL);
        }
}

static bool is_clock_extension(const uint32_t *ins, uint32_t count)
{
    static const char name[] = "SPV_KHR_shader_clock";
    return opcode_at(ins) == SpvOpExtension && count >= 2 && (count - 1) * 4 > strlen(name) &&
           !strcmp((const char *)(ins + 1), name);
}

/* Instructions that come before the types in a module's layout. */
static bool before_types(SpvOp op)
{
    switch (op) {
    case SpvOpCapability: case SpvOpExtension: case SpvOpExtInstImport: case SpvOpMemoryModel:
    case SpvOpEntryPoint: case SpvOpExecutionMode: case SpvOpExecutionModeId: case SpvOpString:
    case SpvOpSource: case SpvOpSourceExtension: case SpvOpSourceContinued: case SpvOpName:
    case SpvOpMemberName: case SpvOpModuleProcessed: case SpvOpDecorate: case SpvOpMemberDecorate:
    case SpvOpDecorationGroup: case SpvOpGroupDecorate: case SpvOpGroupMemberDecorate: case SpvOpDecorateId:
    case SpvOpDecorateString: case SpvOpMemberDecorateString: case SpvOpNop: case SpvOpLine: case SpvOpNoLine:
        return true;
    default:
        return false;
    }
}

static void lower_instruction(lower *s, const uint32_t *ins, uint32_t count, words *to)
{
    SpvOp op = opcode_at(ins);
    if (to == &s->head && !s->clock_names_out && !before_types(op))
        put_clock_names(s, to);
    if (is_float16_add(ins, count)) {
        static const char float_add[] = "SPV_EXT_shader_atomic_float_add";
        uint32_t name[(sizeof float_add + 3) / 4] = {0};
        memcpy(name, float_add, sizeof float_add);
        emit(s, to, SpvOpExtension, 1 + sizeof name / 4, name);
        return;
    }
    if (is_float16_add_capability(ins, count)) {
        emit(s, to, SpvOpCapability, 2, (uint32_t[]){ SpvCapabilityAtomicFloat32AddEXT });
        return;
    }
    switch (op) {
    case SpvOpExtension:
        if (is_clock_extension(ins, count))
            return;
        break;
    case SpvOpCapability: /* the clock built-ins' declarations need Linkage (twice is harmless) */
        if (count == 2 && ins[1] == SpvCapabilityShaderClockKHR) {
            emit(s, to, SpvOpCapability, 2, (uint32_t[]){ SpvCapabilityLinkage });
            return;
        }
        break;
    case SpvOpReadClockKHR: {
        int scope, hilo;
        if (clock_builtin(s, ins, count, &scope, &hilo) && s->clock_fn[scope][hilo]) {
            emit(s, to, SpvOpFunctionCall, 4, (uint32_t[]){ ins[1], ins[2], s->clock_fn[scope][hilo] });
            return;
        }
        fail(s, "OpReadClockKHR of a scope other than a constant Device, Workgroup or Subgroup");
        return;
    }
    case SpvOpDecorateString:
    case SpvOpMemberDecorateString:
        return;
    case SpvOpConstantNull:
        if (!lower_constant_null(s, ins[1], ins[2], to))
            put(s, to, ins, count);
        return;
    case SpvOpCopyMemory:
        if (lower_copy_memory(s, ins, count, to))
            return;
        break;
    case SpvOpVectorShuffle:
        if (lower_vector_shuffle(s, ins, count, to))
            return;
        break;
    case SpvOpCompositeConstruct:
        if (to == &s->body && count > 3) {
            build_composite(s, to, ins[1], ins[2], ins + 3, count - 3);
            return;
        }
        break;
    case SpvOpExpectKHR: { /* the translator crashes on a vector's; the value is the result */
        const uint32_t *t = declaration(s, ins[1]);
        if (count == 5 && t && opcode_at(t) == SpvOpTypeVector) {
            emit(s, to, SpvOpCopyObject, 4, (uint32_t[]){ ins[1], ins[2], ins[3] });
            return;
        }
        break;
    }
    case SpvOpCopyMemorySized: { /* the target's memory operands only (the source's are hints) */
        uint32_t keep = count > 4 ? 4 + memory_operand_words(ins[4]) : count, copy[16];
        if (keep > count || keep > 16)
            break;
        memcpy(copy, ins, keep * sizeof *copy);
        copy[0] = keep << 16 | op;
        put(s, to, copy, keep);
        return;
    }
    case SpvOpPtrEqual:
    case SpvOpPtrNotEqual:
    case SpvOpPtrDiff:
        if (count == 5) {
            lower_pointer_op(s, ins);
            return;
        }
        break;
    case SpvOpCopyLogical:
        if (count == 4 && ins[3] < s->module_bound) {
            copy_logical(s, ins[1], s->type_of[ins[3]], ins[3], ins[2], 0);
            return;
        }
        break;
    default:
        break;
    }
    put(s, to, ins, count);
}

/* First pass: each id's declaration and each value's type, the addressing
 * model and the Int64 capability. */
static bool scan(lower *s)
{
    for (size_t i = HEADER_WORDS; i < s->nin;) {
        uint32_t count = s->in[i] >> 16;
        if (!count || count > s->nin - i)
            return false;
        const uint32_t *ins = s->in + i;
        bool has_result, has_type;
        SpvHasResultAndType(opcode_at(ins), &has_result, &has_type);
        uint32_t at = has_type ? 2 : 1;
        if (has_result && at < count && ins[at] < s->module_bound) {
            s->def[ins[at]] = i;
            if (has_type)
                s->type_of[ins[at]] = ins[1];
        }
        if (opcode_at(ins) == SpvOpMemoryModel && count >= 2)
            s->pointer_bits = ins[1] == SpvAddressingModelPhysical32 ? 32 : 64;
        if (opcode_at(ins) == SpvOpCapability && count >= 2 && ins[1] == SpvCapabilityInt64)
            s->has_int64 = true;
        int scope, hilo;
        if (opcode_at(ins) == SpvOpReadClockKHR && clock_builtin(s, ins, count, &scope, &hilo) &&
            !s->clock_fn[scope][hilo]) {
            s->clock_fn[scope][hilo] = fresh_id(s);
            s->clock_type[scope][hilo] = ins[1];
        }
        i += count;
    }
    return true;
}

static bool needs_lowering(const uint32_t *w, size_t nwords)
{
    for (size_t i = HEADER_WORDS; i < nwords;) {
        uint32_t count = w[i] >> 16;
        if (!count || count > nwords - i)
            return false;
        if (is_float16_add(w + i, count) || is_float16_add_capability(w + i, count))
            return true;
        switch (opcode_at(w + i)) {
        case SpvOpDecorateString:
        case SpvOpMemberDecorateString:
        case SpvOpConstantNull:
        case SpvOpPtrEqual:
        case SpvOpPtrNotEqual:
        case SpvOpPtrDiff:
        case SpvOpCopyLogical:
            return true;
        case SpvOpCopyMemory:
        case SpvOpCompositeConstruct:
        case SpvOpExpectKHR:
        case SpvOpVectorShuffle: /* perhaps of vectors of two lengths */
            return true;
        case SpvOpCopyMemorySized:
            if (count > 4) /* memory operands: perhaps the source's too */
                return true;
            break;
        case SpvOpReadClockKHR:
            return true;
        case SpvOpExtension: /* the translator refuses the module for the name alone */
            if (is_clock_extension(w + i, count))
                return true;
            break;
        default:
            break;
        }
        i += count;
    }
    return false;
}

cl_int mc_spirv_lower(uint32_t **module, size_t *nwords, mosaic_strbuf *log)
{
    const uint32_t *w = *module;
    if (*nwords < HEADER_WORDS || !needs_lowering(w, *nwords))
        return CL_SUCCESS;
    lower s = { .in = w, .nin = *nwords, .bound = w[3], .module_bound = w[3], .pointer_bits = 64, .log = log };
    s.type_of = calloc(s.module_bound ? s.module_bound : 1, sizeof *s.type_of);
    s.def = calloc(s.module_bound ? s.module_bound : 1, sizeof *s.def);
    cl_int r = CL_SUCCESS;
    if (!s.type_of || !s.def || !scan(&s)) {
        r = s.type_of && s.def ? CL_SUCCESS : mc_out_of_memory(log); /* a malformed count: the translator says */
        goto done;
    }
    bool in_functions = false;
    for (size_t i = HEADER_WORDS; i < s.nin && !s.oom;) {
        uint32_t count = s.in[i] >> 16;
        in_functions |= opcode_at(s.in + i) == SpvOpFunction;
        lower_instruction(&s, s.in + i, count, in_functions ? &s.body : &s.head);
        i += count;
    }
    put_clock_functions(&s);
    /* the integer type of a pointer's width needs Int64 on a 64-bit module */
    bool add_int64 = s.uint_ptr >= s.module_bound && s.pointer_bits == 64 && !s.has_int64;
    size_t total = HEADER_WORDS + (add_int64 ? 2 : 0) + s.head.n + s.decls.n + s.imports.n + s.body.n;
    uint32_t *out = s.oom ? NULL : malloc(total * sizeof *out);
    if (!out) {
        r = mc_out_of_memory(log);
        goto done;
    }
    if (s.failed) {
        free(out);
        r = CL_COMPILE_PROGRAM_FAILURE;
        goto done;
    }
    size_t n = 0;
    memcpy(out, w, HEADER_WORDS * sizeof *out);
    out[3] = s.bound;
    n = HEADER_WORDS;
    if (add_int64) {
        out[n++] = 2u << 16 | SpvOpCapability;
        out[n++] = SpvCapabilityInt64;
    }
    const words *sections[] = {&s.head, &s.decls, &s.imports, &s.body};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (sections[i]->n) { /* an empty section may have no array: memcpy's source must not be NULL */
            memcpy(out + n, sections[i]->w, sections[i]->n * sizeof *out);
            n += sections[i]->n;
        }
    free(*module);
    *module = out;
    *nwords = n;
done:
    free(s.type_of);
    free(s.def);
    free(s.head.w);
    free(s.decls.w);
    free(s.imports.w);
    free(s.body.w);
    return r;
}
