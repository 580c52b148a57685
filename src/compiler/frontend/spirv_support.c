/*
 * What a device takes in SPIR-V (the OpenCL 3.1 SPIR-V queries,
 * CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS, _EXTENSIONS and _CAPABILITIES,
 * and cl_khr_spirv_queries), declared once: each capability and extension
 * with the OpenCL extension or feature that brings it, read from the
 * target's -cl-ext list.  The same tables decide which modules
 * clCreateProgramWithIL's builds take: a module that declares a capability or
 * an extension the device does not report fails to build, with its name in
 * the log, as the SPIR-V environment specification asks.
 *
 * Every entry is one llvm-spirv-15 translates, or that spirv_lower.c
 * rewrites before it does (OpReadClockKHR), into calls of built-ins the
 * builtin library defines.
 */
#include "compiler/frontend/spirv_support.h"
#include "compiler/frontend/frontend.h"

#include <string.h>

#include <spirv/unified1/spirv.h>

/* "a|b": the target has a or b; NULL: every target. */
static bool target_has(const mosaic_compiler_target *target, const char *needs)
{
    if (!needs)
        return true;
    char name[96];
    for (const char *p = needs; *p;) {
        size_t n = strcspn(p, "|");
        if (n < sizeof name) {
            memcpy(name, p, n);
            name[n] = 0;
            if (mc_target_has_extension(target, name))
                return true;
        }
        p += n + (p[n] == '|');
    }
    return false;
}

#define IMAGES "__opencl_c_images"
#define FP_ADD(bits)                                                                               \
    "__opencl_c_ext_fp" #bits "_global_atomic_add|__opencl_c_ext_fp" #bits "_local_atomic_add"
#define FP_MIN_MAX(bits)                                                                           \
    "__opencl_c_ext_fp" #bits "_global_atomic_min_max|__opencl_c_ext_fp" #bits "_local_atomic_min_max"

static const struct { uint32_t capability; const char *needs; } capabilities[] = {
    /* every OpenCL device */
    { SpvCapabilityAddresses, NULL },
    { SpvCapabilityLinkage, NULL },
    { SpvCapabilityKernel, NULL },
    { SpvCapabilityVector16, NULL },
    { SpvCapabilityFloat16Buffer, NULL },
    { SpvCapabilityInt8, NULL },
    { SpvCapabilityInt16, NULL },
    { SpvCapabilityInt64, "__opencl_c_int64" },
    { SpvCapabilityFloat16, "cl_khr_fp16" },
    { SpvCapabilityFloat64, "cl_khr_fp64" },
    { SpvCapabilityInt64Atomics, "cl_khr_int64_base_atomics|cl_khr_int64_extended_atomics" },
    /* images */
    { SpvCapabilityImageBasic, IMAGES },
    { SpvCapabilityImage1D, IMAGES },
    { SpvCapabilityImageBuffer, IMAGES },
    { SpvCapabilitySampled1D, IMAGES },
    { SpvCapabilitySampledBuffer, IMAGES },
    { SpvCapabilityLiteralSampler, IMAGES },
    { SpvCapabilityImageReadWrite, "__opencl_c_read_write_images" },
    /* OpenCL C 2.0 and 3.0 features */
    { SpvCapabilityGenericPointer, "__opencl_c_generic_address_space" },
    { SpvCapabilityGroups, "__opencl_c_subgroups|__opencl_c_work_group_collective_functions" },
    { SpvCapabilityPipes, "__opencl_c_pipes" },
    { SpvCapabilityPipeStorage, "__opencl_c_pipes" },
    { SpvCapabilityDeviceEnqueue, "__opencl_c_device_enqueue" },
    { SpvCapabilitySubgroupDispatch, "__opencl_c_subgroups" },
    /* the sub-group extensions (SPIR-V 1.3) */
    { SpvCapabilityGroupNonUniform, "cl_khr_subgroup_non_uniform_vote" },
    { SpvCapabilityGroupNonUniformVote, "cl_khr_subgroup_non_uniform_vote" },
    { SpvCapabilityGroupNonUniformBallot, "cl_khr_subgroup_ballot" },
    { SpvCapabilityGroupNonUniformArithmetic, "cl_khr_subgroup_non_uniform_arithmetic" },
    { SpvCapabilityGroupNonUniformShuffle, "cl_khr_subgroup_shuffle" },
    { SpvCapabilityGroupNonUniformShuffleRelative, "cl_khr_subgroup_shuffle_relative" },
    { SpvCapabilityGroupNonUniformClustered, "cl_khr_subgroup_clustered_reduce" },
    { SpvCapabilityGroupNonUniformRotateKHR, "cl_khr_subgroup_rotate" },
    { SpvCapabilityGroupUniformArithmeticKHR, "cl_khr_work_group_uniform_arithmetic" },
    /* other extensions */
    { SpvCapabilityExpectAssumeKHR, "cl_khr_expect_assume" },
    { SpvCapabilityBitInstructions, "cl_khr_extended_bit_ops" },
    { SpvCapabilityDotProduct, "cl_khr_integer_dot_product" },
    { SpvCapabilityDotProductInput4x8BitPacked, "__opencl_c_integer_dot_product_input_4x8bit_packed" },
    { SpvCapabilityDotProductInput4x8Bit, "__opencl_c_integer_dot_product_input_4x8bit" },
    { SpvCapabilityShaderClockKHR, "cl_khr_kernel_clock" },
    { SpvCapabilityAtomicFloat16AddEXT, FP_ADD(16) },
    { SpvCapabilityAtomicFloat32AddEXT, FP_ADD(32) },
    { SpvCapabilityAtomicFloat64AddEXT, FP_ADD(64) },
    { SpvCapabilityAtomicFloat16MinMaxEXT, FP_MIN_MAX(16) },
    { SpvCapabilityAtomicFloat32MinMaxEXT, FP_MIN_MAX(32) },
    { SpvCapabilityAtomicFloat64MinMaxEXT, FP_MIN_MAX(64) },
};

