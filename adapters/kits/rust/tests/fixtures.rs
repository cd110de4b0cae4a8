//! Every case input under fixtures/ round-trips byte-exact through the kit:
//! the kit's `parse` then `to_json` gives the bytes conform's reference
//! (reference/jsonjs: JSON.parse then JSON.stringify) gives for the same text.
//! The oracle is `conform adapter` echoing the text as a `retain.items` item.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use conform_adapter::parse;

fn checkout() -> PathBuf {
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    while !dir.join("go.mod").is_file() {
        assert!(
            dir.pop(),
            "no conform checkout above {}",
            env!("CARGO_MANIFEST_DIR")
        );
    }
    dir
}

struct Oracle {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Oracle {
    fn start() -> Oracle {
        let bin = std::env::var("CONFORM_BIN").unwrap_or_else(|_| "conform".into());
        let mut child = Command::new(&bin)
            .arg("adapter")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{bin} adapter (set CONFORM_BIN): {e}"));
        Oracle {
            stdin: child.stdin.take().unwrap(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            child,
        }
    }

    /// JSON.stringify(JSON.parse(text)), as the reference writes it.
    fn stringify(&mut self, text: &str) -> String {
        let one_line = text.replace(['\n', '\r'], " "); // JSON whitespace either way
        writeln!(
            self.stdin,
            r#"{{"cmd":"run","id":"rt","op":"retain.items","input":{{"strategy":{{"kind":"head","maxItems":1}},"items":[{one_line}]}}}}"#
        )
        .unwrap();
        self.stdin.flush().unwrap();
        let mut answer = String::new();
        self.stdout.read_line(&mut answer).unwrap();
        let body = answer
            .strip_prefix(r#"{"id":"rt","output":{"items":["#)
            .unwrap_or_else(|| panic!("unexpected answer {answer:.300}"));
        let end = body.rfind(r#"],"truncated":"#).expect("the items end");
        body[..end].to_owned()
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, r#"{{"cmd":"bye"}}"#);
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

fn check(oracle: &mut Oracle, name: &str, text: &str) {
    let want = oracle.stringify(text);
    let v = parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let got = v.to_json();
    assert!(
        got == want,
        "{name}: the kit writes\n{got:.2000}\nthe reference writes\n{want:.2000}"
    );
    // Lossless forwarding (what examples/reference.rs sends on) reads back the same.
    assert_eq!(
        oracle.stringify(&v.to_json_lossless()),
        want,
        "{name}: lossless text"
    );
}

#[test]
fn every_fixture_roundtrips_byte_exact() {
    let root = checkout().join("fixtures");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() > 700, "{} fixture files", files.len());
    let mut oracle = Oracle::start();
    // The edges the case set holds must all be in the corpus.
    let mut edges = [
        ("lone surrogate", 0),
        ("-0", 0),
        ("exponent", 0),
        ("2^53+1", 0),
    ];
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        check(&mut oracle, &f.display().to_string(), &text);
        let found = [
            text.contains("\\ud8") || text.contains("\\udc") || text.contains("\\udf"),
            text.contains(": -0,") || text.contains(": -0\n") || text.contains("[-0"),
            text.contains("e400") || text.contains("1e2"),
            text.contains("9007199254740993"),
        ];
        for (e, hit) in edges.iter_mut().zip(found) {
            e.1 += usize::from(hit);
        }
    }
    for (edge, n) in edges {
        assert!(n > 0, "no fixture holds the edge {edge}");
    }
}

#[test]
fn the_json_edges_roundtrip_byte_exact() {
    let mut oracle = Oracle::start();
    let deep_arrays = "[".repeat(100_000) + "-0" + &"]".repeat(100_000);
    let deep_objects = "{\"a\":".repeat(100_000) + "\"\\ud800\"" + &"}".repeat(100_000);
    let cases = [
        r#"["\ud800","\udc00","\ud83d\ude00","\ud83d","x\udfffy"]"#,
        "[-0,0,-0.0,1e2,1E2,2.50,1e400,-1e400,1e-7,1e21,123e-20]",
        "[9007199254740993,9007199254740992,18446744073709551616,5e-324,2e-324]",
        r#"{"a":1,"b":2,"a":{"c":3},"b":null}"#,
        r#"{"b":1,"2":2,"10":3,"1":4,"01":5,"4294967294":6,"4294967295":7}"#,
        "\"\\u0000\\u001f\\u007f\\u2028\\u2029\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
        &deep_arrays,
        &deep_objects,
    ];
    for (i, text) in cases.iter().enumerate() {
        check(&mut oracle, &format!("edge {i}"), text);
    }
}

#[test]
fn random_doubles_print_as_the_reference_prints_them() {
    let mut oracle = Oracle::start();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..4 {
        let mut text = String::from("[");
        for i in 0..5000 {
            let x = match i % 4 {
                0 => f64::from_bits(next()),
                1 => (next() >> 11) as f64 / 4.0, // halves and quarters: ties
                2 => (next() % 100_000) as f64 / 1000.0,
                _ => f64::from_bits(next()) * 0.0 + ((next() >> 20) as f64) * 1e-10,
            };
            if !x.is_finite() {
                continue;
            }
            if text.len() > 1 {
                text.push(',');
            }
            text.push_str(&format!("{x:e}"));
        }
        text.push(']');
        check(
            &mut oracle,
            &format!("random doubles, round {round}"),
            &text,
        );
    }
}
