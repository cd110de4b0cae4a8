//! The JSON value type: what `JSON.parse` gives a JavaScript program.
//!
//! Nothing here recurses: cloning, comparing, dropping and formatting a value
//! 100,000 levels deep walk an explicit stack (CODE-JSON-3).

use std::fmt;
use std::ops::{Deref, DerefMut};

use super::string::JsString;

/// A JSON number: the IEEE double `JSON.parse` reads, and the lexeme it was
/// read from when it came from JSON text (`1e2`, `-0`, `9007199254740993`).
#[derive(Clone, Debug)]
pub struct Number {
    value: f64,
    lexeme: Option<Box<str>>,
}

impl Number {
    /// A number read from `lexeme`, which the parser has checked against the
    /// JSON grammar. Rust's `f64` parsing rounds correctly, as `JSON.parse`
    /// does; `1e400` is Infinity.
    pub(crate) fn from_lexeme(lexeme: &str) -> Number {
        Number {
            value: lexeme.parse().unwrap_or(f64::NAN),
            lexeme: Some(lexeme.into()),
        }
    }

    /// The double, as JavaScript holds it.
    pub fn as_f64(&self) -> f64 {
        self.value
    }

    /// The text it was parsed from; `None` for a number made in Rust.
    pub fn lexeme(&self) -> Option<&str> {
        self.lexeme.as_deref()
    }

    /// The value as an `i64` when it is an integer in the exactly
    /// representable range (|n| <= 2^53); -0 gives 0.
    pub fn as_i64(&self) -> Option<i64> {
        let v = self.value;
        if v.fract() == 0.0 && v.abs() <= 9_007_199_254_740_992.0 {
            Some(v as i64)
        } else {
            None
        }
    }
}

impl From<f64> for Number {
    fn from(value: f64) -> Number {
        Number {
            value,
            lexeme: None,
        }
    }
}

/// Numbers are equal when their doubles are (`1` equals `1.0`, `-0` equals `0`).
impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.value == other.value
    }
}

/// A JSON value as `JSON.parse` builds it.
///
/// Objects keep JavaScript's own-property order (see [`Object`]); strings keep
/// lone surrogates (see [`JsString`]); numbers keep their lexeme.
#[derive(Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(JsString),
    Array(Array),
    Object(Object),
}

/// A JSON array: a `Vec<Value>` (through `Deref`) whose drop does not recurse.
#[derive(Default)]
pub struct Array(Vec<Value>);

/// A JSON object in ECMAScript own-property order: members whose name is an
/// array index (`"0"` … `"4294967294"`, canonical digits) first, ascending,
/// then the others in insertion order. Setting a name that is present
/// replaces its value in place (`JSON.parse`: the last value wins, at the
/// first member's position).
#[derive(Default)]
pub struct Object {
    members: Vec<(JsString, Value)>,
    // How many leading members have array-index names.
    indexed: usize,
}

impl Array {
    /// An empty array.
    pub fn new() -> Array {
        Array(Vec::new())
    }

    /// The elements, moved out.
    pub fn into_vec(mut self) -> Vec<Value> {
        std::mem::take(&mut self.0)
    }
}

impl From<Vec<Value>> for Array {
    fn from(v: Vec<Value>) -> Array {
        Array(v)
    }
}

impl Deref for Array {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl DerefMut for Array {
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        &mut self.0
    }
}

impl FromIterator<Value> for Array {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Array {
        Array(iter.into_iter().collect())
    }
}

