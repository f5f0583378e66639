#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
kernel void stage(global const float4 *src, global float4 *dst, counter32_t hits) {
  local float4 tile[16];
  event_t e = async_work_group_copy(tile, src + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  uint id = get_local_id(0);
  dst[get_global_id(0)] = tile[id] * 2.0f;
  if (tile[id].x > 0.0f) atomic_inc(hits);
  event_t e2 = async_work_group_strided_copy(dst, tile, 16, 1, 0);
  wait_group_events(1, &e2);
}
