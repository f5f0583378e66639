//! Binding a test to a kernel: the test file's arguments (`testfile`) are matched to the
//! kernel's arguments as the generated module exposes them, buffers are allocated in the
//! [`GlobalMemory`] with their initial contents (unspecified contents poisoned with `0xA5`, so
//! a kernel that reads them is noticed), and the NDRange is taken from the test and checked
//! against what the hardware was built for. The result is a [`Binding`] (single-kernel tests)
//! or a [`LaunchBinding`] per launch (multi-kernel tests), which the driver hands to
//! [`KernelRun`]/[`SystemLaunch`] and to the IR interpreter.
//!
//! The kernel's arguments are described by [`KernelArg`], a type of this crate, rather than the
//! emitter's `rtl_templates::ArgPort`: the binding needs only six of its fields, and keeping the
//! emitter's interface types (which serialise into `report.json`) where they are spares moving
//! them and their `serde` derives below the testbench. The driver converts one into the other
//! in a few lines.

mod launch;
#[cfg(test)]
mod tests;

pub use launch::{alloc_buffers, bind_launch, LaunchBinding};

use crate::{GlobalMemory, KernelRun, NdRange, SimError};
use std::collections::BTreeMap;
use testfile::{ArgKind, Expect, TestCase, ValueType};

/// How a kernel argument reaches the module (`rtl_templates::ArgPortKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgClass {
    /// A value latched at launch from its `arg_*` port.
    Scalar,
    /// A `global` pointer: an address port and memory channels.
    Global,
    /// A `local` pointer: on-chip memory inside the module, no port.
    Local,
    /// A pipe.
    Pipe,
    /// An atomic counter: bound to a buffer like a `global` pointer (the counter's value is
    /// its first 4/8 bytes); the module has the same address port and memory channels.
    Counter,
}

impl std::fmt::Display for ArgClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ArgClass::Scalar => "scalar",
            ArgClass::Global => "global",
            ArgClass::Local => "local",
            ArgClass::Pipe => "pipe",
            ArgClass::Counter => "counter",
        })
    }
}

/// One argument of a kernel, as the binding needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelArg {
    pub index: u32,
    pub name: String,
    pub kind: ArgClass,
    /// The argument name [`KernelRun::arg`] takes (the module's port is `arg_<port>`); absent
    /// when the kernel never uses the argument.
    pub port: Option<String>,
    /// Width of the value (scalars) or of one element (pointers), in bits.
    pub bits: u32,
    /// `local` pointers: the bytes the on-chip memory holds.
    pub local_bytes: Option<u32>,
}

/// A kernel as the binding sees it: its arguments and what its hardware was built for.
#[derive(Clone, Debug, Default)]
pub struct KernelShape {
    pub args: Vec<KernelArg>,
    /// `reqd_work_group_size`, when the kernel has one.
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// Kernels with barriers: the most work-items a work-group may have.
    pub max_group_items: Option<u32>,
}

/// The value given to an argument port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortValue {
    /// Up to 64 bits (scalars, buffer addresses, null pointers).
    Scalar(u64),
    /// A vector or struct by value, as 32-bit words (little-endian).
    Wide(Vec<u32>),
}

/// An output buffer to check after the run.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputCheck {
    pub index: u32,
    pub name: String,
    pub ty: ValueType,
    pub addr: u32,
    pub size: usize,
    pub expect: Expect,
}

/// A single-kernel test bound to its kernel.
#[derive(Clone, Debug)]
pub struct Binding {
    /// Global memory holding every buffer with its initial contents.
    pub memory: GlobalMemory,
    /// The argument ports' values, in the test's order of arguments.
    pub ports: Vec<(String, PortValue)>,
    /// Per argument index: the value of a scalar of at most 64 bits, a buffer's address, or 0.
    pub scalars: Vec<u64>,
    /// Scalars wider than 64 bits, by argument index: their memory image.
    pub wide: BTreeMap<usize, Vec<u8>>,
    /// Every allocated buffer: its address and initial contents.
    pub buffers: Vec<(u32, Vec<u8>)>,
    /// The buffers with expected contents, in the test's order.
    pub outputs: Vec<OutputCheck>,
    pub range: NdRange,
}

