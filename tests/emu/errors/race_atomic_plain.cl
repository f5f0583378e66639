// EXPECT: data race on global address 0x
// EXPECT: a plain store by work-item global id (3)
// EXPECT: race_atomic_plain.cl:20:9
// EXPECT: an atomic operation by work-item (0)
/*!
[config]
name: a plain store racing with atomic increments of the same counter

[test]
kernel_name: count
global_size: 8 0 0
local_size: 8 0 0
arg_in: 0 buffer uint[1] 0
arg_out: 0 buffer uint[1] 8
!*/
kernel void count(global uint *counter)
{
    atomic_inc(counter);
    if (get_global_id(0) == 3)
        counter[0] = 0;
}
