/*!
[config]
dimensions: 1
global_size: 8 1 1
local_size: 8 1 1

[test]
name: initialised table, updated in place
kernel_name: bump
arg_out: 0 buffer int[8] 103 205 307 409 111 213 315 417

[test]
name: zero-initialised counter, atomic increments
kernel_name: tally
arg_in:  0 buffer int[8] 5 0 7 2 0 0 9 1
arg_out: 1 buffer uint[8] 0 0xffffffff 1 2 0xffffffff 0xffffffff 3 4
!*/

// OpenCL 2.0 program-scope `global` variables: on-chip memories initialised at configuration
// and never reset, so each launch sees what the launches before it left (tests/program_scope.rs
// launches these kernels twice on one model). By hand, for one launch after configuration:
//   bump: base[i] = {100, 200, ..., 400, 100 .. 400}[i] + (2 i + 3) mod 8 + ...:
//         base[i] += 3 + 2 * (i % 4) -> 103 205 307 409 for i < 4; for i >= 4 the same
//         elements of the second half (base[4..7] = 108, 208, 308, 408) -> 111 213 315 417
//   tally: hits counts the non-zero inputs (5 7 2 9 1: five of them); each work-item with one
//          gets the count before its increment (work-items in order: 0, 1, 2, 3, 4), the
//          others 0xffffffff

global int base[8] = {100, 200, 300, 400, 108, 208, 308, 408};

kernel void bump(global int *o) {
  size_t i = get_global_id(0);
  base[i] += 3 + 2 * (int)(i % 4);
  o[i] = base[i];
}

global atomic_uint hits;

kernel void tally(global const int *in, global uint *out) {
  size_t i = get_global_id(0);
  uint old = 0xffffffffu;
  if (in[i] != 0)
    old = atomic_fetch_add_explicit(&hits, 1u, memory_order_relaxed);
  out[i] = old;
}
