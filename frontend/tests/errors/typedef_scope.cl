// Typedef names are block scoped; an ordinary declaration hides an outer typedef name.
typedef int T;
kernel void shadow(global int *a) {
  { typedef float F; F x = 1.0f; a[0] = (int)x; }
  F y = 2.0f; //~ ERROR `F` is not a type name here
  int T = 3;
  T z = 4; //~ ERROR `T` is not a type name here
}
