/* test_build_cache's IL programs: as cache_a.cl, another module. */
int spec_int(int id, int def) __asm__("_Z20__spirv_SpecConstantii");

kernel void k(global int *o)
{
    o[get_global_id(0)] = spec_int(1, 1) + 100;
}
