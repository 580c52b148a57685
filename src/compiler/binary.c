/* Program binaries (a small header around spir64 LLVM bitcode) and linking. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>

#include "compiler/compiler_internal.h"

typedef struct blob_header {
    char magic[8];
    uint32_t version;
    uint32_t type;
    uint64_t bitcode_size;
    uint64_t reserved;
} blob_header;

_Static_assert(sizeof(blob_header) == MC_BLOB_HEADER_SIZE, "blob header size");

cl_int mc_blob_wrap(cl_program_binary_type type, const void *bitcode, size_t size, mosaic_bitcode *out)
{
    out->type = type;
    out->size = 0;
    out->data = malloc(MC_BLOB_HEADER_SIZE + size);
    if (!out->data)
        return CL_OUT_OF_HOST_MEMORY;
    blob_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MC_BLOB_MAGIC, 8);
    h.version = MC_BLOB_VERSION;
    h.type = (uint32_t)type;
    h.bitcode_size = size;
    memcpy(out->data, &h, sizeof h);
    memcpy((char *)out->data + sizeof h, bitcode, size);
    out->size = MC_BLOB_HEADER_SIZE + size;
    return CL_SUCCESS;
}

cl_int mc_blob_unwrap(const void *data, size_t size, cl_program_binary_type *type,
                      const void **bitcode, size_t *bitcode_size)
{
    blob_header h;
    if (!data || size < sizeof h + 4)
        return CL_INVALID_BINARY;
    memcpy(&h, data, sizeof h);
    const unsigned char *bc = (const unsigned char *)data + sizeof h;
    if (memcmp(h.magic, MC_BLOB_MAGIC, 8) || h.version != MC_BLOB_VERSION ||
        h.bitcode_size != size - sizeof h || bc[0] != 'B' || bc[1] != 'C' || bc[2] != 0xC0 || bc[3] != 0xDE)
        return CL_INVALID_BINARY;
    if (h.type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && h.type != CL_PROGRAM_BINARY_TYPE_LIBRARY &&
        h.type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
        return CL_INVALID_BINARY;
    if (type)
        *type = h.type;
    if (bitcode)
        *bitcode = bc;
    if (bitcode_size)
        *bitcode_size = (size_t)h.bitcode_size;
    return CL_SUCCESS;
}

cl_int mc_blob_load(LLVMContextRef ctx, const mosaic_bitcode *blob, LLVMModuleRef *out, mc_str *log)
{
    const void *bc;
    size_t n;
    *out = NULL;
    if (!blob || mc_blob_unwrap(blob->data, blob->size, NULL, &bc, &n) != CL_SUCCESS) {
        mc_str_puts(log, "error: not a Mosaic program binary\n");
        return CL_INVALID_BINARY;
    }
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(bc, n, "program", 0);
    if (!buf)
        return CL_OUT_OF_HOST_MEMORY;
    LLVMBool bad = LLVMParseBitcodeInContext2(ctx, buf, out);
    LLVMDisposeMemoryBuffer(buf);
    if (bad) {
        *out = NULL;
        mc_str_puts(log, "error: the program binary holds unreadable bitcode\n");
        return CL_INVALID_BINARY;
    }
    return CL_SUCCESS;
}

cl_int mc_module_to_blob(LLVMModuleRef m, cl_program_binary_type type, mosaic_bitcode *out)
{
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
    if (!buf)
        return CL_OUT_OF_HOST_MEMORY;
    cl_int r = mc_blob_wrap(type, LLVMGetBufferStart(buf), LLVMGetBufferSize(buf), out);
    LLVMDisposeMemoryBuffer(buf);
    return r;
}

cl_int mosaic_bitcode_validate(const void *data, size_t size, cl_program_binary_type *type)
{
    cl_program_binary_type t;
    cl_int r = mc_blob_unwrap(data, size, &t, NULL, NULL);
    if (r != CL_SUCCESS)
        return r;
    /* The header can lie: make sure the bitcode really parses. */
    LLVMContextRef ctx = mc_context_create(NULL);
    if (!ctx)
        return CL_OUT_OF_HOST_MEMORY;
    mosaic_bitcode blob = {t, (void *)data, size};
    LLVMModuleRef m;
    mc_str log = {0};
    r = mc_blob_load(ctx, &blob, &m, &log);
    mc_str_free(&log);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    if (r == CL_SUCCESS && type)
        *type = t;
    return r;
}

void mosaic_bitcode_free(mosaic_bitcode *bc)
{
    if (!bc)
        return;
    free(bc->data);
    bc->data = NULL;
    bc->size = 0;
}

cl_int mosaic_link_bitcode(const mosaic_compiler_target *target, size_t count, const mosaic_bitcode *inputs,
                           const char *options, int create_library, mosaic_bitcode *out, char **log_out)
{
    mc_str log = {0};
    mc_options opts;
    cl_int r = CL_SUCCESS;
    LLVMContextRef ctx = NULL;
    LLVMModuleRef dst = NULL;
    if (out)
        memset(out, 0, sizeof *out);
    int pr = mc_parse_options(options, MC_OPTIONS_LINK, &opts, &log);
    if (pr) {
        r = pr == -2 ? CL_OUT_OF_HOST_MEMORY : CL_INVALID_LINKER_OPTIONS;
        goto done;
    }
    create_library |= opts.create_library;
    mc_free_options(&opts);
    if (!count || !inputs || !out) {
        mc_str_puts(&log, "error: nothing to link\n");
        r = CL_LINK_PROGRAM_FAILURE;
        goto done;
    }
    ctx = mc_context_create(&log);
    if (!ctx) {
        r = CL_OUT_OF_HOST_MEMORY;
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        LLVMModuleRef m;
        r = mc_blob_load(ctx, &inputs[i], &m, &log);
        if (r != CL_SUCCESS)
            goto done;
        if (!dst) {
            dst = m;
        } else if (LLVMLinkModules2(dst, m)) { /* consumes m; diagnostics went to the log */
            r = CL_LINK_PROGRAM_FAILURE;
            goto done;
        }
    }
    if (!create_library) {
        /* An executable must not call anything that will not exist. */
        if (mc_report_undefined(dst, 1, target, &log, "")) {
            r = CL_LINK_PROGRAM_FAILURE;
            goto done;
        }
    }
    r = mc_module_to_blob(dst, create_library ? CL_PROGRAM_BINARY_TYPE_LIBRARY : CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
                          out);
done:
    if (dst)
        LLVMDisposeModule(dst);
    if (ctx)
        LLVMContextDispose(ctx);
    if (log.oom)
        r = CL_OUT_OF_HOST_MEMORY;
    mc_finish_log(&log, log_out, "link");
    return r;
}
