/* Shared helpers of the compiler: logs, LLVM set-up, the builtin library's index, symbol checks. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <llvm-c/Support.h>
#include <llvm-c/Error.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/Target.h>

#include "base/assert.h"
#include "base/settings.h"
#include "compiler/ir/host_functions.h"
#include "compiler/ir/llvm.h"
#include "compiler/ir/log.h"
#include "compiler/ir/remarks.h"
#include "compiler/ir/ptr_map.h"
#include "compiler/ir/util.h"
#include "compiler/ir/wg_context.h"

/* ---- logs ------------------------------------------------------------------------ */
cl_int mc_out_of_memory(mosaic_strbuf *log)
{
    mosaic_strbuf_puts(log, "error: out of memory\n");
    return CL_OUT_OF_HOST_MEMORY;
}

cl_int mc_finish_log(mosaic_strbuf *log, cl_int result, char **out, const char *stage)
{
    if (log->len && mosaic_debugging(MOSAIC_DEBUG_BUILD))
        fprintf(stderr, "mosaic: %s log:\n%s%s", stage, log->data,
                log->data[log->len - 1] == '\n' ? "" : "\n");
    if (log->oom && result == CL_SUCCESS)
        result = CL_OUT_OF_HOST_MEMORY;
    if (out)
        *out = mosaic_strbuf_take(log);
    else
        mosaic_strbuf_free(log);
    return result;
}

/* ---- LLVM set-up --------------------------------------------------------------- */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static bool have_native_target;
static char *host_cpu, *host_features, *host_triple;

/* LLVM 16 keeps some of its state in function-local statics (the code
 * generator's value types, SDNode::getValueTypeList, among them), made at
 * their first use, so their destructors are registered then and run at
 * exit before every exit handler registered earlier.  When that first use
 * was in a build on the background thread, whose exit handler waits for it
 * (pipeline/background.c), exit freed them under the build: test_threads
 * crashed at exit in EVT::getExtendedSizeInBits, or aborted with "LLVM
 * ERROR: out of memory".  Optimising one small loop (O2) and making its
 * code on the thread that makes a program able to build in the background
 * (pipeline/one_size.c), before any build there, makes most of them before
 * that thread registers its exit handler (a few milliseconds, once a
 * process). */
static void warm_up_code_generator(void)
{
    /* a loop the vectoriser widens, so the optimiser's passes run as in a build */
    static const char ir[] = "define void @f(ptr noalias %a, ptr noalias %b, i64 %n) {\n"
                             "entry:\n"
                             "  br label %loop\n"
                             "loop:\n"
                             "  %i = phi i64 [ 0, %entry ], [ %j, %loop ]\n"
                             "  %p = getelementptr float, ptr %a, i64 %i\n"
                             "  %q = getelementptr float, ptr %b, i64 %i\n"
                             "  %x = load float, ptr %p\n"
                             "  %y = fmul float %x, 3.0\n"
                             "  store float %y, ptr %q\n"
                             "  %j = add i64 %i, 1\n"
                             "  %c = icmp ult i64 %j, %n\n"
                             "  br i1 %c, label %loop, label %done\n"
                             "done:\n"
                             "  ret void\n"
                             "}\n";
    LLVMContextRef c = LLVMContextCreate();
    LLVMMemoryBufferRef text = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, sizeof ir - 1, "warm-up");
    LLVMModuleRef m = NULL;
    char *err = NULL;
    LLVMTargetRef t;
    /* (LLVMParseIRInContext takes the buffer, parsed or not) */
    if (c && text && !LLVMParseIRInContext(c, text, &m, &err) && !LLVMGetTargetFromTriple(host_triple, &t, &err)) {
        LLVMSetTarget(m, host_triple);
        LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, host_triple, host_cpu, host_features,
                                                          LLVMCodeGenLevelDefault, LLVMRelocPIC,
                                                          LLVMCodeModelJITDefault);
        LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
        LLVMErrorRef failed = tm && o ? LLVMRunPasses(m, "default<O2>", tm, o) : NULL;
        if (failed)
            LLVMConsumeError(failed);
        if (o)
            LLVMDisposePassBuilderOptions(o);
        LLVMMemoryBufferRef code = NULL;
        if (tm && !LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &err, &code))
            LLVMDisposeMemoryBuffer(code);
        if (tm)
            LLVMDisposeTargetMachine(tm);
    } else if (!c && text) {
        LLVMDisposeMemoryBuffer(text);
    }
    LLVMDisposeMessage(err);
    if (m)
        LLVMDisposeModule(m);
    if (c)
        LLVMContextDispose(c);
}

static void do_init(void)
{
    if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter())
        return;
    host_cpu = LLVMGetHostCPUName();
    host_features = LLVMGetHostCPUFeatures();
    char *t = LLVMGetDefaultTargetTriple();
    host_triple = LLVMNormalizeTargetTriple(t);
    LLVMDisposeMessage(t);
    /* LLVM's options, once: the scalarizer splits vector loads and stores too
     * (scalarize_short_vectors in finalize.c, image_bounds_versioning.c), and the
     * vectoriser's remarks with MOSAIC_DEBUG */
    const char *argv[4] = {"mosaic", "-scalarize-load-store"};
    int argc = 2 + mc_vectoriser_remark_options(argv + 2);
    LLVMParseCommandLineOptions(argc, argv, NULL);
    have_native_target = true;
}

static pthread_once_t warm_up_once = PTHREAD_ONCE_INIT;

void mc_llvm_warm_up(void)
{
    if (mc_llvm_init(NULL) == CL_SUCCESS)
        pthread_once(&warm_up_once, warm_up_code_generator);
}

cl_int mc_llvm_init(mosaic_strbuf *log)
{
    pthread_once(&init_once, do_init);
    if (have_native_target)
        return CL_SUCCESS;
    if (log)
        mosaic_strbuf_puts(log, "error: LLVM has no native target for this machine\n");
    return CL_BUILD_PROGRAM_FAILURE;
}

