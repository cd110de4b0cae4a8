"""An idiomatic Python port of the dsh ops of conform's protocol (retain.items,
retain.text, spill.preview, run_code.result, grep.result, glob.result,
search.present), written from the contract digest (retention.md, spill.md,
code-mode.md, search-card.md, docs/ops.md) and upstream's observable
messages, with Python's ordinary library calls.

It is a test subject for conform (issue 20 item 6, issue 24): it is NOT
meant to be right. Where Python's library differs from JavaScript's, it
behaves as Python does; answer-key.yaml lists those places, written by
reading this file before conform ran on it.
"""

import base64
import json
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
    save = {
        "label": input.get("arm", "result"),
        "suggestedName": f"{tool}.txt",
        "text": text,
    }
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


# ---------------------------------------------------------------- shared: errors, views, JSON


def _blank(s):
    return s.strip() == ""


def _error_result(message, error=None, call_view=None, **extra):
    out = {
        "isError": True,
        "content": f"Error: {message}",
        "error": error,
        "meta": None,
        "view": None,
        "callView": call_view,
    }
    out.update(extra)
    return out


ARGS_ERROR = {"name": "ToolArgsError", "code": "INVALID_ARGS"}
OUTPUT_ERROR = {"name": "ToolOutputError", "code": "INVALID_TOOL_OUTPUT"}


def _schema_violations(args, required, optional):
    """The registry's argument schema check: missing members first, then wrong types."""
    if not isinstance(args, dict):
        return ['"arguments" must be an object']
    out = [f'missing required property "{name}"' for name in required if name not in args]
    for name in [*required, *optional]:
        if name in args and not isinstance(args[name], str):
            out.append(f'"{name}" must be a string')
    return out


def _lossless(value):
    """JSON the registry can snapshot: no -0, no NaN or infinities."""
    if isinstance(value, float):
        return math.isfinite(value) and not (value == 0 and math.copysign(1.0, value) < 0)
    if isinstance(value, list):
        return all(_lossless(v) for v in value)
    if isinstance(value, dict):
        return all(_lossless(v) for v in value.values())
    return True


def _compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------- run_code


def _render_value(value, depth=0):
    """JSON.stringify(value, null, 2) with containers at depth >= 5 compact (CODE-JSON-2)."""
    if isinstance(value, (dict, list)) and value:
        if depth >= 5:
            return _compact(value)
        pad = "  " * (depth + 1)
        if isinstance(value, dict):
            rows = [
                f"{pad}{json.dumps(k, ensure_ascii=False)}: {_render_value(v, depth + 1)}" for k, v in value.items()
            ]
            return "{\n" + ",\n".join(rows) + "\n" + "  " * depth + "}"
        rows = [pad + _render_value(v, depth + 1) for v in value]
        return "[\n" + ",\n".join(rows) + "\n" + "  " * depth + "]"
    return json.dumps(value, ensure_ascii=False)


def run_code_result(input):
    args = input.get("args")
    run = input.get("run") or {}
    violations = _schema_violations(args, ["code", "description"], [])
    if violations:
        return _error_result("invalid arguments: " + "; ".join(violations), ARGS_ERROR)
    call_view = {
        "card": "generic",
        "title": args["description"],
        "kind": "execute",
        "rawInput": args["code"],
    }
    if _blank(args["description"]):
        return _error_result("invalid description: expected a non-empty string", None, call_view)
    logs = run.get("logs")
    error = run.get("error")
    if error:
        text = f"code run failed ({error.get('kind')}): {error.get('message')}"
        if logs:
            text += "\nCaptured output:\n" + "\n".join(logs)
        return _error_result(text, {"name": "CodeRunFailedError", "code": "CODE_RUN_FAILED"}, call_view)
    if logs is None or not _lossless(run.get("result")):
        return _error_result(
            'tool "run_code" returned invalid output: value is not lossless JSON',
            OUTPUT_ERROR,
            call_view,
        )
    bad = [f'"value.logs[{i}]" must be a string' for i, log in enumerate(logs) if not isinstance(log, str)]
    if bad:
        return _error_result(
            'tool "run_code" returned invalid output: ' + "; ".join(bad),
            OUTPUT_ERROR,
            call_view,
        )
    parts = ["\n".join(logs)]
    if "result" in run:
        result = run["result"]
        parts.append(result if isinstance(result, str) else _render_value(result))
    parts = [p for p in parts if p]
    text = "\n".join(parts) if parts else "(run_code completed with no output)"
    return {
        "isError": False,
        "content": text,
        "error": None,
        "meta": None,
        "view": None,
        "callView": call_view,
    }


