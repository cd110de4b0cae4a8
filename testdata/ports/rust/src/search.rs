//! grep and glob: render text, meta, byte cap, narrowing, presenters
//! (search-card.md).

use serde_json::{json, Map, Value};

use crate::js::{blank, integer_at_least, template};
use crate::retention::{head_preview, ItemRetainer};

const NOT_SAVED_GREP: &str =
    "The complete result could not be saved; narrow pattern, path, or include to see more.";
const NOT_SAVED_GLOB: &str =
    "The complete result could not be saved; narrow pattern or path to see more.";

// ---- configuration (SEARCH-CFG-*) ----

enum Setting<'a> {
    Number(&'a str, &'a str, usize), // input key, config name, default
}

fn invalid_config(name: &str, problem: String) -> String {
    format!("invalid config:\n  - $.{name} {problem} (at {name})")
}

fn numbers(config: &Value, settings: &[Setting]) -> Result<Vec<usize>, String> {
    // Schema first (types), then the range checks.
    for Setting::Number(key, name, _) in settings {
        match config.get(*key) {
            None | Some(Value::Null) | Some(Value::Number(_)) => {}
            Some(other) => {
                let got = template(Some(other));
                return Err(invalid_config(
                    name,
                    format!("expected number but got {got}"),
                ));
            }
        }
    }
    let mut out = Vec::new();
    for Setting::Number(key, name, default) in settings {
        let v = match config.get(*key) {
            None | Some(Value::Null) => *default,
            Some(v) => integer_at_least(v, 1.0)
                .ok_or_else(|| format!("tool-fs-search: {name} must be a positive integer"))?
                as usize,
        };
        out.push(v);
    }
    Ok(out)
}

// ---- arguments (SEARCH-ARGS-*) ----

/// The parameter schema: an object with a string `pattern` and, when
/// present, string `path` / `include`. Returns the violations.
fn schema_violations(args: &Value, optional: &[&str]) -> Vec<String> {
    let Some(obj) = args.as_object() else {
        return vec!["\"arguments\" must be an object".to_string()];
    };
    let mut v = Vec::new();
    if !obj.contains_key("pattern") {
        v.push("missing required property \"pattern\"".to_string());
    }
    for name in std::iter::once(&"pattern").chain(optional) {
        if let Some(x) = obj.get(*name) {
            if !x.is_string() {
                v.push(format!("\"{name}\" must be a string"));
            }
        }
    }
    v
}

fn grep_schema(args: &Value) -> Vec<String> {
    schema_violations(args, &["path", "include"])
}

fn glob_schema(args: &Value) -> Vec<String> {
    schema_violations(args, &["path"])
}

fn str_arg<'a>(args: &'a Value, name: &str) -> Option<&'a str> {
    args.get(name).and_then(Value::as_str)
}

fn grep_arg_error(args: &Value) -> Option<&'static str> {
    let pattern = str_arg(args, "pattern").unwrap_or("");
    if pattern.is_empty() {
        return Some("pattern must be a non-empty string");
    }
    if let Some(path) = str_arg(args, "path") {
        if blank(path) {
            return Some("path must be a non-empty string when given");
        }
    }
    if let Some(include) = str_arg(args, "include") {
        if blank(include) {
            return Some("include must be a non-empty glob when given");
        }
        if include.starts_with('!') {
            return Some("include must be a positive glob filter; negated patterns (\"!…\") are not supported");
        }
        let mut depth = 0usize;
        for c in include.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    return Some("include must be one glob, not a comma-separated list (use {a,b} alternation instead)")
                }
                _ => {}
            }
        }
    }
    None
}

fn glob_arg_error(args: &Value) -> Option<&'static str> {
    if blank(str_arg(args, "pattern").unwrap_or("")) {
        return Some("pattern must be a non-empty string");
    }
    if let Some(path) = str_arg(args, "path") {
        if blank(path) {
            return Some("path must be a non-empty string when given");
        }
    }
    None
}

