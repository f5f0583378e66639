kernel void k(global int *a, global const int *b, int4 v, float4 f) {
  int x = undefined_var; //~ ERROR use of undeclared identifier `undefined_var`
  b[0] = 1; //~ ERROR cannot assign through a pointer to `const`
  const int c = 3;
  c = 4; //~ ERROR cannot assign to `c` because it is declared `const`
  a = 5; //~ ERROR cannot convert `int` to `global int *`
  v = f; //~ ERROR cannot convert `float4` to `int4`
  int4 w = v + f; //~ ERROR different vector types
  float r = 1.5f % 2.0f; //~ ERROR `%` needs integer operands
  a[0] = v; //~ ERROR cannot convert `int4` to `int`
  x.y = 1; //~ ERROR which has no fields
  f.q = 1.0f; //~ ERROR invalid component `.q`
  3 = x; //~ ERROR is not assignable
}
