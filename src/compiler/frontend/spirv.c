/* SPIR-V programs (docs/spirv.md): clCreateProgramWithIL's modules are
 * checked by spirv-val and translated to LLVM bitcode by Debian's
 * llvm-spirv-15, both child processes (child.c), never read by a parser of
 * ours.  llvm-spirv-15 writes LLVM 15 bitcode, which LLVM 16 reads; with
 * --spirv-target-env=CL2.0 the OpenCL.std instructions and the SPIR-V
 * built-ins come back as calls of OpenCL C built-ins under their Itanium
 * mangled names, the names of the builtin library, so the module then goes down
 * the path of clang's bitcode (printf lowering, link, finalize).
 *
 * The only words read here: the header (magic number and version, for a
 * clear message) and, for specialization constants, the SpecId decorations,
 * the OpSpecConstant* instructions and the scalar types they use.  Values are
 * written into a copy of the module rather than passed to llvm-spirv's
 * --spec-const, which parses them as text and refuses negative numbers and
 * 64-bit values at or above 2^62. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>

#include "base/settings.h"
#include "compiler/cache/cache.h"
#include "compiler/frontend/binary.h"
#include "compiler/frontend/child.h"
#include "compiler/frontend/frontend.h"
#include "compiler/frontend/options.h"
#include "compiler/frontend/printf.h"
#include "compiler/frontend/spirv_cache.h"
#include "compiler/frontend/spirv_lower.h"
#include "compiler/frontend/spirv_nvptx.h"
#include "compiler/frontend/spirv_support.h"
#include "compiler/frontend/tool_files.h"
#include "compiler/ir/llvm.h"
#include "compiler/ir/log.h"

#define SPIRV_MAGIC 0x07230203u
#define HEADER_WORDS 5u
/* How long the validator may take on one module (the translator has
 * MOSAIC_BUILD_TIMEOUT_S), and how much memory a tool may map. */
#define TOOL_TIMEOUT_MS 60000
#define TOOL_MEMORY(size) (((uint64_t)1 << 30) + 64 * (uint64_t)(size))

enum {
    OP_TYPE_BOOL = 20, OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22,
    OP_SPEC_CONSTANT_TRUE = 48, OP_SPEC_CONSTANT_FALSE = 49, OP_SPEC_CONSTANT = 50,
    OP_DECORATE = 71, DECORATION_SPEC_ID = 1,
};

static uint32_t bswap32(uint32_t w)
{
    return w >> 24 | (w >> 8 & 0xff00u) | (w << 8 & 0xff0000u) | w << 24;
}

/* The module as little-endian words (SPIR-V may be written in either byte
 * order; the tools get this copy): NULL when out of memory. */
static uint32_t *module_words(const void *il, size_t size)
{
    uint32_t *w = malloc(size ? size : 1);
    if (!w)
        return NULL;
    memcpy(w, il, size);
    if (size >= 4 && w[0] == bswap32(SPIRV_MAGIC))
        for (size_t i = 0; i < size / 4; i++)
            w[i] = bswap32(w[i]);
    return w;
}

/* The header: the magic number, a version the translator reads. */
static cl_int check_header(const uint32_t *w, size_t size, mosaic_strbuf *log)
{
    if (size < HEADER_WORDS * 4 || size % 4) {
        mosaic_strbuf_printf(log, "error: the SPIR-V module is %zu bytes: a module is a whole number of 32-bit words, "
                                  "at least the 5 of its header\n", size);
        return CL_INVALID_VALUE;
    }
    if (w[0] != SPIRV_MAGIC) {
        mosaic_strbuf_printf(log, "error: not a SPIR-V module: its first word is 0x%08x, not the magic number "
                                  "0x07230203\n", w[0]);
        return CL_INVALID_VALUE;
    }
    unsigned major = w[1] >> 16 & 0xff, minor = w[1] >> 8 & 0xff;
    if (major != 1 || minor > MOSAIC_SPIRV_MAX_MINOR || (w[1] & 0xff0000ffu)) {
        mosaic_strbuf_printf(log, "error: the module is SPIR-V %u.%u (version word 0x%08x); Mosaic takes SPIR-V "
                                  "1.0 to 1.%d\n", major, minor, w[1], MOSAIC_SPIRV_MAX_MINOR);
        return CL_INVALID_VALUE;
    }
    return CL_SUCCESS;
}

