// Every pipe built-in (2- and 4-argument read/write, reservations of every scope, queries), Xilinx
// program-scope pipes and blocking reads/writes, vendor attributes, counters and async copies.
pipe int gp __attribute__((xcl_reqd_pipe_depth(16)));
typedef struct { int a; float b; } Pkt;
kernel __attribute__((max_global_work_dim(0))) __attribute__((max_work_group_size(256))) __attribute__((xcl_pipeline_workitems))
void prod(global const int *src, write_only pipe int p __attribute__((blocking)), write_only pipe Pkt q, counter64_t c, counter32_t c2) {
  int v = src[0];
  write_pipe(p, &v);
  write_pipe_block(p, &v);
  reserve_id_t r = reserve_write_pipe(p, 2);
  write_pipe(p, r, 0, &v);
  commit_write_pipe(p, r);
  reserve_id_t w = work_group_reserve_write_pipe(p, 2);
  work_group_commit_write_pipe(p, w);
  reserve_id_t s = sub_group_reserve_write_pipe(p, 2);
  sub_group_commit_write_pipe(p, s);
  uint n = get_pipe_num_packets(p) + get_pipe_max_packets(p);
  Pkt k; k.a = 1; k.b = 2.0f;
  write_pipe(q, &k);
  ulong old = atomic_inc(c);
  uint old2 = atomic_dec(c2);
  bool ok = is_valid_reserve_id(r);
  __attribute__((xcl_pipeline_loop(1)))
  for (int i = 0; i < 4; i++) { write_pipe_block(gp, &i); }
  printf("%d %f\n", v, 1.0f);
}
kernel void cons(global int *dst, read_only pipe int p, local int *l, global float *gf, local float *lf) {
  int v;
  if (read_pipe(p, &v) != 0) return;
  read_pipe_block(p, &v);
  reserve_id_t r = reserve_read_pipe(p, 2);
  if (read_pipe(p, r, 1, &v) != 0) return;
  commit_read_pipe(p, r);
  reserve_id_t w = work_group_reserve_read_pipe(p, 2);
  work_group_commit_read_pipe(p, w);
  reserve_id_t s = sub_group_reserve_read_pipe(p, 2);
  sub_group_commit_read_pipe(p, s);
  event_t e = async_work_group_copy(l, dst, 4, 0);
  event_t e2 = async_work_group_strided_copy(dst, l, 4, 2, e);
  event_t e3 = async_work_group_copy(lf, gf, 4, 0);
  event_t ev[2] = {e2, e3};
  wait_group_events(2, ev);
  prefetch(dst, 4);
  read_pipe_block(gp, &v);
  dst[0] = v;
}
