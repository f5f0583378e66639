// kernel-fuzz 10000 20261126, case 205: crash [panic at hls-ir/src/kernel.rs:354:20: StableGraph::add_edge: node index N is not a node in the graph], reduced in 198 s (26 of 47 candidates kept)
// Fixed: the lowering panicked (`StableGraph::add_edge: node index is not a node`). After
// the loop, `n` (never changed) had its carried value replaced and removed; `v1 = n` then
// named the removed value as its next one. Carry-out now follows the replacements
// (hls-ir `lower/loops.rs`, `carry_out`).
/*!
[config]
name: kernel-fuzz seed 20261126 case 205
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 2 1 1
local_size: 1 1 1
arg_in: 0 buffer uchar[2] 240 35
arg_in: 1 buffer long2[2] 844404887584652579 8 4783810551333911975 9
arg_in: 3 uint 6
arg_out: 2 buffer uint2[2] 0 0 0 0
!*/

kernel void fuzz(global const uchar *in0, global const long2 *in1, global uint2 *out0, uint n) {
  size_t gid = get_global_id(0);
  uchar a0 = in0[gid];
  long2 a1 = in1[gid];
  uint v1 = ((uint)0x0U);
  #pragma loop_coalesce
  for (uint i2 = 0; i2 < n; i2++) {
    v1 = n;
  }
  out0[gid] = ((uint2)(((uint)0x0U), ((uint)0x0U)));
}
