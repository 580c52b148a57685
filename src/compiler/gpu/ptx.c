/*
 * The PTX back end (ptx.h): bitcode of nvptx64 -> Mosaic's work-item
 * functions, then libclc, linked in -> the kernel table read -> non-kernels
 * internal -> O2 -> PTX for one compute capability.
 *
 * libclc's NVPTX library (nvptx64--nvidiacl.bc) defines OpenCL C's built-ins
 * in the names and address spaces clang gives a program of the same triple
 * (fract's private pointer is `float *`, a __global one
 * `__attribute__((address_space(1)))`), and calls nothing outside itself;
 * its functions are linkonce_odr, so the optimiser drops those no kernel
 * calls.  A call left to a function with no body after that is a built-in
 * the GPU lacks: the build fails naming it, rather than the driver's JIT.
 *
 * Its work-item functions know only the block and the grid (get_global_id
 * is ctaid * ntid + tid, and there is no get_global_offset): Mosaic's own,
 * builtins/nvptx/workitem.cl, read the rest from MOSAIC_GPU_LAUNCH_SYMBOL,
 * linked in first as strong definitions, which libclc's linkonce_odr copies
 * of the same names do not replace.
 */
#include "compiler/gpu/ptx.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/blake3.h>

#include "base/assert.h"
#include "compiler/frontend/binary.h"
#include "compiler/ir/kernel_info.h"
#include "compiler/ir/llvm.h"
#include "compiler/ir/llvm_passes.h"
#include "compiler/ir/log.h"
#include "compiler/ir/util.h"
#include "compiler/workgroup/passes.h"

#ifndef MOSAIC_LIBCLC_NVPTX_PATH
#define MOSAIC_LIBCLC_NVPTX_PATH ""
#endif

/* The triple the NVPTX back end is asked for: CUDA's driver, 64-bit. */
static const char code_triple[] = "nvptx64-nvidia-cuda";

/* The optimiser's pipeline, whatever the build options. */
static const char optimiser_passes[] = "default<O2>";
static const char after_atomics_passes[] = "function(infer-address-spaces,instcombine)";
/* after small_loops_unrolled has marked them */
static const char unroll_passes[] = "function(loop-unroll<O2>,instcombine,simplifycfg)";

static pthread_once_t nvptx_once = PTHREAD_ONCE_INIT;

static void initialise_nvptx(void)
{
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
}

bool mc_ptx_available(void)
{
    return MOSAIC_LIBCLC_NVPTX_PATH[0] && access(MOSAIC_LIBCLC_NVPTX_PATH, R_OK) == 0;
}

/* ---- what the kernel cache's key holds besides the program (mc_ptx_key_inputs) ---- */

static void put_hex(mosaic_strbuf *text, const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        mosaic_strbuf_printf(text, "%02x", bytes[i]);
}

/* libclc's library as last hashed: the file's identity and its contents' hash. */
static pthread_mutex_t libclc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { bool known; dev_t dev; ino_t ino; off_t size; struct timespec mtime; uint8_t hash[32]; } libclc_seen;

/* BLAKE3 of libclc's library into hash, hashed again only when the file is
 * another (device, inode, size, mtime) than last time; false if unreadable. */
static bool libclc_hash(uint8_t hash[32])
{
    int fd = open(MOSAIC_LIBCLC_NVPTX_PATH, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    pthread_mutex_lock(&libclc_lock);
    bool ok = libclc_seen.known && libclc_seen.dev == st.st_dev && libclc_seen.ino == st.st_ino &&
              libclc_seen.size == st.st_size && libclc_seen.mtime.tv_sec == st.st_mtim.tv_sec &&
              libclc_seen.mtime.tv_nsec == st.st_mtim.tv_nsec;
    if (!ok) {
        llvm_blake3_hasher h;
        llvm_blake3_hasher_init(&h);
        char *buf = malloc(1 << 20);
        off_t total = 0;
        ssize_t r = 0;
        while (buf && ((r = read(fd, buf, 1 << 20)) > 0 || (r < 0 && errno == EINTR)))
            if (r > 0) {
                llvm_blake3_hasher_update(&h, buf, (size_t)r);
                total += r;
            }
        free(buf);
        ok = buf && r == 0 && total == st.st_size;
        libclc_seen.known = ok;
        if (ok) {
            llvm_blake3_hasher_finalize(&h, libclc_seen.hash, sizeof libclc_seen.hash);
            libclc_seen.dev = st.st_dev;
            libclc_seen.ino = st.st_ino;
            libclc_seen.size = st.st_size;
            libclc_seen.mtime = st.st_mtim;
        }
    }
    if (ok)
        memcpy(hash, libclc_seen.hash, 32);
    pthread_mutex_unlock(&libclc_lock);
    close(fd);
    return ok;
}

/* What a program calls that one of the files below defines: a function
 * taking or giving half, or one of a name (the program's declaration f,
 * named `name`). */
static bool is_half(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    return LLVMGetTypeKind(t) == LLVMHalfTypeKind;
}

static bool half_function(LLVMValueRef f, const char *name)
{
    (void)name;
    LLVMTypeRef type = LLVMGlobalGetValueType(f);
    bool half = is_half(LLVMGetReturnType(type));
    for (unsigned i = 0, n = LLVMCountParams(f); i < n && !half; i++)
        half = is_half(LLVMTypeOf(LLVMGetParam(f, i)));
    return half;
}

static bool sat_conversion(LLVMValueRef f, const char *name)
{
    (void)f;
    return strstr(name, "convert_") && strstr(name, "_sat");
}

static bool bit_operation(LLVMValueRef f, const char *name)
{
    (void)f;
    return strstr(name, "bitfield_") || strstr(name, "bit_reverse");
}

/* dot of (u)char4s, dot_acc_sat, dot_4x8packed_*, SPIR-V's (S|U|SU)DotKHR and
 * DotAccSatKHR: libclc's dot is float's */
static bool integer_dot(LLVMValueRef f, const char *name)
{
    (void)f;
    return !strncmp(name, "_Z3dotDv4_c", 11) || !strncmp(name, "_Z3dotDv4_h", 11) || strstr(name, "dot_acc_sat") ||
           strstr(name, "dot_4x8packed") || strstr(name, "DotKHR") || strstr(name, "DotAccSatKHR");
}

/* work_group_reduce_*, _scan_*, _broadcast, _all, _any (not the barrier) */
static bool collective(LLVMValueRef f, const char *name)
{
    (void)f;
    return strstr(name, "work_group_") && !strstr(name, "work_group_barrier");
}

static bool kernel_clock(LLVMValueRef f, const char *name)
{
    (void)f;
    return strstr(name, "clock_read_") != NULL;
}

/* Mosaic's own built-ins for the GPU, linked in this order before libclc
 * (builtins/nvptx/workitem.cl, address.cl, subgroups.cl, printf.cl,
 * async_copies.cl and maths.cl; builtins/atomics.cl, the CPU's too); and, only
 * into a program that calls one of theirs (`wanted`): the saturating
 * conversions from float and double (nvptx/convert_sat.cl, which libclc
 * has without NaN), the clocks (nvptx/kernel_clock.cl), and the CPU's
 * half-precision functions (half.cl, half_convert.cl: libclc has none but
 * vload_half and vstore_half) with the vloadn and vstoren of half
 * (nvptx/half_vectors.cl), bit operations, integer dot products and
 * work-group collectives (bit_ops.cl, dot_product.cl, collectives.cl),
 * which libclc has not. */
static const struct own_builtin {
    const char *name;
    bool (*wanted)(LLVMValueRef f, const char *name); /* NULL: always */
} own_builtins[] = {
    {"workitem", NULL},           {"address", NULL},           {"atomics", NULL},
    {"subgroups", NULL},          {"printf", NULL},            {"async_copies", NULL},
    {"maths", NULL},              {"convert_sat", sat_conversion}, {"kernel_clock", kernel_clock},
    {"half", half_function},      {"half_convert", half_function}, {"half_vectors", half_function},
    {"bit_ops", bit_operation},
    {"dot_product", integer_dot},  {"collectives", collective},
};
#define NUM_OWN_BUILTINS (sizeof own_builtins / sizeof own_builtins[0])

/* Does the program call a function it does not define that `wanted` wants? */
static bool calls_for(LLVMModuleRef m, bool (*wanted)(LLVMValueRef f, const char *name))
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        if (LLVMIsDeclaration(f) && !LLVMGetIntrinsicID(f) && wanted(f, LLVMGetValueName2(f, &len)))
            return true;
    }
    return false;
}

