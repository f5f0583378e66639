//! Devices, boards and their pins.
//!
//! A [`Board`] is a [`Device`] (what nextpnr needs to place for it) plus pins with their
//! electrical settings (what the LPF says). Pin facts live in CSV files under `boards/`, embedded
//! with `include_str!` and parsed at run time by [`parse_pins`], which reports bad lines by
//! number instead of panicking. The embedded files are checked by this crate's tests, so
//! [`boards`] can treat a parse failure as a broken build.

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::Serialize;

use crate::names::{close_matches, did_you_mean, split_index};

/// An FPGA family supported by the open flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Family {
    /// Lattice ECP5: Yosys `synth_ecp5`, `nextpnr-ecp5`, `ecppack`.
    Ecp5,
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Ecp5 => "ECP5",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One FPGA as nextpnr sees it: part, package and speed grade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Device {
    pub family: Family,
    /// Lattice part name, `LFE5U-85F`.
    pub part: &'static str,
    /// The nextpnr-ecp5 option selecting the part, `--85k`.
    pub nextpnr_flag: &'static str,
    /// Package as nextpnr names it (`--package`), `CABGA381`.
    pub package: &'static str,
    /// Speed grade (`--speed`): 6 (slowest), 7 or 8.
    pub speed_grade: u8,
}

/// ECP5 parts nextpnr-ecp5 knows, with the option that selects each.
const ECP5_PARTS: [(&str, &str); 10] = [
    ("LFE5U-12F", "--12k"),
    ("LFE5U-25F", "--25k"),
    ("LFE5U-45F", "--45k"),
    ("LFE5U-85F", "--85k"),
    ("LFE5UM-25F", "--um-25k"),
    ("LFE5UM-45F", "--um-45k"),
    ("LFE5UM-85F", "--um-85k"),
    ("LFE5UM5G-25F", "--um5g-25k"),
    ("LFE5UM5G-45F", "--um5g-45k"),
    ("LFE5UM5G-85F", "--um5g-85k"),
];

/// ECP5 packages (not every part comes in every package; nextpnr says so if not).
const ECP5_PACKAGES: [&str; 6] = [
    "CABGA256",
    "CABGA381",
    "CABGA554",
    "CABGA756",
    "CSFBGA285",
    "TQFP144",
];

impl Device {
    /// An ECP5 device; `part` and `package` are case-insensitive (`lfe5u-85f`, `cabga381`).
    pub fn ecp5(part: &str, package: &str, speed_grade: u8) -> Result<Device, BoardError> {
        let (part, nextpnr_flag) = ECP5_PARTS
            .iter()
            .find(|(p, _)| p.eq_ignore_ascii_case(part))
            .copied()
            .ok_or_else(|| BoardError::UnknownPart {
                part: part.to_string(),
                known: ECP5_PARTS.iter().map(|(p, _)| p.to_string()).collect(),
            })?;
        let package = ECP5_PACKAGES
            .iter()
            .find(|p| p.eq_ignore_ascii_case(package))
            .copied()
            .ok_or_else(|| BoardError::UnknownPackage {
                package: package.to_string(),
                known: ECP5_PACKAGES.iter().map(|p| p.to_string()).collect(),
            })?;
        // The 5G parts only exist in speed grade 8.
        let grades: &[u8] = if part.starts_with("LFE5UM5G") {
            &[8]
        } else {
            &[6, 7, 8]
        };
        if !grades.contains(&speed_grade) {
            return Err(BoardError::BadSpeedGrade {
                part: part.to_string(),
                speed_grade,
                allowed: grades.to_vec(),
            });
        }
        Ok(Device {
            family: Family::Ecp5,
            part,
            nextpnr_flag,
            package,
            speed_grade,
        })
    }

    /// Names of the ECP5 parts [`Device::ecp5`] accepts.
    pub fn ecp5_parts() -> impl Iterator<Item = &'static str> {
        ECP5_PARTS.iter().map(|(p, _)| *p)
    }
}

impl fmt::Display for Device {
    /// `LFE5U-85F-6 CABGA381`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{} {}", self.part, self.speed_grade, self.package)
    }
}

/// Pull resistor setting of a pin (`PULLMODE=` in the LPF).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum PullMode {
    Up,
    Down,
    None,
    Keeper,
}

