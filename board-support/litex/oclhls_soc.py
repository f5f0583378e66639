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
#   (--sim is reserved for the board simulation: SDRAMPHYModel instead of the pins.)

import argparse
import json
import os
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


class OclhlsSoC(SoCCore):
    def __init__(self, m):
        platform = radiona_ulx3s.Platform(device=m["device"], revision="2.0",
                                          toolchain="trellis")
        sys_clk_freq = m["sys_clk_hz"]
        self.crg = _CRG(platform, sys_clk_freq)
        SoCCore.__init__(self, platform, sys_clk_freq,
                         ident="oclhls board system", ident_version=False,
                         cpu_type=None, uart_name="uartbone",
                         integrated_rom_size=0, integrated_sram_size=0,
                         with_timer=False, with_ctrl=True)
        # SDRAM: no L2 cache, so host writes over the bridge reach the SDRAM before a launch.
        self.sdrphy = GENSDRPHY(platform.request("sdram"), sys_clk_freq)
        module = getattr(litedram_modules, m["sdram_module"])(sys_clk_freq, "1:1")
        self.add_sdram("sdram", phy=self.sdrphy, module=module, l2_cache_size=0)

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


def main():
    ap = argparse.ArgumentParser(description="oclhls board system on the ULX3S (LiteX)")
    ap.add_argument("manifest")
    ap.add_argument("output_dir")
    ap.add_argument("--sim", action="store_true", help="reserved: board simulation")
    args = ap.parse_args()
    with open(args.manifest) as f:
        m = json.load(f)
    if args.sim:
        sys.exit("oclhls_soc.py: --sim is not built yet")
    soc = OclhlsSoC(m)
    builder = Builder(soc, output_dir=args.output_dir, compile_software=False,
                      compile_gateware=False,
                      csr_csv=os.path.join(args.output_dir, "csr.csv"),
                      csr_json=os.path.join(args.output_dir, "csr.json"))
    builder.build(build_name=m["name"], run=False)


if __name__ == "__main__":
    main()
