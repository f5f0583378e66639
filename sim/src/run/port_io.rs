//! Port access for the memory servers: a [`Model`] in runs, and in unit tests a hand-driven
//! fake ([`FakePorts`]) so the servers and the protocol checker are tested without Verilator.

use crate::model::{Model, PortId};
#[cfg(test)]
use crate::PortSpec;

/// Reading and driving the ports of a model by [`PortId`].
pub(crate) trait PortIo {
    fn port(&self, name: &str) -> Option<PortId>;
    fn width(&self, p: PortId) -> u32;
    fn get(&self, p: PortId) -> u64;
    fn set(&mut self, p: PortId, v: u64);
    /// Little-endian 32-bit words; missing words are zero.
    fn set_wide(&mut self, p: PortId, words: &[u32]);
    /// Into `out` (extra words zeroed).
    fn get_wide_into(&self, p: PortId, out: &mut [u32]);
}

impl PortIo for Model {
    fn port(&self, name: &str) -> Option<PortId> {
        Model::port(self, name)
    }
    fn width(&self, p: PortId) -> u32 {
        self.spec(p).width
    }
    #[inline(always)]
    fn get(&self, p: PortId) -> u64 {
        Model::get(self, p)
    }
    #[inline(always)]
    fn set(&mut self, p: PortId, v: u64) {
        Model::set(self, p, v)
    }
    fn set_wide(&mut self, p: PortId, words: &[u32]) {
        Model::set_wide(self, p, words)
    }
    fn get_wide_into(&self, p: PortId, out: &mut [u32]) {
        Model::get_wide_into(self, p, out)
    }
}

/// Ports as plain values: what a test drives on the kernel's side and reads on memory's.
#[cfg(test)]
pub(crate) struct FakePorts {
    pub(crate) specs: Vec<PortSpec>,
    values: Vec<Vec<u32>>,
}

#[cfg(test)]
impl FakePorts {
    pub(crate) fn new(specs: Vec<PortSpec>) -> FakePorts {
        let values = specs
            .iter()
            .map(|s| vec![0; s.width.div_ceil(32).max(2) as usize])
            .collect();
        FakePorts { specs, values }
    }

    fn id(&self, name: &str) -> PortId {
        self.port(name)
            .unwrap_or_else(|| panic!("no port `{name}`"))
    }

    /// Drives the kernel's output `name`.
    pub(crate) fn drive(&mut self, name: &str, v: u64) {
        let id = self.id(name);
        self.set(id, v);
    }

    /// Reads memory's input `name` to the kernel.
    pub(crate) fn read(&self, name: &str) -> u64 {
        self.get(self.id(name))
    }
}

#[cfg(test)]
impl PortIo for FakePorts {
    fn port(&self, name: &str) -> Option<PortId> {
        self.specs
            .iter()
            .position(|s| s.name == name)
            .map(|i| PortId(i as u32))
    }
    fn width(&self, p: PortId) -> u32 {
        self.specs[p.index()].width
    }
    fn get(&self, p: PortId) -> u64 {
        let v = &self.values[p.index()];
        u64::from(v[0]) | u64::from(v[1]) << 32
    }
    fn set(&mut self, p: PortId, v: u64) {
        self.set_wide(p, &[v as u32, (v >> 32) as u32]);
    }
    fn set_wide(&mut self, p: PortId, words: &[u32]) {
        let width = self.specs[p.index()].width;
        for (k, w) in self.values[p.index()].iter_mut().enumerate() {
            let bits = width.saturating_sub(32 * k as u32).min(32);
            let mask = if bits == 32 {
                u32::MAX
            } else {
                (1u32 << bits) - 1
            };
            *w = words.get(k).copied().unwrap_or(0) & mask;
        }
    }
    fn get_wide_into(&self, p: PortId, out: &mut [u32]) {
        out.fill(0);
        for (o, v) in out.iter_mut().zip(&self.values[p.index()]) {
            *o = *v;
        }
    }
}