impl PullMode {
    /// The LPF spelling.
    pub fn lpf_name(self) -> &'static str {
        match self {
            PullMode::Up => "UP",
            PullMode::Down => "DOWN",
            PullMode::None => "NONE",
            PullMode::Keeper => "KEEPER",
        }
    }

    fn parse(s: &str) -> Option<PullMode> {
        Some(match s.to_ascii_uppercase().as_str() {
            "UP" => PullMode::Up,
            "DOWN" => PullMode::Down,
            "NONE" => PullMode::None,
            "KEEPER" => PullMode::Keeper,
            _ => return None,
        })
    }
}

/// One board signal on one package ball.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pin {
    /// Board signal name, `led[0]` or `clk_25mhz`.
    pub name: String,
    /// Name without index, `led`: pins sharing it form a bus.
    pub base: String,
    pub index: Option<u32>,
    /// Package ball, `B2`.
    pub site: String,
    /// I/O standard, `LVCMOS33`.
    pub io_type: String,
    /// `None`: leave the device default.
    pub pull: Option<PullMode>,
    /// Output drive strength in mA; `None`: leave the device default.
    pub drive_ma: Option<u8>,
    /// Free text from the pin file.
    pub note: String,
    /// Set for oscillator inputs: the note says `FREQUENCY <n> MHz`.
    pub frequency_mhz: Option<f64>,
    /// Line of the pin file this pin comes from.
    pub line: usize,
}

/// The board's main clock input.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Clock {
    /// Board pin name, `clk_25mhz`.
    pub pin: String,
    pub mhz: f64,
}

/// A board: a device, its pins and main clock.
///
/// Invariants (checked when built): pin names and sites are unique; the clock is one of the
/// pins.
#[derive(Clone, Debug)]
pub struct Board {
    name: String,
    family_name: String,
    description: String,
    device: Device,
    clock: Clock,
    pins: Arc<[Pin]>,
    default_variant: bool,
}

impl Board {
    /// A board from a pin file (see [`parse_pins`]); the main clock is the first pin whose note
    /// gives a frequency. `family_name` groups variants (`ulx3s` for `ulx3s-85f`); the variant
    /// with `default_variant` is also found by the family name.
    pub fn from_csv(
        name: &str,
        family_name: &str,
        description: &str,
        device: Device,
        csv: &str,
        file: &str,
        default_variant: bool,
    ) -> Result<Board, BoardError> {
        let pins: Arc<[Pin]> = parse_pins(csv, file)?.into();
        Board::with_pins(
            name,
            family_name,
            description,
            device,
            pins,
            default_variant,
        )
    }

    fn with_pins(
        name: &str,
        family_name: &str,
        description: &str,
        device: Device,
        pins: Arc<[Pin]>,
        default_variant: bool,
    ) -> Result<Board, BoardError> {
        let clock = pins
            .iter()
            .find_map(|p| {
                p.frequency_mhz.map(|mhz| Clock {
                    pin: p.name.clone(),
                    mhz,
                })
            })
            .ok_or_else(|| BoardError::NoClock {
                board: name.to_string(),
            })?;
        Ok(Board {
            name: name.to_ascii_lowercase(),
            family_name: family_name.to_ascii_lowercase(),
            description: description.to_string(),
            device,
            clock,
            pins,
            default_variant,
        })
    }

    /// `ulx3s-85f`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `ulx3s`.
    pub fn family_name(&self) -> &str {
        &self.family_name
    }

    pub fn description(&self) -> &str {
        &self.description
    }