/* An unlinked in-memory file holding the bytes (a child's stdin), or -1. */
static int memory_file(const void *data, size_t size)
{
    int fd = memfd_create("mosaic-spirv", MFD_CLOEXEC);
    size_t done = 0;
    while (fd >= 0 && done < size) {
        ssize_t n = write(fd, (const char *)data + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    if (fd >= 0 && (done < size || lseek(fd, 0, SEEK_SET) != 0)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* What a tool said, cut to a few lines a person reads. */
static void append_tool_output(mosaic_strbuf *log, const mosaic_strbuf *out)
{
    const char *p = out->data ? out->data : "";
    for (int lines = 0; *p && lines < 8; lines++) {
        size_t n = strcspn(p, "\n");
        mosaic_strbuf_printf(log, "  %.*s\n", (int)(n > 400 ? 400 : n), p);
        p += n + (p[n] == '\n');
    }
}

/* Why a tool that was to succeed did not: into the log. */
static void tool_failure(mosaic_strbuf *log, const char *what, const char *tool, const char *setting,
                         const mc_child *c, const mosaic_strbuf *out)
{
    if (c->end == MC_CHILD_NOT_STARTED)
        mosaic_strbuf_printf(log, "error: cannot run the %s '%s': %s (set %s)\n", what, tool, strerror(c->code),
                             setting);
    else if (c->end == MC_CHILD_SIGNALED)
        mosaic_strbuf_printf(log, "error: the %s (%s) crashed on the module (signal %d)\n", what, tool, c->code);
    else if (c->end == MC_CHILD_TIMED_OUT)
        mosaic_strbuf_printf(log, "error: the %s (%s) took over %d s on the module and was stopped\n", what,
                             tool, c->timeout_ms / 1000);
    else
        mosaic_strbuf_printf(log, "error: the %s (%s) refused the module:\n", what, tool);
    append_tool_output(log, out);
}

/* spirv-val on the module (universal environment: OpenCL's environments
 * stop at SPIR-V 1.2). */
static cl_int validate(const uint32_t *w, size_t size, mosaic_strbuf *log)
{
    const char *tool = mosaic_settings()->spirv_val;
    int fd = memory_file(w, size);
    if (fd < 0) {
        mosaic_strbuf_printf(log, "error: cannot hand the module to the SPIR-V validator: %s\n", strerror(errno));
        return CL_OUT_OF_HOST_MEMORY;
    }
    const char *argv[] = {tool, "-", NULL};
    mc_child c = {.stdin_fd = fd, .timeout_ms = TOOL_TIMEOUT_MS, .max_memory = TOOL_MEMORY(size)};
    mosaic_strbuf out = {0}, records = {0};
    if (mc_cache_enabled())
        mc_tool_files(tool, &records); /* what this validator is, before it runs */
    mc_run_child(argv, &c, &out);
    close(fd);
    /* silence is success: spirv-val prints nothing for a valid module (the
     * exit status is lost when the application ignores SIGCHLD) */
    bool ok = (c.end == MC_CHILD_EXITED && c.code == 0) || (c.end == MC_CHILD_UNKNOWN && !out.len);
    if (!ok)
        tool_failure(log, "SPIR-V validator", tool, "MOSAIC_SPIRV_VAL to spirv-val", &c, &out);
    else
        mc_spirv_store_validated(w, size, &records);
    mosaic_strbuf_free(&out);
    mosaic_strbuf_free(&records);
    return ok ? CL_SUCCESS : CL_INVALID_VALUE;
}

/* ---- specialization constants ---------------------------------------------------- */

/* Visits the instructions after the header: fn(words of one instruction,
 * its word count, arg), which may change the words (w is always our copy).
 * The module passed spirv-val, yet the counts are checked: nothing is read
 * past the end. */
static void each_instruction(uint32_t *w, size_t nwords, void (*fn)(uint32_t *, uint32_t, void *), void *arg)
{
    for (size_t i = HEADER_WORDS; i < nwords;) {
        uint32_t count = w[i] >> 16;
        if (!count || count > nwords - i)
            return;
        fn(w + i, count, arg);
        i += count;
    }
}

typedef struct spec_scan {
    mosaic_spec_constant *specs; /* one per SpecId decoration, in order */
    uint32_t *targets;           /* the decorated result id of each */
    size_t count, cap;
    bool oom;
} spec_scan;

static void find_spec_ids(uint32_t *ins, uint32_t count, void *arg)
{
    spec_scan *s = arg;
    if ((ins[0] & 0xffffu) != OP_DECORATE || count < 4 || ins[2] != DECORATION_SPEC_ID || s->oom)
        return;
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        mosaic_spec_constant *specs = realloc(s->specs, cap * sizeof *specs);
        if (specs)
            s->specs = specs;
        uint32_t *targets = specs ? realloc(s->targets, cap * sizeof *targets) : NULL;
        if (!targets) {
            s->oom = true;
            return;
        }
        s->targets = targets;
        s->cap = cap;
    }
    s->targets[s->count] = ins[1];
    s->specs[s->count++] = (mosaic_spec_constant){.id = ins[3]};
}

/* The scalar types (OpTypeBool/Int/Float) a constant may have: a module
 * declares each width and signedness once, a handful in all. */
typedef struct scalar_type { uint32_t id, bytes; bool is_bool, is_signed; } scalar_type;
typedef struct type_scan { const spec_scan *s; scalar_type types[64]; size_t ntypes; } type_scan;

static void find_types(uint32_t *ins, uint32_t count, void *arg)
{
    type_scan *t = arg;
    uint32_t op = ins[0] & 0xffffu;
    if (t->ntypes == sizeof t->types / sizeof t->types[0] || count < 2)
        return;
    if (op == OP_TYPE_BOOL)
        t->types[t->ntypes++] = (scalar_type){.id = ins[1], .bytes = 1, .is_bool = true};
    else if ((op == OP_TYPE_INT && count >= 4) || (op == OP_TYPE_FLOAT && count >= 3))
        t->types[t->ntypes++] = (scalar_type){.id = ins[1], .bytes = ins[2] / 8,
                                              .is_signed = op == OP_TYPE_INT && ins[3]};
}

static const scalar_type *type_of(const type_scan *t, uint32_t id)
{
    for (size_t i = 0; i < t->ntypes; i++)
        if (t->types[i].id == id)
            return &t->types[i];
    return NULL;
}

/* Index of the SpecId decoration on result id `target`, or -1. */
static long spec_index(const spec_scan *s, uint32_t target)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->targets[i] == target)
            return (long)i;
    return -1;
}

/* The size of each decorated constant: 1 for a boolean, else its type's. */
static void find_sizes(uint32_t *ins, uint32_t count, void *arg)
{
    type_scan *t = arg;
    uint32_t op = ins[0] & 0xffffu;
    if ((op != OP_SPEC_CONSTANT_TRUE && op != OP_SPEC_CONSTANT_FALSE && op != OP_SPEC_CONSTANT) || count < 3)
        return;
    long i = spec_index(t->s, ins[2]);
    const scalar_type *ty = type_of(t, ins[1]);
    if (i >= 0 && ty)
        t->s->specs[i].size = ty->bytes;
}

/* Writes the values set into the module's words. */
typedef struct spec_patch { type_scan *t; const mosaic_spec_constant *values; size_t nvalues; } spec_patch;

static const mosaic_spec_constant *value_of(const spec_patch *p, uint32_t spec_id)
{
    for (size_t i = 0; i < p->nvalues; i++)
        if (p->values[i].id == spec_id && p->values[i].set)
            return &p->values[i];
    return NULL;
}

static void patch_value(uint32_t *ins, uint32_t count, void *arg)
{
    spec_patch *p = arg;
    uint32_t op = ins[0] & 0xffffu;
    if ((op != OP_SPEC_CONSTANT_TRUE && op != OP_SPEC_CONSTANT_FALSE && op != OP_SPEC_CONSTANT) || count < 3)
        return;
    long i = spec_index(p->t->s, ins[2]);
    const scalar_type *ty = type_of(p->t, ins[1]);
    const mosaic_spec_constant *v = i >= 0 && ty ? value_of(p, p->t->s->specs[i].id) : NULL;
    if (!v)
        return;
    if (op != OP_SPEC_CONSTANT) {
        ins[0] = (ins[0] & 0xffff0000u) | (v->value ? OP_SPEC_CONSTANT_TRUE : OP_SPEC_CONSTANT_FALSE);
        return;
    }
    uint64_t x = v->value;
    if (ty->bytes < 8) {
        /* narrower than its words: unsigned and float zero-extend, signed sign-extends */
        unsigned bits = ty->bytes * 8;
        x &= (1ull << bits) - 1;
        if (ty->is_signed && bits < 32 && (x >> (bits - 1) & 1))
            x |= ~0ull << bits;
    }
    ins[3] = (uint32_t)x;
    if (count >= 5)
        ins[4] = (uint32_t)(x >> 32);
}

/* Lists the module's specialization constants (words already checked). */
static cl_int list_spec_constants(uint32_t *w, size_t nwords, mosaic_spec_constant **out, size_t *nout,
                                  mosaic_strbuf *log)
{
    spec_scan s = {0};
    each_instruction(w, nwords, find_spec_ids, &s);
    if (s.oom) {
        free(s.specs);
        free(s.targets);
        return mc_out_of_memory(log);
    }
    type_scan t = {.s = &s};
    each_instruction(w, nwords, find_types, &t);
    each_instruction(w, nwords, find_sizes, &t);
    free(s.targets);
    /* a SpecId on something that is not a scalar constant (spirv-val allows
     * it on nothing else) keeps size 0 and is not listed */
    size_t n = 0;
    for (size_t i = 0; i < s.count; i++)
        if (s.specs[i].size)
            s.specs[n++] = s.specs[i];
    if (!n) {
        free(s.specs);
        s.specs = NULL;
    }
    *out = s.specs;
    *nout = n;
    return CL_SUCCESS;
}

/* The module with the values set written in (w is modified). */
static cl_int apply_spec_constants(uint32_t *w, size_t nwords, size_t nvalues, const mosaic_spec_constant *values,
                                   mosaic_strbuf *log)
{
    bool any = false;
    for (size_t i = 0; i < nvalues; i++)
        any |= values[i].set;
    if (!any)
        return CL_SUCCESS;
    spec_scan s = {0};
    each_instruction(w, nwords, find_spec_ids, &s);
    type_scan t = {.s = &s};
    each_instruction(w, nwords, find_types, &t);
    spec_patch p = {.t = &t, .values = values, .nvalues = nvalues};
    if (!s.oom)
        each_instruction(w, nwords, patch_value, &p);
    free(s.specs);
    free(s.targets);
    return s.oom ? mc_out_of_memory(log) : CL_SUCCESS;
}

cl_int mosaic_spirv_check(const void *il, size_t size, mosaic_spec_constant **specs, size_t *num_specs,
                          char **log_out)
{
    mosaic_strbuf log = {0};
    *specs = NULL;
    *num_specs = 0;
    uint32_t *w = il ? module_words(il, size) : NULL;
    cl_int r = il && size ? CL_SUCCESS : CL_INVALID_VALUE;
    if (r != CL_SUCCESS)
        mosaic_strbuf_puts(&log, "error: no SPIR-V module\n");
    else if (!w)
        r = mc_out_of_memory(&log);
    if (r == CL_SUCCESS)
        r = check_header(w, size, &log);
    /* a module that passed this validator before (spirv_cache.c) is not validated again */
    bool known = r == CL_SUCCESS && mc_spirv_validated(w, size);
    if (mosaic_debugging(MOSAIC_DEBUG_CACHE) && r == CL_SUCCESS && mc_cache_enabled())
        fprintf(stderr, "mosaic: SPIR-V validation cache %s\n", known ? "hit" : "miss");
    if (r == CL_SUCCESS && !known)
        r = validate(w, size, &log);
    if (r == CL_SUCCESS)
        r = list_spec_constants(w, size / 4, specs, num_specs, &log);
    free(w);
    return mc_finish_log(&log, r, log_out, "SPIR-V check");
}

/* ---- kernel signatures --------------------------------------------------------------
 * The OpenCL SPIR-V environment lists what a kernel's parameters may be
 * (OpFunctionParameter of an OpEntryPoint's function): integers of 8 to 64
 * bits, floats of 32 bits (16 and 64 with cl_khr_fp16 and cl_khr_fp64),
 * vectors and structs of those (and of pointers), pointers to CrossWorkgroup,
 * UniformConstant or Workgroup memory, samplers, images, pipes and queues.
 * spirv-val does not hold a module to that list and the translator takes
 * anything, so the rest would reach clSetKernelArg as a value of its size:
 * a pointer to Function (private) or Generic memory would get the host's
 * cl_mem handle and write into Mosaic's own objects, a bool or an event the
 * host cannot represent.  OpenCL C's kernels meet the same rules in clang. */

enum {
    OP_NAME = 5, OP_ENTRY_POINT = 15, OP_TYPE_VOID = 19, OP_TYPE_VECTOR = 23, OP_TYPE_IMAGE = 25,
    OP_TYPE_SAMPLER = 26, OP_TYPE_ARRAY = 28, OP_TYPE_STRUCT = 30, OP_TYPE_POINTER = 32, OP_TYPE_FUNCTION = 33,
    OP_TYPE_EVENT = 34, OP_TYPE_DEVICE_EVENT = 35, OP_TYPE_RESERVE_ID = 36, OP_TYPE_QUEUE = 37, OP_TYPE_PIPE = 38,
    OP_TYPE_FORWARD_POINTER = 39, OP_FUNCTION = 54, OP_FUNCTION_PARAMETER = 55, OP_FUNCTION_END = 56,
};
enum { STORAGE_UNIFORM_CONSTANT = 0, STORAGE_WORKGROUP = 4, STORAGE_CROSS_WORKGROUP = 5, STORAGE_FUNCTION = 7 };
enum { DECORATION_FUNC_PARAM_ATTR = 38, FUNC_PARAM_ATTR_BY_VAL = 2 };
#define MAX_ID_BOUND ((uint32_t)1 << 22)

/* What a module's ids are, as far as kernel parameters care: one entry per
 * id below the header's bound. */
typedef struct sig_id {
    uint32_t at;       /* word index of the instruction declaring it (a type, a function, a parameter); 0: none */
    uint32_t bad;      /* for a type: the id of a part no kernel argument may hold (itself, or a member's); 0: none */
    uint32_t name;     /* word index of its OpName; 0: none */
    bool by_val;       /* decorated FuncParamAttr ByVal: a parameter passed by value through a pointer */
} sig_id;

typedef struct sig_scan {
    const uint32_t *w;
    sig_id *ids;
    uint32_t bound;
    bool fp16, fp64;
} sig_scan;

static const sig_id *sig_lookup(const sig_scan *s, uint32_t id)
{
    return id && id < s->bound && s->ids[id].at ? &s->ids[id] : NULL;
}

static uint32_t opcode_of(const sig_scan *s, uint32_t id)
{
    const sig_id *d = sig_lookup(s, id);
    return d ? s->w[d->at] & 0xffffu : 0;
}

/* The id of the part of type `id` that a by-value kernel argument (a
 * scalar, a vector, a struct's member or an array's element) cannot hold,
 * or 0.  Types come before their uses, but for pointers (which are allowed
 * and not followed), so a struct's members are known when it is. */
static uint32_t bad_part(const sig_scan *s, const uint32_t *ins, uint32_t count)
{
    uint32_t op = ins[0] & 0xffffu, id = ins[1];
    const sig_id *part;
    switch (op) {
    case OP_TYPE_INT:
        return count >= 3 && (ins[2] == 8 || ins[2] == 16 || ins[2] == 32 || ins[2] == 64) ? 0 : id;
    case OP_TYPE_FLOAT:
        return count >= 3 && (ins[2] == 32 || (ins[2] == 16 && s->fp16) || (ins[2] == 64 && s->fp64)) ? 0 : id;
    case OP_TYPE_VECTOR:
    case OP_TYPE_ARRAY:
        part = count >= 3 ? sig_lookup(s, ins[2]) : NULL;
        return part ? part->bad : id;
    case OP_TYPE_STRUCT:
        for (uint32_t i = 2; i < count; i++) {
            part = sig_lookup(s, ins[i]);
            if (!part)
                return id;
            if (part->bad)
                return part->bad;
        }
        return 0;
    case OP_TYPE_POINTER:
    case OP_TYPE_FORWARD_POINTER:
        return count >= 3 ? 0 : id; /* a struct may hold pointers: the host writes the address itself */
    default:
        return id; /* bool, events, images, samplers, queues, pipes, runtime arrays... */
    }
}

static const char *storage_class_name(uint32_t sc)
{
    static const char *const names[] = {"UniformConstant", "Input", "Uniform", "Output", "Workgroup",
                                        "CrossWorkgroup", "Private", "Function", "Generic"};
    return sc < sizeof names / sizeof names[0] ? names[sc] : "an unknown";
}

/* "OpTypeBool", "a 16-bit OpTypeFloat" ...: what type `id` is, for the log. */
static void describe_type(const sig_scan *s, uint32_t id, char *buf, size_t size)
{
    static const char *const type_ops[] = {"OpTypeVoid", "OpTypeBool", "OpTypeInt", "OpTypeFloat",
                                           "OpTypeVector", "OpTypeMatrix", "OpTypeImage", "OpTypeSampler",
                                           "OpTypeSampledImage", "OpTypeArray", "OpTypeRuntimeArray",
                                           "OpTypeStruct", "OpTypeOpaque", "OpTypePointer", "OpTypeFunction",
                                           "OpTypeEvent", "OpTypeDeviceEvent", "OpTypeReserveId", "OpTypeQueue",
                                           "OpTypePipe"};
    const sig_id *d = sig_lookup(s, id);
    uint32_t op = d ? s->w[d->at] & 0xffffu : 0;
    if (!d || op < OP_TYPE_VOID || op > OP_TYPE_PIPE)
        snprintf(buf, size, "of id %%%u, no type Mosaic knows", id);
    else if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && (s->w[d->at] >> 16) >= 3)
        snprintf(buf, size, "a %u-bit %s%s", s->w[d->at + 2], type_ops[op - OP_TYPE_VOID],
                 op != OP_TYPE_FLOAT         ? ""
                 : s->w[d->at + 2] == 16     ? " (half: the device has no cl_khr_fp16)"
                 : s->w[d->at + 2] == 64     ? " (double: the device has no cl_khr_fp64)"
                                             : "");
    else
        snprintf(buf, size, "an %s", type_ops[op - OP_TYPE_VOID]);
}

