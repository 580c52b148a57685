/* The last work-item reads one int past the end of a (n ints); the twin
 * wraps the index. */
kernel void bug(global int *a, global int *b, int n)
{
    int i = get_global_id(0);
    b[i] = a[i + 1];
}

kernel void twin(global int *a, global int *b, int n)
{
    int i = get_global_id(0);
    b[i] = a[(i + 1) % n];
}
