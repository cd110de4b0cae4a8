//! The reference harness served through the kit: each op's handler hands the
//! input to `conform adapter` (a persistent subprocess) and returns its
//! answer. Every case must pass through it, so the kit's JSON reading and
//! writing and its serve loop add no false fail.
//!
//! `CONFORM_KIT_BREAK=<op>` spoils that op's outputs (a member `"broken":
//! true` added), for the test that a failing case shows as a failing test.

use std::cell::RefCell;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::rc::Rc;

use conform_adapter::{parse, Adapter, Implementation, Op, OpError, Value};

struct Reference {
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Reference {
    fn start() -> Reference {
        let bin = std::env::var("CONFORM_BIN").unwrap_or_else(|_| "conform".into());
        let mut child = Command::new(&bin)
            .arg("adapter")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("starting {bin} adapter (set CONFORM_BIN to a conform binary): {e}")
            });
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut r = Reference {
            _child: child,
            stdin,
            stdout,
        };
        r.exchange(r#"{"cmd":"hello","protocol":1}"#);
        r
    }

    fn exchange(&mut self, line: &str) -> Value {
        writeln!(self.stdin, "{line}").expect("writing to conform adapter");
        self.stdin.flush().expect("flushing to conform adapter");
        let mut answer = String::new();
        self.stdout
            .read_line(&mut answer)
            .expect("reading conform adapter");
        parse(answer.trim_end()).expect("conform adapter answers JSON")
    }

    fn run(&mut self, op: Op, input: &Value) -> Result<Value, OpError> {
        // Lossless: the input's numbers go on as their lexemes (1e400, -0).
        let line = format!(
            r#"{{"cmd":"run","id":"k","op":"{}","input":{}}}"#,
            op.name(),
            input.to_json_lossless()
        );
        let answer = self.exchange(&line);
        if let Some(output) = answer.get("output") {
            return Ok(output.clone());
        }
        if let Some(message) = answer.get("error").and_then(|e| e.get("message")) {
            return Err(OpError::thrown(
                message
                    .as_js_string()
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
            ));
        }
        Err(OpError::skip(
            answer.get("skip").map(Value::to_json).unwrap_or_default(),
        ))
    }
}

fn main() {
    let reference = Rc::new(RefCell::new(Reference::start()));
    let broken: Option<Op> = std::env::var("CONFORM_KIT_BREAK")
        .ok()
        .and_then(|s| s.parse().ok());
    let mut adapter = Adapter::new(Implementation::new(
        "reference through the Rust kit",
        "0.1.0",
    ));
    for op in Op::ALL {
        let r = Rc::clone(&reference);
        adapter = adapter.on(op, move |input| {
            let mut output = r.borrow_mut().run(op, input)?;
            if broken == Some(op) {
                if let Value::Object(o) = &mut output {
                    o.insert("broken", Value::Bool(true));
                }
            }
            Ok(output)
        });
    }
    adapter.serve().expect("serving stdin");
}
