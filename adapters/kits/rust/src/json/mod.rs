//! JSON as JavaScript reads and writes it: [`parse`] is `JSON.parse`,
//! [`Value::to_json`] is `JSON.stringify`, and [`Value`] is what a JavaScript
//! program holds in between. Nothing recurses, so depth is bounded only by
//! memory (a value 100,000 levels deep parses, writes, clones, compares and
//! drops on a small stack).

mod parse;
mod string;
mod value;
mod write;

pub use parse::{parse, ParseError};
pub use string::{Chunk, Chunks, JsString};
pub use value::{Array, Number, Object, Value};
pub use write::{number_to_string, to_json, to_json_lossless, write_string, write_value};
