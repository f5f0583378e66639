kernel void k(global int *a) { a[0] = 1; }
/* never closed //~ ERROR unterminated comment
kernel void j(global int *a) { a[0] = 2; }
