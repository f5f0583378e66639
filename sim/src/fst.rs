//! A small reader of the FST waveforms that traced models write ([`crate::Model::trace_to`]):
//! the header's time range and the hierarchy's signal names, so that tests (and users) can
//! check a trace without GTKWave. Value changes are not decoded.
//!
//! The format is GTKWave's (`fstapi.c`): a sequence of blocks, each a type byte and a
//! big-endian `u64` length that counts itself. Block 0 is the header; the hierarchy is block
//! 4 (zlib, not read here), 6 (LZ4) or 7 (LZ4 twice). Inside it, scopes open with byte 254
//! (scope type, name, component) and close with 255, attributes open with 252 and close with
//! 253, and every other byte below 30 starts a variable (type, direction, name, length and
//! alias as LEB128 numbers).

/// What [`read`] found in an FST file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FstSummary {
    pub start_time: u64,
    pub end_time: u64,
    /// Every variable as `scope.scope.name`, in the file's order (a vector's name ends with its
    /// range, `data [31:0]`, as FST files hold it); `None` when the hierarchy
    /// is compressed with zlib, which this reader does not decode.
    pub signals: Option<Vec<String>>,
}

const HEADER: u8 = 0;
const HIER_ZLIB: u8 = 4;
const HIER_LZ4: u8 = 6;
const HIER_LZ4_TWICE: u8 = 7;
/// Bytes of the header block after its type byte (GTKWave's `FST_HDR_SIZE`).
const HEADER_LEN: u64 = 329;

/// Reads the header and the hierarchy of the FST file in `bytes`.
pub fn read(bytes: &[u8]) -> Result<FstSummary, String> {
    if bytes.len() < 1 + HEADER_LEN as usize || bytes[0] != HEADER || be64(bytes, 1)? != HEADER_LEN
    {
        return Err("not an FST file (no header block)".into());
    }
    let mut summary = FstSummary {
        start_time: be64(bytes, 9)?,
        end_time: be64(bytes, 17)?,
        signals: None,
    };
    let mut pos = 0usize;
    while pos < bytes.len() {
        let kind = bytes[pos];
        let len = usize::try_from(be64(bytes, pos + 1)?).map_err(|_| "block too long")?;
        let end = pos
            .checked_add(1 + len)
            .filter(|&e| e <= bytes.len() && len >= 8)
            .ok_or_else(|| format!("block {kind} at byte {pos} runs past the end"))?;
        let body = &bytes[pos + 9..end];
        match kind {
            HIER_LZ4 | HIER_LZ4_TWICE => {
                let size = usize::try_from(be64(body, 0)?).map_err(|_| "hierarchy too long")?;
                let mut rest = &body[8..];
                let text = if kind == HIER_LZ4_TWICE {
                    let (once, n) = leb128(rest, 0)?;
                    rest = &rest[n..];
                    lz4_block(&lz4_block(rest, once as usize)?, size)?
                } else {
                    lz4_block(rest, size)?
                };
                summary.signals = Some(hierarchy(&text)?);
            }
            HIER_ZLIB => summary.signals = None,
            _ => {}
        }
        pos = end;
    }
    Ok(summary)
}

fn be64(b: &[u8], at: usize) -> Result<u64, String> {
    b.get(at..at + 8)
        .map(|s| u64::from_be_bytes(s.try_into().expect("8 bytes")))
        .ok_or_else(|| format!("truncated at byte {at}"))
}

/// An unsigned LEB128 number at `at`: its value and its length in bytes.
fn leb128(b: &[u8], at: usize) -> Result<(u64, usize), String> {
    let mut v = 0u64;
    for (k, &byte) in b.get(at..).unwrap_or_default().iter().enumerate().take(10) {
        v |= u64::from(byte & 0x7f) << (7 * k);
        if byte & 0x80 == 0 {
            return Ok((v, k + 1));
        }
    }
    Err(format!("bad LEB128 number at byte {at}"))
}

