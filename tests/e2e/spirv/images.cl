/* Images and samplers through SPIR-V */
const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void copy_image(read_only image2d_t src, write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(src, nearest, p);
    write_imagef(dst, p, v * 2.0f);
}
