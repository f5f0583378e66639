struct S { int a; int a; }; //~ ERROR duplicate field `a`
struct B { int bits : 3; }; //~ ERROR bit-fields are not supported on FPGAs
struct P { int x; };
kernel void k(global struct P *p, global int *g, local int *l, float4 v) {
  p.x = 1; //~ ERROR `.x` on a pointer
  struct P s;
  s->x = 2; //~ ERROR `->` needs a pointer to a struct
  s.nope = 3; //~ ERROR `struct P` has no field `nope`
  g = l; //~ ERROR cannot convert `local int *` to `global int *`
  private int *pr = g; //~ ERROR cannot convert `global int *` to `private int *`
  float4 w = v.xyzw.s5; //~ ERROR invalid component `.s5`
  v.xx = v.yy; //~ ERROR repeats a component
  int arr[3];
  arr = 0; //~ ERROR arrays cannot be assigned
  struct T t; //~ ERROR incomplete type `struct T`
  int x = 1;
  x = *x; //~ ERROR cannot dereference a value of type `int`
  x = v[x]; //~ ERROR a vector can only be indexed with a constant
  void *vp = g;
  x = *vp; //~ ERROR cannot dereference a `void` pointer
  float *fp = g; //~ ERROR cannot convert `global int *` to `float *`
}
struct Q { global int *p; };
kernel void k2(struct Q q) {} //~ ERROR kernel struct arguments cannot contain pointers