fn grep_call_view(args: &Value) -> Value {
    if !grep_schema(args).is_empty() {
        return Value::Null;
    }
    let pattern = str_arg(args, "pattern").unwrap_or("");
    let mut title = format!("Grep {pattern}");
    if let Some(path) = str_arg(args, "path") {
        title.push_str(&format!(" in {path}"));
    }
    if let Some(include) = str_arg(args, "include") {
        title.push_str(&format!(" ({include})"));
    }
    json!({"card": "generic", "title": title, "kind": "search", "rawInput": pattern})
}

fn glob_call_view(args: &Value) -> Value {
    if !glob_schema(args).is_empty() {
        return Value::Null;
    }
    let pattern = str_arg(args, "pattern").unwrap_or("");
    let mut title = format!("Glob {pattern}");
    if let Some(path) = str_arg(args, "path") {
        title.push_str(&format!(" in {path}"));
    }
    json!({"card": "generic", "title": title, "kind": "search", "rawInput": pattern})
}

// ---- the output schema check of the registry ----

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

enum Kind {
    String,
    Integer,
}

fn check_object(
    v: &Value,
    at: &str,
    fields: &[(&str, Kind)],
    out: &mut Vec<String>,
) -> Option<Map<String, Value>> {
    let Some(obj) = v.as_object() else {
        out.push(format!("\"{at}\" must be an object"));
        return None;
    };
    for (name, _) in fields {
        if !obj.contains_key(*name) {
            out.push(format!("missing required property \"{at}.{name}\""));
        }
    }
    for (name, kind) in fields {
        if let Some(x) = obj.get(*name) {
            let ok = match kind {
                Kind::String => x.is_string(),
                Kind::Integer => x.as_f64().is_some_and(|n| n.fract() == 0.0),
            };
            if !ok {
                let want = match kind {
                    Kind::String => "a string",
                    Kind::Integer => "an integer",
                };
                out.push(format!("\"{at}.{name}\" must be {want}"));
            }
        }
    }
    Some(obj.clone())
}

fn undeclared(obj: &Map<String, Value>, at: &str, declared: &[&str], out: &mut Vec<String>) {
    for key in obj.keys() {
        if !declared.contains(&key.as_str()) {
            out.push(format!(
                "\"{at}.{key}\" is not a declared property (additionalProperties: false)"
            ));
        }
    }
}

fn invalid_output(
    tool: &str,
    value: &Value,
    violations: impl FnOnce(&Value) -> Vec<String>,
) -> Option<String> {
    if !is_lossless(value) {
        return Some(format!(
            "tool \"{tool}\" returned invalid output: value is not lossless JSON"
        ));
    }
    let v = violations(value);
    (!v.is_empty()).then(|| format!("tool \"{tool}\" returned invalid output: {}", v.join("; ")))
}

fn grep_value_violations(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(obj) = value.as_object() else {
        return vec!["\"value\" must be an object".to_string()];
    };
    match obj.get("matches") {
        None => out.push("missing required property \"value.matches\"".to_string()),
        Some(Value::Array(matches)) => {
            for (i, m) in matches.iter().enumerate() {
                let at = format!("value.matches[{i}]");
                let fields = [
                    ("path", Kind::String),
                    ("lineNumber", Kind::Integer),
                    ("line", Kind::String),
                ];
                if let Some(o) = check_object(m, &at, &fields, &mut out) {
                    undeclared(&o, &at, &["path", "lineNumber", "line"], &mut out);
                }
            }
        }
        Some(_) => out.push("\"value.matches\" must be an array".to_string()),
    }
    undeclared(obj, "value", &["matches"], &mut out);
    out
}

