/*!
[config]
name: local-memory histograms, 256 bins, merged into global memory

[test]
name: 4 work-groups of 64, 8 elements each, merged with atomic_add
kernel_name: group_hist
dimensions: 1
global_size: 256 1 1
local_size: 64 1 1
arg_in:  0 buffer uint[2048] random 21
arg_in:  1 uint 8
arg_in:  2 buffer uint[256] iota 0 3
arg_out: 2 buffer uint[256] 7 11 13 15 21 25 28 25 32 33 33 45 46 44 47 50 \
    59 57 65 67 70 74 78 78 81 85 87 94 98 95 98 102 \
    100 106 107 110 113 117 124 124 126 126 132 138 140 140 147 148 \
    153 167 154 161 164 169 172 169 174 181 179 184 188 189 199 196 \
    201 203 208 207 211 212 222 223 222 230 230 232 233 238 240 247 \
    253 249 256 258 262 263 270 270 271 277 275 286 287 282 292 290 \
    291 303 303 304 305 312 317 321 320 321 330 327 332 332 341 343 \
    340 351 350 354 360 353 367 364 366 375 370 377 379 385 385 385 \
    397 401 399 403 404 410 412 418 414 419 422 423 427 430 433 438 \
    438 440 444 446 455 454 458 463 464 464 477 473 471 477 482 483 \
    487 496 498 496 500 500 503 509 511 514 520 519 521 522 531 528 \
    534 541 537 540 547 554 552 559 559 560 565 566 574 577 577 585 \
    583 591 587 591 592 596 603 602 607 612 612 615 625 623 624 630 \
    634 635 636 644 650 645 649 652 656 657 665 661 671 668 670 678 \
    675 681 688 688 691 691 698 704 704 711 716 709 716 719 730 723 \
    739 727 736 734 740 749 741 746 750 753 755 766 771 766 770 773

[test]
name: weighted, local memory as an argument, groups of 32
kernel_name: group_hist_weighted
dimensions: 1
global_size: 128 1 1
local_size: 32 1 1
arg_in:  0 buffer uint[512] random 22
arg_in:  1 uint 4
arg_in:  2 local uint[256]
arg_in:  3 buffer uint[256] repeat 0
arg_out: 3 buffer uint[256] 0 32 544 285 158 248 541 790 335 218 546 490 211 0 142 24 \
    372 48 192 223 452 183 107 683 727 473 465 255 119 0 0 21 \
    202 242 327 182 250 0 0 264 0 529 339 183 0 249 452 115 \
    13 311 886 589 154 0 0 330 245 337 0 29 484 0 208 49 \
    115 374 230 396 194 446 435 319 211 97 194 0 0 275 59 742 \
    559 183 131 245 366 56 529 247 108 395 237 25 361 137 350 845 \
    434 61 79 0 360 397 290 373 294 0 93 237 23 154 0 718 \
    134 773 209 0 153 153 705 64 155 0 741 98 73 393 152 376 \
    332 792 0 236 95 67 784 265 578 413 361 371 239 605 894 304 \
    223 24 46 452 9 287 762 245 830 97 86 0 27 775 335 198 \
    525 92 218 523 198 0 303 323 280 668 70 575 0 229 212 350 \
    0 291 364 0 248 215 226 212 234 410 337 15 93 222 389 182 \
    389 313 43 211 256 0 372 217 17 343 162 694 338 0 112 363 \
    333 0 316 96 122 74 402 526 0 363 838 211 67 0 247 372 \
    195 0 42 544 446 250 98 172 180 2 142 239 676 623 0 130 \
    152 371 160 524 468 295 0 137 110 481 210 239 99 0 623 406

[test]
name: one work-item, 600 random elements, the old values in program order
kernel_name: loop_hist
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer uint[600] random 23
arg_in:  1 uint 600
arg_out: 2 buffer uint[256] 1 0 4 3 1 0 0 1 3 6 1 2 3 1 3 1 \
    1 2 1 1 3 1 3 2 2 7 2 1 2 2 3 4 \
    4 1 1 4 3 2 0 2 3 4 3 1 9 3 3 1 \
    4 0 2 1 3 3 2 4 0 3 2 3 0 0 2 1 \
    2 5 4 4 1 1 3 2 3 1 2 3 4 2 3 3 \
    4 5 3 2 4 2 1 2 1 2 3 3 4 1 1 0 \
    4 1 1 4 2 3 3 4 5 5 0 4 5 2 3 1 \
    1 2 2 1 4 0 2 2 1 2 0 2 3 1 4 2 \
    2 6 1 1 5 5 0 3 1 1 1 6 5 3 3 2 \
    2 2 3 2 1 1 2 3 3 4 2 3 4 3 4 1 \
    2 2 2 0 2 5 3 1 4 1 3 1 1 4 2 0 \
    1 3 0 4 2 4 3 2 4 2 2 2 3 3 1 4 \
    3 4 2 1 1 0 3 2 0 4 0 1 5 3 6 3 \
    2 3 1 2 4 1 2 1 2 1 2 2 7 1 2 2 \
    2 0 2 3 3 2 2 3 2 4 6 5 2 2 1 0 \
    1 1 4 1 1 2 3 2 2 4 2 4 0 3 1 1
arg_out: 3 buffer uint[600] 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 1 0 0 1 0 1 0 0 \
    0 1 1 0 0 0 1 1 0 2 1 0 0 0 0 0 \
    0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 \
    1 0 0 0 1 0 2 0 0 0 0 0 0 0 0 0 \
    2 0 0 1 0 0 0 1 1 1 0 1 1 1 0 0 \
    0 0 0 1 1 1 1 0 1 1 0 0 0 0 0 0 \
    2 0 1 0 0 1 1 0 2 0 2 1 0 1 1 0 \
    3 0 2 0 1 1 0 1 1 0 0 1 0 2 0 3 \
    0 0 1 0 0 0 0 0 0 1 1 0 4 0 1 1 \
    1 1 1 1 0 0 0 0 0 1 0 3 1 1 0 0 \
    3 0 0 1 1 1 2 1 2 0 0 1 1 1 1 0 \
    2 1 5 1 0 1 0 2 1 0 0 0 0 1 1 1 \
    1 1 2 1 1 0 1 0 2 1 0 2 0 1 1 0 \
    2 1 1 3 1 1 2 0 2 1 1 3 0 0 2 0 \
    2 6 2 0 2 1 1 1 2 4 4 2 2 0 0 1 \
    1 1 0 3 3 0 1 2 0 1 1 0 2 3 2 0 \
    1 0 0 1 1 1 1 3 1 1 2 2 0 1 1 2 \
    4 2 0 1 2 3 1 0 2 1 2 2 2 0 0 0 \
    2 0 0 2 0 1 1 2 2 0 1 1 0 2 2 1 \
    1 1 2 3 0 0 1 1 0 3 3 1 2 0 0 2 \
    4 0 0 2 2 2 1 0 0 2 0 0 4 0 3 1 \
    0 1 3 2 2 2 3 0 2 4 1 4 1 2 1 2 \
    1 2 1 0 0 1 2 1 2 1 1 2 1 1 2 3 \
    1 3 2 0 2 2 0 1 0 2 3 2 2 1 7 3 \
    4 2 1 5 0 2 1 1 1 1 1 1 2 3 3 2 \
    1 3 2 2 0 2 3 3 3 0 1 2 0 3 4 0 \
    2 3 0 1 1 1 1 4 1 2 4 1 3 3 1 1 \
    4 2 2 5 1 1 2 2 2 1 3 1 3 2 1 0 \
    1 2 5 0 3 2 0 3 3 6 1 2 1 2 1 3 \
    4 3 1 0 2 0 3 0 4 1 2 1 1 2 2 1 \
    0 0 3 1 3 3 0 3 1 0 1 1 2 1 0 1 \
    0 5 6 1 1 0 0 2 3 1 2 2 3 1 2 3 \
    1 2 3 4 0 0 2 3 3 5 1 1 0 0 2 0 \
    5 2 2 8 2 0 3 3 4 3 1 2 4 2 2 2 \
    4 1 5 3 1 3 1 1

[test]
name: one work-item, runs of one bin back to back
kernel_name: loop_hist
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer uint[32] 5 5 5 7 7 5 9 5 5 7 300 44 300 300 44 5 \
    1 2 1 2 1 1 1 2 257 513 3 3 3 3 3 3
arg_in:  1 uint 32
arg_out: 2 buffer uint[256] 0 7 3 6 0 7 0 3 0 1 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 5 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
arg_out: 3 buffer uint[32] 0 1 2 0 1 3 0 4 5 2 0 1 2 3 4 6 \
    0 0 1 1 2 3 4 2 5 6 0 1 2 3 4 5

[test]
name: one work-item, no elements
kernel_name: loop_hist
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer uint[1] 5
arg_in:  1 uint 0
arg_out: 2 buffer uint[256] repeat 0
arg_out: 3 buffer uint[1] 0xa5a5a5a5
!*/

