// Suspicious but valid uses of pipes and async copies are warnings.
kernel void k(global int *g, local int *l, read_only pipe int in, write_only pipe int out) {
  int v;
  read_pipe(in, &v); //~ WARNING result of `read_pipe` is unused
  write_pipe(out, &v);
  if (read_pipe(in, &v) == 0) g[0] = v;
  (void)read_pipe(in, &v);
  event_t e = async_work_group_copy(l, g, 16, 0); //~ WARNING event `e` of this asynchronous copy is never waited on
  async_work_group_copy(g, l, 16, 0); //~ WARNING the event of this asynchronous copy is discarded
  event_t ok = async_work_group_copy(l, g, 16, 0);
  wait_group_events(1, &ok);
  reserve_id_t r = reserve_read_pipe(in, 2); //~ WARNING reservation `r` is never committed
  if (is_valid_reserve_id(r)) read_pipe(in, r, 0, &v); //~ WARNING result of `read_pipe` is unused
  reserve_id_t c = reserve_write_pipe(out, 1);
  write_pipe(out, c, 0, &v);
  commit_write_pipe(out, c);
  read_pipe_block(in, &v);
  g[1] = v;
}
