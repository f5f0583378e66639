//! Register map, adapter choice and wrapper generation of board systems.

use super::wrapper::{core_verilog, native_address_bits, wrapper_ports};
use super::*;

fn port(name: &str, dir: PortDir, width: u32) -> CorePort {
    CorePort {
        name: name.to_string(),
        dir,
        width,
    }
}

/// The ports of `vadd(global const float *a, global const float *b, global float *c)`, one
/// `long` argument `n` and a 16-bit `short` buffer `s` written with byte enables, as the
/// kernel generator names them, with `prefix` before each (system tops).
fn vadd_ports(prefix: &str) -> Vec<CorePort> {
    use PortDir::{In, Out};
    let mut v = Vec::new();
    let mut p = |n: &str, d, w| v.push(port(&format!("{prefix}{n}"), d, w));
    for (n, d) in [("start", In), ("busy", Out), ("done", Out)] {
        p(n, d, 1);
    }
    p("global_size_0", In, 32);
    p("global_size_1", In, 32);
    p("global_size_2", In, 32);
    p("local_size_0", In, 32);
    p("arg_a", In, 32);
    p("arg_n", In, 64);
    p("a_rreq_valid", Out, 1);
    p("a_rreq_ready", In, 1);
    p("a_rreq_addr", Out, 32);
    p("a_rresp_valid", In, 1);
    p("a_rresp_ready", Out, 1);
    p("a_rresp_data", In, 32);
    p("s_wreq_valid", Out, 1);
    p("s_wreq_ready", In, 1);
    p("s_wreq_addr", Out, 32);
    p("s_wreq_data", Out, 16);
    p("s_wreq_strb", Out, 2);
    p("s_wresp_valid", In, 1);
    p("s_wresp_ready", Out, 1);
    v
}

fn single() -> CoreSpec {
    let mut ports = vec![port("clk", PortDir::In, 1), port("rst", PortDir::In, 1)];
    ports.extend(vadd_ports(""));
    CoreSpec {
        module: "vadd".into(),
        ports,
        kernels: vec!["vadd".into()],
        system: false,
    }
}

#[test]
fn register_map_of_one_kernel() {
    let plan = plan(&single()).unwrap();
    assert_eq!(plan.banks.len(), 1);
    let b = &plan.banks[0];
    assert_eq!((b.bank.as_str(), b.prefix.as_str()), ("k_vadd", ""));
    let map: Vec<(u32, &str, Access, Option<&str>, u32)> = b
        .registers
        .iter()
        .map(|r| {
            (
                r.offset,
                r.name.as_str(),
                r.access,
                r.port.as_deref(),
                r.word,
            )
        })
        .collect();
    assert_eq!(
        map,
        vec![
            (0x00, "ctrl", Access::Ctrl, None, 0),
            (0x04, "cycles_lo", Access::Ro, None, 0),
            (0x08, "cycles_hi", Access::Ro, None, 1),
            (0x0c, "global_size_0", Access::Rw, Some("global_size_0"), 0),
            (0x10, "global_size_1", Access::Rw, Some("global_size_1"), 0),
            (0x14, "global_size_2", Access::Rw, Some("global_size_2"), 0),
            (0x18, "local_size_0", Access::Rw, Some("local_size_0"), 0),
            (0x1c, "arg_a", Access::Rw, Some("arg_a"), 0),
            (0x20, "arg_n_w0", Access::Rw, Some("arg_n"), 0),
            (0x24, "arg_n_w1", Access::Rw, Some("arg_n"), 1),
        ]
    );
    assert_eq!(
        b.registers[8].doc,
        "argument `n` (a buffer's byte address in SDRAM for a pointer), bits 31:0"
    );
    assert_eq!(
        plan.mem_ports,
        vec![
            MemPort {
                index: 0,
                prefix: "a".into(),
                element_bits: 32,
                data_bits: 16,
                read: true,
                write: false,
                strb: false,
                rburst: false,
                wburst: false
            },
            MemPort {
                index: 1,
                prefix: "s".into(),
                element_bits: 16,
                data_bits: 16,
                read: false,
                write: true,
                strb: true,
                rburst: false,
                wburst: false
            },
        ]
    );
    assert!(plan.unconnected.is_empty());
}

