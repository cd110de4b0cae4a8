//! run_code: render text, capped pretty JSON, failures, presenters
//! (code-mode.md).

use serde_json::{json, Value};

use crate::js::{blank, template, truthy};

const NO_OUTPUT: &str = "(run_code completed with no output)";

fn schema_violations(args: &Value) -> Vec<String> {
    let Some(obj) = args.as_object() else {
        return vec!["\"arguments\" must be an object".to_string()];
    };
    let mut v = Vec::new();
    for name in ["code", "description"] {
        if !obj.contains_key(name) {
            v.push(format!("missing required property \"{name}\""));
        }
    }
    for name in ["code", "description"] {
        if obj.get(name).is_some_and(|x| !x.is_string()) {
            v.push(format!("\"{name}\" must be a string"));
        }
    }
    v
}

fn indent(depth: usize) -> String {
    "  ".repeat(depth)
}

/// CODE-JSON-2: pretty up to depth 4, compact from depth 5.
fn pretty(v: &Value, depth: usize) -> String {
    match v {
        Value::Array(items) if !items.is_empty() && depth <= 4 => {
            let inner: Vec<String> = items
                .iter()
                .map(|i| format!("{}{}", indent(depth + 1), pretty(i, depth + 1)))
                .collect();
            format!("[\n{}\n{}]", inner.join(",\n"), indent(depth))
        }
        Value::Object(map) if !map.is_empty() && depth <= 4 => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    let key = serde_json::to_string(k).unwrap_or_default();
                    format!("{}{key}: {}", indent(depth + 1), pretty(v, depth + 1))
                })
                .collect();
            format!("{{\n{}\n{}}}", inner.join(",\n"), indent(depth))
        }
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// renderValue (CODE-JSON-1/2).
fn render_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => pretty(other, 0),
    }
}

fn is_lossless(v: &Value) -> bool {
    match v {
        Value::Number(n) => n
            .as_f64()
            .is_some_and(|x| x.is_finite() && !(x == 0.0 && x.is_sign_negative())),
        Value::Array(a) => a.iter().all(is_lossless),
        Value::Object(o) => o.values().all(is_lossless),
        _ => true,
    }
}

fn result(is_error: bool, content: String, error: Value, call_view: Value) -> Value {
    json!({
        "isError": is_error,
        "content": content,
        "error": error,
        "meta": null,
        "view": null,
        "callView": call_view,
    })
}

fn logs_of(run: &Value) -> Option<Vec<String>> {
    run.get("logs")?
        .as_array()?
        .iter()
        .map(|l| l.as_str().map(str::to_string))
        .collect()
}

/// The run_code.result op.
pub fn run_code_result(input: &Value) -> Result<Value, String> {
    let args = input.get("args").cloned().unwrap_or(Value::Null);
    let violations = schema_violations(&args);
    if !violations.is_empty() {
        let message = format!("Error: invalid arguments: {}", violations.join("; "));
        let error = json!({"name": "ToolArgsError", "code": "INVALID_ARGS"});
        return Ok(result(true, message, error, Value::Null));
    }
    let code = args["code"].as_str().unwrap_or("");
    let description = args["description"].as_str().unwrap_or("");
    let call_view =
        json!({"card": "generic", "title": description, "kind": "execute", "rawInput": code});
    if blank(description) {
        let message = "Error: invalid description: expected a non-empty string".to_string();
        return Ok(result(true, message, Value::Null, call_view));
    }
    let run = input.get("run").cloned().unwrap_or(Value::Null);
    let error = run.get("error");
    if truthy(error) {
        let logs =
            logs_of(&run).ok_or("run_code.result input: $.run.logs: want an array of strings")?;
        let error = error.unwrap_or(&Value::Null);
        let mut text = format!(
            "Error: code run failed ({}): {}",
            template(error.get("kind")),
            template(error.get("message"))
        );
        if !logs.is_empty() {
            text.push_str("\nCaptured output:\n");
            text.push_str(&logs.join("\n"));
        }
        let info = json!({"name": "CodeRunFailedError", "code": "CODE_RUN_FAILED"});
        return Ok(result(true, text, info, call_view));
    }
    let invalid = |detail: String| {
        let text = format!("Error: tool \"run_code\" returned invalid output: {detail}");
        let info = json!({"name": "ToolOutputError", "code": "INVALID_TOOL_OUTPUT"});
        result(true, text, info, call_view.clone())
    };
    let Some(raw_logs) = run.get("logs").and_then(Value::as_array) else {
        return Ok(invalid("value is not lossless JSON".to_string()));
    };
    if !is_lossless(&run) {
        return Ok(invalid("value is not lossless JSON".to_string()));
    }
    if let Some(i) = raw_logs.iter().position(|l| !l.is_string()) {
        return Ok(invalid(format!("\"value.logs[{i}]\" must be a string")));
    }
    let logs: Vec<&str> = raw_logs.iter().filter_map(Value::as_str).collect();
    let logs_part = logs.join("\n");
    let result_part = run.get("result").map(render_value).unwrap_or_default();
    let parts: Vec<&str> = [logs_part.as_str(), result_part.as_str()]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect();
    let text = if parts.is_empty() {
        NO_OUTPUT.to_string()
    } else {
        parts.join("\n")
    };
    Ok(result(false, text, Value::Null, call_view))
}
