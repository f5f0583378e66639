// Asynchronous copies (OpenCL C 6.15.10): local <-> global, matching element types, events.
kernel void event_param(global int *g, event_t e) {} //~ ERROR kernel arguments cannot be of type `event_t`

kernel void k(global int *g, local int *l, global float *gf, local float *lf, constant int *c,
              global int4 *g4, local int4 *l4) {
  private int p[16];
  event_t e1 = async_work_group_copy(g, g, 16, 0); //~ ERROR copies between `local` and `global` memory
  event_t e2 = async_work_group_copy(l, l, 16, 0); //~ ERROR copies between `local` and `global` memory
  event_t e3 = async_work_group_copy(p, g, 16, 0); //~ ERROR copies between `local` and `global` memory
  event_t e4 = async_work_group_copy(l, gf, 16, 0); //~ ERROR have different element types
  event_t e5 = async_work_group_copy(lf, g, 16, 0); //~ ERROR have different element types
  event_t e6 = async_work_group_copy(c, l, 16, 0); //~ ERROR not from `local` to `constant`
  event_t e7 = async_work_group_copy(l, g, 16); //~ ERROR takes 4 arguments but 3 were given
  event_t e8 = async_work_group_copy(l, g, 16, 5); //~ ERROR must be an `event_t` (or 0)
  event_t e9 = async_work_group_strided_copy(l, g, 16, 0); //~ ERROR takes 5 arguments but 4 were given
  event_t ok1 = async_work_group_copy(l, c, 16, 0);
  event_t ok2 = async_work_group_strided_copy(g4, l4, 4, 2, ok1);
  event_t ok3 = async_work_group_copy(lf, gf, 16, 0);
  wait_group_events(1, &ok2);
  wait_group_events(1, &ok3);
  wait_group_events(1, ok3); //~ ERROR needs an `event_t *` list
  wait_group_events(&ok3); //~ ERROR takes 2 arguments but 1 was given
  int n = ok3; //~ ERROR cannot convert `event_t` to `int`
  prefetch(l, 4); //~ ERROR `prefetch` needs a `global` pointer
  prefetch(g, 4);
}