    pub fn device(&self) -> Device {
        self.device
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Whether [`board`] returns this board for its family name.
    pub fn is_default_variant(&self) -> bool {
        self.default_variant
    }

    /// All pins, in file order.
    pub fn pins(&self) -> &[Pin] {
        &self.pins
    }

    /// The pin with this exact name (`led[0]`).
    pub fn pin(&self, name: &str) -> Option<&Pin> {
        self.pins.iter().find(|p| p.name == name)
    }

    /// The indexed pins named `base[i]`, by index; empty if `base` is not a bus.
    pub fn bus(&self, base: &str) -> Vec<&Pin> {
        let mut bits: Vec<&Pin> = self
            .pins
            .iter()
            .filter(|p| p.index.is_some() && p.base == base)
            .collect();
        bits.sort_by_key(|p| p.index);
        bits
    }

    /// Pin names and bus names that look like `name`, for error messages.
    pub(crate) fn close_pin_names(&self, name: &str) -> Vec<String> {
        let mut cands: Vec<&str> = self.pins.iter().map(|p| p.name.as_str()).collect();
        let mut buses: Vec<&str> = self
            .pins
            .iter()
            .filter(|p| p.index.is_some())
            .map(|p| p.base.as_str())
            .collect();
        buses.dedup();
        cands.extend(buses);
        close_matches(name, cands, 5)
    }
}

/// Problems with board data, devices, board names and pin constraints.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BoardError {
    #[error("{file}:{line}: {message}")]
    Csv {
        file: String,
        line: usize,
        message: String,
    },
    #[error("unknown ECP5 part `{part}`; known parts: {}", known.join(", "))]
    UnknownPart { part: String, known: Vec<String> },
    #[error("unknown ECP5 package `{package}`; known packages: {}", known.join(", "))]
    UnknownPackage { package: String, known: Vec<String> },
    #[error("{part} has no speed grade {speed_grade}; it comes in {allowed:?}")]
    BadSpeedGrade {
        part: String,
        speed_grade: u8,
        allowed: Vec<u8>,
    },
    #[error("board `{board}` has no clock pin (a pin whose note says `FREQUENCY <n> MHz`)")]
    NoClock { board: String },
    #[error("unknown board `{name}`{}; known boards: {}", did_you_mean(close), known.join(", "))]
    UnknownBoard {
        name: String,
        close: Vec<String>,
        known: Vec<String>,
    },
    #[error("board `{board}` has no pin `{pin}`{}", did_you_mean(close))]
    UnknownPin {
        board: String,
        pin: String,
        close: Vec<String>,
    },
    #[error("signal name `{signal}` cannot be constrained: {reason}")]
    BadSignalName { signal: String, reason: String },
    #[error(
        "signal `{signal}` is one bit but board pin `{bus}` is a {width}-bit bus; \
         map the whole vector (`{}` -> `{bus}`) or one bit (`{signal}` -> `{bus}[0]`)",
        signal.split('[').next().unwrap_or(signal)
    )]
    BitToBus {
        signal: String,
        bus: String,
        width: usize,
    },
    #[error("signal `{signal}` is constrained twice")]
    DuplicateSignal { signal: String },
    #[error("board pin `{pin}` is given to both `{first}` and `{second}`")]
    PinUsedTwice {
        pin: String,
        first: String,
        second: String,
    },
}