fn glob_value_violations(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(obj) = value.as_object() else {
        return vec!["\"value\" must be an object".to_string()];
    };
    for name in ["root", "paths"] {
        if !obj.contains_key(name) {
            out.push(format!("missing required property \"value.{name}\""));
        }
    }
    if let Some(root) = obj.get("root") {
        if !root.is_string() {
            out.push("\"value.root\" must be a string".to_string());
        }
    }
    match obj.get("paths") {
        None => {}
        Some(Value::Array(paths)) => {
            for (i, p) in paths.iter().enumerate() {
                if !p.is_string() {
                    out.push(format!("\"value.paths[{i}]\" must be a string"));
                }
            }
        }
        Some(_) => out.push("\"value.paths\" must be an array".to_string()),
    }
    undeclared(obj, "value", &["root", "paths"], &mut out);
    out
}

// ---- results ----

struct Outcome {
    is_error: bool,
    content: String,
    error: Value,
    meta: Value,
    view: Value,
    call_view: Value,
    spill_text: Value,
}

impl Outcome {
    fn error(message: &str, error: Value, call_view: Value) -> Outcome {
        Outcome {
            is_error: true,
            content: format!("Error: {message}"),
            error,
            meta: Value::Null,
            view: Value::Null,
            call_view,
            spill_text: Value::Null,
        }
    }

    fn into_json(self) -> Value {
        json!({
            "isError": self.is_error,
            "content": self.content,
            "error": self.error,
            "meta": self.meta,
            "view": self.view,
            "callView": self.call_view,
            "spillText": self.spill_text,
        })
    }
}

fn args_error() -> Value {
    json!({"name": "ToolArgsError", "code": "INVALID_ARGS"})
}

fn output_error() -> Value {
    json!({"name": "ToolOutputError", "code": "INVALID_TOOL_OUTPUT"})
}

/// The spill store: None when none is loaded; Some(None) when the save fails.
fn spill_store(input: &Value) -> Option<Option<(String, String)>> {
    let spill = input.get("spill")?.as_object()?;
    if spill.get("saved").and_then(Value::as_bool) != Some(true) {
        return Some(None);
    }
    let locator = spill
        .get("locator")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let hint = spill
        .get("retrievalHint")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    Some(Some((locator, hint)))
}

// ---- grep ----

#[derive(Clone)]
struct Match {
    path: String,
    line_number: f64,
    line: String,
}

fn preview(line: &str, max_bytes: usize) -> String {
    let (text, truncated) = head_preview(line, max_bytes);
    if truncated {
        text + " (line truncated)"
    } else {
        text
    }
}

fn group(matches: &[Match]) -> Vec<(String, Vec<&Match>)> {
    let mut groups: Vec<(String, Vec<&Match>)> = Vec::new();
    for m in matches {
        match groups.iter_mut().find(|(p, _)| *p == m.path) {
            Some((_, list)) => list.push(m),
            None => groups.push((m.path.clone(), vec![m])),
        }
    }
    groups
}

