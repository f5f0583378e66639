kernel int bad_ret(global int *a) { return 1; } //~ ERROR kernel `bad_ret` must return `void`

kernel void bad_ptr(int *p) {} //~ ERROR kernel pointer arguments must point to `global`, `constant` or `local` memory

kernel void bad_bool(bool flag) {} //~ ERROR kernel arguments cannot be `bool`

void helper(global int *a) {
  local int tmp[4]; //~ ERROR `local` variables can only be declared in a kernel function
}

kernel void bad_local(global int *a) {
  local int tmp[4] = { 0 }; //~ ERROR `local` variables cannot be initialised
  global int g; //~ ERROR cannot be in the `global` address space
  double d = 1.0; //~ ERROR `double` is not supported by this device
}

kernel __attribute__((reqd_work_group_size(0, 1))) void bad_attr(global int *a) {} //~ ERROR needs three positive integer constants
