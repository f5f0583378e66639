//! What the host knows about a bitstream: LiteX's `csr.csv` and LiteDRAM's init sequence.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::{io_err, Error, Result};

/// One step of LiteDRAM's SDRAM init sequence (`soc/sdram_init.json`, written by
/// `oclhls_soc.py` from `litedram.init.get_sdram_phy_init_sequence`).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct SdramInitStep {
    pub comment: String,
    /// Written to `sdram_dfii_pi0_address`.
    pub address: u32,
    /// Written to `sdram_dfii_pi0_baddress`.
    pub bank: u32,
    /// `value` goes to `sdram_dfii_control` (true) or is a command for
    /// `sdram_dfii_pi0_command`, issued by writing 1 to `sdram_dfii_pi0_command_issue`.
    pub control: bool,
    pub value: u32,
    /// Clock cycles to wait after the step.
    pub delay: u64,
}

/// The whole sequence, with the control words around it.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct SdramInit {
    pub memtype: String,
    /// `sdram_dfii_control` before the steps (CKE | ODT | RESET_N: the host drives the DFI).
    pub software_control: u32,
    /// `sdram_dfii_control` after them (SEL: the controller drives the DFI).
    pub hardware_control: u32,
    pub steps: Vec<SdramInitStep>,
    /// How addresses map to banks (absent in builds before session 12: buffers are then
    /// packed without regard to banks).
    #[serde(default)]
    pub geometry: Option<SdramGeometry>,
}

/// How byte addresses of the SDRAM map to its banks, as LiteDRAM's crossbar maps them
/// (`ROW_BANK_COL`): each run of `bank_stripe_bytes` consecutive bytes lies in one bank, the
/// next run in the next bank, and after `banks` runs the next row begins.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub struct SdramGeometry {
    pub banks: u32,
    pub bank_stripe_bytes: u32,
}

/// A board system as its build describes it.
#[derive(Clone, Debug)]
pub struct BoardInfo {
    /// Register name (`k_vadd_ctrl`) -> byte address on the bridge.
    pub registers: BTreeMap<String, u32>,
    /// The SDRAM window on the bridge: base byte address and size.
    pub main_ram: (u32, u32),
    /// The system clock (`config_clock_frequency`).
    pub clock_hz: u64,
    pub sdram_init: SdramInit,
    /// The build id the board must report (`None`: accept any).
    pub build_id: Option<u32>,
}

impl BoardInfo {
    /// Reads `<soc_dir>/csr.csv` and `<soc_dir>/sdram_init.json` (the `soc/` directory of a
    /// board build: `build/<stem>/ulx3s/soc`).
    pub fn load(soc_dir: &Path, build_id: Option<u32>) -> Result<BoardInfo> {
        let read = |name: &str| {
            let p = soc_dir.join(name);
            std::fs::read_to_string(&p).map_err(io_err(format!("reading {}", p.display())))
        };
        BoardInfo::parse(&read("csr.csv")?, &read("sdram_init.json")?, build_id)
    }

