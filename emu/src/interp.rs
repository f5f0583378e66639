//! The tree-walking interpreter of one work-item.
//!
//! Every variable lives in memory (private memory for ordinary variables and parameters, the
//! work-group's local memory for `local` ones), so an lvalue is always an address and pointers
//! need no special cases. The front end guarantees there is no recursion, so each function
//! has at most one active frame and a variable's address can be kept per `VarId`.

use crate::mem::{GlobalMem, Hit, LOCAL_BASE, PRIVATE_BASE, PRIVATE_LIMIT};
use crate::pipes::Pipes;
use crate::value::{self, lane_shape, to_bytes, ArithError, Val};
use crate::EmuError;
use corosensei::Yielder;
use frontend::ast::{
    AddrSpace, BinOp, Expr, ExprKind, FuncId, Init, Program, Rounding, ScalarKind, Stmt, StmtKind,
    Type, UnOp,
};
use frontend::Span;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

pub type R<T> = Result<T, EmuError>;

/// State shared by every work-item of a run (only one work-item runs at a time).
#[derive(Default)]
pub struct Shared {
    pub global: GlobalMem,
    pub pipes: Pipes,
    /// Per (launch, work-group linear index).
    pub groups: HashMap<(usize, u32), GroupShared>,
    /// `printf` output of the run.
    pub printf: String,
}

#[derive(Default)]
pub struct GroupShared {
    pub local: Vec<u8>,
    /// Results of work-group functions, by barrier generation.
    pub collective: HashMap<u64, u32>,
    /// Outstanding async-copy events and the span of the copy that made each.
    pub events: BTreeMap<u32, Span>,
    pub next_event: u32,
}

/// The NDRange of a launch.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub dims: u32,
    pub global: [u32; 3],
    pub local: [u32; 3],
    pub offset: [u32; 3],
    pub groups: [u32; 3],
}

/// Who a work-item is.
#[derive(Clone, Debug)]
pub struct ItemId {
    pub launch: usize,
    pub kernel: FuncId,
    pub group: [u32; 3],
    pub group_linear: u32,
    pub local: [u32; 3],
    /// Actual size of this (possibly partial) work-group.
    pub local_size: [u32; 3],
}

/// Messages from a work-item to the scheduler.
pub enum ToSched {
    /// End of a time slice; runnable again at once.
    Yield(Span),
    /// Reached a barrier or a work-group function.
    Barrier(Span),
    /// Cannot proceed until the pipe has `n` packets (read) or `n` free slots (write).
    Blocked {
        span: Span,
        pipe: usize,
        write: bool,
        n: u32,
    },
    Done(R<()>),
}

/// How a work-item hands control back to the scheduler: it runs as a stackful coroutine
/// (corosensei) on the scheduler's thread and suspends itself with a message.
pub struct Link<'a> {
    pub yielder: &'a Yielder<(), ToSched>,
}

pub enum Flow {
    Normal,
    Break,
    Continue,
    Return(Val),
}

/// Deepest nesting of expressions, statements and calls the interpreter follows. The front
/// end bounds one expression at 500 levels, but calls stack them. A level costs about 17 KiB
/// of coroutine stack in a debug build (1 KiB optimised), so 8000 levels fit the 256 MiB
/// coroutine stacks (`sched::STACK`); running out of stack would crash the process instead of
/// reporting an error.
pub const MAX_DEPTH: u32 = 8000;

/// Statements and expressions run before a work-item hands control back.
const SLICE: u32 = 1000;

pub struct Item<'a> {
    pub prog: &'a Program,
    pub shared: &'a Mutex<Shared>,
    pub geom: Geometry,
    pub id: ItemId,
    pub private: Vec<u8>,
    pub sp: u32,
    pub vars: Vec<u32>,
    pub link: Option<Link<'a>>,
    pub steps: &'a AtomicU64,
    pub max_steps: u64,
    pub slice: u32,
    /// Current nesting of `eval`/`exec` (bounded by [`MAX_DEPTH`]).
    pub depth: u32,
    /// Number of barriers / work-group functions passed.
    pub bar_gen: u64,
    /// Pipes bound to parameters with `__attribute__((blocking))`.
    pub blocking_pipes: Vec<usize>,
    /// Inside `read_pipe_block`/`write_pipe_block`: the access waits instead of failing.
    pub force_blocking: bool,
    /// Names of the pipes (for messages).
    pub pipe_names: &'a [String],
    /// Addresses of the program-scope variables.
    pub globals: &'a [u32],
}

