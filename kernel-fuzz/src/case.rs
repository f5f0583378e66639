//! A fuzz case: a kernel and its random test inputs; [`Case::file_text`] runs the reference
//! emulator (`emu`) on each test for the expected outputs and writes the kernel file with its
//! test header (docs/test-format.md).

use crate::ast::{Kernel, Param, Scalar, Ty, KERNEL_NAME, SINK_NAME};
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
                        Param::Out(_) | Param::Pipe(_) | Param::N => {}
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
        for (ti, t) in self.tests.iter().enumerate() {
            let _ = write!(h, "\n[test]\nname: test {ti}\n");
            h += &self.test_text(t, &prog, &sm)?;
        }
        h.push_str("!*/\n\n");
        Ok(h + &src)
    }
}

impl Case {
    /// The header lines of test `t` after its name, with the outputs the emulator computes.
    /// A kernel with a pipe gets a multi-kernel test (`fuzz` and `sink` launched together,
    /// `dst` compared as a multiset); the others a single launch.
    fn test_text(
        &self,
        t: &TestInput,
        prog: &frontend::ast::Program,
        sm: &frontend::SourceMap,
    ) -> Result<String, String> {
        let multi = self.kernel.pipe.zip(self.kernel.pipe_ty());
        let mut h = String::new();
        let mut spec = emu::RunSpec::default();
        let mut args = Vec::new();
        let mut inputs = t.buffers.iter();
        // (header name of the buffer, type, buffer index, unordered) of every output.
        let mut outs = Vec::new();
        if let Some((p, ty)) = multi {
            let _ = write!(
                h,
                "launch: {KERNEL_NAME} {} {}\nlaunch: {SINK_NAME} {}\npipe: p {} {}\n",
                t.global,
                t.local,
                t.global,
                ty.name(),
                p.capacity
            );
            spec.pipes.push(emu::PipeSpec {
                name: "p".into(),
                packet_size: ty.bytes() as u32,
                capacity: p.capacity,
            });
        } else {
            let _ = writeln!(
                h,
                "global_size: {} 1 1\nlocal_size: {} 1 1",
                t.global, t.local
            );
        }
        for (pi, (_, p)) in self.kernel.params().into_iter().enumerate() {
            let mut buffer = |h: &mut String, ty: Ty, bytes: Vec<u8>, given: bool| {
                let count = bytes.len() / ty.bytes();
                let vals = if given {
                    values(ty, &bytes)
                } else {
                    String::new()
                };
                let name = format!("b{pi}");
                if multi.is_some() {
                    let _ = writeln!(h, "buffer: {name} {}[{count}] {vals}", ty.header_name());
                    let _ = writeln!(h, "arg: {KERNEL_NAME} {pi} {name}");
                } else if given {
                    let _ = writeln!(
                        h,
                        "arg_in: {pi} buffer {}[{count}] {vals}",
                        ty.header_name()
                    );
                }
                spec.buffers.push(emu::BufferSpec { name, bytes });
                emu::ArgValue::Buffer(spec.buffers.len() - 1)
            };
            let a = match p {
                Param::In(ty) => {
                    let b = inputs.next().expect("input bytes").clone();
                    buffer(&mut h, ty, b, true)
                }
                Param::Acc(_) | Param::Counter => {
                    let b = inputs.next().expect("input bytes").clone();
                    let ty = Ty::scalar(Scalar::UInt);
                    let a = buffer(&mut h, ty, b, true);
                    outs.push((pi, ty, spec.buffers.len() - 1, false));
                    a
                }
                Param::Out(ty) => {
                    let a = buffer(
                        &mut h,
                        ty,
                        vec![0xA5; ty.bytes() * t.global as usize],
                        false,
                    );
                    outs.push((pi, ty, spec.buffers.len() - 1, false));
                    a
                }
                Param::Pipe(_) => {
                    let _ = writeln!(h, "arg: {KERNEL_NAME} {pi} p");
                    emu::ArgValue::Pipe(0)
                }
                Param::N => {
                    if multi.is_some() {
                        let _ = writeln!(h, "arg: {KERNEL_NAME} {pi} uint {}", t.n);
                    } else {
                        let _ = writeln!(h, "arg_in: {pi} uint {}", t.n);
                    }
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
        if let Some((_, ty)) = multi {
            let _ = writeln!(
                h,
                "buffer: dst {}[{}]\narg: {SINK_NAME} 0 p\narg: {SINK_NAME} 1 dst",
                ty.header_name(),
                t.global
            );
            spec.buffers.push(emu::BufferSpec {
                name: "dst".into(),
                bytes: vec![0xA5; ty.bytes() * t.global as usize],
            });
            outs.push((usize::MAX, ty, spec.buffers.len() - 1, true));
            spec.launches.push(emu::LaunchSpec {
                kernel: SINK_NAME.into(),
                dims: 1,
                global: [t.global, 1, 1],
                local: None,
                offset: [0; 3],
                args: vec![
                    emu::ArgValue::Pipe(0),
                    emu::ArgValue::Buffer(spec.buffers.len() - 1),
                ],
                after: Vec::new(),
            });
        }
        let o = emu::run(prog, sm, &spec, &emu::Config::default()).map_err(|e| {
            match e.to_diagnostic() {
                Some(d) => frontend::render(sm, &[d], false),
                None => e.to_string(),
            }
        })?;
        for (pi, ty, bi, unordered) in outs {
            let b = &o.buffers[bi];
            let count = b.len() / ty.bytes();
            let (vals, ty_name) = (values(ty, b), ty.header_name());
            let _ = match (multi.is_some(), unordered) {
                (false, _) => writeln!(h, "arg_out: {pi} buffer {ty_name}[{count}] {vals}"),
                (true, false) => writeln!(h, "expect: b{pi} {ty_name}[{count}] {vals}"),
                (true, true) => writeln!(h, "expect: dst {ty_name}[{count}] unordered {vals}"),
            };
        }
        Ok(h)
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
