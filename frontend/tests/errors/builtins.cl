kernel void k(global int *a, global float *f, read_only pipe int rp, write_only pipe int wp) {
  int x = get_global_id(); //~ ERROR `get_global_id` takes 1 argument but 0 were given
  float s = sqrt(a[0]); //~ ERROR `sqrt` needs floating-point arguments, found `int`
  int v;
  write_pipe(rp, &v); //~ ERROR `write_pipe` needs a `write_only` pipe
  read_pipe(rp, f); //~ ERROR needs a pointer to the packet type `int`
  atomic_add(f, 1); //~ ERROR `atomic_add` operates on `int` or `uint`
  float4 q = convert_float4(a[0]); //~ ERROR converts between types with the same number of components
  int y = as_int(f[0]) + as_int((char)1); //~ ERROR differ in size
  f[0] = abs(f[0]); //~ ERROR `abs` needs integer arguments
}
