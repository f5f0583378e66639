// Ordinary C errors, each reported (all of them, not only the first).
struct S { int a; };
int twice(int x) { return 2 * x; }
int twice(int y) { return y; } //~ ERROR redefinition of function `twice`
float f2(float a, float b) { return a + b; }

kernel void k(global int *a, global float *f, int n) {
  int x = 1;
  int x = 2; //~ ERROR redefinition of `x`
  struct S s;
  s.b = 1; //~ ERROR no field `b`
  x + 1 = 3; //~ ERROR is not assignable
  twice(1) = 2; //~ ERROR is not assignable
  (x, x) = 4; //~ ERROR is not assignable
  a[0] = twice(f); //~ ERROR cannot convert `global float *` to `int`
  a[1] = f2(1.0f); //~ ERROR takes 2 arguments but 1 was given
  a[2] = twice(s); //~ ERROR cannot convert `struct S` to `int`
  float4 v = (float4)(1.0f, 2.0f); //~ ERROR vector literal of `float4` has 2 components, expected 4
  float2 w = v.xyz; //~ ERROR cannot convert `float3` to `float2`
  v.xx = w; //~ ERROR cannot assign to a swizzle that repeats a component
  float q = v.s9; //~ ERROR invalid component `.s9` of `float4`
  int arr[x]; //~ ERROR array size must be an integer constant expression
  int neg[-1]; //~ ERROR array size must be positive
  a[3] = sizeof(void); //~ ERROR `sizeof` of `void`
  a = f; //~ ERROR cannot convert `global float *` to `global int *`
  undeclared_fn(); //~ ERROR call to undeclared function `undeclared_fn`
  a[4] = y; //~ ERROR use of undeclared identifier `y`
}
