/*!
[config]
name: Xilinx program-scope pipes

[test]
name: a program-scope pipe of depth 2 between two kernels
launch: prod 1
launch: cons 1
buffer: src int[20] iota 3 3
buffer: dst int[20] repeat 0
arg: prod 0 src
arg: cons 0 dst
expect: dst int[20] iota 3 3
!*/

// Vitis style: the pipe is declared at program scope with its depth, so no `pipe:` line
// binds it; both kernels name it directly and use the blocking built-ins.
pipe int gp __attribute__((xcl_reqd_pipe_depth(2)));

kernel void prod(global const int *src) {
  for (int i = 0; i < 20; i++)
    write_pipe_block(gp, &src[i]);
}

kernel void cons(global int *dst) {
  for (int i = 0; i < 20; i++) {
    int v;
    read_pipe_block(gp, &v);
    dst[i] = v;
  }
}
