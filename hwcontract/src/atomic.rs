//! Atomic requests on a global memory port (`docs/hardware-interface.md`, "Revision 2"): the
//! opcodes of `p_rreq_op` and what memory does with the element. The kernel's emitter writes
//! the opcodes (`rtl_templates`), the testbench's memory model executes them
//! (`sim::run::mem_server`), the IR interpreter runs the same semantics; the reference
//! emulator (`emu`) implements OpenCL's atomics on its own, so the differential chain checks
//! this table against an independent source.

/// What an atomic request does to the element at its address; the response is the old value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AtomicOp {
    Add,
    Sub,
    Xchg,
    /// Replace by the operand when the old value equals the compare value.
    CmpXchg,
    MinS,
    MinU,
    MaxS,
    MaxU,
    And,
    Or,
    Xor,
}

/// `p_rreq_op` of a plain read.
pub const OP_READ: u8 = 0;

/// Width of `p_rreq_op`.
pub const OP_BITS: u32 = 4;

impl AtomicOp {
    pub const ALL: [AtomicOp; 11] = [
        AtomicOp::Add,
        AtomicOp::Sub,
        AtomicOp::Xchg,
        AtomicOp::CmpXchg,
        AtomicOp::MinS,
        AtomicOp::MinU,
        AtomicOp::MaxS,
        AtomicOp::MaxU,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
    ];

    /// The opcode on `p_rreq_op` (0 is a plain read; 12..15 are reserved).
    pub fn opcode(self) -> u8 {
        match self {
            AtomicOp::Add => 1,
            AtomicOp::Sub => 2,
            AtomicOp::Xchg => 3,
            AtomicOp::CmpXchg => 4,
            AtomicOp::MinS => 5,
            AtomicOp::MinU => 6,
            AtomicOp::MaxS => 7,
            AtomicOp::MaxU => 8,
            AtomicOp::And => 9,
            AtomicOp::Or => 10,
            AtomicOp::Xor => 11,
        }
    }

    /// The op of opcode `code`; `None` for a plain read and the reserved codes.
    pub fn from_opcode(code: u8) -> Option<AtomicOp> {
        Self::ALL.into_iter().find(|o| o.opcode() == code)
    }

    /// A lowercase name (`add`, `cmpxchg`, `smin`, ...), for Verilog names and messages.
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::Xchg => "xchg",
            AtomicOp::CmpXchg => "cmpxchg",
            AtomicOp::MinS => "smin",
            AtomicOp::MinU => "umin",
            AtomicOp::MaxS => "smax",
            AtomicOp::MaxU => "umax",
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Xor => "xor",
        }
    }

    /// The new element of `bits` bits (1..=64) from the old one, the operand and (for
    /// `CmpXchg`) the compare value; all are the low `bits` bits of their `u64`.
    pub fn apply(self, old: u64, operand: u64, compare: u64, bits: u32) -> u64 {
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let (old, a, c) = (old & mask, operand & mask, compare & mask);
        let signed = |v: u64| ((v << (64 - bits)) as i64) >> (64 - bits);
        let r = match self {
            AtomicOp::Add => old.wrapping_add(a),
            AtomicOp::Sub => old.wrapping_sub(a),
            AtomicOp::Xchg => a,
            AtomicOp::CmpXchg => {
                if old == c {
                    a
                } else {
                    old
                }
            }
            AtomicOp::MinS => {
                if signed(a) < signed(old) {
                    a
                } else {
                    old
                }
            }
            AtomicOp::MaxS => {
                if signed(a) > signed(old) {
                    a
                } else {
                    old
                }
            }
            AtomicOp::MinU => old.min(a),
            AtomicOp::MaxU => old.max(a),
            AtomicOp::And => old & a,
            AtomicOp::Or => old | a,
            AtomicOp::Xor => old ^ a,
        };
        r & mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcodes_are_distinct_and_round_trip() {
        for o in AtomicOp::ALL {
            assert_ne!(o.opcode(), OP_READ);
            assert!(o.opcode() < 12);
            assert_eq!(AtomicOp::from_opcode(o.opcode()), Some(o));
        }
        assert_eq!(AtomicOp::from_opcode(OP_READ), None);
        assert_eq!(AtomicOp::from_opcode(12), None);
    }

    #[test]
    fn semantics_by_hand() {
        // 32-bit wrap-around and signedness.
        assert_eq!(AtomicOp::Add.apply(0xffff_ffff, 2, 0, 32), 1);
        assert_eq!(AtomicOp::Sub.apply(0, 1, 0, 32), 0xffff_ffff);
        assert_eq!(AtomicOp::MinS.apply(5, 0xffff_fffe, 0, 32), 0xffff_fffe); // -2 < 5
        assert_eq!(AtomicOp::MinU.apply(5, 0xffff_fffe, 0, 32), 5);
        assert_eq!(AtomicOp::MaxS.apply(5, 0xffff_fffe, 0, 32), 5);
        assert_eq!(AtomicOp::MaxU.apply(5, 0xffff_fffe, 0, 32), 0xffff_fffe);
        assert_eq!(AtomicOp::CmpXchg.apply(7, 9, 7, 32), 9);
        assert_eq!(AtomicOp::CmpXchg.apply(7, 9, 8, 32), 7);
        assert_eq!(AtomicOp::Xchg.apply(7, 9, 0, 32), 9);
        assert_eq!(AtomicOp::And.apply(0b1100, 0b1010, 0, 32), 0b1000);
        assert_eq!(AtomicOp::Or.apply(0b1100, 0b1010, 0, 32), 0b1110);
        assert_eq!(AtomicOp::Xor.apply(0b1100, 0b1010, 0, 32), 0b0110);
        // 64 bits: beyond 2^32, and the signed minimum.
        assert_eq!(AtomicOp::Add.apply(0xffff_ffff, 1, 0, 64), 0x1_0000_0000);
        assert_eq!(
            AtomicOp::MinS.apply(0, 0x8000_0000_0000_0000, 0, 64),
            0x8000_0000_0000_0000
        );
        assert_eq!(AtomicOp::Add.apply(u64::MAX, 1, 0, 64), 0);
    }
}
