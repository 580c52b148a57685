/*
 * Work-group functions specialised on the format of their images.
 *
 * An image built-in decides what to do from the descriptor's format fields
 * (builtins/images.cl).  Those are loop-invariant, but the optimiser does
 * not unswitch a work-item loop that is larger than a few dozen
 * instructions, so each pixel went through the format tests.  For a kernel
 * with image arguments and no barriers, K.wg instead tests the formats once
 * per work-group and runs one of several copies of its loop nest: one per
 * common format class, where every image argument has that format, and the
 * general one.  In a class's copy each image argument goes through a marker
 * call (__mosaic_image_class), and once K.body is inlined the descriptor
 * fields read through it become constants, so that copy is the straight-line
 * code of that format alone (docs/image_builtins.md, "Speed").
 */
#include <stddef.h>
#include <string.h>

#include "compiler/images/images.h"
#include "compiler/ir/kernel_build.h"
#include "compiler/ir/util.h"

#define MARKER "__mosaic_image_class"

/* The classes: formats whose descriptor fields are known in full. */
static const struct image_class {
    uint32_t order, type, num_channels, pixel_size;
} classes[MC_IMAGE_CLASSES] = {
    {CL_RGBA, CL_UNORM_INT8, 4, 4},
    {CL_RGBA, CL_FLOAT, 4, 16},
};

bool mc_has_image_args(const mc_kernel_build *kb)
{
    if (!kb->arg_info)
        return false;
    for (unsigned i = 0; i < kb->num_args; i++)
        if (kb->arg_info[i].kind == MOSAIC_ARG_IMAGE)
            return true;
    return false;
}

static LLVMValueRef load_field(LLVMBuilderRef b, LLVMValueRef desc, size_t offset)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(desc));
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c), i32 = LLVMInt32TypeInContext(c);
    LLVMValueRef off = LLVMConstInt(LLVMInt64TypeInContext(c), offset, 0);
    LLVMValueRef v = LLVMBuildLoad2(b, i32, LLVMBuildInBoundsGEP2(b, i8, desc, &off, 1, ""), "");
    LLVMSetAlignment(v, 4);
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(c, "invariant.load", 14),
                    LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0)));
    return v;
}

static unsigned image_args(const mc_kernel_build *kb)
{
    unsigned n = 0;
    for (unsigned i = 0; i < kb->num_args; i++)
        n += kb->arg_info[i].kind == MOSAIC_ARG_IMAGE;
    return n;
}

#define MAX_COMBINED 2 /* image arguments whose classes combine freely: 2^2 nests */

unsigned mc_image_nests(const mc_kernel_build *kb)
{
    unsigned n = image_args(kb);
    return n <= MAX_COMBINED ? 1u << n : MC_IMAGE_CLASSES;
}

/* The class of the image-th image argument in nest. */
static unsigned class_in_nest(const mc_kernel_build *kb, unsigned nest, unsigned image)
{
    _Static_assert(MC_IMAGE_CLASSES == 2, "nests combine classes as bits");
    return image_args(kb) <= MAX_COMBINED ? (nest >> image) & 1 : nest;
}

LLVMValueRef mc_images_have_class(LLVMBuilderRef b, const mc_kernel_build *kb, LLVMValueRef *vals, unsigned nest)
{
    LLVMValueRef all = NULL;
    for (unsigned i = 0, image = 0; i < kb->num_args; i++) {
        if (kb->arg_info[i].kind != MOSAIC_ARG_IMAGE)
            continue;
        unsigned cls = class_in_nest(kb, nest, image++);
        LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(vals[i])));
        LLVMValueRef order = load_field(b, vals[i], offsetof(mosaic_image_desc, channel_order));
        LLVMValueRef type = load_field(b, vals[i], offsetof(mosaic_image_desc, channel_data_type));
        LLVMValueRef is = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, order, LLVMConstInt(i32, classes[cls].order, 0), ""),
                                       LLVMBuildICmp(b, LLVMIntEQ, type, LLVMConstInt(i32, classes[cls].type, 0), ""), "");
        all = all ? LLVMBuildAnd(b, all, is, "") : is;
    }
    return all;
}

void mc_mark_image_class(LLVMModuleRef m, LLVMBuilderRef b, const mc_kernel_build *kb, LLVMValueRef *vals,
                         unsigned nest)
{
    for (unsigned i = 0, image = 0; i < kb->num_args; i++) {
        if (kb->arg_info[i].kind != MOSAIC_ARG_IMAGE)
            continue;
        unsigned cls = class_in_nest(kb, nest, image++);
        LLVMTypeRef pt = LLVMTypeOf(vals[i]);
        LLVMContextRef c = LLVMGetTypeContext(pt);
        LLVMTypeRef params[2] = {pt, LLVMInt32TypeInContext(c)};
        LLVMTypeRef fty = LLVMFunctionType(pt, params, 2, 0);
        LLVMValueRef f = LLVMGetNamedFunction(m, MARKER);
        if (!f)
            f = LLVMAddFunction(m, MARKER, fty);
        LLVMValueRef args[2] = {vals[i], LLVMConstInt(params[1], cls, 0)};
        vals[i] = LLVMBuildCall2(b, fty, f, args, 2, "image");
    }
}

/* The constant byte offset of a GEP from its pointer operand; false if it
 * has a variable index. */