/// Decompresses one LZ4 block (the raw block format, no frame) of `size` bytes.
fn lz4_block(src: &[u8], size: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(size);
    let mut i = 0usize;
    let bad = || "corrupt LZ4 block".to_string();
    let length = |i: &mut usize, mut n: usize| -> Result<usize, String> {
        if n == 15 {
            loop {
                let b = *src.get(*i).ok_or_else(bad)?;
                *i += 1;
                n += usize::from(b);
                if b != 255 {
                    break;
                }
            }
        }
        Ok(n)
    };
    while i < src.len() {
        let token = src[i];
        i += 1;
        let lit = length(&mut i, usize::from(token >> 4))?;
        out.extend_from_slice(src.get(i..i + lit).ok_or_else(bad)?);
        i += lit;
        if i == src.len() {
            break;
        }
        let offset = usize::from(u16::from_le_bytes([
            *src.get(i).ok_or_else(bad)?,
            *src.get(i + 1).ok_or_else(bad)?,
        ]));
        i += 2;
        let n = length(&mut i, usize::from(token & 15))? + 4;
        if offset == 0 || offset > out.len() || out.len() + n > size {
            return Err(bad());
        }
        let from = out.len() - offset;
        for k in 0..n {
            out.push(out[from + k]);
        }
    }
    if out.len() != size {
        return Err(format!("LZ4 block gave {} bytes, not {size}", out.len()));
    }
    Ok(out)
}

/// The variables of a decompressed hierarchy, with their scopes.
fn hierarchy(h: &[u8]) -> Result<Vec<String>, String> {
    let mut scopes: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut i = 0usize;
    let cstr = |i: &mut usize| -> Result<String, String> {
        let rest = h.get(*i..).unwrap_or_default();
        let n = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or("unterminated name in the hierarchy")?;
        *i += n + 1;
        Ok(String::from_utf8_lossy(&rest[..n]).into_owned())
    };
    while i < h.len() {
        let tag = h[i];
        i += 1;
        match tag {
            254 => {
                i += 1; // scope type
                scopes.push(cstr(&mut i)?);
                cstr(&mut i)?; // component
            }
            255 => {
                scopes.pop();
            }
            252 => {
                i += 2; // attribute type and subtype
                cstr(&mut i)?;
                i += leb128(h, i)?.1;
            }
            253 => {}
            0..=29 => {
                i += 1; // direction
                let name = cstr(&mut i)?;
                i += leb128(h, i)?.1; // length
                i += leb128(h, i)?.1; // alias
                let mut full = scopes.join(".");
                if !full.is_empty() {
                    full.push('.');
                }
                full.push_str(&name);
                names.push(full);
            }
            _ => return Err(format!("unknown hierarchy entry {tag} at byte {}", i - 1)),
        }
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lz4_literals_and_overlapping_matches() {
        // Token 0x50: five literals, no match.
        assert_eq!(lz4_block(b"\x50hello", 5).unwrap(), b"hello");
        // Three literals, then a match of 2 + 4 bytes at offset 3 (overlapping its own output).
        assert_eq!(lz4_block(b"\x32abc\x03\x00", 9).unwrap(), b"abcabcabc");
        // Literal length 15 + 1 from an extra byte.
        let mut src = vec![0xf0, 1];
        src.extend(std::iter::repeat_n(b'x', 16));
        assert_eq!(lz4_block(&src, 16).unwrap(), vec![b'x'; 16]);
        assert!(
            lz4_block(b"\x32abc\x09\x00", 9).is_err(),
            "offset past the start"
        );
        assert!(lz4_block(b"\x50hell", 5).is_err(), "truncated");
    }

    #[test]
    fn hierarchy_names_carry_their_scopes() {
        let mut h = Vec::new();
        h.extend(b"\xfe\x00TOP\x00\x00");
        h.extend(b"\xfe\x00vadd\x00vadd\x00");
        h.extend(b"\x1c\x00clk\x00\x01\x00"); // a wire: 1 bit, no alias
        h.extend(b"\xfc\x00\x00src\x00\x05"); // an attribute, skipped
        h.extend(b"\xfd");
        h.extend(b"\x1c\x01a_rreq_data\x00\x20\x00");
        h.extend(b"\xff\xff");
        assert_eq!(
            hierarchy(&h).unwrap(),
            vec![
                "TOP.vadd.clk".to_string(),
                "TOP.vadd.a_rreq_data".to_string()
            ]
        );
        assert_eq!(leb128(&[0x80, 0x01], 0).unwrap(), (128, 2));
    }

    #[test]
    fn a_header_alone_reads_its_times() {
        let mut f = vec![HEADER];
        f.extend(HEADER_LEN.to_be_bytes());
        f.extend(3u64.to_be_bytes());
        f.extend(41u64.to_be_bytes());
        f.resize(1 + HEADER_LEN as usize, 0);
        let s = read(&f).unwrap();
        assert_eq!((s.start_time, s.end_time, s.signals), (3, 41, None));
        assert!(read(b"$date\n").is_err());
        f.push(HIER_LZ4);
        f.extend(100u64.to_be_bytes());
        assert!(read(&f).unwrap_err().contains("past the end"));
    }
}
