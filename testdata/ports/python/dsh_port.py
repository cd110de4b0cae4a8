"""An idiomatic Python port of three dsh ops: retain.items, retain.text and
spill.preview, written from the contract digest (retention.md, spill.md) and
upstream's observable messages, with Python's ordinary library calls.

It is a test subject for conform (issue 20 item 6, issue 24): it is NOT
meant to be right. Where Python's library differs from JavaScript's, it
behaves as Python does; answer-key.yaml lists those places, written by
reading this file before conform ran on it.
"""

import base64
import math

# ---------------------------------------------------------------- retention


def _non_negative_int(value):
    return isinstance(value, int) and value >= 0


def retain_items(input):
    strategy = input.get("strategy") or {}
    max_items = strategy.get("maxItems")
    if not _non_negative_int(max_items):
        raise ValueError("maxItems must be a non-negative integer")
    items, pushes, omitted = [], [], 0
    for item in input.get("items", []):
        if len(items) < max_items:
            items.append(item)
            pushes.append({"kept": True, "truncated": False})
        else:
            omitted += 1
            pushes.append({"kept": False, "truncated": True})
    return {
        "items": items,
        "truncated": omitted > 0,
        "seen": len(items) + omitted,
        "kept": len(items),
        "omitted": {"kind": "exact", "count": omitted} if omitted else {"kind": "none"},
        "pushes": pushes,
    }


def _caps(strategy):
    kind = strategy.get("kind")
    if kind == "headTail":
        for field in ("headBytes", "tailBytes"):
            if not _non_negative_int(strategy.get(field)):
                raise ValueError(f"{field} must be a non-negative integer")
        return strategy["headBytes"], strategy["tailBytes"]
    if not _non_negative_int(strategy.get("maxBytes")):
        raise ValueError("maxBytes must be a non-negative integer")
    if kind == "head":
        return strategy["maxBytes"], 0
    if kind == "tail":
        return 0, strategy["maxBytes"]
    raise ValueError(f"unknown strategy kind {kind}")


def _trim_trailing_partial(b):
    n = len(b)
    i = n - 1
    while i >= 0 and (b[i] & 0xC0) == 0x80 and (n - i) <= 3:
        i -= 1
    if i < 0:
        return b
    lead = b[i]
    if lead < 0x80:
        need = 1
    elif lead < 0xE0:
        need = 2
    elif lead < 0xF0:
        need = 3
    elif lead < 0xF8:
        need = 4
    else:
        return b
    if n - i < need:
        return b[:i]
    return b


def _trim_leading_continuation(b):
    i = 0
    while i < len(b) and (b[i] & 0xC0) == 0x80:
        i += 1
    return b[i:]


def _decode(b):
    return b.decode("utf-8", errors="replace")


def _window(data, head, tail):
    """The head/tail retention of one byte stream: (text, omitted)."""
    total = len(data)
    prefix_len = min(total, head)
    suffix_len = min(total - prefix_len, tail)
    if total - prefix_len - suffix_len == 0:
        return _decode(data), 0
    prefix = _trim_trailing_partial(data[:prefix_len])
    suffix = _trim_leading_continuation(data[total - suffix_len :])
    return _decode(prefix) + _decode(suffix), total - len(prefix) - len(suffix)


def retain_text(input):
    head, tail = _caps(input.get("strategy") or {})
    if "chunksBase64" in input:
        chunks = [base64.b64decode(c) for c in input["chunksBase64"]]
    else:
        chunks = [c.encode("utf-8") for c in input.get("chunks", [])]

    def omitted_at(t):
        p = min(t, head)
        return t - p - min(t - p, tail)

    pushes, total = [], 0
    for chunk in chunks:
        before = omitted_at(total)
        total += len(chunk)
        after = omitted_at(total)
        pushes.append({"kept": not after > before, "truncated": after > 0})
    text, omitted = _window(b"".join(chunks), head, tail)
    return {
        "text": text,
        "truncated": omitted > 0,
        "omittedBytes": {"kind": "exact", "count": omitted} if omitted else {"kind": "none"},
        "pushes": pushes,
    }


# ---------------------------------------------------------------- spill policy


def spill_preview(input):
    if "maxInlineBytes" not in input:
        return {"content": None, "save": None}  # SPILL-CFG-1: the policy is off
    cap = input["maxInlineBytes"]
    if cap is not None and not isinstance(cap, (int, float)):
        raise ValueError(f"invalid config:\n  - $.maxInlineBytes expected number but got {cap} (at maxInlineBytes)")
    if not _non_negative_int(cap):
        raise ValueError(f"spill-policy: maxInlineBytes must be a non-negative integer (got {cap})")

    if "blocks" in input:
        blocks = input["blocks"]
        if any(b.get("type") != "text" for b in blocks):
            return {"content": None, "save": None}
        text = "".join(b.get("text", "") for b in blocks)
    else:
        text = input.get("text", "")
    total = len(text.encode("utf-8"))
    if total <= cap:
        return {"content": None, "save": None}

    tool = input.get("toolName", "tool")
    save = {"label": input.get("arm", "result"), "suggestedName": f"{tool}.txt", "text": text}
    ref = input.get("ref")
    if ref is None:
        return {"content": None, "save": save}  # the save failed: keep the original

    def notice(count):
        return f"(Omitted {count} bytes. Full formatted result stored at: {ref['locator']}. {ref['retrievalHint']})"

    reserve = len(notice(total).encode("utf-8")) + 2
    budget = max(0, cap - reserve)
    preview, omitted = _window(text.encode("utf-8"), math.ceil(budget / 2), budget // 2)
    replacement = f"{preview}\n\n{notice(omitted)}" if preview else notice(omitted)
    if len(replacement.encode("utf-8")) > cap:
        return {"content": None, "save": save}
    return {"content": replacement, "save": save}


OPS = {"retain.items": retain_items, "retain.text": retain_text, "spill.preview": spill_preview}
