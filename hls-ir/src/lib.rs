//! hls-ir
