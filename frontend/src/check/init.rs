//! Initialisers: brace lists matched to the shape of the object (C99 6.7.8 with brace
//! elision and designators), zero-filling what is not given.

use super::Checker;
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;

type Items = [(Vec<syn::Designator>, syn::Initializer)];

struct Cursor<'a> {
    items: &'a Items,
    pos: usize,
}

impl Checker<'_> {
    /// Checks an initialiser for an object of type `ty`. Returns the completed type (an
    /// no_size array `int a[] = {...}` gets its size) and the shaped initialiser.
    pub(crate) fn check_initializer(
        &mut self,
        init: &syn::Initializer,
        ty: &Type,
    ) -> Option<(Type, Init)> {
        match init {
            syn::Initializer::Expr(e) => {
                if ty.is_array() {
                    self.error(
                        Diagnostic::error(
                            e.span,
                            "an array must be initialised with a brace-enclosed list",
                        )
                        .note("write `= { 1, 2, 3 }`"),
                    );
                    return None;
                }
                let x = self.expr(e)?;
                if let Type::Atomic(a) = ty {
                    // `ATOMIC_VAR_INIT(v)` or a plain value: the value type (see `Init`)
                    if let Type::Atomic(b) = x.ty {
                        self.atomic_as_value(b, x.span);
                        return None;
                    }
                    let x = self.convert(x, &Type::Scalar(a.value_kind()), "initialisation")?;
                    return Some((ty.clone(), Init::Expr(x)));
                }
                let x = self.convert(x, ty, "initialisation")?;
                Some((ty.clone(), Init::Expr(x)))
            }
            syn::Initializer::List(items, span) => self.init_list(items, ty, *span),
        }
    }

    fn init_list(&mut self, items: &Items, ty: &Type, span: Span) -> Option<(Type, Init)> {
        // The shaped initialiser has one node per scalar; bound what hostile input can ask for
        // (`int a[100000000] = {1}` would otherwise take gigabytes).
        const MAX_LEAVES: u64 = 1 << 20;
        let leaves = self.scalar_leaves(ty);
        if leaves > MAX_LEAVES {
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "initialiser of an object with {} scalar elements is larger than the limit of {}",
                        leaves, MAX_LEAVES
                    ),
                )
                .note("FPGA on-chip memories are far smaller; initialise large data from a buffer argument"),
            );
            return None;
        }
        match ty {
            Type::Array(..) | Type::Struct(_) => {
                let mut cur = Cursor { items, pos: 0 };
                let (t, init) = self.fill_aggregate(&mut cur, ty, true, span)?;
                if cur.pos < items.len() {
                    let s = items[cur.pos].1.span();
                    self.warn(Diagnostic::warning(
                        s,
                        "excess elements in initialiser are ignored",
                    ));
                }
                Some((t, init))
            }
            Type::Vector(k, n) => {
                let mut comps = Vec::new();
                let elem = Type::Scalar(*k);
                for (d, it) in items {
                    if !d.is_empty() {
                        self.err(
                            it.span(),
                            "designators cannot be used in a vector initialiser",
                        );
                        return None;
                    }
                    let syn::Initializer::Expr(e) = it else {
                        self.err(it.span(), "nested braces in a vector initialiser");
                        return None;
                    };
                    let x = self.rvalue(e)?;
                    match &x.ty {
                        Type::Scalar(_) => comps.push(self.cast(x, &elem, CastKind::Implicit)),
                        Type::Vector(ek, m) if ek == k && !super::expr::has_side_effects(&x) => {
                            for l in 0..*m {
                                let mut c =
                                    super::expr::swizzle(x.clone(), vec![l], elem.clone(), x.span);
                                c.lvalue = false;
                                comps.push(c);
                            }
                        }
                        t => {
                            let t = self.type_name(t);
                            self.err(
                                x.span,
                                format!("`{}` cannot initialise a component of `{}{}`", t, k, n),
                            );
                            return None;
                        }
                    }
                }
                if comps.len() > *n as usize {
                    self.err(
                        span,
                        format!(
                            "too many components for `{}{}`: {} given",
                            k,
                            n,
                            comps.len()
                        ),
                    );
                    return None;
                }
                while comps.len() < *n as usize {
                    comps.push(zero_scalar(*k, span));
                }
                Some((
                    ty.clone(),
                    Init::Expr(Expr::new(ExprKind::VecLit(comps), ty.clone(), span)),
                ))
            }
            _ => {
                // scalar in braces
                match items {
                    [] => Some((ty.clone(), self.zero_init(ty, span))),
                    [(d, it)] if d.is_empty() => self.check_initializer(it, ty),
                    _ => {
                        let t = self.type_name(ty);
                        self.err(span, format!("too many initialisers for `{}`", t));
                        None
                    }
                }
            }
        }
    }

    /// Fills an array or struct from the items at the cursor. `top`: the items are this
    /// aggregate's own braces (designators allowed, all items belong to it); otherwise it is
    /// brace-elided and stops when full.
    fn fill_aggregate(
        &mut self,
        cur: &mut Cursor<'_>,
        ty: &Type,
        top: bool,
        span: Span,
    ) -> Option<(Type, Init)> {
        match ty {
            Type::Array(elem, n) => self.fill_array(cur, elem, *n, top, span),
            Type::Struct(id) => self.fill_struct(cur, ty, *id, top, span),
            _ => unreachable!("fill_aggregate on a non-aggregate"),
        }
    }

    /// [`Self::fill_aggregate`] for an array of `n` (0: unsized) `elem`s.
    fn fill_array(
        &mut self,
        cur: &mut Cursor<'_>,
        elem: &Type,
        n: u32,
        top: bool,
        span: Span,
    ) -> Option<(Type, Init)> {
        let no_size = n == 0;
        let mut slots: Vec<Option<Init>> = vec![None; n as usize];
        let mut idx: usize = 0;
        while cur.pos < cur.items.len() {
            let (desig, it) = &cur.items[cur.pos];
            if !desig.is_empty() {
                if !top {
                    break;
                }
                match desig.as_slice() {
                    [syn::Designator::Index(e)] => {
                        let v = self.const_int(e, "array designator")? as i64;
                        if v < 0 || (!no_size && v >= n as i64) {
                            self.err(
                                e.span,
                                format!("array designator index {} is out of range", v),
                            );
                            return None;
                        }
                        idx = v as usize;
                    }
                    _ => {
                        self.error(
                            Diagnostic::error(
                                it.span(),
                                "this designator does not match an array element",
                            )
                            .note("use `[index] = value`; nested designators are not supported"),
                        );
                        return None;
                    }
                }
            }
            if !no_size && idx >= n as usize {
                if top {
                    self.warn(Diagnostic::warning(
                        it.span(),
                        format!("excess elements in an array of {} elements are ignored", n),
                    ));
                    cur.pos = cur.items.len();
                }
                break;
            }
            if idx > 1 << 24 {
                self.err(it.span(), "array initialiser is too large");
                return None;
            }
            if slots.len() <= idx {
                slots.resize(idx + 1, None);
            }
            let v = self.init_element(cur, elem, it.span())?;
            slots[idx] = Some(v);
            idx += 1;
        }
        let len = slots.len() as u32;
        let out: Vec<Init> = slots
            .into_iter()
            .map(|s| s.unwrap_or_else(|| self.zero_init(elem, span)))
            .collect();
        if no_size && len == 0 {
            self.err(
                span,
                "an array with an empty initialiser needs an explicit size",
            );
            return None;
        }
        Some((
            Type::Array(Box::new(elem.clone()), len.max(n)),
            Init::List(out),
        ))
    }

    /// [`Self::fill_aggregate`] for the struct or union `ty` (= `Type::Struct(id)`).
    fn fill_struct(
        &mut self,
        cur: &mut Cursor<'_>,
        ty: &Type,
        id: StructId,
        top: bool,
        span: Span,
    ) -> Option<(Type, Init)> {
        let def = self.structs.get(id).clone();
        let mut slots: Vec<Option<Init>> = vec![None; def.fields.len()];
        let mut fi: usize = 0;
        while cur.pos < cur.items.len() {
            let (desig, it) = &cur.items[cur.pos];
            if !desig.is_empty() {
                if !top {
                    break;
                }
                match desig.as_slice() {
                    [syn::Designator::Field(name, nsp)] => match def.field_index(name) {
                        Some(i) => fi = i as usize,
                        None => {
                            let t = self.type_name(ty);
                            self.err(*nsp, format!("`{}` has no field `{}`", t, name));
                            return None;
                        }
                    },
                    _ => {
                        self.error(
                            Diagnostic::error(
                                it.span(),
                                "this designator does not match a struct field",
                            )
                            .note("use `.field = value`; nested designators are not supported"),
                        );
                        return None;
                    }
                }
            }
            if fi >= def.fields.len()
                || (def.is_union && slots.iter().any(|s| s.is_some()) && desig.is_empty())
            {
                if top {
                    self.warn(Diagnostic::warning(
                        it.span(),
                        "excess elements in struct initialiser are ignored",
                    ));
                    cur.pos = cur.items.len();
                }
                break;
            }
            let fty = def.fields[fi].ty.clone();
            let v = self.init_element(cur, &fty, it.span())?;
            if def.is_union {
                slots.iter_mut().for_each(|s| *s = None);
            }
            slots[fi] = Some(v);
            fi += 1;
        }
        let out: Vec<Init> = if def.is_union {
            // a union keeps one entry: the initialised member, else the first, zeroed
            match slots.iter().position(|s| s.is_some()) {
                Some(0) | None => {
                    vec![slots.into_iter().next().flatten().unwrap_or_else(|| {
                        def.fields
                            .first()
                            .map_or(Init::List(vec![]), |f| self.zero_init(&f.ty, span))
                    })]
                }
                Some(_) => {
                    self.unsupported(
                        span,
                        "initialising a union member other than the first is",
                        "",
                    );
                    return None;
                }
            }
        } else {
            slots
                .into_iter()
                .zip(&def.fields)
                .map(|(s, f)| s.unwrap_or_else(|| self.zero_init(&f.ty, span)))
                .collect()
        };
        Some((ty.clone(), Init::List(out)))
    }

    /// Initialises one element from the cursor (consuming one item, or several with brace
    /// elision).
    fn init_element(&mut self, cur: &mut Cursor<'_>, ty: &Type, span: Span) -> Option<Init> {
        let (_, it) = &cur.items[cur.pos];
        match it {
            syn::Initializer::List(sub, lspan) => {
                cur.pos += 1;
                let (t, init) = self.init_list(sub, ty, *lspan)?;
                if t != *ty {
                    self.err(*lspan, "nested array initialiser has the wrong size");
                    return None;
                }
                Some(init)
            }
            syn::Initializer::Expr(e) => match ty {
                Type::Array(..) => {
                    // brace elision: the following items fill the sub-array
                    let (_, init) = self.fill_aggregate(cur, ty, false, span)?;
                    Some(init)
                }
                Type::Struct(_) => {
                    // A struct value initialises the member directly; otherwise elide braces.
                    let before = self.diags.len();
                    let x = self.expr(e)?;
                    if x.ty == *ty {
                        cur.pos += 1;
                        return Some(Init::Expr(x));
                    }
                    self.diags.truncate(before);
                    let (_, init) = self.fill_aggregate(cur, ty, false, span)?;
                    Some(init)
                }
                _ => {
                    cur.pos += 1;
                    let (_, init) = self.check_initializer(it, ty)?;
                    Some(init)
                }
            },
        }
    }

    /// The number of scalars (vector lanes counted) an object of type `ty` holds, saturating.
    fn scalar_leaves(&self, ty: &Type) -> u64 {
        match ty {
            Type::Vector(_, n) => *n as u64,
            Type::Array(e, n) => (*n as u64).saturating_mul(self.scalar_leaves(e)),
            Type::Struct(id) => {
                let st = self.structs.get(*id);
                st.fields
                    .iter()
                    .map(|f| self.scalar_leaves(&f.ty))
                    .fold(0u64, u64::saturating_add)
                    .max(1)
            }
            _ => 1,
        }
    }

    /// The all-zero initialiser of a type.
    pub(crate) fn zero_init(&self, ty: &Type, span: Span) -> Init {
        match ty {
            Type::Scalar(k) => Init::Expr(zero_scalar(*k, span)),
            Type::Atomic(a) => Init::Expr(zero_scalar(a.value_kind(), span)),
            Type::Vector(k, n) => Init::Expr(Expr::new(
                ExprKind::VecLit((0..*n).map(|_| zero_scalar(*k, span)).collect()),
                ty.clone(),
                span,
            )),
            Type::Pointer { .. } => Init::Expr(Expr::new(
                ExprKind::Cast {
                    kind: CastKind::Implicit,
                    expr: Box::new(Expr::int(0, ScalarKind::Int, span)),
                },
                ty.clone(),
                span,
            )),
            Type::Array(e, n) => Init::List((0..*n).map(|_| self.zero_init(e, span)).collect()),
            Type::Struct(id) => {
                let def = self.structs.get(*id);
                if def.is_union {
                    Init::List(
                        def.fields
                            .first()
                            .map(|f| self.zero_init(&f.ty, span))
                            .into_iter()
                            .collect(),
                    )
                } else {
                    Init::List(
                        def.fields
                            .iter()
                            .map(|f| self.zero_init(&f.ty, span))
                            .collect(),
                    )
                }
            }
            _ => Init::Expr(Expr::int(0, ScalarKind::Int, span)),
        }
    }
}

fn zero_scalar(k: ScalarKind, span: Span) -> Expr {
    if k.is_float() {
        Expr::new(ExprKind::FloatLit(0.0), Type::Scalar(k), span)
    } else {
        Expr::int(0, k, span)
    }
}
