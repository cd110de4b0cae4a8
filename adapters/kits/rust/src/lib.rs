//! A kit for conform adapters written in Rust (docs/protocol.md, protocol v1).
//!
//! - [`Adapter`]: register one handler per [`Op`] and call
//!   [`Adapter::serve`]; the kit does the handshake, persistent and exec mode,
//!   `bye`, error and skip answers, unsupported ops and flushing.
//! - [`json`]: JSON exactly as JavaScript reads and writes it (lone
//!   surrogates, number lexemes, duplicate keys, unlimited depth).
//! - [`testing`]: conform's cases as libtest-style native tests.
//!
//! Diagnostics go to stderr (`eprintln!`): stdout carries answers only, so a
//! handler must never `println!`.

pub mod json;
mod serve;
pub mod testing;

pub use json::{parse, Array, JsString, Number, Object, Value};
pub use serve::{Adapter, Implementation, Op, OpError, PROTOCOL};
