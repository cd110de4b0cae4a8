//! ItemRetainer and TextRetainer (retention.md).

use base64::Engine as _;
use serde_json::{json, Value};

use crate::js::integer_at_least;

/// The outcome of one push.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Push {
    pub kept: bool,
    pub truncated: bool,
}

impl Push {
    fn to_json(self) -> Value {
        json!({"kept": self.kept, "truncated": self.truncated})
    }
}

fn omitted(count: usize) -> Value {
    if count == 0 {
        json!({"kind": "none"})
    } else {
        json!({"kind": "exact", "count": count})
    }
}

/// Head item retention (RET-ITEM-*).
pub struct ItemRetainer<T> {
    max_items: usize,
    items: Vec<T>,
    seen: usize,
}

impl<T> ItemRetainer<T> {
    pub fn head(max_items: usize) -> Self {
        ItemRetainer {
            max_items,
            items: Vec::new(),
            seen: 0,
        }
    }

    pub fn push(&mut self, item: T) -> Push {
        self.seen += 1;
        if self.items.len() < self.max_items {
            self.items.push(item);
            Push {
                kept: true,
                truncated: false,
            }
        } else {
            Push {
                kept: false,
                truncated: true,
            }
        }
    }

    /// (items, seen, omitted count)
    pub fn finish(self) -> (Vec<T>, usize, usize) {
        let omitted = self.seen - self.items.len();
        (self.items, self.seen, omitted)
    }
}

/// Text retention over UTF-8 bytes (RET-TEXT-*).
pub struct TextRetainer {
    head: usize,
    tail: usize,
    prefix: Vec<u8>,
    suffix: Vec<u8>,
    total: usize,
}

impl TextRetainer {
    pub fn new(head: usize, tail: usize) -> Self {
        TextRetainer {
            head,
            tail,
            prefix: Vec::new(),
            suffix: Vec::new(),
            total: 0,
        }
    }

    fn omitted_at(&self, total: usize) -> usize {
        let p = total.min(self.head);
        let s = (total - p).min(self.tail);
        total - p - s
    }

    pub fn push(&mut self, chunk: &[u8]) -> Push {
        let before = self.omitted_at(self.total);
        let room = self.head - self.prefix.len();
        let (to_prefix, rest) = chunk.split_at(room.min(chunk.len()));
        self.prefix.extend_from_slice(to_prefix);
        if self.tail > 0 {
            // Keep what follows the prefix; finish takes its last `tail` bytes.
            self.suffix.extend_from_slice(rest);
        }
        self.total += chunk.len();
        let after = self.omitted_at(self.total);
        Push {
            kept: after <= before,
            truncated: after > 0,
        }
    }

    /// (text, truncated, omitted bytes)
    pub fn finish(&self) -> (String, bool, usize) {
        let from = self.suffix.len().saturating_sub(self.tail);
        let suffix = &self.suffix[from..];
        if self.omitted_at(self.total) == 0 {
            let mut all = self.prefix.clone();
            all.extend_from_slice(suffix);
            return (decode(&all), false, 0);
        }
        let head = trim_trailing_partial(&self.prefix);
        let tail = trim_leading_continuation(suffix);
        let text = decode(head) + &decode(tail);
        (text, true, self.total - head.len() - tail.len())
    }
}

fn decode(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// RET-UTF8-1.
fn trim_trailing_partial(b: &[u8]) -> &[u8] {
    let len = b.len();
    if len == 0 {
        return b;
    }
    let mut i = len as isize - 1;
    while i >= 0 && (b[i as usize] & 0xC0) == 0x80 && (len as isize - i) <= 3 {
        i -= 1;
    }
    if i < 0 {
        return b;
    }
    let i = i as usize;
    let lead = b[i];
    let need = if lead < 0x80 {
        1
    } else if lead < 0xE0 {
        2
    } else if lead < 0xF0 {
        3
    } else if lead < 0xF8 {
        4
    } else {
        0
    };
    if need == 0 {
        return b;
    }
    if len - i < need {
        return &b[..i];
    }
    b
}

/// RET-UTF8-2.
fn trim_leading_continuation(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|&&c| (c & 0xC0) == 0x80).count();
    &b[n..]
}

fn budget(strategy: &Value, field: &str) -> Result<usize, String> {
    strategy
        .get(field)
        .and_then(|v| integer_at_least(v, 0.0))
        .map(|x| x as usize)
        .ok_or_else(|| format!("{field} must be a non-negative integer"))
}

/// The retain.items op.
pub fn retain_items(input: &Value) -> Result<Value, String> {
    let strategy = &input["strategy"];
    let max_items = budget(strategy, "maxItems")
        .map_err(|_| "maxItems must be a non-negative integer".to_string())?;
    let items = input["items"].as_array().cloned().unwrap_or_default();
    let mut r = ItemRetainer::head(max_items);
    let pushes: Vec<Value> = items.into_iter().map(|i| r.push(i).to_json()).collect();
    let (items, seen, omitted_count) = r.finish();
    Ok(json!({
        "items": items,
        "truncated": omitted_count > 0,
        "seen": seen,
        "kept": items.len(),
        "omitted": omitted(omitted_count),
        "pushes": pushes,
    }))
}

/// The retain.text op.
pub fn retain_text(input: &Value) -> Result<Value, String> {
    let strategy = &input["strategy"];
    let mut r = match strategy["kind"].as_str() {
        Some("head") => TextRetainer::new(budget(strategy, "maxBytes")?, 0),
        Some("tail") => TextRetainer::new(0, budget(strategy, "maxBytes")?),
        Some("headTail") => {
            let head = budget(strategy, "headBytes")?;
            TextRetainer::new(head, budget(strategy, "tailBytes")?)
        }
        other => return Err(format!("unknown strategy kind {other:?}")),
    };
    let chunks: Vec<Vec<u8>> = if let Some(list) = input["chunksBase64"].as_array() {
        list.iter()
            .map(|c| {
                base64::engine::general_purpose::STANDARD
                    .decode(c.as_str().unwrap_or(""))
                    .map_err(|e| e.to_string())
            })
            .collect::<Result<_, _>>()?
    } else {
        input["chunks"]
            .as_array()
            .map(|l| {
                l.iter()
                    .map(|c| c.as_str().unwrap_or("").as_bytes().to_vec())
                    .collect()
            })
            .unwrap_or_default()
    };
    let pushes: Vec<Value> = chunks.iter().map(|c| r.push(c).to_json()).collect();
    let (text, truncated, omitted_bytes) = r.finish();
    Ok(json!({
        "text": text,
        "truncated": truncated,
        "omittedBytes": omitted(omitted_bytes),
        "pushes": pushes,
    }))
}

/// A head preview of `text` within `max_bytes` (used by grep).
pub fn head_preview(text: &str, max_bytes: usize) -> (String, bool) {
    let mut r = TextRetainer::new(max_bytes, 0);
    r.push(text.as_bytes());
    let (text, truncated, _) = r.finish();
    (text, truncated)
}

/// A head/tail preview (used by the spill policy): (text, omitted bytes).
pub fn head_tail_preview(text: &str, head: usize, tail: usize) -> (String, usize) {
    let mut r = TextRetainer::new(head, tail);
    r.push(text.as_bytes());
    let (text, _, omitted) = r.finish();
    (text, omitted)
}
