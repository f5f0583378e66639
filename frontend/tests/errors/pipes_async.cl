kernel void k(global float *g, local float *l, read_only pipe float rp, write_only pipe int wp) {
  pipe int local_pipe; //~ ERROR pipes can only be declared as function parameters
  float v;
  int iv;
  read_pipe(wp, &iv); //~ ERROR `read_pipe` needs a `read_only` pipe
  write_pipe(wp, &v); //~ ERROR needs a pointer to the packet type `int`
  reserve_id_t r = reserve_read_pipe(rp, 4);
  read_pipe(rp, 1, 0, &v); //~ ERROR must be a `reserve_id_t`
  commit_read_pipe(rp, r);
  event_t e = async_work_group_copy(g, g, 16, 0); //~ ERROR copies between `local` and `global` memory
  event_t e2 = async_work_group_copy(l, g, 16, 0);
  wait_group_events(1, e2); //~ ERROR needs an `event_t *` list
  atomic_inc(g); //~ ERROR `atomic_inc` operates on `int` or `uint`
}
kernel void rw(read_write pipe int p) {} //~ ERROR a pipe cannot be `read_write`
