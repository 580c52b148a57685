/* The last work-item writes one int past the end of a (n ints); the twin
 * checks the index. */
kernel void bug(global int *a, global int *b, int n)
{
    int i = get_global_id(0);
    a[i + 1] = i;
}

kernel void twin(global int *a, global int *b, int n)
{
    int i = get_global_id(0);
    if (i + 1 < n)
        a[i + 1] = i;
}