static void diag_handler(LLVMDiagnosticInfoRef info, void *user)
{
    mosaic_strbuf *log = user;
    LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(info);
    if (sev == LLVMDSRemark) { /* only asked for with MOSAIC_DEBUG */
        char *text = LLVMGetDiagInfoDescription(info);
        mc_print_vectoriser_remark(text);
        LLVMDisposeMessage(text);
        return;
    }
    if (!log || sev == LLVMDSNote)
        return;
    char *text = LLVMGetDiagInfoDescription(info);
    mosaic_strbuf_printf(log, "%s: %s\n", sev == LLVMDSError ? "error" : "warning", text);
    LLVMDisposeMessage(text);
}

LLVMContextRef mc_context_create(mosaic_strbuf *log)
{
    LLVMContextRef ctx = LLVMContextCreate();
    /* Always a handler: without one, LLVM exits the process on an error diagnostic. */
    if (ctx)
        LLVMContextSetDiagnosticHandler(ctx, diag_handler, log);
    return ctx;
}

/* ---- LLVM's fatal errors ----------------------------------------------------------
 * report_fatal_error calls the process's handler, then ends the process.
 * The handler installed here leaves by longjmp to the guard of the thread
 * that met the error, when it has one (mc_guard_fatal); elsewhere it says
 * what LLVM would have said, and LLVM ends the process as before. */
typedef struct fatal_guard {
    jmp_buf back;
    char reason[512];
} fatal_guard;

static _Thread_local fatal_guard *current_guard;
static pthread_once_t fatal_handler_once = PTHREAD_ONCE_INIT;

static void on_fatal_error(const char *reason)
{
    fatal_guard *g = current_guard;
    if (!g) {
        fprintf(stderr, "LLVM ERROR: %s\n", reason);
        return;
    }
    current_guard = NULL;
    snprintf(g->reason, sizeof g->reason, "%s", reason);
    longjmp(g->back, 1);
}

static void install_fatal_handler(void)
{
    LLVMInstallFatalErrorHandler(on_fatal_error);
}

bool mc_guard_fatal(void (*fn)(void *), void *arg, mosaic_strbuf *log)
{
    pthread_once(&fatal_handler_once, install_fatal_handler);
    fatal_guard *g = calloc(1, sizeof *g);
    if (!g) {
        fn(arg);
        return true;
    }
    fatal_guard *outer = current_guard;
    if (setjmp(g->back)) {
        mosaic_strbuf_printf(log, "error: LLVM stopped: %s\n", g->reason);
        current_guard = outer;
        free(g);
        return false;
    }
    current_guard = g;
    fn(arg);
    current_guard = outer;
    free(g);
    return true;
}

void mc_log_llvm_error(mosaic_strbuf *log, const char *what, LLVMErrorRef err)
{
    char *msg = LLVMGetErrorMessage(err);
    mosaic_strbuf_printf(log, "error: %s: %s\n", what, msg);
    LLVMDisposeErrorMessage(msg);
}

cl_int mc_target_machine(const mosaic_compiler_target *target, bool opt_disable, LLVMTargetMachineRef *out,
                         mosaic_strbuf *log)
{
    *out = NULL;
    cl_int r = mc_llvm_init(log);
    if (r != CL_SUCCESS)
        return r;
    LLVMTargetRef t;
    char *err = NULL;
    if (LLVMGetTargetFromTriple(host_triple, &t, &err)) {
        mosaic_strbuf_printf(log, "error: no LLVM target for %s: %s\n", host_triple, err ? err : "");
        LLVMDisposeMessage(err);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    const char *cpu = target && target->cpu_name ? target->cpu_name : host_cpu;
    const char *features = target && target->cpu_features ? target->cpu_features
                           : target && target->cpu_name ? "" : host_features;
    *out = LLVMCreateTargetMachine(t, host_triple, cpu, features,
                                   opt_disable ? LLVMCodeGenLevelNone : LLVMCodeGenLevelAggressive,
                                   LLVMRelocPIC, LLVMCodeModelJITDefault);
    return *out ? CL_SUCCESS : mc_out_of_memory(log);
}

const char *mc_host_cpu(void) { return host_cpu; }
const char *mc_host_features(void) { return host_features; }

/* ---- the builtin library ---------------------------------------------------------- */
typedef struct builtin_file {
    const char *name, *start, *end;
} builtin_file;
extern const builtin_file mosaic_builtins_table[];
extern const builtin_file mosaic_gpu_builtins_table[];

typedef struct builtin_symbol {
    char *name;
    int file;
} builtin_symbol;
static pthread_once_t index_once = PTHREAD_ONCE_INIT;
static builtin_symbol *symbols;
static size_t num_symbols, num_files;

size_t mc_builtin_file_count(void)
{
    size_t n = 0;
    while (mosaic_builtins_table[n].name)
        n++;
    return n;
}

/* An embedded file, loaded lazily into ctx. */
static cl_int load_blob(LLVMContextRef ctx, const builtin_file *f, LLVMModuleRef *out, mosaic_strbuf *log)
{
    *out = NULL;
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRange(f->start, (size_t)(f->end - f->start), f->name, 0);
    if (!buf)
        return mc_out_of_memory(log);
    /* The module owns the buffer (it reads function bodies from it on demand). */
    if (LLVMGetBitcodeModuleInContext2(ctx, buf, out)) {
        *out = NULL;
        mosaic_strbuf_printf(log, "error: the builtin library file '%s' embedded in libmosaic is unreadable\n",
                             f->name);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    return CL_SUCCESS;
}

cl_int mc_load_builtin_file(LLVMContextRef ctx, size_t index, LLVMModuleRef *out, mosaic_strbuf *log)
{
    return load_blob(ctx, &mosaic_builtins_table[index], out, log);
}

cl_int mc_load_gpu_builtin_file(LLVMContextRef ctx, const char *name, LLVMModuleRef *out, mosaic_strbuf *log)
{
    for (const builtin_file *f = mosaic_gpu_builtins_table; f->name; f++)
        if (!strcmp(f->name, name))
            return load_blob(ctx, f, out, log);
    *out = NULL;
    mosaic_strbuf_printf(log, "error: the GPU's builtin file '%s' is not embedded in libmosaic\n", name);
    return CL_BUILD_PROGRAM_FAILURE;
}

const void *mc_gpu_builtin_file_bytes(const char *name, size_t *size)
{
    for (const builtin_file *f = mosaic_gpu_builtins_table; f->name; f++)
        if (!strcmp(f->name, name)) {
            *size = (size_t)(f->end - f->start);
            return f->start;
        }
    *size = 0;
    return NULL;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const builtin_symbol *)a)->name, ((const builtin_symbol *)b)->name);
}

