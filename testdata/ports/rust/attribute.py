"""Attribute each failing case of a conform run of the Rust port to the
answer key's deviation that explains it, and compare with what conform
blamed.

    python3 attribute.py REPORT.json          # the comparison, as YAML
    python3 attribute.py REPORT.json --baseline # a conform baseline of the
                                              # explained failures
    python3 attribute.py REPORT.json --check  # the comparison; exit 1 unless
                                              # conform's blame equals the key
                                              # in >= 95% of failing cases and
                                              # its failed list is the key's set

REPORT.json is `conform run --format json` of the port
(adapters/kits/rust/examples/port.rs). conform is the judge of pass and
fail; this only says WHY a failing case fails, from the causes in
answer-key.yaml (the library calls), recognised in what the port answered
and in the case's input. A deviation of the key names the requirements of
all its cases; a case gets the one its input and answer break, by the rule
the key's `corrections:` state (the place's rule for a refused input, the
op's decoding rule for a kept BOM, the measure for the meta cap). A failing
case no rule explains is listed as unexplained (a hole in the key).
"""

import json
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "adapters", "kits", "python", "src"))
from conform_adapter import parse, stringify  # noqa: E402

LONE = re.compile("[\ud800-\udfff]")
CAP_DEFAULT = 65536  # searchMetaMaxBytes (SEARCH-CFG-1)

# serde-refuses-lone-surrogates (corrections): the refusal blames the rule of
# the first input place holding a lone surrogate, in the order the port reads
# them; "*" steps into every element of an array.
PLACES = {
    "retain.text": [(("text",), "RET-UTF8-3"), (("chunks", "*"), "RET-UTF8-3")],
    "grep.result": [
        (("value", "matches", "*", "line"), "SEARCH-PREVIEW-3"),
        (("value", "matches", "*", "path"), "SEARCH-JSON-1"),
    ],
    "glob.result": [(("value", "paths", "*"), "SEARCH-JSON-1")],
    "spill.preview": [(("text",), "SPILL-RES-2"), (("blocks", "*", "text"), "SPILL-RES-2")],
    "run_code.result": [(("run", "logs", "*"), "CODE-RENDER-1"), (("run", "result"), "CODE-STR-1")],
    "search.present": [(("result", "meta"), "SEARCH-NARROW-1")],
    "retain.items": [(("items",), "RET-ITEM-1")],
}

# stringify-loses-negative-zero-and-infinity: where the port's lossless or
# config check would have refused the -0 or Infinity it never sees.
LOSSY = {
    "run_code.result": (("run", "result"), "CODE-LOSSLESS-1"),
    "grep.result": (("value",), "SEARCH-VAL-1"),
    "search.present": (("result", "meta"), "SEARCH-NARROW-3"),
    "spill.preview": (("maxInlineBytes",), "SPILL-CFG-1"),
}

# utf8-lossy-keeps-bom: the rule that decodes in each op.
DECODES = {"retain.text": "RET-UTF8-3", "grep.result": "SEARCH-PREVIEW-3", "spill.preview": "SPILL-PREV-3"}


def at(v, path):
    """Every value reached by path (a tuple of keys, "*" for each element)."""
    if not path:
        return [v]
    if path[0] == "*":
        return [x for item in (v if isinstance(v, list) else []) for x in at(item, path[1:])]
    if isinstance(v, dict) and path[0] in v:
        return at(v[path[0]], path[1:])
    return []


def walk(v):
    """v and everything within it, keys included, without recursion."""
    stack = [v]
    while stack:
        v = stack.pop()
        yield v
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())


def has(v, pred):
    return any(pred(x) for x in walk(v))


def lone(x):
    return isinstance(x, str) and bool(LONE.search(x))


def lossy(x):
    """-0 or an overflowing number: what JSON.stringify writes 0 and null."""
    return isinstance(x, float) and (x in (float("inf"), float("-inf")) or (x == 0 and str(x).startswith("-")))


