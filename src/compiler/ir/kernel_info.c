/* Kernel metadata: what clGetKernelInfo / clGetKernelArgInfo report, read from
 * the metadata clang attaches to each kernel (-cl-kernel-arg-info). */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "base/strbuf.h"
#include "compiler/ir/kernel_info.h"
#include "compiler/ir/log.h"

typedef struct md_list {
    LLVMValueRef *ops;
    unsigned n;
} md_list;

/* Operands of the kernel's metadata node `kind`; n = 0 when absent. */
static cl_int kernel_md(LLVMValueRef f, const char *kind, md_list *out, mosaic_strbuf *log)
{
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    unsigned id = LLVMGetMDKindIDInContext(c, kind, (unsigned)strlen(kind));
    size_t count;
    LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(f, &count);
    out->ops = NULL;
    out->n = 0;
    cl_int r = CL_SUCCESS;
    for (size_t i = 0; i < count; i++) {
        if (LLVMValueMetadataEntriesGetKind(entries, (unsigned)i) != id)
            continue;
        LLVMValueRef node = LLVMMetadataAsValue(c, LLVMValueMetadataEntriesGetMetadata(entries, (unsigned)i));
        unsigned n = LLVMGetMDNodeNumOperands(node);
        if (n) {
            out->ops = calloc(n, sizeof *out->ops);
            if (!out->ops) {
                r = mc_out_of_memory(log);
                break;
            }
            out->n = n;
            LLVMGetMDNodeOperands(node, out->ops);
        }
        break;
    }
    if (entries)
        LLVMDisposeValueMetadataEntries(entries);
    return r;
}

static void md_free(md_list *l)
{
    free(l->ops);
    l->ops = NULL;
    l->n = 0;
}

static char *md_string(const md_list *l, unsigned i)
{
    if (i >= l->n || !l->ops[i])
        return strdup("");
    unsigned len = 0;
    const char *s = LLVMGetMDString(l->ops[i], &len);
    return s ? strndup(s, len) : strdup("");
}

static unsigned long long md_int(const md_list *l, unsigned i)
{
    if (i >= l->n || !l->ops[i] || !LLVMIsAConstantInt(l->ops[i]))
        return 0;
    return LLVMConstIntGetZExtValue(l->ops[i]);
}

/* "float4", "uint" ... for vec_type_hint. */
static void type_name(LLVMTypeRef t, bool is_signed, char *buf, size_t size)
{
    unsigned n = 0;
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
        n = LLVMGetVectorSize(t);
        t = LLVMGetElementType(t);
    }
    const char *base = "?";
    switch (LLVMGetTypeKind(t)) {
    case LLVMHalfTypeKind: base = "half"; break;
    case LLVMFloatTypeKind: base = "float"; break;
    case LLVMDoubleTypeKind: base = "double"; break;
    case LLVMIntegerTypeKind:
        switch (LLVMGetIntTypeWidth(t)) {
        case 8: base = is_signed ? "char" : "uchar"; break;
        case 16: base = is_signed ? "short" : "ushort"; break;
        case 32: base = is_signed ? "int" : "uint"; break;
        case 64: base = is_signed ? "long" : "ulong"; break;
        }
        break;
    default: break;
    }
    if (n)
        snprintf(buf, size, "%s%u", base, n);
    else
        snprintf(buf, size, "%s", base);
}

static cl_kernel_arg_type_qualifier type_qualifiers(const char *s)
{
    cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
    if (strstr(s, "const"))
        q |= CL_KERNEL_ARG_TYPE_CONST;
    if (strstr(s, "restrict"))
        q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (strstr(s, "volatile"))
        q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (strstr(s, "pipe"))
        q |= CL_KERNEL_ARG_TYPE_PIPE;
    return q;
}

static bool is_image_type(const char *t)
{
    /* image1d_t, image2d_array_depth_t, ... possibly with an access qualifier prefix */
    const char *p = strstr(t, "image");
    return p && (p == t || p[-1] == ' ' || p[-1] == '_') && strstr(p, "_t");
}

