// EXPECT: divergent barrier: the barrier at
// EXPECT: barrier_divergent.cl:19:9
// EXPECT: finished without reaching it
/*!
[config]
name: a barrier reached by only some work-items of a group

[test]
kernel_name: diverge
global_size: 4 0 0
local_size: 4 0 0
arg_out: 0 buffer int[4] 0 0 0 0
!*/
kernel void diverge(global int *out)
{
    local int tmp[4];
    tmp[get_local_id(0)] = 1;
    if (get_local_id(0) < 2)
        barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[0];
}
