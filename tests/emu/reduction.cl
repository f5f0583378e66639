/*!
[config]
name: barriers and local memory: tree reductions

[test]
name: local pointer argument, 4 groups of 16
kernel_name: reduce
global_size: 64 0 0
local_size: 16 0 0
arg_in:  0 buffer int[64] iota 0
arg_out: 1 buffer int[4] 120 376 632 888
arg_in:  2 local int[16]

[test]
name: local array variable, 3 groups of 32, negative values
kernel_name: reduce_var
global_size: 96 0 0
local_size: 32 0 0
# (37 i mod 101) - 50 for i < 96
arg_in:  0 buffer int[96] \
    -50 -13 24 -40 -3 34 -30 7 44 -20 17 -47 -10 27 -37 0 37 -27 10 47 -17 20 -44 -7 \
    30 -34 3 40 -24 13 50 -14 23 -41 -4 33 -31 6 43 -21 16 -48 -11 26 -38 -1 36 -28 \
    9 46 -18 19 -45 -8 29 -35 2 39 -25 12 49 -15 22 -42 -5 32 -32 5 42 -22 15 -49 \
    -12 25 -39 -2 35 -29 8 45 -19 18 -46 -9 28 -36 1 38 -26 11 48 -16 21 -43 -6 31
arg_out: 1 buffer int[3] -14 -1 12
!*/

kernel void reduce(global const int *in, global int *out, local int *scratch)
{
    uint lid = get_local_id(0), n = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = n / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}

kernel void reduce_var(global const int *in, global int *out)
{
    local int tile[32];
    uint lid = get_local_id(0);
    tile[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 16; s > 0; s >>= 1) {
        if (lid < s)
            tile[lid] += tile[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = tile[0];
}