/* Why parameter `param` (an OpFunctionParameter's words) cannot be a
 * kernel's, into buf; false when it can. */
static bool bad_parameter(const sig_scan *s, const uint32_t *param, char *buf, size_t size)
{
    uint32_t type = param[1], op = opcode_of(s, type);
    const sig_id *t = sig_lookup(s, type);
    char what[160];
    if ((op == OP_TYPE_POINTER || op == OP_TYPE_FORWARD_POINTER) && (s->w[t->at] >> 16) >= 3) {
        uint32_t sc = s->w[t->at + 2]; /* (both name the storage class there) */
        if (sc == STORAGE_CROSS_WORKGROUP || sc == STORAGE_UNIFORM_CONSTANT || sc == STORAGE_WORKGROUP)
            return false;
        /* a struct passed by value: a pointer to Function memory decorated
         * ByVal (what llvm-spirv makes of clang's byval arguments); the
         * struct's members are what must be allowed */
        const sig_id *self = sig_lookup(s, param[2]);
        if (sc == STORAGE_FUNCTION && op == OP_TYPE_POINTER && self && self->by_val && (s->w[t->at] >> 16) >= 4) {
            uint32_t pointee = s->w[t->at + 3];
            const sig_id *v = sig_lookup(s, pointee);
            bool is_struct = v && opcode_of(s, pointee) == OP_TYPE_STRUCT;
            if (is_struct && !v->bad)
                return false;
            describe_type(s, is_struct ? v->bad : pointee, what, sizeof what);
            if (is_struct)
                snprintf(buf, size, "is a struct passed by value (ByVal) holding %s, which no kernel argument may "
                                    "hold", what);
            else
                snprintf(buf, size, "is a ByVal pointer to %s; what a kernel takes by value through a pointer "
                                    "is a struct", what);
            return true;
        }
        snprintf(buf, size, "is a pointer to %s memory; a kernel's pointer parameters point to CrossWorkgroup "
                            "(global), UniformConstant (constant) or Workgroup (local) memory", storage_class_name(sc));
        return true;
    }
    if (op == OP_TYPE_SAMPLER || op == OP_TYPE_IMAGE || op == OP_TYPE_PIPE || op == OP_TYPE_QUEUE)
        return false;
    if (op == OP_TYPE_ARRAY) {
        snprintf(buf, size, "is an array (OpTypeArray), which a kernel does not take by value");
        return true;
    }
    uint32_t bad = t ? t->bad : type;
    if (!bad)
        return false;
    describe_type(s, bad, what, sizeof what);
    if (bad == type)
        snprintf(buf, size, "is %s, which no kernel argument may be", what);
    else
        snprintf(buf, size, "is %s holding %s, which no kernel argument may hold",
                 op == OP_TYPE_STRUCT ? "a struct" : "a vector", what);
    return true;
}

