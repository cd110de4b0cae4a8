//! The kit's JSON against JavaScript's rules (the values JSON.parse builds and
//! the text JSON.stringify writes).

use conform_adapter::json::{number_to_string, parse, JsString, Object, Value};

fn roundtrip(text: &str) -> String {
    parse(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .to_json()
}

#[test]
fn numbers_print_as_javascript_prints_them() {
    let cases: &[(f64, &str)] = &[
        (0.0, "0"),
        (-0.0, "0"),
        (1.0, "1"),
        (-1.5, "-1.5"),
        (100.0, "100"),
        (0.1, "0.1"),
        (0.000001, "0.000001"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (123e-20, "1.23e-18"),
        (1e21, "1e+21"),
        (1.5e21, "1.5e+21"),
        (123456789012345680000.0, "123456789012345680000"),
        (9007199254740993.0, "9007199254740992"),
        (9223372036854775807.0, "9223372036854776000"),
        (5e-324, "5e-324"),
        (f64::MAX, "1.7976931348623157e+308"),
        (0.30000000000000004, "0.30000000000000004"),
        // Two shortest candidates equally close: JavaScript takes the even one.
        (1e15 + 0.25, "1000000000000000.2"),
        (1e15 + 0.75, "1000000000000000.8"),
        (5e-324 * 3.0, "1.5e-323"),
        (f64::INFINITY, "Infinity"),
        (f64::NAN, "NaN"),
    ];
    for &(x, want) in cases {
        assert_eq!(number_to_string(x), want, "{x:e}");
    }
}

#[test]
fn number_lexemes_are_kept_and_written_as_json_stringify_writes_them() {
    let v = parse("[1e2,-0,9007199254740993,1e400,-1e400,2.50,1E-7]").unwrap();
    let lexemes: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_number().unwrap().lexeme().unwrap())
        .collect();
    assert_eq!(
        lexemes,
        [
            "1e2",
            "-0",
            "9007199254740993",
            "1e400",
            "-1e400",
            "2.50",
            "1E-7"
        ]
    );
    assert!(v.as_array().unwrap()[1]
        .as_f64()
        .unwrap()
        .is_sign_negative());
    assert_eq!(v.to_json(), "[100,0,9007199254740992,null,null,2.5,1e-7]");
    assert_eq!(
        v.to_json_lossless(),
        "[1e2,-0,9007199254740993,1e400,-1e400,2.50,1E-7]"
    );
    assert_eq!(Value::from(-0.0).to_json_lossless(), "-0");
    assert_eq!(Value::from(f64::INFINITY).to_json_lossless(), "1e400");
}

#[test]
fn lone_surrogates_survive_and_pairs_join() {
    let v = parse(r#"["\ud800","\udfff x","\uD83D\uDE00","\ud83d\ude00\ud83d",""]"#).unwrap();
    let a = v.as_array().unwrap();
    let s0 = a[0].as_js_string().unwrap();
    assert!(s0.has_lone_surrogate());
    assert_eq!(s0.to_utf16(), [0xD800]);
    assert_eq!(s0.to_string_lossy(), "\u{FFFD}");
    assert_eq!(a[2].as_str(), Some("😀"));
    assert_eq!(a[3].as_js_string().unwrap().len_utf16(), 3);
    assert_ne!(a[0], a[1]);
    assert_eq!(v.to_json(), r#"["\ud800","\udfff x","😀","😀\ud83d",""]"#);
    // Concatenation joins a split pair, as in JavaScript.
    let mut s = JsString::from_utf16(&[0xD83D]);
    s.push_js_str(&JsString::from_utf16(&[0xDE00, 0x61]));
    assert_eq!(s.as_str(), Some("😀a"));
}

#[test]
fn strings_are_escaped_as_json_stringify_escapes_them() {
    let v = Value::from("\"\\/\u{8}\u{c}\n\r\t\u{0}\u{1f}\u{7f}\u{2028}é");
    assert_eq!(
        v.to_json(),
        r#""\"\\/\b\f\n\r\t\u0000\u001f"#.to_owned() + "\u{7f}\u{2028}é\""
    );
    assert_eq!(roundtrip(r#""\/\u0041\u00e9""#), "\"/Aé\"");
}

#[test]
fn duplicate_keys_keep_the_first_position_and_the_last_value() {
    assert_eq!(roundtrip(r#"{"a":1,"b":2,"a":3}"#), r#"{"a":3,"b":2}"#);
    // Past the size where the parser indexes member names.
    let mut text = String::from("{");
    for i in 0..40 {
        text.push_str(&format!("\"k{i}\":{i},"));
    }
    text.push_str("\"k3\":\"last\",\"7\":1,\"k39\":true}");
    let v = parse(&text).unwrap();
    let o = v.as_object().unwrap();
    assert_eq!(o.len(), 41);
    assert_eq!(o.get("k3").unwrap().as_str(), Some("last"));
    assert_eq!(o.get("k39").unwrap().as_bool(), Some(true));
    assert_eq!(o.keys().next().unwrap(), "7");
}

#[test]
fn array_index_names_come_first_ascending() {
    assert_eq!(
        roundtrip(r#"{"b":1,"10":2,"2":3,"01":4,"4294967295":5,"4294967294":6,"-1":7,"a":8}"#),
        r#"{"2":3,"10":2,"4294967294":6,"b":1,"01":4,"4294967295":5,"-1":7,"a":8}"#
    );
    let mut o = Object::new();
    o.insert("z", 1.into());
    o.insert("1", 2.into());
    o.insert("z", 3.into());
    assert_eq!(Value::from(o).to_json(), r#"{"1":2,"z":3}"#);
}

#[test]
fn malformed_text_is_refused_with_its_offset() {
    let cases: &[(&str, usize)] = &[
        ("", 0),
        ("[1,]", 3),
        ("{\"a\" 1}", 5),
        ("01", 1),
        ("1.", 2),
        ("-", 1),
        ("1e", 2),
        ("\"a\nb\"", 2),
        ("\"\\x\"", 2),
        ("\"\\u12g4\"", 5),
        ("tru", 0),
        ("[1] x", 4),
        ("\"abc", 4),
        ("{\"a\":1,}", 7),
        ("\u{a0}1", 0),
    ];
    for &(text, offset) in cases {
        let e = parse(text).expect_err(text);
        assert_eq!(e.offset, offset, "{text:?}: {e}");
    }
    // JSON.parse's whitespace only.
    assert_eq!(
        roundtrip(" \t\r\n[ 1 , {\"a\" : null} ]\n"),
        r#"[1,{"a":null}]"#
    );
}

const DEEP: usize = 100_000;

/// Runs f on a thread with a 256 KiB stack: a recursion 100,000 deep would
/// overflow it (a frame is far over 3 bytes).
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .expect("no stack overflow");
}

#[test]
fn a_value_100000_deep_parses_writes_clones_compares_and_drops() {
    on_small_stack(|| {
        let arrays = "[".repeat(DEEP) + "1" + &"]".repeat(DEEP);
        let objects = "{\"a\":".repeat(DEEP) + "[]" + &"}".repeat(DEEP);
        for text in [arrays, objects] {
            let v = parse(&text).unwrap();
            assert_eq!(v.to_json(), text);
            assert_eq!(v.to_json_lossless(), text);
            let w = v.clone();
            assert!(v == w);
            let other = parse(&text.replacen("1", "2", 1).replacen("[]", "[0]", 1)).unwrap();
            assert!(v != other);
            let mut o = Object::new();
            o.insert("deep", w);
            let o2 = o.clone();
            assert!(o == o2);
            drop((v, o, o2, other));
        }
    });
}

#[test]
fn equality_is_javascripts_observable_equality() {
    assert_eq!(
        parse("[1,1.0,1e0]").unwrap(),
        parse("[1.0,1,10e-1]").unwrap()
    );
    assert_ne!(
        parse(r#"{"a":1,"b":2}"#).unwrap(),
        parse(r#"{"b":2,"a":1}"#).unwrap()
    );
    assert_ne!(parse("[1]").unwrap(), parse("[1,2]").unwrap());
    assert_ne!(parse("null").unwrap(), parse("false").unwrap());
}