static uint8_t own_hash[32];
static size_t own_size;
static pthread_once_t own_once = PTHREAD_ONCE_INIT;

static void hash_own_builtins(void)
{
    llvm_blake3_hasher h;
    llvm_blake3_hasher_init(&h);
    for (size_t i = 0; i < NUM_OWN_BUILTINS; i++) {
        size_t n;
        const void *bytes = mc_gpu_builtin_file_bytes(own_builtins[i].name, &n);
        if (bytes)
            llvm_blake3_hasher_update(&h, bytes, n);
        own_size += n;
    }
    llvm_blake3_hasher_finalize(&h, own_hash, sizeof own_hash);
}

bool mc_ptx_key_inputs(mosaic_strbuf *text)
{
    uint8_t clc[32];
    if (!mc_ptx_available() || !libclc_hash(clc))
        return false;
    pthread_once(&own_once, hash_own_builtins);
    unsigned major = 0, minor = 0, patch = 0;
    LLVMGetVersion(&major, &minor, &patch);
    mosaic_strbuf_printf(text, "llvm %u.%u.%u\nown built-ins %zu ", major, minor, patch, own_size);
    put_hex(text, own_hash, sizeof own_hash);
    mosaic_strbuf_printf(text, "\nlibclc %s ", MOSAIC_LIBCLC_NVPTX_PATH);
    put_hex(text, clc, sizeof clc);
    mosaic_strbuf_printf(text, "\npasses %s, then atomics, %s\n", optimiser_passes, after_atomics_passes);
    return true;
}

/* Parses the bitcode file `path`. */
static LLVMModuleRef parse_file(LLVMContextRef c, const char *path, mosaic_strbuf *log)
{
    char *message = NULL;
    LLVMMemoryBufferRef buf = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &message)) {
        mosaic_strbuf_printf(log, "error: cannot read the GPU's built-ins %s: %s\n", path, message ? message : "");
        LLVMDisposeMessage(message);
        return NULL;
    }
    /* lazily: linking reads only the functions the program needs (libclc is
     * some 8 MB of bitcode); the module owns the buffer from here */
    LLVMModuleRef m = NULL;
    if (LLVMGetBitcodeModuleInContext2(c, buf, &m)) {
        mosaic_strbuf_printf(log, "error: the GPU's built-ins %s are not LLVM bitcode\n", path);
        LLVMDisposeMemoryBuffer(buf);
        return NULL;
    }
    return m;
}

/*
 * The kernels' parameters as the device passes them.
 *   - __local kernel arguments become offsets into the block's dynamic
 *     shared memory.  A kernel's `local float *t` is memory the launch
 *     sizes (clSetKernelArg with a size and NULL); the host cannot know
 *     where shared memory is in the GPU's shared window, so the kernel
 *     takes the argument's byte offset instead (a 32-bit integer where the
 *     pointer was) and adds it to MC_PTX_DYNAMIC_SHARED, the block's
 *     dynamic shared memory; the launch passes the offsets and their total
 *     as the shared bytes.
 *   - One more parameter comes last: the launch's values (a
 *     mosaic_gpu_launch, by value), which the kernel's work-item functions
 *     read from there once inlined (launch_from_parameter, after the
 *     optimiser): a kernel parameter is in the GPU's constant bank, read
 *     as an operand, where MOSAIC_GPU_LAUNCH_SYMBOL is global memory.
 * Each kernel is made again with the new parameters, its blocks moved into
 * it, and takes the old one's name, metadata and place in nvvm.annotations.
 */
static LLVMValueRef dynamic_shared(LLVMModuleRef m)
{
    LLVMValueRef g = LLVMGetNamedGlobal(m, MC_PTX_DYNAMIC_SHARED);
    if (g)
        return g;
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef bytes = LLVMArrayType(LLVMInt8TypeInContext(c), 0);
    g = LLVMAddGlobalInAddressSpace(m, bytes, MC_PTX_DYNAMIC_SHARED, 3);
    LLVMSetLinkage(g, LLVMExternalLinkage);
    LLVMSetAlignment(g, 128); /* as CL_DEVICE_MEM_BASE_ADDR_ALIGN will say: a long16 */
    return g;
}

static bool is_local_pointer(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 3;
}

/* Every block of `from` moved, in order, to the end of `to` (their uses of
 * from's parameters are the caller's to redirect). */
static void blocks_moved(LLVMValueRef from, LLVMValueRef to)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(from), next; bb; bb = next) {
        next = LLVMGetNextBasicBlock(bb);
        LLVMRemoveBasicBlockFromParent(bb);
        LLVMAppendExistingBasicBlock(to, bb);
    }
}

/* false: out of memory, the kernel as it was */
static bool device_parameters(LLVMModuleRef m, LLVMValueRef kernel)
{
    if (LLVMIsDeclaration(kernel))
        return true;
    unsigned n = LLVMCountParams(kernel);
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
    LLVMTypeRef launch = LLVMArrayType(LLVMInt64TypeInContext(c), sizeof(mosaic_gpu_launch) / 8);
    LLVMTypeRef old_type = LLVMGlobalGetValueType(kernel);
    LLVMTypeRef *params = malloc((n + 1) * sizeof *params);
    size_t len = 0;
    const char *name = LLVMGetValueName2(kernel, &len);
    char *copy = strndup(name, len); /* the name is free only once the old kernel is gone */
    if (!params || !copy) {
        free(params), free(copy);
        return false;
    }
    LLVMGetParamTypes(old_type, params);
    for (unsigned i = 0; i < n; i++)
        if (is_local_pointer(params[i]))
            params[i] = i32;
    params[n] = LLVMPointerTypeInContext(c, 0);
    LLVMValueRef made = LLVMAddFunction(m, "", LLVMFunctionType(LLVMGetReturnType(old_type), params, n + 1, 0));
    free(params);
    LLVMSetFunctionCallConv(made, LLVMGetFunctionCallConv(kernel));
    mc_copy_attributes_at(kernel, made, LLVMAttributeFunctionIndex);
    for (unsigned i = 0; i < n; i++)
        if (!is_local_pointer(LLVMTypeOf(LLVMGetParam(kernel, i))))
            mc_copy_attributes_at(kernel, made, i + 1);
    LLVMAddAttributeAtIndex(made, n + 1, LLVMCreateTypeAttribute(c, LLVMGetEnumAttributeKindForName("byval", 5),
                                                                 launch));
    LLVMAddAttributeAtIndex(made, n + 1, LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName("align", 5), 8));
    LLVMSetValueName2(LLVMGetParam(made, n), "launch", 6);
    size_t count = 0;
    LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(kernel, &count);
    for (size_t k = 0; k < count; k++)
        LLVMGlobalSetMetadata(made, LLVMValueMetadataEntriesGetKind(md, (unsigned)k),
                              LLVMValueMetadataEntriesGetMetadata(md, (unsigned)k));
    if (md)
        LLVMDisposeValueMetadataEntries(md);
    blocks_moved(kernel, made);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(made)));
    LLVMValueRef shared = NULL;
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef old = LLVMGetParam(kernel, i), now = LLVMGetParam(made, i);
        if (is_local_pointer(LLVMTypeOf(old))) {
            if (!shared)
                shared = dynamic_shared(m);
            now = LLVMBuildInBoundsGEP2(b, i8, shared, &now, 1, "local.argument");
        }
        LLVMReplaceAllUsesWith(old, now);
    }
    LLVMDisposeBuilder(b);
    /* every use of the kernel (nvvm.annotations, a block's reference) is
     * the new one's: all functions are of one pointer type */
    LLVMReplaceAllUsesWith(kernel, made);
    LLVMDeleteFunction(kernel);
    LLVMSetValueName2(made, copy, len);
    free(copy);
    return true;
}

