//! The serve loop against docs/protocol.md: handshake, run, error and skip
//! answers, unsupported ops, bye, end of input, flushing, malformed requests.

use std::io::Write;

use conform_adapter::{object, parse, Adapter, Implementation, Op, OpError, Value};

/// A writer that records each flush, to see that every answer is flushed.
#[derive(Default)]
struct Flushes {
    buf: Vec<u8>,
    flushed_at: Vec<usize>,
}

impl Write for Flushes {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.flushed_at.push(self.buf.len());
        Ok(())
    }
}

fn adapter() -> Adapter {
    Adapter::new(Implementation::new("t", "1.0").homepage("https://example.com"))
        .on(Op::RetainItems, |input| {
            let n = input
                .get("items")
                .and_then(Value::as_array)
                .map_or(0, |a| a.len());
            if n == 0 {
                return Err(OpError::thrown("maxItems must be a non-negative integer"));
            }
            Ok(object! { "seen" => n, "echo" => input.clone() }.into())
        })
        .on(Op::SpillPreview, |_| Err(OpError::skip("not yet")))
        .on(Op::RetainText, |_| Ok(Value::from(3)))
        .on(Op::GlobResult, |input| {
            let _: f64 = input
                .get("x")
                .and_then(Value::as_str)
                .unwrap_or("")
                .parse()?;
            Ok(object! {}.into())
        })
}

fn serve(input: &[u8]) -> (Vec<String>, Vec<usize>) {
    let mut out = Flushes::default();
    adapter().serve_io(input, &mut out).unwrap();
    let text = String::from_utf8(out.buf).unwrap();
    let lines = text.lines().map(str::to_owned).collect();
    (lines, out.flushed_at)
}

#[test]
fn hello_lists_the_registered_ops_in_order() {
    let (lines, _) = serve(b"{\"cmd\":\"hello\",\"protocol\":1}\n");
    assert_eq!(
        lines,
        [
            r#"{"protocol":1,"implementation":{"name":"t","version":"1.0","language":"rust","homepage":"https://example.com"},"ops":["retain.items","spill.preview","retain.text","glob.result"]}"#
        ]
    );
    let empty = Adapter::new(Implementation::new("none", ""));
    let mut out = Vec::new();
    empty
        .serve_io(&b"{\"cmd\":\"hello\",\"protocol\":1}"[..], &mut out)
        .unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "{\"protocol\":1,\"implementation\":{\"name\":\"none\",\"version\":\"\",\"language\":\"rust\",\"homepage\":\"\"},\"ops\":[]}\n"
    );
}

#[test]
fn runs_answer_output_error_skip_and_unsupported() {
    let input = concat!(
        r#"{"cmd":"run","id":"a/1","op":"retain.items","input":{"items":[1e2,"\ud800",-0,{"k":1,"k":2}]}}"#,
        "\n",
        r#"{"cmd":"run","id":"a/2","op":"retain.items","input":{"items":[]}}"#,
        "\r\n",
        "\n   \n",
        r#"{"cmd":"run","id":"a/3","op":"spill.preview","input":{}}"#,
        "\n",
        r#"{"cmd":"run","id":"a/4","op":"grep.result","input":{}}"#,
        "\n",
        r#"{"cmd":"run","id":"a/5","op":"retain.text","input":{}}"#,
        "\n",
        r#"{"cmd":"run","id":"a/6","op":"glob.result","input":{"x":"nope"}}"#,
        "\n",
        r#"{"cmd":"run","id":"\ud800","op":"no.such","input":{}}"#,
        "\n",
    );
    let (lines, flushes) = serve(input.as_bytes());
    assert_eq!(
        lines,
        [
            r#"{"id":"a/1","output":{"seen":4,"echo":{"items":[100,"\ud800",0,{"k":2}]}}}"#,
            r#"{"id":"a/2","error":{"message":"maxItems must be a non-negative integer"}}"#,
            r#"{"id":"a/3","skip":"not yet"}"#,
            r#"{"id":"a/4","skip":"op \"grep.result\" is not supported by this harness"}"#,
            r#"{"id":"a/5","error":{"message":"harness output is not a JSON object: 3"}}"#,
            r#"{"id":"a/6","error":{"message":"invalid float literal"}}"#,
            r#"{"id":"\ud800","skip":"op \"no.such\" is not supported by this harness"}"#,
        ]
    );
    // One flush per answer, each right after its line.
    let ends: Vec<usize> = lines
        .iter()
        .scan(0, |n, l| {
            *n += l.len() + 1;
            Some(*n)
        })
        .collect();
    assert_eq!(flushes, ends);
}

#[test]
fn bye_ends_the_loop_and_so_does_the_end_of_input() {
    let (lines, _) = serve(b"{\"cmd\":\"bye\"}\n{\"cmd\":\"hello\",\"protocol\":1}\n");
    assert!(lines.is_empty(), "{lines:?}");
    // Exec mode: one request, no final newline, then the end of stdin.
    let (lines, _) = serve(br#"{"cmd":"run","id":"x","op":"retain.items","input":{"items":[0]}}"#);
    assert_eq!(
        lines,
        [r#"{"id":"x","output":{"seen":1,"echo":{"items":[0]}}}"#]
    );
}

#[test]
fn malformed_requests_get_error_answers() {
    let input: &[u8] = b"not json\n[1]\n{\"id\":\"q\"}\n{\"cmd\":\"dance\",\"id\":\"q\"}\n{\"cmd\":\"run\"}\n{\"cmd\":\"run\",\"id\":\"r\",\"op\":\"retain.items\"}\n{\"cmd\":\"run\",\"id\":\"s\",\"input\":{}}\n{\"cmd\":\"run\",\"id\":\"u\xff\",\"op\":\"retain.items\",\"input\":{}}\n";
    let (lines, _) = serve(input);
    let messages: Vec<(Option<String>, String)> = lines
        .iter()
        .map(|l| {
            let v = parse(l).unwrap();
            let id = v.get("id").map(|i| i.as_js_string().unwrap().to_string());
            (
                id,
                v.get("error")
                    .unwrap()
                    .get("message")
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_owned(),
            )
        })
        .collect();
    let want: Vec<(Option<&str>, &str)> = vec![
        (None, "request is not JSON: want null at byte 0"),
        (None, "request is not a JSON object"),
        (Some("q"), "request has no \"cmd\" string"),
        (Some("q"), "unknown cmd \"dance\""),
        (None, "run request has no \"id\" string"),
        (Some("r"), "run request has no \"input\" object"),
        (Some("s"), "run request has no \"op\" string"),
        (
            Some("u\u{FFFD}"),
            "request is not UTF-8: invalid byte at offset 20",
        ),
    ];
    let got: Vec<(Option<&str>, &str)> = messages
        .iter()
        .map(|(i, m)| (i.as_deref(), m.as_str()))
        .collect();
    assert_eq!(got, want);
}
