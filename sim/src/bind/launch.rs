//! Binding a multi-kernel test: its shared buffers, allocated once in the [`GlobalMemory`], and
//! each launch's arguments and NDRange for its kernel.

use super::KernelShape;
use super::{check_local_size, group_items, nd_range, scalar_value, ArgClass, BindError};
use crate::{GlobalMemory, NdRange, SystemLaunch};
use testfile::{BufferDecl, LaunchArgValue, LaunchDecl};

/// One launch of a multi-kernel test bound to its kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchBinding {
    /// The argument ports' values, in the launch's order of arguments.
    pub ports: Vec<(String, u64)>,
    pub range: NdRange,
}

impl LaunchBinding {
    /// `launch` with the binding's argument values and NDRange.
    pub fn apply(&self, mut launch: SystemLaunch) -> SystemLaunch {
        for (p, v) in &self.ports {
            launch = launch.arg(p, *v);
        }
        launch.range(self.range)
    }
}

/// Allocates a multi-kernel test's buffers (shared by its launches), each filled with its
/// initial contents or poisoned with `0xA5`; their addresses and sizes.
pub fn alloc_buffers(
    mem: &mut GlobalMemory,
    buffers: &[BufferDecl],
) -> Result<Vec<(u32, usize)>, BindError> {
    let mut addrs = Vec::new();
    for b in buffers {
        let elem = b.ty.byte_size();
        let size = (b.len as usize * elem).max(1);
        let addr = mem.alloc(size, elem.max(4) as u32)?;
        let init = b.bytes.clone().unwrap_or_else(|| vec![0xA5; size]);
        mem.write_bytes(addr, &init)?;
        addrs.push((addr, size));
    }
    Ok(addrs)
}

/// Binds launch `l` to `kernel`; `buffers` are the addresses from [`alloc_buffers`].
pub fn bind_launch(
    l: &LaunchDecl,
    kernel: &KernelShape,
    buffers: &[(u32, usize)],
) -> Result<LaunchBinding, BindError> {
    let mut ports = Vec::new();
    for arg in &l.args {
        let ka = kernel
            .args
            .get(arg.index as usize)
            .ok_or_else(|| BindError::LaunchNoArg {
                line: arg.line,
                kernel: l.kernel.clone(),
                index: arg.index,
            })?;
        let value = match (&arg.value, ka.kind) {
            (LaunchArgValue::Pipe(_), ArgClass::Pipe) => None,
            (LaunchArgValue::Buffer(b), ArgClass::Global | ArgClass::Counter) => {
                Some(buffers[*b].0 as u64)
            }
            (LaunchArgValue::Value { bytes, .. }, ArgClass::Scalar) => Some(scalar_value(bytes)),
            (LaunchArgValue::Local { ty, len }, ArgClass::Local) => {
                let what = format!(
                    "line {}: argument {} of `{}`",
                    arg.line, arg.index, l.kernel
                );
                check_local_size(ty, *len, ka, &what)?;
                None
            }
            (_, want) => {
                return Err(BindError::LaunchKindMismatch {
                    line: arg.line,
                    index: arg.index,
                    kernel: l.kernel.clone(),
                    name: ka.name.clone(),
                    want,
                })
            }
        };
        if let (Some(v), Some(p)) = (value, &ka.port) {
            ports.push((p.clone(), v));
        }
    }
    let range = nd_range(l.dimensions, l.global_size, l.local_size, l.global_offset);
    if let Some(max) = kernel.max_group_items {
        let items = group_items(&range);
        if items > max as u64 {
            return Err(BindError::LaunchGroupTooLarge {
                line: l.line,
                kernel: l.kernel.clone(),
                max,
                items,
            });
        }
    }
    Ok(LaunchBinding { ports, range })
}