/* Which file defines which function: read once per process. */
static void build_index(void)
{
    num_files = mc_builtin_file_count();
    size_t cap = 0;
    mosaic_strbuf ignored = {0}; /* an unreadable file defines nothing: finalize reports it */
    for (size_t i = 0; i < num_files; i++) {
        LLVMContextRef ctx = mc_context_create(NULL);
        LLVMModuleRef m = NULL;
        if (ctx)
            mc_load_builtin_file(ctx, i, &m, &ignored);
        for (LLVMValueRef f = m ? LLVMGetFirstFunction(m) : NULL; f; f = LLVMGetNextFunction(f)) {
            if (LLVMIsDeclaration(f) || LLVMGetLinkage(f) != LLVMExternalLinkage)
                continue;
            if (num_symbols == cap) {
                size_t ncap = cap ? 2 * cap : 4096;
                builtin_symbol *s = realloc(symbols, ncap * sizeof *s);
                if (!s)
                    break;
                symbols = s;
                cap = ncap;
            }
            symbols[num_symbols].name = strdup(LLVMGetValueName(f));
            symbols[num_symbols].file = (int)i;
            if (symbols[num_symbols].name)
                num_symbols++;
        }
        if (m)
            LLVMDisposeModule(m);
        if (ctx)
            LLVMContextDispose(ctx);
    }
    mosaic_strbuf_free(&ignored);
    if (num_symbols)
        qsort(symbols, num_symbols, sizeof *symbols, by_name);
}

int mc_builtin_file_of(const char *symbol)
{
    pthread_once(&index_once, build_index);
    builtin_symbol key = {(char *)symbol, 0};
    builtin_symbol *hit = num_symbols ? bsearch(&key, symbols, num_symbols, sizeof *symbols, by_name) : NULL;
    return hit ? hit->file : -1;
}

/* ---- symbols ------------------------------------------------------------------------ */
void mc_source_name(const char *symbol, char *buf, size_t size)
{
    const char *p = symbol;
    size_t n = strlen(symbol);
    if (p[0] == '_' && p[1] == 'Z' && isdigit((unsigned char)p[2])) {
        char *end;
        unsigned long len = strtoul(p + 2, &end, 10);
        if (len <= strlen(end)) {
            p = end;
            n = len;
        }
    }
    if (n >= size)
        n = size - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
}

bool mosaic_target_has_symbol(const mosaic_compiler_target *target, const char *name)
{
    for (size_t i = 0; target && i < target->num_runtime_symbols; i++)
        if (target->runtime_symbols[i].name && !strcmp(target->runtime_symbols[i].name, name))
            return true;
    return false;
}

bool mc_target_has_feature(LLVMTargetMachineRef tm, const char *feature)
{
    char *features = LLVMGetTargetMachineFeatureString(tm);
    bool has = features && strstr(features, feature);
    LLVMDisposeMessage(features);
    return has;
}

unsigned mc_vector_registers(LLVMTargetMachineRef tm)
{
    char *triple = LLVMGetTargetMachineTriple(tm);
    bool aarch64 = triple && !strncmp(triple, "aarch64", 7);
    LLVMDisposeMessage(triple);
    /* AVX-512 and AArch64 have 32; SSE and AVX 16 */
    return aarch64 || mc_target_has_feature(tm, "+avx512f") ? 32 : 16;
}

LLVMValueRef mc_called_function(LLVMValueRef inst)
{
    if (!LLVMIsACallInst(inst))
        return NULL;
    LLVMValueRef f = LLVMGetCalledValue(inst);
    return f && LLVMIsAFunction(f) ? f : NULL;
}

bool mc_calls_named(LLVMValueRef inst, const char *name)
{
    LLVMValueRef f = mc_called_function(inst);
    return f && !strcmp(LLVMGetValueName(f), name);
}

bool mc_is_barrier_call(LLVMValueRef inst) { return mc_calls_named(inst, "__mosaic_barrier"); }

/* The scalar a vector splats (shufflevector of an insertelement into lane 0,
 * all mask elements 0), or NULL. */
LLVMValueRef mc_splat_scalar(LLVMValueRef v)
{
    if (!LLVMIsAShuffleVectorInst(v))
        return NULL;
    LLVMValueRef ins = LLVMGetOperand(v, 0);
    if (!LLVMIsAInsertElementInst(ins) || !LLVMIsAConstantInt(LLVMGetOperand(ins, 2)) ||
        LLVMConstIntGetZExtValue(LLVMGetOperand(ins, 2)) != 0)
        return NULL;
    for (unsigned i = 0, n = LLVMGetNumMaskElements(v); i < n; i++)
        if (LLVMGetMaskValue(v, i) != 0)
            return NULL;
    return LLVMGetOperand(ins, 1);
}

/* How many low bits of integer v are known to be zero (for a vector, in
 * every lane): constants, splats, shifts and multiples, sums, and loop phis
 * whose every incoming keeps them (the phi asked about is assumed to while
 * its incomings are looked at: each step keeps at least the smaller of its
 * operands' zeros, so the assumption holds by induction). */
