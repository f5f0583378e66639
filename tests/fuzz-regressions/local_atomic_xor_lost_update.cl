// Hand-reduced from seed4_case12.cl (kernel-fuzz 30 4). Fixed: four work-items XOR
// 0, 1, 2, 3 into lh[1] (by hand: 0^1^2^3 = 0; the loop only XORs 0 into lh[0] or lh[2]);
// Verilator ends with lh[1] = 3 (an update lost in the on-chip atomics of local memory) while
// the emulator and the IR interpreter give 0. The region holding the first atomic started the
// loop while later work-items' reads of `lh` were in flight; it now runs serially (a region that
// uses an on-chip memory and starts a loop using it), and the loop starts after the atomic's write.
/*!
[config]
kernel_name: k
[test]
global_size: 4 1 1
local_size: 4 1 1
arg_in: 0 uint 1
arg_out: 1 buffer uint[4] 0 0 0 0
!*/
kernel void k(uint n, global uint *out) {
  uint lid = (uint)get_local_id(0);
  local uint lh[4];
  lh[lid] = 0U;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_xor(&lh[1], lid);
  for (uint i = 0; i < n; i++)
    atomic_xor(&lh[(0x7aU << lid) & 2U], 0U);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lid] = lh[lid];
}
