// EXPECT: deadlock: every running kernel is blocked
// EXPECT: kernel `fill` is blocked at
// EXPECT: deadlock.cl:26:9
// EXPECT: waits to write 1 packet(s) to pipe `p` (2 of 2 packets readable, 0 slots reserved)
// EXPECT: kernel `drain` is blocked at
// EXPECT: deadlock.cl:33:9
// EXPECT: waits to read 1 packet(s) from pipe `q` (0 of 4 packets readable, 0 slots reserved)
/*!
[config]
name: two kernels that wait for each other

[test]
launch: fill 1
launch: drain 1
pipe: p int 2
pipe: q int 4
buffer: out int[1] 0
arg: fill 0 p
arg: drain 0 q
arg: drain 1 out
expect: out int[1] 0
!*/
kernel void fill(write_only pipe int p __attribute__((blocking)))
{
    for (int i = 0; i < 3; i++)
        write_pipe(p, &i);
}

kernel void drain(read_only pipe int q __attribute__((blocking)), global int *out)
{
    int v;
    for (int i = 0; i < 3; i++)
        read_pipe(q, &v);
    out[0] = v;
}
