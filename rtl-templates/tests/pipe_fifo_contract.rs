//! The pipe FIFO templates implement the hardware contract (`hwcontract::pipe`): the rendered
//! modules have exactly the contract's ports (names, directions, widths, order; the plain
//! FIFO without the reservation ports), its parameters, and its defaults.

use hwcontract::pipe::{
    FifoParams, Width, DEFAULT_DEPTH, DEFAULT_MAX_RESERVATIONS, MODULE, MODULE_PLAIN, MODULE_SIDE,
};
use hwcontract::PortDir;
use rtl_templates::pipe_fifo_files;

/// The header of module `module` in `text`: its parameters `(name, default)` and ports
/// `(name, dir, width)` with the width as written (`""` for one bit, `"[IDW-1:0]"`, ...).
type Header = (Vec<(String, String)>, Vec<(String, PortDir, String)>);

fn header(text: &str, module: &str) -> Header {
    let start = text
        .find(&format!("module {module} #("))
        .unwrap_or_else(|| panic!("no module {module}"));
    let end = start + text[start..].find(");").expect("the header ends");
    let (mut params, mut ports) = (Vec::new(), Vec::new());
    for line in text[start..end].lines().skip(1) {
        let line = line.trim().trim_end_matches(',');
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["parameter", "integer", name, "=", value @ ..] => {
                params.push((name.to_string(), value.join(" ")))
            }
            [dir @ ("input" | "output"), "wire", rest @ ..] => {
                let dir = if *dir == "input" {
                    PortDir::In
                } else {
                    PortDir::Out
                };
                let (width, name) = match rest {
                    [name] => ("", *name),
                    [width, name] => (*width, *name),
                    _ => panic!("port line `{line}`"),
                };
                ports.push((name.to_string(), dir, width.to_string()));
            }
            _ => {}
        }
    }
    (params, ports)
}

/// The template's spelling of a contract width.
fn spelled(w: Width) -> String {
    match w {
        Width::Fixed(1) => String::new(),
        Width::Fixed(n) => format!("[{}:0]", n - 1),
        Width::Packet => "[WIDTH-1:0]".into(),
        Width::ResId => "[IDW-1:0]".into(),
        Width::Count => "[CW-1:0]".into(),
    }
}

fn check(reservations: bool) {
    let files = pipe_fifo_files(reservations);
    let contract = FifoParams {
        width: 32,
        depth: DEFAULT_DEPTH,
        max_res: reservations.then_some(DEFAULT_MAX_RESERVATIONS),
        slack: 0,
    };
    let module = contract.module();
    assert_eq!(files[0].0, format!("{module}.v"));
    let (params, ports) = header(&files[0].1, module);
    let want: Vec<(String, PortDir, String)> = contract
        .module_ports()
        .map(|p| (p.name.to_string(), p.dir, spelled(p.width)))
        .collect();
    assert_eq!(ports, want, "ports of {module}");
    let default = |name: &str| {
        params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("{module} has no parameter {name}"))
    };
    for (name, _) in contract.overrides() {
        default(name);
    }
    assert_eq!(default("DEPTH"), DEFAULT_DEPTH.to_string());
    if reservations {
        assert_eq!(default("MAX_RES"), DEFAULT_MAX_RESERVATIONS.to_string());
    }
}

#[test]
fn fifo_with_reservations_has_the_contract_ports_and_defaults() {
    check(true);
    let files = pipe_fifo_files(true);
    assert_eq!(files[0].0, format!("{MODULE}.v"));
    assert_eq!(files[1].0, format!("{MODULE_SIDE}.v"));
}

#[test]
fn plain_fifo_has_the_contract_ports_and_defaults() {
    check(false);
    assert_eq!(pipe_fifo_files(false)[0].0, format!("{MODULE_PLAIN}.v"));
}