def exact(d, side):
    """A diff's want or got value, exact where the report holds U+FFFD for a
    lone surrogate (its exact JSON text beside it)."""
    if side + "Text" in d:
        return parse(d[side + "Text"].encode("utf-8", "surrogatepass"))
    return d.get(side)


def text_of(v):
    return v if isinstance(v, str) else stringify(v)


def thrown(case):
    """The error message the port threw, or None."""
    for d in case.get("diffs") or []:
        got = exact(d, "got")
        if d.get("field") == "" and isinstance(got, dict) and isinstance(got.get("error"), str):
            return got["error"]
    return None


def diff(case, field):
    for d in case.get("diffs") or []:
        if d.get("field") == field:
            return d
    return None


def tree(text):
    """A rendered JSON value with members in written order and numbers as
    written: ("obj", [(key, tree)]), ("arr", [...]), ("num", text) or the
    scalar; None where it is no JSON text."""
    try:
        return json.loads(
            text,
            object_pairs_hook=lambda pairs: ("obj", pairs),
            parse_int=lambda s: ("num", s),
            parse_float=lambda s: ("num", s),
            parse_constant=lambda s: ("num", s),
        )
    except ValueError:
        return None


def rendered_differences(want, got):
    """The kinds of difference between two rendered values: "order" (the same
    members, got's in byte order of their UTF-8 names as a BTreeMap iterates
    them), "number" (a number written otherwise), "other"."""
    kinds, stack = set(), [(want, got)]
    while stack:
        w, g = stack.pop()
        if isinstance(w, list) and isinstance(g, list):
            if len(w) != len(g):
                kinds.add("other")
            stack.extend(zip(w, g, strict=False))
        elif isinstance(w, tuple) and isinstance(g, tuple) and w[0] == g[0]:
            if w[0] == "num":
                if w[1] != g[1]:
                    kinds.add("number" if float(w[1]) == float(g[1]) else "value")
            elif w[0] == "obj":
                wk, gk = [k for k, _ in w[1]], [k for k, _ in g[1]]
                if sorted(wk) != sorted(gk):
                    kinds.add("other")
                    continue
                if wk != gk:
                    kinds.add(
                        "order" if gk == sorted(gk, key=lambda k: k.encode("utf-8", "surrogatepass")) else "other"
                    )
                gd = dict(g[1])
                stack.extend((v, gd[k]) for k, v in w[1])
            else:
                stack.extend(zip(w[1], g[1], strict=False))
        elif w != g:
            kinds.add("other")
    return kinds


def run_code_rendering(case, inp):
    """Key causes of a run_code result rendered otherwise: serde-map-sorts-keys
    (CODE-KEYS-1) and ryu-number-format-in-rendered-json with its correction
    serde-float-parsing-not-round-trip (CODE-NUM-1)."""
    d = diff(case, "content")
    run = inp.get("run") if isinstance(inp.get("run"), dict) else {}
    if d is None or "result" not in run or isinstance(run["result"], str):
        return []
    want, got = text_of(exact(d, "want")), text_of(exact(d, "got"))
    logs = "\n".join(x for x in run.get("logs") or [] if isinstance(x, str))
    if logs:
        if not (want.startswith(logs + "\n") and got.startswith(logs + "\n")):
            return []
        want, got = want[len(logs) + 1 :], got[len(logs) + 1 :]
    w, g = tree(want), tree(got)
    if w is None or g is None:
        return []
    kinds = rendered_differences(w, g)
    if "other" in kinds:
        return []
    out = []
    if "order" in kinds:
        out.append(
            ("CODE-KEYS-1", "serde-map-sorts-keys: serde_json::Map is a BTreeMap, members iterate sorted by name")
        )
    if "number" in kinds:
        out.append(
            ("CODE-NUM-1", "ryu-number-format-in-rendered-json: serde_json writes an f64 its own way (1e+20, 1e-6)")
        )
    if "value" in kinds:
        out.append(
            (
                "CODE-NUM-1",
                "serde-float-parsing-not-round-trip (correction): serde_json's default f64 reader rounds twice",
            )
        )
    return out


