//! Small JavaScript-isms the TypeScript original relies on.

use serde_json::Value;

/// What a template literal prints for a value (`${v}`); `None` is `undefined`.
pub fn template(v: Option<&Value>) -> String {
    match v {
        None => "undefined".to_string(),
        Some(Value::Null) => "null".to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| match i {
                Value::Null => String::new(),
                other => template(Some(other)),
            })
            .collect::<Vec<_>>()
            .join(","),
        Some(Value::Object(_)) => "[object Object]".to_string(),
    }
}

/// JavaScript truthiness.
pub fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|x| x != 0.0 && !x.is_nan()),
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

/// `Number.isInteger(v) && v >= min`.
pub fn integer_at_least(v: &Value, min: f64) -> Option<f64> {
    let x = v.as_f64()?;
    (x.is_finite() && x.fract() == 0.0 && x >= min).then_some(x)
}

/// A string that is empty after trimming whitespace.
pub fn blank(s: &str) -> bool {
    s.trim().is_empty()
}