static unsigned trailing_zeros(LLVMValueRef v, LLVMValueRef assumed, int depth)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
        return 0;
    unsigned width = LLVMGetIntTypeWidth(t);
    if (LLVMIsAConstantInt(v)) {
        unsigned long long c = LLVMConstIntGetZExtValue(v);
        return !c || width > 64 ? width : (unsigned)__builtin_ctzll(c) < width ? (unsigned)__builtin_ctzll(c) : width;
    }
    if (LLVMIsAConstantDataVector(v) || LLVMIsAConstantVector(v) || LLVMIsAConstantAggregateZero(v)) {
        unsigned least = width, n = LLVMGetVectorSize(LLVMTypeOf(v));
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef e = LLVMGetAggregateElement(v, i);
            unsigned z = e && LLVMIsAConstantInt(e) ? trailing_zeros(e, assumed, depth) : 0;
            least = z < least ? z : least;
        }
        return least;
    }
    if (v == assumed)
        return width;
    if (!LLVMIsAInstruction(v) || depth > 8)
        return 0;
    LLVMValueRef s = mc_splat_scalar(v);
    if (s)
        return trailing_zeros(s, assumed, depth + 1);
    unsigned a, b;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMShl: /* by any amount: the zeros stay, a constant adds its own */
        a = trailing_zeros(LLVMGetOperand(v, 0), assumed, depth + 1);
        b = LLVMIsAConstantInt(LLVMGetOperand(v, 1)) ? (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)) : 0;
        return a + b < width ? a + b : width;
    case LLVMMul:
        a = trailing_zeros(LLVMGetOperand(v, 0), assumed, depth + 1);
        b = trailing_zeros(LLVMGetOperand(v, 1), assumed, depth + 1);
        return a + b < width ? a + b : width;
    case LLVMAdd: case LLVMSub: case LLVMOr: case LLVMXor:
        a = trailing_zeros(LLVMGetOperand(v, 0), assumed, depth + 1);
        b = trailing_zeros(LLVMGetOperand(v, 1), assumed, depth + 1);
        return a < b ? a : b;
    case LLVMAnd:
        a = trailing_zeros(LLVMGetOperand(v, 0), assumed, depth + 1);
        b = trailing_zeros(LLVMGetOperand(v, 1), assumed, depth + 1);
        return a > b ? a : b;
    case LLVMSelect:
        a = trailing_zeros(LLVMGetOperand(v, 1), assumed, depth + 1);
        b = trailing_zeros(LLVMGetOperand(v, 2), assumed, depth + 1);
        return a < b ? a : b;
    case LLVMZExt: case LLVMSExt: case LLVMTrunc:
        a = trailing_zeros(LLVMGetOperand(v, 0), assumed, depth + 1);
        return a < width ? a : width;
    case LLVMPHI: {
        if (assumed) /* one phi at a time: nested ones are not assumed */
            return 0;
        unsigned least = width;
        for (unsigned i = 0, n = LLVMCountIncoming(v); i < n && least; i++) {
            a = trailing_zeros(LLVMGetIncomingValue(v, i), v, depth + 1);
            least = a < least ? a : least;
        }
        return least;
    }
    default:
        return 0;
    }
}

unsigned mc_known_trailing_zeros(LLVMValueRef v) { return trailing_zeros(v, NULL, 0); }

bool mc_division_by_safe_constant(LLVMValueRef v)
{
    LLVMValueRef d = LLVMGetOperand(v, 1);
    return LLVMIsAConstantInt(d) && LLVMConstIntGetZExtValue(d) != 0 && LLVMConstIntGetSExtValue(d) != -1;
}

void mc_build_prefetch(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef address)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i32 = LLVMInt32TypeInContext(c);
    LLVMValueRef pf = LLVMGetIntrinsicDeclaration(m, LLVMLookupIntrinsicID("llvm.prefetch", 13), &ptr, 1);
    LLVMValueRef args[4] = {LLVMBuildIntToPtr(b, address, ptr, ""), LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, 3, 0),
                            LLVMConstInt(i32, 1, 0)};
    LLVMBuildCall2(b, LLVMGlobalGetValueType(pf), pf, args, 4, "");
}

bool mc_mask_all_on(LLVMValueRef mask)
{
    if (!LLVMIsConstant(mask) || LLVMGetTypeKind(LLVMTypeOf(mask)) != LLVMVectorTypeKind)
        return false;
    for (unsigned i = 0, n = LLVMGetVectorSize(LLVMTypeOf(mask)); i < n; i++) {
        LLVMValueRef e = LLVMGetAggregateElement(mask, i);
        if (!e || !LLVMIsAConstantInt(e) || !LLVMConstIntGetZExtValue(e))
            return false;
    }
    return true;
}

/* Is `or x, c` (c a constant, or a constant splat) x + c: c below x's known zero bits? */
bool mc_or_is_add(LLVMValueRef inst)
{
    if (!LLVMIsAInstruction(inst) || LLVMGetInstructionOpcode(inst) != LLVMOr)
        return false;
    LLVMValueRef c = LLVMGetOperand(inst, 1);
    unsigned long long bits = 0;
    if (LLVMIsAConstantInt(c)) {
        bits = LLVMConstIntGetZExtValue(c);
    } else if (LLVMIsAConstantDataVector(c) || LLVMIsAConstantVector(c)) {
        for (unsigned i = 0, n = LLVMGetVectorSize(LLVMTypeOf(c)); i < n; i++) {
            LLVMValueRef e = LLVMGetAggregateElement(c, i);
            if (!e || !LLVMIsAConstantInt(e))
                return false;
            bits |= LLVMConstIntGetZExtValue(e);
        }
    } else {
        return false;
    }
    LLVMTypeRef t = LLVMTypeOf(inst);
    unsigned width = LLVMGetIntTypeWidth(LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t);
    unsigned z = mc_known_trailing_zeros(LLVMGetOperand(inst, 0));
    z = z < width - 1 ? z : width - 1; /* c's bits leave the sign bit alone */
    return z >= 64 || bits < (1ULL << z);
}

static const char *user_of(LLVMValueRef v)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAInstruction(user))
            return LLVMGetValueName(LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)));
    }
    return NULL;
}