# ---------------------------------------------------------------- search: config


def _config(config, fields):
    """fields: [(input name, upstream name, default)] -> values; thrown errors as upstream words them."""
    out = []
    for name, upstream, default in fields:
        value = config.get(name, default)
        if value is not None and not isinstance(value, (int, float)):
            raise ValueError(f"invalid config:\n  - $.{upstream} expected number but got {value} (at {upstream})")
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"tool-fs-search: {upstream} must be a positive integer")
        out.append(value)
    return out


# ---------------------------------------------------------------- search: canonical values


def _type_violation(path, value, kind):
    ok = {
        "string": isinstance(value, str),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "array": isinstance(value, list),
        "object": isinstance(value, dict),
    }[kind]
    return [] if ok else [f'"{path}" must be {"an" if kind[0] in "aeiou" else "a"} {kind}']


def _object_violations(path, obj, declared):
    """declared: [(name, kind)]; missing first, then the members' own, then undeclared ones."""
    if not isinstance(obj, dict):
        return [f'"{path}" must be an object']
    out = [f'missing required property "{path}.{name}"' for name, _ in declared if name not in obj]
    for name, kind in declared:
        if name in obj:
            out += (
                kind(f"{path}.{name}", obj[name])
                if callable(kind)
                else _type_violation(f"{path}.{name}", obj[name], kind)
            )
    names = {n for n, _ in declared}
    out += [f'"{path}.{k}" is not a declared property (additionalProperties: false)' for k in obj if k not in names]
    return out


def _array_of(item_check):
    def check(path, value):
        if not isinstance(value, list):
            return [f'"{path}" must be an array']
        out = []
        for i, v in enumerate(value):
            out += item_check(f"{path}[{i}]", v)
        return out

    return check


def _match_violations(path, match):
    return _object_violations(path, match, [("path", "string"), ("lineNumber", "integer"), ("line", "string")])


def _grep_value_violations(value):
    if not _lossless(value):
        return ["value is not lossless JSON"]
    return _object_violations("value", value, [("matches", _array_of(_match_violations))])


def _glob_value_violations(value):
    if not _lossless(value):
        return ["value is not lossless JSON"]
    return _object_violations(
        "value",
        value,
        [
            ("root", "string"),
            ("paths", _array_of(lambda p, v: _type_violation(p, v, "string"))),
        ],
    )


# ---------------------------------------------------------------- search: meta


def _meta_size(meta):
    return len(_compact(meta).encode("utf-8"))


def _cap_meta(meta, key, cap):
    if _meta_size(meta) <= cap:
        return meta
    items = list(meta[key])
    capped = {**meta, key: items, "truncated": True}
    while len(items) > 1 and _meta_size(capped) > cap:
        items.pop()
    return capped


def _view(tool, args, is_error, meta):
    """The grep/glob result presenter over the narrowed meta."""
    if (
        is_error
        or not isinstance(args, dict)
        or _schema_violations(args, ["pattern"], ["path", "include"] if tool == "grep" else ["path"])
    ):
        return None
    view = _narrow(meta)
    shape = "matches" if tool == "grep" else "paths"
    return view if view is not None and view["shape"] == shape else None


def _narrow(meta):
    if not isinstance(meta, dict):
        return None
    if not isinstance(meta.get("truncated"), bool) or not _is_number(meta.get("total")):
        return None
    shape = meta.get("shape")
    if shape == "matches":
        files = meta.get("files")
        if not isinstance(files, list):
            return None
        for f in files:
            if not isinstance(f, dict) or not isinstance(f.get("path"), str) or not isinstance(f.get("matches"), list):
                return None
            for m in f["matches"]:
                if not isinstance(m, dict) or not _is_number(m.get("lineNumber")) or not isinstance(m.get("line"), str):
                    return None
        return {
            "card": "search",
            "shape": "matches",
            "files": files,
            "truncated": meta["truncated"],
            "total": meta["total"],
        }
    if shape == "paths":
        paths = meta.get("paths")
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            return None
        return {
            "card": "search",
            "shape": "paths",
            "paths": paths,
            "truncated": meta["truncated"],
            "total": meta["total"],
        }
    return None


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def search_present(input):
    tool = input.get("tool")
    result = input.get("result") or {}
    if "args" in input:
        args = input["args"]
    else:
        args = {"pattern": ""}  # no soft argument check
    if tool not in ("grep", "glob"):
        return {"view": None}
    return {"view": _view(tool, args, bool(result.get("isError", False)), result.get("meta"))}


