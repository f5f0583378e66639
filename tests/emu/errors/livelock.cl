// ARGS: --max-steps 20000
// EXPECT: step limit of 20000 exceeded
// EXPECT: livelock.cl:20
/*!
[config]
name: a retry loop on a pipe nobody writes runs into the step limit

[test]
launch: spin 1
pipe: p int 4
buffer: out int[1] 0
arg: spin 0 p
arg: spin 1 out
expect: out int[1] 0
!*/
kernel void spin(read_only pipe int p, global int *out)
{
    int v;
    while (read_pipe(p, &v) != 0)
        ;
    out[0] = v;
}