/* The literal string from word `first_word` of the instruction at word
 * index `at` (a name), as one line of at most size - 1 bytes. */
static void name_of(const sig_scan *s, uint32_t at, uint32_t first_word, char *buf, size_t size)
{
    uint32_t count = s->w[at] >> 16;
    size_t max = count > first_word ? (count - first_word) * 4 : 0;
    const char *text = (const char *)(s->w + at + first_word);
    size_t n = strnlen(text, max);
    snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), text);
    for (char *c = buf; *c; c++)
        if ((unsigned char)*c < ' ')
            *c = '?';
}

/* Every entry point's parameters against the list above, each refused one
 * in the log: CL_COMPILE_PROGRAM_FAILURE when there is one. */
static cl_int check_kernel_signatures(const mosaic_compiler_target *target, const uint32_t *w, size_t nwords,
                                      mosaic_strbuf *log)
{
    /* spirv-val keeps every id below the bound, and the bound below 2^22
     * (--max-id-bound); a larger id (another MOSAIC_SPIRV_VAL) declares
     * nothing here, so a parameter of that type is refused */
    sig_scan s = {.w = w, .bound = w[3] < MAX_ID_BOUND ? w[3] : MAX_ID_BOUND,
                  .fp16 = mc_target_has_extension(target, "cl_khr_fp16"),
                  .fp64 = mc_target_has_extension(target, "cl_khr_fp64")};
    s.ids = calloc(s.bound ? s.bound : 1, sizeof *s.ids);
    if (!s.ids)
        return mc_out_of_memory(log);
    /* the ids' declarations, the types' verdicts in the order they come */
    for (size_t i = HEADER_WORDS; i < nwords;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffffu;
        if (!count || count > nwords - i)
            break;
        uint32_t result = op == OP_FUNCTION || op == OP_FUNCTION_PARAMETER ? (count >= 3 ? w[i + 2] : 0)
                          : op >= OP_TYPE_VOID && op <= OP_TYPE_FORWARD_POINTER && count >= 2 ? w[i + 1]
                          : op == OP_NAME && count >= 2 ? w[i + 1] : 0;
        if (op == OP_DECORATE && count >= 4 && w[i + 1] < s.bound && w[i + 2] == DECORATION_FUNC_PARAM_ATTR &&
            w[i + 3] == FUNC_PARAM_ATTR_BY_VAL)
            s.ids[w[i + 1]].by_val = true;
        if (result && result < s.bound) {
            if (op == OP_NAME)
                s.ids[result].name = (uint32_t)i;
            else if (!s.ids[result].at || op == OP_TYPE_POINTER) { /* (OpTypePointer after its forward declaration) */
                s.ids[result].at = (uint32_t)i;
                if (op >= OP_TYPE_VOID && op <= OP_TYPE_FORWARD_POINTER)
                    s.ids[result].bad = bad_part(&s, w + i, count);
            }
        }
        i += count;
    }
    bool refused = false;
    for (size_t i = HEADER_WORDS; i < nwords;) {
        uint32_t count = w[i] >> 16;
        if (!count || count > nwords - i)
            break;
        if ((w[i] & 0xffffu) == OP_ENTRY_POINT && count >= 4) {
            char kernel[104], name[104], why[400];
            name_of(&s, (uint32_t)i, 3, kernel, sizeof kernel);
            const sig_id *f = opcode_of(&s, w[i + 2]) == OP_FUNCTION ? sig_lookup(&s, w[i + 2]) : NULL;
            /* the function's OpFunctionParameter instructions follow it */
            for (uint32_t at = f ? f->at + (w[f->at] >> 16) : 0, n = 0;
                 f && at < nwords && (w[at] & 0xffffu) == OP_FUNCTION_PARAMETER && (w[at] >> 16) >= 3 &&
                 (w[at] >> 16) <= nwords - at;
                 at += w[at] >> 16, n++) {
                if (!bad_parameter(&s, w + at, why, sizeof why))
                    continue;
                const sig_id *p = sig_lookup(&s, w[at + 2]);
                name[0] = 0;
                if (p && p->name)
                    name_of(&s, p->name, 2, name, sizeof name);
                mosaic_strbuf_printf(log, "error: kernel '%s': parameter %u%s%s%s %s\n", kernel, n,
                                     name[0] ? " ('" : "", name, name[0] ? "')" : "", why);
                refused = true;
            }
        }
        i += count;
    }
    free(s.ids);
    return refused ? CL_COMPILE_PROGRAM_FAILURE : CL_SUCCESS;
}

