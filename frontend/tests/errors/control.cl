int no_value(int x) {
  if (x) return; //~ ERROR must return a value of type `int`
  return x;
}

void returns_value(void) {
  return 3; //~ ERROR returns `void` but a value is returned
}

kernel void k(global int *a, int n) {
  break; //~ ERROR `break` outside a loop or switch
  continue; //~ ERROR `continue` outside a loop
  switch (n) {
    case 1: a[0] = 1; break;
    case 1: a[0] = 2; break; //~ ERROR duplicate case value 1
  }
  if (a[0] = 1) {}
  for (int i = 0; i < n; i++) {
    int y = z; //~ ERROR use of undeclared identifier `z`
  }
  undefined_fn(n); //~ ERROR call to undeclared function `undefined_fn`
  later(n); //~ ERROR call to undeclared function `later`
  no_value(1, 2); //~ ERROR takes 1 argument but 2 were given
  int arr[n]; //~ ERROR array size must be an integer constant expression
}

void later(int n) {}

kernel void duff(global int *a, int n) {
  case 3: a[0] = 1; //~ ERROR `case` label not within a `switch` statement
  switch (n) {
    case 0:
      for (int i = 0; i < n; i++) {
        case 1: a[i] = 0; //~ ERROR `case` label nested inside another statement of a `switch` is not supported
      }
      break;
    {
      int skipped = 1;
      default: a[0] = skipped;
    }
  }
}


kernel void before_first_case(global int *a, int n) {
  switch (n) {
    {
      int t = 5; //~ WARNING statement before the first `case` label is never executed
      case 1: a[0] = t;
    }
  }
}
