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
