/*!
[config]
dimensions: 1

[test]
name: bytes at odd offsets, both directions
kernel_name: bytes
global_size: 16 1 1
local_size: 16 1 1
arg_in: 0 buffer uchar[20] 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29
arg_out: 1 buffer uchar[16] 238 14 15 16 17 18 19 20 21 22 23 24 25 26 238 238
arg_in: 2 buffer uchar[16] 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
arg_out: 2 buffer uchar[16] 0 0 0 0 0 14 15 16 17 18 19 20 0 0 0 0

[test]
name: 128-byte vector elements, global to local
kernel_name: wide_in
global_size: 4 1 1
local_size: 2 1 1
arg_in: 0 buffer ulong16[4] 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 200 201 202 203 204 205 206 207 208 209 210 211 212 213 214 215 300 301 302 303 304 305 306 307 308 309 310 311 312 313 314 315
arg_out: 1 buffer ulong16[4] 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 300 301 302 303 304 305 306 307 308 309 310 311 312 313 314 315 201 202 203 204 205 206 207 208 209 210 211 212 213 214 215 216

[test]
name: 128-byte vector elements, local to global
kernel_name: wide_out
global_size: 4 1 1
local_size: 2 1 1
arg_in: 0 buffer ulong16[4] 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 200 201 202 203 204 205 206 207 208 209 210 211 212 213 214 215 300 301 302 303 304 305 306 307 308 309 310 311 312 313 314 315
arg_out: 1 buffer ulong16[4] 0 2 4 6 8 10 12 14 16 18 20 22 24 26 28 30 200 202 204 206 208 210 212 214 216 218 220 222 224 226 228 230 400 402 404 406 408 410 412 414 416 418 420 422 424 426 428 430 600 602 604 606 608 610 612 614 616 618 620 622 624 626 628 630

[test]
name: 128-byte struct elements
kernel_name: big_structs
global_size: 4 1 1
local_size: 2 1 1
arg_in: 0 buffer uint[128] 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 1056964608 1 1000 1001 1002 1003 1004 1005 1006 1007 1008 1009 1010 1011 1012 1013 1014 1015 1016 1017 1018 1019 1020 1021 1022 1023 1024 1025 1026 1027 1028 1029 1069547520 8 2000 2001 2002 2003 2004 2005 2006 2007 2008 2009 2010 2011 2012 2013 2014 2015 2016 2017 2018 2019 2020 2021 2022 2023 2024 2025 2026 2027 2028 2029 1075838976 15 3000 3001 3002 3003 3004 3005 3006 3007 3008 3009 3010 3011 3012 3013 3014 3015 3016 3017 3018 3019 3020 3021 3022 3023 3024 3025 3026 3027 3028 3029 1080033280 22
arg_out: 1 buffer uint[4] 1001 16 3017 2032
!*/

// corpus-sim sdram: --memory sdram
// Async copies of the smallest and the largest elements OpenCL C has (1 and 128 bytes), at
// addresses that are not aligned to the bus. Expected values by hand (a Python transcription
// of these lines):
//   bytes: in[i] = 10 + i; 13 bytes from in + 3 go to t[1..13] (t[m] = in[m + 2]); item l
//     writes t[l] + 1 for l in 1..13 (13 + l), 238 elsewhere; then t[2..8] go to out2[5..11]
//     (in[4..10] = 14..20), the rest of out2 stays 0.
//   wide_in: lane k of element e is 100 e + k; group g copies elements 2g, 2g + 1 to v; item
//     l writes v[(l + 1) & 1] + l: element 2g + 1, then element 2g plus one in every lane.
//   wide_out: item l writes in[gid] * 2 to v[l]; the group copies v to out + 2g.
//   big_structs: Big {uint a[30]; float f; uint tag;} (128 bytes), record e has a[j] =
//     1000 e + j, f = e + 0.5, tag = 7 e + 1; group g copies records 2g, 2g + 1 to b; item l
//     writes b[1 - l].a[7 l] + b[l].tag + (uint)b[l].f: [1001, 16, 3017, 2032].

typedef struct {
  uint a[30];
  float f;
  uint tag;
} Big;

kernel void bytes(global const uchar *in, global uchar *out, global uchar *out2) {
  local uchar t[16];
  event_t e = async_work_group_copy(t + 1, in + 3, 13, 0);
  wait_group_events(1, &e);
  int l = get_local_id(0);
  out[l] = (l >= 1 && l <= 13) ? (uchar)(t[l] + 1) : (uchar)238;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t f = async_work_group_copy(out2 + 5, t + 2, 7, 0);
  wait_group_events(1, &f);
}

kernel void wide_in(global const ulong16 *in, global ulong16 *out) {
  local ulong16 v[2];
  event_t e = async_work_group_copy(v, in + get_group_id(0) * 2, 2, 0);
  wait_group_events(1, &e);
  int l = get_local_id(0);
  out[get_global_id(0)] = v[(l + 1) & 1] + (ulong16)(l);
}

kernel void wide_out(global const ulong16 *in, global ulong16 *out) {
  local ulong16 v[2];
  v[get_local_id(0)] = in[get_global_id(0)] * (ulong16)(2);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out + get_group_id(0) * 2, v, 2, 0);
  wait_group_events(1, &e);
}

kernel void big_structs(global const Big *in, global uint *out) {
  local Big b[2];
  event_t e = async_work_group_copy(b, in + get_group_id(0) * 2, 2, 0);
  wait_group_events(1, &e);
  int l = get_local_id(0);
  out[get_global_id(0)] = b[1 - l].a[7 * l] + b[l].tag + (uint)b[l].f;
}
