// EXPECT: data race on global address 0x
// EXPECT: a plain store by work-item global id (11,21) (local id (1,0), work-group (0,1))
// EXPECT: an atomic operation by work-item global id (10,20) (local id (0,0), work-group (0,0))
// EXPECT: race_2d.cl:26:9
// EXPECT: an atomic operation by work-item (10,20)
/*!
[config]
name: a race between work-groups of a 2-D launch with an offset (names both work-items)

[test]
kernel_name: mark
dimensions: 2
global_size: 4 2 0
local_size: 2 1 0
global_offset: 10 20 0
arg_in: 0 buffer uint[1] 0
arg_out: 0 buffer uint[1] 2
!*/
/* No barrier: the emulator runs each work-group item after item, and the groups in order,
   so the plain store of (11,21) in group (0,1) comes after the atomics of group (0,0). */
kernel void mark(global uint *flag)
{
    if (get_global_id(0) != 11 || get_global_id(1) != 21)
        atomic_or(flag, 2u);
    else
        flag[0] = 2;
}
