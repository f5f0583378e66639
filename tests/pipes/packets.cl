/*!
[config]
name: struct and vector packets

[test]
name: a struct of mixed widths through a pipe of 3
launch: sprod 1
launch: scons 1
pipe:   p pkt_t 3
buffer: ids int[6] repeat -1
buffer: sums long[6] repeat -1
arg: sprod 0 p
arg: sprod 1 int 6
arg: scons 0 p
arg: scons 1 ids
arg: scons 2 sums
arg: scons 3 int 6
# packet i: id = 10 + i, a = -i, b = 2i, big = 0x100000000 * i + 7;
# sums[i] = a + b + big = -i + 2i + 4294967296 i + 7 = 4294967297 i + 7
expect: ids int[6] 10 11 12 13 14 15
expect: sums long[6] 7 4294967304 8589934601 12884901898 17179869195 21474836492

[test]
name: int4 packets from memory, element-wise arithmetic after the pipe
launch: vprod 8 4
launch: vcons 8 4
pipe:   q int4 2
buffer: src int[32] iota 0 1
buffer: dst int[32] repeat -1
arg: vprod 0 src
arg: vprod 1 q
arg: vcons 0 q
arg: vcons 1 dst
# vcons stores packet + (100, 200, 300, 400) at the next free slot; src holds 0..31, so
# every int4 (4k, 4k+1, 4k+2, 4k+3) arrives as one packet (order of packets not fixed)
expect: dst int[32] unordered \
    100 201 302 403 104 205 306 407 108 209 310 411 112 213 314 415 \
    116 217 318 419 120 221 322 423 124 225 326 427 128 229 330 431
!*/

typedef struct {
    int id;
    short a;
    char b;
    long big;
} pkt_t;

kernel void sprod(write_only pipe pkt_t p, int n)
{
    for (int i = 0; i < n; i++) {
        pkt_t x;
        x.id = 10 + i;
        x.a = (short)(-i);
        x.b = (char)(2 * i);
        x.big = 0x100000000L * i + 7;
        write_pipe_block(p, &x);
    }
}

kernel void scons(read_only pipe pkt_t p, global int *ids, global long *sums, int n)
{
    for (int i = 0; i < n; i++) {
        pkt_t x;
        read_pipe_block(p, &x);
        ids[i] = x.id;
        sums[i] = (long)x.a + (long)x.b + x.big;
    }
}

kernel void vprod(global const int4 *src, write_only pipe int4 q)
{
    int4 v = src[get_global_id(0)];
    write_pipe_block(q, &v);
}

kernel void vcons(read_only pipe int4 q, global int4 *dst)
{
    int4 v;
    read_pipe_block(q, &v);
    dst[get_global_id(0)] = v + (int4)(100, 200, 300, 400);
}