/* After the optimiser has inlined the work-item functions into the
 * kernels: their loads of MOSAIC_GPU_LAUNCH_SYMBOL in `kernel` read the
 * kernel's launch parameter instead (the same bytes; the device passes
 * both).  `ptr` is the launch or an address derived from it; `now` the
 * same address in the parameter.  A use other than a load or an address
 * computation stays on the global, which the device then still writes. */
static void rebase_launch_uses(LLVMBuilderRef b, LLVMValueRef kernel, LLVMValueRef ptr, LLVMValueRef now);

static LLVMValueRef rebased_gep(LLVMBuilderRef b, LLVMValueRef gep, LLVMValueRef now)
{
    unsigned n = (unsigned)LLVMGetNumOperands(gep) - 1;
    LLVMValueRef indices[8];
    if (n > 8)
        return NULL;
    for (unsigned k = 0; k < n; k++)
        indices[k] = LLVMGetOperand(gep, k + 1);
    return LLVMBuildInBoundsGEP2(b, LLVMGetGEPSourceElementType(gep), now, indices, n, "launch.field");
}

static void rebase_load(LLVMBuilderRef b, LLVMValueRef load, LLVMValueRef now)
{
    LLVMPositionBuilderBefore(b, load);
    LLVMValueRef made = LLVMBuildLoad2(b, LLVMTypeOf(load), now, "");
    LLVMSetAlignment(made, LLVMGetAlignment(load));
    LLVMReplaceAllUsesWith(load, made);
    LLVMInstructionEraseFromParent(load);
}

static bool in_function(LLVMValueRef inst, LLVMValueRef f)
{
    return LLVMIsAInstruction(inst) && LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst)) == f;
}

/* ptr's users, each once (a user may use it twice); malloc'd, NULL when none or out of memory */
static LLVMValueRef *users_of(LLVMValueRef ptr, size_t *count)
{
    size_t n = 0, cap = 0;
    LLVMValueRef *users = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(ptr); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (n && users[n - 1] == user)
            continue;
        if (n == cap) {
            LLVMValueRef *more = realloc(users, (cap = cap ? 2 * cap : 16) * sizeof *more);
            if (!more)
                break;
            users = more;
        }
        users[n++] = user;
    }
    *count = n;
    return users;
}

static void rebase_launch_uses(LLVMBuilderRef b, LLVMValueRef kernel, LLVMValueRef ptr, LLVMValueRef now)
{
    size_t n = 0;
    LLVMValueRef *users = users_of(ptr, &n);
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef user = users[i];
        bool constant = LLVMIsAConstantExpr(user) && LLVMGetConstOpcode(user) == LLVMGetElementPtr;
        if (LLVMGetOperand(user, 0) != ptr || !(constant || in_function(user, kernel)))
            continue;
        if (LLVMIsALoadInst(user)) {
            rebase_load(b, user, now);
        } else if (LLVMIsAGetElementPtrInst(user) || constant) {
            /* a field's address: each of its users in this kernel, from
             * the same field of the parameter (a constant one's address
             * is made where it is used) */
            if (!constant)
                LLVMPositionBuilderBefore(b, user);
            size_t m = 0;
            LLVMValueRef *loads = constant ? users_of(user, &m) : NULL;
            LLVMValueRef field = constant ? NULL : rebased_gep(b, user, now);
            if (field)
                rebase_launch_uses(b, kernel, user, field);
            for (size_t k = 0; k < m; k++)
                if (LLVMIsALoadInst(loads[k]) && in_function(loads[k], kernel)) {
                    LLVMPositionBuilderBefore(b, loads[k]);
                    if ((field = rebased_gep(b, user, now)) != NULL)
                        rebase_load(b, loads[k], field);
                }
            free(loads);
            if (!constant && !LLVMGetFirstUse(user))
                LLVMInstructionEraseFromParent(user);
        }
    }
    free(users);
}

static void launch_from_parameter(LLVMModuleRef m)
{
    LLVMValueRef launch = LLVMGetNamedGlobal(m, MOSAIC_GPU_LAUNCH_SYMBOL);
    if (!launch)
        return;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f) && mc_is_kernel(f) && LLVMCountParams(f) > 0)
            rebase_launch_uses(b, f, launch, LLVMGetParam(f, LLVMCountParams(f) - 1));
    LLVMDisposeBuilder(b);
}

/* Links `lib` (taken) into m, in m's triple and data layout. */
static cl_int link_in(LLVMModuleRef m, LLVMModuleRef lib, const char *what, mosaic_strbuf *log)
{
    LLVMSetTarget(lib, LLVMGetTarget(m)); /* the library's own spelling of the same triple */
    LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(m));
    if (LLVMLinkModules2(m, lib)) { /* takes lib */
        mosaic_strbuf_printf(log, "error: cannot link %s into the program\n", what);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    return CL_SUCCESS;
}

/* The launch's values never change while a kernel runs (the device writes
 * them between launches): every load of them is invariant, so the optimiser
 * may reuse one across the kernel's stores and the code generator reads
 * them through the non-coherent cache (ld.global.nc). */
static void loads_invariant(LLVMValueRef v, unsigned kind, LLVMValueRef empty, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u && depth < 8; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsALoadInst(user))
            LLVMSetMetadata(user, kind, empty);
        else if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) ||
                 (LLVMIsAConstantExpr(user) && (LLVMGetConstOpcode(user) == LLVMGetElementPtr ||
                                                LLVMGetConstOpcode(user) == LLVMBitCast)))
            loads_invariant(user, kind, empty, depth + 1);
    }
}

/* A fence at OpenCL's memory scope `scope` (atomics.c): membar.cta for a
 * work-group or sub-group, membar.gl for the device, membar.sys for all
 * devices; nothing for a work-item. */
static void membar(LLVMBuilderRef b, unsigned scope)
{
    static const char *const names[] = {NULL, "llvm.nvvm.membar.cta", "llvm.nvvm.membar.gl", "llvm.nvvm.membar.sys",
                                        "llvm.nvvm.membar.cta"};
    const char *name = scope < 5 ? names[scope] : names[3];
    if (!name)
        return;
    LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInsertBlock(b)));
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(c), NULL, 0, false);
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (!f)
        f = LLVMAddFunction(m, name, type);
    LLVMBuildCall2(b, type, f, NULL, 0, "");
}

/* The work-group collectives' scratch (builtins/collectives.cl): where they
 * are linked in, __mosaic_wg_scratch gives the generic address of a shared
 * array of 8 bytes for each work-item of the largest block. */
#define MOST_BLOCK_ITEMS 1024 /* every compute capability CUDA 13 runs */

static void define_collective_scratch(LLVMModuleRef m)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, "__mosaic_wg_scratch");
    if (!f || !LLVMIsDeclaration(f))
        return;
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef array = LLVMArrayType(LLVMInt64TypeInContext(c), MOST_BLOCK_ITEMS);
    LLVMValueRef area = LLVMAddGlobalInAddressSpace(m, array, "__mosaic_wg_scratch_area", 3);
    LLVMSetInitializer(area, LLVMGetUndef(array));
    LLVMSetLinkage(area, LLVMInternalLinkage);
    LLVMSetAlignment(area, 8);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, f, ""));
    LLVMBuildRet(b, LLVMBuildAddrSpaceCast(b, area, LLVMPointerTypeInContext(c, 0), ""));
    LLVMDisposeBuilder(b);
    LLVMSetLinkage(f, LLVMInternalLinkage);
}

