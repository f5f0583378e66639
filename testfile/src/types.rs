//! OpenCL value types as they appear in test headers: `int`, `float4`, `uchar16`, `size_t`.

use std::fmt;

/// An OpenCL scalar type. Sizes are those of our device (`CL_DEVICE_ADDRESS_BITS = 32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarType {
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
}

impl ScalarType {
    pub const ALL: [ScalarType; 11] = [
        ScalarType::Char,
        ScalarType::UChar,
        ScalarType::Short,
        ScalarType::UShort,
        ScalarType::Int,
        ScalarType::UInt,
        ScalarType::Long,
        ScalarType::ULong,
        ScalarType::Half,
        ScalarType::Float,
        ScalarType::Double,
    ];

    /// The OpenCL C spelling.
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::Char => "char",
            ScalarType::UChar => "uchar",
            ScalarType::Short => "short",
            ScalarType::UShort => "ushort",
            ScalarType::Int => "int",
            ScalarType::UInt => "uint",
            ScalarType::Long => "long",
            ScalarType::ULong => "ulong",
            ScalarType::Half => "half",
            ScalarType::Float => "float",
            ScalarType::Double => "double",
        }
    }

    /// Parses a scalar type name. `size_t`, `uintptr_t` are `uint` and `ptrdiff_t`, `intptr_t`
    /// are `int` on our 32-bit device.
    pub fn from_name(name: &str) -> Option<ScalarType> {
        Some(match name {
            "char" => ScalarType::Char,
            "uchar" => ScalarType::UChar,
            "short" => ScalarType::Short,
            "ushort" => ScalarType::UShort,
            "int" | "ptrdiff_t" | "intptr_t" => ScalarType::Int,
            "uint" | "size_t" | "uintptr_t" => ScalarType::UInt,
            "long" => ScalarType::Long,
            "ulong" => ScalarType::ULong,
            "half" => ScalarType::Half,
            "float" => ScalarType::Float,
            "double" => ScalarType::Double,
            _ => return None,
        })
    }

    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            ScalarType::Char | ScalarType::UChar => 1,
            ScalarType::Short | ScalarType::UShort | ScalarType::Half => 2,
            ScalarType::Int | ScalarType::UInt | ScalarType::Float => 4,
            ScalarType::Long | ScalarType::ULong | ScalarType::Double => 8,
        }
    }

    /// Size in bits.
    pub fn bits(self) -> u32 {
        self.size() as u32 * 8
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            ScalarType::Half | ScalarType::Float | ScalarType::Double
        )
    }

    /// True for the signed integer types (floats are not integers: false).
    pub fn is_signed_int(self) -> bool {
        matches!(
            self,
            ScalarType::Char | ScalarType::Short | ScalarType::Int | ScalarType::Long
        )
    }

    /// Formats one value stored little-endian in `bytes` (exactly `self.size()` bytes), with its
    /// bit pattern: `-5 (0xfffffffb)`, `1.5 (0x3fc00000)`.
    ///
    /// # Panics
    /// If `bytes` is not `self.size()` long (a caller bug).
    pub fn format(self, bytes: &[u8]) -> String {
        assert_eq!(
            bytes.len(),
            self.size(),
            "ScalarType::format: {} takes {} bytes",
            self.name(),
            self.size()
        );
        let bits = crate::values::read_bits(bytes);
        let digits = self.size() * 2;
        let value = match self {
            // Debug picks the shortest text that reads back to the same value, in exponent
            // notation for very large or small magnitudes.
            ScalarType::Half => {
                format!("{:?}", crate::values::f16_bits_to_f64(bits as u16) as f32)
            }
            ScalarType::Float => format!("{:?}", f32::from_bits(bits as u32)),
            ScalarType::Double => format!("{:?}", f64::from_bits(bits)),
            _ if self.is_signed_int() => crate::values::sign_extend(bits, self.bits()).to_string(),
            _ => bits.to_string(),
        };
        format!("{value} (0x{bits:0digits$x})")
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A scalar or vector type: `int` is `{ Int, lanes: 1 }`, `float3` is `{ Float, lanes: 3 }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ValueType {
    pub scalar: ScalarType,
    /// Declared lanes: 1, 2, 3, 4, 8 or 16.
    pub lanes: u8,
}

impl ValueType {
    pub fn scalar(scalar: ScalarType) -> ValueType {
        ValueType { scalar, lanes: 1 }
    }

    /// Parses `int`, `float4`, `uchar16`, `size_t`... Vector sizes are 2, 3, 4, 8 and 16; the
    /// `size_t`-like aliases have no vector forms (as in OpenCL C).
    pub fn parse(name: &str) -> Option<ValueType> {
        let split = name
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(name.len());
        let (base, digits) = name.split_at(split);
        let lanes = match digits {
            "" => 1,
            "2" => 2,
            "3" => 3,
            "4" => 4,
            "8" => 8,
            "16" => 16,
            _ => return None,
        };
        let scalar = ScalarType::from_name(base)?;
        if lanes > 1 && ScalarType::ALL.iter().all(|s| s.name() != base) {
            return None;
        }
        Some(ValueType { scalar, lanes })
    }

    /// Lanes in memory: a 3-vector is stored as a 4-vector (OpenCL C 6.1.5).
    pub fn storage_lanes(self) -> u8 {
        if self.lanes == 3 {
            4
        } else {
            self.lanes
        }
    }

    /// Bytes one element occupies in a buffer (and in a by-value argument).
    pub fn byte_size(self) -> usize {
        self.scalar.size() * self.storage_lanes() as usize
    }

    /// Formats lane `lane` of element `index` of a buffer of this type.
    ///
    /// # Panics
    /// If the lane is outside `bytes` (a caller bug).
    pub fn format_lane(self, bytes: &[u8], index: usize, lane: usize) -> String {
        let size = self.scalar.size();
        let at = (index * self.storage_lanes() as usize + lane) * size;
        self.scalar.format(&bytes[at..at + size])
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lanes == 1 {
            write!(f, "{}", self.scalar)
        } else {
            write!(f, "{}{}", self.scalar, self.lanes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        for s in ScalarType::ALL {
            for lanes in [1u8, 2, 3, 4, 8, 16] {
                let ty = ValueType { scalar: s, lanes };
                assert_eq!(ValueType::parse(&ty.to_string()), Some(ty));
            }
        }
        assert_eq!(
            ValueType::parse("size_t"),
            Some(ValueType::scalar(ScalarType::UInt))
        );
        for bad in [
            "", "int1", "int5", "float32", "size_t4", "Int", "4", "int 4",
        ] {
            assert_eq!(ValueType::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn sizes() {
        let f3 = ValueType::parse("float3").unwrap();
        assert_eq!(f3.storage_lanes(), 4);
        assert_eq!(f3.byte_size(), 16);
        assert_eq!(ValueType::parse("char16").unwrap().byte_size(), 16);
        assert_eq!(ValueType::parse("double").unwrap().byte_size(), 8);
    }

    #[test]
    fn formats_values() {
        assert_eq!(
            ScalarType::Int.format(&(-5i32).to_le_bytes()),
            "-5 (0xfffffffb)"
        );
        assert_eq!(ScalarType::UChar.format(&[200]), "200 (0xc8)");
        assert_eq!(
            ScalarType::Float.format(&1.5f32.to_le_bytes()),
            "1.5 (0x3fc00000)"
        );
        assert_eq!(
            ScalarType::Half.format(&0x3c00u16.to_le_bytes()),
            "1.0 (0x3c00)"
        );
        assert_eq!(
            ScalarType::Float.format(&1e-40f32.to_le_bytes()),
            "1e-40 (0x000116c2)"
        );
    }
}
