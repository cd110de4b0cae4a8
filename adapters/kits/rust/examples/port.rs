//! The kit serving the idiomatic Rust port (testdata/ports/rust), glued the
//! way a port author would glue it: the kit hands over exact values, the
//! port works on `serde_json::Value`, so each input goes through
//! `serde_json::from_str` of the kit's `JSON.stringify` text and each output
//! comes back through `serde_json::to_string`.

use conform_adapter::{parse, Adapter, Implementation, Op, OpError, Value};

fn handle(op: Op, input: &Value) -> Result<Value, OpError> {
    let input: serde_json::Value = serde_json::from_str(&input.to_json())?;
    let output = dsh_port::run(op.name(), &input).map_err(OpError::thrown)?;
    Ok(parse(&serde_json::to_string(&output)?)?)
}

fn main() -> std::io::Result<()> {
    let mut adapter = Adapter::new(
        Implementation::new("dsh-port (idiomatic Rust port)", env!("CARGO_PKG_VERSION"))
            .homepage("testdata/ports/rust"),
    );
    for op in Op::ALL {
        adapter = adapter.on(op, move |input| handle(op, input));
    }
    adapter.serve()
}
