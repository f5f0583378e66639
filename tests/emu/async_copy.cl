/*!
[config]
name: async work-group copies, events and prefetch

[test]
name: copy in, compute, strided copy out
kernel_name: stage
global_size: 64 0 0
local_size: 16 0 0
arg_in:  0 buffer int[64] iota 0
# dst[g + 4 i] = 2 * src[16 g + i] + 1
arg_out: 1 buffer int[64] \
    1 33 65 97 3 35 67 99 5 37 69 101 7 39 71 103 9 41 73 105 11 43 75 107 13 45 77 109 \
    15 47 79 111 17 49 81 113 19 51 83 115 21 53 85 117 23 55 87 119 25 57 89 121 27 59 91 \
    123 29 61 93 125 31 63 95 127

[test]
name: two copies joined on one event, strided gather
kernel_name: gather
global_size: 8 0 0
local_size: 4 0 0
# a[i] = i, b[i] = 100 + i
arg_in:  0 buffer float[16] iota 0
arg_in:  1 buffer float[16] iota 100
# group g gathers a[8g + 2i] (i < 4) and b[4g .. 4g+3]; item l writes ta[l] + tb[l]
arg_out: 2 buffer float[8] 100 103 106 109 112 115 118 121
!*/

kernel void stage(global const int *src, global int *dst)
{
    local int tile[16];
    event_t e = async_work_group_copy(tile, src + get_group_id(0) * 16, 16, 0);
    wait_group_events(1, &e);
    uint l = get_local_id(0);
    tile[l] = tile[l] * 2 + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e2 = async_work_group_strided_copy(dst + get_group_id(0), tile, 16, 4, 0);
    wait_group_events(1, &e2);
}

kernel void gather(global const float *a, global const float *b, global float *out)
{
    local float ta[4];
    local float tb[4];
    uint g = get_group_id(0);
    prefetch(b + 4 * g, 4);
    event_t e = async_work_group_strided_copy(ta, a + 8 * g, 4, 2, 0);
    e = async_work_group_copy(tb, b + 4 * g, 4, e);
    wait_group_events(1, &e);
    uint l = get_local_id(0);
    out[get_global_id(0)] = ta[l] + tb[l];
}
