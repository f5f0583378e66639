//! rtl-templates
