//! Shared test support.

pub mod hatschet;
