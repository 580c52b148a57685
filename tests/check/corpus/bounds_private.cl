/* An index up to 7 into a private array of 4; the twin's array has 8. */
kernel void bug(global int *a, global int *b, int n)
{
    int p[4] = {1, 2, 3, 4};
    int i = get_global_id(0);
    p[a[i] & 7] = i;
    a[i] = p[0] + p[1] + p[2] + p[3];
}

kernel void twin(global int *a, global int *b, int n)
{
    int p[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int i = get_global_id(0);
    p[a[i] & 7] = i;
    a[i] = p[0] + p[1] + p[2] + p[3];
}