static bool gep_offset(LLVMTargetDataRef td, LLVMValueRef gep, unsigned long long *offset)
{
    LLVMTypeRef ty = LLVMGetGEPSourceElementType(gep);
    unsigned n = (unsigned)LLVMGetNumOperands(gep);
    unsigned long long off = 0;
    for (unsigned k = 1; k < n; k++) {
        LLVMValueRef idx = LLVMGetOperand(gep, k);
        if (!LLVMIsAConstantInt(idx))
            return false;
        long long i = LLVMConstIntGetSExtValue(idx);
        if (k == 1) {
            off += (unsigned long long)i * LLVMABISizeOfType(td, ty);
        } else if (LLVMGetTypeKind(ty) == LLVMStructTypeKind) {
            off += LLVMOffsetOfElement(td, ty, (unsigned)i);
            ty = LLVMStructGetTypeAtIndex(ty, (unsigned)i);
        } else if (LLVMGetTypeKind(ty) == LLVMArrayTypeKind || LLVMGetTypeKind(ty) == LLVMVectorTypeKind) {
            ty = LLVMGetElementType(ty);
            off += (unsigned long long)i * LLVMABISizeOfType(td, ty);
        } else {
            return false;
        }
    }
    *offset = off;
    return true;
}

static bool is_lifetime_marker(LLVMValueRef i)
{
    LLVMValueRef f = LLVMIsACallInst(i) ? mc_called_function(i) : NULL;
    return f && !strncmp(LLVMGetValueName(f), "llvm.lifetime.", 14);
}

/* store v -> a private variable stored nothing else (a parameter of the
 * unoptimised kernel code): its loads are v, and become v. */
static bool forward_store(LLVMValueRef store, LLVMValueRef v)
{
    LLVMValueRef a = LLVMGetOperand(store, 1);
    if (LLVMGetOperand(store, 0) != v || !LLVMIsAAllocaInst(a) || LLVMGetVolatile(store))
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (user != store && !is_lifetime_marker(user) &&
            (!LLVMIsALoadInst(user) || LLVMGetVolatile(user) || LLVMTypeOf(user) != LLVMTypeOf(v)))
            return false;
    }
    bool forwarded = false;
    LLVMUseRef u = LLVMGetFirstUse(a);
    while (u) {
        LLVMUseRef next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsALoadInst(user)) {
            LLVMReplaceAllUsesWith(user, v);
            LLVMInstructionEraseFromParent(user);
            forwarded = true;
        }
        u = next;
    }
    return forwarded;
}

/* Loads of v + offset that read a format field become the class's value. */
static void fold_fields(LLVMTargetDataRef td, LLVMValueRef v, unsigned long long offset, const struct image_class *ic,
                        int depth)
{
    if (depth > 8)
        return;
    for (bool again = true; again;) {
        again = false;
        for (LLVMUseRef u = LLVMGetFirstUse(v); u && !again; u = LLVMGetNextUse(u))
            if (LLVMIsAStoreInst(LLVMGetUser(u)))
                again = forward_store(LLVMGetUser(u), v);
    }
    LLVMUseRef u = LLVMGetFirstUse(v);
    while (u) {
        LLVMUseRef next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        unsigned long long off;
        if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == v) {
            if (gep_offset(td, user, &off))
                fold_fields(td, user, offset + off, ic, depth + 1);
        } else if (LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user)) {
            fold_fields(td, user, offset, ic, depth + 1);
        } else if (LLVMIsALoadInst(user) && !LLVMGetVolatile(user) &&
                   LLVMGetTypeKind(LLVMTypeOf(user)) == LLVMIntegerTypeKind &&
                   LLVMGetIntTypeWidth(LLVMTypeOf(user)) == 32) {
            uint32_t value;
            bool known = true;
            if (offset == offsetof(mosaic_image_desc, channel_order))
                value = ic->order;
            else if (offset == offsetof(mosaic_image_desc, channel_data_type))
                value = ic->type;
            else if (offset == offsetof(mosaic_image_desc, num_channels))
                value = ic->num_channels;
            else if (offset == offsetof(mosaic_image_desc, pixel_size))
                value = ic->pixel_size;
            else
                known = false;
            if (known) {
                LLVMReplaceAllUsesWith(user, LLVMConstInt(LLVMTypeOf(user), value, 0));
                LLVMInstructionEraseFromParent(user);
            }
        }
        u = next;
    }
}

bool mc_fold_image_classes(LLVMModuleRef m)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, MARKER);
    if (!f)
        return false;
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    LLVMUseRef u = LLVMGetFirstUse(f);
    while (u) {
        LLVMUseRef next = LLVMGetNextUse(u);
        LLVMValueRef call = LLVMGetUser(u);
        while (next && LLVMGetUser(next) == call)
            next = LLVMGetNextUse(next);
        if (LLVMIsACallInst(call) && mc_called_function(call) == f) {
            unsigned cls = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(call, 1));
            fold_fields(td, call, 0, &classes[cls < MC_IMAGE_CLASSES ? cls : 0], 0);
            LLVMReplaceAllUsesWith(call, LLVMGetOperand(call, 0));
            LLVMInstructionEraseFromParent(call);
        }
        u = next;
    }
    if (!LLVMGetFirstUse(f))
        LLVMDeleteFunction(f);
    return true;
}