fn grep_body(matches: &[Match]) -> String {
    group(matches)
        .iter()
        .map(|(path, list)| {
            let rows: Vec<String> = list
                .iter()
                .map(|m| format!("Line {}: {}", m.line_number, m.line))
                .collect();
            format!("{path}\n{}", rows.join("\n"))
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn grep_text(items: &[Match], seen: usize, truncated: bool, recovery: &str) -> String {
    if seen == 0 {
        return "No matches found".to_string();
    }
    let header = if truncated {
        format!("Found {} of {seen} matches", items.len())
    } else if seen == 1 {
        "Found 1 match".to_string()
    } else {
        format!("Found {seen} matches")
    };
    let body = grep_body(items);
    if truncated {
        format!("{header}\n\n{body}\n\n({recovery})")
    } else {
        format!("{header}\n\n{body}")
    }
}

/// SEARCH-JSON-1: the compact JSON size of the meta.
fn size(meta: &Value) -> usize {
    serde_json::to_string(meta).map(|s| s.len()).unwrap_or(0)
}

/// SEARCH-CAP-1.
fn cap_meta(mut meta: Value, list_key: &str, cap: usize) -> Value {
    if size(&meta) <= cap {
        return meta;
    }
    meta["truncated"] = Value::Bool(true);
    loop {
        let len = meta[list_key].as_array().map_or(0, Vec::len);
        if len <= 1 || size(&meta) <= cap {
            return meta;
        }
        if let Some(list) = meta[list_key].as_array_mut() {
            list.pop();
        }
    }
}

fn grep_meta(items: &[Match], seen: usize, truncated: bool) -> Value {
    let files: Vec<Value> = group(items)
        .iter()
        .map(|(path, list)| {
            let matches: Vec<Value> = list
                .iter()
                .map(|m| json!({"lineNumber": m.line_number, "line": m.line}))
                .collect();
            json!({"path": path, "matches": matches})
        })
        .collect();
    json!({"shape": "matches", "files": files, "truncated": truncated, "total": seen})
}

/// The grep.result op.
pub fn grep_result(input: &Value) -> Result<Value, String> {
    let config = input.get("config").cloned().unwrap_or(Value::Null);
    let settings = [
        Setting::Number("maxMatches", "grepMaxMatches", 250),
        Setting::Number("maxLineBytes", "grepMaxLineBytes", 2000),
        Setting::Number("maxMetaBytes", "searchMetaMaxBytes", 65536),
    ];
    let n = numbers(&config, &settings)?;
    let (max_matches, max_line_bytes, max_meta_bytes) = (n[0], n[1], n[2]);
    let nested = input
        .get("nested")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let args = input.get("args").cloned().unwrap_or(Value::Null);
    let call_view = if nested {
        Value::Null
    } else {
        grep_call_view(&args)
    };

    let violations = grep_schema(&args);
    if !violations.is_empty() {
        let message = format!("invalid arguments: {}", violations.join("; "));
        return Ok(Outcome::error(&message, args_error(), call_view).into_json());
    }
    if let Some(message) = grep_arg_error(&args) {
        return Ok(Outcome::error(message, Value::Null, call_view).into_json());
    }
    let value = input.get("value").cloned().unwrap_or(Value::Null);
    if let Some(message) = invalid_output("grep", &value, grep_value_violations) {
        return Ok(Outcome::error(&message, output_error(), call_view).into_json());
    }

    let all: Vec<Match> = value["matches"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|m| Match {
                    path: m["path"].as_str().unwrap_or("").to_string(),
                    line_number: m["lineNumber"].as_f64().unwrap_or(0.0),
                    line: preview(m["line"].as_str().unwrap_or(""), max_line_bytes),
                })
                .collect()
        })
        .unwrap_or_default();
    let mut retainer = ItemRetainer::head(max_matches);
    for m in &all {
        retainer.push(m.clone());
    }
    let (items, seen, omitted) = retainer.finish();
    let truncated = omitted > 0;

    let store = if nested { None } else { spill_store(input) };
    let mut spill_text = Value::Null;
    let mut recovery = NOT_SAVED_GREP.to_string();
    if !nested && seen > max_matches {
        if let Some(saved) = &store {
            spill_text = Value::String(format!("Found {seen} matches\n\n{}", grep_body(&all)));
            if let Some((locator, hint)) = saved {
                recovery = format!("Full grep result stored at: {locator}. {hint}");
            }
        }
    }
    let content = grep_text(&items, seen, truncated, &recovery);
    let (meta, view) = if nested {
        (Value::Null, Value::Null)
    } else {
        let meta = cap_meta(grep_meta(&items, seen, truncated), "files", max_meta_bytes);
        let view = present("grep", Some(&args), false, Some(&meta));
        (meta, view)
    };
    Ok(Outcome {
        is_error: false,
        content,
        error: Value::Null,
        meta,
        view,
        call_view,
        spill_text,
    }
    .into_json())
}

// ---- glob ----

fn root_relative<'a>(path: &'a str, root: &str) -> &'a str {
    if root == "." {
        return path.strip_prefix("./").unwrap_or(path);
    }
    let r = root.trim_end_matches('/');
    if r.is_empty() {
        return path.trim_start_matches('/');
    }
    if path == r {
        return "";
    }
    match path.strip_prefix(r).and_then(|rest| rest.strip_prefix('/')) {
        Some(rest) => rest,
        None => path,
    }
}

