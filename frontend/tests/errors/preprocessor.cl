#define F(a, b) ((a) + (b))
#include "does_not_exist.h" //~ ERROR cannot find include file `does_not_exist.h`
#if 1 + //~ ERROR expected a value at the end of the preprocessor expression
#endif
#bogus //~ ERROR unknown preprocessor directive `#bogus`
#pragma weird_vendor_thing //~ WARNING unknown pragma `weird_vendor_thing` ignored
#error stop here //~ ERROR #error stop here
kernel void k(global int *a) {
  a[0] = F(1); //~ ERROR macro `F` takes 2 arguments but 1 were given
}
#ifdef X //~ ERROR unterminated conditional directive
