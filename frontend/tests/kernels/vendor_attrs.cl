// Vendor attributes users bring from other FPGA tools are accepted and recorded.
kernel void vendor(global int *a, read_only pipe int p __attribute__((blocking)) __attribute__((depth(8))), read_only pipe int q __attribute__((io("x")))) {
  __attribute__((xcl_pipeline_loop(1)))
  for (int i = 0; i < 4; i++) { int v; if (read_pipe(p, &v) == 0) a[i] = v; }
  __attribute__((opencl_unroll_hint))
  for (int i = 0; i < 4; i++) a[i]++;
  int x __attribute__((aligned(8))) = 1;
  a[0] = x;
}
