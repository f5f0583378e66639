//! emu: the reference emulator. It executes the checked AST of `frontend` (never hls-ir or
//! anything of the hardware path), so that the hardware path can be checked against an
//! independent reading of the OpenCL C semantics.
//!
//! It owns the *run*: the memories (global buffers, constant program-scope data, local memory
//! per work-group, private memory per work-item), the pipes, and the execution of one or more
//! NDRange launches ([`RunSpec`]) to a final memory image ([`Outcome`]) or one spanned
//! [`EmuError`].
//!
//! Invariants:
//! - every memory access is bounds- and alignment-checked; an out-of-bounds or misaligned
//!   access, a division by zero, a divergent barrier, a deadlock, an un-waited async copy, a
//!   `reqd_work_group_size` mismatch, an atomic on private memory or a data race between an
//!   atomic and a plain store (`race`: same word, one launch, different work-items, no barrier
//!   between them) is an [`EmuError`] with the source span, the work-item and the address where
//!   relevant, never undefined behaviour of the emulator;
//! - a run is deterministic for a given [`Config::seed`] and terminates: every statement and
//!   expression counts against [`Config::max_steps`];
//! - a construct the emulator does not model is an error saying so at its span, never a value.
//!
//! Not modelled:
//! `erf`/`erfc` in double precision. A sub-group is the whole work-group (`sub_group_*` pipe
//! reservations act like the `work_group_*` ones), which OpenCL allows.
//!
//! Design: the interpreter (`interp/`) walks the AST with an explicit per-work-item state
//! (private memory, variable addresses). Work-items are stackful coroutines (corosensei) on
//! the caller's thread: a work-item runs until it hands control back to the scheduler
//! (`sched/`) at a barrier, a work-group function, a pipe operation, or every thousand
//! steps. The scheduler picks the next work-item with a seeded generator among all launches
//! that run concurrently, which is what makes barriers, blocking pipes and fair interleaving of
//! several kernels work without any true parallelism.

mod builtins;
mod interp;
mod mem;
mod pipes;
pub mod printf;
mod race;
mod sched;
pub mod value;

use frontend::{Diagnostic, Span};

/// A memory object of a run: a global (or constant) buffer.
#[derive(Clone, Debug)]
pub struct BufferSpec {
    pub name: String,
    /// Initial contents; the final contents are in [`Outcome::buffers`].
    pub bytes: Vec<u8>,
}

/// A pipe of a run.
#[derive(Clone, Debug)]
pub struct PipeSpec {
    pub name: String,
    /// Bytes per packet.
    pub packet_size: u32,
    /// `max_packets`.
    pub capacity: u32,
}

/// What a kernel argument is bound to.
#[derive(Clone, Debug)]
pub enum ArgValue {
    /// Index into [`RunSpec::buffers`] (global/constant pointers and counters).
    Buffer(usize),
    /// A NULL pointer (or NULL `cl_mem`).
    Null,
    /// Index into [`RunSpec::pipes`].
    Pipe(usize),
    /// Bytes of a by-value argument.
    Value(Vec<u8>),
    /// This many bytes of local memory per work-group.
    Local(u32),
}

/// One NDRange launch.
#[derive(Clone, Debug)]
pub struct LaunchSpec {
    pub kernel: String,
    pub dims: u32,
    pub global: [u32; 3],
    /// `None`: the emulator chooses.
    pub local: Option<[u32; 3]>,
    pub offset: [u32; 3],
    pub args: Vec<ArgValue>,
    /// Indices of launches that must finish before this one starts.
    pub after: Vec<usize>,
}

/// Everything a run needs besides the program.
#[derive(Clone, Debug, Default)]
pub struct RunSpec {
    pub buffers: Vec<BufferSpec>,
    pub pipes: Vec<PipeSpec>,
    pub launches: Vec<LaunchSpec>,
}

#[derive(Clone, Debug)]
pub struct Config {
    /// Seed of the interleaving of work-items.
    pub seed: u64,
    /// Statements and expressions evaluated in the whole run before it is stopped.
    pub max_steps: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            seed: 1,
            max_steps: 200_000_000,
        }
    }
}

/// The result of a successful run.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Final contents of every buffer, in [`RunSpec::buffers`] order.
    pub buffers: Vec<Vec<u8>>,
    /// Statements and expressions evaluated.
    pub steps: u64,
    /// Everything the kernels printed with `printf`, in the order the work-items ran.
    pub printf: String,
}

/// Why a run failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EmuError {
    /// The run description does not fit the program (unknown kernel, wrong argument kinds).
    #[error("{0}")]
    Setup(String),
    /// A runtime error of the kernel, at a source span.
    #[error("{message}")]
    Runtime {
        span: Span,
        message: String,
        /// Further places involved (e.g. the other blocked kernels of a deadlock).
        labels: Vec<(Span, String)>,
        notes: Vec<String>,
    },
}

impl EmuError {
    pub(crate) fn at(span: Span, message: impl Into<String>) -> EmuError {
        EmuError::Runtime {
            span,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub(crate) fn with_label(mut self, span: Span, text: impl Into<String>) -> EmuError {
        if let EmuError::Runtime { labels, .. } = &mut self {
            labels.push((span, text.into()));
        }
        self
    }

    pub(crate) fn with_note(mut self, note: impl Into<String>) -> EmuError {
        if let EmuError::Runtime { notes, .. } = &mut self {
            notes.push(note.into());
        }
        self
    }

    /// As a diagnostic for `frontend::render` (setup errors have no span: `None`).
    pub fn to_diagnostic(&self) -> Option<Diagnostic> {
        match self {
            EmuError::Runtime {
                span,
                message,
                labels,
                notes,
            } => {
                let mut d = Diagnostic::error(*span, message.clone());
                for (s, t) in labels {
                    d = d.label(*s, t.clone());
                }
                for n in notes {
                    d = d.note(n.clone());
                }
                Some(d)
            }
            _ => None,
        }
    }
}

/// Runs `spec` on `prog`.
pub fn run(
    prog: &frontend::ast::Program,
    sm: &frontend::SourceMap,
    spec: &RunSpec,
    config: &Config,
) -> Result<Outcome, EmuError> {
    sched::run(prog, sm, spec, config)
}
