//! A stable text dump of the checked AST (S-expressions), for snapshot tests and debugging.
//!
//! Every expression prints as `(Kind:type ...)`; implicit casts print as `(implicit:T e)` and
//! explicit ones as `(cast:T e)`. Spans are omitted so the dump survives formatting edits.

use crate::ast::*;
use std::fmt::Write;

impl Program {
    /// Dumps the whole program.
    pub fn dump(&self) -> String {
        let mut p = Printer {
            prog: self,
            out: String::new(),
        };
        p.program();
        p.out
    }
}

struct Printer<'a> {
    prog: &'a Program,
    out: String,
}

impl Printer<'_> {
    fn ty(&self, t: &Type) -> String {
        self.prog.type_name(t)
    }

    fn line(&mut self, indent: usize, s: &str) {
        for _ in 0..indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn attrs(&self, attrs: &[Attribute]) -> String {
        let mut s = String::new();
        for a in attrs {
            let _ = write!(s, " @{}", a.name);
            if !a.args.is_empty() {
                let args: Vec<String> = a
                    .args
                    .iter()
                    .map(|x| match x {
                        AttrArg::Int(v) => v.to_string(),
                        AttrArg::Ident(i) => i.clone(),
                        AttrArg::Type(t) => self.ty(t),
                        AttrArg::Str(s) => format!("{:?}", s),
                    })
                    .collect();
                let _ = write!(s, "({})", args.join(", "));
            }
        }
        s
    }

    fn var(&self, v: VarId) -> String {
        let vi = self.prog.var(v);
        format!("{}#{}", vi.name, v.0)
    }

    fn program(&mut self) {
        for (i, s) in self.prog.structs.structs.iter().enumerate() {
            let fields: Vec<String> = s
                .fields
                .iter()
                .map(|f| format!("{}: {} @{}", f.name, self.ty(&f.ty), f.offset))
                .collect();
            let line = format!(
                "{} {} #{} size={} align={} {{ {} }}",
                if s.is_union { "union" } else { "struct" },
                s.name.as_deref().unwrap_or("<anon>"),
                i,
                s.size,
                s.align,
                fields.join(", ")
            );
            self.line(0, &line);
        }
        for (i, g) in self.prog.globals.iter().enumerate() {
            let mut line = format!("global #{} {} {}: {}", i, g.space, g.name, self.ty(&g.ty));
            line.push_str(&self.attrs(&g.attrs));
            if let Some(init) = &g.init {
                line.push_str(" = ");
                line.push_str(&self.init(init));
            }
            self.line(0, &line);
        }
        for (i, f) in self.prog.functions.iter().enumerate() {
            let params: Vec<String> = f
                .params
                .iter()
                .map(|p| {
                    let vi = self.prog.var(*p);
                    let mut s = format!("{}: {}", self.var(*p), self.ty(&vi.ty));
                    if vi.is_const {
                        s.push_str(" const");
                    }
                    s
                })
                .collect();
            let line = format!(
                "{}fn#{} {}({}) -> {}{}",
                if f.is_kernel { "kernel " } else { "" },
                i,
                f.name,
                params.join(", "),
                self.ty(&f.ret),
                self.attrs(&f.attrs)
            );
            self.line(0, &line);
            for s in &f.body.stmts {
                self.stmt(1, s);
            }
        }
    }

    fn stmt(&mut self, ind: usize, s: &Stmt) {
        let mut prefix = String::new();
        for p in &s.pragmas {
            let _ = write!(
                prefix,
                "#pragma {}{} ",
                p.name,
                p.arg.map(|a| format!(" {}", a)).unwrap_or_default()
            );
        }
        prefix.push_str(self.attrs(&s.attrs).trim_start());
        if !s.attrs.is_empty() {
            prefix.push(' ');
        }
        match &s.kind {
            StmtKind::Block(b) => {
                self.line(ind, &format!("{}block", prefix));
                for x in &b.stmts {
                    self.stmt(ind + 1, x);
                }
            }
            StmtKind::Decl { var, init } => {
                let vi = self.prog.var(*var);
                let mut line = format!("{}decl {}: {}", prefix, self.var(*var), self.ty(&vi.ty));
                if vi.space != AddrSpace::Private {
                    let _ = write!(line, " in {}", vi.space);
                }
                if vi.is_const {
                    line.push_str(" const");
                }
                if let Some(i) = init {
                    line.push_str(" = ");
                    line.push_str(&self.init(i));
                }
                self.line(ind, &line);
            }
            StmtKind::Expr(e) => {
                let line = format!("{}{}", prefix, self.expr(e));
                self.line(ind, &line);
            }
            StmtKind::If { cond, then, els } => {
                self.line(ind, &format!("{}if {}", prefix, self.expr(cond)));
                self.stmt(ind + 1, then);
                if let Some(e) = els {
                    self.line(ind, "else");
                    self.stmt(ind + 1, e);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.line(ind, &format!("{}for", prefix));
                if let Some(i) = init {
                    self.line(ind + 1, "init:");
                    self.stmt(ind + 2, i);
                }
                if let Some(c) = cond {
                    self.line(ind + 1, &format!("cond: {}", self.expr(c)));
                }
                if let Some(st) = step {
                    self.line(ind + 1, &format!("step: {}", self.expr(st)));
                }
                self.line(ind + 1, "body:");
                self.stmt(ind + 2, body);
            }
            StmtKind::While { cond, body } => {
                self.line(ind, &format!("{}while {}", prefix, self.expr(cond)));
                self.stmt(ind + 1, body);
            }
            StmtKind::DoWhile { body, cond } => {
                self.line(ind, &format!("{}do", prefix));
                self.stmt(ind + 1, body);
                self.line(ind, &format!("while {}", self.expr(cond)));
            }
            StmtKind::Switch { cond, cases } => {
                self.line(ind, &format!("{}switch {}", prefix, self.expr(cond)));
                for c in cases {
                    let mut labels: Vec<String> =
                        c.values.iter().map(|v| format!("case {}", v)).collect();
                    if c.is_default {
                        labels.push("default".into());
                    }
                    self.line(ind + 1, &format!("{}:", labels.join(", ")));
                    for s in &c.body {
                        self.stmt(ind + 2, s);
                    }
                }
            }
            StmtKind::Break => self.line(ind, &format!("{}break", prefix)),
            StmtKind::Continue => self.line(ind, &format!("{}continue", prefix)),
            StmtKind::Return(e) => {
                let line = match e {
                    Some(e) => format!("{}return {}", prefix, self.expr(e)),
                    None => format!("{}return", prefix),
                };
                self.line(ind, &line);
            }
            StmtKind::Empty => self.line(ind, &format!("{};", prefix)),
        }
    }

    fn init(&self, i: &Init) -> String {
        match i {
            Init::Expr(e) => self.expr(e),
            Init::List(v) => {
                let items: Vec<String> = v.iter().map(|x| self.init(x)).collect();
                format!("{{{}}}", items.join(", "))
            }
        }
    }

    fn expr(&self, e: &Expr) -> String {
        let t = self.ty(&e.ty);
        match &e.kind {
            ExprKind::IntLit(v) => {
                let k = e.ty.elem_kind().unwrap_or(ScalarKind::Int);
                format!("{}:{}", k.as_i64(*v), t)
            }
            ExprKind::FloatLit(f) => format!("{:?}:{}", f, t),
            ExprKind::Var(v) => self.var(*v),
            ExprKind::Global(g) => format!("{}@global#{}", self.prog.global(*g).name, g),
            ExprKind::Unary { op, expr } => format!("({}:{} {})", op.symbol(), t, self.expr(expr)),
            ExprKind::Binary { op, lhs, rhs } => {
                format!(
                    "({}:{} {} {})",
                    op.symbol(),
                    t,
                    self.expr(lhs),
                    self.expr(rhs)
                )
            }
            ExprKind::Assign {
                op,
                lhs,
                rhs,
                op_ty,
            } => match op {
                None => format!("(=:{} {} {})", t, self.expr(lhs), self.expr(rhs)),
                Some(o) => format!(
                    "({}=:{} in {} {} {})",
                    o.symbol(),
                    t,
                    self.ty(op_ty),
                    self.expr(lhs),
                    self.expr(rhs)
                ),
            },
            ExprKind::IncDec { inc, prefix, expr } => format!(
                "({}{}:{} {})",
                if *prefix { "pre" } else { "post" },
                if *inc { "++" } else { "--" },
                t,
                self.expr(expr)
            ),
            ExprKind::Cond { cond, then, els } => format!(
                "(?:{} {} {} {})",
                t,
                self.expr(cond),
                self.expr(then),
                self.expr(els)
            ),
            ExprKind::Cast { kind, expr } => format!(
                "({}:{} {})",
                match kind {
                    CastKind::Implicit => "implicit",
                    CastKind::Explicit => "cast",
                },
                t,
                self.expr(expr)
            ),
            ExprKind::Index { base, index } => {
                format!("(index:{} {} {})", t, self.expr(base), self.expr(index))
            }
            ExprKind::Deref(x) => format!("(deref:{} {})", t, self.expr(x)),
            ExprKind::AddrOf(x) => format!("(addr:{} {})", t, self.expr(x)),
            ExprKind::Member { base, field } => {
                let fname = match &base.ty {
                    Type::Struct(id) => self.prog.structs.get(*id).fields[*field as usize]
                        .name
                        .clone(),
                    _ => field.to_string(),
                };
                format!("(.{}:{} {})", fname, t, self.expr(base))
            }
            ExprKind::Swizzle { base, lanes } => {
                let l: Vec<String> = lanes.iter().map(|x| format!("{:x}", x)).collect();
                format!("(.s{}:{} {})", l.join(""), t, self.expr(base))
            }
            ExprKind::VecLit(v) => {
                let items: Vec<String> = v.iter().map(|x| self.expr(x)).collect();
                format!("(vec:{} {})", t, items.join(" "))
            }
            ExprKind::Call { func, args } => {
                let items: Vec<String> = args.iter().map(|x| self.expr(x)).collect();
                format!(
                    "(call:{} {} {})",
                    t,
                    self.prog.func(*func).name,
                    items.join(" ")
                )
            }
            ExprKind::Builtin { builtin, args } => {
                let items: Vec<String> = args.iter().map(|x| self.expr(x)).collect();
                format!("({:?}:{} {})", builtin, t, items.join(" "))
            }
            ExprKind::Comma(a, b) => format!("(,:{} {} {})", t, self.expr(a), self.expr(b)),
            ExprKind::CompoundLit(init) => format!("(compound:{} {})", t, self.init(init)),
            ExprKind::SizeOf(v) => format!("(sizeof {}):{}", v, t),
        }
    }
}