void mc_kernel_info_clear(mosaic_kernel_info *info)
{
    free(info->name);
    free(info->attributes);
    for (cl_uint i = 0; info->args && i < info->num_args; i++) {
        free(info->args[i].type_name);
        free(info->args[i].name);
    }
    free(info->args);
    memset(info, 0, sizeof *info);
}

/* The arguments' kinds, sizes, names and qualifiers. */
static cl_int read_args(LLVMTargetDataRef td, LLVMValueRef k, mosaic_kernel_info *info, mosaic_strbuf *log)
{
    unsigned nparams = LLVMCountParams(k);
    info->num_args = nparams;
    info->args = nparams ? calloc(nparams, sizeof *info->args) : NULL;
    if (nparams && !info->args)
        return mc_out_of_memory(log);
    md_list as = {0}, aq = {0}, ty = {0}, tq = {0}, nm = {0};
    cl_int r = kernel_md(k, "kernel_arg_addr_space", &as, log);
    if (r == CL_SUCCESS)
        r = kernel_md(k, "kernel_arg_access_qual", &aq, log);
    if (r == CL_SUCCESS)
        r = kernel_md(k, "kernel_arg_type", &ty, log);
    if (r == CL_SUCCESS)
        r = kernel_md(k, "kernel_arg_type_qual", &tq, log);
    if (r == CL_SUCCESS)
        r = kernel_md(k, "kernel_arg_name", &nm, log);
    unsigned byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);
    for (unsigned i = 0; i < nparams && r == CL_SUCCESS; i++) {
        mosaic_kernel_arg *a = &info->args[i];
        LLVMValueRef p = LLVMGetParam(k, i);
        LLVMTypeRef t = LLVMTypeOf(p);
        bool is_ptr = LLVMGetTypeKind(t) == LLVMPointerTypeKind;
        unsigned space = i < as.n ? (unsigned)md_int(&as, i) : is_ptr ? LLVMGetPointerAddressSpace(t) : 0;
        a->type_name = md_string(&ty, i);
        /* the SPIR-V translator names the opaque types as LLVM did
         * ("opencl.queue_t"): the name OpenCL C gives them, as clang's */
        if (a->type_name && !strncmp(a->type_name, "opencl.", 7))
            memmove(a->type_name, a->type_name + 7, strlen(a->type_name + 7) + 1);
        a->name = md_string(&nm, i);
        char *quals = md_string(&tq, i);
        char *access = md_string(&aq, i);
        if (!a->type_name || !a->name || !quals || !access) {
            free(quals);
            free(access);
            r = mc_out_of_memory(log);
            break;
        }
        a->type_qualifier = type_qualifiers(quals);
        a->access_qualifier = !strcmp(access, "read_only")    ? CL_KERNEL_ARG_ACCESS_READ_ONLY
                              : !strcmp(access, "write_only") ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
                              : !strcmp(access, "read_write") ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                                                              : CL_KERNEL_ARG_ACCESS_NONE;
        a->address_qualifier = space == 1   ? CL_KERNEL_ARG_ADDRESS_GLOBAL
                               : space == 2 ? CL_KERNEL_ARG_ADDRESS_CONSTANT
                               : space == 3 ? CL_KERNEL_ARG_ADDRESS_LOCAL
                                            : CL_KERNEL_ARG_ADDRESS_PRIVATE;
        bool pipe = (a->type_qualifier & CL_KERNEL_ARG_TYPE_PIPE) != 0;
        if (!strcmp(a->type_name, "sampler_t")) {
            a->kind = MOSAIC_ARG_SAMPLER;
            a->size = a->alignment = sizeof(cl_sampler);
        } else if (pipe) {
            a->kind = MOSAIC_ARG_PIPE;
            a->size = a->alignment = sizeof(cl_mem);
        } else if (is_image_type(a->type_name)) {
            a->kind = MOSAIC_ARG_IMAGE;
            a->size = a->alignment = sizeof(cl_mem);
        } else if (space == 3) {
            a->kind = MOSAIC_ARG_LOCAL_PTR;
            a->size = 0;
            a->alignment = MOSAIC_LOCAL_MEM_ALIGNMENT;
        } else if (space == 1 || space == 2) {
            a->kind = space == 1 ? MOSAIC_ARG_GLOBAL_PTR : MOSAIC_ARG_CONSTANT_PTR;
            a->size = a->alignment = sizeof(cl_mem);
        } else {
            a->kind = MOSAIC_ARG_BY_VALUE;
            LLVMAttributeRef byval = LLVMGetEnumAttributeAtIndex(k, i + 1, byval_kind);
            LLVMTypeRef vt = byval ? LLVMGetTypeAttributeValue(byval) : t;
            a->size = (size_t)LLVMABISizeOfType(td, vt);
            a->alignment = LLVMABIAlignmentOfType(td, vt);
        }
        free(quals);
        free(access);
    }
    md_free(&as);
    md_free(&aq);
    md_free(&ty);
    md_free(&tq);
    md_free(&nm);
    return r;
}

