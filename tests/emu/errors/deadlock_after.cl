// EXPECT: deadlock: every running kernel is blocked
// EXPECT: kernel `produce` is blocked at
// EXPECT: deadlock_after.cl:24:9
// EXPECT: waits to write 1 packet(s) to pipe `p` (4 of 4 packets readable, 0 slots reserved)
// EXPECT: kernel `consume` has not started: it runs after `produce`
/*!
[config]
name: a consumer that waits for its producer, which waits for the consumer

[test]
launch: produce 1
launch: consume 1 after produce
pipe: p int 4
buffer: out int[8] repeat 0
arg: produce 0 p
arg: consume 0 p
arg: consume 1 out
expect: out int[8] iota 0
!*/
kernel void produce(write_only pipe int p __attribute__((blocking)))
{
    // more packets than the pipe holds, and the consumer only starts afterwards
    for (int i = 0; i < 8; i++)
        write_pipe(p, &i);
}

kernel void consume(read_only pipe int p __attribute__((blocking)), global int *out)
{
    for (int i = 0; i < 8; i++)
        read_pipe(p, &out[i]);
}
