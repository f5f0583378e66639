//! The compile flow shared by `oclhls FILE.cl` and `oclhls sim`: front end, lowering, passes,
//! scheduling and Verilog emission, with every stage's diagnostics rendered against the source.

mod report;

pub use report::{
    explain, report, write_outputs, CounterReport, KernelReport, LoopReport, MemoryReport,
    MemorySpace, PartitionKind, PortLimitedLoop, Report,
};

use anyhow::{Context, Result};
use frontend::diag::Diagnostic;
use frontend::span::{SourceMap, Span};
use hls_ir::Kernel;
use rtl_templates::EmittedKernel;
use scheduler::kernel::KernelSchedule;
use scheduler::oplib::OpLibrary;
use std::path::{Path, PathBuf};

/// `-D` options (`NAME` or `NAME=VALUE`) as the front end takes them.
pub fn parse_defines(d: &[String]) -> Vec<(String, Option<String>)> {
    d.iter()
        .map(|s| match s.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (s.clone(), None),
        })
        .collect()
}

/// The clock a compile targets unless told otherwise (`--clock-mhz`).
pub const DEFAULT_CLOCK_MHZ: f64 = 100.0;

/// Options of one compilation.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    pub defines: Vec<(String, Option<String>)>,
    pub undefines: Vec<String>,
    pub include_dirs: Vec<PathBuf>,
    /// Kernels to build; empty = all.
    pub kernels: Vec<String>,
    pub clock_mhz: f64,
    /// Print the IR after this pass (`lower` = right after lowering, `all` = after each).
    pub print_ir_after: Option<String>,
    /// Reservation table entries per pipe side (`CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS`);
    /// `None`: `hls_ir::lower::PIPE_MAX_RESERVATIONS`.
    pub pipe_reservations: Option<u32>,
    /// Cycles the schedule leaves between a global read's request and the use of its data
    /// (`--memory-latency`; `None`: `OpLibrary`'s default). Each port's response buffer holds
    /// this many reads per load, so a pipeline keeps its rate with memory this slow.
    pub memory_latency: Option<u32>,
    /// Global ports combine consecutive accesses into bursts (off with `--no-bursts`).
    pub bursts: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            defines: Vec::new(),
            undefines: Vec::new(),
            include_dirs: Vec::new(),
            kernels: Vec::new(),
            clock_mhz: DEFAULT_CLOCK_MHZ,
            print_ir_after: None,
            pipe_reservations: None,
            memory_latency: None,
            bursts: true,
        }
    }
}

/// One compiled kernel.
pub struct CompiledKernel {
    /// The IR after the pass pipeline (what was scheduled).
    pub ir: Kernel,
    /// The IR as lowering produced it, for the IR interpreter's link of the differential chain.
    pub ir_lowered: Kernel,
    pub schedule: KernelSchedule,
    pub rtl: EmittedKernel,
}

/// The result of compiling a file.
pub struct Compiled {
    pub sm: SourceMap,
    pub kernels: Vec<CompiledKernel>,
    pub warnings: Vec<Diagnostic>,
    /// Reservation table entries per pipe side of every pipe.
    pub pipe_reservations: u32,
}

/// A compile failure: diagnostics already rendered for the terminal.
#[derive(Debug)]
pub struct CompileFailed {
    pub rendered: String,
    pub errors: usize,
}

impl std::fmt::Display for CompileFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.rendered)
    }
}

fn color() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// The most errors (and, separately, warnings) a command prints; 0 = no limit
/// (`--error-limit`, default [`DEFAULT_ERROR_LIMIT`] like clang's).
static ERROR_LIMIT: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(DEFAULT_ERROR_LIMIT);

pub const DEFAULT_ERROR_LIMIT: usize = 20;

/// Sets the limit [`render`] applies (0 = no limit).
pub fn set_error_limit(n: usize) {
    ERROR_LIMIT.store(n, std::sync::atomic::Ordering::Relaxed);
}

