// Test model for the sim crate's port access: ports of every Verilator storage class, a
// registered counter, $stop on request, and on `dump` a $writememh into a directory that does
// not exist (a fatal error inside the Verilator runtime).
`default_nettype none

module widths (
    input  wire         clk,
    input  wire         rst,
    input  wire         stop,
    input  wire         dump,
    input  wire [4:0]   in5,
    input  wire [15:0]  in16,
    input  wire [32:0]  in33,
    input  wire [63:0]  in64,
    input  wire [99:0]  in100,
    output wire [4:0]   out5,
    output wire [15:0]  out16,
    output wire [32:0]  out33,
    output wire [63:0]  out64,
    output wire [99:0]  out100,
    output reg  [31:0]  count
);
    assign out5 = ~in5;
    assign out16 = in16 + 16'd1;
    assign out33 = ~in33;
    assign out64 = {in64[31:0], in64[63:32]};
    assign out100 = ~in100;

    reg [4:0] history [0:1];

    always @(posedge clk) begin
        if (rst) count <= 32'd0;
        else count <= count + 32'd1;
        history[0] <= in5;
        history[1] <= history[0];
        if (stop) $stop;
        if (dump) $writememh("/nonexistent-oclhls-dir/history.hex", history);
    end
endmodule

`default_nettype wire
