// The work-group ordered variant from the pipes tutorial.
kernel void pipe_producer(global float *src, write_only pipe float out_pipe) {
  int gid = get_global_id(0);
  local reserve_id_t res_id;
  if (get_local_id(0) == 0)
    res_id = reserve_write_pipe(out_pipe, get_local_size(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  float src_pipe = src[gid];
  if (is_valid_reserve_id(res_id)) {
    if (write_pipe(out_pipe, res_id, get_local_id(0), &src_pipe) != 0)
      return;
    commit_write_pipe(out_pipe, res_id);
  }
}

kernel void pipe_consumer(global float *dst,
                          read_only pipe float in_pipe __attribute__((xcl_reqd_pipe_depth(32)))) {
  int gid = get_global_id(0);
  reserve_id_t res_id = work_group_reserve_read_pipe(in_pipe, get_local_size(0));
  float dst_pipe;
  if (is_valid_reserve_id(res_id)) {
    if (read_pipe(in_pipe, res_id, get_local_id(0), &dst_pipe) != 0)
      return;
    work_group_commit_read_pipe(in_pipe, res_id);
  }
  dst[gid] = dst_pipe;
}
