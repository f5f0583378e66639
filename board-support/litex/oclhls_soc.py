#!/usr/bin/env python3
# oclhls_soc.py: the oclhls board system on the ULX3S, built with LiteX.
#
# Part of oclhls (Apache-2.0). It imports, and does not copy, LiteX, LiteDRAM, Migen and
# LiteX-Boards (all BSD-2-Clause: Copyright (c) Enjoy-Digital, Florent Kermarrec and the
# LiteX contributors; Migen: Copyright (c) M-Labs), and reuses the ULX3S clock/reset generator
# `_CRG` of litex_boards.targets.radiona_ulx3s. The generated Verilog contains LiteX's cores
# under their BSD-2-Clause licence.
#
# What it builds (docs/hardware-interface.md, "Board system"): a CPU-less SoC with
#   - the 25 MHz oscillator through the ECP5 PLL (LiteX-Boards' CRG), reset from the button;
#   - the board's SDR SDRAM through LiteDRAM (GENSDRPHY, full rate), no L2 cache (the host and
#     the kernels see the same memory);
#   - a host bridge over the FTDI serial (LiteX UARTBone: litex_server / RemoteClient work);
#   - `oclhls_board_core` (written by oclhls: the kernels, their control logic and memory
#     adapters), whose ports the manifest lists: control registers become CSRs of one bank per
#     kernel in the order of the manifest, memory ports become LiteDRAM native user ports;
#   - bank `oclhls`: magic, build id, number of kernel banks, clock in Hz.
# The script writes the SoC Verilog, the LPF and csr.csv/csr.json and does not run the tools:
# oclhls runs Yosys, nextpnr-ecp5 and ecppack itself (board-support::flow) so that it reads
# their reports.
#
# Usage: python oclhls_soc.py MANIFEST.json OUTPUT_DIR [--sim]
#
# --sim builds the same SoC for the board simulation (docs/hardware-interface.md, "Board
# simulation"): LiteDRAM's SDRAMPHYModel (the same module and timings, with LiteDRAM's DFI
# timing checker, which prints every violation) instead of GENSDRPHY and the pins; the clock and
# reset as top-level inputs (`sys_clk`, `sys_rst`) instead of the PLL; and the UARTBone bridge's
# PHY replaced by LiteX's RS232PHYModel: the bridge (Stream2Wishbone, identical) sees a byte
# stream, exposed as `serial_sink_*` (host to board) and `serial_source_*` (board to host). The
# CSR map is the same as on the board. Writes `soc/gateware/oclhls_ulx3s_sim.v`.
#
# Both variants write `soc/sdram_init.json`: LiteDRAM's SDRAM init sequence
# (litedram.init.get_sdram_phy_init_sequence), which a host replays through the `sdram_dfii_*`
# registers since there is no CPU to run it.

import argparse
import json
import os
import re
import sys

from migen import ClockSignal, ResetSignal, Instance, Signal
from litex.gen import LiteXModule
from litex.soc.interconnect.csr import CSR, CSRStatus, CSRStorage
from litex.soc.integration.soc_core import SoCCore
from litex.soc.integration.builder import Builder
from litex_boards.platforms import radiona_ulx3s
from litex_boards.targets.radiona_ulx3s import _CRG
from litedram import modules as litedram_modules
from litedram.phy import GENSDRPHY
from litedram.core.controller import ControllerSettings
from litedram.init import get_sdram_phy_init_sequence
from litex.build.generic_platform import GenericPlatform, Pins, Subsignal

# LiteDRAM controller settings (litedram.core.controller.ControllerSettings). The SDR
# multiplexer serves reads or writes for up to `read_time` / `write_time` cycles before it
# turns the bus around when the other kind waits; LiteDRAM's defaults (32 / 16) suit a CPU's
# cache lines, while kernel ports stream: on the board simulation at --memory-latency 32, vadd
# (two read streams, one write stream) reaches 89.4 % of the SDRAM's peak at 64 / 64, 91.5 %
# at 128 / 128 and 92.3 % at 256 / 256 (80.1 % at the defaults); copy 89.0, 91.9, 92.7 % (81.9).
# 128 keeps the other direction's wait short (docs/benchmarks.md, "Board simulation").
SDRAM_CONTROLLER = {"read_time": 128, "write_time": 128}


