/* Work-items write their own __local slot and sum their neighbours' in a
 * loop with no barrier between the write and the reads (a race in the
 * work-group); the twin has the barrier.  (As in uninit_local_padding,
 * rows run as vector lanes in a build for the group's size.) */
kernel void bug(global int *a, global int *b, int n)
{
    local int t[64];
    int l = get_local_id(0), s = 0;
    t[l] = a[get_global_id(0)];
    for (int r = 0; r < 4; r++)
        s += t[(l + r) % 64];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[get_global_id(0)] = s;
}

kernel void twin(global int *a, global int *b, int n)
{
    local int t[64];
    int l = get_local_id(0), s = 0;
    t[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = 0; r < 4; r++)
        s += t[(l + r) % 64];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[get_global_id(0)] = s;
}
