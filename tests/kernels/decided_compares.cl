/*!
[config]
kernel_name: decided_compares
dimensions: 1

[test]
name: compares, min and max that one constant decides (u < 0u, max(u, 0u))
global_size: 3 1 1
local_size: 3 1 1
arg_in:  0 buffer uint[3] 0 5 4294967295
arg_in:  1 buffer ushort4[3] 0 0 0 0   3 0 7 9   65535 2 1 4
arg_out: 2 buffer uint[3] 3594 3594 3594
arg_out: 3 buffer uint[3] 0 10 4294967294
arg_out: 4 buffer ushort4[3] 0 1 65535 5   3 1 65535 9   65535 2 65535 5
arg_out: 5 buffer int[3] 85 80 -86
!*/

// Found by the random-kernel fuzzer (seed 17407, case 3): `max(v, (ushort4)(0, ...))` was
// emitted as `(16'h0 > v) ? 16'h0 : v`, a comparison whose value the constant alone decides,
// which Verilator's -Wall rejects (UNSIGNED). Such compares and min/max are folded, and the
// emitter writes their value if one reaches it. Expected values by hand:
//   flags: u < 0u never (0), u >= 0u always (2), u > UINT_MAX never (0), u <= UINT_MAX always
//   (8): 10; min(u, 0u) = 0; l[0] + l[1] = 7 + 7 = 14 (atomic_max(l, 0u) and
//   atomic_min(l, UINT_MAX) leave 7): 10 + 16 * 0 + 256 * 14 = 3594 for every item.
//   m = max(u, 0u) + min(u, UINT_MAX) = 2u mod 2^32: 0, 10, 4294967294.
//   mx = max(v, (0, 1, 65535, 5)) lane by lane.
//   sg = max((int)u, INT_MIN) ^ 0x55: 0 ^ 85 = 85, 5 ^ 85 = 80, -1 ^ 85 = -86.
kernel void decided_compares(global const uint *a, global const ushort4 *b, global uint *out,
                             global uint *m, global ushort4 *mx, global int *sg) {
  size_t i = get_global_id(0);
  local uint l[2];
  uint u = a[i];
  if (get_local_id(0) == 0) {
    l[0] = 7;
    l[1] = 7;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_max(&l[0], 0u);
  atomic_min(&l[1], 0xffffffffu);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint flags = ((u < 0u) ? 1u : 0u) | ((u >= 0u) ? 2u : 0u) | ((u > 0xffffffffu) ? 4u : 0u) |
               ((u <= 0xffffffffu) ? 8u : 0u);
  out[i] = flags + 16u * min(u, 0u) + 256u * (l[0] + l[1]);
  m[i] = max(u, 0u) + min(u, 0xffffffffu);
  mx[i] = max(b[i], (ushort4)(0, 1, 0xffff, 5));
  sg[i] = max((int)u, INT_MIN) ^ 0x55;
}