/* ---- translation ------------------------------------------------------------------ */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}


/* llvm-spirv-15 -r in a private directory: the module (its stdin, read as
 * /dev/stdin: it reads no standard input of its own) to out.bc there. */
static cl_int translate(const uint32_t *w, size_t size, mosaic_strbuf *bitcode, mosaic_strbuf *log)
{
    const char *tool = mosaic_settings()->llvm_spirv;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/mosaic-spirv-XXXXXX", mosaic_settings()->tmpdir);
    if (!mkdtemp(dir)) {
        snprintf(dir, sizeof dir, "/tmp/mosaic-spirv-XXXXXX");
        if (!mkdtemp(dir)) {
            mosaic_strbuf_printf(log, "error: cannot create a temporary directory: %s\n", strerror(errno));
            return CL_COMPILE_PROGRAM_FAILURE;
        }
    }
    int fd = memory_file(w, size);
    cl_int r = CL_SUCCESS;
    if (fd < 0) {
        mosaic_strbuf_printf(log, "error: cannot hand the module to the SPIR-V translator: %s\n", strerror(errno));
        r = CL_OUT_OF_HOST_MEMORY;
    } else {
        const char *argv[] = {tool, "-r", "--spirv-target-env=CL2.0", "/dev/stdin", "-o", "out.bc", NULL};
        /* a build step: MOSAIC_BUILD_TIMEOUT_S, as clang */
        int timeout_ms = (int)(mosaic_settings()->build_timeout_s * 1000);
        mc_child c = {.dir = dir, .stdin_fd = fd, .timeout_ms = timeout_ms, .max_memory = TOOL_MEMORY(size)};
        mosaic_strbuf out = {0};
        mc_run_child(argv, &c, &out);
        close(fd);
        bool exited_ok = (c.end == MC_CHILD_EXITED && c.code == 0) || c.end == MC_CHILD_UNKNOWN;
        char path[4200];
        snprintf(path, sizeof path, "%s/out.bc", dir);
        if (exited_ok)
            mc_read_whole_file(path, bitcode);
        if (!exited_ok || !bitcode->len) {
            tool_failure(log, "SPIR-V translator", tool, "MOSAIC_LLVM_SPIRV to llvm-spirv-15", &c, &out);
            r = CL_COMPILE_PROGRAM_FAILURE;
        } else if (bitcode->oom) {
            r = mc_out_of_memory(log);
        }
        mosaic_strbuf_free(&out);
    }
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return r;
}

