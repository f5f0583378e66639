/*!
[config]
name: three kernels in a pipeline, blocking pipes, and struct packets

[test]
name: generate, square in 64 work-items, sum
launch: gen 1
launch: square 64 16
launch: sink 1
pipe:   a int 4
pipe:   b int 2
buffer: dst int[64] repeat -1
buffer: total long[1] 0
arg: gen 0 a
arg: gen 1 int 64
arg: square 0 a
arg: square 1 b
arg: sink 0 b
arg: sink 1 int 64
arg: sink 2 dst
arg: sink 3 total
# (3i)^2 for i < 64, in whatever order the squaring work-items finish
expect: dst int[64] unordered \
    0 9 36 81 144 225 324 441 576 729 900 1089 1296 1521 1764 2025 2304 2601 2916 3249 \
    3600 3969 4356 4761 5184 5625 6084 6561 7056 7569 8100 8649 9216 9801 10404 11025 \
    11664 12321 12996 13689 14400 15129 15876 16641 17424 18225 19044 19881 20736 21609 \
    22500 23409 24336 25281 26244 27225 28224 29241 30276 31329 32400 33489 34596 35721
# 9 * (0^2 + ... + 63^2) = 9 * 85344
expect: total long[1] 768096

[test]
name: blocking pipe arguments need no retry loops
launch: bproducer 1
launch: bconsumer 1
pipe:   p uint 2
buffer: dst uint[50] repeat 0
buffer: fails uint[1] 99
arg: bproducer 0 p
arg: bproducer 1 uint 50
arg: bconsumer 0 p
arg: bconsumer 1 dst
arg: bconsumer 2 uint 50
arg: bconsumer 3 fails
expect: dst uint[50] iota 1000 7
expect: fails uint[1] 0

[test]
name: a typedef'd struct as packet type
launch: sproducer 1
launch: sconsumer 8 4 after sproducer
pipe:   q item_t 8
buffer: ids int[8] repeat 0
buffer: xs float[8] repeat 0
arg: sproducer 0 q
arg: sconsumer 0 q
arg: sconsumer 1 ids
arg: sconsumer 2 xs
# each consumer work-item stores the packet it got at the packet's id
expect: ids int[8] iota 0
expect: xs float[8] iota 0 0.5
!*/

kernel void gen(write_only pipe int out, int n)
{
    for (int i = 0; i < n; i++) {
        int v = 3 * i;
        while (write_pipe(out, &v) != 0)
            ;
    }
}

kernel void square(read_only pipe int in, write_only pipe int out)
{
    int v;
    while (read_pipe(in, &v) != 0)
        ;
    v = v * v;
    while (write_pipe(out, &v) != 0)
        ;
}

kernel void sink(read_only pipe int in, int n, global int *dst, global long *total)
{
    long sum = 0;
    for (int i = 0; i < n; i++) {
        int v;
        while (read_pipe(in, &v) != 0)
            ;
        dst[i] = v;
        sum += v;
    }
    total[0] = sum;
}

kernel void bproducer(write_only pipe uint out __attribute__((blocking)), uint n)
{
    for (uint i = 0; i < n; i++) {
        uint v = 1000 + 7 * i;
        write_pipe(out, &v);
    }
}

kernel void bconsumer(read_only pipe uint in __attribute__((blocking)), global uint *dst, uint n,
                      global uint *fails)
{
    uint f = 0;
    for (uint i = 0; i < n; i++) {
        uint v;
        if (read_pipe(in, &v) != 0)
            f++;
        dst[i] = v;
    }
    fails[0] = f;
}

typedef struct {
    int id;
    float x;
} item_t;

kernel void sproducer(write_only pipe item_t out)
{
    for (int i = 7; i >= 0; i--) {
        item_t it = { i, i * 0.5f };
        write_pipe(out, &it);
    }
}

kernel void sconsumer(read_only pipe item_t in, global int *ids, global float *xs)
{
    item_t it;
    if (read_pipe(in, &it) == 0) {
        ids[it.id] = it.id;
        xs[it.id] = it.x;
    }
}
