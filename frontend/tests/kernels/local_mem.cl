#define WG 64
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce(__global const int *in, __global int *out, __global volatile int *total) {
  __local int scratch[WG];
  uint lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  }
  if (lid == 0) {
    out[get_group_id(0)] = scratch[0];
    atomic_add(total, scratch[0]);
  }
}
