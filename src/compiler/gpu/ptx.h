/*
 * PTX for NVIDIA GPUs from a program's bitcode: the back end the GPU device
 * (src/devices/cuda) finalizes programs with (mosaic_finalize_ptx).  The
 * front end makes the bitcode for nvptx64 (mosaic_compiler_target.triple
 * MC_PTX_TRIPLE), so OpenCL's address spaces are numbered as NVPTX numbers
 * them; this links in Mosaic's work-item functions (builtins/nvptx, which
 * read MOSAIC_GPU_LAUNCH_SYMBOL) and libclc's built-ins for NVPTX (Debian's
 * libclc-16, found at build time), makes everything but the kernels and
 * the launch's values internal, runs LLVM's O2 and the NVPTX back end for
 * one compute capability.  The driver's JIT makes machine code of the PTX
 * (cuModuleLoadDataEx).
 */
#ifndef MOSAIC_COMPILER_PTX_H
#define MOSAIC_COMPILER_PTX_H

#include <stdbool.h>
#include <stddef.h>

#include <CL/cl.h>

#include "base/strbuf.h"
#include "compiler/compiler.h"

/* The front end's triple for programs of the GPU: clang's OpenCL on NVPTX
 * with the address spaces and built-in names libclc's nvidiacl build has. */
#define MC_PTX_TRIPLE "nvptx64-unknown-nvidiacl"

/* The block's dynamic shared memory in the PTX (`.extern .shared`): a
 * kernel's __local arguments are byte offsets into it (ptx.c), and a launch
 * gives it their total size. */
#define MC_PTX_DYNAMIC_SHARED "__mosaic_dynamic_shared"

/* Whether PTX can be made here: libclc's NVPTX bitcode was found when Mosaic
 * was built (MOSAIC_LIBCLC_NVPTX_PATH) and is readable. */
bool mc_ptx_available(void);

/* What mc_ptx_build's result depends on besides the program's bitcode and
 * `sm`, as text for the kernel cache's key (mosaic_finalize_ptx,
 * pipeline/object_cache.c): LLVM's version, a BLAKE3 hash of Mosaic's own
 * work-item functions as embedded, and libclc's NVPTX library by its path
 * and a BLAKE3 hash of its contents (hashed once per process, and again
 * when the file's device, inode, size or modification time change).  The
 * build options are not in it: none changes the PTX (always O2).  false
 * (nothing appended) when libclc cannot be read: then there is no cache,
 * and the build says why. */
bool mc_ptx_key_inputs(mosaic_strbuf *text);

/* PTX text (malloc'd, NUL-terminated; *size without the NUL) for the
 * kernels of `program` (a program binary of MC_PTX_TRIPLE: a compiled
 * object or an executable), for the GPU of compute capability `sm`
 * ("sm_90").  CL_SUCCESS, or CL_BUILD_PROGRAM_FAILURE (not bitcode of the
 * triple, a built-in it calls is missing, code generation failed) or
 * CL_COMPILER_NOT_AVAILABLE (no libclc), with the reason in `log`. */
cl_int mc_ptx_from_program(const mosaic_bitcode *program, const char *sm, char **ptx, size_t *size, mosaic_strbuf *log);

/* What mc_ptx_build makes of a program: mc_ptx_from_program's PTX, and the
 * kernels' table as mosaic_finalize's (the program's kernels in its order,
 * read before their __local arguments become offsets; no wg_fn or wi_fn;
 * static_local_mem_size: the shared variables each kernel's code still
 * uses after the optimiser). */
typedef struct mc_ptx_program {
    char *ptx;                    /* NUL-terminated */
    size_t ptx_size;              /* without the NUL */
    mosaic_kernel_info *kernels;
    size_t num_kernels;
    size_t global_variables_size; /* the program's own __global variables */
} mc_ptx_program;
/* mc_ptx_from_program's errors; *out empty on failure. */
cl_int mc_ptx_build(const mosaic_bitcode *program, const char *sm, mc_ptx_program *out, mosaic_strbuf *log);
void mc_ptx_program_clear(mc_ptx_program *p);

#endif