static const struct { const char *name; const char *needs; } extensions[] = {
    /* the translator's own, on every device (cl_khr_spirv_no_integer_wrap_decoration,
     * cl_khr_spirv_linkonce_odr: extensions of the runtime, not in -cl-ext) */
    { "SPV_KHR_no_integer_wrap_decoration", NULL },
    { "SPV_KHR_linkonce_odr", NULL },
    { "SPV_KHR_expect_assume", "cl_khr_expect_assume" },
    { "SPV_KHR_bit_instructions", "cl_khr_extended_bit_ops" },
    { "SPV_KHR_integer_dot_product", "cl_khr_integer_dot_product" },
    { "SPV_KHR_subgroup_rotate", "cl_khr_subgroup_rotate" },
    { "SPV_KHR_uniform_group_instructions", "cl_khr_work_group_uniform_arithmetic" },
    { "SPV_KHR_shader_clock", "cl_khr_kernel_clock" },
    { "SPV_EXT_shader_atomic_float16_add", FP_ADD(16) },
    { "SPV_EXT_shader_atomic_float_add", FP_ADD(32) "|" FP_ADD(64) },
    { "SPV_EXT_shader_atomic_float_min_max", FP_MIN_MAX(16) "|" FP_MIN_MAX(32) "|" FP_MIN_MAX(64) },
};

static const char *const extended_instruction_sets[] = {
    "OpenCL.std",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

size_t mosaic_spirv_capabilities(const mosaic_compiler_target *target, uint32_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < COUNT(capabilities); i++)
        if (target_has(target, capabilities[i].needs)) {
            if (out && n < max)
                out[n] = capabilities[i].capability;
            n++;
        }
    return n;
}

size_t mosaic_spirv_extensions(const mosaic_compiler_target *target, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < COUNT(extensions); i++)
        if (target_has(target, extensions[i].needs)) {
            if (out && n < max)
                out[n] = extensions[i].name;
            n++;
        }
    return n;
}

size_t mosaic_spirv_extended_instruction_sets(const mosaic_compiler_target *target, const char **out, size_t max)
{
    (void)target;
    size_t n = 0;
    for (size_t i = 0; i < COUNT(extended_instruction_sets); i++, n++)
        if (out && n < max)
            out[n] = extended_instruction_sets[i];
    return n;
}

bool mc_spirv_has_capability(const mosaic_compiler_target *target, uint32_t capability)
{
    for (size_t i = 0; i < COUNT(capabilities); i++)
        if (capabilities[i].capability == capability && target_has(target, capabilities[i].needs))
            return true;
    return false;
}

bool mc_spirv_has_extension(const mosaic_compiler_target *target, const char *name)
{
    for (size_t i = 0; i < COUNT(extensions); i++)
        if (!strcmp(extensions[i].name, name) && target_has(target, extensions[i].needs))
            return true;
    return false;
}

bool mc_spirv_has_extended_instruction_set(const mosaic_compiler_target *target, const char *name)
{
    (void)target;
    for (size_t i = 0; i < COUNT(extended_instruction_sets); i++)
        if (!strcmp(extended_instruction_sets[i], name))
            return true;
    return false;
}

/* A literal string operand: NULL unless it ends inside the instruction. */
static const char *string_operand(const uint32_t *ins, uint32_t count, uint32_t first_word)
{
    if (first_word >= count)
        return NULL;
    const char *s = (const char *)(ins + first_word);
    size_t room = (size_t)(count - first_word) * 4;
    return memchr(s, 0, room) ? s : NULL;
}

cl_int mc_spirv_check_support(const mosaic_compiler_target *target, const uint32_t *w, size_t nwords,
                              mosaic_strbuf *log)
{
    cl_int r = CL_SUCCESS;
    for (size_t at = 5; at < nwords;) {
        uint32_t count = w[at] >> 16, opcode = w[at] & 0xffffu;
        if (count == 0 || at + count > nwords)
            break; /* spirv-val has refused such a module already */
        const uint32_t *ins = w + at;
        if (opcode == SpvOpFunction)
            break; /* the declarations are before the first function */
        if (opcode == SpvOpCapability && count >= 2 && !mc_spirv_has_capability(target, ins[1])) {
            mosaic_strbuf_printf(log, "error: the module declares SPIR-V capability %u, which the device does "
                                      "not support (CL_DEVICE_SPIRV_CAPABILITIES)\n", ins[1]);
            r = CL_COMPILE_PROGRAM_FAILURE;
        }
        const char *name = opcode == SpvOpExtension       ? string_operand(ins, count, 1)
                           : opcode == SpvOpExtInstImport ? string_operand(ins, count, 2)
                                                          : NULL;
        if (name && opcode == SpvOpExtension && !mc_spirv_has_extension(target, name)) {
            mosaic_strbuf_printf(log, "error: the module uses SPIR-V extension %s, which the device does not "
                                      "support (CL_DEVICE_SPIRV_EXTENSIONS)\n", name);
            r = CL_COMPILE_PROGRAM_FAILURE;
        }
        if (name && opcode == SpvOpExtInstImport && !mc_spirv_has_extended_instruction_set(target, name)) {
            mosaic_strbuf_printf(log, "error: the module imports the extended instruction set %s, which the "
                                      "device does not support (CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS)\n", name);
            r = CL_COMPILE_PROGRAM_FAILURE;
        }
        at += count;
    }
    return r;
}