/* reqd_work_group_size, work_group_size_hint and vec_type_hint, and the
 * CL_KERNEL_ATTRIBUTES text naming them. */
static cl_int read_attributes(LLVMValueRef k, mosaic_kernel_info *info, mosaic_strbuf *log)
{
    mosaic_strbuf attrs = {0};
    md_list l = {0};
    cl_int r = kernel_md(k, "reqd_work_group_size", &l, log);
    if (r == CL_SUCCESS && l.n >= 3) {
        for (int d = 0; d < 3; d++)
            info->reqd_work_group_size[d] = (size_t)md_int(&l, (unsigned)d);
        mosaic_strbuf_printf(&attrs, "reqd_work_group_size(%zu,%zu,%zu)", info->reqd_work_group_size[0],
                             info->reqd_work_group_size[1], info->reqd_work_group_size[2]);
    }
    md_free(&l);
    if (r == CL_SUCCESS)
        r = kernel_md(k, "work_group_size_hint", &l, log);
    if (r == CL_SUCCESS && l.n >= 3) {
        for (int d = 0; d < 3; d++)
            info->work_group_size_hint[d] = (size_t)md_int(&l, (unsigned)d);
        mosaic_strbuf_printf(&attrs, "%swork_group_size_hint(%zu,%zu,%zu)", attrs.len ? " " : "",
                             info->work_group_size_hint[0], info->work_group_size_hint[1],
                             info->work_group_size_hint[2]);
    }
    md_free(&l);
    if (r == CL_SUCCESS)
        r = kernel_md(k, "vec_type_hint", &l, log);
    if (r == CL_SUCCESS && l.n >= 2 && l.ops[0]) {
        char name[32];
        type_name(LLVMTypeOf(l.ops[0]), md_int(&l, 1) != 0, name, sizeof name);
        mosaic_strbuf_printf(&attrs, "%svec_type_hint(%s)", attrs.len ? " " : "", name);
    }
    md_free(&l);
    if (r == CL_SUCCESS && attrs.oom)
        r = mc_out_of_memory(log);
    if (r == CL_SUCCESS)
        info->attributes = mosaic_strbuf_take(&attrs);
    mosaic_strbuf_free(&attrs);
    return r;
}

cl_int mc_kernel_info_from_ir(LLVMTargetDataRef td, LLVMValueRef k, mosaic_kernel_info *info, mosaic_strbuf *log)
{
    memset(info, 0, sizeof *info);
    info->name = strdup(LLVMGetValueName(k));
    cl_int r = info->name ? read_args(td, k, info, log) : mc_out_of_memory(log);
    if (r == CL_SUCCESS)
        r = read_attributes(k, info, log);
    if (r == CL_SUCCESS && !info->attributes)
        r = mc_out_of_memory(log);
    if (r != CL_SUCCESS)
        mc_kernel_info_clear(info);
    return r;
}
