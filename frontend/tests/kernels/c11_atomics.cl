// Every OpenCL C 2.0 atomic form (6.13.11): the AST snapshot `c11_atomics_ast` shows what
// each becomes.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

global atomic_int total = ATOMIC_VAR_INIT(42);
global atomic_flag guard = ATOMIC_FLAG_INIT;
global atomic_uint table[2] = {1, 2};

typedef struct {
    atomic_uint hits;
    int tag;
} slot_t;

uint bump(atomic_uint *p) { return atomic_fetch_add(p, 1u); }

kernel void every_form(global atomic_int *a, global atomic_uint *u, global atomic_long *l,
                       global atomic_ulong *ul, global atomic_float *f, global atomic_flag *fl,
                       global atomic_size_t *sz, global atomic_intptr_t *ip, global slot_t *slots,
                       global int *out)
{
    local atomic_uint counts[4];
    local atomic_int lone;
    if (get_local_id(0) < 4)
        atomic_init(&counts[get_local_id(0)], 0u);
    if (get_local_id(0) == 0)
        atomic_init(&lone, -1);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    int expected = 3;
    float fe = 0.0f;
    out[0] = atomic_load(a);
    out[1] = atomic_load_explicit(a, memory_order_acquire);
    out[2] = atomic_load_explicit(a, memory_order_relaxed, memory_scope_work_group);
    atomic_store(a, 1);
    atomic_store_explicit(a, 2, memory_order_release, memory_scope_device);
    out[3] = atomic_exchange(a, 3);
    out[4] = as_int(atomic_exchange_explicit(f, 2.5f, memory_order_acq_rel));
    out[5] = atomic_compare_exchange_strong(a, &expected, 4);
    out[6] = atomic_compare_exchange_weak_explicit(a, &expected, 5, memory_order_seq_cst,
                                                   memory_order_acquire, memory_scope_all_svm_devices);
    out[7] = atomic_compare_exchange_strong(f, &fe, -0.0f);
    out[8] = atomic_fetch_add(a, 1) + atomic_fetch_sub(a, 1) + atomic_fetch_or(a, 8)
             + atomic_fetch_xor(a, 8) + atomic_fetch_and(a, 7) + atomic_fetch_min(a, 0)
             + atomic_fetch_max_explicit(a, 9, memory_order_relaxed);
    out[9] = atomic_fetch_max(u, 0x80000000u) + atomic_fetch_min_explicit(&counts[1], 2u,
                                                   memory_order_relaxed, memory_scope_work_group);
    out[10] = (int)atomic_fetch_add(l, 1l << 40) + (int)atomic_fetch_xor(ul, ~0ul);
    out[11] = atomic_flag_test_and_set(fl);
    out[12] = atomic_flag_test_and_set_explicit(&guard, memory_order_acquire, memory_scope_device);
    atomic_flag_clear(fl);
    atomic_flag_clear_explicit(&guard, memory_order_release);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_seq_cst,
                           memory_scope_work_group);
    out[13] = atomic_fetch_add(&total, 1) + bump(&counts[2]) + bump(&table[1])
              + bump(&slots[1].hits) + atomic_fetch_add(&lone, 1);
    out[14] = atomic_fetch_add(sz, 4u) + atomic_fetch_sub(ip, 4);
    memory_order mo = memory_order_seq_cst;
    memory_scope ms = memory_scope_device;
    out[15] = mo + ms + sizeof(atomic_ulong) + sizeof(atomic_flag) + sizeof(slot_t);
}