class Bank(LiteXModule):
    """One kernel's registers, created in manifest order (LiteX orders a bank's CSRs by
    creation), each connected to the core's port of the same name."""

    def __init__(self, bank, io):
        for reg in bank["registers"]:
            name = reg["name"]
            full = bank["bank"] + "_" + name
            if reg["access"] == "ctrl":
                csr = CSR(32, name=name)
                self.comb += [
                    io[full + "_we"].eq(csr.re),
                    io[full + "_wdata"].eq(csr.r),
                    csr.w.eq(io[full + "_rdata"]),
                ]
            elif reg["access"] == "rw":
                csr = CSRStorage(32, name=name, description=reg["doc"])
                self.comb += io[full].eq(csr.storage)
            else:
                csr = CSRStatus(32, name=name, description=reg["doc"])
                self.comb += csr.status.eq(io[full])
            setattr(self, name, csr)


class Globals(LiteXModule):
    def __init__(self, values):
        for name, value in values:
            setattr(self, name, CSRStatus(32, name=name, reset=value))


_SIM_IO = [
    ("sys_clk", 0, Pins(1)),
    ("sys_rst", 0, Pins(1)),
    ("serial", 0,
        Subsignal("source_valid", Pins(1)),
        Subsignal("source_ready", Pins(1)),
        Subsignal("source_data", Pins(8)),
        Subsignal("sink_valid", Pins(1)),
        Subsignal("sink_ready", Pins(1)),
        Subsignal("sink_data", Pins(8)),
    ),
]


class SimPlatform(GenericPlatform):
    """Verilog only: LiteX's own SimPlatform also writes and builds its C++ harness, which the
    board simulation does not use (oclhls builds the model with its Verilator shim)."""

    def __init__(self):
        GenericPlatform.__init__(self, "SIM", _SIM_IO, name="sim")

    def build(self, fragment, build_dir, build_name, run=False, **kwargs):
        from migen.fhdl.structure import _Fragment
        from litex.build.sim.common import sim_special_overrides
        os.makedirs(build_dir, exist_ok=True)
        if not isinstance(fragment, _Fragment):
            fragment = fragment.get_fragment()
        self.finalize(fragment)
        v = self.get_verilog(fragment, name=build_name,
                             special_overrides=dict(sim_special_overrides))
        # One self-contained, deterministic file (oclhls caches the model by its content): the
        # ROM contents inline instead of `$readmemh` of a file relative to the working
        # directory, and no dates.
        src = v.main_source
        for fname, content in v.data_files.items():
            stmt = re.search(r'\$readmemh\("%s", (\w+)\);' % re.escape(fname), src)
            if stmt is None:
                sys.exit("oclhls_soc.py: no $readmemh of %s in the Verilog" % fname)
            words = content.split()
            assigns = " ".join("%s[%d] = 'h%s;" % (stmt.group(1), i, w)
                               for i, w in enumerate(words))
            src = src.replace(stmt.group(0), assigns)
        src = re.sub(r"^// Date .*\n", "", src, flags=re.M)
        src = re.sub(r"^//  Auto-Generated by LiteX on .*\n", "//  Auto-Generated by LiteX.\n",
                     src, flags=re.M)
        with open(os.path.join(build_dir, build_name + ".v"), "w") as f:
            f.write(src)
        return v.ns


