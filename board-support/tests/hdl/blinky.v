// A full ULX3S design: the LEDs show the top bits of a counter on the 25 MHz clock; button 1
// (FIRE1) resets it.
`default_nettype none
module blinky (
    input  wire       clk_25mhz,
    input  wire [6:0] btn,
    output wire [7:0] led
);
    wire [31:0] q;
    counter #(.W(32)) c (
        .clk(clk_25mhz),
        .rst(btn[1]),
        .en(1'b1),
        .q(q)
    );
    assign led = q[31:24];
endmodule
