//! The output spill policy (spill.md).

use serde_json::{json, Value};

use crate::js::template;
use crate::retention::head_tail_preview;

fn notice(omitted: usize, locator: &str, hint: &str) -> String {
    format!("(Omitted {omitted} bytes. Full formatted result stored at: {locator}. {hint})")
}

/// The spill.preview op.
pub fn spill_preview(input: &Value) -> Result<Value, String> {
    let cap = match input.get("maxInlineBytes") {
        None => return Ok(json!({"content": null, "save": null})), // SPILL-CFG-1: policy off
        Some(Value::Number(n)) => {
            let x = n.as_f64().unwrap_or(f64::NAN);
            if !(x.is_finite() && x.fract() == 0.0 && x >= 0.0) {
                return Err(format!(
                    "spill-policy: maxInlineBytes must be a non-negative integer (got {x})"
                ));
            }
            x as usize
        }
        Some(Value::Null) => {
            return Err(
                "spill-policy: maxInlineBytes must be a non-negative integer (got null)"
                    .to_string(),
            )
        }
        Some(other) => {
            let got = template(Some(other));
            return Err(format!(
                "invalid config:\n  - $.maxInlineBytes expected number but got {got} (at maxInlineBytes)"
            ));
        }
    };
    let tool = input
        .get("toolName")
        .and_then(Value::as_str)
        .unwrap_or("tool");
    let arm = input.get("arm").and_then(Value::as_str).unwrap_or("result");
    let not_applicable = json!({"content": null, "save": null});
    if arm == "result" && tool == "read" {
        return Ok(not_applicable);
    }
    let text = if let Some(blocks) = input.get("blocks").and_then(Value::as_array) {
        if blocks.iter().any(|b| b["type"] != "text") {
            return Ok(not_applicable);
        }
        blocks
            .iter()
            .map(|b| b["text"].as_str().unwrap_or(""))
            .collect::<String>()
    } else {
        input
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let total = text.len();
    if total <= cap {
        return Ok(not_applicable);
    }
    let save = json!({"label": arm, "suggestedName": format!("{tool}.txt"), "text": text});
    let Some(reference) = input.get("ref").and_then(Value::as_object) else {
        return Ok(json!({"content": null, "save": save})); // the save failed: keep the original
    };
    let locator = reference
        .get("locator")
        .and_then(Value::as_str)
        .unwrap_or("");
    let hint = reference
        .get("retrievalHint")
        .and_then(Value::as_str)
        .unwrap_or("");
    let reserve = notice(total, locator, hint).len() + 2;
    let budget = cap.saturating_sub(reserve);
    let (preview, omitted) = head_tail_preview(&text, budget.div_ceil(2), budget / 2);
    let note = notice(omitted, locator, hint);
    let replacement = if preview.is_empty() {
        note
    } else {
        format!("{preview}\n\n{note}")
    };
    if replacement.len() > cap {
        return Ok(json!({"content": null, "save": save})); // SPILL-CAP-1
    }
    Ok(json!({"content": replacement, "save": save}))
}