/* A kernel the program also calls as a function (OpenCL C allows it) is
 * two functions on the GPU, whose entries a call cannot reach: its blocks
 * move into `<kernel>.body`, an ordinary function every call now calls, and
 * the kernel calls that with its own arguments (the optimiser inlines it
 * back).  false: out of memory, the kernel as it was. */
static bool kernel_callable(LLVMModuleRef m, LLVMValueRef kernel)
{
    bool called = false;
    for (LLVMUseRef u = LLVMGetFirstUse(kernel); u && !called; u = LLVMGetNextUse(u))
        called = LLVMIsACallInst(LLVMGetUser(u)) && LLVMGetCalledValue(LLVMGetUser(u)) == kernel;
    if (!called)
        return true;
    size_t len = 0;
    const char *name = LLVMGetValueName2(kernel, &len);
    char *body_name = malloc(len + sizeof ".body");
    if (!body_name)
        return false;
    memcpy(body_name, name, len);
    memcpy(body_name + len, ".body", sizeof ".body");
    LLVMTypeRef type = LLVMGlobalGetValueType(kernel);
    LLVMValueRef body = LLVMAddFunction(m, body_name, type);
    free(body_name);
    LLVMSetLinkage(body, LLVMInternalLinkage);
    unsigned n = LLVMCountParams(kernel);
    for (unsigned i = 0; i <= n; i++)
        mc_copy_attributes_at(kernel, body, i == n ? (LLVMAttributeIndex)LLVMAttributeFunctionIndex : i + 1);
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMRemoveEnumAttributeAtIndex(body, LLVMAttributeFunctionIndex, LLVMGetEnumAttributeKindForName("noinline", 8));
    LLVMAddAttributeAtIndex(body, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));
    blocks_moved(kernel, body);
    for (unsigned i = 0; i < n; i++)
        LLVMReplaceAllUsesWith(LLVMGetParam(kernel, i), LLVMGetParam(body, i));
    /* the calls, which kept the kernel's calling convention */
    for (LLVMUseRef u = LLVMGetFirstUse(kernel), next; u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef call = LLVMGetUser(u);
        if (LLVMIsACallInst(call) && LLVMGetCalledValue(call) == kernel) {
            LLVMSetOperand(call, (unsigned)LLVMGetNumOperands(call) - 1, body);
            LLVMSetInstructionCallConv(call, LLVMCCallConv);
        }
    }
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, kernel, ""));
    LLVMValueRef *args = n ? malloc(n * sizeof *args) : NULL;
    bool fine = !n || args;
    if (fine) {
        for (unsigned i = 0; i < n; i++)
            args[i] = LLVMGetParam(kernel, i);
        LLVMBuildCall2(b, type, body, args, n, "");
        LLVMBuildRetVoid(b);
    } else {
        LLVMBuildUnreachable(b); /* (the build fails: see the caller) */
    }
    free(args);
    LLVMDisposeBuilder(b);
    return fine;
}

/* The program's module with Mosaic's work-item functions and libclc linked
 * in, its kernels' table read (into `table` when not NULL), everything but
 * the kernels and the launch's values internal; NULL (logged, *r set) on
 * failure. */
static LLVMModuleRef linked_program(LLVMContextRef c, LLVMTargetMachineRef tm, const mosaic_bitcode *program,
                                    mc_ptx_program *table, mosaic_strbuf *log, cl_int *r)
{
    LLVMModuleRef m = NULL;
    *r = mc_blob_load(c, program, &m, log);
    if (*r != CL_SUCCESS)
        return NULL;
    *r = CL_BUILD_PROGRAM_FAILURE;
    if (strncmp(LLVMGetTarget(m), "nvptx64", 7) != 0) {
        mosaic_strbuf_printf(log, "error: the program was compiled for %s, not for the GPU (%s)\n", LLVMGetTarget(m),
                             MC_PTX_TRIPLE);
        LLVMDisposeModule(m);
        return NULL;
    }
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    char *layout = LLVMCopyStringRepOfTargetData(td);
    LLVMSetDataLayout(m, layout);
    LLVMDisposeMessage(layout);
    if (table) /* the program's own variables, before anything is linked in */
        for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
            if (!LLVMIsDeclaration(g) && LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 1)
                table->global_variables_size += (size_t)LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
    LLVMModuleRef clc = NULL;
    *r = CL_SUCCESS;
    bool wanted[NUM_OWN_BUILTINS]; /* asked before any is linked in */
    for (size_t i = 0; i < NUM_OWN_BUILTINS; i++)
        wanted[i] = !own_builtins[i].wanted || calls_for(m, own_builtins[i].wanted);
    for (size_t i = 0; i < NUM_OWN_BUILTINS && *r == CL_SUCCESS; i++) {
        LLVMModuleRef own = NULL;
        if (!wanted[i])
            continue;
        *r = mc_load_gpu_builtin_file(c, own_builtins[i].name, &own, log);
        if (*r == CL_SUCCESS)
            *r = link_in(m, own, own_builtins[i].name, log);
    }
    if (*r == CL_SUCCESS) {
        *r = CL_BUILD_PROGRAM_FAILURE;
        clc = parse_file(c, MOSAIC_LIBCLC_NVPTX_PATH, log);
    }
    if (clc)
        *r = link_in(m, clc, "the GPU's built-ins (libclc)", log);
    if (*r != CL_SUCCESS) {
        LLVMDisposeTargetData(td);
        LLVMDisposeModule(m);
        return NULL;
    }
    define_collective_scratch(m);
    /* The GPU's compute capability and PTX version are the code generator's
     * (mc_ptx_from_program's `sm`), not what clang wrote into each function:
     * "+ptx42,+sm_20" where it found no CUDA installation, the installed
     * CUDA's PTX version where it did; libclc's are its own. */
    LLVMValueRef *kernels = NULL;
    size_t nk = 0;
    bool fine = true;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-cpu", 10);
        LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "target-features", 15);
        if (LLVMIsDeclaration(f))
            continue;
        if (!mc_is_kernel(f)) {
            LLVMSetLinkage(f, LLVMInternalLinkage);
        } else if (fine) {
            LLVMValueRef *more = realloc(kernels, (nk + 1) * sizeof *kernels);
            fine = more != NULL;
            if (fine)
                kernels = more, kernels[nk++] = f;
        }
    }
    /* the table: the program's kernels as the CPU's finalize lists them
     * (module order, block kernels left out), read before their __local
     * arguments become offsets */
    if (fine && table && nk) {
        table->kernels = calloc(nk, sizeof *table->kernels);
        fine = table->kernels != NULL;
    }
    *r = CL_SUCCESS;
    for (size_t k = 0; k < nk && fine && table && *r == CL_SUCCESS; k++)
        if (!mc_is_block_kernel(kernels[k]) &&
            (*r = mc_kernel_info_from_ir(td, kernels[k], &table->kernels[table->num_kernels], log)) == CL_SUCCESS)
            table->num_kernels++;
    LLVMDisposeTargetData(td);
    for (size_t k = 0; k < nk && fine && *r == CL_SUCCESS; k++) /* each remade: not while walking the list */
        fine = kernel_callable(m, kernels[k]) && device_parameters(m, kernels[k]);
    free(kernels);
    if (!fine || *r != CL_SUCCESS) {
        if (!fine)
            *r = mc_out_of_memory(log);
        LLVMDisposeModule(m);
        return NULL;
    }
    /* the device's way in: the launch's values, and the printf buffer where
     * a kernel may print (else it goes with the unused built-ins) */
    LLVMValueRef print = LLVMGetNamedFunction(m, "__mosaic_printf");
    bool prints = print && LLVMGetFirstUse(print);
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g) && strcmp(LLVMGetValueName(g), MOSAIC_GPU_LAUNCH_SYMBOL) != 0 &&
            !(prints && strcmp(LLVMGetValueName(g), MOSAIC_GPU_PRINTF_SYMBOL) == 0))
            LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMValueRef launch = LLVMGetNamedGlobal(m, MOSAIC_GPU_LAUNCH_SYMBOL);
    if (launch) {
        unsigned kind = LLVMGetMDKindIDInContext(c, "invariant.load", 14);
        loads_invariant(launch, kind, LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0)), 0);
    }
    return m;
}

