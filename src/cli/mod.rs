pub mod analyze;
pub mod check;
pub mod play;
pub mod rules;
