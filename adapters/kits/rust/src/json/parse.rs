//! `JSON.parse` over UTF-8 text, with an explicit stack (no depth limit).

use std::collections::HashMap;
use std::fmt;

use super::string::JsString;
use super::value::{array_index, Array, Number, Object, Value};

/// Why a text is not JSON, and where (a byte offset into the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset of the first byte that does not fit.
    pub offset: usize,
    /// What was expected there.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)
    }
}

impl std::error::Error for ParseError {}

/// Parses `text` as `JSON.parse` does: whitespace is space, tab, LF and CR;
/// string escapes may leave lone surrogates; numbers keep their lexeme; a
/// repeated member name keeps the first member's position and the last value.
pub fn parse(text: &str) -> Result<Value, ParseError> {
    Parser {
        b: text.as_bytes(),
        i: 0,
    }
    .run()
}

/// An open container on the parser's stack.
enum Frame {
    Array(Vec<Value>),
    // The object, the name whose value is being read, and (for large
    // objects) an index of member names to find duplicates fast.
    Object(Object, JsString, Option<HashMap<Vec<u8>, usize>>),
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

const INDEX_FROM: usize = 16;

impl Parser<'_> {
    fn err<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            offset: self.i,
            message: message.into(),
        })
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn run(mut self) -> Result<Value, ParseError> {
        let mut stack: Vec<Frame> = Vec::new();
        'value: loop {
            // Read one value; containers push a frame and read their first child.
            self.space();
            let mut v = match self.peek() {
                Some(b'[') => {
                    self.i += 1;
                    self.space();
                    if self.peek() == Some(b']') {
                        self.i += 1;
                        Value::Array(Array::new())
                    } else {
                        stack.push(Frame::Array(Vec::new()));
                        continue 'value;
                    }
                }
                Some(b'{') => {
                    self.i += 1;
                    self.space();
                    if self.peek() == Some(b'}') {
                        self.i += 1;
                        Value::Object(Object::new())
                    } else {
                        let name = self.member_name()?;
                        stack.push(Frame::Object(Object::new(), name, None));
                        continue 'value;
                    }
                }
                Some(b'"') => Value::String(self.string()?),
                Some(b't') => self.word("true", Value::Bool(true))?,
                Some(b'f') => self.word("false", Value::Bool(false))?,
                Some(b'n') => self.word("null", Value::Null)?,
                Some(b'-' | b'0'..=b'9') => Value::Number(self.number()?),
                Some(_) => return self.err("unexpected character, want a JSON value"),
                None => return self.err("unexpected end of text, want a JSON value"),
            };
            // Hand the value to its container; close what ends here.
            loop {
                match stack.last_mut() {
                    None => {
                        self.space();
                        if self.i != self.b.len() {
                            return self.err("unexpected text after the JSON value");
                        }
                        return Ok(v);
                    }
                    Some(Frame::Array(items)) => {
                        items.push(v);
                        self.space();
                        match self.peek() {
                            Some(b',') => {
                                self.i += 1;
                                continue 'value;
                            }
                            Some(b']') => {
                                self.i += 1;
                                let Some(Frame::Array(items)) = stack.pop() else {
                                    unreachable!()
                                };
                                v = Value::Array(Array::from(items));
                            }
                            _ => return self.err("want ',' or ']' in an array"),
                        }
                    }
                    Some(Frame::Object(o, name, index)) => {
                        let name = std::mem::take(name);
                        add_member(o, index, name, v);
                        self.space();
                        match self.peek() {
                            Some(b',') => {
                                self.i += 1;
                                self.space();
                                let next = self.member_name()?;
                                if let Some(Frame::Object(_, name, _)) = stack.last_mut() {
                                    *name = next;
                                }
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.i += 1;
                                let Some(Frame::Object(o, _, _)) = stack.pop() else {
                                    unreachable!()
                                };
                                v = Value::Object(o);
                            }
                            _ => return self.err("want ',' or '}' in an object"),
                        }
                    }
                }
            }
        }
    }

    /// A member name and its colon.
    fn member_name(&mut self) -> Result<JsString, ParseError> {
        if self.peek() != Some(b'"') {
            return self.err("want a member name string");
        }
        let name = self.string()?;
        self.space();
        if self.peek() != Some(b':') {
            return self.err("want ':' after a member name");
        }
        self.i += 1;
        Ok(name)
    }

    fn word(&mut self, w: &str, v: Value) -> Result<Value, ParseError> {
        if self.b[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            self.err(format!("want {w}"))
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Result<Number, ParseError> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.err("want a digit in a number"),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return self.err("want a digit after the decimal point");
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if self.digits() == 0 {
                return self.err("want a digit in the exponent");
            }
        }
        let lexeme = std::str::from_utf8(&self.b[start..self.i]).expect("ASCII");
        Ok(Number::from_lexeme(lexeme))
    }

    fn hex4(&mut self) -> Result<u16, ParseError> {
        let mut u = 0u16;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return self.err("want 4 hex digits after \\u"),
            };
            u = u << 4 | u16::from(d);
            self.i += 1;
        }
        Ok(u)
    }

    fn string(&mut self) -> Result<JsString, ParseError> {
        self.i += 1; // the opening quote
        let mut s = JsString::new();
        loop {
            let start = self.i;
            while let Some(&c) = self.b.get(self.i) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            if self.i > start {
                // The text is UTF-8 and the run ends at an ASCII byte.
                s.push_str(std::str::from_utf8(&self.b[start..self.i]).expect("UTF-8 input"));
            }
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(s);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.i += 1;
                            let u = self.hex4()?;
                            s.push_unit(u); // a pair joins; a lone surrogate stays
                            continue;
                        }
                        _ => return self.err("invalid escape in a string"),
                    };
                    self.i += 1;
                    s.push_char(c);
                }
                Some(_) => return self.err("control character in a string"),
                None => return self.err("unterminated string"),
            }
        }
    }
}

fn add_member(
    o: &mut Object,
    index: &mut Option<HashMap<Vec<u8>, usize>>,
    name: JsString,
    v: Value,
) {
    let found = match index {
        Some(ix) => ix.get(name.as_wtf8()).copied(),
        None => o.position(name.as_wtf8()),
    };
    match found {
        Some(i) => o.set_at(i, v), // JSON.parse: the last value, at the first position
        None => {
            let indexed = array_index(&name).is_some();
            let key = index.as_ref().map(|_| name.as_wtf8().to_vec());
            o.push_new(name, v);
            // An array-index name goes before others and shifts their
            // positions: rebuild the index then (rare); else extend it.
            if let (Some(ix), Some(key), false) = (index.as_mut(), key, indexed) {
                ix.insert(key, o.len() - 1);
            } else if o.len() >= INDEX_FROM {
                let ix: HashMap<Vec<u8>, usize> = o
                    .keys()
                    .enumerate()
                    .map(|(i, k)| (k.as_wtf8().to_vec(), i))
                    .collect();
                *index = Some(ix);
            }
        }
    }
}
