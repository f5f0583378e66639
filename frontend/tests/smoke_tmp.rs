use frontend::*;
fn run(src: &str) {
    let mut sm = SourceMap::new();
    let f = sm.add_file("t.cl", src);
    match compile(&mut sm, f, &Options::default()) {
        Err(d) => println!("ERR\n{}", render(&sm, &d, false)),
        Ok((p, w)) => {
            println!("OK\n{}{}", p.dump(), render(&sm, &w, false));
        }
    }
}
#[test]
fn smoke() {
    run(r#"
/*! [config] foo !*/
#define N 4
#define SQ(x) ((x)*(x))
typedef struct { int a; float b[N]; } S;
typedef unsigned int u32;
__kernel __attribute__((reqd_work_group_size(64,1,1))) void vadd(global const int *a, global const int *b, global int *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i] + SQ(2);
  S s = {1, {1.0f, 2.0f}}; u32 q = 1u;
  #pragma unroll 4
  for (int k = 0; k < N; k++) { if (k) q += k; else q -= 1; }
  float4 v = (float4)(1.0f, 2.0f, s.b[0], 3);
  v.xy = v.zw * 2.0f;
  __attribute__((opencl_unroll_hint(2))) while (q) q--;
  switch (q) { case 1: q = 2; break; default: break; }
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
"#);
}