def serde_f64(x):
    """An integral f64 as serde_json writes it: "1.0", "1e+16" (Python's repr
    of an integral float is the same text)."""
    return repr(float(x))


def meta_size(meta, number):
    """The compact JSON size of a grep meta, line numbers written by number."""
    files = []
    for f in meta.get("files") or []:
        rows = [f'{{"lineNumber":{number(m["lineNumber"])},"line":{stringify(m["line"])}}}' for m in f["matches"]]
        files.append(f'{{"path":{stringify(f["path"])},"matches":[{",".join(rows)}]}}')
    total = stringify(meta["total"])
    trunc = stringify(meta["truncated"])
    text = f'{{"shape":"matches","files":[{",".join(files)}],"truncated":{trunc},"total":{total}}}'
    return len(text.encode("utf-8", "surrogatepass"))


def meta_measure(case, inp):
    """serde-f64-meta-measure: the meta upstream keeps measures over the cap
    with each line number written as serde_json writes an f64 ("1.0"), so the
    port drops groups or sets truncated; its text is upstream's."""
    if case["op"] != "grep.result" or diff(case, "content") or not diff(case, "meta"):
        return None
    config = inp.get("config") if isinstance(inp.get("config"), dict) else {}
    cap = config.get("maxMetaBytes", config.get("searchMetaMaxBytes", CAP_DEFAULT))
    # the whole golden meta (a diff holds only the part that differs)
    with open(os.path.join(ROOT, "golden", case["id"] + ".json"), "rb") as f:
        want = (parse(f.read()).get("output") or {}).get("meta")
    if not isinstance(want, dict) or not isinstance(cap, int):
        return None
    if meta_size(want, stringify) <= cap < meta_size(want, serde_f64):
        return (
            "SEARCH-JSON-1",
            "serde-f64-meta-measure: search::size is serde_json::to_string of a json! holding f64 line numbers (1.0)",
        )
    return None


def cause(case):
    """Every (key requirement, cause) explaining the case; [] for none."""
    op, inp = case["op"], case.get("input") or {}
    if "inputText" in case:  # the exact input, where the report holds U+FFFD for a lone surrogate
        inp = parse(case["inputText"].encode("utf-8", "surrogatepass"))
    error = thrown(case)
    pairs = [(text_of(exact(d, "want")), text_of(exact(d, "got"))) for d in case.get("diffs") or []]
    want = " ".join(w for w, _ in pairs)
    got = " ".join(g for _, g in pairs)
    if error is not None and "hex escape" in error:
        for path, req in PLACES.get(op, []):
            if any(has(v, lone) for v in at(inp, path)):
                return [(req, "serde-refuses-lone-surrogates: serde_json::from_str refuses a lone surrogate escape")]
        return []
    if error is not None and "recursion limit exceeded" in error:
        return [("CODE-JSON-3", "serde-recursion-limit: serde_json::from_str stops at 128 levels")]
    blank = re.compile(r"invalid description|must be a non-empty string|non-empty glob")
    if bool(blank.search(got)) != bool(blank.search(want)):
        return [
            ("SEARCH-ARGS-3", "rust-trim-whitespace-set: str::trim strips Unicode White_Space (U+0085, not U+FEFF)")
        ]
    if got.count("\ufeff") > want.count("\ufeff") and op in DECODES:
        return [(DECODES[op], "utf8-lossy-keeps-bom: String::from_utf8_lossy keeps a leading BOM")]
    if op in LOSSY and any(has(v, lossy) for v in at(inp, LOSSY[op][0])):
        return [
            (
                LOSSY[op][1],
                "stringify-loses-negative-zero-and-infinity: the glue re-reads JSON.stringify's text",
            )
        ]
    if op == "run_code.result":
        found = run_code_rendering(case, inp)
        if found:
            return found
        run = inp.get("run") if isinstance(inp.get("run"), dict) else {}
        logs = run.get("logs")
        if "invalid output" in got and (not isinstance(logs, list) or any(not isinstance(x, str) for x in logs)):
            return [
                (
                    "CODE-VALUE-1",
                    "run-code-logs-violations (correction): the first non-string log only",
                )
            ]
    if op == "grep.result" and re.search(r"Line -?\d{22,}", got) and not re.search(r"Line -?\d{22,}", want):
        found = [("SEARCH-GREP-3", "f64-display-line-number: f64 Display never writes an exponent")]
        if diff(case, "spillText"):
            found.append(
                ("SEARCH-SPILL-2", "f64-display-line-number: the spill text's rows are written with f64 Display too")
            )
        return found
    measured = meta_measure(case, inp)
    if measured:
        return [measured]
    if op == "spill.preview":
        blocks = inp.get("blocks") if isinstance(inp.get("blocks"), list) else []
        if any(isinstance(b, dict) and b.get("type") == "text" and not isinstance(b.get("text"), str) for b in blocks):
            return [
                (
                    "SPILL-RES-3",
                    'missing-block-text-is-empty, null-block-text-is-empty: b["text"].as_str().unwrap_or("")',
                )
            ]
    if op == "glob.result" and (inp.get("config") or {}).get("sampleOverCap", 0) is None:
        return [
            ("SEARCH-CFG-2", "config-null-is-not-missing (correction): a null sampleOverCap matched as Some(other)")
        ]
    return []


