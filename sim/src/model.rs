//! Loaded models and their instances.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use libloading::Library;

use crate::shim::{self, storage_bytes};
use crate::{Dir, ModelSource, PortSpec, SimError};

type NewFn = unsafe extern "C" fn(c_int, c_int) -> *mut c_void;
type InstFn = unsafe extern "C" fn(*mut c_void);
type StatusFn = unsafe extern "C" fn(*mut c_void) -> c_int;
type ErrorFn = unsafe extern "C" fn(*mut c_void) -> *const c_char;
type TraceFn = unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int;
type PortFn = unsafe extern "C" fn(*mut c_void, u32) -> *mut c_void;
type TickFn = unsafe extern "C" fn(*mut c_void, u64) -> c_int;
type CountFn = unsafe extern "C" fn() -> u32;

/// The shim's functions. Valid while `Loaded::_lib` is alive.
struct Api {
    new: NewFn,
    delete: InstFn,
    error: ErrorFn,
    got_finish: StatusFn,
    eval: StatusFn,
    trace_open: TraceFn,
    port: PortFn,
    tick: TickFn,
}

struct Loaded {
    api: Api,
    ports: Vec<PortSpec>,
    // Dropped last (fields drop in declaration order): unloads the code `api` points into.
    _lib: Library,
}

/// A model built and loaded into this process; instantiate it as often as needed.
#[derive(Clone)]
pub struct BuiltModel {
    loaded: Arc<Loaded>,
    top: String,
    path: PathBuf,
    hash: String,
    trace: bool,
    build_time: Option<Duration>,
}

impl std::fmt::Debug for BuiltModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltModel")
            .field("top", &self.top)
            .field("path", &self.path)
            .field("trace", &self.trace)
            .finish_non_exhaustive()
    }
}

