/*!
[config]
name: three kernels in a chain, non-blocking reads and writes in retry loops

[test]
name: 40 values through two small pipes, all kernels live at once
launch: source 1
launch: scale 1
launch: sink 1
pipe:   a int 4
pipe:   b int 2
buffer: src int[40] iota 0 1
buffer: dst int[40] repeat -1
arg: source 0 src
arg: source 1 a
arg: source 2 int 40
arg: scale 0 a
arg: scale 1 b
arg: scale 2 int 40
arg: sink 0 b
arg: sink 1 dst
arg: sink 2 int 40
# dst[i] = 3 * i + 7, in order (one work-item per kernel keeps the order)
expect: dst int[40] iota 7 3
!*/

kernel void source(global const int *src, write_only pipe int out, int n)
{
    for (int i = 0; i < n; i++) {
        int v = src[i];
        while (write_pipe(out, &v) != 0) { }
    }
}

kernel void scale(read_only pipe int in, write_only pipe int out, int n)
{
    for (int i = 0; i < n; i++) {
        int v;
        while (read_pipe(in, &v) != 0) { }
        int w = v * 3 + 7;
        while (write_pipe(out, &w) != 0) { }
    }
}

kernel void sink(read_only pipe int in, global int *dst, int n)
{
    for (int i = 0; i < n; i++) {
        int v;
        while (read_pipe(in, &v) != 0) { }
        dst[i] = v;
    }
}
