/* Reads of b, a buffer created without host data that nothing wrote; the
 * twin reads a, created from host data. */
kernel void bug(global int *a, global int *b, int n)
{
    int i = get_global_id(0);
    a[i] = b[i] + 1;
}

kernel void twin(global int *a, global int *b, int n)
{
    int i = get_global_id(0);
    a[i] = a[i] + 1;
}
