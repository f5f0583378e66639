/*!
[config]
name: NDRange geometry and every work-item function
kernel_name: ids

[test]
name: 1-D, non-uniform groups of 3, offset 10
dimensions: 1
global_size: 7 0 0
local_size: 3 0 0
global_offset: 10 0 0
arg_out: 0 buffer uint[112] \
    10 0 0 0 0 0 0 0 0 3 1 1 0 1 311 31007 \
    11 0 0 1 0 0 0 0 0 3 1 1 1 1 311 31007 \
    12 0 0 2 0 0 0 0 0 3 1 1 2 1 311 31007 \
    13 0 0 0 0 0 1 0 0 3 1 1 0 1 311 31007 \
    14 0 0 1 0 0 1 0 0 3 1 1 1 1 311 31007 \
    15 0 0 2 0 0 1 0 0 3 1 1 2 1 311 31007 \
    16 0 0 0 0 0 2 0 0 1 1 1 0 1 311 31007

[test]
name: 2-D 5x3 in 2x2 groups, offset (1,2)
dimensions: 2
global_size: 5 3 0
local_size: 2 2 0
global_offset: 1 2 0
arg_out: 0 buffer uint[240] \
    1 2 0 0 0 0 0 0 0 2 2 1 0 2 321 20105 \
    2 2 0 1 0 0 0 0 0 2 2 1 1 2 321 20105 \
    3 2 0 0 0 0 1 0 0 2 2 1 0 2 321 20105 \
    4 2 0 1 0 0 1 0 0 2 2 1 1 2 321 20105 \
    5 2 0 0 0 0 2 0 0 1 2 1 0 2 321 20105 \
    1 3 0 0 1 0 0 0 0 2 2 1 2 2 321 20105 \
    2 3 0 1 1 0 0 0 0 2 2 1 3 2 321 20105 \
    3 3 0 0 1 0 1 0 0 2 2 1 2 2 321 20105 \
    4 3 0 1 1 0 1 0 0 2 2 1 3 2 321 20105 \
    5 3 0 0 1 0 2 0 0 1 2 1 1 2 321 20105 \
    1 4 0 0 0 0 0 1 0 2 1 1 0 2 321 20105 \
    2 4 0 1 0 0 0 1 0 2 1 1 1 2 321 20105 \
    3 4 0 0 0 0 1 1 0 2 1 1 0 2 321 20105 \
    4 4 0 1 0 0 1 1 0 2 1 1 1 2 321 20105 \
    5 4 0 0 0 0 2 1 0 1 1 1 0 2 321 20105

[test]
name: 3-D 3x2x2 in 2x1x2 groups
dimensions: 3
global_size: 3 2 2
local_size: 2 1 2
global_offset: 0 0 0
arg_out: 0 buffer uint[192] \
    0 0 0 0 0 0 0 0 0 2 1 2 0 3 221 20003 \
    1 0 0 1 0 0 0 0 0 2 1 2 1 3 221 20003 \
    2 0 0 0 0 0 1 0 0 1 1 2 0 3 221 20003 \
    0 1 0 0 0 0 0 1 0 2 1 2 0 3 221 20003 \
    1 1 0 1 0 0 0 1 0 2 1 2 1 3 221 20003 \
    2 1 0 0 0 0 1 1 0 1 1 2 0 3 221 20003 \
    0 0 1 0 0 1 0 0 0 2 1 2 2 3 221 20003 \
    1 0 1 1 0 1 0 0 0 2 1 2 3 3 221 20003 \
    2 0 1 0 0 1 1 0 0 1 1 2 1 3 221 20003 \
    0 1 1 0 0 1 0 1 0 2 1 2 2 3 221 20003 \
    1 1 1 1 0 1 0 1 0 2 1 2 3 3 221 20003 \
    2 1 1 0 0 1 1 1 0 1 1 2 1 3 221 20003

!*/

// Expected values: the OpenCL C 6.15.1 definitions evaluated by hand (a Python loop over
// the NDRange), 16 words per work-item at its global linear id.
kernel void ids(global uint *out)
{
    global uint *o = out + get_global_linear_id() * 16;
    for (uint d = 0; d < 3; d++) {
        o[d] = get_global_id(d);
        o[3 + d] = get_local_id(d);
        o[6 + d] = get_group_id(d);
        o[9 + d] = get_local_size(d);
    }
    o[12] = get_local_linear_id();
    o[13] = get_work_dim();
    o[14] = get_num_groups(0) * 100 + get_num_groups(1) * 10 + get_num_groups(2);
    o[15] = get_enqueued_local_size(0) * 10000 + get_global_offset(0) * 100 + get_global_size(0);
}
