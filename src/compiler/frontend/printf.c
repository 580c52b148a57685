/*
 * OpenCL C printf: calls to the variadic `printf` become calls to the
 * device's runtime function
 *
 *   int __mosaic_printf(constant char *format, const void *args,
 *                       constant uint *desc, uint nargs);
 *
 * so the arguments never travel through a C variadic call.  (A vector such as
 * a float4 or a double8 would: how the x86-64 back end passes an IR vector to
 * a variadic function depends on its size and the CPU's vector registers, and
 * C's va_arg cannot read every shape back.)  Instead each argument is stored
 * in a private byte buffer, at an offset that is a multiple of 8, each one
 * after the previous, taking its store size rounded up to 8; desc[i] says
 * what argument i is (MOSAIC_PRINTF_* in compiler.h: a kind, the bytes of
 * one element, the number of elements).
 *
 * The runtime formats with the format string and these types (the CPU
 * device: cpu_runtime.c).  clang has applied the default argument promotions
 * already (a float is a double, a char or short an int).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "base/strbuf.h"
#include "compiler/compiler.h"
#include "compiler/frontend/printf.h"
#include "compiler/ir/log.h"

/* Can printf pass a value of type t?  Then *desc says how (MOSAIC_PRINTF_DESC,
 * compiler.h). */
static bool describe(LLVMTypeRef t, LLVMTargetDataRef td, unsigned *desc)
{
    unsigned count = 1;
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
        count = LLVMGetVectorSize(t);
        t = LLVMGetElementType(t);
    }
    if (count < 1 || count > 255)
        return false;
    unsigned kind, bytes;
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
        kind = MOSAIC_PRINTF_INT;
        bytes = LLVMGetIntTypeWidth(t) / 8;
        if (LLVMGetIntTypeWidth(t) % 8 || !bytes || bytes > 8)
            return false;
        break;
    case LLVMHalfTypeKind: kind = MOSAIC_PRINTF_FLOAT; bytes = 2; break;
    case LLVMFloatTypeKind: kind = MOSAIC_PRINTF_FLOAT; bytes = 4; break;
    case LLVMDoubleTypeKind: kind = MOSAIC_PRINTF_FLOAT; bytes = 8; break;
    case LLVMPointerTypeKind:
        if (count != 1)
            return false;
        kind = MOSAIC_PRINTF_POINTER;
        bytes = (unsigned)LLVMStoreSizeOfType(td, t);
        break;
    default:
        return false;
    }
    *desc = MOSAIC_PRINTF_DESC(kind, bytes, count);
    return true;
}

/* The first instruction of f's entry block that is not an alloca. */
static LLVMValueRef after_allocas(LLVMValueRef f)
{
    LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f));
    while (i && LLVMIsAAllocaInst(i))
        i = LLVMGetNextInstruction(i);
    return i;
}