/// The array index a property name denotes, if it is one: canonical decimal
/// digits below 2^32 - 1.
pub(crate) fn array_index(name: &JsString) -> Option<u32> {
    let b = name.as_wtf8();
    if b.is_empty() || b.len() > 10 || (b.len() > 1 && b[0] == b'0') {
        return None;
    }
    let mut n: u64 = 0;
    for &c in b {
        if !c.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u64::from(c - b'0');
    }
    if n < 4_294_967_295 {
        Some(n as u32)
    } else {
        None
    }
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object::default()
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether there is no member.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The value of member `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.position(name.as_bytes()).map(|i| &self.members[i].1)
    }

    /// The value of member `name`, any string (lone surrogates included).
    pub fn get_key(&self, name: &JsString) -> Option<&Value> {
        self.position(name.as_wtf8()).map(|i| &self.members[i].1)
    }

    /// The value of member `name`, mutably.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.position(name.as_bytes())
            .map(move |i| &mut self.members[i].1)
    }

    /// Whether member `name` is present.
    pub fn contains_key(&self, name: &str) -> bool {
        self.position(name.as_bytes()).is_some()
    }

    pub(crate) fn position(&self, name: &[u8]) -> Option<usize> {
        self.members.iter().position(|(k, _)| k.as_wtf8() == name)
    }

    /// Sets member `name` as a JavaScript assignment does: a present member
    /// keeps its position and gets the new value; a new one goes where
    /// own-property order puts it. Returns the old value.
    pub fn insert(&mut self, name: impl Into<JsString>, value: Value) -> Option<Value> {
        let name = name.into();
        match self.position(name.as_wtf8()) {
            Some(i) => Some(std::mem::replace(&mut self.members[i].1, value)),
            None => {
                self.push_new(name, value);
                None
            }
        }
    }

    /// Adds a member known to be absent.
    pub(crate) fn push_new(&mut self, name: JsString, value: Value) {
        match array_index(&name) {
            Some(n) => {
                let at = self.members[..self.indexed]
                    .partition_point(|(k, _)| array_index(k).is_some_and(|m| m < n));
                self.members.insert(at, (name, value));
                self.indexed += 1;
            }
            None => self.members.push((name, value)),
        }
    }

    /// Replaces the value of the member at `i` (the parser's duplicate key).
    pub(crate) fn set_at(&mut self, i: usize, value: Value) {
        self.members[i].1 = value;
    }

    /// Removes member `name` and returns its value.
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        let i = self.position(name.as_bytes())?;
        if i < self.indexed {
            self.indexed -= 1;
        }
        Some(self.members.remove(i).1)
    }

    /// The members in own-property order.
    pub fn iter(&self) -> std::slice::Iter<'_, (JsString, Value)> {
        self.members.iter()
    }

    /// The members in own-property order, values mutable.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&JsString, &mut Value)> {
        self.members.iter_mut().map(|(k, v)| (&*k, v))
    }

    /// The member names in own-property order.
    pub fn keys(&self) -> impl Iterator<Item = &JsString> {
        self.members.iter().map(|(k, _)| k)
    }

    /// The members, moved out, in own-property order.
    pub fn into_members(mut self) -> Vec<(JsString, Value)> {
        self.indexed = 0;
        std::mem::take(&mut self.members)
    }
}

impl<'a> IntoIterator for &'a Object {
    type Item = &'a (JsString, Value);
    type IntoIter = std::slice::Iter<'a, (JsString, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.members.iter()
    }
}

impl<K: Into<JsString>> FromIterator<(K, Value)> for Object {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Object {
        let mut o = Object::new();
        for (k, v) in iter {
            o.insert(k, v);
        }
        o
    }
}

// ---- iterative Drop ----

/// Moves the children of a container value onto `stack`, leaving it empty.
fn take_children(v: &mut Value, stack: &mut Vec<Value>) {
    match v {
        Value::Array(a) => stack.append(&mut a.0),
        Value::Object(o) => {
            o.indexed = 0;
            stack.extend(o.members.drain(..).map(|(_, v)| v));
        }
        _ => {}
    }
}

fn is_container(v: &Value) -> bool {
    match v {
        Value::Array(a) => !a.0.is_empty(),
        Value::Object(o) => !o.members.is_empty(),
        _ => false,
    }
}

fn drop_flat(children: Vec<Value>) {
    let mut stack = children;
    while let Some(mut v) = stack.pop() {
        if is_container(&v) {
            take_children(&mut v, &mut stack);
        }
        // v is now a leaf or an empty container: its drop does not recurse.
    }
}

impl Drop for Array {
    fn drop(&mut self) {
        if self.0.iter().any(is_container) {
            drop_flat(std::mem::take(&mut self.0));
        }
    }
}

impl Drop for Object {
    fn drop(&mut self) {
        if self.members.iter().any(|(_, v)| is_container(v)) {
            self.indexed = 0;
            drop_flat(self.members.drain(..).map(|(_, v)| v).collect());
        }
    }
}

// ---- iterative Clone ----

enum Build {
    Array(Vec<Value>),
    Object(Object, Vec<JsString>),
}

fn leaf_clone(v: &Value) -> Option<Value> {
    match v {
        Value::Null => Some(Value::Null),
        Value::Bool(b) => Some(Value::Bool(*b)),
        Value::Number(n) => Some(Value::Number(n.clone())),
        Value::String(s) => Some(Value::String(s.clone())),
        _ => None,
    }
}

/// The children of a container, in order, with their names for an object.
enum Children<'a> {
    Array(std::slice::Iter<'a, Value>),
    Object(std::slice::Iter<'a, (JsString, Value)>),
}

impl Clone for Value {
    fn clone(&self) -> Value {
        if let Some(v) = leaf_clone(self) {
            return v;
        }
        let mut stack = vec![open(self)];
        loop {
            let (children, _) = stack.last_mut().expect("stack holds the root");
            let next = match children {
                Children::Array(it) => it.next().map(|v| (None, v)),
                Children::Object(it) => it.next().map(|(k, v)| (Some(k), v)),
            };
            match next {
                Some((name, child)) => {
                    if let (Some(k), (_, Build::Object(_, names))) =
                        (name, stack.last_mut().expect("nonempty"))
                    {
                        names.push(k.clone());
                    }
                    match leaf_clone(child) {
                        Some(v) => add_child(stack.last_mut().expect("nonempty"), v),
                        None => stack.push(open(child)),
                    }
                }
                None => {
                    let (_, built) = stack.pop().expect("nonempty");
                    let v = match built {
                        Build::Array(items) => Value::Array(Array(items)),
                        Build::Object(o, _) => Value::Object(o),
                    };
                    match stack.last_mut() {
                        Some(parent) => add_child(parent, v),
                        None => return v,
                    }
                }
            }
        }
    }
}

fn open(v: &Value) -> (Children<'_>, Build) {
    match v {
        Value::Array(a) => (
            Children::Array(a.0.iter()),
            Build::Array(Vec::with_capacity(a.0.len())),
        ),
        Value::Object(o) => (
            Children::Object(o.members.iter()),
            Build::Object(
                Object {
                    members: Vec::with_capacity(o.members.len()),
                    indexed: o.indexed,
                },
                Vec::new(),
            ),
        ),
        _ => unreachable!("only containers are opened"),
    }
}

fn add_child(frame: &mut (Children<'_>, Build), v: Value) {
    match &mut frame.1 {
        Build::Array(items) => items.push(v),
        Build::Object(o, names) => {
            // The source is already in own-property order: keep it.
            let k = names.pop().expect("a name per member");
            o.members.push((k, v));
        }
    }
}

impl Clone for Array {
    fn clone(&self) -> Array {
        Array(self.0.iter().map(Value::clone).collect())
    }
}

impl Clone for Object {
    fn clone(&self) -> Object {
        Object {
            members: self
                .members
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            indexed: self.indexed,
        }
    }
}

// ---- iterative equality ----

/// Equality as a JavaScript program observes it: the same types, numbers
/// equal as doubles, strings equal code unit for code unit, arrays element by
/// element, objects with the same members in the same order.
impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        let mut stack: Vec<(&Value, &Value)> = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            match (a, b) {
                (Value::Null, Value::Null) => {}
                (Value::Bool(x), Value::Bool(y)) if x == y => {}
                (Value::Number(x), Value::Number(y)) if x == y => {}
                (Value::String(x), Value::String(y)) if x == y => {}
                (Value::Array(x), Value::Array(y)) if x.0.len() == y.0.len() => {
                    stack.extend(x.0.iter().zip(y.0.iter()));
                }
                (Value::Object(x), Value::Object(y)) if x.members.len() == y.members.len() => {
                    for ((kx, vx), (ky, vy)) in x.members.iter().zip(y.members.iter()) {
                        if kx != ky {
                            return false;
                        }
                        stack.push((vx, vy));
                    }
                }
                _ => return false,
            }
        }
        true
    }
}

impl PartialEq for Array {
    fn eq(&self, other: &Array) -> bool {
        self.0.len() == other.0.len() && self.0.iter().zip(other.0.iter()).all(|(a, b)| a == b)
    }
}

impl PartialEq for Object {
    fn eq(&self, other: &Object) -> bool {
        self.members.len() == other.members.len()
            && self
                .members
                .iter()
                .zip(other.members.iter())
                .all(|((ka, va), (kb, vb))| ka == kb && va == vb)
    }
}

// ---- accessors and conversions ----

impl Value {
    /// The member `name` of an object; `None` for anything else.
    pub fn get(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Object(o) => o.get(name),
            _ => None,
        }
    }

    /// The string, if it is one without lone surrogates.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => s.as_str(),
            _ => None,
        }
    }

    /// The string, if it is one (lone surrogates included).
    pub fn as_js_string(&self) -> Option<&JsString> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The double, if it is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(n.as_f64()),
            _ => None,
        }
    }

    /// The number, if it is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The boolean, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The elements, if it is an array.
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members, if it is an object.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// Whether it is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The compact text `JSON.stringify` writes for it.
    pub fn to_json(&self) -> String {
        super::write::to_json(self)
    }

    /// The text with number lexemes kept (see [`super::to_json_lossless`]).
    pub fn to_json_lossless(&self) -> String {
        super::write::to_json_lossless(self)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<f64> for Value {
    fn from(n: f64) -> Value {
        Value::Number(Number::from(n))
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            /// As a double: JavaScript has no other number.
            fn from(n: $t) -> Value {
                Value::Number(Number::from(n as f64))
            }
        }
    )*};
}
from_int!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(JsString::from(s))
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(JsString::from(s))
    }
}

impl From<JsString> for Value {
    fn from(s: JsString) -> Value {
        Value::String(s)
    }
}

impl From<Array> for Value {
    fn from(a: Array) -> Value {
        Value::Array(a)
    }
}

impl From<Vec<Value>> for Value {
    fn from(v: Vec<Value>) -> Value {
        Value::Array(Array(v))
    }
}

impl From<Object> for Value {
    fn from(o: Object) -> Value {
        Value::Object(o)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    /// `None` is `null`.
    fn from(o: Option<T>) -> Value {
        o.map_or(Value::Null, Into::into)
    }
}

/// The `JSON.stringify` text (iterative, like everything here).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl fmt::Debug for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        super::write::write_array(&mut s, self);
        f.write_str(&s)
    }
}

impl fmt::Debug for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        super::write::write_object(&mut s, self);
        f.write_str(&s)
    }
}

/// Builds an object from `name => value` pairs, in order:
/// `object! { "kind" => "exact", "count" => 3 }`.
#[macro_export]
macro_rules! object {
    () => { $crate::json::Object::new() };
    ($($k:expr => $v:expr),+ $(,)?) => {{
        let mut o = $crate::json::Object::new();
        $( o.insert($k, $crate::json::Value::from($v)); )+
        o
    }};
}
