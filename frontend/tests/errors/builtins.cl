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
  short u1 = upsample((char)1, (char)2); //~ ERROR `upsample` is not defined for `char` and `char`
  long u2 = upsample(1L, 2UL); //~ ERROR `upsample` is not defined for `long` and `ulong`
  int2 u3 = upsample((short2)(1, 2), (ushort4)(3)); //~ ERROR `upsample` is not defined for `short2` and `ushort4`
  int u4 = upsample((short)1, (ushort)2) + upsample((short)1, 2);
  float ip;
  int ie;
  float4 ip4;
  float fr = fract(f[0], &ie); //~ ERROR the second argument of `fract` must be a pointer to writable `float`, not `private int *`
  float fe = frexp(f[0], &ip); //~ ERROR the second argument of `frexp` must be a pointer to writable `int`
  float4 f4 = fract((float4)(f[0]), &ip); //~ ERROR must be a pointer to writable `float4`
  float fm = modf(f[0], (const float *)&ip); //~ ERROR must be a pointer to writable `float`
  int il = ilogb(a[0]); //~ ERROR `ilogb` needs floating-point arguments
  float ok = fract(f[0], &ip) + modf(f[1], f + 2) + frexp(f[3], &ie) + nextafter(f[0], 1.0f);
  int4 ok4 = ilogb((float4)(f[0])) + FP_ILOGB0 + FP_ILOGBNAN;
  float4 ok5 = fract((float4)(f[0]), &ip4) + maxmag((float4)(f[0]), 1.0f) + minmag(f[0], f[1]);
  float sc = sincos(f[0], &ie); //~ ERROR the second argument of `sincos` must be a pointer to writable `float`, not `private int *`
  float4 sc4 = sincos((float4)(f[0]), &ip); //~ ERROR the second argument of `sincos` must be a pointer to writable `float4`
  float rq = remquo(f[0], f[1], &ip); //~ ERROR the third argument of `remquo` must be a pointer to writable `int`, not `private float *`
  float rq2 = remquo(f[0], f[1]); //~ ERROR `remquo` takes 3 arguments but 2 were given
  float rq3 = remquo(f[0], f[1], (const int *)&ie); //~ ERROR the third argument of `remquo` must be a pointer to writable `int`
  float4 rq4 = remquo((float4)(f[0]), 1.0f, &ie); //~ ERROR must be a pointer to writable `int4`
  float ap = asinpi(a[0]); //~ ERROR `asinpi` needs floating-point arguments, found `int`
  local int lq;
  local float lc;
  int4 iq4;
  float ok6 = sincos(f[0], &ip) + sincos(f[1], f + 3) + sincos(f[2], &lc) + remquo(f[0], 2.0f, &ie)
            + remquo(f[1], f[2], a + 1) + remquo(f[1], f[2], &lq) + asinpi(f[0]) + acospi(0.5f)
            + atanpi(f[1]) + atan2pi(f[0], 1.0f);
  float4 ok7 = sincos((float4)(f[0]), &ip4) + remquo((float4)(f[0]), 1.0f, &iq4);
  float lr = lgamma_r(f[0], &ip); //~ ERROR the second argument of `lgamma_r` must be a pointer to writable `int`, not `private float *`
  float ok8 = tgamma(f[0]) + lgamma(f[1]) + lgamma_r(f[2], &ie) + lgamma_r(f[3], a + 2);
  float4 ok9 = lgamma_r((float4)(f[0]), &iq4) + tgamma((float4)(f[1]));
}

struct S { int a; };
kernel void compound(global int *a) {
  int *p = (int[]){1, 2}; //~ ERROR compound literals of array type are not supported
  int *q = &(int){3}; //~ ERROR cannot take the address of a value that is not an lvalue
  a[0] = (struct S){1, 2}.a; //~ WARNING excess elements in struct initialiser
  a[1] = (int2){1, 2, 3}.x; //~ ERROR too many components
  a[2] = (struct S){4}.a + (int4){1, 2}.w + (int){5} + (struct S){}.a;
}
