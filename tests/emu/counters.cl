/*!
[config]
name: atomic counters, cl_ext_atomic_counters_32 and _64

[test]
name: counter32 starts at the buffer's value and is written back
launch: count 16 4
buffer: in int[16] repeat 1 -1
buffer: slots uint[16] repeat 0
buffer: ctr uint[1] 100
arg: count 0 in
arg: count 1 slots
arg: count 2 ctr
# eight positive inputs: the old values 100..107, in any order, zeros elsewhere
expect: slots uint[16] unordered 0 0 0 0 0 0 0 0 100 101 102 103 104 105 106 107
expect: ctr uint[1] 108

[test]
name: counter64 counting down
kernel_name: down
global_size: 10 0 0
local_size: 5 0 0
arg_in:  0 buffer ulong[1] 0x100000005
arg_out: 0 buffer ulong[1] 0xfffffffb
!*/

#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
#pragma OPENCL EXTENSION cl_ext_atomic_counters_64 : enable

kernel void count(global const int *in, global uint *slots, counter32_t c)
{
    if (in[get_global_id(0)] > 0)
        slots[get_global_id(0)] = atomic_inc(c);
}

kernel void down(counter64_t c)
{
    atomic_dec(c);
}
