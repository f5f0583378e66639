//! Analyses over a [`crate::Kernel`]: results are returned (side tables), never stored on ops.

pub mod affine;
pub mod events;
pub mod known_bits;
pub mod residue;
pub mod serial;
pub mod stream;
pub mod trip_count;
