// printf with a string-literal format; string literals are constant char arrays.
kernel void printer(global int *a, float4 v) {
  char c = 'x';
  printf("%d %c %v4hlf %s\n", a[0], c, v, "str");
  constant char *s = "abc";
  a[1] = sizeof("abcd") + "xyz"[1] + s[0];
}
