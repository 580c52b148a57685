/* The last work-item of each group writes, and reads, one int past the end
 * of a __local array; the twin's array has room for it. */
kernel void bug(global int *a, global int *b, int n)
{
    local int tmp[64];
    int l = get_local_id(0);
    tmp[l + 1] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    a[get_global_id(0)] = tmp[l + 1];
}

kernel void twin(global int *a, global int *b, int n)
{
    local int tmp[65];
    int l = get_local_id(0);
    tmp[l + 1] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    a[get_global_id(0)] = tmp[l + 1];
}