/* OpenCL's __constant is NVPTX's address space 4, the GPU's .const bank:
 * 64 KiB a module fills with its own data, which a buffer's address does
 * not point into.  A __constant kernel argument is a buffer in global
 * memory, so every __constant pointer and variable becomes a global one
 * (address space 1, read through the caches as any other).  With opaque
 * pointers an address space is only ever written `addrspace(4)` in the
 * module's text, so the text is rewritten and read back; the parser
 * renames intrinsics whose names spell the old space (llvm.memcpy.p0.p4).
 * Returns the new module (the old one disposed), or NULL (logged). */
static void constant_spaces_global(char *text)
{
    mc_text_replace(text, "addrspace(4)", "addrspace(1)");
}

static LLVMModuleRef constant_as_global(LLVMContextRef c, LLVMModuleRef m, mosaic_strbuf *log)
{
    return mc_module_rewritten(c, m, constant_spaces_global, "the program's __constant memory could not be made global",
                               log);
}

/* Adds to `list` (of *n, room for *cap) what is not in it yet; false: out
 * of memory. */
static bool add_unique(LLVMValueRef **list, size_t *n, size_t *cap, LLVMValueRef v)
{
    for (size_t i = 0; i < *n; i++)
        if ((*list)[i] == v)
            return true;
    if (*n == *cap) {
        size_t more = *cap ? 2 * *cap : 16;
        LLVMValueRef *l = realloc(*list, more * sizeof *l);
        if (!l)
            return false;
        *list = l, *cap = more;
    }
    (*list)[(*n)++] = v;
    return true;
}

typedef struct shared_walk {
    LLVMValueRef *functions, *variables;
    size_t nf, cf, nv, cv;
    bool oom;
} shared_walk;

/* The shared variables and defined functions operand v names, through
 * constant expressions. */
static void walk_operand(shared_walk *w, LLVMValueRef v, int depth)
{
    if (LLVMIsAFunction(v)) {
        if (!LLVMIsDeclaration(v))
            w->oom |= !add_unique(&w->functions, &w->nf, &w->cf, v);
    } else if (LLVMIsAGlobalVariable(v)) {
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(v)) == 3 && !LLVMIsDeclaration(v))
            w->oom |= !add_unique(&w->variables, &w->nv, &w->cv, v);
    } else if (LLVMIsAConstantExpr(v) && depth < 8) {
        int n = LLVMGetNumOperands(v);
        for (int i = 0; i < n; i++)
            walk_operand(w, LLVMGetOperand(v, i), depth + 1);
    }
}

/* Bytes of the static __local variables (shared memory) kernel f and what it
 * calls use, each at its alignment in order of first use: what ptxas lays
 * out, near enough (the driver's CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES is
 * exact); the dynamic shared memory of __local arguments is declared, not
 * defined, and not counted.  0 when out of memory. */
static size_t static_shared_size(LLVMTargetDataRef td, LLVMValueRef f)
{
    shared_walk w = {0};
    w.oom = !add_unique(&w.functions, &w.nf, &w.cf, f);
    for (size_t i = 0; i < w.nf && !w.oom; i++)
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(w.functions[i]); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                int n = LLVMGetNumOperands(in);
                for (int k = 0; k < n; k++)
                    walk_operand(&w, LLVMGetOperand(in, k), 0);
            }
    size_t offset = 0;
    for (size_t i = 0; i < w.nv && !w.oom; i++) {
        LLVMTypeRef t = LLVMGlobalGetValueType(w.variables[i]);
        size_t align = LLVMABIAlignmentOfType(td, t);
        if (LLVMGetAlignment(w.variables[i]) > align)
            align = LLVMGetAlignment(w.variables[i]);
        offset = (offset + align - 1) / align * align + (size_t)LLVMABISizeOfType(td, t);
    }
    free(w.functions);
    free(w.variables);
    return w.oom ? 0 : offset;
}

/* A function the optimised program still calls without a body (an
 * intrinsic aside), or NULL. */
static const char *missing_function(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (LLVMIsDeclaration(f) && !LLVMGetIntrinsicID(f) && LLVMGetFirstUse(f))
            return LLVMGetValueName(f);
    return NULL;
}

/* After the optimiser: the kernels' shared variables counted, and the
 * launch's values gone where nothing reads them (the device then finds no
 * MOSAIC_GPU_LAUNCH_SYMBOL and writes nothing). */
/* An address space cast between two named spaces (__local to __global),
 * which the NVPTX back end cannot make: it stops the process ("Cannot cast
 * between two non-generic address spaces").  The optimiser makes them out
 * of a program's legal casts through the generic space (two pointers of
 * different spaces compared as generic ones), so they go back through it,
 * as two cvta instructions in inline assembly. */
static bool between_named_spaces(LLVMValueRef cast)
{
    unsigned from = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(cast, 0)));
    unsigned to = LLVMGetPointerAddressSpace(LLVMTypeOf(cast));
    return from != 0 && to != 0 && from != to;
}

/* PTX's name of an NVPTX address space. */
static const char *ptx_space(unsigned as)
{
    switch (as) {
    case 1: return "global";
    case 3: return "shared";
    case 4: return "const";
    default: return "local";
    }
}

/* One cvta as inline assembly on a 64-bit address: opaque to the code
 * generator, which would fold two address space casts back into one. */
static LLVMValueRef cvta(LLVMBuilderRef b, const char *text, LLVMValueRef address)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(address));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMTypeRef type = LLVMFunctionType(i64, &i64, 1, false);
    char constraints[] = "=l,l";
    LLVMValueRef asm_ = LLVMGetInlineAsm(type, (char *)text, strlen(text), constraints, strlen(constraints), false,
                                         false, LLVMInlineAsmDialectATT, false);
    return LLVMBuildCall2(b, type, asm_, &address, 1, "");
}

static LLVMValueRef through_generic(LLVMBuilderRef b, LLVMValueRef from, LLVMTypeRef to)
{
    LLVMContextRef c = LLVMGetTypeContext(to);
    char to_generic[48], from_generic[48];
    snprintf(to_generic, sizeof to_generic, "cvta.%s.u64 $0, $1;", ptx_space(LLVMGetPointerAddressSpace(LLVMTypeOf(from))));
    snprintf(from_generic, sizeof from_generic, "cvta.to.%s.u64 $0, $1;", ptx_space(LLVMGetPointerAddressSpace(to)));
    LLVMValueRef address = LLVMBuildPtrToInt(b, from, LLVMInt64TypeInContext(c), "");
    address = cvta(b, from_generic, cvta(b, to_generic, address));
    return LLVMBuildIntToPtr(b, address, to, "");
}

/* Does constant expression v hold such a cast, at any depth? */
static bool holds_named_cast(LLVMValueRef v, int depth)
{
    if (!v || !LLVMIsAConstantExpr(v) || depth > 8)
        return false;
    if (LLVMGetConstOpcode(v) == LLVMAddrSpaceCast && between_named_spaces(v))
        return true;
    for (int o = 0; o < LLVMGetNumOperands(v); o++)
        if (holds_named_cast(LLVMGetOperand(v, o), depth + 1))
            return true;
    return false;
}

/* Constant expression v as instructions before the builder's position,
 * its casts between named spaces through the generic one: casts and
 * comparisons and selects, which is how such casts come (a null __local
 * pointer compared with a __global one); anything else is left as it is. */
