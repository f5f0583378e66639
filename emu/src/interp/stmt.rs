//! Statements: function calls (parameters in private memory), blocks, declarations,
//! control flow (`if`, loops, `switch`, `break`, `continue`, `return`) and initialisers.

use super::{truthy, Flow, Item, R};
use crate::value::Val;
use frontend::ast::{AddrSpace, Expr, FuncId, Init, ScalarKind, Stmt, StmtKind, Type};
use frontend::Span;

impl Item<'_> {
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

    pub(super) fn exec_block(&mut self, stmts: &[Stmt]) -> R<Flow> {
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

    pub(super) fn cond(&mut self, e: &Expr) -> R<bool> {
        let v = self.eval(e)?;
        Ok(truthy(&e.ty, &v))
    }

    pub(super) fn exec(&mut self, s: &Stmt) -> R<Flow> {
        self.enter(s.span)?;
        let r = self.exec_inner(s);
        self.depth -= 1;
        r
    }

    pub(super) fn exec_inner(&mut self, s: &Stmt) -> R<Flow> {
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
}
