//! LPF (Lattice Preference File) constraints for nextpnr-ecp5.
//!
//! nextpnr reads a subset of LPF (`ecp5/lpf.cc`, documented in nextpnr's
//! `docs/constraints.md`): statements end with `;`, words are split at whitespace, `#` and `//`
//! start comments, names may be double-quoted. We write, per constrained port bit:
//!
//! ```text
//! LOCATE COMP "led[0]" SITE "B2";
//! IOBUF PORT "led[0]" IO_TYPE=LVCMOS33 PULLMODE=NONE DRIVE=4;
//! FREQUENCY PORT "clk" 25 MHZ;          (oscillator inputs only)
//! ```
//!
//! Because the parser splits at whitespace and strips comments before looking at quotes,
//! signal names must not contain spaces, `#`, `//`, `;` or quotes: only plain Verilog
//! identifiers, optionally with one bit index, are accepted.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::board::{Board, BoardError, Pin};
use crate::names::split_index;

/// Pin constraints for `board`: each `(signal, board_pin)` places a top-level port bit of the
/// design (`signal`, as nextpnr names it: `led[3]` for bit 3 of `led`) on a board pin.
///
/// A whole vector maps to a board bus in one entry: `("led", "led")` constrains `led[0]` to
/// `led[0]`, ... for every bit of the board's `led` bus. Signals that map to an oscillator
/// input also get a `FREQUENCY` constraint with its frequency.
///
/// Errors: an unknown board pin (with close matches), a signal name LPF cannot carry, a
/// one-bit signal mapped to a bus, a signal or board pin used twice.
pub fn lpf<S: AsRef<str>, P: AsRef<str>>(
    board: &Board,
    map: &[(S, P)],
) -> Result<String, BoardError> {
    let mut bits: Vec<(String, &Pin)> = Vec::new();
    for (signal, pin_name) in map {
        let (signal, pin_name) = (signal.as_ref(), pin_name.as_ref());
        let Some((_, sig_index)) = split_index(signal) else {
            return Err(BoardError::BadSignalName {
                signal: signal.to_string(),
                reason: "only plain Verilog identifiers, optionally with one bit index \
                         (`led` or `led[3]`), can be written to an LPF file"
                    .to_string(),
            });
        };
        if let Some(pin) = board.pin(pin_name) {
            bits.push((signal.to_string(), pin));
            continue;
        }
        let bus = board.bus(pin_name);
        if bus.is_empty() {
            return Err(BoardError::UnknownPin {
                board: board.name().to_string(),
                pin: pin_name.to_string(),
                close: board.close_pin_names(pin_name),
            });
        }
        if sig_index.is_some() {
            return Err(BoardError::BitToBus {
                signal: signal.to_string(),
                bus: pin_name.to_string(),
                width: bus.len(),
            });
        }
        for pin in bus {
            // Bus pins always carry an index (that is what `bus` selects).
            let i = pin.index.unwrap_or_default();
            bits.push((format!("{signal}[{i}]"), pin));
        }
    }

    let mut by_signal: BTreeMap<&str, ()> = BTreeMap::new();
    let mut by_site: BTreeMap<&str, &str> = BTreeMap::new();
    for (signal, pin) in &bits {
        if by_signal.insert(signal, ()).is_some() {
            return Err(BoardError::DuplicateSignal {
                signal: signal.clone(),
            });
        }
        if let Some(first) = by_site.insert(&pin.site, signal) {
            return Err(BoardError::PinUsedTwice {
                pin: pin.name.clone(),
                first: first.to_string(),
                second: signal.clone(),
            });
        }
    }

    let device = board.device();
    let mut out = String::new();
    // `write!` to a String cannot fail; the results are ignored for that reason.
    let _ = writeln!(
        out,
        "# Pin constraints for {} ({device}), written by oclhls.",
        board.name()
    );
    for (signal, pin) in &bits {
        let _ = writeln!(out, "LOCATE COMP \"{signal}\" SITE \"{}\";", pin.site);
        let _ = write!(out, "IOBUF PORT \"{signal}\" IO_TYPE={}", pin.io_type);
        if let Some(pull) = pin.pull {
            let _ = write!(out, " PULLMODE={}", pull.lpf_name());
        }
        if let Some(ma) = pin.drive_ma {
            let _ = write!(out, " DRIVE={ma}");
        }
        out.push_str(";\n");
        if let Some(mhz) = pin.frequency_mhz {
            let _ = writeln!(out, "FREQUENCY PORT \"{signal}\" {mhz} MHZ;");
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::board;

    fn ulx3s() -> &'static Board {
        board("ulx3s").unwrap()
    }

    #[test]
    fn clock_led_bus_and_button() {
        let text = lpf(
            ulx3s(),
            &[("clk", "clk_25mhz"), ("led", "led"), ("rst_n", "btn[0]")],
        )
        .unwrap();
        let expected_start = "\
# Pin constraints for ulx3s-85f (LFE5U-85F-6 CABGA381), written by oclhls.
LOCATE COMP \"clk\" SITE \"G2\";
IOBUF PORT \"clk\" IO_TYPE=LVCMOS33 PULLMODE=NONE;
FREQUENCY PORT \"clk\" 25 MHZ;
LOCATE COMP \"led[0]\" SITE \"B2\";
IOBUF PORT \"led[0]\" IO_TYPE=LVCMOS33 PULLMODE=NONE DRIVE=4;
LOCATE COMP \"led[1]\" SITE \"C2\";
";
        assert!(text.starts_with(expected_start), "{text}");
        assert!(text.contains("LOCATE COMP \"led[7]\" SITE \"H3\";\n"));
        assert!(text.ends_with(
            "LOCATE COMP \"rst_n\" SITE \"D6\";\nIOBUF PORT \"rst_n\" IO_TYPE=LVCMOS33 PULLMODE=UP;\n"
        ));
        assert_eq!(text.matches("LOCATE").count(), 10);
        assert_eq!(text.matches("FREQUENCY").count(), 1);
        // Every statement ends with `;` and no name carries a comment character.
        for line in text.lines().skip(1) {
            assert!(line.ends_with(';') && !line.contains('#'), "{line}");
        }
    }

    #[test]
    fn single_bits_and_renames() {
        let text = lpf(ulx3s(), &[("q[3]", "led[0]"), ("tx", "ftdi_rxd")]).unwrap();
        assert!(text.contains("LOCATE COMP \"q[3]\" SITE \"B2\";"));
        assert!(text.contains("IOBUF PORT \"tx\" IO_TYPE=LVCMOS33 PULLMODE=UP DRIVE=4;"));
    }

    #[test]
    fn unknown_pins_list_close_matches() {
        let e = lpf(ulx3s(), &[("clk", "clk25")]).unwrap_err();
        assert!(matches!(&e, BoardError::UnknownPin { pin, .. } if pin == "clk25"));
        let msg = e.to_string();
        assert!(
            msg.starts_with("board `ulx3s-85f` has no pin `clk25`; did you mean `clk_25mhz`"),
            "{msg}"
        );
        let msg = lpf(ulx3s(), &[("l", "leds")]).unwrap_err().to_string();
        assert!(msg.contains("did you mean `led`"), "{msg}");
        let msg = lpf(ulx3s(), &[("l", "led[8]")]).unwrap_err().to_string();
        assert!(
            msg.contains("has no pin `led[8]`; did you mean `led[0]`"),
            "{msg}"
        );
        let msg = lpf(ulx3s(), &[("l", "qqqqqqqqq")]).unwrap_err().to_string();
        assert_eq!(msg, "board `ulx3s-85f` has no pin `qqqqqqqqq`");
    }

    #[test]
    fn rejected_maps() {
        for (map, expect) in [
            (vec![("a b", "led[0]")], "cannot be constrained"),
            (vec![("a#1", "led[0]")], "cannot be constrained"),
            (vec![("a\"", "led[0]")], "cannot be constrained"),
            (
                vec![("x[1]", "led")],
                "8-bit bus; map the whole vector (`x` -> `led`)",
            ),
            (
                vec![("a", "led[0]"), ("a", "led[1]")],
                "`a` is constrained twice",
            ),
            (
                vec![("a", "led"), ("a[2]", "btn[1]")],
                "`a[2]` is constrained twice",
            ),
            (
                vec![("a", "led[0]"), ("b", "led[0]")],
                "board pin `led[0]` is given to both `a` and `b`",
            ),
        ] {
            let msg = lpf(ulx3s(), &map).unwrap_err().to_string();
            assert!(msg.contains(expect), "{map:?}: {msg}");
        }
        // Nothing to constrain is not an error: the header alone.
        let empty: [(&str, &str); 0] = [];
        assert_eq!(lpf(ulx3s(), &empty).unwrap().lines().count(), 1);
    }
}