static LLVMValueRef expand(LLVMBuilderRef b, LLVMValueRef v)
{
    if (!holds_named_cast(v, 0))
        return v;
    LLVMOpcode op = LLVMGetConstOpcode(v);
    if (op == LLVMAddrSpaceCast && between_named_spaces(v))
        return through_generic(b, expand(b, LLVMGetOperand(v, 0)), LLVMTypeOf(v));
    if (op == LLVMICmp)
        return LLVMBuildICmp(b, LLVMGetICmpPredicate(v), expand(b, LLVMGetOperand(v, 0)),
                             expand(b, LLVMGetOperand(v, 1)), "");
    if (op == LLVMSelect)
        return LLVMBuildSelect(b, expand(b, LLVMGetOperand(v, 0)), expand(b, LLVMGetOperand(v, 1)),
                               expand(b, LLVMGetOperand(v, 2)), "");
    if ((op >= LLVMTrunc && op <= LLVMBitCast) || op == LLVMAddrSpaceCast)
        return LLVMBuildCast(b, op, expand(b, LLVMGetOperand(v, 0)), LLVMTypeOf(v), "");
    return v;
}

static void casts_through_generic(LLVMModuleRef m)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
                next = LLVMGetNextInstruction(i);
                if (LLVMIsAPHINode(i))
                    continue; /* a constant cast into a phi: none seen; the back end says so if one comes */
                for (unsigned o = 0; o < (unsigned)LLVMGetNumOperands(i); o++) {
                    LLVMValueRef v = LLVMGetOperand(i, o);
                    if (holds_named_cast(v, 0)) {
                        LLVMPositionBuilderBefore(b, i);
                        LLVMSetOperand(i, o, expand(b, v));
                    }
                }
                if (LLVMIsAAddrSpaceCastInst(i) && between_named_spaces(i)) {
                    LLVMPositionBuilderBefore(b, i);
                    LLVMValueRef fixed = through_generic(b, LLVMGetOperand(i, 0), LLVMTypeOf(i));
                    LLVMReplaceAllUsesWith(i, fixed);
                    LLVMInstructionEraseFromParent(i);
                }
            }
    LLVMDisposeBuilder(b);
}

/*
 * Single-precision division as OpenCL C allows it: within 2.5 ulp, which
 * the front end marks on each `/` of the program (!fpmath 2.5; none with
 * -cl-fp32-correctly-rounded-divide-sqrt, or in the built-ins' own code).
 * The NVPTX back end makes every fdiv the GPU's correctly rounded division,
 * a long sequence; div.full.f32, within 2 ulp over the whole range, is a
 * few instructions.  The code generator has no intrinsic for it: inline
 * assembly, one per element, after the optimiser (which has turned
 * divisions by constants into products already).
 */
static bool allows_ulps(LLVMValueRef div, unsigned fpmath, double ulps)
{
    LLVMValueRef md = LLVMGetMetadata(div, fpmath);
    if (!md || LLVMGetMDNodeNumOperands(md) != 1)
        return false;
    LLVMValueRef bound;
    LLVMGetMDNodeOperands(md, &bound);
    LLVMBool lost = 0;
    return bound && LLVMIsAConstantFP(bound) && LLVMConstRealGetDouble(bound, &lost) >= ulps;
}

/* Instruction i, of a scalar or a vector type, replaced by `op` done on
 * each element of its operands in turn (the builder before i), the
 * results put together again as a vector. */
typedef LLVMValueRef (*element_op)(LLVMBuilderRef b, LLVMValueRef *operands, LLVMTypeRef type, void *arg);
static void replaced_per_element(LLVMBuilderRef b, LLVMValueRef i, element_op op, void *arg)
{
    LLVMTypeRef t = LLVMTypeOf(i), i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(t));
    bool vector = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
    unsigned n = vector ? LLVMGetVectorSize(t) : 1, num_operands = (unsigned)LLVMGetNumOperands(i);
    LLVMValueRef result = vector ? LLVMGetUndef(t) : NULL, operands[2];
    MOSAIC_ASSERT(num_operands <= 2);
    LLVMPositionBuilderBefore(b, i);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef at = LLVMConstInt(i32, k, 0);
        for (unsigned a = 0; a < num_operands; a++) {
            operands[a] = LLVMGetOperand(i, a);
            if (vector)
                operands[a] = LLVMBuildExtractElement(b, operands[a], at, "");
        }
        LLVMValueRef r = op(b, operands, vector ? LLVMGetElementType(t) : t, arg);
        result = vector ? LLVMBuildInsertElement(b, result, r, at, "") : r;
    }
    LLVMReplaceAllUsesWith(i, result);
    LLVMInstructionEraseFromParent(i);
}

/* div.full.f32 of two floats */
typedef struct full_division {
    LLVMTypeRef type;
    LLVMValueRef code;
    LLVMAttributeRef readnone;
} full_division;

static LLVMValueRef divided_in_full(LLVMBuilderRef b, LLVMValueRef *operands, LLVMTypeRef type, void *arg)
{
    full_division *d = arg;
    LLVMValueRef q = LLVMBuildCall2(b, d->type, d->code, operands, 2, "");
    LLVMAddCallSiteAttribute(q, LLVMAttributeFunctionIndex, d->readnone);
    return q;
}

/* div.full.f32's inline assembly, made once per module */
static full_division full_division_of(LLVMContextRef c)
{
    LLVMTypeRef f32 = LLVMFloatTypeInContext(c);
    LLVMTypeRef two[2] = {f32, f32};
    full_division d = {.type = LLVMFunctionType(f32, two, 2, 0)};
    static const char text[] = "div.full.f32 $0, $1, $2;", constraints[] = "=f,f,f";
    d.code = LLVMGetInlineAsm(d.type, (char *)text, sizeof text - 1, (char *)constraints, sizeof constraints - 1, 0,
                              0, LLVMInlineAsmDialectATT, 0);
    d.readnone = LLVMCreateEnumAttribute(c, LLVMGetEnumAttributeKindForName("readnone", 8), 0);
    return d;
}

/*
 * Vector widenings of floating point (fpext <N x half> to <N x float>,
 * <N x float> to <N x double>), one per element.  LLVM 16's NVPTX back end
 * folds such a widening of a loaded vector wider than 2 into one extending
 * load, which it emits as ld.v4.b16 straight into .f32 registers: the bits
 * of halves taken for floats, no cvt (the 8-wide half maths functions,
 * which widen to float8, were thousands of ulp off on the H200).  The GPU
 * converts element by element anyway.
 */
static LLVMValueRef widened(LLVMBuilderRef b, LLVMValueRef *operands, LLVMTypeRef type, void *arg)
{
    return LLVMBuildFPExt(b, operands[0], type, "");
}

/* The two rewrites above, in one walk over the module after the
 * optimiser: float divisions allowed 2 ulp become div.full.f32, vector
 * widenings are done per element. */
static void per_element_rewrites(LLVMModuleRef m)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef f32 = LLVMFloatTypeInContext(c);
    full_division d = full_division_of(c);
    unsigned fpmath = LLVMGetMDKindIDInContext(c, "fpmath", 6);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
                next = LLVMGetNextInstruction(i);
                LLVMTypeRef t = LLVMTypeOf(i);
                bool vector = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
                LLVMOpcode op = LLVMGetInstructionOpcode(i);
                if (op == LLVMFDiv && (vector ? LLVMGetElementType(t) : t) == f32 && allows_ulps(i, fpmath, 2.0))
                    replaced_per_element(b, i, divided_in_full, &d);
                else if (op == LLVMFPExt && vector)
                    replaced_per_element(b, i, widened, NULL);
            }
    LLVMDisposeBuilder(b);
}

