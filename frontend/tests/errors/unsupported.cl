kernel void img(read_only image2d_t im) {} //~ ERROR images are not supported on FPGAs

int fact(int n) {
  return n <= 1 ? 1 : n * fact(n - 1); //~ ERROR recursive call of `fact` is not supported on FPGAs
}

kernel void k(global int *a, sampler_t s) { //~ ERROR samplers are not supported on FPGAs
  int (*fp)(int) = 0; //~ ERROR function pointers are not supported on FPGAs
  constant char *fmt = "%d\n";
  printf(fmt, a[0]); //~ ERROR the format of `printf` must be a string literal
  printf(); //~ ERROR `printf` needs a format string
  a[0] = fact(3);
  goto end; //~ ERROR `goto` and labels are not supported on FPGAs
}

kernel void q(global int *a, queue_t qu) {} //~ ERROR device-side enqueue is not supported on FPGAs

kernel void more(global int *a, global atomic_int *ai) {
  static int counter = 0; //~ ERROR `static` local variables are not supported on FPGAs
  a[0] = work_group_reduce_add(a[1]); //~ ERROR work-group and sub-group collective functions are not supported on FPGAs
  a[1] = atomic_fetch_add(a, 1); //~ ERROR `atomic_fetch_add` needs a pointer to an atomic type, not `global int *`
  half h; //~ ERROR cannot have type `half`
  a[2] = "text"[0];
}

int ping(int n);
int pong(int n) { return n ? ping(n - 1) : 0; }
int ping(int n) { return n ? pong(n - 1) : 1; } //~ ERROR recursive call of `pong` is not supported on FPGAs

kernel void enqueue(global int *a) {
  queue_t q = get_default_queue(); //~ ERROR device-side enqueue is not supported on FPGAs
  a[0] = ping(3);
}
kernel void images(read_only image1d_t i1, write_only image3d_t i3) {} //~ ERROR images are not supported on FPGAs
kernel void image_calls(global float4 *o, read_only image2d_t img) { //~ ERROR images are not supported on FPGAs
  o[0] = read_imagef(img, (int2)(0, 0)); //~ ERROR not supported on FPGAs
}
kernel void events(global int *a) {
  clk_event_t ce; //~ ERROR device-side enqueue is not supported on FPGAs
  ndrange_t nd = ndrange_1D(4); //~ ERROR device-side enqueue is not supported on FPGAs
}
