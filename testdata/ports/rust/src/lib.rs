//! dsh tool-result presentation, ported to Rust from the contract digest.
//!
//! Each op takes its input as a `serde_json::Value` and returns the output
//! object, or `Err(message)` when the harness throws.

mod code;
mod js;
mod retention;
mod search;
mod spill;

use serde_json::Value;

pub use code::run_code_result;
pub use retention::{retain_items, retain_text, ItemRetainer, TextRetainer};
pub use search::{glob_result, grep_result, search_present};
pub use spill::spill_preview;

/// Runs the op `op` on `input`.
pub fn run(op: &str, input: &Value) -> Result<Value, String> {
    match op {
        "grep.result" => grep_result(input),
        "glob.result" => glob_result(input),
        "search.present" => search_present(input),
        "run_code.result" => run_code_result(input),
        "retain.items" => retain_items(input),
        "retain.text" => retain_text(input),
        "spill.preview" => spill_preview(input),
        other => Err(format!("unknown op {other}")),
    }
}

/// The ops this port implements.
pub const OPS: [&str; 7] = [
    "glob.result",
    "grep.result",
    "retain.items",
    "retain.text",
    "run_code.result",
    "search.present",
    "spill.preview",
];