/*
 * Small loops unrolled four times.  A kernel's loop of a few instructions
 * whose trip count is known only at run time (`for (j = 0; j < n; j++)`)
 * is left rolled by O2: the NVPTX target allows partial unrolling only
 * below a quarter of the usual size.  On a GPU whose multiprocessors run
 * few warps of such a kernel, each iteration then waits for the one before
 * it; four iterations side by side give the scheduler independent work.
 * A loop here is a block that branches to itself (an innermost loop as O2
 * leaves it) on a comparison of a counter that steps by one with a bound
 * known only at run time: a loop striding by the group's size over a tile
 * runs a few times, and one of constant trip count is the optimiser's or
 * ptxas's to unroll whole.  It gets llvm.loop.unroll.count 4 unless the
 * program's own #pragma gave it loop metadata, and LoopUnroll
 * (unroll_passes) does the rest, with a remainder loop.  Loops with
 * convergent calls (barriers, sub-group functions) are the unroller's to
 * refuse.
 */
enum { UNROLLED_LOOP_MAX_INSTRUCTIONS = 40, UNROLL_COUNT = 4 };
/* A loop of constant trip count is unrolled whole where O2 leaves it (its
 * threshold counts the copies, not that the GPU's scheduler needs them):
 * up to 32 iterations, 1536 instructions in all.  A tile's loop over its
 * slice of k (16 steps of a dozen loads and 32 FMAs) is the example: whole,
 * the loads of later steps go ahead of the FMAs of earlier ones. */
enum { UNROLLED_WHOLE_MAX_TRIPS = 32, UNROLLED_WHOLE_MAX_INSTRUCTIONS = 1536 };
/* ... and only a loop of floating-point products (at least 4 multiplies or
 * FMAs a step): the 7x7 morphology filters' row loop (7 steps of byte loads
 * and min), unrolled whole, ran 10-20% slower on the H200. */
enum { UNROLLED_WHOLE_MIN_PRODUCTS = 4 };

/* Before the optimiser.  The front end marks every call of an OpenCL
 * program convergent, the intrinsics' calls (llvm.fma, the GPU's
 * rsqrt.approx) included, and a loop with a convergent call is never
 * unrolled at run time, by O2 or here: such calls lose the mark where the
 * intrinsic itself is not convergent (its declaration says). */
static void intrinsic_calls_not_convergent(LLVMModuleRef m)
{
    unsigned convergent = LLVMGetEnumAttributeKindForName("convergent", 10);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
                if (callee && LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee) &&
                    !LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, convergent))
                    LLVMRemoveCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, convergent);
            }
}

/* Is v, in loop block bb, a counter that steps by one: a phi of bb whose
 * value from bb adds 1 or -1 to it, or that addition? */
static bool is_unit_step(LLVMValueRef add, LLVMValueRef phi)
{
    if (!add || LLVMGetInstructionOpcode(add) != LLVMAdd)
        return false;
    for (int k = 0; k < 2; k++) {
        LLVMValueRef step = LLVMGetOperand(add, (unsigned)(1 - k));
        if (LLVMGetOperand(add, (unsigned)k) == phi && LLVMIsAConstantInt(step)) {
            long long by = LLVMConstIntGetSExtValue(step);
            return by == 1 || by == -1;
        }
    }
    return false;
}

static bool counts_by_one(LLVMValueRef v, LLVMBasicBlockRef bb)
{
    if (!LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != bb)
        return false;
    if (LLVMIsAPHINode(v)) {
        for (unsigned k = 0; k < LLVMCountIncoming(v); k++)
            if (LLVMGetIncomingBlock(v, k) == bb)
                return is_unit_step(LLVMGetIncomingValue(v, k), v);
        return false;
    }
    if (LLVMGetInstructionOpcode(v) != LLVMAdd)
        return false;
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef phi = LLVMGetOperand(v, k);
        if (LLVMIsAPHINode(phi) && LLVMGetInstructionParent(phi) == bb && is_unit_step(v, phi))
            return true;
    }
    return false;
}

/* The loop block bb's branch back: on a comparison of a counter by one
 * with a bound that is no constant? */
static bool runtime_counted(LLVMValueRef br, LLVMBasicBlockRef bb)
{
    LLVMValueRef cond = LLVMGetCondition(br);
    if (!LLVMIsAICmpInst(cond))
        return false;
    LLVMValueRef a = LLVMGetOperand(cond, 0), b = LLVMGetOperand(cond, 1);
    return (counts_by_one(a, bb) && !LLVMIsAConstant(b)) || (counts_by_one(b, bb) && !LLVMIsAConstant(a));
}

/* The loop block bb's branch back, on a comparison of a counter by one
 * that starts at a constant with a constant bound: about how many times it
 * runs (the unroller finds the exact count); 0 where it is not such a loop. */
static unsigned long constant_trips(LLVMValueRef br, LLVMBasicBlockRef bb)
{
    LLVMValueRef cond = LLVMGetCondition(br);
    if (!LLVMIsAICmpInst(cond))
        return 0;
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef v = LLVMGetOperand(cond, k), bound = LLVMGetOperand(cond, 1 - k);
        if (!counts_by_one(v, bb) || !LLVMIsAConstantInt(bound))
            continue;
        LLVMValueRef phi = v;
        for (unsigned o = 0; !LLVMIsAPHINode(phi) && o < 2; o++)
            phi = LLVMGetOperand(v, o);
        if (!LLVMIsAPHINode(phi) || LLVMCountIncoming(phi) != 2)
            return 0;
        LLVMValueRef start = LLVMGetIncomingValue(phi, LLVMGetIncomingBlock(phi, 0) == bb ? 1 : 0);
        if (!LLVMIsAConstantInt(start))
            return 0;
        long long from = LLVMConstIntGetSExtValue(start), to = LLVMConstIntGetSExtValue(bound);
        return (unsigned long)(to > from ? to - from : from - to) + 1;
    }
    return 0;
}

static bool small_loops_unrolled(LLVMModuleRef m)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    unsigned loop_kind = LLVMGetMDKindIDInContext(c, "llvm.loop", 9);
    static const char count_name[] = "llvm.loop.unroll.count", full_name[] = "llvm.loop.unroll.full";
    LLVMMetadataRef count[2] = {
        LLVMMDStringInContext2(c, count_name, sizeof count_name - 1),
        LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c), UNROLL_COUNT, 0)),
    };
    LLVMMetadataRef full_string = LLVMMDStringInContext2(c, full_name, sizeof full_name - 1);
    LLVMMetadataRef by_four = LLVMMDNodeInContext2(c, count, 2), whole = LLVMMDNodeInContext2(c, &full_string, 1);
    bool any = false;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
            if (!br || LLVMGetInstructionOpcode(br) != LLVMBr || !LLVMIsConditional(br) ||
                (LLVMGetSuccessor(br, 0) != bb && LLVMGetSuccessor(br, 1) != bb) || LLVMGetMetadata(br, loop_kind))
                continue;
            unsigned size = 0, products = 0;
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && size <= UNROLLED_WHOLE_MAX_INSTRUCTIONS;
                 i = LLVMGetNextInstruction(i), size++)
                products += LLVMGetInstructionOpcode(i) == LLVMFMul || mc_calls_intrinsic(i, "llvm.fma.") ||
                            mc_calls_intrinsic(i, "llvm.fmuladd.");
            unsigned long trips = constant_trips(br, bb);
            LLVMMetadataRef unroll = NULL;
            if (runtime_counted(br, bb) && size <= UNROLLED_LOOP_MAX_INSTRUCTIONS)
                unroll = by_four;
            else if (trips && trips <= UNROLLED_WHOLE_MAX_TRIPS && trips * size <= UNROLLED_WHOLE_MAX_INSTRUCTIONS &&
                     products >= UNROLLED_WHOLE_MIN_PRODUCTS)
                unroll = whole;
            if (!unroll)
                continue;
            /* a loop's id: a node whose first operand is itself */
            LLVMMetadataRef self = LLVMTemporaryMDNode(c, NULL, 0);
            LLVMMetadataRef ops[2] = {self, unroll};
            LLVMMetadataRef id = LLVMMDNodeInContext2(c, ops, 2);
            LLVMMetadataReplaceAllUsesWith(self, id);
            LLVMSetMetadata(br, loop_kind, LLVMMetadataAsValue(c, id));
            any = true;
        }
    return any;
}