#[test]
fn system_banks_counters_and_pipes() {
    let mut ports = vec![port("clk", PortDir::In, 1), port("rst", PortDir::In, 1)];
    ports.extend(vadd_ports("producer__"));
    ports.extend(vadd_ports("consumer__"));
    ports.push(port("pipe__p__count", PortDir::Out, 5));
    ports.push(port("counters__arg_c", PortDir::In, 32));
    for (n, d, w) in [
        ("counters__c_rreq_valid", PortDir::Out, 1),
        ("counters__c_rreq_ready", PortDir::In, 1),
        ("counters__c_rreq_addr", PortDir::Out, 32),
        ("counters__c_rresp_valid", PortDir::In, 1),
        ("counters__c_rresp_ready", PortDir::Out, 1),
        ("counters__c_rresp_data", PortDir::In, 8),
    ] {
        ports.push(port(n, d, w));
    }
    let spec = CoreSpec {
        module: "sys_system".into(),
        ports,
        kernels: vec!["producer".into(), "consumer".into()],
        system: true,
    };
    let plan = plan(&spec).unwrap();
    let banks: Vec<(&str, &str, bool, usize)> = plan
        .banks
        .iter()
        .map(|b| {
            (
                b.bank.as_str(),
                b.prefix.as_str(),
                b.launchable,
                b.registers.len(),
            )
        })
        .collect();
    assert_eq!(
        banks,
        vec![
            ("k_producer", "producer__", true, 10),
            ("k_consumer", "consumer__", true, 10),
            ("k_counters", "counters__", false, 1),
        ]
    );
    assert_eq!(
        plan.banks[1].registers[7].port.as_deref(),
        Some("consumer__arg_a")
    );
    assert_eq!(plan.banks[2].registers[0].offset, 0);
    let prefixes: Vec<&str> = plan.mem_ports.iter().map(|m| m.prefix.as_str()).collect();
    assert_eq!(
        prefixes,
        vec![
            "producer__a",
            "producer__s",
            "consumer__a",
            "consumer__s",
            "counters__c"
        ]
    );
    // An 8-bit counter port sits in a 16-bit native word.
    assert_eq!(
        (plan.mem_ports[4].element_bits, plan.mem_ports[4].data_bits),
        (8, 16)
    );
    assert_eq!(plan.unconnected, vec!["pipe__p__count".to_string()]);
}

#[test]
fn atomic_ports_are_clients_of_the_atomic_unit() {
    let mut spec = single();
    spec.ports.push(port("a_rreq_op", PortDir::Out, 4));
    spec.ports.push(port("a_rreq_operand", PortDir::Out, 32));
    let plan = plan(&spec).unwrap();
    // `a` is read-only: its reads (plain and atomic) all go through the unit, so it has no
    // adapter; `s` keeps index 0 and the unit's native port comes after it.
    let prefixes: Vec<&str> = plan.mem_ports.iter().map(|m| m.prefix.as_str()).collect();
    assert_eq!(prefixes, ["s"]);
    assert_eq!(
        plan.atomic_unit,
        Some(AtomicUnit {
            index: 1,
            data_bits: 16,
            word_bits: 32,
            clients: vec![AtomicClient {
                prefix: "a".into(),
                element_bits: 32,
                compare: false
            }],
        })
    );
    let native: Vec<(usize, u32, bool, bool)> = plan
        .native_ports()
        .iter()
        .map(|n| (n.index, n.data_bits, n.read, n.write))
        .collect();
    assert_eq!(native, [(0, 16, false, true), (1, 16, true, true)]);
    let v = core_verilog(&plan, &spec.ports, 32 << 20);
    assert!(
        v.contains(
            "oclhls_atomic_unit #(.N(1), .NARROW(1'b1), .D(32), .ND(16), .NAW(24)) u_atomic"
        ) && v.contains(".c_rreq_operand({{32'd0, c_a_rreq_operand}})")
            && v.contains(".c_rreq_compare({64'd0})")
            && v.contains("assign c_a_rresp_data = au1_rresp_data[31:0];")
            && v.contains(".cmd_valid(m1_cmd_valid)"),
        "{v}"
    );
    assert!(!v.contains("u_mem1"), "{v}");

    // The unit serves 32- and 64-bit elements only.
    let mut spec = single();
    spec.ports.push(port("s_rreq_valid", PortDir::Out, 1));
    spec.ports.push(port("s_rreq_ready", PortDir::In, 1));
    spec.ports.push(port("s_rreq_addr", PortDir::Out, 32));
    spec.ports.push(port("s_rreq_op", PortDir::Out, 4));
    let e = super::plan(&spec).unwrap_err();
    assert!(
        matches!(&e, SocError::AtomicPort { arg, bits: 16, .. } if arg == "s"),
        "{e}"
    );
}

