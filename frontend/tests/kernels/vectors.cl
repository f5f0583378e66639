kernel void vec_ops(global float4 *v, global int4 *m, global float *s, float k) {
  int i = get_global_id(0);
  float4 a = v[i];
  float4 b = (float4)(1.0f, 2.0f, a.xy);
  float4 c = a * k + b;
  c.xz = c.zx;
  c.s3 = dot(a, b);
  float2 lo = c.lo, hi = c.hi;
  int4 mask = a > b;
  m[i] = select(m[i], mask, mask);
  float8 w = (float8)(a, c);
  s[i] = w.s7 + lo.y + hi.x + length(c) + a[2];
  v[i] = fabs(c) + sqrt(b) + convert_float4(m[i]) + (float4)(0.5f);
  uchar4 bytes = convert_uchar4_sat(m[i]);
  s[i] += (float)bytes.w + as_float(as_int(k));
  if (any(mask)) s[i] = -s[i];
}
