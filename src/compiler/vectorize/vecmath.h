/* Vector math from libmvec (vecmath.c). */
#ifndef MOSAIC_COMPILER_VECTORIZE_VECMATH_H
#define MOSAIC_COMPILER_VECTORIZE_VECMATH_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "compiler/compiler.h"

/* Vector math (vecmath.c): names libmvec's vector variants on the module's
 * math calls the target can use (vector-function-abi-variant) for the loop
 * vectoriser; returns how many calls got them.  After optimisation,
 * mc_drop_vector_math_uses removes what kept the variants' declarations
 * alive.  mc_libmvec_available: vector math is on (MOSAIC_NO_LIBMVEC unset,
 * empty or 0). */
unsigned mc_add_vector_math(LLVMModuleRef m, LLVMTargetMachineRef tm);
/* After optimisation: vector-typed math intrinsic calls (llvm.log.v4f32...)
 * become calls of libmvec variants; returns how many. */
unsigned mc_lower_vector_math_calls(LLVMModuleRef m, LLVMTargetMachineRef tm);
void mc_drop_vector_math_uses(LLVMModuleRef m);
bool mc_libmvec_available(void);
/* libmvec's variants (name, address) for the JIT. */
size_t mc_libmvec_symbols(const struct mosaic_runtime_symbol **symbols);

#endif
