pub mod analyze;
pub mod check;
pub mod docs;
pub mod hook_docs;
mod markdown;
pub mod play;
pub mod rules;
pub mod serve;