fn top_level_key(path: &str, root: &str) -> String {
    let rel = root_relative(path, root).trim_start_matches('/');
    rel.split('/').next().unwrap_or("").to_string()
}

/// SEARCH-SAMPLE-*: (items, shown, total)
fn sample_across_top_level(
    paths: &[String],
    max_items: usize,
    root: &str,
) -> (Vec<String>, usize, usize) {
    let mut groups: Vec<(String, Vec<&String>)> = Vec::new();
    for p in paths {
        let key = top_level_key(p, root);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, list)) => list.push(p),
            None => groups.push((key, vec![p])),
        }
    }
    let mut taken = vec![0usize; groups.len()];
    let mut count = 0;
    'rounds: loop {
        let mut progressed = false;
        for (i, (_, list)) in groups.iter().enumerate() {
            if count == max_items {
                break 'rounds;
            }
            if taken[i] < list.len() {
                taken[i] += 1;
                count += 1;
                progressed = true;
            }
        }
        if !progressed {
            break;
        }
    }
    let items = groups
        .iter()
        .zip(&taken)
        .flat_map(|((_, list), &n)| list[..n].iter().map(|p| (*p).clone()))
        .collect();
    let shown = taken.iter().filter(|&&n| n > 0).count();
    (items, shown, groups.len())
}