impl<'a> Item<'a> {
    // ---- identity and errors ----

    pub fn global_id(&self, d: usize) -> u32 {
        self.id.group[d]
            .wrapping_mul(self.geom.local[d])
            .wrapping_add(self.id.local[d])
            .wrapping_add(self.geom.offset[d])
    }

    pub fn who(&self) -> String {
        let g = (0..3).map(|d| self.global_id(d)).collect::<Vec<_>>();
        let n = self.geom.dims as usize;
        let fmt = |v: &[u32]| {
            v[..n]
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "work-item global id ({}) (local id ({}), work-group ({})) of kernel `{}`",
            fmt(&g),
            fmt(&self.id.local),
            fmt(&self.id.group),
            self.prog.func(self.id.kernel).name
        )
    }

    pub fn err(&self, span: Span, msg: impl Into<String>) -> EmuError {
        EmuError::at(span, format!("{} in {}", msg.into(), self.who()))
    }

    pub fn unsupported(&self, span: Span, what: &str) -> EmuError {
        EmuError::at(span, format!("{what} is not yet supported by the emulator"))
    }

    pub fn lock(&self) -> MutexGuard<'a, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn size_of(&self, t: &Type) -> u32 {
        self.prog.size_of(t)
    }

    pub fn align_of(&self, t: &Type) -> u32 {
        self.prog.structs.align_of(t)
    }

    /// Counts one step; hands control back at the end of a slice.
    pub fn tick(&mut self, span: Span) -> R<()> {
        let n = self.steps.fetch_add(1, Ordering::Relaxed) + 1;
        if n > self.max_steps {
            return Err(self
                .err(
                    span,
                    format!(
                        "step limit of {} exceeded (a kernel that never finishes, e.g. a retry \
                         loop on a pipe that is never served?)",
                        self.max_steps
                    ),
                )
                .with_note("raise it with --max-steps if the kernel is just long"));
        }
        self.slice += 1;
        if self.slice >= SLICE {
            self.slice = 0;
            self.hand_over(ToSched::Yield(span))?;
        }
        Ok(())
    }

    /// Suspends this work-item with a message to the scheduler until it resumes it. (If the
    /// run ends meanwhile, the coroutine is dropped and unwound from here.)
    pub fn hand_over(&mut self, msg: ToSched) -> R<()> {
        if let Some(link) = &self.link {
            link.yielder.suspend(msg);
        }
        Ok(())
    }

    /// A barrier (or the synchronisation of a work-group function).
    pub fn barrier(&mut self, span: Span) -> R<()> {
        self.bar_gen += 1;
        self.slice = 0;
        if self.link.is_none() {
            return Err(EmuError::at(span, "a barrier outside a kernel launch"));
        }
        self.hand_over(ToSched::Barrier(span))
    }

    // ---- memory ----

    /// Reads (`data = None`) or writes bytes with bounds and alignment checks.
    pub fn access(
        &mut self,
        addr: u32,
        len: u32,
        align: u32,
        span: Span,
        data: Option<&[u8]>,
    ) -> R<Vec<u8>> {
        let what = if data.is_some() { "write" } else { "read" };
        if align > 1 && !addr.is_multiple_of(align) {
            return Err(self.err(
                span,
                format!(
                    "misaligned {what} of {len} bytes at address {addr:#010x} (needs {align}-byte \
                     alignment)"
                ),
            ));
        }
        let oob = |me: &Self, note: String| {
            me.err(
                span,
                format!("out-of-bounds {what} of {len} bytes at address {addr:#010x}"),
            )
            .with_note(note)
        };
        if addr >= PRIVATE_BASE {
            let off = (addr - PRIVATE_BASE) as usize;
            if off + len as usize > self.private.len() {
                return Err(oob(
                    self,
                    format!(
                        "private memory of this work-item is {:#010x}..{:#010x}",
                        PRIVATE_BASE,
                        PRIVATE_BASE as usize + self.private.len()
                    ),
                ));
            }
            let m = &mut self.private[off..off + len as usize];
            return Ok(match data {
                Some(d) => {
                    m.copy_from_slice(d);
                    Vec::new()
                }
                None => m.to_vec(),
            });
        }
        let key = (self.id.launch, self.id.group_linear);
        let mut sh = self.lock();
        if addr >= LOCAL_BASE {
            let off = (addr - LOCAL_BASE) as usize;
            let local = &mut sh.groups.entry(key).or_default().local;
            let size = local.len();
            if off + len as usize > size {
                drop(sh);
                return Err(oob(
                    self,
                    format!(
                        "local memory of this work-group is {:#010x}..{:#010x} ({size} bytes)",
                        LOCAL_BASE,
                        LOCAL_BASE as usize + size
                    ),
                ));
            }
            let m = &mut local[off..off + len as usize];
            return Ok(match data {
                Some(d) => {
                    m.copy_from_slice(d);
                    Vec::new()
                }
                None => m.to_vec(),
            });
        }
        match sh.global.find(addr, len) {
            Hit::Ok { region, offset } => {
                let m = &mut sh.global.regions[region].bytes[offset..offset + len as usize];
                Ok(match data {
                    Some(d) => {
                        m.copy_from_slice(d);
                        Vec::new()
                    }
                    None => m.to_vec(),
                })
            }
            Hit::Miss(note) => {
                drop(sh);
                let note = if addr < 0x1000 {
                    "a null (or nearly null) pointer".to_string()
                } else {
                    note
                };
                Err(oob(self, note))
            }
        }
    }

    pub fn load(&mut self, addr: u32, t: &Type, span: Span) -> R<Val> {
        let size = self.size_of(t);
        let bytes = self.access(addr, size, self.align_of(t), span, None)?;
        Ok(value::from_bytes(&bytes, t))
    }

    pub fn store(&mut self, addr: u32, t: &Type, v: &Val, span: Span) -> R<()> {
        let bytes = to_bytes(v, t, &self.prog.structs);
        self.access(
            addr,
            bytes.len() as u32,
            self.align_of(t),
            span,
            Some(&bytes),
        )?;
        Ok(())
    }

    /// Allocates private memory for an object of type `t`.
    pub fn alloc_private(&mut self, t: &Type, span: Span) -> R<u32> {
        let align = self.align_of(t).max(1);
        let size = self.size_of(t);
        let start = self.sp.div_ceil(align) * align;
        let end = start as u64 + size as u64;
        if end > PRIVATE_LIMIT as u64 {
            return Err(self.err(
                span,
                format!(
                    "private memory exhausted ({} bytes per work-item)",
                    PRIVATE_LIMIT
                ),
            ));
        }
        self.sp = end as u32;
        if self.private.len() < end as usize {
            self.private.resize(end as usize, 0);
        }
        Ok(PRIVATE_BASE + start)
    }

    // ---- functions ----

    /// Calls `f` with argument values (already converted).
    pub fn call(&mut self, f: FuncId, args: Vec<Val>, span: Span) -> R<Val> {
        let prog = self.prog;
        let func = prog.func(f);
        let saved = self.sp;
        for (p, v) in func.params.iter().zip(args) {
            let ty = &prog.var(*p).ty;
            let addr = self.alloc_private(ty, span)?;
            self.vars[p.0 as usize] = addr;
            self.store(addr, ty, &v, span)?;
        }
        let flow = self.exec_block(&func.body.stmts)?;
        self.sp = saved;
        Ok(match flow {
            Flow::Return(v) => v,
            _ => Val::Void,
        })
    }

    fn exec_block(&mut self, stmts: &[Stmt]) -> R<Flow> {
        let saved = self.sp;
        for s in stmts {
            let f = self.exec(s)?;
            if !matches!(f, Flow::Normal) {
                self.sp = saved;
                return Ok(f);
            }
        }
        self.sp = saved;
        Ok(Flow::Normal)
    }

    fn cond(&mut self, e: &Expr) -> R<bool> {
        let v = self.eval(e)?;
        Ok(truthy(&e.ty, &v))
    }

    fn exec(&mut self, s: &Stmt) -> R<Flow> {
        self.enter(s.span)?;
        let r = self.exec_inner(s);
        self.depth -= 1;
        r
    }

    fn exec_inner(&mut self, s: &Stmt) -> R<Flow> {
        self.tick(s.span)?;
        match &s.kind {
            StmtKind::Block(b) => self.exec_block(&b.stmts),
            StmtKind::Decl { var, init } => {
                let info = self.prog.var(*var);
                if info.space == AddrSpace::Local {
                    // allocated per work-group when the kernel starts
                    if self.vars[var.0 as usize] == 0 {
                        return Err(self.unsupported(
                            s.span,
                            "a `local` variable declared outside the kernel function",
                        ));
                    }
                    return Ok(Flow::Normal);
                }
                let ty = info.ty.clone();
                let addr = self.alloc_private(&ty, s.span)?;
                self.vars[var.0 as usize] = addr;
                if let Some(init) = init {
                    self.init(addr, &ty, init)?;
                }
                Ok(Flow::Normal)
            }
            StmtKind::Expr(e) => {
                self.eval(e)?;
                Ok(Flow::Normal)
            }
            StmtKind::If { cond, then, els } => {
                if self.cond(cond)? {
                    self.exec(then)
                } else if let Some(e) = els {
                    self.exec(e)
                } else {
                    Ok(Flow::Normal)
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                let saved = self.sp;
                if let Some(i) = init {
                    self.exec(i)?;
                }
                let r = loop {
                    if let Some(c) = cond {
                        if !self.cond(c)? {
                            break Flow::Normal;
                        }
                    }
                    match self.exec(body)? {
                        Flow::Break => break Flow::Normal,
                        f @ Flow::Return(_) => break f,
                        _ => {}
                    }
                    if let Some(st) = step {
                        self.eval(st)?;
                    }
                    self.tick(s.span)?;
                };
                self.sp = saved;
                Ok(r)
            }
            StmtKind::While { cond, body } => loop {
                if !self.cond(cond)? {
                    return Ok(Flow::Normal);
                }
                match self.exec(body)? {
                    Flow::Break => return Ok(Flow::Normal),
                    f @ Flow::Return(_) => return Ok(f),
                    _ => {}
                }
                self.tick(s.span)?;
            },
            StmtKind::DoWhile { body, cond } => loop {
                match self.exec(body)? {
                    Flow::Break => return Ok(Flow::Normal),
                    f @ Flow::Return(_) => return Ok(f),
                    _ => {}
                }
                if !self.cond(cond)? {
                    return Ok(Flow::Normal);
                }
                self.tick(s.span)?;
            },
            StmtKind::Switch { cond, cases } => {
                let v = self.eval(cond)?.first();
                let k = cond.ty.elem_kind().unwrap_or(ScalarKind::Int);
                let v = k.truncate(v);
                let start = cases
                    .iter()
                    .position(|c| c.values.iter().any(|x| k.truncate(*x) == v))
                    .or_else(|| cases.iter().position(|c| c.is_default));
                let Some(start) = start else {
                    return Ok(Flow::Normal);
                };
                let saved = self.sp;
                for c in &cases[start..] {
                    for st in &c.body {
                        match self.exec(st)? {
                            Flow::Normal => {}
                            Flow::Break => {
                                self.sp = saved;
                                return Ok(Flow::Normal);
                            }
                            f => {
                                self.sp = saved;
                                return Ok(f);
                            }
                        }
                    }
                }
                self.sp = saved;
                Ok(Flow::Normal)
            }
            StmtKind::Break => Ok(Flow::Break),
            StmtKind::Continue => Ok(Flow::Continue),
            StmtKind::Return(e) => Ok(Flow::Return(match e {
                Some(e) => self.eval(e)?,
                None => Val::Void,
            })),
            StmtKind::Empty => Ok(Flow::Normal),
        }
    }

    /// Stores an initialiser into the object at `addr` of type `t`.
    pub fn init(&mut self, addr: u32, t: &Type, init: &Init) -> R<()> {
        match init {
            Init::Expr(e) => {
                let v = self.eval(e)?;
                self.store(addr, t, &v, e.span)
            }
            Init::List(items) => {
                let prog = self.prog;
                match t {
                    Type::Array(elem, _) => {
                        let size = self.size_of(elem);
                        for (i, it) in items.iter().enumerate() {
                            self.init(addr.wrapping_add(i as u32 * size), elem, it)?;
                        }
                        Ok(())
                    }
                    Type::Struct(id) => {
                        let def = prog.structs.get(*id);
                        for (f, it) in def.fields.iter().zip(items) {
                            self.init(addr.wrapping_add(f.offset), &f.ty, it)?;
                        }
                        Ok(())
                    }
                    Type::Vector(k, _) => {
                        let size = k.size_bytes();
                        for (i, it) in items.iter().enumerate() {
                            self.init(addr.wrapping_add(i as u32 * size), &Type::Scalar(*k), it)?;
                        }
                        Ok(())
                    }
                    _ => match items.first() {
                        Some(it) => self.init(addr, t, it),
                        None => Ok(()),
                    },
                }
            }
        }
    }

    // ---- expressions ----

    /// The address of an lvalue expression.
    pub fn place(&mut self, e: &Expr) -> R<Place> {
        Ok(match &e.kind {
            ExprKind::Var(v) => Place::Mem(self.vars[v.0 as usize]),
            ExprKind::Global(g) => Place::Mem(self.global_addr(*g, e.span)?),
            ExprKind::Deref(p) => Place::Mem(self.eval(p)?.first() as u32),
            ExprKind::Index { base, index } => {
                let elem_size = self.size_of(&e.ty);
                let b = if base.ty.is_array() {
                    self.place_addr(base)?
                } else {
                    self.eval(base)?.first() as u32
                };
                let i = self.eval(index)?.first();
                let i = index_value(&index.ty, i);
                Place::Mem(b.wrapping_add((i as u32).wrapping_mul(elem_size)))
            }
            ExprKind::Member { base, field } => {
                let Type::Struct(id) = &base.ty else {
                    return Err(self.unsupported(e.span, "member access on a non-struct"));
                };
                let off = self.prog.structs.get(*id).fields[*field as usize].offset;
                Place::Mem(self.place_addr(base)?.wrapping_add(off))
            }
            ExprKind::Swizzle { base, lanes } => match self.place(base)? {
                Place::Mem(a) => Place::Lanes(a, base.ty.clone(), lanes.clone()),
                Place::Lanes(a, t, l) => {
                    Place::Lanes(a, t, lanes.iter().map(|&i| l[i as usize]).collect())
                }
            },
            ExprKind::Comma(a, b) => {
                self.eval(a)?;
                self.place(b)?
            }
            _ => {
                return Err(self.unsupported(e.span, "this kind of lvalue"));
            }
        })
    }

    fn place_addr(&mut self, e: &Expr) -> R<u32> {
        match self.place(e)? {
            Place::Mem(a) => Ok(a),
            Place::Lanes(..) => Err(self.unsupported(e.span, "the address of vector lanes")),
        }
    }

    fn global_addr(&mut self, g: u32, span: Span) -> R<u32> {
        self.globals
            .get(g as usize)
            .copied()
            .ok_or_else(|| EmuError::at(span, "program-scope variable is not mapped"))
    }

    pub fn load_place(&mut self, p: &Place, t: &Type, span: Span) -> R<Val> {
        match p {
            Place::Mem(a) => self.load(*a, t, span),
            Place::Lanes(a, vt, lanes) => {
                let v = self.load(*a, vt, span)?;
                let (k, _) = lane_shape(vt).unwrap_or((ScalarKind::Int, 1));
                let src = v.lanes();
                Ok(Val::Lanes(
                    k,
                    lanes.iter().map(|&i| src[i as usize]).collect(),
                ))
            }
        }
    }

    pub fn store_place(&mut self, p: &Place, t: &Type, v: &Val, span: Span) -> R<()> {
        match p {
            Place::Mem(a) => self.store(*a, t, v, span),
            Place::Lanes(a, vt, lanes) => {
                let old = self.load(*a, vt, span)?;
                let Val::Lanes(k, mut dst) = old else {
                    return Err(self.unsupported(span, "lanes of a non-vector"));
                };
                for (j, &i) in lanes.iter().enumerate() {
                    dst[i as usize] = v.lanes()[j];
                }
                self.store(*a, vt, &Val::Lanes(k, dst), span)
            }
        }
    }

    /// Evaluates an expression (bounded nesting: see [`MAX_DEPTH`]).
    pub fn eval(&mut self, e: &Expr) -> R<Val> {
        self.enter(e.span)?;
        let r = self.eval_inner(e);
        self.depth -= 1;
        r
    }

    /// Counts one level of nesting of the interpreter's recursion.
    fn enter(&mut self, span: Span) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(self.unsupported(
                span,
                &format!(
                    "nesting of expressions, statements and calls deeper than {MAX_DEPTH} levels"
                ),
            ));
        }
        Ok(())
    }

    fn eval_inner(&mut self, e: &Expr) -> R<Val> {
        self.tick(e.span)?;
        let prog = self.prog;
        match &e.kind {
            ExprKind::IntLit(v) => {
                let (k, _) = lane_shape(&e.ty).unwrap_or((ScalarKind::Int, 1));
                Ok(Val::scalar(k, *v))
            }
            ExprKind::FloatLit(x) => {
                let k = e.ty.elem_kind().unwrap_or(ScalarKind::Float);
                Ok(Val::Lanes(k, vec![value::from_f64(k, *x)]))
            }
            ExprKind::Var(_)
            | ExprKind::Global(_)
            | ExprKind::Deref(_)
            | ExprKind::Index { .. } => {
                let p = self.place(e)?;
                self.load_place(&p, &e.ty, e.span)
            }
            ExprKind::Member { base, field } => {
                if base.lvalue {
                    let p = self.place(e)?;
                    return self.load_place(&p, &e.ty, e.span);
                }
                let Type::Struct(id) = &base.ty else {
                    return Err(self.unsupported(e.span, "member access on a non-struct"));
                };
                let f = &prog.structs.get(*id).fields[*field as usize];
                let bytes = to_bytes(&self.eval(base)?, &base.ty, &prog.structs);
                let size = self.size_of(&f.ty) as usize;
                let off = f.offset as usize;
                Ok(value::from_bytes(&bytes[off..off + size], &f.ty))
            }
            ExprKind::Swizzle { base, lanes } => {
                if base.lvalue {
                    let p = self.place(e)?;
                    return self.load_place(&p, &e.ty, e.span);
                }
                let v = self.eval(base)?;
                let (k, _) = lane_shape(&base.ty).unwrap_or((ScalarKind::Int, 1));
                let src = v.lanes();
                Ok(Val::Lanes(
                    k,
                    lanes.iter().map(|&i| src[i as usize]).collect(),
                ))
            }
            ExprKind::Unary { op, expr } => {
                let v = self.eval(expr)?;
                self.unary(*op, &expr.ty, &e.ty, v)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                if op.is_logical() && lhs.ty.is_scalar() {
                    let a = self.cond(lhs)?;
                    let r = match op {
                        BinOp::LogAnd => a && self.cond(rhs)?,
                        _ => a || self.cond(rhs)?,
                    };
                    let k = e.ty.elem_kind().unwrap_or(ScalarKind::Int);
                    return Ok(Val::scalar(k, r as u64));
                }
                let a = self.eval(lhs)?;
                let b = self.eval(rhs)?;
                self.binary(*op, &lhs.ty, &rhs.ty, &e.ty, a, b, e.span)
            }
            ExprKind::Assign {
                op,
                lhs,
                rhs,
                op_ty,
            } => {
                let p = self.place(lhs)?;
                let r = self.eval(rhs)?;
                let new = match op {
                    None => r,
                    Some(op) => {
                        let old = self.load_place(&p, &lhs.ty, e.span)?;
                        let old = self.convert(old, &lhs.ty, op_ty, false, Rounding::Default);
                        let res = self.binary(*op, op_ty, &rhs.ty, op_ty, old, r, e.span)?;
                        self.convert(res, op_ty, &lhs.ty, false, Rounding::Default)
                    }
                };
                self.store_place(&p, &lhs.ty, &new, e.span)?;
                Ok(new)
            }
            ExprKind::IncDec { inc, prefix, expr } => {
                let p = self.place(expr)?;
                let old = self.load_place(&p, &expr.ty, e.span)?;
                let new = match &expr.ty {
                    Type::Pointer { pointee, .. } => {
                        let size = self.size_of(pointee);
                        let a = old.first() as u32;
                        Val::uint(if *inc {
                            a.wrapping_add(size)
                        } else {
                            a.wrapping_sub(size)
                        })
                    }
                    t => {
                        let (k, n) = lane_shape(t).unwrap_or((ScalarKind::Int, 1));
                        let one = if k.is_float() {
                            value::from_f64(k, 1.0)
                        } else {
                            1
                        };
                        let ones = Val::Lanes(k, vec![one; n]);
                        let op = if *inc { BinOp::Add } else { BinOp::Sub };
                        self.binary(op, t, t, t, old.clone(), ones, e.span)?
                    }
                };
                self.store_place(&p, &expr.ty, &new, e.span)?;
                Ok(if *prefix { new } else { old })
            }
            ExprKind::Cond { cond, then, els } => {
                if cond.ty.is_scalar() {
                    if self.cond(cond)? {
                        self.eval(then)
                    } else {
                        self.eval(els)
                    }
                } else {
                    let c = self.eval(cond)?;
                    let t = self.eval(then)?;
                    let f = self.eval(els)?;
                    let ck = cond.ty.elem_kind().unwrap_or(ScalarKind::Int);
                    let (k, _) = lane_shape(&e.ty).unwrap_or((ScalarKind::Int, 1));
                    let lanes = c
                        .lanes()
                        .iter()
                        .zip(t.lanes().iter().zip(f.lanes()))
                        .map(|(c, (t, f))| if msb(ck, *c) { *t } else { *f })
                        .collect();
                    Ok(Val::Lanes(k, lanes))
                }
            }
            ExprKind::Cast { kind: _, expr } => {
                if expr.ty.is_array() {
                    // array-to-pointer decay
                    return Ok(Val::uint(self.place_addr(expr)?));
                }
                let v = self.eval(expr)?;
                Ok(self.convert(v, &expr.ty, &e.ty, false, Rounding::Default))
            }
            ExprKind::AddrOf(inner) => Ok(Val::uint(self.place_addr(inner)?)),
            ExprKind::VecLit(items) => {
                let (k, _) = lane_shape(&e.ty).unwrap_or((ScalarKind::Int, 1));
                let mut lanes = Vec::new();
                for it in items {
                    lanes.extend_from_slice(self.eval(it)?.lanes());
                }
                Ok(Val::Lanes(k, lanes))
            }
            ExprKind::Call { func, args } => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a)?);
                }
                self.call(*func, vals, e.span)
            }
            ExprKind::Builtin { builtin, args } => self.builtin(*builtin, args, e),
            ExprKind::Comma(a, b) => {
                self.eval(a)?;
                self.eval(b)
            }
            ExprKind::SizeOf(v) => {
                let (k, _) = lane_shape(&e.ty).unwrap_or((ScalarKind::UInt, 1));
                Ok(Val::scalar(k, *v))
            }
        }
    }

    fn unary(&mut self, op: UnOp, from: &Type, to: &Type, v: Val) -> R<Val> {
        let Val::Lanes(k, lanes) = v else {
            return Ok(v);
        };
        let (rk, _) = lane_shape(to).unwrap_or((k, 1));
        let vector = from.is_vector();
        Ok(match op {
            UnOp::Plus => Val::Lanes(k, lanes),
            UnOp::Neg => Val::Lanes(
                k,
                lanes
                    .iter()
                    .map(|&a| {
                        if k.is_float() {
                            a ^ (1u64 << (k.bits() - 1))
                        } else {
                            k.truncate(a.wrapping_neg())
                        }
                    })
                    .collect(),
            ),
            UnOp::BitNot => Val::Lanes(k, lanes.iter().map(|&a| k.truncate(!a)).collect()),
            UnOp::Not => Val::Lanes(
                rk,
                lanes
                    .iter()
                    .map(|&a| {
                        let zero = if k.is_float() {
                            value::to_f64(k, a) == 0.0
                        } else {
                            a == 0
                        };
                        match (zero, vector) {
                            (true, true) => value::vec_true(rk),
                            (true, false) => 1,
                            (false, _) => 0,
                        }
                    })
                    .collect(),
            ),
        })
    }

    /// A binary operator (also the operation of compound assignment).
    #[allow(clippy::too_many_arguments)]
    pub fn binary(
        &mut self,
        op: BinOp,
        lt: &Type,
        rt: &Type,
        res: &Type,
        a: Val,
        b: Val,
        span: Span,
    ) -> R<Val> {
        // pointer arithmetic
        if let Type::Pointer { pointee, .. } = lt {
            let size = self.size_of(pointee).max(1);
            let pa = a.first() as u32;
            if let Type::Pointer { .. } = rt {
                if op == BinOp::Sub {
                    let d = (pa.wrapping_sub(b.first() as u32) as i32) / size as i32;
                    return Ok(Val::scalar(ScalarKind::Int, d as u32 as u64));
                }
                let r = value::int_binop(op, ScalarKind::UInt, pa as u64, b.first())
                    .unwrap_or_default();
                let k = res.elem_kind().unwrap_or(ScalarKind::Int);
                return Ok(Val::scalar(k, r));
            }
            let i = index_value(rt, b.first());
            let off = (i as u32).wrapping_mul(size);
            let r = match op {
                BinOp::Add => pa.wrapping_add(off),
                BinOp::Sub => pa.wrapping_sub(off),
                _ => return Err(self.unsupported(span, "this pointer operation")),
            };
            return Ok(Val::uint(r));
        }
        let (k, _) = lane_shape(lt).unwrap_or((ScalarKind::Int, 1));
        let (rk, _) = lane_shape(res).unwrap_or((k, 1));
        let vector = lt.is_vector() || rt.is_vector();
        let (al, bl) = (a.lanes(), b.lanes());
        let n = al.len().max(bl.len());
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let x = al[i.min(al.len() - 1)];
            let y = bl[i.min(bl.len() - 1)];
            let r = if k.is_float() {
                value::float_binop(op, k, x, y)
            } else {
                match value::int_binop(op, k, x, y) {
                    Ok(r) => r,
                    Err(ArithError::DivByZero) => {
                        return Err(self.err(
                            span,
                            format!(
                                "integer division by zero (`{}` of {})",
                                op.symbol(),
                                value::int_value(k, x)
                            ),
                        ))
                    }
                }
            };
            let r = if op.is_comparison() || op.is_logical() {
                match (r != 0, vector) {
                    (true, true) => value::vec_true(rk),
                    (t, _) => t as u64,
                }
            } else {
                r
            };
            out.push(r);
        }
        Ok(Val::Lanes(
            if op.is_comparison() || op.is_logical() {
                rk
            } else {
                k
            },
            out,
        ))
    }

    /// Converts a value of type `from` to type `to`.
    pub fn convert(&self, v: Val, from: &Type, to: &Type, sat: bool, r: Rounding) -> Val {
        let (Some((fk, _)), Some((tk, tn))) = (lane_shape(from), lane_shape(to)) else {
            return v;
        };
        let lanes = v.lanes();
        let mut out: Vec<u64> = lanes
            .iter()
            .map(|&x| value::convert_lane(fk, x, tk, sat, r))
            .collect();
        if out.len() == 1 && tn > 1 {
            out = vec![out[0]; tn];
        }
        Val::Lanes(tk, out)
    }
}

/// An lvalue: an address, or some lanes of a vector at an address.
pub enum Place {
    Mem(u32),
    Lanes(u32, Type, Vec<u8>),
}

/// A scalar value as a condition.
pub fn truthy(t: &Type, v: &Val) -> bool {
    match lane_shape(t) {
        Some((k, _)) if k.is_float() => value::to_f64(k, v.first()) != 0.0,
        _ => v.first() != 0,
    }
}

/// Most significant bit of a lane of kind `k`.
pub fn msb(k: ScalarKind, x: u64) -> bool {
    (x >> (k.bits() - 1)) & 1 == 1
}

/// An index or offset operand as a signed element count.
pub fn index_value(t: &Type, v: u64) -> i64 {
    match t.elem_kind() {
        Some(k) if k.is_signed() => k.as_i64(v),
        Some(k) => k.truncate(v) as i64,
        None => v as i64,
    }
}
