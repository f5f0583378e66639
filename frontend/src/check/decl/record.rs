//! Struct, union and enum specifiers: tags and their scopes, fields and layout (`packed`,
//! `aligned`), enumeration constants.

use super::declarator::opaque_type_name;
use super::DeclCtx;
use crate::ast::*;
use crate::check::attrs::attr_base_name;
use crate::check::{Checker, QualType, Sym, Tag};
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;
use crate::types::{Field, StructDef};

impl Checker<'_> {
    pub(super) fn struct_spec(
        &mut self,
        st: &syn::StructSpec,
        typedef_name: Option<&str>,
        packed: bool,
        aligned: u32,
    ) -> Option<Type> {
        let kw = if st.is_union { "union" } else { "struct" };
        let mut packed = packed;
        let mut aligned = aligned;
        for a in &st.attrs {
            match attr_base_name(&a.name) {
                "packed" => packed = true,
                "aligned" => aligned = aligned.max(self.aligned_value(a)),
                _ => {}
            }
        }
        let Some(fields) = &st.fields else {
            // reference: `struct S`
            let (name, nsp) = st.name.as_ref().expect("grammar: reference has a name");
            return match self.lookup_tag(name) {
                Some(Tag::Struct(id, u)) => {
                    if u != st.is_union {
                        self.err(
                            *nsp,
                            format!(
                                "`{}` was declared as a {}",
                                name,
                                if u { "union" } else { "struct" }
                            ),
                        );
                        return None;
                    }
                    Some(Type::Struct(id))
                }
                Some(Tag::Enum) => {
                    self.err(*nsp, format!("`{}` is an enum, not a {}", name, kw));
                    None
                }
                None => {
                    // forward declaration
                    let id = self.new_struct(Some(name.clone()), st.is_union, st.span);
                    self.tags
                        .last_mut()
                        .expect("scope")
                        .insert(name.clone(), Tag::Struct(id, st.is_union));
                    Some(Type::Struct(id))
                }
            };
        };
        // definition
        let id = match &st.name {
            Some((name, nsp)) => {
                let existing = self.tags.last().and_then(|t| t.get(name)).copied();
                match existing {
                    Some(Tag::Struct(id, u))
                        if u == st.is_union && !self.structs.get(id).complete =>
                    {
                        id
                    }
                    Some(_) => {
                        self.err(*nsp, format!("redefinition of `{} {}`", kw, name));
                        return None;
                    }
                    None => {
                        let id = self.new_struct(Some(name.clone()), st.is_union, st.span);
                        self.tags
                            .last_mut()
                            .expect("scope")
                            .insert(name.clone(), Tag::Struct(id, st.is_union));
                        id
                    }
                }
            }
            None => self.new_struct(typedef_name.map(str::to_string), st.is_union, st.span),
        };
        let mut out: Vec<Field> = Vec::new();
        let errors_before = self.diags.iter().filter(|d| d.is_error()).count();
        for f in fields {
            let Some((base, _)) = self.resolve_specs(&f.specs, DeclCtx::Field, None) else {
                continue;
            };
            if f.declarators.is_empty() {
                // anonymous struct/union member: flatten its fields
                if let Type::Struct(_) = base.ty {
                    self.error(
                        Diagnostic::error(
                            f.span,
                            "anonymous struct and union members are not supported",
                        )
                        .note("give the member a name"),
                    );
                    continue;
                }
                self.warn(Diagnostic::warning(
                    f.span,
                    "declaration does not declare a field",
                ));
                continue;
            }
            for d in &f.declarators {
                self.struct_field(d, &base, id, &mut out);
            }
        }
        let field_errors = self.diags.iter().filter(|d| d.is_error()).count() > errors_before;
        if out.is_empty() && !field_errors {
            self.warn(Diagnostic::warning(st.span, format!("empty {}", kw)));
        }
        self.structs.structs[id.0 as usize].fields = out;
        self.structs.layout(id, packed, aligned);
        Some(Type::Struct(id))
    }

    /// One field declarator of a struct or union `id`, appended to `out` unless it is invalid.
    fn struct_field(
        &mut self,
        d: &syn::StructDeclarator,
        base: &QualType,
        id: StructId,
        out: &mut Vec<Field>,
    ) {
        if let Some(b) = &d.bits {
            self.unsupported(
                b.span,
                "bit-fields are",
                "use a full integer field and shifts/masks",
            );
            return;
        }
        let Some(decl) = &d.declarator else { return };
        let Some((name, qt, fparams)) = self.apply_declarator(decl, base.clone(), DeclCtx::Field)
        else {
            return;
        };
        let Some((name, nsp)) = name else { return };
        if fparams.is_some() {
            self.unsupported(nsp, "function members are", "");
            return;
        }
        if !self.complete_object_type(&qt.ty, nsp, "a field") {
            return;
        }
        if let Some(what) = opaque_type_name(&qt.ty).filter(|_| qt.ty != Type::ReserveId) {
            // clang accepts `reserve_id_t` fields (OpenCL C does not forbid them).
            self.error(
                Diagnostic::error(
                    nsp,
                    format!("a struct or union field cannot have type `{}`", what),
                )
                .note("keep it in its own variable (or parameter)"),
            );
            return;
        }
        if matches!(qt.ty, Type::Struct(sid) if sid == id) {
            self.err(
                nsp,
                format!(
                    "field `{}` has the type of the struct that contains it",
                    name
                ),
            );
            return;
        }
        if let Some(prev) = out.iter().find(|f| f.name == name) {
            let ps = prev.span;
            self.error(
                Diagnostic::error(nsp, format!("duplicate field `{}`", name))
                    .label(ps, "first declared here"),
            );
            return;
        }
        if qt.space.is_some() {
            self.err(nsp, "struct fields cannot have an address space qualifier");
        }
        out.push(Field {
            name,
            ty: qt.ty,
            offset: 0,
            span: nsp,
        });
    }

    pub(super) fn new_struct(
        &mut self,
        name: Option<String>,
        is_union: bool,
        span: Span,
    ) -> StructId {
        self.structs.structs.push(StructDef {
            name,
            is_union,
            fields: Vec::new(),
            size: 0,
            align: 1,
            complete: false,
            packed: false,
            span,
        });
        StructId(self.structs.structs.len() as u32 - 1)
    }

    pub(super) fn enum_spec(&mut self, e: &syn::EnumSpec) {
        if let Some((name, nsp)) = &e.name {
            if e.items.is_some() {
                if self.tags.last().is_some_and(|t| t.contains_key(name)) {
                    self.err(*nsp, format!("redefinition of `enum {}`", name));
                }
                self.tags
                    .last_mut()
                    .expect("scope")
                    .insert(name.clone(), Tag::Enum);
            } else if !matches!(self.lookup_tag(name), Some(Tag::Enum)) {
                self.err(*nsp, format!("unknown enum `{}`", name));
            }
        }
        let Some(items) = &e.items else { return };
        let mut next: i64 = 0;
        for it in items {
            if let Some(v) = &it.value {
                if let Some(x) = self.const_int(v, "enumerator value") {
                    next = x as i64;
                }
            }
            if next < i32::MIN as i64 || next > i32::MAX as i64 {
                self.err(it.span, "enumerator value does not fit in `int`");
            }
            let v = ScalarKind::Int.truncate(next as u64);
            self.declare(&it.name, Sym::EnumConst(v), it.span);
            next = next.wrapping_add(1);
        }
    }
}
