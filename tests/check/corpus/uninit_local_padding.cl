/* A tile of __local memory with a padding column nothing writes (rows of
 * 64 + 4), summed by a loop: the bug's work-items read 4 slots on, past the
 * written columns, in the padding; the twin's wrap round to the row's
 * start.  (A loop carrying a sum that differs between work-items: in a
 * build for the group's size, its rows run as vector lanes.) */
kernel void bug(global int *a, global int *b, int n)
{
    local int t[4][64 + 4];
    int l = get_local_id(0), s = 0;
    for (int r = 0; r < 4; r++)
        t[r][l] = a[get_global_id(0)] + r;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = 0; r < 4; r++)
        s += t[r][l + 4];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[get_global_id(0)] = s;
}

kernel void twin(global int *a, global int *b, int n)
{
    local int t[4][64 + 4];
    int l = get_local_id(0), s = 0;
    for (int r = 0; r < 4; r++)
        t[r][l] = a[get_global_id(0)] + r;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = 0; r < 4; r++)
        s += t[r][(l + 4) % 64];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[get_global_id(0)] = s;
}
