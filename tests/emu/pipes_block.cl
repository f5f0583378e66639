/*!
[config]
name: Xilinx blocking pipe built-ins

[test]
name: read_pipe_block and write_pipe_block through a pipe of 2
launch: xproducer 1
launch: xconsumer 1
pipe:   p int 2
buffer: src int[50] iota 5 2
buffer: dst int[50] repeat 0
arg: xproducer 0 src
arg: xproducer 1 p
arg: xconsumer 0 dst
arg: xconsumer 1 p
# one producer, one consumer: the order is kept; the pipe of 2 makes both wait often
expect: dst int[50] iota 5 2
!*/

// `write_pipe_block` waits while the pipe is full and `read_pipe_block` while it is empty
// (Vitis' blocking forms), so no retry loop is needed.
kernel void xproducer(global const int *src, write_only pipe int p) {
  for (int i = 0; i < 50; i++)
    write_pipe_block(p, &src[i]);
}

kernel void xconsumer(global int *dst, read_only pipe int p) {
  for (int i = 0; i < 50; i++) {
    int v;
    read_pipe_block(p, &v);
    dst[i] = v;
  }
}
