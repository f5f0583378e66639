//! A fuzz case: a kernel and its random test inputs; [`Case::file_text`] runs the reference
//! emulator (`emu`) on each test for the expected outputs and writes the kernel file with its
//! test header (docs/test-format.md).

use crate::ast::{Kernel, Param, Scalar, Ty, KERNEL_NAME};
use rand::rngs::StdRng;
use rand::{Rng, RngCore};
use std::fmt::Write;

/// One launch's inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct TestInput {
    pub global: u32,
    pub local: u32,
    /// The bytes of every buffer parameter that has initial contents, in parameter order
    /// (inputs, `acc`, `ctr`); outputs start as 0xA5 bytes, as `oclhls sim` fills them.
    pub buffers: Vec<Vec<u8>>,
    pub n: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub kernel: Kernel,
    pub tests: Vec<TestInput>,
}

/// Bytes of random lanes, biased towards small and extreme values.
fn random_bytes(r: &mut StdRng, t: Ty, count: u32) -> Vec<u8> {
    let lane = t.s.bits() as usize / 8;
    let mut v = Vec::new();
    for _ in 0..count * t.lanes as u32 {
        if t.s.is_float() {
            v.extend_from_slice(&(crate::gen::float_bits(r) as u32).to_le_bytes());
            continue;
        }
        let x = match r.random_range(0..8) {
            0 => 0,
            1 => u64::MAX,
            2 => 1u64 << (t.s.bits() - 1),
            3..=4 => r.random_range(0..32),
            _ => r.next_u64(),
        };
        v.extend_from_slice(&x.to_le_bytes()[..lane]);
    }
    v
}

impl Case {
    /// Two or three launches of different sizes (one Verilator model serves them all).
    pub fn new(kernel: Kernel, r: &mut StdRng) -> Case {
        let ntests = r.random_range(2..=3);
        let tests = (0..ntests)
            .map(|_| {
                // Work-group kernels: whole groups. Others: up to 40 work-items (many in
                // flight in the pipeline), in groups of any size.
                let (global, local) = match &kernel.group {
                    Some(g) => (g.size * r.random_range(1..=4), g.size),
                    None => {
                        let global = r.random_range(1..=40);
                        (global, r.random_range(1..=global))
                    }
                };
                let mut buffers = Vec::new();
                for (_, p) in kernel.params() {
                    match p {
                        Param::In(t) => buffers.push(random_bytes(r, t, global)),
                        Param::Acc(len) => {
                            buffers.push(random_bytes(r, Ty::scalar(Scalar::UInt), len))
                        }
                        Param::Counter => {
                            buffers.push(r.random_range(0u32..1000).to_le_bytes().to_vec())
                        }
                        Param::Out(_) | Param::N => {}
                    }
                }
                TestInput {
                    global,
                    local,
                    buffers,
                    n: r.random_range(0..=6),
                }
            })
            .collect();
        Case { kernel, tests }
    }

    /// The kernel file: a test header whose expected outputs come from the emulator, then the
    /// source. An error when the front end rejects the source or the emulator fails.
    pub fn file_text(&self, seed: u64, index: u32) -> Result<String, String> {
        let src = self.kernel.source();
        let mut sm = frontend::SourceMap::new();
        let file = sm.add_file("fuzz.cl", src.clone());
        let prog = match frontend::compile(&mut sm, file, &frontend::Options::default()) {
            Ok((p, _)) => p,
            Err(d) => return Err(frontend::render(&sm, &d, false)),
        };
        let mut h = String::new();
        let _ = write!(
            h,
            "/*!\n[config]\nname: kernel-fuzz seed {seed} case {index}\nkernel_name: {KERNEL_NAME}\ndimensions: 1\n"
        );
        let params = self.kernel.params();
        for (ti, t) in self.tests.iter().enumerate() {
            let mut spec = emu::RunSpec::default();
            let mut args = Vec::new();
            let mut inputs = t.buffers.iter();
            // (parameter index, type, buffer index) of every output to check.
            let mut outs = Vec::new();
            let _ = write!(
                h,
                "\n[test]\nname: test {ti}\nglobal_size: {} 1 1\nlocal_size: {} 1 1\n",
                t.global, t.local
            );
            for (pi, (_, p)) in params.iter().enumerate() {
                let buffer = |spec: &mut emu::RunSpec, bytes: Vec<u8>| {
                    spec.buffers.push(emu::BufferSpec {
                        name: format!("arg{pi}"),
                        bytes,
                    });
                    emu::ArgValue::Buffer(spec.buffers.len() - 1)
                };
                let a = match *p {
                    Param::In(ty) => {
                        let b = inputs.next().expect("input bytes").clone();
                        let _ = writeln!(
                            h,
                            "arg_in: {pi} buffer {}[{}] {}",
                            ty.header_name(),
                            t.global,
                            values(ty, &b)
                        );
                        buffer(&mut spec, b)
                    }
                    Param::Acc(_) | Param::Counter => {
                        let b = inputs.next().expect("input bytes").clone();
                        let ty = Ty::scalar(Scalar::UInt);
                        let _ = writeln!(
                            h,
                            "arg_in: {pi} buffer uint[{}] {}",
                            b.len() / 4,
                            values(ty, &b)
                        );
                        outs.push((pi, ty, spec.buffers.len()));
                        buffer(&mut spec, b)
                    }
                    Param::Out(ty) => {
                        outs.push((pi, ty, spec.buffers.len()));
                        buffer(&mut spec, vec![0xA5; ty.bytes() * t.global as usize])
                    }
                    Param::N => {
                        let _ = writeln!(h, "arg_in: {pi} uint {}", t.n);
                        emu::ArgValue::Value(t.n.to_le_bytes().to_vec())
                    }
                };
                args.push(a);
            }
            spec.launches.push(emu::LaunchSpec {
                kernel: KERNEL_NAME.into(),
                dims: 1,
                global: [t.global, 1, 1],
                local: Some([t.local, 1, 1]),
                offset: [0; 3],
                args,
                after: Vec::new(),
            });
            let o = emu::run(&prog, &sm, &spec, &emu::Config::default()).map_err(|e| {
                match e.to_diagnostic() {
                    Some(d) => frontend::render(&sm, &[d], false),
                    None => e.to_string(),
                }
            })?;
            for (pi, ty, bi) in outs {
                let b = &o.buffers[bi];
                let count = b.len() / ty.bytes();
                let _ = writeln!(
                    h,
                    "arg_out: {pi} buffer {}[{count}] {}",
                    ty.header_name(),
                    values(ty, b)
                );
            }
        }
        h.push_str("!*/\n\n");
        Ok(h + &src)
    }
}

/// The lanes of `bytes` as header values.
fn values(t: Ty, bytes: &[u8]) -> String {
    let lane = t.s.bits() as usize / 8;
    let v: Vec<String> = bytes
        .chunks(lane)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..lane].copy_from_slice(c);
            t.s.value_text(u64::from_le_bytes(b))
        })
        .collect();
    v.join(" ")
}