/// Initial value of registers and memories that the Verilog does not initialise (Verilator's
/// `randReset`), and of X assignments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitValues {
    Zeros,
    Ones,
    /// Random from this seed (0 makes Verilator pick a different seed every run).
    Random(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstanceOptions {
    /// Default `Random(1)`: like hardware, uninitialised state is garbage, so missing resets
    /// show up in simulation (deterministically).
    pub init: InitValues,
}

impl Default for InstanceOptions {
    fn default() -> Self {
        InstanceOptions {
            init: InitValues::Random(1),
        }
    }
}

impl BuiltModel {
    pub(crate) fn load(
        path: PathBuf,
        src: &ModelSource,
        trace: bool,
        hash: String,
        build_time: Option<Duration>,
    ) -> Result<BuiltModel, SimError> {
        let fail = |detail: String| SimError::Load {
            path: path.clone(),
            detail,
        };
        // SAFETY: the library is one we built from the generated shim; its initialisers are
        // the C++ runtime's static constructors, which have no preconditions.
        let lib = unsafe { Library::new(&path) }.map_err(|e| fail(e.to_string()))?;
        // SAFETY (all `sym` calls): the types match the `OCLHLS_API` declarations in the
        // shim of the ABI version checked first.
        unsafe fn sym<T: Copy>(lib: &Library, name: &[u8]) -> Result<T, String> {
            unsafe { lib.get::<T>(name) }
                .map(|s| *s)
                .map_err(|e| e.to_string())
        }
        let api = unsafe {
            let abi: CountFn = sym(&lib, b"oclhls_abi\0").map_err(&fail)?;
            if abi() != shim::ABI_VERSION {
                return Err(fail(format!(
                    "shim ABI {} but this oclhls expects {}; delete the cache entry",
                    abi(),
                    shim::ABI_VERSION
                )));
            }
            let count: CountFn = sym(&lib, b"oclhls_port_count\0").map_err(&fail)?;
            if count() as usize != src.ports.len() {
                return Err(fail(format!(
                    "the library has {} ports, the model source {}",
                    count(),
                    src.ports.len()
                )));
            }
            Api {
                new: sym(&lib, b"oclhls_new\0").map_err(&fail)?,
                delete: sym(&lib, b"oclhls_delete\0").map_err(&fail)?,
                error: sym(&lib, b"oclhls_error\0").map_err(&fail)?,
                got_finish: sym(&lib, b"oclhls_got_finish\0").map_err(&fail)?,
                eval: sym(&lib, b"oclhls_eval\0").map_err(&fail)?,
                trace_open: sym(&lib, b"oclhls_trace_open\0").map_err(&fail)?,
                port: sym(&lib, b"oclhls_port\0").map_err(&fail)?,
                tick: sym(&lib, b"oclhls_tick\0").map_err(&fail)?,
            }
        };
        Ok(BuiltModel {
            loaded: Arc::new(Loaded {
                api,
                ports: src.ports.clone(),
                _lib: lib,
            }),
            top: src.top.clone(),
            path,
            hash,
            trace,
            build_time,
        })
    }

    /// A fresh instance with [`InstanceOptions::default`].
    pub fn instantiate(&self) -> Result<Model, SimError> {
        self.instantiate_with(&InstanceOptions::default())
    }

    /// A fresh instance: its own `VerilatedContext`, state and time. Inputs start at 0;
    /// registers not initialised by the Verilog follow `opts.init` until reset.
    pub fn instantiate_with(&self, opts: &InstanceOptions) -> Result<Model, SimError> {
        let (rand_reset, seed) = match opts.init {
            InitValues::Zeros => (0, 0),
            InitValues::Ones => (1, 0),
            InitValues::Random(seed) => (2, seed as c_int),
        };
        let api = &self.loaded.api;
        // SAFETY: `new` has no preconditions; it returns an owned instance.
        let inst = unsafe { (api.new)(rand_reset, seed) };
        if inst.is_null() {
            return Err(SimError::Load {
                path: self.path.clone(),
                detail: "creating an instance failed".into(),
            });
        }
        let mut slots = Vec::with_capacity(self.loaded.ports.len());
        for (k, p) in self.loaded.ports.iter().enumerate() {
            // SAFETY: `inst` is live and `k` is below the port count checked at load.
            let ptr = unsafe { (api.port)(inst, k as u32) }.cast::<u8>();
            assert!(
                !ptr.is_null(),
                "shim returned no storage for port `{}`",
                p.name
            );
            slots.push(Slot::new(ptr, p));
        }
        let mut model = Model {
            loaded: Arc::clone(&self.loaded),
            inst,
            slots,
            cycles: 0,
            started: false,
            trace: self.trace,
        };
        // Verilator's random initialisation covers inputs too; a testbench expects its
        // inputs to start at 0, the model's state to follow `init`.
        for k in 0..model.slots.len() {
            if model.slots[k].input {
                model.set_wide(PortId(k as u32), &[]);
            }
        }
        Ok(model)
    }

    pub fn top(&self) -> &str {
        &self.top
    }

    pub fn ports(&self) -> &[PortSpec] {
        &self.loaded.ports
    }

    /// The shared library, inside its cache entry.
    pub fn library_path(&self) -> &Path {
        &self.path
    }

    /// The cache key (32 hex digits).
    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// How long Verilator took, or `None` if the model came from the cache.
    pub fn build_time(&self) -> Option<Duration> {
        self.build_time
    }
}

/// A port of one model, resolved by name once ([`Model::port`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PortId(pub(crate) u32);

impl PortId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a port lives in the Verilated object.
struct Slot {
    ptr: *mut u8,
    /// 1, 2, 4 or 8 for ports up to 64 bits; 0 for wide ports (`words` u32s).
    bytes: u8,
    words: usize,
    /// Valid bits of the value (narrow ports) or of the last word (wide ports).
    mask: u64,
    input: bool,
}

impl Slot {
    fn new(ptr: *mut u8, p: &PortSpec) -> Slot {
        let size = storage_bytes(p.width);
        let rem = p.width % if p.width > 64 { 32 } else { 64 };
        let mask = if rem == 0 {
            u64::MAX
        } else {
            (1u64 << rem) - 1
        };
        let mask = if p.width > 64 {
            mask & 0xffff_ffff
        } else {
            mask
        };
        Slot {
            ptr,
            bytes: if p.width <= 64 { size as u8 } else { 0 },
            words: p.width.div_ceil(32) as usize,
            mask,
            input: p.dir == Dir::In,
        }
    }
}

/// One simulation instance. Not `Sync`; may be moved to another thread between calls.
pub struct Model {
    loaded: Arc<Loaded>,
    inst: *mut c_void,
    slots: Vec<Slot>,
    cycles: u64,
    started: bool,
    trace: bool,
}

// SAFETY: an instance owns its VerilatedContext and model object; Verilator models may be
// evaluated from any thread as long as calls do not overlap, which `&mut self` guarantees.
// The raw pointers point into that object and move with it.
unsafe impl Send for Model {}

impl Model {
    pub fn ports(&self) -> &[PortSpec] {
        &self.loaded.ports
    }

    pub fn port(&self, name: &str) -> Option<PortId> {
        self.loaded
            .ports
            .iter()
            .position(|p| p.name == name)
            .map(|i| PortId(i as u32))
    }

    pub fn spec(&self, p: PortId) -> &PortSpec {
        &self.loaded.ports[p.index()]
    }

    /// Drives an input of at most 64 bits; bits above its width are dropped.
    ///
    /// # Panics
    /// If `p` is an output or wider than 64 bits (use [`Model::set_wide`]).
    #[inline]
    pub fn set(&mut self, p: PortId, v: u64) {
        let s = &self.slots[p.index()];
        assert!(
            s.input,
            "set() on output port `{}`",
            self.loaded.ports[p.index()].name
        );
        let v = v & s.mask;
        // SAFETY: `ptr` points to the port's storage of `bytes` bytes (checked at compile time
        // by the shim's static_asserts), alive as long as `self.inst`.
        unsafe {
            match s.bytes {
                1 => s.ptr.write(v as u8),
                2 => s.ptr.cast::<u16>().write(v as u16),
                4 => s.ptr.cast::<u32>().write(v as u32),
                8 => s.ptr.cast::<u64>().write(v),
                _ => panic!(
                    "port `{}` is wider than 64 bits; use set_wide()",
                    self.loaded.ports[p.index()].name
                ),
            }
        }
    }

    /// Reads a port of at most 64 bits (inputs read back what was set).
    ///
    /// # Panics
    /// If `p` is wider than 64 bits (use [`Model::get_wide`]).
    #[inline]
    pub fn get(&self, p: PortId) -> u64 {
        let s = &self.slots[p.index()];
        // SAFETY: as in `set`.
        unsafe {
            match s.bytes {
                1 => u64::from(s.ptr.read()),
                2 => u64::from(s.ptr.cast::<u16>().read()),
                4 => u64::from(s.ptr.cast::<u32>().read()),
                8 => s.ptr.cast::<u64>().read(),
                _ => panic!(
                    "port `{}` is wider than 64 bits; use get_wide()",
                    self.loaded.ports[p.index()].name
                ),
            }
        }
    }

    /// Drives an input of any width from little-endian 32-bit words (word 0 holds bits 31:0);
    /// missing words are zero, extra words and bits above the width are dropped.
    pub fn set_wide(&mut self, p: PortId, words: &[u32]) {
        let s = &self.slots[p.index()];
        if s.bytes != 0 {
            let lo = u64::from(words.first().copied().unwrap_or(0));
            let hi = u64::from(words.get(1).copied().unwrap_or(0));
            return self.set(p, lo | hi << 32);
        }
        assert!(
            s.input,
            "set_wide() on output port `{}`",
            self.loaded.ports[p.index()].name
        );
        for k in 0..s.words {
            let mut w = words.get(k).copied().unwrap_or(0);
            if k == s.words - 1 {
                w &= s.mask as u32;
            }
            // SAFETY: wide ports are `words` u32s (VlWide storage).
            unsafe { s.ptr.cast::<u32>().add(k).write(w) };
        }
    }

    /// Reads a port of any width as little-endian 32-bit words (`ceil(width / 32)` of them).
    pub fn get_wide(&self, p: PortId) -> Vec<u32> {
        let mut out = vec![0; self.slots[p.index()].words];
        self.get_wide_into(p, &mut out);
        out
    }

    /// Like [`Model::get_wide`] into a caller's buffer (extra words are zeroed).
    pub fn get_wide_into(&self, p: PortId, out: &mut [u32]) {
        let s = &self.slots[p.index()];
        out.fill(0);
        if s.bytes != 0 {
            let v = self.get(p);
            for (k, w) in out.iter_mut().take(2).enumerate() {
                *w = (v >> (32 * k)) as u32;
            }
            return;
        }
        for (k, w) in out.iter_mut().take(s.words).enumerate() {
            // SAFETY: as in `set_wide`.
            *w = unsafe { s.ptr.cast::<u32>().add(k).read() };
        }
    }

    /// Evaluates the model after input changes (combinational settling, no clock edge).
    pub fn eval(&mut self) -> Result<(), SimError> {
        self.started = true;
        // SAFETY: `inst` is live.
        let status = unsafe { (self.loaded.api.eval)(self.inst) };
        self.check(status)
    }

    /// One clock cycle on input `clk`: low, eval, high (rising edge), eval.
    pub fn tick(&mut self) -> Result<(), SimError> {
        self.ticks(1)
    }

    /// `n` clock cycles without returning to Rust in between.
    pub fn ticks(&mut self, n: u64) -> Result<(), SimError> {
        self.started = true;
        // SAFETY: `inst` is live.
        let status = unsafe { (self.loaded.api.tick)(self.inst, n) };
        self.cycles += n;
        self.check(status)
    }

    /// Clock cycles run so far by [`Model::tick`]; the trace's time is twice this.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// Whether the model executed `$finish`.
    pub fn finished(&self) -> bool {
        // SAFETY: `inst` is live.
        unsafe { (self.loaded.api.got_finish)(self.inst) != 0 }
    }

    /// Writes an FST waveform (GTKWave, Surfer) of every later tick to `path`, with Verilator's
    /// names (the Verilog's, under `TOP`); the file is complete when the model is dropped.
    /// Time advances 1 per half cycle: cycle `c`'s rising edge is at time `2c + 1`. Needs a
    /// model built with
    /// [`crate::BuildOptions::trace`], and must come before the first eval or tick.
    pub fn trace_to(&mut self, path: impl AsRef<Path>) -> Result<(), SimError> {
        let path = path.as_ref();
        if !self.trace {
            return Err(SimError::Trace(
                "the model was built without tracing (set BuildOptions::trace)".into(),
            ));
        }
        if self.started {
            return Err(SimError::Trace(
                "trace_to() must be called before the first eval() or tick()".into(),
            ));
        }
        let c = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| SimError::Trace(format!("bad path {}", path.display())))?;
        // SAFETY: `inst` is live; `c` outlives the call.
        let status = unsafe { (self.loaded.api.trace_open)(self.inst, c.as_ptr()) };
        self.check(status)
            .map_err(|e| SimError::Trace(e.to_string()))
    }

    fn check(&self, status: c_int) -> Result<(), SimError> {
        let message = match status {
            0 => return Ok(()),
            1 => "$stop, $fatal or a failed assertion (its message is on stdout)".to_string(),
            // SAFETY: `inst` is live; the shim returns a NUL-terminated string it owns.
            _ => unsafe { CStr::from_ptr((self.loaded.api.error)(self.inst)) }
                .to_string_lossy()
                .into_owned(),
        };
        Err(SimError::ModelStopped {
            cycle: self.cycles,
            message,
        })
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: `inst` came from `new` of the same library and is not used afterwards.
        unsafe { (self.loaded.api.delete)(self.inst) };
    }
}
