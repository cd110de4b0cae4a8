"""Attribute each failing case of a conform run of the Python port to the
answer key's entry that explains it, and compare with what conform blamed.

    python attribute.py REPORT.json            # the comparison, as YAML
    python attribute.py REPORT.json --baseline # a conform baseline of the
                                               # explained failures
    python attribute.py REPORT.json --check    # the comparison; exit 1 unless
                                               # conform's blame equals the key
                                               # in >= 95% of failing cases and
                                               # its failed list is the key's set

conform is the judge of pass and fail; this only says WHY a case conform
failed fails, from the key's causes (the library calls in answer-key.yaml),
recognised in what the port answered. A failing case no rule explains is
listed as unexplained (a hole in the key).
"""

import re
import sys

sys.path.insert(
    0,
    __import__("os").path.join(
        __import__("os").path.dirname(__file__), "..", "..", "..", "adapters", "kits", "python", "src"
    ),
)
from conform_adapter import parse, stringify  # noqa: E402

LONE = re.compile("[\ud800-\udfff]")


def texts(case):
    """(want, got) of every diff, as JSON texts (strings as they are)."""
    out = []
    for d in case.get("diffs") or []:
        w, g = d.get("want"), d.get("got")
        # A value holding a lone surrogate is written with U+FFFD, its exact
        # JSON text beside it (wantText, gotText): the text is the value.
        if "wantText" in d:
            w = parse(d["wantText"].encode("utf-8", "surrogatepass"))
        if "gotText" in d:
            g = parse(d["gotText"].encode("utf-8", "surrogatepass"))
        out.append((w if isinstance(w, str) else stringify(w), g if isinstance(g, str) else stringify(g)))
    return out


def cause(case):
    """(key requirement, cause) explaining the case, or None."""
    op, inp = case["op"], case.get("input") or {}
    if "inputText" in case:  # the exact input, where the report holds U+FFFD for a lone surrogate
        inp = parse(case["inputText"].encode("utf-8", "surrogatepass"))
    pairs = texts(case)
    got = " ".join(g for _, g in pairs)
    want = " ".join(w for w, _ in pairs)
    # corrections: found only after the run (see answer-key.yaml corrections)
    if op == "spill.preview" and inp.get("toolName") == "read" and inp.get("arm", "result") == "result":
        return "SPILL-RES-2", "correction: the result arm's read exemption is not implemented"
    if op == "run_code.result" and isinstance((inp.get("run") or {}).get("logs"), dict):
        return "CODE-VALUE-1", "correction: logs that are an object are iterated (their keys)"
    if op in ("grep.result", "glob.result") and any(v is None for v in (inp.get("config") or {}).values()):
        return "SEARCH-CFG-1", "correction: dict.get(name, default) returns None for an explicit null"
    # corrections found when the case set grew to 808 (issue 22's null cases)
    if op == "grep.result" and "stored at: None" in got:
        return "SEARCH-GREP-5", "correction: str() of a null locator and hint (dict.get keeps an explicit None)"
    if op == "spill.preview" and "NoneType" in got:
        if "blocks" in inp and inp["blocks"] is None:
            return "SPILL-RES-2", "correction: null blocks are iterated (dict.get keeps an explicit None)"
        return "SPILL-RES-3", 'correction: a null block text is joined ("".join refuses None)'
    # the key's CODE-JSON-3 entry, first triggered when the case set grew to 809 (3,000 levels)
    if "maximum recursion depth exceeded" in got:
        return "CODE-JSON-3", "_lossless and _render_value recurse past Python's recursion limit"
    if "surrogates not allowed" in got:
        if op == "retain.text":
            return "RET-UTF8-3", "str.encode refuses a lone surrogate"
        if op == "spill.preview":
            return "SPILL-RES-2", "str.encode refuses a lone surrogate (size check)"
        if op == "grep.result":
            lines = [m.get("line") for m in (inp.get("value") or {}).get("matches") or [] if isinstance(m, dict)]
            if any(isinstance(s, str) and LONE.search(s) for s in lines):
                return "SEARCH-PREVIEW-3", "str.encode of a line refuses a lone surrogate"
        return "SEARCH-JSON-1", "json.dumps(...).encode refuses a lone surrogate (meta size)"
    if got.count("\ufeff") > want.count("\ufeff"):
        # spill.preview: SPILL-PREV-3, the preview is a headTail retainer (see
        # answer-key.yaml corrections: the key first named SPILL-PREV-4)
        return {"retain.text": "RET-UTF8-3", "grep.result": "SEARCH-PREVIEW-3", "spill.preview": "SPILL-PREV-3"}.get(
            op, "RET-UTF8-3"
        ), "bytes.decode keeps a leading BOM"
    blank = re.compile(r"invalid description|must be a non-empty string|non-empty glob")
    if bool(blank.search(got)) != bool(blank.search(want)):
        return "SEARCH-ARGS-3", "str.strip's whitespace set"
    if op == "run_code.result":
        if LONE.search(got) and "\\ud" in want:
            return "CODE-STR-1", "json.dumps(ensure_ascii=False) leaves lone surrogates raw"
        if "): None" in got or "(None)" in got:
            return "CODE-FAIL-1", "str() of an absent member is None"
        if re.search(r"e-0\d|\d{18,}", got):
            return "CODE-NUM-1", "json.dumps numbers (repr, exact ints)"
    if op == "grep.result" and re.search(r"Line -?\d{18,}", got):
        return "SEARCH-GREP-3", "str() of a big line number"
    if op == "spill.preview":
        if re.search(r"got (inf|-inf|None|\[|\{)", got) or ('"error"' in want and '"output"' in got):
            return "SPILL-CFG-1", "str() in the config messages / bool passes as int"
        if '"undefined"' in want:
            return "SPILL-RES-3", "b.get('text', '') for a block without text"
    if op == "retain.items" and '"error"' in want and '"output"' in got:
        return "RET-ITEM-1", "isinstance(True, int)"
    return None


