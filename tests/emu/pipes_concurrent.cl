/*!
[config]
name: kernels running concurrently, connected by small pipes

[test]
name: work-group reservations with retry, capacity of two work-groups
launch: wg_producer 256 32
launch: wg_consumer 256 32
pipe:   p int 64
buffer: src int[256] iota 7 3
buffer: dst int[256] repeat 0
arg: wg_producer 0 src
arg: wg_producer 1 p
arg: wg_consumer 0 dst
arg: wg_consumer 1 p
expect: dst int[256] unordered iota 7 3

[test]
name: single work-item kernels with 2-argument reads and writes in retry loops
launch: producer 1
launch: consumer 1
pipe:   q uint 4
buffer: src uint[100] iota 0
buffer: dst uint[100] repeat 12345
buffer: st uint[2] repeat 0
arg: producer 0 src
arg: producer 1 q
arg: producer 2 uint 100
arg: consumer 0 dst
arg: consumer 1 q
arg: consumer 2 uint 100
arg: consumer 3 st
# one producer and one consumer: the pipe keeps the order
expect: dst uint[100] iota 0 2
# get_pipe_max_packets is 4; the fill level never exceeded it
expect: st uint[2] 4 1

[test]
name: many producing work-items, one consumer
launch: producer_items 64 16
launch: consumer 1
pipe:   q uint 8
buffer: src uint[64] iota 100
buffer: dst uint[64] repeat 0
buffer: st uint[2] repeat 0
arg: producer_items 0 src
arg: producer_items 1 q
arg: consumer 0 dst
arg: consumer 1 q
arg: consumer 2 uint 64
arg: consumer 3 st
expect: dst uint[64] unordered iota 200 2
expect: st uint[2] 8 1
!*/

kernel void wg_producer(global const int *src, write_only pipe int out)
{
    reserve_id_t r;
    do {
        r = work_group_reserve_write_pipe(out, get_local_size(0));
    } while (!is_valid_reserve_id(r));
    int v = src[get_global_id(0)];
    write_pipe(out, r, get_local_id(0), &v);
    work_group_commit_write_pipe(out, r);
}

kernel void wg_consumer(global int *dst, read_only pipe int in)
{
    reserve_id_t r;
    do {
        r = work_group_reserve_read_pipe(in, get_local_size(0));
    } while (!is_valid_reserve_id(r));
    int v;
    read_pipe(in, r, get_local_id(0), &v);
    work_group_commit_read_pipe(in, r);
    dst[get_global_id(0)] = v;
}

kernel void producer(global const uint *src, write_only pipe uint out, uint n)
{
    for (uint i = 0; i < n; i++) {
        uint v = src[i];
        while (write_pipe(out, &v) != 0)
            ;
    }
}

kernel void producer_items(global const uint *src, write_only pipe uint out)
{
    uint v = src[get_global_id(0)];
    while (write_pipe(out, &v) != 0)
        ;
}

kernel void consumer(global uint *dst, read_only pipe uint in, uint n, global uint *st)
{
    uint fits = 1;
    for (uint i = 0; i < n; i++) {
        uint v;
        if (get_pipe_num_packets(in) > get_pipe_max_packets(in))
            fits = 0;
        while (read_pipe(in, &v) != 0)
            ;
        dst[i] = v * 2;
    }
    st[0] = get_pipe_max_packets(in);
    st[1] = fits;
}
