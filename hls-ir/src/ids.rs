//! Typed entity ids. Every id is a `u32` newtype with a `Display` that matches the IR printer.

macro_rules! entity_id {
    ($(#[$m:meta])* $name:ident, $prefix:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
        pub struct $name(pub u32);

        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
            pub fn from_index(i: usize) -> Self {
                $name(u32::try_from(i).expect(concat!(stringify!($name), " overflow")))
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

entity_id!(
    /// An operation (node of the dataflow graph); an op's result is referred to by its id.
    OpId, "%"
);
entity_id!(
    /// A loop region. `loop0` of every kernel is its work-item loop.
    LoopId, "loop"
);
entity_id!(
    /// A kernel argument, by position.
    ArgId, "arg"
);
entity_id!(
    /// A memory: a global/constant pointer argument's port, a local array, a private array.
    MemId, "mem"
);
entity_id!(
    /// A pipe argument or program-scope pipe.
    PipeId, "pipe"
);
entity_id!(
    /// A 32- or 64-bit atomic counter argument.
    CounterId, "ctr"
);

/// An entity id that indexes a dense table ([`IdVec`]).
pub trait EntityId: Copy {
    fn index(self) -> usize;
    fn from_index(i: usize) -> Self;
}

macro_rules! impl_entity_id {
    ($($name:ident),*) => {
        $(impl EntityId for $name {
            fn index(self) -> usize {
                $name::index(self)
            }
            fn from_index(i: usize) -> Self {
                $name::from_index(i)
            }
        })*
    };
}
impl_entity_id!(OpId, LoopId, ArgId, MemId, PipeId, CounterId);

/// A dense table keyed by an entity id (Cranelift's `PrimaryMap` when it owns the entities,
/// `SecondaryMap` when it is a side table with one entry per entity): index it with the id
/// (`k.loops[lp]`), push to create the next id, enumerate as `(id, value)`. Derefs to a slice
/// for length and iteration in id order.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IdVec<K, V> {
    items: Vec<V>,
    key: std::marker::PhantomData<fn(K) -> K>,
}

impl<K: EntityId, V> IdVec<K, V> {
    pub fn new() -> Self {
        IdVec {
            items: Vec::new(),
            key: std::marker::PhantomData,
        }
    }

    /// Appends `v`; returns its id.
    pub fn push(&mut self, v: V) -> K {
        self.items.push(v);
        K::from_index(self.items.len() - 1)
    }

    /// The id the next `push` returns.
    pub fn next_id(&self) -> K {
        K::from_index(self.items.len())
    }

    /// Every id, in order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator + use<K, V> {
        (0..self.items.len()).map(K::from_index)
    }

    /// `(id, value)` pairs in id order.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (K, &V)> {
        self.items
            .iter()
            .enumerate()
            .map(|(i, v)| (K::from_index(i), v))
    }

    pub fn get(&self, k: K) -> Option<&V> {
        self.items.get(k.index())
    }

    pub fn into_vec(self) -> Vec<V> {
        self.items
    }
}

impl<K: EntityId, V> Default for IdVec<K, V> {
    fn default() -> Self {
        IdVec::new()
    }
}

impl<K, V> From<Vec<V>> for IdVec<K, V> {
    fn from(items: Vec<V>) -> Self {
        IdVec {
            items,
            key: std::marker::PhantomData,
        }
    }
}

impl<K, V> FromIterator<V> for IdVec<K, V> {
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Self {
        IdVec::from(iter.into_iter().collect::<Vec<V>>())
    }
}

impl<K, V> std::ops::Deref for IdVec<K, V> {
    type Target = [V];
    fn deref(&self) -> &[V] {
        &self.items
    }
}

impl<K, V> std::ops::DerefMut for IdVec<K, V> {
    fn deref_mut(&mut self) -> &mut [V] {
        &mut self.items
    }
}

impl<K: EntityId, V> std::ops::Index<K> for IdVec<K, V> {
    type Output = V;
    fn index(&self, k: K) -> &V {
        &self.items[k.index()]
    }
}

impl<K: EntityId, V> std::ops::IndexMut<K> for IdVec<K, V> {
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.items[k.index()]
    }
}

impl<'a, K, V> IntoIterator for &'a IdVec<K, V> {
    type Item = &'a V;
    type IntoIter = std::slice::Iter<'a, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<'a, K, V> IntoIterator for &'a mut IdVec<K, V> {
    type Item = &'a mut V;
    type IntoIter = std::slice::IterMut<'a, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter_mut()
    }
}

impl<K, V: std::fmt::Debug> std::fmt::Debug for IdVec<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.items.fmt(f)
    }
}

impl<K, V: serde::Serialize> serde::Serialize for IdVec<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.items.serialize(s)
    }
}
