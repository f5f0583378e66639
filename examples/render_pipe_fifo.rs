//! Writes the pipe FIFO's Verilog files into a directory (for lint, synthesis or formal runs by
//! hand): `cargo run --example render_pipe_fifo -- DIR` (default `build/pipe_fifo`).

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "build/pipe_fifo".into());
    std::fs::create_dir_all(&dir).expect("creating the output directory");
    for reservations in [true, false] {
        for (name, text) in rtl_templates::pipe_fifo_files(reservations) {
            let path = std::path::Path::new(&dir).join(name);
            std::fs::write(&path, text).expect("writing a Verilog file");
            println!("{}", path.display());
        }
    }
}