static void after_optimiser(LLVMModuleRef m, LLVMTargetMachineRef tm, mc_ptx_program *table)
{
    casts_through_generic(m);
    per_element_rewrites(m);
    launch_from_parameter(m);
    /* the module's launch goes where nothing reads it any more: internal
     * for a moment, so that globaldce may drop it with the constant field
     * addresses no load uses (the device then finds none and writes none) */
    LLVMValueRef launch = LLVMGetNamedGlobal(m, MOSAIC_GPU_LAUNCH_SYMBOL);
    if (launch) {
        LLVMSetLinkage(launch, LLVMInternalLinkage);
        mosaic_strbuf ignored = {0}; /* (the pass cannot fail; without it the launch stays) */
        mc_run_passes(m, tm, "globaldce", &ignored);
        mosaic_strbuf_free(&ignored);
        if ((launch = LLVMGetNamedGlobal(m, MOSAIC_GPU_LAUNCH_SYMBOL)) != NULL)
            LLVMSetLinkage(launch, LLVMExternalLinkage);
    }
    if (!table)
        return;
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    for (size_t k = 0; k < table->num_kernels; k++) {
        LLVMValueRef f = LLVMGetNamedFunction(m, table->kernels[k].name);
        table->kernels[k].static_local_mem_size = f ? static_shared_size(td, f) : 0;
    }
    LLVMDisposeTargetData(td);
}

void mc_ptx_program_clear(mc_ptx_program *p)
{
    free(p->ptx);
    for (size_t k = 0; k < p->num_kernels; k++)
        mc_kernel_info_clear(&p->kernels[k]);
    free(p->kernels);
    memset(p, 0, sizeof *p);
}

/* The module as PTX text (mc_guard_fatal runs it: NVPTX stops the process
 * on what it cannot select). */
typedef struct emission {
    LLVMTargetMachineRef tm;
    LLVMModuleRef m;
    LLVMMemoryBufferRef text;
    char *message;
    bool failed;
} emission;

static void emit(void *arg)
{
    emission *e = arg;
    e->failed = LLVMTargetMachineEmitToMemoryBuffer(e->tm, e->m, LLVMAssemblyFile, &e->message, &e->text);
}

cl_int mc_ptx_build(const mosaic_bitcode *program, const char *sm, mc_ptx_program *out, mosaic_strbuf *log)
{
    memset(out, 0, sizeof *out);
    if (!mc_ptx_available()) {
        mosaic_strbuf_printf(log, "error: no built-ins for the GPU: libclc's NVPTX library (Debian's libclc-16) "
                                  "was not found when Mosaic was built, or is gone (%s)\n",
                             MOSAIC_LIBCLC_NVPTX_PATH[0] ? MOSAIC_LIBCLC_NVPTX_PATH : "no path");
        return CL_COMPILER_NOT_AVAILABLE;
    }
    pthread_once(&nvptx_once, initialise_nvptx);
    LLVMTargetRef target = NULL;
    char *message = NULL;
    if (LLVMGetTargetFromTriple(code_triple, &target, &message)) {
        mosaic_strbuf_printf(log, "error: this LLVM has no NVPTX back end: %s\n", message ? message : "");
        LLVMDisposeMessage(message);
        return CL_COMPILER_NOT_AVAILABLE;
    }
    /* PTX 7.8, LLVM 16's last, which every CUDA 12 driver reads: the least
     * for an sm_90 and enough for the sub-groups' shfl.sync and activemask
     * (6.2) on any GPU */
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, code_triple, sm ? sm : "", "+ptx78",
                                                      LLVMCodeGenLevelAggressive, LLVMRelocDefault,
                                                      LLVMCodeModelDefault);
    LLVMContextRef c = mc_context_create(log); /* an error diagnostic goes to the log, not exit() */
    cl_int r = CL_BUILD_PROGRAM_FAILURE;
    LLVMModuleRef m = tm && c ? linked_program(c, tm, program, out, log, &r) : NULL;
    if (!tm)
        mosaic_strbuf_printf(log, "error: no NVPTX code generator for %s\n", sm ? sm : "(none)");
    else if (!c)
        r = mc_out_of_memory(log);
    /* what the kernels do not reach of the built-ins linked in (whole
     * files of Mosaic's own) goes before the module is printed and read
     * back: that text is the program's, not the libraries' */
    if (r == CL_SUCCESS)
        r = mc_run_passes(m, tm, "globaldce", log);
    if (r == CL_SUCCESS && !(m = constant_as_global(c, m, log)))
        r = CL_BUILD_PROGRAM_FAILURE;
    if (r == CL_SUCCESS) {
        LLVMSetTarget(m, code_triple);
        intrinsic_calls_not_convergent(m); /* (O2's own unrolling stops at them too) */
        r = mc_run_passes(m, tm, optimiser_passes, log);
    }
    /* the atomics' library calls, as the GPU's relaxed atomics and fences:
     * after inlining, where their orders and scopes are constants, then
     * their pointers' address spaces found again (atom.shared, not the
     * generic atom) */
    if (r == CL_SUCCESS)
        r = mc_lower_atomic_calls_fenced(m, membar, log);
    if (r == CL_SUCCESS)
        r = mc_run_passes(m, tm, after_atomics_passes, log);
    if (r == CL_SUCCESS && small_loops_unrolled(m)) {
        r = mc_run_passes(m, tm, unroll_passes, log);
    }
    const char *missing = r == CL_SUCCESS ? missing_function(m) : NULL;
    if (missing) {
        mosaic_strbuf_printf(log, "error: the GPU has no built-in '%s'\n", missing);
        r = CL_BUILD_PROGRAM_FAILURE;
    }
    if (r == CL_SUCCESS)
        after_optimiser(m, tm, out);
    LLVMMemoryBufferRef text = NULL;
    emission e = {tm, m, NULL, NULL, false};
    if (r == CL_SUCCESS && !mc_guard_fatal(emit, &e, log)) {
        /* the code generator stopped: the build fails, the process goes on,
         * and what LLVM held is left as it is (mc_guard_fatal) */
        mosaic_strbuf_puts(log, "error: PTX generation failed (the NVPTX code generator stopped)\n");
        r = CL_BUILD_PROGRAM_FAILURE;
        m = NULL, c = NULL, tm = NULL;
    } else if (r == CL_SUCCESS && e.failed) {
        mosaic_strbuf_printf(log, "error: PTX generation failed: %s\n", e.message ? e.message : "");
        LLVMDisposeMessage(e.message);
        r = CL_BUILD_PROGRAM_FAILURE;
    }
    text = e.text;
    if (text) {
        size_t n = LLVMGetBufferSize(text);
        out->ptx = malloc(n + 1);
        if (out->ptx) {
            memcpy(out->ptx, LLVMGetBufferStart(text), n);
            out->ptx[n] = 0;
            out->ptx_size = n;
        } else {
            r = mc_out_of_memory(log);
        }
        LLVMDisposeMemoryBuffer(text);
    }
    if (m)
        LLVMDisposeModule(m);
    if (c)
        LLVMContextDispose(c);
    if (tm)
        LLVMDisposeTargetMachine(tm);
    if (r != CL_SUCCESS)
        mc_ptx_program_clear(out);
    return r;
}

cl_int mc_ptx_from_program(const mosaic_bitcode *program, const char *sm, char **ptx, size_t *size, mosaic_strbuf *log)
{
    mc_ptx_program p;
    cl_int r = mc_ptx_build(program, sm, &p, log);
    *ptx = p.ptx;
    *size = p.ptx_size;
    p.ptx = NULL;
    mc_ptx_program_clear(&p);
    return r;
}
