// EXPECT: finished without waiting for this async copy
// EXPECT: unwaited.cl:17:17
/*!
[config]
name: an async copy whose event is never waited for

[test]
kernel_name: nowait
global_size: 4 0 0
local_size: 4 0 0
arg_in:  0 buffer int[4] 1 2 3 4
arg_out: 1 buffer int[4] 1 2 3 4
!*/
kernel void nowait(global const int *src, global int *dst)
{
    local int tile[4];
    event_t e = async_work_group_copy(tile, src, 4, 0);
    dst[get_global_id(0)] = src[get_global_id(0)];
}