# ---------------------------------------------------------------- grep


def _preview(line, max_bytes):
    text, omitted = _window(line.encode("utf-8"), max_bytes, 0)
    return text + " (line truncated)" if omitted else text


def _groups(matches):
    groups = {}
    for m in matches:
        groups.setdefault(m["path"], []).append(m)
    return groups


def _grep_body(matches):
    return "\n\n".join(
        path + "".join(f"\nLine {m['lineNumber']}: {m['line']}" for m in ms) for path, ms in _groups(matches).items()
    )


def _spill_state(input):
    """None: no store; else the saved reference or False (the save failed)."""
    spill = input.get("spill")
    if spill is None:
        return None
    if spill.get("saved"):
        return {
            "locator": spill.get("locator"),
            "retrievalHint": spill.get("retrievalHint"),
        }
    return False


def grep_result(input):
    max_matches, max_line_bytes, max_meta_bytes = _config(
        input.get("config") or {},
        [
            ("maxMatches", "grepMaxMatches", 250),
            ("maxLineBytes", "grepMaxLineBytes", 2000),
            ("maxMetaBytes", "searchMetaMaxBytes", 65536),
        ],
    )
    args = input.get("args")
    nested = input.get("nested") is True
    violations = _schema_violations(args, ["pattern"], ["path", "include"])
    if violations:
        return _error_result("invalid arguments: " + "; ".join(violations), ARGS_ERROR, spillText=None)
    title = "Grep " + args["pattern"]
    if "path" in args:
        title += " in " + args["path"]
    if "include" in args:
        title += " (" + args["include"] + ")"
    call_view = (
        None
        if nested
        else {
            "card": "generic",
            "title": title,
            "kind": "search",
            "rawInput": args["pattern"],
        }
    )
    message = None
    include = args.get("include")
    if args["pattern"] == "":
        message = "pattern must be a non-empty string"
    elif "path" in args and _blank(args["path"]):
        message = "path must be a non-empty string when given"
    elif include is not None and _blank(include):
        message = "include must be a non-empty glob when given"
    elif include is not None and include.startswith("!"):
        message = 'include must be a positive glob filter; negated patterns ("!…") are not supported'
    elif include is not None and _top_level_comma(include):
        message = "include must be one glob, not a comma-separated list (use {a,b} alternation instead)"
    if message:
        return _error_result(message, None, call_view, spillText=None)
    value = input.get("value")
    violations = _grep_value_violations(value)
    if violations:
        return _error_result(
            'tool "grep" returned invalid output: ' + "; ".join(violations),
            OUTPUT_ERROR,
            call_view,
            spillText=None,
        )

    matches = [{**m, "line": _preview(m["line"], max_line_bytes)} for m in value["matches"]]
    seen = len(matches)
    kept = matches[:max_matches]
    truncated = seen > len(kept)
    spill = None if nested else _spill_state(input)
    spill_text = None
    if seen == 0:
        content = "No matches found"
    else:
        if not truncated:
            header = f"Found {seen} match" if seen == 1 else f"Found {seen} matches"
        else:
            header = f"Found {len(kept)} of {seen} matches"
        content = f"{header}\n\n{_grep_body(kept)}"
        if truncated:
            if spill is not None:
                spill_text = f"Found {seen} matches\n\n{_grep_body(matches)}"
            if spill:
                recovery = f"Full grep result stored at: {spill['locator']}. {spill['retrievalHint']}"
            else:
                recovery = "The complete result could not be saved; narrow pattern, path, or include to see more."
            content += f"\n\n({recovery})"
    if nested:
        return {
            "isError": False,
            "content": content,
            "error": None,
            "meta": None,
            "view": None,
            "callView": None,
            "spillText": None,
        }
    files = [
        {
            "path": path,
            "matches": [{"lineNumber": m["lineNumber"], "line": m["line"]} for m in ms],
        }
        for path, ms in _groups(kept).items()
    ]
    meta = _cap_meta(
        {"shape": "matches", "files": files, "truncated": truncated, "total": seen},
        "files",
        max_meta_bytes,
    )
    return {
        "isError": False,
        "content": content,
        "error": None,
        "meta": meta,
        "view": _view("grep", args, False, meta),
        "callView": call_view,
        "spillText": spill_text,
    }


def _top_level_comma(glob):
    depth = 0
    for c in glob:
        if c == "{":
            depth += 1
        elif c == "}":
            depth = max(0, depth - 1)
        elif c == "," and depth == 0:
            return True
    return False


# ---------------------------------------------------------------- glob