/* A function or variable SPIR-V left without a name (no OpName) is
 * anonymous in the translator's module (@0); the rest of the compiler finds
 * functions by name, so each gets one (LLVM makes them unique). */
static void name_anonymous_symbols(LLVMModuleRef m)
{
    size_t len;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (LLVMGetValueName2(f, &len), !len)
            LLVMSetValueName2(f, "__mosaic_spirv_function", strlen("__mosaic_spirv_function"));
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (LLVMGetValueName2(g, &len), !len)
            LLVMSetValueName2(g, "__mosaic_spirv_variable", strlen("__mosaic_spirv_variable"));
}

/* SPIR-V's DontInline function control becomes noinline on the function
 * and on each call of it; finalize takes it off functions (clang puts it on
 * no call), so the calls lose it here. */
static void drop_call_noinline(LLVMModuleRef m)
{
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                if (LLVMIsACallInst(i))
                    LLVMRemoveCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, noinline);
}

/* The translator's bitcode, verified, made the GPU's where the target is
 * (spirv_nvptx.c), its printf calls lowered (as clang's are in the front
 * end), as a compiled object. */
static cl_int make_object(const mosaic_compiler_target *target, const mosaic_strbuf *bc, bool exact_division,
                          mosaic_bitcode *out, mosaic_strbuf *log)
{
    LLVMContextRef ctx = mc_context_create(log);
    if (!ctx)
        return mc_out_of_memory(log);
    cl_int r = CL_SUCCESS;
    LLVMModuleRef m = NULL;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(bc->data, bc->len, "spirv", 0);
    char *msg = NULL;
    if (!buf) {
        r = mc_out_of_memory(log);
    } else if (LLVMParseBitcodeInContext2(ctx, buf, &m)) {
        m = NULL;
        mosaic_strbuf_puts(log, "error: cannot read the SPIR-V translator's bitcode\n");
        r = CL_COMPILE_PROGRAM_FAILURE;
    } else if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        size_t n = msg ? strcspn(msg, "\n") : 0;
        mosaic_strbuf_printf(log, "error: the SPIR-V translator made an invalid module: %.*s\n",
                             (int)(n > 300 ? 300 : n), msg ? msg : "");
        r = CL_COMPILE_PROGRAM_FAILURE;
    }
    LLVMDisposeMessage(msg);
    if (r == CL_SUCCESS) {
        name_anonymous_symbols(m);
        drop_call_noinline(m);
    }
    /* the GPU's programs are nvptx64's (spirv_nvptx.c) */
    if (r == CL_SUCCESS && mc_target_is_nvptx(target) &&
        !(m = mc_nvptx_from_spir(ctx, m, target->triple, exact_division, log)))
        r = CL_COMPILE_PROGRAM_FAILURE;
    if (r == CL_SUCCESS && mosaic_target_has_symbol(target, "__mosaic_printf"))
        r = mc_lower_printf(m, log);
    if (r == CL_SUCCESS)
        r = mc_module_to_blob(m, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, out, log);
    if (buf)
        LLVMDisposeMemoryBuffer(buf);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return r;
}

