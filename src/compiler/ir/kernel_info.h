/* The kernel table's entries (mosaic_kernel_info) read from a kernel's IR (kernel_info.c). */
#ifndef MOSAIC_COMPILER_IR_KERNEL_INFO_H
#define MOSAIC_COMPILER_IR_KERNEL_INFO_H

#include <llvm-c/Target.h>

#include "base/strbuf.h"
#include "compiler/compiler.h"

cl_int mc_kernel_info_from_ir(LLVMTargetDataRef td, LLVMValueRef kernel, mosaic_kernel_info *info,
                              mosaic_strbuf *log);
void mc_kernel_info_clear(mosaic_kernel_info *info);

#endif