static bool resolvable(bool with_builtins, const mosaic_compiler_target *target, const char *name)
{
    if (!strncmp(name, "__mosaic_", 9) &&
        (!strcmp(name, "__mosaic_get_ctx") || !strcmp(name, "__mosaic_get_local_id") ||
         !strcmp(name, "__mosaic_image") || !strcmp(name, "__mosaic_edge_clamp_x") ||
         !strcmp(name, "__mosaic_inside") ||
         !strcmp(name, "__mosaic_barrier") || !strcmp(name, "__mosaic_sub_group_barrier") ||
         !strcmp(name, "__mosaic_get_sub_group_first") || !strcmp(name, "__mosaic_sub_group_active") ||
         !strcmp(name, "__mosaic_keep") || !strcmp(name, "__mosaic_keep32")))
        return true;
    if (mosaic_target_has_symbol(target, name))
        return true;
    /* atomic library calls, turned into instructions at finalize (atomics.c) */
    if (!strncmp(name, "__atomic_", 9) || !strncmp(name, "__opencl_atomic_", 16))
        return true;
    if (with_builtins && mc_builtin_file_of(name) >= 0)
        return true;
    /* OpenCL C's printf binds to the C library's where the device does not
     * take it (docs/compiler.md, "printf"). */
    if (!strcmp(name, "printf") && !mosaic_target_has_symbol(target, "__mosaic_printf"))
        return true;
    /* the math functions the builtins call by their C names, and nothing
     * else of the host (host_functions.c) */
    return mc_host_function_callable(name);
}

cl_int mc_report_undefined(LLVMModuleRef m, bool with_builtins, const mosaic_compiler_target *target, cl_int failure,
                           mosaic_strbuf *log)
{
    int count = 0;
    char src[256], where[256];
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!LLVMIsDeclaration(f) || !LLVMGetFirstUse(f) || LLVMGetIntrinsicID(f))
            continue;
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (resolvable(with_builtins, target, name))
            continue;
        mc_source_name(name, src, sizeof src);
        const char *user = user_of(f);
        if (user)
            mc_source_name(user, where, sizeof where);
        mosaic_strbuf_printf(log, "error: undefined function '%s'%s%s%s (symbol %s): neither defined in the "
                             "program nor a builtin function Mosaic implements\n",
                             src, user ? " called from '" : "", user ? where : "", user ? "'" : "", name);
        count++;
    }
    return mc_report_undefined_variables(m, target, failure, log) != CL_SUCCESS || count ? failure : CL_SUCCESS;
}

cl_int mc_report_undefined_variables(LLVMModuleRef m, const mosaic_compiler_target *target, cl_int failure,
                                     mosaic_strbuf *log)
{
    int count = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        if (!LLVMIsDeclaration(g) || !LLVMGetFirstUse(g))
            continue;
        const char *name = LLVMGetValueName(g);
        if (mosaic_target_has_symbol(target, name))
            continue;
        mosaic_strbuf_printf(log, "error: undefined variable '%s'\n", name);
        count++;
    }
    return count ? failure : CL_SUCCESS;
}

LLVMIntPredicate mc_inverse_predicate(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntEQ: return LLVMIntNE;
    case LLVMIntNE: return LLVMIntEQ;
    case LLVMIntUGT: return LLVMIntULE;
    case LLVMIntUGE: return LLVMIntULT;
    case LLVMIntULT: return LLVMIntUGE;
    case LLVMIntULE: return LLVMIntUGT;
    case LLVMIntSGT: return LLVMIntSLE;
    case LLVMIntSGE: return LLVMIntSLT;
    case LLVMIntSLT: return LLVMIntSGE;
    case LLVMIntSLE: return LLVMIntSGT;
    default: return p;
    }
}

LLVMIntPredicate mc_swapped_predicate(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntUGT: return LLVMIntULT;
    case LLVMIntUGE: return LLVMIntULE;
    case LLVMIntULT: return LLVMIntUGT;
    case LLVMIntULE: return LLVMIntUGE;
    case LLVMIntSGT: return LLVMIntSLT;
    case LLVMIntSGE: return LLVMIntSLE;
    case LLVMIntSLT: return LLVMIntSGT;
    case LLVMIntSLE: return LLVMIntSGE;
    default: return p; /* EQ, NE */
    }
}

bool mc_both_sides(LLVMValueRef c, bool holds, LLVMValueRef side[2])
{
    bool both = false;
    if (LLVMIsABinaryOperator(c) && (LLVMGetInstructionOpcode(c) == LLVMAnd || LLVMGetInstructionOpcode(c) == LLVMOr)) {
        side[0] = LLVMGetOperand(c, 0), side[1] = LLVMGetOperand(c, 1);
        both = (LLVMGetInstructionOpcode(c) == LLVMAnd) == holds;
    } else if (LLVMIsASelectInst(c) && holds && LLVMIsAConstantInt(LLVMGetOperand(c, 2)) &&
               !LLVMConstIntGetZExtValue(LLVMGetOperand(c, 2))) { /* a ? b : false */
        side[0] = LLVMGetOperand(c, 0), side[1] = LLVMGetOperand(c, 1), both = true;
    } else if (LLVMIsASelectInst(c) && !holds && LLVMIsAConstantInt(LLVMGetOperand(c, 1)) &&
               LLVMConstIntGetZExtValue(LLVMGetOperand(c, 1))) { /* a ? true : b */
        side[0] = LLVMGetOperand(c, 0), side[1] = LLVMGetOperand(c, 2), both = true;
    }
    return both;
}

bool mc_intrinsic_named(LLVMValueRef f, const char *const *prefixes, size_t n)
{
    if (!f || !LLVMGetIntrinsicID(f))
        return false;
    const char *name = LLVMGetValueName(f);
    for (size_t i = 0; i < n; i++)
        if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
            return true;
    return false;
}

bool mc_calls_intrinsic(LLVMValueRef inst, const char *prefix)
{
    return mc_intrinsic_named(mc_called_function(inst), &prefix, 1);
}

