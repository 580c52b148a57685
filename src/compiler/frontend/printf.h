/* printf in kernels (printf.c). */
#ifndef MOSAIC_COMPILER_FRONTEND_PRINTF_H
#define MOSAIC_COMPILER_FRONTEND_PRINTF_H

#include <llvm-c/Core.h>
#include <CL/cl.h>

#include "base/strbuf.h"

/* Turns OpenCL C printf calls into calls to the device's __mosaic_printf
 * with the arguments in a buffer (printf.c, compiler.h).  Does nothing when
 * the module has no printf; an argument it cannot pass is
 * CL_COMPILE_PROGRAM_FAILURE (it runs in the front end). */
cl_int mc_lower_printf(LLVMModuleRef m, mosaic_strbuf *log);

#endif
