/*!
[config]
name: the seed example: 16384 floats through a pipe, as in the pipes tutorial (host code: a pipe of numPackets = 16384 float packets, global size 16384, local size 128, the consumer launched after the producer's event)

[test]
name: per-work-item reservations, 16384 floats
launch: pipe_producer 16384 128
launch: pipe_consumer 16384 128 after pipe_producer
pipe:   p float 16384
buffer: src float[16384] iota 0 1
buffer: dst float[16384] repeat 0
arg: pipe_producer 0 src
arg: pipe_producer 1 p
arg: pipe_consumer 0 dst
arg: pipe_consumer 1 p
# src[i] = i; work-items of the producer interleave, so the packets arrive in any order
expect: dst float[16384] unordered iota 0 1

[test]
name: per-work-group reservations, 16384 floats in groups of 128
launch: wg_producer 16384 128
launch: wg_consumer 16384 128 after wg_producer
pipe:   p float 16384
buffer: src float[16384] iota 0 1
buffer: dst float[16384] repeat 0
arg: wg_producer 0 src
arg: wg_producer 1 p
arg: wg_consumer 0 dst
arg: wg_consumer 1 p
# within a group the order is kept; the groups run one after another in both kernels here,
# but OpenCL does not promise that, so the comparison is unordered
expect: dst float[16384] unordered iota 0 1
!*/

// The first pair is the tutorial's kernel code verbatim (one packet per work-item).
kernel void pipe_producer(global float *src, write_only pipe float out_pipe)
{
    int gid = get_global_id(0);
    reserve_id_t res_id;
    res_id = reserve_write_pipe(out_pipe, 1);
    float src_pipe = src[gid];
    if (is_valid_reserve_id(res_id)) {
        if (write_pipe(out_pipe, res_id, 0, &src_pipe) != 0)
            return;
        commit_write_pipe(out_pipe, res_id);
    }
}

kernel void pipe_consumer(global float *dst, read_only pipe float in_pipe)
{
    int gid = get_global_id(0);
    reserve_id_t res_id;
    res_id = reserve_read_pipe(in_pipe, 1);
    float dst_pipe;
    if (is_valid_reserve_id(res_id)) {
        if (read_pipe(in_pipe, res_id, 0, &dst_pipe) != 0)
            return;
        commit_read_pipe(in_pipe, res_id);
    }
    dst[gid] = dst_pipe;
}

// The tutorial's ordered variant: work-item 0 reserves for the group, a barrier publishes the
// reservation id through local memory, each work-item fills its own slot.
kernel void wg_producer(global float *src, write_only pipe float out_pipe)
{
    int gid = get_global_id(0);
    local reserve_id_t res_id;
    if (get_local_id(0) == 0)
        res_id = reserve_write_pipe(out_pipe, get_local_size(0));
    barrier(CLK_LOCAL_MEM_FENCE);
    float src_pipe = src[gid];
    if (is_valid_reserve_id(res_id)) {
        if (write_pipe(out_pipe, res_id, get_local_id(0), &src_pipe) != 0)
            return;
        commit_write_pipe(out_pipe, res_id);
    }
}

kernel void wg_consumer(global float *dst, read_only pipe float in_pipe)
{
    int gid = get_global_id(0);
    local reserve_id_t res_id;
    if (get_local_id(0) == 0)
        res_id = reserve_read_pipe(in_pipe, get_local_size(0));
    barrier(CLK_LOCAL_MEM_FENCE);
    float dst_pipe;
    if (is_valid_reserve_id(res_id)) {
        if (read_pipe(in_pipe, res_id, get_local_id(0), &dst_pipe) != 0)
            return;
        commit_read_pipe(in_pipe, res_id);
    }
    dst[gid] = dst_pipe;
}
