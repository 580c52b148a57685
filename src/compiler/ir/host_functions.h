/* The host functions kernel code may call (host_functions.c, host_functions.def). */
#ifndef MOSAIC_COMPILER_IR_HOST_FUNCTIONS_H
#define MOSAIC_COMPILER_IR_HOST_FUNCTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/compiler.h"

/* The host functions kernel code may reach (host_functions.def): every one,
 * with its address, for the JIT; and whether a program's module may call
 * `name` itself (the math functions; not what only generated code calls). */
size_t mc_host_functions(const struct mosaic_runtime_symbol **functions);
bool mc_host_function_callable(const char *name);

#endif
