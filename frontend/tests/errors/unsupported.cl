kernel void img(read_only image2d_t im) {} //~ ERROR images are not supported on FPGAs

int fact(int n) {
  return n <= 1 ? 1 : n * fact(n - 1); //~ ERROR recursive call of `fact` is not supported on FPGAs
}

kernel void k(global int *a, sampler_t s) { //~ ERROR samplers are not supported on FPGAs
  int (*fp)(int) = 0; //~ ERROR function pointers are not supported on FPGAs
  printf("hello %d\n", a[0]); //~ ERROR `printf` is not supported on FPGAs
  a[0] = fact(3);
  goto end; //~ ERROR `goto` and labels are not supported on FPGAs
}

kernel void q(global int *a, queue_t qu) {} //~ ERROR device-side enqueue is not supported on FPGAs

kernel void more(global int *a, global atomic_int *ai) { //~ ERROR C11 atomic types are not supported on FPGAs
  static int counter = 0; //~ ERROR `static` local variables are not supported on FPGAs
  a[0] = work_group_reduce_add(a[1]); //~ ERROR work-group and sub-group collective functions are not supported on FPGAs
  a[1] = atomic_fetch_add(a, 1); //~ ERROR C11-style atomics are not supported on FPGAs
  half h; //~ ERROR cannot have type `half`
  a[2] = "text"[0]; //~ ERROR string literals are not supported on FPGAs
}
