//! toolchain