class OclhlsSoC(SoCCore):
    def __init__(self, m, sim=False):
        sys_clk_freq = m["sys_clk_hz"]
        if sim:
            from litex.build.io import CRG
            platform = SimPlatform()
            self.crg = CRG(platform.request("sys_clk"), platform.request("sys_rst"))
        else:
            platform = radiona_ulx3s.Platform(device=m["device"], revision="2.0",
                                              toolchain="trellis")
            self.crg = _CRG(platform, sys_clk_freq)
        SoCCore.__init__(self, platform, sys_clk_freq,
                         ident="oclhls board system", ident_version=False,
                         cpu_type=None, uart_name="uartbone", with_uart=not sim,
                         uart_baudrate=m["uart_baud"],
                         integrated_rom_size=0, integrated_sram_size=0,
                         with_timer=False, with_ctrl=True)
        if sim:
            # What add_uartbone builds, with the byte-stream PHY model (same module names,
            # so the same CSR map).
            from litex.soc.cores.uart import RS232PHYModel, UARTBone
            self.uartbone_phy = RS232PHYModel(platform.request("serial"))
            self.uartbone = UARTBone(phy=self.uartbone_phy, clk_freq=sys_clk_freq,
                                     address_width=self.bus.address_width)
            self.bus.add_master(name="uartbone", master=self.uartbone.wishbone)
        # SDRAM: no L2 cache, so host writes over the bridge reach the SDRAM before a launch.
        module = getattr(litedram_modules, m["sdram_module"])(sys_clk_freq, "1:1")
        if sim:
            from litedram.phy.model import SDRAMPHYModel, SDRAM_VERBOSE_STD
            self.sdrphy = SDRAMPHYModel(module=module, data_width=16, clk_freq=sys_clk_freq,
                                        verbosity=SDRAM_VERBOSE_STD)
        else:
            self.sdrphy = GENSDRPHY(platform.request("sdram"), sys_clk_freq)
        self.add_sdram("sdram", phy=self.sdrphy, module=module, l2_cache_size=0,
                       controller_settings=ControllerSettings(**SDRAM_CONTROLLER))
        self.sdram_module = module

        # The core and its ports.
        io = {}
        kwargs = {}
        for p in m["ports"]:
            if p["name"] in ("clk", "rst"):
                continue
            s = Signal(p["width"], name="core_" + p["name"])
            io[p["name"]] = s
            kwargs[("i_" if p["dir"] == "in" else "o_") + p["name"]] = s
        self.specials += Instance(m["core_module"], i_clk=ClockSignal("sys"),
                                  i_rst=ResetSignal("sys"), **kwargs)
        for f in m["core_files"]:
            platform.add_source(f)

        # Memory ports: one LiteDRAM native port each, converted to the adapter's width.
        for mp in m["mem_ports"]:
            i = mp["index"]
            mode = "both" if mp["read"] and mp["write"] else ("read" if mp["read"] else "write")
            port = self.sdram.crossbar.get_port(mode=mode, data_width=mp["data_bits"])
            if port.address_width != mp["address_bits"] or port.data_width != mp["data_bits"]:
                sys.exit("oclhls_soc.py: memory port %d: LiteDRAM gives %d address bits of %d-bit "
                         "words, the core expects %d of %d" % (i, port.address_width,
                         port.data_width, mp["address_bits"], mp["data_bits"]))
            n = "m%d_" % i
            self.comb += [
                port.cmd.valid.eq(io[n + "cmd_valid"]),
                io[n + "cmd_ready"].eq(port.cmd.ready),
                port.cmd.we.eq(io[n + "cmd_we"]),
                port.cmd.addr.eq(io[n + "cmd_addr"]),
                port.cmd.last.eq(io[n + "cmd_last"]),
                io[n + "rdata_valid"].eq(port.rdata.valid),
                port.rdata.ready.eq(io[n + "rdata_ready"]),
                io[n + "rdata_data"].eq(port.rdata.data),
            ]
            if mp["write"]:
                self.comb += [
                    port.wdata.valid.eq(io[n + "wdata_valid"]),
                    io[n + "wdata_ready"].eq(port.wdata.ready),
                    port.wdata.data.eq(io[n + "wdata_data"]),
                    port.wdata.we.eq(io[n + "wdata_we"]),
                ]

        # Registers.
        self.oclhls = Globals([("magic", m["magic"]), ("build_id", m["build_id"]),
                               ("kernels", len(m["banks"])), ("clock_hz", int(sys_clk_freq))])
        for b in m["banks"]:
            self.add_module(name=b["bank"], module=Bank(b, io))


