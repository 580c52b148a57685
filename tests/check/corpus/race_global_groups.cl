/* Work-items of different groups write the same global word, with nothing
 * ordering them (a race between work-groups in one launch); the twin's
 * work-items each write their own. */
kernel void bug(global int *a, global int *b, int n)
{
    a[get_local_id(0)] = (int)get_group_id(0);
}

kernel void twin(global int *a, global int *b, int n)
{
    a[get_global_id(0)] = (int)get_group_id(0);
}
