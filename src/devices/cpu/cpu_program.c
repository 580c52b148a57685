/* The CPU device's program finalisation: executable bitcode to native code
 * through the compiler's JIT, for this machine (device->compiler_target,
 * filled by mosaic_cpu_describe). */
#include "devices/cpu/cpu.h"

cl_int mosaic_cpu_finalize(cl_device_id device, const mosaic_bitcode *executable, const char *options,
                           mosaic_executable **out, char **log)
{
    return mosaic_finalize(&device->compiler_target, executable, options, out, log);
}
