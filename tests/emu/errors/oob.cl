// EXPECT: out-of-bounds write of 4 bytes at address 0x00010010
// EXPECT: work-item global id (3) (local id (1), work-group (1)) of kernel `oob`
// EXPECT: oob.cl:17:5
// EXPECT: the nearest buffer below is buffer `out` at 0x00010000..0x00010010 (16 bytes)
/*!
[config]
name: an out-of-bounds write is reported with span, work-item and address

[test]
kernel_name: oob
global_size: 4 0 0
local_size: 2 0 0
arg_out: 0 buffer int[4] 0 0 0 0
!*/
kernel void oob(global int *out)
{
    out[get_global_id(0) + 1] = 1;
}
