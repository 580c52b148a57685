/* What kernel code may call of the host process (host_functions.def).
 *
 * Kernel code is untrusted: a kernel that declares `int system(constant char
 * *)` and calls it must not run a shell.  So nothing is searched by name in
 * the process: a program's module may call its own functions, the builtins,
 * the device's runtime symbols and the math functions of the list
 * (mc_host_function_callable, checked in mc_report_undefined); the JIT is
 * given exactly the list's addresses (mc_host_functions), taken here at link
 * time, and no symbol generator, so object code from anywhere (a cache
 * entry, a program binary) cannot bind to anything else either. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/host_functions.h"

/* libgcc's helpers have no header: declared with a dummy type, only their
 * addresses are taken. */
#define MC_LIBGCC(name) void name(void);
#include "compiler/ir/host_functions.def"

#define MC_MATH(d, f) {#d, (void *)d}, {#f, (void *)f},
#define MC_LIBC(name) {#name, (void *)name},
#define MC_LIBGCC(name) {#name, (void *)name},
static const struct mosaic_runtime_symbol host_functions[] = {
#include "compiler/ir/host_functions.def"
};

#define MC_MATH(d, f) #d, #f,
static const char *const kernel_callable[] = {
#include "compiler/ir/host_functions.def"
};

size_t mc_host_functions(const struct mosaic_runtime_symbol **functions)
{
    *functions = host_functions;
    return sizeof host_functions / sizeof host_functions[0];
}

bool mc_host_function_callable(const char *name)
{
    for (size_t i = 0; i < sizeof kernel_callable / sizeof kernel_callable[0]; i++)
        if (!strcmp(kernel_callable[i], name))
            return true;
    return false;
}