def _top_level_key(path, root):
    if root == ".":
        rel = path[2:] if path.startswith("./") else path
    else:
        r = root.rstrip("/")
        if r == "":
            rel = path.lstrip("/")
        elif path == r:
            rel = ""
        elif path.startswith(r + "/"):
            rel = path[len(r) + 1 :]
        else:
            rel = path
    return rel.lstrip("/").split("/", 1)[0]


def _sample(paths, max_items, root):
    groups = {}
    for p in paths:
        groups.setdefault(_top_level_key(p, root), []).append(p)
    taken = {k: 0 for k in groups}
    count = 0
    while count < max_items and any(taken[k] < len(v) for k, v in groups.items()):
        for k, v in groups.items():
            if count >= max_items:
                break
            if taken[k] < len(v):
                taken[k] += 1
                count += 1
    items = [p for k, v in groups.items() for p in v[: taken[k]]]
    return items, sum(1 for n in taken.values() if n), len(groups)


def glob_result(input):
    config = input.get("config") or {}
    if config.get("sampleOverCap") is None:
        raise ValueError(
            "invalid config:\n  - $.sampleOverCapGlobResults missing required value (at sampleOverCapGlobResults)"
        )
    sample = config["sampleOverCap"]
    if not isinstance(sample, bool):
        raise ValueError(
            "invalid config:\n  - $.sampleOverCapGlobResults expected boolean"
            f" but got {sample} (at sampleOverCapGlobResults)"
        )
    max_results, max_meta_bytes = _config(
        config,
        [
            ("maxResults", "globMaxResults", 100),
            ("maxMetaBytes", "searchMetaMaxBytes", 65536),
        ],
    )
    args = input.get("args")
    nested = input.get("nested") is True
    violations = _schema_violations(args, ["pattern"], ["path"])
    if violations:
        return _error_result("invalid arguments: " + "; ".join(violations), ARGS_ERROR, spillText=None)
    title = "Glob " + args["pattern"] + (" in " + args["path"] if "path" in args else "")
    call_view = (
        None
        if nested
        else {
            "card": "generic",
            "title": title,
            "kind": "search",
            "rawInput": args["pattern"],
        }
    )
    if _blank(args["pattern"]):
        return _error_result("pattern must be a non-empty string", None, call_view, spillText=None)
    if "path" in args and _blank(args["path"]):
        return _error_result(
            "path must be a non-empty string when given",
            None,
            call_view,
            spillText=None,
        )
    value = input.get("value")
    violations = _glob_value_violations(value)
    if violations:
        return _error_result(
            'tool "glob" returned invalid output: ' + "; ".join(violations),
            OUTPUT_ERROR,
            call_view,
            spillText=None,
        )

    paths, root = value["paths"], value["root"]
    n = len(paths)
    truncated = n > max_results
    spill = None if nested else _spill_state(input)
    spill_text = None
    if n == 0:
        page, content = [], "No files found"
    elif not truncated:
        page, content = paths, "\n".join(paths)
    else:
        if sample:
            page, shown, total = _sample(paths, max_results, root)
        else:
            page, shown, total = paths[:max_results], 0, 0
        basis = "."
        if sample and total != n:
            basis = (
                f", sampled across {shown} of the {total} top-level entries this pattern matched instead of "
                "taken in modification-time order."
            )
            if shown < total:
                basis += " Narrow path to inspect a specific subtree."
        if spill is not None:
            spill_text = "\n".join(paths)
        if spill:
            recovery = f"Full sorted result stored at: {spill['locator']}. {spill['retrievalHint']}"
        else:
            recovery = "The complete result could not be saved; narrow pattern or path to see more."
        content = "\n".join(page) + f"\n\n(Showing {len(page)} of {n} paths{basis} {recovery})"
    if nested:
        return {
            "isError": False,
            "content": content,
            "error": None,
            "meta": None,
            "view": None,
            "callView": None,
            "spillText": None,
        }
    meta = _cap_meta(
        {"shape": "paths", "paths": list(page), "truncated": truncated, "total": n},
        "paths",
        max_meta_bytes,
    )
    return {
        "isError": False,
        "content": content,
        "error": None,
        "meta": meta,
        "view": _view("glob", args, False, meta),
        "callView": call_view,
        "spillText": spill_text,
    }


OPS = {
    "retain.items": retain_items,
    "retain.text": retain_text,
    "spill.preview": spill_preview,
    "run_code.result": run_code_result,
    "grep.result": grep_result,
    "glob.result": glob_result,
    "search.present": search_present,
}
