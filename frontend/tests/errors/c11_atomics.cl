// OpenCL C 2.0 atomics (6.13.11): the rules a compiler can check.
// The 64-bit atomic types need both 64-bit atomics extensions: only the base one is enabled.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

kernel void types(global atomic_long *l, //~ ERROR `atomic_long` needs the extension cl_khr_int64_extended_atomics to be enabled
                  global atomic_double *d, //~ ERROR `double` is not supported by this device
                  global atomic_int *a) {
  atomic_int mine; //~ ERROR an atomic object (`atomic_int`) cannot be in private memory
  local atomic_uint counts[4];
  atomic_init(&counts[0], 0u);
}

void by_value(atomic_int a) {} //~ ERROR an atomic object (`atomic_int`) cannot be passed by value
atomic_float returned(global atomic_float *p); //~ ERROR function `returned` cannot return `atomic_float`

kernel void operators(global atomic_int *a, global atomic_uint *u, global int *out) {
  out[0] = *a + 1; //~ ERROR an atomic object (`atomic_int`) cannot be used as a value
  a[1] = 5; //~ ERROR `=` cannot be applied to an atomic object (`atomic_int`)
  a[2] += 1; //~ ERROR `+=` cannot be applied to an atomic object (`atomic_int`)
  (*u)++; //~ ERROR `++` cannot be applied to an atomic object (`atomic_uint`)
  int x = a[3]; //~ ERROR cannot convert `atomic_int` to `int` in initialisation
  out[1] = a[4] ? 1 : 2; //~ ERROR an atomic object (`atomic_int`) cannot be used as a value
  out[2] = atomic_load(a);
  out[3] = atomic_fetch_add(a, a[5]); //~ ERROR an atomic object (`atomic_int`) cannot be used as a value
}

kernel void objects(global int *plain, global atomic_float *f, global atomic_flag *fl,
                    constant atomic_int *c, global const atomic_int *ro) {
  atomic_fetch_add(plain, 1); //~ ERROR `atomic_fetch_add` needs a pointer to an atomic type, not `global int *`
  atomic_fetch_add(f, 1.0f); //~ ERROR `atomic_fetch_add` operates on the atomic integer types
  atomic_fetch_or(fl, 1); //~ ERROR operates on the atomic integer types (`atomic_int`, `atomic_uint`, `atomic_long`, `atomic_ulong`), not `atomic_flag`
  atomic_store(fl, 1); //~ ERROR `atomic_store` operates on atomic integer and floating-point types, not `atomic_flag`
  atomic_flag_clear(f); //~ ERROR `atomic_flag_clear` operates on `atomic_flag`, not `atomic_float`
  atomic_load(c); //~ ERROR `atomic_load` on an atomic object in `constant` memory
  atomic_store(ro, 1); //~ ERROR `atomic_store` cannot modify read-only (`const`) memory
  int v = atomic_load(ro);
  atomic_exchange(*f, 1.0f); //~ ERROR `atomic_exchange` takes a pointer to the atomic object, not the `atomic_float` itself
  atomic_fetch_add(f); //~ ERROR `atomic_fetch_add` takes 2 arguments but 1 was given
  atomic_load_explicit(f); //~ ERROR `atomic_load_explicit` takes 2 or 3 arguments but 1 was given
}

void helper(atomic_int *generic_ok) { atomic_fetch_add(generic_ok, 1); }

kernel void private_memory(global int *out) {
  int x = 0;
  atomic_fetch_add((private atomic_int *)&x, 1); //~ ERROR `atomic_fetch_add` on an atomic object in `private` memory
  helper((atomic_int *)&x);
  out[0] = x;
}

kernel void orders(global atomic_int *a, global atomic_flag *fl, int runtime_order) {
  int e = 0;
  atomic_load_explicit(a, memory_order_release); //~ ERROR `atomic_load_explicit` cannot use `memory_order_release`
  atomic_load_explicit(a, memory_order_acq_rel, memory_scope_device); //~ ERROR `atomic_load_explicit` cannot use `memory_order_acq_rel`
  atomic_store_explicit(a, 1, memory_order_acquire); //~ ERROR `atomic_store_explicit` cannot use `memory_order_acquire`
  atomic_flag_clear_explicit(fl, memory_order_acq_rel); //~ ERROR `atomic_flag_clear_explicit` cannot use `memory_order_acq_rel`
  atomic_compare_exchange_strong_explicit(a, &e, 1, memory_order_seq_cst, memory_order_release); //~ ERROR cannot use `memory_order_release`
  atomic_compare_exchange_weak_explicit(a, &e, 1, memory_order_relaxed, memory_order_acquire); //~ ERROR the failure order `memory_order_acquire` of `atomic_compare_exchange_weak_explicit` is stronger than its success order `memory_order_relaxed`
  atomic_compare_exchange_weak_explicit(a, &e, 1, memory_order_release, memory_order_acquire); //~ ERROR is stronger than its success order `memory_order_release`
  atomic_compare_exchange_strong_explicit(a, &e, 1, memory_order_acq_rel, memory_order_acquire);
  atomic_fetch_add_explicit(a, 1, runtime_order); //~ ERROR the memory order of `atomic_fetch_add_explicit` must be a constant
  atomic_fetch_add_explicit(a, 1, 1); //~ ERROR `1` is not a memory order
  atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_work_item); //~ ERROR `atomic_fetch_add_explicit` cannot use `memory_scope_work_item`
  atomic_fetch_add_explicit(a, 1, memory_order_relaxed, 9); //~ ERROR `9` is not a memory scope
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_item); //~ ERROR `memory_scope_work_item` needs the flags `CLK_IMAGE_MEM_FENCE` alone
  atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_relaxed, memory_scope_work_group);
  atomic_compare_exchange_strong(a, (constant int *)0, 1); //~ ERROR the `expected` argument of `atomic_compare_exchange_strong` must be a writable pointer to `int`
  atomic_compare_exchange_strong(a, &e, 1, 2); //~ ERROR `atomic_compare_exchange_strong` takes 3 arguments but 4 were given
}

kernel void legacy(global atomic_int *a, global long *w) {
  atomic_add(a, 1); //~ ERROR `atomic_add` operates on `int` or `uint`, not `atomic_int`
  atom_add(w, 1); // 64-bit `atom_*`: the device has cl_khr_int64_base_atomics (as clang, no pragma needed)
}
