kernel void producer(global const float *src, write_only pipe float out_pipe) {
  int gid = get_global_id(0);
  reserve_id_t res_id = reserve_write_pipe(out_pipe, 1);
  float v = src[gid];
  if (is_valid_reserve_id(res_id)) {
    if (write_pipe(out_pipe, res_id, 0, &v) != 0)
      return;
    commit_write_pipe(out_pipe, res_id);
  }
}

kernel void consumer(global float *dst, read_only pipe float in_pipe) {
  int gid = get_global_id(0);
  float v;
  if (read_pipe(in_pipe, &v) == 0)
    dst[gid] = v;
  dst[0] = (float)get_pipe_num_packets(in_pipe);
}
