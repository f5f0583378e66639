// Test-only simulation model of the ECP5 MULT18X18D, for simulating oclhls_fp_mul18's
// SYNTHESIS branch (the primitive instance) in Verilator (tests/fp_units.rs). Written from the
// Lattice ECP5 and ECP5-5G sysDSP usage guide: P = A x B (signed when SIGNEDA / SIGNEDB),
// with optional input and output registers on CLK0 enabled by CE0 and reset synchronously by
// RST0. Only that subset is modelled: other clocks, enables, resets, the pipeline register,
// the C input and the cascade (SOURCEA/B, SRI*, SRO*, RO*) are not, and using them stops the
// simulation.
module MULT18X18D #(
    parameter REG_INPUTA_CLK = "NONE",
    parameter REG_INPUTA_CE = "CE0",
    parameter REG_INPUTA_RST = "RST0",
    parameter REG_INPUTB_CLK = "NONE",
    parameter REG_INPUTB_CE = "CE0",
    parameter REG_INPUTB_RST = "RST0",
    parameter REG_OUTPUT_CLK = "NONE",
    parameter REG_OUTPUT_CE = "CE0",
    parameter REG_OUTPUT_RST = "RST0",
    parameter GSR = "ENABLED"
) (
    input A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0,
    input B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0,
    input SIGNEDA, SIGNEDB, SOURCEA, SOURCEB,
    input CLK0, CLK1, CLK2, CLK3, CE0, CE1, CE2, CE3, RST0, RST1, RST2, RST3,
    output P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19,
        P18, P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0
);
    initial begin
        if (REG_INPUTA_CE != "CE0" || REG_INPUTB_CE != "CE0" || REG_OUTPUT_CE != "CE0"
            || REG_INPUTA_RST != "RST0" || REG_INPUTB_RST != "RST0"
            || REG_OUTPUT_RST != "RST0" || GSR != "DISABLED") begin
            $fatal(1, "MULT18X18D model: configuration not modelled");
        end
    end
    always @(posedge CLK0) begin
        if (SOURCEA || SOURCEB || CLK1 || CLK2 || CLK3 || CE1 || CE2 || CE3 || RST1 || RST2
            || RST3) begin
            $fatal(1, "MULT18X18D model: input not modelled");
        end
    end
    wire [17:0] a = {A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0};
    wire [17:0] b = {B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0};
    reg [17:0] ra, rb;
    reg sa, sb;
    always @(posedge CLK0) begin
        if (RST0) begin
            ra <= 18'd0;
            rb <= 18'd0;
            sa <= 1'b0;
            sb <= 1'b0;
        end else if (CE0) begin
            ra <= a;
            rb <= b;
            sa <= SIGNEDA;
            sb <= SIGNEDB;
        end
    end
    wire [17:0] ma = REG_INPUTA_CLK == "CLK0" ? ra : a;
    wire [17:0] mb = REG_INPUTB_CLK == "CLK0" ? rb : b;
    wire msa = REG_INPUTA_CLK == "CLK0" ? sa : SIGNEDA;
    wire msb = REG_INPUTB_CLK == "CLK0" ? sb : SIGNEDB;
    wire [35:0] xa = {{18{msa && ma[17]}}, ma};
    wire [35:0] xb = {{18{msb && mb[17]}}, mb};
    wire [35:0] prod = xa * xb;
    reg [35:0] rp;
    always @(posedge CLK0) begin
        if (RST0) begin
            rp <= 36'd0;
        end else if (CE0) begin
            rp <= prod;
        end
    end
    wire [35:0] p = REG_OUTPUT_CLK == "CLK0" ? rp : prod;
    assign P0 = p[0];
    assign P1 = p[1];
    assign P2 = p[2];
    assign P3 = p[3];
    assign P4 = p[4];
    assign P5 = p[5];
    assign P6 = p[6];
    assign P7 = p[7];
    assign P8 = p[8];
    assign P9 = p[9];
    assign P10 = p[10];
    assign P11 = p[11];
    assign P12 = p[12];
    assign P13 = p[13];
    assign P14 = p[14];
    assign P15 = p[15];
    assign P16 = p[16];
    assign P17 = p[17];
    assign P18 = p[18];
    assign P19 = p[19];
    assign P20 = p[20];
    assign P21 = p[21];
    assign P22 = p[22];
    assign P23 = p[23];
    assign P24 = p[24];
    assign P25 = p[25];
    assign P26 = p[26];
    assign P27 = p[27];
    assign P28 = p[28];
    assign P29 = p[29];
    assign P30 = p[30];
    assign P31 = p[31];
    assign P32 = p[32];
    assign P33 = p[33];
    assign P34 = p[34];
    assign P35 = p[35];
endmodule