/// Parses a pin file: `#` comments, blank lines, then rows of
/// `signal,site,io_type,pullmode,drive,note`. The note is everything after the fifth comma
/// (it may contain commas); a note containing `FREQUENCY <n> MHz` marks an oscillator input.
/// Errors name `file` and the 1-based line.
pub fn parse_pins(text: &str, file: &str) -> Result<Vec<Pin>, BoardError> {
    let mut pins: Vec<Pin> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let err = |message: String| BoardError::Csv {
            file: file.to_string(),
            line,
            message,
        };
        let row = raw.trim();
        if row.is_empty() || row.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = row.splitn(6, ',').map(str::trim).collect();
        if fields.len() < 5 {
            return Err(err(format!(
                "expected `signal,site,io_type,pullmode,drive[,note]`, found {} field(s)",
                fields.len()
            )));
        }
        if fields[0] == "signal" && fields[1] == "site" {
            continue; // a header row
        }
        let name = fields[0];
        let (base, index) = split_index(name).ok_or_else(|| {
            err(format!(
                "signal `{name}` is not an identifier or an indexed identifier like `led[0]`"
            ))
        })?;
        let site = fields[1];
        let mut site_chars = site.chars();
        let site_ok = site_chars.next().is_some_and(|c| c.is_ascii_uppercase())
            && site.chars().any(|c| c.is_ascii_digit())
            && site
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
        if !site_ok {
            return Err(err(format!(
                "site `{site}` is not a package ball name like `B2` or `R18`"
            )));
        }
        let io_type = fields[2];
        if io_type.is_empty()
            || !io_type
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        {
            return Err(err(format!(
                "I/O type `{io_type}` is not an LPF IO_TYPE like `LVCMOS33`"
            )));
        }
        let pull = match fields[3] {
            "" => None,
            p => Some(PullMode::parse(p).ok_or_else(|| {
                err(format!(
                    "pull mode `{p}` is not one of UP, DOWN, NONE, KEEPER (or empty)"
                ))
            })?),
        };
        let drive_ma = match fields[4] {
            "" => None,
            d => match d.parse::<u8>() {
                Ok(ma @ (4 | 8 | 12 | 16)) => Some(ma),
                _ => {
                    return Err(err(format!(
                        "drive `{d}` is not one of 4, 8, 12, 16 (mA) or empty"
                    )))
                }
            },
        };
        let note = fields.get(5).copied().unwrap_or("").to_string();
        let frequency_mhz = match note_frequency(&note) {
            Ok(f) => f,
            Err(m) => return Err(err(m)),
        };
        if let Some(prev) = pins.iter().find(|p| p.name == name) {
            return Err(err(format!(
                "signal `{name}` is already defined on line {}",
                prev.line
            )));
        }
        if let Some(prev) = pins.iter().find(|p| p.site == site) {
            return Err(err(format!(
                "site {site} is already used by `{}` on line {}",
                prev.name, prev.line
            )));
        }
        pins.push(Pin {
            name: name.to_string(),
            base: base.to_string(),
            index,
            site: site.to_string(),
            io_type: io_type.to_string(),
            pull,
            drive_ma,
            note,
            frequency_mhz,
            line,
        });
    }
    if pins.is_empty() {
        return Err(BoardError::Csv {
            file: file.to_string(),
            line: text.lines().count().max(1),
            message: "no pins in file".to_string(),
        });
    }
    Ok(pins)
}

/// The `<n>` of a `FREQUENCY <n> MHz` in a note.
fn note_frequency(note: &str) -> Result<Option<f64>, String> {
    let words: Vec<&str> = note
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
        .collect();
    let Some(at) = words.iter().position(|w| *w == "FREQUENCY") else {
        return Ok(None);
    };
    let bad = || format!("note says FREQUENCY but not `FREQUENCY <n> MHz`: `{note}`");
    let value = words.get(at + 1).ok_or_else(bad)?;
    let unit = words.get(at + 2).ok_or_else(bad)?;
    if !unit.eq_ignore_ascii_case("MHz") {
        return Err(bad());
    }
    match value.parse::<f64>() {
        Ok(f) if f.is_finite() && f > 0.0 => Ok(Some(f)),
        _ => Err(bad()),
    }
}

const ULX3S_FILE: &str = "boards/ulx3s_v20_pins.csv";
const ULX3S_CSV: &str = include_str!("../boards/ulx3s_v20_pins.csv");

/// ULX3S variants: name suffix, part, and whether it is the default for `ulx3s`.
const ULX3S_VARIANTS: [(&str, &str, bool); 4] = [
    ("12f", "LFE5U-12F", false),
    ("25f", "LFE5U-25F", false),
    ("45f", "LFE5U-45F", false),
    ("85f", "LFE5U-85F", true),
];

fn builtin_boards() -> Result<Vec<Board>, BoardError> {
    let pins: Arc<[Pin]> = parse_pins(ULX3S_CSV, ULX3S_FILE)?.into();
    ULX3S_VARIANTS
        .iter()
        .map(|&(suffix, part, default)| {
            // Every ULX3S carries a speed-grade-6 part in the 381-ball package.
            let device = Device::ecp5(part, "CABGA381", 6)?;
            Board::with_pins(
                &format!("ulx3s-{suffix}"),
                "ulx3s",
                &format!("Radiona ULX3S v2.x/v3.0.x with {part}"),
                device,
                pins.clone(),
                default,
            )
        })
        .collect()
}

/// The boards oclhls knows, variants included (`ulx3s-12f` ... `ulx3s-85f`).
pub fn boards() -> &'static [Board] {
    static BOARDS: OnceLock<Vec<Board>> = OnceLock::new();
    BOARDS.get_or_init(|| {
        builtin_boards().unwrap_or_else(|e| {
            // Build data, not user input: the test `embedded_boards_parse` keeps it valid.
            panic!("board data embedded in board-support is broken: {e}")
        })
    })
}