    /// From the texts of `csr.csv` and `sdram_init.json`.
    pub fn parse(csr_csv: &str, sdram_init: &str, build_id: Option<u32>) -> Result<BoardInfo> {
        let bad = |m: String| Error::BoardInfo(m);
        let mut registers = BTreeMap::new();
        let mut main_ram = None;
        let mut clock_hz = None;
        for line in csr_csv.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split(',').collect();
            let num = |s: &str| {
                u32::from_str_radix(s.trim_start_matches("0x"), 16)
                    .map_err(|e| bad(format!("csr.csv: bad number in `{line}`: {e}")))
            };
            match f.as_slice() {
                ["csr_register", name, addr, ..] => {
                    registers.insert(name.to_string(), num(addr)?);
                }
                ["memory_region", "main_ram", base, size, ..] => {
                    let size = size
                        .parse::<u32>()
                        .map_err(|e| bad(format!("csr.csv: bad size in `{line}`: {e}")))?;
                    main_ram = Some((num(base)?, size));
                }
                ["constant", "config_clock_frequency", hz, ..] => {
                    clock_hz = hz.parse::<u64>().ok();
                }
                _ => {}
            }
        }
        let sdram_init: SdramInit =
            serde_json::from_str(sdram_init).map_err(|e| bad(format!("sdram_init.json: {e}")))?;
        Ok(BoardInfo {
            registers,
            main_ram: main_ram.ok_or_else(|| bad("csr.csv has no main_ram region".into()))?,
            clock_hz: clock_hz
                .ok_or_else(|| bad("csr.csv has no config_clock_frequency".into()))?,
            sdram_init,
            build_id,
        })
    }

    /// The byte address of register `name`.
    pub fn register(&self, name: &str) -> Result<u32> {
        self.registers
            .get(name)
            .copied()
            .ok_or_else(|| Error::NoRegister(name.to_string()))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Excerpts of a real `csr.csv` (vadd on the ULX3S) and `sdram_init.json`.
    pub const CSV: &str = "#----\n# Auto-generated by LiteX\n#----\n\
csr_base,k_vadd,0x00001000,,\n\
csr_register,k_vadd_ctrl,0x00001000,1,rw\n\
csr_register,k_vadd_cycles_lo,0x00001004,1,ro\n\
csr_register,k_vadd_cycles_hi,0x00001008,1,ro\n\
csr_register,k_vadd_global_size_0,0x0000100c,1,rw\n\
csr_register,k_vadd_arg_a,0x0000101c,1,rw\n\
csr_register,k_vadd_arg_wide_w0,0x00001020,1,rw\n\
csr_register,k_vadd_arg_wide_w1,0x00001024,1,rw\n\
csr_register,oclhls_magic,0x00001800,1,ro\n\
csr_register,oclhls_build_id,0x00001804,1,ro\n\
csr_register,sdram_dfii_control,0x00002000,1,rw\n\
csr_register,sdram_dfii_pi0_command,0x00002004,1,rw\n\
csr_register,sdram_dfii_pi0_command_issue,0x00002008,1,rw\n\
csr_register,sdram_dfii_pi0_address,0x0000200c,1,rw\n\
csr_register,sdram_dfii_pi0_baddress,0x00002010,1,rw\n\
constant,config_clock_frequency,50000000,,\n\
memory_region,main_ram,0x40000000,33554432,cached\n\
memory_region,csr,0x00000000,65536,io\n";

    pub const INIT: &str = r#"{"memtype": "SDR", "software_control": 14, "hardware_control": 1,
 "steps": [
  {"comment": "Bring CKE high", "address": 0, "bank": 0, "control": true, "value": 14, "delay": 20000},
  {"comment": "Precharge All", "address": 1024, "bank": 0, "control": false, "value": 11, "delay": 0},
  {"comment": "Load Mode Register / CL=2, BL=1", "address": 32, "bank": 0, "control": false, "value": 15, "delay": 200}
 ], "geometry": {"banks": 4, "bank_stripe_bytes": 1024}}"#;

    #[test]
    fn reads_registers_memory_clock_and_init() {
        let b = BoardInfo::parse(CSV, INIT, Some(7)).unwrap();
        assert_eq!(b.register("k_vadd_arg_a").unwrap(), 0x101c);
        assert_eq!(b.main_ram, (0x4000_0000, 32 << 20));
        assert_eq!(b.clock_hz, 50_000_000);
        assert_eq!(b.sdram_init.steps.len(), 3);
        assert_eq!(b.sdram_init.steps[2].address, 32);
        let g = b.sdram_init.geometry.unwrap();
        assert_eq!((g.banks, g.bank_stripe_bytes), (4, 1024));
        let e = b.register("k_nope_ctrl").unwrap_err().to_string();
        assert!(e.contains("no register `k_nope_ctrl`"), "{e}");
    }

    #[test]
    fn missing_parts_are_errors() {
        let e = BoardInfo::parse("csr_register,a,0x0,1,rw\n", INIT, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no main_ram"), "{e}");
        let e = BoardInfo::parse(CSV, "{}", None).unwrap_err().to_string();
        assert!(e.contains("sdram_init.json"), "{e}");
    }
}
