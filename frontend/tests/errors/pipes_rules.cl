// OpenCL C 2.0 rules for pipes, reservation ids and events (6.13.16, 6.15.10).
event_t program_event; //~ ERROR `event_t` cannot be declared at program scope
reserve_id_t program_reservation; //~ ERROR `reserve_id_t` cannot be declared at program scope
pipe int program_pipe; //~ ERROR pipes can only be declared as function parameters

struct WithEvent {
  event_t e; //~ ERROR a struct or union field cannot have type `event_t`
};
struct WithPipe {
  read_only pipe int p; //~ ERROR pipes can only be declared as function parameters
};

pipe int returns_pipe(void); //~ ERROR pipes can only be declared as function parameters

kernel void event_param(event_t e) {} //~ ERROR kernel arguments cannot be of type `event_t`
kernel void reserve_param(reserve_id_t r) {} //~ ERROR kernel arguments cannot be of type `reserve_id_t`
kernel void rw(read_write pipe int p) {} //~ ERROR a pipe cannot be `read_write`
kernel void pipe_pointer(read_only pipe int *pp) {} //~ ERROR pipe

kernel void uses(global int *out, read_only pipe int in, write_only pipe int o, read_only pipe float fin) {
  local read_only pipe int lp; //~ ERROR pipes can only be declared as function parameters
  read_only pipe int arr[2]; //~ ERROR pipes can only be declared as function parameters
  int v;
  float f;
  reserve_id_t a = reserve_read_pipe(in, 1);
  reserve_id_t b = reserve_read_pipe(in, 1);
  out[0] = a == b; //~ ERROR reservation ids cannot be compared
  int x = a; //~ ERROR cannot convert `reserve_id_t` to `int`
  reserve_id_t z = 0; //~ ERROR cannot convert `int` to `reserve_id_t`
  in = in; //~ ERROR pipe
  out[1] = in + 1; //~ ERROR invalid operands to `+`
  read_pipe(in); //~ ERROR `read_pipe` takes 2 or 4 arguments but 1 was given
  read_pipe(in, &v, &v); //~ ERROR `read_pipe` takes 2 or 4 arguments but 3 were given
  read_pipe(out, &v); //~ ERROR the first argument of `read_pipe` must be a pipe
  write_pipe(in, &v); //~ ERROR `write_pipe` needs a `write_only` pipe
  read_pipe(o, &v); //~ ERROR `read_pipe` needs a `read_only` pipe
  read_pipe(fin, &v); //~ ERROR needs a pointer to the packet type `float`
  read_pipe(in, 3, 0, &v); //~ ERROR must be a `reserve_id_t`
  commit_read_pipe(in, 5); //~ ERROR `reserve_id_t`
  reserve_write_pipe(in, 1); //~ ERROR `reserve_write_pipe` needs a `write_only` pipe
  commit_write_pipe(o, a);
  is_valid_reserve_id(3); //~ ERROR `reserve_id_t`
  out[2] = get_pipe_num_packets(out); //~ ERROR must be a pipe
  read_pipe_block(o, &v); //~ ERROR `read_pipe_block` needs a `read_only` pipe
  write_pipe_block(o, &f); //~ ERROR needs a pointer to the packet type `int`
  commit_read_pipe(in, a);
  commit_read_pipe(in, b);
}
