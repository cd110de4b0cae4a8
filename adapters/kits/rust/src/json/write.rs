//! `JSON.stringify` output, with an explicit stack (no depth limit).

use std::fmt::Write as _;

use super::string::{Chunk, JsString};
use super::value::{Array, Number, Object, Value};

/// The compact text `JSON.stringify(v)` writes: no whitespace, JavaScript's
/// string escaping (lone surrogates as `\udXXX`), numbers as
/// `Number.prototype.toString` gives them (non-finite as `null`, `-0` as `0`),
/// members in own-property order.
pub fn to_json(v: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, v);
    out
}

/// Like [`to_json`], but each number read from text is written as its
/// lexeme (`1e400`, `-0`, `1e2` as they came), and a number made in Rust as
/// text that reads back as the same double (`-0`, `1e400` for Infinity;
/// NaN, which JSON cannot hold, as `null`). For handing a value on to
/// another JSON.parse reader without loss; not what `JSON.stringify` writes.
pub fn to_json_lossless(v: &Value) -> String {
    let mut out = String::new();
    write_value_as(&mut out, v, true);
    out
}

enum Open<'a> {
    Array(std::slice::Iter<'a, Value>),
    Object(std::slice::Iter<'a, (JsString, Value)>),
}

/// Appends `JSON.stringify(v)` to `out`.
pub fn write_value(out: &mut String, v: &Value) {
    write_value_as(out, v, false)
}

fn write_value_as(out: &mut String, v: &Value, lossless: bool) {
    let mut stack: Vec<(Open<'_>, bool)> = Vec::new();
    let mut next = Some(v);
    loop {
        if let Some(v) = next.take() {
            match v {
                Value::Null => out.push_str("null"),
                Value::Bool(true) => out.push_str("true"),
                Value::Bool(false) => out.push_str("false"),
                Value::Number(n) if lossless => write_lossless(out, n),
                Value::Number(n) => write_number(out, n.as_f64()),
                Value::String(s) => write_string(out, s),
                Value::Array(a) => {
                    out.push('[');
                    stack.push((Open::Array(a.iter()), true));
                }
                Value::Object(o) => {
                    out.push('{');
                    stack.push((Open::Object(o.iter()), true));
                }
            }
        }
        let Some((open, first)) = stack.last_mut() else {
            return;
        };
        let child = match open {
            Open::Array(it) => it.next().map(|v| (None, v)),
            Open::Object(it) => it.next().map(|(k, v)| (Some(k), v)),
        };
        match child {
            Some((name, v)) => {
                if !*first {
                    out.push(',');
                }
                *first = false;
                if let Some(k) = name {
                    write_string(out, k);
                    out.push(':');
                }
                next = Some(v);
            }
            None => {
                out.push(match open {
                    Open::Array(_) => ']',
                    Open::Object(_) => '}',
                });
                stack.pop();
            }
        }
    }
}

pub(crate) fn write_array(out: &mut String, a: &Array) {
    out.push('[');
    for (i, v) in a.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_value(out, v);
    }
    out.push(']');
}

pub(crate) fn write_object(out: &mut String, o: &Object) {
    out.push('{');
    for (i, (k, v)) in o.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, k);
        out.push(':');
        write_value(out, v);
    }
    out.push('}');
}

/// Appends `s` as `JSON.stringify` quotes it: `"` and `\` escaped, the
/// control characters as `\b \t \n \f \r` or `\u00XX`, lone surrogates as
/// `\udXXX` (lowercase hex); everything else as it is.
pub fn write_string(out: &mut String, s: &JsString) {
    out.push('"');
    for c in s.chunks() {
        match c {
            Chunk::Lone(u) => {
                let _ = write!(out, "\\u{u:04x}");
            }
            Chunk::Str(t) => {
                let mut from = 0;
                for (i, b) in t.bytes().enumerate() {
                    let esc = match b {
                        b'"' => "\\\"",
                        b'\\' => "\\\\",
                        b'\x08' => "\\b",
                        b'\t' => "\\t",
                        b'\n' => "\\n",
                        b'\x0c' => "\\f",
                        b'\r' => "\\r",
                        0..=0x1f => "",
                        _ => continue,
                    };
                    out.push_str(&t[from..i]);
                    if esc.is_empty() {
                        let _ = write!(out, "\\u{b:04x}");
                    } else {
                        out.push_str(esc);
                    }
                    from = i + 1;
                }
                out.push_str(&t[from..]);
            }
        }
    }
    out.push('"');
}