cl_int mc_lower_printf(LLVMModuleRef m, mosaic_strbuf *log)
{
    LLVMValueRef printf_fn = LLVMGetNamedFunction(m, "printf");
    if (!printf_fn || !LLVMIsDeclaration(printf_fn) || !LLVMIsFunctionVarArg(LLVMGlobalGetValueType(printf_fn)))
        return CL_SUCCESS;
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c), i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), cptr = LLVMPointerTypeInContext(c, 2);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMValueRef runtime = NULL;
    LLVMTypeRef runtime_ty = NULL;
    cl_int r = CL_SUCCESS;

    LLVMUseRef u = LLVMGetFirstUse(printf_fn);
    while (u) {
        LLVMValueRef call = LLVMGetUser(u);
        u = LLVMGetNextUse(u);
        if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != printf_fn)
            continue;
        unsigned nops = LLVMGetNumArgOperands(call);
        if (nops < 1)
            continue;
        LLVMValueRef fmt = LLVMGetOperand(call, 0);
        if (!runtime) {
            /* desc in the format's space: SPIR's __constant is 2, NVPTX's 4 */
            if (LLVMGetTypeKind(LLVMTypeOf(fmt)) == LLVMPointerTypeKind)
                cptr = LLVMPointerTypeInContext(c, LLVMGetPointerAddressSpace(LLVMTypeOf(fmt)));
            LLVMTypeRef params[4] = {LLVMTypeOf(fmt), ptr, cptr, i32};
            runtime_ty = LLVMFunctionType(i32, params, 4, 0);
            runtime = LLVMGetNamedFunction(m, "__mosaic_printf");
            if (runtime) {
                runtime_ty = LLVMGlobalGetValueType(runtime);
            } else {
                runtime = LLVMAddFunction(m, "__mosaic_printf", runtime_ty);
                LLVMSetFunctionCallConv(runtime, LLVMGetFunctionCallConv(printf_fn));
            }
        }
        unsigned nargs = nops - 1;
        unsigned *desc = calloc(nargs ? nargs : 1, sizeof *desc);
        LLVMValueRef *desc_vals = calloc(nargs ? nargs : 1, sizeof *desc_vals);
        if (!desc || !desc_vals) {
            free(desc), free(desc_vals);
            r = mc_out_of_memory(log);
            break;
        }
        unsigned long long size = 0;
        bool printable = true;
        for (unsigned a = 0; a < nargs && printable; a++) {
            LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(call, a + 1));
            printable = describe(t, td, &desc[a]);
            if (!printable) {
                char *name = LLVMPrintTypeToString(t);
                mosaic_strbuf_printf(log, "error: printf argument %u has a type printf cannot print (%s)\n", a + 1,
                                     name);
                LLVMDisposeMessage(name);
                break;
            }
            size += (LLVMStoreSizeOfType(td, t) + 7) / 8 * 8;
            desc_vals[a] = LLVMConstInt(i32, desc[a], 0);
        }
        if (!printable) {
            free(desc), free(desc_vals);
            r = CL_COMPILE_PROGRAM_FAILURE;
            continue;
        }

        /* the argument buffer: in the entry block, so loops do not grow the stack */
        LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
        LLVMValueRef buf = LLVMConstNull(ptr);
        if (size) {
            LLVMPositionBuilderBefore(b, after_allocas(fn));
            buf = LLVMBuildAlloca(b, LLVMArrayType(i8, (unsigned)size), "printf.args");
            LLVMSetAlignment(buf, 16);
        }
        LLVMPositionBuilderBefore(b, call);
        unsigned long long off = 0;
        for (unsigned a = 0; a < nargs; a++) {
            LLVMValueRef v = LLVMGetOperand(call, a + 1);
            LLVMValueRef idx = LLVMConstInt(i64, off, 0);
            LLVMValueRef p = LLVMBuildInBoundsGEP2(b, i8, buf, &idx, 1, "");
            LLVMSetAlignment(LLVMBuildStore(b, v, p), 8);
            off += (LLVMStoreSizeOfType(td, LLVMTypeOf(v)) + 7) / 8 * 8;
        }
        LLVMValueRef desc_ptr = LLVMConstNull(cptr);
        if (nargs) {
            LLVMTypeRef at = LLVMArrayType(i32, nargs);
            LLVMValueRef g = LLVMAddGlobalInAddressSpace(m, at, "printf.desc", LLVMGetPointerAddressSpace(cptr));
            LLVMSetInitializer(g, LLVMConstArray(i32, desc_vals, nargs));
            LLVMSetGlobalConstant(g, 1);
            LLVMSetLinkage(g, LLVMPrivateLinkage);
            LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
            LLVMSetAlignment(g, 4);
            desc_ptr = g;
        }
        LLVMValueRef args[4] = {fmt, buf, desc_ptr, LLVMConstInt(i32, nargs, 0)};
        if (LLVMTypeOf(fmt) != LLVMTypeOf(LLVMGetParam(runtime, 0)))
            args[0] = LLVMBuildAddrSpaceCast(b, fmt, LLVMTypeOf(LLVMGetParam(runtime, 0)), "");
        LLVMValueRef nc = LLVMBuildCall2(b, runtime_ty, runtime, args, 4, "");
        LLVMSetInstructionCallConv(nc, LLVMGetFunctionCallConv(runtime));
        LLVMReplaceAllUsesWith(call, nc);
        LLVMInstructionEraseFromParent(call);
        free(desc), free(desc_vals);
    }
    LLVMDisposeBuilder(b);
    if (!LLVMGetFirstUse(printf_fn))
        LLVMDeleteFunction(printf_fn);
    return r;
}
