pub mod analyze;
pub mod play;
