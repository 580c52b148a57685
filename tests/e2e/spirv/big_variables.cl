/* Program-scope variables beyond the device's limits (test_spirv.c,
 * program_scope_limits): a __global variable of 2^42 bytes and 256 MiB of
 * __constant. */
global int big[1L << 40];
constant int table[64 * 1024 * 1024] = {1, 2, 3};

kernel void use_them(global int *out)
{
    size_t i = get_global_id(0);
    big[i] = out[i];
    out[i] = big[i + 1] + table[i];
}
