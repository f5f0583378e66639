// EXPECT: kernel `fixed` requires work-groups of 8x1x1 but the launch uses 4x1x1
// EXPECT: reqd_size.cl:13:
/*!
[config]
name: reqd_work_group_size is checked against the launch

[test]
kernel_name: fixed
global_size: 8 0 0
local_size: 4 0 0
arg_out: 0 buffer int[8] repeat 1
!*/
__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void fixed(global int *out)
{
    out[get_global_id(0)] = 1;
}