/// A board by name, case-insensitive: a variant (`ulx3s-45f`) or a family (`ulx3s`, its
/// default variant).
pub fn board(name: &str) -> Option<&'static Board> {
    let name = name.trim();
    let all = boards();
    all.iter()
        .find(|b| b.name.eq_ignore_ascii_case(name))
        .or_else(|| {
            all.iter()
                .find(|b| b.default_variant && b.family_name.eq_ignore_ascii_case(name))
        })
}

/// Every name [`board`] accepts, families first.
pub fn board_names() -> Vec<String> {
    let mut names: Vec<String> = boards()
        .iter()
        .filter(|b| b.default_variant)
        .map(|b| b.family_name.clone())
        .collect();
    names.extend(boards().iter().map(|b| b.name.clone()));
    names
}

/// Like [`board`], with an error that lists close and known names.
pub fn find_board(name: &str) -> Result<&'static Board, BoardError> {
    board(name).ok_or_else(|| {
        let known = board_names();
        BoardError::UnknownBoard {
            name: name.to_string(),
            close: close_matches(name, known.iter().map(String::as_str), 3),
            known,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_boards_parse() {
        let boards = builtin_boards().expect("embedded board data parses");
        assert_eq!(boards.len(), 4);
        // The public accessor agrees.
        assert_eq!(super::boards().len(), 4);
    }

    #[test]
    fn ulx3s_facts() {
        let b = board("ulx3s").unwrap();
        assert_eq!(b.name(), "ulx3s-85f");
        assert_eq!(b.family_name(), "ulx3s");
        let d = b.device();
        assert_eq!(d.family, Family::Ecp5);
        assert_eq!(d.part, "LFE5U-85F");
        assert_eq!(d.nextpnr_flag, "--85k");
        assert_eq!(d.package, "CABGA381");
        assert_eq!(d.speed_grade, 6);
        assert_eq!(d.to_string(), "LFE5U-85F-6 CABGA381");
        assert_eq!(
            b.clock(),
            &Clock {
                pin: "clk_25mhz".into(),
                mhz: 25.0
            }
        );
        let clk = b.pin("clk_25mhz").unwrap();
        assert_eq!(clk.site, "G2");
        assert_eq!(clk.pull, Some(PullMode::None));
        assert_eq!(clk.line, 4);
        let leds = b.bus("led");
        assert_eq!(leds.len(), 8);
        assert_eq!(
            leds.iter().map(|p| p.site.as_str()).collect::<Vec<_>>(),
            ["B2", "C2", "C1", "D2", "D1", "E2", "E1", "H3"]
        );
        assert_eq!(leds[0].drive_ma, Some(4));
        // `sdram_d` has 16 bits; its note with a comma stayed whole.
        assert_eq!(b.bus("sdram_d").len(), 16);
        assert_eq!(b.pin("sdram_clk").unwrap().note, "32 MB SDR SDRAM, 16-bit");
        assert_eq!(b.pin("btn[1]").unwrap().pull, Some(PullMode::Down));
        assert!(b.bus("clk_25mhz").is_empty());
    }

    #[test]
    fn board_lookup() {
        for (name, part) in [
            ("ulx3s", "LFE5U-85F"),
            ("ULX3S-12F", "LFE5U-12F"),
            ("ulx3s-25f", "LFE5U-25F"),
            ("ulx3s-45f", "LFE5U-45F"),
            ("ulx3s-85f", "LFE5U-85F"),
        ] {
            assert_eq!(board(name).unwrap().device().part, part, "{name}");
        }
        assert_eq!(board("ulx3s-12f").unwrap().device().nextpnr_flag, "--12k");
        assert!(board("ulx3s-99f").is_none());
        assert_eq!(
            board_names(),
            ["ulx3s", "ulx3s-12f", "ulx3s-25f", "ulx3s-45f", "ulx3s-85f"]
        );
        let err = find_board("ulx3").unwrap_err().to_string();
        assert!(
            err.starts_with("unknown board `ulx3`; did you mean `ulx3s`"),
            "{err}"
        );
        assert!(err.contains("known boards: ulx3s, ulx3s-12f"), "{err}");
    }

    #[test]
    fn devices() {
        let d = Device::ecp5("lfe5um5g-45f", "cabga381", 8).unwrap();
        assert_eq!((d.part, d.nextpnr_flag), ("LFE5UM5G-45F", "--um5g-45k"));
        assert!(matches!(
            Device::ecp5("LFE5UM5G-45F", "CABGA381", 6),
            Err(BoardError::BadSpeedGrade { .. })
        ));
        let e = Device::ecp5("LFE5U-95F", "CABGA381", 6)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown ECP5 part `LFE5U-95F`") && e.contains("LFE5U-85F"));
        assert!(matches!(
            Device::ecp5("LFE5U-85F", "BGA1", 6),
            Err(BoardError::UnknownPackage { .. })
        ));
        assert_eq!(Device::ecp5_parts().count(), 10);
    }

    fn csv_err(text: &str) -> (usize, String) {
        match parse_pins(text, "t.csv") {
            Err(BoardError::Csv {
                file,
                line,
                message,
            }) => {
                assert_eq!(file, "t.csv");
                (line, message)
            }
            other => panic!("expected a CSV error, got {other:?}"),
        }
    }

    #[test]
    fn bad_pin_files_name_the_line() {
        let ok = "# c\nclk,G2,LVCMOS33,NONE,,osc (FREQUENCY 25 MHz)\n";
        assert_eq!(
            parse_pins(ok, "t.csv").unwrap()[0].frequency_mhz,
            Some(25.0)
        );
        for (text, line, needle) in [
            ("\n\nclk,G2\n", 3, "found 2 field(s)"),
            (
                "a,G2,LVCMOS33,,,\nb b,G3,LVCMOS33,,,\n",
                2,
                "`b b` is not an identifier",
            ),
            ("a[x],G2,LVCMOS33,,,\n", 1, "`a[x]`"),
            ("a,g2,LVCMOS33,,,\n", 1, "site `g2`"),
            ("a,G2,lvcmos,,,\n", 1, "I/O type `lvcmos`"),
            ("a,G2,LVCMOS33,SIDEWAYS,,\n", 1, "pull mode `SIDEWAYS`"),
            ("a,G2,LVCMOS33,UP,5,\n", 1, "drive `5`"),
            ("a,G2,LVCMOS33,UP,,FREQUENCY fast\n", 1, "FREQUENCY <n> MHz"),
            (
                "a,G2,LVCMOS33,UP,,FREQUENCY 25 GHz\n",
                1,
                "FREQUENCY <n> MHz",
            ),
            (
                "a,G2,LVCMOS33,,,\na,G3,LVCMOS33,,,\n",
                2,
                "already defined on line 1",
            ),
            (
                "a,G2,LVCMOS33,,,\nb,G2,LVCMOS33,,,\n",
                2,
                "site G2 is already used by `a`",
            ),
            ("# only comments\n", 1, "no pins"),
            ("", 1, "no pins"),
        ] {
            let (l, m) = csv_err(text);
            assert_eq!(l, line, "{text:?}: {m}");
            assert!(m.contains(needle), "{text:?}: {m}");
        }
        // Header rows and missing notes are fine.
        let pins = parse_pins(
            "signal,site,io_type,pullmode,drive,note\na,G2,LVCMOS33,,",
            "t",
        )
        .unwrap();
        assert_eq!(pins.len(), 1);
        assert_eq!((pins[0].pull, pins[0].drive_ma), (None, None));
    }

    #[test]
    fn board_needs_a_clock() {
        let d = Device::ecp5("LFE5U-25F", "CABGA381", 6).unwrap();
        let e = Board::from_csv("b", "b", "", d, "a,G2,LVCMOS33,,,\n", "t", true).unwrap_err();
        assert_eq!(e, BoardError::NoClock { board: "b".into() });
        let b = Board::from_csv(
            "My-Board",
            "mine",
            "test",
            d,
            "c,G2,LVCMOS33,,,FREQUENCY 12.5 MHz\n",
            "t",
            true,
        )
        .unwrap();
        assert_eq!((b.name(), b.clock().mhz), ("my-board", 12.5));
    }
}
