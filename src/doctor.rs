//! `oclhls doctor`: the external tools, where each was found, and its version.

use anyhow::Result;
use std::process::ExitCode;

pub fn doctor(offline: bool) -> Result<ExitCode> {
    let tc = toolchain::Toolchain::new(offline);
    println!("tool cache: {}", tc.cache_dir().display());
    let mut missing = 0;
    for tool in toolchain::Tool::ALL {
        let r = if offline {
            tc.probe(tool)
        } else {
            tc.locate(tool)
        };
        match r {
            Ok(info) => {
                let from = match &info.source {
                    toolchain::Source::Path => "PATH".to_string(),
                    toolchain::Source::Provisioned(v) => format!("provisioned in {}", v.display()),
                };
                println!(
                    "{:<15} {:<10} {} ({from})",
                    tool.name(),
                    info.version,
                    info.path.display()
                );
            }
            Err(e) => {
                missing += 1;
                println!("{:<15} {:<20} {e}", tool.name(), "missing");
            }
        }
    }
    Ok(if missing == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
