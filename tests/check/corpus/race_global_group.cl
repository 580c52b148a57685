/* Every work-item of a group adds to the group's one counter in global
 * memory without an atomic (a race in the work-group); the twin adds
 * atomically. */
kernel void bug(global int *a, global int *b, int n)
{
    a[get_group_id(0)] += 1;
}

kernel void twin(global int *a, global int *b, int n)
{
    atomic_add(&a[get_group_id(0)], 1);
}
