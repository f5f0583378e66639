/*!
[config]
name: the pipes tutorial with int packets (per-work-item and per-work-group reservations)

[test]
name: per-work-item reservations, consumer after producer
launch: pipe_producer 256 32
launch: pipe_consumer 256 32 after pipe_producer
pipe:   p int 256
buffer: src int[256] iota 0 1
buffer: dst int[256] repeat -1
arg: pipe_producer 0 src
arg: pipe_producer 1 p
arg: pipe_consumer 0 dst
arg: pipe_consumer 1 p
# work-items of the producer interleave, so the packets arrive in any order
expect: dst int[256] unordered iota 0 1

[test]
name: work-group ordered reservations, one work-group keeps the order
launch: wg_producer 32 32
launch: wg_consumer 32 32 after wg_producer
pipe:   p int 32
buffer: src int[32] iota 5 2
buffer: dst int[32] repeat -1
arg: wg_producer 0 src
arg: wg_producer 1 p
arg: wg_consumer 0 dst
arg: wg_consumer 1 p
expect: dst int[32] iota 5 2

[test]
name: work-group ordered reservations, eight work-groups
launch: wg_producer 256 32
launch: wg_consumer 256 32 after wg_producer
pipe:   p int 256
buffer: src int[256] iota 0 1
buffer: dst int[256] repeat -1
arg: wg_producer 0 src
arg: wg_producer 1 p
arg: wg_consumer 0 dst
arg: wg_consumer 1 p
expect: dst int[256] unordered iota 0 1
!*/

// The first pair is the tutorial's kernel code verbatim (one packet per work-item).
kernel void pipe_producer(global int *src, write_only pipe int out_pipe)
{
    int gid = get_global_id(0);
    reserve_id_t res_id;
    res_id = reserve_write_pipe(out_pipe, 1);
    int src_pipe = src[gid];
    if (is_valid_reserve_id(res_id)) {
        if (write_pipe(out_pipe, res_id, 0, &src_pipe) != 0)
            return;
        commit_write_pipe(out_pipe, res_id);
    }
}

kernel void pipe_consumer(global int *dst, read_only pipe int in_pipe)
{
    int gid = get_global_id(0);
    reserve_id_t res_id;
    res_id = reserve_read_pipe(in_pipe, 1);
    int dst_pipe;
    if (is_valid_reserve_id(res_id)) {
        if (read_pipe(in_pipe, res_id, 0, &dst_pipe) != 0)
            return;
        commit_read_pipe(in_pipe, res_id);
    }
    dst[gid] = dst_pipe;
}

// The tutorial's ordered variant: work-item 0 reserves for the group, a barrier publishes the
// reservation id through local memory, each work-item fills its own slot.
kernel void wg_producer(global int *src, write_only pipe int out_pipe)
{
    int gid = get_global_id(0);
    local reserve_id_t res_id;
    if (get_local_id(0) == 0)
        res_id = reserve_write_pipe(out_pipe, get_local_size(0));
    barrier(CLK_LOCAL_MEM_FENCE);
    int src_pipe = src[gid];
    if (is_valid_reserve_id(res_id)) {
        if (write_pipe(out_pipe, res_id, get_local_id(0), &src_pipe) != 0)
            return;
        commit_write_pipe(out_pipe, res_id);
    }
}

kernel void wg_consumer(global int *dst, read_only pipe int in_pipe)
{
    int gid = get_global_id(0);
    local reserve_id_t res_id;
    if (get_local_id(0) == 0)
        res_id = reserve_read_pipe(in_pipe, get_local_size(0));
    barrier(CLK_LOCAL_MEM_FENCE);
    int dst_pipe;
    if (is_valid_reserve_id(res_id)) {
        if (read_pipe(in_pipe, res_id, get_local_id(0), &dst_pipe) != 0)
            return;
        commit_read_pipe(in_pipe, res_id);
    }
    dst[gid] = dst_pipe;
}
