/*
 * printf on the GPU.  A module whose kernels print has a buffer in the GPU's
 * memory that they append records to (builtins/nvptx/printf.cl; the layout
 * is compiler.h's mosaic_gpu_printf_area).  Once a launch has finished, the
 * records are formatted on the host (core/printf_format.c) and written to
 * stdout, and the buffer is emptied.  The strings (formats and %s arguments)
 * stay in the GPU's memory and are read from it by address, each once a
 * flush.
 *
 * What a kernel wrote there is not trusted: a record that runs past what
 * was written, or whose arguments do not fit it, ends the flush.
 */
#define _GNU_SOURCE /* fwrite_unlocked */
#include "devices/cuda/cuda_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "core/printf_format.h"
#include "core/util.h"

/* CL_DEVICE_PRINTF_BUFFER_SIZE: what one launch may print.  A record is
 * about 24 bytes for one character (%c), so 16 MiB holds some 700,000
 * calls: a launch of 16,384 work-items printing five characters each (the
 * CTS's command-buffer printf test) needs 2 MiB. */
#define PRINTF_BUFFER ((size_t)16 * 1024 * 1024)
/* The longest string a %s (or a format) may print. */
#define STRING_LIMIT ((size_t)64 * 1024)

size_t mosaic_cuda_printf_buffer_size(void) { return PRINTF_BUFFER; }

cl_int mosaic_cuda_printf_setup(cuda_gpu *g, CUmodule module, cuda_printf *p, mosaic_strbuf *log)
{
    memset(p, 0, sizeof *p);
    size_t size = 0;
    if (mosaic_cuda.cuModuleGetGlobal(&p->area, &size, module, MOSAIC_GPU_PRINTF_SYMBOL) != CUDA_SUCCESS) {
        p->area = 0; /* no kernel prints */
        return CL_SUCCESS;
    }
    if (size != sizeof(mosaic_gpu_printf_area)) {
        mosaic_strbuf_printf(log, "error: the program's %s has %zu bytes, not %zu\n", MOSAIC_GPU_PRINTF_SYMBOL, size,
                             sizeof(mosaic_gpu_printf_area));
        return CL_BUILD_PROGRAM_FAILURE;
    }
    cl_int err = CUDA_CALL(cuMemAlloc, &p->data, PRINTF_BUFFER);
    if (err != CL_SUCCESS) {
        p->data = 0;
        mosaic_strbuf_printf(log, "error: no GPU memory for the program's printf buffer (%zu bytes)\n", PRINTF_BUFFER);
        return err;
    }
    mosaic_gpu_printf_area a = {.data = p->data, .capacity = (uint32_t)PRINTF_BUFFER, .used = 0};
    err = mosaic_cuda_copy_to_gpu(g, p->area, &a, sizeof a);
    if (err != CL_SUCCESS)
        mosaic_cuda_printf_release(p);
    return err;
}

void mosaic_cuda_printf_release(cuda_printf *p)
{
    if (p->data)
        CUDA_CALL(cuMemFree, p->data);
    p->data = 0;
}

/* ---- strings in the GPU's memory -------------------------------------------------- */

typedef struct string_reader {
    mosaic_printf_memory memory; /* first: string_at gets it back as its reader */
    struct { uint64_t address; char *text; } *seen;
    size_t count, room;
    size_t chunk; /* bytes a copy asks for: smaller near an allocation's end */
} string_reader;

/* The string at `address`, read in chunks (a copy past the end of the
 * allocation it lies in fails, and the next asks for less); NULL when it
 * cannot be read or is not ended within STRING_LIMIT. */
static const char *string_at(const mosaic_printf_memory *memory, uint64_t address)
{
    string_reader *r = (string_reader *)memory;
    for (size_t i = 0; i < r->count; i++)
        if (r->seen[i].address == address)
            return r->seen[i].text;
    mosaic_strbuf s = {0};
    bool ended = false;
    char part[256];
    while (!ended && s.len < STRING_LIMIT && !s.oom) {
        if (mosaic_cuda.cuMemcpyDtoH(part, (CUdeviceptr)(address + s.len), r->chunk) != CUDA_SUCCESS) {
            if (r->chunk == 1)
                break;
            r->chunk /= 2;
            continue;
        }
        char *nul = memchr(part, '\0', r->chunk);
        mosaic_strbuf_append(&s, part, nul ? (size_t)(nul - part) : r->chunk);
        ended = nul != NULL;
    }
    char *text = !ended || s.oom ? NULL : s.data ? s.data : strdup(""); /* (an empty string has no data) */
    if (!text || !mosaic_grow((void **)&r->seen, &r->room, r->count + 1, sizeof *r->seen)) {
        mosaic_strbuf_free(&s);
        if (text != s.data)
            free(text);
        return NULL;
    }
    r->seen[r->count].address = address;
    r->seen[r->count].text = text;
    return r->seen[r->count++].text;
}

/* ---- the flush --------------------------------------------------------------------- */

/* Formats the records in records[0 .. n) into out.  records is malloc's, and
 * each record starts at a multiple of 8, so its descriptors are aligned. */
static void format_records(const unsigned char *records, size_t n, string_reader *reader, mosaic_strbuf *out)
{
    size_t at = 0;
    while (n - at >= 16) {
        const unsigned char *rec = records + at;
        uint64_t format;
        uint32_t nargs, size;
        memcpy(&format, rec, 8);
        memcpy(&nargs, rec + 8, 4);
        memcpy(&size, rec + 12, 4);
        size_t descs = ((size_t)nargs * 4 + 7) / 8 * 8;
        if (size < 16 || size % 8 || size > n - at || descs > size - 16)
            return;
        const uint32_t *desc = (const void *)(rec + 16);
        const char *text =
            mosaic_printf_packed_size(desc, nargs) <= size - 16 - descs ? string_at(&reader->memory, format) : NULL;
        size_t start = out->len;
        if (text && !mosaic_printf_format(out, text, rec + 16 + descs, desc, nargs, &reader->memory))
            mosaic_strbuf_truncate(out, start); /* nothing of a call that does not fit its format */
        at += size;
    }
}

cl_int mosaic_cuda_printf_flush(cuda_gpu *g, cuda_printf *p)
{
    if (!p->area)
        return CL_SUCCESS;
    mosaic_gpu_printf_area a;
    cl_int err = CUDA_CALL(cuMemcpyDtoH, &a, p->area, sizeof a);
    if (err != CL_SUCCESS || a.used == 0)
        return err;
    size_t n = a.used < PRINTF_BUFFER ? a.used : PRINTF_BUFFER;
    unsigned char *records = malloc(n);
    if (!records)
        return CL_OUT_OF_HOST_MEMORY;
    uint32_t zero = 0;
    err = CUDA_CALL(cuMemcpyDtoH, records, p->data, n);
    if (err == CL_SUCCESS)
        err = mosaic_cuda_copy_to_gpu(g, p->area + offsetof(mosaic_gpu_printf_area, used), &zero, sizeof zero);
    if (err == CL_SUCCESS) {
        string_reader reader = {.memory = {.string_at = string_at}, .chunk = 256};
        mosaic_strbuf out = {0};
        format_records(records, n, &reader, &out);
        if (out.len) {
            flockfile(stdout);
            fwrite_unlocked(out.data, 1, out.len, stdout);
            fflush_unlocked(stdout);
            funlockfile(stdout);
        }
        mosaic_strbuf_free(&out);
        for (size_t i = 0; i < reader.count; i++)
            free(reader.seen[i].text);
        free(reader.seen);
    }
    free(records);
    return err;
}
