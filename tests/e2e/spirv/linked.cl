/* Linked with OpenCL C (test_spirv.c): `twice` is defined here and called
 * from OpenCL C; `offset` is defined in OpenCL C and called from here. */
int offset(int x);

int twice(int x)
{
    return 2 * x;
}

kernel void from_spirv(global int *a)
{
    size_t i = get_global_id(0);
    a[i] = offset(a[i]);
}
