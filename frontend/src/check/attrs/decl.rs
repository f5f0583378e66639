//! Attributes of variables: parameters (`local_mem_size` on `local` pointers of kernels, and
//! the pipe attributes `blocking`, `depth`, `xcl_reqd_pipe_depth`) -> `ParamAttrs`;
//! program-scope pipes (`xcl_reqd_pipe_depth`) -> `PipeAttrs`; none for other variables.

use super::Place;
use crate::ast::*;
use crate::check::Checker;
use crate::span::Span;

impl Checker<'_> {
    /// Validates the attributes of a parameter of type `ty`.
    pub(crate) fn param_attrs(
        &mut self,
        attrs: &[Attribute],
        ty: &Type,
        is_kernel: bool,
    ) -> ParamAttrs {
        let is_pipe = matches!(ty, Type::Pipe { .. });
        let local_ptr = is_kernel
            && matches!(
                ty,
                Type::Pointer {
                    space: AddrSpace::Local,
                    ..
                }
            );
        let mut local_mem_size: Option<(u32, Span)> = None;
        let mut depth: Option<(u32, Span)> = None;
        let mut blocking = false;
        for a in attrs {
            match Place::of(&a.name) {
                Some(Place::LocalPointerParam) => {
                    let v = self.attr_ints(a, &[1], 1, u32::MAX, "local_mem_size(1024)");
                    match v {
                        Some(_) if !local_ptr => self.misplaced(a, Place::LocalPointerParam),
                        Some(v) => self.set_once(&mut local_mem_size, v[0], a),
                        None => {}
                    }
                }
                Some(Place::Pipe) => self.pipe_depth(a, is_pipe, &mut depth),
                Some(Place::PipeParam) => match self.attr_ints(a, &[0], 0, 0, "blocking") {
                    Some(_) if is_pipe => blocking = true,
                    Some(_) => self.misplaced(a, Place::PipeParam),
                    None => {}
                },
                Some(p) => self.misplaced(a, p),
                None => {}
            }
        }
        ParamAttrs {
            local_mem_size: local_mem_size.map(|x| x.0),
            pipe: PipeAttrs {
                depth: depth.map(|x| x.0),
                blocking,
            },
        }
    }

    /// Validates the attributes of a program-scope variable of type `ty`.
    pub(crate) fn global_attrs(&mut self, attrs: &[Attribute], ty: &Type) -> PipeAttrs {
        let is_pipe = matches!(ty, Type::Pipe { .. });
        let mut depth: Option<(u32, Span)> = None;
        for a in attrs {
            match Place::of(&a.name) {
                Some(Place::Pipe) => self.pipe_depth(a, is_pipe, &mut depth),
                Some(p) => self.misplaced(a, p),
                None => {}
            }
        }
        PipeAttrs {
            depth: depth.map(|x| x.0),
            blocking: false,
        }
    }

    /// Checks the attributes of a variable declared in a function: none has a typed meaning
    /// there.
    pub(crate) fn local_attrs(&mut self, attrs: &[Attribute]) {
        for a in attrs {
            if let Some(p) = Place::of(&a.name) {
                self.misplaced(a, p);
            }
        }
    }

    /// `xcl_reqd_pipe_depth(N)` or `depth(N)`: a positive integer constant, on a pipe.
    fn pipe_depth(&mut self, a: &Attribute, is_pipe: bool, depth: &mut Option<(u32, Span)>) {
        let example = format!("{}(16)", a.name);
        match self.attr_ints(a, &[1], 1, u32::MAX, &example) {
            Some(_) if !is_pipe => self.misplaced(a, Place::Pipe),
            Some(v) => self.set_once(depth, v[0], a),
            None => {}
        }
    }
}
