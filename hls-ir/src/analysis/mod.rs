//! Analyses over a [`crate::Kernel`]: results are returned (side tables), never stored on ops.

pub mod affine;
pub mod known_bits;
pub mod trip_count;