def main():
    report = parse(open(sys.argv[1], "rb").read())
    failing = [c for c in report["cases"] if c["verdict"] not in ("pass", "xfail", "skipped", "unsupported")]
    rows, unexplained = [], []
    for c in failing:
        found = cause(c)
        if not found:
            unexplained.append(c["id"])
            continue
        rows.append((c, sorted({r for r, _ in found}), "; ".join(dict.fromkeys(w for _, w in found))))
    if "--baseline" in sys.argv:
        print("# Known failures of the idiomatic Rust port, one per failing case, each with the answer")
        print("# key's requirement and deviation (written by attribute.py --baseline from a conform run).")
        for c, req, why in rows:
            # the key's requirement goes in the reason: an entry's requirement
            # member would also demand that conform blame exactly it
            reason = ", ".join(req) + f" (answer key: {why})"
            print(f"- id: {stringify(c['id'])}\n  reason: {stringify(reason)}")
        return 1 if unexplained else 0
    key_set = sorted({x for _, r, _ in rows for x in r})
    blamed = sorted({b for c in failing for b in c.get("broken") or []})
    exact_ = [c["id"] for c, r, _ in rows if sorted(c.get("broken") or []) == r]
    more = [c["id"] for c, r, _ in rows if set(r) < set(c.get("broken") or [])]
    missed = [c["id"] for c, r, _ in rows if not set(r) <= set(c.get("broken") or [])]
    print(f"failing_cases: {len(failing)}")
    print(f"explained_by_key: {len(rows)}")
    print(f"unexplained: {stringify(unexplained)}")
    print(f"key_requirements_hit: {stringify(key_set)}")
    print(f"conform_failed_requirements: {stringify(blamed)}")
    print(f"conform_blame_equals_key: {len(exact_)}")
    print(f"conform_blame_includes_key_and_more: {len(more)}")
    print(f"conform_blame_misses_key: {len(missed)}")
    print("cases:")
    for c, r, _why in rows:
        same = "" if sorted(c.get("broken") or []) == r else ", differs: true"
        print(
            f"  - {{id: {stringify(c['id'])}, key: {stringify(r)}, conform: {stringify(c.get('broken') or [])}{same}}}"
        )
    if "--check" in sys.argv and (len(exact_) < 0.95 * len(failing) or blamed != key_set):
        same = blamed == key_set
        print(
            f"check failed: blame is the key's in {len(exact_)} of {len(failing)}; same list: {same}", file=sys.stderr
        )
        return 1
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
