// An unrolled loop after a run-time `break` of the enclosing loop (found with case 612 of the
// kernel fuzzer): its loop variable must step although the rest of the iteration is masked.
/*!
[config]
name: unroll after a run-time break
kernel_name: fuzz
dimensions: 1

[test]
name: odd items break, even ones add 4 x 2 twice
global_size: 4 1 1
local_size: 1 1 1
arg_in: 0 buffer int[4] 0 1 2 3
arg_out: 1 buffer int[4] 16 1 16 3
!*/
kernel void fuzz(global const int *in0, global int *out0) {
  size_t gid = get_global_id(0);
  int a = in0[gid];
  int acc = 0;
  for (int j = 0; j < 2; j++) {
    if (a & 1) { acc = a; break; }
    #pragma unroll
    for (int i = 0; i < 4; i++) acc += 2;
  }
  out0[gid] = acc;
}
