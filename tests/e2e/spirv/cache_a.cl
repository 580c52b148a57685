/* test_build_cache's IL programs: k writes specialization constant 1
 * (cache_b.cl: plus 100, another module). */
int spec_int(int id, int def) __asm__("_Z20__spirv_SpecConstantii");

kernel void k(global int *o)
{
    o[get_global_id(0)] = spec_int(1, 1);
}