// Histograms in local memory: `atomic_inc` on local memory is a read-modify-write of the
// on-chip memory with the in-flight updates forwarded. Expected values are computed with
// Python (an independent SplitMix64 for the `random` data).
//
// `group_hist`: each work-group clears its 256 bins, every work-item adds `per` elements
// (element j of work-item i is data[i * per + j]), and after a barrier the group adds its bins
// into the global histogram with atomic_add (which starts at 0, 3, 6, ...).
// `group_hist_weighted`: the same with the bins as a `local` argument, each element adding
// its top byte to bin (x & 255).
// `loop_hist`: one work-item, the loop `atomic_inc(&bins[x & 255])` whose old values are
// stored: in one work-item they are defined (the count of that bin before this element), so
// a missing forward of an update still in flight gives a wrong rank. The second test has runs
// of equal bins back to back and bins equal modulo 256.

kernel void group_hist(global const uint *restrict data, uint per, global uint *hist) {
  local uint bins[256];
  uint lid = get_local_id(0);
  uint lsz = get_local_size(0);
  for (uint b = lid; b < 256; b += lsz)
    bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t base = get_global_id(0) * per;
  for (uint j = 0; j < per; j++)
    atomic_inc(&bins[data[base + j] & 255]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < 256; b += lsz)
    atomic_add(&hist[b], bins[b]);
}

kernel void group_hist_weighted(global const uint *restrict data, uint per, local uint *bins,
                                global uint *hist) {
  uint lid = get_local_id(0);
  uint lsz = get_local_size(0);
  for (uint b = lid; b < 256; b += lsz)
    bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t base = get_global_id(0) * per;
  for (uint j = 0; j < per; j++) {
    uint x = data[base + j];
    atomic_add(&bins[x & 255], x >> 24);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < 256; b += lsz)
    atomic_add(&hist[b], bins[b]);
}

kernel void loop_hist(global const uint *restrict data, uint n, global uint *restrict hist,
                      global uint *restrict rank) {
  local uint bins[256];
  for (uint b = 0; b < 256; b++)
    bins[b] = 0;
  for (uint i = 0; i < n; i++)
    rank[i] = atomic_inc(&bins[data[i] & 255]);
  for (uint b = 0; b < 256; b++)
    hist[b] = bins[b];
}

// corpus-sim: --stall-prob 0.3 --max-latency 40 --seed 62
