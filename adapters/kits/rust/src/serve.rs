//! The adapter loop of protocol v1 (docs/protocol.md): one request per stdin
//! line, one answer per stdout line, flushed at once.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::str::FromStr;

use crate::json::{parse, Object, Value};

/// The protocol version this kit speaks.
pub const PROTOCOL: u32 = 1;

/// The ops of protocol v1 (`conform ops`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    GlobResult,
    GrepResult,
    RetainItems,
    RetainText,
    RunCodeResult,
    SearchPresent,
    SpillPreview,
}

impl Op {
    /// Every op, in `conform ops` order.
    pub const ALL: [Op; 7] = [
        Op::GlobResult,
        Op::GrepResult,
        Op::RetainItems,
        Op::RetainText,
        Op::RunCodeResult,
        Op::SearchPresent,
        Op::SpillPreview,
    ];

    /// The op's name on the wire (`"grep.result"`).
    pub fn name(self) -> &'static str {
        match self {
            Op::GlobResult => "glob.result",
            Op::GrepResult => "grep.result",
            Op::RetainItems => "retain.items",
            Op::RetainText => "retain.text",
            Op::RunCodeResult => "run_code.result",
            Op::SearchPresent => "search.present",
            Op::SpillPreview => "spill.preview",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Op {
    type Err = String;
    fn from_str(s: &str) -> Result<Op, String> {
        Op::ALL
            .into_iter()
            .find(|op| op.name() == s)
            .ok_or_else(|| format!("unknown op {s:?}"))
    }
}

/// Who the harness is, for the handshake and the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Implementation {
    pub name: String,
    pub version: String,
    pub language: String,
    pub homepage: String,
}

impl Implementation {
    /// A Rust harness called `name` at `version`.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Implementation {
        Implementation {
            name: name.into(),
            version: version.into(),
            language: "rust".into(),
            homepage: String::new(),
        }
    }

    /// Sets the language shown in the report (default `rust`).
    pub fn language(mut self, language: impl Into<String>) -> Implementation {
        self.language = language.into();
        self
    }

    /// Sets the homepage shown in the report.
    pub fn homepage(mut self, homepage: impl Into<String>) -> Implementation {
        self.homepage = homepage.into();
        self
    }
}

/// What a handler returns instead of an output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpError {
    /// The harness threw: answered as `{"error":{"message":…}}` and compared
    /// with the golden error (an invalid configuration or budget).
    Thrown(String),
    /// The adapter cannot run this case (a missing feature): `{"skip":…}`.
    Skip(String),
}

impl OpError {
    /// The harness threw an error with this message.
    pub fn thrown(message: impl Into<String>) -> OpError {
        OpError::Thrown(message.into())
    }

    /// The case is skipped for this reason.
    pub fn skip(reason: impl Into<String>) -> OpError {
        OpError::Skip(reason.into())
    }
}

/// Any error becomes a thrown error with its `Display` text, so `?` works
/// in a handler.
impl<E: std::error::Error> From<E> for OpError {
    fn from(e: E) -> OpError {
        OpError::Thrown(e.to_string())
    }
}

type Handler = Box<dyn FnMut(&Value) -> Result<Value, OpError>>;

/// An adapter: the handlers of the ops the harness implements.
///
/// ```no_run
/// use conform_adapter::{object, Adapter, Implementation, Op, OpError, Value};
///
/// Adapter::new(Implementation::new("my-harness", "0.1.0"))
///     .on(Op::RetainItems, |input: &Value| {
///         let items = input.get("items").and_then(Value::as_array)
///             .ok_or_else(|| OpError::thrown("items must be an array"))?;
///         Ok(object! { "seen" => items.len() }.into())
///     })
///     .serve()
///     .unwrap();
/// ```
pub struct Adapter {
    implementation: Implementation,
    handlers: Vec<(Op, Handler)>,
}

impl Adapter {
    /// An adapter with no op yet (its handshake says `"ops":[]`).
    pub fn new(implementation: Implementation) -> Adapter {
        Adapter {
            implementation,
            handlers: Vec::new(),
        }
    }

    /// Registers the handler of `op` (a later one for the same op replaces
    /// it). The handler gets the case's input as `JSON.parse` reads it and
    /// returns the op output (a JSON object), or an [`OpError`]. A panic is
    /// not caught: the adapter crashes, and conform reports the crash with
    /// the panic message from stderr.
    pub fn on<F>(mut self, op: Op, handler: F) -> Adapter
    where
        F: FnMut(&Value) -> Result<Value, OpError> + 'static,
    {
        self.handlers.retain(|(o, _)| *o != op);
        self.handlers.push((op, Box::new(handler)));
        self
    }

    /// The ops registered, in registration order.
    pub fn ops(&self) -> Vec<Op> {
        self.handlers.iter().map(|(op, _)| *op).collect()
    }