impl Binding {
    /// `run` with the binding's argument values and NDRange.
    pub fn apply<'m>(&self, mut run: KernelRun<'m>) -> KernelRun<'m> {
        for (p, v) in &self.ports {
            run = match v {
                PortValue::Scalar(x) => run.arg(p, *x),
                PortValue::Wide(words) => run.arg_wide(p, words),
            };
        }
        run.range(self.range)
    }
}

/// Why a test cannot be bound to its kernel (the messages are `oclhls sim`'s).
#[derive(Debug, thiserror::Error)]
pub enum BindError {
    #[error("kernel `{kernel}` takes {takes} arguments but the test gives indices {given:?}")]
    ArgCount {
        kernel: String,
        takes: usize,
        given: Vec<u32>,
    },
    #[error("line {line}: argument index {index} is out of range")]
    IndexOutOfRange { line: u32, index: u32 },
    #[error(
        "line {line}: argument {index} (`{name}`) has {bits} bits, the test gives {bytes} bytes"
    )]
    ScalarSize {
        line: u32,
        index: u32,
        name: String,
        bits: u32,
        bytes: usize,
    },
    #[error(
        "line {line}: argument {index} (`{name}`) has {bits}-bit elements, the test gives `{ty}`"
    )]
    ElementType {
        line: u32,
        index: u32,
        name: String,
        bits: u32,
        ty: ValueType,
    },
    #[error("{what} asks for {want} bytes of local memory; the hardware holds {cap} (give the argument `__attribute__((local_mem_size({want})))`)")]
    LocalTooLarge { what: String, want: u64, cap: u64 },
    #[error(
        "line {line}: argument {index} (`{name}`) is a {want} argument; the test passes {given}"
    )]
    KindMismatch {
        line: u32,
        index: u32,
        name: String,
        want: ArgClass,
        given: &'static str,
    },
    #[error("the kernel requires work-groups of {}x{}x{} (reqd_work_group_size), but this test launches {}x{}x{} (OpenCL: CL_INVALID_WORK_GROUP_SIZE)",
        .required[0], .required[1], .required[2], .launched[0], .launched[1], .launched[2])]
    ReqdWorkGroupSize {
        required: [u32; 3],
        launched: [u32; 3],
    },
    #[error("the kernel has barriers and its hardware holds work-groups of at most {max} work-items, but this test launches groups of {items}; give `local_size:` (or `reqd_work_group_size` in the kernel)")]
    GroupTooLarge { max: u32, items: u64 },
    #[error("line {line}: kernel `{kernel}` has no argument {index}")]
    LaunchNoArg {
        line: u32,
        kernel: String,
        index: u32,
    },
    #[error("line {line}: argument {index} of `{kernel}` (`{name}`) is a {want} argument")]
    LaunchKindMismatch {
        line: u32,
        index: u32,
        kernel: String,
        name: String,
        want: ArgClass,
    },
    #[error("line {line}: `{kernel}` has barriers and its hardware holds work-groups of at most {max} work-items, but the launch has groups of {items}")]
    LaunchGroupTooLarge {
        line: u32,
        kernel: String,
        max: u32,
        items: u64,
    },
    #[error(transparent)]
    Memory(#[from] SimError),
}

