// oclhls_board_sim: the top of the board simulation (docs/hardware-interface.md, "Board
// simulation"). Part of oclhls (board-support/rtl). It wraps the simulation variant of the
// LiteX SoC (`oclhls_ulx3s_sim`, written by oclhls_soc.py --sim) so that the testbench sees a
// clock named `clk` and the host bridge as two byte streams (valid/ready handshakes, a byte
// moves on a rising edge where both are high):
//   rx_*: host to board (into UARTBone's Stream2Wishbone), tx_*: board to host.
`default_nettype none
module oclhls_board_sim (
    input  wire       clk,
    input  wire       rst,
    input  wire       rx_valid,
    output wire       rx_ready,
    input  wire [7:0] rx_data,
    output wire       tx_valid,
    input  wire       tx_ready,
    output wire [7:0] tx_data
);
    oclhls_ulx3s_sim u_soc (
        .sys_clk(clk),
        .sys_rst(rst),
        .serial_sink_valid(rx_valid),
        .serial_sink_ready(rx_ready),
        .serial_sink_data(rx_data),
        .serial_source_valid(tx_valid),
        .serial_source_ready(tx_ready),
        .serial_source_data(tx_data)
    );
endmodule
`default_nettype wire