#[test]
fn odd_widths_and_unknown_ports_are_refused() {
    let mut spec = single();
    for p in &mut spec.ports {
        if p.name == "a_rresp_data" {
            p.width = 96;
        }
    }
    let e = plan(&spec).unwrap_err();
    assert!(matches!(e, SocError::ElementWidth { bits: 96, .. }), "{e}");

    let mut spec = single();
    spec.system = true;
    assert_eq!(
        plan(&spec).unwrap_err(),
        SocError::UnknownPort("start".into())
    );
}

#[test]
fn wrapper_ports_and_verilog() {
    let spec = single();
    let plan = plan(&spec).unwrap();
    let bytes = 32 << 20;
    assert_eq!(native_address_bits(bytes, 32), 23);
    assert_eq!(native_address_bits(bytes, 16), 24);
    assert_eq!(native_address_bits(64 << 20, 128), 22);
    let ports = wrapper_ports(&plan, bytes);
    let find = |n: &str| ports.iter().find(|p| p.name == n).map(|p| (p.dir, p.width));
    assert_eq!(find("k_vadd_ctrl_we"), Some((PortDir::In, 1)));
    assert_eq!(find("k_vadd_ctrl_rdata"), Some((PortDir::Out, 32)));
    assert_eq!(find("k_vadd_arg_n_w1"), Some((PortDir::In, 32)));
    assert_eq!(find("k_vadd_cycles_hi"), Some((PortDir::Out, 32)));
    assert_eq!(find("m0_cmd_addr"), Some((PortDir::Out, 24)));
    assert_eq!(find("m1_wdata_we"), Some((PortDir::Out, 2)));
    let v = core_verilog(&plan, &spec.ports, bytes);
    for part in [
        "module oclhls_board_core (",
        "    vadd u_core (",
        ".arg_n(c_arg_n)",
        "wire [63:0] arg_n_words = {k_vadd_arg_n_w1, k_vadd_arg_n_w0};",
        "assign c_arg_n = arg_n_words[63:0];",
        "wire k_vadd_start = k_vadd_ctrl_we && k_vadd_ctrl_wdata[0] && !c_busy;",
        "assign k_vadd_ctrl_rdata = {29'd0, !c_busy, k_vadd_done_r, c_busy};",
        "oclhls_litedram_port #(.W(32), .D(16), .AW(24), .RBURST(0), .WBURST(0)) u_mem0 (",
        "oclhls_litedram_port #(.W(16), .D(16), .AW(24), .RBURST(0), .WBURST(0)) u_mem1 (",
        ".rreq_len(8'd0)",
        ".kwdata_valid(1'b0), .kwdata_ready(m1_no_wdata_ready)",
        ".wreq_strb(c_s_wreq_strb)",
        ".rreq_valid(1'b0), .rreq_ready(m1_no_read_ready)",
    ] {
        assert!(v.contains(part), "{part:?} missing from:\n{v}");
    }
}

