/*!
[config]
name: atomics on global and local memory, 32 and 64 bits

[test]
name: 32 work-items in groups of 8
kernel_name: atomics
global_size: 32 0 0
local_size: 8 0 0
arg_in:  0 buffer uint[32] iota 0
arg_in:  1 buffer uint[4] repeat 0
arg_out: 1 buffer uint[4] 8 8 8 8
# sum 0..31, max, min (from 1000), or of bits, local counts, one cmpxchg winner, its count,
# no bad value out of a local atomic_xchg, and (2^20 - 1) - sum
arg_in:  2 buffer int[9] 0 -5 1000 0 0 0 0 0 1048575
arg_out: 2 buffer int[9] 496 31 0 255 32 1 1 0 1048079
# 32 * 2^32 + (0 + ... + 31)
arg_in:  3 buffer ulong[1] 0
arg_out: 3 buffer ulong[1] 137438953968
!*/

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

kernel void atomics(global const uint *in, global uint *bins, global int *stats,
                    global ulong *wide)
{
    uint v = in[get_global_id(0)];
    atomic_inc(&bins[v % 4]);
    atomic_add(&stats[0], (int)v);
    atomic_max(&stats[1], (int)v);
    atomic_min(&stats[2], (int)v);
    atomic_or(&stats[3], 1 << (v % 8));
    local uint count;
    local int last;
    if (get_local_id(0) == 0) {
        count = 0;
        last = -1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&count, 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        atomic_add(&stats[4], (int)count);
    if (atomic_cmpxchg(&stats[5], 0, 1) == 0)
        atomic_inc(&stats[6]);
    int old = atomic_xchg(&last, (int)v);
    // every old value but the first (-1) is the id of a work-item of this group
    if (old < -1 || old > 31 || (old >= 0 && (uint)old / 8 != get_group_id(0)))
        atomic_inc(&stats[7]);
    atomic_sub(&stats[8], (int)v);
    atom_add(&wide[0], 0x100000000ul + v);
}
