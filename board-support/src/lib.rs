//! board-support