/// A by-value argument's bytes as a 64-bit value (little-endian, zero-extended).
pub fn scalar_value(bytes: &[u8]) -> u64 {
    let mut v = [0u8; 8];
    let n = bytes.len().min(8);
    v[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(v)
}

/// A `local` argument of `len` elements of `ty` fits the on-chip memory the hardware has for
/// argument `ka` (`what` names it in the message).
pub fn check_local_size(
    ty: &ValueType,
    len: u32,
    ka: &KernelArg,
    what: &str,
) -> Result<(), BindError> {
    let want = len as u64 * ty.byte_size() as u64;
    let cap = ka.local_bytes.unwrap_or(0) as u64;
    if want > cap {
        return Err(BindError::LocalTooLarge {
            what: what.to_string(),
            want,
            cap,
        });
    }
    Ok(())
}

/// The NDRange of a launch: dimensions beyond `dimensions` are 1, and `local_size: NULL` lets
/// the implementation choose (one work-group spans each dimension).
pub fn nd_range(
    dimensions: u32,
    global_size: [u32; 3],
    local_size: Option<[u32; 3]>,
    global_offset: [u32; 3],
) -> NdRange {
    let mut global = global_size;
    let mut local = local_size.unwrap_or(global).map(|l| l.max(1));
    for d in (dimensions as usize).min(3)..3 {
        global[d] = 1;
        local[d] = 1;
    }
    NdRange {
        global_size: global,
        local_size: local,
        global_offset,
        work_dim: dimensions,
    }
}

/// Work-items in one work-group of `range` (a group never exceeds the global size).
pub fn group_items(range: &NdRange) -> u64 {
    (0..3)
        .map(|d| range.local_size[d].min(range.global_size[d]) as u64)
        .product()
}

/// Binds single-kernel test `t` to `kernel`: every argument given once, of the kind and size
/// the kernel takes; buffers allocated and filled; the NDRange checked against
/// `reqd_work_group_size` and the work-group capacity of kernels with barriers.
pub fn bind(t: &TestCase, kernel: &KernelShape) -> Result<Binding, BindError> {
    if t.args.len() != kernel.args.len() {
        return Err(BindError::ArgCount {
            kernel: t.kernel_name.clone(),
            takes: kernel.args.len(),
            given: t.args.iter().map(|a| a.index).collect(),
        });
    }
    let mut b = Binding {
        memory: GlobalMemory::new(),
        ports: Vec::new(),
        scalars: vec![0; kernel.args.len()],
        wide: BTreeMap::new(),
        buffers: Vec::new(),
        outputs: Vec::new(),
        range: nd_range(t.dimensions, t.global_size, t.local_size, t.global_offset),
    };
    for arg in &t.args {
        let Some(ka) = kernel.args.get(arg.index as usize) else {
            return Err(BindError::IndexOutOfRange {
                line: arg.line,
                index: arg.index,
            });
        };
        b.bind_arg(arg, ka)?;
    }
    check_range(t, kernel, &b.range)?;
    Ok(b)
}

/// What the hardware was built for: `reqd_work_group_size`, and for kernels with barriers the
/// size of the per-work-item context memories.
fn check_range(t: &TestCase, kernel: &KernelShape, range: &NdRange) -> Result<(), BindError> {
    if let Some(r) = kernel.reqd_work_group_size {
        if t.local_size.is_some() && range.local_size != r {
            return Err(BindError::ReqdWorkGroupSize {
                required: r,
                launched: range.local_size,
            });
        }
    }
    if let Some(max) = kernel.max_group_items {
        let items = group_items(range);
        if items > max as u64 {
            return Err(BindError::GroupTooLarge { max, items });
        }
    }
    Ok(())
}

impl Binding {
    fn bind_arg(&mut self, arg: &testfile::Arg, ka: &KernelArg) -> Result<(), BindError> {
        match (&arg.kind, ka.kind) {
            (ArgKind::Scalar { bytes, .. }, ArgClass::Scalar) => self.bind_scalar(arg, ka, bytes),
            (
                ArgKind::Buffer {
                    ty,
                    len,
                    input,
                    expect,
                },
                ArgClass::Global | ArgClass::Counter,
            ) => self.bind_buffer(arg, ka, ty, *len, input.as_deref(), expect.as_ref()),
            // piglit's `buffer T[n] NULL` for a `local` parameter allocates local memory.
            (ArgKind::Local { ty, len } | ArgKind::NullBuffer { ty, len }, ArgClass::Local) => {
                let what = format!("line {}: argument {} (`{}`)", arg.line, arg.index, ka.name);
                check_local_size(ty, *len, ka, &what)
            }
            (ArgKind::NullBuffer { .. }, ArgClass::Global) => {
                if let Some(p) = &ka.port {
                    self.ports.push((p.clone(), PortValue::Scalar(0)));
                }
                Ok(())
            }
            (kind, want) => Err(BindError::KindMismatch {
                line: arg.line,
                index: arg.index,
                name: ka.name.clone(),
                want,
                given: match kind {
                    ArgKind::Scalar { .. } => "a scalar",
                    ArgKind::Buffer { .. } | ArgKind::NullBuffer { .. } => "a buffer",
                    ArgKind::Local { .. } => "local memory",
                },
            }),
        }
    }

    fn bind_scalar(
        &mut self,
        arg: &testfile::Arg,
        ka: &KernelArg,
        bytes: &[u8],
    ) -> Result<(), BindError> {
        if bytes.len() * 8 != ka.bits as usize && ka.bits > 64 {
            return Err(BindError::ScalarSize {
                line: arg.line,
                index: arg.index,
                name: ka.name.clone(),
                bits: ka.bits,
                bytes: bytes.len(),
            });
        }
        if ka.bits > 64 {
            // A vector or struct by value: its memory image.
            self.wide.insert(arg.index as usize, bytes.to_vec());
            if let Some(p) = &ka.port {
                let words: Vec<u32> = bytes
                    .chunks(4)
                    .map(|c| c.iter().rev().fold(0u32, |a, &b| (a << 8) | b as u32))
                    .collect();
                self.ports.push((p.clone(), PortValue::Wide(words)));
            }
        } else {
            self.scalars[arg.index as usize] = scalar_value(bytes);
            if let Some(p) = &ka.port {
                self.ports
                    .push((p.clone(), PortValue::Scalar(scalar_value(bytes))));
            }
        }
        Ok(())
    }

    fn bind_buffer(
        &mut self,
        arg: &testfile::Arg,
        ka: &KernelArg,
        ty: &ValueType,
        len: u32,
        input: Option<&[u8]>,
        expect: Option<&Expect>,
    ) -> Result<(), BindError> {
        let elem = ty.byte_size();
        let size = (len as usize) * elem;
        // A buffer of structs (or vectors) may be given as lanes of a narrower type (the test
        // format has no struct values): whole elements of the pointee.
        let fits = elem * 8 == ka.bits as usize
            || ka.bits < 8
            || ((ka.bits as usize).is_multiple_of(elem * 8)
                && size.is_multiple_of(ka.bits as usize / 8));
        if !fits {
            return Err(BindError::ElementType {
                line: arg.line,
                index: arg.index,
                name: ka.name.clone(),
                bits: ka.bits,
                ty: *ty,
            });
        }
        // Aligned for the widest access (OpenCL's CL_DEVICE_MEM_BASE_ADDR_ALIGN is at least
        // the largest type, 128 bytes).
        let align = (ka.bits / 8)
            .next_power_of_two()
            .clamp(4, 128)
            .max(elem as u32);
        let addr = self.memory.alloc(size.max(1), align)?;
        // Unspecified contents are poisoned, so a kernel that reads them is noticed.
        let init = input.map_or_else(|| vec![0xA5; size], <[u8]>::to_vec);
        self.memory.write_bytes(addr, &init)?;
        self.scalars[arg.index as usize] = addr as u64;
        self.buffers.push((addr, init));
        if let Some(p) = &ka.port {
            self.ports.push((p.clone(), PortValue::Scalar(addr as u64)));
        }
        if let Some(e) = expect {
            self.outputs.push(OutputCheck {
                index: arg.index,
                name: ka.name.clone(),
                ty: *ty,
                addr,
                size,
                expect: e.clone(),
            });
        }
        Ok(())
    }
}