_DFII = {
    "DFII_CONTROL_SEL": 0x01, "DFII_CONTROL_CKE": 0x02, "DFII_CONTROL_ODT": 0x04,
    "DFII_CONTROL_RESET_N": 0x08,
    "DFII_COMMAND_CS": 0x01, "DFII_COMMAND_WE": 0x02, "DFII_COMMAND_CAS": 0x04,
    "DFII_COMMAND_RAS": 0x08, "DFII_COMMAND_WRDATA": 0x10, "DFII_COMMAND_RDDATA": 0x20,
}


def sdram_geometry(soc):
    """How byte addresses map to SDRAM banks, as LiteDRAM's crossbar maps them
    (ROW_BANK_COL, litedram/core/crossbar.py): `banks` banks, each run of
    `bank_stripe_bytes` consecutive bytes in one bank, the next run in the next bank. The
    host places buffers in different banks with it (host-runtime, Device::alloc)."""
    ctrl = soc.sdram.controller.interface
    word = ctrl.data_width // 8
    shift = ctrl.settings.geom.colbits - ctrl.address_align
    align = getattr(ctrl.settings, "bank_byte_alignment", 0) // word
    if align > 1:
        shift = max(shift, align.bit_length() - 1)
    return {"banks": 1 << ctrl.settings.geom.bankbits, "bank_stripe_bytes": (1 << shift) * word}


def write_sdram_init(soc, path):
    """LiteDRAM's init sequence as JSON: each step writes `address` and `bank` to
    sdram_dfii_pi0_address/baddress, then either `control` to sdram_dfii_control (a
    DFII_CONTROL_* step) or `command` to sdram_dfii_pi0_command followed by a write of 1 to
    sdram_dfii_pi0_command_issue, then waits `delay` cycles. Before the sequence the host
    switches to software control (control = CKE|ODT|RESET_N), after it to hardware control
    (control = SEL), as LiteX's sdram_init() does."""
    phy = soc.sdrphy.settings
    seq, _ = get_sdram_phy_init_sequence(phy, soc.sdram_module.timing_settings)
    steps = []
    for comment, a, ba, cmd, delay in seq:
        value = 0
        for name in cmd.split("|"):
            value |= _DFII[name.strip()]
        steps.append({"comment": comment, "address": a, "bank": ba,
                      "control": cmd.startswith("DFII_CONTROL"), "value": value,
                      "delay": delay})
    out = {"memtype": phy.memtype, "software_control": 0x0e, "hardware_control": 0x01,
           "steps": steps, "geometry": sdram_geometry(soc)}
    with open(path, "w") as f:
        json.dump(out, f, indent=1)


def main():
    ap = argparse.ArgumentParser(description="oclhls board system on the ULX3S (LiteX)")
    ap.add_argument("manifest")
    ap.add_argument("output_dir")
    ap.add_argument("--sim", action="store_true",
                    help="board simulation: SDRAM model, byte-stream bridge (see above)")
    args = ap.parse_args()
    with open(args.manifest) as f:
        m = json.load(f)
    soc = OclhlsSoC(m, sim=args.sim)
    builder = Builder(soc, output_dir=args.output_dir, compile_software=False,
                      compile_gateware=False,
                      csr_csv=os.path.join(args.output_dir, "csr.csv"),
                      csr_json=os.path.join(args.output_dir, "csr.json"))
    builder.build(build_name=m["name"] + ("_sim" if args.sim else ""), run=False)
    write_sdram_init(soc, os.path.join(args.output_dir, "sdram_init.json"))


if __name__ == "__main__":
    main()