/// A pointer whose reads and writes both burst (docs/hardware-interface.md, "Bursts").
#[test]
fn bursting_ports_are_connected() {
    use PortDir::{In, Out};
    let mut spec = single();
    spec.ports.retain(|p| !p.name.starts_with("s_"));
    for (n, d, w) in [
        ("b_rreq_valid", Out, 1),
        ("b_rreq_ready", In, 1),
        ("b_rreq_addr", Out, 32),
        ("b_rreq_len", Out, 8),
        ("b_rresp_valid", In, 1),
        ("b_rresp_ready", Out, 1),
        ("b_rresp_data", In, 64),
        ("b_rresp_last", In, 1),
        ("b_wreq_valid", Out, 1),
        ("b_wreq_ready", In, 1),
        ("b_wreq_addr", Out, 32),
        ("b_wreq_len", Out, 8),
        ("b_wdata_valid", Out, 1),
        ("b_wdata_ready", In, 1),
        ("b_wdata_data", Out, 64),
        ("b_wdata_strb", Out, 8),
        ("b_wdata_last", Out, 1),
        ("b_wresp_valid", In, 1),
        ("b_wresp_ready", Out, 1),
    ] {
        spec.ports.push(port(n, d, w));
    }
    let plan = plan(&spec).unwrap();
    let b = &plan.mem_ports[1];
    assert_eq!(b.prefix, "b");
    assert_eq!((b.element_bits, b.data_bits), (64, 16));
    assert!(b.read && b.write && b.strb && b.rburst && b.wburst, "{b:?}");
    assert!(!plan.mem_ports[0].rburst && !plan.mem_ports[0].wburst);
    assert!(plan.unconnected.is_empty(), "{:?}", plan.unconnected);
    let v = core_verilog(&plan, &spec.ports, 32 << 20);
    for part in [
        ".RBURST(1), .WBURST(1)) u_mem1 (",
        ".rreq_len(c_b_rreq_len)",
        ".rresp_last(c_b_rresp_last)",
        ".wreq_len(c_b_wreq_len)",
        ".wreq_data(64'd0), .wreq_strb(8'd0)",
        ".kwdata_valid(c_b_wdata_valid), .kwdata_ready(c_b_wdata_ready)",
        ".kwdata_data(c_b_wdata_data)",
        ".kwdata_strb(c_b_wdata_strb), .kwdata_last(c_b_wdata_last)",
    ] {
        assert!(v.contains(part), "{part:?} missing from:\n{v}");
    }
}

#[test]
fn csr_map_is_checked_against_litex() {
    let plan = plan(&single()).unwrap();
    let mut csv = String::from(
        "# comment\ncsr_base,ctrl,0x00000000,,\ncsr_base,k_vadd,0x00001000,,\ncsr_base,oclhls,0x00001800,,\n",
    );
    for (i, (n, _, _)) in GLOBAL_REGISTERS.iter().enumerate() {
        csv.push_str(&format!(
            "csr_register,oclhls_{n},{:#010x},1,ro\n",
            0x1800 + 4 * i
        ));
    }
    for r in &plan.banks[0].registers {
        let acc = if r.access == Access::Ro { "ro" } else { "rw" };
        csv.push_str(&format!(
            "csr_register,k_vadd_{},{:#010x},1,{acc}\n",
            r.name,
            0x1000 + r.offset
        ));
    }
    let banks = super::litex::check_csr_map(&plan, &csv).unwrap();
    assert_eq!(
        banks,
        vec![
            super::litex::CsrBank {
                bank: "oclhls".into(),
                base: 0x1800
            },
            super::litex::CsrBank {
                bank: "k_vadd".into(),
                base: 0x1000
            }
        ]
    );
    let swapped = csv.replace("k_vadd_arg_a,0x0000101c", "k_vadd_arg_a,0x00001020");
    let e = super::litex::check_csr_map(&plan, &swapped).unwrap_err();
    assert!(e.contains("`k_vadd_arg_a` is at 0x1020"), "{e}");
}

#[test]
fn build_id_and_sdram_names() {
    assert_eq!(build_id(["a"]), build_id(["a"]));
    assert_ne!(build_id(["ab", "c"]), build_id(["a", "bc"]));
    // FNV-1a of the empty input is its offset basis, then the separator.
    assert_eq!(build_id::<[&str; 0], &str>([]), 0x811c_9dc5);
    use super::litex::Sdram;
    assert_eq!(Sdram::parse("is42s16160g"), Ok(Sdram::Mt48lc16m16a2));
    assert_eq!(Sdram::parse("AS4C32M16SB").map(Sdram::bytes), Ok(64 << 20));
    assert!(Sdram::parse("x").unwrap_err().contains("AS4C32M16SB"));
}