/// Renders diagnostics for the terminal: at most the error limit of errors and of warnings
/// (in source order of discovery), then how many more there were.
pub fn render(sm: &SourceMap, diags: &[Diagnostic]) -> String {
    let limit = ERROR_LIMIT.load(std::sync::atomic::Ordering::Relaxed);
    if limit == 0 {
        return frontend::diag::render(sm, diags, color());
    }
    let (mut errors, mut others) = (0usize, 0usize);
    let mut shown = Vec::new();
    let (mut hidden_errors, mut hidden_others) = (0usize, 0usize);
    for d in diags {
        let (count, hidden) = if d.is_error() {
            (&mut errors, &mut hidden_errors)
        } else {
            (&mut others, &mut hidden_others)
        };
        if *count < limit {
            *count += 1;
            shown.push(d.clone());
        } else {
            *hidden += 1;
        }
    }
    let mut out = frontend::diag::render(sm, &shown, color());
    if hidden_errors + hidden_others > 0 {
        out.push_str(&format!(
            "note: {hidden_errors} more error(s) and {hidden_others} more warning(s) not shown (the limit is {limit} of each; `--error-limit 0` shows all)\n"
        ));
    }
    out
}

fn fail(sm: &SourceMap, diags: Vec<Diagnostic>) -> CompileFailed {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    CompileFailed {
        rendered: render(sm, &diags),
        errors,
    }
}

