//! Binding argument values to a kernel's `arg_*` ports: each argument given exactly once, every
//! argument given, and each value fitting its port (zero- or sign-extended).

use crate::model::{Model, PortId};
use crate::SimError;

use super::ports::KernelPorts;

impl KernelPorts {
    /// Resolves user arguments to `arg_*` ports; every argument must be given exactly once.
    pub(super) fn check_args(
        &self,
        model: &Model,
        args: &[(String, Vec<u32>)],
    ) -> Result<Vec<(PortId, Vec<u32>)>, SimError> {
        let arg_prefix = format!("{}arg_", self.prefix);
        let all: Vec<&str> = model
            .ports()
            .iter()
            .filter_map(|p| p.name.strip_prefix(&arg_prefix))
            .collect();
        let of = self.of_kernel();
        let mut out = Vec::new();
        for (name, words) in args {
            let Some(id) = model.port(&format!("{arg_prefix}{name}")) else {
                return Err(SimError::Argument(format!(
                    "{} has no argument `{name}`; its arguments are: {}",
                    self.kernel(),
                    all.join(", ")
                )));
            };
            if out.iter().any(|(p, _)| *p == id) {
                return Err(SimError::Argument(format!(
                    "{of}argument `{name}` is given twice"
                )));
            }
            let width = model.spec(id).width;
            if !fits(words, width) {
                return Err(SimError::Argument(format!(
                    "{of}the value of argument `{name}` does not fit in {width} bits"
                )));
            }
            out.push((id, words.clone()));
        }
        let missing: Vec<&str> = all
            .iter()
            .copied()
            .filter(|a| !args.iter().any(|(n, _)| n == a))
            .collect();
        if !missing.is_empty() {
            return Err(SimError::Argument(format!(
                "{of}arguments not given: {}",
                missing.join(", ")
            )));
        }
        Ok(out)
    }
}

/// Whether `words` is the zero- or sign-extension of a `width`-bit value.
fn fits(words: &[u32], width: u32) -> bool {
    let bit = |i: u32| {
        words
            .get((i / 32) as usize)
            .is_some_and(|w| w >> (i % 32) & 1 != 0)
    };
    let total = 32 * words.len() as u32;
    if total <= width {
        return true;
    }
    let high = width..total;
    high.clone().all(|i| !bit(i)) || (bit(width - 1) && high.clone().all(bit))
}

#[cfg(test)]
mod tests {
    use super::fits;

    #[test]
    fn argument_fit() {
        assert!(fits(&[5, 0], 8));
        assert!(!fits(&[300, 0], 8));
        assert!(fits(&[u32::MAX, u32::MAX], 8)); // -1 sign-extended
        assert!(fits(&[0xffff_ff80, u32::MAX], 8)); // -128
        assert!(!fits(&[0x0000_ff80, 0], 8));
        assert!(fits(&[0x80, 0], 8));
        assert!(!fits(&[0x7f, u32::MAX], 8)); // sign bit clear, high bits set
        assert!(fits(&[1, 2], 64));
        assert!(fits(&[1, 2], 40));
        assert!(!fits(&[1, 256], 40));
        assert!(fits(&[1, 2, 3], 96));
    }
}