bool mc_pure_intrinsic(LLVMValueRef f)
{
    static const char *const names[] = {
        "llvm.fmuladd.", "llvm.fma.", "llvm.smin.", "llvm.smax.", "llvm.umin.", "llvm.umax.", "llvm.abs.",
        "llvm.fabs.", "llvm.minnum.", "llvm.maxnum.", "llvm.minimum.", "llvm.maximum.", "llvm.sqrt.",
        "llvm.floor.", "llvm.ceil.", "llvm.trunc.", "llvm.rint.", "llvm.round.", "llvm.nearbyint.",
        "llvm.copysign.", "llvm.ctpop.", "llvm.ctlz.", "llvm.cttz.", "llvm.fshl.", "llvm.fshr.",
        "llvm.bswap.", "llvm.bitreverse.", "llvm.sadd.sat.", "llvm.uadd.sat.", "llvm.ssub.sat.",
        "llvm.usub.sat.", "llvm.umul.with.overflow.", "llvm.smul.with.overflow.", "llvm.uadd.with.overflow.",
        "llvm.sadd.with.overflow.", "llvm.usub.with.overflow.", "llvm.ssub.with.overflow.",
    };
    return mc_intrinsic_named(f, names, sizeof names / sizeof *names);
}

bool mc_is_outlined_builtin(LLVMValueRef f)
{
    return !strncmp(LLVMGetValueName(f), "__mosaic_outlined_", 18);
}

/* The byte offset of p from base, when p is base seen through casts and
 * GEPs with constant indices; -1 otherwise. */
static int64_t offset_within(LLVMValueRef p, LLVMValueRef base, LLVMTargetDataRef td, int depth)
{
    if (p == base)
        return 0;
    if (depth > 8)
        return -1;
    LLVMOpcode op = LLVMIsAInstruction(p) ? LLVMGetInstructionOpcode(p)
                    : LLVMIsAConstantExpr(p) ? LLVMGetConstOpcode(p)
                                             : (LLVMOpcode)0;
    if (op == LLVMAddrSpaceCast || op == LLVMBitCast)
        return offset_within(LLVMGetOperand(p, 0), base, td, depth + 1);
    if (op != LLVMGetElementPtr)
        return -1;
    int64_t inner = offset_within(LLVMGetOperand(p, 0), base, td, depth + 1);
    if (inner < 0)
        return -1;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
    int64_t off = inner;
    unsigned n = (unsigned)LLVMGetNumOperands(p);
    for (unsigned i = 1; i < n; i++) {
        LLVMValueRef index = LLVMGetOperand(p, i);
        if (!LLVMIsAConstantInt(index))
            return -1;
        long long k = LLVMConstIntGetSExtValue(index);
        if (i == 1) {
            off += k * (int64_t)LLVMABISizeOfType(td, t);
        } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            off += (int64_t)LLVMOffsetOfElement(td, t, (unsigned)k);
            t = LLVMStructGetTypeAtIndex(t, (unsigned)k);
        } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind || LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
            t = LLVMGetElementType(t);
            off += k * (int64_t)LLVMABISizeOfType(td, t);
        } else {
            return -1;
        }
    }
    return off;
}

int64_t mc_offset_from(LLVMValueRef p, LLVMValueRef base, LLVMTargetDataRef td)
{
    return offset_within(p, base, td, 0);
}

/* The variable p points into: through casts (the generic address space
 * comes and goes as ptrtoint/inttoptr pairs) and element addresses. */
LLVMValueRef mc_base_of(LLVMValueRef p)
{
    for (int depth = 0; depth < 32; depth++) {
        bool cast = LLVMIsAGetElementPtrInst(p) || LLVMIsAAddrSpaceCastInst(p) || LLVMIsABitCastInst(p) ||
                    LLVMIsAIntToPtrInst(p) || LLVMIsAPtrToIntInst(p);
        if (LLVMIsAConstantExpr(p)) {
            LLVMOpcode op = LLVMGetConstOpcode(p);
            cast = op == LLVMGetElementPtr || op == LLVMAddrSpaceCast || op == LLVMBitCast || op == LLVMIntToPtr ||
                   op == LLVMPtrToInt;
        }
        if (!cast)
            return p;
        p = LLVMGetOperand(p, 0);
    }
    return p;
}

/* Does the !llvm.loop node md hold a node {"<name>", ...}? */
static bool loop_has(LLVMValueRef md, const char *want)
{
    unsigned n = LLVMGetMDNodeNumOperands(md);
    LLVMValueRef *ops = calloc(n ? n : 1, sizeof *ops);
    bool found = false;
    if (!ops)
        return false;
    LLVMGetMDNodeOperands(md, ops);
    for (unsigned i = 0; i < n && !found; i++) {
        if (!ops[i] || !LLVMIsAMDNode(ops[i]) || LLVMGetMDNodeNumOperands(ops[i]) < 1)
            continue;
        LLVMValueRef first[2] = {NULL, NULL};
        if (LLVMGetMDNodeNumOperands(ops[i]) > 2)
            continue;
        LLVMGetMDNodeOperands(ops[i], first);
        unsigned len = 0;
        const char *name = first[0] ? LLVMGetMDString(first[0], &len) : NULL;
        found = name && len == strlen(want) && !memcmp(name, want, len);
    }
    free(ops);
    return found;
}

unsigned mc_count_vector_loops(LLVMValueRef f)
{
    unsigned kind = LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(f)), "llvm.loop", 9), count = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
        LLVMValueRef md = br ? LLVMGetMetadata(br, kind) : NULL;
        /* work-item loops are the parallel ones (workgroup.c, regions.c) */
        if (!md || !loop_has(md, "llvm.loop.isvectorized") || !loop_has(md, "llvm.loop.parallel_accesses"))
            continue;
        /* the vector loop and its scalar remainder are both marked: the
         * vector one's induction steps by the vector width */
        bool wide = false;
        for (unsigned s = 0; s < LLVMGetNumSuccessors(br) && !wide; s++)
            for (LLVMValueRef p = LLVMGetFirstInstruction(LLVMGetSuccessor(br, s)); p && LLVMIsAPHINode(p) && !wide;
                 p = LLVMGetNextInstruction(p))
                for (unsigned i = 0; i < LLVMCountIncoming(p) && !wide; i++) {
                    LLVMValueRef next = LLVMGetIncomingValue(p, i);
                    if (LLVMGetIncomingBlock(p, i) != bb || !LLVMIsAInstruction(next) ||
                        LLVMGetInstructionOpcode(next) != LLVMAdd || LLVMGetOperand(next, 0) != p)
                        continue;
                    LLVMValueRef step = LLVMGetOperand(next, 1);
                    wide = LLVMIsAConstantInt(step) && LLVMGetIntTypeWidth(LLVMTypeOf(step)) <= 64 &&
                           LLVMConstIntGetZExtValue(step) > 1;
                }
        count += wide;
    }
    return count;
}

