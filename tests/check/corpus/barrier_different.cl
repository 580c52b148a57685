/* The two halves of a work-group reach two different barriers (OpenCL
 * wants every work-item at the same one); the twin has one. */
kernel void bug(global int *a, global int *b, int n)
{
    local int tmp[64];
    int l = get_local_id(0);
    tmp[l] = l;
    if (l < 32)
        barrier(CLK_LOCAL_MEM_FENCE);
    else
        barrier(CLK_LOCAL_MEM_FENCE);
    a[get_global_id(0)] = tmp[63 - l];
}

kernel void twin(global int *a, global int *b, int n)
{
    local int tmp[64];
    int l = get_local_id(0);
    tmp[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    a[get_global_id(0)] = tmp[63 - l];
}