fn write_lossless(out: &mut String, n: &Number) {
    match n.lexeme() {
        Some(l) => out.push_str(l),
        None => {
            let x = n.as_f64();
            if x.is_infinite() {
                out.push_str(if x > 0.0 { "1e400" } else { "-1e400" });
            } else if x == 0.0 && x.is_sign_negative() {
                out.push_str("-0");
            } else {
                write_number(out, x);
            }
        }
    }
}

fn write_number(out: &mut String, x: f64) {
    if x.is_finite() {
        out.push_str(&number_to_string(x));
    } else {
        out.push_str("null");
    }
}

/// JavaScript's `Number.prototype.toString()` of `x` (ECMA-262
/// Number::toString, radix 10): the shortest digits that round-trip (Rust's
/// `{:e}` gives them), laid out by JavaScript's rules: plain notation for
/// decimal exponents -7 < e < 21, else `d.ddde+N`; `-0` is `"0"`.
pub fn number_to_string(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let (digits, e) = shortest_digits(x.abs());
    let k = digits.len() as i32;
    let n = e + 1; // the decimal point sits after n digits
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat('0').take((n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat('0').take((-n) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if n > 0 { '+' } else { '-' });
        let _ = write!(out, "{}", (n - 1).abs());
    }
    out
}

/// The digits and decimal exponent of `{:e}` (`1.25e3` gives `("125", 3)`).
fn sci_parts(s: &str) -> (String, i32) {
    let (mant, exp) = s.split_once('e').expect("{:e} has an exponent");
    let digits = mant.chars().filter(|c| *c != '.').collect();
    (digits, exp.parse().expect("{:e} exponent is an integer"))
}

/// The shortest digits that read back as `x` (> 0), as ECMA-262 picks them:
/// Rust's `{:e}` gives the shortest; where two digit strings of that length
/// are equally close to `x` (its exact value ends in a 5 just past them),
/// JavaScript takes the even one and Rust may not (1000000000000000.25 is
/// `1000000000000000.2` in JavaScript, `.3` in Rust).
fn shortest_digits(x: f64) -> (String, i32) {
    let (digits, e) = sci_parts(&format!("{x:e}"));
    let k = digits.len();
    let (probe, pe) = sci_parts(&format!("{x:.k$e}")); // k + 1 digits, correctly rounded
    if !probe.ends_with('5') {
        return (digits, e);
    }
    // Exact: a double has at most 767 significant digits.
    let (exact, ee) = sci_parts(&format!("{x:.800e}"));
    if exact.trim_end_matches('0') != probe || ee != pe {
        return (digits, e); // not a tie
    }
    let lo = &probe[..k];
    if lo.as_bytes()[k - 1] % 2 == 0 {
        return candidate(x, lo.to_owned(), pe).unwrap_or((digits, e));
    }
    // Round lo up by one unit in its last place.
    let mut hi: Vec<u8> = lo.bytes().collect();
    let mut i = k;
    while i > 0 && hi[i - 1] == b'9' {
        hi[i - 1] = b'0';
        i -= 1;
    }
    let (hi, he) = if i == 0 {
        (
            format!("1{}", String::from_utf8(hi).expect("digits")),
            pe + 1,
        )
    } else {
        hi[i - 1] += 1;
        (String::from_utf8(hi).expect("digits"), pe)
    };
    let hi = hi.trim_end_matches('0').to_owned();
    candidate(x, hi, he).unwrap_or((digits, e))
}

/// The digits, if they read back as `x`.
fn candidate(x: f64, digits: String, e: i32) -> Option<(String, i32)> {
    let text = format!("{}.{}e{e}", &digits[..1], &digits[1..]);
    (text.parse::<f64>() == Ok(x)).then_some((digits, e))
}
