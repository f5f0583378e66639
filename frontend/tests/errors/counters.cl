// cl_ext_atomic_counters_32/64: counters are only arguments, only used by atomic_inc/atomic_dec,
// and one kernel may not both increment and decrement the same counter.
#pragma OPENCL EXTENSION cl_ext_atomic_counters_64 : enable
counter64_t program_scope_counter; //~ ERROR `counter64_t` cannot be declared at program scope

struct WithCounter {
  counter32_t c; //~ ERROR a struct or union field cannot have type `counter32_t`
};

counter64_t returns_counter(counter64_t c) { //~ ERROR function `returns_counter` cannot return `counter64_t`
  return c;
}

void up(counter64_t c) { atomic_inc(c); }
void down(counter64_t c) { atomic_dec(c); }
void via(counter64_t c) { down(c); }

kernel void both_direct(counter64_t c) {
  atomic_inc(c);
  atomic_dec(c); //~ ERROR counter `c` is both incremented and decremented in kernel `both_direct`
}

kernel void both_through_helpers(counter64_t c, counter64_t other) {
  up(c);
  via(c); //~ ERROR counter `c` is both incremented and decremented in kernel `both_through_helpers`
  atomic_dec(other);
}

kernel void separate_counters_are_fine(counter64_t a, counter64_t b) {
  up(a);
  down(b);
}

kernel void misuse(global ulong *out, counter64_t c, counter32_t c32) {
  counter64_t local_copy; //~ ERROR atomic counters can only be function parameters
  out[0] = c + 1; //~ ERROR an atomic counter cannot be an operand of `+`
  c = c; //~ ERROR counter
  out[1] = atomic_add(c, 2); //~ ERROR `atomic_add` is not defined for atomic counters
  if (c) {} //~ ERROR counter
  out[2] = atomic_inc(c32);
  out[3] = atomic_inc(c);
}
