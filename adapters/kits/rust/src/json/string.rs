//! JavaScript strings: sequences of UTF-16 code units, lone surrogates allowed.

use std::fmt;

/// A JavaScript string, which may hold lone surrogates (`"\ud800"`), unlike
/// Rust's `str`. It is stored as WTF-8: UTF-8, with a lone surrogate encoded
/// as the three bytes UTF-8 would give its code point (a pair is always one
/// four-byte code point). Without lone surrogates the bytes are plain UTF-8
/// and [`JsString::as_str`] borrows them.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JsString {
    wtf8: Vec<u8>,
}

/// Whether a WTF-8 sequence starting at `b[i]` is a lone surrogate.
fn surrogate_at(b: &[u8], i: usize) -> Option<u16> {
    if b[i] == 0xED && i + 2 < b.len() && b[i + 1] >= 0xA0 {
        Some(0xD000 | (u16::from(b[i + 1] & 0x3F) << 6) | u16::from(b[i + 2] & 0x3F))
    } else {
        None
    }
}

impl JsString {
    /// An empty string.
    pub fn new() -> JsString {
        JsString::default()
    }

    /// The string from UTF-16 code units; lone surrogates are kept.
    pub fn from_utf16(units: &[u16]) -> JsString {
        let mut s = JsString::new();
        s.push_utf16(units);
        s
    }

    /// Appends UTF-16 code units. A low surrogate that follows a lone high
    /// surrogate at the end of the string joins it into one code point, as
    /// concatenation does in JavaScript.
    pub fn push_utf16(&mut self, units: &[u16]) {
        for &u in units {
            self.push_unit(u);
        }
    }

    /// Appends one UTF-16 code unit (see [`JsString::push_utf16`]).
    pub fn push_unit(&mut self, u: u16) {
        if (0xDC00..0xE000).contains(&u) {
            if let Some(hi) = self.trailing_high() {
                self.wtf8.truncate(self.wtf8.len() - 3);
                let c = 0x10000 + ((u32::from(hi) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                self.push_char(char::from_u32(c).expect("a pair is a scalar value"));
                return;
            }
        }
        match char::from_u32(u32::from(u)) {
            Some(c) => self.push_char(c),
            None => {
                // A surrogate: the generalized UTF-8 of its code point.
                self.wtf8.push(0xED);
                self.wtf8.push(0x80 | ((u >> 6) & 0x3F) as u8);
                self.wtf8.push(0x80 | (u & 0x3F) as u8);
            }
        }
    }

    fn trailing_high(&self) -> Option<u16> {
        let n = self.wtf8.len();
        if n >= 3 {
            let u = surrogate_at(&self.wtf8, n - 3)?;
            if u < 0xDC00 {
                return Some(u);
            }
        }
        None
    }

    /// Appends a character.
    pub fn push_char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.wtf8
            .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }

    /// Appends a string (a pair split between the two is joined).
    pub fn push_js_str(&mut self, other: &JsString) {
        if other.wtf8.len() >= 3 && self.trailing_high().is_some() {
            if let Some(lo) = surrogate_at(&other.wtf8, 0) {
                self.push_unit(lo);
                self.wtf8.extend_from_slice(&other.wtf8[3..]);
                return;
            }
        }
        self.wtf8.extend_from_slice(&other.wtf8);
    }

    /// Appends a Rust string.
    pub fn push_str(&mut self, s: &str) {
        self.wtf8.extend_from_slice(s.as_bytes());
    }

    /// The string as `&str` when it holds no lone surrogate.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.wtf8).ok()
    }

    /// The string with each lone surrogate replaced by U+FFFD, as a
    /// JavaScript host's UTF-8 encoder (`TextEncoder`, `Buffer.from`) does.
    pub fn to_string_lossy(&self) -> String {
        match self.as_str() {
            Some(s) => s.to_owned(),
            None => self.chunks().fold(String::new(), |mut acc, c| {
                match c {
                    Chunk::Str(s) => acc.push_str(s),
                    Chunk::Lone(_) => acc.push('\u{FFFD}'),
                }
                acc
            }),
        }
    }

    /// The UTF-16 code units, as JavaScript holds them.
    pub fn to_utf16(&self) -> Vec<u16> {
        let mut out = Vec::with_capacity(self.wtf8.len());
        for c in self.chunks() {
            match c {
                Chunk::Str(s) => out.extend(s.encode_utf16()),
                Chunk::Lone(u) => out.push(u),
            }
        }
        out
    }

    /// The length in UTF-16 code units (JavaScript's `length`).
    pub fn len_utf16(&self) -> usize {
        self.chunks()
            .map(|c| match c {
                Chunk::Str(s) => s.chars().map(char::len_utf16).sum(),
                Chunk::Lone(_) => 1,
            })
            .sum()
    }

    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        self.wtf8.is_empty()
    }

    /// Whether it holds a lone surrogate.
    pub fn has_lone_surrogate(&self) -> bool {
        self.as_str().is_none()
    }

    /// The WTF-8 bytes (plain UTF-8 without lone surrogates).
    pub fn as_wtf8(&self) -> &[u8] {
        &self.wtf8
    }

    /// The string as runs of valid UTF-8 and lone surrogates, in order.
    pub fn chunks(&self) -> Chunks<'_> {
        Chunks { rest: &self.wtf8 }
    }
}

/// A piece of a [`JsString`]: a run of well-formed text, or one lone surrogate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chunk<'a> {
    Str(&'a str),
    Lone(u16),
}

/// The iterator of [`JsString::chunks`].
pub struct Chunks<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Chunk<'a>;
    fn next(&mut self) -> Option<Chunk<'a>> {
        if self.rest.is_empty() {
            return None;
        }
        if let Some(u) = surrogate_at(self.rest, 0) {
            self.rest = &self.rest[3..];
            return Some(Chunk::Lone(u));
        }
        let end = match std::str::from_utf8(self.rest) {
            Ok(_) => self.rest.len(),
            Err(e) => e.valid_up_to(),
        };
        let (s, rest) = self.rest.split_at(end);
        self.rest = rest;
        Some(Chunk::Str(
            std::str::from_utf8(s).expect("valid up to the first surrogate"),
        ))
    }
}

impl From<&str> for JsString {
    fn from(s: &str) -> JsString {
        JsString {
            wtf8: s.as_bytes().to_vec(),
        }
    }
}

impl From<String> for JsString {
    fn from(s: String) -> JsString {
        JsString {
            wtf8: s.into_bytes(),
        }
    }
}

impl From<&String> for JsString {
    fn from(s: &String) -> JsString {
        JsString::from(s.as_str())
    }
}

impl From<&JsString> for JsString {
    fn from(s: &JsString) -> JsString {
        s.clone()
    }
}

impl PartialEq<str> for JsString {
    fn eq(&self, other: &str) -> bool {
        self.wtf8 == other.as_bytes()
    }
}

impl PartialEq<&str> for JsString {
    fn eq(&self, other: &&str) -> bool {
        self.wtf8 == other.as_bytes()
    }
}

/// Lossy (U+FFFD for a lone surrogate).
impl fmt::Display for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.chunks() {
            match c {
                Chunk::Str(s) => f.write_str(s)?,
                Chunk::Lone(_) => f.write_str("\u{FFFD}")?,
            }
        }
        Ok(())
    }
}

/// As a JSON string literal, lone surrogates escaped.
impl fmt::Debug for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        super::write::write_string(&mut s, self);
        f.write_str(&s)
    }
}
