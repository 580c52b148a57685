/* Work-items write every other __local slot (their own, 2 * l) and sum
 * their neighbours' in a loop: the bug's last step reads an odd slot,
 * which nothing wrote; the twin reads only even ones.  (As in
 * uninit_local_padding, rows run as vector lanes in a build for the
 * group's size, here with accesses whose lanes are not side by side.) */
kernel void bug(global int *a, global int *b, int n)
{
    local int t[128];
    int l = get_local_id(0), s = 0;
    t[2 * l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = 0; r < 4; r++)
        s += t[2 * ((l + r) % 64) + (r == 3)];
    a[get_global_id(0)] = s;
}

kernel void twin(global int *a, global int *b, int n)
{
    local int t[128];
    int l = get_local_id(0), s = 0;
    t[2 * l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = 0; r < 4; r++)
        s += t[2 * ((l + r) % 64)];
    a[get_global_id(0)] = s;
}
