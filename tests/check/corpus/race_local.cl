/* Work-items write __local memory and read a neighbour's slot with no
 * barrier between the write and the read (a race in the work-group); the
 * twin has the barrier. */
kernel void bug(global int *a, global int *b, int n)
{
    local int tmp[64];
    int l = get_local_id(0);
    tmp[l] = a[get_global_id(0)];
    a[get_global_id(0)] = tmp[(l + 1) % 64];
}

kernel void twin(global int *a, global int *b, int n)
{
    local int tmp[64];
    int l = get_local_id(0);
    tmp[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[get_global_id(0)] = tmp[(l + 1) % 64];
}
