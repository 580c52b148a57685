/* Every work-item of every group adds to one global counter with an atomic
 * of work-group scope, narrower than the work-items sharing it (the whole
 * launch); the twin's scope is the device. */
kernel void bug(global int *a, global int *b, int n)
{
    atomic_fetch_add_explicit((volatile global atomic_int *)a, 1, memory_order_relaxed, memory_scope_work_group);
}

kernel void twin(global int *a, global int *b, int n)
{
    atomic_fetch_add_explicit((volatile global atomic_int *)a, 1, memory_order_relaxed, memory_scope_device);
}
