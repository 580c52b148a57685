/* Kernel metadata: what clGetKernelInfo / clGetKernelArgInfo report, read from
 * the metadata clang attaches to each kernel (-cl-kernel-arg-info). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler_internal.h"

typedef struct md_list {
    LLVMValueRef *ops;
    unsigned n;
} md_list;

/* Operands of the kernel's metadata node `kind`; n = 0 when absent. */
static int kernel_md(LLVMValueRef f, const char *kind, md_list *out)
{
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    unsigned id = LLVMGetMDKindIDInContext(c, kind, (unsigned)strlen(kind));
    size_t count;
    LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(f, &count);
    out->ops = NULL;
    out->n = 0;
    int found = 0;
    for (size_t i = 0; i < count; i++) {
        if (LLVMValueMetadataEntriesGetKind(entries, (unsigned)i) != id)
            continue;
        LLVMValueRef node = LLVMMetadataAsValue(c, LLVMValueMetadataEntriesGetMetadata(entries, (unsigned)i));
        out->n = LLVMGetMDNodeNumOperands(node);
        if (out->n) {
            out->ops = calloc(out->n, sizeof *out->ops);
            if (!out->ops) {
                out->n = 0;
                break;
            }
            LLVMGetMDNodeOperands(node, out->ops);
        }
        found = 1;
        break;
    }
    if (entries)
        LLVMDisposeValueMetadataEntries(entries);
    return found;
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
static void type_name(LLVMTypeRef t, int is_signed, char *buf, size_t size)
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

static int is_image_type(const char *t)
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

int mc_kernel_info_from_ir(LLVMModuleRef m, LLVMTargetDataRef td, LLVMValueRef k, mosaic_kernel_info *info,
                           mosaic_strbuf *log)
{
    (void)m;
    memset(info, 0, sizeof *info);
    info->name = strdup(LLVMGetValueName(k));
    unsigned nparams = LLVMCountParams(k);
    info->num_args = nparams;
    info->args = nparams ? calloc(nparams, sizeof *info->args) : NULL;
    if (!info->name || (nparams && !info->args))
        goto oom;

    md_list as, aq, ty, tq, nm;
    kernel_md(k, "kernel_arg_addr_space", &as);
    kernel_md(k, "kernel_arg_access_qual", &aq);
    kernel_md(k, "kernel_arg_type", &ty);
    kernel_md(k, "kernel_arg_type_qual", &tq);
    kernel_md(k, "kernel_arg_name", &nm);
    unsigned byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);
    int failed = 0;
    for (unsigned i = 0; i < nparams; i++) {
        mosaic_kernel_arg *a = &info->args[i];
        LLVMValueRef p = LLVMGetParam(k, i);
        LLVMTypeRef t = LLVMTypeOf(p);
        int is_ptr = LLVMGetTypeKind(t) == LLVMPointerTypeKind;
        unsigned space = i < as.n ? (unsigned)md_int(&as, i) : is_ptr ? LLVMGetPointerAddressSpace(t) : 0;
        a->type_name = md_string(&ty, i);
        a->name = md_string(&nm, i);
        char *quals = md_string(&tq, i);
        char *access = md_string(&aq, i);
        if (!a->type_name || !a->name || !quals || !access) {
            free(quals);
            free(access);
            failed = 1;
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
        int pipe = (a->type_qualifier & CL_KERNEL_ARG_TYPE_PIPE) != 0;
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
    free(as.ops);
    free(aq.ops);
    free(ty.ops);
    free(tq.ops);
    free(nm.ops);
    if (failed)
        goto oom;

    /* Attributes. */
    mosaic_strbuf attrs = {0};
    md_list l;
    if (kernel_md(k, "reqd_work_group_size", &l) && l.n >= 3) {
        for (int d = 0; d < 3; d++)
            info->reqd_work_group_size[d] = (size_t)md_int(&l, (unsigned)d);
        mosaic_strbuf_printf(&attrs, "reqd_work_group_size(%zu,%zu,%zu)", info->reqd_work_group_size[0],
                             info->reqd_work_group_size[1], info->reqd_work_group_size[2]);
    }
    free(l.ops);
    if (kernel_md(k, "work_group_size_hint", &l) && l.n >= 3) {
        for (int d = 0; d < 3; d++)
            info->work_group_size_hint[d] = (size_t)md_int(&l, (unsigned)d);
        mosaic_strbuf_printf(&attrs, "%swork_group_size_hint(%zu,%zu,%zu)", attrs.len ? " " : "",
                             info->work_group_size_hint[0], info->work_group_size_hint[1], info->work_group_size_hint[2]);
    }
    free(l.ops);
    if (kernel_md(k, "vec_type_hint", &l) && l.n >= 2 && l.ops[0]) {
        char name[32];
        type_name(LLVMTypeOf(l.ops[0]), md_int(&l, 1) != 0, name, sizeof name);
        mosaic_strbuf_printf(&attrs, "%svec_type_hint(%s)", attrs.len ? " " : "", name);
    }
    free(l.ops);
    if (attrs.oom) {
        mosaic_strbuf_free(&attrs);
        goto oom;
    }
    info->attributes = mosaic_strbuf_take(&attrs);
    return 0;
oom:
    mosaic_strbuf_puts(log, "error: out of memory\n");
    mc_kernel_info_clear(info);
    return -1;
}