fn front_end(
    path: &Path,
    opts: &CompileOptions,
) -> Result<(SourceMap, frontend::FileId, frontend::CompileResult)> {
    let mut sm = SourceMap::new();
    let file = frontend::load_file(&mut sm, path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let fopts = frontend::Options {
        defines: opts.defines.clone(),
        undefines: opts.undefines.clone(),
        include_dirs: opts.include_dirs.clone(),
        ..Default::default()
    };
    let r = frontend::compile(&mut sm, file, &fopts);
    Ok((sm, file, r))
}

/// Parse and check only.
pub fn check(
    path: &Path,
    opts: &CompileOptions,
) -> Result<std::result::Result<(SourceMap, Vec<Diagnostic>), CompileFailed>> {
    let (sm, _, r) = front_end(path, opts)?;
    Ok(match r {
        Ok((_, warnings)) => Ok((sm, warnings)),
        Err(d) => Err(fail(&sm, d)),
    })
}

/// What the front end alone produces: the source map, the checked program and its warnings.
pub type Front = (SourceMap, frontend::ast::Program, Vec<Diagnostic>);

/// The front end only: the checked program, for the emulator.
pub fn front(
    path: &Path,
    opts: &CompileOptions,
) -> Result<std::result::Result<Front, CompileFailed>> {
    let (sm, _, r) = front_end(path, opts)?;
    Ok(match r {
        Ok((p, warnings)) => Ok((sm, p, warnings)),
        Err(d) => Err(fail(&sm, d)),
    })
}

/// The whole flow for every selected kernel of the file at `path`.
pub fn compile(
    path: &Path,
    opts: &CompileOptions,
) -> Result<std::result::Result<Compiled, CompileFailed>> {
    let (sm, file, r) = front_end(path, opts)?;
    let (program, warnings) = match r {
        Ok(p) => p,
        Err(d) => return Ok(Err(fail(&sm, d))),
    };
    Ok(compile_program(sm, file, &program, warnings, opts))
}

/// The hardware flow for every kernel `opts` selects of a checked program.
pub fn compile_program(
    sm: SourceMap,
    file: frontend::FileId,
    program: &frontend::ast::Program,
    mut warnings: Vec<Diagnostic>,
    opts: &CompileOptions,
) -> std::result::Result<Compiled, CompileFailed> {
    let mut diags = unknown_kernels(program, file, &opts.kernels);
    let selected: Vec<_> = program
        .kernels()
        .filter(|(_, f)| opts.kernels.is_empty() || opts.kernels.contains(&f.name))
        .map(|(id, _)| id)
        .collect();
    if selected.is_empty() && diags.is_empty() {
        diags.push(
            Diagnostic::error(Span::new(file, 0, 0), "this file defines no kernel")
                .note("declare a function with `kernel void name(...)`"),
        );
    }
    let flow = Flow::new(opts);
    let mut kernels = Vec::new();
    for id in selected {
        let mut show = |pass: &str, k: &Kernel| {
            if let Some(p) = &opts.print_ir_after {
                if p == pass || p == "all" {
                    println!("; IR of `{}` after {pass}", k.name);
                    print!("{}", hls_ir::printer::print_kernel(k, &|s| sm.describe(s)));
                }
            }
        };
        match flow.compile_kernel(program, id, &mut warnings, &mut show) {
            Ok(k) => kernels.push(k),
            Err(mut d) => diags.append(&mut d),
        }
    }
    if !diags.is_empty() {
        diags.extend(warnings);
        return Err(fail(&sm, diags));
    }
    Ok(Compiled {
        sm,
        kernels,
        warnings,
        pipe_reservations: flow.pipe_reservations,
    })
}

/// `--kernel NAME` options that name no kernel of the program.
fn unknown_kernels(
    program: &frontend::ast::Program,
    file: frontend::FileId,
    names: &[String],
) -> Vec<Diagnostic> {
    let known: Vec<&str> = program.kernels().map(|(_, f)| f.name.as_str()).collect();
    names
        .iter()
        .filter(|name| !known.contains(&name.as_str()))
        .map(|name| {
            Diagnostic::error(
                Span::new(file, 0, 0),
                format!("no kernel named `{name}` in this file"),
            )
            .note(format!(
                "kernels in this file: {}",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ))
        })
        .collect()
}

/// The hardware flow of one kernel, with what every stage needs from the options.
pub struct Flow {
    pub lib: OpLibrary,
    pub sched_opts: scheduler::Options,
    /// Reservation table entries per pipe side of every pipe.
    pub pipe_reservations: u32,
    pub emit: rtl_templates::EmitOptions,
}

impl Flow {
    pub fn new(opts: &CompileOptions) -> Flow {
        let mut lib = OpLibrary::with_clock(opts.clock_mhz);
        if let Some(l) = opts.memory_latency {
            lib.global_load_latency = l;
        }
        Flow {
            lib,
            sched_opts: scheduler::Options::default(),
            pipe_reservations: opts
                .pipe_reservations
                .unwrap_or(hls_ir::lower::PIPE_MAX_RESERVATIONS),
            emit: rtl_templates::EmitOptions {
                bursts: opts.bursts,
            },
        }
    }

    /// Kernel `id` of `program` through every stage, in order: lowering, the pass pipeline,
    /// scheduling, Verilog emission. This is the one place the stage order is written; the
    /// commands and the tests call it. `observe` sees the IR after lowering (`"lower"`) and
    /// after every pass (by name); lowering's warnings are appended to `warnings`.
    pub fn compile_kernel(
        &self,
        program: &frontend::ast::Program,
        id: frontend::ast::FuncId,
        warnings: &mut Vec<Diagnostic>,
        observe: &mut dyn FnMut(&str, &Kernel),
    ) -> std::result::Result<CompiledKernel, Vec<Diagnostic>> {
        let mut lower_opts = hls_ir::lower::LowerOptions {
            max_reservations: self.pipe_reservations,
            keep_nested: Vec::new(),
        };
        let mut chosen = match self.stages(program, id, &lower_opts) {
            Ok(staged) => staged,
            Err((diags, observed)) => {
                // The IR up to the stage that failed (`--print-ir-after` shows what the
                // scheduler or the emitter refused).
                for (name, k) in &observed {
                    observe(name, k);
                }
                return Err(diags);
            }
        };
        // Nests flattened without a pragma whose loop needs more than II 1: try them with
        // the outermost level kept nested (the levels inside may still flatten), and keep
        // that where the loop inside reaches a smaller II (an II that grows costs every
        // iteration; flattening saves one pipeline fill per entry). Each round keeps one
        // more level of some nest, so this ends.
        loop {
            let costly = costly_nests(&chosen.kernel);
            if costly.is_empty() {
                break;
            }
            let mut trial_opts = lower_opts.clone();
            trial_opts
                .keep_nested
                .extend(costly.iter().map(|c| (c.outer, c.ii)));
            let Ok(trial) = self.stages(program, id, &trial_opts) else {
                break;
            };
            let better: Vec<&CostlyNest> = costly
                .iter()
                .filter(|c| loop_ii(&trial.kernel, c.next).is_some_and(|ii| ii < c.ii))
                .collect();
            if better.is_empty() {
                break;
            }
            lower_opts
                .keep_nested
                .extend(better.iter().map(|c| (c.outer, c.ii)));
            chosen = if better.len() == costly.len() {
                trial
            } else {
                self.stages(program, id, &lower_opts).map_err(|(d, _)| d)?
            };
        }
        warnings.extend(chosen.warnings);
        for (name, k) in &chosen.observed {
            observe(name, k);
        }
        Ok(chosen.kernel)
    }

    /// One run of the stages with these lowering options: the kernel, lowering's warnings and
    /// the IR after lowering and after each pass (kept, so that only the run that is chosen
    /// reaches the caller).
    fn stages(
        &self,
        program: &frontend::ast::Program,
        id: frontend::ast::FuncId,
        lower_opts: &hls_ir::lower::LowerOptions,
    ) -> std::result::Result<Staged, StageError> {
        let mut warnings = Vec::new();
        let mut observed = Vec::new();
        let mut ir =
            hls_ir::lower::lower_kernel_with_warnings(program, id, lower_opts, &mut warnings)
                .map_err(|d| (d, Vec::new()))?;
        observed.push(("lower".to_string(), ir.clone()));
        let ir_lowered = ir.clone();
        let goal = |k: &Kernel, l: hls_ir::LoopId| scheduler::kernel::ii_goal(k, l, &self.lib);
        let mut keep = |name: &str, k: &Kernel| observed.push((name.to_string(), k.clone()));
        hls_ir::passes::run_pipeline(&mut ir, true, Some(&goal), &mut keep)
            .expect("IR verification failed: this is a bug in oclhls");
        let schedule = match scheduler::kernel::schedule_kernel(&ir, &self.lib, &self.sched_opts) {
            Ok(s) => s,
            Err(d) => return Err((d, observed)),
        };
        requested_ii_warnings(&ir, &schedule, &mut warnings);
        let rtl = match rtl_templates::emit_kernel_with(&ir, &schedule, &[], &self.emit) {
            Ok(r) => r,
            Err(d) => return Err((d, observed)),
        };
        Ok(Staged {
            kernel: CompiledKernel {
                ir,
                ir_lowered,
                schedule,
                rtl,
            },
            warnings,
            observed,
        })
    }
}

/// A nest flattened without a pragma whose loop needs more than II 1.
struct CostlyNest {
    /// The outermost loop's span, and the next level's.
    outer: Span,
    next: Span,
    ii: u32,
}

fn costly_nests(k: &CompiledKernel) -> Vec<CostlyNest> {
    k.ir.loops
        .ids()
        .filter_map(|l| {
            let lp = &k.ir.loops[l];
            let ii = k.schedule.for_loop(l)?.ii;
            let next = *lp.flattened.first()?;
            (!lp.coalesce_requested && ii > 1).then_some(CostlyNest {
                outer: lp.span,
                next,
                ii,
            })
        })
        .collect()
}

/// The II of the loop at `span`.
fn loop_ii(k: &CompiledKernel, span: Span) -> Option<u32> {
    let l = k.ir.loops.ids().find(|&l| k.ir.loops[l].span == span)?;
    Some(k.schedule.for_loop(l)?.ii)
}

/// A run of the stages that failed: its diagnostics, and the IR it had observed by then.
type StageError = (Vec<Diagnostic>, Vec<(String, Kernel)>);

/// What one run of the stages gave (see [`Flow::stages`]).
struct Staged {
    kernel: CompiledKernel,
    warnings: Vec<Diagnostic>,
    observed: Vec<(String, Kernel)>,
}

/// A warning for each loop whose requested II (`#pragma ii N`) is below the II it got.
fn requested_ii_warnings(k: &Kernel, s: &KernelSchedule, warnings: &mut Vec<Diagnostic>) {
    for l in k.loops.ids() {
        let (Some(want), Some(ls)) = (k.loops[l].requested_ii, s.for_loop(l)) else {
            continue;
        };
        if ls.ii > want {
            warnings.push(
                Diagnostic::warning(
                    k.loops[l].span,
                    format!("the II of {want} asked for is not reached: this loop starts an iteration every {} cycles", ls.ii),
                )
                .note("the compile summary and report.json say what limits the II"),
            );
        }
    }
}
