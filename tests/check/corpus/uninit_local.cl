/* Work-items read __local memory that nothing wrote; the twin writes it
 * first. */
kernel void bug(global int *a, global int *b, int n)
{
    local int tmp[64];
    int l = get_local_id(0);
    if (l > 0)
        tmp[l] = l;
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
