// Attributes with a typed meaning: argument shapes, values and places.

// ---- pipe depths
pipe int p0 __attribute__((xcl_reqd_pipe_depth(0))); //~ ERROR `xcl_reqd_pipe_depth` must be positive, not 0
pipe int p1 __attribute__((xcl_reqd_pipe_depth)); //~ ERROR `xcl_reqd_pipe_depth` needs an argument
pipe int p2 __attribute__((xcl_reqd_pipe_depth(4, 4))); //~ ERROR `xcl_reqd_pipe_depth` takes one argument, not 2
pipe int p3 __attribute__((xcl_reqd_pipe_depth(-2))); //~ ERROR `xcl_reqd_pipe_depth` must be positive, not -2
pipe int p4 __attribute__((xcl_reqd_pipe_depth(deep))); //~ ERROR the argument of `xcl_reqd_pipe_depth` must be an integer constant
pipe int p5 __attribute__((xcl_reqd_pipe_depth(1.5f))); //~ ERROR attribute argument must be an integer, not `float`
pipe int p6 __attribute__((xcl_reqd_pipe_depth(0x100000000))); //~ ERROR `xcl_reqd_pipe_depth` must be at most 4294967295
pipe int p7 __attribute__((xcl_reqd_pipe_depth(8))) __attribute__((xcl_reqd_pipe_depth(16))); //~ ERROR `xcl_reqd_pipe_depth` is given twice with different values
pipe int p8 __attribute__((xcl_reqd_pipe_depth(8))) __attribute__((depth(8)));
constant int c0 __attribute__((xcl_reqd_pipe_depth(4))) = 1; //~ WARNING `xcl_reqd_pipe_depth` applies to pipes; ignored

int n = 3;
pipe int p9 __attribute__((xcl_reqd_pipe_depth(n))); //~ ERROR attribute argument must be an integer constant expression

kernel void pipe_params(read_only pipe int a __attribute__((depth(0))), //~ ERROR `depth` must be positive, not 0
                        write_only pipe int b __attribute__((blocking(1))), //~ ERROR `blocking` takes no arguments
                        global int *g __attribute__((blocking)), //~ WARNING `blocking` applies to pipe parameters; ignored
                        global int *h __attribute__((xcl_reqd_pipe_depth(4)))) { //~ WARNING `xcl_reqd_pipe_depth` applies to pipes; ignored
  int v;
  g[0] = read_pipe(a, &v) + write_pipe(b, &v);
  h[0] = v;
}

// ---- local memory sizes
kernel void local_sizes(local int *a __attribute__((local_mem_size(0))), //~ ERROR `local_mem_size` must be positive, not 0
                        local int *b __attribute__((local_mem_size)), //~ ERROR `local_mem_size` needs an argument
                        global int *c __attribute__((local_mem_size(64)))) { //~ WARNING `local_mem_size` applies to `local` pointer parameters of kernels; ignored
  c[0] = a[0] + b[0];
}

void helper(local int *a __attribute__((local_mem_size(64)))) { a[0] = 1; } //~ WARNING `local_mem_size` applies to `local` pointer parameters of kernels; ignored

// ---- work-group sizes
kernel __attribute__((reqd_work_group_size(0, 1, 1))) void zero_size(global int *a) {} //~ ERROR `reqd_work_group_size` needs three positive integer constants
kernel __attribute__((reqd_work_group_size(4, 1))) void two_sizes(global int *a) {} //~ ERROR `reqd_work_group_size` needs three positive integer constants
kernel __attribute__((reqd_work_group_size(n, 1, 1))) void non_constant(global int *a) {} //~ ERROR attribute argument must be an integer constant expression
kernel __attribute__((reqd_work_group_size(4, 1, 1))) __attribute__((reqd_work_group_size(8, 1, 1))) void twice(global int *a) {} //~ ERROR `reqd_work_group_size` is given twice with different values
kernel __attribute__((work_group_size_hint(64))) void hint(global int *a) {} //~ ERROR `work_group_size_hint` needs three positive integer constants
kernel __attribute__((xcl_max_work_group_size(0))) void xmax(global int *a) {} //~ ERROR `xcl_max_work_group_size` needs three positive integer constants
kernel __attribute__((max_global_work_dim(4))) void dims(global int *a) {} //~ ERROR `max_global_work_dim` must be at most 3, not 4
__kernel_exec(0, float4) void exec_zero(global int *a) {} //~ ERROR `work_group_size_hint` needs three positive integer constants
__attribute__((vec_type_hint(float4))) void not_kernel(global int *a) {} //~ WARNING `vec_type_hint` applies to kernel functions; ignored
kernel __attribute__((xcl_reqd_pipe_depth(4))) void on_function(global int *a) {} //~ WARNING `xcl_reqd_pipe_depth` applies to pipes; ignored

// ---- loops
kernel void loops(global int *a) {
  __attribute__((opencl_unroll_hint(0))) //~ ERROR `opencl_unroll_hint` takes an optional positive integer
  for (int i = 0; i < 4; i++) a[i] = 0;
  __attribute__((opencl_unroll_hint(-1))) //~ ERROR `opencl_unroll_hint` takes an optional positive integer
  for (int i = 0; i < 4; i++) a[i] = 0;
  __attribute__((opencl_unroll_hint(n))) //~ ERROR attribute argument must be an integer constant expression
  for (int i = 0; i < 4; i++) a[i] = 0;
  __attribute__((xcl_pipeline_loop(0))) //~ ERROR `xcl_pipeline_loop` takes an optional positive integer
  for (int i = 0; i < 4; i++) a[i] = 0;
  __attribute__((xcl_loop_tripcount(8))) //~ ERROR `xcl_loop_tripcount` takes 2 or 3 arguments, not 1
  for (int i = 0; i < 4; i++) a[i] = 0;
  __attribute__((xcl_loop_tripcount(8, 4))) //~ ERROR the minimum trip count 8 of `xcl_loop_tripcount` is larger than the maximum 4
  for (int i = 0; i < 4; i++) a[i] = 0;
  __attribute__((opencl_unroll_hint(2))) __attribute__((opencl_unroll_hint(4))) //~ ERROR `opencl_unroll_hint` is given twice with different values
  for (int i = 0; i < 4; i++) a[i] = 0;
  __attribute__((reqd_work_group_size(1, 1, 1))) //~ WARNING `reqd_work_group_size` applies to kernel functions; ignored
  for (int i = 0; i < 4; i++) a[i] = 0;
  int x __attribute__((blocking)) = 1; //~ WARNING `blocking` applies to pipe parameters; ignored
  a[0] = x;
}
