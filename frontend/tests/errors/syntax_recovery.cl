// Syntax errors in several functions are all reported; each function recovers.
kernel void k(global int *a) {
  int x = 1 //~ ERROR expected `;`
  a[0] = x;
  for (int i = 0; i < 4; i++ { //~ ERROR expected `)`
    a[i] = i;
  }
  a[1] = 2;
}

kernel void j(global int *a) {
  a[0] = = 3; //~ ERROR unexpected `=`
  a[1] = 4;
}

kernel void m(global int *a) {
  a[0] = (1 + 2; //~ ERROR expected `)`
}

// a type error in a function that parsed cleanly is still reported
kernel void n(global int *a, float4 f) {
  a[0] = f; //~ ERROR cannot convert `float4` to `int`
}
