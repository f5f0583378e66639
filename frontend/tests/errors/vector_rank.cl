// OpenCL C 6.3: a scalar operand may not have a greater rank than the vector's element type.
kernel void k(global int *o, int i, float f, long l, uint u) {
  int4 iv = (int4)(1);
  char4 cv = (char4)(1);
  float4 fv = (float4)(1.0f);
  iv = iv + 1.5f; //~ ERROR the scalar operand `float` has a greater rank than the element type of the vector `int4`
  iv = iv * f; //~ ERROR the scalar operand `float` has a greater rank
  cv = cv + i; //~ ERROR the scalar operand `int` has a greater rank than the element type of the vector `char4`
  cv = cv + 1; //~ ERROR the scalar operand `int` has a greater rank
  iv = l - iv; //~ ERROR the scalar operand `long` has a greater rank
  iv = iv + u; //~ ERROR the scalar operand `uint` has a greater rank
  iv = iv + (char)1;
  cv = cv + (char)1;
  fv = fv * 2;
  fv = fv * i;
  fv = fv + l;
  o[0] = iv.x + cv.y + (int)fv.z;
}