void mc_read_whole_file(const char *path, mosaic_strbuf *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        mosaic_strbuf_append(out, buf, (size_t)n);
    }
    close(fd);
}

LLVMValueRef mc_load_local_size(LLVMBuilderRef b, LLVMValueRef ctx, int d)
{
    static const char *const names[3] = {"nx", "ny", "nz"};
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(ctx));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMValueRef off = LLVMConstInt(i64, offsetof(mosaic_wg_ctx, local_size) + 8 * (size_t)d, 0);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(c), ctx, &off, 1, "");
    LLVMValueRef n = LLVMBuildLoad2(b, i64, p, names[d]);
    LLVMSetAlignment(n, 8);
    LLVMSetMetadata(n, LLVMGetMDKindIDInContext(c, "invariant.load", 14),
                    LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0)));
    LLVMMetadataRef range[2] = {LLVMValueAsMetadata(LLVMConstInt(i64, 1, 0)),
                                LLVMValueAsMetadata(LLVMConstInt(i64, MOSAIC_MAX_LOCAL_SIZE + 1, 0))};
    LLVMSetMetadata(n, LLVMGetMDKindIDInContext(c, "range", 5),
                    LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, range, 2)));
    return n;
}

void mc_copy_attributes_at(LLVMValueRef from, LLVMValueRef to, LLVMAttributeIndex idx)
{
    unsigned na = LLVMGetAttributeCountAtIndex(from, idx);
    LLVMAttributeRef *attrs = na ? malloc(na * sizeof *attrs) : NULL;
    if (!attrs)
        return;
    LLVMGetAttributesAtIndex(from, idx, attrs);
    for (unsigned a = 0; a < na; a++)
        LLVMAddAttributeAtIndex(to, idx, attrs[a]);
    free(attrs);
}

void mc_copy_function_attributes(LLVMValueRef from, LLVMValueRef to)
{
    mc_copy_attributes_at(from, to, LLVMAttributeFunctionIndex);
    for (unsigned k = 1; k <= LLVMCountParams(from); k++)
        mc_copy_attributes_at(from, to, k);
}

void mc_copy_name(LLVMValueRef to, LLVMValueRef from)
{
    size_t len;
    const char *name = LLVMGetValueName2(from, &len);
    if (!len)
        return;
    char *copy = strndup(name, len);
    if (copy) {
        LLVMSetValueName2(to, copy, len);
        free(copy);
    }
}

/* Phis of succ that came from `from` now come from `to` (the C API cannot
 * change an incoming block, so such a phi is rebuilt). */
void mc_retarget_phis(LLVMBuilderRef b, LLVMBasicBlockRef succ, LLVMBasicBlockRef from, LLVMBasicBlockRef to)
{
    LLVMValueRef i = LLVMGetFirstInstruction(succ);
    while (i && LLVMIsAPHINode(i)) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        unsigned n = LLVMCountIncoming(i);
        int hit = 0;
        for (unsigned k = 0; k < n; k++)
            hit |= LLVMGetIncomingBlock(i, k) == from;
        if (hit) {
            LLVMPositionBuilderBefore(b, i);
            LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(i), "");
            for (unsigned k = 0; k < n; k++) {
                LLVMValueRef v = LLVMGetIncomingValue(i, k);
                LLVMBasicBlockRef bb = LLVMGetIncomingBlock(i, k);
                if (bb == from)
                    bb = to;
                LLVMAddIncoming(np, &v, &bb, 1);
            }
            mc_copy_name(np, i);
            LLVMReplaceAllUsesWith(i, np);
            LLVMInstructionEraseFromParent(i);
        }
        i = next;
    }
}

LLVMValueRef mc_divergence_report(LLVMModuleRef m, LLVMValueRef wi, LLVMValueRef *name)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), params[2] = {ptr, ptr};
    LLVMValueRef fn = LLVMGetNamedFunction(m, "__mosaic_barrier_divergence");
    if (!fn)
        fn = LLVMAddFunction(m, "__mosaic_barrier_divergence",
                             LLVMFunctionType(LLVMVoidTypeInContext(c), params, 2, 0));
    size_t len;
    const char *wi_name = LLVMGetValueName2(wi, &len); /* "K.wi" */
    LLVMValueRef str = LLVMConstStringInContext(c, wi_name, (unsigned)(len >= 3 ? len - 3 : len), 0);
    *name = LLVMAddGlobal(m, LLVMTypeOf(str), "__mosaic_kernel_name");
    LLVMSetInitializer(*name, str);
    LLVMSetGlobalConstant(*name, 1);
    LLVMSetLinkage(*name, LLVMPrivateLinkage);
    LLVMSetUnnamedAddr(*name, 1);
    return fn;
}

/* An instruction that computes from its operands only, so it may run on one
 * way of a branch when its value is only used there. */
bool mc_computes_only(LLVMValueRef inst)
{
    switch (LLVMGetInstructionOpcode(inst)) {
    case LLVMCall: return mc_pure_intrinsic(mc_called_function(inst));
    case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub: case LLVMMul: case LLVMFMul:
    case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMFNeg: case LLVMFDiv: case LLVMFRem:
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI: case LLVMUIToFP:
    case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMGetElementPtr: case LLVMICmp: case LLVMFCmp:
    case LLVMSelect: case LLVMExtractElement: case LLVMInsertElement: case LLVMShuffleVector:
    case LLVMExtractValue: case LLVMInsertValue: case LLVMFreeze:
        return true;
    default: return false; /* memory, phis, terminators, integer divisions (they may trap) */
    }
}

