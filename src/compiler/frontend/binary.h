/* Program binaries: Mosaic's blobs around LLVM bitcode (binary.c). */
#ifndef MOSAIC_COMPILER_FRONTEND_BINARY_H
#define MOSAIC_COMPILER_FRONTEND_BINARY_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>

#include "base/strbuf.h"
#include "compiler/compiler.h"

/* A blob is a 32-byte header and LLVM bitcode: "MOSAIC\0\0", format version,
 * binary type, bitcode size, checksum (binary.c). */
#define MC_BLOB_MAGIC "MOSAIC\0\0"
#define MC_BLOB_VERSION 2u
#define MC_BLOB_HEADER_SIZE 32u

cl_int mc_blob_wrap(cl_program_binary_type type, const void *bitcode, size_t size, mosaic_bitcode *out,
                    mosaic_strbuf *log);
/* Checks the header and the checksum (CL_INVALID_BINARY); sets what is asked
 * for: the type, the bitcode and its size, the blob's BLAKE3 digest. */
cl_int mc_blob_unwrap(const void *data, size_t size, cl_program_binary_type *type, const void **bitcode,
                      size_t *bitcode_size, uint8_t digest[32], mosaic_strbuf *log);
/* Parses a blob's bitcode into ctx. */
cl_int mc_blob_load(LLVMContextRef ctx, const mosaic_bitcode *blob, LLVMModuleRef *out, mosaic_strbuf *log);
cl_int mc_module_to_blob(LLVMModuleRef m, cl_program_binary_type type, mosaic_bitcode *out, mosaic_strbuf *log);
/* How long the bitcode checker (opt-16, a child process) may take on a binary: 60 s (tests shorten it). */
extern int mc_bitcode_check_timeout_ms;

#endif
