kernel void k(global int *a) {
  int x = 1 //~ ERROR expected
  a[0] = x;
  a[1] = (x + ; //~ ERROR unexpected `;`
}

kernel void j(global int *a) {
  a[0] = 0x1g; //~ ERROR invalid suffix `g` on integer literal
  a[1] = 'ab'; //~ ERROR multi-character character literals are not supported
}