cl_int mosaic_compile_spirv(const mosaic_compiler_target *target, const void *il, size_t size, const char *options,
                            size_t num_specs, const mosaic_spec_constant *specs, mosaic_bitcode *out, char **log_out)
{
    mosaic_strbuf log = {0};
    if (out)
        memset(out, 0, sizeof *out);
    /* The compile options are checked as for source; those that act on
     * source (-D, -I, -cl-std, warnings) have nothing to act on here, and
     * the code generation ones take effect at finalize. */
    mc_options opts = {0};
    cl_int r = mc_parse_options(options, MC_OPTIONS_COMPILE, &opts, &log);
    bool exact_division = opts.correctly_rounded_divide_sqrt;
    mc_free_options(&opts);
    uint32_t *w = NULL;
    if (r == CL_SUCCESS && (!il || !out)) {
        mosaic_strbuf_puts(&log, "error: no SPIR-V module to compile\n");
        r = CL_COMPILE_PROGRAM_FAILURE;
    }
    if (r == CL_SUCCESS && !(w = module_words(il, size)))
        r = mc_out_of_memory(&log);
    if (r == CL_SUCCESS && check_header(w, size, &log) != CL_SUCCESS)
        r = CL_COMPILE_PROGRAM_FAILURE;
    if (r == CL_SUCCESS) /* what it declares it needs: what the device reports (spirv_support.c) */
        r = mc_spirv_check_support(target, w, size / 4, &log);
    if (r == CL_SUCCESS)
        r = check_kernel_signatures(target, w, size / 4, &log);
    if (r == CL_SUCCESS)
        r = apply_spec_constants(w, size / 4, num_specs, specs, &log);
    /* what the translator aborts on, as SPIR-V 1.3 (spirv_lower.c) */
    size_t nwords = size / 4;
    if (r == CL_SUCCESS && (r = mc_spirv_lower(&w, &nwords, &log)) == CL_SUCCESS)
        size = nwords * 4;
    /* the same words translated before, by the same translator (spirv_cache.c) */
    mc_cache_key key;
    bool cached = r == CL_SUCCESS && mc_cache_enabled(), hit = false;
    if (cached) {
        mc_spirv_object_key(target, w, size, mosaic_target_has_symbol(target, "__mosaic_printf"), exact_division, &key);
        hit = mc_spirv_cached_object(&key, out);
        if (mosaic_debugging(MOSAIC_DEBUG_CACHE))
            fprintf(stderr, "mosaic: SPIR-V translation cache %s\n", hit ? "hit" : "miss");
    }
    mosaic_strbuf bc = {0}, records = {0};
    if (cached && !hit)
        mc_tool_files(mosaic_settings()->llvm_spirv, &records); /* what this translator is, before it runs */
    if (r == CL_SUCCESS && !hit)
        r = translate(w, size, &bc, &log);
    if (r == CL_SUCCESS && !hit)
        r = make_object(target, &bc, exact_division, out, &log);
    if (r == CL_SUCCESS && cached && !hit)
        mc_spirv_store_object(&key, &records, out);
    mosaic_strbuf_free(&bc);
    mosaic_strbuf_free(&records);
    free(w);
    return mc_finish_log(&log, r, log_out, "compile");
}
