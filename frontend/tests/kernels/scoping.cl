// Block-scoped typedefs and shadowing (clang-14 -cl-std=CL2.0 accepts this file).
typedef int T;
void f(global int *a) {
  typedef float U;
  U u = 1.5f;
  { typedef int4 U; U v = (U)(1); a[1] = v.x; }
  U w = u;
  a[0] = (int)w;
}
void g(global int *a) {
  int U = 3;          // U is an ordinary name here: the typedef above was local to f
  int T = 4;          // shadows the file-scope typedef T
  T++;
  a[0] = U + T;
  a[1] = T;
}
void h(global int *a) {
  T x = 2;            // T is a type again
  float T;            // shadows it in this block
  T = 1.0f;
  a[0] = x + (int)T;
}
kernel void typedefs(global int *a) { f(a); g(a); h(a); T t = 0; a[2] = t; }

// case labels in a block directly under the switch
kernel void switches(global int *a, int n) {
  switch (n) {
    {
      int t;
    case 1: a[0] = 1; break;
    case 2: a[0] = t;
    }
    default: a[0] = 3;
  }
  switch (n) {
    case 0: {
      int q = n * 2;
      a[1] = q;
      break;
    }
    case 1: { a[1] = 7; } break;
  }
}
