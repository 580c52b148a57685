/* The program ops of a device built by Mosaic's compiler (core/device.h):
 * each is the compiler's step (compiler/compiler.h) with the device's
 * compiler target, which is all that differs between the CPU and the GPU
 * until finalize. */
#include "core/device.h"

#include "base/assert.h"

cl_int mosaic_target_compile(cl_device_id device, cl_program program, const char *options, size_t num_headers,
                             const mosaic_header *headers, mosaic_bitcode *out, char **log)
{
    MOSAIC_ASSERT(program->source || program->il);
    const mosaic_compiler_target *target = &device->compiler_target;
    if (program->source)
        return mosaic_compile_source(target, program->source, options, num_headers, headers, out, log);
    return mosaic_compile_spirv(target, program->il, program->il_size, options, program->num_spec_constants,
                                program->spec_constants, out, log);
}

cl_int mosaic_target_link(cl_device_id device, size_t count, const mosaic_bitcode *inputs, const char *options,
                          bool create_library, mosaic_bitcode *out, char **log)
{
    return mosaic_link_bitcode(&device->compiler_target, count, inputs, options, create_library, out, log);
}

/* (the compiler's binaries are the same on every machine: only the
 * architecture is checked) */
cl_int mosaic_target_check_binary(cl_device_id device, const void *data, size_t size, cl_program_binary_type *type,
                                  char **log)
{
    return mosaic_bitcode_validate(&device->compiler_target, data, size, type, log);
}

cl_int mosaic_target_check_il(cl_device_id device, const void *il, size_t size, mosaic_spec_constant **specs,
                              size_t *num_specs, char **log)
{
    (void)device;
    return mosaic_spirv_check(il, size, specs, num_specs, log);
}