/// The glob.result op.
pub fn glob_result(input: &Value) -> Result<Value, String> {
    let config = input.get("config").cloned().unwrap_or(Value::Null);
    let sample = match config.get("sampleOverCap") {
        None => {
            return Err(invalid_config(
                "sampleOverCapGlobResults",
                "missing required value".to_string(),
            ))
        }
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            let got = template(Some(other));
            return Err(invalid_config(
                "sampleOverCapGlobResults",
                format!("expected boolean but got {got}"),
            ));
        }
    };
    let settings = [
        Setting::Number("maxResults", "globMaxResults", 100),
        Setting::Number("maxMetaBytes", "searchMetaMaxBytes", 65536),
    ];
    let n = numbers(&config, &settings)?;
    let (max_results, max_meta_bytes) = (n[0], n[1]);
    let nested = input
        .get("nested")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let args = input.get("args").cloned().unwrap_or(Value::Null);
    let call_view = if nested {
        Value::Null
    } else {
        glob_call_view(&args)
    };

    let violations = glob_schema(&args);
    if !violations.is_empty() {
        let message = format!("invalid arguments: {}", violations.join("; "));
        return Ok(Outcome::error(&message, args_error(), call_view).into_json());
    }
    if let Some(message) = glob_arg_error(&args) {
        return Ok(Outcome::error(message, Value::Null, call_view).into_json());
    }
    let value = input.get("value").cloned().unwrap_or(Value::Null);
    if let Some(message) = invalid_output("glob", &value, glob_value_violations) {
        return Ok(Outcome::error(&message, output_error(), call_view).into_json());
    }
    let root = value["root"].as_str().unwrap_or(".").to_string();
    let paths: Vec<String> = value["paths"]
        .as_array()
        .map(|l| {
            l.iter()
                .map(|p| p.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    let total = paths.len();
    let truncated = total > max_results;
    let (page, basis) = if !truncated {
        (paths.clone(), ".".to_string())
    } else if !sample {
        (paths[..max_results].to_vec(), ".".to_string())
    } else {
        let (items, shown, groups) = sample_across_top_level(&paths, max_results, &root);
        let basis = if groups == total {
            ".".to_string()
        } else {
            let mut b = format!(", sampled across {shown} of the {groups} top-level entries this pattern matched instead of taken in modification-time order.");
            if shown < groups {
                b.push_str(" Narrow path to inspect a specific subtree.");
            }
            b
        };
        (items, basis)
    };

    let store = if nested { None } else { spill_store(input) };
    let mut spill_text = Value::Null;
    let mut recovery = NOT_SAVED_GLOB.to_string();
    if !nested && truncated {
        if let Some(saved) = &store {
            spill_text = Value::String(paths.join("\n"));
            if let Some((locator, hint)) = saved {
                recovery = format!("Full sorted result stored at: {locator}. {hint}");
            }
        }
    }
    let content = if total == 0 {
        "No files found".to_string()
    } else if !truncated {
        page.join("\n")
    } else {
        format!(
            "{}\n\n(Showing {} of {total} paths{basis} {recovery})",
            page.join("\n"),
            page.len()
        )
    };
    let (meta, view) = if nested {
        (Value::Null, Value::Null)
    } else {
        let meta = json!({"shape": "paths", "paths": page, "truncated": truncated, "total": total});
        let meta = cap_meta(meta, "paths", max_meta_bytes);
        let view = present("glob", Some(&args), false, Some(&meta));
        (meta, view)
    };
    Ok(Outcome {
        is_error: false,
        content,
        error: Value::Null,
        meta,
        view,
        call_view,
        spill_text,
    }
    .into_json())
}

// ---- narrowing and presenters (SEARCH-NARROW-*, SEARCH-PRESENT-*) ----

fn valid_file(f: &Value) -> bool {
    let Some(o) = f.as_object() else { return false };
    let path_ok = o.get("path").is_some_and(Value::is_string);
    let matches_ok = o
        .get("matches")
        .and_then(Value::as_array)
        .is_some_and(|ms| {
            ms.iter().all(|m| {
                m.as_object().is_some_and(|m| {
                    m.get("lineNumber").is_some_and(Value::is_number)
                        && m.get("line").is_some_and(Value::is_string)
                })
            })
        });
    path_ok && matches_ok
}

/// searchViewFromMeta: a view or None; never fails.
fn narrow(meta: Option<&Value>) -> Option<Value> {
    let m = meta?.as_object()?;
    let truncated = m.get("truncated")?.as_bool()?;
    let total = m.get("total").filter(|t| t.is_number())?.clone();
    match m.get("shape")?.as_str()? {
        "matches" => {
            let files = m.get("files")?.as_array()?;
            if !files.iter().all(valid_file) {
                return None;
            }
            Some(
                json!({"card": "search", "shape": "matches", "files": files, "truncated": truncated, "total": total}),
            )
        }
        "paths" => {
            let paths = m.get("paths")?.as_array()?;
            if !paths.iter().all(Value::is_string) {
                return None;
            }
            Some(
                json!({"card": "search", "shape": "paths", "paths": paths, "truncated": truncated, "total": total}),
            )
        }
        _ => None,
    }
}

fn present(tool: &str, args: Option<&Value>, is_error: bool, meta: Option<&Value>) -> Value {
    if let Some(args) = args {
        let violations = if tool == "grep" {
            grep_schema(args)
        } else {
            glob_schema(args)
        };
        if !violations.is_empty() {
            return Value::Null;
        }
    }
    if is_error {
        return Value::Null;
    }
    let want = if tool == "grep" { "matches" } else { "paths" };
    match narrow(meta) {
        Some(view) if view["shape"] == want => view,
        _ => Value::Null,
    }
}

/// The search.present op.
pub fn search_present(input: &Value) -> Result<Value, String> {
    let tool = input["tool"].as_str().unwrap_or("");
    let result = &input["result"];
    let is_error = result
        .get("isError")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let view = present(tool, input.get("args"), is_error, result.get("meta"));
    Ok(json!({"view": view}))
}
