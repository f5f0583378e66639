// EXPECT: data race on local address 0x
// EXPECT: not ordered by a barrier
// EXPECT: race_local_init.cl:2
// (line 21 or 22: which of the two accesses comes second depends on the interleaving)
// EXPECT: make both accesses atomic
/*!
[config]
name: a local histogram initialised without a barrier before the atomics

[test]
kernel_name: hist
global_size: 8 0 0
local_size: 8 0 0
arg_in:  0 buffer uint[8] iota 0
arg_out: 1 buffer uint[4] 2 2 2 2
!*/
kernel void hist(global const uint *in, global uint *out)
{
    local atomic_uint bins[4];
    uint lid = get_local_id(0);
    if (lid < 4)
        atomic_init(&bins[lid], 0u);
    atomic_fetch_add(&bins[in[get_global_id(0)] % 4], 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 4)
        out[lid] = atomic_load(&bins[lid]);
}
