/*!
[config]
kernel_name: dyn_dim
dimensions: 2
global_size: 5 3 0
local_size: 2 2 0

[test]
name: dimension 0
arg_in:  1 uint 0
arg_out: 0 buffer uint[90] 0 0 0 2 3 5 1 1 0 2 3 5 2 0 1 2 3 5 3 1 1 2 3 5 4 0 2 1 3 5 \
    0 0 0 2 3 5 1 1 0 2 3 5 2 0 1 2 3 5 3 1 1 2 3 5 4 0 2 1 3 5 \
    0 0 0 2 3 5 1 1 0 2 3 5 2 0 1 2 3 5 3 1 1 2 3 5 4 0 2 1 3 5

[test]
name: dimension 1
arg_in:  1 uint 1
arg_out: 0 buffer uint[90] 0 0 0 2 2 3 0 0 0 2 2 3 0 0 0 2 2 3 0 0 0 2 2 3 0 0 0 2 2 3 \
    1 1 0 2 2 3 1 1 0 2 2 3 1 1 0 2 2 3 1 1 0 2 2 3 1 1 0 2 2 3 \
    2 0 1 1 2 3 2 0 1 1 2 3 2 0 1 1 2 3 2 0 1 1 2 3 2 0 1 1 2 3

[test]
name: dimension 2
arg_in:  1 uint 2
arg_out: 0 buffer uint[90] 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 \
    0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 \
    0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1

[test]
name: dimension 7
arg_in:  1 uint 7
arg_out: 0 buffer uint[90] 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 \
    0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 \
    0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1 0 0 0 1 1 1
!*/

// Work-item functions whose dimension is known only at run time (a select over the three
// dimensions; out of range: 0 for ids, 1 for sizes), and get_num_groups (computed by the
// work-item generator's dividers). A 5 x 3 NDRange in 2 x 2 groups: the last group of each
// dimension is smaller. Expected values by python3, for work-item (x, y) at n = x + 5 y:
//   out[6 n ..] = gid[d], lid[d] = gid[d] mod L[d], group = gid[d] / L[d],
//                 local size min(L[d], G[d] - group L[d]), groups ceil(G[d] / L[d]), G[d]
// with G = (5, 3, 1), L = (2, 2, 1); for d = 7: 0 0 0 1 1 1.

kernel void dyn_dim(global uint *out, uint d) {
  size_t n = get_global_id(0) + 5 * get_global_id(1);
  global uint *o = out + 6 * n;
  o[0] = get_global_id(d);
  o[1] = get_local_id(d);
  o[2] = get_group_id(d);
  o[3] = get_local_size(d);
  o[4] = get_num_groups(d);
  o[5] = get_global_size(d);
}