/* Is v one of the instructions first..last of one block? */
bool mc_in_range(LLVMValueRef v, LLVMValueRef first, LLVMValueRef last)
{
    if (!v || !LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != LLVMGetInstructionParent(first))
        return false;
    for (LLVMValueRef i = first;; i = LLVMGetNextInstruction(i)) {
        if (i == v)
            return true;
        if (i == last)
            return false;
    }
}

bool mc_used_outside(LLVMValueRef v, LLVMValueRef first, LLVMValueRef last)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u))
        if (!mc_in_range(LLVMGetUser(u), first, last))
            return true;
    return false;
}

void mc_move_before(LLVMBuilderRef b, LLVMValueRef inst, LLVMValueRef where)
{
    LLVMInstructionRemoveFromParent(inst);
    LLVMPositionBuilderBefore(b, where);
    LLVMInsertIntoBuilder(b, inst);
}

void mc_replace_use(LLVMUseRef u, LLVMValueRef to)
{
    LLVMValueRef user = LLVMGetUser(u);
    for (unsigned k = 0, n = (unsigned)LLVMGetNumOperands(user); k < n; k++)
        if (LLVMGetOperandUse(user, k) == u) {
            LLVMSetOperand(user, k, to);
            return;
        }
}

/* Uses of v outside block `in` become uses of `to`. */
void mc_replace_uses_outside(LLVMValueRef v, LLVMBasicBlockRef in, LLVMValueRef to)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v), next; u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        if (user != to && LLVMGetInstructionParent(user) != in)
            mc_replace_use(u, to);
    }
}

void mc_move_to_end(LLVMBuilderRef b, LLVMValueRef first, LLVMValueRef until, LLVMBasicBlockRef to)
{
    for (LLVMValueRef i = first, next; i && i != until; i = next) {
        next = LLVMGetNextInstruction(i);
        LLVMInstructionRemoveFromParent(i);
        LLVMPositionBuilderAtEnd(b, to);
        LLVMInsertIntoBuilder(b, i);
    }
}

void mc_remap_copy(LLVMValueRef inst, LLVMValueRef copy, LLVMValueRef (*counterpart)(const void *, LLVMValueRef),
                   const void *arg)
{
    if (LLVMIsAPHINode(inst)) {
        for (unsigned j = 0; j < LLVMCountIncoming(inst); j++) {
            LLVMValueRef v = counterpart(arg, LLVMGetIncomingValue(inst, j));
            LLVMBasicBlockRef from =
                LLVMValueAsBasicBlock(counterpart(arg, LLVMBasicBlockAsValue(LLVMGetIncomingBlock(inst, j))));
            LLVMAddIncoming(copy, &v, &from, 1);
        }
        return;
    }
    if (LLVMIsATerminatorInst(inst)) {
        for (unsigned j = 0; j < LLVMGetNumSuccessors(inst); j++)
            LLVMSetSuccessor(copy, j,
                             LLVMValueAsBasicBlock(counterpart(arg, LLVMBasicBlockAsValue(LLVMGetSuccessor(inst, j)))));
        if (LLVMIsABranchInst(inst)) { /* (its operands are not in the order of its successors) */
            if (LLVMIsConditional(inst))
                LLVMSetCondition(copy, counterpart(arg, LLVMGetCondition(inst)));
            return;
        }
    }
    for (unsigned j = 0; j < (unsigned)LLVMGetNumOperands(inst); j++)
        if (!LLVMValueIsBasicBlock(LLVMGetOperand(inst, j)))
            LLVMSetOperand(copy, j, counterpart(arg, LLVMGetOperand(inst, j)));
}

bool mc_is_kernel(LLVMValueRef f)
{
    return !LLVMIsDeclaration(f) && LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv;
}

bool mc_is_block_kernel(LLVMValueRef f)
{
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != f)
            return true;
    }
    return false;
}

LLVMModuleRef mc_module_rewritten(LLVMContextRef c, LLVMModuleRef m, void (*edit)(char *text), const char *what,
                                  mosaic_strbuf *log)
{
    char *text = LLVMPrintModuleToString(m);
    LLVMDisposeModule(m);
    if (!text) {
        mc_out_of_memory(log);
        return NULL;
    }
    edit(text);
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "mosaic-rewritten");
    LLVMDisposeMessage(text);
    LLVMModuleRef out = NULL;
    char *error = NULL;
    if (!buf) {
        mc_out_of_memory(log);
    } else if (LLVMParseIRInContext(c, buf, &out, &error)) { /* takes buf */
        mosaic_strbuf_printf(log, "error: %s: %s\n", what, error ? error : "");
        LLVMDisposeMessage(error);
        out = NULL;
    }
    return out;
}

void mc_text_replace(char *text, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to);
    MOSAIC_ASSERT(nf && nt <= nf);
    char *out = text;
    for (const char *in = text; *in;) {
        if (!strncmp(in, from, nf)) {
            memmove(out, to, nt);
            out += nt, in += nf;
        } else {
            *out++ = *in++;
        }
    }
    *out = '\0';
}

bool mc_cycles_back(LLVMBasicBlockRef bb, bool (*through)(LLVMBasicBlockRef, const void *), const void *data)
{
    unsigned n = LLVMCountBasicBlocks(LLVMGetBasicBlockParent(bb));
    LLVMBasicBlockRef *stack = malloc(n * sizeof *stack);
    pmap seen;
    bool back = !stack || !pmap_init(&seen, n);
    unsigned sp = 0;
    if (!back)
        stack[sp++] = bb;
    while (!back && sp) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(stack[--sp]);
        for (unsigned j = 0; t && j < LLVMGetNumSuccessors(t) && !back; j++) {
            LLVMBasicBlockRef next = LLVMGetSuccessor(t, j);
            if (next == bb)
                back = true;
            else if (pmap_get(&seen, next) < 0 && through(next, data))
                pmap_put(&seen, next, 1), stack[sp++] = next;
        }
    }
    if (stack)
        pmap_free(&seen);
    free(stack);
    return back;
}