def causes(case):
    """Every (key requirement, cause) the case shows: cause()'s, and a null
    spill hint written None beside another deviation (a case can show two)."""
    found = cause(case)
    if found is None:
        return []
    out = [found]
    got = " ".join(g for _, g in texts(case))
    want = " ".join(w for w, _ in texts(case))
    if case["op"] == "grep.result" and found[0] != "SEARCH-GREP-5" and ". None)" in got and ". None)" not in want:
        out.append(("SEARCH-GREP-5", "correction: str() of a null retrieval hint (dict.get keeps an explicit None)"))
    return out


def main():
    report = parse(open(sys.argv[1], "rb").read())
    failing = [c for c in report["cases"] if c["verdict"] not in ("pass", "xfail", "skipped", "unsupported")]
    rows, unexplained = [], []
    for c in failing:
        found = causes(c)
        if not found:
            unexplained.append(c["id"])
            continue
        # the key of a case: its requirements (sorted), its first cause
        rows.append((c, sorted({r for r, _ in found}), found[0][1]))
    if "--baseline" in sys.argv:
        print("# Known failures of the idiomatic Python port, one per failing case, each with the answer")
        print("# key's requirement and cause (written by attribute.py --baseline from a conform run).")
        for c, req, why in rows:
            # the key's requirement goes in the reason: an entry's requirement
            # member would also demand that conform blame exactly it
            reason = ", ".join(req) + f" (answer key): {why}"
            print(f"- id: {stringify(c['id'])}\n  reason: {stringify(reason)}")
        return 1 if unexplained else 0
    key_set = sorted({x for _, r, _ in rows for x in r})
    blamed = sorted({b for c in failing for b in c.get("broken") or []})
    exact = [c["id"] for c, r, _ in rows if sorted(c.get("broken") or []) == r]
    within = [c["id"] for c, r, _ in rows if set(r) < set(c.get("broken") or [])]
    missed = [c["id"] for c, r, _ in rows if not set(r) <= set(c.get("broken") or [])]
    print(f"failing_cases: {len(failing)}")
    print(f"explained_by_key: {len(rows)}")
    print(f"unexplained: {stringify(unexplained)}")
    print(f"key_requirements_hit: {stringify(key_set)}")
    print(f"conform_failed_requirements: {stringify(blamed)}")
    print(f"conform_blame_equals_key: {len(exact)}")
    print(f"conform_blame_includes_key_and_more: {len(within)}")
    print(f"conform_blame_misses_key: {len(missed)}")
    print("cases:")
    for c, r, _why in rows:
        print(f"  - {{id: {stringify(c['id'])}, key: {stringify(r)}, conform: {stringify(c.get('broken') or [])}}}")
    if "--check" in sys.argv and (len(exact) < 0.95 * len(failing) or blamed != key_set):
        same = blamed == key_set
        print(f"check failed: blame is the key's in {len(exact)} of {len(failing)}; same list: {same}", file=sys.stderr)
        return 1
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
