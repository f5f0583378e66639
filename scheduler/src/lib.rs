//! scheduler
