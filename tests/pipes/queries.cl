/*!
[config]
name: pipe queries, and a reservation that fails and is retried

[test]
name: get_pipe_num_packets and get_pipe_max_packets after five writes
launch: fill 1
launch: ask 1 after fill
pipe:   p int 8
buffer: out int[4] repeat -1
arg: fill 0 p
arg: fill 1 int 5
arg: ask 0 p
arg: ask 1 out
# 5 packets stored of 8; after one read 4 remain; the value read is the first (10)
expect: out int[4] 5 8 4 10

[test]
name: reservations of 3 retried until the reader makes room
launch: resv 1
launch: drain 1
pipe:   q int 4
buffer: dst int[12] repeat -1
buffer: tries int[1] -1
arg: resv 0 q
arg: resv 1 tries
arg: drain 0 q
arg: drain 1 dst
# four reservations of 3 packets each: values 1..12 in order
expect: dst int[12] iota 1 1
!*/

kernel void fill(write_only pipe int p, int n)
{
    for (int i = 0; i < n; i++) {
        int v = 10 * (i + 1);
        write_pipe_block(p, &v);
    }
}

kernel void ask(read_only pipe int p, global int *out)
{
    out[0] = (int)get_pipe_num_packets(p);
    out[1] = (int)get_pipe_max_packets(p);
    int v = 0;
    while (read_pipe(p, &v) != 0) { }
    out[2] = (int)get_pipe_num_packets(p);
    out[3] = v;
}

kernel void resv(write_only pipe int q, global int *tries)
{
    int t = 0;
    for (int r = 0; r < 4; r++) {
        reserve_id_t id = reserve_write_pipe(q, 3);
        while (!is_valid_reserve_id(id)) {
            t++;
            id = reserve_write_pipe(q, 3);
        }
        for (int j = 0; j < 3; j++) {
            int v = 3 * r + j + 1;
            write_pipe(q, id, j, &v);
        }
        commit_write_pipe(q, id);
    }
    tries[0] = t > 0 ? 1 : 0;
}

kernel void drain(read_only pipe int q, global int *dst)
{
    for (int i = 0; i < 12; i++) {
        int v;
        read_pipe_block(q, &v);
        dst[i] = v;
    }
}
