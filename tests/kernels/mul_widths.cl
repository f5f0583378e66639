/*!
[config]
kernel_name: mul_widths
dimensions: 1

[test]
name: products of 64, 32, 16 and 8 bits, signed, widened, by a constant
global_size: 8 1 1
arg_in:  0 buffer ulong[8] 81985529216486895 11564685877756172275 8955327717523151393 10700655122226975865 16800668091867645691 8808622552735609255 5171262578540418173 5888588169282072445
arg_in:  1 buffer ulong[8] 18364758544493064720 17279655951921914625 15924333258477015090 14839230665905864995 13445776909200815700 12360674316629665605 11005351623184766070 9920249030613615975
arg_out: 2 buffer ulong[8] 2465395958572223728 15006152232060539123 5075156202702482034 18136617531528365451 3726300461436828764 930792840217121539 12124969937004688798 16512922016921603147
arg_out: 3 buffer uint[8] 3848375536 4117188851 1370729074 2447295883 3796958300 413029123 3077862814 3461794891
arg_out: 4 buffer ushort[8] 36080 20723 43634 50571 64604 21251 30110 52299
arg_out: 5 buffer uchar[8] 208 23 148 60 248 245 56 233
arg_out: 6 buffer int[8] -164262672 54939891 95660658 -8010357 -442172324 -97103101 113407390 215993419
arg_out: 7 buffer ulong[8] 4585359552083496176 4262324307422040307 3665363003453450866 3131524502649750923 2325308002364619868 1658293586432512771 775804446880069022 54643906001161291
arg_out: 8 buffer uint[8] 4123168421 4064673617 4232786955 332541139 953870761 1801808525 2876354431 4177508479
arg_out: 9 buffer uint[8] 3836841200 1019564275 1693035122 1515701643 3517512796 673338115 3610015134 133614667
!*/

// Multiplies of every width the datapath builds in the DSPs' own registers (64 bits: ten
// 16x16 products, or 4 when both operands are zero-extended from 32 bits; 32 bits: three, or
// two when one operand has 16 significant bits; up to 18 bits: one), off any recurrence, and
// a product by a constant (left to Yosys, its operand registered first). Expected values
// computed in Python (exact integer products, truncated).
kernel void mul_widths(global const ulong *a, global const ulong *b, global ulong *p64,
                       global uint *p32, global ushort *p16, global uchar *p8,
                       global int *ps, global ulong *pz, global uint *pc, global uint *pm) {
  size_t i = get_global_id(0);
  ulong x = a[i], y = b[i];
  p64[i] = x * y;
  p32[i] = (uint)x * (uint)y;
  p16[i] = (ushort)((ushort)x * (ushort)y);
  p8[i] = (uchar)((uchar)(x >> 8) * (uchar)y);
  ps[i] = (short)x * (short)y;
  pz[i] = (ulong)(uint)x * (ulong)(uint)y;
  pc[i] = (uint)x * 171u;
  pm[i] = (uint)(ushort)x * (uint)y;
}
