kernel void vadd(global const int *a, global const int *b, global int *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
kernel void saxpy(global const float *x, global float *y, float alpha, int n) {
  int i = get_global_id(0);
  if (i < n) y[i] = alpha * x[i] + y[i];
}
kernel void dot(global const int *a, global const int *b, global int *out, int n) {
  int acc = 0;
  for (int k = 0; k < n; k++) acc += a[k] * b[k];
  out[get_global_id(0)] = acc;
}
