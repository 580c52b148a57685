/* OpenCL C's printf on the GPU.  The front end turns each printf call into
 * a call of __mosaic_printf with the arguments packed in a private buffer
 * (compiler/frontend/printf.c); this appends them as one record to the
 * module's printf buffer, which the device formats on the host after the
 * launch (devices/cuda/cuda_printf.c).  The layout is mosaic_gpu_printf_area's
 * and its records', src/compiler/compiler.h. */

typedef struct {
    ulong data;
    uint capacity;
    uint used;
} __mosaic_gpu_printf_area;

/* External, found by name (cuModuleGetGlobal) and set up by the device. */
__global __mosaic_gpu_printf_area __mosaic_printf_area;

/* an argument's bytes in the packed buffer: each at a multiple of 8 */
static uint argument_bytes(uint desc) { return ((desc >> 8 & 0xffu) * (desc >> 16 & 0xffu) + 7u) & ~7u; }

int __mosaic_printf(__constant char *format, const void *args, __constant uint *desc, uint nargs)
{
    uint packed = 0;
    for (uint i = 0; i < nargs; i++)
        packed += argument_bytes(desc[i]);
    uint descs = (4 * nargs + 7) & ~7u;
    uint size = 16 + descs + packed;
    __global __mosaic_gpu_printf_area *area = &__mosaic_printf_area;
    uint at = atomic_add((volatile __global uint *)&area->used, size);
    if (!area->data || at > area->capacity || area->capacity - at < size)
        return -1;
    __global uchar *record = (__global uchar *)area->data + at;
    *(__global ulong *)record = (ulong)format;
    *(__global uint *)(record + 8) = nargs;
    *(__global uint *)(record + 12) = size;
    for (uint i = 0; i < nargs; i++)
        ((__global uint *)(record + 16))[i] = desc[i];
    __global ulong *to = (__global ulong *)(record + 16 + descs);
    const ulong *from = (const ulong *)args;
    for (uint i = 0; i < packed / 8; i++)
        to[i] = from[i];
    return 0;
}