    /// Serves stdin and stdout until `bye` or the end of stdin. The same
    /// program works in persistent and exec mode.
    pub fn serve(self) -> io::Result<()> {
        let stdin = io::stdin();
        let stdout = io::stdout();
        self.serve_io(stdin.lock(), stdout.lock())
    }

    /// Serves requests from `input` and writes answers to `output`, flushing
    /// after each; returns at `bye` or at the end of `input`.
    pub fn serve_io<R: BufRead, W: Write>(mut self, mut input: R, mut output: W) -> io::Result<()> {
        let mut line = Vec::new();
        loop {
            line.clear();
            if input.read_until(b'\n', &mut line)? == 0 {
                return Ok(()); // the end of stdin: exec mode, or no bye
            }
            let text = trim_line_end(&line);
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let answer = match self.handle(text) {
                Some(a) => a,
                None => return Ok(()), // bye
            };
            let mut out = answer.to_json();
            out.push('\n');
            output.write_all(out.as_bytes())?;
            output.flush()?;
        }
    }

    /// The answer to one request line; `None` for `bye`.
    fn handle(&mut self, line: &[u8]) -> Option<Value> {
        let (text, utf8_error) = match std::str::from_utf8(line) {
            Ok(t) => (std::borrow::Cow::Borrowed(t), None),
            Err(e) => (String::from_utf8_lossy(line), Some(e.valid_up_to())),
        };
        let request = match parse(&text) {
            Ok(Value::Object(o)) => o,
            Ok(_) => return Some(malformed(None, "request is not a JSON object".into())),
            Err(e) => return Some(malformed(None, format!("request is not JSON: {e}"))),
        };
        let id = match request.get("id") {
            Some(id @ Value::String(_)) => Some(id.clone()),
            _ => None,
        };
        if let Some(at) = utf8_error {
            let message = format!("request is not UTF-8: invalid byte at offset {at}");
            return Some(malformed(id, message));
        }
        let cmd = match request.get("cmd").and_then(Value::as_str) {
            Some(c) => c,
            None => return Some(malformed(id, "request has no \"cmd\" string".into())),
        };
        match cmd {
            "hello" => Some(self.hello()),
            "bye" => None,
            "run" => Some(self.run(&request, id)),
            other => Some(malformed(id, format!("unknown cmd {other:?}"))),
        }
    }

    fn hello(&self) -> Value {
        let imp = &self.implementation;
        let implementation = crate::object! {
            "name" => imp.name.as_str(),
            "version" => imp.version.as_str(),
            "language" => imp.language.as_str(),
            "homepage" => imp.homepage.as_str(),
        };
        let ops: Vec<Value> = self.ops().into_iter().map(|o| o.name().into()).collect();
        crate::object! {
            "protocol" => PROTOCOL,
            "implementation" => implementation,
            "ops" => ops,
        }
        .into()
    }

    fn run(&mut self, request: &Object, id: Option<Value>) -> Value {
        let Some(id) = id else {
            return malformed(None, "run request has no \"id\" string".into());
        };
        let Some(op_name) = request.get("op").and_then(Value::as_str) else {
            return malformed(Some(id), "run request has no \"op\" string".into());
        };
        let Some(input @ Value::Object(_)) = request.get("input") else {
            return malformed(Some(id), "run request has no \"input\" object".into());
        };
        let handler = op_name
            .parse::<Op>()
            .ok()
            .and_then(|op| self.handlers.iter_mut().find(|(o, _)| *o == op));
        let Some((_, handler)) = handler else {
            let reason = format!("op {op_name:?} is not supported by this harness");
            return crate::object! { "id" => id, "skip" => reason }.into();
        };
        match handler(input) {
            Ok(output @ Value::Object(_)) => {
                crate::object! { "id" => id, "output" => output }.into()
            }
            Ok(other) => {
                let message = format!("harness output is not a JSON object: {}", excerpt(&other));
                malformed(Some(id), message)
            }
            Err(OpError::Thrown(message)) => error_answer(Some(id), message),
            Err(OpError::Skip(reason)) => crate::object! { "id" => id, "skip" => reason }.into(),
        }
    }
}

fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

fn excerpt(v: &Value) -> String {
    let s = v.to_json();
    match s.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// The error answer to a request the kit cannot serve, also logged to
/// stderr (conform shows the adapter's stderr with a failing case).
fn malformed(id: Option<Value>, message: String) -> Value {
    eprintln!("conform-adapter: {message}");
    error_answer(id, message)
}

fn error_answer(id: Option<Value>, message: String) -> Value {
    let mut o = Object::new();
    if let Some(id) = id {
        o.insert("id", id);
    }
    o.insert("error", crate::object! { "message" => message }.into());
    o.into()
}
